//! The store's operations as blocking functions on a connection, one transaction each.
//!
//! Every value reaches SQL as a bound parameter; the SQL text is constant. Reads that look at
//! more than one statement run in one (deferred) transaction so they see one snapshot; writes
//! take the write lock first (`BEGIN IMMEDIATE`), so a read-modify-write can never interleave
//! with another connection's.

use dnd_engine::state::{GameState, StoryEvent};
use dnd_engine::store::backend::{
    campaign_id, campaign_key, campaign_list, check_marked, check_undo, decode, decode_state,
    encode, history_entry, limit, limit_offset, story_page, turn_number,
};
use dnd_engine::store::{CampaignId, CampaignInfo, HistoryEntry, Page, StoreError, TurnRecord};
use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use crate::error::At;

fn write<'c>(conn: &'c mut Connection, place: &str) -> Result<Transaction<'c>, StoreError> {
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
        .at(place)
}

/// Fails with `NotFound` unless the campaign exists.
fn exists(tx: &Connection, place: &str, id: &CampaignId, key: i64) -> Result<(), StoreError> {
    tx.prepare_cached("SELECT 1 FROM campaigns WHERE id = ?1")
        .and_then(|mut stmt| stmt.exists(params![key]))
        .at(place)?
        .then_some(())
        .ok_or_else(|| StoreError::NotFound(id.clone()))
}

pub(crate) fn create_campaign(
    conn: &mut Connection,
    place: &str,
    name: &str,
    initial: &GameState,
) -> Result<CampaignId, StoreError> {
    let json = encode(place, "the initial state", initial)?;
    conn.prepare_cached(
        "INSERT INTO campaigns (name, initial_state, current_state) VALUES (?1, ?2, ?2) \
         RETURNING id",
    )
    .and_then(|mut stmt| stmt.query_row(params![name, json], |row| row.get::<_, i64>(0)))
    .at(place)
    .map(campaign_id)
}

pub(crate) fn load(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
) -> Result<GameState, StoreError> {
    let key = campaign_key(id)?;
    let json: String = conn
        .prepare_cached("SELECT current_state FROM campaigns WHERE id = ?1")
        .and_then(|mut stmt| stmt.query_row(params![key], |row| row.get(0)).optional())
        .at(place)?
        .ok_or_else(|| StoreError::NotFound(id.clone()))?;
    decode_state(place, id, &json)
}

/// SQL for the history number of campaign `?1`'s last turn in effect, 0 for none (its head),
/// read by the `turns_in_effect` index. A macro, not a `const`, so that `concat!` puts it beside
/// `current_state` in one constant `SELECT`: the two are read as one snapshot.
macro_rules! head_sql {
    () => {
        "(SELECT coalesce(max(turn), 0) FROM turns WHERE campaign_id = ?1 AND undone = 0)"
    };
}

