//! Streamed answers through the scripted server.

use std::time::{Duration, Instant};

use dnd_engine::llm::{CompletionRequest, LlmError, LlmProvider, Message, StreamEvent};
use dnd_llm_openai::http::ResponseLimits;
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
async fn keep_alive_comments_are_skipped_but_do_not_hold_a_stream_open() {
    let keep_alive = || Piece::Bytes(b": OPENROUTER PROCESSING\n\n".to_vec());
    let idle = Duration::from_millis(400);
    let request = CompletionRequest::new(vec![Message::user("?")]);

    // Comments within the idle timeout, then the answer: comments are skipped.
    let mut pieces = vec![
        keep_alive(),
        Piece::Sleep(Duration::from_millis(150)),
        keep_alive(),
    ];
    pieces.extend(pieces_of(&fixture("stream.sse"), 512));
    let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
    let provider = OpenRouterProvider::new(
        config(&server.base_url, "anthropic/claude-haiku-4.5").with_idle_timeout(idle),
    )
    .unwrap();
    let events = collect(&provider, &request).await;
    assert!(
        matches!(events.last(), Some(Ok(StreamEvent::Done(_)))),
        "{events:?}"
    );

    // Only comments, every 100 ms, for longer than the idle timeout: no data, so the stream
    // is cut (it once counted them as activity and waited for ever).
    let mut pieces = Vec::new();
    // Six seconds of comments: a stream that waited them out would take that long, one cut at
    // the idle timeout far less, however loaded the machine.
    for _ in 0..60 {
        pieces.push(keep_alive());
        pieces.push(Piece::Sleep(Duration::from_millis(100)));
    }
    pieces.extend(pieces_of(&fixture("stream.sse"), 512));
    let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
    let provider = OpenRouterProvider::new(
        config(&server.base_url, "anthropic/claude-haiku-4.5").with_idle_timeout(idle),
    )
    .unwrap();
    let started = Instant::now();
    let events = collect(&provider, &request).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let Some(Err(error)) = events.last() else {
        panic!("{events:?}");
    };
    assert!(matches!(error, LlmError::Timeout { .. }), "{error:?}");
    assert!(error.message().contains("no data arrived"), "{error}");

    // Silence (no comments) for longer than the idle timeout ends the stream the same way.
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
    let events = collect(&provider, &request).await;
    assert!(
        matches!(events.last(), Some(Err(LlmError::Timeout { .. }))),
        "{events:?}"
    );
}

#[tokio::test]
async fn the_configured_limits_bound_a_stream() {
    let words = "the bridge holds ".repeat(60);
    let event = format!(
        "data: {{\"id\":\"gen-1\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{words}\"}}}}]}}\n\n"
    );
    let server = TestServer::start(vec![Reply::stream(
        vec![Piece::Forever(event.into_bytes(), Duration::ZERO)],
        Ending::Chunked,
    )])
    .await;
    let provider = OpenRouterProvider::new(config(&server.base_url, "openai/gpt-4o").with_limits(
        ResponseLimits {
            stream_content_bytes: 32 * 1024,
            ..ResponseLimits::default()
        },
    ))
    .unwrap();
    let request = CompletionRequest::new(vec![Message::user("?")]);
    let events = tokio::time::timeout(Duration::from_secs(10), collect(&provider, &request))
        .await
        .expect("the stream ends (no hang)");
    let Some(Err(error)) = events.last() else {
        panic!("{events:?}");
    };
    assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
    assert!(
        error.message().contains("32 KiB")
            && error
                .message()
                .contains("ResponseLimits::stream_content_bytes"),
        "{error}"
    );
    assert_no_key(error);
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
    assert_eq!(
        (error.kind(), error.status()),
        ("server", Some(502)),
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
