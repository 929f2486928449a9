//! Breaking free of a spell's hold (Web's restraint): the action, and a check of the ability
//! the spell names against the DC it was cast with (`state::TimedKind::ConditionUntil` with an
//! `escape`); on a success the hold ends and its condition lifts. `escape_grapple` plays it for
//! a creature no one grapples.

use crate::dice::DieSource;

use super::{ActionError, ActionRoll, Outcome, StandardAction, report, spend, target_of, who};
use crate::rules::Spend;
use crate::srd::Srd;
use crate::state::{Change, GameState, TimedEffect, TimedKind, timed_effects};

/// The first hold on `creature` that an action and a check can end, if any.
pub fn spell_hold(state: &GameState, creature: &str) -> Option<TimedEffect> {
    timed_effects(state, creature)
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                TimedKind::ConditionUntil {
                    escape: Some(_),
                    ..
                }
            )
        })
        .cloned()
}

/// `creature` tries to break free of `hold` (from [`spell_hold`]): the action, then the check.
pub fn escape_spell(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    hold: TimedEffect,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    let w = who(state, creature)?;
    let mut changes = spend(state, &w, Spend::Action)?;
    let TimedKind::ConditionUntil {
        condition,
        escape: Some(escape),
        ..
    } = hold.kind
    else {
        return Err(super::refused(format!(
            "{} has nothing to break free of",
            w.name
        )));
    };
    let modifier = ability_modifier(state, srd, &w.id, escape.ability);
    let (result, sources, ends) = super::rolled::check(state, &w, modifier, escape.dc, false, rng);
    changes.extend(ends);
    if result.success {
        changes.push(Change::TimedEffectEnded {
            effect: hold.clone(),
        });
    }
    let text = if result.success {
        format!(
            "{} tears free of the {} ({} {}): no longer {condition}",
            w.name, hold.spell, escape.ability, result.total
        )
    } else {
        format!(
            "{} strains against the {} ({} {}) and stays {condition}",
            w.name, hold.spell, escape.ability, result.total
        )
    };
    let mut r = report(&w, StandardAction::EscapeGrapple, result.success, text);
    r.check = Some(result.clone());
    r.advantage_reasons = sources;
    let roll = ActionRoll {
        label: format!(
            "{} {} check (escape {})",
            w.name, escape.ability, hold.spell
        ),
        roller: target_of(&w),
        result,
    };
    Ok(Outcome {
        changes,
        rolls: vec![roll],
        report: r,
    })
}

/// A creature's ability modifier: a character's sheet, a monster's stat block.
fn ability_modifier(state: &GameState, srd: &Srd, id: &str, ability: crate::rules::Ability) -> i32 {
    if let Some(c) = state.character(id) {
        return c.abilities.modifier(ability);
    }
    state
        .monster(id)
        .and_then(|m| srd.monster(&m.template).ok())
        .map_or(0, |t| t.abilities.modifier(ability))
}
