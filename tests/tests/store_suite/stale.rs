//! Stale turns: a turn records the head it was computed after (the history number of the last
//! turn in effect, from `GameStore::load_with_head`), and a commit is refused with
//! `StoreError::Conflict`, writing nothing, whenever another game committed or undid turns
//! since. The cases where `GameState::turn` (a count of the turns in effect) cannot tell are
//! here: an undo followed by a commit gives the same count on a different state.

use dnd_engine::state::GameState;
use dnd_engine::store::{CampaignId, GameStore, HistoryEntry, Page, StoreError, TurnRecord};

use super::{sample_state, sample_turn};

/// Every case, each on its own campaign.
pub async fn run_all(store: &dyn GameStore) {
    the_head_is_the_last_turn_in_effect(store).await;
    a_turn_on_a_head_another_game_moved_on_is_refused(store).await;
    a_turn_from_before_an_undo_and_a_commit_is_refused(store).await;
    a_turn_from_before_an_undo_is_refused(store).await;
    the_same_head_is_the_same_state(store).await;
}

/// `sample_turn(n)` computed after `head`.
fn after(head: u64, n: u64) -> TurnRecord {
    TurnRecord {
        after_turn: Some(head),
        ..sample_turn(n)
    }
}

/// A campaign with `turns` turns committed.
async fn campaign(store: &dyn GameStore, name: &str, turns: u64) -> CampaignId {
    let id = store
        .create_campaign(name, &sample_state(name))
        .await
        .unwrap();
    for n in 1..=turns {
        store.commit_turn(&id, sample_turn(n)).await.unwrap();
    }
    id
}

/// The state and the whole history, to show a refused commit changed nothing.
async fn everything(store: &dyn GameStore, id: &CampaignId) -> (GameState, Vec<HistoryEntry>) {
    (
        store.load(id).await.unwrap(),
        store.history(id, Page::first(100)).await.unwrap(),
    )
}

/// Commits `record`, expects a `Conflict` with these numbers, and checks nothing was written.
async fn refused(
    store: &dyn GameStore,
    id: &CampaignId,
    record: TurnRecord,
    (after_turn, head): (u64, u64),
) {
    let before = everything(store, id).await;
    let err = store.commit_turn(id, record).await.unwrap_err();
    match &err {
        StoreError::Conflict {
            after_turn: a,
            head: h,
        } => assert_eq!((*a, *h), (after_turn, head), "{err}"),
        other => panic!("expected a conflict, got: {other}"),
    }
    let message = err.to_string();
    assert!(
        message.contains("another game") && message.contains("reload"),
        "{message}"
    );
    assert_eq!(everything(store, id).await, before, "nothing written");
}

async fn the_head_is_the_last_turn_in_effect(store: &dyn GameStore) {
    let id = campaign(store, "Head", 0).await;
    let (state, head) = store.load_with_head(&id).await.unwrap();
    assert_eq!((state, head), (sample_state("Head"), 0), "no turn yet: 0");
    for n in 1..=3 {
        store.commit_turn(&id, sample_turn(n)).await.unwrap();
    }
    store.undo(&id, 1).await.unwrap();
    let (state, head) = store.load_with_head(&id).await.unwrap();
    assert_eq!(state, store.load(&id).await.unwrap());
    assert_eq!((state.turn, head), (2, 2));
    assert_eq!(store.commit_turn(&id, after(2, 4)).await.unwrap(), 4);
    // Undone turn 3 still counts in the numbering: the head is 4 with 3 turns in effect.
    let (state, head) = store.load_with_head(&id).await.unwrap();
    assert_eq!((state.turn, head), (3, 4));
    store.undo(&id, 3).await.unwrap();
    assert_eq!(
        store.load_with_head(&id).await.unwrap(),
        (sample_state("Head"), 0),
        "every turn undone: back to the start, head 0"
    );
    assert_eq!(store.commit_turn(&id, after(0, 5)).await.unwrap(), 5);
}

/// Two games loaded the same state; the first commits, the second is refused; reloaded, it
/// commits. A record without `after_turn` skips the check.
async fn a_turn_on_a_head_another_game_moved_on_is_refused(store: &dyn GameStore) {
    let id = campaign(store, "Stale", 1).await;
    let (_, head) = store.load_with_head(&id).await.unwrap();
    assert_eq!(head, 1);
    assert_eq!(store.commit_turn(&id, after(head, 2)).await.unwrap(), 2);
    refused(store, &id, after(head, 3), (1, 2)).await;
    let (_, head) = store.load_with_head(&id).await.unwrap();
    assert_eq!(store.commit_turn(&id, after(head, 3)).await.unwrap(), 3);
    assert_eq!(store.commit_turn(&id, sample_turn(4)).await.unwrap(), 4);
    assert_eq!(store.load(&id).await.unwrap().turn, 4);
}

/// Game A loads turn 2; game B undoes it and commits a turn of its own. The campaign has two
/// turns in effect again (the count A saw) but not the same second one, so A's turn is stale.
async fn a_turn_from_before_an_undo_and_a_commit_is_refused(store: &dyn GameStore) {
    let id = campaign(store, "Undone and replayed", 2).await;
    let (a_state, a_head) = store.load_with_head(&id).await.unwrap();
    assert_eq!(a_head, 2);
    // Game B undoes turn 2, reloads, and plays.
    store.undo(&id, 1).await.unwrap();
    let (_, b_head) = store.load_with_head(&id).await.unwrap();
    assert_eq!(b_head, 1);
    assert_eq!(store.commit_turn(&id, after(b_head, 8)).await.unwrap(), 3);
    let now = store.load(&id).await.unwrap();
    assert_eq!(
        now.turn, a_state.turn,
        "the count cannot tell the two apart"
    );
    assert_ne!(now, a_state, "but the state is another");
    refused(store, &id, after(a_head, 9), (2, 3)).await;
}

/// Game A loads; game B only undoes. The turn A built on is gone, so A's turn is stale too,
/// even without a new turn in its place.
async fn a_turn_from_before_an_undo_is_refused(store: &dyn GameStore) {
    let id = campaign(store, "Undone", 3).await;
    let (_, a_head) = store.load_with_head(&id).await.unwrap();
    store.undo(&id, 1).await.unwrap();
    refused(store, &id, after(a_head, 4), (3, 2)).await;
    store.undo(&id, 2).await.unwrap();
    refused(store, &id, after(a_head, 4), (3, 0)).await;
    assert_eq!(store.load_with_head(&id).await.unwrap().1, 0);
    assert_eq!(store.commit_turn(&id, after(0, 4)).await.unwrap(), 4);
}

/// A commit then an undo of it brings the head back, and with it the very same state: a turn
/// computed there is not stale and commits.
async fn the_same_head_is_the_same_state(store: &dyn GameStore) {
    let id = campaign(store, "Back again", 2).await;
    let loaded = store.load_with_head(&id).await.unwrap();
    store.commit_turn(&id, after(loaded.1, 3)).await.unwrap();
    store.undo(&id, 1).await.unwrap();
    assert_eq!(store.load_with_head(&id).await.unwrap(), loaded);
    assert_eq!(store.commit_turn(&id, after(loaded.1, 4)).await.unwrap(), 4);
}
