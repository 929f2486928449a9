//! [`OpenAiProvider`]: the engine's [`LlmProvider`] over HTTP.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, StreamEvent,
    ToolSpec,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};

use crate::build::{StrictTools, StrictToolsCache, build_request_with, into_streaming};
use crate::config::OpenAiConfig;
use crate::errors::error_from_failure;
use crate::http::{BodyStream, HttpClient, HttpFailure};
use crate::parse::parse_response_with;
use crate::stream::{StreamAssembler, events_from_body};

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
    http: HttpClient,
    headers: HeaderMap,
    chat_url: String,
    /// The sanitized schemas of the last tool list seen (games send the same one each call).
    strict_tools: StrictToolsCache,
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
        let http = HttpClient::new(config.timeouts, config.retry)?;
        let headers = default_headers(&config)?;
        let chat_url = config.endpoint("chat/completions");
        Ok(OpenAiProvider {
            config,
            http,
            headers,
            chat_url,
            strict_tools: StrictToolsCache::default(),
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
        &self.http
    }

    /// The headers every request carries (the authorization one is marked sensitive).
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
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
        let strict = self.strict_tools_for(&request.tools);
        let mut body = build_request_with(request, &self.config.request, strict.as_deref());
        if streaming {
            body = into_streaming(body, &self.config.request);
        }
        serde_json::to_vec(&body)
            .map_err(|e| LlmError::other(format!("the request body could not be written: {e}")))
    }

    fn strict_tools_for(&self, tools: &Arc<Vec<ToolSpec>>) -> Option<Arc<StrictTools>> {
        if !self.config.request.strict_tools {
            return None;
        }
        self.strict_tools.get(tools)
    }

    /// Maps an error response and removes the key from its message.
    pub(crate) fn map_error(&self, failure: &HttpFailure<'_>) -> LlmError {
        self.redacted(error_from_failure(failure))
    }

    pub(crate) fn redacted(&self, mut error: LlmError) -> LlmError {
        if let Some(key) = &self.config.api_key {
            key.redact(&mut error);
        }
        error
    }

    async fn open_stream(&self, request: &CompletionRequest) -> Result<BodyStream, LlmError> {
        let body = Bytes::from(self.request_body(request, true)?);
        let map_error = |failure: &HttpFailure<'_>| self.map_error(failure);
        self.http
            .send_streaming(
                |client| {
                    client
                        .post(&self.chat_url)
                        .headers(self.headers.clone())
                        .header(ACCEPT, "text/event-stream")
                        .body(body.clone())
                },
                &map_error,
            )
            .await
    }
}

fn default_headers(config: &OpenAiConfig) -> Result<HeaderMap, LlmError> {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(key) = &config.api_key {
        headers.insert(AUTHORIZATION, key.bearer()?);
    }
    let mut add = |name: &str, value: &str| -> Result<(), LlmError> {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| LlmError::other(format!("`{name}` is not a valid header name")))?;
        let mut value = HeaderValue::from_str(value)
            .map_err(|_| LlmError::other(format!("the value of header `{name}` cannot be sent")))?;
        // Extra headers may carry credentials of their own.
        value.set_sensitive(true);
        headers.insert(name, value);
        Ok(())
    };
    if let Some(organization) = &config.organization {
        add("OpenAI-Organization", organization)?;
    }
    if let Some(project) = &config.project {
        add("OpenAI-Project", project)?;
    }
    for (name, value) in &config.extra_headers {
        add(name, value)?;
    }
    Ok(headers)
}

#[async_trait]
impl LlmProvider for OpenAiProvider {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn capabilities(&self) -> Capabilities {
        self.config.capabilities
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let body = Bytes::from(self.request_body(request, false)?);
        let map_error = |failure: &HttpFailure<'_>| self.map_error(failure);
        let reply = self
            .http
            .send(
                |client| {
                    client
                        .post(&self.chat_url)
                        .headers(self.headers.clone())
                        .body(body.clone())
                },
                &map_error,
            )
            .await?;
        let mut response =
            parse_response_with(&reply.body, self.config.keep_raw).map_err(|e| self.redacted(e))?;
        self.price(&mut response);
        Ok(response)
    }

    fn stream<'a>(
        &'a self,
        request: &'a CompletionRequest,
    ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
        if !self.config.stream_tool_calls && !request.tools.is_empty() {
            // The server cannot stream tool calls: ask without streaming, replay as a stream.
            return stream::once(self.complete(request))
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
                .boxed();
        }
        stream::once(self.open_stream(request))
            .flat_map(|opened| match opened {
                Ok(body) => events_from_body(body, StreamAssembler::new()),
                Err(error) => stream::iter([Err(error)]).boxed(),
            })
            .map(move |event| match event {
                Ok(StreamEvent::Done(mut response)) => {
                    self.price(&mut response);
                    Ok(StreamEvent::Done(response))
                }
                Err(error) => Err(self.redacted(error)),
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
