//! A loader for the community 5e-database JSON files (`5e-SRD-Monsters.json`,
//! `5e-SRD-Spells.json`), into the same [`Monster`] and [`Spell`] types as the bundled data.
//!
//! # Why
//!
//! The bundled SRD is a subset with descriptions written for this project. Many D&D tools read
//! the 5e-database format (github.com/5e-bits/5e-database), so a user who has those files (the
//! full SRD, or their own homebrew in the same shape) can load them at run time, and the rules,
//! the tools and the encounter simulator use them like the bundled records. Nothing of those
//! files is copied into this repository: the loaded records keep the files' own text.
//!
//! # How
//!
//! [`parse_monsters`] and [`parse_spells`] are pure functions over the text of one file. The
//! top level must be a JSON array; each record is converted on its own, so one bad record is
//! reported in [`LoadReport::failures`] (its index, its name, the field and what was expected)
//! while the others load. Unknown fields are ignored. No input makes them panic.
//! [`load_dir`] reads both files from a folder; [`FiveEDatabase::into_srd`] makes an [`Srd`].
//!
//! # What goes where (monsters)
//!
//! | 5e-database | [`Monster`] |
//! |---|---|
//! | `index` (else `name`), slugified | `slug` |
//! | `type` + `subtype` | `kind`: "humanoid (goblinoid)" |
//! | `armor_class: [{type, value, armor, spell, condition, desc}]` (or a number) | `armor_class` from the first entry (or from a shield or worn armor listed after natural armor: "natural armor, shield" comes as two entries); `armor_note` says where it comes from ("leather armor, shield"; nothing for natural armor or Dexterity alone, as in the bundled data) and lists the other entries ("15 with mage armor", "11 while prone") |
//! | `hit_dice` (else `hit_points_roll`) | `hit_dice` |
//! | `speed: {walk: "30 ft.", hover: true}` | [`Speed`](crate::srd::Speed) in feet |
//! | `strength` ... `charisma` (top-level) | `abilities` |
//! | `proficiencies: [{value, proficiency: {name: "Saving Throw: DEX" \| "Skill: Stealth"}}]` | `saving_throws`, `skills`; other kinds ignored |
//! | `damage_resistances` / `_immunities` / `_vulnerabilities` (free strings) | a plain damage type goes into `defenses`; anything else ("bludgeoning, piercing, and slashing from nonmagical attacks") into `conditional_defenses` as written, after "immunity to " or "vulnerability to " unless it is a resistance (the list cannot say which, so the text does, as in the bundled data) |
//! | `condition_immunities: [{index, name}]` | `condition_immunities`, each once |
//! | `languages` ("" when none) | `languages` ("—" when none, as in the bundled data) |
//! | `senses: {darkvision: "60 ft.", passive_perception}` | `senses` ("darkvision 60 ft."), `passive_perception` (if absent: 10 + Perception, else 10 + the Wisdom modifier) |
//! | `challenge_rating` (0.125, 2...), `xp` (else from the CR) | `challenge_rating`, `xp` |
//! | `special_abilities`, `reactions` | `traits`, `reactions`; a `usage` is written after the name as a stat block does ("Legendary Resistance (3/Day)") |
//! | `actions`, `legendary_actions` | [`MonsterAction`]s; a legendary action's "(Costs 2 Actions)" becomes `cost` (else 1) |
//!
//! Inside an action:
//!
//! - the **attack** is read from the description, which is where 5e-database keeps its kind,
//!   reach and range ("Melee Weapon Attack: +4 to hit, reach 5 ft." / "range 80/320 ft."), with
//!   the bonus from `attack_bonus`. An action whose description names no attack has none, even
//!   with an `attack_bonus` (legendary actions such as "Tail Attack" carry `attack_bonus: 0`
//!   and point at another action).
//! - **damage** `[{damage_type, damage_dice}]` becomes one [`DamageDice`] per group of dice
//!   ("2d6 + 1d8" gives two; a constant goes with the first group; "1" is a flat 1). A
//!   `{choose, type, from: {options}}` entry (a versatile weapon, a choice of element) goes into
//!   `damage_options`; when an action has no other damage, the first option (one-handed, as
//!   5e-database lists them) is also its `damage`, as in the bundled data.
//! - the **save** is the action's `dc` (`dc_type`, `dc_value`, `success_type`). A `success_type`
//!   of "none" whose description says "half as much damage" is read as half (several records
//!   have this slip). Without an action `dc`, a damage entry's own `dc` is used (a poisoned
//!   blade); without either, the first "DC 11 Strength saving throw" of the description (a
//!   wolf's bite, whose record has no `dc`), half on a success when the description says "half
//!   as much damage" or "half the damage".
//! - **sub-effects**: `options` (a choice of breath weapons) and `attacks` (a roar that changes
//!   each time) each have their own save and damage, which the types cannot hold per option: the
//!   action's save is that of the first sub-effect that deals damage, all their damage goes
//!   into `damage_options`, and the first damaging one is the `damage`. The description has
//!   the rest.
//! - **usage**: `recharge on roll` (`dice: "1d6"`, `min_value`), `per day` (`times`), `recharge
//!   after rest` (`rest_types`) become [`ActionUsage`](crate::srd::ActionUsage).
//! - **multiattack**: `actions: [{action_name, count}]` is the usual way; each option of
//!   `action_options` (one action, or `items` of several) is another way. A count that is a
//!   string is read as a number, as dice (their average rounded down, so "1d4" gives 2) or,
//!   for words such as "Number of Heads", as 1 (the description says the rest).
//!
//! # What goes where (spells)
//!
//! `level`, `school.index`, `casting_time`, `range`, `duration`, `concentration`, `ritual` as
//! they are; `components` (`["V", "S", "M"]`) with `material`; `classes[].name` in lower case, sorted;
//! `area_of_effect` `{type, size}` as the area;
//! `desc` and `higher_level` (arrays of paragraphs) joined by blank lines. What the spell does
//! (`attack_type`, `dc`, `damage` by slot or character level, `heal_at_slot_level`, and a
//! save spell's condition, read from its description) becomes the spell's `effects`
//! (`spell_effects.rs`, its table there); [`spell_effects_report`] and
//! [`FiveEDatabase::spell_effects`] say how many spells load with full effects, partial, or
//! narrative only.

