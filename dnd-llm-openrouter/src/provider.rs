//! [`OpenRouterProvider`]: the engine's [`LlmProvider`] over OpenRouter, sending through the
//! OpenAI adapter's HTTP layer (same timeouts, same retry policy, same key handling).

use std::fmt;

use async_trait::async_trait;
use bytes::Bytes;
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, StreamEvent,
};
use dnd_llm_openai::http::{HttpClient, JsonEndpoint, json_headers};
use dnd_llm_openai::stream::{StreamAssembler, events_from_body};
use dnd_llm_openai::window::{ContextWindowCache, get_json};
use dnd_llm_openai::{StrictToolsCache, into_streaming};
use futures::StreamExt;
use futures::stream::{self, BoxStream};
use reqwest::header::HeaderMap;

use crate::body::build_body;
use crate::config::OpenRouterConfig;
use crate::errors::{error_from_failure, error_from_object};
use crate::response::parse_response;

/// An [`LlmProvider`] for OpenRouter.
///
/// ```no_run
/// use dnd_engine::llm::{CompletionRequest, LlmProvider, Message};
/// use dnd_llm_openrouter::{OpenRouterConfig, OpenRouterProvider};
///
/// # async fn run() -> Result<(), dnd_engine::llm::LlmError> {
/// let config = OpenRouterConfig::from_env()?
///     .with_fallback_models(["openai/gpt-4o-mini"]);
/// let provider = OpenRouterProvider::new(config)?;
/// let answer = provider
///     .complete(&CompletionRequest::new(vec![Message::user("Describe the tavern.")]))
///     .await?;
/// println!("{} (by {:?}, ${:?})", answer.text().unwrap_or_default(), answer.model, answer.usage.cost);
/// # Ok(())
/// # }
/// ```
pub struct OpenRouterProvider {
    config: OpenRouterConfig,
    /// `chat/completions`, with the headers, the key to redact and OpenRouter's error mapping.
    endpoint: JsonEndpoint,
    /// The sanitized schemas of the last tool list seen (games send the same one each call).
    strict_tools: StrictToolsCache,
    /// The model's context window from the models list, read on the first call that needs it.
    context_window: ContextWindowCache,
}

impl fmt::Debug for OpenRouterProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenRouterProvider")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl OpenRouterProvider {
    /// A provider with this configuration.
    ///
    /// # Errors
    ///
    /// [`LlmError::Other`] for a header that cannot be sent or a TLS backend that cannot
    /// start; [`LlmError::Auth`] for a key that cannot be sent in a header.
    pub fn new(config: OpenRouterConfig) -> Result<Self, LlmError> {
        let http = HttpClient::new(config.timeouts, config.retry)?.with_limits(config.limits);
        let headers = default_headers(&config)?;
        let endpoint = JsonEndpoint::new(
            http,
            config.endpoint("chat/completions"),
            headers,
            config.api_key.clone(),
            error_from_failure,
        );
        Ok(OpenRouterProvider {
            config,
            endpoint,
            strict_tools: StrictToolsCache::default(),
            context_window: ContextWindowCache::default(),
        })
    }

    /// A provider configured by [`OpenRouterConfig::from_env`].
    ///
    /// # Errors
    ///
    /// As [`OpenRouterConfig::from_env`] and [`new`](OpenRouterProvider::new).
    pub fn from_env() -> Result<Self, LlmError> {
        OpenRouterProvider::new(OpenRouterConfig::from_env()?)
    }

    /// The configuration.
    pub fn config(&self) -> &OpenRouterConfig {
        &self.config
    }

    /// The headers every request carries (the authorization one is marked sensitive).
    pub fn headers(&self) -> &HeaderMap {
        self.endpoint.headers()
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
        let mut body = build_body(request, &self.config, strict.as_deref());
        if streaming {
            body = into_streaming(body, &self.config.request);
        }
        serde_json::to_vec(&body)
            .map_err(|e| LlmError::other(format!("the request body could not be written: {e}")))
    }
}

fn default_headers(config: &OpenRouterConfig) -> Result<HeaderMap, LlmError> {
    let attribution = config.attribution.headers().into_iter();
    let attribution = attribution.map(|(name, value)| (name, value, false));
    // Extra headers may carry credentials of their own.
    let extra = config.extra_headers.iter();
    let extra = extra.map(|(name, value)| (name.as_str(), value.as_str(), true));
    json_headers(config.api_key.as_ref(), attribution.chain(extra))
}

#[async_trait]
impl LlmProvider for OpenRouterProvider {
    fn name(&self) -> &str {
        "openrouter"
    }

    fn capabilities(&self) -> Capabilities {
        self.config.capabilities
    }

    /// The configured window; else, when [`OpenRouterConfig::read_context_window`] is on, the
    /// model's `context_length` in OpenRouter's models list, read once and kept.
    async fn context_window(&self) -> Option<u32> {
        if let Some(tokens) = self.config.capabilities.context_window {
            return Some(tokens);
        }
        if !self.config.read_context_window {
            return None;
        }
        let url = self.config.endpoint("models");
        self.context_window
            .get_or_read(async {
                let models = get_json(&self.endpoint, &url).await?;
                context_length_of(&models, self.config.model())
            })
            .await
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let body = Bytes::from(self.request_body(request, false)?);
        let reply = self.endpoint.post(body).await?;
        parse_response(&reply.body, self.config.keep_raw).map_err(|e| self.endpoint.redacted(e))
    }

    /// Streams the answer. Keep-alive comments (`: OPENROUTER PROCESSING`) are skipped by the
    /// event parser and do not count as data for the idle timeout: an upstream that sends
    /// nothing but them for longer is cut off with a timeout (raise
    /// [`Timeouts::idle`](dnd_llm_openai::http::Timeouts::idle) for slow thinkers). The final
    /// response's cost is `usage.cost`.
    fn stream<'a>(
        &'a self,
        request: &'a CompletionRequest,
    ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
        let opened = async move {
            let body = Bytes::from(self.request_body(request, true)?);
            self.endpoint.post_for_events(body).await
        };
        stream::once(opened)
            .flat_map(|opened| match opened {
                Ok(body) => {
                    events_from_body(body, StreamAssembler::with_error_mapper(error_from_object))
                }
                Err(error) => stream::iter([Err(error)]).boxed(),
            })
            .map(move |event| event.map_err(|error| self.endpoint.redacted(error)))
            .boxed()
    }
}

/// The context window of `model` in OpenRouter's models list (`{"data": [{"id",
/// "context_length", "top_provider": {"context_length"}}]}`): the smaller of the model's and
/// its top provider's, since a request may be routed to either.
pub fn context_length_of(models: &serde_json::Value, model: &str) -> Option<u32> {
    let entry = models
        .get("data")?
        .as_array()?
        .iter()
        .find(|m| m.get("id").and_then(serde_json::Value::as_str) == Some(model))?;
    let lengths = [
        entry.get("context_length"),
        entry.pointer("/top_provider/context_length"),
    ];
    lengths
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_u64)
        .filter(|n| *n > 0)
        .min()
        .and_then(|n| u32::try_from(n).ok())
}
