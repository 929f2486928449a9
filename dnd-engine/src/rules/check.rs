//! d20 tests: ability checks and saving throws against a DC, with advantage and disadvantage.
//!
//! Each roll is split in two: a function that rolls (`roll_*`, taking `&mut (impl DieSource + ?Sized)`) and a
//! pure one that decides from dice already rolled (`*_from`), so that a worked example from the
//! rules can be checked with exact faces and a replayed roll reaches the same outcome.

use std::borrow::Cow;

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};

use crate::dice::Advantage;

/// Sources of advantage and disadvantage on one roll, with the reason for each.
///
/// The rules say that any number of sources of advantage and any number of disadvantage cancel
/// out to a normal roll, and that several of one kind still give a single reroll:
/// [`resolve`](Self::resolve) does exactly that.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdvantageSources {
    /// Why the roll has advantage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advantage: Vec<Cow<'static, str>>,
    /// Why the roll has disadvantage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disadvantage: Vec<Cow<'static, str>>,
    /// The roller is a halfling (Lucky): a natural 1 is rolled again and the new face used
    /// ([`D20Roll::roll_for`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lucky: bool,
}

impl AdvantageSources {
    /// Whether no source was counted (a result leaves the field out then).
    pub fn is_empty(&self) -> bool {
        self.advantage.is_empty() && self.disadvantage.is_empty() && !self.lucky
    }

    /// Adds a source of advantage.
    pub fn advantage(&mut self, reason: impl Into<Cow<'static, str>>) {
        self.advantage.push(reason.into());
    }

    /// Adds a source of disadvantage.
    pub fn disadvantage(&mut self, reason: impl Into<Cow<'static, str>>) {
        self.disadvantage.push(reason.into());
    }

    /// Adds every source of `other`.
    pub fn extend(&mut self, other: AdvantageSources) {
        self.advantage.extend(other.advantage);
        self.disadvantage.extend(other.disadvantage);
        self.lucky |= other.lucky;
    }

    /// Adds a plain [`Advantage`] given by the caller (a spell, the GM's ruling).
    pub fn add(&mut self, advantage: Advantage, reason: impl Into<Cow<'static, str>>) {
        match advantage {
            Advantage::Normal => {}
            Advantage::Advantage => self.advantage(reason),
            Advantage::Disadvantage => self.disadvantage(reason),
        }
    }

    /// What the roll gets: both kinds present cancel, however many of each.
    pub fn resolve(&self) -> Advantage {
        match (self.advantage.is_empty(), self.disadvantage.is_empty()) {
            (false, true) => Advantage::Advantage,
            (true, false) => Advantage::Disadvantage,
            _ => Advantage::Normal,
        }
    }

    /// Every reason, advantage first.
    pub fn reasons(&self) -> Vec<&str> {
        self.advantage
            .iter()
            .chain(&self.disadvantage)
            .map(|r| r.as_ref())
            .collect()
    }
}

/// The d20 (or two) of one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct D20Roll {
    /// The faces rolled: one, or two with advantage or disadvantage.
    pub rolls: [u8; 2],
    /// How many of `rolls` are used (1 or 2).
    pub count: u8,
    /// Advantage, disadvantage or neither.
    pub advantage: Advantage,
    /// The face that counts.
    pub natural: u8,
    /// A natural 1 rolled again by a halfling's Lucky: the 1 it replaced is gone from
    /// `rolls`, and this says it was there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lucky_reroll: bool,
}

impl D20Roll {
    /// Rolls one d20, or two for advantage or disadvantage.
    pub fn roll<R: DieSource + ?Sized>(advantage: Advantage, rng: &mut R) -> D20Roll {
        let first = rng.die(20) as u8;
        match advantage {
            Advantage::Normal => D20Roll::from_faces(first, None, advantage),
            _ => D20Roll::from_faces(first, Some(rng.die(20) as u8), advantage),
        }
    }

