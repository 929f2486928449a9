//! The SRD's twelve classes through level 5, as data (`data/classes.json`): hit dice and hit
//! points, proficiencies, starting kit, spellcasting, the numbers of each level (rage count,
//! sneak attack dice, ki points...), the SRD subclass, and every feature with its uses and
//! what the engine does with it ([`FeatureStatus`]).
//!
//! This is the data layer only: the character builder, levelling and the features' rules are
//! built on it elsewhere. The file was built from the 5e-database reference files and is
//! checked against them by `tests/class_data.rs` (where the two disagree with the SRD's own
//! tables, the SRD wins and the test lists the erratum); numbers and names are the SRD's,
//! descriptions ours.
//!
//! ```
//! use dnd_engine::srd::Srd;
//!
//! let fighter = Srd::bundled().class("fighter").unwrap();
//! assert_eq!(fighter.hit_die, 10);
//! let third: Vec<_> = fighter.features_at(3, Some("Champion")).iter().map(|f| f.name.as_str()).collect();
//! assert_eq!(third, ["Martial Archetype", "Improved Critical"]);
//! assert_eq!(fighter.level(2).unwrap().numbers.action_surges, Some(1));
//! ```

use serde::{Deserialize, Serialize};

use crate::rules::{Ability, Skill};

/// One of the SRD classes, levels 1 to 5.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    /// The 5e-database index ("barbarian").
    pub slug: String,
    /// Its name ("Barbarian").
    pub name: String,
    /// One sentence for a player choosing a class.
    pub description: String,
    /// Sides of the hit die (12 for a d12).
    pub hit_die: u8,
    /// Hit points at 1st level, before the Constitution modifier.
    pub hp_at_first_level: u8,
    /// Hit points gained per level after the first when not rolled, before Constitution.
    pub hp_per_level: u8,
    /// The two saving throws it is proficient in.
    pub saving_throws: Vec<Ability>,
    /// Armour proficiencies ("Light Armor", "Shields").
    pub armor: Vec<String>,
    /// Weapon proficiencies ("Simple Weapons", "Rapiers").
    pub weapons: Vec<String>,
    /// Tool proficiencies ("Thieves' Tools").
    pub tools: Vec<String>,
    /// The skills a new character picks from, and how many.
    pub skill_choices: SkillChoices,
    /// Tools or instruments a new character picks (the bard's three instruments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_choices: Vec<Selection>,
    /// Equipment every new character of the class gets.
    pub starting_equipment: Vec<ItemCount>,
    /// Equipment choices, each kept as a choice ("a greataxe or any martial melee weapon").
    pub equipment_choices: Vec<EquipmentChoice>,
    /// The gold rolled instead of taking the starting equipment.
    pub starting_gold: StartingGold,
    /// How the class casts spells, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spellcasting: Option<ClassSpellcasting>,
    /// Levels 1 to 5, in order.
    pub levels: Vec<ClassLevel>,
    /// Its SRD subclass.
    pub subclass: Subclass,
    /// Every feature of levels 1 to 5, the subclass's and the options of a choice included.
    pub features: Vec<ClassFeature>,
}

/// The skills a class offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillChoices {
    /// How many to pick.
    pub choose: u8,
    /// The skills allowed.
    pub from: Vec<Skill>,
}

/// Pick `choose` of `from`: feature slugs for a feature's options (Fighting Style), skill or
/// tool names for Expertise, plain names (enemy types, terrains, instruments) otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// How many to pick.
    pub choose: u8,
    /// What may be picked.
    pub from: Vec<String>,
}

/// So many of one item, by its SRD equipment name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemCount {
    /// The item ("Explorer's Pack").
    pub item: String,
    /// How many.
    pub quantity: u32,
}

/// A choice of starting equipment: take `choose` of the options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquipmentChoice {
    /// How many options to take (1 in the SRD).
    pub choose: u8,
    /// The options.
    pub options: Vec<EquipmentOption>,
}

/// One option of an [`EquipmentChoice`]: fixed items, a pick from a category, or both
/// ("a shield and any martial weapon").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquipmentOption {
    /// Items given as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemCount>,
    /// Items picked from an equipment category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub any_of: Option<CategoryPick>,
}

/// "Any N of a category" ("any martial melee weapon").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryPick {
    /// The 5e-database equipment category ("Martial Melee Weapons").
    pub category: String,
    /// How many to pick.
    pub choose: u8,
}

/// Starting gold in gold pieces: roll `dice`, multiply by `multiplier` (5d4 × 10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartingGold {
    /// Dice notation ("5d4").
    pub dice: String,
    /// The multiplier (10, or 1 for the monk).
    pub multiplier: u32,
}

