//! Each protocol end to end on both stores with a scripted model, and the exact requests the
//! engine sends, snapshotted.

use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, PlayerInput, Protocol};
use dnd_engine::llm::{CompletionRequest, CompletionResponse, ScriptedProvider, ToolCall};
use dnd_engine::store::{GameStore, MemoryStore, Page};
use dnd_store_sqlite::SqliteStore;
use serde_json::{Value, json};

const ACTIONS: &str = r#"{"actions": [
  {"id": "attack", "description": "Attack the harpy", "reason": null, "mechanic": null},
  {"id": "retreat", "description": "Back away from the edge", "reason": null, "mechanic": null}
]}"#;

fn script(protocol: Protocol) -> Vec<CompletionResponse> {
    let look = ToolCall::new("call-1", "get_room_details", json!({"detail": "full"}));
    let check = ToolCall::new(
        "call-2",
        "roll_skill_check",
        json!({"creature": "kraven", "skill": "perception", "dc": 13, "advantage": null, "reason": "the song"}),
    );
    match protocol {
        Protocol::TwoPhase => vec![
            CompletionResponse::from_tool_calls(vec![look, check]),
            CompletionResponse::from_text("A song drifts over the chasm. What do you do?"),
            CompletionResponse::from_text(ACTIONS),
        ],
        Protocol::ToolLoop => vec![
            CompletionResponse::from_tool_calls(vec![look, check]),
            CompletionResponse::from_text("A song drifts over the chasm. What do you do?"),
        ],
        Protocol::StrictJson => vec![
            CompletionResponse::from_text(
                json!({
                    "narration": "You listen closely.",
                    "out_of_character_notes": [],
                    "actions": [{"tool": "roll_skill_check", "arguments": check.arguments.to_string()}],
                    "dice_rolls": [],
                    "next_prompt_suggestion": null
                })
                .to_string(),
            ),
            // Written after the check was rolled, from its result.
            CompletionResponse::from_text(
                json!({"narration": "A song drifts over the chasm."}).to_string(),
            ),
        ],
        other => panic!("no script for the protocol {other:?}"),
    }
}

async fn play(store: Arc<dyn GameStore>, protocol: Protocol) -> Vec<CompletionRequest> {
    let provider = Arc::new(ScriptedProvider::new(
        script(protocol).into_iter().map(Ok).collect(),
    ));
    let initial = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &initial).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(dnd_engine::gm::Suggestions::Model)
        .protocol(protocol)
        .seed(11)
        .build();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I listen to the song."))
        .await
        .unwrap();
    assert_eq!(outcome.turn, 1);
    assert_eq!(outcome.rolls.len(), 1, "{protocol:?}");
    assert!(
        outcome.narration.starts_with("A song drifts"),
        "{protocol:?}"
    );
    let state = store.load(&id).await.unwrap();
    assert_eq!(state.turn, 1);
    let history = store.history(&id, Page::first(5)).await.unwrap();
    assert_eq!(history[0].record.rolls, outcome.rolls);
    assert_eq!(history[0].record.changes, outcome.changes);
    assert_eq!(
        provider.remaining(),
        0,
        "{protocol:?} used its whole script"
    );
    provider.requests()
}

fn stores() -> Vec<(&'static str, Arc<dyn GameStore>)> {
    vec![
        ("memory", Arc::new(MemoryStore::new())),
        ("sqlite", Arc::new(SqliteStore::open_in_memory().unwrap())),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_protocol_on_every_store() {
    for protocol in [Protocol::TwoPhase, Protocol::ToolLoop, Protocol::StrictJson] {
        for (name, store) in stores() {
            let requests = play(store, protocol).await;
            assert!(!requests.is_empty(), "{name} {protocol:?}");
        }
    }
}

/// The requests with the tool list reduced to names: the schemas have their own snapshots.
fn redacted(requests: &[CompletionRequest]) -> Value {
    let mut value = serde_json::to_value(requests).unwrap();
    for request in value.as_array_mut().unwrap() {
        if let Some(tools) = request.get_mut("tools").and_then(Value::as_array_mut) {
            for tool in tools.iter_mut() {
                *tool = tool["name"].clone();
            }
        }
    }
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_requests_sent_are_exactly_these() {
    let requests = play(Arc::new(MemoryStore::new()), Protocol::TwoPhase).await;
    insta::assert_json_snapshot!("two_phase_requests", redacted(&requests));
    let requests = play(Arc::new(MemoryStore::new()), Protocol::StrictJson).await;
    insta::assert_json_snapshot!("strict_json_requests", redacted(&requests));
}
