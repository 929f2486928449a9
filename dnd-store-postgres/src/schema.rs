//! The schema and its migrations.
//!
//! `schema_version` has one row per component that keeps tables in the database: `store` (this
//! crate's `campaigns` and `turns`) and whatever else shares the database through
//! [`PostgresStore::migrate`](crate::PostgresStore::migrate) (the game server's seats). A
//! component's migrations run in order from its version to the newest, all in one transaction
//! that first takes a transaction-scoped advisory lock: when several processes start at once on
//! a new database, one migrates and the others wait, then find the work done. A new migration is
//! a new entry at the end of its list; a released one is never edited.

use dnd_engine::store::StoreError;
use tokio_postgres::Client;

use crate::error::{At, Cell};

/// The advisory lock every migration takes ("DNDG" in ASCII): one migrating process at a time.
const MIGRATION_LOCK: i64 = 0x444E_4447;

/// Migration 1 of the store: campaigns and their turns (as in the SQLite store).
///
/// - `campaigns`: one row per campaign; `id` is an identity column, so a deleted campaign's id
///   is never given again (a sequence never goes back). `initial_state` and `current_state` are
///   `GameState` as JSON text (text, not `jsonb`: it reads back byte for byte, floats too).
///   Every commit and undo locks this row (`SELECT ... FOR UPDATE`) before it checks the head,
///   which is what serialises two servers on one campaign.
/// - `turns`: one row per committed turn, undone ones included (the audit log). `record` is
///   the `TurnRecord`, `state_after` the state right after it, so undo reads one row instead of
///   replaying. The primary key `(campaign_id, turn)` makes a doubled turn number impossible
///   whatever happens. Deleting a campaign deletes its turns.
/// - `turns_in_effect`: finds a campaign's turns in effect without reading the rows.
const STORE_1: &str = "
CREATE TABLE campaigns (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    initial_state text NOT NULL,
    current_state text NOT NULL
);

CREATE TABLE turns (
    campaign_id  bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    turn         bigint NOT NULL CHECK (turn >= 1),
    undone       boolean NOT NULL DEFAULT false,
    committed_at timestamptz NOT NULL DEFAULT now(),
    record       text NOT NULL,
    state_after  text NOT NULL,
    PRIMARY KEY (campaign_id, turn)
);

CREATE INDEX turns_in_effect ON turns (campaign_id, undone, turn);
";

/// Migration 2: the saves written before the save format existed put into its envelope
/// (`dnd_engine::store::backend::WRAP_SAVES_IN_FORMAT_1`).
const STORE_2: &str = dnd_engine::store::backend::WRAP_SAVES_IN_FORMAT_1;

/// The store's migrations, in order: entry `i` takes it from version `i` to `i + 1`.
pub(crate) const STORE: &[&str] = &[STORE_1, STORE_2];

/// The store's component name in `schema_version`.
pub(crate) const STORE_COMPONENT: &str = "store";

/// The store's schema version this build writes and reads.
pub(crate) const SCHEMA_VERSION: i64 = STORE.len() as i64;

/// Brings `component` up to `migrations.len()`, or refuses a database a newer build migrated.
pub(crate) async fn migrate(
    client: &mut Client,
    place: &str,
    component: &str,
    migrations: &[&str],
) -> Result<(), StoreError> {
    let supported = i64::try_from(migrations.len()).unwrap_or(i64::MAX);
    let tx = client.transaction().await.at(place)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .at(place)?;
    // Under the lock: whoever held it before has committed its migration, so what is read now
    // is final. `IF NOT EXISTS` is safe here for the same reason.
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_version (
             component text PRIMARY KEY,
             version   integer NOT NULL CHECK (version >= 0)
         )",
    )
    .await
    .at(place)?;
    let found: i64 = tx
        .query_opt(
            "SELECT version::bigint FROM schema_version WHERE component = $1",
            &[&component],
        )
        .await
        .at(place)?
        .map(|row| row.cell(0, place))
        .transpose()?
        .unwrap_or(0);
    if found > supported {
        return Err(StoreError::SchemaTooNew { found, supported });
    }
    if found == 0 && component == STORE_COMPONENT {
        // A database with a `campaigns` table and no version for it is another program's.
        let taken: bool = tx
            .query_one("SELECT to_regclass('campaigns') IS NOT NULL", &[])
            .await
            .at(place)?
            .cell(0, place)?;
        if taken {
            return Err(StoreError::Backend(format!(
                "{place} already has a `campaigns` table that this store did not make (no \
                 `schema_version` row for it): use another database or schema"
            )));
        }
    }
    if found == supported {
        return tx.commit().await.at(place);
    }
    let from = usize::try_from(found).unwrap_or(usize::MAX);
    for migration in migrations.iter().skip(from) {
        tx.batch_execute(migration).await.at(place)?;
    }
    let version = i32::try_from(supported).unwrap_or(i32::MAX);
    tx.execute(
        "INSERT INTO schema_version (component, version) VALUES ($1, $2) \
         ON CONFLICT (component) DO UPDATE SET version = excluded.version",
        &[&component, &version],
    )
    .await
    .at(place)?;
    tx.commit().await.at(place)
}
