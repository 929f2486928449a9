//! [`ChatConfig`]: where to send, with what credentials, and how the server behaves; one
//! configuration for every OpenAI-compatible service, its [`Dialect`] holding what a service
//! adds.

use std::fmt;
use std::time::Duration;

use dnd_engine::llm::{Capabilities, Usage};
use serde_json::Value;

use crate::build::{ReasoningEcho, RequestOptions, TokenLimitField};
use crate::dialect::Dialect;
use crate::http::{ApiKey, ResponseLimits, RetryPolicy, Timeouts};

/// Prices in US dollars per million tokens, to compute [`Usage::cost`] when the server does
/// not report a cost (OpenAI does not).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pricing {
    /// Prompt tokens.
    pub input_per_million: f64,
    /// Prompt tokens served from the cache; `None` for the input price.
    pub cached_input_per_million: Option<f64>,
    /// Completion tokens (reasoning included).
    pub output_per_million: f64,
}

impl Pricing {
    /// What `usage` cost at these prices.
    pub fn cost(&self, usage: &Usage) -> f64 {
        let cached = f64::from(usage.cached_tokens.min(usage.prompt_tokens));
        let uncached = f64::from(usage.prompt_tokens) - cached;
        let cached_price = self
            .cached_input_per_million
            .unwrap_or(self.input_per_million);
        (uncached * self.input_per_million
            + cached * cached_price
            + f64::from(usage.completion_tokens) * self.output_per_million)
            / 1_000_000.0
    }
}

/// Everything a [`ChatProvider`](crate::ChatProvider) needs: the connection every
/// OpenAI-compatible service shares, and the [`Dialect`]'s own settings in
/// [`dialect`](ChatConfig::dialect). Build it with a dialect's constructor
/// ([`OpenAiConfig::new`](crate::OpenAiConfig), `OpenRouterConfig::new`) or
/// [`with_dialect`](ChatConfig::with_dialect), then the `with_*` methods; every field is public
/// too.
///
/// `Debug` never shows the API key or the values of extra headers (they may hold
/// credentials).
#[derive(Clone)]
pub struct ChatConfig<D> {
    /// The API's base URL, up to and including the version (`https://api.openai.com/v1`,
    /// `http://127.0.0.1:8080/v1`).
    pub base_url: String,
    /// The key sent as `Authorization: Bearer ...`; `None` for servers that need none.
    pub api_key: Option<ApiKey>,
    /// More headers for every request, after the dialect's.
    pub extra_headers: Vec<(String, String)>,
    /// The model and the body's dialect.
    pub request: RequestOptions,
    /// Connect, request and stream-idle timeouts.
    pub timeouts: Timeouts,
    /// How much a server may send back: a whole body (8 MiB), a stream (16 MiB) and what a
    /// stream assembles (1 MiB); see [`ResponseLimits`].
    pub limits: ResponseLimits,
    /// How failed requests are retried.
    pub retry: RetryPolicy,
    /// What the server and model can do, as the engine is told; its `context_window`, when
    /// set ([`with_context_window`](ChatConfig::with_context_window)), is what every request
    /// is cut to fit.
    pub capabilities: Capabilities,
    /// Ask the server for the model's context window (where the dialect says) on the first
    /// call when none is set.
    pub read_context_window: bool,
    /// Whether the server streams tool calls; when not, requests with tools are sent without
    /// streaming and replayed as a stream.
    pub stream_tool_calls: bool,
    /// Keep each response's JSON in [`CompletionResponse::raw`](dnd_engine::llm::CompletionResponse::raw).
    pub keep_raw: bool,
    /// Prices to compute the cost when the server reports none.
    pub pricing: Option<Pricing>,
    /// The provider's name in logs and traces (`openai`, `openrouter`).
    pub name: String,
    /// What the service adds: its own settings and behaviour.
    pub dialect: D,
}

impl<D: Dialect> ChatConfig<D> {
    /// The service's configuration for this model, with the dialect's defaults
    /// ([`Dialect::config`]): for OpenAI, OpenAI's API with no key.
    pub fn new(model: impl Into<String>) -> Self {
        D::config(model.into())
    }

    /// The configuration from the environment ([`Dialect::config_from_env`]): for OpenAI,
    /// `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL` (see [`OpenAi`](crate::OpenAi)).
    ///
    /// # Errors
    ///
    /// [`LlmError::Auth`](dnd_engine::llm::LlmError::Auth) when the service's variables are
    /// missing, saying which to set.
    pub fn from_env() -> Result<Self, dnd_engine::llm::LlmError> {
        D::config_from_env()
    }

    /// A service called `name` at `base_url` with this model and dialect; no key, strict tool
    /// schemas, `max_completion_tokens`, and every other setting at its default (the
    /// context window not read).
    pub fn with_dialect(
        name: impl Into<String>,
        base_url: impl Into<String>,
        model: impl Into<String>,
        dialect: D,
    ) -> Self {
        ChatConfig {
            base_url: base_url.into(),
            api_key: None,
            extra_headers: Vec::new(),
            request: RequestOptions::new(model),
            timeouts: Timeouts::default(),
            limits: ResponseLimits::default(),
            retry: RetryPolicy::default(),
            capabilities: Capabilities::default(),
            read_context_window: false,
            stream_tool_calls: true,
            keep_raw: true,
            pricing: None,
            name: name.into(),
            dialect,
        }
    }

