//! Where games are kept: a SQLite file in the platform's data folder (or `--db`), the line
//! editor's history and the last campaign played beside it, and copying a campaign for `/save`.

use std::path::{Path, PathBuf};

use dnd_engine::state::GameState;
use dnd_engine::store::{CampaignId, CampaignInfo, GameStore, Page, replay};

/// The save file when `--db` is not given: `dnd-gm/play.sqlite3` in the data folder
/// (`$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support` on macOS,
/// `%APPDATA%` on Windows).
pub fn default_db_path() -> Result<PathBuf, String> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let home = || var("HOME");
    let data = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        home().map(|h| h.join("Library").join("Application Support"))
    } else {
        var("XDG_DATA_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| home().map(|h| h.join(".local").join("share")))
    };
    data.map(|d| d.join("dnd-gm").join("play.sqlite3"))
        .ok_or_else(|| "cannot find a data folder (HOME is not set); pass --db PATH".to_owned())
}

/// Opens (or creates) the SQLite save file at `db`, creating its folder first.
pub fn open_store(db: &Path) -> Result<dnd_store_sqlite::SqliteStore, String> {
    if let Some(folder) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("cannot create the folder {}: {e}", folder.display()))?;
    }
    dnd_store_sqlite::SqliteStore::open(db).map_err(|e| e.to_string())
}

/// A file beside the database: `play.sqlite3` → `play.sqlite3.history`.
pub fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    db.with_file_name(name)
}

/// The most of the `.last` file that is read: a campaign id is a few dozen bytes, so a larger
/// file is not one `play` wrote, and is ignored as a missing one is.
pub const LAST_FILE_MAX_BYTES: usize = 4096;

/// The campaign played last (written at every switch), if it still exists; else the newest
/// (also when the `.last` file is unreadable, not UTF-8 or over [`LAST_FILE_MAX_BYTES`]).
pub fn last_played(db: &Path, campaigns: &[CampaignInfo]) -> Option<CampaignInfo> {
    let remembered =
        dnd_engine::files::read_text_limited(&beside(db, "last"), LAST_FILE_MAX_BYTES).ok();
    remembered
        .and_then(|id| campaigns.iter().find(|c| c.id.0 == id.trim()).cloned())
        .or_else(|| campaigns.last().cloned())
}

/// Remembers the campaign being played, for the next start. Best effort: a read-only folder
/// only means the next start resumes the newest campaign instead.
pub fn remember(db: &Path, campaign: &CampaignId) {
    let _ = std::fs::write(beside(db, "last"), &campaign.0);
}

/// The campaigns called `name` (ignoring case), newest last.
pub fn named<'a>(campaigns: &'a [CampaignInfo], name: &str) -> Vec<&'a CampaignInfo> {
    campaigns
        .iter()
        .filter(|c| c.name.eq_ignore_ascii_case(name.trim()))
        .collect()
}

/// How a copy was made.
pub enum Copied {
    /// With every turn: the story log and the model's history came along.
    WithHistory(CampaignId),
    /// From the current state alone (the history did not replay from `initial`).
    StateOnly(CampaignId),
}

/// Copies a campaign under a new name. `initial` is the state it started from, as the game
/// rebuilds it from the adventure: when the turns in effect replay from it to the current
/// state, the copy gets all of them (so its story log and its model history are whole);
/// otherwise the copy starts from the current state.
pub async fn copy_campaign(
    store: &dyn GameStore,
    from: &CampaignId,
    name: &str,
    initial: &GameState,
) -> Result<Copied, String> {
    let current = store.load(from).await.map_err(|e| e.to_string())?;
    let history = store
        .history(
            from,
            Page {
                offset: 0,
                limit: usize::MAX / 2,
            },
        )
        .await
        .map_err(|e| e.to_string())?;
    let records: Vec<_> = history
        .into_iter()
        .filter(|h| !h.undone)
        .map(|h| std::sync::Arc::unwrap_or_clone(h.record))
        .collect();
    let replays = replay(initial, &records).is_ok_and(|state| state == current);
    if !replays {
        let id = store
            .create_campaign(name, &current)
            .await
            .map_err(|e| e.to_string())?;
        return Ok(Copied::StateOnly(id));
    }
    let id = store
        .create_campaign(name, initial)
        .await
        .map_err(|e| e.to_string())?;
    for record in records {
        if let Err(e) = store.commit_turn(&id, record).await {
            // Leave no half copy behind.
            let _ = store.delete(&id).await;
            return Err(e.to_string());
        }
    }
    Ok(Copied::WithHistory(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_last_file_over_the_bound_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("play.sqlite3");
        let campaign = |id: &str| CampaignInfo {
            id: CampaignId(id.into()),
            name: id.into(),
            turns: 0,
        };
        let campaigns = [campaign("older"), campaign("newest")];
        std::fs::write(beside(&db, "last"), "older").unwrap();
        assert_eq!(last_played(&db, &campaigns).unwrap().id.0, "older");
        // The same id, padded past the bound: not read, so the newest is resumed.
        let padded = format!("older{}", " ".repeat(LAST_FILE_MAX_BYTES));
        std::fs::write(beside(&db, "last"), padded).unwrap();
        assert_eq!(last_played(&db, &campaigns).unwrap().id.0, "newest");
    }

    #[test]
    fn files_beside_the_database() {
        assert_eq!(
            beside(Path::new("/tmp/games/play.sqlite3"), "last"),
            PathBuf::from("/tmp/games/play.sqlite3.last")
        );
    }
}