    /// Rolls the d20 of a creature's attack roll, check or save: [`roll`](Self::roll), then,
    /// for a `lucky` roller (a halfling) whose roll came up a natural 1, the die that showed
    /// the 1 is rolled again and the new face used, even if it is a 1 again. The one place
    /// Lucky is played, so every roll of a halfling that goes through here gets it.
    ///
    /// ```
    /// use dnd_engine::dice::{Advantage, seeded_rng};
    /// use dnd_engine::rules::check::D20Roll;
    ///
    /// let mut rng = seeded_rng(1);
    /// for _ in 0..200 {
    ///     let d = D20Roll::roll_for(Advantage::Normal, true, &mut rng);
    ///     assert!(d.natural != 1 || d.lucky_reroll, "a 1 stands only after the reroll");
    /// }
    /// ```
    pub fn roll_for<R: DieSource + ?Sized>(
        advantage: Advantage,
        lucky: bool,
        rng: &mut R,
    ) -> D20Roll {
        let rolled = D20Roll::roll(advantage, rng);
        if !lucky || rolled.natural != 1 {
            return rolled;
        }
        rolled.reroll_one(rng.die(20) as u8)
    }

    /// This roll with the (first) die that showed a 1 replaced by `face` (Lucky).
    pub fn reroll_one(self, face: u8) -> D20Roll {
        let [first, second] = self.rolls;
        let (first, second) = if first == 1 {
            (face, second)
        } else {
            (first, face)
        };
        let second = (self.count == 2).then_some(second);
        D20Roll {
            lucky_reroll: true,
            ..D20Roll::from_faces(first, second, self.advantage)
        }
    }

    /// A roll from faces rolled elsewhere. With advantage or disadvantage and only one face,
    /// that face counts alone. Faces are clamped into 1..=20.
    pub fn from_faces(first: u8, second: Option<u8>, advantage: Advantage) -> D20Roll {
        let first = first.clamp(1, 20);
        match (second, advantage) {
            (Some(second), Advantage::Advantage | Advantage::Disadvantage) => {
                let second = second.clamp(1, 20);
                let natural = if advantage == Advantage::Advantage {
                    first.max(second)
                } else {
                    first.min(second)
                };
                D20Roll {
                    rolls: [first, second],
                    count: 2,
                    advantage,
                    natural,
                    lucky_reroll: false,
                }
            }
            _ => D20Roll {
                rolls: [first, 0],
                count: 1,
                advantage: Advantage::Normal,
                natural: first,
                lucky_reroll: false,
            },
        }
    }

    /// The faces rolled.
    pub fn faces(&self) -> &[u8] {
        &self.rolls[..usize::from(self.count)]
    }
}

/// The outcome of an ability check or saving throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The d20.
    pub d20: D20Roll,
    /// Everything added to the d20 (ability modifier, proficiency, bonuses).
    pub modifier: i32,
    /// d20 plus modifier.
    pub total: i32,
    /// The number to meet or beat.
    pub dc: i32,
    /// Whether the total met the DC (a tie succeeds). Natural 20s and 1s have no special
    /// meaning on checks and saves.
    pub success: bool,
    /// Set when a condition made the test fail without a roll mattering (a paralyzed creature's
    /// Dexterity save, a blinded creature's check that needs sight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automatic_failure: Option<Cow<'static, str>>,
}

