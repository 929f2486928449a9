//! Timed effects: what a spell (or, later, a feature or an item) leaves on a creature for a
//! while, with its source and what ends it. Kept on the creature it affects
//! ([`Character::timed_effects`](super::Character::timed_effects),
//! [`MonsterInstance::timed_effects`](super::MonsterInstance::timed_effects)), started and
//! ended only through [`Change::TimedEffectStarted`](super::Change::TimedEffectStarted) and
//! [`Change::TimedEffectEnded`](super::Change::TimedEffectEnded), checked here.
//!
//! Each ends by the rules, here, whoever builds the changes:
//!
//! - its duration: `rounds_left` counts down at the start of each turn of its source (or of
//!   each round when the source is not in the fight), and by ten a minute as the clock
//!   advances ([`Change::TimeAdvanced`](super::Change::TimeAdvanced)); at 0 it ends. One round
//!   is "until the start of the source's next turn" (Shield). An effect `at_turn_end` counts
//!   at the end of its source's turns instead: two rounds are "until the end of your next
//!   turn" (Guiding Bolt), exactly;
//! - concentration: when its source's concentration ends or moves to another spell
//!   ([`Change::Concentration`](super::Change::Concentration), or 0 HP and incapacitation);
//! - damage, for the effects that say so (Sleep's slumber);
//! - a repeated save (Hold Person), which the interpreter in `effects` rolls at the end of the
//!   target's turn and ends with `TimedEffectEnded`.
//!
//! A condition a timed effect imposes is added with it and removed when the last effect (or
//! monster's hold) imposing it ends: nothing is left half-applied.

use std::sync::Arc;

use super::GameState;
use super::change::ChangeError;
use super::timed_reads::timed_effects;
use crate::rules::Condition;

pub use super::timed_kind::{
    GlyphKept, RepeatSave, RollKind, RollOn, SpeedChange, TimedEffect, TimedKind, ZoneKept,
};

/// Whether two kinds are the same sort, which a recast of the same spell replaces: the same
/// variant (and, for a condition, the same condition: Hypnotic Pattern's charm and its
/// incapacitation stand side by side).
fn same_sort(a: &TimedKind, b: &TimedKind) -> bool {
    match (a, b) {
        (TimedKind::Condition { condition: x, .. }, TimedKind::Condition { condition: y, .. }) => {
            x == y
        }
        (TimedKind::Advantage { on: x, .. }, TimedKind::Advantage { on: y, .. }) => x == y,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

pub(super) fn effects_mut<'a>(
    state: &'a mut GameState,
    id: &str,
) -> Result<&'a mut Vec<TimedEffect>, ChangeError> {
    if state.character(id).is_some() {
        return Ok(&mut super::lookup::character_mut(state, id)?.timed_effects);
    }
    Ok(&mut super::lookup::monster_mut(state, id)?.timed_effects)
}

/// Whether `e` only records the cause of a condition kept until what ends it by the rules
/// (prone from a wolf's bite or Grease): no duration, no escape, not its creature's acting.
pub fn is_kept_condition(e: &TimedEffect) -> bool {
    e.rounds_left.is_none()
        && matches!(
            e.kind,
            TimedKind::ConditionUntil {
                escape: None,
                ends_on_acting: false,
                ..
            }
        )
}

/// After `ConditionRemoved` took `condition` off the creature `id` (standing up): the kept
/// conditions' records of it ([`is_kept_condition`]) go with it, so the cause never outlives
/// the condition.
pub(super) fn condition_removed(state: &mut GameState, id: &str, condition: Condition) {
    let stale = |e: &TimedEffect| is_kept_condition(e) && e.condition() == Some(condition);
    if !timed_effects(state, id).iter().any(stale) {
        return;
    }
    if let Ok(list) = effects_mut(state, id) {
        list.retain(|e| !stale(e));
    }
}

