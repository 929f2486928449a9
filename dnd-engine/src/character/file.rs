//! The character file: what a player writes by hand to make a character, read into the
//! builder with every problem named by its field path; and the full sheet, written and read
//! back unchanged.
//!
//! A hand-written file holds the choices ([`CharacterChoices`]): `name`, `race` (or
//! subrace), `class`, `level` (1 to 5, default 1), `subclass` (from the class's level for
//! it), `background` (`"Acolyte"`, or `{"name": ..., "skills": [two skills]}` for a custom
//! one), `scores` (a `method` of `standard_array`, `point_buy` or `rolled` with the six
//! `scores` before racial increases, and for `rolled` the six `rolled` totals),
//! `ability_choices` (a half-elf's two abilities), `skills` (from the class's list),
//! `features` (a class feature's choice by its slug: a fighting style, Expertise),
//! `race_traits` (a racial trait's choice by its slug: a high elf's cantrip, a dwarf's tool),
//! `equipment` (`{"kit": [{"option": n, "picks": [...]}, ...]}` for each of the class's then
//! the background's equipment choices, or `{"gold": amount rolled}`), `cantrips`, `spells`
//! and a wizard's `spellbook` (spells written in its book besides those prepared). Skills and abilities are written in lower case (`sleight_of_hand`, `wisdom`).
//!
//! ```
//! use dnd_engine::character::read_character_file;
//! use dnd_engine::srd::Srd;
//!
//! let text = r#"{
//!   "name": "Brother Tomas Ironhand",
//!   "race": "Hill Dwarf",
//!   "class": "Cleric",
//!   "subclass": "Life",
//!   "background": "Acolyte",
//!   "scores": {"method": "point_buy",
//!              "scores": {"str": 14, "dex": 10, "con": 14, "int": 8, "wis": 15, "cha": 10}},
//!   "skills": ["medicine", "history"],
//!   "race_traits": {"tool-proficiency": ["Mason's Tools"]},
//!   "equipment": {"kit": [{"option": 1}, {"option": 1}, {"option": 1}, {"option": 1},
//!                         {"option": 1, "picks": ["Amulet"]},
//!                         {"option": 1, "picks": ["Reliquary"]}, {"option": 2}]},
//!   "cantrips": ["Sacred Flame", "Guidance", "Spare the Dying"],
//!   "spells": ["Healing Word", "Shield of Faith", "Guiding Bolt"]
//! }"#;
//! let tomas = read_character_file(text, Srd::bundled()).unwrap();
//! assert_eq!(tomas.id, "brother");
//! assert_eq!(tomas.hp.max, 12, "8 for the d8, Con 16's +3, Dwarven Toughness's 1");
//! ```
//!
//! A file that holds a whole sheet (it has `abilities` rather than `scores`, as
//! [`write_sheet`] writes it) is read as it is.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::abilities::ScoreMethod;
use super::build_error::{BuildError, BuildErrors};
use super::builder::{BackgroundChoice, CharacterChoices, StartingKit};
use crate::rules::{Ability, Skill};
use crate::srd::Srd;
use crate::state::Character;

/// The fields of a hand-written file, and whether each must be there.
const FIELDS: &[(&str, bool)] = &[
    ("name", true),
    ("id", false),
    ("race", true),
    ("class", true),
    ("level", false),
    ("subclass", false),
    ("background", false),
    ("scores", true),
    ("ability_choices", false),
    ("skills", false),
    ("features", false),
    ("race_traits", false),
    ("equipment", false),
    ("cantrips", false),
    ("spells", false),
    ("spellbook", false),
];

/// One problem with a character file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    /// A field is missing, unknown or of the wrong shape.
    #[error("{field}: {message}")]
    Shape {
        /// The field path ("scores", "equipment.kit").
        field: String,
        /// What is wrong and what is expected.
        message: String,
    },
    /// The choices break a rule.
    #[error("{0}")]
    Rule(BuildError),
}

impl FileProblem {
    /// The field path the problem is at.
    pub fn field(&self) -> &str {
        match self {
            FileProblem::Shape { field, .. } => field,
            FileProblem::Rule(e) => &e.field,
        }
    }
}

