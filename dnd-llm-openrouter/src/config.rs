//! [`OpenRouter`]: the dialect's settings (fallback models, routing, attribution, caching) and
//! [`OpenRouterConfig`], the shared configuration built on it.
//!
//! The connection (base URL, key, timeouts, retries, limits, the body's options) is the OpenAI
//! adapter's [`ChatConfig`], so both adapters are tuned the same way; OpenRouter's own setters
//! are on [`OpenRouterConfigExt`].

use dnd_llm_openai::{ChatConfig, TokenLimitField};

use crate::cache::PromptCache;
use crate::routing::ProviderPreferences;

/// OpenRouter's API.
pub const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";

/// The model [`OpenRouterConfig::from_env`] uses when `OPENROUTER_MODEL` is not set.
pub const DEFAULT_MODEL: &str = "openai/gpt-4o-mini";

/// Everything an [`OpenRouterProvider`](crate::OpenRouterProvider) needs: the shared
/// connection, with OpenRouter's settings in [`dialect`](ChatConfig::dialect). Build it with
/// `OpenRouterConfig::new(model)` (OpenRouter, no key, `max_tokens`, strict tool schemas, this
/// workspace's attribution, cache breakpoints for Anthropic models advancing every 10 turns,
/// the context window read from the models list) or `OpenRouterConfig::from_env()`
/// (`OPENROUTER_API_KEY` required, `OPENROUTER_MODEL`, `OPENROUTER_BASE_URL`), then the shared
/// `with_*` methods and [`OpenRouterConfigExt`]'s.
///
/// `Debug` never shows the API key or the values of extra headers.
pub type OpenRouterConfig = ChatConfig<OpenRouter>;

/// What OpenRouter adds to the shared provider (see [`crate::dialect`] for how each is sent).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OpenRouter {
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
}

impl OpenRouter {
    /// OpenRouter's configuration for `model` (see [`OpenRouterConfig`]).
    pub(crate) fn default_config(model: String) -> OpenRouterConfig {
        let mut config = ChatConfig::with_dialect(
            "openrouter",
            OPENROUTER_BASE_URL,
            model,
            OpenRouter::default(),
        );
        config.request.token_limit = TokenLimitField::MaxTokens;
        config.read_context_window = true;
        config
    }
}

/// OpenRouter's setters on an [`OpenRouterConfig`] (import it with the config).
pub trait OpenRouterConfigExt: Sized {
    /// Sets the models tried, in order, when the main one fails.
    fn with_fallback_models<I, S>(self, models: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>;

    /// Sets the provider routing preferences.
    fn with_routing(self, routing: ProviderPreferences) -> Self;

    /// Sets the attribution headers.
    fn with_attribution(self, attribution: Attribution) -> Self;

    /// Sets the app's URL and title (the attribution headers).
    fn with_app(self, referer: impl Into<String>, title: impl Into<String>) -> Self;

    /// Sets the prompt-cache policy.
    fn with_cache(self, cache: PromptCache) -> Self;

    /// Sets how many turns the cache checkpoint stays before it advances.
    fn with_cache_every(self, turns: usize) -> Self;
}

impl OpenRouterConfigExt for OpenRouterConfig {
    fn with_fallback_models<I, S>(mut self, models: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.dialect.fallback_models = models.into_iter().map(Into::into).collect();
        self
    }

    fn with_routing(mut self, routing: ProviderPreferences) -> Self {
        self.dialect.routing = routing;
        self
    }

    fn with_attribution(mut self, attribution: Attribution) -> Self {
        self.dialect.attribution = attribution;
        self
    }

    fn with_app(mut self, referer: impl Into<String>, title: impl Into<String>) -> Self {
        self.dialect.attribution.referer = Some(referer.into());
        self.dialect.attribution.title = Some(title.into());
        self
    }

    fn with_cache(mut self, cache: PromptCache) -> Self {
        self.dialect.cache = cache;
        self
    }

    fn with_cache_every(mut self, turns: usize) -> Self {
        self.dialect.cache.advance_every = turns;
        self
    }
}

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

#[cfg(test)]
mod tests {
    use dnd_llm_openai::Dialect;

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
        let dialect = OpenRouterConfig::new("m").dialect;
        let sent: Vec<&str> = dialect.headers().iter().map(|(n, _, _)| *n).collect();
        assert_eq!(sent, names, "the dialect sends them, in order");
        assert!(Attribution::none().headers().is_empty());
        let config = OpenRouterConfig::new("m").with_base_url("http://127.0.0.1:9/api/v1/");
        assert_eq!(
            config.endpoint("/chat/completions"),
            "http://127.0.0.1:9/api/v1/chat/completions"
        );
        assert_eq!(config.request.token_limit, TokenLimitField::MaxTokens);
    }
}
