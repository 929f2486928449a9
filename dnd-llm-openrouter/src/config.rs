//! [`OpenRouterConfig`]: the key, the model and its fallbacks, routing, attribution, caching.
//!
//! The parts that are not OpenRouter's own (timeouts, retries, the body's dialect) are the
//! OpenAI adapter's types, so both adapters are tuned the same way.

use std::fmt;
use std::time::Duration;

use dnd_engine::llm::{Capabilities, LlmError};
use dnd_llm_openai::http::{ApiKey, ResponseLimits, RetryPolicy, Timeouts};
use dnd_llm_openai::{RequestOptions, TokenLimitField};
use serde_json::Value;

use crate::cache::PromptCache;
use crate::routing::ProviderPreferences;

/// OpenRouter's API.
pub const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";

/// The model [`OpenRouterConfig::from_env`] uses when `OPENROUTER_MODEL` is not set.
pub const DEFAULT_MODEL: &str = "openai/gpt-4o-mini";

/// Who is calling, for OpenRouter's app rankings and per-app usage pages.
///
/// Sent as `HTTP-Referer` (the app's URL, its identity) and its title under both the current
/// header name `X-OpenRouter-Title` and the older `X-Title`, which some deployments still
/// read. A localhost URL is tracked only with a title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribution {
    /// The app's URL (`HTTP-Referer`); `None` sends none.
    pub referer: Option<String>,
    /// The app's name (`X-OpenRouter-Title` and `X-Title`); `None` sends none.
    pub title: Option<String>,
    /// Comma-separated categories (`X-OpenRouter-Categories`, e.g. `roleplay,cli-agent`).
    pub categories: Option<String>,
}

impl Default for Attribution {
    /// This workspace: its repository URL and the title `dnd-gm`.
    fn default() -> Self {
        Attribution {
            referer: Some(env!("CARGO_PKG_REPOSITORY").to_owned()),
            title: Some("dnd-gm".to_owned()),
            categories: None,
        }
    }
}

impl Attribution {
    /// No attribution headers at all.
    pub fn none() -> Self {
        Attribution {
            referer: None,
            title: None,
            categories: None,
        }
    }

    /// The headers to send, in order.
    pub fn headers(&self) -> Vec<(&'static str, &str)> {
        let mut headers = Vec::with_capacity(4);
        if let Some(referer) = &self.referer {
            headers.push(("HTTP-Referer", referer.as_str()));
        }
        if let Some(title) = &self.title {
            headers.push(("X-OpenRouter-Title", title.as_str()));
            headers.push(("X-Title", title.as_str()));
        }
        if let Some(categories) = &self.categories {
            headers.push(("X-OpenRouter-Categories", categories.as_str()));
        }
        headers
    }
}

/// Everything an [`OpenRouterProvider`](crate::OpenRouterProvider) needs. Build it with
/// [`new`](OpenRouterConfig::new) or [`from_env`](OpenRouterConfig::from_env) and the
/// `with_*` methods; every field is public too.
///
/// `Debug` never shows the API key or the values of extra headers.
#[derive(Clone)]
pub struct OpenRouterConfig {
    /// The API's base URL ([`OPENROUTER_BASE_URL`]).
    pub base_url: String,
    /// The key sent as `Authorization: Bearer ...`.
    pub api_key: Option<ApiKey>,
    /// The model, and the body's dialect (the OpenAI adapter's options).
    pub request: RequestOptions,
    /// Models tried in order when the main one fails (down, rate limited, refusing); sent as
    /// `models`. The model that answered is in
    /// [`CompletionResponse::model`](dnd_engine::llm::CompletionResponse::model).
    pub fallback_models: Vec<String>,
    /// Provider routing (`provider`).
    pub routing: ProviderPreferences,
    /// Attribution headers.
    pub attribution: Attribution,
    /// Prompt-cache breakpoints.
    pub cache: PromptCache,
    /// More headers for every request.
    pub extra_headers: Vec<(String, String)>,
    /// Connect, request and stream-idle timeouts.
    pub timeouts: Timeouts,
    /// How much the server may send back: a whole body (8 MiB), a stream (16 MiB) and what a
    /// stream assembles (1 MiB); see [`ResponseLimits`].
    pub limits: ResponseLimits,
    /// How failed requests are retried (402 and 403 never are).
    pub retry: RetryPolicy,
    /// What the model can do, as the engine is told; its `context_window`, when set
    /// ([`with_context_window`](OpenRouterConfig::with_context_window)), is what every request
    /// is cut to fit.
    pub capabilities: Capabilities,
    /// Read the model's context window from OpenRouter's models list (`GET /models`, its
    /// `context_length`) on the first call when none is set (default on).
    pub read_context_window: bool,
    /// Keep each response's JSON in
    /// [`CompletionResponse::raw`](dnd_engine::llm::CompletionResponse::raw).
    pub keep_raw: bool,
}

impl OpenRouterConfig {
    /// OpenRouter with this model (`anthropic/claude-sonnet-4.5`, `openai/gpt-4o-mini`), no
    /// key, and every other setting at its default: `max_tokens` (the field OpenRouter
    /// documents), strict tool schemas, this workspace's attribution, cache breakpoints for
    /// Anthropic models advancing every 10 turns.
    pub fn new(model: impl Into<String>) -> Self {
        let mut request = RequestOptions::new(model);
        request.token_limit = TokenLimitField::MaxTokens;
        OpenRouterConfig {
            base_url: OPENROUTER_BASE_URL.to_owned(),
            api_key: None,
            request,
            fallback_models: Vec::new(),
            routing: ProviderPreferences::default(),
            attribution: Attribution::default(),
            cache: PromptCache::default(),
            extra_headers: Vec::new(),
            timeouts: Timeouts::default(),
            limits: ResponseLimits::default(),
            retry: RetryPolicy::default(),
            capabilities: Capabilities::default(),
            read_context_window: true,
            keep_raw: true,
        }
    }

