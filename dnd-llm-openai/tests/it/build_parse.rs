//! Pure request building and response parsing.

use std::sync::Arc;

use dnd_engine::llm::{
    CompletionRequest, FinishReason, LlmError, Message, Reasoning, ResponseFormat, ToolCall,
    ToolChoice,
};
use dnd_llm_openai::{
    ReasoningEcho, RequestOptions, StrictTools, TokenLimitField, build_request, build_request_with,
    into_streaming, parse_response, parse_response_with,
};
use serde_json::{Value, json};

use crate::{conversation, fixture, look_tool, roll_tool};

fn body(request: &CompletionRequest, options: &RequestOptions) -> Value {
    serde_json::to_value(build_request(request, options)).unwrap()
}

#[test]
fn every_role_tools_and_sampling_settings() {
    let options = RequestOptions::new("gpt-4o-mini");
    insta::assert_json_snapshot!("conversation_request", body(&conversation(), &options));
}

#[test]
fn legacy_token_field_named_tool_extra_fields_and_streaming() {
    let mut options = RequestOptions::new("llama-3");
    options.token_limit = TokenLimitField::MaxTokens;
    options.strict_tools = false;
    options.parallel_tool_calls = Some(false);
    options.extra_body.insert("top_k".into(), json!(40));
    options.extra_body.insert("temperature".into(), json!(0.2));
    let request = CompletionRequest::new(vec![Message::user("Roll initiative.")])
        .with_tools(vec![roll_tool()])
        .with_tool_choice(ToolChoice::Tool("roll_dice".into()))
        .with_temperature(1.0)
        .with_max_tokens(64);
    let body = into_streaming(build_request(&request, &options), &options);
    insta::assert_json_snapshot!(
        "legacy_named_tool_streaming_request",
        serde_json::to_value(body).unwrap()
    );
}

#[test]
fn response_formats() {
    let options = RequestOptions::new("gpt-4o");
    let schema = json!({
        "type": "object",
        "properties": {"actions": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "dc": {"type": ["integer", "null"], "minimum": 1}}}}}
    });
    let strict = CompletionRequest::new(vec![Message::user("Suggest actions.")])
        .with_response_format(ResponseFormat::json_schema("action_list", schema.clone()));
    insta::assert_json_snapshot!("json_schema_request", body(&strict, &options));
    let loose = strict
        .clone()
        .with_response_format(ResponseFormat::JsonSchema {
            name: "action_list".into(),
            schema: schema.clone().into(),
            strict: false,
        });
    assert_eq!(
        body(&loose, &options)["response_format"]["json_schema"]["schema"],
        schema
    );
    let object = strict.with_response_format(ResponseFormat::JsonObject);
    assert_eq!(
        body(&object, &options)["response_format"],
        json!({"type": "json_object"})
    );
}

#[test]
fn tool_choice_and_parallel_calls_are_left_out_without_tools() {
    let mut options = RequestOptions::new("m");
    options.parallel_tool_calls = Some(true);
    let request =
        CompletionRequest::new(vec![Message::user("hi")]).with_tool_choice(ToolChoice::Required);
    let body = body(&request, &options);
    assert_eq!(
        body,
        json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    );
    let auto = CompletionRequest::new(vec![Message::user("hi")]).with_tools(vec![look_tool()]);
    assert!(
        self::body(&auto, &options).get("tool_choice").is_none(),
        "auto is the default"
    );
}

