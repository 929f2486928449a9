//! JSON Schemas for tool arguments, generated from the argument types and made fit for OpenAI's
//! strict mode.
//!
//! Strict mode (structured outputs) accepts a subset of JSON Schema: every object lists all its
//! properties as `required` and sets `additionalProperties: false`; an optional field is a
//! required one that may be `null`. Schemars already writes `Option<T>` as "T or null"; this
//! module inlines every definition (some servers refuse `$ref`), marks every property required,
//! closes every object, and drops the keywords strict mode rejects (`format`, `default`,
//! numeric bounds on integers, `$schema`, `title`).
//!
//! Every call carries the schemas of the tools it offers, so their bytes are paid on every
//! request: [`lean`] then drops what the model does not need (a nested description its field
//! already says, line breaks, empty descriptions) and writes "this or null" in its shortest
//! strict form. The argument types do their part: long lists every model knows (skills,
//! abilities, conditions, damage types) are `#[schemars(with = "String")]`, a plain string
//! on the wire, while serde still parses the enum and refuses a wrong word with every
//! accepted one (`unknown variant ..., expected one of ...`, in the call's error).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The strict-mode JSON Schema of `T`.
pub fn strict_schema_for<T: JsonSchema>() -> Value {
    let settings = SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_else(|_| Value::Object(Map::new()));
    strictify(&mut value);
    lean(&mut value);
    if let Value::Object(map) = &mut value {
        // The root's doc comment ("Arguments of `x`") only costs tokens: the tool has its own.
        map.remove("description");
    }
    value
}

/// Rewrites a schema in place for strict mode (see the module docs).
pub fn strictify(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    for key in [
        "$schema", "title", "format", "default", "minimum", "maximum", "$defs",
    ] {
        map.remove(key);
    }
    if let Some(Value::Array(variants)) = map.remove("oneOf") {
        // Strict mode has no `oneOf`; an enum whose variants carry docs comes out as a `oneOf`
        // of `const`s, which is a plain `enum`; anything else becomes an `anyOf`.
        let consts: Option<Vec<Value>> = variants.iter().map(|v| v.get("const").cloned()).collect();
        match consts {
            Some(values) if values.iter().all(Value::is_string) => {
                map.insert("type".into(), Value::String("string".into()));
                map.insert("enum".into(), Value::Array(values));
            }
            _ => {
                map.insert("anyOf".into(), Value::Array(variants));
            }
        }
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        // The values of `properties` are schemas; its keys are field names, kept as they are.
        props.values_mut().for_each(strictify);
    }
    if map.get("type") == Some(&Value::String("object".into())) || map.contains_key("properties") {
        let names: Vec<Value> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().map(Value::String).collect())
            .unwrap_or_default();
        map.insert("required".into(), Value::Array(names));
        map.insert("additionalProperties".into(), Value::Bool(false));
        map.entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
    }
    for key in ["items", "not"] {
        if let Some(child) = map.get_mut(key) {
            strictify(child);
        }
    }
    for key in ["anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get_mut(key) {
            children.iter_mut().for_each(strictify);
        }
    }
}

