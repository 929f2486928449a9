//! Turning driver and pool failures into [`StoreError`]s, each naming the database it
//! came from (never with its password: `place` is built without it, see `crate::describe`).

use dnd_engine::store::StoreError;
use tokio_postgres::error::SqlState;

/// Adds the database's description to a driver error.
pub(crate) trait At<T> {
    /// The error as a [`StoreError`] that names `place`.
    fn at(self, place: &str) -> Result<T, StoreError>;
}

impl<T> At<T> for Result<T, tokio_postgres::Error> {
    fn at(self, place: &str) -> Result<T, StoreError> {
        self.map_err(|error| sql_error(place, &error))
    }
}

/// Whether the server refused a write because another transaction got there first: a
/// serialization failure, a deadlock it broke, or a unique key already taken (a turn number
/// another server inserted). The store turns these into [`StoreError::Conflict`].
pub(crate) fn is_race(error: &tokio_postgres::Error) -> bool {
    error.code().is_some_and(|code| {
        *code == SqlState::T_R_SERIALIZATION_FAILURE
            || *code == SqlState::T_R_DEADLOCK_DETECTED
            || *code == SqlState::UNIQUE_VIOLATION
    })
}

/// A driver error as a [`StoreError::Backend`] that says what happened: a lost connection
/// says so (the next operation takes another one from the pool), a server error gives the
/// server's message.
pub(crate) fn sql_error(place: &str, error: &tokio_postgres::Error) -> StoreError {
    if error.is_closed() {
        return StoreError::Backend(format!(
            "{place}: the connection to the database was lost ({error}); the operation may not \
             have been applied, the next one uses a new connection"
        ));
    }
    match error.as_db_error() {
        Some(db) => {
            let detail = db.detail().map(|d| format!(" ({d})")).unwrap_or_default();
            StoreError::Backend(format!(
                "{place}: the database refused it: {} [{}]{detail}",
                db.message(),
                db.code().code()
            ))
        }
        None => StoreError::Backend(format!("{place}: {}", chain(error))),
    }
}

/// An error and its causes ("error connecting to server: Connection refused"): the driver's
/// own message alone often leaves out why.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let more = next.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        cause = next.source();
    }
    text
}

/// A pool failure: no connection could be had in time, or making one failed.
pub(crate) fn pool_error(place: &str, error: deadpool_postgres::PoolError) -> StoreError {
    use deadpool_postgres::PoolError;
    match error {
        PoolError::Backend(error) => StoreError::Backend(format!(
            "{place}: cannot connect: {}",
            match error.as_db_error() {
                Some(db) => db.message().to_owned(),
                None => chain(&error),
            }
        )),
        PoolError::Timeout(kind) => StoreError::Backend(format!(
            "{place}: no database connection in time ({kind:?}): the server is unreachable or \
             every connection of the pool is busy"
        )),
        PoolError::Closed => StoreError::Backend(format!("{place}: the pool is closed")),
        other => StoreError::Backend(format!("{place}: cannot get a connection: {other}")),
    }
}

/// Reading a column without a panic: a value of another type than the schema's (a table
/// changed by hand) is [`StoreError::Corrupt`].
pub(crate) trait Cell {
    /// Column `index` of the row as a `T`.
    fn cell<'a, T: tokio_postgres::types::FromSql<'a>>(
        &'a self,
        index: usize,
        place: &str,
    ) -> Result<T, StoreError>;
}

impl Cell for tokio_postgres::Row {
    fn cell<'a, T: tokio_postgres::types::FromSql<'a>>(
        &'a self,
        index: usize,
        place: &str,
    ) -> Result<T, StoreError> {
        self.try_get(index).map_err(|error| {
            StoreError::Corrupt(format!(
                "{place}: column {index} of a row does not read back: {error}"
            ))
        })
    }
}