#[test]
fn reasoning_goes_back_on_tool_call_turns_only_by_default() {
    let with_calls =
        Message::assistant_tool_calls(vec![ToolCall::new("c1", "look_around", json!({}))])
            .with_reasoning(Reasoning::text("Look first.", "reasoning_content"));
    let text_only = Message::assistant("Done.").with_reasoning(Reasoning {
        text: Some("Narrate.".into()),
        details: Some(json!([{"type": "reasoning.text", "text": "Narrate."}])),
        field: Some("reasoning".into()),
    });
    let request = CompletionRequest::new(vec![
        Message::user("look"),
        with_calls,
        Message::tool_result("c1", "{}"),
        text_only,
    ]);
    let mut options = RequestOptions::new("deepseek-chat");
    let messages = body(&request, &options)["messages"].clone();
    assert_eq!(messages[1]["reasoning_content"], "Look first.");
    assert!(messages[1].get("content").is_none(), "{}", messages[1]);
    assert!(messages[3].get("reasoning").is_none(), "{}", messages[3]);
    options.reasoning_echo = ReasoningEcho::Always;
    let messages = body(&request, &options)["messages"].clone();
    assert_eq!(messages[3]["reasoning"], "Narrate.");
    assert_eq!(
        messages[3]["reasoning_details"][0]["type"],
        "reasoning.text"
    );
    options.reasoning_echo = ReasoningEcho::Never;
    assert!(
        body(&request, &options)["messages"][1]
            .get("reasoning_content")
            .is_none()
    );
}

#[test]
fn cached_strict_tools_give_the_same_body_without_copying() {
    let options = RequestOptions::new("gpt-4o-mini");
    let request = conversation();
    let cache = StrictTools::new(&request.tools);
    let cached = build_request_with(&request, &options, Some(&cache));
    assert!(matches!(
        cached.tools[0].function.parameters,
        std::borrow::Cow::Borrowed(_)
    ));
    assert_eq!(cached, build_request(&request, &options));
    // A cache for another list is ignored.
    let other = StrictTools::new(&Arc::new(vec![look_tool()]));
    assert_eq!(build_request_with(&request, &options, Some(&other)), cached);
}

fn parsed(name: &str) -> dnd_engine::llm::CompletionResponse {
    parse_response_with(fixture(name).as_bytes(), false).unwrap()
}

#[test]
fn openai_text_answer() {
    let response = parsed("openai_text.json");
    assert_eq!(response.finish_reason, FinishReason::Stop);
    assert_eq!(response.usage.cached_tokens, 1024);
    insta::assert_json_snapshot!("openai_text_response", response);
    let raw = parse_response(fixture("openai_text.json").as_bytes())
        .unwrap()
        .raw
        .unwrap();
    assert_eq!(raw["system_fingerprint"], "fp_b376dfbbd5");
}

#[test]
fn openai_tool_calls_and_json_schema_answers() {
    let calls = parsed("openai_tool_calls.json");
    assert_eq!(calls.finish_reason, FinishReason::ToolCalls);
    assert_eq!(calls.tool_calls()[0].id, "call_Qm4yPiR9gVTk2sW1Xb8nEo3L");
    assert_eq!(
        calls.tool_calls()[1].arguments,
        json!({"notation": "1d8+3", "label": null})
    );
    insta::assert_json_snapshot!("openai_tool_calls_response", calls);
    let schema = parsed("openai_json_schema.json");
    let actions: Value = serde_json::from_str(schema.text().unwrap()).unwrap();
    assert_eq!(actions["actions"][1]["id"], "leave");
}

#[test]
fn llama_cpp_legacy_function_call_long_ids_and_prose_arguments() {
    let response = parsed("llama_cpp_tool_call.json");
    let calls = response.tool_calls();
    assert_eq!(
        calls.len(),
        1,
        "function_call beside tool_calls is the same call"
    );
    assert_eq!(
        calls[0].id, "call__0_roll_dice_cmpl-7f1c2d9e-5a44-4f0e-9d1b-3b8e0c6a2f17",
        "long ids are kept"
    );
    assert_eq!(
        calls[0].arguments["notation"],
        "rolls a roll of dice to see if the attack hits"
    );
    insta::assert_json_snapshot!("llama_cpp_response", response);
}

