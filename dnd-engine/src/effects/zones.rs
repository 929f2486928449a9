//! Areas that last ([`Effect::Zone`]): Moonbeam's beam, Spirit Guardians' spirits, Spike
//! Growth's thorns, Web's webs, Call Lightning's storm, Flaming Sphere, Heat Metal's glowing
//! metal. A casting starts one `state::TimedKind::Zone` on its caster (where it stands, the
//! creatures it was fixed on, the slot), which ends with the caster's concentration or its
//! duration like any timed effect. The spell's other effects are what the zone does to a
//! creature it catches, resolved by the same interpreter ([`super::resolve`]) when:
//!
//! - a creature starts its turn in it (`turn_start`) or ends its turn in it (`turn_end`);
//! - a creature moves into it (`entering`), or moves inside it (`per_5_ft`: once per 5 ft);
//!   entering and starting a turn count only the first time on a turn;
//! - the caster uses it again on a later turn ([`Again`]): a new bolt anywhere in the spell's
//!   range, the same creatures again, the area moved (the creatures it moves onto caught as
//!   they enter), or rammed into a creature.
//!
//! Moving inside a `difficult` zone costs 2 ft a foot ([`difficult_feet`], which
//! `combat::positions` adds to a move's cost). The rules of where and when live here; `tools::spell_zones` finds the moments (turn
//! boundaries, a move, `cast_spell` with `again`) and commits through the one path.

use serde::{Deserialize, Serialize};

use super::casting::Casting;
use super::vocabulary::{Duration, Effect};
use crate::combat::areas::{Aim, Shape, covers};
use crate::combat::positions::position_of;
use crate::srd::{Spell, Srd};
use crate::state::{Change, GameState, Position, TimedEffect, TimedKind, ZoneKept, round_to_5};

/// What makes an area last, and when it catches a creature (the data of [`Effect::Zone`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneRules {
    /// For how long.
    pub duration: Duration,
    /// The casting itself does the spell's other effects to whom it covers (Call Lightning's
    /// first bolt, Web, Heat Metal); otherwise the casting only starts the zone (Moonbeam).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_cast: bool,
    /// A creature starting its turn in it is caught.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn_start: bool,
    /// A creature ending its turn in it is caught (Flaming Sphere: within 5 ft of it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn_end: bool,
    /// A creature moving into it is caught.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entering: bool,
    /// A creature moving in it is caught once for each 5 ft it moves there (Spike Growth).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_5_ft: bool,
    /// Each foot moved inside costs 2 (difficult terrain: Spike Growth, Web, Sleet Storm;
    /// Spirit Guardians' speed halved in the area), for the creatures it does not spare.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub difficult: bool,
    /// Centred on the caster and moving with it (Spirit Guardians).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_caster: bool,
    /// The caster and the creatures of its side are never caught (Spirit Guardians).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spares_allies: bool,
    /// What the caster may do with it on a later turn, with `cast_spell`'s `again`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub again: Option<Again>,
}

/// What a caster does with a zone again, and what it spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Again {
    /// What it does.
    pub does: AgainDoes,
    /// A bonus action rather than the action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bonus_action: bool,
    /// How far the zone moves at most (`move`, `ram`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feet: Option<u32>,
}

/// The ways a zone is used again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgainDoes {
    /// The spell's area again, aimed anew within its range (Call Lightning's bolt).
    Strike,
    /// The same creatures again (Heat Metal).
    SameCreatures,
    /// The area moves to the aim; the creatures it moves onto are caught as they enter
    /// (Moonbeam).
    Move,
    /// The area moves; aimed at a creature, it rams it, which is caught (Flaming Sphere).
    Ram,
}

/// The zone rules of an effect list, if it makes an area last.
pub fn zone_rules(effects: &[Effect]) -> Option<&ZoneRules> {
    effects.iter().find_map(|e| match e {
        Effect::Zone(rules) => Some(rules),
        _ => None,
    })
}

/// What the zone does to a creature it catches: the list without the zone itself.
pub fn caught_effects(effects: &[Effect]) -> Vec<Effect> {
    effects
        .iter()
        .filter(|e| !matches!(e, Effect::Zone(_)))
        .cloned()
        .collect()
}

