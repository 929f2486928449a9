//! A hostile player and a hostile model: rerolls by cancelling, answers of any size, tool calls
//! without end, a model that never answers. Each case is bounded, and a failed turn writes
//! nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::StreamExt;
use serde_json::json;

use super::{ACTIONS, call, table, text, tools};
use crate::adventure::Adventure;
use crate::gm::*;
use crate::llm::{CompletionRequest, CompletionResponse, LlmError, LlmProvider, ScriptedProvider};
use crate::store::{GameStore, MemoryStore, Page};

/// Many dice in one call: a replay that drew fresh dice could not match by chance.
fn many_dice() -> crate::llm::ToolCall {
    call(
        "d1",
        "roll_dice",
        json!({"expression": "10d20", "reason": "the ice cracks"}),
    )
}

/// The tool results the model was sent, in order.
fn tool_results(requests: &[CompletionRequest]) -> Vec<String> {
    requests
        .iter()
        .filter_map(|r| match r.messages.last() {
            Some(Message::Tool { content, .. }) => Some(content.clone()),
            _ => None,
        })
        .collect()
}

/// Every tool result in one request, in order.
fn all_tool_results(request: &CompletionRequest) -> Vec<String> {
    request
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

/// A turn cancelled after its narration was shown, then played again: the same dice, whether
/// the same game master replays it or a new one (the program restarted) over the same store.
#[tokio::test]
async fn a_cancelled_turn_replays_the_same_dice() {
    let script = vec![
        tools(vec![many_dice()]),
        text("The ice cracks under you."),
        // The retry.
        tools(vec![many_dice()]),
        text("The ice cracks under you."),
        text(ACTIONS),
    ];
    let provider = Arc::new(ScriptedProvider::new(script));
    // The first game master's turn stalls after its narration, as a real one waits on the
    // network: that is when the player presses Ctrl-C.
    let stalled = Arc::new(Stall {
        inner: provider.clone(),
        stall_on: 2,
        calls: AtomicUsize::new(0),
    });
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    assert!(state.dice_seed.is_set(), "a new campaign gets a dice seed");
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let first = GameMaster::builder(stalled, store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .build();
    {
        let mut events = first.turn_stream(&id, PlayerInput::new("Kraven", "I jump."));
        // The tool call and its result come first, then the narration.
        loop {
            match events.next().await {
                Some(TurnEvent::ToolCall { .. } | TurnEvent::ToolResult { .. }) => {}
                Some(TurnEvent::Text(t)) => {
                    assert_eq!(t, "The ice cracks under you.");
                    break;
                }
                other => panic!("expected narration, got {other:?}"),
            }
        }
        // Ctrl-C: the stream is dropped before the turn commits.
    }
    assert_eq!(store.load(&id).await.unwrap().turn, 0, "nothing was kept");
    let restarted = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .build();
    let outcome = restarted
        .turn(&id, PlayerInput::new("Kraven", "I jump."))
        .await
        .unwrap();
    let results = tool_results(&provider.requests());
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0], results[1], "the retry rolled other dice");
    assert_eq!(outcome.rolls.len(), 1);
    assert!(results[0].contains(&outcome.rolls[0].total.to_string()));
}