/// The exact chance that a d20 test succeeds: every face (every pair of faces, with advantage or
/// disadvantage) decided by `succeeds`, the same function that decides a real roll, so the odds
/// shown and the rules used can never disagree.
///
/// ```
/// use dnd_engine::dice::Advantage;
/// use dnd_engine::rules::check::{chance_of, check_from};
///
/// // d20 + 3 against DC 14: 11 or more, half the faces.
/// assert_eq!(chance_of(Advantage::Normal, |d| check_from(d, 3, 14).success), 0.5);
/// // With advantage: 1 - 0.5 * 0.5.
/// assert_eq!(chance_of(Advantage::Advantage, |d| check_from(d, 3, 14).success), 0.75);
/// ```
pub fn chance_of(advantage: Advantage, succeeds: impl Fn(D20Roll) -> bool) -> f64 {
    let (mut wins, mut all) = (0u32, 0u32);
    for first in 1..=20u8 {
        let seconds: &[Option<u8>] = if advantage == Advantage::Normal {
            &[None]
        } else {
            &SECOND_FACES
        };
        for &second in seconds {
            all += 1;
            wins += u32::from(succeeds(D20Roll::from_faces(first, second, advantage)));
        }
    }
    f64::from(wins) / f64::from(all)
}

/// The second d20's faces, for advantage and disadvantage.
const SECOND_FACES: [Option<u8>; 20] = {
    let mut faces = [None; 20];
    let mut i = 0;
    while i < 20 {
        faces[i] = Some(i as u8 + 1);
        i += 1;
    }
    faces
};

/// Decides a check or save from a d20 already rolled.
pub fn check_from(d20: D20Roll, modifier: i32, dc: i32) -> CheckResult {
    let total = i32::from(d20.natural) + modifier;
    CheckResult {
        d20,
        modifier,
        total,
        dc,
        success: total >= dc,
        automatic_failure: None,
    }
}

/// Rolls an ability check or saving throw: d20 + `modifier` against `dc`.
pub fn roll_check<R: DieSource + ?Sized>(
    modifier: i32,
    dc: i32,
    advantage: Advantage,
    rng: &mut R,
) -> CheckResult {
    check_from(D20Roll::roll(advantage, rng), modifier, dc)
}

/// Rolls a skill check: d20 + ability modifier + the proficiency part, against `dc`.
pub fn roll_skill_check<R: DieSource + ?Sized>(
    scores: &super::ability::AbilityScores,
    skill: super::ability::Skill,
    proficiency: super::ability::Proficiency,
    proficiency_bonus: i32,
    dc: i32,
    advantage: Advantage,
    rng: &mut R,
) -> CheckResult {
    let modifier = super::ability::skill_modifier(scores, skill, proficiency, proficiency_bonus);
    roll_check(modifier, dc, advantage, rng)
}

/// Rolls a check or save whose advantage comes from several sources and which a condition may
/// fail outright (see [`super::conditions`]). The die is rolled either way, so that a replay
/// consumes the same faces.
pub fn roll_check_with<R: DieSource + ?Sized>(
    modifier: i32,
    dc: i32,
    sources: &AdvantageSources,
    automatic_failure: Option<&'static str>,
    rng: &mut R,
) -> CheckResult {
    let d20 = D20Roll::roll_for(sources.resolve(), sources.lucky, rng);
    let mut result = check_from(d20, modifier, dc);
    if let Some(reason) = automatic_failure {
        result.success = false;
        result.automatic_failure = Some(reason.into());
    }
    result
}

/// The result of a contest (grappling, shoving, hiding against a search): both roll, the
/// higher total wins, and a tie leaves things as they were.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContestResult {
    /// The one who started the contest.
    pub initiator: CheckResult,
    /// The one resisting it.
    pub defender: CheckResult,
    /// Whether the initiator won (a tie is a loss for the initiator: the situation stays).
    pub initiator_wins: bool,
}

