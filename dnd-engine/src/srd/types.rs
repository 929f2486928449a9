//! The data types of the SRD: monsters, spells, conditions, equipment and rules topics.
//!
//! The same types hold the bundled data and what the 5e-database loader reads, so the rules,
//! the tools and the encounter simulator never care where a monster came from.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::{
    Ability, AbilityScores, ChallengeRating, Condition, DamageDice, Defenses, Skill,
};

/// A creature's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[allow(missing_docs)] // the names say it all
pub enum Size {
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
    Gargantuan,
}

/// Movement speeds in feet; 0 means the creature lacks that kind of movement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Speed {
    /// Walking speed.
    pub walk: u32,
    /// Flying speed.
    #[serde(skip_serializing_if = "is_zero")]
    pub fly: u32,
    /// Swimming speed.
    #[serde(skip_serializing_if = "is_zero")]
    pub swim: u32,
    /// Climbing speed.
    #[serde(skip_serializing_if = "is_zero")]
    pub climb: u32,
    /// Burrowing speed.
    #[serde(skip_serializing_if = "is_zero")]
    pub burrow: u32,
    /// Whether the creature can hover while flying.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hover: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A named feature with a description: a trait, a reaction, a rules note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feature {
    /// Its name ("Nimble Escape").
    pub name: String,
    /// What it does.
    pub description: String,
}

/// How often an action can be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionUsage {
    /// Usable again when a d6 at the start of the creature's turn rolls `min` or higher
    /// ("Recharge 5–6" has `min` 5).
    Recharge {
        /// The lowest d6 roll that recharges it.
        min: u8,
    },
    /// A number of times per day.
    PerDay {
        /// How many times.
        times: u8,
    },
    /// Usable again after a short or long rest (or only a long one).
    AfterRest {
        /// A short rest is enough.
        short: bool,
    },
}

/// Melee or ranged, weapon or spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // the names say it all
pub enum AttackKind {
    MeleeWeapon,
    RangedWeapon,
    MeleeOrRangedWeapon,
    MeleeSpell,
    RangedSpell,
}

/// The attack roll of an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionAttack {
    /// Melee or ranged, weapon or spell.
    pub kind: AttackKind,
    /// The bonus to hit.
    pub to_hit: i32,
    /// Reach in feet, for melee.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<u32>,
    /// Normal and long range in feet, for ranged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<(u32, u32)>,
}

/// What happens on a save against an effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnSave {
    /// Half damage on a success.
    Half,
    /// Nothing on a success.
    None,
    /// Something else the description says.
    Other,
}

/// A saving throw an action forces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActionSave {
    /// The ability that saves.
    pub ability: Ability,
    /// The DC.
    pub dc: i32,
    /// What a success does.
    pub on_success: OnSave,
}

/// What failing the save of a monster's action does besides its damage, in a form the code
/// applies (the description says it in words).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SaveEffect {
    /// The target gains these conditions. With `repeat`, they hold while the monster keeps the
    /// action going (a bonus action on each of its later turns, as a harpy keeps singing) and
    /// the target saves again at the end of each of its turns, ending them on a success.
    Conditions {
        /// The conditions ("charmed", "incapacitated").
        conditions: Vec<Condition>,
        /// Whether the target repeats the save at the end of each of its turns.
        #[serde(default)]
        repeat: bool,
    },
    /// The target's hit point maximum drops by the damage taken until it finishes a long rest
    /// (a specter's Life Drain); a maximum of 0 kills.
    DrainMaxHp,
}

/// One step of a multiattack: use `action` `count` times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MultiattackStep {
    /// The name of another action of the same creature.
    pub action: String,
    /// How many times.
    pub count: u32,
}