/// Applies `TimedEffectStarted`: on a living creature, from a known source; a concentration
/// effect only while its source concentrates on that spell (so `Concentration` comes first);
/// a duration of at least one round. The same spell's effect of the same sort from the same
/// source is replaced (cast again). A condition is added with it.
pub(super) fn start(state: &mut GameState, effect: &TimedEffect) -> Result<(), ChangeError> {
    let alive = state.character(&effect.target).is_some_and(|c| !c.dead)
        || state.monster(&effect.target).is_some_and(|m| m.is_alive());
    if !alive {
        return Err(ChangeError::Invalid(format!(
            "{:?} is not a living character or monster: no effect starts on it",
            effect.target
        )));
    }
    if state.character(&effect.source).is_none() && state.monster(&effect.source).is_none() {
        return Err(ChangeError::Invalid(format!(
            "the source {:?} is neither a character nor a monster",
            effect.source
        )));
    }
    effect.kind.check()?;
    if effect.rounds_left == Some(0) {
        return Err(ChangeError::Invalid(
            "a timed effect lasts at least one round".into(),
        ));
    }
    if effect.concentration {
        let on = concentration_of(state, &effect.source);
        if !on.is_some_and(|s| s.eq_ignore_ascii_case(&effect.spell)) {
            return Err(ChangeError::Invalid(format!(
                "{} is not concentrating on {} (concentrating on: {}): its effects need the concentration first",
                effect.source,
                effect.spell,
                on.unwrap_or("nothing")
            )));
        }
    }
    super::timed_hp::before_start(state, effect)?;
    super::timed_shape::before_start(state, effect)?;
    let condition = effect.condition();
    let list = effects_mut(state, &effect.target)?;
    list.retain(|e| {
        !(e.source.eq_ignore_ascii_case(&effect.source)
            && e.spell.eq_ignore_ascii_case(&effect.spell)
            && same_sort(&e.kind, &effect.kind))
    });
    list.push(effect.clone());
    super::timed_hp::started(state, effect)?;
    super::timed_shape::started(state, effect)?;
    if let Some(condition) = condition {
        let target = target_of(state, &effect.target);
        super::lookup::conditions_mut(state, &target)?.add(condition);
    }
    Ok(())
}

/// Applies `TimedEffectEnded`: the effect must be there; its condition lifts unless something
/// else still imposes it.
pub(super) fn end(state: &mut GameState, effect: &TimedEffect) -> Result<(), ChangeError> {
    let list = effects_mut(state, &effect.target)?;
    let Some(i) = list.iter().position(|e| e == effect) else {
        return Err(ChangeError::Invalid(format!(
            "{} has no such effect of {} to end",
            effect.target, effect.spell
        )));
    };
    list.remove(i);
    lift(state, std::slice::from_ref(effect));
    Ok(())
}

fn target_of(state: &GameState, id: &str) -> super::Target {
    match state.character(id) {
        Some(c) => super::Target::Character(c.id.clone()),
        None => super::Target::Monster(state.monster(id).map_or(id, |m| &m.id).to_owned()),
    }
}

/// Removes the conditions of `ended` effects that nothing else imposes any more: no other
/// timed effect, no monster's hold, and never unconsciousness at 0 hit points; and takes back
/// a raised maximum (`timed_hp.rs`).
fn lift(state: &mut GameState, ended: &[TimedEffect]) {
    for e in ended {
        super::timed_hp::ended(state, e);
        super::timed_shape::ended(state, e);
        super::rage::ended(state, e);
        super::summons::spell_ended(state, e);
        super::timed_aloft::ended(state, e);
        let Some(condition) = e.condition() else {
            continue;
        };
        let still = timed_effects(state, &e.target)
            .iter()
            .any(|o| o.condition() == Some(condition))
            || state.monsters.iter().any(|m| {
                m.holds.iter().any(|h| {
                    h.target.eq_ignore_ascii_case(&e.target) && h.conditions.contains(&condition)
                })
            });
        let at_zero = state
            .character(&e.target)
            .is_some_and(|c| c.hp.current == 0)
            || state.monster(&e.target).is_some_and(|m| m.hp.current == 0);
        if still || (condition == Condition::Unconscious && at_zero) {
            continue;
        }
        let target = target_of(state, &e.target);
        if let Ok(set) = super::lookup::conditions_mut(state, &target) {
            set.remove(condition);
        }
    }
}

/// Ends every timed effect `ends` picks, on every creature, and lifts their conditions.
/// Touches nothing (no copy of the lists) when none is picked.
pub(super) fn end_where(state: &mut GameState, ends: impl Fn(&TimedEffect) -> bool) {
    let any = state
        .characters
        .iter()
        .flat_map(|c| &c.timed_effects)
        .chain(state.monsters.iter().flat_map(|m| &m.timed_effects))
        .any(&ends);
    if !any {
        return;
    }
    let mut ended = Vec::new();
    let mut take = |list: &mut Vec<TimedEffect>| {
        list.retain(|e| {
            let gone = ends(e);
            if gone {
                ended.push(e.clone());
            }
            !gone
        });
    };
    for c in Arc::make_mut(&mut state.characters) {
        if c.timed_effects.iter().any(&ends) {
            take(&mut c.timed_effects);
        }
    }
    for m in Arc::make_mut(&mut state.monsters) {
        if m.timed_effects.iter().any(&ends) {
            take(&mut m.timed_effects);
        }
    }
    lift(state, &ended);
}

