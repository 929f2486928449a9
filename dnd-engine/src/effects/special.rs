//! The interpreter's part for the special spells' effects (issue 16): advantage granted
//! against a creature, a condition its creature ends itself, a mark, dispelling, revival and a
//! push. Each is one timed effect or one change on the subject, built here so `resolve.rs`
//! keeps the common vocabulary; the rules they need live beside them (`magic.rs`,
//! `movement.rs`).

use crate::dice::DieSource;

use super::casting::{Outcome, Subject};
use super::resolve::Run;
use super::vocabulary::{Effect, SlotDuration};
use crate::state::{Change, RepeatSave, TimedKind};
use crate::store::RollDetail;

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// Applies one of the special effects to subject `s`; any other effect is left alone.
    pub(super) fn special(&mut self, effect: &Effect, s: &Subject) {
        match effect {
            Effect::ConditionUntil {
                condition,
                duration,
                escape,
                ends_on_acting,
            } => {
                if s.condition_immunities.contains(condition) {
                    self.out.outcomes.push(Outcome::Unaffected {
                        target: s.name.clone(),
                        why: format!("immune to being {condition}"),
                    });
                    return;
                }
                let dc = self.casting.caster.save_dc;
                let kind = TimedKind::ConditionUntil {
                    condition: *condition,
                    escape: escape.map(|ability| RepeatSave { ability, dc }),
                    ends_on_acting: *ends_on_acting,
                };
                self.start(s, kind, *duration, false);
            }
            Effect::Mark {
                dice,
                duration,
                by_slot,
            } => {
                let kind = TimedKind::Marked {
                    count: dice.count,
                    sides: dice.sides,
                };
                let duration = SlotDuration::at(*duration, by_slot, self.casting.slot);
                self.start(s, kind, duration, false);
            }
            Effect::Dispel { automatic_up_to } => {
                let up_to = (*automatic_up_to).max(self.casting.slot);
                let modifier = self.casting.caster.modifier;
                let by = self.caster_target();
                let done = super::magic::dispel(self.state, s, up_to, modifier, self.rng);
                for (change, outcome, roll) in done {
                    self.out.changes.extend(change);
                    if let Some((label, result)) = roll {
                        let total = i64::from(result.total);
                        self.record(label, total, Some(by.clone()), RollDetail::Check(result));
                    }
                    self.out.outcomes.push(outcome);
                }
            }
            Effect::Revive { within_rounds } => {
                self.out.changes.push(Change::Revived {
                    character: s.target.id().to_owned(),
                    within_rounds: *within_rounds,
                });
                let target = s.name.clone();
                self.out.outcomes.push(Outcome::Revived { target });
            }
            Effect::Push { feet } => {
                let by = self.casting.caster.id.clone();
                if let Some((change, to, feet)) =
                    super::movement::push(self.state, &by, s.target.id(), *feet)
                {
                    self.out.changes.push(change);
                    let target = s.name.clone();
                    self.out.outcomes.push(Outcome::Pushed { target, feet, to });
                }
            }
            _ => {}
        }
    }
}
