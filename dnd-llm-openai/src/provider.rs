//! [`ChatProvider`]: the engine's [`LlmProvider`] over HTTP, for every OpenAI-compatible
//! service; its [`Dialect`] says what one service adds.

use std::fmt;

use async_trait::async_trait;
use bytes::Bytes;
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, StreamEvent,
    replay_as_stream,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};
use tracing::Instrument;

use crate::build::{StrictToolsCache, into_streaming};
use crate::config::ChatConfig;
use crate::dialect::{Dialect, build_body};
use crate::http::{Headers, HttpClient, JsonEndpoint, json_headers};
use crate::openai::OpenAi;
use crate::parse::parse_in;
use crate::stream::{StreamAssembler, events_from_body};
use crate::trace::ModelCall;
use crate::window::{ContextWindowCache, get_json};

/// An [`LlmProvider`] for OpenAI's Chat Completions API and every server that speaks it.
pub type OpenAiProvider = ChatProvider<OpenAi>;

/// An [`LlmProvider`] for a service that speaks OpenAI's Chat Completions format, in the
/// dialect `D` ([`OpenAi`], OpenRouter's, or your own: see [`Dialect`]).
///
/// It builds the body, posts it through the shared HTTP layer (timeouts, retries, size limits,
/// the key redacted from every error), parses the answer or assembles the stream, and prices
/// it. Each model call is a `model_call` tracing span (see the crate docs).
///
/// ```no_run
/// use dnd_engine::llm::{CompletionRequest, LlmProvider, Message};
/// use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};
///
/// # async fn run() -> Result<(), dnd_engine::llm::LlmError> {
/// let provider = OpenAiProvider::new(OpenAiConfig::from_env()?)?;
/// let answer = provider
///     .complete(&CompletionRequest::new(vec![Message::user("Describe the tavern.")]))
///     .await?;
/// println!("{}", answer.text().unwrap_or_default());
/// # Ok(())
/// # }
/// ```
pub struct ChatProvider<D> {
    config: ChatConfig<D>,
    /// `chat/completions`, with the headers, the key to redact and the dialect's error mapping.
    endpoint: JsonEndpoint,
    /// The sanitized schemas of the last tool list seen (games send the same one each call).
    strict_tools: StrictToolsCache,
    /// The context window the server said, read on the first call that needs it.
    context_window: ContextWindowCache,
}

impl<D: fmt::Debug> fmt::Debug for ChatProvider<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChatProvider")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<D: Dialect> ChatProvider<D> {
    /// A provider with this configuration.
    ///
    /// # Errors
    ///
    /// [`LlmError::Other`] for a header name or value that cannot be sent, or a TLS backend
    /// that cannot start; [`LlmError::Auth`] for a key that cannot be sent in a header.
    pub fn new(config: ChatConfig<D>) -> Result<Self, LlmError> {
        let http = HttpClient::new(config.timeouts, config.retry)?.with_limits(config.limits);
        let extra = config.extra_headers.iter();
        // Extra headers may carry credentials of their own: all marked sensitive.
        let extra = extra.map(|(name, value)| (name.as_str(), value.as_str(), true));
        let headers = json_headers(
            config.api_key.as_ref(),
            config.dialect.headers().into_iter().chain(extra),
        )?;
        let endpoint = JsonEndpoint::new(
            http,
            config.endpoint("chat/completions"),
            headers,
            config.api_key.clone(),
            D::error_from_failure,
        );
        Ok(ChatProvider {
            config,
            endpoint,
            strict_tools: StrictToolsCache::default(),
            context_window: ContextWindowCache::default(),
        })
    }

    /// A provider configured from the environment by [`ChatConfig::from_env`] (for OpenAI:
    /// `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`).
    ///
    /// # Errors
    ///
    /// As [`ChatConfig::from_env`] and [`new`](ChatProvider::new).
    pub fn from_env() -> Result<Self, LlmError> {
        ChatProvider::new(ChatConfig::from_env()?)
    }

    /// The configuration.
    pub fn config(&self) -> &ChatConfig<D> {
        &self.config
    }

    /// The headers every request carries (sensitive values, the key's among them, never
    /// shown).
    pub fn headers(&self) -> Headers<'_> {
        Headers::new(self.endpoint.headers())
    }

    /// The chat endpoint; its error mapping and redaction also serve other endpoints of the
    /// same server (speech).
    #[cfg_attr(not(feature = "speech"), allow(dead_code))]
    pub(crate) fn endpoint(&self) -> &JsonEndpoint {
        &self.endpoint
    }

    /// The body of a request, as sent.
    ///
    /// # Errors
    ///
    /// [`LlmError::Other`] if the body cannot be serialized (a non-finite temperature).
    pub fn request_body(
        &self,
        request: &CompletionRequest,
        streaming: bool,
    ) -> Result<Vec<u8>, LlmError> {
        let strict = self
            .strict_tools
            .get_if(self.config.request.strict_tools, &request.tools);
        let mut body = build_body(&self.config, request, strict.as_deref());
        if streaming {
            body = into_streaming(body, &self.config.request);
        }
        serde_json::to_vec(&body)
            .map_err(|e| LlmError::other(format!("the request body could not be written: {e}")))
    }

    /// A whole answer's body parsed in the dialect ([`parse_in`]), priced.
    fn parse(&self, body: &[u8]) -> Result<CompletionResponse, LlmError> {
        let mut response = parse_in::<D>(body, self.config.keep_raw)?;
        self.price(&mut response);
        Ok(response)
    }

    /// Fills in the cost from the configured prices when the server reported none.
    fn price(&self, response: &mut CompletionResponse) {
        if response.usage.cost.is_none()
            && let Some(pricing) = &self.config.pricing
        {
            response.usage.cost = Some(pricing.cost(&response.usage));
        }
    }

    async fn complete_untraced(
        &self,
        request: &CompletionRequest,
    ) -> Result<CompletionResponse, LlmError> {
        let body = Bytes::from(self.request_body(request, false)?);
        let reply = self.endpoint.post(body).await?;
        self.parse(&reply.body)
            .map_err(|e| self.endpoint.redacted(e))
    }
}

