//! The Hunter's other two techniques of Hunter's Prey on the tools' paths (Colossus Slayer is
//! `tools::feature_ranger`); the rules are `character::ranger`.
//!
//! - **Horde Breaker**: each weapon swing a Horde Breaker makes on its own turn leaves a record
//!   (`TimedKind::Struck`: at whom, with what; [`struck`], from `tools::combat`). Once a turn,
//!   `use_feature` "hunters-prey-horde-breaker" with a `target` makes one more attack, free,
//!   with that weapon (or the one named in `option`) at a different creature within 5 feet of
//!   the one struck, refused otherwise with the creatures that qualify ([`horde_breaker`]).
//! - **Giant Killer**: when a Large or larger monster within 5 feet attacks the hunter, hit or
//!   miss, the engine spends the hunter's reaction on an attack at it right after the swing,
//!   when the reaction is free and the hunter can act, sees it and reaches it with a weapon
//!   (as it takes Uncanny Dodge: the player cannot interject in a monster's turn)
//!   ([`giant_killer`]).

use super::combat::Swing;
use super::creature::{self, CreatureInfo};
use super::feature_ranger::{own_turn, this_turn};
use super::features::{FeatureUse, Played};
use super::results::ReactionCast;
use super::{ToolContext, ToolError};
use crate::character::ranger::{self, HORDE_BREAKER, HUNTER_REACH_FT, STRUCK};
use crate::combat::positions::distance;
use crate::rules::{Condition, Spend};
use crate::state::{Change, TimedKind};

/// The Hunter's Prey option Horde Breaker.
const HORDE_BREAKER_SLUG: &str = "hunters-prey-horde-breaker";

/// The Hunter's Prey option Giant Killer.
const GIANT_KILLER_SLUG: &str = "hunters-prey-giant-killer";

/// The record of a Horde Breaker's weapon swing at `victim` on its own turn (hit or miss),
/// which [`horde_breaker`] follows; `None` for anyone else, a spell's attack, or off its turn.
pub(super) fn struck(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    swing: &Swing,
) -> Option<Change> {
    let c = ctx.state.character(who.target.id())?;
    let weapon = ctx.srd.spell_named(&swing.name).is_none();
    let own_turn = own_turn(ctx, &c.id);
    let hunter = ranger::hunts_with(ctx.srd, c, HORDE_BREAKER_SLUG);
    (weapon && own_turn && hunter && !ranger::horde_breaker_used(c)).then(|| {
        let kind = TimedKind::Struck {
            at: victim.target.id().to_owned(),
            weapon: swing.name.clone(),
        };
        this_turn(&c.id, STRUCK, kind)
    })
}

/// Horde Breaker (ranger 3, Hunter): once on its turn, after a weapon attack, one more attack
/// with the same weapon at a different creature within 5 feet of that attack's target; free
/// (no attack of the action spent). `target` is the second creature; `option` the weapon when
/// it attacked with several (null: the last).
pub(super) fn horde_breaker(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    super::features::takes(using, true, true)?;
    let c = &using.c;
    if !crate::character::features::chose(c, HORDE_BREAKER_SLUG) {
        return Err(ToolError::new(format!(
            "{} did not choose Horde Breaker for Hunter's Prey (chosen: {})",
            c.name,
            c.choices
                .get("hunters-prey")
                .map_or_else(|| "none".to_owned(), |p| p.join(", "))
        )));
    }
    if ctx.state.encounter.is_none() {
        return Err(ToolError::new(
            "Horde Breaker follows a weapon attack on the ranger's turn in a fight; no fight is running",
        ));
    }
    // Whose turn it is and whether the ranger can act: the gate, spending nothing.
    super::features::costing(ctx, &c.id, Spend::Movement(0))?;
    if ranger::horde_breaker_used(c) {
        return Err(ToolError::new(format!(
            "{} has used Horde Breaker this turn: once a turn",
            c.name
        )));
    }
    let struck: Vec<(&str, &str)> = ranger::struck_this_turn(c)
        .into_iter()
        .filter(|(_, w)| {
            using
                .args
                .option
                .as_deref()
                .is_none_or(|o| w.eq_ignore_ascii_case(o.trim()))
        })
        .collect();
    let Some(&(_, weapon)) = struck.last() else {
        let made: Vec<&str> = ranger::struck_this_turn(c).iter().map(|s| s.1).collect();
        return Err(ToolError::new(if made.is_empty() {
            format!(
                "Horde Breaker follows a weapon attack: {} has made none this turn (roll_attack first)",
                c.name
            )
        } else {
            format!(
                "{} attacked this turn with {}, not {:?}: Horde Breaker uses the same weapon",
                c.name,
                made.join(", "),
                using.args.option.as_deref().unwrap_or_default()
            )
        }));
    };
    let firsts: Vec<&str> = struck
        .iter()
        .filter(|(_, w)| *w == weapon)
        .map(|(at, _)| *at)
        .collect();
    let allowed = beside(ctx, &c.id, &firsts);
    let refusal = |why: String| {
        ToolError::new(format!(
            "{why}; Horde Breaker's attack goes at another creature within {HUNTER_REACH_FT} ft of the one {} attacked ({}): {}",
            c.name,
            firsts
                .iter()
                .map(|id| ctx.state.name_of(id))
                .collect::<Vec<_>>()
                .join(", "),
            if allowed.is_empty() {
                "none stands there".to_owned()
            } else {
                allowed.join(", ")
            }
        ))
    };
    let Some(named) = using.args.target.as_deref() else {
        return Err(refusal("Horde Breaker needs a target".to_owned()));
    };
    let second = creature::find(ctx.state, ctx.srd, named)?;
    let id = second.target.id().to_owned();
    if firsts.contains(&id.as_str()) {
        return Err(refusal(format!("{} was the first target", second.name)));
    }
    if !firsts
        .iter()
        .any(|at| distance(ctx.state, at, &id) <= HUNTER_REACH_FT)
    {
        return Err(refusal(format!("{} is not beside it", second.name)));
    }
    let weapon = weapon.to_owned();
    ctx.commit(vec![this_turn(
        &c.id,
        HORDE_BREAKER,
        TimedKind::UsedThisTurn,
    )])?;
    let report = super::combat::attack_spent(ctx, &c.id, &id, Some(&weapon), None)?;
    Ok(Played {
        effect: format!(
            "{} breaks through the horde: one more {weapon} attack at {}",
            c.name, second.name
        ),
        strikes: vec![report],
        ..Played::default()
    })
}

