//! A campaign of 300 turns: the prompt must not grow with it. Every 10 turns the turns that
//! left the history window are folded into the summary (by code here), and the memory lists are
//! bounded, so the prompt at turn 300 is within 1.2 times the prompt at turn 10; sending the
//! whole history instead (the first seed's approach) grows with every turn.

use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, PlayerInput, Protocol, Summarizer};
use dnd_engine::llm::{CompletionRequest, CompletionResponse, Message, ScriptedProvider, ToolCall};
use dnd_engine::state::estimate_tokens;
use dnd_engine::store::{GameStore, MemoryStore, Page};
use serde_json::json;

fn prompt_tokens(request: &CompletionRequest) -> usize {
    request
        .messages
        .iter()
        .map(|m| estimate_tokens(&serde_json::to_string(m).unwrap()))
        .sum()
}

fn one_turn() -> Vec<CompletionResponse> {
    vec![
        CompletionResponse::from_tool_calls(vec![
            ToolCall::new(
                "a",
                "roll_skill_check",
                json!({"creature": "kraven", "skill": "survival", "dc": 10, "advantage": null, "reason": "keep warm"}),
            ),
            ToolCall::new(
                "b",
                "log_story_event",
                json!({"kind": "other", "text": "Kraven trudged on through the snow and kept his footing."}),
            ),
        ]),
        CompletionResponse::from_text(
            "The wind bites, but you keep moving. The glacier groans beneath your boots. What do you do?",
        ),
    ]
}

#[tokio::test]
async fn the_prompt_does_not_grow_with_the_campaign() {
    // A tool left out of a crowded list is called again once added, as a model would.
    let provider = Arc::new(ScriptedProvider::looping(one_turn()).calling_again());
    let store = Arc::new(MemoryStore::new());
    let id = store
        .create_campaign(
            "Long",
            &Adventure::built_in().new_game(&["kraven"]).unwrap(),
        )
        .await
        .unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .protocol(Protocol::ToolLoop)
        .summarizer(Summarizer::Code)
        .seed(5)
        .build();
    let mut first_prompt = Vec::new();
    for turn in 1..=300 {
        let before = provider.requests().len();
        gm.turn(
            &id,
            PlayerInput::new("Kraven", format!("I walk on ({turn}).")),
        )
        .await
        .unwrap();
        first_prompt.push(prompt_tokens(&provider.requests()[before]));
    }
    let (at_10, at_300) = (first_prompt[9], first_prompt[299]);
    // The whole history, as a full-history game master would send it at those turns.
    let history = store.history(&id, Page::first(300)).await.unwrap();
    let full = |n: usize| -> usize {
        let system = first_prompt[0];
        system
            + history[..n]
                .iter()
                .flat_map(|h| h.record.llm_messages.iter())
                .map(|m: &Message| estimate_tokens(&serde_json::to_string(m).unwrap()))
                .sum::<usize>()
    };
    println!(
        "prompt tokens: turn 10 = {at_10}, turn 300 = {at_300} (full history: {} and {})",
        full(10),
        full(300)
    );
    assert!(
        at_300 as f64 <= at_10 as f64 * 1.2,
        "turn 300: {at_300} tokens, turn 10: {at_10}"
    );
    assert!(
        full(300) > 10 * full(10) / 2,
        "the full history grows with the campaign"
    );
    let state = store.load(&id).await.unwrap();
    assert!(state.summary.contains("trudged"), "{}", state.summary);
    assert!(state.summary.len() <= dnd_engine::gm::SUMMARY_MAX_BYTES);
}
