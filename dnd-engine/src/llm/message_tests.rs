//! Tests of the conversation types' JSON shape and helpers.

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Message, Reasoning, Role, ToolArgumentsError, ToolCall, ToolSpec};

fn round_trip(message: &Message) -> Message {
    let json = serde_json::to_string(message).unwrap();
    serde_json::from_str(&json).unwrap()
}

fn sample_call() -> ToolCall {
    ToolCall::new("call_1", "roll_dice", json!({"notation": "1d20+5"}))
}

#[test]
fn every_variant_round_trips() {
    let messages = [
        Message::system("You are the GM."),
        Message::user("I open the door."),
        Message::user_named("Aria", "I cast light."),
        Message::assistant("The door creaks."),
        Message::assistant_tool_calls(vec![sample_call()]),
        Message::Assistant {
            content: Some("Rolling.".into()),
            tool_calls: vec![sample_call(), ToolCall::new("call_2", "look", json!({}))],
            reasoning: None,
        },
        Message::Assistant {
            content: None,
            tool_calls: Vec::new(),
            reasoning: None,
        },
        Message::tool_result("call_1", r#"{"total":17}"#),
    ];
    for message in &messages {
        assert_eq!(&round_trip(message), message);
    }
}

#[test]
fn json_shape_is_role_tagged_and_compact() {
    assert_eq!(
        serde_json::to_value(Message::system("rules")).unwrap(),
        json!({"role": "system", "content": "rules"})
    );
    assert_eq!(
        serde_json::to_value(Message::user("hi")).unwrap(),
        json!({"role": "user", "content": "hi"})
    );
    assert_eq!(
        serde_json::to_value(Message::user_named("Aria", "hi")).unwrap(),
        json!({"role": "user", "content": "hi", "name": "Aria"})
    );
    assert_eq!(
        serde_json::to_value(Message::assistant("ok")).unwrap(),
        json!({"role": "assistant", "content": "ok"})
    );
    assert_eq!(
        serde_json::to_value(Message::assistant_tool_calls(vec![sample_call()])).unwrap(),
        json!({
            "role": "assistant",
            "tool_calls": [
                {"id": "call_1", "name": "roll_dice", "arguments": {"notation": "1d20+5"}}
            ],
        })
    );
    assert_eq!(
        serde_json::to_value(Message::tool_result("call_1", "17")).unwrap(),
        json!({"role": "tool", "tool_call_id": "call_1", "content": "17"})
    );
}

#[test]
fn missing_optional_fields_default() {
    let assistant: Message = serde_json::from_value(json!({"role": "assistant"})).unwrap();
    assert_eq!(
        assistant,
        Message::Assistant {
            content: None,
            tool_calls: Vec::new(),
            reasoning: None,
        }
    );
    let user: Message = serde_json::from_value(json!({"role": "user", "content": "x"})).unwrap();
    assert_eq!(user, Message::user("x"));
    let unknown = serde_json::from_value::<Message>(json!({"role": "narrator", "content": "x"}));
    assert!(unknown.is_err());
}

#[test]
fn accessors_read_every_variant() {
    let named = Message::user_named("Aria", "hi");
    assert_eq!(named.role(), Role::User);
    assert_eq!(named.text(), Some("hi"));
    assert_eq!(named.name(), Some("Aria"));
    assert!(named.tool_calls().is_empty());

    let calls = Message::assistant_tool_calls(vec![sample_call()]);
    assert_eq!(calls.role(), Role::Assistant);
    assert_eq!(calls.text(), None);
    assert_eq!(calls.tool_calls(), [sample_call()]);

    let result = Message::tool_result("call_1", "17");
    assert_eq!(result.role().to_string(), "tool");
    assert_eq!(result.tool_call_id(), Some("call_1"));
    assert_eq!(result.text(), Some("17"));

    assert_eq!(Message::system("s").text(), Some("s"));
    assert_eq!(Message::system("s").tool_call_id(), None);
    assert_eq!(
        serde_json::to_value(Role::Assistant).unwrap(),
        json!("assistant")
    );
}

#[derive(Debug, Deserialize, PartialEq)]
struct RollArgs {
    notation: String,
    #[serde(default)]
    advantage: bool,
}

#[test]
fn parse_arguments_decodes_typed_struct() {
    let args: RollArgs = sample_call().parse_arguments().unwrap();
    assert_eq!(
        args,
        RollArgs {
            notation: "1d20+5".into(),
            advantage: false
        }
    );
}

#[test]
fn parse_arguments_accepts_double_encoded_json() {
    let call = ToolCall::new(
        "call_9",
        "roll_dice",
        Value::String(r#"{"notation":"2d6","advantage":true}"#.into()),
    );
    let args: RollArgs = call.parse_arguments().unwrap();
    assert_eq!(args.notation, "2d6");
    assert!(args.advantage);
}

#[test]
fn parse_arguments_error_names_tool_call_and_problem() {
    let call = ToolCall::new("call_7", "roll_dice", json!({"dice": "1d20"}));
    let error: ToolArgumentsError = call.parse_arguments::<RollArgs>().unwrap_err();
    assert_eq!(error.tool, "roll_dice");
    assert_eq!(error.call_id, "call_7");
    assert!(error.message.contains("notation"), "{}", error.message);
    let text = error.to_string();
    assert!(text.contains("`roll_dice`"), "{text}");
    assert!(text.contains("`call_7`"), "{text}");
    assert!(text.contains("missing field `notation`"), "{text}");

    let garbage = ToolCall::new("c", "roll_dice", Value::String("{not json".into()));
    assert!(garbage.parse_arguments::<RollArgs>().is_err());
}

#[test]
fn tool_spec_json_shape() {
    let spec = ToolSpec::new(
        "roll_dice",
        "Roll dice.",
        json!({"type": "object", "required": ["notation"]}),
    );
    let json = serde_json::to_value(&spec).unwrap();
    assert_eq!(
        json,
        json!({
            "name": "roll_dice",
            "description": "Roll dice.",
            "parameters": {"type": "object", "required": ["notation"]},
        })
    );
    assert_eq!(serde_json::from_value::<ToolSpec>(json).unwrap(), spec);
}

#[test]
fn reasoning_and_provider_id_are_optional_and_round_trip() {
    let mut call = sample_call();
    assert_eq!(
        serde_json::to_value(&call).unwrap(),
        json!({"id": "call_1", "name": "roll_dice", "arguments": {"notation": "1d20+5"}})
    );
    call.provider_id = Some("call_0".into());
    let with_reasoning = Message::assistant_tool_calls(vec![call]).with_reasoning(Reasoning::text(
        "The player attacks; roll.",
        "reasoning_content",
    ));
    let json = serde_json::to_value(&with_reasoning).unwrap();
    assert_eq!(json["tool_calls"][0]["provider_id"], "call_0");
    assert_eq!(
        json["reasoning"],
        json!({"text": "The player attacks; roll.", "field": "reasoning_content"})
    );
    assert_eq!(round_trip(&with_reasoning), with_reasoning);
    assert_eq!(
        with_reasoning.reasoning().and_then(|r| r.text.as_deref()),
        Some("The player attacks; roll.")
    );
    assert!(
        Message::user("x")
            .with_reasoning(Reasoning::default())
            .reasoning()
            .is_none()
    );
    assert!(Reasoning::default().is_empty());
    assert!(!Reasoning::text("t", "reasoning").is_empty());
}
