//! The store's operations on one pooled connection, one transaction each.
//!
//! Every value reaches SQL as a bound parameter; the SQL text is constant (and prepared once
//! per connection). Writes lock the campaign's row first (`FOR UPDATE`), so a read-modify-write
//! never interleaves with another server's on the same campaign; reads of several statements
//! run in one `REPEATABLE READ` read-only transaction so they see one snapshot.

use deadpool_postgres::{Client, Transaction};
use dnd_engine::state::{GameState, StoryEvent};
use dnd_engine::store::backend::{
    campaign_id, campaign_key, campaign_list, check_marked, check_undo, decode, decode_state,
    encode, history_entry, limit, limit_offset, story_page, turn_number,
};
use dnd_engine::store::{CampaignId, CampaignInfo, HistoryEntry, Page, StoreError, TurnRecord};
use tokio_postgres::IsolationLevel;

use crate::error::{At, Cell, is_race, sql_error};

/// A read-only transaction that sees one snapshot for all its statements.
async fn snapshot<'c>(client: &'c mut Client, place: &str) -> Result<Transaction<'c>, StoreError> {
    client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .at(place)
}

/// Fails with `NotFound` unless the campaign exists.
async fn exists(
    tx: &Transaction<'_>,
    place: &str,
    id: &CampaignId,
    key: i64,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached("SELECT 1 FROM campaigns WHERE id = $1")
        .await
        .at(place)?;
    match tx.query_opt(&stmt, &[&key]).await.at(place)? {
        Some(_) => Ok(()),
        None => Err(StoreError::NotFound(id.clone())),
    }
}

/// Locks the campaign's row for the rest of the transaction and returns its current state as
/// JSON. A second writer of the same campaign waits here until the first commits or rolls back,
/// and then reads what the first wrote (`READ COMMITTED` reads the newest row version).
async fn lock_campaign(
    tx: &Transaction<'_>,
    place: &str,
    id: &CampaignId,
    key: i64,
) -> Result<String, StoreError> {
    let stmt = tx
        .prepare_cached("SELECT current_state FROM campaigns WHERE id = $1 FOR UPDATE")
        .await
        .at(place)?;
    tx.query_opt(&stmt, &[&key])
        .await
        .at(place)?
        .map(|row| row.cell(0, place))
        .transpose()?
        .ok_or_else(|| StoreError::NotFound(id.clone()))
}

pub(crate) async fn create_campaign(
    client: &mut Client,
    place: &str,
    name: &str,
    initial: &GameState,
) -> Result<CampaignId, StoreError> {
    let json = encode(place, "the initial state", initial)?;
    let stmt = client
        .prepare_cached(
            "INSERT INTO campaigns (name, initial_state, current_state) VALUES ($1, $2, $2) \
             RETURNING id",
        )
        .await
        .at(place)?;
    let id: i64 = client
        .query_one(&stmt, &[&name, &json])
        .await
        .at(place)?
        .cell(0, place)?;
    Ok(campaign_id(id))
}

pub(crate) async fn load(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
) -> Result<GameState, StoreError> {
    let key = campaign_key(id)?;
    let stmt = client
        .prepare_cached("SELECT current_state FROM campaigns WHERE id = $1")
        .await
        .at(place)?;
    let json: String = client
        .query_opt(&stmt, &[&key])
        .await
        .at(place)?
        .map(|row| row.cell(0, place))
        .transpose()?
        .ok_or_else(|| StoreError::NotFound(id.clone()))?;
    decode_state(place, id, &json)
}

pub(crate) async fn load_with_head(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
) -> Result<(GameState, u64), StoreError> {
    let key = campaign_key(id)?;
    // One statement, one snapshot: the state and the head are read together.
    let stmt = client
        .prepare_cached(
            "SELECT current_state, \
                    (SELECT coalesce(max(turn), 0) FROM turns \
                     WHERE campaign_id = $1 AND NOT undone) \
             FROM campaigns WHERE id = $1",
        )
        .await
        .at(place)?;
    let (json, head): (String, i64) = client
        .query_opt(&stmt, &[&key])
        .await
        .at(place)?
        .map(|row| Ok::<_, StoreError>((row.cell(0, place)?, row.cell(1, place)?)))
        .transpose()?
        .ok_or_else(|| StoreError::NotFound(id.clone()))?;
    let state = decode_state(place, id, &json)?;
    Ok((state, turn_number(place, head)?))
}

