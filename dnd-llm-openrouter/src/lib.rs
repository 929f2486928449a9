//! [`LlmProvider`](dnd_engine::llm::LlmProvider) for [OpenRouter](https://openrouter.ai), one
//! API in front of many models and providers.
//!
//! OpenRouter speaks OpenAI's Chat Completions format, so this crate is thin on purpose: the
//! provider itself and its configuration are the OpenAI adapter's
//! [`ChatProvider`](dnd_llm_openai::ChatProvider) and [`ChatConfig`](dnd_llm_openai::ChatConfig)
//! (wire types, request building, response parsing, stream assembly, retries, timeouts, key
//! handling), reused rather than copied, so a fix there fixes both. What is here is only what
//! OpenRouter adds, as a [`Dialect`](dnd_llm_openai::Dialect):
//!
//! | module | owns |
//! |---|---|
//! | [`OpenRouter`], [`OpenRouterConfig`] (`config`) | the dialect's settings: [`Attribution`] headers (`HTTP-Referer`, `X-OpenRouter-Title` and the older `X-Title`), fallback models, routing, caching; their setters on [`OpenRouterConfigExt`] |
//! | [`dialect`] | the [`Dialect`](dnd_llm_openai::Dialect) itself: the base URL, `OPENROUTER_API_KEY` / `OPENROUTER_MODEL`, and where each piece below plugs in |
//! | [`routing`] | the `provider` object, with `require_parameters: true` whenever tools or a JSON Schema are sent, because otherwise a provider that cannot honour them may be picked and silently ignore them |
//! | [`cache`] | `cache_control` breakpoints for Anthropic models, placed from the engine's [`stable_prefix`](dnd_engine::llm::CompletionRequest::stable_prefix) and a checkpoint that advances every N turns, at most four |
//! | [`build_body`] (`body`) | the OpenAI body plus `models`, `provider` and the cache markers; pure |
//! | [`errors`] | numeric error codes, 402 (out of credits) and 403 moderation with its metadata, both never retried |
//! | [`parse_response`] (`response`) | the OpenAI parser with OpenRouter's errors, and the cost from `usage.cost` and `usage.cost_details` |
//! | [`OpenRouterProvider`] (`provider`) | `ChatProvider<OpenRouter>`: the shared provider, plain and streamed |
//!
//! The model that answered, which may be a fallback, is in
//! [`CompletionResponse::model`](dnd_engine::llm::CompletionResponse::model); what the call
//! cost is in [`Usage::cost`](dnd_engine::llm::Usage::cost).
//!
//! # Secrets
//!
//! The key lives in the OpenAI adapter's [`ApiKey`](dnd_llm_openai::http::ApiKey) (its `Debug`
//! prints `<redacted>`), the header carrying it is marked sensitive, errors quote the
//! provider's text with the key removed, and the configuration's and provider's `Debug`s show
//! neither the key nor the values of extra headers.
//!
//! # Example
//!
//! ```no_run
//! use dnd_engine::llm::{CompletionRequest, LlmProvider, Message};
//! use dnd_llm_openrouter::{
//!     OpenRouterConfig, OpenRouterConfigExt, OpenRouterProvider, ProviderPreferences,
//! };
//!
//! # async fn run() -> Result<(), dnd_engine::llm::LlmError> {
//! let config = OpenRouterConfig::new("anthropic/claude-haiku-4.5")
//!     .with_api_key(std::env::var("OPENROUTER_API_KEY").unwrap_or_default())
//!     .with_fallback_models(["openai/gpt-4o-mini"])
//!     .with_routing(ProviderPreferences::default().with_order(["anthropic"]))
//!     .with_app("https://example.com/my-table", "My table");
//! let provider = OpenRouterProvider::new(config)?;
//! let answer = provider
//!     .complete(&CompletionRequest::new(vec![Message::user("Name a tavern.")]))
//!     .await?;
//! println!("{} ({:?})", answer.text().unwrap_or_default(), answer.usage.cost);
//! # Ok(())
//! # }
//! ```

mod body;
pub mod cache;
mod config;
pub mod dialect;
pub mod errors;
mod provider;
mod response;
pub mod routing;

/// The provider-neutral types this adapter translates to and from the wire format.
pub use dnd_engine::llm;

pub use body::{build_body, needs_parameters};
pub use cache::{CacheMode, MAX_BREAKPOINTS, PromptCache};
pub use config::{
    Attribution, DEFAULT_MODEL, OPENROUTER_BASE_URL, OpenRouter, OpenRouterConfig,
    OpenRouterConfigExt,
};
pub use dialect::context_length_of;
pub use provider::OpenRouterProvider;
pub use response::{cost_from_usage, parse_response};
pub use routing::{DataCollection, MaxPrice, ProviderPreferences, ProviderSort};
