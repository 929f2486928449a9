//! Positions in a fight: distance, reach and range, cover, movement and the opportunity attacks
//! it provokes. The model of a room (areas at coordinates in feet, with height, cover and
//! difficult terrain) is `state::position`; this is what the rules make of it.
//!
//! - **Distance** between two combatants: the straight line between their points, height
//!   included, rounded to the nearest 5 ft, never under 5 ft ([`distance`]). In a room without
//!   areas no positions are kept and every distance is 5 ft: such rooms play as before.
//! - **Reach and range** ([`Reach`], [`attack_range`]): a melee attack needs the target within
//!   its reach (5 ft; 10 ft for a reach weapon or a monster's listed reach); a ranged attack
//!   within its long range, with disadvantage past its normal range and while a hostile that
//!   can act stands within 5 ft of the attacker; a thrown weapon is melee within reach, ranged
//!   beyond. Cover comes from the target's area when the attacker is not in it: half +2 AC,
//!   three-quarters +5, total: no attack ([`cover_against`], which also gives Dexterity saves
//!   their bonus and spells their total cover: `combat::targeting`).
//! - **Movement** ([`plan_move`], [`approach`]): a straight line to an area or toward a
//!   creature; feet cost double when the move starts or ends in difficult terrain; an area above
//!   the floor is only for fliers, and a walker moving toward a creature in the air goes
//!   beneath it. Leaving a hostile's reach provokes its opportunity attack (one reaction a
//!   round) unless the mover took the Disengage action this turn; only where the move starts
//!   and ends counts.
//!
//! The arithmetic of these rules is in `geometry` (pure functions the encounter simulator
//! calls too); this module applies it to the state and names what it refuses.

use serde::{Deserialize, Serialize};

use super::geometry::{self, NoShot, Shot};
use crate::srd::{ActionAttack, Srd};
use crate::state::{Area, CharacterAttack, Cover, GameState, Position, area_at};

/// Why an attack or a move is not allowed where the creatures stand. Each message says what is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A melee attack at a target beyond its reach.
    #[error(
        "{target} is {distance_ft} ft from {attacker}{}; {attack} reaches {reach_ft} ft: move closer with move_in_fight, or use an attack with range",
        height_note(*.height_ft)
    )]
    OutOfReach {
        /// Who attacks.
        attacker: String,
        /// Who is attacked.
        target: String,
        /// The attack.
        attack: String,
        /// Its reach.
        reach_ft: u32,
        /// How far the target is.
        distance_ft: u32,
        /// How far above the attacker the target is.
        height_ft: i32,
    },
    /// A ranged attack beyond its long range.
    #[error(
        "{target} is {distance_ft} ft from {attacker}; {attack} shoots {normal_ft} ft (up to {long_ft} ft with disadvantage): move closer with move_in_fight"
    )]
    BeyondRange {
        /// Who attacks.
        attacker: String,
        /// Who is attacked.
        target: String,
        /// The attack.
        attack: String,
        /// Its normal range.
        normal_ft: u32,
        /// Its long range.
        long_ft: u32,
        /// How far the target is.
        distance_ft: u32,
    },
    /// The target stands behind total cover.
    #[error(
        "{target} is behind total cover in {area}: no attack, spell or effect can target it directly from where {attacker} stands"
    )]
    TotalCover {
        /// Who attacks.
        attacker: String,
        /// Who is attacked.
        target: String,
        /// The area that covers it.
        area: String,
    },
    /// A spell at a creature beyond its range.
    #[error(
        "{target} is {distance_ft} ft from {caster}; {spell} reaches {reach_ft} ft (range {range}): move closer with move_in_fight, or name a creature within {reach_ft} ft"
    )]
    BeyondSpellRange {
        /// Who casts.
        caster: String,
        /// The creature named.
        target: String,
        /// The spell.
        spell: String,
        /// Its range, as the SRD states it.
        range: String,
        /// How far from the caster it reaches creatures (`srd::Spell::reach`).
        reach_ft: u32,
        /// How far the creature is.
        distance_ft: u32,
    },
    /// A spell with a range of Self at another creature.
    #[error(
        "{spell} has a range of Self: it affects only {caster}, so name no target or {caster} alone (not {target})"
    )]
    OnlyCaster {
        /// Who casts.
        caster: String,
        /// The creature named.
        target: String,
        /// The spell.
        spell: String,
    },
    /// Movement in feet outside a fight, or in a room without areas.
    #[error("{0}")]
    NoPositions(String),
    /// An area that does not exist here.
    #[error("no area {name:?} here; the areas are: {}", .known.join(", "))]
    UnknownArea {
        /// The name given.
        name: String,
        /// The room's areas.
        known: Vec<String>,
    },
    /// A walker asked to go up into the air.
    #[error("{mover} cannot fly, and {area} is {height_ft} ft up; move to an area on the floor ({})", .floor.join(", "))]
    CannotFly {
        /// Who moves.
        mover: String,
        /// The area.
        area: String,
        /// Its height.
        height_ft: i32,
        /// The areas on the floor.
        floor: Vec<String>,
    },
}

