//! Whether a spell or a save-based effect reaches a creature from where its source stands: a
//! spell's range, a spell attack's reach and range, and cover against a saving throw.
//!
//! - **Spell range** ([`spell_target`]): a spell names creatures within its reach
//!   ([`Spell::reach`]: its range in feet, 5 ft for Touch, only the caster for Self unless the
//!   data says more). The distance is checked only where the fight keeps positions; in a room
//!   without areas, or outside a fight, any creature is within reach. A Self spell never names
//!   another creature, with or without positions (that is not a matter of distance).
//! - **Spell attacks** go through the weapons' rule ([`attack_range`]): a ranged spell attack
//!   has disadvantage while a hostile that can act stands within 5 ft of the caster, and the
//!   target's cover adds to its AC.
//! - **Cover against a save** ([`save_bonus`], [`save_cover`]): half cover gives +2 and
//!   three-quarters cover +5 to Dexterity saving throws against an effect that comes from the
//!   other side of it (the caster, or the monster using the action: an area centred elsewhere
//!   is counted from its source, a simplification); total cover means the creature cannot be
//!   targeted. The cover is the one rule attacks use ([`cover_against`]). A spell whose data
//!   says cover does not help its save (`SpellSave::ignores_cover`: Sacred Flame) gets no bonus.

use super::positions::{PositionError, RangeCheck, Reach, attack_range, cover_against};
use super::positions::{distance, position_of};
use crate::rules::Ability;
use crate::srd::{AttackKind, Spell, SpellReach};
use crate::state::{Area, GameState};

/// What a spell meets at one creature it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpellTarget {
    /// How far the creature is from the caster (5 ft where no positions are kept; 0 for the
    /// caster itself).
    pub distance_ft: u32,
    /// For a spell attack: the weapons' range check (disadvantage reasons and cover).
    pub attack: Option<RangeCheck>,
    /// The area whose cover shields the creature from the caster, if any (never total cover:
    /// that is an error).
    pub cover: Option<Area>,
}

/// Whether `caster` may name `target` (ids) with `spell` from where they stand, and what the
/// positions add (see the module docs). Nothing is changed; the error says what is allowed.
pub fn spell_target(
    state: &GameState,
    caster: &str,
    target: &str,
    spell: &Spell,
) -> Result<SpellTarget, PositionError> {
    if caster.eq_ignore_ascii_case(target) {
        return Ok(SpellTarget {
            distance_ft: 0,
            attack: None,
            cover: None,
        });
    }
    let reach = spell.reach();
    if reach == SpellReach::CasterOnly {
        return Err(PositionError::OnlyCaster {
            caster: state.name_of(caster),
            target: state.name_of(target),
            spell: spell.name.clone(),
        });
    }
    let distance_ft = distance(state, caster, target);
    let kept = position_of(state, caster).is_some() && position_of(state, target).is_some();
    if let SpellReach::Within(reach_ft) = reach
        && kept
        && distance_ft > reach_ft
    {
        return Err(PositionError::BeyondSpellRange {
            caster: state.name_of(caster),
            target: state.name_of(target),
            spell: spell.name.clone(),
            range: spell.range.to_string(),
            reach_ft,
            distance_ft,
        });
    }
    let Some(kind) = spell.attack_kind() else {
        let cover = cover_against(state, caster, target)?.cloned();
        return Ok(SpellTarget {
            distance_ft,
            attack: None,
            cover,
        });
    };
    // The reach is already checked above; the weapons' rule adds crowding and cover.
    let within = match reach {
        SpellReach::Within(feet) => feet,
        _ => u32::MAX,
    };
    let attack_reach = if matches!(kind, AttackKind::MeleeSpell | AttackKind::MeleeWeapon) {
        Reach::melee(within.max(5))
    } else {
        Reach::ranged(within, within)
    };
    let check = attack_range(state, caster, target, &spell.name, attack_reach)?;
    let cover = cover_against(state, caster, target)?.cloned();
    Ok(SpellTarget {
        distance_ft,
        attack: Some(check),
        cover,
    })
}

/// The bonus the cover of `area` gives to a saving throw of `ability`, with its reason for
/// the result ("+2: half cover in the ice bridge"): only Dexterity saves gain it.
pub fn save_bonus(area: Option<&Area>, ability: Ability) -> Option<(i32, String)> {
    let area = area.filter(|_| ability == Ability::Dexterity)?;
    let bonus = area.cover.armor_bonus().filter(|b| *b > 0)?;
    Some((
        bonus,
        format!("+{bonus}: {} in {}", area.cover.describe(), area.name),
    ))
}

