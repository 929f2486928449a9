//! The result of `cast_spell`.

use serde::{Deserialize, Serialize};

use crate::rules::AdvantageSources;

/// A spell cast: the slot, and what it did to each target.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpellCast {
    /// The caster's name.
    pub caster: String,
    /// The spell.
    pub spell: String,
    /// The slot spent; `None` for a cantrip.
    pub slot_level: Option<u8>,
    /// The caster's spell attack bonus.
    pub spell_attack_bonus: i32,
    /// The caster's spell save DC.
    pub save_dc: i32,
    /// What happened to each target at once (each dart or ray of a spell that has several):
    /// attacks, saves, damage and healing. The same type as `lasting`, from either path that
    /// resolves spells.
    pub effects: Vec<crate::effects::Outcome>,
    /// Whether the spell needs concentration.
    pub concentrating: bool,
    /// The spell whose concentration this one ended, if any.
    pub concentration_dropped: Option<String>,
    /// Slots left, in words.
    pub slots_left: Option<String>,
    /// The saves the creatures it hurt repeated against holds on them (a harpy's song).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hold_saves: Vec<super::HoldSave>,
    /// The saves the concentrating creatures it hurt made to keep their spells (one for all
    /// the damage the spell dealt each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concentration_saves: Vec<super::ConcentrationSave>,
    /// Why each attack roll or save had advantage, disadvantage or a bonus (the positions'
    /// range and cover, dodging, conditions), in the order of `effects`; only the rolls that
    /// had a reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<RollReasons>,
    /// What the spell left behind (a condition, an AC change, dice on rolls), temporary hit
    /// points, a pool rolled, the creatures it passed over and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lasting: Vec<crate::effects::Outcome>,
    /// What the engine leaves to the narrator: why a narrative spell has no mechanical effect,
    /// or what a partly modelled spell's effects do not cover (`srd::Spell::narrative`,
    /// `srd::Spell::unmodelled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrator: Option<String>,
    /// Monsters' reactions to the casting: a Counterspell, which may have stopped it (then
    /// `effects` is empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<super::ReactionCast>,
}

/// Why one attack roll or saving throw of a spell was made as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollReasons {
    /// The creature attacked or saving (name).
    pub target: String,
    /// How far it stood from the caster, where the fight keeps positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance_ft: Option<u32>,
    /// The cover it had from the caster ("half cover"): +2 or +5 to its AC against an
    /// attack, and to a Dexterity save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
    /// Every source of advantage and disadvantage counted.
    #[serde(default, skip_serializing_if = "AdvantageSources::is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// Every bonus added to the roll or the AC, with its reason ("+2: half cover in the ice
    /// bridge").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifier_reasons: Vec<String>,
}

/// What an area that lasts did to a creature it caught (Moonbeam at the start of a turn,
/// Spike Growth on a move).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ZoneReport {
    /// The spell ("Moonbeam").
    pub zone: String,
    /// Its caster's name.
    pub caster: String,
    /// Saves and damage.
    pub effects: Vec<crate::effects::Outcome>,
    /// What it left (Web's restraint).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lasting: Vec<crate::effects::Outcome>,
    /// The concentration saves its damage called for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concentration_saves: Vec<super::ConcentrationSave>,
}
