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
