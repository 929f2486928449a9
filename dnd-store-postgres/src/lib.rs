//! The [`GameStore`] on PostgreSQL: [`PostgresStore`], for several game servers on one database.
//!
//! It behaves as `dnd_engine::store::MemoryStore` and `dnd_store_sqlite::SqliteStore` do (all
//! three pass the behavioural suite in `tests/tests/store_behaviour.rs`); what it adds is that
//! many processes may share it: two servers that commit a turn of the same campaign at once get
//! one success and one [`StoreError::Conflict`], never a lost or a doubled turn.
//!
//! ```no_run
//! # async fn example() -> Result<(), dnd_engine::store::StoreError> {
//! use dnd_store_postgres::PostgresStore;
//! let store = PostgresStore::connect("postgres://dnd:secret@127.0.0.1:5432/dnd").await?;
//! # Ok(()) }
//! ```
//!
//! # Schema
//!
//! The tables of the SQLite store, in PostgreSQL's types (see `schema.rs`): `campaigns` (id,
//! name, initial and current state as JSON text) and `turns` (one row per committed turn, undone
//! ones included, with its record and the state right after it), plus `schema_version`, one row
//! per component. [`PostgresStore::connect`] migrates the database in one transaction under an
//! advisory lock, so servers started together on a new database do not race; a database a newer
//! build migrated is refused with [`StoreError::SchemaTooNew`].
//!
//! # One transaction per operation
//!
//! - **commit** opens a transaction, locks the campaign's row (`SELECT ... FOR UPDATE`: a
//!   second server committing the same campaign waits here until the first is done), reads the
//!   head, refuses a record computed after another head ([`TurnRecord::check_after_turn`],
//!   [`StoreError::Conflict`]), applies the record ([`TurnRecord::apply_to`]: an invalid turn
//!   writes nothing), inserts the turn and updates the current state, and commits. A
//!   serialization failure, a deadlock or a unique violation (which the lock makes impossible,
//!   but the key `(campaign_id, turn)` would catch) is a [`StoreError::Conflict`] too.
//! - **undo** takes the same lock, marks the newest turns in effect undone and copies the state
//!   after the newest one left into the campaign (no replay).
//! - **reads** of one statement see one snapshot; reads of several run in one `REPEATABLE READ`
//!   read-only transaction.
//!
//! A commit whose connection is lost after it was sent and before its answer came back may or
//! may not have been applied, as with any database: the error says so, and a retry of a record
//! with [`TurnRecord::after_turn`] set is safe (if the first one was applied, the retry is a
//! [`StoreError::Conflict`]). The pool drops a connection that is closed before handing it out
//! again, so after the database restarts or kills connections, at most the operations already
//! running fail; the next ones connect anew. Every wait is bounded (connecting, waiting for a
//! pooled connection): an unreachable database is an error after [`Options::connect_timeout`],
//! never a hang.
//!
//! # No TLS
//!
//! The store connects without TLS (`NoTls`): run PostgreSQL on the same host or a private
//! network, or put a TLS-terminating proxy in front of it. A `DATABASE_URL` that asks for
//! `sslmode=require` is refused by the driver rather than silently sent in clear.
//!
//! # Secrets
//!
//! The database URL's password never reaches an error message or a `Debug` print: the store
//! names its database by [`PostgresStore::place`] (`postgres://USER@HOST:PORT/DB`), built
//! without the password, and scrubs it from the driver's messages at connect time.

mod error;
mod queries;
mod schema;
pub mod scratch;
mod store;

use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use dnd_engine::store::StoreError;
#[cfg(doc)]
use dnd_engine::store::{GameStore, TurnRecord};
use tokio_postgres::NoTls;
use tokio_postgres::config::Host;

pub use deadpool_postgres;
pub use tokio_postgres;

use crate::error::pool_error;

/// How the store connects.
#[derive(Debug, Clone)]
pub struct Options {
    /// Connections the pool keeps at most (default 16). Each server process has its own pool:
    /// mind PostgreSQL's `max_connections` (100 by default) when running several.
    pub max_connections: usize,
    /// How long making a connection may take (default 10 s).
    pub connect_timeout: Duration,
    /// How long an operation waits for a pooled connection when all are busy (default 30 s).
    pub wait_timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_connections: 16,
            connect_timeout: Duration::from_secs(10),
            wait_timeout: Duration::from_secs(30),
        }
    }
}

/// A [`GameStore`] in a PostgreSQL database. Cloning is cheap and shares the pool.
#[derive(Clone)]
pub struct PostgresStore {
    pool: Pool,
    /// The database as `postgres://USER@HOST:PORT/DB`, without the password, for messages.
    place: Arc<str>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the pool: its manager holds the connection settings.
        f.debug_struct("PostgresStore")
            .field("place", &self.place)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// The newest schema version of the store this build reads and writes.
    pub const SCHEMA_VERSION: i64 = schema::SCHEMA_VERSION;

