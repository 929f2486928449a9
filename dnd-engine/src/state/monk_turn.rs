//! How [`Change::MonkTurn`](super::Change::MonkTurn) applies: the steps of a monk's turn kept
//! on the turn's budget (`rules::TurnBudget`), each refused off the monk's own turn, so no
//! caller can open a bonus strike or a Dash for someone else.

use serde::{Deserialize, Serialize};

use super::GameState;
use super::change::ChangeError;
use super::lookup::character_mut;

/// One step of a monk's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MonkStep {
    /// An attack of the Attack action was made with an unarmed strike or a monk weapon:
    /// Martial Arts' bonus-action unarmed strike may follow.
    MartialArts,
    /// Stunning Strike readied: the next melee weapon hit this turn spends 1 ki for it.
    StunningStrike,
    /// The readied Stunning Strike was spent on a hit (or given up).
    StunningStrikeSpent,
    /// Step of the Wind: Dash (extra movement equal to `speed`) as a bonus action.
    Dashed {
        /// The monk's speed now, added to its movement this turn.
        speed: u32,
    },
    /// Step of the Wind: Disengage as a bonus action.
    Disengaged,
}

/// Applies one step to the running fight's budget, on `character`'s own turn only.
pub(super) fn apply(
    state: &mut GameState,
    character: &str,
    step: MonkStep,
) -> Result<(), ChangeError> {
    let id = character_mut(state, character)?.id.clone();
    let Some(encounter) = state.encounter.as_mut() else {
        return Err(ChangeError::Invalid(
            "no fight is running: a monk's strikes and steps are kept on a turn of a fight".into(),
        ));
    };
    let current = encounter.current().unwrap_or_default().to_owned();
    if !current.eq_ignore_ascii_case(&id) {
        return Err(ChangeError::Invalid(format!(
            "it is {current}'s turn, not {id}'s: a monk's step is taken on its own turn"
        )));
    }
    let budget = &mut encounter.budget;
    match step {
        MonkStep::MartialArts => {
            if !budget.attack_action {
                return Err(ChangeError::Invalid(format!(
                    "{id} has not taken the Attack action this turn: Martial Arts' bonus strike follows it"
                )));
            }
            budget.martial_arts = true;
        }
        MonkStep::StunningStrike => budget.stunning_strike = true,
        MonkStep::StunningStrikeSpent => budget.stunning_strike = false,
        MonkStep::Dashed { speed } => budget.extra_movement_ft += speed,
        MonkStep::Disengaged => budget.disengaged = true,
    }
    Ok(())
}
