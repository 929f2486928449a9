//! The seats on PostgreSQL, in the store's own database, so that several servers share them:
//! a campaign made on one server opens on every other.
//!
//! Two tables, made by the `dnd-server seats` migrations of
//! [`PostgresStore::migrate`](dnd_store_postgres::PostgresStore::migrate), and deleted with
//! their campaign (`ON DELETE CASCADE`):
//!
//! - `server_tables`: each campaign's [`Table`] as JSON, every seat's token replaced by its
//!   SHA-256 ([`Seat::hashed`](crate::seats::Seat::hashed)): whoever reads the database gets no
//!   token that opens a campaign.
//! - `server_seat_tokens`: each token's SHA-256 and its campaign, so that `GET /api/campaigns`
//!   finds the caller's campaigns by index instead of reading every table. A lookup by digest
//!   tells nothing about the token; the seat is then still found by comparing digests in
//!   constant time ([`Table::seat_of`]).

use axum::http::StatusCode;
use dnd_engine::store::StoreError;
use dnd_store_postgres::PostgresStore;

use crate::error::ApiError;
use crate::seats::{Table, token_sha256};

/// The component's name in `schema_version`.
const COMPONENT: &str = "dnd-server seats";

/// Migration 1: the tables and the tokens' digests.
const SEATS_1: &str = "
CREATE TABLE server_tables (
    campaign_id bigint PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    table_json  text NOT NULL
);

CREATE TABLE server_seat_tokens (
    token_sha256 text PRIMARY KEY,
    campaign_id  bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE
);

CREATE INDEX server_seat_tokens_campaign ON server_seat_tokens (campaign_id);
";

/// The seats in the database of a [`PostgresStore`].
#[derive(Debug, Clone)]
pub struct PgSeats {
    store: PostgresStore,
}

/// A store error as a 500 that says what failed (the store's messages carry no password).
fn failed(what: &str, error: StoreError) -> ApiError {
    ApiError::internal(format!("cannot {what} the seats: {error}"))
}

/// A driver error, with the database named without its password.
fn sql(store: &PostgresStore, what: &str, error: tokio_postgres::Error) -> ApiError {
    ApiError::internal(format!(
        "cannot {what} the seats in {}: {}",
        store.place(),
        error
            .as_db_error()
            .map_or_else(|| error.to_string(), |db| db.message().to_owned())
    ))
}

use dnd_store_postgres::tokio_postgres;

/// The row key of a campaign id; anything else names no campaign.
fn key(id: &str) -> Option<i64> {
    id.parse::<i64>()
        .ok()
        .filter(|n| *n > 0 && n.to_string() == id)
}

impl PgSeats {
    /// The seats beside `store`'s campaigns, their tables made or migrated first.
    pub async fn open(store: PostgresStore) -> Result<PgSeats, String> {
        store
            .migrate(COMPONENT, &[SEATS_1])
            .await
            .map_err(|e| e.to_string())?;
        Ok(PgSeats { store })
    }

    /// The table of campaign `id`.
    pub async fn table(&self, id: &str) -> Result<Option<Table>, ApiError> {
        let Some(key) = key(id) else { return Ok(None) };
        let client = self.store.client().await.map_err(|e| failed("read", e))?;
        let row = client
            .query_opt(
                "SELECT table_json FROM server_tables WHERE campaign_id = $1",
                &[&key],
            )
            .await
            .map_err(|e| sql(&self.store, "read", e))?;
        row.map(|row| parse(id, &cell::<String>(&row, 0)?))
            .transpose()
    }

    /// Keeps a new campaign's table and its tokens' digests, in one transaction.
    pub async fn insert(&self, id: &str, table: &Table) -> Result<(), ApiError> {
        let key = key(id).ok_or_else(|| ApiError::campaign_not_found(id))?;
        let hashed = Table {
            seats: table.seats.iter().map(|s| s.hashed()).collect(),
            ..table.clone()
        };
        let json = serde_json::to_string(&hashed)
            .map_err(|e| ApiError::internal(format!("cannot encode the seats: {e}")))?;
        let mut client = self.store.client().await.map_err(|e| failed("save", e))?;
        let tx = client
            .transaction()
            .await
            .map_err(|e| sql(&self.store, "save", e))?;
        tx.execute(
            "INSERT INTO server_tables (campaign_id, table_json) VALUES ($1, $2)",
            &[&key, &json],
        )
        .await
        .map_err(|e| sql(&self.store, "save", e))?;
        for digest in hashed.seats.iter().filter_map(|s| s.token_sha256.as_ref()) {
            tx.execute(
                "INSERT INTO server_seat_tokens (token_sha256, campaign_id) VALUES ($1, $2)",
                &[digest, &key],
            )
            .await
            .map_err(|e| sql(&self.store, "save", e))?;
        }
        tx.commit().await.map_err(|e| sql(&self.store, "save", e))
    }

    /// Forgets a campaign's table (deleting the campaign already did; this covers a table
    /// whose campaign was deleted by hand).
    pub async fn remove(&self, id: &str) -> Result<(), ApiError> {
        let Some(key) = key(id) else { return Ok(()) };
        let client = self.store.client().await.map_err(|e| failed("delete", e))?;
        client
            .execute("DELETE FROM server_tables WHERE campaign_id = $1", &[&key])
            .await
            .map_err(|e| sql(&self.store, "delete", e))?;
        Ok(())
    }

    /// The campaigns one of whose seats has one of `tokens`, by id.
    pub async fn mine(&self, tokens: &[String]) -> Result<Vec<(String, Table)>, ApiError> {
        let digests: Vec<String> = tokens.iter().map(|t| token_sha256(t)).collect();
        let client = self.store.client().await.map_err(|e| failed("read", e))?;
        let rows = client
            .query(
                "SELECT DISTINCT t.campaign_id, t.table_json FROM server_seat_tokens s \
                 JOIN server_tables t ON t.campaign_id = s.campaign_id \
                 WHERE s.token_sha256 = ANY($1) ORDER BY t.campaign_id",
                &[&digests],
            )
            .await
            .map_err(|e| sql(&self.store, "read", e))?;
        let mut mine = Vec::with_capacity(rows.len());
        for row in rows {
            let id = cell::<i64>(&row, 0)?.to_string();
            let table = parse(&id, &cell::<String>(&row, 1)?)?;
            // The digest matched; the seat is still found the constant-time way.
            if table.seat_of(tokens).is_ok() {
                mine.push((id, table));
            }
        }
        // By id as a string, as the file kind (a `BTreeMap<String, _>`) lists them.
        mine.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(mine)
    }
}

/// A column of a row, or a 500 when it is not of the schema's type (a table changed by hand).
fn cell<'a, T: tokio_postgres::types::FromSql<'a>>(
    row: &'a tokio_postgres::Row,
    index: usize,
) -> Result<T, ApiError> {
    row.try_get(index).map_err(|e| {
        ApiError::internal(format!(
            "a seats row does not read back (column {index}): {e}"
        ))
    })
}

/// A stored table; one that does not read back is a damaged database.
fn parse(id: &str, json: &str) -> Result<Table, ApiError> {
    serde_json::from_str(json).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the seats of campaign {id} in the database do not read back: {e}"),
        )
    })
}