    /// Connects to the database `url` names (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`, or
    /// the `key=value` form) with the default [`Options`], and migrates its schema.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] for a URL that is not a PostgreSQL connection string, a server
    /// that cannot be reached or refuses the login, or a database that holds another program's
    /// `campaigns` table; [`StoreError::SchemaTooNew`] for a database a newer build migrated.
    /// No message contains the password.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::connect_with(url, Options::default()).await
    }

    /// [`connect`](Self::connect) with other [`Options`].
    pub async fn connect_with(url: &str, options: Options) -> Result<PostgresStore, StoreError> {
        let result = PostgresStore::open(url, options).await;
        // The driver's messages never quote the URL, but a message is checked all the same.
        result.map_err(|error| scrub(error, url))
    }

    async fn open(url: &str, options: Options) -> Result<PostgresStore, StoreError> {
        let mut config: tokio_postgres::Config = url.parse().map_err(|error| {
            StoreError::Backend(format!(
                "the database URL is not a PostgreSQL connection string such as \
                 postgres://USER:PASSWORD@HOST:PORT/DATABASE: {error}"
            ))
        })?;
        config.connect_timeout(options.connect_timeout);
        if config.get_application_name().is_none() {
            config.application_name("dnd-store-postgres");
        }
        let place: Arc<str> = describe(&config).into();
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.max_connections.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(options.wait_timeout))
            .create_timeout(Some(options.connect_timeout))
            .recycle_timeout(Some(options.connect_timeout))
            .build()
            .map_err(|error| {
                StoreError::Backend(format!("{place}: cannot build the pool: {error}"))
            })?;
        let store = PostgresStore { pool, place };
        store
            .migrate(schema::STORE_COMPONENT, schema::STORE)
            .await?;
        Ok(store)
    }

    /// The database, as `postgres://USER@HOST:PORT/DB`: no password.
    pub fn place(&self) -> &str {
        &self.place
    }

    /// A connection from the store's pool, for tables of the caller's own that live beside the
    /// store's (the game server's seats). Returned to the pool when dropped.
    pub async fn client(&self) -> Result<deadpool_postgres::Client, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|error| pool_error(&self.place, error))
    }

    /// Brings the tables of `component` (a name of the caller's, not `store`) up to
    /// `migrations.len()` (entry `i` takes them from version `i` to `i + 1`), in one
    /// transaction, under the same advisory lock as the store's own migrations, so that
    /// processes starting at once do not race. A component's tables may reference the store's
    /// (`REFERENCES campaigns (id) ON DELETE CASCADE`).
    ///
    /// # Errors
    ///
    /// [`StoreError::SchemaTooNew`] when the database holds a newer version of the component;
    /// [`StoreError::Backend`] when a migration fails (nothing of it is kept).
    pub async fn migrate(&self, component: &str, migrations: &[&str]) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        schema::migrate(&mut client, &self.place, component, migrations).await
    }
}

/// The database a configuration names, without its password.
fn describe(config: &tokio_postgres::Config) -> String {
    let user = config.get_user().unwrap_or("(default user)");
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
            match host {
                Host::Tcp(name) => format!("{name}:{port}"),
                Host::Unix(path) => format!("{}:{port}", path.display()),
            }
        })
        .collect();
    let db = config.get_dbname().unwrap_or(user);
    format!("postgres://{user}@{}/{db}", hosts.join(","))
}

/// The error with every occurrence of the URL's password (and of the URL itself) blanked.
fn scrub(error: StoreError, url: &str) -> StoreError {
    let secrets: Vec<String> = password_of(url)
        .into_iter()
        .chain(std::iter::once(url.to_owned()))
        .filter(|s| s.len() >= 3)
        .collect();
    let clean = |text: String| {
        secrets.iter().fold(text, |text, secret| {
            text.replace(secret.as_str(), "********")
        })
    };
    match error {
        StoreError::Backend(message) => StoreError::Backend(clean(message)),
        StoreError::Corrupt(message) => StoreError::Corrupt(clean(message)),
        other => other,
    }
}

/// The password of a URL (`scheme://user:password@host...`) or of a `password=` pair, as
/// written and percent-decoded, whether or not the rest parses.
fn password_of(url: &str) -> Vec<String> {
    let mut found = Vec::new();
    if let Some((_, rest)) = url.split_once("://") {
        let authority = rest.split(['/', '?']).next().unwrap_or(rest);
        if let Some((userinfo, _)) = authority.rsplit_once('@')
            && let Some((_, password)) = userinfo.split_once(':')
        {
            found.push(password.to_owned());
            found.push(percent_decode(password));
        }
    }
    for pair in url.split(['&', ' ', '?']) {
        if let Some(password) = pair.trim().strip_prefix("password=") {
            let password = password.trim_matches('\'');
            found.push(password.to_owned());
            found.push(percent_decode(password));
        }
    }
    found
}

/// `%41` → `A`; anything that is not a valid escape is kept as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'%', Some(h), Some(l)) if hex(h).is_some() && hex(l).is_some() => {
                let value = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_place_has_no_password() {
        let config: tokio_postgres::Config = "postgres://dnd:hunter2@db.local:6543/games"
            .parse()
            .unwrap();
        assert_eq!(describe(&config), "postgres://dnd@db.local:6543/games");
    }

    #[test]
    fn passwords_are_found_in_both_forms_and_scrubbed() {
        assert!(password_of("postgres://u:p%40ss@h/db").contains(&"p@ss".to_owned()));
        assert!(password_of("host=h password=s3cret user=u").contains(&"s3cret".to_owned()));
        let error = scrub(
            StoreError::Backend("failed near p@ss and p%40ss".into()),
            "postgres://u:p%40ss@h/db",
        );
        let text = error.to_string();
        assert!(!text.contains("p@ss") && !text.contains("p%40ss"), "{text}");
    }
}