/// Why a character file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CharacterFileError {
    /// The text is not JSON (serde's message gives the line and column).
    #[error("the character file is not JSON: {0}")]
    NotJson(serde_json::Error),
    /// The file was read but its fields or choices have problems: every one is listed.
    #[error("the character file has {} problem(s):{}", .0.len(), .0.iter().map(|p| format!("\n- {p}")).collect::<String>())]
    Problems(Vec<FileProblem>),
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

impl CharacterFileError {
    /// The problems, if the file was JSON.
    pub fn problems(&self) -> &[FileProblem] {
        match self {
            CharacterFileError::Problems(p) => p,
            _ => &[],
        }
    }
}

/// Decodes one field as `T`, or says what shape it needs.
fn field<T: DeserializeOwned>(
    object: &Map<String, Value>,
    key: &str,
    expected: &str,
    problems: &mut Vec<FileProblem>,
) {
    if let Some(value) = object.get(key)
        && let Err(e) = serde_json::from_value::<T>(value.clone())
    {
        problems.push(FileProblem::Shape {
            field: key.to_owned(),
            message: format!("{e}; expected {expected}"),
        });
    }
}

/// Reads a character file: a hand-written one is built by the rules (every problem with its
/// field path), a full sheet is read as it is.
pub fn read_character_file(text: &str, srd: &Srd) -> Result<Character, CharacterFileError> {
    let value: Value = serde_json::from_str(text).map_err(CharacterFileError::NotJson)?;
    let Value::Object(object) = value else {
        return Err(CharacterFileError::Problems(vec![FileProblem::Shape {
            field: String::new(),
            message: "a character file is a JSON object".into(),
        }]));
    };
    if object.contains_key("abilities") && !object.contains_key("scores") {
        return read_sheet(object);
    }
    let choices = read_choices(object)?;
    choices.build(srd).map_err(|BuildErrors(errors)| {
        CharacterFileError::Problems(errors.into_iter().map(FileProblem::Rule).collect())
    })
}

/// Decodes the choices of a hand-written file, naming every missing, unknown or misshapen
/// field.
pub fn read_choices(object: Map<String, Value>) -> Result<CharacterChoices, CharacterFileError> {
    let mut problems = Vec::new();
    for key in object.keys() {
        if !FIELDS.iter().any(|(k, _)| k == key) {
            let known: Vec<_> = FIELDS.iter().map(|(k, _)| *k).collect();
            problems.push(FileProblem::Shape {
                field: key.clone(),
                message: format!("unknown field; the fields are: {}", known.join(", ")),
            });
        }
    }
    for (key, required) in FIELDS {
        if *required && !object.contains_key(*key) {
            problems.push(FileProblem::Shape {
                field: (*key).to_owned(),
                message: "missing".into(),
            });
        }
    }
    let p = &mut problems;
    field::<String>(&object, "name", "a string", p);
    field::<String>(&object, "id", "a string", p);
    field::<String>(&object, "race", "a race's name", p);
    field::<String>(&object, "class", "a class's name", p);
    field::<u8>(&object, "level", "a level from 1 to 5", p);
    field::<String>(&object, "subclass", "a subclass's name", p);
    field::<BackgroundChoice>(
        &object,
        "background",
        "\"Acolyte\" or {\"name\": ..., \"skills\": [two skills]}",
        p,
    );
    field::<ScoreMethod>(
        &object,
        "scores",
        "{\"method\": \"standard_array\" | \"point_buy\" | \"rolled\", \"scores\": {\"str\": .., \"dex\": .., \"con\": .., \"int\": .., \"wis\": .., \"cha\": ..}}",
        p,
    );
    field::<Vec<Ability>>(
        &object,
        "ability_choices",
        "a list of abilities (\"wisdom\")",
        p,
    );
    field::<Vec<Skill>>(
        &object,
        "skills",
        "a list of skills (\"sleight_of_hand\")",
        p,
    );
    field::<std::collections::BTreeMap<String, Vec<String>>>(
        &object,
        "features",
        "an object of feature slug to a list of picks",
        p,
    );
    field::<std::collections::BTreeMap<String, Vec<String>>>(
        &object,
        "race_traits",
        "an object of trait slug to a list of picks",
        p,
    );
    field::<StartingKit>(
        &object,
        "equipment",
        "{\"kit\": [{\"option\": 1, \"picks\": [...]}]} or {\"gold\": amount}",
        p,
    );
    field::<Vec<String>>(&object, "cantrips", "a list of spell names", p);
    field::<Vec<String>>(&object, "spells", "a list of spell names", p);
    field::<Vec<String>>(&object, "spellbook", "a list of spell names", p);
    if !problems.is_empty() {
        return Err(CharacterFileError::Problems(problems));
    }
    serde_json::from_value(Value::Object(object)).map_err(|e| {
        CharacterFileError::Problems(vec![FileProblem::Shape {
            field: String::new(),
            message: e.to_string(),
        }])
    })
}