/// What a casting of `effects` does at once: everything but the zone, or nothing beyond
/// starting it when the zone does its work only later (Moonbeam).
pub fn casting_effects(effects: &[Effect]) -> Vec<Effect> {
    match zone_rules(effects) {
        Some(rules) if !rules.at_cast => Vec::new(),
        _ => caught_effects(effects),
    }
}

/// The zone a casting starts on its caster: centred on `at` (the aim; `None` where no
/// positions are kept, or on the caster), fixed on the creatures `on` (ids).
pub fn start_zone(
    casting: Casting<'_>,
    rules: &ZoneRules,
    at: Option<Position>,
    on: Vec<String>,
) -> Change {
    let caster = &casting.caster.id;
    Change::TimedEffectStarted {
        effect: TimedEffect {
            source: caster.clone(),
            spell: casting.source.to_owned(),
            target: caster.clone(),
            concentration: casting.concentration,
            rounds_left: rules.duration.rounds(),
            ends_on_damage: false,
            level: casting.slot,
            at_turn_end: rules.duration.at_turn_end(),
            kind: TimedKind::Zone(Box::new(ZoneKept {
                slot: casting.slot,
                at: if rules.on_caster { None } else { at },
                on,
                caught: Vec::new(),
                caught_in: None,
            })),
        },
    }
}

/// The zone of `spell` that `caster` (an id) keeps, if it is in play.
pub fn zone_of<'s>(state: &'s GameState, caster: &str, spell: &str) -> Option<&'s TimedEffect> {
    crate::state::timed_effects(state, caster).iter().find(|e| {
        matches!(e.kind, TimedKind::Zone(_))
            && e.source.eq_ignore_ascii_case(caster)
            && e.spell.eq_ignore_ascii_case(spell)
    })
}

/// Every zone in play, on whoever keeps it, with its spell and the spell's zone rules (a zone
/// of a spell `srd` does not know, or that no longer says how it lasts, is left out).
pub fn zones<'s>(state: &GameState, srd: &'s Srd) -> Vec<(TimedEffect, &'s Spell, &'s ZoneRules)> {
    state
        .characters
        .iter()
        .flat_map(|c| &c.timed_effects)
        .chain(state.monsters.iter().flat_map(|m| &m.timed_effects))
        .filter(|e| matches!(e.kind, TimedKind::Zone(_)))
        .filter_map(|zone| {
            let spell = srd.spell_named(&zone.spell)?;
            let rules = zone_rules(&spell.effects)?;
            Some((zone.clone(), spell, rules))
        })
        .collect()
}

/// Where a zone is, as the area functions take it: its shape, size and aim. `None` for a zone
/// without a place (no positions kept, or a spell without an area: Heat Metal).
pub fn placed(state: &GameState, zone: &TimedEffect, spell: &Spell) -> Option<(Shape, u32, Aim)> {
    let area = spell.area.as_ref()?;
    let shape = Shape::parse(&area.shape)?;
    let ZoneKept { at, .. } = zone.kind.zone()?;
    let centre = match at {
        Some(at) => *at,
        None => position_of(state, &zone.source)?,
    };
    Some((shape, area.size, Aim::Centred(centre)))
}

/// Whether the zone `zone` of `spell` catches the creature `id` standing at `point` (its
/// position now when `None`): inside the area where positions are kept, else one of the
/// creatures it was fixed on; never its caster or, when it spares them, the caster's side.
pub fn catches(
    state: &GameState,
    zone: &TimedEffect,
    spell: &Spell,
    id: &str,
    point: Option<Position>,
) -> bool {
    if spared(state, zone, spell, id) {
        return false;
    }
    let Some(ZoneKept { on, .. }) = zone.kind.zone() else {
        return false;
    };
    match (
        placed(state, zone, spell),
        point.or_else(|| position_of(state, id)),
    ) {
        (Some((shape, size, aim)), Some(point)) => covers(shape, size, aim, point),
        _ => on.iter().any(|o| o.eq_ignore_ascii_case(id)),
    }
}

/// Whether a zone leaves `id` alone whatever it stands in: its caster, when the zone is on
/// it, and the caster's side where the spell spares allies.
fn spared(state: &GameState, zone: &TimedEffect, spell: &Spell, id: &str) -> bool {
    let Some(rules) = zone_rules(&spell.effects) else {
        return true;
    };
    if rules.on_caster && id.eq_ignore_ascii_case(&zone.source) {
        return true;
    }
    rules.spares_allies && state.character(id).is_some() == state.character(&zone.source).is_some()
}