/// An action (or legendary action) of a monster, with its mechanics in structured form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterAction {
    /// Its name ("Scimitar", "Multiattack").
    pub name: String,
    /// What it does, in words.
    #[serde(default)]
    pub description: String,
    /// The attack roll, if it makes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<ActionAttack>,
    /// The saving throw, if it forces one. On an action without an attack it decides the
    /// damage (a breath). On an action with an attack it is the extra effect a hit carries
    /// (poison, being knocked prone), which the description spells out; `damage` stays the
    /// hit's damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<ActionSave>,
    /// Damage dealt on a hit (or a failed save), one entry per type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damage: Vec<DamageDice>,
    /// Alternatives of which the attacker picks one (a versatile weapon, a choice of element).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damage_options: Vec<DamageDice>,
    /// For a multiattack: the ways it may be made, the first being the usual one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub multiattack: Vec<Vec<MultiattackStep>>,
    /// What failing `save` does besides the damage, when the code applies it (conditions, a
    /// drained maximum); absent, the description tells the narrator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_failed_save: Option<SaveEffect>,
    /// Limited use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<ActionUsage>,
    /// For a legendary action: how many of the creature's legendary actions it costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u8>,
    /// What it does in the effects engine's vocabulary: all of it for an action without an
    /// attack (a breath, a song), what a hit carries beyond its damage for one with an attack
    /// (Life Drain's save). Built from the fields above when the data is read
    /// (`srd::action_effects`), unless the data writes it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<crate::effects::Effect>,
}

/// A monster's stat block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Monster {
    /// Its name ("Goblin").
    pub name: String,
    /// Its lookup key ("goblin"): lower case, words joined by `-`.
    pub slug: String,
    /// Its size.
    pub size: Size,
    /// Creature type, with any tag ("humanoid (goblinoid)").
    #[serde(rename = "type")]
    pub kind: String,
    /// Alignment ("neutral evil").
    pub alignment: String,
    /// Armor Class.
    pub armor_class: i32,
    /// Where the AC comes from ("leather armor, shield"), if not natural.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor_note: Option<String>,
    /// Average hit points.
    pub hit_points: u32,
    /// Hit dice ("2d6").
    pub hit_dice: String,
    /// Speeds.
    pub speed: Speed,
    /// Ability scores.
    pub abilities: AbilityScores,
    /// Saving throw bonuses where they differ from the ability modifier.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub saving_throws: BTreeMap<Ability, i32>,
    /// Skill bonuses.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skills: BTreeMap<Skill, i32>,
    /// Resistances, vulnerabilities and immunities that always apply.
    #[serde(default)]
    pub defenses: Defenses,
    /// Defenses with a condition, as written ("bludgeoning, piercing, and slashing from
    /// nonmagical attacks"). Those about nonmagical attacks are also read into
    /// [`Defenses::nonmagical_resistances`] and [`Defenses::nonmagical_immunities`], where the
    /// rules apply them; any other condition is for the narration only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditional_defenses: Vec<String>,
    /// Conditions it cannot have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub condition_immunities: Vec<Condition>,
    /// Senses ("darkvision 60 ft."), without passive Perception.
    #[serde(default)]
    pub senses: String,
    /// Passive Perception.
    pub passive_perception: i32,
    /// Languages ("Common, Goblin"), or "—".
    #[serde(default)]
    pub languages: String,
    /// Challenge rating.
    pub challenge_rating: ChallengeRating,
    /// Experience points for defeating it.
    pub xp: u32,
    /// Special traits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<Feature>,
    /// Actions.
    #[serde(default)]
    pub actions: Vec<MonsterAction>,
    /// Reactions, each with the rule the engine plays it by where it has one (Parry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<super::MonsterReaction>,
    /// Legendary actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legendary_actions: Vec<MonsterAction>,
    /// Legendary Resistance: how many failed saves a day it may turn into successes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legendary_resistance: Option<u8>,
    /// Its spells, structured (the "Spellcasting" trait says them in words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spellcasting: Option<super::MonsterSpellcasting>,
}

