//! The adventure format as a JSON Schema, generated from the types ([`json_schema`]) and
//! checked in at `dnd-engine/adventure.schema.json` ([`SCHEMA_FILE`]) so an editor gives an
//! author completion and validation: an adventure file points at it with `"$schema"`.
//!
//! The schema is derived (schemars) from the same types the loader reads, so a field added to
//! a room, an exit or an effect appears in it; the test `adventure_schema` fails when the
//! checked-in file is stale and says how to regenerate it. Two parts are written by hand here,
//! each looser than the loader, which still checks them field by field with paths:
//!
//! - an item stack (`name`, `quantity`, `note`, `magic`): its `magic` is the effects engine's
//!   data, dozens of effect kinds documented in `effects`; the schema says it is an object;
//! - a pregenerated character: the state's own sheet, forty fields most of which the engine
//!   fills (conditions, timers, slots spent); the schema lists the fields an author must write
//!   and lets the others through. A character given as the builder's choices (`{"build":
//!   ...}`) is derived from [`crate::character::CharacterChoices`].
//!
//! Draft 7 is used because editors (VS Code's JSON service, JetBrains) support it fully.

use std::borrow::Cow;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::Adventure;
use crate::rules::DamageDice;
use crate::state::ItemStack;

/// The schema's file, relative to the `dnd-engine` crate's root.
pub const SCHEMA_FILE: &str = "adventure.schema.json";

/// The JSON Schema of an adventure file, as checked in at [`SCHEMA_FILE`].
pub fn json_schema() -> serde_json::Value {
    let schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<Adventure>();
    schema.to_value()
}

impl JsonSchema for ItemStack {
    fn schema_name() -> Cow<'static, str> {
        "ItemStack".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A stack of one item: loot, or in a pack.",
            "type": "object",
            "required": ["name", "quantity"],
            "properties": {
                "name": {"type": "string", "description": "The item's name (\"Potion of Healing\"); SRD magic items are known by name."},
                "quantity": {"type": "integer", "minimum": 1},
                "note": {"type": "string", "description": "A short note the party reads (\"heals 2d4+2\")."},
                "magic": {"type": "object", "description": "What using or carrying it does, as effects data: kind, use, carried, consumed, per_day (see the format's documentation)."},
                "effect": {"type": "object", "description": "The older form of a weapon coating: {\"coat_weapon\": {\"extra\": {\"dice\": \"1d4\", \"type\": \"fire\"}}}."}
            },
            "additionalProperties": false
        })
    }
}

impl JsonSchema for DamageDice {
    fn schema_name() -> Cow<'static, str> {
        "DamageDice".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let kind = generator.subschema_for::<crate::rules::DamageType>();
        json_schema!({
            "description": "Damage dice and their type: {\"dice\": \"2d6+3\", \"type\": \"cold\"}.",
            "type": "object",
            "required": ["dice", "type"],
            "properties": {
                "dice": {"type": "string", "pattern": "^\\s*\\d*[dD]\\d+\\s*([+-]\\s*\\d+)?\\s*$"},
                "type": kind
            },
            "additionalProperties": false
        })
    }
}

/// A pregenerated character, for [`Adventure::characters`]: a sheet with the fields an author
/// must write, or the player's choices the builder makes into one.
pub(super) fn characters(generator: &mut SchemaGenerator) -> Schema {
    let item = generator.subschema_for::<ItemStack>();
    let choices = generator.subschema_for::<crate::character::CharacterChoices>();
    json_schema!({
        "description": "Pregenerated characters: each a sheet as the state stores it, without `location` (see the built-in file for complete sheets), or {\"build\": choices}, the player's choices the character builder makes into a sheet by the rules.",
        "type": "array",
        "items": {"anyOf": [
        {
            "type": "object",
            "required": ["build"],
            "properties": {"build": choices},
            "additionalProperties": false
        },
        {
            "type": "object",
            "required": ["id", "name", "class", "level", "race", "abilities", "hp", "armor_class", "speed", "hit_dice"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "class": {"type": "string", "description": "An SRD class, lower case (\"fighter\")."},
                "level": {"type": "integer", "minimum": 1, "maximum": 20},
                "race": {"type": "string"},
                "abilities": {
                    "type": "object",
                    "required": ["str", "dex", "con", "int", "wis", "cha"],
                    "properties": {
                        "str": {"type": "integer"}, "dex": {"type": "integer"}, "con": {"type": "integer"},
                        "int": {"type": "integer"}, "wis": {"type": "integer"}, "cha": {"type": "integer"}
                    }
                },
                "skills": {"type": "object", "additionalProperties": {"enum": ["proficient", "expertise"]}},
                "save_proficiencies": {"type": "array", "items": {"type": "string"}},
                "hp": {"type": "object", "required": ["current", "max"]},
                "armor_class": {"type": "integer"},
                "speed": {"type": "integer"},
                "hit_dice": {"type": "object", "required": ["sides", "total"]},
                "attacks": {"type": "array", "items": {"type": "object", "required": ["name", "ability", "damage"]}},
                "spells": {"type": "array", "items": {"type": "string"}},
                "inventory": {"type": "array", "items": item},
                "gold": {"type": "integer", "minimum": 0}
            }
        }
        ]}
    })
}
