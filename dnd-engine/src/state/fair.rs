//! A campaign's provably fair dice ([`crate::dice::fair`]): the seed it is committed to and the
//! seeds it revealed, moved only by [`Change::FairCommitted`] and [`Change::FairRevealed`].

use serde::{Deserialize, Serialize};

use super::{ChangeError, GameState};
use crate::dice::fair::ServerSeed;

/// What a campaign's fair dice are: the seed in force (if fair dice are on) and every seed
/// revealed so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairState {
    /// The seed the turns roll with now; `None` when fair dice are off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<FairCommit>,
    /// The revealed seeds, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed: Vec<RevealedSeed>,
}

/// A committed, not yet revealed seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairCommit {
    /// The secret seed (`Debug` prints `<secret>`).
    pub seed: ServerSeed,
    /// SHA-256 of the seed, published when it was committed.
    pub commitment: String,
    /// The player's client seed.
    pub client_seed: String,
    /// The history number of the first turn that may roll with it.
    pub first_turn: u64,
}

/// A seed revealed: everything needed to recompute the dice of the turns it covered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedSeed {
    /// The server seed, 64 hex digits.
    pub server_seed: String,
    /// The commitment published before its first roll.
    pub commitment: String,
    /// The client seed used with it.
    pub client_seed: String,
    /// The history numbers of the first and last turn it covered.
    pub first_turn: u64,
    /// See `first_turn`.
    pub last_turn: u64,
}

impl FairState {
    /// Whether fair dice are on.
    pub fn is_on(&self) -> bool {
        self.current.is_some()
    }

    /// The published part of the seed in force: its commitment, client seed and first turn.
    pub fn public(&self) -> Option<(&str, &str, u64)> {
        self.current
            .as_ref()
            .map(|c| (c.commitment.as_str(), c.client_seed.as_str(), c.first_turn))
    }
}

/// Applies [`Change::FairCommitted`](super::Change::FairCommitted).
pub(super) fn committed(state: &mut GameState, commit: &FairCommit) -> Result<(), ChangeError> {
    if state.fair.current.is_some() {
        return Err(ChangeError::Invalid(
            "fair dice are already committed to a seed: reveal it before committing another".into(),
        ));
    }
    if commit.seed.commitment() != commit.commitment {
        return Err(ChangeError::Invalid(
            "the commitment is not the SHA-256 of the seed".into(),
        ));
    }
    crate::dice::fair::check_client_seed(&commit.client_seed).map_err(ChangeError::Invalid)?;
    std::sync::Arc::make_mut(&mut state.fair).current = Some(commit.clone());
    Ok(())
}

/// Applies [`Change::FairRevealed`](super::Change::FairRevealed).
pub(super) fn revealed(state: &mut GameState, last_turn: u64) -> Result<(), ChangeError> {
    let Some(current) = state.fair.current.as_ref() else {
        return Err(ChangeError::Invalid(
            "fair dice are off: there is no seed to reveal".into(),
        ));
    };
    if last_turn < current.first_turn.saturating_sub(1) {
        return Err(ChangeError::Invalid(format!(
            "a seed committed for turn {} cannot end at turn {last_turn}",
            current.first_turn
        )));
    }
    let seed = RevealedSeed {
        server_seed: current.seed.reveal(),
        commitment: current.commitment.clone(),
        client_seed: current.client_seed.clone(),
        first_turn: current.first_turn,
        last_turn,
    };
    let fair = std::sync::Arc::make_mut(&mut state.fair);
    fair.current = None;
    fair.revealed.push(seed);
    Ok(())
}
