//! Results of `disarm_trap` ([`TrapDisarmAttempt`]) and `attack_object` ([`ObjectAttacked`]).

use serde::{Deserialize, Serialize};

use crate::rules::{AdvantageSources, AttackResult, CheckResult};

/// A try at disarming a trap the party has found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrapDisarmAttempt {
    /// Who tried.
    pub character: String,
    /// The trapped feature.
    pub feature: String,
    /// Whether the trap is disarmed (it can go off no more).
    pub disarmed: bool,
    /// Whether the failure set it off.
    pub set_off: bool,
    /// The check.
    pub result: CheckResult,
    /// Where advantage or disadvantage came from.
    #[serde(default, skip_serializing_if = "AdvantageSources::is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// What the trap did when it went off, one line each (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub what_happened: Vec<String>,
}

/// An attack on an object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectAttacked {
    /// Who attacked.
    pub attacker: String,
    /// The object.
    pub object: String,
    /// The weapon.
    pub attack: String,
    /// Whether it hit.
    pub hit: bool,
    /// The damage the object took, after its immunities and resistances.
    pub damage: u32,
    /// Its hit points left.
    pub hp_left: u32,
    /// Whether it broke.
    pub broken: bool,
    /// The attack roll.
    pub result: AttackResult,
    /// What breaking it set in motion, one line each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub what_happened: Vec<String>,
}