/// Reads a full sheet; a sheet saved outside an adventure may leave `location` out.
fn read_sheet(mut object: Map<String, Value>) -> Result<Character, CharacterFileError> {
    object
        .entry("location")
        .or_insert_with(|| Value::String(String::new()));
    serde_json::from_value(Value::Object(object)).map_err(|e| {
        CharacterFileError::Problems(vec![FileProblem::Shape {
            field: String::new(),
            message: format!("{e} (a full character sheet)"),
        }])
    })
}

/// The full sheet as pretty JSON, which [`read_character_file`] reads back to the same
/// [`Character`].
pub fn write_sheet(character: &Character) -> String {
    serde_json::to_string_pretty(character).unwrap_or_default() + "\n"
}

/// Reads a character file from disk (at most 1 MiB).
pub fn load_character_file(
    path: impl AsRef<std::path::Path>,
    srd: &Srd,
) -> Result<Character, CharacterFileError> {
    let path = path.as_ref();
    let io = |source| CharacterFileError::Io {
        path: path.display().to_string(),
        source,
    };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > 1 << 20 {
        return Err(io(std::io::Error::other("larger than 1 MiB")));
    }
    let text = std::fs::read_to_string(path).map_err(io)?;
    read_character_file(&text, srd)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = include_str!("../../../examples/characters/dwarf_cleric.json");

    #[test]
    fn the_sample_dwarf_cleric_builds() {
        let tomas = read_character_file(SAMPLE, Srd::bundled()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tomas.race, "hill dwarf");
        assert_eq!(tomas.abilities.constitution, 16);
        assert_eq!(tomas.abilities.wisdom, 16);
        assert_eq!(tomas.hp.max, 8 + 3 + 1, "d8 + Con +3 + Dwarven Toughness");
        assert_eq!(
            tomas.armor_class, 16,
            "scale mail (Dex +0 of max 2), shield"
        );
        assert_eq!(
            tomas.spells.len(),
            3 + 2 + 3,
            "cantrips, Life domain, prepared"
        );
        assert_eq!(tomas.spell_slots.max[0], 2);
    }

    #[test]
    fn a_saved_sheet_loads_back_the_same() {
        let tomas = read_character_file(SAMPLE, Srd::bundled()).unwrap();
        let saved = write_sheet(&tomas);
        let loaded = read_character_file(&saved, Srd::bundled()).unwrap();
        assert_eq!(loaded, tomas);
    }

    #[test]
    fn every_problem_is_named_by_its_field() {
        let text = r#"{"name": "X", "race": "Elf", "clas": "Wizard",
            "level": "one", "scores": {"method": "point_buy"}, "skills": ["swimming"]}"#;
        let error = read_character_file(text, Srd::bundled()).unwrap_err();
        let fields: Vec<_> = error.problems().iter().map(FileProblem::field).collect();
        assert_eq!(
            fields,
            ["clas", "class", "level", "scores", "skills"],
            "{error}"
        );
        // With a good shape, the rules' problems come back with their paths.
        let text = r#"{"name": "X", "race": "Elf", "class": "Wizard",
            "scores": {"method": "standard_array",
                       "scores": {"str": 15, "dex": 15, "con": 13, "int": 12, "wis": 10, "cha": 8}},
            "skills": ["arcana", "athletics"]}"#;
        let error = read_character_file(text, Srd::bundled()).unwrap_err();
        let fields: Vec<_> = error.problems().iter().map(FileProblem::field).collect();
        for wanted in ["scores.scores", "skills[1]", "equipment.kit", "cantrips"] {
            assert!(fields.contains(&wanted), "{wanted} in {error}");
        }
    }
}
