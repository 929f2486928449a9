//! Results of `roll_dice`, `roll_skill_check` and `roll_saving_throw`.

use serde::{Deserialize, Serialize};

use crate::rules::{AdvantageSources, CheckResult};

/// Dice rolled for something no rule covers (`roll_dice`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRolled {
    /// What the roll was for (the expression when no reason was given).
    pub reason: String,
    /// Every die, as text (`1d20+3 (14) + 3 = 17`).
    pub rolled: String,
    /// The total.
    pub total: i64,
}

/// A skill check (`roll_skill_check`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckRolled {
    /// Who checked.
    pub creature: String,
    /// The skill's name ("Perception").
    pub check: String,
    /// What the check was for.
    pub reason: Option<String>,
    /// The roll against the DC.
    pub result: CheckResult,
    /// Every source of advantage and disadvantage the engine counted.
    #[serde(default, skip_serializing_if = "AdvantageSources::is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// What a Perception or Investigation check found where the party is (names and
    /// descriptions, never the DCs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<String>,
}

/// A saving throw (`roll_saving_throw`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveRolled {
    /// Who saved.
    pub creature: String,
    /// The ability's name ("Dexterity").
    pub save: String,
    /// What the save was against.
    pub reason: Option<String>,
    /// The roll against the DC.
    pub result: CheckResult,
    /// Every source of advantage and disadvantage the engine counted.
    #[serde(default, skip_serializing_if = "AdvantageSources::is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// Dice the creature's timed effects added or took away ("+3: Bless (1d4)").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifier_reasons: Vec<String>,
}