#[async_trait]
impl<D: Dialect> LlmProvider for ChatProvider<D> {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn capabilities(&self) -> Capabilities {
        self.config.capabilities
    }

    /// The configured window; else, when [`ChatConfig::read_context_window`] is on, what the
    /// server says where the dialect reads it, read once and kept.
    async fn context_window(&self) -> Option<u32> {
        if let Some(tokens) = self.config.capabilities.context_window {
            return Some(tokens);
        }
        if !self.config.read_context_window {
            return None;
        }
        let dialect = &self.config.dialect;
        let url = dialect.context_window_url(&self.config);
        self.context_window
            .get_or_read(async {
                let answer = get_json(&self.endpoint, &url).await?;
                dialect.context_window_in(&answer, self.config.model())
            })
            .await
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let call = ModelCall::start(&self.config.name, self.config.model(), false);
        let result = self
            .complete_untraced(request)
            .instrument(call.span().clone())
            .await;
        call.finish(result.as_ref());
        result
    }

    /// Streams the answer. Keep-alive comments (OpenRouter's `: OPENROUTER PROCESSING`) are
    /// skipped by the event parser and do not count as data for the idle timeout. A server
    /// that cannot stream tool calls ([`ChatConfig::stream_tool_calls`] off) is asked without
    /// streaming when there are tools, and its answer replayed as a stream.
    fn stream<'a>(
        &'a self,
        request: &'a CompletionRequest,
    ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
        if !self.config.stream_tool_calls && !request.tools.is_empty() {
            return replay_as_stream(self.complete(request));
        }
        let call = ModelCall::start(&self.config.name, self.config.model(), true);
        let span = call.span().clone();
        let opened = async move {
            let body = Bytes::from(self.request_body(request, true)?);
            self.endpoint.post_for_events(body).await
        }
        .instrument(span);
        stream::once(opened)
            .flat_map(|opened| match opened {
                Ok(body) => events_from_body(
                    body,
                    StreamAssembler::with_error_mapper(D::error_from_object),
                ),
                Err(error) => stream::iter([Err(error)]).boxed(),
            })
            .map(move |event| {
                let event = match event {
                    Ok(StreamEvent::Done(mut response)) => {
                        self.price(&mut response);
                        Ok(StreamEvent::Done(response))
                    }
                    Err(error) => Err(self.endpoint.redacted(error)),
                    other => other,
                };
                match &event {
                    Ok(StreamEvent::Done(response)) => call.finish(Ok(response)),
                    Err(error) => call.finish(Err(error)),
                    Ok(_) => {}
                }
                event
            })
            .boxed()
    }
}
