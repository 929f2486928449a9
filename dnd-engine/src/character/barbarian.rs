//! The barbarian's features in play, as pure rules over a sheet and the class data: Rage (the
//! timed effects it starts, its damage on a hit), Reckless Attack (its advantage), Danger
//! Sense (advantage on Dexterity saves), Fast Movement (+10 ft without heavy armour) and
//! Frenzy (a Berserker's rage). How a rage lasts and ends is `state::rage`; the tool that
//! starts them is `tools::feature_barbarian`. Unarmored Defense is the builder's
//! (`character::equipment::armor_class`).

use crate::rules::{Ability, AdvantageSources, Condition, DamageType};
use crate::srd::{ArmorCategory, Srd};
use crate::state::{
    Character, CharacterAttack, GameState, ItemStack, RAGE, RollOn, TimedEffect, TimedKind, raging,
};

/// The name of Reckless Attack's effects.
pub const RECKLESS: &str = "Reckless Attack";

/// Rounds a rage lasts: one minute.
const RAGE_ROUNDS: u32 = 10;

/// The rage damage of `c` at its level (the class table's `rage_damage_bonus`), or `None` for
/// a character without Rage.
pub fn rage_damage(srd: &Srd, c: &Character) -> Option<i32> {
    let (class, _) = super::uses::feature_of(srd, c, "rage").ok()?;
    class
        .level(c.level)?
        .numbers
        .rage_damage_bonus
        .map(i32::from)
}

/// The heavy armour among `inventory`, if any (the sheet does not say what is worn: carried
/// armour counts as worn, as the builder's Armor Class takes it).
pub fn heavy_armour<'a>(srd: &Srd, inventory: &'a [ItemStack]) -> Option<&'a str> {
    inventory
        .iter()
        .find(|s| {
            srd.armor(&s.name)
                .is_ok_and(|a| a.category == ArmorCategory::Heavy)
        })
        .map(|s| s.name.as_str())
}

/// The timed effects a rage starts on `c` (the marker first: `state::rage` ends companions
/// left without it): the marker with the rage damage, resistance to bludgeoning, piercing and
/// slashing damage, and advantage on Strength checks and saves; for a minute.
pub fn rage_effects(c: &Character, damage: i32, frenzied: bool) -> Vec<TimedEffect> {
    let effect = |kind| TimedEffect {
        source: c.id.clone(),
        spell: RAGE.to_owned(),
        target: c.id.clone(),
        concentration: false,
        rounds_left: Some(RAGE_ROUNDS),
        ends_on_damage: false,
        level: 0,
        at_turn_end: false,
        kind,
    };
    let advantage = |on| TimedKind::Advantage {
        on,
        ability: Some(Ability::Strength),
        disadvantage: false,
        next_only: false,
        source_only: false,
    };
    vec![
        effect(TimedKind::Raging {
            damage,
            kept_up: false,
            frenzied,
        }),
        effect(TimedKind::Resistance {
            damage_types: [
                DamageType::Bludgeoning,
                DamageType::Piercing,
                DamageType::Slashing,
            ]
            .into_iter()
            .collect(),
        }),
        effect(advantage(RollOn::Checks)),
        effect(advantage(RollOn::Saves)),
    ]
}

/// Reckless Attack's effects on `c`: advantage on its melee Strength weapon attacks until the
/// end of this turn, and attacks against it with advantage until the start of its next.
pub fn reckless_effects(c: &Character) -> Vec<TimedEffect> {
    let effect = |kind, at_turn_end| TimedEffect {
        source: c.id.clone(),
        spell: RECKLESS.to_owned(),
        target: c.id.clone(),
        concentration: false,
        rounds_left: Some(1),
        ends_on_damage: false,
        level: 0,
        at_turn_end,
        kind,
    };
    vec![
        effect(TimedKind::Reckless, true),
        effect(
            TimedKind::Advantage {
                on: RollOn::AttacksAgainst,
                ability: None,
                disadvantage: false,
                next_only: false,
                source_only: false,
            },
            false,
        ),
    ]
}

/// Whether `c` is attacking recklessly this turn.
pub fn is_reckless(c: &Character) -> bool {
    c.timed_effects
        .iter()
        .any(|e| e.kind == TimedKind::Reckless)
}

/// A melee weapon attack using Strength: what Rage's damage and Reckless Attack's advantage
/// ride on. `melee`: the swing is made in melee (a thrown handaxe at range is not).
fn strength_melee<'c>(
    c: &'c Character,
    attack_name: &str,
    melee: bool,
) -> Option<&'c CharacterAttack> {
    c.attacks
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(attack_name))
        .filter(|a| melee && a.ability == Ability::Strength)
}

/// The advantage a barbarian's features give its attack with `attack_name` (Reckless Attack on
/// a melee Strength weapon attack).
pub fn attack_sources(c: &Character, attack_name: &str, melee: bool, out: &mut AdvantageSources) {
    if is_reckless(c) && strength_melee(c, attack_name, melee).is_some() {
        out.advantage("attacking recklessly");
    }
}

/// Rage's damage on a melee weapon hit using Strength, while raging; 0 otherwise.
pub fn rage_bonus(c: &Character, attack_name: &str, melee: bool) -> i32 {
    match raging(&c.timed_effects).map(|e| &e.kind) {
        Some(TimedKind::Raging { damage, .. })
            if strength_melee(c, attack_name, melee).is_some() =>
        {
            *damage
        }
        _ => 0,
    }
}

/// Danger Sense (barbarian 2): advantage on a Dexterity save, unless blinded, deafened or
/// incapacitated. The effects a save is made against are taken as seen (the engine keeps no
/// line of sight to a trap or a spell's origin apart from these conditions).
pub fn danger_sense(srd: &Srd, state: &GameState, creature: &str, ability: Ability) -> bool {
    let Some(c) = state.character(creature) else {
        return false;
    };
    let senses = !c.conditions.has(Condition::Blinded)
        && !c.conditions.has(Condition::Deafened)
        && c.conditions.can_act();
    ability == Ability::Dexterity
        && senses
        && super::uses::feature_of(srd, c, "danger-sense").is_ok()
}

/// Fast Movement (barbarian 5): feet added to the speed of a barbarian of `level` carrying no
/// heavy armour; 0 otherwise.
pub fn fast_movement_ft(srd: &Srd, class: &str, level: u8, inventory: &[ItemStack]) -> u32 {
    let has = srd.class(class).is_ok_and(|k| {
        k.features
            .iter()
            .any(|f| f.slug == "fast-movement" && f.level <= level)
    });
    if has && heavy_armour(srd, inventory).is_none() {
        10
    } else {
        0
    }
}
