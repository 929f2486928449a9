//! When characters died, and bringing one back (Revivify): a character marked dead has the
//! moment noted ([`rounds_now`]: the clock's minutes in rounds, plus the fight's round), so
//! [`Change::Revived`](super::Change::Revived) can check "died within the last minute".

use std::sync::Arc;

use super::GameState;
use super::change::ChangeError;
use crate::rules::Condition;

/// Now, in rounds of six seconds: ten a minute of the clock, plus the fight's round.
pub fn rounds_now(state: &GameState) -> u64 {
    state.time.total_minutes().saturating_mul(10)
        + state.encounter.as_ref().map_or(0, |e| u64::from(e.round))
}

/// After any change: the characters newly marked dead have the moment noted. Touches nothing
/// when none is.
pub(super) fn note_deaths(state: &mut GameState) {
    if !state
        .characters
        .iter()
        .any(|c| c.dead && c.died_at_round.is_none())
    {
        return;
    }
    let now = rounds_now(state);
    for c in Arc::make_mut(&mut state.characters) {
        if c.dead && c.died_at_round.is_none() {
            c.died_at_round = Some(now);
        }
    }
}

/// Applies `Revived`: a character dead at most `within_rounds` ago returns with 1 hit point,
/// its death saves cleared and unconsciousness lifted.
pub(super) fn revive(
    state: &mut GameState,
    character: &str,
    within_rounds: u32,
) -> Result<(), ChangeError> {
    let now = rounds_now(state);
    let c = super::lookup::character_mut(state, character)?;
    if !c.dead {
        return Err(ChangeError::Invalid(format!(
            "{} is not dead: only the dead are revived (heal the living)",
            c.name
        )));
    }
    let ago = c
        .died_at_round
        .map_or(u64::MAX, |at| now.saturating_sub(at));
    if ago > u64::from(within_rounds) {
        return Err(ChangeError::Invalid(format!(
            "{} died {} ago: it can be revived only within {within_rounds} rounds of its death",
            c.name,
            if ago == u64::MAX {
                "at an unknown time".to_owned()
            } else {
                format!("{ago} rounds")
            }
        )));
    }
    c.dead = false;
    c.died_at_round = None;
    c.hp.current = 1.min(c.hp.max);
    c.death_saves.reset();
    c.conditions.remove(Condition::Unconscious);
    Ok(())
}