    /// Reads `OPENROUTER_API_KEY` (required), `OPENROUTER_MODEL` (default
    /// [`DEFAULT_MODEL`]) and `OPENROUTER_BASE_URL` (default [`OPENROUTER_BASE_URL`]).
    ///
    /// # Errors
    ///
    /// [`LlmError::Auth`] when `OPENROUTER_API_KEY` is not set, saying how to get one.
    pub fn from_env() -> Result<Self, LlmError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let key = var("OPENROUTER_API_KEY").ok_or_else(|| {
            LlmError::auth(
                "no OpenRouter key: set OPENROUTER_API_KEY (create one at \
                 https://openrouter.ai/settings/keys), and OPENROUTER_MODEL to choose the model",
            )
        })?;
        let mut config =
            OpenRouterConfig::new(var("OPENROUTER_MODEL").unwrap_or_else(|| DEFAULT_MODEL.into()))
                .with_api_key(key);
        if let Some(base_url) = var("OPENROUTER_BASE_URL") {
            config.base_url = base_url;
        }
        Ok(config)
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

    /// Sets the models tried, in order, when the main one fails.
    pub fn with_fallback_models<I, S>(mut self, models: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.fallback_models = models.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the provider routing preferences.
    pub fn with_routing(mut self, routing: ProviderPreferences) -> Self {
        self.routing = routing;
        self
    }

    /// Sets the attribution headers.
    pub fn with_attribution(mut self, attribution: Attribution) -> Self {
        self.attribution = attribution;
        self
    }

    /// Sets the app's URL and title (the attribution headers).
    pub fn with_app(mut self, referer: impl Into<String>, title: impl Into<String>) -> Self {
        self.attribution.referer = Some(referer.into());
        self.attribution.title = Some(title.into());
        self
    }

    /// Sets the prompt-cache policy.
    pub fn with_cache(mut self, cache: PromptCache) -> Self {
        self.cache = cache;
        self
    }

    /// Sets how many turns the cache checkpoint stays before it advances.
    pub fn with_cache_every(mut self, turns: usize) -> Self {
        self.cache.advance_every = turns;
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

    /// Sets every timeout.
    pub fn with_timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// Sets the stream idle timeout: the longest a stream may go without data. OpenRouter's
    /// keep-alive comments (`: OPENROUTER PROCESSING`) do not count, so raise it for a model
    /// that thinks silently for longer than the default 2 minutes.
    pub fn with_idle_timeout(mut self, idle: Duration) -> Self {
        self.timeouts.idle = idle;
        self
    }

    /// Sets the limits on what the server may send back.
    pub fn with_limits(mut self, limits: ResponseLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Sets what the model can do.
    pub fn with_capabilities(mut self, capabilities: Capabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Sets the model's context window in tokens: every request the engine sends is cut to
    /// fit it, with room for the answer. The models list is then not read.
    pub fn with_context_window(mut self, tokens: u32) -> Self {
        self.capabilities.context_window = Some(tokens);
        self
    }

    /// Whether to read the model's context window from the models list when none is set.
    pub fn with_read_context_window(mut self, read: bool) -> Self {
        self.read_context_window = read;
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

impl fmt::Debug for OpenRouterConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header_names: Vec<&str> = self.extra_headers.iter().map(|(n, _)| n.as_str()).collect();
        let body_fields: Vec<&str> = self.request.extra_body.keys().map(String::as_str).collect();
        f.debug_struct("OpenRouterConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.request.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("fallback_models", &self.fallback_models)
            .field("routing", &self.routing)
            .field("attribution", &self.attribution)
            .field("cache", &self.cache)
            .field("extra_headers", &header_names)
            .field("extra_body_fields", &body_fields)
            .field("token_limit", &self.request.token_limit)
            .field("strict_tools", &self.request.strict_tools)
            .field("timeouts", &self.timeouts)
            .field("limits", &self.limits)
            .field("retry", &self.retry)
            .field("capabilities", &self.capabilities)
            .field("keep_raw", &self.keep_raw)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_key_and_header_values() {
        let config = OpenRouterConfig::new("anthropic/claude-sonnet-4.5")
            .with_api_key("sk-or-v1-very-secret-0123456789")
            .with_header("X-Custom-Auth", "another-secret-value");
        let debug = format!("{config:?}");
        assert!(!debug.contains("very-secret"), "{debug}");
        assert!(!debug.contains("another-secret-value"), "{debug}");
        assert!(debug.contains("X-Custom-Auth") && debug.contains("<redacted>"));
    }

    #[test]
    fn attribution_sends_the_title_under_both_names() {
        let attribution = Attribution::default();
        let headers = attribution.headers();
        let names: Vec<&str> = headers.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["HTTP-Referer", "X-OpenRouter-Title", "X-Title"]);
        assert!(Attribution::none().headers().is_empty());
        let config = OpenRouterConfig::new("m").with_base_url("http://127.0.0.1:9/api/v1/");
        assert_eq!(
            config.endpoint("/chat/completions"),
            "http://127.0.0.1:9/api/v1/chat/completions"
        );
        assert_eq!(config.request.token_limit, TokenLimitField::MaxTokens);
    }
}