    /// Sets the base URL.
    pub fn with_base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into();
        self
    }

    /// Sets the model.
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.request.model = model.into();
        self
    }

    /// Sets the API key.
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(ApiKey::new(key));
        self
    }

    /// Adds a header to every request.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.extra_headers.push((name.into(), value.into()));
        self
    }

    /// Adds a field to every request body; it wins over the adapter's field of the same name.
    pub fn with_body_field(mut self, name: impl Into<String>, value: Value) -> Self {
        self.request.extra_body.insert(name.into(), value);
        self
    }

    /// Chooses the token-limit field.
    pub fn with_token_limit_field(mut self, field: TokenLimitField) -> Self {
        self.request.token_limit = field;
        self
    }

    /// Whether tool schemas go through the strict sanitizer with `strict: true`.
    pub fn with_strict_tools(mut self, strict: bool) -> Self {
        self.request.strict_tools = strict;
        self
    }

    /// Sets `parallel_tool_calls` for requests with tools.
    pub fn with_parallel_tool_calls(mut self, parallel: bool) -> Self {
        self.request.parallel_tool_calls = Some(parallel);
        self
    }

    /// Chooses when reasoning goes back to the server.
    pub fn with_reasoning_echo(mut self, echo: ReasoningEcho) -> Self {
        self.request.reasoning_echo = echo;
        self
    }

    /// Sets every timeout.
    pub fn with_timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// Sets the stream idle timeout: the longest a stream may go without data (keep-alive
    /// comments, such as OpenRouter's `: OPENROUTER PROCESSING`, do not count), so raise it
    /// for a model that thinks silently for longer than the default 2 minutes.
    pub fn with_idle_timeout(mut self, idle: Duration) -> Self {
        self.timeouts.idle = idle;
        self
    }

    /// Sets the limits on what a server may send back.
    pub fn with_limits(mut self, limits: ResponseLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Sets what the server and model can do.
    pub fn with_capabilities(mut self, capabilities: Capabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Sets the model's context window in tokens: every request the engine sends is cut to
    /// fit it, with room for the answer. The server is then not asked for it.
    pub fn with_context_window(mut self, tokens: u32) -> Self {
        self.capabilities.context_window = Some(tokens);
        self
    }

    /// Whether to ask the server for the model's context window when none is set.
    pub fn with_read_context_window(mut self, read: bool) -> Self {
        self.read_context_window = read;
        self
    }

    /// Whether the server streams tool calls.
    pub fn with_stream_tool_calls(mut self, streams: bool) -> Self {
        self.stream_tool_calls = streams;
        self
    }

    /// Sets prices to compute costs with.
    pub fn with_pricing(mut self, pricing: Pricing) -> Self {
        self.pricing = Some(pricing);
        self
    }

    /// The model.
    pub fn model(&self) -> &str {
        &self.request.model
    }

    /// The base URL joined with an endpoint path (`chat/completions`).
    pub fn endpoint(&self, path: &str) -> String {
        format!(
            "{}/{}",
            self.base_url.trim_end_matches('/'),
            path.trim_start_matches('/')
        )
    }
}

impl<D: fmt::Debug> fmt::Debug for ChatConfig<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header_names: Vec<&str> = self.extra_headers.iter().map(|(n, _)| n.as_str()).collect();
        let body_fields: Vec<&str> = self.request.extra_body.keys().map(String::as_str).collect();
        f.debug_struct("ChatConfig")
            .field("name", &self.name)
            .field("base_url", &self.base_url)
            .field("model", &self.request.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("extra_headers", &header_names)
            .field("extra_body_fields", &body_fields)
            .field("token_limit", &self.request.token_limit)
            .field("strict_tools", &self.request.strict_tools)
            .field("parallel_tool_calls", &self.request.parallel_tool_calls)
            .field("reasoning_echo", &self.request.reasoning_echo)
            .field(
                "empty_tool_call_content",
                &self.request.empty_tool_call_content,
            )
            .field("stream_usage", &self.request.stream_usage)
            .field("timeouts", &self.timeouts)
            .field("limits", &self.limits)
            .field("retry", &self.retry)
            .field("capabilities", &self.capabilities)
            .field("read_context_window", &self.read_context_window)
            .field("stream_tool_calls", &self.stream_tool_calls)
            .field("keep_raw", &self.keep_raw)
            .field("pricing", &self.pricing)
            .field("dialect", &self.dialect)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenAiConfig;

    #[test]
    fn debug_hides_the_key_and_header_values() {
        let config = OpenAiConfig::new("gpt-test")
            .with_api_key("sk-very-secret-key-0123456789")
            .with_header("X-Custom-Auth", "another-secret-value");
        let debug = format!("{config:?}");
        assert!(!debug.contains("sk-very-secret"), "{debug}");
        assert!(!debug.contains("another-secret-value"), "{debug}");
        assert!(debug.contains("X-Custom-Auth"), "{debug}");
        assert!(debug.contains("<redacted>"), "{debug}");
    }

    #[test]
    fn endpoints_join_with_one_slash_and_local_servers_are_conservative() {
        let local = OpenAiConfig::local("http://127.0.0.1:8080/v1/", "smol");
        assert_eq!(
            local.endpoint("/chat/completions"),
            "http://127.0.0.1:8080/v1/chat/completions"
        );
        assert_eq!(local.request.token_limit, TokenLimitField::MaxTokens);
        assert!(local.request.empty_tool_call_content);
        assert!(!local.capabilities.json_schema);
        assert!(local.api_key.is_none());
    }

    #[test]
    fn pricing_counts_cached_tokens_at_their_price() {
        let pricing = Pricing {
            input_per_million: 2.0,
            cached_input_per_million: Some(0.5),
            output_per_million: 8.0,
        };
        let usage = Usage {
            prompt_tokens: 1_000_000,
            completion_tokens: 500_000,
            cached_tokens: 400_000,
            ..Usage::default()
        };
        assert!((pricing.cost(&usage) - (1.2 + 0.2 + 4.0)).abs() < 1e-9);
    }
}
