//! Each tool's schema yields example arguments (every optional field null, then every one set)
//! that parse into the tool's argument type, and the type refuses what the schema forbids.

use serde_json::{Value, json};

use super::Table;
use crate::tools::{ToolResult, schema, tool_specs};

/// A word from the shared lists the schemas leave as plain strings (`tools::schema`), for the
/// field of that name; `None` for any other field.
fn shared_word(field: &str) -> Option<&'static str> {
    match field {
        "skill" => Some("stealth"),
        "ability" | "plus_two" | "plus_one" => Some("dexterity"),
        "condition" => Some("prone"),
        "damage_type" => Some("fire"),
        _ => None,
    }
}

/// A value that `schema` (a strict tool schema) accepts: every property present; with `fill`,
/// every nullable field and list filled in, else `null` and empty lists; the first value of
/// each `enum`.
fn example_of(schema: &Value, fill: bool) -> Value {
    example_named(schema, "", fill)
}

/// [`example_of`] for the field `field` (whose name picks a shared word, [`shared_word`]).
fn example_named(schema: &Value, field: &str, fill: bool) -> Value {
    if let Some(Value::Array(values)) = schema.get("enum") {
        let null = values.iter().find(|v| v.is_null()).filter(|_| !fill);
        let first = values.iter().find(|v| !v.is_null());
        return null.or(first).cloned().unwrap_or(Value::Null);
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(Value::Array(variants)) = schema.get("anyOf") {
        let null = variants.iter().find(|v| v["type"] == "null");
        let other = variants.iter().find(|v| v["type"] != "null");
        return match (null, other, fill) {
            (Some(_), _, false) | (Some(_), None, true) | (None, None, _) => Value::Null,
            (_, Some(v), _) => example_named(v, field, fill),
        };
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.contains(&"null") && !fill {
        return Value::Null;
    }
    match types.iter().find(|t| **t != "null").copied() {
        Some("object") => Value::Object(
            schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, prop)| (name.clone(), example_named(prop, name, fill)))
                .collect(),
        ),
        Some("array") if fill => json!([example_named(&schema["items"], field, fill)]),
        Some("array") => json!([]),
        Some("string") => json!(shared_word(field).unwrap_or("kraven")),
        Some("integer") => json!(1),
        Some("number") => json!(1.5),
        Some("boolean") => json!(true),
        _ => Value::Null,
    }
}

/// Whether a call was refused because its arguments do not parse into the tool's type (rather
/// than by the rules, after parsing).
fn did_not_parse(r: &ToolResult) -> bool {
    !r.ok
        && r.content["error"]
            .as_str()
            .is_some_and(|e| e.contains("do not parse"))
}

#[test]
fn every_schema_is_strict_and_parses_its_own_example() {
    let specs = tool_specs();
    // One spec per named tool, in the same order.
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, crate::tools::names::ALL);
    for spec in &specs {
        let mut problems = Vec::new();
        schema::violations(&spec.parameters, &spec.name, &mut problems);
        assert!(problems.is_empty(), "{problems:?}\n{}", spec.parameters);
        assert_eq!(spec.parameters["type"], "object", "{}", spec.name);
        // The schema's own examples, with every optional field null and with every one set,
        // parse into the tool's argument type: the schema and the type agree.
        for fill in [false, true] {
            let example = example_of(&spec.parameters, fill);
            let r = Table::new(&["kraven"]).call(&spec.name, example.clone());
            assert!(
                !did_not_parse(&r),
                "{}: its schema's example {example} does not parse: {}",
                spec.name,
                r.content
            );
            // And the type is as strict as the schema: a field the schema does not list is
            // refused.
            let mut extra = example.clone();
            extra["not_in_the_schema"] = json!(1);
            let r = Table::new(&["kraven"]).call(&spec.name, extra.clone());
            assert!(
                did_not_parse(&r),
                "{}: {extra} has a field the schema forbids, yet parsed: {}",
                spec.name,
                r.content
            );
        }
    }
}