/// A campaign saved before dice seeds existed: its first turn replays the same dice on every
/// retry, in any process, and gives the campaign a secret seed for the turns after it.
#[tokio::test]
async fn a_campaign_without_a_seed_gets_one_and_its_first_turn_cannot_be_rerolled() {
    let mut script = Vec::new();
    for _ in 0..2 {
        script.extend([tools(vec![many_dice()]), text("Crack."), text(ACTIONS)]);
    }
    let provider = Arc::new(ScriptedProvider::new(script));
    let mut old = Adventure::built_in().new_game(&["kraven"]).unwrap();
    old.dice_seed = crate::state::DiceSeed::default();
    let mut results = Vec::new();
    let mut seeds = Vec::new();
    for _ in 0..2 {
        // Two stores holding the same old save: two tries at its first turn, each by a new
        // game master (a new process).
        let store = Arc::new(MemoryStore::new());
        let id = store.create_campaign("Old", &old).await.unwrap();
        let gm = GameMaster::builder(provider.clone(), store.clone())
            .suggestions(crate::gm::Suggestions::Model)
            .build();
        let outcome = gm
            .turn(&id, PlayerInput::new("Kraven", "I jump."))
            .await
            .unwrap();
        results.push(outcome.rolls[0].total);
        let seeded: Vec<_> = outcome
            .changes
            .iter()
            .filter(|c| matches!(c, crate::state::Change::DiceSeeded { .. }))
            .collect();
        assert_eq!(seeded.len(), 1, "the turn seeds the campaign");
        let after = store.load(&id).await.unwrap();
        assert!(after.dice_seed.is_set());
        seeds.push(after.dice_seed);
    }
    assert_eq!(results[0], results[1], "the first turn rolled other dice");
    assert_ne!(
        seeds[0], seeds[1],
        "each campaign's new seed is a fresh secret"
    );
    // A seed once set never changes, and never shows in a Debug print.
    let mut seeded = old.clone();
    seeded.dice_seed = seeds[0];
    let change = crate::state::Change::DiceSeeded { seed: seeds[1] };
    assert!(seeded.apply(&change).is_err());
    assert!(!format!("{seeded:?}").contains(&seeds[0].0.to_string()));
    assert!(format!("{seeded:?}").contains("DiceSeed(<secret>)"));
}

/// Answers through `inner`, except call number `stall_on` (from 0), which never returns.
struct Stall {
    inner: Arc<ScriptedProvider>,
    stall_on: usize,
    calls: AtomicUsize,
}

#[async_trait::async_trait]
impl LlmProvider for Stall {
    async fn complete(&self, req: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        if self.calls.fetch_add(1, Ordering::SeqCst) == self.stall_on {
            futures::future::pending::<()>().await;
        }
        self.inner.complete(req).await
    }
}

/// The next turn draws other dice: the seed moves with the turn.
#[test]
fn each_turn_has_its_own_seed() {
    let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|t| mix_seed(42, t)).collect();
    assert_eq!(seeds.len(), 1000);
    assert_ne!(mix_seed(42, 0), mix_seed(43, 0));
}

