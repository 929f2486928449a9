//! What `level_up` gives back ([`LevelGained`]).

use serde::{Deserialize, Serialize};

use crate::character::GainedFeature;

/// A character gained a level (`level_up`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelGained {
    /// The character's name.
    pub character: String,
    /// The new level.
    pub level: u8,
    /// Hit points added to the maximum, and the maximum now.
    pub hp_gained: u32,
    /// The hit point maximum now.
    pub hp_max: u32,
    /// The hit die as rolled ("1d10: 7"), when rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp_rolled: Option<String>,
    /// The proficiency bonus now.
    pub proficiency_bonus: u8,
    /// Hit dice now.
    pub hit_dice: u8,
    /// Spell slots now ("1st: 4, 2nd: 2"), for a caster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<String>,
    /// The features gained, with what to pick for those that offer a choice.
    pub features: Vec<GainedFeature>,
    /// The spells learned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells_learned: Vec<String>,
    /// The subclass, when chosen at this level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// XP now, and what the next level needs (absent at the class data's last level).
    pub xp: String,
}
