//! The odds of a tool call, before it is made: what the player sees beside a suggested action.
//!
//! Only the engine's own numbers count: the attacker's bonus from its sheet or stat block, the
//! target's armor class with its cover, a creature's skill modifier, advantage and disadvantage
//! from conditions, range, effects (Dodge, Help, Hide) and the call's stated situation, all from
//! the same setup the roll itself uses (`combat::attack_setup`). An attack that cannot reach
//! from where the attacker stands has no odds. The chance is exact, decided face by face by the same functions that
//! decide a real roll ([`crate::rules::check::chance_of`]). A spell that attacks or forces a save
//! has odds too: the chance its attack hits the first creature named, or that the creature fails
//! its save (its save bonus, cover on a Dexterity save, conditions and effects), with the damage
//! to expect from the dice engine's exact distribution. A call whose outcome those numbers
//! cannot tell (a search against hidden DCs, a move) has no odds. A spell's first roll and its
//! dice are read from its effects (`srd::Spell::first_roll`, `Spell::damage_dice`), and the
//! dice Bless adds or Bane takes away are weighed face by face into the chance.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::checks::{SkillCheckArgs, add_situation};
use super::combat::{
    AttackArgs, attack_setup, critical_range, first_in_reach, swings_of, weapon_riders,
};
use super::spells::CastSpellArgs;
use super::{ToolContext, ToolLimits, TurnLog, creature};
use crate::combat::targeting::{save_bonus, spell_attack_setup, spell_target};
use crate::dice::seeded_rng;
use crate::rules::DamageDice;
use crate::rules::attack::attack_hits;
use crate::rules::check::{chance_of, check_from};
use crate::rules::conditions::check_modifiers;
use crate::rules::conditions::save_modifiers;
use crate::srd::Srd;
use crate::srd::{FirstRoll, OnSave};
use crate::state::{GameState, RollKind, roll_dice_on, timed_effects};

/// What a call would roll and its chance of success.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    /// The roll, as dice notation with the real bonus ("1d20+5").
    pub dice: String,
    /// The number it must meet: the armor class or the DC.
    pub target: i32,
    /// The exact chance of success, from 0 to 1: the attack hits, the check succeeds, the
    /// spell's target fails its save.
    pub chance: f64,
    /// The damage to expect on average, all outcomes weighed (a miss 0, a critical hit its
    /// doubled dice, a successful save half or none as the spell says), before the target's
    /// resistances, when the call deals damage the engine can tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_damage: Option<f64>,
}

/// The odds of calling `tool` with `arguments` on `state`, or `None` when the engine's numbers
/// cannot tell them.
pub fn odds(state: &GameState, srd: &Srd, tool: &str, arguments: &Value) -> Option<Odds> {
    match tool {
        super::names::ROLL_ATTACK => attack_odds(state, srd, arguments),
        super::names::ROLL_SKILL_CHECK => check_odds(state, srd, arguments),
        super::names::CAST_SPELL => spell_odds(state, srd, arguments),
        _ => None,
    }
}

fn attack_odds(state: &GameState, srd: &Srd, arguments: &Value) -> Option<Odds> {
    // Read from the arguments in place: no copy of them.
    let args = AttackArgs::deserialize(arguments).ok()?;
    // The attack's setup needs a tool context; nothing is rolled or changed in it. The copy
    // of the state it holds is cheap: its parts are shared (`GameState`'s copy on write).
    let mut state = state.clone();
    let mut rng = crate::dice::TurnDice::Game(seeded_rng(0));
    let mut log = TurnLog::default();
    let limits = ToolLimits::default();
    let ctx = ToolContext {
        state: &mut state,
        srd,
        rng: &mut rng,
        limits: &limits,
        log: &mut log,
    };
    let who = creature::find(ctx.state, srd, &args.attacker).ok()?;
    let victim = creature::find(ctx.state, srd, &args.target).ok()?;
    let chosen = args
        .attack
        .clone()
        .or_else(|| first_in_reach(&ctx, &args.attacker, &args.target));
    let swing = swings_of(&ctx, &who, chosen.as_deref())
        .ok()?
        .into_iter()
        .next()?;
    // Out of reach or range: the attack cannot be made from here, so it has no odds.
    let setup = attack_setup(&ctx, &who, &victim, &swing, args.advantage).ok()?;
    let armor_class = setup.armor_class;
    let advantage = setup.sources.resolve();
    // Bless adds a d4 to the attack roll, Bane takes one away.
    let extra = bonus_dice(ctx.state, who.target.id(), RollKind::Attack);
    let crit_on = critical_range(&ctx, &who, &swing);
    let (chance, critical) = with_bonus(&extra, |b| {
        let hits = |d20| attack_hits(d20, swing.bonus + b, armor_class, crit_on, false);
        (
            chance_of(advantage, |d20| hits(d20).0),
            chance_of(advantage, |d20| hits(d20).1),
        )
    });
    Some(Odds {
        dice: d20_notation(swing.bonus, &extra),
        target: armor_class,
        chance,
        // Divine Favor's and Branding Smite's dice count on a hit, as they will be rolled.
        expected_damage: expected_on_hit(
            &weapon_riders(ctx.state, &who, &swing).0,
            chance,
            critical,
        ),
    })
}