/// How many 5-ft steps of a straight move from `from` to `to` end inside the zone (Spike
/// Growth's thorns): the points every 5 ft along the way, the start left out.
pub fn steps_inside(
    state: &GameState,
    zone: &TimedEffect,
    spell: &Spell,
    id: &str,
    from: Position,
    to: Position,
) -> u32 {
    if spared(state, zone, spell, id) {
        return 0;
    }
    let Some((shape, size, aim)) = placed(state, zone, spell) else {
        return 0;
    };
    let feet = round_to_5(from.exact_distance(to));
    let steps = feet / 5;
    (1..=steps)
        .filter(|&i| covers(shape, size, aim, step_point(from, to, i, steps)))
        .count() as u32
}

/// The feet of a straight move of `id` from `from` to `to` that lie in zones where moving
/// costs double ([`ZoneRules::difficult`]): what the move costs beyond its feet, 5 ft for
/// each 5-ft step that ends inside one (once, however many zones overlap there).
pub fn difficult_feet(state: &GameState, srd: &Srd, id: &str, from: Position, to: Position) -> u32 {
    let mut slowing = zones(state, srd);
    slowing.retain(|(_, _, rules)| rules.difficult);
    if slowing.is_empty() {
        return 0;
    }
    let steps = round_to_5(from.exact_distance(to)) / 5;
    (1..=steps)
        .filter(|&i| {
            let point = step_point(from, to, i, steps);
            slowing
                .iter()
                .any(|(z, spell, _)| catches(state, z, spell, id, Some(point)))
        })
        .count() as u32
        * 5
}

/// The point `i` steps of `steps` along a straight move from `from` to `to`.
fn step_point(from: Position, to: Position, i: u32, steps: u32) -> Position {
    let t = f64::from(i) / f64::from(steps);
    let lerp = |a: i32, b: i32| a + (f64::from(b - a) * t).round() as i32;
    Position {
        x: lerp(from.x, to.x),
        y: lerp(from.y, to.y),
        z: lerp(from.z, to.z),
    }
}

/// Why a zone cannot move from `at` to `to` (`Err` with the distance) when `again` limits how
/// far it goes; anything goes where no positions are kept.
pub fn may_move(again: Again, at: Option<Position>, to: Option<Position>) -> Result<(), u32> {
    let (Some(limit), Some(at), Some(to)) = (again.feet, at, to) else {
        return Ok(());
    };
    let distance = round_to_5(at.exact_distance(to));
    if distance <= limit {
        Ok(())
    } else {
        Err(distance)
    }
}

/// The fight's turn now, as a zone counts "the first time on a turn": (round, turn index).
pub fn turn_now(state: &GameState) -> Option<(u32, usize)> {
    state.encounter.as_ref().map(|e| (e.round, e.turn))
}

/// Whether `id` has not yet been caught by `zone` on entering or starting a turn during the
/// turn `now` (always, outside a fight).
pub fn first_this_turn(zone: &TimedEffect, id: &str, now: Option<(u32, usize)>) -> bool {
    match zone.kind.zone() {
        Some(ZoneKept {
            caught, caught_in, ..
        }) => {
            now.is_none() || *caught_in != now || !caught.iter().any(|c| c.eq_ignore_ascii_case(id))
        }
        None => true,
    }
}

