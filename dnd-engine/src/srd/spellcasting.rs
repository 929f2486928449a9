//! A monster's spells as data (the stat block's "Spellcasting" and "Innate Spellcasting"
//! traits, which the SRD gives in prose): the ability, the DC and attack bonus, the caster
//! level, the spells at will, the slots of each level with the spells they cast, and the
//! innate spells of so many uses a day. `tools/monster_spells.rs` casts them through the
//! effects engine; `combat::monster_plan` decides when.

use serde::{Deserialize, Serialize};

use crate::rules::Ability;

/// What a monster casts, and with what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterSpellcasting {
    /// Its spellcasting ability.
    pub ability: Ability,
    /// Its spell save DC.
    pub save_dc: i32,
    /// Its spell attack bonus.
    pub attack_bonus: i32,
    /// Its caster level (a cantrip's dice).
    pub caster_level: u8,
    /// Spells it casts at will (cantrips), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_will: Vec<String>,
    /// Its spell slots by level, with the spells of that level it knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slots: Vec<SlotLevel>,
    /// Spells it casts innately, so many times a day each, needing no slot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub innate: Vec<InnateSpell>,
}

/// The slots of one spell level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotLevel {
    /// The level (1 to 9).
    pub level: u8,
    /// How many slots.
    pub slots: u8,
    /// The spells of this level it knows, by name.
    pub spells: Vec<String>,
}

/// A spell cast innately.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InnateSpell {
    /// The spell, by name.
    pub spell: String,
    /// Uses a day.
    pub per_day: u8,
}

/// How a monster may cast one spell now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpellSource {
    /// At will.
    AtWill,
    /// With a slot of this level.
    Slot(u8),
    /// Innately, with so many uses a day.
    Innate(u8),
}

impl MonsterSpellcasting {
    /// The pool name a slot level's uses are counted under (`Change::UseSpent`).
    pub fn slot_pool(level: u8) -> String {
        format!("level {level} slots")
    }

    /// The pool name an innate spell's uses are counted under.
    pub fn innate_pool(spell: &str) -> String {
        format!("{spell} (innate)")
    }

    /// The ways it may cast `spell` (any case): at will, innately, or with a slot of its level
    /// or higher (lowest first).
    pub fn sources(&self, spell: &str) -> Vec<SpellSource> {
        let same = |s: &String| s.eq_ignore_ascii_case(spell);
        let mut out = Vec::new();
        if self.at_will.iter().any(same) {
            out.push(SpellSource::AtWill);
        }
        if let Some(i) = self.innate.iter().find(|i| same(&i.spell)) {
            out.push(SpellSource::Innate(i.per_day));
        }
        if let Some(known) = self.slots.iter().find(|l| l.spells.iter().any(same)) {
            let mut levels: Vec<u8> = self
                .slots
                .iter()
                .filter(|l| l.level >= known.level)
                .map(|l| l.level)
                .collect();
            levels.sort_unstable();
            out.extend(levels.into_iter().map(SpellSource::Slot));
        }
        out
    }

    /// How many slots of `level` it has.
    pub fn slots_of(&self, level: u8) -> u8 {
        self.slots
            .iter()
            .find(|l| l.level == level)
            .map_or(0, |l| l.slots)
    }

    /// Every spell it knows, by name.
    pub fn spells(&self) -> impl Iterator<Item = &str> {
        self.at_will
            .iter()
            .chain(self.innate.iter().map(|i| &i.spell))
            .chain(self.slots.iter().flat_map(|l| &l.spells))
            .map(String::as_str)
    }
}
