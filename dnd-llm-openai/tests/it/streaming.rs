//! Streamed answers through the scripted server.

use std::time::{Duration, Instant};

use dnd_engine::llm::{
    CompletionRequest, CompletionResponse, FinishReason, LlmError, LlmProvider, Message,
    StreamEvent, collect_response,
};
use dnd_llm_openai::OpenAiProvider;
use dnd_llm_openai::stream::StreamAssembler;
use futures::StreamExt;
use serde_json::json;

use crate::server::{Ending, Piece, Reply, TestServer, pieces_of};
use crate::{assert_no_key, config, fixture, look_tool, roll_tool};

fn request() -> CompletionRequest {
    CompletionRequest::new(vec![Message::user("I step onto the ice.")])
        .with_tools(vec![roll_tool(), look_tool()])
}

async fn events_of(
    provider: &OpenAiProvider,
    request: &CompletionRequest,
) -> Vec<Result<StreamEvent, LlmError>> {
    provider.stream(request).collect().await
}

fn done(events: &[Result<StreamEvent, LlmError>]) -> &CompletionResponse {
    match events.last() {
        Some(Ok(StreamEvent::Done(response))) => response,
        other => panic!("the last event is not Done: {other:?}"),
    }
}

#[tokio::test]
async fn streamed_text_in_many_small_chunks() {
    let server = TestServer::start(vec![Reply::stream(
        pieces_of(&fixture("openai_text.sse"), 7),
        Ending::Chunked,
    )])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let events = events_of(&provider, &request()).await;
    let deltas: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Ok(StreamEvent::TextDelta(text)) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, ["The ice", " cracks", " under your boots."]);
    let response = done(&events);
    assert_eq!(response.text(), Some("The ice cracks under your boots."));
    assert_eq!(response.finish_reason, FinishReason::Stop);
    assert_eq!(
        (response.usage.prompt_tokens, response.usage.cached_tokens),
        (950, 768)
    );
    assert_eq!(response.model.as_deref(), Some("gpt-4o-mini-2024-07-18"));

    let sent = server.requests()[0].json();
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["stream_options"], json!({"include_usage": true}));
    assert_eq!(
        server.requests()[0].header("accept"),
        Some("text/event-stream")
    );
}

#[tokio::test]
async fn streamed_tool_calls_interleaved_by_index() {
    let server = TestServer::start(vec![Reply::stream(
        pieces_of(&fixture("openai_tool_calls.sse"), 11),
        Ending::Chunked,
    )])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let events = events_of(&provider, &request()).await;
    let response = done(&events);
    let calls = response.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("call_A1", "roll_dice")
    );
    assert_eq!(calls[0].arguments, json!({"notation": "1d20+5"}));
    assert_eq!(
        (calls[1].id.as_str(), calls[1].arguments.clone()),
        ("call_B2", json!({}))
    );
    assert_eq!(response.finish_reason, FinishReason::ToolCalls);
    assert_eq!(response.usage.completion_tokens, 31);
    let announced: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Ok(StreamEvent::ToolCall(call)) => Some(call.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(announced, calls);
}

#[tokio::test]
async fn quirky_tool_calls_missing_ids_repeated_indexes_objects_and_no_done() {
    let server = TestServer::start(vec![Reply::stream(
        pieces_of(&fixture("quirky_tool_calls.sse"), 5),
        Ending::Close,
    )])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let response = collect_response(provider.stream(&request())).await.unwrap();
    assert_eq!(response.text(), Some("Rolling."));
    let calls = response.tool_calls();
    let shape: Vec<(&str, serde_json::Value)> = calls
        .iter()
        .map(|c| (c.name.as_str(), c.arguments.clone()))
        .collect();
    assert_eq!(
        shape,
        vec![
            ("roll_dice", json!({"notation": "1d20+5"})),
            ("roll_dice", json!({"notation": "2d6"})),
            ("look_around", json!({})),
            ("roll_dice", json!({"notation": "1d4"})),
            ("roll_dice", json!("rolls a d6")),
        ]
    );
    assert_eq!(calls[3].id, "dup");
    assert_eq!(calls[4].provider_id.as_deref(), Some("dup"));
    let ids: std::collections::HashSet<_> = calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), 5, "every call has its own id");
    assert_eq!(response.usage.total_tokens(), 640);
}