#[test]
fn a_schema_example_that_does_not_fit_its_type_is_caught() {
    // The check above can fail: a field of the wrong type does not parse.
    let spec = tool_specs()
        .into_iter()
        .find(|s| s.name == "roll_dice")
        .unwrap();
    let mut example = example_of(&spec.parameters, true);
    assert!(!did_not_parse(
        &Table::new(&["kraven"]).call("roll_dice", example.clone())
    ));
    example["expression"] = json!(12);
    assert!(did_not_parse(
        &Table::new(&["kraven"]).call("roll_dice", example)
    ));
}

/// The serde names of `values` (the words a tool accepts for them).
fn words<T: serde::Serialize>(values: &[T]) -> Vec<String> {
    values
        .iter()
        .map(|v| {
            serde_json::to_value(v)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn a_wrong_word_for_a_shared_list_is_refused_with_every_accepted_word() {
    use crate::rules::{Ability, Condition, DamageType, Skill};
    // The schemas leave these long lists to the model's knowledge (plain strings, `tools::schema`):
    // the type still parses only the list's words, and a refusal names them all.
    let cases = [
        (
            "roll_skill_check",
            "skill",
            json!({"creature": "kraven", "skill": "sneaking", "dc": 10,
                   "advantage": null, "reason": null, "subject": null}),
            words(&Skill::ALL),
        ),
        (
            "roll_saving_throw",
            "ability",
            json!({"creature": "kraven", "ability": "dex", "dc": 10,
                   "advantage": null, "reason": null, "against": []}),
            words(&Ability::ALL),
        ),
        (
            "update_character",
            "condition",
            json!({"character": "kraven", "update": "add_condition", "condition": "asleep",
                   "amount": null, "recover_slots": null}),
            words(&Condition::ALL),
        ),
        (
            "apply_hazard_damage",
            "damage_type",
            json!({"target": "kraven", "cause": "hazard", "feet": null, "severity": "setback",
                   "damage_type": "frost", "reason": null}),
            words(&DamageType::ALL),
        ),
    ];
    for (tool, field, args, accepted) in cases {
        let error = Table::new(&["kraven"]).refused(tool, args.clone());
        assert!(error.contains("do not parse"), "{tool}: {error}");
        for word in &accepted {
            assert!(
                error.contains(&format!("`{word}`")),
                "{tool}: {word} not in {error}"
            );
        }
        // An accepted word parses (whatever the rules then say of the call).
        let mut right = args;
        right[field] = json!(accepted[0]);
        let r = Table::new(&["kraven"]).call(tool, right.clone());
        assert!(
            !did_not_parse(&r),
            "{tool}: {right} does not parse: {}",
            r.content
        );
        // And the schema leaves the list out.
        let spec = tool_specs().into_iter().find(|s| s.name == tool).unwrap();
        let property = &spec.parameters["properties"][field];
        assert!(
            property.is_object() && property.get("enum").is_none(),
            "{tool}: {field} is {property}"
        );
    }
}

/// Every description anywhere in `schema`, with the path of the field that carries it.
fn descriptions(schema: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match schema {
        Value::Object(map) => {
            for (key, child) in map {
                match (key.as_str(), child) {
                    ("description", Value::String(text)) => {
                        out.push((path.to_owned(), text.clone()))
                    }
                    ("properties", Value::Object(props)) => {
                        for (name, prop) in props {
                            descriptions(prop, &format!("{path}.{name}"), out);
                        }
                    }
                    _ => descriptions(child, path, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| descriptions(i, path, out)),
        _ => {}
    }
}

#[test]
fn descriptions_stay_one_short_sentence() {
    // Every call pays for the words of the tools it offers: a tool says when to use it in one
    // sentence, a field only what its name does not (README, "Tools per situation").
    const TOOL_BYTES: usize = 90;
    const FIELD_BYTES: usize = 70;
    for spec in tool_specs() {
        let d = &spec.description;
        assert!(
            d.len() <= TOOL_BYTES && d.ends_with('.') && !d.trim_end_matches('.').contains(". "),
            "{}: {d:?} is not one short sentence",
            spec.name
        );
        let mut found = Vec::new();
        descriptions(&spec.parameters, &spec.name, &mut found);
        for (path, text) in found {
            assert!(
                !text.is_empty() && text.len() <= FIELD_BYTES && !text.contains('\n'),
                "{path}: {text:?}"
            );
        }
    }
}