fn height_note(height_ft: i32) -> String {
    if height_ft > 5 {
        format!(" ({height_ft} ft up)")
    } else {
        String::new()
    }
}

/// How far an attack reaches: melee reach, ranged normal and long range, or both (a thrown
/// weapon is a melee attack within reach and a ranged one beyond).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reach {
    /// Melee reach in feet, for a melee attack.
    pub melee_ft: Option<u32>,
    /// Normal and long range in feet, for a ranged attack.
    pub range_ft: Option<(u32, u32)>,
}

impl Reach {
    /// A melee attack with this reach.
    pub const fn melee(reach_ft: u32) -> Reach {
        Reach {
            melee_ft: Some(reach_ft),
            range_ft: None,
        }
    }

    /// A ranged attack with this normal and long range.
    pub const fn ranged(normal_ft: u32, long_ft: u32) -> Reach {
        Reach {
            melee_ft: None,
            range_ft: Some((normal_ft, long_ft)),
        }
    }

    /// A character's attack: from the SRD weapon of that name (5 ft, 10 ft with the reach
    /// property; its range when thrown or ranged); otherwise from the sheet's `range_ft` (10 ft
    /// or less: melee with that reach; more: a spell's single range, normal and long alike).
    pub fn of_character_attack(srd: &Srd, attack: &CharacterAttack) -> Reach {
        if let Ok(weapon) = srd.weapon(&attack.name) {
            let has = |p: &str| weapon.properties.iter().any(|q| q.eq_ignore_ascii_case(p));
            return Reach {
                melee_ft: (!weapon.ranged).then_some(if has("reach") { 10 } else { 5 }),
                range_ft: weapon.range,
            };
        }
        if attack.range_ft <= 10 {
            Reach {
                melee_ft: Some(attack.range_ft.max(5)),
                range_ft: None,
            }
        } else {
            Reach {
                melee_ft: None,
                range_ft: Some((attack.range_ft, attack.range_ft)),
            }
        }
    }

    /// A monster's attack, from its stat block (`reach`, `range`); one with neither is melee
    /// at 5 ft.
    pub fn of_monster_attack(attack: &ActionAttack) -> Reach {
        Reach {
            melee_ft: attack.reach.or((attack.range.is_none()).then_some(5)),
            range_ft: attack.range,
        }
    }

    /// "5 ft", "30/120 ft", "5 ft or thrown 20/60 ft", for messages.
    pub fn describe(&self) -> String {
        match (self.melee_ft, self.range_ft) {
            (Some(m), Some((n, l))) => format!("reach {m} ft or thrown {n}/{l} ft"),
            (Some(m), None) => format!("reach {m} ft"),
            (None, Some((n, l))) if n == l => format!("range {n} ft"),
            (None, Some((n, l))) => format!("range {n}/{l} ft"),
            (None, None) => "reach 5 ft".into(),
        }
    }
}

/// What an attack in range meets: how far, whether it is made as a melee attack, the reasons
/// for disadvantage the positions give, and the target's cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeCheck {
    /// The distance in feet.
    pub distance_ft: u32,
    /// Made as a melee attack (within reach); otherwise ranged.
    pub melee: bool,
    /// "long range", "a hostile within 5 ft": each gives disadvantage.
    pub disadvantage: Vec<String>,
    /// The target's cover (never total: that is an error).
    pub cover: Cover,
}