#[tokio::test]
async fn a_stalled_stream_hits_the_idle_timeout() {
    let text = fixture("openai_text.sse");
    let (head, _) = text.split_at(text.find("data: {\"id\":\"chatcmpl-BMqT1\",\"object\":\"chat.completion.chunk\",\"created\":1744822500,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" cracks").unwrap());
    let mut pieces = pieces_of(head, 64);
    pieces.push(Piece::Sleep(Duration::from_secs(30)));
    let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
    let provider =
        OpenAiProvider::new(config(&server.base_url).with_idle_timeout(Duration::from_millis(300)))
            .unwrap();
    let started = Instant::now();
    let events = events_of(&provider, &request()).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    assert!(
        matches!(events.first(), Some(Ok(StreamEvent::TextDelta(t))) if t == "The ice"),
        "{events:?}"
    );
    let error = events.last().unwrap().as_ref().unwrap_err();
    assert!(matches!(error, LlmError::Timeout { .. }), "{error:?}");
    assert!(error.to_string().contains("stalled"), "{error}");
    assert_eq!(
        server.requests().len(),
        1,
        "a stream with data is never retried"
    );
}

#[tokio::test]
async fn a_stream_cut_short_is_an_error_not_a_short_answer() {
    for ending in [Ending::Close, Ending::ChunkedCut] {
        let server = TestServer::start(vec![Reply::stream(
            pieces_of(&fixture("cut_short.sse"), 9),
            ending,
        )])
        .await;
        let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
        let error = collect_response(provider.stream(&request()))
            .await
            .unwrap_err();
        assert!(
            matches!(error, LlmError::Server { status: None, .. }),
            "{ending:?}: {error:?}"
        );
        assert_eq!(
            server.requests().len(),
            1,
            "{ending:?}: never retried once data arrived"
        );
    }
}

#[tokio::test]
async fn an_error_after_http_200_is_surfaced() {
    let server = TestServer::start(vec![Reply::stream(
        pieces_of(&fixture("error_after_200.sse"), 13),
        Ending::Chunked,
    )])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let events = events_of(&provider, &request()).await;
    assert!(matches!(&events[0], Ok(StreamEvent::TextDelta(t)) if t == "The dragon"));
    let error = events.last().unwrap().as_ref().unwrap_err();
    assert_eq!(
        (error.kind(), error.status()),
        ("server", Some(502)),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("Provider disconnected"),
        "{error}"
    );
    assert_no_key(error);
}

#[tokio::test]
async fn errors_before_the_stream_starts_are_retried() {
    let oops = json!({"error": {"message": "overloaded", "type": "server_error"}});
    let server = TestServer::start(vec![
        Reply::json(503, &oops),
        Reply::stream(pieces_of(&fixture("openai_text.sse"), 50), Ending::Chunked),
    ])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let response = collect_response(provider.stream(&request())).await.unwrap();
    assert_eq!(response.text(), Some("The ice cracks under your boots."));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn servers_that_cannot_stream_tool_calls_are_asked_plainly() {
    let server = TestServer::start(vec![Reply::json_text(
        200,
        &fixture("openai_tool_calls.json"),
    )])
    .await;
    let provider =
        OpenAiProvider::new(config(&server.base_url).with_stream_tool_calls(false)).unwrap();
    let response = collect_response(provider.stream(&request())).await.unwrap();
    assert_eq!(response.tool_calls().len(), 2);
    assert!(server.requests()[0].json().get("stream").is_none());
}

#[test]
fn the_assembler_alone_handles_missing_indexes_and_reasoning() {
    let mut assembler = StreamAssembler::new();
    let mut out = Vec::new();
    let chunks = [
        r#"{"choices":[{"delta":{"reasoning_content":"Think"}}]}"#,
        r#"{"choices":[{"delta":{"reasoning_content":"ing."}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"id":"g1","function":{"name":"look_around","arguments":"{}"}},{"id":"g2","function":{"name":"roll_dice","arguments":"{\"notation\":\"1d6\"}"}}]}}]}"#,
        r#"{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}"#,
        "[DONE]",
    ];
    for chunk in chunks {
        assembler.push("", chunk, &mut out).unwrap();
    }
    assert!(assembler.is_done());
    let events = assembler.finish().unwrap();
    let Some(StreamEvent::Done(response)) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(response.tool_calls().len(), 2);
    assert_eq!(response.tool_calls()[1].id, "g2");
    let reasoning = response.message.reasoning().unwrap();
    assert_eq!(reasoning.text.as_deref(), Some("Thinking."));
    assert_eq!(reasoning.field.as_deref(), Some("reasoning_content"));

    let mut bad = StreamAssembler::new();
    let error = bad.push("", "not json", &mut out).unwrap_err();
    assert!(matches!(error, LlmError::BadResponse { .. }));
    let error = StreamAssembler::new().finish().unwrap_err();
    assert!(
        error
            .to_string()
            .contains("ended before the answer was complete"),
        "{error}"
    );
}
