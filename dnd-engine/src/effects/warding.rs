//! Magic on a place rather than a creature: an exit locked by a spell ([`Effect::LockExit`],
//! Arcane Lock). The exit is named by `cast_spell`'s `aim` (its direction, as the room lists
//! it); [`lock_exit`] is the one read of the effect, asked by `tools::spell_effects` before the
//! interpreter runs, so a wrong exit costs nothing. The lock's DC is read where it is tried
//! (`tools/locks.rs`: the adventure's `unlock_dc` plus the exit's `lock_bonus`).

use super::casting::{Outcome, Refused};
use super::vocabulary::Effect;
use crate::state::{Change, GameState};

/// What the effects add to a lock's DC, if they lock an exit (Arcane Lock: 10).
pub fn lock_bonus(effects: &[Effect]) -> Option<i32> {
    effects.iter().find_map(|e| match e {
        Effect::LockExit { dc_bonus } => Some(*dc_bonus),
        _ => None,
    })
}

/// The change that locks the exit `aim` names in `location` (the caster's room) with a bonus
/// of `dc_bonus` to its DC, and what happened; refused, with the exits, when none is named or
/// the room has no such exit in sight.
pub fn lock_exit(
    state: &GameState,
    spell: &str,
    location: &str,
    aim: Option<&str>,
    dc_bonus: i32,
) -> Result<(Change, Outcome), Refused> {
    let here = state
        .location(location)
        .ok_or_else(|| Refused(format!("{spell}: the caster is nowhere")))?;
    let visible: Vec<&str> = here
        .exits
        .iter()
        .filter(|e| !e.hidden)
        .map(|e| e.direction.as_str())
        .collect();
    let exit = aim.and_then(|name| here.exit(name.trim()).filter(|e| !e.hidden));
    let Some(exit) = exit else {
        let named = aim.map_or("none".to_owned(), |a| format!("{a:?}"));
        return Err(Refused(format!(
            "{spell} locks a door, gate or other exit of this room: name it in aim, one of {} (given: {named})",
            if visible.is_empty() {
                "none here".to_owned()
            } else {
                visible.join(", ")
            }
        )));
    };
    let dc = exit.unlock_dc.map(|dc| dc + exit.lock_bonus.max(dc_bonus));
    let change = Change::ExitWarded {
        location: here.id.clone(),
        direction: exit.direction.clone(),
        dc_bonus,
    };
    let outcome = Outcome::ExitLocked {
        exit: exit.direction.clone(),
        dc,
    };
    Ok((change, outcome))
}
