//! The `model_call` span: its fields are written for a call, and the key is never among them.
//!
//! A test binary of its own: tracing caches which call sites are enabled for the whole
//! process, so a scoped subscriber beside other tests running on other threads may miss
//! events. Alone in its process, it sees them all.

#[allow(dead_code)] // endings and readers other tests use
#[path = "it/server.rs"]
mod server;
#[path = "it/settings.rs"]
mod settings;

use std::io::Write;
use std::sync::{Arc, Mutex};

use dnd_engine::llm::{CompletionRequest, LlmProvider, Message};
use dnd_llm_openai::OpenAiProvider;
use futures::StreamExt;
use serde_json::json;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::fmt::format::FmtSpan;

use crate::server::{Ending, Reply, TestServer, pieces_of};

/// The key the test configures; it must never appear in the log.
const KEY: &str = "sk-test-7d2f0c9a1b4e4f6a8c3d5e7f9a1b2c3d";

/// The text of a fixture file.
fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn config(base_url: &str) -> dnd_llm_openai::OpenAiConfig {
    settings::test_config(base_url, "gpt-4o-mini", KEY)
}

/// Everything the subscriber writes, kept for the test to read.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

#[tokio::test]
async fn a_call_is_one_span_with_its_tokens_and_no_key() {
    let echo = json!({"error": {"message": format!("Incorrect API key provided: {KEY}"), "type": "invalid_request_error"}});
    let server = TestServer::start(vec![
        Reply::json_text(200, &fixture("openai_text.json")),
        Reply::stream(pieces_of(&fixture("openai_text.sse"), 64), Ending::Chunked),
        Reply::json(401, &echo),
    ])
    .await;
    let captured = Captured::default();
    // Everything, at every level, from every crate: whatever the filter, no key.
    let subscriber = tracing_subscriber::fmt()
        .with_writer(captured.clone())
        .with_max_level(tracing::Level::TRACE)
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let request = CompletionRequest::new(vec![Message::user("I open the door.")]);
    provider.complete(&request).await.unwrap();
    let events: Vec<_> = provider.stream(&request).collect().await;
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    provider.complete(&request).await.unwrap_err();
    drop(provider);

    let log = captured.text();
    assert!(
        !log.contains(KEY) && !log.contains(&KEY[8..]),
        "the key in the log: {log}"
    );
    assert!(!log.to_ascii_lowercase().contains("bearer"), "{log}");
    let calls = log.lines().filter(|l| l.contains("model call")).count();
    assert_eq!(calls, 3, "one event per call: {log}");
    for field in [
        "model_call{provider=openai model=gpt-4o-mini streamed=false",
        "input_tokens=1217",
        "output_tokens=",
        "cached_tokens=",
        "latency_ms=",
        "outcome=\"ok\"",
        "streamed=true",
        "outcome=\"auth\"",
    ] {
        assert!(log.contains(field), "no `{field}` in the log: {log}");
    }
}
