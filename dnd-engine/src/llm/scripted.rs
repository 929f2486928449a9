//! A provider that replays scripted answers, for tests of everything that talks to a model.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;

use super::error::LlmError;
use super::provider::LlmProvider;
use super::request::CompletionRequest;
use super::response::CompletionResponse;

/// Replays a queue of answers in order and records every request it receives.
///
/// Tests script what "the model" says, run the engine, then assert on
/// [`requests`](ScriptedProvider::requests) to check what the engine sent. When the script
/// runs out, [`complete`](LlmProvider::complete) returns an [`LlmError::Other`] saying so
/// rather than panicking, so the engine's error handling is exercised too.
///
/// Shareable across tasks (`&self` everywhere, a [`Mutex`] inside); a poisoned lock is
/// recovered rather than propagated, since the recorded data stays valid.
///
/// ```
/// use dnd_engine::llm::{CompletionRequest, CompletionResponse, LlmProvider, Message,
///     ScriptedProvider};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let provider = ScriptedProvider::new(vec![Ok(CompletionResponse::from_text("Hello."))]);
/// let request = CompletionRequest::new(vec![Message::user("Hi")]);
/// let response = provider.complete(&request).await.unwrap();
/// assert_eq!(response.text(), Some("Hello."));
/// assert_eq!(provider.requests(), vec![request]);
/// # }
/// ```
#[derive(Debug, Default)]
pub struct ScriptedProvider {
    state: Mutex<State>,
    capabilities: super::Capabilities,
    /// Whether a call refused as not sent, its tool now added, is called again first.
    again: bool,
}

#[derive(Debug, Default)]
struct State {
    script: VecDeque<Result<CompletionResponse, LlmError>>,
    requests: Vec<CompletionRequest>,
    /// Answers replayed from the start whenever the script runs out (a looping script).
    cycle: Vec<CompletionResponse>,
}

impl ScriptedProvider {
    /// A provider that will answer with these results, first to last.
    pub fn new(script: Vec<Result<CompletionResponse, LlmError>>) -> Self {
        ScriptedProvider {
            state: Mutex::new(State {
                script: script.into(),
                requests: Vec::new(),
                cycle: Vec::new(),
            }),
            capabilities: super::Capabilities::default(),
            again: false,
        }
    }

    /// The same provider, calling again, before it goes on with its script, the calls the
    /// game master refused because their tool was not sent and then added to the next round's
    /// tools ([`gm::added_calls`](crate::gm::added_calls)), as a model reading the refusal
    /// does. Its script then holds the model's own answers only, whatever the tools sent.
    pub fn calling_again(mut self) -> Self {
        self.again = true;
        self
    }

