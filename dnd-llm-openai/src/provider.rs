//! [`OpenAiProvider`]: the engine's [`LlmProvider`] over HTTP.

use std::fmt;

use async_trait::async_trait;
use bytes::Bytes;
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, StreamEvent,
    replay_as_stream,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};
use reqwest::header::HeaderMap;

use crate::build::{StrictToolsCache, build_request_with, into_streaming};
use crate::config::OpenAiConfig;
use crate::errors::error_from_failure;
use crate::http::{HttpClient, JsonEndpoint, json_headers};
use crate::parse::parse_response_with;
use crate::stream::{StreamAssembler, events_from_body};
use crate::window::{ContextWindowCache, get_json, n_ctx_of_props, props_url};

/// An [`LlmProvider`] for OpenAI's Chat Completions API and every server that speaks it.
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
pub struct OpenAiProvider {
    config: OpenAiConfig,
    /// `chat/completions`, with the headers, the key to redact and OpenAI's error mapping.
    endpoint: JsonEndpoint,
    /// The sanitized schemas of the last tool list seen (games send the same one each call).
    strict_tools: StrictToolsCache,
    /// The context window the server said, read on the first call that needs it.
    context_window: ContextWindowCache,
}

impl fmt::Debug for OpenAiProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiProvider")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl OpenAiProvider {
    /// A provider with this configuration.
    ///
    /// # Errors
    ///
    /// [`LlmError::Other`] for a header name or value that cannot be sent, or a TLS backend
    /// that cannot start; [`LlmError::Auth`] for a key that cannot be sent in a header.
    pub fn new(config: OpenAiConfig) -> Result<Self, LlmError> {
        let http = HttpClient::new(config.timeouts, config.retry)?.with_limits(config.limits);
        let headers = default_headers(&config)?;
        let endpoint = JsonEndpoint::new(
            http,
            config.endpoint("chat/completions"),
            headers,
            config.api_key.clone(),
            error_from_failure,
        );
        Ok(OpenAiProvider {
            config,
            endpoint,
            strict_tools: StrictToolsCache::default(),
            context_window: ContextWindowCache::default(),
        })
    }

    /// A provider configured by [`OpenAiConfig::from_env`].
    ///
    /// # Errors
    ///
    /// As [`OpenAiConfig::from_env`] and [`new`](OpenAiProvider::new).
    pub fn from_env() -> Result<Self, LlmError> {
        OpenAiProvider::new(OpenAiConfig::from_env()?)
    }

    /// The configuration.
    pub fn config(&self) -> &OpenAiConfig {
        &self.config
    }

    /// The HTTP client (for other endpoints of the same server).
    pub fn http(&self) -> &HttpClient {
        self.endpoint.http()
    }

    /// The headers every request carries (the authorization one is marked sensitive).
    pub fn headers(&self) -> &HeaderMap {
        self.endpoint.headers()
    }

    /// The chat endpoint; its error mapping and redaction also serve the speech endpoints.
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
        let mut body = build_request_with(request, &self.config.request, strict.as_deref());
        if streaming {
            body = into_streaming(body, &self.config.request);
        }
        serde_json::to_vec(&body)
            .map_err(|e| LlmError::other(format!("the request body could not be written: {e}")))
    }
}

fn default_headers(config: &OpenAiConfig) -> Result<HeaderMap, LlmError> {
    let named = [
        ("OpenAI-Organization", config.organization.as_deref()),
        ("OpenAI-Project", config.project.as_deref()),
    ];
    let named = named
        .into_iter()
        .filter_map(|(name, value)| Some((name, value?)));
    let extra = config
        .extra_headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()));
    // All marked sensitive: extra headers may carry credentials of their own.
    json_headers(
        config.api_key.as_ref(),
        named.chain(extra).map(|(name, value)| (name, value, true)),
    )
}

#[async_trait]
impl LlmProvider for OpenAiProvider {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn capabilities(&self) -> Capabilities {
        self.config.capabilities
    }

    /// The configured window; else, when [`OpenAiConfig::read_context_window`] is on, what the
    /// server's `/props` says (llama.cpp), read once and kept.
    async fn context_window(&self) -> Option<u32> {
        if let Some(tokens) = self.config.capabilities.context_window {
            return Some(tokens);
        }
        if !self.config.read_context_window {
            return None;
        }
        let url = props_url(&self.config.base_url);
        self.context_window
            .get_or_read(async {
                let props = get_json(&self.endpoint, &url).await?;
                n_ctx_of_props(&props)
            })
            .await
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let body = Bytes::from(self.request_body(request, false)?);
        let reply = self.endpoint.post(body).await?;
        let mut response = parse_response_with(&reply.body, self.config.keep_raw)
            .map_err(|e| self.endpoint.redacted(e))?;
        self.price(&mut response);
        Ok(response)
    }

    fn stream<'a>(
        &'a self,
        request: &'a CompletionRequest,
    ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
        if !self.config.stream_tool_calls && !request.tools.is_empty() {
            // The server cannot stream tool calls: ask without streaming, replay as a stream.
            return replay_as_stream(self.complete(request));
        }
        let opened = async move {
            let body = Bytes::from(self.request_body(request, true)?);
            self.endpoint.post_for_events(body).await
        };
        stream::once(opened)
            .flat_map(|opened| match opened {
                Ok(body) => events_from_body(body, StreamAssembler::new()),
                Err(error) => stream::iter([Err(error)]).boxed(),
            })
            .map(move |event| match event {
                Ok(StreamEvent::Done(mut response)) => {
                    self.price(&mut response);
                    Ok(StreamEvent::Done(response))
                }
                Err(error) => Err(self.endpoint.redacted(error)),
                other => other,
            })
            .boxed()
    }
}

impl OpenAiProvider {
    fn price(&self, response: &mut CompletionResponse) {
        if response.usage.cost.is_none()
            && let Some(pricing) = &self.config.pricing
        {
            response.usage.cost = Some(pricing.cost(&response.usage));
        }
    }
}