/// The cover bonus to `target`'s saving throw of `ability` against an effect from `source`
/// ([`save_bonus`] of [`cover_against`]); an error when total cover shields it.
pub fn save_cover(
    state: &GameState,
    source: &str,
    target: &str,
    ability: Ability,
) -> Result<Option<(i32, String)>, PositionError> {
    Ok(save_bonus(cover_against(state, source, target)?, ability))
}

/// What a spell attack from `caster` at `target` rolls with, once [`spell_target`] placed the
/// target: the advantage and disadvantage of the fight's effects and of range, the changes the
/// roll uses up (a Help, a hider's cover), and the cover's bonus to the target's AC.
#[derive(Debug, Clone, PartialEq)]
pub struct SpellAttackSetup {
    /// Every source of advantage and disadvantage.
    pub sources: crate::rules::AdvantageSources,
    /// What the roll ends (`EffectEnded`s), to commit with it.
    pub ends: Vec<crate::state::Change>,
    /// Added to the target's AC by its cover.
    pub cover_ac: i32,
}

/// The setup of a spell attack (see [`SpellAttackSetup`]): the one place casting and the odds
/// of a casting read it.
pub fn spell_attack_setup(
    state: &GameState,
    caster: &str,
    target: &str,
    placed: &SpellTarget,
) -> SpellAttackSetup {
    let range = placed.attack.as_ref();
    // Dodge, Hide and Help count against spell attacks too (`combat::effects`).
    let situation = super::attack_situation(state, caster, target);
    let mut sources = situation.sources;
    for why in range.iter().flat_map(|r| &r.disadvantage) {
        sources.disadvantage(why.clone());
    }
    SpellAttackSetup {
        sources,
        ends: situation.ends,
        cover_ac: range.map_or(0, RangeCheck::armor_bonus),
    }
}

/// Why an area cannot be aimed where the model asked. Each message says what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AreaError {
    /// The aim is neither a creature of the fight nor an area of the room.
    #[error(
        "{spell} is aimed at a creature or an area of the room, and {aim:?} is neither; creatures: {}; areas: {}",
        .creatures.join(", "),
        .areas.join(", ")
    )]
    UnknownAim {
        /// The spell.
        spell: String,
        /// What was named.
        aim: String,
        /// The creatures standing in the fight (ids).
        creatures: Vec<String>,
        /// The room's areas (ids).
        areas: Vec<String>,
    },
    /// A point beyond the spell's range.
    #[error(
        "{aim} is {distance_ft} ft from {caster}; {spell}'s {shape} is centred on a point within {range_ft} ft: aim at a creature or an area within {range_ft} ft"
    )]
    BeyondRange {
        /// Who casts.
        caster: String,
        /// The spell.
        spell: String,
        /// Its shape, in words ("20-ft sphere").
        shape: String,
        /// The aim, by name.
        aim: String,
        /// Its range.
        range_ft: u32,
        /// How far the aim is.
        distance_ft: u32,
    },
    /// A cone, a line or a cube from the caster aimed at the caster's own point.
    #[error(
        "{spell}'s {shape} goes out from {caster} toward its aim, and {aim} is where {caster} stands: aim at a creature or an area elsewhere"
    )]
    NoDirection {
        /// Who casts.
        caster: String,
        /// The spell.
        spell: String,
        /// Its shape, in words.
        shape: String,
        /// The aim, by name.
        aim: String,
    },
}

/// An area spell aimed where the fight keeps positions: the shape in words and each creature
/// it covers with what the caster's position adds (distance, cover), in the fight's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaCover {
    /// "20-ft sphere centred on the Frost Harpy", "15-ft cone toward Kraven".
    pub described: String,
    /// The creatures covered (ids), with their placement from the caster.
    pub covered: Vec<(String, SpellTarget)>,
}

