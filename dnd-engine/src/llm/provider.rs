//! The one trait every model backend implements, and the events of a streamed answer.

use std::sync::Arc;

use async_trait::async_trait;
use futures::stream::{self, BoxStream, Stream, StreamExt};
use serde::{Deserialize, Serialize};

use super::error::LlmError;
use super::message::ToolCall;
use super::request::CompletionRequest;
use super::response::CompletionResponse;

/// One piece of a streamed answer.
///
/// A stream yields any number of [`TextDelta`](StreamEvent::TextDelta)s and
/// [`ToolCall`](StreamEvent::ToolCall)s, then exactly one [`Done`](StreamEvent::Done) as its
/// last event, or an error. `Done` carries the whole assembled response, so a consumer that
/// only shows text as it arrives can still act on the final response without re-assembling it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamEvent {
    /// More of the answer's text, to append to what came before.
    TextDelta(String),
    /// A complete tool call (adapters assemble the wire's argument fragments first).
    ToolCall(ToolCall),
    /// The final assembled response; always the last event.
    Done(CompletionResponse),
}

impl StreamEvent {
    /// The events a stream of this complete response would yield: its text as one
    /// [`TextDelta`](StreamEvent::TextDelta) (if it has non-empty text), each tool call, then
    /// [`Done`](StreamEvent::Done).
    pub fn from_response(response: CompletionResponse) -> Vec<StreamEvent> {
        let mut events = Vec::with_capacity(response.tool_calls().len() + 2);
        if let Some(text) = response.text().filter(|text| !text.is_empty()) {
            events.push(StreamEvent::TextDelta(text.to_owned()));
        }
        events.extend(
            response
                .tool_calls()
                .iter()
                .cloned()
                .map(StreamEvent::ToolCall),
        );
        events.push(StreamEvent::Done(response));
        events
    }
}

/// Drains a stream of [`StreamEvent`]s and returns the final response from its
/// [`Done`](StreamEvent::Done) event.
///
/// # Errors
///
/// The stream's first error, or [`LlmError::BadResponse`] if it ends without a `Done` event.
pub async fn collect_response<S>(mut events: S) -> Result<CompletionResponse, LlmError>
where
    S: Stream<Item = Result<StreamEvent, LlmError>> + Unpin,
{
    while let Some(event) = events.next().await {
        if let StreamEvent::Done(response) = event? {
            return Ok(response);
        }
    }
    Err(LlmError::bad_response(
        "the stream ended before its final response (no Done event)",
    ))
}

/// What a provider, and the model behind it, can do. The engine adapts: without tool calling
/// it uses the one-call JSON protocol; without JSON-Schema output it puts the schema in the
/// prompt and validates the answer itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Capabilities {
    /// The model can call tools.
    pub tool_calling: bool,
    /// The provider enforces a JSON Schema on the answer ("structured outputs").
    pub json_schema: bool,
    /// The provider can force any valid JSON object ("JSON mode").
    pub json_mode: bool,
    /// How many tokens the model reads and writes in one call (its context window), when
    /// known: every request the engine sends is cut to fit it with room for the answer
    /// (`llm::window`). `None` (the default) sends requests as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window: Option<u32>,
}

impl Capabilities {
    /// These capabilities with a context window of `tokens`.
    pub fn with_context_window(mut self, tokens: u32) -> Self {
        self.context_window = Some(tokens);
        self
    }
}

impl Default for Capabilities {
    /// Everything: what the large hosted models offer.
    fn default() -> Self {
        Capabilities {
            tool_calling: true,
            json_schema: true,
            json_mode: true,
            context_window: None,
        }
    }
}

/// A language model backend: an HTTP adapter, a local model, a scripted fake.
///
/// The engine holds providers as `Box<dyn LlmProvider>` or `Arc<dyn LlmProvider>` and never
/// learns which one it talks to. `&P`, `Box<P>` and `Arc<P>` are providers whenever `P` is,
/// forwarding every method (including a custom [`stream`](LlmProvider::stream)).
///
/// Implementors must map every failure onto an [`LlmError`] variant (never panic) and must
/// not put secrets into error messages.
#[async_trait]
pub trait LlmProvider: Send + Sync {
    /// A short name for logs and error reports, e.g. `"openai"`; defaults to the type's name.
    fn name(&self) -> &str {
        std::any::type_name::<Self>()
    }

    /// What this provider can do; defaults to everything ([`Capabilities::default`]).
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }

    /// The model's context window in tokens, if known. Defaults to
    /// [`Capabilities::context_window`]; adapters of servers that say it (llama.cpp's
    /// `/props`) read it on the first call and keep it.
    async fn context_window(&self) -> Option<u32> {
        self.capabilities().context_window
    }

    /// Sends the request and waits for the complete answer.
    ///
    /// # Errors
    ///
    /// An [`LlmError`] saying why no answer came; see [`LlmError::retryable`].
    async fn complete(&self, req: &CompletionRequest) -> Result<CompletionResponse, LlmError>;

    /// Sends the request and yields the answer as it arrives, ending with
    /// [`StreamEvent::Done`] or an error.
    ///
    /// The default calls [`complete`](LlmProvider::complete) and yields
    /// [`StreamEvent::from_response`] of its answer, so every provider can be streamed;
    /// adapters with real streaming override it.
    fn stream<'a>(
        &'a self,
        req: &'a CompletionRequest,
    ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
        replay_as_stream(self.complete(req))
    }
}

/// A whole answer, once it comes, replayed as a stream: the events of
/// [`StreamEvent::from_response`], or the one error. The default
/// [`LlmProvider::stream`] is this over `complete`; adapters use it when a request cannot be
/// streamed (a server that cannot stream tool calls).
pub fn replay_as_stream<'a>(
    answer: impl Future<Output = Result<CompletionResponse, LlmError>> + Send + 'a,
) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
    stream::once(answer)
        .flat_map(|result| {
            let events: Vec<Result<StreamEvent, LlmError>> = match result {
                Ok(response) => StreamEvent::from_response(response)
                    .into_iter()
                    .map(Ok)
                    .collect(),
                Err(error) => vec![Err(error)],
            };
            stream::iter(events)
        })
        .boxed()
}

/// A reference, a box or an `Arc` of a provider is a provider: each forwards every method.
macro_rules! forward_provider {
    ($($pointer:ty),*) => {$(
        #[async_trait]
        impl<P: LlmProvider + ?Sized> LlmProvider for $pointer {
            fn name(&self) -> &str {
                (**self).name()
            }

            fn capabilities(&self) -> Capabilities {
                (**self).capabilities()
            }

            async fn context_window(&self) -> Option<u32> {
                (**self).context_window().await
            }

            async fn complete(
                &self,
                req: &CompletionRequest,
            ) -> Result<CompletionResponse, LlmError> {
                (**self).complete(req).await
            }

            fn stream<'a>(
                &'a self,
                req: &'a CompletionRequest,
            ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
                (**self).stream(req)
            }
        }
    )*};
}

forward_provider!(&P, Box<P>, Arc<P>);