pub(crate) async fn commit_turn(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
    record: &TurnRecord,
) -> Result<u64, StoreError> {
    let key = campaign_key(id)?;
    let tx = client.transaction().await.at(place)?;
    let json = lock_campaign(&tx, place, id, key).await?;
    // Under the row lock: every other commit or undo of this campaign has finished or waits.
    // `last` counts undone turns (the new turn's number follows it); `head` does not.
    let stmt = tx
        .prepare_cached(
            "SELECT coalesce(max(turn), 0), coalesce(max(turn) FILTER (WHERE NOT undone), 0) \
             FROM turns WHERE campaign_id = $1",
        )
        .await
        .at(place)?;
    let row = tx.query_one(&stmt, &[&key]).await.at(place)?;
    let (last, head): (i64, i64) = (row.cell(0, place)?, row.cell(1, place)?);
    let head = turn_number(place, head)?;
    // Checked before the state is decoded: a stale turn costs no parse. Dropping `tx` on an
    // early return rolls back a transaction that wrote nothing.
    record.check_after_turn(head)?;
    let mut state = decode_state(place, id, &json)?;
    record.apply_to(&mut state)?;
    let turn = last + 1;
    let record_json = encode(place, "the turn record", record)?;
    let state_json = encode(place, "the new state", &state)?;
    let race = |error: tokio_postgres::Error| {
        if is_race(&error) {
            StoreError::Conflict {
                after_turn: record.after_turn.unwrap_or(head),
                head: head + 1,
            }
        } else {
            sql_error(place, &error)
        }
    };
    let insert = tx
        .prepare_cached(
            "INSERT INTO turns (campaign_id, turn, record, state_after) VALUES ($1, $2, $3, $4)",
        )
        .await
        .at(place)?;
    tx.execute(&insert, &[&key, &turn, &record_json, &state_json])
        .await
        .map_err(race)?;
    let update = tx
        .prepare_cached("UPDATE campaigns SET current_state = $2 WHERE id = $1")
        .await
        .at(place)?;
    tx.execute(&update, &[&key, &state_json])
        .await
        .map_err(race)?;
    tx.commit().await.map_err(race)?;
    turn_number(place, turn)
}