impl Monster {
    /// Whether one of its attacks is magical: spell attacks are, and so are its weapon
    /// attacks when it has the trait "Magic Weapons" (the flesh golem); its other weapons,
    /// claws and bites are not, so defenses against nonmagical attacks count against them.
    pub fn attack_is_magical(&self, attack: &ActionAttack) -> bool {
        matches!(
            attack.kind,
            AttackKind::MeleeSpell | AttackKind::RangedSpell
        ) || self
            .traits
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case("Magic Weapons"))
    }
}

/// The eight schools of magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // the names say it all
pub enum School {
    Abjuration,
    Conjuration,
    Divination,
    Enchantment,
    Evocation,
    Illusion,
    Necromancy,
    Transmutation,
}

/// Verbal, somatic and material components.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Components {
    /// V.
    pub verbal: bool,
    /// S.
    pub somatic: bool,
    /// M, and what the material is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
}

/// The area a spell covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    /// "sphere", "cone", "cube", "line", "cylinder".
    pub shape: String,
    /// Its size in feet (radius, length or side).
    pub size: u32,
}

/// A spell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spell {
    /// Its name ("Fireball").
    pub name: String,
    /// Its lookup key ("fireball").
    pub slug: String,
    /// 0 for a cantrip, else 1 to 9.
    pub level: u8,
    /// School of magic.
    pub school: School,
    /// "1 action", "1 bonus action", "1 reaction", "1 minute"...
    pub casting_time: String,
    /// "150 feet", "Self", "Touch"..., parsed (the data keeps the text).
    pub range: super::SpellRange,
    /// Components.
    pub components: Components,
    /// "Instantaneous", "Up to 1 minute"...
    pub duration: String,
    /// Whether it needs concentration.
    pub concentration: bool,
    /// Whether it can be cast as a ritual.
    #[serde(default)]
    pub ritual: bool,
    /// Classes that have it on their list (lower case).
    #[serde(default)]
    pub classes: Vec<String>,
    /// Area of effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    /// How many creatures it may name, where that is not one (the default) or, for a spell with
    /// an area, each creature in it: see [`Spell::target_limit`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<SpellTargets>,
    /// What it does.
    pub description: String,
    /// What casting it with a higher slot (or at higher level, for cantrips) adds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub higher_levels: Option<String>,
    /// What it does, in the effects engine's vocabulary; empty for a narrative spell or one not
    /// modelled yet, whose casting spends its slot and time and leaves the rest to the
    /// narrator (see [`Spell::classification`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<crate::effects::Effect>,
    /// Why a spell without effects is narrative only: nothing in it a fight's rules use ("no
    /// numbers a fight uses: it lets the caster understand languages"). See
    /// [`Spell::classification`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrative: Option<String>,
    /// What the effects leave to the narrator (on a spell with effects), or, on a spell with
    /// none, what a fight could use that the vocabulary cannot say yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmodelled: Option<String>,
}

/// How many creatures a spell may name, from the spell's text: Bless three (and one more per
/// slot level above 1st), Magic Missile three darts (one more per slot level) that may all
/// strike one creature, Eldritch Blast one beam (two at 5th level, three at 11th, four at 17th).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellTargets {
    /// How many at the spell's own level; absent: any number (Beacon of Hope's "any number of
    /// creatures"), each once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    /// How many more for each slot level above the spell's.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub per_slot_level: u8,
    /// For a cantrip whose count grows with the caster: the count by character level, keyed by
    /// the levels at which it changes (overrides `count`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_character_level: BTreeMap<u8, u8>,
    /// Whether one creature may be named more than once: each entry is one dart, ray or beam.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

/// How many creatures one casting may name, and whether one may be named twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TargetLimit {
    /// At most this many entries; `None`: any number (an area's creatures, "any number").
    pub max: Option<u32>,
    /// Whether an entry may repeat (darts, rays, beams: each entry is one of them).
    pub repeat: bool,
}

