//! Spell slots by class and level, spending and recovering them, spell attack bonus and save
//! DC, and concentration checks.

use serde::{Deserialize, Serialize};

/// How a class gains spell slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CasterProgression {
    /// Bard, cleric, druid, sorcerer, wizard: slots from level 1.
    Full,
    /// Paladin, ranger: slots from level 2, as a full caster of half their level (rounded up).
    Half,
    /// Warlock: a few slots, all of one level, back on a short rest.
    Pact,
    /// No spellcasting.
    None,
}

impl CasterProgression {
    /// The progression of an SRD class by name, in any case; `None` for classes without
    /// spellcasting and for names it does not know.
    pub fn of_class(class: &str) -> CasterProgression {
        match class.trim().to_ascii_lowercase().as_str() {
            "bard" | "cleric" | "druid" | "sorcerer" | "wizard" => CasterProgression::Full,
            "paladin" | "ranger" => CasterProgression::Half,
            "warlock" => CasterProgression::Pact,
            _ => CasterProgression::None,
        }
    }
}

/// Slots per spell level 1–9 of a full caster, by class level 1–20.
const FULL_CASTER_SLOTS: [[u8; 9]; 20] = [
    [2, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, 0, 0, 0, 0, 0, 0, 0, 0],
    [4, 2, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 2, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 1, 0, 0, 0, 0, 0],
    [4, 3, 3, 2, 0, 0, 0, 0, 0],
    [4, 3, 3, 3, 1, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 2, 1, 1],
];

/// The maximum slots per spell level (index 0 is 1st level) for a class level (1–20, clamped).
/// Pact casters get theirs from [`pact_slots`] instead; this gives them none.
pub fn slots_for(progression: CasterProgression, level: u8) -> [u8; 9] {
    let level = level.clamp(1, 20);
    match progression {
        CasterProgression::Full => FULL_CASTER_SLOTS[usize::from(level) - 1],
        CasterProgression::Half if level >= 2 => {
            FULL_CASTER_SLOTS[usize::from(level.div_ceil(2)) - 1]
        }
        _ => [0; 9],
    }
}

/// A warlock's pact slots at a level: (how many, their spell level).
pub fn pact_slots(level: u8) -> (u8, u8) {
    let level = level.clamp(1, 20);
    let count = match level {
        1 => 1,
        2..=10 => 2,
        11..=16 => 3,
        _ => 4,
    };
    let slot_level = match level {
        1..=2 => 1,
        3..=4 => 2,
        5..=6 => 3,
        7..=8 => 4,
        _ => 5,
    };
    (count, slot_level)
}

/// Why a slot could not be spent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum SlotError {
    /// Spell levels are 1 to 9 (cantrips need no slot).
    #[error("there is no level-{0} spell slot: slot levels are 1 to 9 (cantrips use no slot)")]
    NoSuchLevel(u8),
    /// Every slot of that level (and of any pact magic that could cast it) is spent.
    #[error("no level-{level} slot left (available: {available})")]
    NoneLeft {
        /// The level asked for.
        level: u8,
        /// What is left, as "1st: 2, 2nd: 1" or "none".
        available: String,
    },
}

/// A caster's spell slots: the maximum and how many are spent, per level, plus pact slots.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SpellSlots {
    /// Maximum slots per level (index 0 is 1st level).
    pub max: [u8; 9],
    /// Spent slots per level.
    pub spent: [u8; 9],
    /// Pact slots (warlock): how many.
    #[serde(default)]
    pub pact_max: u8,
    /// Pact slots spent.
    #[serde(default)]
    pub pact_spent: u8,
    /// The spell level of every pact slot.
    #[serde(default)]
    pub pact_level: u8,
}

impl SpellSlots {
    /// The slots of a single-class character.
    pub fn for_class(progression: CasterProgression, level: u8) -> SpellSlots {
        let mut slots = SpellSlots {
            max: slots_for(progression, level),
            ..SpellSlots::default()
        };
        if progression == CasterProgression::Pact {
            let (count, slot_level) = pact_slots(level);
            slots.pact_max = count;
            slots.pact_level = slot_level;
        }
        slots
    }

    /// Slots left at a spell level (pact slots count at their own level).
    pub fn available(&self, level: u8) -> u8 {
        if !(1..=9).contains(&level) {
            return 0;
        }
        let i = usize::from(level - 1);
        let regular = self.max[i].saturating_sub(self.spent[i]);
        let pact = if self.pact_level == level {
            self.pact_max.saturating_sub(self.pact_spent)
        } else {
            0
        };
        regular + pact
    }

    /// Spends one slot of `level` (a regular slot first, then a pact slot of that level).
    pub fn spend(&mut self, level: u8) -> Result<(), SlotError> {
        if !(1..=9).contains(&level) {
            return Err(SlotError::NoSuchLevel(level));
        }
        let i = usize::from(level - 1);
        if self.spent[i] < self.max[i] {
            self.spent[i] += 1;
            return Ok(());
        }
        if self.pact_level == level && self.pact_spent < self.pact_max {
            self.pact_spent += 1;
            return Ok(());
        }
        Err(SlotError::NoneLeft {
            level,
            available: self.describe_available(),
        })
    }