impl RangeCheck {
    /// The bonus the cover adds to the target's AC.
    pub fn armor_bonus(&self) -> i32 {
        self.cover.armor_bonus().unwrap_or(0)
    }
}

/// Where a combatant stands: its kept position in a fight, if the room keeps positions.
pub fn position_of(state: &GameState, id: &str) -> Option<Position> {
    state.encounter.as_ref()?.position(id)
}

/// The distance in feet between two combatants: 5 ft when either has no position (a room
/// without areas, or no fight).
pub fn distance(state: &GameState, a: &str, b: &str) -> u32 {
    match (position_of(state, a), position_of(state, b)) {
        (Some(p), Some(q)) => p.distance(q),
        _ => 5,
    }
}

/// The areas of the room the party is in.
pub fn room_areas(state: &GameState) -> &[Area] {
    state
        .party_location()
        .map(|l| l.areas.as_slice())
        .unwrap_or_default()
}

/// The area a combatant stands in, if any.
pub fn area_of<'s>(state: &'s GameState, id: &str) -> Option<&'s Area> {
    area_at(room_areas(state), position_of(state, id)?)
}

/// Whether an attack with this reach can be made from `attacker` at `target` where they stand,
/// and what the positions add to it. `attack` names it in errors.
pub fn attack_range(
    state: &GameState,
    attacker: &str,
    target: &str,
    attack: &str,
    reach: Reach,
) -> Result<RangeCheck, PositionError> {
    let distance_ft = distance(state, attacker, target);
    let name = |id: &str| state.name_of(id);
    let mut check = RangeCheck {
        distance_ft,
        melee: false,
        disadvantage: Vec::new(),
        cover: Cover::None,
    };
    // The arithmetic is the shared rule (`geometry::shot`); this adds names and the state.
    match geometry::shot(reach, distance_ft) {
        Ok(Shot::Melee) => check.melee = true,
        Ok(Shot::Ranged { long_range }) => {
            if long_range {
                check
                    .disadvantage
                    .push(format!("long range ({distance_ft} ft)"));
            }
            if let Some(foe) = hostiles(state, attacker)
                .into_iter()
                .find(|h| geometry::crowds_a_shot(distance(state, attacker, h)))
            {
                check
                    .disadvantage
                    .push(format!("{} within 5 ft of a ranged attacker", name(&foe)));
            }
        }
        Err(NoShot::BeyondRange { normal_ft, long_ft }) => {
            return Err(PositionError::BeyondRange {
                attacker: name(attacker),
                target: name(target),
                attack: attack.to_owned(),
                normal_ft,
                long_ft,
                distance_ft,
            });
        }
        Err(NoShot::OutOfReach { reach_ft }) => {
            let height = match (position_of(state, attacker), position_of(state, target)) {
                (Some(a), Some(t)) => t.z - a.z,
                _ => 0,
            };
            return Err(PositionError::OutOfReach {
                attacker: name(attacker),
                target: name(target),
                attack: attack.to_owned(),
                reach_ft,
                distance_ft,
                height_ft: height,
            });
        }
    }
    check.cover = cover_against(state, attacker, target)?.map_or(Cover::None, |a| a.cover);
    Ok(check)
}

/// The area whose cover shields `target` from an attack or effect coming from `source`: the
/// target's area when the source is not in it and it gives cover (`None`: no cover). Total
/// cover is an error: nothing can target the creature directly. The one cover rule, for
/// attacks ([`attack_range`]) and for Dexterity saves (`combat::targeting`).
pub fn cover_against<'s>(
    state: &'s GameState,
    source: &str,
    target: &str,
) -> Result<Option<&'s Area>, PositionError> {
    // Inside stone (Meld into Stone): nothing reaches it, from anywhere.
    if let Some(e) = crate::state::melded(crate::state::timed_effects(state, target))
        && !source.eq_ignore_ascii_case(target)
    {
        return Err(PositionError::TotalCover {
            attacker: state.name_of(source),
            target: state.name_of(target),
            area: format!("the stone it melded into ({})", e.spell),
        });
    }
    let Some(area) = area_of(state, target).filter(|a| a.cover != Cover::None) else {
        return Ok(None);
    };
    if area_of(state, source).is_some_and(|a| a.id == area.id) {
        return Ok(None);
    }
    if area.cover == Cover::Total {
        return Err(PositionError::TotalCover {
            attacker: state.name_of(source),
            target: state.name_of(target),
            area: area.name.clone(),
        });
    }
    Ok(Some(area))
}

