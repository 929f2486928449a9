//! When a monster casts a spell rather than attack, by a simple rule from the odds, over plain
//! numbers so the encounter simulator decides by the same functions ([`expected_damage`],
//! [`holds_chance`], [`better_spell`]); [`plan_cast`] reads them from the state.
//!
//! The rule: among the spells with effects data it may cast now (at will, an innate use left,
//! or a slot left: the lowest of the spell's level or above, [`castable`]),
//!
//! 0. a healing spell on the most hurt of itself and its allies within the spell's reach,
//!    when that one is below half its hit points (a priest's Cure Wounds);
//! 1. a concentration spell that holds a creature (its save's failure paralyzes, stuns,
//!    incapacitates or knocks out) when it concentrates on nothing and some hero fails that
//!    save at least two times in five: on the hero likeliest to fail (a cult fanatic's Hold
//!    Person);
//! 2. else the spell with the most expected damage (the dice's average times the chance to
//!    hit, or times the chance to fail plus half the success chance for a save that halves),
//!    at the target the attack rule picked, or at every standing hero for a spell with an area,
//!    when it beats what its attack does. Slots are not hoarded: the better choice now wins.

use super::monster_plan::{Plan, hit_chance};
use crate::effects::{Dice, Effect};
use crate::rules::{Ability, Condition};
use crate::srd::{MonsterSpellcasting, OnSave, Spell, SpellSource, Srd};
use crate::state::{Character, GameState, MonsterInstance};

/// The least chance a hero fails a holding spell's save for a monster to cast it (rule 1).
pub const HOLD_ODDS: f64 = 0.4;

/// The numbers a caster's spells roll with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CasterNumbers {
    /// Spell attack bonus.
    pub attack_bonus: i32,
    /// Spell save DC.
    pub save_dc: i32,
    /// Spellcasting ability modifier.
    pub modifier: i32,
    /// Caster level.
    pub level: u8,
}

/// What a spell is cast at, as its odds need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Foe {
    /// Armor Class.
    pub armor_class: i32,
    /// Save modifiers in [`Ability::ALL`] order.
    pub saves: [i32; 6],
}

/// The chance a creature with `modifier` fails a save against `dc` (a natural 20 is no
/// automatic success on a save, nor a 1 a failure: the d20's faces alone).
pub fn save_fails(dc: i32, modifier: i32) -> f64 {
    let needed = (dc - modifier).clamp(1, 21);
    f64::from(needed - 1) / 20.0
}

fn average(dice: &Dice, level: u8, slot: u8, by: &CasterNumbers) -> f64 {
    let (count, sides, bonus) = dice.at(level, slot, by.level, by.modifier);
    f64::from(count) * (f64::from(sides) + 1.0) / 2.0 + f64::from(bonus)
}

/// The damage `effects` (a spell of `level` cast with `slot`) deal one foe on average.
pub fn expected_damage(
    effects: &[Effect],
    level: u8,
    slot: u8,
    by: &CasterNumbers,
    foe: &Foe,
) -> f64 {
    effects
        .iter()
        .map(|e| match e {
            Effect::Damage { dice, .. } => average(dice, level, slot, by),
            Effect::SpellAttack { on_hit, .. } => {
                hit_chance(by.attack_bonus, foe.armor_class)
                    * expected_damage(on_hit, level, slot, by, foe)
            }
            Effect::Save {
                ability,
                dc,
                on_success,
                on_fail,
                ..
            } => {
                let fails = save_fails(dc.unwrap_or(by.save_dc), foe.saves[*ability as usize]);
                let half = if *on_success == OnSave::Half {
                    0.5
                } else {
                    0.0
                };
                (fails + (1.0 - fails) * half) * expected_damage(on_fail, level, slot, by, foe)
            }
            Effect::Darts {
                count,
                per_slot_level,
                dice,
                ..
            } => {
                let n = u32::from(*count)
                    + u32::from(*per_slot_level) * u32::from(slot.saturating_sub(level));
                f64::from(n) * average(dice, level, slot, by)
            }
            _ => 0.0,
        })
        .sum()
}

/// Whether a condition takes a creature out of the fight.
fn disables(condition: Condition) -> bool {
    matches!(
        condition,
        Condition::Paralyzed
            | Condition::Stunned
            | Condition::Incapacitated
            | Condition::Unconscious
            | Condition::Petrified
    )
}