/// Rolls a contest between two check modifiers.
pub fn roll_contest<R: DieSource + ?Sized>(
    initiator_modifier: i32,
    initiator_advantage: Advantage,
    defender_modifier: i32,
    defender_advantage: Advantage,
    rng: &mut R,
) -> ContestResult {
    let a = D20Roll::roll(initiator_advantage, rng);
    let b = D20Roll::roll(defender_advantage, rng);
    let initiator_total = i32::from(a.natural) + initiator_modifier;
    let defender_total = i32::from(b.natural) + defender_modifier;
    ContestResult {
        initiator: check_from(a, initiator_modifier, defender_total + 1),
        defender: check_from(b, defender_modifier, initiator_total),
        initiator_wins: initiator_total > defender_total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::seeded_rng;

    #[test]
    fn lucky_rerolls_the_die_that_showed_the_one() {
        // With disadvantage, 1 and 15: the 1 is rolled again (a 12), and the lower face counts.
        let d = D20Roll::from_faces(1, Some(15), Advantage::Disadvantage).reroll_one(12);
        assert_eq!((d.rolls, d.natural, d.lucky_reroll), ([12, 15], 12, true));
        // A plain 1 rolled again to a 1 stays a 1.
        let d = D20Roll::from_faces(1, None, Advantage::Normal).reroll_one(1);
        assert_eq!((d.natural, d.count, d.lucky_reroll), (1, 1, true));
        // Not lucky: the 1 stands, whatever the dice.
        let mut rng = seeded_rng(3);
        let ones = (0..400)
            .map(|_| D20Roll::roll_for(Advantage::Normal, false, &mut rng))
            .filter(|d| d.natural == 1 && !d.lucky_reroll)
            .count();
        assert!(ones > 5, "{ones}");
    }

    #[test]
    fn meeting_the_dc_succeeds() {
        let d20 = D20Roll::from_faces(12, None, Advantage::Normal);
        assert!(check_from(d20, 3, 15).success);
        assert!(!check_from(d20, 2, 15).success);
        // A natural 20 is no automatic success on a check.
        let nat20 = D20Roll::from_faces(20, None, Advantage::Normal);
        assert!(!check_from(nat20, -2, 20).success);
    }

    #[test]
    fn advantage_keeps_the_higher() {
        let adv = D20Roll::from_faces(4, Some(17), Advantage::Advantage);
        assert_eq!(adv.natural, 17);
        let dis = D20Roll::from_faces(4, Some(17), Advantage::Disadvantage);
        assert_eq!(dis.natural, 4);
        assert_eq!(dis.faces(), &[4, 17]);
    }

    #[test]
    fn seeded_rolls_replay_and_stay_in_range() {
        let mut a = seeded_rng(3);
        let mut b = seeded_rng(3);
        for _ in 0..500 {
            let x = roll_check(5, 15, Advantage::Advantage, &mut a);
            let y = roll_check(5, 15, Advantage::Advantage, &mut b);
            assert_eq!(x, y);
            assert!((1..=20).contains(&x.d20.natural));
            assert_eq!(x.d20.natural, x.d20.rolls[0].max(x.d20.rolls[1]));
            assert_eq!(x.success, x.total >= 15);
        }
    }

    #[test]
    fn skill_checks_add_ability_and_proficiency() {
        use crate::rules::{AbilityScores, Proficiency, Skill};
        let scores = AbilityScores::new(10, 16, 10, 10, 10, 10);
        let mut rng = seeded_rng(2);
        let r = roll_skill_check(
            &scores,
            Skill::Stealth,
            Proficiency::Expertise,
            2,
            15,
            Advantage::Normal,
            &mut rng,
        );
        assert_eq!(r.modifier, 7);
        assert_eq!(r.total, i32::from(r.d20.natural) + 7);
    }

    #[test]
    fn automatic_failure_overrides_the_roll() {
        let mut rng = seeded_rng(1);
        let r = roll_check_with(
            50,
            10,
            &AdvantageSources::default(),
            Some("paralyzed"),
            &mut rng,
        );
        assert!(!r.success);
        assert_eq!(r.automatic_failure.as_deref(), Some("paralyzed"));
    }

    #[test]
    fn contests_tie_to_the_defender() {
        let mut rng = seeded_rng(9);
        for _ in 0..200 {
            let c = roll_contest(2, Advantage::Normal, 2, Advantage::Normal, &mut rng);
            assert_eq!(c.initiator_wins, c.initiator.total > c.defender.total);
        }
    }
}