pub(crate) fn load_with_head(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
) -> Result<(GameState, u64), StoreError> {
    let key = campaign_key(id)?;
    // One statement is one read transaction: the state and the head are read together.
    let (json, head): (String, i64) = conn
        .prepare_cached(concat!(
            "SELECT current_state, ",
            head_sql!(),
            " FROM campaigns WHERE id = ?1"
        ))
        .and_then(|mut stmt| {
            stmt.query_row(params![key], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .at(place)?
        .ok_or_else(|| StoreError::NotFound(id.clone()))?;
    let state = decode_state(place, id, &json)?;
    Ok((state, turn_number(place, head)?))
}

pub(crate) fn commit_turn(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
    record: &TurnRecord,
) -> Result<u64, StoreError> {
    let key = campaign_key(id)?;
    let tx = write(conn, place)?;
    // `last` counts undone turns (the new turn's number follows it); `head` does not.
    let (json, last, head): (String, i64, i64) = tx
        .prepare_cached(concat!(
            "SELECT current_state, \
                    (SELECT coalesce(max(turn), 0) FROM turns WHERE campaign_id = ?1), ",
            head_sql!(),
            " FROM campaigns WHERE id = ?1"
        ))
        .and_then(|mut stmt| {
            stmt.query_row(params![key], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .optional()
        })
        .at(place)?
        .ok_or_else(|| StoreError::NotFound(id.clone()))?;
    // Inside the write transaction (`BEGIN IMMEDIATE` holds the write lock): another process's
    // commit or undo has either already moved the head or waits for this one to finish, so of
    // two games that loaded the same state only one passes. Checked before the state is
    // decoded: a stale turn costs no parse.
    record.check_after_turn(turn_number(place, head)?)?;
    let mut state = decode_state(place, id, &json)?;
    // An invalid turn returns here; dropping `tx` rolls back a transaction that wrote nothing.
    record.apply_to(&mut state)?;
    let turn = last + 1;
    let record_json = encode(place, "the turn record", record)?;
    let state_json = encode(place, "the new state", &state)?;
    tx.prepare_cached(
        "INSERT INTO turns (campaign_id, turn, record, state_after) VALUES (?1, ?2, ?3, ?4)",
    )
    .and_then(|mut stmt| stmt.execute(params![key, turn, record_json, state_json]))
    .at(place)?;
    tx.prepare_cached("UPDATE campaigns SET current_state = ?2 WHERE id = ?1")
        .and_then(|mut stmt| stmt.execute(params![key, state_json]))
        .at(place)?;
    tx.commit().at(place)?;
    turn_number(place, turn)
}

pub(crate) fn list_campaigns(
    conn: &mut Connection,
    place: &str,
) -> Result<Vec<CampaignInfo>, StoreError> {
    let rows: Vec<(i64, String, i64)> = conn
        .prepare_cached(
            "SELECT c.id, c.name, \
                    (SELECT count(*) FROM turns t WHERE t.campaign_id = c.id AND t.undone = 0) \
             FROM campaigns c",
        )
        .and_then(|mut stmt| {
            stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
                .collect()
        })
        .at(place)?;
    campaign_list(place, rows)
}

pub(crate) fn story_log(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
    page: Page,
) -> Result<Vec<StoryEvent>, StoreError> {
    let key = campaign_key(id)?;
    let tx = conn.transaction().at(place)?;
    exists(&tx, place, id, key)?;
    let rows: Vec<(i64, String)> = tx
        .prepare_cached(
            "SELECT turn, record FROM turns WHERE campaign_id = ?1 AND undone = 0 ORDER BY turn",
        )
        .and_then(|mut stmt| {
            stmt.query_map(params![key], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect()
        })
        .at(place)?;
    tx.finish().at(place)?;
    story_page(place, id, rows, page)
}

pub(crate) fn history(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
    page: Page,
) -> Result<Vec<HistoryEntry>, StoreError> {
    let key = campaign_key(id)?;
    let tx = conn.transaction().at(place)?;
    exists(&tx, place, id, key)?;
    let (limit, offset) = limit_offset(page);
    let rows: Vec<(i64, bool, String)> = tx
        .prepare_cached(
            "SELECT turn, undone, record FROM turns WHERE campaign_id = ?1 \
             ORDER BY turn LIMIT ?2 OFFSET ?3",
        )
        .and_then(|mut stmt| {
            stmt.query_map(params![key, limit, offset], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })?
            .collect()
        })
        .at(place)?;
    tx.finish().at(place)?;
    rows.into_iter()
        .map(|(turn, undone, json)| history_entry(place, id, turn, undone, &json))
        .collect()
}

pub(crate) fn recent_turns(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
    count: usize,
) -> Result<Vec<HistoryEntry>, StoreError> {
    let key = campaign_key(id)?;
    let tx = conn.transaction().at(place)?;
    exists(&tx, place, id, key)?;
    let rows: Vec<(i64, String)> = tx
        .prepare_cached(
            "SELECT turn, record FROM turns WHERE campaign_id = ?1 AND undone = 0 \
             ORDER BY turn DESC LIMIT ?2",
        )
        .and_then(|mut stmt| {
            stmt.query_map(params![key, limit(count)], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })?
            .collect()
        })
        .at(place)?;
    tx.finish().at(place)?;
    rows.into_iter()
        .rev()
        .map(|(turn, json)| history_entry(place, id, turn, false, &json))
        .collect()
}

pub(crate) fn undo(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
    turns: u32,
) -> Result<GameState, StoreError> {
    let key = campaign_key(id)?;
    let tx = write(conn, place)?;
    let available: i64 = tx
        .prepare_cached(
            "SELECT (SELECT count(*) FROM turns WHERE campaign_id = ?1 AND undone = 0) \
             FROM campaigns WHERE id = ?1",
        )
        .and_then(|mut stmt| stmt.query_row(params![key], |row| row.get(0)).optional())
        .at(place)?
        .ok_or_else(|| StoreError::NotFound(id.clone()))?;
    check_undo(place, turns, available)?;
    // The newest turn that stays in effect: its `state_after` is the state to go back to
    // (undo only ever takes the newest turns in effect, so none before it has been undone
    // since it was committed). With none left, the campaign goes back to its start.
    let kept: Option<(i64, String)> = tx
        .prepare_cached(
            "SELECT turn, state_after FROM turns WHERE campaign_id = ?1 AND undone = 0 \
             ORDER BY turn DESC LIMIT 1 OFFSET ?2",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![key, turns], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .at(place)?;
    let (floor, json) = match kept {
        Some(kept) => kept,
        None => {
            let initial: String = tx
                .prepare_cached("SELECT initial_state FROM campaigns WHERE id = ?1")
                .and_then(|mut stmt| stmt.query_row(params![key], |row| row.get(0)))
                .at(place)?;
            (0, initial)
        }
    };
    let state: GameState = decode(
        place,
        format_args!("the state after turn {floor} of campaign {id}"),
        &json,
    )?;
    let marked = tx
        .prepare_cached(
            "UPDATE turns SET undone = 1 WHERE campaign_id = ?1 AND undone = 0 AND turn > ?2",
        )
        .and_then(|mut stmt| stmt.execute(params![key, floor]))
        .at(place)?;
    check_marked(place, id, turns, marked as u64)?;
    tx.prepare_cached("UPDATE campaigns SET current_state = ?2 WHERE id = ?1")
        .and_then(|mut stmt| stmt.execute(params![key, json]))
        .at(place)?;
    tx.commit().at(place)?;
    Ok(state)
}

pub(crate) fn delete(
    conn: &mut Connection,
    place: &str,
    id: &CampaignId,
) -> Result<(), StoreError> {
    let key = campaign_key(id)?;
    // One statement is one transaction; the turns go with the campaign (ON DELETE CASCADE).
    let deleted = conn
        .prepare_cached("DELETE FROM campaigns WHERE id = ?1")
        .and_then(|mut stmt| stmt.execute(params![key]))
        .at(place)?;
    if deleted == 0 {
        return Err(StoreError::NotFound(id.clone()));
    }
    Ok(())
}