#[test]
fn ollama_object_arguments_missing_and_empty_ids() {
    let response = parsed("ollama_tool_calls.json");
    let calls = response.tool_calls();
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[0].arguments, json!({"notation": "1d20+5"}));
    assert_eq!(calls[1].arguments, json!({}));
    assert_eq!(
        calls[2].arguments,
        json!("{\"notation\": 2d6}"),
        "invalid JSON kept as text"
    );
    let ids: std::collections::HashSet<_> = calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), 3);
    assert!(response.text().is_none(), "empty content is no text");
    insta::assert_json_snapshot!("ollama_response", response);
}

#[test]
fn reasoning_and_usage_details_from_deepseek_and_openrouter() {
    let deepseek = parsed("deepseek_reasoning.json");
    let reasoning = deepseek.message.reasoning().unwrap();
    assert_eq!(reasoning.field.as_deref(), Some("reasoning_content"));
    assert_eq!(deepseek.usage.reasoning_tokens, 71);
    assert_eq!(deepseek.usage.cached_tokens, 1408);
    insta::assert_json_snapshot!("deepseek_response", deepseek);

    let router = parsed("openrouter_reasoning.json");
    assert_eq!(router.usage.cost, Some(0.004212));
    assert_eq!(router.usage.cache_write_tokens, 220);
    let reasoning = router.message.reasoning().unwrap();
    assert_eq!(reasoning.field.as_deref(), Some("reasoning"));
    assert_eq!(
        reasoning.details.as_ref().unwrap()[0]["signature"],
        "EqQBCkgIBxABGAIiQL"
    );
    insta::assert_json_snapshot!("openrouter_response", router);
}

#[test]
fn unknown_enum_values_extra_fields_and_odd_types_parse() {
    let response = parsed("unknown_values.json");
    assert_eq!(response.text(), Some("The wind howls."));
    assert_eq!(response.finish_reason, FinishReason::Stop, "eos is a stop");
    assert_eq!(response.usage.prompt_tokens, 210);
    assert_eq!(response.usage.completion_tokens, 5);
    for (reason, expected) in [
        ("", FinishReason::Stop),
        ("length", FinishReason::Length),
        ("content_filter", FinishReason::ContentFilter),
        ("recitation", FinishReason::Other("recitation".into())),
    ] {
        let body = json!({"choices": [{"message": {"content": "x"}, "finish_reason": reason}]});
        let response = parse_response(body.to_string().as_bytes()).unwrap();
        assert_eq!(response.finish_reason, expected, "{reason:?}");
    }
    let null_reason = json!({"choices": [{"message": {"content": "x"}, "finish_reason": null}]});
    assert_eq!(
        parse_response(null_reason.to_string().as_bytes())
            .unwrap()
            .finish_reason,
        FinishReason::Stop
    );
}

#[test]
fn refusals_errors_in_bodies_and_bodies_that_are_not_completions() {
    let refusal = parse_response(fixture("openai_refusal.json").as_bytes()).unwrap_err();
    assert!(matches!(refusal, LlmError::Refused { .. }), "{refusal:?}");
    assert!(refusal.to_string().contains("can't assist"), "{refusal}");

    let in_body = json!({"error": {"message": "Upstream timed out", "code": 504}});
    let error = parse_response(in_body.to_string().as_bytes()).unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::Server {
                status: Some(504),
                ..
            }
        ),
        "{error:?}"
    );

    let html = parse_response(b"<html><body>502 Bad Gateway</body></html>").unwrap_err();
    assert!(matches!(html, LlmError::BadResponse { .. }), "{html:?}");
    assert!(html.to_string().contains("502 Bad Gateway"), "{html}");
    assert!(matches!(
        parse_response(b"[1, 2]").unwrap_err(),
        LlmError::BadResponse { .. }
    ));
    let no_choices = parse_response(br#"{"id": "x", "choices": []}"#).unwrap_err();
    assert!(
        no_choices.to_string().contains("no choices"),
        "{no_choices}"
    );
}
