//! The adventure format's JSON Schema (`dnd-engine/adventure.schema.json`): generated from the
//! types, checked in, and never stale; the built-in adventure validates against it; its
//! `$schema` pointer leads an editor to it.
//!
//! The check is a small validator of the part of JSON Schema (draft 7) that schemars writes:
//! `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`,
//! `oneOf`/`anyOf`/`allOf`, `$ref` into `definitions`, `minimum`/`maximum`. The `jsonschema`
//! crate would do more, but brings an HTTP client and a regex engine to the build for a schema
//! that uses none of what they are for.

use std::path::PathBuf;

use dnd_engine::adventure::{Adventure, SCHEMA_FILE, json_schema};
use serde_json::{Value, json};

const REGENERATE: &str =
    "UPDATE_ADVENTURE_SCHEMA=1 cargo test -p dnd-engine --test adventure_schema";

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SCHEMA_FILE)
}

fn generated() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).expect("a schema is JSON");
    text.push('\n');
    text
}

#[test]
fn the_checked_in_schema_is_the_generated_one() {
    let now = generated();
    if std::env::var_os("UPDATE_ADVENTURE_SCHEMA").is_some() {
        std::fs::write(schema_path(), &now).expect("write the schema");
    }
    let checked_in = std::fs::read_to_string(schema_path()).unwrap_or_default();
    assert!(
        checked_in == now,
        "{} is stale (the adventure types changed); regenerate it with:\n    {REGENERATE}\nand read the diff",
        schema_path().display()
    );
}