/// How a class casts. Slots and the numbers of spells known are per level ([`LevelSpells`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassSpellcasting {
    /// The spellcasting ability.
    pub ability: Ability,
    /// The class level casting starts at (2 for paladins and rangers).
    pub from_level: u8,
    /// Known spells or prepared each day.
    pub preparation: Preparation,
    /// For a preparing class: it prepares its ability modifier + level / this (at least one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepared_level_divisor: Option<u8>,
    /// Which rituals it can cast without a slot.
    pub ritual_casting: RitualCasting,
    /// The warlock's Pact Magic: every slot is of the highest level shown in the level's
    /// slots, and they all come back on a short rest.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pact_magic: bool,
}

/// Known or prepared spells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preparation {
    /// A fixed list that changes on levelling (bard, ranger, sorcerer, warlock).
    Known,
    /// Chosen each day from a list (cleric, druid, paladin; the wizard from the spellbook).
    Prepared,
}

/// Which ritual spells a class can cast as rituals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RitualCasting {
    /// None.
    None,
    /// The rituals it knows (bard).
    Known,
    /// The rituals it has prepared (cleric, druid).
    Prepared,
    /// Any ritual in its spellbook, prepared or not (wizard).
    Spellbook,
}

/// One class level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassLevel {
    /// The level (1 to 5).
    pub level: u8,
    /// The proficiency bonus at this level.
    pub proficiency_bonus: u8,
    /// Slugs of the class features gained at this level (the subclass's are in [`Subclass`]).
    pub features: Vec<String>,
    /// Spells at this level, for a caster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spells: Option<LevelSpells>,
    /// The class's own numbers at this level.
    pub numbers: LevelNumbers,
}

/// A caster's spells at one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSpells {
    /// Cantrips known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cantrips_known: Option<u8>,
    /// Spells of 1st level and higher known (a known-spells class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spells_known: Option<u8>,
    /// Slots of spell levels 1 to 5.
    pub slots: [u8; 5],
}

/// The numbers of a class's table at one level, named as in the 5e-database Levels file;
/// a number the class does not have, or that is still zero, is absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelNumbers {
    // Barbarian.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Rages per long rest.
    pub rage_count: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Damage added by a raging Strength melee hit.
    pub rage_damage_bonus: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Extra weapon dice on a critical hit (from 9th level).
    pub brutal_critical_dice: Option<u8>,
    // Bard: die sides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Sides of the Bardic Inspiration die.
    pub bardic_inspiration_die: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Sides of the Song of Rest die.
    pub song_of_rest_die: Option<u8>,
    // Cleric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Channel Divinity uses per short rest.
    pub channel_divinity_charges: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The highest challenge Destroy Undead destroys.
    pub destroy_undead_cr: Option<f32>,
    // Druid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The highest challenge of a Wild Shape beast.
    pub wild_shape_max_cr: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Whether a Wild Shape beast may swim.
    pub wild_shape_swim: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Whether a Wild Shape beast may fly.
    pub wild_shape_fly: Option<bool>,
    // Fighter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Action Surges per short rest.
    pub action_surges: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Indomitable uses per long rest (from 9th level).
    pub indomitable_uses: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Attacks added to the Attack action.
    pub extra_attacks: Option<u8>,
    // Monk: the martial arts die, ki points, extra speed in feet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The martial arts die.
    pub martial_arts: Option<DiceCount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Ki points per short rest.
    pub ki_points: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Feet added to speed without armour.
    pub unarmored_movement: Option<u8>,
    // Paladin: aura range in feet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Reach of the paladin's auras in feet (from 6th level).
    pub aura_range: Option<u8>,
    // Ranger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Favored enemy types known.
    pub favored_enemies: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Favored terrains known.
    pub favored_terrain: Option<u8>,
    // Rogue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Sneak Attack dice.
    pub sneak_attack: Option<DiceCount>,
    // Sorcerer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Sorcery points per long rest.
    pub sorcery_points: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Metamagic options known.
    pub metamagic_known: Option<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// What each slot level costs in sorcery points (Flexible Casting).
    pub creating_spell_slots: Vec<SlotCost>,
    // Warlock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Eldritch Invocations known.
    pub invocations_known: Option<u8>,
    // Wizard: slot levels recovered by Arcane Recovery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Slot levels Arcane Recovery restores.
    pub arcane_recovery_levels: Option<u8>,
}

/// So many dice of so many sides (the martial arts die, sneak attack dice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceCount {
    /// How many dice.
    pub dice_count: u8,
    /// Sides of each die.
    pub dice_value: u8,
}

/// The sorcery points a created spell slot costs (Flexible Casting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotCost {
    /// The slot's level.
    pub spell_slot_level: u8,
    /// Its cost.
    pub sorcery_point_cost: u8,
}

