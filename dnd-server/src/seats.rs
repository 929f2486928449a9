//! Who may touch a campaign: each seat's token, made from the operating system's CSPRNG and
//! compared in constant time, and the table of campaigns' seats, kept so that links still work
//! after a restart: in a JSON file beside the SQLite save file ([`Tables`]), or, on PostgreSQL,
//! in the store's database as SHA-256 digests of the tokens, so that every server behind a load
//! balancer knows every campaign's seats ([`SeatStore`], `seats_pg.rs`).
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
    /// The seat's token; none for an AI companion's seat, and none in a table read from
    /// PostgreSQL, which keeps only [`token_sha256`](Self::token_sha256).
    pub token: Option<String>,
    /// The SHA-256 of the seat's token, as 64 hex digits, where the token itself is not kept
    /// (PostgreSQL); none for an AI companion's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_sha256: Option<String>,
}

impl Seat {
    /// Whether an AI companion plays this seat (no token of any kind).
    pub fn is_ai(&self) -> bool {
        self.token.is_none() && self.token_sha256.is_none()
    }

    /// The seat as PostgreSQL keeps it: the token's SHA-256 instead of the token.
    pub fn hashed(&self) -> Seat {
        Seat {
            hero: self.hero.clone(),
            hero_id: self.hero_id.clone(),
            token: None,
            token_sha256: self
                .token
                .as_deref()
                .map(token_sha256)
                .or_else(|| self.token_sha256.clone()),
        }
    }
}

/// The SHA-256 of a token, as 64 lowercase hex digits.
pub fn token_sha256(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
        let digests: Vec<String> = tokens.iter().map(|t| token_sha256(t)).collect();
        let mut found = None;
        for seat in &self.seats {
            let (own, presented) = match (&seat.token, &seat.token_sha256) {
                (Some(own), _) => (own, tokens),
                (None, Some(digest)) => (digest, &digests[..]),
                (None, None) => continue,
            };
            for token in presented {
                if same_token(own, token) && found.is_none() {
                    found = Some(seat);
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

/// Where the seats are kept: the file kind (or memory) for SQLite, the database for PostgreSQL.
#[derive(Debug)]
pub enum SeatStore {
    /// In memory, written to a JSON file beside the save file (when there is one) at every
    /// change. Read once at start: one server per file.
    File(std::sync::Mutex<Tables>),
    /// In the PostgreSQL store's database, read at every request: shared by every server.
    Postgres(crate::seats_pg::PgSeats),
}

impl SeatStore {
    /// The table of campaign `id`, if it has one.
    pub async fn table(&self, id: &str) -> Result<Option<Table>, ApiError> {
        match self {
            SeatStore::File(tables) => Ok(lock(tables).by_id.get(id).cloned()),
            SeatStore::Postgres(pg) => pg.table(id).await,
        }
    }

    /// Keeps the table of a new campaign; on an error nothing is kept.
    pub async fn insert(&self, id: &str, table: &Table) -> Result<(), ApiError> {
        match self {
            SeatStore::File(tables) => {
                let mut tables = lock(tables);
                tables.by_id.insert(id.to_owned(), table.clone());
                let saved = tables.save();
                if saved.is_err() {
                    tables.by_id.remove(id);
                }
                saved
            }
            SeatStore::Postgres(pg) => pg.insert(id, table).await,
        }
    }

    /// Forgets the table of a deleted campaign.
    pub async fn remove(&self, id: &str) -> Result<(), ApiError> {
        match self {
            SeatStore::File(tables) => {
                let mut tables = lock(tables);
                tables.by_id.remove(id);
                tables.save()
            }
            SeatStore::Postgres(pg) => pg.remove(id).await,
        }
    }

    /// The campaigns (id and table) one of whose seats has one of `tokens`, by id.
    pub async fn mine(&self, tokens: &[String]) -> Result<Vec<(String, Table)>, ApiError> {
        match self {
            SeatStore::File(tables) => Ok(lock(tables)
                .by_id
                .iter()
                .filter(|(_, table)| table.seat_of(tokens).is_ok())
                .map(|(id, table)| (id.clone(), table.clone()))
                .collect()),
            SeatStore::Postgres(pg) => pg.mine(tokens).await,
        }
    }
}

/// The lock, taken back if a panic poisoned it (the tables are whole between statements).
fn lock(tables: &std::sync::Mutex<Tables>) -> std::sync::MutexGuard<'_, Tables> {
    tables.lock().unwrap_or_else(|e| e.into_inner())
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
    fn a_hashed_seat_is_found_by_its_token_and_keeps_no_token() {
        let token = new_token().unwrap();
        let seat = Seat {
            hero: "Kraven".into(),
            hero_id: "kraven".into(),
            token: Some(token.clone()),
            token_sha256: None,
        };
        let hashed = seat.hashed();
        assert_eq!(hashed.token, None);
        assert_eq!(hashed.token_sha256.as_deref().map(str::len), Some(64));
        assert!(!hashed.is_ai());
        let table = Table {
            adventure: "a".into(),
            protocol: Protocol::TwoPhase,
            seats: vec![hashed],
            created: 0,
        };
        assert!(!serde_json::to_string(&table).unwrap().contains(&token));
        assert_eq!(table.seat_of(&[token]).unwrap().hero, "Kraven");
        let digest = table.seats[0].token_sha256.clone().unwrap();
        // The digest itself is not a token.
        assert!(table.seat_of(&[digest]).is_err());
        assert!(table.seat_of(&[new_token().unwrap()]).is_err());
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