    /// The same provider, claiming these capabilities (to test how the engine adapts to a
    /// model without tool calling or JSON-Schema output).
    pub fn with_capabilities(mut self, capabilities: super::Capabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// A provider that answers with these responses in order, and starts over when it reaches
    /// the end: for long runs (benches, campaigns of hundreds of turns).
    pub fn looping(responses: Vec<CompletionResponse>) -> Self {
        let provider = ScriptedProvider::new(Vec::new());
        provider.lock().cycle = responses;
        provider
    }

    /// Queues an answer after those already scripted.
    pub fn push_response(&self, response: CompletionResponse) {
        self.lock().script.push_back(Ok(response));
    }

    /// Queues an error after the answers already scripted.
    pub fn push_error(&self, error: LlmError) {
        self.lock().script.push_back(Err(error));
    }

    /// Every request received so far, oldest first (including those that got the
    /// "script ran out" error).
    pub fn requests(&self) -> Vec<CompletionRequest> {
        self.lock().requests.clone()
    }

    /// How many scripted results have not been replayed yet.
    pub fn remaining(&self) -> usize {
        self.lock().script.len()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait]
impl LlmProvider for ScriptedProvider {
    fn name(&self) -> &str {
        "scripted"
    }

    fn capabilities(&self) -> super::Capabilities {
        self.capabilities
    }

    async fn complete(&self, req: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let mut state = self.lock();
        state.requests.push(req.clone());
        let number = state.requests.len();
        if self.again && !req.tools.is_empty() {
            let again = crate::gm::added_calls(req);
            if !again.is_empty() {
                return Ok(CompletionResponse::from_tool_calls(again));
            }
        }
        if state.script.is_empty() && !state.cycle.is_empty() {
            let again: Vec<_> = state.cycle.iter().cloned().map(Ok).collect();
            state.script.extend(again);
        }
        state.script.pop_front().unwrap_or_else(|| {
            Err(LlmError::other(format!(
                "ScriptedProvider's script ran out: request {number} has no scripted answer; \
                 script more answers (new, push_response, push_error) or expect fewer calls"
            )))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use futures::StreamExt;
    use serde_json::json;

    use super::*;
    use crate::llm::{Message, StreamEvent, ToolCall, collect_response};

    fn request(text: &str) -> CompletionRequest {
        CompletionRequest::new(vec![Message::user(text)])
    }

    #[tokio::test]
    async fn replays_in_order_and_records_requests() {
        let provider = ScriptedProvider::new(vec![Ok(CompletionResponse::from_text("first"))]);
        provider.push_error(LlmError::timeout("slow"));
        provider.push_response(CompletionResponse::from_text("third"));
        assert_eq!(provider.remaining(), 3);

        let first = provider.complete(&request("a")).await.unwrap();
        assert_eq!(first.text(), Some("first"));
        let second = provider.complete(&request("b")).await.unwrap_err();
        assert_eq!(second, LlmError::timeout("slow"));
        let third = provider.complete(&request("c")).await.unwrap();
        assert_eq!(third.text(), Some("third"));

        assert_eq!(provider.remaining(), 0);
        assert_eq!(
            provider.requests(),
            vec![request("a"), request("b"), request("c")]
        );
    }

    #[tokio::test]
    async fn running_out_is_an_error_not_a_panic() {
        let provider = ScriptedProvider::default();
        let error = provider.complete(&request("a")).await.unwrap_err();
        assert!(matches!(error, LlmError::Other { .. }), "{error:?}");
        assert!(error.to_string().contains("script ran out"), "{error}");
        assert!(error.to_string().contains("request 1"), "{error}");
        assert!(!error.retryable());
        // Still recorded, and still an error the second time.
        assert!(provider.complete(&request("b")).await.is_err());
        assert_eq!(provider.requests().len(), 2);
    }

    #[tokio::test]
    async fn survives_a_poisoned_lock() {
        let provider = Arc::new(ScriptedProvider::new(vec![Ok(
            CompletionResponse::from_text("ok"),
        )]));
        let poisoner = Arc::clone(&provider);
        let joined = std::thread::spawn(move || {
            let _guard = poisoner.state.lock().unwrap();
            panic!("poison the lock");
        })
        .join();
        assert!(joined.is_err());
        assert!(provider.state.is_poisoned());
        let response = provider.complete(&request("a")).await.unwrap();
        assert_eq!(response.text(), Some("ok"));
        assert_eq!(provider.requests().len(), 1);
    }

    #[tokio::test]
    async fn default_stream_yields_text_then_tool_calls_then_done() {
        let call_1 = ToolCall::new("c1", "roll", json!({"notation": "1d20"}));
        let call_2 = ToolCall::new("c2", "look", json!({}));
        let response = CompletionResponse {
            message: Message::Assistant {
                content: Some("Let me roll.".into()),
                tool_calls: vec![call_1.clone(), call_2.clone()],
                reasoning: None,
            },
            ..CompletionResponse::from_tool_calls(Vec::new())
        };
        let provider = ScriptedProvider::new(vec![Ok(response.clone())]);
        let req = request("attack");
        let events: Vec<_> = provider.stream(&req).collect().await;
        assert_eq!(
            events,
            vec![
                Ok(StreamEvent::TextDelta("Let me roll.".into())),
                Ok(StreamEvent::ToolCall(call_1)),
                Ok(StreamEvent::ToolCall(call_2)),
                Ok(StreamEvent::Done(response)),
            ]
        );
        assert_eq!(provider.requests(), vec![req]);
    }

    #[tokio::test]
    async fn default_stream_skips_missing_text_and_passes_errors() {
        let provider = ScriptedProvider::new(vec![
            Ok(CompletionResponse::from_tool_calls(Vec::new())),
            Err(LlmError::rate_limited(Some(Duration::from_secs(1)), "wait")),
        ]);
        let req = request("a");
        let events: Vec<_> = provider.stream(&req).collect().await;
        assert_eq!(events.len(), 1);
        assert!(matches!(events[0], Ok(StreamEvent::Done(_))));
        let events: Vec<_> = provider.stream(&req).collect().await;
        assert_eq!(
            events,
            vec![Err(LlmError::rate_limited(
                Some(Duration::from_secs(1)),
                "wait"
            ))]
        );
    }

    #[tokio::test]
    async fn collect_response_returns_done_or_explains() {
        let provider = ScriptedProvider::new(vec![Ok(CompletionResponse::from_text("hi"))]);
        let req = request("a");
        let response = collect_response(provider.stream(&req)).await.unwrap();
        assert_eq!(response.text(), Some("hi"));

        let no_done = futures::stream::iter(vec![Ok(StreamEvent::TextDelta("x".into()))]);
        let error = collect_response(no_done).await.unwrap_err();
        assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
    }

    #[tokio::test]
    async fn works_behind_every_kind_of_pointer() {
        let boxed: Box<dyn LlmProvider> = Box::new(ScriptedProvider::new(vec![
            Ok(CompletionResponse::from_text("boxed")),
            Ok(CompletionResponse::from_text("by reference")),
        ]));
        assert_eq!(boxed.name(), "scripted");
        let response = boxed.complete(&request("a")).await.unwrap();
        assert_eq!(response.text(), Some("boxed"));
        let by_ref: &dyn LlmProvider = &boxed;
        let response = collect_response(by_ref.stream(&request("b")))
            .await
            .unwrap();
        assert_eq!(response.text(), Some("by reference"));

        let shared: Arc<dyn LlmProvider> = Arc::new(ScriptedProvider::new(vec![Ok(
            CompletionResponse::from_text("shared"),
        )]));
        let task = tokio::spawn({
            let shared = Arc::clone(&shared);
            async move { shared.complete(&request("c")).await }
        });
        assert_eq!(task.await.unwrap().unwrap().text(), Some("shared"));
        assert_eq!(shared.name(), "scripted");
    }
}
