//! Two games on one save: two `SqliteStore`s (two connections, as two `play` processes have)
//! open the same file, both load the same turn and both commit a turn computed on it. Exactly
//! one commit wins; the other is a `StoreError::Conflict` and writes nothing. An undo and a
//! commit by the other game in between is caught too, though the count of turns is the same.

use dnd_engine::store::{GameStore, Page, StoreError, TurnRecord};
use dnd_store_sqlite::SqliteStore;

#[path = "../../tests/tests/store_suite/mod.rs"]
#[allow(dead_code)]
mod store_suite;

use store_suite::{sample_state, sample_turn};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_two_connections_on_one_turn_exactly_one_commits() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("campaigns.db");
    let first = SqliteStore::open(&path).expect("the first game opens the save");
    let id = first
        .create_campaign("Shared", &sample_state("Shared"))
        .await
        .unwrap();
    first.commit_turn(&id, sample_turn(1)).await.unwrap();
    let second = SqliteStore::open(&path).expect("the second game opens the same save");

    // Many rounds, so that both orders (and a true race) are likely to be seen.
    for round in 0..20u64 {
        let (state, base) = first.load_with_head(&id).await.unwrap();
        assert_eq!(
            second.load_with_head(&id).await.unwrap(),
            (state, base),
            "both see turn {base}"
        );
        let record = |n: u64| TurnRecord {
            after_turn: Some(base),
            ..sample_turn(n)
        };
        let stores = [first.clone(), second.clone()];
        let tasks: Vec<_> = stores
            .into_iter()
            .enumerate()
            .map(|(i, store)| {
                let id = id.clone();
                let record = record(100 * round + i as u64);
                tokio::spawn(async move { store.commit_turn(&id, record).await })
            })
            .collect();
        let mut won = 0;
        let mut conflicts = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(_) => won += 1,
                Err(StoreError::Conflict { after_turn, head }) => {
                    assert_eq!((after_turn, head), (base, base + 1));
                    conflicts += 1;
                }
                Err(other) => panic!("round {round}: unexpected error: {other}"),
            }
        }
        assert_eq!((won, conflicts), (1, 1), "round {round}");
        let state = first.load(&id).await.unwrap();
        assert_eq!(state.turn, base + 1, "one turn applied in round {round}");
        assert_eq!(second.load(&id).await.unwrap(), state);
    }
    let history = first.history(&id, Page::first(100)).await.unwrap();
    assert_eq!(history.len(), 21, "the refused turns left no record");
    // The store's state is still the replay of its records.
    let records: Vec<TurnRecord> = history
        .into_iter()
        .map(|h| std::sync::Arc::unwrap_or_clone(h.record))
        .collect();
    let replayed = dnd_engine::store::replay(&sample_state("Shared"), &records).unwrap();
    assert_eq!(replayed, first.load(&id).await.unwrap());
}

/// The second game undoes the turn the first loaded and plays one of its own: the campaign has
/// as many turns in effect as the first game saw, but the first game's turn is refused.
#[tokio::test]
async fn a_turn_from_before_another_connections_undo_and_commit_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("campaigns.db");
    let first = SqliteStore::open(&path).expect("the first game opens the save");
    let id = first
        .create_campaign("Undone", &sample_state("Undone"))
        .await
        .unwrap();
    for n in 1..=2 {
        first.commit_turn(&id, sample_turn(n)).await.unwrap();
    }
    let second = SqliteStore::open(&path).expect("the second game opens the same save");
    let (loaded, head) = first.load_with_head(&id).await.unwrap();
    second.undo(&id, 1).await.unwrap();
    let (_, second_head) = second.load_with_head(&id).await.unwrap();
    let theirs = TurnRecord {
        after_turn: Some(second_head),
        ..sample_turn(8)
    };
    assert_eq!(second.commit_turn(&id, theirs).await.unwrap(), 3);
    let now = first.load(&id).await.unwrap();
    assert_eq!(
        now.turn, loaded.turn,
        "as many turns in effect as were loaded"
    );
    let mine = TurnRecord {
        after_turn: Some(head),
        ..sample_turn(9)
    };
    match first.commit_turn(&id, mine).await {
        Err(StoreError::Conflict { after_turn, head }) => assert_eq!((after_turn, head), (2, 3)),
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(first.load(&id).await.unwrap(), now, "nothing written");
    assert_eq!(first.history(&id, Page::first(10)).await.unwrap().len(), 3);
}
