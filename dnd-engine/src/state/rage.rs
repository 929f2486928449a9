//! How a barbarian's Rage lasts and ends, checked here whoever builds the changes: its effects
//! (a [`TimedKind::Raging`] marker and companions, all named [`RAGE`], on the barbarian and
//! from it) end together; they end when the barbarian is knocked unconscious, and when a turn
//! of its ends without its having attacked (`Change::RageKeptUp`, from every character attack) or taken damage since its last;
//! and a frenzied rage leaves a level of exhaustion as it ends, however it ends (its minute
//! run out, a turn without fighting, unconsciousness). What Rage does to a roll is read by
//! `character::barbarian`; starting it is `tools::feature_barbarian`.

use std::sync::Arc;

use super::{GameState, TimedEffect, TimedKind};
use crate::rules::Condition;

/// The name (`TimedEffect::spell`) of every effect a rage keeps.
pub const RAGE: &str = "Rage";

/// The rage marker among a creature's timed effects, if it is raging.
pub fn raging(effects: &[TimedEffect]) -> Option<&TimedEffect> {
    effects
        .iter()
        .find(|e| matches!(e.kind, TimedKind::Raging { .. }))
}

fn kept(e: &TimedEffect) -> bool {
    matches!(e.kind, TimedKind::Raging { kept_up: true, .. })
}

/// One of the effects a rage keeps on its barbarian.
fn part_of_rage(e: &TimedEffect) -> bool {
    e.spell == RAGE && e.source.eq_ignore_ascii_case(&e.target)
}

/// Applies [`Change::RageKeptUp`](super::Change::RageKeptUp): refused unless `id` is raging.
pub(super) fn fed(state: &mut GameState, id: &str) -> Result<(), super::ChangeError> {
    let c = super::lookup::character_ref(state, id)?;
    if raging(&c.timed_effects).is_none() {
        return Err(super::ChangeError::Invalid(format!(
            "{} is not raging: there is no rage to keep up",
            c.name
        )));
    }
    kept_up(state, id);
    Ok(())
}

/// `id` attacked or took damage: its rage (if any) is kept up past the end of its turn.
pub(super) fn kept_up(state: &mut GameState, id: &str) {
    let fresh = state.characters.iter().any(|c| {
        c.id.eq_ignore_ascii_case(id) && raging(&c.timed_effects).is_some_and(|e| !kept(e))
    });
    if fresh {
        set_kept(state, id, true);
    }
}

fn set_kept(state: &mut GameState, id: &str, to: bool) {
    for c in Arc::make_mut(&mut state.characters) {
        if c.id.eq_ignore_ascii_case(id) {
            for e in &mut c.timed_effects {
                if let TimedKind::Raging { kept_up, .. } = &mut e.kind {
                    *kept_up = to;
                }
            }
        }
    }
}

/// As the fight's current turn ends (before `TurnAdvanced` moves on): a raging creature whose
/// turn it was stops raging unless it attacked or was hurt since its last turn; otherwise the
/// count starts again for the next.
pub(super) fn turn_ended(state: &mut GameState) {
    let Some(now) = state.turn_now().map(str::to_owned) else {
        return;
    };
    let Some(marker) = state.character(&now).and_then(|c| raging(&c.timed_effects)) else {
        return;
    };
    if kept(marker) {
        set_kept(state, &now, false);
    } else {
        end_rage(state, &now);
    }
}

/// After any change: the rage of an unconscious (or dead) barbarian ends, and so do the
/// companions of a rage whose marker ended (its minute run out, or ended by hand).
pub(super) fn prune(state: &mut GameState) {
    let ending: Vec<String> = state
        .characters
        .iter()
        .filter(|c| c.timed_effects.iter().any(part_of_rage))
        .filter(|c| {
            c.dead || c.conditions.has(Condition::Unconscious) || raging(&c.timed_effects).is_none()
        })
        .map(|c| c.id.clone())
        .collect();
    for id in ending {
        end_rage(state, &id);
    }
}

fn end_rage(state: &mut GameState, id: &str) {
    super::timed::end_where(state, |e| {
        part_of_rage(e) && e.target.eq_ignore_ascii_case(id)
    });
}

/// As a timed effect ends: a frenzied rage leaves its barbarian one level of exhaustion.
pub(super) fn ended(state: &mut GameState, e: &TimedEffect) {
    if matches!(e.kind, TimedKind::Raging { frenzied: true, .. })
        && let Ok(c) = super::lookup::character_mut(state, &e.target)
    {
        c.conditions.add(Condition::Exhaustion);
    }
}