pub(crate) async fn list_campaigns(
    client: &mut Client,
    place: &str,
) -> Result<Vec<CampaignInfo>, StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT c.id, c.name, \
                    (SELECT count(*) FROM turns t WHERE t.campaign_id = c.id AND NOT t.undone) \
             FROM campaigns c",
        )
        .await
        .at(place)?;
    let rows = client.query(&stmt, &[]).await.at(place)?;
    let rows = rows
        .iter()
        .map(|row| {
            Ok((
                row.cell(0, place)?,
                row.cell(1, place)?,
                row.cell(2, place)?,
            ))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    campaign_list(place, rows)
}

pub(crate) async fn story_log(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
    page: Page,
) -> Result<Vec<StoryEvent>, StoreError> {
    let key = campaign_key(id)?;
    let tx = snapshot(client, place).await?;
    exists(&tx, place, id, key).await?;
    let stmt = tx
        .prepare_cached(
            "SELECT turn, record FROM turns WHERE campaign_id = $1 AND NOT undone ORDER BY turn",
        )
        .await
        .at(place)?;
    let rows = tx.query(&stmt, &[&key]).await.at(place)?;
    tx.commit().await.at(place)?;
    let rows = rows
        .iter()
        .map(|row| Ok((row.cell(0, place)?, row.cell(1, place)?)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    story_page(place, id, rows, page)
}

/// Rows of `(turn, undone, record)` as history entries.
fn entries(
    place: &str,
    id: &CampaignId,
    rows: impl Iterator<Item = tokio_postgres::Row>,
) -> Result<Vec<HistoryEntry>, StoreError> {
    rows.map(|row| {
        let (turn, undone, json): (i64, bool, String) = (
            row.cell(0, place)?,
            row.cell(1, place)?,
            row.cell(2, place)?,
        );
        history_entry(place, id, turn, undone, &json)
    })
    .collect()
}

pub(crate) async fn history(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
    page: Page,
) -> Result<Vec<HistoryEntry>, StoreError> {
    let key = campaign_key(id)?;
    let tx = snapshot(client, place).await?;
    exists(&tx, place, id, key).await?;
    let (limit, offset) = limit_offset(page);
    let stmt = tx
        .prepare_cached(
            "SELECT turn, undone, record FROM turns WHERE campaign_id = $1 \
             ORDER BY turn LIMIT $2 OFFSET $3",
        )
        .await
        .at(place)?;
    let rows = tx.query(&stmt, &[&key, &limit, &offset]).await.at(place)?;
    tx.commit().await.at(place)?;
    entries(place, id, rows.into_iter())
}

pub(crate) async fn recent_turns(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
    count: usize,
) -> Result<Vec<HistoryEntry>, StoreError> {
    let key = campaign_key(id)?;
    let tx = snapshot(client, place).await?;
    exists(&tx, place, id, key).await?;
    let stmt = tx
        .prepare_cached(
            "SELECT turn, undone, record FROM turns WHERE campaign_id = $1 AND NOT undone \
             ORDER BY turn DESC LIMIT $2",
        )
        .await
        .at(place)?;
    let rows = tx.query(&stmt, &[&key, &limit(count)]).await.at(place)?;
    tx.commit().await.at(place)?;
    entries(place, id, rows.into_iter().rev())
}

pub(crate) async fn undo(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
    turns: u32,
) -> Result<GameState, StoreError> {
    let key = campaign_key(id)?;
    let tx = client.transaction().await.at(place)?;
    lock_campaign(&tx, place, id, key).await?;
    let count = tx
        .prepare_cached("SELECT count(*) FROM turns WHERE campaign_id = $1 AND NOT undone")
        .await
        .at(place)?;
    let available: i64 = tx
        .query_one(&count, &[&key])
        .await
        .at(place)?
        .cell(0, place)?;
    check_undo(place, turns, available)?;
    // The newest turn that stays in effect: its `state_after` is the state to go back to. With
    // none left, the campaign goes back to its start.
    let kept = tx
        .prepare_cached(
            "SELECT turn, state_after FROM turns WHERE campaign_id = $1 AND NOT undone \
             ORDER BY turn DESC LIMIT 1 OFFSET $2",
        )
        .await
        .at(place)?;
    let (floor, json): (i64, String) = match tx
        .query_opt(&kept, &[&key, &i64::from(turns)])
        .await
        .at(place)?
    {
        Some(row) => (row.cell(0, place)?, row.cell(1, place)?),
        None => {
            let initial = tx
                .prepare_cached("SELECT initial_state FROM campaigns WHERE id = $1")
                .await
                .at(place)?;
            let row = tx.query_one(&initial, &[&key]).await.at(place)?;
            (0, row.cell(0, place)?)
        }
    };
    let state: GameState = decode(
        place,
        format_args!("the state after turn {floor} of campaign {id}"),
        &json,
    )?;
    let mark = tx
        .prepare_cached(
            "UPDATE turns SET undone = true WHERE campaign_id = $1 AND NOT undone AND turn > $2",
        )
        .await
        .at(place)?;
    let marked = tx.execute(&mark, &[&key, &floor]).await.at(place)?;
    check_marked(place, id, turns, marked)?;
    let update = tx
        .prepare_cached("UPDATE campaigns SET current_state = $2 WHERE id = $1")
        .await
        .at(place)?;
    tx.execute(&update, &[&key, &json]).await.at(place)?;
    tx.commit().await.at(place)?;
    Ok(state)
}

pub(crate) async fn delete(
    client: &mut Client,
    place: &str,
    id: &CampaignId,
) -> Result<(), StoreError> {
    let key = campaign_key(id)?;
    // One statement is one transaction; the turns go with the campaign (ON DELETE CASCADE).
    let stmt = client
        .prepare_cached("DELETE FROM campaigns WHERE id = $1")
        .await
        .at(place)?;
    if client.execute(&stmt, &[&key]).await.at(place)? == 0 {
        return Err(StoreError::NotFound(id.clone()));
    }
    Ok(())
}