/// The chance `foe` is held by `effects` (a save whose failure disables it), or `None` when
/// they hold no one.
pub fn holds_chance(effects: &[Effect], by: &CasterNumbers, foe: &Foe) -> Option<f64> {
    effects.iter().find_map(|e| match e {
        Effect::Save {
            ability,
            dc,
            on_fail,
            ..
        } if on_fail
            .iter()
            .any(|f| matches!(f, Effect::Condition { condition, .. } if disables(*condition))) =>
        {
            Some(save_fails(
                dc.unwrap_or(by.save_dc),
                foe.saves[*ability as usize],
            ))
        }
        _ => None,
    })
}

/// Of `(value, option)` pairs, the best when it beats `attack_value`.
pub fn better_spell<T>(
    options: impl IntoIterator<Item = (f64, T)>,
    attack_value: f64,
) -> Option<T> {
    options
        .into_iter()
        .filter(|(v, _)| *v > attack_value)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, t)| t)
}

/// A monster's caster numbers from its spellcasting and ability score.
pub fn numbers(spellcasting: &MonsterSpellcasting, modifier: i32) -> CasterNumbers {
    CasterNumbers {
        attack_bonus: spellcasting.attack_bonus,
        save_dc: spellcasting.save_dc,
        modifier,
        level: spellcasting.caster_level,
    }
}

/// The spells with effects data `m` may cast now, each with the way it would be cast: at
/// will, innately with a use left, or with the lowest slot left of its level or above.
pub fn castable<'s>(
    srd: &'s Srd,
    spellcasting: &MonsterSpellcasting,
    m: &MonsterInstance,
) -> Vec<(&'s Spell, SpellSource)> {
    let spent = |pool: String| {
        m.uses_spent
            .get(&pool.to_ascii_lowercase())
            .copied()
            .unwrap_or(0)
    };
    // Inside a Silence, no spell with a verbal component (`effects::silenced`).
    let hushed = crate::effects::hushed(&m.timed_effects);
    let mut out = Vec::new();
    for name in spellcasting.spells() {
        let Ok(spell) = srd.spell(name) else { continue };
        if spell.effects.is_empty()
            || (hushed && spell.components.verbal)
            || out.iter().any(|(s, _): &(&Spell, _)| s.name == spell.name)
        {
            continue;
        }
        let way = spellcasting.sources(name).into_iter().find(|w| match w {
            SpellSource::AtWill => true,
            SpellSource::Innate(per_day) => {
                spent(MonsterSpellcasting::innate_pool(&spell.name)) < *per_day
            }
            SpellSource::Slot(level) => {
                spent(MonsterSpellcasting::slot_pool(*level)) < spellcasting.slots_of(*level)
            }
        });
        if let Some(way) = way {
            out.push((spell, way));
        }
    }
    out
}

/// The slot level a spell is cast at by `way` (its own level otherwise).
pub fn slot_of(spell: &Spell, way: SpellSource) -> u8 {
    match way {
        SpellSource::Slot(level) => level,
        _ => spell.level,
    }
}

fn foe_of(c: &Character) -> Foe {
    Foe {
        armor_class: c.armor_class_now(),
        saves: Ability::ALL.map(|a| c.save_modifier(a)),
    }
}

/// One of its side a monster may heal: itself or an ally fighting beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wounded {
    /// Its id.
    pub id: String,
    /// Hit points now.
    pub hp: u32,
    /// Its maximum.
    pub max: u32,
    /// How far it stands from the caster.
    pub distance_ft: u32,
}

/// Rule 0 (see the module docs): the most hurt of `side` below half its hit points that the
/// healing spell reaches.
fn to_heal<'w>(side: &'w [Wounded], spell: &Spell) -> Option<&'w Wounded> {
    let reach = match spell.reach() {
        crate::srd::SpellReach::Within(feet) => feet,
        _ => return None,
    };
    side.iter()
        .filter(|w| w.hp > 0 && w.hp.saturating_mul(2) < w.max && w.distance_ft <= reach)
        .min_by_key(|w| (w.hp.saturating_mul(100) / w.max.max(1), w.hp))
}

fn heals(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Heal { .. }))
}

