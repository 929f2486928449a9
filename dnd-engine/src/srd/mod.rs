//! The bundled SRD 5.1 subset, lookups by name with "did you mean", and a loader for the
//! community 5e-database JSON files.
//!
//! The data is JSON compiled into the crate (`src/srd/data/`), parsed once on first use. Its
//! numbers and names are the SRD's; every description is written for this project. The SRD 5.1
//! is © Wizards of the Coast, released under CC-BY-4.0 (see the README's credits).
//!
//! The bundled data is the default feature `bundled-srd`: without it the crate compiles no JSON,
//! [`Srd::bundled`] does not exist, and a game passes its own [`Srd`] (from
//! [`FiveEDatabase::over`] or built by hand) to the game master
//! (`GameMasterBuilder::srd`), the adventure loader and [`crate::state::GameState::set_srd`].
//! Nothing below the defaults reads the bundled data by itself: the engine reads the SRD of the
//! game it plays ([`crate::state::GameState::srd`]).

pub mod action_effects;
mod backgrounds;
mod classes;
mod classify;
mod conditional;
mod five_e_database;
mod gear;
mod granted;
mod hero_data;
mod lookup;
mod magic_items;
mod monster_reactions;
mod races;
mod spell_damage;
mod spell_range;
mod spellcasting;
mod types;

#[cfg(feature = "bundled-srd")]
use std::sync::{Arc, OnceLock};

pub use backgrounds::{Background, BackgroundFeature};
pub use classes::{
    BonusSpell, CategoryPick, Class, ClassFeature, ClassLevel, ClassSpellcasting, DiceCount,
    EquipmentChoice, EquipmentOption, FeatureStatus, ItemCount, LevelNumbers, LevelSpells,
    Preparation, Rest, RitualCasting, Selection, SkillChoices, SlotCost, StartingGold, Subclass,
    SubclassLevel, Uses, UsesCount,
};
pub use classify::{SpellClass, fight_numbers};
pub use five_e_database::{
    FIVE_E_DATABASE_FILE_MAX_BYTES, Fidelity, FiveEDatabase, FiveEDatabaseError, LoadReport,
    MONSTERS_FILE, RecordError, SPELLS_FILE, SpellEffects, SpellEffectsReport, load_dir,
    parse_monsters, parse_spells, spell_effects, spell_effects_report,
};
pub use gear::MundaneItem;
pub use granted::{GrantedCasting, GrantedSpell};
pub use hero_data::HeroDataError;
pub use lookup::{LookupError, slugify};
pub use monster_reactions::{MonsterReaction, ReactionRule};
pub use races::{
    AbilityBonus, AbilityBonusChoices, Breath, Race, RaceData, RacesFile, RacialTrait, SubraceData,
};
pub use spell_damage::FirstRoll;
pub use spell_range::{SpellRange, SpellReach};
pub use spellcasting::{InnateSpell, MonsterSpellcasting, SlotLevel, SpellSource};
pub use types::*;

/// A collection of SRD records: the bundled one ([`Srd::bundled`]) or one a caller assembled
/// (from a 5e-database folder, or their own homebrew).
#[derive(Debug, Clone, Default)]
pub struct Srd {
    /// Monsters.
    pub monsters: Vec<Monster>,
    /// Spells.
    pub spells: Vec<Spell>,
    /// The 15 conditions.
    pub conditions: Vec<ConditionInfo>,
    /// Weapons.
    pub weapons: Vec<Weapon>,
    /// Armor and shields.
    pub armor: Vec<Armor>,
    /// Rules topics.
    pub rules: Vec<RulesTopic>,
    /// Magic items the engine resolves (potions, +N weapons and armour, the spell scroll); see
    /// [`Srd::magic_item`].
    pub magic_items: Vec<crate::effects::MagicItem>,
    /// The spell scroll's save DC and attack bonus by spell level.
    pub spell_scroll: Vec<crate::effects::ScrollLevel>,
    /// The 12 SRD classes, levels 1 to 5; see [`Srd::class`].
    pub classes: Vec<Class>,
    /// The 9 SRD races with their subraces and traits; see [`Srd::race`].
    pub races: RacesFile,
    /// Backgrounds (the SRD's Acolyte); see [`Srd::background`].
    pub backgrounds: Vec<Background>,
}