/// The names of the living creatures within 5 feet of any of `firsts`, besides them and
/// `hunter`.
fn beside(ctx: &ToolContext<'_>, hunter: &str, firsts: &[&str]) -> Vec<String> {
    let near = |id: &str| {
        id != hunter
            && !firsts.contains(&id)
            && firsts
                .iter()
                .any(|at| distance(ctx.state, at, id) <= HUNTER_REACH_FT)
    };
    let monsters = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.is_alive() && m.revealed && near(&m.id))
        .map(|m| m.name.clone());
    let heroes = ctx
        .state
        .characters
        .iter()
        .filter(|h| !h.dead && near(&h.id))
        .map(|h| h.name.clone());
    monsters.chain(heroes).collect()
}

/// Giant Killer after monster `attacker`'s swing at `victim` (hit or miss): when the victim is
/// a Giant Killer that can act, sees the attacker, a Large or larger creature within 5 feet
/// and within reach of one of its weapons, and its reaction is free, the reaction is spent on
/// an attack at it (`reaction` is what the victim already reacted with; it is kept).
pub(super) fn giant_killer(
    ctx: &mut ToolContext<'_>,
    attacker: &CreatureInfo<'_>,
    victim: &str,
    reaction: Option<ReactionCast>,
) -> Result<Option<ReactionCast>, ToolError> {
    if reaction.is_some() {
        return Ok(reaction); // the reaction went on Shield, Uncanny Dodge...
    }
    let (Some(c), Some(template)) = (ctx.state.character(victim), attacker.template) else {
        return Ok(None);
    };
    let by = attacker.target.id();
    let unseen = c.conditions.has(Condition::Blinded)
        || attacker.conditions.has(Condition::Invisible)
        || crate::combat::is_hidden(ctx.state, by);
    if !ranger::hunts_with(ctx.srd, c, GIANT_KILLER_SLUG)
        || !ranger::giant(template.size)
        || !attacker.standing
        || unseen
        || !c.can_act()
        || c.hp.current == 0
        || distance(ctx.state, by, &c.id) > HUNTER_REACH_FT
    {
        return Ok(None);
    }
    let Some(weapon) = super::combat::first_in_reach(ctx, &c.id, by) else {
        return Ok(None); // no weapon reaches it
    };
    let Ok(spend) = crate::combat::may_act(ctx.state, &c.id, Spend::Reaction) else {
        return Ok(None); // the reaction is spent this round
    };
    let name = c.name.clone();
    let id = c.id.clone();
    ctx.commit(spend.into_iter().collect())?;
    let report = super::combat::attack_spent(ctx, &id, by, Some(&weapon), None)?;
    let outcome = report
        .attacks
        .iter()
        .map(|s| {
            if s.result.hit {
                format!(
                    "strikes back at {} with its {}: a hit for {} damage ({} left{})",
                    attacker.name,
                    s.attack,
                    s.result.total_damage,
                    s.target_hp,
                    if s.target_down { ", down" } else { "" }
                )
            } else {
                format!(
                    "strikes back at {} with its {}: a miss ({} against AC {})",
                    attacker.name, s.attack, s.result.total, s.result.target_ac
                )
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    Ok(Some(ReactionCast {
        by: name,
        reaction: "Giant Killer".to_owned(),
        slot_level: None,
        succeeded: report.attacks.iter().any(|s| s.result.hit),
        outcome,
        check: None,
        slots_left: None,
    }))
}
