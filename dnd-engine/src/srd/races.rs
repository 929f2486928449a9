//! The SRD's nine races and their subraces, as data (`data/races.json`): ability bonuses,
//! size, speed, languages and traits, each trait with what the engine does with it.
//!
//! ```
//! use dnd_engine::srd::Srd;
//!
//! let hill_dwarf = Srd::bundled().race("Hill Dwarf").unwrap();
//! assert_eq!(hill_dwarf.name(), "Hill Dwarf");
//! assert_eq!(hill_dwarf.speed(), 25);
//! let traits: Vec<_> = hill_dwarf.traits().iter().map(|t| t.slug.as_str()).collect();
//! assert!(traits.contains(&"dwarven-resilience") && traits.contains(&"dwarven-toughness"));
//! ```

use serde::{Deserialize, Serialize};

use super::Size;
use super::classes::{FeatureStatus, Selection, SkillChoices, Uses};
use crate::rules::{Ability, DamageType, Skill};

/// The races file: the races, and the traits they name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RacesFile {
    /// The races.
    pub races: Vec<RaceData>,
    /// Their traits, the options of a trait's choice included.
    pub traits: Vec<RacialTrait>,
}

/// A race as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceData {
    /// The 5e-database index ("half-orc").
    pub slug: String,
    /// Its name.
    pub name: String,
    /// One sentence for a player.
    pub description: String,
    /// Its size.
    pub size: Size,
    /// Walking speed in feet.
    pub speed: u32,
    /// Fixed ability score increases.
    pub ability_bonuses: Vec<AbilityBonus>,
    /// Increases the player chooses (the half-elf's two +1s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability_bonus_choices: Option<AbilityBonusChoices>,
    /// Languages known.
    pub languages: Vec<String>,
    /// Languages of the player's choice on top.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_languages: u8,
    /// Trait slugs.
    pub traits: Vec<String>,
    /// Its SRD subraces.
    pub subraces: Vec<SubraceData>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A subrace as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubraceData {
    /// The 5e-database index ("hill-dwarf").
    pub slug: String,
    /// Its name.
    pub name: String,
    /// One sentence for a player.
    pub description: String,
    /// Ability increases on top of the race's.
    pub ability_bonuses: Vec<AbilityBonus>,
    /// Trait slugs on top of the race's.
    pub traits: Vec<String>,
}

/// +`bonus` to an ability score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityBonus {
    /// The ability.
    pub ability: Ability,
    /// The increase.
    pub bonus: i8,
}

/// `choose` different abilities of `from` each get +`bonus`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityBonusChoices {
    /// How many abilities.
    pub choose: u8,
    /// The increase of each.
    pub bonus: i8,
    /// The abilities allowed.
    pub from: Vec<Ability>,
}

/// A racial trait (or one option of a trait's choice, such as a dragon colour).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RacialTrait {
    /// The 5e-database index ("dwarven-resilience").
    pub slug: String,
    /// Its name.
    pub name: String,
    /// For an option, the trait whose choice it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// One or two sentences for the table, in our words.
    pub description: String,
    /// A sense's range in feet (Darkvision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_feet: Option<u32>,
    /// A draconic ancestry's damage type (of its breath and its resistance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// A draconic ancestry's breath weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breath: Option<Breath>,
    /// What the player picks (trait slugs of the options).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Selection>,
    /// Skill proficiencies it gives (Keen Senses' Perception).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<Skill>,
    /// Other proficiencies it gives: weapons and tools, by name ("Battleaxes").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proficiencies: Vec<String>,
    /// Skills the player picks (Skill Versatility).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_choices: Option<SkillChoices>,
    /// Tools the player picks, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proficiency_choices: Option<Selection>,
    /// Spells the player picks, by name (the high elf's wizard cantrip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell_choices: Option<Selection>,
    /// How often it can be used, if limited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<Uses>,
    /// Spells it lets the character cast (Infernal Legacy's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub casts: Vec<super::GrantedSpell>,
    /// What the engine does with it.
    #[serde(flatten)]
    pub status: FeatureStatus,
}

/// A dragonborn's breath weapon, by ancestry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Breath {
    /// "line" or "cone".
    pub shape: String,
    /// Its length in feet (a line is 5 feet wide).
    pub size_feet: u32,
    /// The save against it.
    pub save: Ability,
    /// Its damage at character levels 1 to 5.
    pub dice: String,
}

/// A race looked up by [`Srd::race`](super::Srd::race): the race, the subrace when one was
/// named, and the traits of both.
#[derive(Debug, Clone, Copy)]
pub struct Race<'a> {
    /// The race.
    pub race: &'a RaceData,
    /// The subrace, when the name was a subrace's.
    pub subrace: Option<&'a SubraceData>,
    all_traits: &'a [RacialTrait],
}

impl<'a> Race<'a> {
    pub(crate) fn new(
        race: &'a RaceData,
        subrace: Option<&'a SubraceData>,
        all_traits: &'a [RacialTrait],
    ) -> Race<'a> {
        Race {
            race,
            subrace,
            all_traits,
        }
    }

    /// The subrace's name if there is one, else the race's.
    pub fn name(&self) -> &'a str {
        self.subrace.map_or(&self.race.name, |s| &s.name)
    }

    /// Walking speed in feet.
    pub fn speed(&self) -> u32 {
        self.race.speed
    }

    /// Size.
    pub fn size(&self) -> Size {
        self.race.size
    }

    /// The fixed ability increases of the race, then of the subrace.
    pub fn ability_bonuses(&self) -> Vec<AbilityBonus> {
        let sub = self.subrace.map(|s| s.ability_bonuses.as_slice());
        self.race
            .ability_bonuses
            .iter()
            .chain(sub.unwrap_or_default())
            .copied()
            .collect()
    }

    /// The race's traits, then the subrace's (options of a choice are not included: see
    /// [`RacialTrait::options`]).
    pub fn traits(&self) -> Vec<&'a RacialTrait> {
        let sub = self.subrace.map(|s| s.traits.as_slice());
        self.race
            .traits
            .iter()
            .chain(sub.unwrap_or_default())
            .filter_map(|slug| self.all_traits.iter().find(|t| &t.slug == slug))
            .collect()
    }
}