    /// Gets back one spent slot of `level` (Arcane Recovery and the like); false if none spent.
    pub fn recover(&mut self, level: u8) -> bool {
        if !(1..=9).contains(&level) {
            return false;
        }
        let i = usize::from(level - 1);
        if self.spent[i] > 0 {
            self.spent[i] -= 1;
            true
        } else if self.pact_level == level && self.pact_spent > 0 {
            self.pact_spent -= 1;
            true
        } else {
            false
        }
    }

    /// A long rest: every slot back.
    pub fn recover_all(&mut self) {
        self.spent = [0; 9];
        self.pact_spent = 0;
    }

    /// A short rest: pact slots back.
    pub fn recover_pact(&mut self) {
        self.pact_spent = 0;
    }

    /// What is left, as "1st: 2, 2nd: 1", or "none".
    pub fn describe_available(&self) -> String {
        let parts: Vec<String> = (1..=9u8)
            .filter(|l| self.available(*l) > 0)
            .map(|l| format!("{}: {}", ordinal(l), self.available(l)))
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

fn ordinal(n: u8) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A spell attack bonus: proficiency bonus plus the spellcasting ability modifier.
pub fn spell_attack_bonus(proficiency_bonus: i32, ability_modifier: i32) -> i32 {
    proficiency_bonus + ability_modifier
}

/// A spell save DC: 8 plus proficiency bonus plus the spellcasting ability modifier.
pub fn spell_save_dc(proficiency_bonus: i32, ability_modifier: i32) -> i32 {
    8 + proficiency_bonus + ability_modifier
}

/// The DC of the Constitution save to keep concentration after taking damage: 10 or half the
/// damage (rounded down), whichever is higher. Each source of damage asks for its own save.
pub fn concentration_dc(damage: u32) -> i32 {
    (damage / 2).max(10).min(i32::MAX as u32) as i32
}

/// Rolls the Constitution saving throw to keep concentration after taking `damage`.
pub fn roll_concentration_check<R: crate::dice::DieSource + ?Sized>(
    constitution_save_bonus: i32,
    damage: u32,
    advantage: crate::dice::Advantage,
    rng: &mut R,
) -> super::check::CheckResult {
    super::check::roll_check(
        constitution_save_bonus,
        concentration_dc(damage),
        advantage,
        rng,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_tables() {
        assert_eq!(slots_for(CasterProgression::Full, 1)[..2], [2, 0]);
        assert_eq!(slots_for(CasterProgression::Full, 5)[..3], [4, 3, 2]);
        assert_eq!(
            slots_for(CasterProgression::Full, 20),
            [4, 3, 3, 3, 3, 2, 2, 1, 1]
        );
        assert_eq!(slots_for(CasterProgression::Half, 1), [0; 9]);
        assert_eq!(slots_for(CasterProgression::Half, 2)[0], 2);
        assert_eq!(slots_for(CasterProgression::Half, 5)[..2], [4, 2]);
        assert_eq!(slots_for(CasterProgression::Half, 20)[..5], [4, 3, 3, 3, 2]);
        assert_eq!(pact_slots(1), (1, 1));
        assert_eq!(pact_slots(5), (2, 3));
        assert_eq!(pact_slots(11), (3, 5));
        assert_eq!(pact_slots(17), (4, 5));
        assert_eq!(
            CasterProgression::of_class("Wizard"),
            CasterProgression::Full
        );
        assert_eq!(
            CasterProgression::of_class("fighter"),
            CasterProgression::None
        );
    }

    #[test]
    fn spending_and_recovering() {
        let mut slots = SpellSlots::for_class(CasterProgression::Full, 3);
        assert_eq!(slots.describe_available(), "1st: 4, 2nd: 2");
        slots.spend(2).unwrap();
        slots.spend(2).unwrap();
        let err = slots.spend(2).unwrap_err();
        assert_eq!(err.to_string(), "no level-2 slot left (available: 1st: 4)");
        assert_eq!(slots.spend(0), Err(SlotError::NoSuchLevel(0)));
        assert!(slots.recover(2));
        assert_eq!(slots.available(2), 1);
        slots.recover_all();
        assert_eq!(slots.available(2), 2);

        let mut warlock = SpellSlots::for_class(CasterProgression::Pact, 5);
        assert_eq!(warlock.available(3), 2);
        assert_eq!(warlock.available(1), 0);
        warlock.spend(3).unwrap();
        warlock.spend(3).unwrap();
        assert!(warlock.spend(3).is_err());
        warlock.recover_pact();
        assert_eq!(warlock.available(3), 2);
    }

    #[test]
    fn casting_numbers_and_concentration() {
        assert_eq!(spell_attack_bonus(2, 3), 5);
        assert_eq!(spell_save_dc(2, 3), 13);
        assert_eq!(concentration_dc(8), 10);
        assert_eq!(concentration_dc(22), 11);
        assert_eq!(concentration_dc(23), 11);
        assert_eq!(concentration_dc(40), 20);
        let mut rng = crate::dice::seeded_rng(8);
        let check = roll_concentration_check(3, 30, crate::dice::Advantage::Normal, &mut rng);
        assert_eq!(check.dc, 15);
        assert_eq!(check.success, check.total >= 15);
    }
}
