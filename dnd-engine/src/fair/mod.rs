//! Provably fair dice for a campaign: opting in, the client seed, revealing, the exported log
//! and its verification. The scheme itself is in [`crate::dice::fair`].
//!
//! Each operation here is a record of its own in the campaign's history (input `"/fair ..."`,
//! no rolls), committed after the head it read like a turn, so a commitment is in the history
//! before any turn that rolls with it, and the revealed seeds are in the state.
//!
//! Undo: undone turns keep their numbers, and a nonce counts the turn's history number, so a
//! turn played after an undo draws new nonces. Verification covers every turn in the history,
//! undone ones too (their dice were drawn from the seed like any other). Undoing a record that
//! revealed a seed would put a known seed back in force: [`check_undo`] refuses it.

mod log;

use serde::{Deserialize, Serialize};

pub use log::{
    FORMAT, FairLog, LoggedCommit, LoggedRoll, PendingSeed, VerifyFailure, VerifyReport, verify,
};

use crate::dice::fair::{ServerSeed, check_client_seed, random_client_seed};
use crate::state::{Change, FairCommit, GameState, RevealedSeed};
use crate::store::{CampaignId, GameStore, Page, StoreError, TurnRecord};

/// What the world may know about a campaign's fair dice: never the secret seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairStatus {
    /// Whether turns roll fair dice now.
    pub on: bool,
    /// SHA-256 of the seed in force (hex), published before its first roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    /// The client seed in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
    /// The history number of the first turn the seed in force covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_turn: Option<u64>,
    /// The seeds revealed so far, oldest first.
    pub revealed: Vec<RevealedSeed>,
}

impl FairStatus {
    /// The public part of a state's fair dice.
    pub fn of(state: &GameState) -> FairStatus {
        let current = state.fair.current.as_ref();
        FairStatus {
            on: current.is_some(),
            commitment: current.map(|c| c.commitment.clone()),
            client_seed: current.map(|c| c.client_seed.clone()),
            first_turn: current.map(|c| c.first_turn),
            revealed: state.fair.revealed.clone(),
        }
    }
}

/// Why a fair-dice operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum FairError {
    /// The request does not fit the campaign's fair dice: what was wrong and what to do.
    #[error("{0}")]
    Refused(String),
    /// The store failed (a conflict: another game moved the campaign first; try again).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The history number the next record of a campaign whose head is `head` gets: after the
/// head, plus the undone turns after it (numbers are never reused).
pub async fn next_turn(
    store: &dyn GameStore,
    campaign: &CampaignId,
    head: u64,
) -> Result<u64, StoreError> {
    let offset = usize::try_from(head).unwrap_or(usize::MAX);
    let after = store
        .history(
            campaign,
            Page {
                offset,
                limit: usize::MAX,
            },
        )
        .await?;
    Ok(after.last().map_or(head, |h| h.turn.max(head)) + 1)
}

/// Where new server seeds come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewSeeds {
    /// 32 bytes from the operating system's CSPRNG: every real game.
    Os,
    /// Derived from this number and the record's turn: for tests and seeded replays only (who
    /// knows the number knows the seeds).
    Seeded(u64),
}

impl NewSeeds {
    fn seed(self, turn: u64) -> ServerSeed {
        match self {
            NewSeeds::Os => ServerSeed::generate(),
            NewSeeds::Seeded(n) => {
                ServerSeed::from_rng(&mut crate::dice::seeded_rng(n ^ turn.rotate_left(32)))
            }
        }
    }
}

/// Which way [`reveal`] leaves the campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterReveal {
    /// Commit a new seed at once (same client seed): play stays fair.
    Recommit,
    /// Fair dice off: the ordinary game dice from the next turn.
    Off,
}

/// Opts a campaign in: commits a fresh seed (32 bytes from the OS CSPRNG) for `client_seed`
/// (random when `None`). Refused when fair dice are already on.
pub async fn turn_on(
    store: &dyn GameStore,
    campaign: &CampaignId,
    client_seed: Option<&str>,
    seeds: NewSeeds,
) -> Result<FairStatus, FairError> {
    let client_seed = match client_seed {
        Some(seed) => {
            check_client_seed(seed).map_err(FairError::Refused)?;
            seed.to_owned()
        }
        None => random_client_seed(),
    };
    let (state, head) = store.load_with_head(campaign).await?;
    if state.fair.is_on() {
        return Err(FairError::Refused(
            "fair dice are already on; reveal the seed to start a new one".into(),
        ));
    }
    let number = next_turn(store, campaign, head).await?;
    let changes = vec![commit_change(&client_seed, number + 1, seeds.seed(number))];
    write(store, campaign, (state, head), "/fair on", changes).await
}

