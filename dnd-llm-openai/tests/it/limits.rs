//! Hostile servers: streams of keep-alive comments with no data, bodies and streams that
//! never end. Each must end in a typed error within a bounded time and memory; every test is
//! wrapped in a deadline so a regression fails instead of hanging the run.

use std::future::Future;
use std::time::{Duration, Instant};

#[cfg(feature = "speech")]
use dnd_engine::llm::Speaker;
use dnd_engine::llm::{CompletionRequest, LlmError, LlmProvider, Message, StreamEvent};
use dnd_llm_openai::OpenAiProvider;
#[cfg(feature = "speech")]
use dnd_llm_openai::SpeechOptions;
use dnd_llm_openai::http::ResponseLimits;
use futures::StreamExt;

use crate::config;
use crate::server::{Ending, Piece, Reply, TestServer};

/// How long any of these tests may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(10);

/// `future`'s output, or a failed test if it takes longer than [`HANG`].
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(HANG, future)
        .await
        .expect("the call ended (no hang)")
}

fn request() -> CompletionRequest {
    CompletionRequest::new(vec![Message::user("I wait by the fire.")])
}

/// The first chunk of a real stream: the assistant's role, no text.
const ROLE_EVENT: &str = "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n";

/// Everything a keep-alive can look like: a comment, an event with no data, an `id` alone,
/// a blank line. None of it is data.
const KEEP_ALIVE: &[u8] = b": keep-alive\n\nevent: ping\n\nid: 7\n\n\n";

fn limited(base_url: &str, limits: ResponseLimits) -> OpenAiProvider {
    OpenAiProvider::new(config(base_url).with_limits(limits)).unwrap()
}

async fn stream_events(provider: &OpenAiProvider) -> Vec<Result<StreamEvent, LlmError>> {
    bounded(provider.stream(&request()).collect()).await
}

fn last_error(events: &[Result<StreamEvent, LlmError>]) -> &LlmError {
    match events.last() {
        Some(Err(error)) => error,
        other => panic!("the stream did not end with an error: {other:?}"),
    }
}

#[tokio::test]
async fn keep_alive_comments_alone_never_reset_the_idle_timeout() {
    // Comments every 50 ms forever, before any data and after some.
    for head in [Vec::new(), ROLE_EVENT.as_bytes().to_vec()] {
        let pieces = vec![
            Piece::Bytes(head.clone()),
            Piece::Forever(KEEP_ALIVE.to_vec(), Duration::from_millis(50)),
        ];
        let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
        let provider = OpenAiProvider::new(
            config(&server.base_url).with_idle_timeout(Duration::from_millis(300)),
        )
        .unwrap();
        let started = Instant::now();
        let events = stream_events(&provider).await;
        let elapsed = started.elapsed();
        let error = last_error(&events);
        assert!(matches!(error, LlmError::Timeout { .. }), "{error:?}");
        assert!(error.retryable());
        assert!(
            error.message().contains("no data arrived for 0.3 s")
                && error.message().contains("keep-alive comments do not count"),
            "{error}"
        );
        assert!(
            elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(3),
            "cut after {elapsed:?}"
        );
        assert_eq!(
            server.requests().len(),
            1,
            "a started stream is not retried"
        );
    }
}

#[tokio::test]
async fn data_keeps_a_slow_stream_open_past_the_idle_timeout() {
    // Each event arrives 200 ms after the last (comments between them), 1.2 s in all, with an
    // idle timeout of 300 ms: only the gaps between data count.
    let text = crate::fixture("openai_text.sse");
    let mut pieces = Vec::new();
    for event in text.split_inclusive("\n\n") {
        pieces.push(Piece::Bytes(event.as_bytes().to_vec()));
        if event.starts_with(':') {
            continue; // the fixture's own comments: no data, so no pause after them
        }
        pieces.push(Piece::Sleep(Duration::from_millis(100)));
        pieces.push(Piece::Bytes(b": keep-alive\n\n".to_vec()));
        pieces.push(Piece::Sleep(Duration::from_millis(100)));
    }
    let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
    let provider =
        OpenAiProvider::new(config(&server.base_url).with_idle_timeout(Duration::from_millis(300)))
            .unwrap();
    let started = Instant::now();
    let events = stream_events(&provider).await;
    assert!(started.elapsed() >= Duration::from_millis(600));
    match events.last() {
        Some(Ok(StreamEvent::Done(response))) => {
            assert_eq!(response.text(), Some("The ice cracks under your boots."));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_body_declared_larger_than_the_limit_is_refused_unread() {
    let reply = Reply::json_text(200, "{}").header("content-length", "300000000");
    let server = TestServer::start(vec![reply]).await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let error = bounded(provider.complete(&request())).await.unwrap_err();
    assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
    assert!(
        error.message().contains("8 MiB (8388608 bytes)")
            && error.message().contains("ResponseLimits::body_bytes"),
        "the default limit and how to raise it: {error}"
    );
    assert!(!error.retryable());
    assert_eq!(server.requests().len(), 1, "not retried");
}

#[tokio::test]
async fn an_endless_body_is_cut_at_the_limit() {
    // No length, no end: `{"choices":[{"message":{"content":"aaaa...` forever.
    for ending in [Ending::Close, Ending::Chunked] {
        let reply = Reply {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            pieces: vec![
                Piece::Bytes(br#"{"choices":[{"message":{"content":""#.to_vec()),
                Piece::Forever(vec![b'a'; 16 * 1024], Duration::ZERO),
            ],
            ending: Some(ending),
        };
        let server = TestServer::start(vec![reply]).await;
        let provider = limited(
            &server.base_url,
            ResponseLimits {
                body_bytes: 256 * 1024,
                ..ResponseLimits::default()
            },
        );
        let started = Instant::now();
        let error = bounded(provider.complete(&request())).await.unwrap_err();
        assert!(
            matches!(error, LlmError::BadResponse { .. }),
            "{ending:?}: {error:?}"
        );
        assert!(
            error
                .message()
                .contains("the response body passed the limit of 256 KiB"),
            "{error}"
        );
        // Read as it came: the error arrives at the limit, not at the request timeout.
        assert!(started.elapsed() < Duration::from_secs(5), "{ending:?}");
    }
}

/// One stream event of `delta`.
fn delta_event(delta: &str) -> Vec<u8> {
    format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{delta}}}]}}\n\n").into_bytes()
}

