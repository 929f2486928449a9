//! Opt in: "The Wailing Glacier" against a real (tiny) model, the game master and the AI player
//! both on it, for 20 turns (`DND_REAL_TURNS` sets another count). Start one with
//! `scripts/local-llm-server.sh` and name it:
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
//!
//! It also measures what a turn costs on the machine it runs on, and prints it at the end: the
//! seconds per turn (median and mean of the finished turns, the player's call included), how
//! many turns finished and failed, and, per finished turn, the game master's model calls and
//! input tokens (from the turn's trace and usage) and the player's input tokens. The README's
//! "On a real local model" table comes from that print.

use std::sync::Arc;
use std::time::{Duration, Instant};

use dnd_engine::adventure::Adventure;
use dnd_engine::agents::{AgentError, AiPlayer, SharedLog};
use dnd_engine::gm::{GameMaster, GmLimits, TraceStep, TurnOutcome};
use dnd_engine::store::{GameStore, MemoryStore, Page, replay};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};

/// Turns played unless `DND_REAL_TURNS` says otherwise.
const DEFAULT_TURNS: u32 = 20;

/// How long one turn may take before it counts as a hang.
const TURN_LIMIT: Duration = Duration::from_secs(300);

/// What one finished turn cost.
struct Finished {
    seconds: f64,
    /// The game master's calls to the model (its trace's provider calls).
    gm_calls: usize,
    /// The game master's input tokens, over all its calls.
    gm_input: u32,
    /// The game master's output tokens, over all its calls.
    gm_output: u32,
    /// The AI player's input tokens this turn (its tries included).
    player_input: u32,
}

/// The median of `values` (0 for none).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The mean of `values` (0 for none).
fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0.0), |(sum, n), v| (sum + v, n + 1.0));
    if n == 0.0 { 0.0 } else { sum / n }
}

/// The summary printed at the end: one block, easy to copy into the README's table.
fn report(asked: u32, finished: &[Finished], failed: &[f64]) -> String {
    let seconds: Vec<f64> = finished.iter().map(|t| t.seconds).collect();
    let calls: usize = finished.iter().map(|t| t.gm_calls).sum();
    let input: u64 = finished.iter().map(|t| u64::from(t.gm_input)).sum();
    let per_turn = |f: fn(&Finished) -> f64| mean(finished.iter().map(f));
    format!(
        "real model, {asked} turns asked: {} finished, {} failed with nothing written\n\
         seconds per finished turn: median {:.1}, mean {:.1} (failed turns: mean {:.1})\n\
         game master per finished turn: {:.2} model calls, {:.0} input tokens ({:.0} per call), \
         {:.0} output tokens\n\
         player per finished turn: {:.0} input tokens",
        finished.len(),
        failed.len(),
        median(&seconds),
        mean(seconds.iter().copied()),
        mean(failed.iter().copied()),
        per_turn(|t| t.gm_calls as f64),
        per_turn(|t| f64::from(t.gm_input)),
        if calls == 0 {
            0.0
        } else {
            input as f64 / calls as f64
        },
        per_turn(|t| f64::from(t.gm_output)),
        per_turn(|t| f64::from(t.player_input)),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_game_against_a_tiny_local_model() {
    let server = std::env::var("DND_LLM_SERVER")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .expect(
            "DND_LLM_SERVER is not set, so there is no model to play against: start one with \
             `scripts/local-llm-server.sh 8765` and set DND_LLM_SERVER=http://127.0.0.1:8765/v1",
        );
    let turns: u32 = std::env::var("DND_REAL_TURNS")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map_or(DEFAULT_TURNS, |s| {
            s.trim()
                .parse()
                .expect("DND_REAL_TURNS takes a whole number of turns")
        });
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
    let mut finished: Vec<Finished> = Vec::new();
    // The seconds of each failed turn.
    let mut failed: Vec<f64> = Vec::new();
    let mut hung = None;
    for turn in 1..=turns {
        let before = store.load(&id).await.unwrap();
        let player_before = player.agent.usage().prompt_tokens;
        let started = Instant::now();
        let played = tokio::time::timeout(
            TURN_LIMIT,
            player.play_turn(&mut log, &gm, &id, last.as_ref()),
        )
        .await;
        let seconds = started.elapsed().as_secs_f64();
        let after = store.load(&id).await.unwrap();
        match played {
            Ok(Ok(outcome)) => {
                assert_eq!(after.turn, before.turn + 1, "turn {turn}: one commit");
                let cost = Finished {
                    seconds,
                    gm_calls: outcome
                        .trace
                        .iter()
                        .filter(|step| matches!(step, TraceStep::ProviderCall { .. }))
                        .count(),
                    gm_input: outcome.usage.prompt_tokens,
                    gm_output: outcome.usage.completion_tokens,
                    player_input: player.agent.usage().prompt_tokens - player_before,
                };
                eprintln!(
                    "turn {turn}: {seconds:.1} s, {} game master calls, {} input tokens; \
                     {} rolls, {} changes: {}",
                    cost.gm_calls,
                    cost.gm_input,
                    outcome.rolls.len(),
                    outcome.changes.len(),
                    outcome.narration.chars().take(120).collect::<String>()
                );
                finished.push(cost);
                last = Some(outcome);
            }
            Ok(Err(error)) => {
                failed.push(seconds);
                assert_eq!(
                    after, before,
                    "turn {turn} failed ({error}) but wrote something"
                );
                eprintln!("turn {turn}: {seconds:.1} s, failed with nothing written: {error}");
                if matches!(error, AgentError::Model(_)) {
                    last = None;
                }
            }
            Err(_) => {
                // The figures so far are printed before the test fails.
                hung = Some(turn);
                break;
            }
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
    eprintln!("{}", report(turns, &finished, &failed));
    if let Some(turn) = hung {
        panic!("turn {turn} hung for {} seconds", TURN_LIMIT.as_secs());
    }
    // Every change the model caused went through the rules: the history replays to the state.
    let records: Vec<_> = store
        .history(&id, Page::first(turns as usize + 100))
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
}

/// The figures the report prints, on turns made up for the purpose (this one runs without a
/// server).
#[test]
fn the_report_gives_the_median_and_mean_of_finished_turns() {
    let turn = |seconds, gm_calls, gm_input| Finished {
        seconds,
        gm_calls,
        gm_input,
        gm_output: 50,
        player_input: 300,
    };
    let finished = [turn(4.0, 2, 3000), turn(10.0, 4, 9000), turn(1.0, 2, 3000)];
    let text = report(5, &finished, &[30.0, 10.0]);
    assert!(
        text.starts_with("real model, 5 turns asked: 3 finished, 2 failed"),
        "{text}"
    );
    assert!(
        text.contains("median 4.0, mean 5.0 (failed turns: mean 20.0)"),
        "{text}"
    );
    // 8 calls and 15000 tokens over 3 turns.
    assert!(
        text.contains("2.67 model calls, 5000 input tokens (1875 per call), 50 output tokens"),
        "{text}"
    );
    assert!(
        text.contains("player per finished turn: 300 input tokens"),
        "{text}"
    );
    assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
    assert_eq!(median(&[]), 0.0);
}
