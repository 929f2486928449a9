//! What a durable store must survive: a process killed in the middle of commits, a file that is
//! not a database, a database from a newer build or another program, and being closed and
//! opened again.
//!
//! The crash test runs this test binary again as a child process (`crash_child`, which does
//! nothing unless [`CHILD_PATH`] is set), lets it commit turns, and kills it with SIGKILL.

use std::ffi::OsStr;

use dnd_engine::store::{CampaignId, GameStore, Page, StoreError, TurnRecord};
use dnd_store_sqlite::SqliteStore;

/// The store suite's fixtures (one fighter, two rooms), so both test files start from the same
/// campaign; this file's turns stay its own (they must commit forever without running out).
#[path = "../../tests/tests/store_suite/mod.rs"]
#[allow(dead_code)]
mod store_suite;

/// The kill -9 test's child, its runner and the checks after it, shared with the PostgreSQL
/// store's test.
#[path = "../../tests/tests/store_suite/crash.rs"]
mod crash;

use crash::{check_after_kill, commit_then_kill, commit_until_killed, crash_turn};
use store_suite::sample_state;

/// A turn marked `n` on no particular head.
fn sample_turn(n: u64) -> TurnRecord {
    crash_turn(n, None)
}

/// Set in the child: the database to commit to.
const CHILD_PATH: &str = "DND_STORE_SQLITE_CRASH_CHILD_DB";
/// Set in the child: the campaign to commit to.
const CHILD_CAMPAIGN: &str = "DND_STORE_SQLITE_CRASH_CHILD_CAMPAIGN";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// Not a test on its own: the child of `a_killed_process_loses_no_committed_turn`. Commits turns
/// until it is killed, printing each one after `commit_turn` returned `Ok`.
#[test]
fn crash_child() {
    let (Some(path), Some(campaign)) = (
        std::env::var_os(CHILD_PATH),
        std::env::var(CHILD_CAMPAIGN).ok(),
    ) else {
        return;
    };
    let id = CampaignId(campaign);
    runtime().block_on(async {
        let store = SqliteStore::open(&path).expect("the child opens the store");
        commit_until_killed(&store, &id).await;
    });
}

#[test]
fn a_killed_process_loses_no_committed_turn() {
    if std::env::var_os(CHILD_PATH).is_some() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("crash.db");
    let rt = runtime();
    let initial = sample_state("Crash");
    let id = rt.block_on(async {
        let store = SqliteStore::open(&path).expect("a new store");
        store
            .create_campaign("Crash", &initial)
            .await
            .expect("created")
    });
    let mut reported = Vec::new();
    for round in 0..3 {
        let env = [
            (CHILD_PATH, path.as_os_str()),
            (CHILD_CAMPAIGN, OsStr::new(&id.0)),
        ];
        reported.extend(commit_then_kill(&env, 20));
        rt.block_on(async {
            let store = SqliteStore::open(&path).expect("the store opens after a kill");
            check_after_kill(&store, &id, &initial, &reported, round).await;
        });
    }
    let conn = rusqlite::Connection::open(&path).expect("opens");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("integrity_check runs");
    assert_eq!(check, "ok");
}

#[test]
fn random_bytes_are_not_a_database() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("noise.db");
    // A fixed pseudo-random sequence (xorshift), 8 KiB of it.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes: Vec<u8> = (0..8192)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&path, &bytes).expect("written");
    let err = SqliteStore::open(&path).expect_err("random bytes must not open");
    let message = err.to_string();
    assert!(matches!(err, StoreError::Backend(_)), "{message}");
    assert!(
        message.contains(&path.display().to_string()),
        "names the path: {message}"
    );
    assert!(
        message.contains("not a SQLite database"),
        "says why: {message}"
    );
    assert_eq!(
        std::fs::read(&path).expect("read"),
        bytes,
        "the file is left as it was"
    );
}

#[test]
fn a_newer_schema_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("future.db");
    drop(SqliteStore::open(&path).expect("a new store"));
    let newer = SqliteStore::SCHEMA_VERSION + 1;
    rusqlite::Connection::open(&path)
        .and_then(|conn| conn.pragma_update(None, "user_version", newer))
        .expect("version set");
    let err = SqliteStore::open(&path).expect_err("a newer schema must be refused");
    assert!(
        matches!(err, StoreError::SchemaTooNew { found, supported }
            if found == newer && supported == SqliteStore::SCHEMA_VERSION),
        "{err}"
    );
    let version: i64 = rusqlite::Connection::open(&path)
        .and_then(|conn| conn.pragma_query_value(None, "user_version", |row| row.get(0)))
        .expect("version read");
    assert_eq!(version, newer, "the file is not downgraded");
}

