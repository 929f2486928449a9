//! The request bodies the adapter builds, validated against the request schema of OpenAI's
//! OpenAPI excerpt (`shared/reference/llm/openai-chat-excerpt.yaml`, read at test time).
//!
//! A small validator, enough for this schema: `$ref`, `allOf`, `anyOf`/`oneOf` (one match
//! suffices), `type` (with `nullable`), `enum`, `required`, `properties`, `items`, `minItems`,
//! and properties the schema does not declare (an error unless `additionalProperties` allows
//! them), so a misspelt or invented field fails the test.

use std::collections::BTreeSet;
use std::path::PathBuf;

use dnd_engine::llm::{CompletionRequest, Message, ResponseFormat, ToolCall, ToolChoice};
use dnd_llm_openai::{RequestOptions, TokenLimitField, build_request, into_streaming};
use serde_json::{Value, json};

use crate::conversation;

fn excerpt_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/reference/llm/openai-chat-excerpt.yaml")
}

fn load_spec() -> Option<Value> {
    let path = excerpt_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        // A skip with the reason printed, or a failure on CI, which must have the excerpt.
        crate::environment::missing(&format!(
            "the OpenAPI excerpt is not at {}: it lives in the shared reference folder beside \
             the repository, not in it; put OpenAI's chat completions excerpt there",
            path.display()
        ));
        return None;
    };
    let yaml: serde_norway::Value =
        serde_norway::from_str(&widen_huge_integers(&text)).expect("the excerpt is YAML");
    Some(to_json(yaml))
}

/// The excerpt bounds `seed` with integers beyond 64 bits, which no YAML value type here holds;
/// written as floats (`...000.0`) they read fine, and the validator does not check bounds.
fn widen_huge_integers(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.lines() {
        out.push_str(line);
        if let Some((_, value)) = line.rsplit_once(": ") {
            let digits = value.trim().trim_start_matches('-');
            if digits.len() >= 19 && digits.bytes().all(|b| b.is_ascii_digit()) {
                out.push_str(".0");
            }
        }
        out.push('\n');
    }
    out
}

/// YAML to JSON by hand (numbers as `serde_json` holds them).
fn to_json(yaml: serde_norway::Value) -> Value {
    use serde_norway::Value as Y;
    match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => json!(i),
            (_, Some(u), _) => json!(u),
            (_, _, Some(f)) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            _ => Value::Null,
        },
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Y::Mapping(map) => Value::Object(
            map.into_iter()
                .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), to_json(v))))
                .collect(),
        ),
        Y::Tagged(tagged) => to_json(tagged.value),
    }
}

struct Validator<'a> {
    spec: &'a Value,
}

impl Validator<'_> {
    fn resolve<'s>(&'s self, schema: &'s Value) -> &'s Value {
        let mut schema = schema;
        while let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let mut target = self.spec;
            for part in reference.trim_start_matches("#/").split('/') {
                target = &target[part];
            }
            assert!(!target.is_null(), "unresolved {reference}");
            schema = target;
        }
        schema
    }

    /// Every property a schema declares, through `$ref` and `allOf`.
    fn declared(&self, schema: &Value, names: &mut BTreeSet<String>) -> bool {
        let schema = self.resolve(schema);
        let mut open = matches!(
            schema.get("additionalProperties"),
            Some(Value::Bool(true)) | Some(Value::Object(_))
        );
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            names.extend(props.keys().cloned());
        }
        for part in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            open |= self.declared(part, names);
        }
        open
    }

    fn validate(&self, value: &Value, schema: &Value, path: &str, errors: &mut Vec<String>) {
        self.validate_part(value, schema, path, errors, true);
    }

    /// `whole` is false for a part of an `allOf`: the properties it does not declare may be
    /// declared by another part, so only the whole checks for undeclared ones.
    fn validate_part(
        &self,
        value: &Value,
        schema: &Value,
        path: &str,
        errors: &mut Vec<String>,
        whole: bool,
    ) {
        let schema = self.resolve(schema);
        if value.is_null() && schema.get("nullable") == Some(&Value::Bool(true)) {
            return;
        }
        for part in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.validate_part(value, part, path, errors, false);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(options) = schema.get(key).and_then(Value::as_array) {
                let mut best: Option<Vec<String>> = None;
                for option in options {
                    let mut option_errors = Vec::new();
                    self.validate(value, option, path, &mut option_errors);
                    if option_errors.is_empty() {
                        best = None;
                        break;
                    }
                    if best.as_ref().is_none_or(|b| option_errors.len() < b.len()) {
                        best = Some(option_errors);
                    }
                }
                if let Some(best) = best {
                    errors.push(format!(
                        "{path}: matches none of the {key} options; the closest fails with: {}",
                        best.join("; ")
                    ));
                }
            }
        }
        if let Some(kind) = schema.get("type").and_then(Value::as_str) {
            let ok = match kind {
                "object" => value.is_object(),
                "array" => value.is_array(),
                "string" => value.is_string(),
                "integer" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "boolean" => value.is_boolean(),
                "null" => value.is_null(),
                _ => true,
            };
            if !ok {
                errors.push(format!("{path}: expected {kind}, found {value}"));
                return;
            }
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            errors.push(format!(
                "{path}: {value} is not one of {}",
                Value::Array(allowed.clone())
            ));
        }
        if let Value::Object(map) = value {
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = name.as_str().unwrap_or_default();
                if !map.contains_key(name) {
                    errors.push(format!("{path}: missing required `{name}`"));
                }
            }
            let props = schema.get("properties").and_then(Value::as_object);
            for (name, child) in map {
                if let Some(child_schema) = props.and_then(|p| p.get(name)) {
                    self.validate(child, child_schema, &format!("{path}.{name}"), errors);
                }
            }
            let has_shape = props.is_some() || schema.get("allOf").is_some();
            if whole && has_shape {
                let mut names = BTreeSet::new();
                let open = self.declared(schema, &mut names);
                if !open {
                    for name in map.keys().filter(|n| !names.contains(*n)) {
                        errors.push(format!("{path}: `{name}` is not in the schema"));
                    }
                }
            }
        }
        if let Value::Array(items) = value {
            if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
                && (items.len() as u64) < min
            {
                errors.push(format!("{path}: fewer than {min} items"));
            }
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    self.validate(item, item_schema, &format!("{path}[{i}]"), errors);
                }
            }
        }
    }
}

