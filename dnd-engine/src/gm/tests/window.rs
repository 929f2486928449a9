//! Every request fits a small context window: the game master's, the summariser's and an AI
//! player's over a long game, and a refusal for context length is tried once, cut smaller.

use super::*;
use crate::agents::{AiPlayer, SharedLog};
use crate::llm::CompletionRequest;
use crate::llm::window::{answer_reserve, request_tokens};
use serde_json::{Value, json};

/// Narration long enough that a few turns of history fill the window.
fn long_narration(turn: usize) -> String {
    format!("Turn {turn}: ") + &"The wind howls over the ice and the party presses on. ".repeat(60)
}

fn fits(request: &CompletionRequest, window: u32) -> bool {
    request_tokens(request) + answer_reserve(request) <= window as usize
}

#[tokio::test]
async fn every_request_of_a_long_game_fits_a_small_window() {
    // Above what the system prompt, state block, the situation's tools and one turn need
    // (about 4,000 tokens), below what sixteen turns of history add.
    const GM_WINDOW: u32 = 5_000;
    const PLAYER_WINDOW: u32 = 3_000;
    // Each turn: a tool round, then a long narration; the summariser gets the same cycle
    // (a tool-call answer has no text, so code folds that time).
    let mut cycle = Vec::new();
    for turn in 0..3 {
        cycle.push(CompletionResponse::from_tool_calls(
            vec![perception_check()],
        ));
        cycle.push(CompletionResponse::from_text(long_narration(turn)));
    }
    cycle.push(CompletionResponse::from_text(
        "The party crossed the glacier.",
    ));
    let window = Capabilities::default().with_context_window(GM_WINDOW);
    let gm_model = Arc::new(ScriptedProvider::looping(cycle).with_capabilities(window));
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(gm_model.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .protocol(Protocol::ToolLoop)
        .limits(GmLimits {
            summary_every: 5,
            // The model's window is what this test cuts to, not the cost bound.
            call_tokens: None,
            ..GmLimits::default()
        })
        .seed(3)
        .build();
    let player_model = Arc::new(
        ScriptedProvider::looping(vec![CompletionResponse::from_text("I walk on.")])
            .with_capabilities(Capabilities::default().with_context_window(PLAYER_WINDOW)),
    );
    let mut player = AiPlayer::new("Kraven", player_model.clone());
    let mut log = SharedLog::default();
    let mut last = None;
    let mut cut_notes = 0;
    let mut narrations = Vec::new();
    for _ in 0..16 {
        let outcome = player
            .play_turn(&mut log, &gm, &id, last.as_ref())
            .await
            .unwrap();
        cut_notes += outcome
            .trace
            .iter()
            .filter(|s| matches!(s, TraceStep::Note { text } if text.contains("context window")))
            .count();
        narrations.push(outcome.narration.clone());
        last = Some(outcome);
    }
    let gm_requests = gm_model.requests();
    assert!(gm_requests.iter().all(|r| fits(r, GM_WINDOW)));
    assert!(
        cut_notes > 0,
        "the history never had to be cut: the test proves nothing"
    );
    let summaries = gm_requests
        .iter()
        .filter(|r| {
            r.messages
                .iter()
                .any(|m| m.text().is_some_and(|t| t.contains("What happened since")))
        })
        .count();
    assert!(summaries >= 2, "{summaries} summary calls");
    // The head and the current turn are always there.
    for request in gm_requests.iter().filter(|r| r.tools.len() > 1) {
        assert_eq!(request.messages[0].text(), Some(DEFAULT_SYSTEM_PROMPT));
    }
    let player_requests = player_model.requests();
    assert_eq!(player_requests.len(), 16);
    assert!(player_requests.iter().all(|r| fits(r, PLAYER_WINDOW)));
    // Without the cut the player's view (24 messages of long narration) would not fit.
    let last_view = log.view_for("Kraven");
    let whole = CompletionRequest::new(last_view);
    assert!(!fits(&whole, PLAYER_WINDOW));
    assert!(
        player_requests
            .last()
            .unwrap()
            .messages
            .last()
            .unwrap()
            .text()
            .is_some_and(|t| t.contains(&narrations[14].chars().take(20).collect::<String>())),
        "the latest narration (the 15th turn's, before the 16th) is kept: {:?}",
        player_requests.last().unwrap().messages.last()
    );
}

#[tokio::test]
async fn a_refusal_for_context_length_is_tried_once_smaller_then_fails_cleanly() {
    let too_long = || {
        Err(LlmError::context_length(
            Some(400),
            "the request exceeds the available context size",
        ))
    };
    let mut script = Vec::new();
    for turn in 0..3 {
        script.push(text(&long_narration(turn).repeat(4)));
    }
    script.push(too_long());
    script.push(text("You press on."));
    script.push(too_long());
    script.push(too_long());
    let (provider, store, gm, id) = table(script, Protocol::ToolLoop).await;
    // No fold in these five turns (a summary call would take a scripted answer).
    let gm = limited(gm, |limits| {
        limits.history_turns = 6;
        limits.summary_every = 10;
        limits.call_tokens = None;
    });
    for _ in 0..3 {
        gm.turn(&id, PlayerInput::new("Kraven", "Walk."))
            .await
            .unwrap();
    }
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Walk."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "You press on.");
    let requests = provider.requests();
    let (refused, retried) = (&requests[3], &requests[4]);
    assert!(
        request_tokens(retried) <= request_tokens(refused) * 3 / 4,
        "the retry was not cut: {} then {}",
        request_tokens(refused),
        request_tokens(retried)
    );
    assert_eq!(retried.messages.last(), refused.messages.last());
    assert!(
        outcome
            .trace
            .iter()
            .any(|s| matches!(s, TraceStep::Note { text } if text.contains("trying once more")))
    );
    // Refused twice: the turn fails, says why, and writes nothing.
    let before = store.load(&id).await.unwrap();
    let error = gm
        .turn(&id, PlayerInput::new("Kraven", "Walk."))
        .await
        .unwrap_err();
    assert!(
        matches!(error, GmError::Provider(LlmError::ContextLength { .. })),
        "{error}"
    );
    assert!(error.to_string().contains("context window"), "{error}");
    assert_eq!(store.load(&id).await.unwrap(), before);
    assert_eq!(provider.requests().len(), 7, "one retry, no more");
}

#[tokio::test]
async fn a_window_too_small_for_the_prompt_fails_before_any_call() {
    let provider = Arc::new(
        ScriptedProvider::new(vec![text("never sent")])
            .with_capabilities(Capabilities::default().with_context_window(2_000)),
    );
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .seed(1)
        .build();
    let error = gm
        .turn(&id, PlayerInput::new("Kraven", "Look."))
        .await
        .unwrap_err();
    assert!(
        matches!(error, GmError::Provider(LlmError::ContextLength { .. })),
        "{error}"
    );
    assert!(
        error.to_string().contains("larger context window"),
        "{error}"
    );
    assert!(provider.requests().is_empty());
}

#[tokio::test]
async fn the_summariser_folds_by_code_the_lines_that_do_not_fit() {
    const WINDOW: u32 = 14_000;
    // Narration of some 10,000 tokens without a sentence's end: each folded turn's line is
    // all of it, and two of them are over the window.
    let long = "snow ".repeat(8_000);
    let mut script = Vec::new();
    // Keep 2, fold 4: the 7th turn folds the first four.
    for _ in 0..6 {
        script.push(text(&long));
    }
    script.push(text("The hero walked through the snow."));
    script.push(text("More snow."));
    let provider = Arc::new(
        ScriptedProvider::new(script)
            .with_capabilities(Capabilities::default().with_context_window(WINDOW)),
    );
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .protocol(Protocol::ToolLoop)
        .limits(GmLimits {
            history_turns: 2,
            summary_every: 4,
            max_narration_bytes: 40_000,
            ..GmLimits::default()
        })
        .seed(9)
        .build();
    let mut last = None;
    for _ in 0..7 {
        last = Some(
            gm.turn(&id, PlayerInput::new("Kraven", "Walk."))
                .await
                .unwrap(),
        );
    }
    let requests = provider.requests();
    assert_eq!(requests.len(), 8, "seven turns and one summary call");
    let summary = &requests[6];
    assert!(
        summary.messages[1]
            .text()
            .is_some_and(|t| t.contains("What happened since"))
    );
    assert!(fits(summary, WINDOW));
    assert!(requests.iter().all(|r| fits(r, WINDOW)));
    let trace = last.unwrap().trace;
    assert!(
        trace.iter().any(|s| matches!(s, TraceStep::Note { text } if text.contains("3 of 4 lines folded into the summary by code"))),
        "{trace:?}"
    );
    let state = store.load(&id).await.unwrap();
    assert_eq!(&*state.summary, "The hero walked through the snow.");
}

#[tokio::test]
async fn a_call_over_the_cost_bound_leaves_out_its_oldest_turns_and_never_its_own() {
    const BOUND: usize = 3_000;
    let mut script = Vec::new();
    for turn in 0..4 {
        script.push(text(&long_narration(turn)));
    }
    let (provider, _, gm, id) = table(script, Protocol::ToolLoop).await;
    // No fold in these turns: only the bound cuts.
    let gm = limited(gm, |limits| {
        limits.history_turns = 6;
        limits.summary_every = 10;
        limits.call_tokens = Some(BOUND);
    });
    let mut notes = 0;
    for _ in 0..4 {
        let outcome = gm
            .turn(&id, PlayerInput::new("Kraven", "Walk."))
            .await
            .unwrap();
        notes += outcome
            .trace
            .iter()
            .filter(|s| matches!(s, TraceStep::Note { text } if text.contains("call_tokens")))
            .count();
    }
    let requests = provider.requests();
    // Each long narration is some 800 tokens: three of them would not fit with the tools.
    assert!(notes > 0, "the bound never cut: the test proves nothing");
    for request in &requests {
        assert!(
            request_tokens(request) <= BOUND,
            "{} tokens sent over a bound of {BOUND}",
            request_tokens(request)
        );
        assert_eq!(
            request.messages.last().and_then(|m| m.text()),
            Some("Walk."),
            "the turn's own input is kept"
        );
    }
    // The newest past turn stays while the oldest go.
    let last = requests.last().unwrap();
    let said: Vec<&str> = last.messages.iter().filter_map(|m| m.text()).collect();
    assert!(said.iter().any(|t| t.starts_with("Turn 2: ")), "{said:?}");
    assert!(!said.iter().any(|t| t.starts_with("Turn 0: ")), "{said:?}");

    // A bound below what the turn needs without any history sends the call as it is:
    // leaving out context would not bring it within the bound.
    let (provider, _, gm, id) = table(
        vec![text("You walk."), text("You walk on.")],
        Protocol::ToolLoop,
    )
    .await;
    let gm = limited(gm, |limits| {
        limits.call_tokens = Some(10);
    });
    for _ in 0..2 {
        gm.turn(&id, PlayerInput::new("Kraven", "Walk."))
            .await
            .unwrap();
    }
    let second = &provider.requests()[1];
    assert!(
        second
            .messages
            .iter()
            .any(|m| m.text() == Some("You walk.")),
        "the past turn was left out for nothing"
    );
}

#[test]
fn past_turns_are_sent_shorter_and_the_same_every_time() {
    let room = json!({
        "title": "The Hall of Echoes",
        "description": "Beyond the archway the glacier opens into a hall of pillars, each holding a warrior frozen mid-stride.",
        "features": [{"id": "frozen-wardens", "name": "Frozen wardens",
                      "description": "Dozens of warriors in old mail, sealed in the ice."}],
        "loot": [],
    });
    let mut messages = vec![
        Message::Assistant {
            content: None,
            tool_calls: vec![call(
                "c1",
                "get_room_details",
                json!({"detail": "full", "reason": null}),
            )],
            reasoning: None,
        },
        Message::tool_result("c1", room.to_string()),
    ];
    crate::gm::context::past_turn(&mut messages);
    let again = {
        let mut copy = messages.clone();
        crate::gm::context::past_turn(&mut copy);
        copy
    };
    let Message::Assistant { tool_calls, .. } = &messages[0] else {
        panic!("{:?}", messages[0])
    };
    assert_eq!(tool_calls[0].arguments, json!({"detail": "full"}));
    let Message::Tool { content, .. } = &messages[1] else {
        panic!("{:?}", messages[1])
    };
    let sent: Value = serde_json::from_str(content).unwrap();
    assert_eq!(
        sent["description"],
        "Beyond the archway the glacier opens into a hall of…"
    );
    assert_eq!(sent["features"][0]["description"], "Dozens of warriors in…");
    assert_eq!(sent["features"][0]["id"], "frozen-wardens");
    assert_eq!(sent["title"], "The Hall of Echoes");
    assert_eq!(
        sent["loot"],
        json!([]),
        "every field is kept: typed readers parse it"
    );
    assert_eq!(messages, again, "cutting twice changes nothing");
}