/// The combatants hostile to `id` that can still act: the party's side (characters and the
/// creatures summoned for them) against the monsters of the fight, and the monsters against
/// the party's side. Ids.
pub fn hostiles(state: &GameState, id: &str) -> Vec<String> {
    let Some(encounter) = &state.encounter else {
        return Vec::new();
    };
    let party_side =
        |x: &str| state.character(x).is_some() || state.monster(x).is_some_and(|m| m.is_summon());
    let mine = party_side(id);
    encounter
        .order
        .iter()
        .map(|s| s.id.clone())
        .filter(|other| party_side(other) != mine)
        .filter(|other| match state.character(other) {
            Some(c) => !c.dead && c.hp.current > 0 && c.conditions.can_act(),
            None => state
                .monster(other)
                .is_some_and(|m| m.is_alive() && m.conditions.can_act()),
        })
        .collect()
}

/// A combatant's melee attack for an opportunity attack: its name and reach (the longest
/// reach among its melee attacks; the first of them on a tie). `None` when it has none.
pub fn melee_attack(state: &GameState, srd: &Srd, id: &str) -> Option<(String, u32)> {
    if let Some(c) = state.character(id) {
        let attacks = c
            .attacks
            .iter()
            .filter_map(|a| Some((a.name.clone(), Reach::of_character_attack(srd, a).melee_ft?)));
        return geometry::longest_reach(attacks);
    }
    let m = state.monster(id)?;
    let template = srd.monster(&m.template).ok()?;
    geometry::longest_reach(template.actions.iter().filter_map(|a| {
        let reach = Reach::of_monster_attack(a.attack.as_ref()?);
        Some((a.name.clone(), reach.melee_ft?))
    }))
}

/// Where a move goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destination<'a> {
    /// An area of the room, by id or name.
    Area(&'a str),
    /// Toward a creature, stopping within this many feet of it (5 for melee).
    Toward(&'a str, u32),
}

/// A move worked out from the positions: where from and to, how far, what it costs, and who
/// gets an opportunity attack as the mover leaves its reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The mover's id.
    pub mover: String,
    /// Where it starts.
    pub from: Position,
    /// Where it ends.
    pub to: Position,
    /// Feet travelled.
    pub feet: u32,
    /// Feet of movement it costs (double in difficult terrain).
    pub cost_ft: u32,
    /// Whether difficult terrain doubled the cost.
    pub difficult: bool,
    /// The hostiles whose reach it leaves and who may make an opportunity attack (they still
    /// need their reaction), with the attack each would make; empty after Disengage.
    pub provokes: Vec<(String, String)>,
}

/// Works out a move for `mover` to `to`, going at most `feet` (the whole way when `None`). It
/// checks where the mover may go, not whether its turn has the feet: that is the gate's
/// (`may_act` with `Spend::Movement(cost_ft)`).
pub fn plan_move(
    state: &GameState,
    srd: &Srd,
    mover: &str,
    to: Destination<'_>,
    feet: Option<u32>,
) -> Result<Move, PositionError> {
    let areas = room_areas(state);
    let Some(encounter) = &state.encounter else {
        return Err(PositionError::NoPositions(
            "movement in feet is kept only in a fight; outside one, move_to takes the party through an exit".into(),
        ));
    };
    if areas.is_empty() {
        return Err(PositionError::NoPositions(
            "this room has no areas: everyone in it stands within 5 ft of everyone else, so attack without moving".into(),
        ));
    }
    let id = encounter
        .slot(mover)
        .map(|s| s.id.clone())
        .unwrap_or_else(|| mover.to_owned());
    let from = position_of(state, &id).unwrap_or_else(|| areas[0].position());
    let flies = flies(state, srd, &id);
    let (goal, stop_short) = match to {
        Destination::Area(name) => {
            let area = areas
                .iter()
                .find(|a| a.id.eq_ignore_ascii_case(name) || a.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| PositionError::UnknownArea {
                    name: name.to_owned(),
                    known: areas.iter().map(|a| a.id.clone()).collect(),
                })?;
            if area.z > 0 && !flies {
                return Err(PositionError::CannotFly {
                    mover: state.name_of(&id),
                    area: area.name.clone(),
                    height_ft: area.z,
                    floor: areas
                        .iter()
                        .filter(|a| a.z == 0)
                        .map(|a| a.id.clone())
                        .collect(),
                });
            }
            (area.position(), 0)
        }
        Destination::Toward(target, within) => {
            let at = position_of(state, target).unwrap_or(from);
            let goal = if flies {
                at
            } else {
                Position { z: from.z, ..at }
            };
            (goal, within.max(5))
        }
    };
    let (to, travelled) = geometry::step_toward(from, goal, stop_short, feet);
    Ok(finish_move(state, srd, &id, from, to, travelled))
}

