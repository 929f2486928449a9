//! The connection's settings and the schema migrations.
//!
//! The schema's version is SQLite's own `PRAGMA user_version` (an integer in the database
//! header, 0 in a new file): no table is needed, and setting it inside the migration's
//! transaction makes the migration and its version number commit together. `PRAGMA
//! application_id` marks the file as a campaign store, so another program's SQLite file is
//! refused instead of having our tables added to it.
//!
//! Migrations run in order from the file's version to [`SCHEMA_VERSION`], all in one `BEGIN
//! IMMEDIATE` transaction. A new migration is a new entry at the end of [`MIGRATIONS`]; a
//! released one is never edited.

use std::time::Duration;

use dnd_engine::store::StoreError;
use rusqlite::{Connection, TransactionBehavior};

use crate::error::At;

/// `PRAGMA application_id` of a campaign store: "DNDG" in ASCII.
pub(crate) const APPLICATION_ID: i32 = 0x444E_4447;

/// How long a statement waits for another connection's lock before failing with "busy".
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Migration 1: campaigns and their turns.
///
/// - `campaigns`: one row per campaign. `id` is `AUTOINCREMENT` so the id of a deleted campaign
///   is never given to a new one (as in `MemoryStore`). `initial_state` and `current_state` are
///   `GameState` as JSON; loading reads `current_state` only.
/// - `turns`: one row per committed turn, undone ones included (the audit log). `record` is the
///   `TurnRecord` as JSON; `state_after` is the state right after this turn was committed, so
///   undo reads one row instead of replaying. Small columns come first so that reading `undone`
///   or `record` never touches the overflow pages of `state_after`. Deleting a campaign deletes
///   its turns (`ON DELETE CASCADE`, with `foreign_keys = ON`).
/// - `turns_in_effect`: finds a campaign's turns in effect (the count in a list, the turn to go
///   back to in an undo) without reading the rows.
///
/// Tables are `STRICT`: a value of the wrong type is refused, not converted.
const MIGRATION_1: &str = "
CREATE TABLE campaigns (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT NOT NULL,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    initial_state TEXT NOT NULL,
    current_state TEXT NOT NULL
) STRICT;

CREATE TABLE turns (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL CHECK (turn >= 1),
    undone       INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    committed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    record       TEXT NOT NULL,
    state_after  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, turn)
) STRICT;

CREATE INDEX turns_in_effect ON turns (campaign_id, undone, turn);
";

/// Migration 2: the saves written before the save format existed put into its envelope
/// (`dnd_engine::store::backend::WRAP_SAVES_IN_FORMAT_1`).
const MIGRATION_2: &str = dnd_engine::store::backend::WRAP_SAVES_IN_FORMAT_1;

/// Every migration, in order: entry `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[MIGRATION_1, MIGRATION_2];

/// The schema version this build writes and reads.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Sets the connection up: busy timeout, WAL, `synchronous = FULL`, foreign keys.
///
/// On a file that is not a database, the `journal_mode` statement is the first to read it and
/// fails with `SQLITE_NOTADB`.
pub(crate) fn configure(conn: &Connection, place: &str) -> Result<(), StoreError> {
    conn.busy_timeout(BUSY_TIMEOUT).at(place)?;
    // Returns the mode now in force: "wal", or "memory" for an in-memory database. A file system
    // that cannot do WAL keeps the rollback journal, which is as durable, only slower.
    let _mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .at(place)?;
    conn.pragma_update(None, "synchronous", "FULL").at(place)?;
    conn.pragma_update(None, "foreign_keys", "ON").at(place)?;
    Ok(())
}

/// The file's schema version and application id.
fn header(conn: &Connection, place: &str) -> Result<(i64, i32), StoreError> {
    let version = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .at(place)?;
    let application = conn
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .at(place)?;
    Ok((version, application))
}

/// Refuses another program's database, then a newer schema.
fn check(conn: &Connection, place: &str, version: i64, application: i32) -> Result<(), StoreError> {
    if version < 0 {
        return Err(StoreError::Corrupt(format!(
            "{place}: schema version {version} is negative"
        )));
    }
    if version == 0 && application == 0 {
        // A new store is an empty file; anything already in it belongs to someone else.
        let objects: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
            .at(place)?;
        if objects > 0 {
            return Err(StoreError::Backend(format!(
                "{place} is a SQLite database of another program (it has {objects} tables or \
                 indexes and no campaign store mark), not a campaign store"
            )));
        }
    } else if application != APPLICATION_ID {
        return Err(StoreError::Backend(format!(
            "{place} is a SQLite database of another program (application id {application:#x}), \
             not a campaign store"
        )));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// Brings the schema up to [`SCHEMA_VERSION`], or refuses a file this build cannot use.
pub(crate) fn migrate(conn: &mut Connection, place: &str) -> Result<(), StoreError> {
    let (version, application) = header(conn, place)?;
    check(conn, place, version, application)?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .at(place)?;
    // Another process may have migrated the file between the first look and the write lock.
    let (version, application) = header(&tx, place)?;
    check(&tx, place, version, application)?;
    let from = usize::try_from(version).unwrap_or(usize::MAX);
    for migration in MIGRATIONS.iter().skip(from) {
        tx.execute_batch(migration).at(place)?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)
        .at(place)?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .at(place)?;
    tx.commit().at(place)
}