/// `zone` moved to `to` (when `Some`), fixed on `on` (when `Some`: where no positions are
/// kept), and with `ids` recorded as caught during the turn `now`; its time runs on.
pub fn updated(
    zone: &TimedEffect,
    to: Option<Position>,
    on: Option<Vec<String>>,
    ids: &[String],
    now: Option<(u32, usize)>,
) -> TimedEffect {
    let mut effect = zone.clone();
    if let Some(ZoneKept {
        at,
        on: fixed,
        caught,
        caught_in,
        ..
    }) = effect.kind.zone_mut()
    {
        if to.is_some() {
            *at = to;
        }
        if let Some(on) = on {
            *fixed = on;
        }
        if *caught_in != now {
            caught.clear();
            *caught_in = now;
        }
        for id in ids {
            if !caught.iter().any(|c| c.eq_ignore_ascii_case(id)) {
                caught.push(id.clone());
            }
        }
        if now.is_none() {
            caught.clear();
        }
    }
    effect
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::{SlotDuration, vocabulary::Duration};

    fn at(x: i32) -> Option<Position> {
        Some(Position { x, y: 0, z: 0 })
    }

    fn zone() -> TimedEffect {
        TimedEffect {
            source: "hedda".into(),
            spell: "Moonbeam".into(),
            target: "hedda".into(),
            concentration: true,
            rounds_left: Some(10),
            ends_on_damage: false,
            level: 2,
            at_turn_end: false,
            kind: TimedKind::Zone(Box::new(ZoneKept {
                slot: 2,
                at: at(30),
                on: Vec::new(),
                caught: Vec::new(),
                caught_in: None,
            })),
        }
    }

    #[test]
    fn a_zone_moves_as_far_as_its_data_says_and_anywhere_without_positions() {
        let moonbeam = Again {
            does: AgainDoes::Move,
            bonus_action: false,
            feet: Some(60),
        };
        assert_eq!(may_move(moonbeam, at(30), at(90)), Ok(()));
        assert_eq!(may_move(moonbeam, at(30), at(95)), Err(65));
        assert_eq!(may_move(moonbeam, None, at(500)), Ok(()));
        let bolt = Again {
            feet: None,
            ..moonbeam
        };
        assert_eq!(may_move(bolt, at(0), at(500)), Ok(()));
    }

    #[test]
    fn a_creature_is_caught_once_a_turn_and_again_the_next() {
        let first = zone();
        let now = Some((1, 1));
        assert!(first_this_turn(&first, "kraven", now));
        let caught = updated(&first, None, None, &["kraven".into()], now);
        assert!(!first_this_turn(&caught, "Kraven", now), "any case");
        assert!(first_this_turn(&caught, "frost-harpy", now));
        assert!(
            first_this_turn(&caught, "kraven", Some((1, 2))),
            "a new turn"
        );
        // Recording on a new turn forgets the old one's; moving keeps its time.
        let later = updated(&caught, at(60), None, &["frost-harpy".into()], Some((1, 2)));
        assert!(first_this_turn(&later, "kraven", Some((1, 2))));
        assert_eq!(later.rounds_left, Some(10));
        assert!(matches!(later.kind.zone(), Some(ZoneKept { at: Some(p), .. }) if p.x == 60));
    }

    #[test]
    fn the_data_says_when_a_zone_catches_and_the_casting_does_only_what_it_should() {
        let moonbeam: Vec<Effect> = serde_json::from_str(
            r#"[{"effect": "save", "ability": "constitution", "on_success": "half", "on_fail": [
                  {"effect": "damage", "dice": {"count": 2, "sides": 10}, "damage_type": "radiant"}]},
                {"effect": "zone", "duration": {"minutes": 1}, "turn_start": true,
                 "entering": true, "again": {"does": "move", "feet": 60}}]"#,
        )
        .unwrap();
        let rules = zone_rules(&moonbeam).unwrap();
        assert!(rules.turn_start && rules.entering && !rules.at_cast);
        assert_eq!(rules.again.unwrap().feet, Some(60));
        assert!(casting_effects(&moonbeam).is_empty(), "it only appears");
        assert_eq!(caught_effects(&moonbeam).len(), 1, "the save, not the zone");
        let mut bolt = moonbeam.clone();
        if let Effect::Zone(r) = &mut bolt[1] {
            r.at_cast = true;
        }
        assert_eq!(casting_effects(&bolt).len(), 1, "the first bolt as cast");
    }

    #[test]
    fn hunters_mark_lasts_longer_from_a_higher_slot() {
        let longer = [
            SlotDuration {
                from_slot: 3,
                duration: Duration::Hours(8),
            },
            SlotDuration {
                from_slot: 5,
                duration: Duration::Hours(24),
            },
        ];
        let at = |slot| SlotDuration::at(Duration::Hours(1), &longer, slot);
        assert_eq!(at(1), Duration::Hours(1));
        assert_eq!(at(4), Duration::Hours(8));
        assert_eq!(at(9), Duration::Hours(24));
    }
}