#[cfg(feature = "bundled-srd")]
const MONSTERS_JSON: &str = include_str!("data/monsters.json");
#[cfg(feature = "bundled-srd")]
const SPELLS_JSON: &str = include_str!("data/spells.json");
#[cfg(feature = "bundled-srd")]
const CONDITIONS_JSON: &str = include_str!("data/conditions.json");
#[cfg(feature = "bundled-srd")]
const WEAPONS_JSON: &str = include_str!("data/weapons.json");
#[cfg(feature = "bundled-srd")]
const ARMOR_JSON: &str = include_str!("data/armor.json");
#[cfg(feature = "bundled-srd")]
const RULES_JSON: &str = include_str!("data/rules.json");
#[cfg(feature = "bundled-srd")]
const MAGIC_ITEMS_JSON: &str = include_str!("data/magic_items.json");
#[cfg(feature = "bundled-srd")]
const CLASSES_JSON: &str = include_str!("data/classes.json");
#[cfg(feature = "bundled-srd")]
const RACES_JSON: &str = include_str!("data/races.json");
#[cfg(feature = "bundled-srd")]
const BACKGROUNDS_JSON: &str = include_str!("data/backgrounds.json");

impl Srd {
    /// The SRD subset compiled into the crate, parsed on first use (feature `bundled-srd`).
    ///
    /// The bundled files are checked by the crate's tests, so parsing them cannot fail in a
    /// released build; if it ever did, the broken file's records are left out and the error
    /// is logged, rather than taking the game down.
    ///
    /// Only the defaults read it (a new `GameState`, the game master's builder, the adventure
    /// loader's plain entry points); everything else reads the game's own SRD.
    #[cfg(feature = "bundled-srd")]
    pub fn bundled() -> &'static Srd {
        Srd::bundled_arc()
    }

    /// The bundled SRD behind a shared pointer, the same one each call (no copy of the data):
    /// what a game holds when it was given no other SRD (feature `bundled-srd`).
    #[cfg(feature = "bundled-srd")]
    pub fn bundled_shared() -> Arc<Srd> {
        Arc::clone(Srd::bundled_arc())
    }

    #[cfg(feature = "bundled-srd")]
    fn bundled_arc() -> &'static Arc<Srd> {
        static BUNDLED: OnceLock<Arc<Srd>> = OnceLock::new();
        BUNDLED.get_or_init(|| match Srd::parse_bundled() {
            Ok(srd) => Arc::new(srd),
            Err(error) => {
                tracing::error!(%error, "the bundled SRD data did not parse");
                Arc::new(Srd::default())
            }
        })
    }

    /// Parses the bundled files, reporting the first that fails (feature `bundled-srd`).
    #[cfg(feature = "bundled-srd")]
    pub fn parse_bundled() -> Result<Srd, BundledDataError> {
        fn parse<T: serde::de::DeserializeOwned>(
            file: &'static str,
            text: &str,
        ) -> Result<T, BundledDataError> {
            serde_json::from_str(text)
                .map_err(|source| BundledDataError::Malformed { file, source })
        }
        let mut monsters: Vec<Monster> = parse("monsters.json", MONSTERS_JSON)?;
        let magic: magic_items::MagicItemsFile = parse("magic_items.json", MAGIC_ITEMS_JSON)?;
        for monster in &mut monsters {
            conditional::fold_nonmagical_defenses(
                &mut monster.defenses,
                &monster.conditional_defenses,
            );
            for action in monster
                .actions
                .iter_mut()
                .chain(monster.legendary_actions.iter_mut())
            {
                action_effects::fill(action);
            }
        }
        let spells: Vec<Spell> = parse("spells.json", SPELLS_JSON)?;
        let heroes = hero_data::parse(CLASSES_JSON, RACES_JSON, BACKGROUNDS_JSON)?;
        Ok(Srd {
            monsters,
            spells,
            conditions: parse("conditions.json", CONDITIONS_JSON)?,
            weapons: parse("weapons.json", WEAPONS_JSON)?,
            armor: parse("armor.json", ARMOR_JSON)?,
            rules: parse("rules.json", RULES_JSON)?,
            magic_items: magic.items,
            spell_scroll: magic.spell_scroll,
            classes: heroes.classes,
            races: heroes.races,
            backgrounds: heroes.backgrounds,
        })
    }

    /// A monster by name or slug, in any case ("Goblin", "giant-spider", "giant spider").
    pub fn monster(&self, name: &str) -> Result<&Monster, LookupError> {
        lookup::find("monster", &self.monsters, name, |m| (&m.name, &m.slug, &[]))
    }

    /// A spell by name or slug.
    pub fn spell(&self, name: &str) -> Result<&Spell, LookupError> {
        lookup::find("spell", &self.spells, name, |s| (&s.name, &s.slug, &[]))
    }

    /// The spell `name` names, if it is one: [`Srd::spell`] without the suggestions a miss
    /// computes, for the checks made on every attack ("is this attack a spell's?").
    pub fn spell_named(&self, name: &str) -> Option<&Spell> {
        lookup::find_only(&self.spells, name, |s| (&s.name, &s.slug, &[]))
    }

    /// A condition by name.
    pub fn condition(&self, name: &str) -> Result<&ConditionInfo, LookupError> {
        lookup::find("condition", &self.conditions, name, |c| {
            (&c.name, c.condition.name(), &[])
        })
    }

    /// A weapon by name or slug.
    pub fn weapon(&self, name: &str) -> Result<&Weapon, LookupError> {
        lookup::find("weapon", &self.weapons, name, |w| (&w.name, &w.slug, &[]))
    }

    /// Armor by name or slug.
    pub fn armor(&self, name: &str) -> Result<&Armor, LookupError> {
        lookup::find("armor", &self.armor, name, |a| (&a.name, &a.slug, &[]))
    }

    /// A rules topic by name, slug or alias ("grappling", "grapple", "opportunity attack").
    pub fn rule(&self, name: &str) -> Result<&RulesTopic, LookupError> {
        lookup::find("rules topic", &self.rules, name, |r| {
            (&r.name, &r.slug, r.aliases.as_slice())
        })
    }

    /// A class by name or slug ("Fighter", "fighter").
    pub fn class(&self, name: &str) -> Result<&Class, LookupError> {
        let found = lookup::find("class", &self.classes, name, |c| (&c.name, &c.slug, &[]));
        or_every_name(found, self.classes.iter().map(|c| c.name.as_str()))
    }

    /// A race or a subrace by name or slug ("Dwarf", "hill dwarf"); a subrace comes with its
    /// race, and [`Race::traits`] gives the traits of both.
    pub fn race(&self, name: &str) -> Result<Race<'_>, LookupError> {
        let races = &self.races.races;
        let choices: Vec<Race<'_>> = races
            .iter()
            .map(|r| Race::new(r, None, &self.races.traits))
            .chain(races.iter().flat_map(|r| {
                r.subraces
                    .iter()
                    .map(|s| Race::new(r, Some(s), &self.races.traits))
            }))
            .collect();
        let found = lookup::find("race", &choices, name, |c| {
            let slug = c.subrace.map_or(&c.race.slug, |s| &s.slug);
            (c.name(), slug, &[])
        });
        or_every_name(found, choices.iter().map(|c| c.name())).copied()
    }

    /// A background by name or slug ("Acolyte").
    pub fn background(&self, name: &str) -> Result<&Background, LookupError> {
        let found = lookup::find("background", &self.backgrounds, name, |b| {
            (&b.name, &b.slug, &[])
        });
        or_every_name(found, self.backgrounds.iter().map(|b| b.name.as_str()))
    }
}

/// A miss among a short list (classes, races, backgrounds) with no similar name offers the
/// whole list, so the player or the model sees what there is to pick from.
fn or_every_name<'a, T>(
    found: Result<T, LookupError>,
    names: impl Iterator<Item = &'a str>,
) -> Result<T, LookupError> {
    found.map_err(|mut error| {
        if error.suggestions.is_empty() {
            error.suggestions = names.map(str::to_owned).collect();
        }
        error
    })
}

/// A bundled data file that did not parse or is inconsistent (a bug in this crate, caught by
/// its tests).
#[derive(Debug, thiserror::Error)]
pub enum BundledDataError {
    /// A file is not the expected JSON.
    #[error("bundled SRD file {file} is malformed: {source}")]
    Malformed {
        /// The file.
        file: &'static str,
        /// The parse error, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// The class, race or background data is malformed or its records do not link up.
    #[error("bundled SRD hero data is invalid: {0}")]
    Heroes(#[from] HeroDataError),
}