/// A move toward `target` as far as `mover`'s movement left this turn allows, stopping within
/// `within_ft` of it (its reach, or a range it wants): for a monster's plan. `None` when the
/// room keeps no positions, no fight runs, it is not the mover's turn, it is already close
/// enough, or it has no movement left. Its cost fits the movement left.
pub fn approach(
    state: &GameState,
    srd: &Srd,
    mover: &str,
    target: &str,
    within_ft: u32,
) -> Option<Move> {
    let encounter = state.encounter.as_ref()?;
    let slot = encounter.slot(mover)?;
    if !encounter.current()?.eq_ignore_ascii_case(&slot.id) {
        return None;
    }
    let left = encounter
        .budget
        .movement_left(crate::state::speed_now(state, &slot.id, slot.speed));
    // The movement decision is the shared one (a monster closes to its melee reach).
    let decided = geometry::movement(
        Reach::melee(within_ft),
        distance(state, mover, target),
        true,
        left,
    );
    if !matches!(decided, geometry::Movement::Toward { .. }) || left == 0 {
        return None;
    }
    let toward = Destination::Toward(target, within_ft);
    let mut planned = plan_move(state, srd, mover, toward, None).ok()?;
    // Shorten it to fit: half as far when difficult terrain doubles the cost.
    for feet in [left, left / 2] {
        if planned.cost_ft <= left {
            break;
        }
        planned = plan_move(state, srd, mover, toward, Some(feet / 5 * 5)).ok()?;
    }
    (planned.cost_ft <= left && planned.feet > 0).then_some(planned)
}

/// The cost and provoked attacks of a straight move of `feet` feet from `from` to `to`.
fn finish_move(
    state: &GameState,
    srd: &Srd,
    id: &str,
    from: Position,
    to: Position,
    feet: u32,
) -> Move {
    let areas = room_areas(state);
    let difficult = feet > 0
        && [from, to]
            .iter()
            .any(|p| area_at(areas, *p).is_some_and(|a| a.difficult_terrain));
    let disengaged = state.encounter.as_ref().is_some_and(|e| {
        e.current().is_some_and(|c| c.eq_ignore_ascii_case(id)) && e.budget.disengaged
    });
    let provokes = if feet == 0 {
        Vec::new()
    } else {
        hostiles(state, id)
            .into_iter()
            .filter_map(|h| {
                let (attack, reach) = melee_attack(state, srd, &h)?;
                let at = position_of(state, &h)?;
                let nearest = geometry::nearest_on_path(from, to, at);
                geometry::provokes(nearest, to.distance(at), reach, disengaged)
                    .then_some((h, attack))
            })
            .collect()
    };
    // Areas that last may make part of the way difficult (Spike Growth, Spirit Guardians).
    let in_zones = if difficult {
        0
    } else {
        crate::effects::difficult_feet(state, srd, id, from, to)
    };
    Move {
        mover: id.to_owned(),
        from,
        to,
        feet,
        cost_ft: if difficult { feet * 2 } else { feet + in_zones },
        difficult: difficult || in_zones > 0,
        provokes,
    }
}

/// Whether a combatant can fly: a monster with a flying speed, or anyone a spell lets fly (Fly,
/// Gaseous Form: `state::flies_by_magic`); otherwise characters walk.
pub fn flies(state: &GameState, srd: &Srd, id: &str) -> bool {
    crate::state::flies_by_magic(crate::state::timed_effects(state, id))
        || state
            .monster(id)
            .and_then(|m| srd.monster(&m.template).ok())
            .is_some_and(|t| t.speed.fly > 0)
}
