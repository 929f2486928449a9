//! Playing: a turn from the player's words, a suggested action picked by its number, and the
//! `/events` stream every seat listens to.
//!
//! A turn runs in its own task, holding the campaign's lock to its end: the caller's stream and
//! every seat's `/events` get its events as they happen, and a caller who goes away does not
//! stop it halfway (the engine commits a turn whole or not at all either way).

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use dnd_engine::gm::{GmError, PlayerInput, TurnEvent, TurnOutcome};
use dnd_engine::offline::OfflinePlayer;
use dnd_engine::state::GameState;
use dnd_engine::store::{CampaignId, StoreError};
use futures::StreamExt;
use futures::channel::mpsc;
use futures::stream::BoxStream;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiError, RawBody, parse_body};
use crate::live::{Frame, Live};
use crate::seats::{Seat, Table};
use crate::{MAX_TEXT_CHARS, Server, view};

/// The body of `POST .../turns`: `{"text"}`, or the voice design's `GameRequest`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnBody {
    text: Option<String>,
    /// `GameRequest`: the voice session (kept for the log only).
    #[allow(dead_code)]
    session_id: Option<String>,
    /// `GameRequest`: who spoke. A seat speaks for its own hero; a different name is refused.
    active_speaker: Option<String>,
    /// `GameRequest`: the words.
    utterance: Option<String>,
    /// `GameRequest`: when they were said.
    #[allow(dead_code)]
    timestamp: Option<serde_json::Value>,
}

/// The body of `POST .../actions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    index: usize,
}

/// A streamed answer: `text/event-stream`.
type EventStream = Response;

/// Events as a server-sent-events response, with keep-alive comments while nothing happens.
fn sse(stream: BoxStream<'static, Result<Event, Infallible>>) -> Response {
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

fn unprocessable(code: &'static str, message: String) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
}

/// `POST /api/campaigns/{id}/turns`.
pub async fn turn(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<EventStream, ApiError> {
    let (table, seat) = server.authorize(&id, &headers).await?;
    let body: TurnBody = parse_body(&body)?;
    if let Some(speaker) = body.active_speaker.as_deref().map(str::trim)
        && !speaker.is_empty()
        && !speaker.eq_ignore_ascii_case(&seat.hero)
        && !speaker.eq_ignore_ascii_case(&seat.hero_id)
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong_speaker",
            format!(
                "this seat plays {}; active_speaker {:?} is another hero: each speaks by their own seat",
                seat.hero,
                crate::short(speaker)
            ),
        ));
    }
    let text = match (body.text, body.utterance) {
        (Some(text), None) | (None, Some(text)) => text,
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "send either {\"text\"} or a GameRequest's \"utterance\", not both",
            ));
        }
        (None, None) => {
            return Err(unprocessable(
                "missing_text",
                "say what your hero does: {\"text\": \"I look around.\"}".to_owned(),
            ));
        }
    };
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(unprocessable(
            "text_too_long",
            format!("the text is {chars} characters long; a turn takes at most {MAX_TEXT_CHARS}"),
        ));
    }
    if text.trim().is_empty() {
        return Err(unprocessable(
            "missing_text",
            "the text is empty: say what your hero does".to_owned(),
        ));
    }
    let input = PlayerInput::new(seat.hero.clone(), text.trim());
    start(server, id, table, seat, input).await
}

/// `POST /api/campaigns/{id}/actions`: the engine rolls the suggestion, then the game master
/// narrates.
pub async fn action(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<EventStream, ApiError> {
    let (table, seat) = server.authorize(&id, &headers).await?;
    let ActionBody { index } = parse_body(&body)?;
    let (suggested_for, actions) = server
        .live_of(&id)
        .suggestions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    // A suggestion's roll is its hero's (its attacker, its skill): another hero cannot take it.
    if !actions.is_empty() && suggested_for != seat.hero {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_your_action",
            format!(
                "these actions were suggested for {suggested_for}; say what {} does instead",
                seat.hero
            ),
        ));
    }
    let Some(action) = index.checked_sub(1).and_then(|i| actions.get(i)) else {
        return Err(unprocessable(
            "no_such_action",
            if actions.is_empty() {
                "there are no suggested actions now; say what your hero does instead".to_owned()
            } else {
                format!("there is no action {index}: pick 1 to {}", actions.len())
            },
        ));
    };
    let input = PlayerInput::choose(seat.hero.clone(), action);
    start(server, id, table, seat, input).await
}