#[test]
fn another_programs_database_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("notes.db");
    rusqlite::Connection::open(&path)
        .and_then(|conn| conn.execute_batch("CREATE TABLE notes (text TEXT)"))
        .expect("another program's database");
    let message = SqliteStore::open(&path).expect_err("refused").to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(message.contains("another program"), "{message}");
}

#[test]
fn reopening_keeps_everything() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("reopen.db");
    let rt = runtime();
    let (id, other, state, history, list, story) = rt.block_on(async {
        let store = SqliteStore::open(&path).expect("a new store");
        let id = store
            .create_campaign("Reopen", &sample_state("Reopen"))
            .await
            .expect("created");
        let other = store
            .create_campaign("Other", &sample_state("Other"))
            .await
            .expect("created");
        for n in 1..=4 {
            store
                .commit_turn(&id, sample_turn(n))
                .await
                .expect("committed");
        }
        store.undo(&id, 2).await.expect("undone");
        store
            .commit_turn(&id, sample_turn(9))
            .await
            .expect("committed");
        store
            .commit_turn(&other, sample_turn(1))
            .await
            .expect("committed");
        (
            id.clone(),
            other,
            store.load(&id).await.expect("load"),
            store.history(&id, Page::first(100)).await.expect("history"),
            store.list_campaigns().await.expect("list"),
            store.story_log(&id, Page::first(100)).await.expect("story"),
        )
    });
    rt.block_on(async {
        let store = SqliteStore::open(&path).expect("reopens");
        assert_eq!(store.load(&id).await.expect("load"), state);
        let reread = store.history(&id, Page::first(100)).await.expect("history");
        assert_eq!(reread, history);
        let undone: Vec<(u64, bool)> = reread.iter().map(|h| (h.turn, h.undone)).collect();
        assert_eq!(
            undone,
            [(1, false), (2, false), (3, true), (4, true), (5, false)]
        );
        assert_eq!(store.list_campaigns().await.expect("list"), list);
        assert_eq!(
            store.story_log(&id, Page::first(100)).await.expect("story"),
            story
        );
        assert_eq!(
            store
                .commit_turn(&id, sample_turn(10))
                .await
                .expect("committed"),
            6,
            "numbering goes on after the undone turns"
        );
        assert_eq!(store.undo(&id, 1).await.expect("undone"), state);
        assert_eq!(store.load(&other).await.expect("load").turn, 1);
    });
}

#[tokio::test]
async fn ids_are_canonical_decimal_numbers() {
    let store = SqliteStore::open_in_memory().expect("opens");
    let id = store
        .create_campaign("Ids", &sample_state("Ids"))
        .await
        .expect("created");
    assert_eq!(id.0, "1");
    for ghost in [
        "01",
        "+1",
        " 1",
        "1.0",
        "0",
        "-1",
        "abc",
        "",
        "99999999999999999999",
    ] {
        let ghost = CampaignId(ghost.into());
        assert!(
            matches!(store.load(&ghost).await, Err(StoreError::NotFound(_))),
            "{ghost:?}"
        );
    }
    // Names are bound as parameters, with their full length: a NUL byte is kept.
    let odd = "nul\0byte 'quote' 🐉";
    let named = store
        .create_campaign(odd, &sample_state(odd))
        .await
        .expect("created");
    let list = store.list_campaigns().await.expect("list");
    assert!(
        list.iter().any(|c| c.id == named && c.name == odd),
        "{list:?}"
    );
    store.delete(&named).await.expect("deleted");
    // A deleted campaign's id is not given to the next one.
    store.delete(&id).await.expect("deleted");
    let next = store
        .create_campaign("Next", &sample_state("Next"))
        .await
        .expect("created");
    assert_eq!(next.0, "3");
}

#[test]
fn works_without_an_async_runtime_around_it() {
    let store = SqliteStore::open_in_memory().expect("opens");
    // No tokio runtime is running on this thread: a minimal executor polls the future, and the
    // store runs the work on this thread instead of spawn_blocking.
    let id = poll_once(store.create_campaign("Plain", &sample_state("Plain"))).expect("created");
    assert_eq!(
        poll_once(store.commit_turn(&id, sample_turn(1))).expect("committed"),
        1
    );
}

/// Polls a future that completes without waiting (as every store operation does outside a
/// runtime).
fn poll_once<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => panic!("the store waited outside a runtime"),
    }
}
