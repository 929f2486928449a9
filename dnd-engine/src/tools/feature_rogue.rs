//! The rogue's features in play. Sneak Attack is the engine's, never the model's: `roll_attack`
//! asks [`sneak_attack`] on every swing (the rule is `character::rogue`), adds the dice to a
//! qualifying attack, and a hit that lands spends the turn's Sneak Attack ([`sneak_spent`]: an
//! `EffectKind::SneakAttacked` on the encounter, keyed by the turn, so an opportunity attack on
//! another creature's turn may sneak again, once in that turn). Cunning Action and Fast Hands
//! are `use_feature` options ([`cunning_action`]); Uncanny Dodge is the engine's reaction for
//! the hero when a monster hits it ([`uncanny_dodge`]).

use super::combat::Swing;
use super::creature::CreatureInfo;
use super::features::{FeatureUse, Played, refused};
use super::results::ReactionCast;
use super::{ToolContext, ToolError};
use crate::character::rogue::{self, NoSneak, Sneak, SneakFacts};
use crate::combat::actions;
use crate::dice::Advantage;
use crate::rules::{AttackResult, Condition, Spend};
use crate::state::{Change, Effect, EffectKind, GameState};

/// Whether `rogue` dealt Sneak Attack in the turn being played now.
fn sneaked_this_turn(state: &GameState, rogue: &str) -> bool {
    state.encounter.as_ref().is_some_and(|e| {
        e.effects_of(rogue).any(|x| {
            matches!(x.kind, EffectKind::SneakAttacked { turn } if turn == e.turn)
                && x.round == e.round
        })
    })
}

/// Another enemy of `target` (not `rogue`, able to act) within 5 ft of it, by name.
fn ally_beside(state: &GameState, rogue: &str, target: &str) -> Option<String> {
    crate::combat::positions::hostiles(state, target)
        .into_iter()
        .filter(|id| !id.eq_ignore_ascii_case(rogue))
        .find(|id| crate::combat::positions::distance(state, id, target) <= 5)
        .map(|id| state.name_of(&id).to_owned())
}

/// Sneak Attack on `who`'s `swing` at `victim`, whose roll resolves to `roll`: `None` when it
/// cannot apply (not a character with Sneak Attack, not a finesse or ranged weapon), else the
/// dice to add or why not.
pub(super) fn sneak_attack(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    swing: &Swing,
    roll: Advantage,
) -> Option<Result<Sneak, NoSneak>> {
    let c = ctx.state.character(who.target.id())?;
    let kind = swing.damage.first()?.kind;
    let ally = ally_beside(ctx.state, &c.id, victim.target.id());
    let facts = SneakFacts {
        roll,
        ally_beside: ally.as_deref(),
        used_this_turn: sneaked_this_turn(ctx.state, &c.id),
    };
    rogue::sneak_attack(ctx.srd, c, &swing.name, kind, facts)
}

/// The change that spends `rogue`'s Sneak Attack for the turn being played (none outside a
/// fight, where no turn is counted).
pub(super) fn sneak_spent(state: &GameState, rogue: &str) -> Option<Change> {
    let e = state.encounter.as_ref()?;
    Some(Change::EffectStarted {
        effect: Effect {
            creature: rogue.to_owned(),
            round: e.round,
            kind: EffectKind::SneakAttacked { turn: e.turn },
        },
    })
}

/// What the attack report says of Sneak Attack: applied, with its dice and why, or why not.
pub(super) fn sneak_report(
    sneak: Option<&Result<Sneak, NoSneak>>,
    landed: bool,
    hit: bool,
) -> Option<String> {
    Some(match sneak? {
        Ok(s) if landed => format!("Sneak Attack: +{} ({})", s.dice, s.because),
        Ok(_) if hit => "no Sneak Attack: the hit struck a duplicate".to_owned(),
        Ok(_) => "no Sneak Attack: the attack missed (still unused this turn)".to_owned(),
        Err(why) => why.to_string(),
    })
}

