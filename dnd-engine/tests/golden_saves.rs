//! Saves that keep loading: a campaign saved by each save format (`golden/format-N/`) is read
//! back with this build's reader and replayed to the state it was saved with; a save with no
//! format, or one from the future, is a typed error naming the formats this build reads.
//!
//! The files were written by playing the built-in adventure with the offline game master and
//! the offline player, dice seeded: a fight, a spell and an item among the turns. They are
//! never written by a normal test run; to write the current format's again (after a change
//! to a saved type that is meant to change the save, with `SAVE_FORMAT` raised), run
//!
//! ```text
//! cargo test -p dnd-engine --test golden_saves -- --ignored write_golden_files
//! ```
//!
//! and keep every older `format-N/` folder as it is: those are what a later build must read.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, Protocol};
use dnd_engine::llm::Message;
use dnd_engine::offline::{OfflineGm, OfflinePlayer};
use dnd_engine::state::GameState;
use dnd_engine::store::format::{
    OLDEST_SAVE_FORMAT, SAVE_FORMAT, SaveFormatError, from_saved_json, to_saved_json_pretty,
};
use dnd_engine::store::{GameStore, MemoryStore, Page, TurnRecord, replay};

/// The folder of the campaign saved in `format`.
fn golden_dir(format: u32) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
        .join(format!("format-{format}"))
}

/// A saved campaign: the state it started from, its turns, and the state it was saved with.
struct Saved {
    initial: GameState,
    turns: Vec<TurnRecord>,
    last: GameState,
}

fn read<T: serde::de::DeserializeOwned>(dir: &Path, file: &str) -> T {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    from_saved_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load(format: u32) -> Saved {
    let dir = golden_dir(format);
    Saved {
        initial: read(&dir, "initial_state.json"),
        turns: read::<Vec<TurnRecord>>(&dir, "turns.json"),
        last: read(&dir, "state.json"),
    }
}

/// The tools the model called in `turns`.
fn tools_called(turns: &[TurnRecord]) -> Vec<String> {
    turns
        .iter()
        .flat_map(|t| &t.llm_messages)
        .filter_map(|m| match m {
            Message::Assistant { tool_calls, .. } => Some(tool_calls),
            _ => None,
        })
        .flatten()
        .map(|c| c.name.clone())
        .collect()
}

#[test]
fn every_golden_campaign_loads_and_replays_to_its_saved_state() {
    for format in OLDEST_SAVE_FORMAT..=SAVE_FORMAT {
        let saved = load(format);
        assert!(!saved.turns.is_empty(), "format {format}: no turns");
        let replayed =
            replay(&saved.initial, &saved.turns).unwrap_or_else(|e| panic!("format {format}: {e}"));
        assert_eq!(replayed, saved.last, "format {format}");
        assert_eq!(replayed.turn, saved.turns.len() as u64);
        // What the campaign holds, so the test keeps covering it: a fight, a spell, an item,
        // and the model's messages.
        let called = tools_called(&saved.turns);
        for tool in ["start_encounter", "roll_attack", "cast_spell", "use_item"] {
            assert!(
                called.iter().any(|c| c == tool),
                "format {format}: no {tool}"
            );
        }
    }
}

#[test]
fn a_save_with_no_format_or_a_future_one_names_the_formats_read() {
    let state = load(SAVE_FORMAT).initial;
    let bare = serde_json::to_string(&state).unwrap();
    let missing = from_saved_json::<GameState>(&bare).unwrap_err();
    assert!(matches!(missing, SaveFormatError::Missing), "{missing:?}");
    let accepted = format!("formats {OLDEST_SAVE_FORMAT} to {SAVE_FORMAT}");
    assert!(missing.to_string().contains(&accepted), "{missing}");

    let future = SAVE_FORMAT + 1;
    let text = format!(r#"{{"format":{future},"data":{{"a shape":"not known yet"}}}}"#);
    let error = from_saved_json::<GameState>(&text).unwrap_err();
    assert!(
        matches!(error, SaveFormatError::Unsupported { found } if found == u64::from(future)),
        "{error:?}"
    );
    assert!(error.to_string().contains(&accepted), "{error}");
    assert!(error.to_string().contains(&future.to_string()), "{error}");

    // A known format whose data is damaged is neither: it says what did not read.
    let damaged = format!(r#"{{"format":{SAVE_FORMAT},"data":{{"title":3}}}}"#);
    let error = from_saved_json::<GameState>(&damaged).unwrap_err();
    assert!(matches!(error, SaveFormatError::Malformed(_)), "{error:?}");
}

/// Plays the campaign the golden files hold and writes them (see the module docs).
#[tokio::test]
#[ignore = "writes the golden files; run by hand when the save format changes"]
async fn write_golden_files() {
    let initial = Adventure::built_in().new_game(&["isolde"]).unwrap();
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Golden", &initial).await.unwrap();
    let gm = GameMaster::builder(Arc::new(OfflineGm::new()), store.clone())
        .protocol(Protocol::TwoPhase)
        .seed(22)
        .build();
    let mut player = OfflinePlayer::new("isolde");
    let mut last = None;
    let mut turns = Vec::new();
    for _ in 0..150 {
        let state = store.load(&id).await.unwrap();
        let Some(input) = player.next_input(last.as_ref(), &state) else {
            break;
        };
        last = Some(gm.turn(&id, input).await.unwrap());
        turns = store
            .history(&id, Page::first(1000))
            .await
            .unwrap()
            .into_iter()
            .map(|e| (*e.record).clone())
            .collect::<Vec<_>>();
        let called = tools_called(&turns);
        let fought = called.iter().any(|c| c == "start_encounter")
            && called.iter().any(|c| c == "roll_attack");
        let state = store.load(&id).await.unwrap();
        if fought
            && called.iter().any(|c| c == "cast_spell")
            && called.iter().any(|c| c == "use_item")
            && state.encounter.is_none()
        {
            break;
        }
    }
    let state = store.load(&id).await.unwrap();
    let dir = golden_dir(SAVE_FORMAT);
    std::fs::create_dir_all(&dir).unwrap();
    let write = |file: &str, text: String| std::fs::write(dir.join(file), text + "\n").unwrap();
    write(
        "initial_state.json",
        to_saved_json_pretty(&initial).unwrap(),
    );
    write("turns.json", to_saved_json_pretty(&turns).unwrap());
    write("state.json", to_saved_json_pretty(&state).unwrap());
    println!("{} turns written to {}", turns.len(), dir.display());
}