#[tokio::test]
async fn an_answer_of_200_tool_calls_runs_the_bound_and_keeps_the_history_small() {
    let calls: Vec<_> = (0..200)
        .map(|i| {
            call(
                &format!("c{i}"),
                "roll_dice",
                json!({"expression": "1d4", "reason": null}),
            )
        })
        .collect();
    let (provider, store, gm, id) = table(
        vec![tools(calls), text("Dice everywhere."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Roll."))
        .await
        .unwrap();
    let kept = GmLimits::default().max_tool_calls_per_response;
    assert_eq!(outcome.rolls.len(), kept);
    assert!(
        outcome
            .trace
            .iter()
            .any(|s| matches!(s, TraceStep::Note { text } if text.contains("192 more tool calls")))
    );
    // The model is told, and the stored history holds only the calls that ran.
    let second = &provider.requests()[1];
    assert!(
        second
            .messages
            .iter()
            .any(|m| matches!(m, Message::System { content } if content.contains("were not run")))
    );
    let history = store.history(&id, Page::first(1)).await.unwrap();
    let stored_calls: usize = history[0]
        .record
        .llm_messages
        .iter()
        .map(|m| m.tool_calls().len())
        .sum();
    assert_eq!(stored_calls, kept);
}

#[tokio::test]
async fn a_runaway_narration_is_cut_in_what_is_shown_and_stored() {
    let huge = "The wind howls. ".repeat(100_000);
    let (provider, store, gm, id) = table(
        vec![text(&huge), text(ACTIONS), text("Quiet."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let max = GmLimits::default().max_narration_bytes;
    let events: Vec<TurnEvent> = gm
        .turn_stream(&id, PlayerInput::new("Kraven", "Listen."))
        .collect()
        .await;
    let shown: usize = events
        .iter()
        .map(|e| match e {
            TurnEvent::Text(t) => t.len(),
            _ => 0,
        })
        .sum();
    assert!(shown < max + 100, "{shown} bytes were streamed");
    let Some(TurnEvent::Done(outcome)) = events.last() else {
        panic!("no outcome")
    };
    let outcome = outcome.as_ref().as_ref().unwrap();
    assert!(outcome.narration.len() < max + 100);
    assert!(
        outcome.narration.ends_with("bytes cut)"),
        "a note says it was cut"
    );
    let history = store.history(&id, Page::first(1)).await.unwrap();
    let stored = serde_json::to_string(&history[0].record).unwrap();
    assert!(stored.len() < 3 * max, "{} bytes stored", stored.len());
    // The next turn's request carries the cut text, not the runaway one.
    gm.turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    let next = serde_json::to_string(&provider.requests()[2]).unwrap();
    assert!(next.len() < 4 * max, "{} bytes sent", next.len());
}

#[tokio::test]
async fn stored_flags_are_bounded_so_the_prompt_is() {
    // 100 flags of 20 KB, then 100 small ones: the first are refused, the second stop at the
    // bound on how many flags a world holds.
    let big: Vec<_> = (0..100)
        .map(|i| {
            call(
                &format!("b{i}"),
                "set_game_flag",
                json!({"key": format!("big_{i}"), "value": "x".repeat(if i % 2 == 0 { 20_000 } else { 1_000 })}),
            )
        })
        .collect();
    let small: Vec<_> = (0..100)
        .map(|i| {
            call(
                &format!("s{i}"),
                "set_game_flag",
                json!({"key": format!("small_{i}"), "value": true}),
            )
        })
        .collect();
    let mut script = Vec::new();
    for chunk in big.chunks(8).chain(small.chunks(8)) {
        script.push(tools(chunk.to_vec()));
    }
    let rounds = script.len() as u32;
    script.push(text("Flags everywhere."));
    script.push(text(ACTIONS));
    script.push(text("Later."));
    script.push(text(ACTIONS));
    let provider = Arc::new(ScriptedProvider::new(script));
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let limits = GmLimits {
        max_tool_rounds: rounds + 1,
        ..GmLimits::default()
    };
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .limits(limits.clone())
        .seed(1)
        .build();
    gm.turn(&id, PlayerInput::new("Kraven", "Mark everything."))
        .await
        .unwrap();
    let flags = store.load(&id).await.unwrap().flags;
    assert_eq!(flags.len(), limits.tools.max_flags);
    assert!(!flags.keys().any(|k| k.starts_with("big_")));
    // The request after the last round holds every tool result of the turn.
    let results = all_tool_results(&provider.requests()[rounds as usize]);
    assert_eq!(results.len(), 200);
    assert!(
        results[0].contains("at most 4000 are accepted"),
        "{}",
        results[0]
    );
    assert!(results[1].contains("at most 400 bytes"), "{}", results[1]);
    assert!(
        results.last().unwrap().contains("the most it keeps"),
        "{}",
        results.last().unwrap()
    );
    // Every refusal stays short, whatever it was sent.
    assert!(
        results
            .iter()
            .all(|r| r.len() <= limits.tools.max_error_bytes + 200)
    );
    gm.turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    let requests = provider.requests();
    let later = serde_json::to_string(&requests[requests.len() - 2]).unwrap();
    assert!(later.len() < 200_000, "{} bytes sent", later.len());
}

#[tokio::test]
async fn a_huge_argument_is_refused_without_being_echoed() {
    let huge = call(
        "h1",
        "roll_skill_check",
        json!({"creature": "k".repeat(1_000_000), "skill": "perception", "dc": 10, "advantage": null, "reason": null}),
    );
    let unknown = call("h2", &"n".repeat(100_000), json!({}));
    let (provider, store, gm, id) = table(
        vec![tools(vec![huge, unknown]), text("Nothing."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    gm.turn(&id, PlayerInput::new("Kraven", "Look."))
        .await
        .unwrap();
    let results = all_tool_results(&provider.requests()[1]);
    assert_eq!(results.len(), 2);
    assert!(
        results[0].contains("at most 4000 are accepted"),
        "{}",
        results[0]
    );
    assert!(results.iter().all(|r| r.len() < 1_200), "{results:?}");
    let history = store.history(&id, Page::first(1)).await.unwrap();
    let stored = serde_json::to_string(&history[0].record).unwrap();
    assert!(stored.len() < 20_000, "{} bytes stored", stored.len());
}

/// A provider that never answers.
struct Silent;

#[async_trait::async_trait]
impl LlmProvider for Silent {
    async fn complete(&self, _: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        futures::future::pending().await
    }
}

#[tokio::test]
async fn a_turn_past_its_deadline_fails_and_writes_nothing() {
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(Arc::new(Silent), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .limits(GmLimits {
            turn_deadline: Duration::from_millis(100),
            ..GmLimits::default()
        })
        .build();
    let result = tokio::time::timeout(
        Duration::from_secs(10),
        gm.turn(&id, PlayerInput::new("Kraven", "Hello?")),
    )
    .await
    .expect("the deadline stops the turn");
    match result {
        Err(error @ GmError::Deadline { .. }) => {
            assert!(error.to_string().contains("nothing was saved"), "{error}")
        }
        other => panic!("expected the deadline, got {other:?}"),
    }
    assert_eq!(store.load(&id).await.unwrap().turn, 0);
    assert!(store.history(&id, Page::first(9)).await.unwrap().is_empty());
}

#[tokio::test]
async fn overlong_suggestions_are_refused_and_retried() {
    let long = format!(
        r#"{{"actions": [{{"id": "a", "description": "{}", "reason": null, "mechanic": null}}, {{"id": "b", "description": "Wait", "reason": null, "mechanic": null}}]}}"#,
        "x".repeat(5_000)
    );
    let (_p, _s, gm, id) = table(
        vec![text("Snow."), text(&long), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Look."))
        .await
        .unwrap();
    assert_eq!(outcome.suggested_actions.len(), 2);
    assert!(
        outcome
            .suggested_actions
            .iter()
            .all(|a| a.description.len() <= SUGGESTION_MAX_BYTES)
    );
    assert!(
        outcome
            .trace
            .iter()
            .any(|s| matches!(s, TraceStep::Note { text } if text.contains("keep each under 300")))
    );
}

/// An answer whose tool call has a 500 KB id and 500 KB of reasoning: neither is kept, and the
/// result answers the id the history holds.
#[tokio::test]
async fn huge_ids_and_reasoning_are_not_kept() {
    let mut response = CompletionResponse::from_tool_calls(vec![call(
        &"i".repeat(500_000),
        "roll_dice",
        json!({"expression": "1d20", "reason": null}),
    )]);
    response.message = response.message.with_reasoning(crate::llm::Reasoning::text(
        "r".repeat(500_000),
        "reasoning",
    ));
    let (provider, store, gm, id) = table(
        vec![Ok(response), text("Done."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    gm.turn(&id, PlayerInput::new("Kraven", "Roll."))
        .await
        .unwrap();
    let next = &provider.requests()[1];
    let sent = serde_json::to_string(next).unwrap();
    assert!(sent.len() < 50_000, "{} bytes sent", sent.len());
    let (called, answered) = match &next.messages[next.messages.len() - 2..] {
        [assistant, Message::Tool { tool_call_id, .. }] => {
            (assistant.tool_calls()[0].id.clone(), tool_call_id.clone())
        }
        other => panic!("expected the call and its result, got {other:?}"),
    };
    assert_eq!(called, answered);
    assert!(called.len() <= 64);
    let history = store.history(&id, Page::first(1)).await.unwrap();
    let stored = serde_json::to_string(&history[0].record).unwrap();
    assert!(stored.len() < 50_000, "{} bytes stored", stored.len());
}