/// Before `character`'s concentration changes: the effects of the spell it concentrated on
/// end (a new concentration spell ends the old one's; so does losing concentration).
pub(super) fn concentration_ends(state: &mut GameState, character: &str) {
    let Some(old) = concentration_of(state, character).map(str::to_owned) else {
        return;
    };
    let id = match (state.character(character), state.monster(character)) {
        (Some(c), _) => c.id.clone(),
        (None, Some(m)) => m.id.clone(),
        (None, None) => character.to_owned(),
    };
    end_where(state, |e| {
        e.concentration && e.source.eq_ignore_ascii_case(&id) && e.spell.eq_ignore_ascii_case(&old)
    });
}

/// The spell a creature (a character, or a monster casting its spells) concentrates on.
pub fn concentration_of<'a>(state: &'a GameState, id: &str) -> Option<&'a str> {
    match state.character(id) {
        Some(c) => c.concentration.as_deref(),
        None => state.monster(id).and_then(|m| m.concentration.as_deref()),
    }
}

/// Concentration effects whose source no longer concentrates on their spell end (after 0 HP or
/// incapacitation dropped it).
pub(super) fn orphans_end(state: &mut GameState) {
    let concentrating = |s: &GameState, e: &TimedEffect| {
        concentration_of(s, &e.source).is_some_and(|on| on.eq_ignore_ascii_case(&e.spell))
    };
    let orphaned: Vec<TimedEffect> = state
        .characters
        .iter()
        .flat_map(|c| &c.timed_effects)
        .chain(state.monsters.iter().flat_map(|m| &m.timed_effects))
        .filter(|e| e.concentration && !concentrating(state, e))
        .cloned()
        .collect();
    if !orphaned.is_empty() {
        end_where(state, |e| orphaned.contains(e));
    }
}

/// After damage to `target` (an id): the effects that end on damage end (Sleep).
pub(super) fn damaged(state: &mut GameState, target: &str) {
    end_where(state, |e| {
        e.ends_on_damage && e.target.eq_ignore_ascii_case(target)
    });
}

/// Counts `rounds` off the effects `pick` picks, ending those at 0.
fn count_down(state: &mut GameState, rounds: u32, pick: impl Fn(&TimedEffect) -> bool) {
    let picked = |e: &TimedEffect| e.rounds_left.is_some() && pick(e);
    let any = state
        .characters
        .iter()
        .flat_map(|c| &c.timed_effects)
        .chain(state.monsters.iter().flat_map(|m| &m.timed_effects))
        .any(picked);
    if !any {
        return;
    }
    let tick = |list: &mut Vec<TimedEffect>| {
        for e in list.iter_mut().filter(|e| picked(e)) {
            e.rounds_left = e.rounds_left.map(|r| r.saturating_sub(rounds));
        }
    };
    for c in Arc::make_mut(&mut state.characters) {
        tick(&mut c.timed_effects);
    }
    for m in Arc::make_mut(&mut state.monsters) {
        tick(&mut m.timed_effects);
    }
    end_where(state, |e| e.rounds_left == Some(0));
}

/// At the start of the fight's current turn: one round off the effects of the creature whose
/// turn it is, and, as a new round begins, off those whose source is not in the fight.
pub(super) fn turn_started(state: &mut GameState) {
    let none = state.characters.iter().all(|c| c.timed_effects.is_empty())
        && state.monsters.iter().all(|m| m.timed_effects.is_empty());
    let Some(encounter) = state.encounter.as_ref().filter(|_| !none) else {
        return;
    };
    let now = encounter.current().unwrap_or_default().to_owned();
    let new_round = encounter.turn == 0;
    let fighting: Vec<String> = encounter.order.iter().map(|s| s.id.clone()).collect();
    count_down(state, 1, |e| {
        let source = &e.source;
        (source.eq_ignore_ascii_case(&now) && !e.at_turn_end)
            || (new_round && !fighting.iter().any(|f| f.eq_ignore_ascii_case(source)))
    });
}

/// At the end of the fight's current turn (before the next begins): one round off the
/// effects that count at the end of their source's turns, when it is their source's turn.
pub(super) fn turn_ended(state: &mut GameState) {
    let Some(now) = state.turn_now().map(str::to_owned) else {
        return;
    };
    count_down(state, 1, |e| {
        e.at_turn_end && e.source.eq_ignore_ascii_case(&now)
    });
}

/// As the clock advances `minutes`: ten rounds off each effect a minute.
pub(super) fn time_passed(state: &mut GameState, minutes: u32) {
    count_down(state, minutes.saturating_mul(10), |_| true);
}

#[cfg(test)]
#[path = "timed_tests.rs"]
mod tests;