/// Every way `instance` breaks `schema` (at `path`), in the subset the module names.
fn violations(schema: &Value, root: &Value, instance: &Value, path: &str, out: &mut Vec<String>) {
    let Some(schema) = schema.as_object() else {
        return; // `true`: anything goes
    };
    if let Some(Value::String(reference)) = schema.get("$ref") {
        let name = reference.trim_start_matches("#/definitions/");
        let target = &root["definitions"][name];
        assert!(!target.is_null(), "dangling $ref {reference}");
        violations(target, root, instance, path, out);
    }
    if let Some(kind) = schema.get("type") {
        let kinds: Vec<&str> = match kind {
            Value::String(k) => vec![k.as_str()],
            Value::Array(ks) => ks.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let fits = |k: &str| match k {
            "object" => instance.is_object(),
            "array" => instance.is_array(),
            "string" => instance.is_string(),
            "boolean" => instance.is_boolean(),
            "null" => instance.is_null(),
            "integer" => instance.is_i64() || instance.is_u64(),
            "number" => instance.is_number(),
            _ => true,
        };
        if !kinds.iter().any(|k| fits(k)) {
            out.push(format!("{path}: expected {kinds:?}, found {instance}"));
            return;
        }
    }
    if let Some(Value::Array(options)) = schema.get("enum")
        && !options.contains(instance)
    {
        out.push(format!("{path}: {instance} is not one of {options:?}"));
    }
    if let Some(constant) = schema.get("const")
        && constant != instance
    {
        out.push(format!("{path}: {instance} is not {constant}"));
    }
    if let (Some(min), Some(n)) = (
        schema.get("minimum").and_then(Value::as_f64),
        instance.as_f64(),
    ) && n < min
    {
        out.push(format!("{path}: {n} is below {min}"));
    }
    if let (Some(max), Some(n)) = (
        schema.get("maximum").and_then(Value::as_f64),
        instance.as_f64(),
    ) && n > max
    {
        out.push(format!("{path}: {n} is above {max}"));
    }
    let passes = |s: &Value| {
        let mut found = Vec::new();
        violations(s, root, instance, path, &mut found);
        found.is_empty()
    };
    if let Some(Value::Array(all)) = schema.get("allOf") {
        for s in all {
            violations(s, root, instance, path, out);
        }
    }
    if let Some(Value::Array(any)) = schema.get("anyOf")
        && !any.iter().any(passes)
    {
        out.push(format!("{path}: matches none of anyOf"));
    }
    if let Some(Value::Array(one)) = schema.get("oneOf") {
        let matching = one.iter().filter(|s| passes(s)).count();
        if matching != 1 {
            out.push(format!(
                "{path}: matches {matching} of oneOf, not exactly one"
            ));
        }
    }
    if let Value::Object(fields) = instance {
        let properties = schema.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !fields.contains_key(name) {
                    out.push(format!("{path}: missing required {name}"));
                }
            }
        }
        for (name, value) in fields {
            let at = format!("{path}.{name}");
            match properties.and_then(|p| p.get(name)) {
                Some(s) => violations(s, root, value, &at, out),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => out.push(format!("{at}: not allowed")),
                    Some(s @ Value::Object(_)) => violations(s, root, value, &at, out),
                    _ => {}
                },
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (instance, schema.get("items")) {
        for (i, value) in items.iter().enumerate() {
            violations(item, root, value, &format!("{path}[{i}]"), out);
        }
    }
}

fn check(instance: &Value) -> Vec<String> {
    let schema = json_schema();
    let mut out = Vec::new();
    violations(&schema, &schema, instance, "$", &mut out);
    out
}

fn glacier() -> Value {
    serde_json::from_str(Adventure::built_in_json()).expect("the glacier is JSON")
}

#[test]
fn the_glacier_validates_against_the_schema() {
    assert_eq!(check(&glacier()), Vec::<String>::new());
}

#[test]
fn every_built_in_adventure_validates_against_the_schema() {
    // The Hollow's party is given as builder choices, the schema's other form of a character.
    for name in Adventure::BUILT_IN {
        let text = Adventure::built_in_json_named(name).expect("built in");
        let value: Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(check(&value), Vec::<String>::new(), "{name}");
    }
    let mut hollow: Value =
        serde_json::from_str(Adventure::built_in_json_named("wendle-hollow").unwrap()).unwrap();
    hollow["characters"][0]["build"]["level"] = json!("two");
    assert!(!check(&hollow).is_empty(), "a level is a number");
}

#[test]
fn the_schema_refuses_what_the_loader_refuses() {
    let mut missing_to = glacier();
    missing_to["rooms"][0]["exits"][0]
        .as_object_mut()
        .unwrap()
        .remove("to");
    let found = check(&missing_to);
    assert!(
        found.iter().any(|v| v.contains("missing required to")),
        "{found:?}"
    );

    let mut bad_effect = glacier();
    bad_effect["puzzles"][0]["on_success"] = json!([{"set_flagg": {"flag": "x", "value": 1}}]);
    assert!(!check(&bad_effect).is_empty());

    let mut bad_light = glacier();
    bad_light["rooms"][0]["light"] = json!("gloomy");
    assert!(!check(&bad_light).is_empty());

    let mut typo = glacier();
    typo["rooms"][0]["exitz"] = json!([]);
    let found = check(&typo);
    assert!(
        found.iter().any(|v| v.contains("exitz: not allowed")),
        "{found:?}"
    );

    let mut no_answers = glacier();
    no_answers["puzzles"][0]
        .as_object_mut()
        .unwrap()
        .remove("answers");
    assert!(!check(&no_answers).is_empty());
}

#[test]
fn the_glacier_points_an_editor_at_the_schema() {
    let pointer = glacier()["$schema"].as_str().unwrap_or_default().to_owned();
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src/adventure")
        .join(&pointer);
    assert_eq!(
        std::fs::canonicalize(&file).ok(),
        std::fs::canonicalize(schema_path()).ok(),
        "{pointer}"
    );
    // The loader ignores it.
    let adventure = Adventure::built_in();
    assert_eq!(adventure.schema.as_deref(), Some(pointer.as_str()));
    assert!(!adventure.rooms.is_empty());
}