fn check_odds(state: &GameState, srd: &Srd, arguments: &Value) -> Option<Odds> {
    let args = SkillCheckArgs::deserialize(arguments).ok()?;
    let who = creature::find(state, srd, &args.creature).ok()?;
    if !who.standing {
        return None;
    }
    let needs_sight = matches!(
        args.skill,
        crate::rules::Skill::Perception | crate::rules::Skill::Investigation
    );
    let (mut sources, auto_fail) = check_modifiers(&who.conditions, needs_sight, false);
    add_situation(&mut sources, args.advantage);
    let modifier = who.skill(args.skill);
    let chance = if auto_fail.is_some() {
        0.0
    } else {
        chance_of(sources.resolve(), |d20| {
            check_from(d20, modifier, args.dc).success
        })
    };
    Some(Odds {
        dice: d20_notation(modifier, &[]),
        target: args.dc,
        chance,
        expected_damage: None,
    })
}

/// A spell that attacks or forces a save, at the first creature it names.
fn spell_odds(state: &GameState, srd: &Srd, arguments: &Value) -> Option<Odds> {
    let args = CastSpellArgs::deserialize(arguments).ok()?;
    let caster = state.character(&args.caster)?;
    let spell = srd.spell(&args.spell).ok()?;
    let (attack_bonus, save_dc) = caster.spellcasting()?;
    let ability = caster
        .spellcasting_ability
        .map_or(0, |a| caster.abilities.modifier(a));
    let slot = args.slot_level.unwrap_or(spell.level).max(spell.level);
    let dice = spell.damage_dice(slot, caster.level, ability);
    let target = creature::find(state, srd, args.targets.first()?).ok()?;
    // Out of range or behind total cover: the casting cannot be made at it, so no odds.
    let placed = spell_target(state, &caster.id, target.target.id(), spell).ok()?;
    let save = match spell.first_roll()? {
        FirstRoll::Attack => {
            let setup = spell_attack_setup(state, &caster.id, target.target.id(), &placed);
            let (advantage, armor_class) =
                (setup.sources.resolve(), target.armor_class + setup.cover_ac);
            // Bless adds a d4 to the attack roll, Bane takes one away.
            let extra = bonus_dice(state, &caster.id, RollKind::Attack);
            let (chance, critical) = with_bonus(&extra, |b| {
                let hits = |d20| attack_hits(d20, attack_bonus + b, armor_class, 20, false);
                (
                    chance_of(advantage, |d20| hits(d20).0),
                    chance_of(advantage, |d20| hits(d20).1),
                )
            });
            return Some(Odds {
                dice: d20_notation(attack_bonus, &extra),
                target: armor_class,
                chance,
                expected_damage: dice.and_then(|d| expected_on_hit(&[d], chance, critical)),
            });
        }
        FirstRoll::Lands {
            count,
            per_slot_level,
        } => {
            // No attack and no save: the damage lands (Magic Missile's darts, each at the
            // first creature named when only one is).
            let above = slot.saturating_sub(spell.level);
            let shots = u32::from(count) + u32::from(per_slot_level) * u32::from(above);
            let dice = dice?;
            let each = mean_of(&dice)?;
            return Some(Odds {
                // No d20 to roll: the damage is what it rolls ("3 × 1d4+1 force").
                dice: format!("{shots} × {dice}"),
                target: 0,
                chance: 1.0,
                expected_damage: Some(f64::from(shots) * each),
            });
        }
        FirstRoll::Save(save) => save,
    };
    let (mut sources, auto_fail) = save_modifiers(&target.conditions, save.ability);
    sources.extend(crate::combat::save_situation(
        state,
        target.target.id(),
        save.ability,
    ));
    let cover = if save.ignores_cover {
        0
    } else {
        save_bonus(placed.cover.as_ref(), save.ability).map_or(0, |(b, _)| b)
    };
    let modifier = target.save(save.ability) + cover;
    // Bless on the target adds a d4 to its save, Bane takes one away.
    let extra = bonus_dice(state, target.target.id(), RollKind::Save);
    let fails = if auto_fail.is_some() {
        1.0
    } else {
        with_bonus(&extra, |b| {
            let fails = chance_of(sources.resolve(), |d20| {
                !check_from(d20, modifier + b, save_dc).success
            });
            (fails, 0.0)
        })
        .0
    };
    let expected_damage = dice.and_then(|d| {
        let full = mean_of(&d)?;
        let on_success = match save.on_success {
            OnSave::Half => full / 2.0,
            _ => 0.0,
        };
        Some(fails * full + (1.0 - fails) * on_success)
    });
    Some(Odds {
        dice: d20_notation(modifier, &extra),
        target: save_dc,
        chance: fails,
        expected_damage,
    })
}

