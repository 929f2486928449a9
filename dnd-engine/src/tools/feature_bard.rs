//! The bard's features in play (the rules are `character::bard`'s): Bardic Inspiration given
//! through `use_feature`, kept on its holder (`TimedKind::Inspired`) for ten minutes until an
//! attack roll, check or save of its fails by no more than the die could make up: then the
//! engine rolls it and adds it ([`inspired_check`], [`inspired_attack`], called by each roll's
//! path after the d20; `effects::inspired` holds the rule); Song of Rest on a short rest;
//! Cutting Words as the engine's reaction to a monster's hit.

use super::creature::{self, CreatureInfo};
use super::features::{FeatureUse, Played, refused, takes};
use super::results::ReactionCast;
use super::{ToolContext, ToolError};
use crate::character::bard::{self, INSPIRATION, INSPIRATION_EFFECT};
use crate::combat::may_act;
use crate::dice::DiceExpr;
use crate::rules::{AttackResult, Condition, Spend};
use crate::state::{Change, Character, Target, TimedEffect, TimedKind};
use crate::store::RollDetail;

/// How far a bard's voice carries for its features: 60 ft.
const RANGE_FT: u32 = 60;

/// Ten minutes, in rounds: how long an inspiration die is kept.
const TEN_MINUTES: u32 = 100;

/// Bardic Inspiration (bard 1): a bonus action; a creature other than the bard, within 60 ft
/// and able to hear, holds a d6 (d8 from 5th level) for 10 minutes, one die at a time, added
/// to the first of its attack rolls, ability checks or saving throws that fails by no more
/// than the die could make up.
pub(super) fn bardic_inspiration(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, true, false)?;
    let c = &using.c;
    let Some(name) = &using.args.target else {
        return Err(ToolError::new(format!(
            "Bardic Inspiration needs a target: a creature other than {} within {RANGE_FT} ft that can hear",
            c.name
        )));
    };
    let ally = creature::find(ctx.state, ctx.srd, name)?;
    let id = ally.target.id().to_owned();
    if id.eq_ignore_ascii_case(&c.id) {
        return Err(ToolError::new(format!(
            "{} cannot inspire itself: give the die to another creature within {RANGE_FT} ft",
            c.name
        )));
    }
    if !ally.standing || ally.conditions.has(Condition::Deafened) {
        return Err(ToolError::new(format!(
            "{} cannot hear {}: Bardic Inspiration needs a creature that can hear",
            ally.name, c.name
        )));
    }
    let distance = crate::combat::positions::distance(ctx.state, &c.id, &id);
    if distance > RANGE_FT {
        return Err(ToolError::new(format!(
            "{} is {distance} ft from {}: Bardic Inspiration reaches {RANGE_FT} ft",
            ally.name, c.name
        )));
    }
    let holds = crate::state::timed_effects(ctx.state, &id)
        .iter()
        .any(|e| e.spell == INSPIRATION_EFFECT);
    if holds {
        return Err(ToolError::new(format!(
            "{} already holds a Bardic Inspiration die: one at a time, until it is used or 10 minutes pass",
            ally.name
        )));
    }
    let spent = bard::spend_inspiration(ctx.srd, c).map_err(refused)?;
    let cost =
        may_act(ctx.state, &c.id, Spend::BonusAction).map_err(|e| ToolError::new(e.to_string()))?;
    let sides = bard::inspiration_die(ctx.srd, c).unwrap_or(6);
    let die = Change::TimedEffectStarted {
        effect: TimedEffect {
            source: c.id.clone(),
            spell: INSPIRATION_EFFECT.to_owned(),
            target: id,
            concentration: false,
            rounds_left: Some(TEN_MINUTES),
            ends_on_damage: false,
            level: 0,
            at_turn_end: false,
            kind: TimedKind::Inspired { sides },
        },
    };
    ctx.commit(cost.into_iter().chain([spent, die]).collect())?;
    Ok(Played {
        effect: format!(
            "{} inspires {}: a d{sides} the engine adds to its first attack roll, ability check or saving throw within 10 minutes that fails by {sides} or less",
            c.name, ally.name
        ),
        pool: Some(INSPIRATION),
        ..Played::default()
    })
}

/// Bardic Inspiration on a check or save `creature` has rolled: where it failed by no more than
/// the die it holds could make up, the die rolled and added, and spent (committed here, with
/// the roll; ending an effect that is there cannot be refused). What to say beside the roll.
pub(super) fn inspired_check(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    result: &mut crate::rules::CheckResult,
) -> Option<String> {
    let inspired = crate::effects::inspire_check(ctx.state, creature, result, &[], ctx.rng)?;
    let _ = ctx.commit(vec![inspired.spent]);
    Some(inspired.reason)
}