/// What Cunning Action (rogue 2) may do with the bonus action, and with the Thief's Fast
/// Hands (3) beside it: each option, what it takes as a target, and whether it is Fast Hands'.
const CUNNING: &[(&str, Option<&str>, bool)] = &[
    ("dash", None, false),
    ("disengage", None, false),
    ("hide", None, false),
    ("use_object", Some("the object used"), true),
    (
        "thieves_tools",
        Some("the locked exit, or a trap the party has found"),
        true,
    ),
];

/// The options `c` has, in words: "dash, disengage, hide, use_object (target: the object
/// used), ...": Fast Hands' only for a Thief of 3rd level.
fn cunning_options(srd: &crate::srd::Srd, c: &crate::state::Character) -> String {
    let fast_hands = crate::character::uses::feature_of(srd, c, rogue::FAST_HANDS).is_ok();
    CUNNING
        .iter()
        .filter(|(_, _, fast)| fast_hands || !fast)
        .map(|(name, target, _)| match target {
            Some(t) => format!("{name} (target: {t})"),
            None => (*name).to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Cunning Action (rogue 2): Dash, Disengage or Hide with the bonus action (`option`); with
/// the Thief's Fast Hands (3) also Use an Object or thieves' tools on a lock (`option`
/// "use_object" or "thieves_tools", `target` the object or the locked exit). Reached as
/// "cunning-action" or "fast-hands".
pub(super) fn cunning_action(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    let args = using.args;
    let options = || cunning_options(ctx.srd, c);
    let (cunning, _) =
        crate::character::uses::feature_of(ctx.srd, c, rogue::CUNNING_ACTION).map_err(refused)?;
    if args.amount.is_some() {
        return Err(ToolError::new(format!(
            "{} takes no amount: leave it null; options: {}",
            cunning.name,
            options()
        )));
    }
    let wanted = args
        .option
        .as_deref()
        .map(|o| o.trim().to_ascii_lowercase().replace([' ', '-'], "_"));
    let Some(&(option, takes, fast)) = CUNNING
        .iter()
        .find(|(name, _, _)| wanted.as_deref() == Some(*name))
    else {
        return Err(ToolError::new(format!(
            "{} needs an option: {}",
            cunning.name,
            options()
        )));
    };
    if fast {
        crate::character::uses::feature_of(ctx.srd, c, rogue::FAST_HANDS).map_err(|e| {
            ToolError::new(format!(
                "{option} as a bonus action needs Fast Hands: {e}; options: {}",
                options()
            ))
        })?;
    }
    let target = match (takes, args.target.as_deref().map(str::trim)) {
        (Some(_), Some(t)) if !t.is_empty() => t.to_owned(),
        (Some(what), _) => {
            return Err(ToolError::new(format!("{option} needs a target: {what}")));
        }
        (None, Some(_)) => {
            return Err(ToolError::new(format!(
                "{option} takes no target: leave it null"
            )));
        }
        (None, None) => String::new(),
    };
    let outcome = match option {
        "dash" => actions::dash_with(ctx.state, &c.id, Spend::BonusDash)?,
        "disengage" => actions::disengage_with(ctx.state, &c.id, Spend::BonusDisengage)?,
        "hide" => actions::hide_with(ctx.state, ctx.srd, &c.id, Spend::BonusAction, ctx.rng)?,
        "use_object" => {
            let outcome = actions::use_object_with(ctx.state, &c.id, &target, Spend::BonusAction)?;
            let report = super::actions::finish(ctx, outcome)?;
            // Quick hands on a trapped thing set it off all the same.
            super::traps::on_touch(ctx, &c.id, &target, super::traps::Touch::OnPurpose)?;
            return Ok(Played {
                effect: format!("{} (bonus action)", report.text),
                healed: None,
                ..Played::default()
            });
        }
        _ if super::traps::known_trap_at(ctx.state, &c.id, &target) => {
            return disarm(ctx, c, &target);
        }
        _ => return thieves_tools(ctx, c, &target),
    };
    let rolled = outcome
        .report
        .check
        .as_ref()
        .map(|r| format!("Stealth {}", r.total));
    let report = super::actions::finish(ctx, outcome)?;
    Ok(Played {
        effect: format!("{} (bonus action)", report.text),
        healed: None,
        rolled,
        ..Played::default()
    })
}

/// Fast Hands with thieves' tools on a trap the party has found: `disarm_trap` with the bonus
/// action.
fn disarm(
    ctx: &mut ToolContext<'_>,
    c: &crate::state::Character,
    feature: &str,
) -> Result<Played, ToolError> {
    let args = super::traps::DisarmTrapArgs {
        character: c.id.clone(),
        feature: feature.to_owned(),
    };
    let attempt = super::traps::disarm_trap_with(args, ctx, Spend::BonusAction)?;
    let fate = match (attempt.disarmed, attempt.set_off) {
        (true, _) => "disarms it",
        (false, true) => "fails and sets it off",
        (false, false) => "fails, without setting it off",
    };
    let mut effect = format!(
        "{} works at the trap on {} with the bonus action and {fate}",
        attempt.character, attempt.feature
    );
    for line in &attempt.what_happened {
        effect.push_str("; ");
        effect.push_str(line);
    }
    Ok(Played {
        effect,
        healed: None,
        rolled: Some(format!("check {}", attempt.result.total)),
        ..Played::default()
    })
}

/// Fast Hands with thieves' tools: `open_lock` picking the lock of `exit`, with the bonus
/// action.
fn thieves_tools(
    ctx: &mut ToolContext<'_>,
    c: &crate::state::Character,
    exit: &str,
) -> Result<Played, ToolError> {
    let args = super::locks::OpenLockArgs {
        character: c.id.clone(),
        exit: exit.to_owned(),
        method: super::locks::LockMethod::Pick,
        advantage: None,
    };
    let attempt = super::locks::open_lock_with(args, ctx, Spend::BonusAction)?;
    let fate = if attempt.unlocked {
        "opens it"
    } else {
        "fails to open it"
    };
    Ok(Played {
        effect: format!(
            "{} picks the lock of the {} with the bonus action and {fate}",
            attempt.character, attempt.exit
        ),
        healed: None,
        rolled: Some(format!("check {}", attempt.result.total)),
        ..Played::default()
    })
}

/// Uncanny Dodge (rogue 5): a monster `attacker` hit character `victim`; the rogue, seeing the
/// attacker (not blinded; the attacker neither invisible nor hidden) and with its reaction,
/// halves the hit's damage. The engine uses it for the hero, as it casts a declared Shield:
/// a monster's turn runs inside one tool call, and halving a hit is what a rogue's reaction
/// is for. Called after Shield, which turns the hit instead when it can.
pub(super) fn uncanny_dodge(
    ctx: &mut ToolContext<'_>,
    attacker: &CreatureInfo<'_>,
    victim: &str,
    result: &mut AttackResult,
) -> Result<Option<ReactionCast>, ToolError> {
    if !result.hit || result.total_damage == 0 {
        return Ok(None);
    }
    let Some(c) = ctx.state.character(victim) else {
        return Ok(None);
    };
    let unseen = c.conditions.has(Condition::Blinded)
        || attacker.conditions.has(Condition::Invisible)
        || crate::combat::is_hidden(ctx.state, attacker.target.id());
    if unseen
        || !c.can_act()
        || crate::character::uses::feature_of(ctx.srd, c, rogue::UNCANNY_DODGE).is_err()
    {
        return Ok(None);
    }
    let Ok(spend) = crate::combat::may_act(ctx.state, &c.id, Spend::Reaction) else {
        return Ok(None); // the reaction is spent this round
    };
    let name = c.name.clone();
    let before = result.total_damage;
    result.total_damage = rogue::uncanny_dodge(before);
    ctx.commit(spend.into_iter().collect())?;
    Ok(Some(ReactionCast {
        by: name,
        reaction: "Uncanny Dodge".to_owned(),
        slot_level: None,
        outcome: format!(
            "halves {}'s hit: {before} damage becomes {}",
            attacker.name, result.total_damage
        ),
        succeeded: true,
        check: None,
        slots_left: None,
    }))
}