mod actions;
mod fields;
mod monsters;
mod spell_effects;
mod spells;

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::srd::{Monster, Spell, Srd};

pub use spell_effects::{Fidelity, SpellEffects, SpellEffectsReport, spell_effects};

#[cfg(doc)]
use crate::rules::DamageDice;
#[cfg(doc)]
use crate::srd::MonsterAction;

/// The name of the monsters file in a 5e-database folder.
pub const MONSTERS_FILE: &str = "5e-SRD-Monsters.json";
/// The name of the spells file in a 5e-database folder.
pub const SPELLS_FILE: &str = "5e-SRD-Spells.json";

/// The records of one file that loaded, and those that did not.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadReport<T> {
    /// The records that converted, in file order.
    pub loaded: Vec<T>,
    /// The records that did not, in file order.
    pub failures: Vec<RecordError>,
}

impl<T> Default for LoadReport<T> {
    fn default() -> Self {
        LoadReport {
            loaded: Vec::new(),
            failures: Vec::new(),
        }
    }
}

impl<T> LoadReport<T> {
    /// Whether every record loaded.
    pub fn is_complete(&self) -> bool {
        self.failures.is_empty()
    }
}

/// One record that could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {index}{}: {message}", name_part(.name.as_deref()))]
pub struct RecordError {
    /// Its position in the file's array, from 0.
    pub index: usize,
    /// Its `name`, if it had a string one.
    pub name: Option<String>,
    /// Which field was wrong and what was expected
    /// ("field `strength`: expected a whole number, found the string \"strong\"").
    pub message: String,
}