/// Makes a strict schema smaller without changing what it accepts, in place.
///
/// - `anyOf: [X, {"type": "null"}]` becomes X with `null` added to its `type` (and to its
///   `enum`), the form strict mode documents for an optional field, with the field's
///   description only; a nested `anyOf` is flattened into its parent.
/// - A description inside `items` or an `anyOf` variant is dropped when the schema around it
///   has its own, even an empty one: the field's words are the ones meant for the model (the
///   type's doc comment says the same thing in general terms).
/// - Runs of whitespace in a description (the line breaks of a doc comment) become one space;
///   an empty one goes. A field whose name says it all sets
///   `#[schemars(extend("description" = ""))]`: its doc comment stays for readers of the code,
///   and the type's own doc comment (an enum's) does not take its place on the wire.
pub fn lean(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::Array(variants)) = map.get("anyOf") {
        let null = Value::Object(Map::from_iter([("type".into(), "null".into())]));
        let nullable = variants.contains(&null);
        let others: Vec<Value> = variants.iter().filter(|v| **v != null).cloned().collect();
        match others.as_slice() {
            [only] if nullable => {
                map.remove("anyOf");
                merge_nullable(map, only.clone());
            }
            _ => {
                // Variants that are themselves an `anyOf` (an enum of shapes inside an option)
                // join this one.
                let mut flat = Vec::new();
                for v in others {
                    match v.get("anyOf") {
                        Some(Value::Array(inner))
                            if v.as_object().is_some_and(|m| {
                                m.keys().all(|k| k == "anyOf" || k == "description")
                            }) =>
                        {
                            flat.extend(inner.iter().cloned());
                        }
                        _ => flat.push(v),
                    }
                }
                if nullable {
                    flat.push(null);
                }
                map.insert("anyOf".into(), Value::Array(flat));
            }
        }
    }
    // A field that sets an empty description wants none, nor its variants' (see the docs).
    let described = map.contains_key("description");
    if let Some(Value::String(text)) = map.get_mut("description") {
        *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            map.remove("description");
        }
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.values_mut().for_each(lean);
    }
    let nested = |child: &mut Value| {
        if described && let Value::Object(m) = child {
            m.remove("description");
        }
        lean(child);
    };
    if let Some(items) = map.get_mut("items") {
        nested(items);
    }
    if let Some(Value::Array(variants)) = map.get_mut("anyOf") {
        variants.iter_mut().for_each(nested);
    }
}

/// Writes the schema `inner` into `map` as "`inner` or null" (see [`lean`]). `inner`'s
/// description is the type's doc comment, not the field's: only `map`'s own is kept (a field
/// that sets an empty one wants none).
fn merge_nullable(map: &mut Map<String, Value>, inner: Value) {
    let Value::Object(mut inner) = inner else {
        return;
    };
    inner.remove("description");
    for (key, value) in inner {
        map.insert(key, value);
    }
    let null = Value::String("null".into());
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            let t = Value::String(std::mem::take(t));
            map.insert("type".into(), Value::Array(vec![t, null.clone()]));
        }
        Some(Value::Array(types)) if !types.contains(&null) => types.push(null.clone()),
        Some(_) => {}
        None => {
            // No type of its own (an `anyOf` of shapes): null is one more variant.
            if let Some(Value::Array(variants)) = map.get_mut("anyOf") {
                variants.push(Value::Object(Map::from_iter([(
                    "type".into(),
                    null.clone(),
                )])));
            }
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// Whether a schema satisfies strict mode's structural rules (used by the tests of every tool).
pub fn violations(value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(props) = map.get("properties").and_then(Value::as_object) {
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                for name in props.keys() {
                    if !required.contains(&name.as_str()) {
                        out.push(format!("{path}: property {name} is not required"));
                    }
                }
                if map.get("additionalProperties") != Some(&Value::Bool(false)) {
                    out.push(format!("{path}: additionalProperties is not false"));
                }
            }
            for key in ["$ref", "format", "default"] {
                if map.contains_key(key) {
                    out.push(format!("{path}: has {key}"));
                }
            }
            for (key, child) in map {
                violations(child, &format!("{path}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                violations(child, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{lean, violations};

    #[test]
    fn lean_writes_an_option_as_a_union_with_null_and_keeps_the_fields_words_only() {
        let mut schema = json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["mode", "shape", "quiet"],
            "properties": {
                "mode": {
                    "description": "How.\n  Say it\nonce.",
                    "anyOf": [
                        {"description": "The type's words.", "type": "string", "enum": ["a", "b"]},
                        {"type": "null"}
                    ]
                },
                "shape": {
                    "description": "Which shape.",
                    "anyOf": [
                        {"anyOf": [{"type": "integer"}, {"description": "A name.", "type": "string"}]},
                        {"type": "null"}
                    ]
                },
                "quiet": {"description": "", "type": "string"}
            }
        });
        lean(&mut schema);
        assert_eq!(
            schema["properties"]["mode"],
            json!({"description": "How. Say it once.", "type": ["string", "null"], "enum": ["a", "b", null]})
        );
        assert_eq!(
            schema["properties"]["shape"],
            json!({"description": "Which shape.", "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]})
        );
        assert_eq!(schema["properties"]["quiet"], json!({"type": "string"}));
        let mut problems = Vec::new();
        violations(&schema, "", &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
    }
}
