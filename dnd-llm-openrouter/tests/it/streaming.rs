//! Streamed answers through the scripted server.

use std::time::{Duration, Instant};

use dnd_engine::llm::{CompletionRequest, LlmError, LlmProvider, Message, StreamEvent};
use dnd_llm_openrouter::OpenRouterProvider;
use futures::StreamExt;

use crate::server::{Ending, Piece, Reply, TestServer, pieces_of};
use crate::{assert_no_key, config, fixture, provider};

async fn collect(
    provider: &OpenRouterProvider,
    request: &CompletionRequest,
) -> Vec<Result<StreamEvent, LlmError>> {
    provider.stream(request).collect().await
}

#[tokio::test]
async fn a_streamed_answer_with_keep_alive_comments() {
    let server = TestServer::start(vec![Reply::stream(
        pieces_of(&fixture("stream.sse"), 37),
        Ending::Chunked,
    )])
    .await;
    let provider = provider(&server.base_url, "anthropic/claude-haiku-4.5");
    let request = CompletionRequest::new(vec![Message::user("Does the bridge hold?")]);
    let events = collect(&provider, &request).await;
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            Ok(StreamEvent::TextDelta(text)) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "The ice bridge holds.");
    let Some(Ok(StreamEvent::Done(response))) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!(response.text(), Some("The ice bridge holds."));
    assert_eq!(
        response.model.as_deref(),
        Some("anthropic/claude-haiku-4.5")
    );
    assert_eq!(response.usage.cost, Some(0.001868));
    assert_eq!(response.usage.cached_tokens, 1536);
    let sent = server.requests()[0].json();
    assert_eq!(sent["stream"], true);
    assert_eq!(
        server.requests()[0].header("accept"),
        Some("text/event-stream")
    );
}

#[tokio::test]
async fn keep_alive_comments_keep_a_slow_stream_open_past_the_idle_timeout() {
    let keep_alive = || Piece::Bytes(b": OPENROUTER PROCESSING\n\n".to_vec());
    let mut pieces = Vec::new();
    for _ in 0..5 {
        pieces.push(keep_alive());
        pieces.push(Piece::Sleep(Duration::from_millis(150)));
    }
    pieces.extend(pieces_of(&fixture("stream.sse"), 512));
    let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
    let provider = OpenRouterProvider::new(
        config(&server.base_url, "anthropic/claude-haiku-4.5")
            .with_idle_timeout(Duration::from_millis(400)),
    )
    .unwrap();
    let started = Instant::now();
    let events = collect(&provider, &CompletionRequest::new(vec![Message::user("?")])).await;
    assert!(started.elapsed() >= Duration::from_millis(700));
    assert!(
        matches!(events.last(), Some(Ok(StreamEvent::Done(_)))),
        "{events:?}"
    );

    // Silence (no comments) for longer than the idle timeout ends the stream with an error.
    let silent = TestServer::start(vec![Reply::stream(
        vec![Piece::Sleep(Duration::from_millis(900))],
        Ending::Chunked,
    )])
    .await;
    let provider = OpenRouterProvider::new(
        config(&silent.base_url, "anthropic/claude-haiku-4.5")
            .with_idle_timeout(Duration::from_millis(300)),
    )
    .unwrap();
    let events = collect(&provider, &CompletionRequest::new(vec![Message::user("?")])).await;
    assert!(
        matches!(events.last(), Some(Err(LlmError::Timeout { .. }))),
        "{events:?}"
    );
}

#[tokio::test]
async fn an_error_after_the_stream_began_is_typed_with_its_code() {
    let stream = "\
: OPENROUTER PROCESSING

data: {\"id\":\"gen-1\",\"model\":\"openai/gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The \"},\"finish_reason\":null}]}

data: {\"id\":\"gen-1\",\"model\":\"openai/gpt-4o\",\"error\":{\"code\":502,\"message\":\"Provider disconnected\",\"metadata\":{\"provider_name\":\"Azure\"}},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}

";
    let server =
        TestServer::start(vec![Reply::stream(pieces_of(stream, 64), Ending::Chunked)]).await;
    let events = collect(
        &provider(&server.base_url, "openai/gpt-4o"),
        &CompletionRequest::new(vec![Message::user("?")]),
    )
    .await;
    assert!(matches!(events[0], Ok(StreamEvent::TextDelta(_))));
    let Some(Err(error)) = events.last() else {
        panic!("{events:?}");
    };
    assert!(
        matches!(
            error,
            LlmError::Server {
                status: Some(502),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.message().contains("provider: Azure"), "{error}");
    assert_eq!(
        server.requests().len(),
        1,
        "a started stream is never retried"
    );
    assert_no_key(error);
}

#[tokio::test]
async fn a_refused_stream_is_not_retried() {
    let flagged = serde_json::json!({"error": {"code": 403, "message": "Your input was flagged", "metadata": {"reasons": ["self-harm"], "flagged_input": "...", "provider_name": "OpenAI", "model_slug": "openai/gpt-4o"}}});
    let server = TestServer::start(vec![Reply::json(403, &flagged)]).await;
    let events = collect(
        &provider(&server.base_url, "openai/gpt-4o"),
        &CompletionRequest::new(vec![Message::user("?")]),
    )
    .await;
    assert_eq!(events.len(), 1);
    assert!(
        matches!(
            events[0],
            Err(LlmError::Refused {
                status: Some(403),
                ..
            })
        ),
        "{events:?}"
    );
    assert_eq!(server.requests().len(), 1);
}