/// A class's SRD subclass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subclass {
    /// The 5e-database index ("champion").
    pub slug: String,
    /// Its name ("Champion").
    pub name: String,
    /// What the class calls its subclasses ("Martial Archetype").
    pub kind: String,
    /// The class level it is chosen at.
    pub chosen_at: u8,
    /// One sentence for a player.
    pub description: String,
    /// The levels at which it grants features, with their slugs.
    pub levels: Vec<SubclassLevel>,
    /// Spells it keeps always prepared (domain, circle, oath, expanded spells), to level 5.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonus_spells: Vec<BonusSpell>,
}

/// The features a subclass grants at one level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubclassLevel {
    /// The class level.
    pub level: u8,
    /// Feature slugs.
    pub features: Vec<String>,
}

/// A spell a subclass adds from a class level on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusSpell {
    /// The class level.
    pub level: u8,
    /// The spell's name.
    pub spell: String,
    /// The option feature it depends on (a druid's chosen land), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<String>,
}

/// A class feature (or one option of a feature's choice).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassFeature {
    /// The 5e-database index ("action-surge-1-use").
    pub slug: String,
    /// Its name.
    pub name: String,
    /// The class slug.
    pub class: String,
    /// The subclass slug, for a subclass feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// The class level it comes at.
    pub level: u8,
    /// For an option ("Fighting Style: Archery"), the feature whose choice it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// One or two sentences for the table, in our words.
    pub description: String,
    /// How often it can be used, if it is limited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<Uses>,
    /// What the player picks when gaining it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Selection>,
    /// Spells it lets the character cast (an invocation's Bane once a long rest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub casts: Vec<super::GrantedSpell>,
    /// What the engine does with it.
    #[serde(flatten)]
    pub status: FeatureStatus,
}

/// What the engine does with a feature or a racial trait.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum FeatureStatus {
    /// The engine plays it; `by` names the code.
    Implemented {
        /// The code that plays it.
        by: String,
    },
    /// It never changes a number at the table; `reason` says why.
    Narrative {
        /// Why no rule needs it.
        reason: String,
    },
    /// It changes numbers but no code plays it yet; `needs` says what a fight or check uses.
    Unmodelled {
        /// What the rule does to a roll, a number or an action.
        needs: String,
    },
}

/// A limited use: how many, and what restores them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Uses {
    /// How many.
    pub count: UsesCount,
    /// The rest that restores them.
    pub restores: Rest,
}

/// How many uses a feature has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UsesCount {
    /// A fixed number.
    Fixed(u8),
    /// The level's number of that name in [`LevelNumbers`] ("rage_count").
    Table(String),
    /// The ability's modifier, at least 1.
    AbilityModifier(Ability),
    /// 1 + the ability's modifier.
    AbilityModifierPlusOne(Ability),
    /// The class level times this (Lay on Hands' pool of hit points).
    LevelTimes(u8),
}

/// The rest that restores a feature's uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rest {
    /// A short or a long rest.
    ShortRest,
    /// A long rest only.
    LongRest,
}

impl Class {
    /// The numbers of level `n` (1 to 5), or `None` outside the bundled levels.
    pub fn level(&self, n: u8) -> Option<&ClassLevel> {
        self.levels.iter().find(|l| l.level == n)
    }

    /// How many attacks one Attack action makes at class level `level`: one, and the level
    /// table's `extra_attacks` (Extra Attack) of the highest bundled level at or below it. The
    /// one place this number is kept (the turn budget spends it: `state::attacks_per_action`).
    pub fn attacks_per_attack_action(&self, level: u8) -> u8 {
        let extra = self
            .levels
            .iter()
            .filter(|l| l.level <= level)
            .max_by_key(|l| l.level)
            .and_then(|l| l.numbers.extra_attacks)
            .unwrap_or(0);
        1 + extra
    }

    /// A feature by slug.
    pub fn feature(&self, slug: &str) -> Option<&ClassFeature> {
        self.features.iter().find(|f| f.slug == slug)
    }

    /// The features gained at `level`: the class's, then the subclass's when `subclass` names
    /// it (by name or slug, any case). Options of a choice are not included: see
    /// [`ClassFeature::options`].
    pub fn features_at(&self, level: u8, subclass: Option<&str>) -> Vec<&ClassFeature> {
        let mut slugs: Vec<&str> = self
            .level(level)
            .map(|l| l.features.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let wanted = subclass.map(super::slugify);
        let ours = wanted
            .as_deref()
            .is_some_and(|w| w == self.subclass.slug || w == super::slugify(&self.subclass.name));
        if ours {
            for sub in self.subclass.levels.iter().filter(|s| s.level == level) {
                slugs.extend(sub.features.iter().map(String::as_str));
            }
        }
        slugs.into_iter().filter_map(|s| self.feature(s)).collect()
    }

    /// Spell slots of levels 1 to 5 at class level `level` (all zero for a non-caster, or
    /// before casting starts). A warlock's are its pact slots.
    pub fn slots_at(&self, level: u8) -> [u8; 5] {
        self.level(level)
            .and_then(|l| l.spells)
            .map_or([0; 5], |s| s.slots)
    }
}
