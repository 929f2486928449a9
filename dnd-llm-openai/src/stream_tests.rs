//! The assembler on fragment sequences recorded from real servers.

use super::*;

/// The fragments of one call as llama.cpp's server streams it: id, name and index in every
/// fragment, the legacy `function_call` beside, and one more fragment after the arguments
/// are complete.
fn llama_cpp_fragment(arguments: &str) -> String {
    let id = "call__0_roll_dice_cmpl-984630e6-28c3-4700-9d86-24d2511f7032";
    let function = serde_json::json!({"name": "roll_dice", "arguments": arguments});
    serde_json::json!({"id": "chatcmpl-1", "model": "smollm2", "choices": [{"index": 0,
        "finish_reason": null, "delta": {"role": null, "content": null,
        "function_call": function,
        "tool_calls": [{"index": 0, "id": id, "type": "function", "function": function}]}}]})
    .to_string()
}

fn assemble(data: &[String]) -> Vec<dnd_engine::llm::ToolCall> {
    let mut assembler = StreamAssembler::new();
    let mut out = Vec::new();
    for data in data {
        assembler.push("", data, &mut out).unwrap();
    }
    let end =
        r#"{"id":"chatcmpl-1","choices":[{"index":0,"finish_reason":"tool_calls","delta":{}}]}"#;
    assembler.push("", end, &mut out).unwrap();
    assembler.push("", "[DONE]", &mut out).unwrap();
    match assembler.finish().unwrap().pop() {
        Some(StreamEvent::Done(response)) => response.tool_calls().to_vec(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_call_repeated_in_every_fragment_is_one_call() {
    let fragments: Vec<String> = ["{", " \"expression\"", ": \"1d20+3\"", "}", "", " "]
        .iter()
        .map(|piece| llama_cpp_fragment(piece))
        .collect();
    let calls = assemble(&fragments);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].arguments["expression"], "1d20+3");
    assert_eq!(calls[0].id.len(), 59);
}

#[test]
fn done_without_a_finish_reason_is_an_interrupted_answer() {
    let mut assembler = StreamAssembler::new();
    let mut out = Vec::new();
    let role = r#"{"id":"c","model":"smollm2","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}"#;
    assembler.push("", role, &mut out).unwrap();
    assembler.push("", "[DONE]", &mut out).unwrap();
    let error = assembler.finish().unwrap_err();
    assert!(error.retryable(), "{error:?}");
    assert!(
        error
            .message()
            .contains("[DONE] came without a finish_reason")
    );
}

#[test]
fn a_repeated_id_and_index_with_a_new_object_is_a_new_call() {
    let fragments = vec![
        llama_cpp_fragment("{\"expression\": \"1d20\"}"),
        llama_cpp_fragment("{\"expression\": \"1d6\"}"),
    ];
    let calls = assemble(&fragments);
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert_eq!(calls[1].arguments["expression"], "1d6");
}

#[test]
fn content_past_the_limit_is_an_error_naming_it() {
    let chunk = |delta: &str| format!(r#"{{"choices":[{{"index":0,"delta":{delta}}}]}}"#);
    let mut assembler = StreamAssembler::new().with_content_limit(100);
    let mut out = Vec::new();
    let forty = format!(r#"{{"content":"{}"}}"#, "a".repeat(40));
    assembler.push("", &chunk(&forty), &mut out).unwrap();
    assembler.push("", &chunk(&forty), &mut out).unwrap();
    let error = assembler.push("", &chunk(&forty), &mut out).unwrap_err();
    assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
    assert!(
        error.message().contains("100 bytes") && error.message().contains("stream_content_bytes"),
        "{error}"
    );
    assert_eq!(out.len(), 2, "the text past the limit is not passed on");

    // Reasoning and tool calls count too, and each new call costs its bookkeeping.
    let mut assembler = StreamAssembler::new().with_content_limit(1000);
    let reasoning = format!(r#"{{"reasoning":"{}"}}"#, "r".repeat(600));
    assembler.push("", &chunk(&reasoning), &mut out).unwrap();
    let call = chunk(r#"{"tool_calls":[{"function":{"name":"look_around"}}]}"#);
    let calls = (0..10).find_map(|_| assembler.push("", &call, &mut out).err());
    assert!(
        calls.is_some(),
        "ten new calls on 600 bytes of reasoning pass 1000 bytes"
    );
}