/// Bardic Inspiration on an attack roll `creature` missed with (`profile` against `target`):
/// as [`inspired_check`], a miss it turns into a hit rolling the hit's damage.
pub(super) fn inspired_attack(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    result: &mut AttackResult,
    profile: &crate::rules::AttackProfile<'_>,
    target: &crate::rules::AttackTarget,
) -> Option<String> {
    let inspired =
        crate::effects::inspire_attack(ctx.state, creature, result, profile, target, &[], ctx.rng)?;
    let _ = ctx.commit(vec![inspired.spent]);
    Some(inspired.reason)
}

/// Song of Rest (bard 2): a creature that spends hit dice on a short rest, with a conscious bard
/// of the party where it rests (itself included), regains 1d6 more. The extra hit points.
pub(super) fn song_of_rest(
    ctx: &mut ToolContext<'_>,
    resting: &Character,
    dice_spent: u8,
) -> Result<u32, ToolError> {
    if dice_spent == 0 {
        return Ok(0);
    }
    let singer = ctx.state.characters.iter().find_map(|b| {
        let here = b.location == resting.location && !b.dead && b.hp.current > 0;
        let die = bard::song_of_rest_die(ctx.srd, b).filter(|_| here)?;
        Some((b.name.clone(), die))
    });
    let Some((singer, sides)) = singer else {
        return Ok(0);
    };
    let roll = DiceExpr::parse(&format!("1d{sides}"))
        .and_then(|e| e.roll(ctx.rng))
        .map_err(|e| ToolError::new(e.to_string()))?;
    let extra = u32::try_from(roll.total().max(0)).unwrap_or(0);
    ctx.record_roll(
        format!("{singer}'s Song of Rest for {}", resting.name),
        roll.total(),
        Some(Target::Character(resting.id.clone())),
        RollDetail::Healing(roll),
    );
    Ok(extra)
}

/// Cutting Words (Lore 3): when monster `who`'s attack would hit, a bard of the College of Lore
/// within 60 ft of it, with its reaction and an inspiration use, rolls its die and takes it off
/// the roll, where that could turn the hit (the die's largest face reaches); a natural 20 and a
/// creature immune to charm are beyond it.
pub(super) fn cutting_words(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    result: &mut AttackResult,
) -> Result<Option<ReactionCast>, ToolError> {
    if !result.hit || result.d20.natural == 20 {
        return Ok(None);
    }
    if who
        .template
        .is_some_and(|m| m.condition_immunities.contains(&Condition::Charmed))
    {
        return Ok(None);
    }
    let attacker = who.target.id();
    let ready = ctx.state.characters.iter().find_map(|b| {
        if !bard::has_cutting_words(ctx.srd, b) {
            return None;
        }
        let sides = bard::inspiration_die(ctx.srd, b)?;
        let could_turn = result.total - i32::from(sides) < result.target_ac;
        let near = crate::combat::positions::distance(ctx.state, &b.id, attacker) <= RANGE_FT;
        let left = bard::inspiration_left(ctx.srd, b).is_some_and(|(l, _)| l > 0);
        if !(could_turn && near && left) {
            return None;
        }
        let reaction = may_act(ctx.state, &b.id, Spend::Reaction).ok()?;
        let spent = bard::spend_inspiration(ctx.srd, b).ok()?;
        Some((b.clone(), sides, reaction, spent))
    });
    let Some((b, sides, reaction, spent)) = ready else {
        return Ok(None);
    };
    let roll = DiceExpr::parse(&format!("1d{sides}"))
        .and_then(|e| e.roll(ctx.rng))
        .map_err(|e| ToolError::new(e.to_string()))?;
    let cut = i32::try_from(roll.total()).unwrap_or(0);
    ctx.record_roll(
        format!("{}'s Cutting Words against {}", b.name, who.name),
        roll.total(),
        Some(Target::Character(b.id.clone())),
        RollDetail::Dice(roll),
    );
    ctx.commit(reaction.into_iter().chain([spent]).collect())?;
    let before = result.total;
    result.total -= cut;
    let turned = result.total < result.target_ac;
    if turned {
        result.hit = false;
        result.critical = false;
        result.damage.clear();
        result.total_damage = 0;
    }
    let outcome = format!(
        "{}'s {before} is cut by {cut} to {}: {} AC {}",
        who.name,
        result.total,
        if turned { "now misses" } else { "still hits" },
        result.target_ac
    );
    Ok(Some(ReactionCast {
        by: b.name.clone(),
        reaction: "Cutting Words".to_owned(),
        slot_level: None,
        outcome,
        succeeded: turned,
        check: None,
        slots_left: None,
    }))
}
