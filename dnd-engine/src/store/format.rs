//! The save format: every JSON value a store keeps (a [`GameState`](crate::state::GameState), a
//! [`TurnRecord`](super::TurnRecord) with its [`Change`](crate::state::Change)s and
//! [`Message`](crate::llm::Message)s) is written inside an envelope that names the format it
//! was written in, `{"format": 1, "data": ...}`, so that a later build knows what it reads.
//!
//! # The rule that keeps saves loading
//!
//! [`SAVE_FORMAT`] is the format this build writes; it reads every format from
//! [`OLDEST_SAVE_FORMAT`] to [`SAVE_FORMAT`]. A change to a saved type that an older save
//! would not read back (a field renamed or removed, a variant renamed) either keeps reading
//! the old shape (`#[serde(alias)]`, `#[serde(default)]`) or raises [`SAVE_FORMAT`] and
//! converts the older format here as it is read. `dnd-engine/tests/golden/` holds a campaign
//! saved by each format, and `tests/golden_saves.rs` loads and replays every one of them.
//!
//! A value with no format (not an envelope) or a format this build does not read is a typed
//! [`SaveFormatError`] naming the formats it accepts, never a guess. Saves written before the
//! envelope existed are wrapped by the stores' own schema migrations, so they load as format 1.
//!
//! ```
//! use dnd_engine::store::format::{SaveFormatError, from_saved_json, to_saved_json};
//!
//! let saved = to_saved_json(&vec![1, 2, 3]).unwrap();
//! assert_eq!(saved, r#"{"format":1,"data":[1,2,3]}"#);
//! assert_eq!(from_saved_json::<Vec<u8>>(&saved).unwrap(), vec![1, 2, 3]);
//! let future = from_saved_json::<Vec<u8>>(r#"{"format":99,"data":[]}"#).unwrap_err();
//! assert!(matches!(future, SaveFormatError::Unsupported { found: 99, .. }));
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The save format this build writes.
pub const SAVE_FORMAT: u32 = 1;

/// The oldest save format this build reads.
pub const OLDEST_SAVE_FORMAT: u32 = 1;

/// Why a saved value does not read back.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveFormatError {
    /// The JSON names no format: it is not a save envelope.
    #[error(
        "the saved value names no format (expected {{\"format\": N, \"data\": ...}}); this build reads formats {OLDEST_SAVE_FORMAT} to {SAVE_FORMAT}"
    )]
    Missing,
    /// The save's format is not one this build reads: written by a newer build (upgrade), or
    /// one too old to be kept.
    #[error(
        "the save is in format {found}; this build reads formats {oldest} to {newest}",
        oldest = OLDEST_SAVE_FORMAT,
        newest = SAVE_FORMAT
    )]
    Unsupported {
        /// The format the save names.
        found: u64,
    },
    /// The envelope is there and its format is read, but the value does not match it.
    #[error("the saved value does not read back: {0}")]
    Malformed(#[source] serde_json::Error),
}

impl SaveFormatError {
    /// The formats this build reads, oldest to newest.
    pub fn accepted() -> std::ops::RangeInclusive<u32> {
        OLDEST_SAVE_FORMAT..=SAVE_FORMAT
    }
}

/// The envelope as written: the format first, so that a reader meets it before the data.
#[derive(Serialize)]
struct Written<'a, T> {
    format: u32,
    data: &'a T,
}

/// The envelope as read on the usual path: one parse of the whole text.
#[derive(Deserialize)]
struct Read<T> {
    format: u64,
    data: T,
}

/// Only the format (serde skips the data, like any field not named): read when the usual path
/// failed, to say why.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: Option<serde_json::Value>,
}

fn accepted(format: u64) -> bool {
    (u64::from(OLDEST_SAVE_FORMAT)..=u64::from(SAVE_FORMAT)).contains(&format)
}

/// `value` as the JSON a store keeps: in an envelope of [`SAVE_FORMAT`].
pub fn to_saved_json<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(&Written {
        format: SAVE_FORMAT,
        data: value,
    })
}

/// [`to_saved_json`], indented: what the golden files hold, for a reader's diff.
pub fn to_saved_json_pretty<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&Written {
        format: SAVE_FORMAT,
        data: value,
    })
}

/// Reads back what [`to_saved_json`] wrote, in any format from [`OLDEST_SAVE_FORMAT`] to
/// [`SAVE_FORMAT`].
pub fn from_saved_json<T: DeserializeOwned>(json: &str) -> Result<T, SaveFormatError> {
    let error = match serde_json::from_str::<Read<T>>(json) {
        Ok(read) if accepted(read.format) => return Ok(read.data),
        Ok(read) => return Err(SaveFormatError::Unsupported { found: read.format }),
        Err(error) => error,
    };
    // The data did not read: a missing or unknown format explains it better than the parse
    // error (a future format's data need not parse at all).
    match serde_json::from_str::<Header>(json) {
        Ok(Header { format: None, .. }) => Err(SaveFormatError::Missing),
        Ok(Header {
            format: Some(format),
            ..
        }) => match format.as_u64() {
            Some(found) if accepted(found) => Err(SaveFormatError::Malformed(error)),
            Some(found) => Err(SaveFormatError::Unsupported { found }),
            None => Err(SaveFormatError::Missing),
        },
        // Not a JSON object at all.
        Err(_) => Err(SaveFormatError::Malformed(error)),
    }
}
