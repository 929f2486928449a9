//! The interpreter's part for spells that change how a creature is in the room: a flying speed
//! for a while ([`Effect::Flying`]: Fly, Gaseous Form; at 0 ft, Levitate's hanging), a rise
//! straight up at once ([`Effect::Lift`], where positions are kept), no attacks or spells and
//! resistance to nonmagical attacks while in a gaseous form ([`Effect::CannotAttackOrCast`],
//! [`Effect::NonmagicalResistance`]) and a body melded into stone ([`Effect::Meld`]). What the
//! kinds do later is read elsewhere: flying by the state (`state/timed_aloft.rs`: the speed,
//! leaving the floor, coming down as it ends), the bar on attacks and spells by the turn's gate
//! (`combat::may_act`), the meld by the cover rule (`combat::positions::cover_against`) and
//! by a move, which ends it (`tools/movement.rs`).

use crate::dice::DieSource;

use super::casting::{Outcome, Subject};
use super::resolve::Run;
use super::vocabulary::Effect;
use crate::combat::positions::{position_of, room_areas};
use crate::state::{Change, GameState, Position, TimedKind, inside};

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// Applies one of the lifting effects to subject `i`, `s`; any other effect is left alone.
    pub(super) fn aloft(&mut self, effect: &Effect, s: &Subject) {
        match effect {
            Effect::Flying {
                feet,
                only,
                duration,
            } => {
                let kind = TimedKind::Flying {
                    feet: *feet,
                    only: *only,
                };
                self.start(s, kind, *duration, false);
            }
            Effect::Lift { feet } => {
                if let Some((id, to)) = lifted(self.state, s.target.id(), *feet) {
                    let went =
                        u32::try_from(to.z - position_of(self.state, &id).map_or(0, |p| p.z))
                            .unwrap_or(0);
                    self.out.changes.push(Change::Moved { creature: id, to });
                    let target = s.name.clone();
                    self.out.outcomes.push(Outcome::Moved {
                        target,
                        feet: went,
                        to,
                    });
                }
            }
            Effect::CannotAttackOrCast { duration } => {
                self.start(s, TimedKind::CannotAttackOrCast, *duration, false);
            }
            Effect::Meld { duration } => {
                self.start(s, TimedKind::Melded, *duration, false);
            }
            Effect::NonmagicalResistance { duration } => {
                self.start(s, TimedKind::NonmagicalResistance, *duration, false);
            }
            _ => {}
        }
    }
}

/// Where a rise of `feet` straight up takes `target` (an id): its fight id and the point, as
/// high as the room reaches; `None` where positions are not kept or it cannot rise at all.
fn lifted(state: &GameState, target: &str, feet: u32) -> Option<(String, Position)> {
    let at = position_of(state, target)?;
    let areas = room_areas(state);
    let rise = i32::try_from(feet).ok()?;
    let to = (0..=rise / 5)
        .rev()
        .map(|steps| Position {
            z: at.z + steps * 5,
            ..at
        })
        .find(|p| inside(areas, *p))
        .filter(|p| p.z > at.z)?;
    let id = state.encounter.as_ref()?.slot(target)?.id.clone();
    Some((id, to))
}
