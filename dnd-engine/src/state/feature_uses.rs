//! How the class-feature changes apply: [`Change::FeatureUsed`] spends one use of a feature
//! (Second Wind, Action Surge) kept on the sheet by slug, [`Change::FeatureUsesRestored`] gives
//! back what a rest restores, and [`Change::ActionSurged`] gives a fighter its action again.
//!
//! Checked here, whoever builds the change: no use past the feature's count, no surge out of
//! the character's turn or before its action is taken. How many uses a feature has is the
//! class data's (`character::uses`); the change carries it so a sheet read alone is enough.
//!
//! [`Change::FeatureUsed`]: super::Change::FeatureUsed
//! [`Change::FeatureUsesRestored`]: super::Change::FeatureUsesRestored
//! [`Change::ActionSurged`]: super::Change::ActionSurged

use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use super::lookup::character_mut;
use super::{Change, GameState};
use crate::srd::Rest;

/// The spent uses of one class feature since the rest that restores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureUses {
    /// Uses spent.
    pub spent: u8,
    /// Uses the feature has between rests.
    pub of: u8,
    /// The rest that gives them back.
    pub restores: Rest,
}

impl FeatureUses {
    /// Uses left.
    pub fn left(&self) -> u8 {
        self.of.saturating_sub(self.spent)
    }
}

/// Applies the feature changes; any other change is left alone.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    match change {
        Change::FeatureUsed {
            character,
            feature,
            of,
            restores,
            count,
        } => {
            let c = character_mut(state, character)?;
            let entry = c.feature_uses.get(feature).copied().unwrap_or(FeatureUses {
                spent: 0,
                of: *of,
                restores: *restores,
            });
            if *count == 0 || entry.left() < *count {
                return Err(ChangeError::Invalid(format!(
                    "{} has {} of {of} uses of {feature} left and cannot spend {count}; they come back after a {}",
                    c.name,
                    entry.left(),
                    rest_name(*restores)
                )));
            }
            c.feature_uses.insert(
                feature.clone(),
                FeatureUses {
                    spent: entry.spent + count,
                    of: *of,
                    restores: *restores,
                },
            );
        }
        Change::FeatureUsesRestored { character, rest } => {
            let c = character_mut(state, character)?;
            // A long rest gives back every feature; a short one only those of a short rest.
            c.feature_uses
                .retain(|_, u| *rest == Rest::ShortRest && u.restores == Rest::LongRest);
        }
        Change::ActionSurged { character } => {
            let id = character_mut(state, character)?.id.clone();
            let Some(encounter) = state.encounter.as_mut() else {
                return Err(ChangeError::Invalid(
                    "no fight is running: Action Surge gives an action on a turn of a fight".into(),
                ));
            };
            let current = encounter.current().unwrap_or_default().to_owned();
            if !current.eq_ignore_ascii_case(&id) {
                return Err(ChangeError::Invalid(format!(
                    "it is {current}'s turn, not {id}'s: Action Surge is used on one's own turn"
                )));
            }
            if !encounter.budget.action_used {
                return Err(ChangeError::Invalid(format!(
                    "{id} still has its action this turn: take it first, then Action Surge gives one more"
                )));
            }
            encounter.budget.action_used = false;
            encounter.budget.attacks_left = 0;
        }
        _ => {}
    }
    Ok(())
}

/// The rest's name in a sentence.
pub fn rest_name(rest: Rest) -> &'static str {
    match rest {
        Rest::ShortRest => "short or long rest",
        Rest::LongRest => "long rest",
    }
}
