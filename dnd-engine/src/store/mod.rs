//! Where campaigns live: the [`GameStore`] trait, the records it keeps, and [`MemoryStore`].
//!
//! A store holds, per campaign, the state it started from and one [`TurnRecord`] per committed
//! turn. A commit is atomic: the store applies the record's changes to the current state with
//! [`GameState::apply_all`] (so an invalid turn is refused whole) and keeps the record and the
//! new state together, or nothing. Because every mutation is in the records, replaying them from
//! the start reaches the stored state ([`replay`]); undo marks turns as undone (they stay in the
//! history for the audit log) and goes back to the state before them.
//!
//! # Which state a turn was computed on
//!
//! Turns are numbered in the history, undone ones counted ([`HistoryEntry::turn`]): a new turn
//! takes the next number, never one an undone turn had. The campaign's *head* is the number of
//! its last turn in effect (0 when none is). Undo only ever takes turns from the end and a commit
//! adds one with a new number, so the head names the state in effect exactly: the same head is
//! the same state, and any commit or undo in between changes it. ([`GameState::turn`] does not:
//! it counts the turns in effect, so undoing turn 2 and committing another gives 2 again, on a
//! different state.)
//!
//! A record says which head it was computed after ([`TurnRecord::after_turn`], from
//! [`GameStore::load_with_head`]); if another game committed or undid turns since, the commit is
//! a [`StoreError::Conflict`] and writes nothing, so two games on one save never interleave.
//!
//! `MemoryStore` lives here, for tests and for games that need no persistence; the durable
//! stores are `SqliteStore` in the `dnd-store-sqlite` crate and, for several servers on one
//! database, `PostgresStore` in `dnd-store-postgres`. All three pass the same behavioural suite
//! (`tests/tests/store_behaviour.rs`).

pub mod backend;
pub mod format;
mod memory;
mod roll;

use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::llm::Message;
use crate::state::{Change, ChangeError, GameState, StoryEvent};

pub use memory::MemoryStore;
pub use roll::{RollDetail, RollRecord};

/// A campaign's id, chosen by the store.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CampaignId(pub String);

impl std::fmt::Display for CampaignId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A line the player saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// "player", "gm", or a character's name.
    pub speaker: String,
    /// The text.
    pub text: String,
}

/// Everything one turn did, as committed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The player's input.
    pub input: String,
    /// The state changes, in the order they were applied.
    pub changes: Vec<Change>,
    /// Every roll.
    #[serde(default)]
    pub rolls: Vec<RollRecord>,
    /// Story events: the story log is the events of the turns in effect, in order.
    #[serde(default)]
    pub events: Vec<StoryEvent>,
    /// What the player saw.
    #[serde(default)]
    pub player_messages: Vec<ChatLine>,
    /// What the LLM was sent and answered, tool steps included.
    #[serde(default)]
    pub llm_messages: Vec<Message>,
    /// The mechanics of the actions suggested at the end of the turn, each with the id of its
    /// suggestion: the next turn rolls the one the player picks, exactly as it was offered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<crate::llm::ToolCall>,
    /// The history number of the last turn in effect when this turn was computed (the
    /// campaign's head, 0 for its start: see the [module docs](self)), as
    /// [`GameStore::load_with_head`] returns it with the state; `None` skips the check. A store
    /// refuses the commit with [`StoreError::Conflict`] when the head is no longer this one:
    /// another game (another process on the same save) committed or undid turns first, so this
    /// turn was played on a stale state. Not [`GameState::turn`], which goes back down on undo.
    #[serde(default)]
    pub after_turn: Option<u64>,
}

impl TurnRecord {
    /// Refuses the record with [`StoreError::Conflict`] unless `head` (the history number of
    /// the campaign's last turn in effect, 0 for none, read inside the commit's atomic section)
    /// is its [`after_turn`](Self::after_turn).
    pub fn check_after_turn(&self, head: u64) -> Result<(), StoreError> {
        match self.after_turn {
            Some(after_turn) if after_turn != head => {
                Err(StoreError::Conflict { after_turn, head })
            }
            _ => Ok(()),
        }
    }

    /// Applies this turn's changes to a state, all or nothing, and counts the turn.
    pub fn apply_to(&self, state: &mut GameState) -> Result<(), StoreError> {
        state
            .apply_all(&self.changes)
            .map_err(|(index, error)| StoreError::InvalidTurn { index, error })?;
        state.turn += 1;
        Ok(())
    }
}

/// A committed turn in the history.
///
/// The record is shared: a store that keeps records in memory hands out the same record to
/// every reader (each turn reads the last few back for the model's history) instead of
/// copying it, LLM messages and all. Build one with `record: record.into()`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// Turn number, from 1.
    pub turn: u64,
    /// Whether it was undone (kept for the audit log, no longer part of the state).
    pub undone: bool,
    /// The record, as committed.
    pub record: Arc<TurnRecord>,
}

/// A campaign in a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignInfo {
    /// Its id.
    pub id: CampaignId,
    /// Its name.
    pub name: String,
    /// Turns in effect (undone ones not counted).
    pub turns: u64,
}

/// A page of a list: skip `offset`, take at most `limit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    /// How many to skip from the start.
    pub offset: usize,
    /// How many at most.
    pub limit: usize,
}

