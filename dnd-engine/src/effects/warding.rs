//! The interpreter's arm for the wards, duplicates, size changes, bonds and skill bonuses
//! (Sanctuary, Mirror Image, Enlarge/Reduce, Warding Bond, Pass without Trace): each starts one timed effect on the subject, built
//! from its rule's file (`sanctuary.rs`, `images.rs`, `size.rs`, `bond.rs`), and the save only
//! an unwilling creature makes.

use rand::Rng;

use super::casting::Subject;
use super::resolve::Run;
use super::vocabulary::Effect;
use crate::srd::OnSave;
use crate::state::TimedKind;

impl<R: Rng + ?Sized> Run<'_, '_, R> {
    /// Applies one of these effects to subject `i` (`s`); any other effect is left alone.
    pub(super) fn warding(&mut self, effect: &Effect, i: usize, s: &Subject) {
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
            Effect::SaveIfUnwilling { ability, on_fail } => {
                let caster = self.casting.caster.id.clone();
                if super::size::willing(self.state, &caster, &s.target) {
                    for e in on_fail {
                        self.inner(e, i, s, None, false);
                    }
                } else {
                    self.save(*ability, None, OnSave::None, false, on_fail, i, s);
                }
                None
            }
            _ => None,
        };
        if let Some((kind, duration)) = started {
            self.start(s, kind, duration, false);
        }
    }
}
