//! How [`Change::SlotsRecovered`](super::Change::SlotsRecovered) applies: expended slots come
//! back one by one, and the change is refused, changing nothing, when a listed level has no
//! expended slot left to recover. How many and which levels a feature may recover is the
//! character layer's (`character::slot_recovery`).

use super::GameState;
use super::change::ChangeError;
use super::lookup::character_mut;

/// Recovers one expended slot of each level in `levels` for `character`.
pub(super) fn recover(
    state: &mut GameState,
    character: &str,
    levels: &[u8],
) -> Result<(), ChangeError> {
    let c = character_mut(state, character)?;
    let mut slots = c.spell_slots;
    for &level in levels {
        let i = usize::from(level.clamp(1, 9) - 1);
        if !(1..=9).contains(&level) || slots.spent[i] == 0 {
            return Err(ChangeError::Invalid(format!(
                "{character} has no expended slot of level {level} to recover (expended: {:?})",
                slots.spent
            )));
        }
        slots.spent[i] -= 1;
    }
    c.spell_slots = slots;
    Ok(())
}
