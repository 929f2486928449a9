//! The arithmetic of positions as pure functions over plain numbers: whether an attack reaches,
//! what a move provokes, how far a straight move goes, and where a combatant wants to stand.
//!
//! The game asks them through `GameState` wrappers ([`super::positions::attack_range`],
//! [`super::positions::plan_move`], the encounter's speeds); the encounter simulator asks them
//! directly for thousands of fights, without building a state. One rule, one place: a change
//! here changes both the game and the odds the simulator reports.

use super::positions::Reach;
use crate::srd::Speed;
use crate::state::{Position, round_to_5};

/// How an attack can be made at a distance (see [`shot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shot {
    /// Within melee reach: a melee attack.
    Melee,
    /// Within long range: a ranged attack, with disadvantage past the normal range.
    Ranged {
        /// Past the normal range (disadvantage).
        long_range: bool,
    },
}

/// Why an attack cannot be made at a distance (see [`shot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoShot {
    /// A melee-only attack beyond its reach.
    OutOfReach {
        /// Its reach in feet.
        reach_ft: u32,
    },
    /// A ranged attack beyond its long range.
    BeyondRange {
        /// Its normal range in feet.
        normal_ft: u32,
        /// Its long range in feet.
        long_ft: u32,
    },
}

/// The reach and range rule: a target within melee reach is attacked in melee; otherwise an
/// attack with a range reaches out to its long range, with disadvantage past its normal range;
/// beyond that, or beyond the reach of a melee-only attack, there is no attack.
pub fn shot(reach: Reach, distance_ft: u32) -> Result<Shot, NoShot> {
    match (reach.melee_ft, reach.range_ft) {
        (Some(r), _) if distance_ft <= r => Ok(Shot::Melee),
        (_, Some((normal_ft, long_ft))) if distance_ft > long_ft => {
            Err(NoShot::BeyondRange { normal_ft, long_ft })
        }
        (_, Some((normal_ft, _))) => Ok(Shot::Ranged {
            long_range: distance_ft > normal_ft,
        }),
        (melee, None) => Err(NoShot::OutOfReach {
            reach_ft: melee.unwrap_or(5),
        }),
    }
}

/// Whether a hostile this far from a ranged attacker gives its ranged attacks disadvantage
/// (it stands within 5 ft; the caller checks that it can act).
pub fn crowds_a_shot(hostile_distance_ft: u32) -> bool {
    hostile_distance_ft <= 5
}

/// Whether a shot has disadvantage from where the creatures stand: past its normal range, or
/// with a hostile that can act within 5 ft of the shooter (`nearest_hostile_ft`).
pub fn shot_has_disadvantage(shot: Shot, nearest_hostile_ft: Option<u32>) -> bool {
    match shot {
        Shot::Melee => false,
        Shot::Ranged { long_range } => long_range || nearest_hostile_ft.is_some_and(crowds_a_shot),
    }
}

/// The opportunity attack rule: a move provokes a hostile with melee reach `reach_ft` when it
/// is within that reach at some point (`nearest_ft`: where it starts, or the closest it passes)
/// and ends beyond it, unless the mover took the Disengage action.
pub fn provokes(nearest_ft: u32, to_ft: u32, reach_ft: u32, disengaged: bool) -> bool {
    !disengaged && nearest_ft <= reach_ft && to_ft > reach_ft
}

