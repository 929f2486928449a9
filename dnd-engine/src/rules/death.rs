//! Death saving throws and stabilising: what happens to a character at 0 hit points.

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};

/// The death saving throws of a creature at 0 hit points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeathSaves {
    /// Successes so far (0 to 3).
    pub successes: u8,
    /// Failures so far (0 to 3).
    pub failures: u8,
    /// Stable: no more saves until it takes damage.
    pub stable: bool,
}

/// What one death saving throw (or damage at 0) did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeathSaveOutcome {
    /// 10 or higher: one success.
    Success,
    /// Below 10: one failure.
    Failure,
    /// A natural 1: two failures.
    TwoFailures,
    /// A natural 20: the creature regains 1 hit point and wakes.
    RegainsOneHitPoint,
    /// The third success: the creature is stable.
    Stabilised,
    /// The third failure: the creature dies.
    Dies,
}

/// The record of one death saving throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeathSaveRoll {
    /// The d20.
    pub natural: u8,
    /// What it did.
    pub outcome: DeathSaveOutcome,
    /// The tally after it.
    pub saves: DeathSaves,
}

impl DeathSaves {
    /// Whether three failures have been reached.
    pub fn is_dead(&self) -> bool {
        self.failures >= 3
    }

    /// Decides a death save from a d20 already rolled (no modifiers apply to it).
    pub fn save_from(&mut self, natural: u8) -> DeathSaveRoll {
        let outcome = match natural {
            20 => {
                *self = DeathSaves::default();
                DeathSaveOutcome::RegainsOneHitPoint
            }
            1 => self.fail(2),
            n if n >= 10 => {
                self.successes = (self.successes + 1).min(3);
                if self.successes == 3 {
                    *self = DeathSaves {
                        stable: true,
                        ..DeathSaves::default()
                    };
                    DeathSaveOutcome::Stabilised
                } else {
                    DeathSaveOutcome::Success
                }
            }
            _ => self.fail(1),
        };
        DeathSaveRoll {
            natural,
            outcome,
            saves: *self,
        }
    }

    /// Rolls a death saving throw.
    pub fn roll<R: DieSource + ?Sized>(&mut self, rng: &mut R) -> DeathSaveRoll {
        self.save_from(rng.die(20) as u8)
    }

    /// Records failures from damage taken at 0 hit points (one, or two from a critical hit).
    /// Damage also ends stability.
    pub fn take_damage(&mut self, failures: u8) -> DeathSaveOutcome {
        self.stable = false;
        self.fail(failures)
    }

    /// Stabilises the creature (a successful DC 10 Wisdom (Medicine) check, Spare the Dying).
    pub fn stabilise(&mut self) {
        *self = DeathSaves {
            stable: true,
            ..DeathSaves::default()
        };
    }

    /// Clears the tally: the creature regained hit points.
    pub fn reset(&mut self) {
        *self = DeathSaves::default();
    }

    fn fail(&mut self, count: u8) -> DeathSaveOutcome {
        self.failures = (self.failures + count).min(3);
        if self.failures == 3 {
            DeathSaveOutcome::Dies
        } else if count == 2 {
            DeathSaveOutcome::TwoFailures
        } else {
            DeathSaveOutcome::Failure
        }
    }
}

/// The DC of the Wisdom (Medicine) check that stabilises a dying creature.
pub const STABILISE_DC: i32 = 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_successes_stabilise_and_three_failures_kill() {
        let mut saves = DeathSaves::default();
        assert_eq!(saves.save_from(10).outcome, DeathSaveOutcome::Success);
        assert_eq!(saves.save_from(9).outcome, DeathSaveOutcome::Failure);
        assert_eq!(saves.save_from(15).outcome, DeathSaveOutcome::Success);
        let last = saves.save_from(12);
        assert_eq!(last.outcome, DeathSaveOutcome::Stabilised);
        assert!(last.saves.stable);

        let mut saves = DeathSaves::default();
        saves.save_from(2);
        saves.save_from(5);
        assert_eq!(saves.save_from(9).outcome, DeathSaveOutcome::Dies);
        assert!(saves.is_dead());
    }

    #[test]
    fn naturals_and_damage() {
        let mut saves = DeathSaves::default();
        assert_eq!(saves.save_from(1).outcome, DeathSaveOutcome::TwoFailures);
        assert_eq!(saves.failures, 2);
        assert_eq!(
            saves.save_from(20).outcome,
            DeathSaveOutcome::RegainsOneHitPoint
        );
        assert_eq!(saves, DeathSaves::default());
        saves.stabilise();
        // A critical hit at 0 is two failures and ends stability.
        assert_eq!(saves.take_damage(2), DeathSaveOutcome::TwoFailures);
        assert!(!saves.stable);
        assert_eq!(saves.take_damage(1), DeathSaveOutcome::Dies);
    }
}
