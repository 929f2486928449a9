//! Databases made for one test and dropped after it, so tests on one PostgreSQL server never
//! see each other's campaigns. Used by this crate's tests, the workspace's store suite and the
//! game server's tests; it needs a role that may `CREATE DATABASE`.

use std::hash::{BuildHasher, Hasher};

use dnd_engine::store::StoreError;
use tokio_postgres::NoTls;

use crate::error::At;

/// A database made by [`create`]: its URL (the given one with the database name replaced) and
/// its name. `Debug` shows the name, never the URL (it holds the password).
pub struct Scratch {
    /// The connection URL of the new database.
    pub url: String,
    /// The new database's name (`dnd_test_<prefix>_<random>`).
    pub name: String,
    admin: tokio_postgres::Config,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Creates an empty database with a random name on the server `url` names (connecting to the
/// database `url` names to issue `CREATE DATABASE`). `prefix` (letters, digits, `_`) says which
/// test made it.
///
/// # Errors
///
/// [`StoreError::Backend`] when `url` is not a `postgres://` URL, or the server refuses.
pub async fn create(url: &str, prefix: &str) -> Result<Scratch, StoreError> {
    let admin: tokio_postgres::Config = url
        .parse()
        .map_err(|e| StoreError::Backend(format!("DATABASE_URL is not a PostgreSQL URL: {e}")))?;
    let clean: String = prefix
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(24)
        .collect::<String>()
        .to_ascii_lowercase();
    let name = format!("dnd_test_{clean}_{:016x}", random());
    let (client, connection) = admin.connect(NoTls).await.at("the scratch server")?;
    let task = tokio::spawn(connection);
    // The name is ours (letters, digits, `_`): no quoting problem.
    let created = client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .at("the scratch server");
    drop(client);
    let _ = task.await;
    created?;
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let Some((server, _)) = base.rsplit_once('/').filter(|(s, _)| s.contains("://")) else {
        return Err(StoreError::Backend(
            "DATABASE_URL must be a URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE) for the \
             tests to make databases of their own"
                .into(),
        ));
    };
    let url = match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    };
    Ok(Scratch { url, name, admin })
}

impl Scratch {
    /// Drops the database, closing whatever connections are still open to it.
    pub async fn drop_database(self) -> Result<(), StoreError> {
        let (client, connection) = self.admin.connect(NoTls).await.at("the scratch server")?;
        let task = tokio::spawn(connection);
        let dropped = client
            .batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ))
            .await
            .at("the scratch server");
        drop(client);
        let _ = task.await;
        dropped
    }
}

/// 64 bits that differ between processes and calls: std's per-process random hash keys, the
/// time and a counter (no random-number crate for a name).
fn random() -> u64 {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    hasher.finish()
}
