//! Short and long rests: spending hit dice, and what a night's rest brings back.

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};

use super::conditions::ConditionSet;
use super::damage::{HitPoints, heal};
use super::death::DeathSaves;
use super::spellcasting::SpellSlots;

/// A character's hit dice: one die of `sides` per level, some of them spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HitDice {
    /// Sides of the class's hit die (6, 8, 10 or 12).
    pub sides: u8,
    /// How many the character has (its level).
    pub total: u8,
    /// How many are spent.
    pub spent: u8,
}

impl HitDice {
    /// Hit dice left to spend.
    pub fn available(&self) -> u8 {
        self.total.saturating_sub(self.spent)
    }
}

/// Why a rest could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RestError {
    /// More hit dice asked for than are left.
    #[error("asked to spend {asked} hit dice but only {available} are left")]
    NotEnoughHitDice {
        /// How many were asked for.
        asked: u8,
        /// How many are left.
        available: u8,
    },
}

/// One hit die spent on a short rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitDieRoll {
    /// The face rolled.
    pub face: u8,
    /// The Constitution modifier added.
    pub constitution_modifier: i32,
    /// Hit points it gave (at least 0).
    pub healed: u32,
}

/// What a short rest did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShortRestResult {
    /// Each hit die spent.
    pub rolls: Vec<HitDieRoll>,
    /// Hit points before.
    pub hp_before: u32,
    /// Hit points after (never above the maximum).
    pub hp_after: u32,
    /// Hit dice left.
    pub hit_dice_left: u8,
    /// Whether pact slots came back.
    pub pact_slots_recovered: bool,
}

/// A short rest: spends `count` hit dice (each heals its roll plus the Constitution modifier,
/// at least 0) and recovers pact slots. Nothing changes if too many dice are asked for.
pub fn short_rest<R: DieSource + ?Sized>(
    hp: &mut HitPoints,
    hit_dice: &mut HitDice,
    slots: &mut SpellSlots,
    count: u8,
    constitution_modifier: i32,
    rng: &mut R,
) -> Result<ShortRestResult, RestError> {
    if count > hit_dice.available() {
        return Err(RestError::NotEnoughHitDice {
            asked: count,
            available: hit_dice.available(),
        });
    }
    let hp_before = hp.current;
    let mut rolls = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let face = rng.die(u32::from(hit_dice.sides)) as u8;
        let healed = (i32::from(face) + constitution_modifier).max(0) as u32;
        heal(hp, healed);
        hit_dice.spent += 1;
        rolls.push(HitDieRoll {
            face,
            constitution_modifier,
            healed,
        });
    }
    let pact_slots_recovered = slots.pact_spent > 0;
    slots.recover_pact();
    Ok(ShortRestResult {
        rolls,
        hp_before,
        hp_after: hp.current,
        hit_dice_left: hit_dice.available(),
        pact_slots_recovered,
    })
}

/// What a long rest did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongRestResult {
    /// Hit points before.
    pub hp_before: u32,
    /// Hit points after: the maximum.
    pub hp_after: u32,
    /// Spent hit dice regained (up to half the total, at least one).
    pub hit_dice_regained: u8,
    /// Exhaustion before.
    pub exhaustion_before: u8,
    /// Exhaustion after (one level less).
    pub exhaustion_after: u8,
}

/// A long rest: all hit points (temporary ones end), up to half the hit dice back (at least
/// one), every spell slot, one level of exhaustion less, death saves cleared. (Whether the
/// character ate and drank, which the exhaustion rule needs, is the caller's to check.)
pub fn long_rest(
    hp: &mut HitPoints,
    hit_dice: &mut HitDice,
    slots: &mut SpellSlots,
    conditions: &mut ConditionSet,
    death_saves: &mut DeathSaves,
) -> LongRestResult {
    let hp_before = hp.current;
    hp.current = hp.max;
    hp.temporary = 0;
    let regain = (hit_dice.total / 2).max(1).min(hit_dice.spent);
    hit_dice.spent -= regain;
    slots.recover_all();
    let exhaustion_before = conditions.exhaustion;
    conditions.exhaustion = conditions.exhaustion.saturating_sub(1);
    death_saves.reset();
    LongRestResult {
        hp_before,
        hp_after: hp.current,
        hit_dice_regained: regain,
        exhaustion_before,
        exhaustion_after: conditions.exhaustion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::seeded_rng;
    use crate::rules::spellcasting::CasterProgression;

    #[test]
    fn short_rest_spends_hit_dice() {
        let mut hp = HitPoints {
            current: 5,
            max: 28,
            temporary: 0,
        };
        let mut dice = HitDice {
            sides: 10,
            total: 3,
            spent: 0,
        };
        let mut slots = SpellSlots::for_class(CasterProgression::Pact, 3);
        slots.spend(2).unwrap();
        let mut rng = seeded_rng(2);
        let r = short_rest(&mut hp, &mut dice, &mut slots, 2, 2, &mut rng).unwrap();
        assert_eq!(r.rolls.len(), 2);
        let healed: u32 = r.rolls.iter().map(|d| d.healed).sum();
        assert_eq!(r.hp_after, (5 + healed).min(28));
        assert!(
            r.rolls
                .iter()
                .all(|d| (1..=10).contains(&d.face) && d.healed == u32::from(d.face) + 2)
        );
        assert_eq!(dice.available(), 1);
        assert!(r.pact_slots_recovered);
        let err = short_rest(&mut hp, &mut dice, &mut slots, 2, 2, &mut rng).unwrap_err();
        assert_eq!(
            err,
            RestError::NotEnoughHitDice {
                asked: 2,
                available: 1
            }
        );
        assert_eq!(dice.available(), 1, "a refused rest changes nothing");
    }

    #[test]
    fn long_rest_restores() {
        let mut hp = HitPoints {
            current: 3,
            max: 30,
            temporary: 4,
        };
        let mut dice = HitDice {
            sides: 8,
            total: 5,
            spent: 5,
        };
        let mut slots = SpellSlots::for_class(CasterProgression::Full, 5);
        slots.spend(3).unwrap();
        let mut conditions = ConditionSet::NONE;
        conditions.exhaustion = 2;
        let mut saves = DeathSaves {
            successes: 1,
            failures: 2,
            stable: false,
        };
        let r = long_rest(&mut hp, &mut dice, &mut slots, &mut conditions, &mut saves);
        assert_eq!((hp.current, hp.temporary), (30, 0));
        assert_eq!(r.hit_dice_regained, 2);
        assert_eq!(dice.spent, 3);
        assert_eq!(slots.available(3), 2);
        assert_eq!(conditions.exhaustion, 1);
        assert_eq!(saves, DeathSaves::default());
        let mut one = HitDice {
            sides: 8,
            total: 1,
            spent: 1,
        };
        long_rest(&mut hp, &mut one, &mut slots, &mut conditions, &mut saves);
        assert_eq!(one.spent, 0, "at least one hit die comes back");
    }
}
