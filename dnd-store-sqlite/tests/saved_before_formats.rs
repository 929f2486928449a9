//! A campaign saved before stored JSON carried a save format (schema version 1: bare
//! `GameState` and `TurnRecord` JSON) still loads: migration 2 wraps every value in the format
//! envelope. The campaign is the engine's golden one (`dnd-engine/tests/golden/format-1`).

use std::path::{Path, PathBuf};

use dnd_engine::state::GameState;
use dnd_engine::store::format::from_saved_json;
use dnd_engine::store::{GameStore, Page, TurnRecord};
use dnd_store_sqlite::SqliteStore;

fn golden<T: serde::de::DeserializeOwned>(file: &str) -> T {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../dnd-engine/tests/golden/format-1"
    ))
    .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    from_saved_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Turns the store at `path` back into what version 1 wrote: every JSON value bare, the
/// schema version 1. (Version 2 changed no table, only the values.)
fn as_version_1(path: &Path) {
    let envelope = r#"{"format":1,"data":"#.len();
    let bare = |column: &str| {
        format!(
            "{column} = substr({column}, {start}, length({column}) - {cut})",
            start = envelope + 1,
            cut = envelope + 1
        )
    };
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.execute_batch(&format!(
        "UPDATE campaigns SET {}, {}; UPDATE turns SET {}, {}; PRAGMA user_version = 1;",
        bare("initial_state"),
        bare("current_state"),
        bare("record"),
        bare("state_after"),
    ))
    .expect("rewritten as version 1");
    let state: String = conn
        .query_row("SELECT current_state FROM campaigns", [], |row| row.get(0))
        .expect("read");
    serde_json::from_str::<GameState>(&state).expect("a bare state, as version 1 wrote it");
}

#[test]
fn a_campaign_saved_by_schema_version_1_loads_and_replays() {
    let initial: GameState = golden("initial_state.json");
    let turns: Vec<TurnRecord> = golden("turns.json");
    let last: GameState = golden("state.json");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("old.db");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let store = SqliteStore::open(&path).expect("a new store");
        let id = store
            .create_campaign("Golden", &initial)
            .await
            .expect("created");
        for turn in &turns {
            store
                .commit_turn(&id, turn.clone())
                .await
                .expect("committed");
        }
        drop(store);
        as_version_1(&path);

        let store = SqliteStore::open(&path).expect("migrated");
        assert_eq!(store.load(&id).await.expect("loaded"), last);
        let history = store
            .history(&id, Page::first(1000))
            .await
            .expect("history");
        let records: Vec<TurnRecord> = history.iter().map(|e| (*e.record).clone()).collect();
        assert_eq!(records, turns);
        let version: i64 = rusqlite::Connection::open(&path)
            .and_then(|conn| conn.pragma_query_value(None, "user_version", |row| row.get(0)))
            .expect("version read");
        assert_eq!(version, SqliteStore::SCHEMA_VERSION);
    });
}
