//! The adapter's tests, in one binary (one link instead of one per file).
//!
//! - `build_parse`: request building and response parsing against fixtures of real response
//!   shapes, the request bodies matched exactly (insta);
//! - `provider`: the provider against a scripted HTTP server on 127.0.0.1: answers, tool
//!   round trips, retries, errors, the key kept out of everything;
//! - `streaming`: streamed answers through the same server;
//! - `limits`: hostile servers: keep-alive comments and no data, bodies and streams without
//!   end, each cut by a typed error;
//! - `speech`: the transcription and speech endpoints;
//! - `openapi`: the request bodies validated against OpenAI's OpenAPI excerpt (skipped with a
//!   printed reason when the shared reference folder is absent, a failure on CI).

mod build_parse;
mod caps;
// What a test does when the shared reference folder is absent: one rule for the workspace.
#[path = "../../../dnd-engine/tests/support/environment.rs"]
mod environment;
mod limits;
mod openapi;
mod provider;
mod server;
mod settings;
#[cfg(feature = "speech")]
mod speech;
mod streaming;
mod window;

use dnd_engine::llm::{CompletionRequest, Message, ToolCall, ToolChoice, ToolSpec};
use dnd_llm_openai::OpenAiConfig;
use serde_json::{Value, json};

/// The key the tests configure; it must never appear in an error or a `Debug`.
const KEY: &str = "sk-test-7d2f0c9a1b4e4f6a8c3d5e7f9a1b2c3d";

/// The text of a fixture file.
fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A config for the test server: the test key, tiny retry delays, short timeouts.
fn config(base_url: &str) -> OpenAiConfig {
    settings::test_config(base_url, "gpt-4o-mini", KEY)
}

/// Asserts the key appears nowhere in a value's `Debug` and `Display`.
fn assert_no_key(value: &(impl std::fmt::Debug + std::fmt::Display)) {
    let debug = format!("{value:?}");
    let display = value.to_string();
    assert!(
        !debug.contains(KEY) && !debug.contains(&KEY[8..]),
        "key in Debug: {debug}"
    );
    assert!(
        !display.contains(KEY) && !display.contains(&KEY[8..]),
        "key in Display: {display}"
    );
}

/// A tool schema as a hand-written tool might have it: optional fields, a `format`, a
/// `default`; the strict sanitizer must fix it.
fn roll_tool() -> ToolSpec {
    ToolSpec::new(
        "roll_dice",
        "Roll dice in standard notation.",
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "RollArgs",
            "type": "object",
            "properties": {
                "notation": {"type": "string", "format": "dice"},
                "label": {"type": ["string", "null"], "default": null}
            },
            "required": ["notation"]
        }),
    )
}

/// A tool without parameters.
fn look_tool() -> ToolSpec {
    ToolSpec::new(
        "look_around",
        "Describe the room.",
        json!({"type": "object", "properties": {}}),
    )
}

/// A conversation with every role, a named speaker, two tool calls (one with arguments that
/// are not JSON) and their results.
fn conversation() -> CompletionRequest {
    CompletionRequest::new(vec![
        Message::system("You are the game master. Never invent dice results."),
        Message::user_named("Aria Moon", "I swing my sword at the goblin."),
        Message::Assistant {
            content: Some("Rolling the attack.".into()),
            tool_calls: vec![
                ToolCall::new(
                    "call_1",
                    "roll_dice",
                    json!({"notation": "1d20+5", "label": "attack"}),
                ),
                ToolCall::new(
                    "call_2",
                    "roll_dice",
                    Value::String("{notation: 1d8".into()),
                ),
            ],
            reasoning: None,
        },
        Message::tool_result("call_1", r#"{"total":17}"#),
        Message::tool_result("call_2", r#"{"error":"the arguments are not JSON"}"#),
        Message::assistant("Your blade bites deep."),
        Message::user("I search the goblin."),
    ])
    .with_tools(vec![roll_tool(), look_tool()])
    .with_tool_choice(ToolChoice::Required)
    .with_temperature(0.7)
    .with_seed(42)
    .with_max_tokens(400)
}
