//! What monsters' actions carry beyond damage, as the interpreter applies it: a maximum drained
//! by the damage taken ([`Effect::MaxHpReduction`](super::Effect::MaxHpReduction)) and a hold kept
//! up by its monster ([`Effect::Hold`](super::Effect::Hold)); a prone bite is the spells'
//! [`Effect::AddCondition`](super::Effect::AddCondition).
//! Each gives the changes for one creature and what it did; nothing is committed here.
//! [`resolve_hit`] resolves what a monster's hit carries.

use crate::dice::DieSource;

use super::casting::{Casting, Outcome, Refused, Resolution, Subject};
use super::resolve::{Run, resolve_with};
use super::vocabulary::Effect;
use crate::rules::Condition;
use crate::state::{Change, GameState, Hold, Target};

/// Resolves what a hit carries beyond its damage (a monster's attack action: Life Drain's
/// save, a wolf's bite knocking prone) on the creature it hit, `taken` the damage the hit
/// dealt it (what [`Effect::MaxHpReduction`] lowers the maximum by).
pub fn resolve_hit<R: DieSource + ?Sized>(
    state: &GameState,
    casting: Casting<'_>,
    subject: &Subject,
    taken: u32,
    effects: &[Effect],
    rng: &mut R,
) -> Result<Resolution, Refused> {
    let subjects = std::slice::from_ref(subject);
    resolve_with(state, casting, subjects, effects, taken, 0, rng)
}

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// One of this file's effects on `s`: its changes and what it did, added to the output.
    pub(super) fn rider(&mut self, effect: &Effect, s: &Subject) {
        match effect {
            Effect::MaxHpReduction => {
                let taken = self.taken_before + self.taken_by(&s.target);
                let (change, outcome) = drain(self.state, s, taken);
                self.out.changes.extend(change);
                self.out.outcomes.extend(outcome);
            }
            Effect::Hold { conditions } => {
                let (changes, outcome) = hold(self.casting, s, conditions);
                self.out.changes.extend(changes);
                self.out.outcomes.push(outcome);
            }
            _ => {}
        }
    }

    /// The damage `target` took in this resolution so far.
    pub(super) fn taken_by(&self, target: &Target) -> u32 {
        self.out
            .changes
            .iter()
            .filter_map(|c| match c {
                Change::Damage {
                    target: t, amount, ..
                } if t == target => Some(*amount),
                _ => None,
            })
            .sum()
    }
}

/// The hit point maximum of `s` lowered by `taken`, the damage it took from the action: a
/// living character only (a monster's maximum is its stat block's), never by 0.
fn drain(state: &GameState, s: &Subject, taken: u32) -> (Option<Change>, Option<Outcome>) {
    let Target::Character(id) = &s.target else {
        return (None, None);
    };
    if taken == 0 || state.character(id).is_none_or(|c| c.dead) {
        return (None, None);
    }
    let change = Change::MaxHpDrained {
        character: id.clone(),
        amount: taken,
    };
    let outcome = Outcome::Drained {
        target: s.name.clone(),
        amount: taken,
    };
    (Some(change), Some(outcome))
}

/// The conditions of `wanted` that `s` has not yet and is not immune to.
fn new_conditions(s: &Subject, wanted: &[Condition]) -> Vec<Condition> {
    wanted
        .iter()
        .copied()
        .filter(|c| !s.conditions.has(*c) && !s.condition_immunities.contains(c))
        .collect()
}

/// `s` held by the casting's monster with `conditions` (those it has not and may have): each
/// added, then the hold the monster keeps up. Nothing when none is new.
fn hold(casting: Casting<'_>, s: &Subject, conditions: &[Condition]) -> (Vec<Change>, Outcome) {
    let new = new_conditions(s, conditions);
    if new.is_empty() {
        let why = "already has every condition the hold imposes, or is immune to them".to_owned();
        return (
            Vec::new(),
            Outcome::Unaffected {
                target: s.name.clone(),
                why,
            },
        );
    }
    let mut changes: Vec<Change> = new
        .iter()
        .map(|c| Change::ConditionAdded {
            target: s.target.clone(),
            condition: *c,
        })
        .collect();
    changes.push(Change::HoldStarted {
        monster: casting.caster.id.clone(),
        hold: Hold {
            action: casting.source.to_owned(),
            target: s.target.id().to_owned(),
            conditions: new.clone(),
        },
    });
    let outcome = Outcome::Held {
        target: s.name.clone(),
        conditions: new,
    };
    (changes, outcome)
}
