//! How the sorcerer's changes apply: [`Change::FeatureUsesRegained`] gives back spent uses of a
//! pool (sorcery points from a spell slot), never past the pool; [`Change::SlotCreated`] makes
//! a spent spell slot whole again (points into a slot); [`Change::TimedEffectExtended`] sets a
//! timed effect's rounds left (Extended Spell), never shorter than it had. Checked here, whoever
//! builds the change.
//!
//! [`Change::FeatureUsesRegained`]: super::Change::FeatureUsesRegained
//! [`Change::SlotCreated`]: super::Change::SlotCreated
//! [`Change::TimedEffectExtended`]: super::Change::TimedEffectExtended

use super::change::ChangeError;
use super::lookup::character_mut;
use super::{Change, GameState};

/// Applies the sorcerer's changes; any other change is left alone.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    match change {
        Change::FeatureUsesRegained {
            character,
            feature,
            count,
        } => {
            let c = character_mut(state, character)?;
            let spent = c.feature_uses.get(feature).map_or(0, |u| u.spent);
            if *count == 0 || *count > spent {
                return Err(ChangeError::Invalid(format!(
                    "{} has spent {spent} of {feature} and can regain at most that many, not {count}",
                    c.name
                )));
            }
            if let Some(uses) = c.feature_uses.get_mut(feature) {
                uses.spent -= count;
            }
        }
        Change::SlotCreated { character, level } => {
            let c = character_mut(state, character)?;
            let i = usize::from(level.saturating_sub(1));
            if !(1..=9).contains(level) || c.spell_slots.spent[i] == 0 {
                return Err(ChangeError::Invalid(format!(
                    "{} has no spent level-{level} slot to make whole (left: {})",
                    c.name,
                    c.spell_slots.describe_available()
                )));
            }
            c.spell_slots.spent[i] -= 1;
        }
        Change::TimedEffectExtended { effect, rounds } => {
            let list = super::timed::effects_mut(state, &effect.target)?;
            let Some(kept) = list.iter_mut().find(|e| *e == effect) else {
                return Err(ChangeError::Invalid(format!(
                    "{} has no such effect of {} to extend",
                    effect.target, effect.spell
                )));
            };
            if effect.rounds_left.is_none_or(|r| *rounds < r) {
                return Err(ChangeError::Invalid(format!(
                    "{}'s {} lasts {:?} rounds: an extension lengthens a timed effect, not to {rounds}",
                    effect.target, effect.spell, effect.rounds_left
                )));
            }
            kept.rounds_left = Some(*rounds);
        }
        _ => {}
    }
    Ok(())
}