/// The checks every turn passes (rate, one at a time, whose turn in a fight), then the turn in
/// its own task, streamed.
async fn start(
    server: Arc<Server>,
    id: String,
    table: Table,
    seat: Seat,
    input: PlayerInput,
) -> Result<EventStream, ApiError> {
    let live = server.live_of(&id);
    let guard = live.try_lock()?;
    let campaign = CampaignId(id.clone());
    let state = match server.store.load(&campaign).await {
        Ok(state) => state,
        Err(StoreError::NotFound(_)) => return Err(ApiError::campaign_not_found(&id)),
        Err(e) => return Err(ApiError::internal(e.to_string())),
    };
    // In a fight only the hero whose turn it is acts; on a monster's turn, or an AI
    // companion's, any seat may move the fight on.
    if let Some(fight) = dnd_table::combat::CombatView::of(&state)
        && let Some(current) = fight.hero_to_act()
        && current.id != seat.hero_id
        && table
            .seats
            .iter()
            .any(|s| s.hero_id == current.id && !s.is_ai())
    {
        let mut error = ApiError::new(
            StatusCode::CONFLICT,
            "not_your_turn",
            format!(
                "it is {}'s turn in the fight; {} acts when their turn comes",
                current.name, seat.hero
            ),
        );
        error.whose_turn = Some(current.name.clone());
        return Err(error);
    }
    live.count_turn(server.turns_per_minute)?;
    let (sender, receiver) = mpsc::unbounded::<Frame>();
    let next = state.turn + 1;
    tokio::spawn(async move {
        // The lock is held until the turn (and the AI companions' turns after it) has ended
        // and its view is out; it is let go before the caller's stream ends, so whoever read
        // the outcome may play the next turn at once.
        let mut guard = Some(guard);
        let mut sender = Some(sender);
        let mut last = play_one(
            &server,
            &live,
            &campaign,
            (&table, &seat),
            (next, input),
            sender.as_ref(),
        )
        .await;
        // Only a table with companions reads the state again to see whose turn is next.
        let companions = if table.seats.iter().any(Seat::is_ai) {
            MAX_COMPANION_TURNS
        } else {
            0
        };
        for _ in 0..companions {
            let Some(outcome) = last.take() else { break };
            let Ok(state) = server.store.load(&campaign).await else {
                break;
            };
            let Some(companion) = companion_to_act(&state, &table) else {
                break;
            };
            let input = live
                .companions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(companion.hero_id.clone())
                .or_insert_with(|| OfflinePlayer::new(companion.hero_id.clone()))
                .next_input(Some(&outcome), &state);
            let Some(input) = input else { break };
            // The caller's stream ends with its own turn's outcome; the companions' turns
            // go to every seat's /events.
            drop(sender.take());
            let next = state.turn + 1;
            last = play_one(
                &server,
                &live,
                &campaign,
                (&table, companion),
                (next, input),
                None,
            )
            .await;
        }
        drop(guard.take());
        drop(sender.take());
    });
    let stream = receiver.map(|frame| Ok(frame.to_event())).boxed();
    Ok(sse(stream))
}

/// The most turns AI companions play in a row after a player's turn, so a fight of companions
/// alone cannot hold the campaign for long; the next player's turn moves them on again.
const MAX_COMPANION_TURNS: usize = 4;

/// The AI companion whose turn it is in a fight, if it is one's.
fn companion_to_act<'t>(state: &GameState, table: &'t Table) -> Option<&'t Seat> {
    let fight = dnd_table::combat::CombatView::of(state)?;
    let current = fight.hero_to_act()?;
    table
        .seats
        .iter()
        .find(|s| s.hero_id == current.id && s.is_ai())
}

