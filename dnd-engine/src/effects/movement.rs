//! Movement effects: a creature pushed straight away from the caster (Thunderwave's 10 ft),
//! along the floor and cut short at the room's edge, by the one push rule shoves use
//! (`combat::geometry::push_away`). Only where the fight keeps positions: elsewhere no one
//! stands anywhere in particular, and the push changes nothing.

use crate::combat::geometry::push_away;
use crate::combat::positions::{position_of, room_areas};
use crate::state::{Change, GameState, Position, inside, round_to_5};

/// Where a push of `feet` away from `from` leaves `target` (ids): the `Change::Moved` and the
/// feet it went, or `None` when positions are not kept or the room leaves it no step.
pub(super) fn push(
    state: &GameState,
    from: &str,
    target: &str,
    feet: u32,
) -> Option<(Change, Position, u32)> {
    let (by, at) = (position_of(state, from)?, position_of(state, target)?);
    let areas = room_areas(state);
    let to = push_away(by, at, feet, |p| inside(areas, p));
    if to == at {
        return None;
    }
    let id = state.encounter.as_ref()?.slot(target)?.id.clone();
    // Feet as the fight counts them, never more than the push.
    let went = round_to_5(at.exact_distance(to)).clamp(1, feet);
    Some((Change::Moved { creature: id, to }, to, went))
}
