//! What a game master keeps between turns (the last turns' messages, the last state block)
//! changes nothing the model is sent: checked against game masters that keep nothing.

use super::*;
use crate::llm::CompletionRequest;

/// Three turns, looped: one sets a flag (the snapshot changes), one only rolls (it does not),
/// one sets the flag to another value; each ends with narration and the suggested actions.
fn looping_turns() -> Arc<ScriptedProvider> {
    let flag = |value: u32| {
        CompletionResponse::from_tool_calls(vec![call(
            "f",
            "set_game_flag",
            json!({"key": "bell_rung", "value": value}),
        )])
    };
    let narrate = |t: &str| CompletionResponse::from_text(t);
    Arc::new(ScriptedProvider::looping(vec![
        flag(1),
        narrate("The bell rings once. What do you do?"),
        narrate(ACTIONS),
        CompletionResponse::from_tool_calls(vec![perception_check()]),
        narrate("The wind drops. What do you do?"),
        narrate(ACTIONS),
        flag(2),
        narrate("The bell rings twice. What do you do?"),
        narrate(ACTIONS),
    ]))
}

fn game_master(provider: Arc<ScriptedProvider>, store: Arc<MemoryStore>) -> GameMaster {
    GameMaster::builder(provider, store)
        .suggestions(crate::gm::Suggestions::Model)
        .protocol(Protocol::TwoPhase)
        .summarizer(Summarizer::Code)
        // Three turns of history before a fold: what these tests read back.
        .limits(crate::gm::GmLimits {
            summary_every: 3,
            ..crate::gm::GmLimits::default()
        })
        .seed(11)
        .build()
}

async fn campaign(store: &MemoryStore) -> CampaignId {
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    store.create_campaign("Glacier", &state).await.unwrap()
}

fn input(n: usize) -> PlayerInput {
    PlayerInput::new("Kraven", format!("I wait and listen ({n})."))
}

/// The user messages of a request, in order.
fn user_texts(request: &CompletionRequest) -> Vec<&str> {
    request
        .messages
        .iter()
        .filter(|m| m.role() == crate::llm::Role::User)
        .filter_map(Message::text)
        .collect()
}

#[tokio::test]
async fn kept_turns_and_state_block_send_what_the_store_would() {
    // Across folds (by default keep 1, fold 3 at once: on the 5th, 8th, 11th and 14th turn).
    const TURNS: usize = 14;
    let kept = looping_turns();
    let kept_store = Arc::new(MemoryStore::new());
    let kept_id = campaign(&kept_store).await;
    let gm = game_master(kept.clone(), kept_store.clone());
    let fresh = looping_turns();
    let fresh_store = Arc::new(MemoryStore::new());
    let fresh_id = campaign(&fresh_store).await;
    for n in 1..=TURNS {
        gm.turn(&kept_id, input(n)).await.unwrap();
        // A new game master each turn: nothing kept, everything read from the store.
        game_master(fresh.clone(), fresh_store.clone())
            .turn(&fresh_id, input(n))
            .await
            .unwrap();
    }
    let (kept, fresh) = (kept.requests(), fresh.requests());
    assert_eq!(kept.len(), 3 * TURNS);
    for (i, (k, f)) in kept.iter().zip(&fresh).enumerate() {
        // Compared whole; on a difference, the messages alone say enough.
        assert!(
            k == f,
            "request {i} differs:\n{:#?}\n{:#?}",
            k.messages,
            f.messages
        );
    }
    // The window really moved: after 13 turns the first 12 are folded, and the last turn is
    // sent the one after them, not the first turns.
    let last = &kept[3 * (TURNS - 1)];
    assert_eq!(
        user_texts(last),
        (TURNS - 1..=TURNS)
            .map(|n| format!("I wait and listen ({n})."))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        kept_store
            .history(&kept_id, Page::first(100))
            .await
            .unwrap(),
        fresh_store
            .history(&fresh_id, Page::first(100))
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn turns_undone_by_another_game_are_not_sent() {
    let provider = looping_turns();
    let store = Arc::new(MemoryStore::new());
    let id = campaign(&store).await;
    let gm = game_master(provider.clone(), store.clone());
    for n in 1..=3 {
        gm.turn(&id, input(n)).await.unwrap();
    }
    // Another game (here the store itself) takes the third turn back.
    store.undo(&id, 1).await.unwrap();
    gm.turn(&id, input(4)).await.unwrap();
    let requests = provider.requests();
    let sent = user_texts(&requests[3 * 3]);
    assert_eq!(
        sent,
        [
            "I wait and listen (1).",
            "I wait and listen (2).",
            "I wait and listen (4)."
        ]
    );
    // And the turn after it is sent the history in effect, kept again.
    gm.turn(&id, input(5)).await.unwrap();
    let requests = provider.requests();
    assert_eq!(
        user_texts(&requests[3 * 4]),
        [
            "I wait and listen (1).",
            "I wait and listen (2).",
            "I wait and listen (4).",
            "I wait and listen (5)."
        ]
    );
}
