//! What a raised hit point maximum does as it starts and ends (Aid): the one timed kind that
//! changes the creature's own numbers rather than being read later. Called from `timed.rs`'s
//! start and lift, so every way an effect ends (its 8 hours, a dispel, death) undoes it.

use super::timed::{TimedEffect, TimedKind};
use super::{ChangeError, GameState};
use crate::rules::HitPoints;

fn raised_by(effect: &TimedEffect) -> Option<u32> {
    match effect.kind {
        TimedKind::MaxHpRaised { amount } => Some(amount),
        _ => None,
    }
}

fn hp_mut<'a>(state: &'a mut GameState, id: &str) -> Result<&'a mut HitPoints, ChangeError> {
    if state.character(id).is_some() {
        return Ok(&mut super::lookup::character_mut(state, id)?.hp);
    }
    Ok(&mut super::lookup::monster_mut(state, id)?.hp)
}

/// Before `effect` starts: an earlier raise by the same spell on the same creature, whoever
/// cast it, ends and is undone, since the same spell's effects do not add up (the newest
/// counts).
pub(super) fn before_start(state: &mut GameState, effect: &TimedEffect) -> Result<(), ChangeError> {
    if raised_by(effect).is_none() {
        return Ok(());
    }
    let list = super::timed::effects_mut(state, &effect.target)?;
    let mut older = Vec::new();
    list.retain(|e| {
        let same = raised_by(e).is_some() && e.spell.eq_ignore_ascii_case(&effect.spell);
        if same {
            older.push(e.clone());
        }
        !same
    });
    for e in &older {
        ended(state, e);
    }
    Ok(())
}

/// As `effect` starts: a raise adds its amount to the maximum and the current hit points.
pub(super) fn started(state: &mut GameState, effect: &TimedEffect) -> Result<(), ChangeError> {
    if let Some(amount) = raised_by(effect) {
        let hp = hp_mut(state, &effect.target)?;
        hp.max += amount;
        hp.current += amount;
    }
    Ok(())
}

/// As `effect` ends: a raise takes its amount back off the maximum, and the current hit
/// points come down to the new maximum if above it.
pub(super) fn ended(state: &mut GameState, effect: &TimedEffect) {
    if let Some(amount) = raised_by(effect)
        && let Ok(hp) = hp_mut(state, &effect.target)
    {
        hp.max = hp.max.saturating_sub(amount).max(1);
        hp.current = hp.current.min(hp.max);
    }
}
