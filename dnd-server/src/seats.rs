//! Who may touch a campaign: each seat's token, made from the operating system's CSPRNG and
//! compared in constant time, and the table of campaigns' seats, kept in a JSON file beside the
//! save file so that links still work after a restart.
//!
//! A token is a capability: whoever holds one may read and play that campaign. Tokens are
//! never logged, never put in an error message, and never sent again after the campaign is
//! created.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use axum::http::{HeaderMap, StatusCode, header};
use dnd_engine::gm::Protocol;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::error::ApiError;

/// Random bytes in a token: 32, so guessing one is hopeless.
const TOKEN_BYTES: usize = 32;

/// A new token: 32 bytes from the operating system's CSPRNG, as 64 hex digits.
pub fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::internal(format!("no random bytes for a seat token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether two tokens are equal, in time that does not depend on where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The tokens a request presents: `Authorization: Bearer T1` or `Bearer T1, T2, ...`. None
/// present is 401 `missing_token`.
pub fn presented(headers: &HeaderMap) -> Result<Vec<String>, ApiError> {
    let missing = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing_token",
            "this needs a seat token: send `Authorization: Bearer TOKEN` (several tokens may be \
             comma-separated), the token a seat was given when the campaign was created",
        )
    };
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(missing)?;
    let rest = value
        .trim()
        .strip_prefix("Bearer")
        .or_else(|| value.trim().strip_prefix("bearer"))
        .ok_or_else(missing)?;
    let tokens: Vec<String> = rest
        .split([',', ' '])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect();
    if tokens.is_empty() {
        return Err(missing());
    }
    Ok(tokens)
}

/// One seat at a campaign's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The hero's name ("Kraven Ironhide").
    pub hero: String,
    /// The hero's id in the adventure ("kraven").
    pub hero_id: String,
    /// The seat's token; none for an AI companion's seat.
    pub token: Option<String>,
}

/// What the server keeps of a campaign besides the store: its seats and how it is played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The adventure's id ("wailing-glacier").
    pub adventure: String,
    /// How the game master is asked.
    pub protocol: Protocol,
    /// The seats, the creator's first.
    pub seats: Vec<Seat>,
    /// When it was created (Unix seconds).
    #[serde(default)]
    pub created: u64,
}

impl Table {
    /// The seat whose token is one of `tokens`, else 403 `wrong_token`.
    pub fn seat_of(&self, tokens: &[String]) -> Result<&Seat, ApiError> {
        // Every seat is compared with every token, found or not: the time says nothing.
        let mut found = None;
        for seat in &self.seats {
            if let Some(own) = &seat.token {
                for token in tokens {
                    if same_token(own, token) && found.is_none() {
                        found = Some(seat);
                    }
                }
            }
        }
        found.ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_token",
                "no seat of this campaign has that token: use the token (or the link) this \
                 campaign's seat was given",
            )
        })
    }
}

/// Every campaign's table, by campaign id, and the file it is kept in (none: memory only).
#[derive(Debug, Default)]
pub struct Tables {
    /// The tables.
    pub by_id: BTreeMap<String, Table>,
    file: Option<PathBuf>,
}

impl Tables {
    /// The tables kept in `file` (read if it exists), or in memory only.
    pub fn open(file: Option<PathBuf>) -> Result<Tables, String> {
        let by_id = match &file {
            Some(path) if path.exists() => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                serde_json::from_str(&text)
                    .map_err(|e| format!("{} is not the server's seat file: {e}", path.display()))?
            }
            _ => BTreeMap::new(),
        };
        Ok(Tables { by_id, file })
    }

    /// Writes the tables to their file (a new file renamed over the old, so a crash leaves one
    /// or the other whole), readable by its owner alone.
    pub fn save(&self) -> Result<(), ApiError> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        write_private(path, &serde_json::to_vec(&self.by_id).unwrap_or_default())
            .map_err(|e| ApiError::internal(format!("cannot save the seats: {e}")))
    }
}

/// Writes `bytes` to `path` through a temporary file beside it.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(0o600))?;
    }
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_compared_whole() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a, &b));
        assert!(!same_token(&a, &a[..63]));
    }

    #[test]
    fn several_tokens_may_be_presented() {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, "Bearer aa, bb,cc".parse().unwrap());
        assert_eq!(presented(&headers).unwrap(), ["aa", "bb", "cc"]);
        headers.insert(header::AUTHORIZATION, "Basic aa".parse().unwrap());
        assert_eq!(presented(&headers).unwrap_err().code, "missing_token");
    }
}
