//! The interpreter's arm for the wards, duplicates, size changes, bonds and skill bonuses
//! (Sanctuary, Mirror Image, Enlarge/Reduce, Warding Bond, Pass without Trace): each starts one timed effect on the subject, built
//! from its rule's file (`sanctuary.rs`, `images.rs`, `size.rs`, `bond.rs`), and the save only
//! an unwilling creature makes.

use crate::dice::DieSource;

use super::casting::{Outcome, Subject};
use super::resolve::Run;
use super::vocabulary::Effect;
use crate::rules::Condition;
use crate::srd::OnSave;
use crate::state::{Change, Morale, Target, TimedKind};

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// Applies one of these effects to subject `i` (`s`); any other effect is left alone.
    pub(super) fn wards(&mut self, effect: &Effect, i: usize, s: &Subject) {
        let started = match effect {
            Effect::Sanctuary { duration } => {
                let dc = self.casting.caster.save_dc;
                super::sanctuary::timed_kind(effect, dc).map(|k| (k, *duration))
            }
            Effect::MirrorImage { duration, .. } => {
                super::images::timed_kind(effect, s.dexterity).map(|k| (k, *duration))
            }
            Effect::SizeChange { duration, .. } => {
                super::size::timed_kind(effect).map(|k| (k, *duration))
            }
            // The caster as its own target is refused before (`refusals.rs`).
            Effect::Bond { duration } => Some((TimedKind::Bonded, *duration)),
            Effect::Blink { duration } => {
                Some((TimedKind::Blinking { ethereal: false }, *duration))
            }
            Effect::SkillBonus {
                skill,
                bonus,
                duration,
            } => Some((
                TimedKind::SkillBonus {
                    skill: *skill,
                    bonus: *bonus,
                },
                *duration,
            )),
            Effect::SaveIfUnwilling {
                ability,
                creature_type,
                on_fail,
            } => {
                let caster = self.casting.caster.id.clone();
                if let Some(kind) = creature_type.as_deref().filter(|k| !s.is_type(k)) {
                    self.out.outcomes.push(Outcome::Unaffected {
                        target: s.name.clone(),
                        why: format!("not a {kind}"),
                    });
                } else if super::size::willing(self.state, &caster, &s.target) {
                    for e in on_fail {
                        self.inner(e, i, s, None, false);
                    }
                } else {
                    self.save(*ability, None, OnSave::None, false, on_fail, i, s);
                }
                None
            }
            Effect::NaturalWeapon {
                name,
                sides,
                bonus,
                damage_type,
                duration,
            } => Some((
                TimedKind::NaturalWeapon {
                    name: name.clone(),
                    sides: *sides,
                    bonus: *bonus,
                    damage_type: *damage_type,
                },
                *duration,
            )),
            Effect::Silence { duration } => Some((TimedKind::Silenced, *duration)),
            Effect::Calm { indifferent } => {
                self.calm(*indifferent, s);
                None
            }
            _ => None,
        };
        if let Some((kind, duration)) = started {
            self.start(s, kind, duration, false);
        }
    }
}

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// Calm Emotions on `s`: its charm and fear ended, or, `indifferent`, a fighting monster's
    /// morale made surrendered (it stops fighting until attacked). A hero's attitude is its
    /// player's: only its charm and fear can be calmed.
    fn calm(&mut self, indifferent: bool, s: &Subject) {
        if !indifferent {
            let mut ended = false;
            for condition in [Condition::Charmed, Condition::Frightened] {
                if s.conditions.has(condition) {
                    let (changes, outcome) =
                        super::lasting::end_condition(self.state, s, &[condition]);
                    self.out.changes.extend(changes);
                    self.out.outcomes.push(outcome);
                    ended = true;
                }
            }
            if !ended {
                self.unaffected(s, "neither charmed nor frightened");
            }
            return;
        }
        let fighting = match &s.target {
            Target::Monster(id) => self.state.monster(id).is_some_and(|m| m.is_fighting()),
            Target::Character(_) => {
                self.unaffected(s, "a hero's attitude is its player's to decide");
                return;
            }
        };
        if !fighting {
            self.unaffected(s, "not fighting");
            return;
        }
        self.out.changes.push(Change::MoraleChanged {
            monster: s.target.id().to_owned(),
            morale: Morale::Surrendered,
        });
        let target = s.name.clone();
        self.out.outcomes.push(Outcome::Calmed { target });
    }

    fn unaffected(&mut self, s: &Subject, why: &str) {
        self.out.outcomes.push(Outcome::Unaffected {
            target: s.name.clone(),
            why: why.to_owned(),
        });
    }
}