/// Sets the client seed: reveals the seed in force and commits a new one for the new client
/// seed (one server seed always goes with one client seed). Refused when fair dice are off.
pub async fn set_client_seed(
    store: &dyn GameStore,
    campaign: &CampaignId,
    client_seed: &str,
    seeds: NewSeeds,
) -> Result<FairStatus, FairError> {
    check_client_seed(client_seed).map_err(FairError::Refused)?;
    let (state, head) = store.load_with_head(campaign).await?;
    if !state.fair.is_on() {
        return Err(FairError::Refused(
            "fair dice are off: turn them on with a client seed instead".into(),
        ));
    }
    let number = next_turn(store, campaign, head).await?;
    let changes = vec![
        Change::FairRevealed {
            last_turn: number - 1,
        },
        commit_change(client_seed, number + 1, seeds.seed(number)),
    ];
    write(store, campaign, (state, head), "/fair client-seed", changes).await
}

/// Reveals the seed in force (it is listed in [`FairStatus::revealed`] with the turns it
/// covered), then commits a new one or turns fair dice off. Refused when fair dice are off.
pub async fn reveal(
    store: &dyn GameStore,
    campaign: &CampaignId,
    then: AfterReveal,
    seeds: NewSeeds,
) -> Result<FairStatus, FairError> {
    let (state, head) = store.load_with_head(campaign).await?;
    let Some(client_seed) = state.fair.current.as_ref().map(|c| c.client_seed.clone()) else {
        return Err(FairError::Refused(
            "fair dice are off: there is no seed to reveal".into(),
        ));
    };
    let number = next_turn(store, campaign, head).await?;
    let mut changes = vec![Change::FairRevealed {
        last_turn: number - 1,
    }];
    if then == AfterReveal::Recommit {
        changes.push(commit_change(&client_seed, number + 1, seeds.seed(number)));
    }
    write(store, campaign, (state, head), "/fair reveal", changes).await
}

/// Refuses to undo `turns` turns when one of them revealed a seed: undoing it would put a
/// seed everyone knows back in force.
pub async fn check_undo(
    store: &dyn GameStore,
    campaign: &CampaignId,
    turns: u32,
) -> Result<(), FairError> {
    let recent = store
        .recent_turns(campaign, usize::try_from(turns).unwrap_or(usize::MAX))
        .await?;
    let reveals = recent.iter().any(|h| {
        h.record
            .changes
            .iter()
            .any(|c| matches!(c, Change::FairRevealed { .. }))
    });
    if reveals {
        return Err(FairError::Refused(
            "cannot undo past a revealed fair-dice seed: its dice are public now; undo fewer \
             turns"
                .into(),
        ));
    }
    Ok(())
}

/// The campaign's fair-dice log: revealed seeds, where each commitment was recorded, and every
/// roll made with fair dice, undone turns included (see [`FairLog`]).
pub async fn export(store: &dyn GameStore, campaign: &CampaignId) -> Result<FairLog, FairError> {
    let state = store.load(campaign).await?;
    let mut history = Vec::new();
    loop {
        let page = store
            .history(
                campaign,
                Page {
                    offset: history.len(),
                    limit: 500,
                },
            )
            .await?;
        let done = page.len() < 500;
        history.extend(page);
        if done {
            break;
        }
    }
    Ok(FairLog::from_history(&state, &history))
}

fn commit_change(client_seed: &str, first_turn: u64, seed: ServerSeed) -> Change {
    Change::FairCommitted {
        commit: FairCommit {
            commitment: seed.commitment(),
            seed,
            client_seed: client_seed.to_owned(),
            first_turn,
        },
    }
}

/// Commits a record of `changes` after `head`, the head `state` was read with.
async fn write(
    store: &dyn GameStore,
    campaign: &CampaignId,
    (mut state, head): (GameState, u64),
    input: &str,
    changes: Vec<Change>,
) -> Result<FairStatus, FairError> {
    let record = TurnRecord {
        input: input.to_owned(),
        changes,
        after_turn: Some(head),
        ..TurnRecord::default()
    };
    record.apply_to(&mut state)?;
    store.commit_turn(campaign, record).await?;
    Ok(FairStatus::of(&state))
}

#[cfg(test)]
mod tests;
