//! The kill -9 test's parts, shared by the durable stores' `reliability` tests (each includes
//! this file with `#[path]`): the turns a child process commits, the child's loop, running and
//! killing the child, and the check that nothing it reported is lost and nothing is half there.
//!
//! The child is the test binary itself run again on one test (`crash_child`), which does
//! nothing unless the environment a store's test sets names its database and campaign.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use dnd_engine::state::{Change, GameState, StoryEvent, StoryKind};
use dnd_engine::store::{CampaignId, ChatLine, GameStore, Page, TurnRecord, replay};

/// What the child prints, followed by the turn number, once `commit_turn` returned `Ok`.
const COMMITTED: &str = "committed turn ";

/// A turn marked `n`, computed after head `after`: 1 gold, a flag holding a float that JSON must
/// carry bit for bit, a minute, an event and a line; applies to any state with the fighter of
/// the store suite's `sample_state`, as many times as wanted.
pub fn crash_turn(n: u64, after: Option<u64>) -> TurnRecord {
    TurnRecord {
        input: format!("turn {n}"),
        changes: vec![
            Change::Gold {
                character: "kraven".into(),
                delta: 1,
            },
            Change::FlagSet {
                key: format!("turn_{n}"),
                value: serde_json::json!(0.1 + 0.2 * n as f64),
            },
            Change::TimeAdvanced { minutes: 1 },
        ],
        events: vec![StoryEvent {
            turn: n,
            kind: StoryKind::Other,
            text: format!("Event {n}"),
        }],
        player_messages: vec![ChatLine {
            speaker: "gm".into(),
            text: format!("It happens ({n})."),
        }],
        after_turn: after,
        ..TurnRecord::default()
    }
}

/// The child's work: commits turns on the newest head until it is killed, printing each one
/// after `commit_turn` returned `Ok`. Bounded, in case the parent never kills it; stops when
/// the parent stops reading.
pub async fn commit_until_killed(store: &dyn GameStore, id: &CampaignId) {
    let mut stdout = std::io::stdout().lock();
    for _ in 0..100_000 {
        let (state, head) = store.load_with_head(id).await.expect("the child loads");
        let number = store
            .commit_turn(id, crash_turn(state.turn + 1, Some(head)))
            .await
            .expect("the child commits");
        if writeln!(stdout, "{COMMITTED}{number}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Runs this test binary's `crash_child` with `env` (its database and campaign), reads
/// `commits` of its reports, kills it with SIGKILL (in the middle of its next commit) and
/// returns the turns it reported as committed.
pub fn commit_then_kill(env: &[(&str, &OsStr)], commits: usize) -> Vec<u64> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut child = Command::new(exe)
        .args([
            "--exact",
            "crash_child",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the child starts");
    let stdout = child.stdout.take().expect("the child's stdout");
    let mut reported = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        if let Some(number) = line.strip_prefix(COMMITTED) {
            reported.push(number.trim().parse::<u64>().expect("a turn number"));
            if reported.len() >= commits {
                // The child is committing the next turn right now.
                break;
            }
        }
    }
    child.kill().expect("the child is killed");
    let status = child.wait().expect("the child is reaped");
    assert!(
        reported.len() >= commits,
        "the child reported {} commits before it ended ({status})",
        reported.len()
    );
    reported
}

/// After a kill: every turn in `reported` is still there, and the rest is whole
/// ([`check_whole`]).
pub async fn check_after_kill(
    store: &dyn GameStore,
    id: &CampaignId,
    initial: &GameState,
    reported: &[u64],
    round: usize,
) {
    let history = store
        .history(id, Page::first(usize::MAX))
        .await
        .expect("history after a kill");
    let numbers: Vec<u64> = history.iter().map(|h| h.turn).collect();
    for number in reported {
        assert!(
            numbers.contains(number),
            "round {round}: turn {number} was reported committed but is lost"
        );
    }
    // No half turn: whatever is there is whole, and the state is the replay of it.
    check_whole(store, id, initial, numbers.len() as u64).await;
}

/// Every turn `1..=expected` is there once, none undone, and the state is their replay.
pub async fn check_whole(
    store: &dyn GameStore,
    id: &CampaignId,
    initial: &GameState,
    expected: u64,
) {
    let state = store.load(id).await.expect("loads");
    let history = store
        .history(id, Page::first(usize::MAX))
        .await
        .expect("history");
    let numbers: Vec<u64> = history.iter().map(|h| h.turn).collect();
    assert_eq!(
        numbers,
        (1..=expected).collect::<Vec<_>>(),
        "no lost, doubled or missing turn"
    );
    assert!(history.iter().all(|h| !h.undone));
    let records: Vec<&TurnRecord> = history.iter().map(|h| &*h.record).collect();
    assert_eq!(
        replay(initial, records).expect("the history replays"),
        state,
        "the stored state is the replay of the history"
    );
    assert_eq!(state.turn, expected);
}
