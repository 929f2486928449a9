//! Turning SQLite failures into [`StoreError`]s, each naming the database it came from.

use dnd_engine::store::StoreError;
use rusqlite::ErrorCode;

/// Adds the database's name (its path, or `:memory:`) to a rusqlite error.
pub(crate) trait At<T> {
    /// The error as a [`StoreError`] that names `place`.
    fn at(self, place: &str) -> Result<T, StoreError>;
}

impl<T> At<T> for rusqlite::Result<T> {
    fn at(self, place: &str) -> Result<T, StoreError> {
        self.map_err(|error| sql_error(place, &error))
    }
}

/// A rusqlite error as a [`StoreError`]: a file that is not a database says so plainly, a
/// damaged one is [`StoreError::Corrupt`], anything else is [`StoreError::Backend`].
pub(crate) fn sql_error(place: &str, error: &rusqlite::Error) -> StoreError {
    match error.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::Backend(format!(
            "{place} is not a SQLite database (another kind of file, or encrypted); \
             open a campaign store or a path that does not exist yet ({error})"
        )),
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt(format!("{place}: {error}")),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Backend(format!(
            "{place} is locked by another connection that held it for longer than the busy \
             timeout ({error})"
        )),
        _ => StoreError::Backend(format!("{place}: {error}")),
    }
}
