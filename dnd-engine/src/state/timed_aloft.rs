//! What a [`TimedKind::Flying`] does (Fly, Gaseous Form, Levitate): the one read of the kind.
//! While it lasts the creature may be in the air (`combat::positions::flies` asks
//! [`flies_by_magic`]) and its speed is at least the flying speed, or only that speed
//! ([`flying_speed`], through `speed_with`). As the last one on a creature ends, by its
//! duration, a dispel or the caster's lost concentration, a creature still in the air with
//! nothing under it comes down to the floor ([`ended`], called from `timed.rs`'s lift, so every
//! way of ending it lands it). A monster that flies by nature stays where it is.
//!
//! The state rolls no dice, so the fall's damage (1d6 per 10 ft) is the narrator's.

use super::timed::{TimedEffect, TimedKind};
use super::{GameState, area_at};

fn flight(e: &TimedEffect) -> Option<(u32, bool)> {
    match e.kind {
        TimedKind::Flying { feet, only } => Some((feet, only)),
        _ => None,
    }
}

/// The speed `base` becomes under the creature's flying effects: raised to the best flying
/// speed (Fly), or replaced by it when every one is the creature's only speed (Gaseous Form).
pub(super) fn flying_speed(effects: &[TimedEffect], base: u32) -> u32 {
    let (mut raised, mut only) = (None::<u32>, None::<u32>);
    for (feet, is_only) in effects.iter().filter_map(flight) {
        let best = if is_only { &mut only } else { &mut raised };
        *best = Some(best.map_or(feet, |b| b.max(feet)));
    }
    match (raised, only) {
        (Some(feet), _) => base.max(feet),
        (None, Some(feet)) => feet,
        (None, None) => base,
    }
}

/// Whether the creature's timed effects give it a flying speed (Fly, Gaseous Form).
pub fn flies_by_magic(effects: &[TimedEffect]) -> bool {
    effects.iter().filter_map(flight).any(|(feet, _)| feet > 0)
}

/// Whether the creature's timed effects hold it in the air (Fly, Gaseous Form, Levitate).
pub fn held_aloft(effects: &[TimedEffect]) -> bool {
    effects.iter().any(|e| flight(e).is_some())
}

/// After `effect` ended: if it kept its creature up and nothing else does, the creature comes
/// down to the floor, unless it stands on a raised area's top or flies by nature.
pub(super) fn ended(state: &mut GameState, effect: &TimedEffect) {
    if flight(effect).is_none() || held_aloft(super::timed_effects(state, &effect.target)) {
        return;
    }
    let natural = state.monster(&effect.target).is_some_and(|m| {
        state
            .srd()
            .monster(&m.template)
            .is_ok_and(|t| t.speed.fly > 0)
    });
    let areas = state
        .party_location()
        .map(|l| l.areas.clone())
        .unwrap_or_default();
    let Some(encounter) = state.encounter.as_mut() else {
        return;
    };
    let Some(id) = encounter.slot(&effect.target).map(|s| s.id.clone()) else {
        return;
    };
    let Some(at) = encounter.positions.get_mut(&id) else {
        return;
    };
    let on_top = area_at(&areas, *at).is_some_and(|a| a.z == at.z);
    if at.z > 0 && !on_top && !natural {
        at.z = 0;
    }
}