/// Plays one turn to its end: `turn_started`, then its events as they happen, to every seat's
/// `/events` and to `caller` (the stream of whoever asked for it, if anyone waits); then the
/// `view` to every seat and the `outcome` to the caller. Its outcome, or none when it failed
/// (an `error` event said why; nothing was saved).
async fn play_one(
    server: &Server,
    live: &Live,
    campaign: &CampaignId,
    (table, seat): (&Table, &Seat),
    (turn, input): (u64, PlayerInput),
    caller: Option<&mpsc::UnboundedSender<Frame>>,
) -> Option<TurnOutcome> {
    let send = |frame: Frame| {
        if let Some(caller) = caller {
            let _ = caller.unbounded_send(frame.clone());
        }
        let _ = live.events.send(frame);
    };
    let _ = live.events.send(Frame::new(
        "turn_started",
        json!({"hero": seat.hero, "text": input.text, "turn": turn, "ai": seat.is_ai()}),
    ));
    let gm = server.master(table.protocol);
    let mut events = gm.turn_stream(campaign, input);
    let mut result = None;
    while let Some(event) = events.next().await {
        match event {
            TurnEvent::Text(text) => send(Frame::new("narration", json!({"text": text}))),
            TurnEvent::ToolCall {
                id,
                name,
                arguments,
            } => send(Frame::new(
                "tool_call",
                json!({"id": id, "name": name, "arguments": arguments}),
            )),
            TurnEvent::ToolResult { id, name, result } => {
                let data = match result {
                    Ok(result) => json!({"id": id, "name": name, "result": result}),
                    Err(why) => json!({"id": id, "name": name, "refused": why}),
                };
                send(Frame::new("tool_result", data));
            }
            TurnEvent::Done(done) => {
                result = Some(*done);
                break;
            }
            _ => {}
        }
    }
    drop(events);
    match result {
        Some(Ok(outcome)) => {
            *live.suggestions.lock().unwrap_or_else(|e| e.into_inner()) =
                (seat.hero.clone(), outcome.suggested_actions.clone());
            live.touch();
            match view::build(server, &campaign.0, table, None).await {
                Ok(shared) => {
                    let own = shared.clone().for_seat(seat);
                    let _ = live.events.send(Frame::new("view", json!(shared)));
                    if let Some(caller) = caller {
                        let _ = caller.unbounded_send(Frame::new(
                            "outcome",
                            json!({"view": own, "turn": outcome.turn}),
                        ));
                    }
                    Some(outcome)
                }
                Err(e) => {
                    send(Frame::new(
                        "error",
                        json!({"code": e.code, "message": e.message}),
                    ));
                    None
                }
            }
        }
        Some(Err(error)) => {
            send(error_frame(&error));
            None
        }
        None => {
            send(Frame::new(
                "error",
                json!({"code": "turn_lost", "message": "the turn ended without an outcome; nothing was saved"}),
            ));
            None
        }
    }
}

/// A failed turn as an `error` event: nothing was saved.
fn error_frame(error: &GmError) -> Frame {
    let code = match error {
        GmError::Input(_) => "bad_input",
        GmError::Provider(_) => "provider_failed",
        GmError::Store(StoreError::Conflict { .. }) => "conflict",
        GmError::Store(_) => "store_failed",
        GmError::Deadline { .. } => "deadline",
        _ => "turn_failed",
    };
    let message = match error {
        // Not retried here: the player's words were meant for the state they saw, and the
        // other turn may have changed it (a fight's order, a door now open). They see the new
        // state in the `view` event and send their turn again if it still fits.
        GmError::Store(StoreError::Conflict { .. }) => format!(
            "another turn of this campaign (from another seat, maybe through another server) \
             was saved first, so this one was not kept ({error}); nothing of it was saved: \
             look at the new state and send your turn again"
        ),
        _ => format!("{error}; nothing was saved"),
    };
    Frame::new("error", json!({"code": code, "message": message}))
}

/// `GET /api/campaigns/{id}/events`: each turn's events as they happen, for every seat, and
/// `view` after each turn (its `seat` the listener's).
pub async fn events(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<EventStream, ApiError> {
    let (_, seat) = server.authorize(&id, &headers).await?;
    let receiver = server.live_of(&id).events.subscribe();
    let own = json!({"hero": seat.hero, "hero_id": seat.hero_id, "ai": false});
    let stream = futures::stream::unfold(receiver, move |mut receiver| {
        let own = own.clone();
        async move {
            loop {
                match receiver.recv().await {
                    Ok(mut frame) => {
                        if frame.event == "view" {
                            frame.data["seat"] = own;
                        }
                        return Some((Ok(frame.to_event()), receiver));
                    }
                    // A listener that fell behind skips to what is next.
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                }
            }
        }
    })
    .boxed();
    Ok(sse(stream))
}