fn name_part(name: Option<&str>) -> String {
    name.map(|n| format!(" ({n:?})")).unwrap_or_default()
}

/// Why a 5e-database file or folder could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum FiveEDatabaseError {
    /// The text is not JSON.
    #[error("not valid JSON ({0}); a 5e-database file is a JSON array of records")]
    Json(#[source] serde_json::Error),
    /// The JSON is not an array.
    #[error(
        "the top level is {found}; a 5e-database file must be a JSON array of records ([{{...}}, ...])"
    )]
    NotAnArray {
        /// What it is instead ("an object").
        found: &'static str,
    },
    /// The folder does not exist or is not a folder.
    #[error("{} is not a folder; expected the folder holding {MONSTERS_FILE} and {SPELLS_FILE} (5e-database's src/2014/en)", .path.display())]
    NotAFolder {
        /// The path given.
        path: PathBuf,
    },
    /// A file the folder must hold is missing.
    #[error("{} not found; a 5e-database folder must hold {expected}", .path.display())]
    MissingFile {
        /// Where it was looked for.
        path: PathBuf,
        /// The file name expected there.
        expected: &'static str,
    },
    /// A file could not be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file was read but is not a 5e-database file (the inner error says why).
    #[error("{}: {error}", .path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What was wrong with it ([`FiveEDatabaseError::Json`] or
        /// [`FiveEDatabaseError::NotAnArray`]).
        error: Box<FiveEDatabaseError>,
    },
}

/// Parses the text of a `5e-SRD-Monsters.json` file.
///
/// # Errors
///
/// When the text is not JSON, or its top level is not an array. A record that does not convert
/// is not an error: it is listed in [`LoadReport::failures`].
pub fn parse_monsters(json: &str) -> Result<LoadReport<Monster>, FiveEDatabaseError> {
    parse_records(json, monsters::monster)
}

/// Parses the text of a `5e-SRD-Spells.json` file.
///
/// # Errors
///
/// As [`parse_monsters`].
pub fn parse_spells(json: &str) -> Result<LoadReport<Spell>, FiveEDatabaseError> {
    parse_records(json, spells::spell)
}

/// How the spells of a `5e-SRD-Spells.json` file turn into effects (see
/// [`spell_effects`]): full, partial or narrative only, by name. Records that do not load are
/// left out (see [`parse_spells`]).
///
/// # Errors
///
/// As [`parse_monsters`].
pub fn spell_effects_report(json: &str) -> Result<SpellEffectsReport, FiveEDatabaseError> {
    let records = parse_records(json, |record| {
        let spell = spells::spell(record)?;
        Ok((spell.name, spell_effects(record, spell.level)))
    })?;
    let mut report = SpellEffectsReport::default();
    for (name, effects) in &records.loaded {
        report.add(name, effects);
    }
    Ok(report)
}

fn parse_records<T>(
    json: &str,
    convert: fn(&Value) -> fields::Res<T>,
) -> Result<LoadReport<T>, FiveEDatabaseError> {
    let value: Value = serde_json::from_str(json).map_err(FiveEDatabaseError::Json)?;
    let Value::Array(records) = value else {
        return Err(FiveEDatabaseError::NotAnArray {
            found: fields::kind_of(&value),
        });
    };
    let mut report = LoadReport::default();
    for (index, record) in records.iter().enumerate() {
        match convert(record) {
            Ok(item) => report.loaded.push(item),
            Err(error) => report.failures.push(RecordError {
                index,
                name: record
                    .get("name")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                message: error.to_string(),
            }),
        }
    }
    Ok(report)
}

/// What [`load_dir`] read from a 5e-database folder.
#[derive(Debug, Clone, PartialEq)]
pub struct FiveEDatabase {
    /// The folder.
    pub dir: PathBuf,
    /// The monsters of `5e-SRD-Monsters.json`.
    pub monsters: LoadReport<Monster>,
    /// The spells of `5e-SRD-Spells.json`.
    pub spells: LoadReport<Spell>,
    /// How those spells turned into effects: full, partial, narrative only.
    pub spell_effects: SpellEffectsReport,
}

