//! Warding Bond ([`Effect::Bond`], `TimedKind::Bonded`): the bonded creature adds 1 to its
//! saving throws ([`bond_save_bonus`], read inside `effects::roll_bonus`), and whenever it takes
//! damage the caster who bound it takes the same amount ([`bond_damage`], asked by
//! `tools::damage::after_damage` after every instance of damage). The +1 AC and the resistance
//! to all damage are the spell's own `armor_class` and `resistance` effects. Beside it, the
//! other flat bonus on a roll: a skill's ([`skill_bonus`], Pass without Trace).

use crate::state::{Change, GameState, Target, TimedEffect, TimedKind, timed_effects};

/// The spell of a bond on `creature` that adds 1 to its saves, if any (one bond counts once).
pub(super) fn bond_save_bonus(effects: &[TimedEffect]) -> Option<&str> {
    effects
        .iter()
        .find(|e| e.kind == TimedKind::Bonded)
        .map(|e| e.spell.as_str())
}

/// The damage the casters bonded to `creature` (an id) take when it takes `amount`: one
/// `Change::Damage` of the same amount on each living source, with its id.
pub fn bond_damage(state: &GameState, creature: &str, amount: u32) -> Vec<(String, Change)> {
    if amount == 0 {
        return Vec::new();
    }
    timed_effects(state, creature)
        .iter()
        .filter(|e| e.kind == TimedKind::Bonded && !e.source.eq_ignore_ascii_case(creature))
        .filter_map(|e| {
            let target = match (state.character(&e.source), state.monster(&e.source)) {
                (Some(c), _) if !c.dead && c.hp.current > 0 => Target::Character(c.id.clone()),
                (_, Some(m)) if m.is_alive() => Target::Monster(m.id.clone()),
                _ => return None,
            };
            let change = Change::Damage {
                target,
                amount,
                critical: false,
            };
            Some((e.source.clone(), change))
        })
        .collect()
}

/// The effects of a bond that end when its caster falls to 0 hit points: every effect the
/// caster's Warding Bond put on any creature (the AC, the resistance and the bond itself).
pub fn bond_broken(state: &GameState, caster: &str) -> Vec<Change> {
    let down = state
        .character(caster)
        .is_some_and(|c| c.dead || c.hp.current == 0)
        || state.monster(caster).is_some_and(|m| !m.is_alive());
    if !down {
        return Vec::new();
    }
    let bonds: Vec<&TimedEffect> = state
        .characters
        .iter()
        .flat_map(|c| c.timed_effects.iter())
        .chain(state.monsters.iter().flat_map(|m| m.timed_effects.iter()))
        .filter(|e| e.kind == TimedKind::Bonded && e.source.eq_ignore_ascii_case(caster))
        .collect();
    let mut ends = Vec::new();
    for bond in bonds {
        for e in timed_effects(state, &bond.target) {
            if e.source.eq_ignore_ascii_case(caster) && e.spell.eq_ignore_ascii_case(&bond.spell) {
                ends.push(Change::TimedEffectEnded { effect: e.clone() });
            }
        }
    }
    ends
}

/// The bonus the timed effects give checks of `skill` (Pass without Trace: +10 Stealth), each
/// spell once: read inside `Character::skill_modifier` and a monster's skill modifier.
pub fn skill_bonus(effects: &[TimedEffect], skill: crate::rules::Skill) -> i32 {
    let mut seen: Vec<&str> = Vec::new();
    let mut total = 0;
    for e in effects {
        if let TimedKind::SkillBonus { skill: s, bonus } = e.kind
            && s == skill
            && !seen.contains(&e.spell.as_str())
        {
            seen.push(&e.spell);
            total += bonus;
        }
    }
    total
}