impl Page {
    /// The first `limit` entries.
    pub fn first(limit: usize) -> Page {
        Page { offset: 0, limit }
    }
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// No campaign with that id.
    #[error("no campaign {0}; list the campaigns to see which exist")]
    NotFound(CampaignId),
    /// The turn's changes do not apply to the current state: nothing was written.
    #[error("the turn was not committed: change {index} does not apply: {error}")]
    InvalidTurn {
        /// Index of the failing change.
        index: usize,
        /// Why.
        #[source]
        error: ChangeError,
    },
    /// The turn was computed on a state the campaign has moved on from (its
    /// [`TurnRecord::after_turn`] is not the campaign's head): another game committed or undid
    /// turns first. Nothing was written. Both numbers count undone turns, as
    /// [`HistoryEntry::turn`] does.
    #[error(
        "the turn was not kept: it was played after turn {after_turn}, but another game moved \
         this campaign on (its last turn in effect is now turn {head}); reload the campaign and \
         play from there"
    )]
    Conflict {
        /// The head the record was computed after ([`TurnRecord::after_turn`]).
        after_turn: u64,
        /// The campaign's head when the commit was tried: the history number of its last turn
        /// in effect, 0 for none.
        head: u64,
    },
    /// More turns to undo than there are in effect.
    #[error("cannot undo {asked} turns: only {available} are in effect")]
    NothingToUndo {
        /// How many were asked.
        asked: u32,
        /// How many there are.
        available: u64,
    },
    /// Stored data that does not read back (a damaged file, a bug).
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    /// The storage was written by a newer version of this software.
    #[error(
        "the store has schema version {found}, newer than this build supports ({supported}); upgrade the software"
    )]
    SchemaTooNew {
        /// The version found.
        found: i64,
        /// The newest this build knows.
        supported: i64,
    },
    /// The storage could not be opened or written.
    #[error("storage error: {0}")]
    Backend(String),
    /// A saved value is in no save format or one this build does not read (see
    /// [`format`](mod@format)); the error names the formats accepted.
    #[error("{what}: {error}")]
    SaveFormat {
        /// Which value ("the state of campaign 1"), after the store's place.
        what: String,
        /// What was wrong with its format.
        #[source]
        error: format::SaveFormatError,
    },
}

/// Where campaigns are kept. Every method is atomic: it happens whole or not at all.
#[async_trait]
pub trait GameStore: Send + Sync {
    /// Creates a campaign that starts from `initial`.
    async fn create_campaign(
        &self,
        name: &str,
        initial: &GameState,
    ) -> Result<CampaignId, StoreError>;

    /// The campaign's current state.
    async fn load(&self, campaign: &CampaignId) -> Result<GameState, StoreError>;

    /// The campaign's current state and its head (the history number of its last turn in
    /// effect, 0 for none; see the [module docs](self)), read together in one atomic step: what
    /// a turn computed on this state puts in [`TurnRecord::after_turn`].
    ///
    /// There is no default made of [`load`](Self::load) and [`recent_turns`](Self::recent_turns):
    /// another game's commit or undo between two reads would pair a state with a head it does
    /// not have, and a stale turn could then pass the commit's check.
    async fn load_with_head(&self, campaign: &CampaignId) -> Result<(GameState, u64), StoreError>;

    /// Commits one turn atomically and returns its turn number. The record's changes are applied
    /// to the current state; if one fails, nothing is written. If the record has an
    /// [`after_turn`](TurnRecord::after_turn) and the campaign's head is no longer that one (a
    /// turn was committed or undone since), the commit is refused with [`StoreError::Conflict`]
    /// and nothing is written: the check and the write are one atomic step, so of two games that
    /// loaded the same state only one commits.
    ///
    /// The record is taken by value: a store keeps it (or writes it out) without a copy.
    async fn commit_turn(
        &self,
        campaign: &CampaignId,
        record: TurnRecord,
    ) -> Result<u64, StoreError>;

    /// Every campaign, by id.
    async fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError>;

    /// A page of the story log of the turns in effect, oldest first.
    async fn story_log(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<StoryEvent>, StoreError>;

    /// A page of the history, undone turns included, oldest first.
    async fn history(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<HistoryEntry>, StoreError>;

    /// The last `count` turns in effect (undone ones skipped), oldest first: the LLM history
    /// the game master sends (a store that keeps records in memory returns its shared
    /// [`HistoryEntry::record`]s, not copies). The default pages through
    /// [`history`](Self::history) from where those turns must start; stores override it with
    /// one direct read.
    async fn recent_turns(
        &self,
        campaign: &CampaignId,
        count: usize,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        if count == 0 {
            return Ok(Vec::new());
        }
        let in_effect = usize::try_from(self.load(campaign).await?.turn).unwrap_or(usize::MAX);
        // Turn numbers count undone turns too, so the wanted ones start at or after this.
        let mut offset = in_effect.saturating_sub(count);
        loop {
            let page = self
                .history(
                    campaign,
                    Page {
                        offset,
                        limit: usize::MAX / 2,
                    },
                )
                .await?;
            let live: Vec<HistoryEntry> = page.into_iter().filter(|h| !h.undone).collect();
            if live.len() >= count || offset == 0 {
                let skip = live.len().saturating_sub(count);
                return Ok(live.into_iter().skip(skip).collect());
            }
            offset = offset.saturating_sub(count.max(16));
        }
    }

    /// Undoes the last `turns` turns in effect and returns the state as it was before them.
    async fn undo(&self, campaign: &CampaignId, turns: u32) -> Result<GameState, StoreError>;

    /// Deletes the campaign and its history.
    async fn delete(&self, campaign: &CampaignId) -> Result<(), StoreError>;
}

/// Replays turn records from an initial state: the state a store must hold after them.
pub fn replay<'a>(
    initial: &GameState,
    records: impl IntoIterator<Item = &'a TurnRecord>,
) -> Result<GameState, StoreError> {
    let mut state = initial.clone();
    for record in records {
        record.apply_to(&mut state)?;
    }
    Ok(state)
}