impl Spell {
    /// How many creatures this spell may name when cast with a slot of `slot_level` (the
    /// spell's level for a cantrip) by a caster of `caster_level`: its [`SpellTargets`], else
    /// any number of distinct creatures for a spell with an area, else one.
    pub fn target_limit(&self, slot_level: u8, caster_level: u8) -> TargetLimit {
        let Some(t) = &self.targets else {
            return TargetLimit {
                max: if self.area.is_some() { None } else { Some(1) },
                repeat: false,
            };
        };
        let by_level = t
            .by_character_level
            .range(..=caster_level)
            .next_back()
            .map(|(_, n)| *n);
        let max = by_level.or(t.count).map(|base| {
            let above = u32::from(slot_level.saturating_sub(self.level));
            u32::from(base) + above * u32::from(t.per_slot_level)
        });
        TargetLimit {
            max,
            repeat: t.repeat,
        }
    }
}

/// The saving throw of a spell: the DC is the caster's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SpellSave {
    /// The ability that saves.
    pub ability: Ability,
    /// What a success does.
    pub on_success: OnSave,
    /// Cover does not help with this save (Sacred Flame).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignores_cover: bool,
}

/// A condition's description and effects, for lookups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionInfo {
    /// The condition.
    pub condition: Condition,
    /// Its name ("Prone").
    pub name: String,
    /// Each effect, one sentence each.
    pub effects: Vec<String>,
}

/// Simple or martial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum WeaponCategory {
    Simple,
    Martial,
}

/// A weapon from the equipment tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Weapon {
    /// Its name ("Longsword").
    pub name: String,
    /// Its lookup key.
    pub slug: String,
    /// Simple or martial.
    pub category: WeaponCategory,
    /// Whether it is a ranged weapon.
    pub ranged: bool,
    /// Damage on a hit, without the ability modifier.
    pub damage: DamageDice,
    /// Damage when used with two hands, for versatile weapons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versatile: Option<DamageDice>,
    /// Normal and long range in feet (ranged and thrown weapons).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<(u32, u32)>,
    /// Properties ("finesse", "light", "thrown", "two-handed", "heavy", "reach", "loading",
    /// "ammunition", "versatile").
    #[serde(default)]
    pub properties: Vec<String>,
    /// Cost in copper pieces.
    pub cost_cp: u32,
    /// Weight in pounds.
    pub weight_lb: f32,
}

/// Light, medium, heavy or a shield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ArmorCategory {
    Light,
    Medium,
    Heavy,
    Shield,
}

/// Armor from the equipment tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Armor {
    /// Its name ("Chain Mail").
    pub name: String,
    /// Its lookup key.
    pub slug: String,
    /// Light, medium, heavy or shield.
    pub category: ArmorCategory,
    /// Base AC (for a shield, the bonus it adds).
    pub base_ac: i32,
    /// Whether the Dexterity modifier is added.
    pub dex_bonus: bool,
    /// The most Dexterity can add (2 for medium armor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_dex_bonus: Option<i32>,
    /// Strength score needed to move at full speed in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength_minimum: Option<i32>,
    /// Whether it gives disadvantage on Stealth.
    pub stealth_disadvantage: bool,
    /// Cost in copper pieces.
    pub cost_cp: u32,
    /// Weight in pounds.
    pub weight_lb: f32,
}

/// A rules topic for the `rules_lookup` tool: a short summary in plain words, plus the
/// mechanics as data so code (and the LLM) can use the numbers without parsing prose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesTopic {
    /// Its name ("Grappling").
    pub name: String,
    /// Its lookup key ("grappling").
    pub slug: String,
    /// Other names it is looked up by ("grapple", "escape a grapple").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// A short summary.
    pub summary: String,
    /// The mechanics, by name: numbers, DCs, which check, what it costs.
    pub mechanics: BTreeMap<String, serde_json::Value>,
}