impl FiveEDatabase {
    /// Whether every record of both files loaded.
    pub fn is_complete(&self) -> bool {
        self.monsters.is_complete() && self.spells.is_complete()
    }

    /// Every record that did not load, with the name of its file.
    pub fn failures(&self) -> impl Iterator<Item = (&'static str, &RecordError)> {
        let monsters = self.monsters.failures.iter().map(|f| (MONSTERS_FILE, f));
        let spells = self.spells.failures.iter().map(|f| (SPELLS_FILE, f));
        monsters.chain(spells)
    }

    /// An [`Srd`] whose monsters and spells are the ones loaded (replacing the bundled lists
    /// entirely, so a lookup never mixes the two sources), and whose conditions, weapons,
    /// armor, rules topics, magic items, classes, races and backgrounds are the bundled ones
    /// (5e-database's files for those are not read). Feature `bundled-srd`; without it, see
    /// [`FiveEDatabase::over`].
    #[cfg(feature = "bundled-srd")]
    pub fn into_srd(self) -> Srd {
        self.over(Srd::bundled().clone())
    }

    /// `base` with its monsters and spells replaced by the ones loaded (whole lists, so a
    /// lookup never mixes the two sources); its other records are kept.
    pub fn over(self, base: Srd) -> Srd {
        Srd {
            monsters: self.monsters.loaded,
            spells: self.spells.loaded,
            ..base
        }
    }
}

impl fmt::Display for FiveEDatabase {
    /// "334 monsters and 319 spells from DIR (2 records did not load)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} monsters and {} spells from {}",
            self.monsters.loaded.len(),
            self.spells.loaded.len(),
            self.dir.display()
        )?;
        match self.failures().count() {
            0 => Ok(()),
            1 => f.write_str(" (1 record did not load)"),
            n => write!(f, " ({n} records did not load)"),
        }
    }
}

/// Reads `5e-SRD-Monsters.json` and `5e-SRD-Spells.json` from a 5e-database folder (such as
/// 5e-database's `src/2014/en`).
///
/// # Errors
///
/// When the folder or a file is missing or unreadable, or a file is not a JSON array. Records
/// that do not convert are reported in the result instead.
pub fn load_dir(dir: &Path) -> Result<FiveEDatabase, FiveEDatabaseError> {
    if !dir.is_dir() {
        return Err(FiveEDatabaseError::NotAFolder {
            path: dir.to_owned(),
        });
    }
    let monsters = load_file(dir, MONSTERS_FILE, parse_monsters)?;
    let (spells, spell_effects) = load_file(dir, SPELLS_FILE, |text| {
        Ok((parse_spells(text)?, spell_effects_report(text)?))
    })?;
    Ok(FiveEDatabase {
        dir: dir.to_owned(),
        monsters,
        spells,
        spell_effects,
    })
}

/// The largest 5e-database file read, in bytes (64 MiB): the biggest real one (the monsters)
/// is a few megabytes, and a file past this is refused unread rather than filling memory.
pub const FIVE_E_DATABASE_FILE_MAX_BYTES: usize = 64 << 20;

fn load_file<T>(
    dir: &Path,
    name: &'static str,
    parse: impl Fn(&str) -> Result<T, FiveEDatabaseError>,
) -> Result<T, FiveEDatabaseError> {
    let path = dir.join(name);
    let text = crate::files::read_text_limited(&path, FIVE_E_DATABASE_FILE_MAX_BYTES).map_err(
        |source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                FiveEDatabaseError::MissingFile {
                    path: path.clone(),
                    expected: name,
                }
            } else {
                FiveEDatabaseError::Read {
                    path: path.clone(),
                    source,
                }
            }
        },
    )?;
    parse(&text).map_err(|error| FiveEDatabaseError::InFile {
        path,
        error: Box::new(error),
    })
}