/// The dice a creature's timed effects add to a roll of `kind` (Bless +1d4, Bane -1d4), as
/// `(count, sides, penalty)`: the same reading `effects::roll_bonus` rolls.
fn bonus_dice(state: &GameState, creature: &str, kind: RollKind) -> Vec<(u16, u16, bool)> {
    roll_dice_on(timed_effects(state, creature), kind)
        .into_iter()
        .map(|(_, count, sides, penalty)| (count, sides, penalty))
        .collect()
}

/// The exact distribution of the sum of `extra` (each die uniform, a penalty subtracted):
/// `(total, chance)` pairs. `[(0, 1.0)]` for none.
fn bonus_distribution(extra: &[(u16, u16, bool)]) -> Vec<(i32, f64)> {
    let mut sums: Vec<(i32, f64)> = vec![(0, 1.0)];
    for &(count, sides, penalty) in extra {
        for _ in 0..count {
            let sides = sides.max(1);
            let p = 1.0 / f64::from(sides);
            let mut next: Vec<(i32, f64)> = Vec::new();
            for &(total, chance) in &sums {
                for face in 1..=i32::from(sides) {
                    let t = if penalty { total - face } else { total + face };
                    match next.iter_mut().find(|(n, _)| *n == t) {
                        Some((_, c)) => *c += chance * p,
                        None => next.push((t, chance * p)),
                    }
                }
            }
            sums = next;
        }
    }
    sums
}

/// `chances(b)` (two chances, for a roll with `b` added) weighed over the distribution of the
/// bonus dice `extra`: exact, as each total of the dice is.
fn with_bonus(extra: &[(u16, u16, bool)], chances: impl Fn(i32) -> (f64, f64)) -> (f64, f64) {
    bonus_distribution(extra)
        .into_iter()
        .fold((0.0, 0.0), |(a, b), (bonus, p)| {
            let (x, y) = chances(bonus);
            (a + p * x, b + p * y)
        })
}

/// The damage to expect from an attack of these dice that hits with `chance`, of which
/// `critical` are critical hits (the dice rolled twice), from the dice engine's exact means.
fn expected_on_hit(damage: &[DamageDice], chance: f64, critical: f64) -> Option<f64> {
    let mut expected = 0.0;
    for d in damage {
        let hit = mean_of(d)?;
        let doubled = DamageDice {
            count: d.count.saturating_mul(2),
            ..*d
        };
        let crit = mean_of(&doubled)?;
        expected += (chance - critical) * hit + critical * crit;
    }
    Some(expected)
}

/// The mean of damage dice (at least 0 a roll, as damage is), from the exact distribution.
fn mean_of(dice: &DamageDice) -> Option<f64> {
    let expr = crate::dice::DiceExpr::parse(&dice.dice_text()).ok()?;
    let distribution = expr.distribution().ok()?;
    Some(distribution.iter().map(|(n, p)| n.max(0) as f64 * p).sum())
}

/// "1d20+5", "1d20-1", "1d20", and the dice timed effects add: "1d20+5+1d4" (Bless),
/// "1d20+2-1d4" (Bane).
fn d20_notation(bonus: i32, extra: &[(u16, u16, bool)]) -> String {
    let mut text = match bonus {
        0 => "1d20".to_owned(),
        b if b < 0 => format!("1d20{b}"),
        b => format!("1d20+{b}"),
    };
    for (count, sides, penalty) in extra {
        text.push_str(&format!(
            "{}{count}d{sides}",
            if *penalty { '-' } else { '+' }
        ));
    }
    text
}
