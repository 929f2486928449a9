//! A Bardic Inspiration die on the roll it can help (`TimedKind::Inspired`, given by
//! `tools::feature_bard`). The SRD lets its holder add it after seeing the d20, before knowing
//! the outcome; the engine decides for the holder: the die waits for an attack roll, check or
//! save whose total fails and that the die's largest face could still carry to the DC or AC,
//! then it is rolled and added, and spent whatever it shows. A success, a natural 1 on an
//! attack, a failure a condition forces, or one the die cannot reach leaves it held. It lasts
//! its ten minutes as any timed effect does.

use crate::dice::DieSource;

use super::casting::Subject;
use super::resolve::Run;

use crate::rules::attack::roll_damage;
use crate::rules::{AttackProfile, AttackResult, AttackTarget, CheckResult};
use crate::state::{Change, GameState, TimedEffect, TimedKind, timed_effects};

/// A die rolled on a roll that fell short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspired {
    /// What it added.
    pub added: i32,
    /// The change that ends the die (commit it with the roll).
    pub spent: Change,
    /// In words, for the roll's label: "+4: Bardic Inspiration (1d6) on a 12 against 15".
    pub reason: String,
}

/// The die `creature` holds, unless `already` spends it (a second roll in the same casting
/// sees the state before the first).
fn held<'s>(
    state: &'s GameState,
    creature: &str,
    already: &[Change],
) -> Option<(&'s TimedEffect, u16)> {
    timed_effects(state, creature).iter().find_map(|e| {
        let TimedKind::Inspired { sides } = e.kind else {
            return None;
        };
        let ended = Change::TimedEffectEnded { effect: e.clone() };
        (!already.contains(&ended)).then_some((e, sides))
    })
}

/// The die on a total that fell short of `needed`, when its largest face could reach it:
/// rolled, with the change that spends it.
fn roll_on<R: DieSource + ?Sized>(
    state: &GameState,
    creature: &str,
    total: i32,
    needed: i32,
    already: &[Change],
    rng: &mut R,
) -> Option<Inspired> {
    let (effect, sides) = held(state, creature, already)?;
    if total >= needed || total + i32::from(sides) < needed {
        return None;
    }
    let added = i32::from(rng.die(u32::from(sides)) as u16);
    Some(Inspired {
        added,
        spent: Change::TimedEffectEnded {
            effect: effect.clone(),
        },
        reason: format!(
            "{added:+}: {} (1d{sides}) on a {total} against {needed}",
            effect.spell
        ),
    })
}

/// A check or save `creature` failed: its die added where it could turn the failure (not a
/// failure a condition forces), the result counted again.
pub fn inspire_check<R: DieSource + ?Sized>(
    state: &GameState,
    creature: &str,
    result: &mut CheckResult,
    already: &[Change],
    rng: &mut R,
) -> Option<Inspired> {
    if result.success || result.automatic_failure.is_some() {
        return None;
    }
    let inspired = roll_on(state, creature, result.total, result.dc, already, rng)?;
    result.modifier += inspired.added;
    result.total += inspired.added;
    result.success = result.total >= result.dc;
    Some(inspired)
}

/// An attack roll `creature` missed with: its die added where it could reach the AC (a natural
/// 1 misses whatever is added); a miss turned into a hit rolls the hit's damage (`profile`'s
/// dice against `target`, critical where every hit on it is).
pub fn inspire_attack<R: DieSource + ?Sized>(
    state: &GameState,
    creature: &str,
    result: &mut AttackResult,
    profile: &AttackProfile<'_>,
    target: &AttackTarget,
    already: &[Change],
    rng: &mut R,
) -> Option<Inspired> {
    if result.hit || result.d20.natural == 1 {
        return None;
    }
    let inspired = roll_on(
        state,
        creature,
        result.total,
        result.target_ac,
        already,
        rng,
    )?;
    result.total += inspired.added;
    if result.total >= result.target_ac {
        result.hit = true;
        result.critical = target.hits_are_critical;
        result.damage = profile
            .damage
            .iter()
            .map(|dice| roll_damage(dice, result.critical, &target.defenses, rng))
            .collect();
        result.total_damage = result.damage.iter().map(|d| d.taken).sum();
    }
    Some(inspired)
}

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// Bardic Inspiration on `s`'s save against the casting, where the die could turn a
    /// failure: added, its spending among the casting's changes (once, however many saves).
    pub(super) fn inspired_save(
        &mut self,
        s: &Subject,
        result: &mut CheckResult,
        modifiers: &mut Vec<String>,
    ) {
        let (id, already) = (s.target.id(), &self.out.changes);
        if let Some(i) = inspire_check(self.state, id, result, already, self.rng) {
            self.out.changes.push(i.spent);
            modifiers.push(i.reason);
        }
    }
}
