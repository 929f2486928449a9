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
//! cannot tell (a search against hidden DCs, a move) has no odds.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::checks::{SkillCheckArgs, add_situation};
use super::combat::{AttackArgs, attack_setup, first_in_reach, swings_of};
use super::spells::CastSpellArgs;
use super::{ToolContext, ToolLimits, TurnLog, creature};
use crate::combat::targeting::{save_bonus, spell_attack_setup, spell_target};
use crate::dice::seeded_rng;
use crate::rules::DamageDice;
use crate::rules::attack::attack_hits;
use crate::rules::check::{chance_of, check_from};
use crate::rules::conditions::check_modifiers;
use crate::rules::conditions::save_modifiers;
use crate::srd::OnSave;
use crate::srd::Srd;
use crate::state::GameState;

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
    let mut rng = seeded_rng(0);
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
    let chance = chance_of(advantage, |d20| {
        attack_hits(d20, swing.bonus, armor_class, 20, false).0
    });
    let critical = chance_of(advantage, |d20| {
        attack_hits(d20, swing.bonus, armor_class, 20, false).1
    });
    Some(Odds {
        dice: d20_notation(swing.bonus),
        target: armor_class,
        chance,
        expected_damage: expected_on_hit(&swing.damage, chance, critical),
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
        dice: d20_notation(modifier),
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
    if spell.attack.is_some() {
        let setup = spell_attack_setup(state, &caster.id, target.target.id(), &placed);
        let (advantage, armor_class) =
            (setup.sources.resolve(), target.armor_class + setup.cover_ac);
        let chance = chance_of(advantage, |d20| {
            attack_hits(d20, attack_bonus, armor_class, 20, false).0
        });
        let critical = chance_of(advantage, |d20| {
            attack_hits(d20, attack_bonus, armor_class, 20, false).1
        });
        return Some(Odds {
            dice: d20_notation(attack_bonus),
            target: armor_class,
            chance,
            expected_damage: dice.and_then(|d| expected_on_hit(&[d], chance, critical)),
        });
    }
    let Some(save) = spell.save else {
        // No attack and no save: the damage lands (Magic Missile's darts, each at the first
        // creature named when only one is).
        let limit = spell.target_limit(slot, caster.level);
        let shots = if limit.repeat {
            limit.max.unwrap_or(1)
        } else {
            1
        };
        let dice = dice?;
        let each = mean_of(&dice)?;
        return Some(Odds {
            // No d20 to roll: the damage is what it rolls ("3 × 1d4+1 force").
            dice: format!("{shots} × {dice}"),
            target: 0,
            chance: 1.0,
            expected_damage: Some(f64::from(shots) * each),
        });
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
    let fails = if auto_fail.is_some() {
        1.0
    } else {
        chance_of(sources.resolve(), |d20| {
            !check_from(d20, modifier, save_dc).success
        })
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
        dice: d20_notation(modifier),
        target: save_dc,
        chance: fails,
        expected_damage,
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

/// "1d20+5", "1d20-1", "1d20".
fn d20_notation(bonus: i32) -> String {
    match bonus {
        0 => "1d20".to_owned(),
        b if b < 0 => format!("1d20{b}"),
        b => format!("1d20+{b}"),
    }
}
