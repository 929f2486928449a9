//! Opt in: 20 turns of "The Wailing Glacier" against a real (tiny) model, the game master and
//! the AI player both on it. Start one with `scripts/local-llm-server.sh` and name it:
//!
//! ```sh
//! DND_LLM_SERVER=http://127.0.0.1:8765/v1 cargo test -p dnd-tests --test real_model -- --ignored --nocapture
//! ```
//!
//! The test is `#[ignore]`d with that reason, so a plain `cargo test` lists it as ignored, never
//! as passed; asked for with `--ignored` but without `DND_LLM_SERVER`, it fails saying what to
//! set.
//!
//! A 135M-parameter model makes poor calls, and that is the point: every turn must finish or
//! fail with nothing written, the state must stay valid (HP within bounds, no item from nowhere
//! beyond the allowance, no move through a wall), with no panic and no hang. That is the floor
//! of what a player with a small local model sees.

use std::sync::Arc;
use std::time::Duration;

use dnd_engine::adventure::Adventure;
use dnd_engine::agents::{AgentError, AiPlayer, SharedLog};
use dnd_engine::gm::{GameMaster, GmLimits, TurnOutcome};
use dnd_engine::store::{GameStore, MemoryStore, Page, replay};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn twenty_turns_against_a_tiny_local_model() {
    let server = std::env::var("DND_LLM_SERVER")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .expect(
            "DND_LLM_SERVER is not set, so there is no model to play against: start one with \
             `scripts/local-llm-server.sh 8765` and set DND_LLM_SERVER=http://127.0.0.1:8765/v1",
        );
    let config = OpenAiConfig::local(server, "local");
    let provider: Arc<OpenAiProvider> = Arc::new(OpenAiProvider::new(config).expect("a provider"));
    let store = Arc::new(MemoryStore::new());
    let initial = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &initial).await.unwrap();
    let limits = GmLimits {
        max_tool_rounds: 3,
        ..GmLimits::default()
    };
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .limits(limits)
        .max_tokens(200)
        .seed(9)
        .build();
    let mut player = AiPlayer::new("Kraven", provider);
    let mut log = SharedLog::default();
    let mut last: Option<TurnOutcome> = None;
    let (mut finished, mut failed) = (0, 0);
    for turn in 1..=20 {
        let before = store.load(&id).await.unwrap();
        let played = tokio::time::timeout(
            Duration::from_secs(300),
            player.play_turn(&mut log, &gm, &id, last.as_ref()),
        )
        .await;
        let after = store.load(&id).await.unwrap();
        match played {
            Ok(Ok(outcome)) => {
                finished += 1;
                assert_eq!(after.turn, before.turn + 1, "turn {turn}: one commit");
                eprintln!(
                    "turn {turn}: {} rolls, {} changes: {}",
                    outcome.rolls.len(),
                    outcome.changes.len(),
                    outcome.narration.chars().take(120).collect::<String>()
                );
                last = Some(outcome);
            }
            Ok(Err(error)) => {
                failed += 1;
                assert_eq!(
                    after, before,
                    "turn {turn} failed ({error}) but wrote something"
                );
                eprintln!("turn {turn}: failed with nothing written: {error}");
                if matches!(error, AgentError::Model(_)) {
                    last = None;
                }
            }
            Err(_) => panic!("turn {turn} hung for five minutes"),
        }
        let hero = &after.characters[0];
        assert!(
            hero.hp.current <= hero.hp.max,
            "turn {turn}: HP above the maximum"
        );
        assert!(
            after.location(&hero.location).is_some(),
            "turn {turn}: the hero is nowhere"
        );
    }
    // Every change the model caused went through the rules: the history replays to the state.
    let records: Vec<_> = store
        .history(&id, Page::first(100))
        .await
        .unwrap()
        .into_iter()
        .filter(|h| !h.undone)
        .map(|h| h.record)
        .collect();
    assert_eq!(
        replay(&initial, records.iter().map(|r| &**r)).unwrap(),
        store.load(&id).await.unwrap()
    );
    eprintln!("{finished} turns finished, {failed} failed with nothing written");
}
