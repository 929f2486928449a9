//! Results of `get_character_stats`, `update_character` and `apply_hazard_damage`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::conditions::ConditionSet;
use crate::rules::damage::DefenseApplied;
use crate::rules::{DamageDice, DeathSaves, HitDice, HitPoints};

/// A character's sheet (`get_character_stats`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterSheet {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: String,
    /// Its level.
    pub level: u8,
    /// Its race.
    pub race: String,
    /// Hit points.
    pub hp: HitPoints,
    /// Armour class.
    pub armor_class: i32,
    /// Speed now (conditions count), in feet.
    pub speed: u32,
    /// Proficiency bonus.
    pub proficiency_bonus: i32,
    /// Each ability by its abbreviation ("STR").
    pub abilities: BTreeMap<String, AbilityLine>,
    /// Each skill's modifier by its name ("Perception").
    pub skills: BTreeMap<String, i32>,
    /// Passive Perception.
    pub passive_perception: i32,
    /// The languages it speaks (its race's, Druidic for a druid).
    #[serde(default)]
    pub languages: Vec<String>,
    /// Conditions.
    pub conditions: ConditionSet,
    /// Death saving throws so far.
    pub death_saves: DeathSaves,
    /// Whether it is dead.
    pub dead: bool,
    /// Hit dice left.
    pub hit_dice: HitDice,
    /// Spell slots left, in words.
    pub spell_slots: String,
    /// Spell attack bonus and save DC, for a caster.
    pub spellcasting: Option<Spellcasting>,
    /// Spells known.
    pub spells: Vec<String>,
    /// Spells a feature or trait grants beyond those, with how they are cast ("Hellish Rebuke
    /// (Infernal Legacy: once a long rest as level 2, no slot; 1 left)").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub granted_spells: Vec<String>,
    /// The spell it concentrates on.
    pub concentration: Option<String>,
    /// Its attacks.
    pub attacks: Vec<AttackLine>,
    /// Experience and the next level's threshold: "900 XP (level 4 at 2700)".
    #[serde(default)]
    pub xp: String,
    /// The next level when it may be taken now, with the first legal choices for `level_up`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_up: Option<super::LevelReady>,
}

/// One ability on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityLine {
    /// The score.
    pub score: i32,
    /// Its modifier.
    pub modifier: i32,
    /// The saving throw's modifier.
    pub save: i32,
}

/// A caster's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spellcasting {
    /// Spell attack bonus.
    pub attack_bonus: i32,
    /// Spell save DC.
    pub save_dc: i32,
}

/// One attack on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackLine {
    /// Its name.
    pub name: String,
    /// Bonus to hit.
    pub to_hit: i32,
    /// Damage on a hit.
    pub damage: DamageDice,
}

/// What `update_character` changed, and the character after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterUpdated {
    /// The character's name.
    pub character: String,
    /// What was changed ("short_rest").
    pub update: String,
    /// Hit points after.
    pub hp: HitPoints,
    /// Conditions after.
    pub conditions: ConditionSet,
    /// Hit dice after.
    pub hit_dice: HitDice,
    /// Concentration after.
    pub concentration: Option<String>,
    /// The spell slots left after a short rest that recovered some (Arcane Recovery,
    /// Natural Recovery).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_left: Option<String>,
}

/// Harm from a fall or a hazard (`apply_hazard_damage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HazardDamage {
    /// Who was hurt (a name).
    pub target: String,
    /// The cause as the call told it.
    pub reason: Option<String>,
    /// The dice the rules gave ("3d6 bludgeoning").
    pub dice: String,
    /// What the dice rolled.
    pub rolled: u32,
    /// What was taken after defenses.
    pub damage: u32,
    /// Which defense changed it.
    pub defense: DefenseApplied,
    /// Hit points after, "current/max".
    pub hp: String,
    /// Whether it dropped them.
    pub down: bool,
    /// The saves it repeated against holds on it because it was hurt (a harpy's song).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hold_saves: Vec<super::HoldSave>,
    /// Its save to keep its concentration, if it was concentrating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration_save: Option<super::ConcentrationSave>,
}

/// What `use_feature` did: the use spent, the healing rolled, the action regained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeatureReport {
    /// The character's name.
    pub character: String,
    /// The feature's name ("Second Wind").
    pub feature: String,
    /// What it did, in a sentence for the narration.
    pub effect: String,
    /// Hit points restored (Second Wind), with the dice as rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healed: Option<u32>,
    /// The roll ("1d10+1 (7) + 1 = 8").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolled: Option<String>,
    /// Hit points after.
    pub hp: HitPoints,
    /// Uses left until the rest that restores them.
    pub uses_left: u8,
    /// Uses between rests.
    pub uses_of: u8,
    /// The strikes the feature made (Martial Arts' bonus strike, Flurry of Blows).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strikes: Vec<super::AttackReport>,
}