/// How close a straight move from `from` to `to` comes to `point`, in feet as creatures'
/// distances are counted (`Position::distance`: rounded to 5 ft, at least 5): a move that runs
/// past a foe comes within its reach even though it starts and ends beyond.
pub fn nearest_on_path(from: Position, to: Position, point: Position) -> u32 {
    let (a, b, p) = (from.coords(), to.coords(), point.coords());
    let along = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let length_sq: f64 = along.iter().map(|d| d * d).sum();
    let t = if length_sq == 0.0 {
        0.0
    } else {
        let dot: f64 = (0..3).map(|i| (p[i] - a[i]) * along[i]).sum();
        (dot / length_sq).clamp(0.0, 1.0)
    };
    let gap: f64 = (0..3)
        .map(|i| (a[i] + t * along[i] - p[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    round_to_5(gap).max(5)
}

/// The attack a creature makes as an opportunity attack, among its melee attacks with their
/// reach: the longest reach, the first of them on a tie. `None` when it has no melee attack.
pub fn longest_reach<T>(melee: impl IntoIterator<Item = (T, u32)>) -> Option<(T, u32)> {
    melee.into_iter().fold(None, |best, next| match best {
        Some(b) if b.1 >= next.1 => Some(b),
        _ => Some(next),
    })
}

/// A straight move from `from` toward `goal`, stopping `stop_short_ft` before it and going at
/// most `max_ft` (the whole way when `None`): where it ends and the feet it covers (rounded to
/// 5 ft, at least 5 when it moves at all).
pub fn step_toward(
    from: Position,
    goal: Position,
    stop_short_ft: u32,
    max_ft: Option<u32>,
) -> (Position, u32) {
    let length = from.exact_distance(goal);
    let mut travel = (length - f64::from(stop_short_ft)).max(0.0);
    if let Some(max) = max_ft {
        travel = travel.min(f64::from(max));
    }
    let to = if length <= f64::EPSILON || travel >= length {
        if travel <= f64::EPSILON { from } else { goal }
    } else {
        let t = travel / length;
        let lerp =
            |a: i32, b: i32| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as i32;
        Position {
            x: lerp(from.x, goal.x),
            y: lerp(from.y, goal.y),
            z: lerp(from.z, goal.z),
        }
    };
    let feet = if to == from {
        0
    } else {
        round_to_5(travel).max(5)
    };
    (to, feet)
}

/// Where a shove's push leaves its target: `feet` directly away from the shover along the
/// floor (its height never changes: a push lifts no one into the air), or as far as stays
/// `inside` the room, or where it stands when no step does. When the shover stands right above
/// or at the target's point there is no "away" along the floor: the push goes east, north, west
/// or south, the first of them that stays inside.
pub fn push_away(
    shover: Position,
    target: Position,
    feet: u32,
    inside: impl Fn(Position) -> bool,
) -> Position {
    let (dx, dy) = (
        f64::from(target.x) - f64::from(shover.x),
        f64::from(target.y) - f64::from(shover.y),
    );
    let length = dx.hypot(dy);
    let directions: Vec<(f64, f64)> = if length > f64::EPSILON {
        vec![(dx / length, dy / length)]
    } else {
        vec![(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
    };
    for (ux, uy) in directions {
        for f in (1..=feet).rev() {
            let step = |u: f64| (u * f64::from(f)).round() as i32;
            let to = Position {
                x: target.x + step(ux),
                y: target.y + step(uy),
                z: target.z,
            };
            if to != target && inside(to) {
                return to;
            }
        }
    }
    target
}

/// Where a combatant wants to stand against its target (see [`movement`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Movement {
    /// It attacks from where it stands.
    Stay,
    /// It moves toward its target until within this many feet.
    Toward {
        /// How close it stops.
        within_ft: u32,
    },
    /// It steps back to keep its distance, at most this many feet (its speed, and no farther
    /// than keeps its target within normal range).
    Away {
        /// How far it goes at most.
        max_ft: u32,
    },
}

/// How close a mover goes to its target: within its melee reach when it has a melee attack,
/// else within its normal range, else 5 ft.
pub fn stop_within(reach: Reach) -> u32 {
    match (reach.melee_ft, reach.range_ft) {
        (Some(r), _) => r,
        (None, Some((normal, _))) => normal,
        (None, None) => 5,
    }
}

/// The movement decision, for a combatant with an attack of this `reach`, `target_ft` from its
/// target, moving `speed_ft`: a melee attacker closes to its reach; a ranged attacker closes to
/// its normal range, and when its target is already within it and no hostile has it within
/// reach (`threatened`; stepping away would provoke), it keeps its distance by stepping back
/// (kiting), as far as its speed goes and its target stays within normal range.
pub fn movement(reach: Reach, target_ft: u32, threatened: bool, speed_ft: u32) -> Movement {
    let within_ft = stop_within(reach);
    if target_ft > within_ft {
        return Movement::Toward { within_ft };
    }
    match (reach.melee_ft, reach.range_ft) {
        (None, Some((normal, _))) if !threatened => {
            let max_ft = speed_ft.min(normal - target_ft) / 5 * 5;
            if max_ft > 0 {
                Movement::Away { max_ft }
            } else {
                Movement::Stay
            }
        }
        _ => Movement::Stay,
    }
}

/// The speed a monster moves at in a fight: a flier moves at its flying speed (and may go up),
/// otherwise it walks.
pub fn fighting_speed(speed: &Speed) -> u32 {
    speed.walk.max(speed.fly)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCIMITAR: Reach = Reach {
        melee_ft: Some(5),
        range_ft: None,
    };
    const SHORTBOW: Reach = Reach {
        melee_ft: None,
        range_ft: Some((80, 320)),
    };
    const DAGGER: Reach = Reach {
        melee_ft: Some(5),
        range_ft: Some((20, 60)),
    };

    #[test]
    fn reach_and_range() {
        assert_eq!(shot(SCIMITAR, 5), Ok(Shot::Melee));
        assert_eq!(shot(SCIMITAR, 10), Err(NoShot::OutOfReach { reach_ft: 5 }));
        assert_eq!(shot(SHORTBOW, 80), Ok(Shot::Ranged { long_range: false }));
        assert_eq!(shot(SHORTBOW, 85), Ok(Shot::Ranged { long_range: true }));
        assert_eq!(
            shot(SHORTBOW, 325),
            Err(NoShot::BeyondRange {
                normal_ft: 80,
                long_ft: 320
            })
        );
        // A thrown dagger: melee within reach, ranged beyond.
        assert_eq!(shot(DAGGER, 5), Ok(Shot::Melee));
        assert_eq!(shot(DAGGER, 30), Ok(Shot::Ranged { long_range: true }));
    }

    #[test]
    fn disadvantage_past_normal_range_or_with_a_hostile_close() {
        let near = Shot::Ranged { long_range: false };
        assert!(!shot_has_disadvantage(near, None));
        assert!(!shot_has_disadvantage(near, Some(10)));
        assert!(shot_has_disadvantage(near, Some(5)));
        assert!(shot_has_disadvantage(
            Shot::Ranged { long_range: true },
            None
        ));
        assert!(!shot_has_disadvantage(Shot::Melee, Some(5)));
    }

    #[test]
    fn running_past_a_foe_comes_within_its_reach_on_the_way() {
        let at = |x, y| Position { x, y, z: 0 };
        // From 20 ft west of the foe to 20 ft east, 5 ft to its side: within 5 ft halfway.
        let (from, to, foe) = (at(0, 0), at(40, 0), at(20, 5));
        assert_eq!(from.distance(foe), 20);
        assert_eq!(to.distance(foe), 20);
        assert_eq!(nearest_on_path(from, to, foe), 5);
        assert!(provokes(
            nearest_on_path(from, to, foe),
            to.distance(foe),
            5,
            false
        ));
        assert!(!provokes(
            nearest_on_path(from, to, foe),
            to.distance(foe),
            5,
            true
        ));
        // 15 ft to its side the whole way: never within reach.
        let wide = at(20, 15);
        assert_eq!(nearest_on_path(from, to, wide), 15);
        assert!(!provokes(
            nearest_on_path(from, to, wide),
            to.distance(wide),
            5,
            false
        ));
        // A move that stops before the foe measures from where it ends.
        assert_eq!(nearest_on_path(from, at(10, 0), foe), 10);
    }

    #[test]
    fn leaving_reach_provokes_unless_disengaged() {
        assert!(provokes(5, 10, 5, false));
        assert!(!provokes(5, 10, 5, true));
        assert!(!provokes(5, 10, 10, false), "still within a 10 ft reach");
        assert!(!provokes(15, 5, 5, false), "moving in provokes nothing");
    }

    #[test]
    fn a_straight_move_stops_short_and_within_its_feet() {
        let at = |x| Position { x, y: 0, z: 0 };
        assert_eq!(step_toward(at(0), at(60), 5, Some(30)), (at(30), 30));
        assert_eq!(step_toward(at(0), at(30), 5, Some(30)), (at(25), 25));
        assert_eq!(step_toward(at(0), at(5), 5, None), (at(0), 0));
        assert_eq!(step_toward(at(0), at(-40), 0, Some(15)), (at(-15), 15));
    }

    #[test]
    fn a_push_goes_straight_away_along_the_floor_and_stays_in_the_room() {
        let p = |x, y, z| Position { x, y, z };
        let anywhere = |_: Position| true;
        assert_eq!(push_away(p(0, 0, 0), p(5, 0, 0), 5, anywhere), p(10, 0, 0));
        // Diagonally away: 3.5 ft along each axis, rounded.
        assert_eq!(push_away(p(0, 0, 0), p(5, 5, 0), 5, anywhere), p(9, 9, 0));
        // A harpy diving from above pushes along the floor, never up or down.
        assert_eq!(push_away(p(0, 0, 30), p(5, 0, 0), 5, anywhere), p(10, 0, 0));
        // The room ends at x = 12: only 2 ft of the push fit.
        let room = |at: Position| at.x <= 12;
        assert_eq!(push_away(p(0, 0, 0), p(10, 0, 0), 5, room), p(12, 0, 0));
        assert_eq!(push_away(p(0, 0, 0), p(12, 0, 0), 5, room), p(12, 0, 0));
        // Same spot: east first, north when east is the wall.
        assert_eq!(push_away(p(3, 3, 0), p(3, 3, 0), 5, anywhere), p(8, 3, 0));
        let west_wall = |at: Position| at.x <= 3;
        assert_eq!(push_away(p(3, 3, 0), p(3, 3, 0), 5, west_wall), p(3, 8, 0));
    }

    #[test]
    fn melee_closes_and_ranged_keeps_its_distance() {
        assert_eq!(
            movement(SCIMITAR, 60, false, 30),
            Movement::Toward { within_ft: 5 }
        );
        assert_eq!(movement(SCIMITAR, 5, true, 30), Movement::Stay);
        assert_eq!(
            movement(SHORTBOW, 100, false, 30),
            Movement::Toward { within_ft: 80 }
        );
        assert_eq!(
            movement(SHORTBOW, 10, false, 30),
            Movement::Away { max_ft: 30 }
        );
        assert_eq!(
            movement(SHORTBOW, 65, false, 30),
            Movement::Away { max_ft: 15 }
        );
        assert_eq!(movement(SHORTBOW, 5, true, 30), Movement::Stay);
        assert_eq!(movement(SHORTBOW, 80, false, 30), Movement::Stay);
    }
}