/// The plan to cast (see the module docs), or `None` when its attack does better. `heroes`
/// are the standing heroes where it is; `target` the one the attack rule picked; `side` itself
/// and its allies, for a healing spell.
#[allow(clippy::too_many_arguments)] // the numbers of one decision, read once from the state
pub fn plan_cast(
    srd: &Srd,
    m: &MonsterInstance,
    spellcasting: &MonsterSpellcasting,
    modifier: i32,
    heroes: &[&Character],
    target: Option<&Character>,
    side: &[Wounded],
    attack_value: f64,
) -> Option<Plan> {
    let by = numbers(spellcasting, modifier);
    let options = castable(srd, spellcasting, m);
    let cast = |spell: &Spell, way: SpellSource, targets: Vec<String>| Plan::Cast {
        spell: spell.name.clone(),
        slot_level: matches!(way, SpellSource::Slot(_)).then(|| slot_of(spell, way)),
        targets,
    };
    // 0. Healing, for one of its side below half.
    for (spell, way) in options.iter().filter(|(s, _)| heals(&s.effects)) {
        if let Some(w) = to_heal(side, spell) {
            return Some(cast(spell, *way, vec![w.id.clone()]));
        }
    }
    // 1. A hold, while it concentrates on nothing.
    if m.concentration.is_none() {
        for (spell, way) in options.iter().filter(|(s, _)| s.concentration) {
            let likeliest = heroes
                .iter()
                .filter(|c| !c.conditions.has(Condition::Paralyzed))
                .filter_map(|c| holds_chance(&spell.effects, &by, &foe_of(c)).map(|p| (p, *c)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((p, c)) = likeliest
                && p >= HOLD_ODDS
            {
                return Some(cast(spell, *way, vec![c.id.clone()]));
            }
        }
    }
    // 2. The most damage, when it beats the attack.
    let valued = options.iter().filter_map(|(spell, way)| {
        let slot = slot_of(spell, *way);
        let targets: Vec<&Character> = if spell.area.is_some() {
            heroes.to_vec()
        } else {
            vec![target?]
        };
        let value: f64 = targets
            .iter()
            .map(|c| expected_damage(&spell.effects, spell.level, slot, &by, &foe_of(c)))
            .sum();
        let ids = targets.iter().map(|c| c.id.clone()).collect();
        (value > 0.0).then(|| (value, cast(spell, *way, ids)))
    });
    better_spell(valued, attack_value)
}

/// `plan_cast` read from the state: the monster's template and ability modifier.
pub fn plan_cast_for(
    state: &GameState,
    srd: &Srd,
    m: &MonsterInstance,
    heroes: &[&Character],
    target: Option<&Character>,
    attack_value: f64,
) -> Option<Plan> {
    let template = srd.monster(&m.template).ok()?;
    let spellcasting = template.spellcasting.as_ref()?;
    let modifier = template.abilities.modifier(spellcasting.ability);
    let reach = u32::MAX; // the spell's own reach filters (rule 0)
    let side: Vec<Wounded> = std::iter::once(m.id.clone())
        .chain(super::monster_plan::allies_within(state, m, reach))
        .filter_map(|id| state.monster(&id))
        .map(|a| Wounded {
            id: a.id.clone(),
            hp: a.hp.current,
            max: a.hp.max,
            distance_ft: if a.id == m.id {
                0
            } else {
                crate::combat::positions::distance(state, &m.id, &a.id)
            },
        })
        .collect();
    plan_cast(
        srd,
        m,
        spellcasting,
        modifier,
        heroes,
        target,
        &side,
        attack_value,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FANATIC: CasterNumbers = CasterNumbers {
        attack_bonus: 3,
        save_dc: 11,
        modifier: 2,
        level: 4,
    };

    #[test]
    fn the_odds_of_a_save_and_an_attack() {
        // DC 11 against +1: fails on 1-9, 45%.
        assert!((save_fails(11, 1) - 0.45).abs() < 1e-9);
        assert!((save_fails(11, 20) - 0.0).abs() < 1e-9);
        let srd = Srd::bundled();
        let flame = &srd.spell("Sacred Flame").unwrap().effects;
        let foe = Foe {
            armor_class: 16,
            saves: [0; 6],
        };
        // 2d8 at caster level 4? No: 1d8 until level 5 (4.5), Dex save DC 11 at +0 fails 50%.
        let v = expected_damage(flame, 0, 0, &FANATIC, &foe);
        assert!((v - 2.25).abs() < 1e-9, "{v}");
        let fireball = &srd.spell("Fireball").unwrap().effects;
        // 8d6 (28) at DC 11 against +0: 50% fail, half on a success: 28 * 0.75 = 21.
        let v = expected_damage(fireball, 3, 3, &FANATIC, &foe);
        assert!((v - 21.0).abs() < 1e-9, "{v}");
        let hold = &srd.spell("Hold Person").unwrap().effects;
        assert_eq!(holds_chance(hold, &FANATIC, &foe), Some(0.5));
        assert_eq!(holds_chance(fireball, &FANATIC, &foe), None);
    }
}