/// What `spell`'s area covers when `caster` aims it at `aim` (a creature or an area of the
/// room, by id or name): `None` when the spell has no area of a known shape or the fight keeps
/// no position for the caster (then the named targets count, as before). Every living
/// creature of the fight the area covers is in it, allies and the caster included where the
/// area reaches them (the caster never for an area that starts at it, `areas::Shape`); a
/// creature behind total cover from the caster is left out. A spell centred on a point needs
/// the point within its range; one aimed from the caster needs a direction.
pub fn area_cover(
    state: &GameState,
    caster: &str,
    spell: &Spell,
    aim: Option<&str>,
) -> Result<Option<AreaCover>, AreaError> {
    use super::areas::{Aim, Shape, covers};
    let (Some(area), Some(from), Some(encounter)) = (
        spell.area.as_ref(),
        position_of(state, caster),
        state.encounter.as_ref(),
    ) else {
        return Ok(None);
    };
    let Some(shape) = Shape::parse(&area.shape) else {
        return Ok(None);
    };
    let self_range = matches!(spell.range, crate::srd::SpellRange::Caster { .. });
    let words = format!("{}-ft {}", area.size, area.shape.to_ascii_lowercase());
    let caster_name = state.name_of(caster);
    // A sphere or cylinder of range Self is centred on the caster: no aim needed.
    let centred_on_caster = self_range && matches!(shape, Shape::Sphere | Shape::Cylinder);
    let (target_point, aim_name) = if centred_on_caster {
        (from, caster_name.clone())
    } else {
        let aim = aim.unwrap_or_default();
        match aim_point(state, aim) {
            Some(found) => found,
            None => {
                return Err(AreaError::UnknownAim {
                    spell: spell.name.clone(),
                    aim: aim.to_owned(),
                    creatures: encounter
                        .order
                        .iter()
                        .filter(|s| encounter.positions.contains_key(&s.id))
                        .map(|s| s.id.clone())
                        .collect(),
                    areas: super::positions::room_areas(state)
                        .iter()
                        .map(|a| a.id.clone())
                        .collect(),
                });
            }
        }
    };
    let (how, described) = if shape.from_caster(self_range) && !centred_on_caster {
        if target_point == from {
            return Err(AreaError::NoDirection {
                caster: caster_name,
                spell: spell.name.clone(),
                shape: words,
                aim: aim_name,
            });
        }
        let how = Aim::FromCaster {
            caster: from,
            toward: target_point,
        };
        (how, format!("{words} from {caster_name} toward {aim_name}"))
    } else {
        if let Some(range_ft) = spell.range.feet() {
            let distance_ft = crate::state::round_to_5(from.exact_distance(target_point));
            if distance_ft > range_ft {
                return Err(AreaError::BeyondRange {
                    caster: caster_name,
                    spell: spell.name.clone(),
                    shape: words,
                    aim: aim_name,
                    range_ft,
                    distance_ft,
                });
            }
        }
        let how = Aim::Centred(target_point);
        (how, format!("{words} centred on {aim_name}"))
    };
    let mut covered = Vec::new();
    for slot in &encounter.order {
        let Some(point) = encounter.positions.get(&slot.id).copied() else {
            continue;
        };
        let alive = state.character(&slot.id).is_some_and(|c| !c.dead)
            || state
                .monster(&slot.id)
                .is_some_and(|m| m.is_alive() && m.revealed);
        if !alive || !covers(shape, area.size, how, point) {
            continue;
        }
        let me = slot.id.eq_ignore_ascii_case(caster);
        // An area that starts at the caster never covers it.
        if me && (matches!(how, Aim::FromCaster { .. }) || centred_on_caster) {
            continue;
        }
        // Cover counts from the caster (a simplification, as for any save); total cover
        // shields the creature from the area.
        let Ok(cover) = cover_against(state, caster, &slot.id) else {
            continue;
        };
        covered.push((
            slot.id.clone(),
            SpellTarget {
                distance_ft: if me { 0 } else { from.distance(point) },
                attack: None,
                cover: cover.cloned(),
            },
        ));
    }
    Ok(Some(AreaCover { described, covered }))
}

/// The point of a creature of the fight or an area of the room (id or name), with its name.
pub fn aim_point(state: &GameState, aim: &str) -> Option<(crate::state::Position, String)> {
    if aim.trim().is_empty() {
        return None;
    }
    let id = state.character(aim).map(|c| c.id.clone()).or_else(|| {
        state
            .monster(aim)
            .filter(|m| m.revealed)
            .map(|m| m.id.clone())
    });
    if let Some(id) = id
        && let Some(p) = position_of(state, &id)
    {
        return Some((p, state.name_of(&id)));
    }
    super::positions::room_areas(state)
        .iter()
        .find(|a| a.id.eq_ignore_ascii_case(aim) || a.name.eq_ignore_ascii_case(aim))
        .map(|a| (a.position(), a.name.clone()))
}