fn check(spec: &Value, body: &Value) -> Vec<String> {
    let validator = Validator { spec };
    let schema = &spec["components"]["schemas"]["CreateChatCompletionRequest"];
    assert!(
        schema.is_object(),
        "the excerpt has no CreateChatCompletionRequest"
    );
    let mut errors = Vec::new();
    validator.validate(body, schema, "body", &mut errors);
    errors
}

#[test]
fn built_requests_match_the_openapi_request_schema() {
    let Some(spec) = load_spec() else {
        return;
    };
    let mut options = RequestOptions::new("gpt-4o-mini");
    options.parallel_tool_calls = Some(true);
    let mut bodies = vec![(
        "conversation",
        serde_json::to_value(build_request(&conversation(), &options)).unwrap(),
    )];

    let schema = CompletionRequest::new(vec![
        Message::system("Answer in JSON."),
        Message::user("Suggest actions."),
    ])
    .with_response_format(ResponseFormat::json_schema(
        "action_list",
        json!({"type": "object", "properties": {"id": {"type": "string"}}}),
    ))
    .with_max_tokens(200);
    bodies.push((
        "json schema",
        serde_json::to_value(build_request(&schema, &options)).unwrap(),
    ));
    let object = schema
        .clone()
        .with_response_format(ResponseFormat::JsonObject);
    let streaming = into_streaming(build_request(&object, &options), &options);
    bodies.push((
        "json object, streamed",
        serde_json::to_value(streaming).unwrap(),
    ));

    let named = CompletionRequest::new(vec![
        Message::user("Roll."),
        Message::assistant_tool_calls(vec![ToolCall::new(
            "c",
            "roll_dice",
            json!({"notation": "1d4"}),
        )]),
        Message::tool_result("c", "3"),
        Message::Assistant {
            content: None,
            tool_calls: Vec::new(),
            reasoning: None,
        },
    ])
    .with_tools(vec![crate::roll_tool()])
    .with_tool_choice(ToolChoice::Tool("roll_dice".into()));
    options.token_limit = TokenLimitField::MaxTokens;
    bodies.push((
        "named tool, legacy max_tokens",
        serde_json::to_value(build_request(&named.with_max_tokens(10), &options)).unwrap(),
    ));

    for (name, body) in &bodies {
        let errors = check(&spec, body);
        assert!(errors.is_empty(), "{name}: {errors:#?}\n{body:#}");
    }
}

#[test]
fn the_validator_catches_mistakes() {
    let Some(spec) = load_spec() else {
        return;
    };
    let bad = json!({
        "model": "gpt-4o-mini",
        "messages": [{"role": "wizard", "content": "hi"}],
        "tool_choice": "sometimes",
        "temperature": "warm",
        "max_output_tokens": 5
    });
    let errors = check(&spec, &bad).join("\n");
    for expected in [
        "body.messages[0]",
        "body.tool_choice",
        "body.temperature",
        "`max_output_tokens` is not in the schema",
    ] {
        assert!(
            errors.contains(expected),
            "{expected} not reported:\n{errors}"
        );
    }
    assert!(
        !check(&spec, &json!({"model": "m"})).is_empty(),
        "messages are required"
    );
}
