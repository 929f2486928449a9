//! Teleportation ([`Effect::Teleport`], Misty Step): the caster vanishes and reappears at a
//! point it names (`cast_spell`'s `point`), checked against the room's positions as a move is:
//! inside the room, no farther than the spell allows, not where another creature stands, in
//! sight (a point behind total cover from the caster is not), and somewhere it can stand (the
//! floor or a raised area's top, unless it flies). Nothing is crossed on the way, so no one
//! gets an opportunity attack. [`teleport`] is the one read of the effect; `tools::spell_effects`
//! asks it before the interpreter runs, so a refused point costs nothing.
//!
//! Outside a fight, or in a room without areas, no one stands anywhere in particular: the
//! spell is the narrator's, and a point named there is refused as meaningless.

use super::casting::{Outcome, Refused};
use super::vocabulary::Effect;
use crate::combat::positions::{flies, position_of, room_areas};
use crate::srd::Srd;
use crate::state::{Change, Cover, GameState, Position, area_at, inside, round_to_5};

/// How far the effects teleport their caster, if they do (Misty Step: 30 ft).
pub fn teleport_feet(effects: &[Effect]) -> Option<u32> {
    effects.iter().find_map(|e| match e {
        Effect::Teleport { feet } => Some(*feet),
        _ => None,
    })
}

/// Where `caster` (an id) casting `spell` reappears: the `Change::Moved` and what happened, or
/// `None` where the fight keeps no positions (then no point may be named). Refused, with what
/// is allowed, when the point is missing, outside the room, too far, taken, unseen or in the
/// air for a creature that cannot fly.
pub fn teleport(
    state: &GameState,
    srd: &Srd,
    spell: &str,
    caster: &str,
    feet: u32,
    point: Option<Position>,
) -> Result<Option<(Change, Outcome)>, Refused> {
    let kept = state.encounter.as_ref().zip(position_of(state, caster));
    let Some((encounter, from)) = kept else {
        return match point {
            Some(_) => Err(Refused(format!(
                "{spell} names a point only in a fight whose room keeps positions; here no one stands anywhere in particular: give point null and narrate where {} reappears",
                state.name_of(caster)
            ))),
            None => Ok(None),
        };
    };
    let name = state.name_of(caster);
    let Some(to) = point else {
        return Err(Refused(format!(
            "{spell} takes {name} to a point up to {feet} ft away: name it in point ({{\"x\": .., \"y\": .., \"z\": 0}}); {name} stands at ({}, {}, {})",
            from.x, from.y, from.z
        )));
    };
    let at = |p: Position| format!("({}, {}, {})", p.x, p.y, p.z);
    let areas = room_areas(state);
    if !inside(areas, to) {
        return Err(Refused(format!(
            "{} is outside the room: {spell} reaches only points inside it",
            at(to)
        )));
    }
    let distance = round_to_5(from.exact_distance(to));
    if distance > feet {
        return Err(Refused(format!(
            "{} is {distance} ft from {name}: {spell} reaches {feet} ft at most",
            at(to)
        )));
    }
    let me = encounter.slot(caster).map(|s| s.id.clone());
    let taken = encounter.positions.iter().find(|(id, p)| {
        Some(*id) != me.as_ref() && p.exact_distance(to) < 5.0 && standing(state, id)
    });
    if let Some((id, _)) = taken {
        return Err(Refused(format!(
            "{} is taken: {} stands there; name an unoccupied point at least 5 ft from every creature",
            at(to),
            state.name_of(id)
        )));
    }
    let target_area = area_at(areas, to);
    let mine = area_at(areas, from).map(|a| a.id.as_str());
    if let Some(hidden) =
        target_area.filter(|a| a.cover == Cover::Total && Some(a.id.as_str()) != mine)
    {
        return Err(Refused(format!(
            "{name} cannot see {}: {} gives it total cover, and {spell} needs a point in sight",
            at(to),
            hidden.name
        )));
    }
    let on_top = target_area.is_some_and(|a| a.z == to.z);
    if to.z > 0 && !on_top && !flies(state, srd, caster) {
        return Err(Refused(format!(
            "{name} cannot fly, and nothing holds it up {} ft above the floor at {}: name a point on the floor (z 0) or on a raised area at its height",
            to.z,
            at(to)
        )));
    }
    let id = me.unwrap_or_else(|| caster.to_owned());
    let outcome = Outcome::Moved {
        target: name,
        feet: distance,
        to,
    };
    Ok(Some((Change::Moved { creature: id, to }, outcome)))
}

/// Whether a combatant still takes up its space: anyone not dead (the fallen lie there).
fn standing(state: &GameState, id: &str) -> bool {
    match state.character(id) {
        Some(c) => !c.dead,
        None => state.monster(id).is_some_and(|m| m.is_alive()),
    }
}
