//! From JSON text to an [`Adventure`], collecting every problem of shape (a missing field, a
//! wrong type, an unknown skill) instead of stopping at the first.
//!
//! The text is parsed into a [`Value`] first (syntax errors, with line and column, end it
//! there); then each room, exit, feature, monster, NPC and character is decoded on its own, so
//! one broken exit does not hide a broken character three hundred lines below.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Adventure, AdventureMilestone, AdventureNpc, MonsterSpawn, Problem, Room};
use crate::character::CharacterChoices;
use crate::rules::Skill;
use crate::srd::Srd;
use crate::state::{Area, Character, Exit, Feature, ItemStack};

const TOP_FIELDS: &[&str] = &[
    "title",
    "summary",
    "start",
    "rooms",
    "npcs",
    "flags",
    "characters",
    "levelling",
    "milestones",
    "endings",
    "puzzles",
    "$schema",
];
const ROOM_FIELDS: &[&str] = &[
    "id",
    "title",
    "short_description",
    "description",
    "exits",
    "features",
    "light",
    "loot",
    "monsters",
    "areas",
];

/// Decodes what can be decoded. `None` when the text is not a JSON object at all; otherwise
/// the adventure (without the parts that failed) and the ids of every room in the file, broken
/// or not, so that exits into a broken room are not reported a second time.
pub(super) fn decode(
    text: &str,
    srd: &Srd,
    problems: &mut Vec<Problem>,
) -> Option<(Adventure, Vec<String>)> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            problems.push(Problem::new("", format!("invalid JSON: {e}")));
            return None;
        }
    };
    let Value::Object(mut top) = value else {
        problems.push(Problem::new(
            "",
            format!(
                "the file holds {}; an adventure is a JSON object with title, start and rooms",
                kind(&value)
            ),
        ));
        return None;
    };
    unknown_fields(&top, TOP_FIELDS, "an adventure", "", problems);
    let raw_room_ids = match top.get("rooms") {
        Some(Value::Array(rooms)) => rooms
            .iter()
            .filter_map(|r| r.get("id").and_then(Value::as_str).map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let title = required::<String>(&mut top, "title", "", problems).unwrap_or_default();
    let summary = optional::<String>(&mut top, "summary", "", problems).unwrap_or_default();
    // A missing start is reported by validation, with the rooms to choose from.
    let start = optional::<String>(&mut top, "start", "", problems).unwrap_or_default();
    let rooms = list(&mut top, "rooms", "", "id", true, problems, decode_room);
    let npcs = list(
        &mut top,
        "npcs",
        "",
        "id",
        false,
        problems,
        element::<AdventureNpc>,
    );
    let flags = optional(&mut top, "flags", "", problems).unwrap_or_default();
    let characters = list(
        &mut top,
        "characters",
        "",
        "id",
        false,
        problems,
        |v, path, p| character(v, srd, path, p),
    );
    let levelling = optional(&mut top, "levelling", "", problems).unwrap_or_default();
    let milestones = list(
        &mut top,
        "milestones",
        "",
        "id",
        false,
        problems,
        element::<AdventureMilestone>,
    );
    let endings = list(
        &mut top,
        "endings",
        "",
        "id",
        false,
        problems,
        element::<crate::state::Ending>,
    );
    let puzzles = list(
        &mut top,
        "puzzles",
        "",
        "id",
        false,
        problems,
        element::<crate::state::Puzzle>,
    );
    let schema = optional::<String>(&mut top, "$schema", "", problems);
    let adventure = Adventure {
        title,
        summary,
        start,
        rooms,
        npcs,
        flags,
        characters,
        levelling,
        milestones,
        endings,
        puzzles,
        schema,
    };
    Some((adventure, raw_room_ids))
}

fn decode_room(value: Value, path: &str, problems: &mut Vec<Problem>) -> Option<Room> {
    let Value::Object(mut room) = value else {
        problems.push(Problem::new(
            path,
            format!("a room is an object, not {}", kind(&value)),
        ));
        return None;
    };
    unknown_fields(&room, ROOM_FIELDS, "a room", path, problems);
    let id = required::<String>(&mut room, "id", path, problems);
    let title = required::<String>(&mut room, "title", path, problems);
    let short_description = required::<String>(&mut room, "short_description", path, problems);
    let description = required::<String>(&mut room, "description", path, problems);
    let exits = list(
        &mut room,
        "exits",
        path,
        "direction",
        false,
        problems,
        element::<Exit>,
    );
    let features = list(
        &mut room,
        "features",
        path,
        "id",
        false,
        problems,
        element::<Feature>,
    );
    let loot = list(
        &mut room,
        "loot",
        path,
        "name",
        false,
        problems,
        element::<ItemStack>,
    );
    let monsters = list(
        &mut room,
        "monsters",
        path,
        "id",
        false,
        problems,
        element::<MonsterSpawn>,
    );
    let areas = list(
        &mut room,
        "areas",
        path,
        "id",
        false,
        problems,
        element::<Area>,
    );
    // "bright", "dim" or "dark"; anything else is named with the path.
    let light = optional(&mut room, "light", path, problems).unwrap_or_default();
    Some(Room {
        id: id?,
        title: title?,
        short_description: short_description?,
        description: description?,
        exits,
        features,
        loot,
        monsters,
        areas,
        light,
    })
}

/// A pregenerated character: a sheet, or the player's choices (`{"build": {...}}`) made into
/// one by the character builder. On a sheet, skills that do not exist are reported one by one
/// (and dropped, so the rest of the sheet is still checked), and a missing `location` is
/// allowed.
fn character(
    value: Value,
    srd: &Srd,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Option<Character> {
    let Value::Object(mut sheet) = value else {
        problems.push(Problem::new(
            path,
            format!("a character is an object, not {}", kind(&value)),
        ));
        return None;
    };
    if let Some(choices) = sheet.remove(BUILD) {
        unknown_fields(&sheet, &[BUILD], "a built character", path, problems);
        return built(choices, srd, &join(path, BUILD), problems);
    }
    if let Some(Value::Object(skills)) = sheet.get_mut("skills") {
        skills.retain(|name, _| {
            let known = serde_json::from_value::<Skill>(Value::String(name.clone())).is_ok();
            if !known {
                problems.push(Problem::new(
                    format!("{path}.skills.{name}"),
                    unknown_skill_message(name),
                ));
            }
            known
        });
    }
    sheet
        .entry("location")
        .or_insert_with(|| Value::String(String::new()));
    element(Value::Object(sheet), path, problems)
}

/// The key of a pregenerated character given as the builder's choices.
const BUILD: &str = "build";

/// A character made by the builder from its choices; each problem the builder finds is
/// reported at its field under `path` (`characters[0].build.skills[2]`).
fn built(choices: Value, srd: &Srd, path: &str, problems: &mut Vec<Problem>) -> Option<Character> {
    let choices: CharacterChoices = element(choices, path, problems)?;
    match choices.build(srd) {
        Ok(character) => Some(character),
        Err(errors) => {
            for e in errors.0 {
                let field = if e.field.is_empty() {
                    path.to_owned()
                } else {
                    join(path, &e.field)
                };
                problems.push(Problem::new(field, e.problem.to_string()));
            }
            None
        }
    }
}

fn unknown_skill_message(name: &str) -> String {
    let key = |skill: Skill| {
        serde_json::to_value(skill)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    let mut message = format!("unknown skill {name:?}");
    if let Some(skill) = Skill::parse(name) {
        message.push_str(&format!("; did you mean {}?", key(skill)));
    }
    let all: Vec<String> = Skill::ALL.into_iter().map(key).collect();
    message.push_str(&format!("; the skills are: {}", all.join(", ")));
    message
}

/// For [`Adventure`]'s `Deserialize`: characters whose `location` may be left out.
pub(super) fn pregenerated_characters<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<Character>, D::Error> {
    let values = Vec::<Value>::deserialize(deserializer)?;
    values
        .into_iter()
        .map(|value| {
            let value = match value {
                Value::Object(mut sheet) if sheet.contains_key(BUILD) => {
                    let choices = sheet.remove(BUILD).unwrap_or_default();
                    let choices: CharacterChoices =
                        serde_json::from_value(choices).map_err(serde::de::Error::custom)?;
                    return build_bundled(choices);
                }
                Value::Object(mut sheet) => {
                    sheet
                        .entry("location")
                        .or_insert_with(|| Value::String(String::new()));
                    Value::Object(sheet)
                }
                other => other,
            };
            serde_json::from_value(value).map_err(serde::de::Error::custom)
        })
        .collect()
}

fn element<T: DeserializeOwned>(
    value: Value,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    serde_json::from_value(value)
        .map_err(|e| problems.push(Problem::new(path, e.to_string())))
        .ok()
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

fn required<T: DeserializeOwned>(
    object: &mut Map<String, Value>,
    key: &str,
    parent: &str,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    let path = join(parent, key);
    match object.remove(key) {
        Some(value) => element(value, &path, problems),
        None => {
            problems.push(Problem::new(path, format!("missing field `{key}`")));
            None
        }
    }
}

fn optional<T: DeserializeOwned>(
    object: &mut Map<String, Value>,
    key: &str,
    parent: &str,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    let value = object.remove(key)?;
    element(value, &join(parent, key), problems)
}

/// Decodes each element of a list on its own; an element is named in paths by its `label`
/// field (an id, a direction) when it has one, else by its position.
fn list<T>(
    object: &mut Map<String, Value>,
    key: &str,
    parent: &str,
    label: &str,
    required: bool,
    problems: &mut Vec<Problem>,
    decode: impl Fn(Value, &str, &mut Vec<Problem>) -> Option<T>,
) -> Vec<T> {
    let path = join(parent, key);
    match object.remove(key) {
        None if required => {
            problems.push(Problem::new(path, format!("missing field `{key}`")));
            Vec::new()
        }
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let name = item
                    .get(label)
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map_or_else(|| i.to_string(), str::to_owned);
                decode(item, &format!("{path}[{name}]"), problems)
            })
            .collect(),
        Some(other) => {
            problems.push(Problem::new(
                path,
                format!("expected a list, found {}", kind(&other)),
            ));
            Vec::new()
        }
    }
}

fn unknown_fields(
    object: &Map<String, Value>,
    known: &[&str],
    what: &str,
    path: &str,
    problems: &mut Vec<Problem>,
) {
    for key in object.keys().filter(|k| !known.contains(&k.as_str())) {
        problems.push(Problem::new(
            join(path, key),
            format!(
                "unknown field `{key}`; the fields of {what} are: {}",
                known.join(", ")
            ),
        ));
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A pregenerated character built from its choices on the bundled SRD: serde's `Deserialize`
/// has no SRD to take, so a game on another one loads its adventure with
/// `Adventure::from_json_on`, which builds on that SRD.
#[cfg(feature = "bundled-srd")]
fn build_bundled<E: serde::de::Error>(choices: CharacterChoices) -> Result<Character, E> {
    choices.build(Srd::bundled()).map_err(E::custom)
}

/// Without the bundled SRD, serde cannot build a character from choices: it says where to go.
#[cfg(not(feature = "bundled-srd"))]
fn build_bundled<E: serde::de::Error>(_: CharacterChoices) -> Result<Character, E> {
    Err(E::custom(
        "a character given as builder choices needs an SRD: load the adventure with Adventure::from_json_on (this build has no bundled SRD)",
    ))
}