#[tokio::test]
async fn an_endless_answer_is_cut_at_the_content_limit() {
    let words = "the glacier wails ".repeat(60);
    let text = delta_event(&format!("{{\"content\":\"{words}\"}}"));
    let arguments = format!("{{\\\"note\\\":\\\"{words}");
    let tool_call = delta_event(&format!(
        "{{\"tool_calls\":[{{\"index\":0,\"id\":\"c\",\"function\":{{\"name\":\"roll_dice\",\"arguments\":\"{arguments}\"}}}}]}}"
    ));
    // A call without arguments or index: each fragment is a new call, tiny but not free.
    let many_calls = delta_event(r#"{"tool_calls":[{"function":{"name":"look_around"}}]}"#);
    for (what, event) in [
        ("text", text),
        ("tool call", tool_call),
        ("calls", many_calls),
    ] {
        let pieces = vec![
            Piece::Bytes(ROLE_EVENT.as_bytes().to_vec()),
            Piece::Forever(event, Duration::ZERO),
        ];
        let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
        let limit = 64 * 1024;
        let provider = limited(
            &server.base_url,
            ResponseLimits {
                stream_content_bytes: limit,
                ..ResponseLimits::default()
            },
        );
        let events = stream_events(&provider).await;
        let error = last_error(&events);
        assert!(
            matches!(error, LlmError::BadResponse { .. }),
            "{what}: {error:?}"
        );
        assert!(
            error.message().contains("passed the limit of 64 KiB")
                && error
                    .message()
                    .contains("ResponseLimits::stream_content_bytes"),
            "{what}: {error}"
        );
        let shown: usize = events
            .iter()
            .filter_map(|e| match e {
                Ok(StreamEvent::TextDelta(text)) => Some(text.len()),
                _ => None,
            })
            .sum();
        assert!(shown <= limit, "{what}: {shown} bytes of text passed on");
    }
}

#[tokio::test]
async fn an_endless_stream_without_content_is_cut_at_the_byte_limit() {
    // Empty deltas (data, so the idle timeout never fires), and one line that never ends.
    for forever in [delta_event("{}"), vec![b'x'; 4096]] {
        let pieces = vec![
            Piece::Bytes(ROLE_EVENT.as_bytes().to_vec()),
            Piece::Forever(forever, Duration::ZERO),
        ];
        let server = TestServer::start(vec![Reply::stream(pieces, Ending::Chunked)]).await;
        let provider = limited(
            &server.base_url,
            ResponseLimits {
                stream_bytes: 128 * 1024,
                ..ResponseLimits::default()
            },
        );
        let events = stream_events(&provider).await;
        let error = last_error(&events);
        assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
        assert!(
            error
                .message()
                .contains("the streamed response passed the limit of 128 KiB")
                && error.message().contains("ResponseLimits::stream_bytes"),
            "{error}"
        );
    }
}

#[cfg(feature = "speech")]
#[tokio::test]
async fn audio_larger_than_its_limit_is_refused() {
    let server = TestServer::start(vec![
        Reply::body(200, "audio/mpeg", vec![0u8; 4096]),
        Reply::body(200, "audio/mpeg", vec![0u8; 4096]),
    ])
    .await;
    let speech = |max_audio_bytes| SpeechOptions {
        max_audio_bytes,
        ..SpeechOptions::default()
    };
    let small = OpenAiProvider::new(config(&server.base_url).with_speech(speech(1024))).unwrap();
    let error = bounded(small.speak("The glacier wails."))
        .await
        .unwrap_err();
    assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
    assert!(
        error.message().contains("1 KiB")
            && error.message().contains("SpeechOptions::max_audio_bytes"),
        "{error}"
    );
    // The chat body limit does not apply to audio.
    let provider = limited(
        &server.base_url,
        ResponseLimits {
            body_bytes: 1024,
            ..ResponseLimits::default()
        },
    );
    let audio = bounded(provider.speak("The glacier wails.")).await.unwrap();
    assert_eq!(audio.bytes.len(), 4096);
}
