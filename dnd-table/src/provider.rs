//! Who plays the game master: the offline one, OpenAI (or any server that speaks its API), or
//! OpenRouter. All of it is decided in [`choose`], from the environment and a few options, the
//! same way for the terminal game, the server and the other examples (the environment is read
//! only by [`openai_config`] and [`openrouter_config`], which the `providers` example calls
//! directly to add prices); and [`game_master`]
//! builds the game master over a store with the settings that suit the provider.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use dnd_engine::gm::{GameMaster, GameMasterBuilder, Protocol, Suggestions, Summarizer};
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, StreamEvent,
};
use dnd_engine::offline::OfflineGm;
use dnd_engine::store::GameStore;
use dnd_llm_openai::{DEFAULT_MODEL, OPENAI_BASE_URL, OpenAiConfig, OpenAiProvider, Pricing};
use dnd_llm_openrouter::{OpenRouterConfig, OpenRouterConfigExt, OpenRouterProvider};
use futures::StreamExt;
use futures::stream::BoxStream;

/// Which provider was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProviderChoice {
    /// Decide from the environment (see [`choose`]).
    #[default]
    Auto,
    /// The offline game master.
    Offline,
    /// OpenAI or a compatible server.
    OpenAi,
    /// OpenRouter.
    OpenRouter,
}

/// What [`choose`] is told besides the environment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderOptions {
    /// Which provider (`--provider`).
    pub provider: ProviderChoice,
    /// The model (`--model`), over the environment's.
    pub model: Option<String>,
    /// Milliseconds each answer waits first (`--delay`); 0 for none.
    pub delay_ms: u64,
}

/// The provider chosen, and what to tell the player about it. Its `Debug` names the provider,
/// never a key.
pub struct Chosen {
    /// The provider.
    pub provider: Arc<dyn LlmProvider>,
    /// Whether it is the offline game master (it needs the code summarizer, and costs nothing).
    pub offline: bool,
    /// "openai · gpt-4o-mini", for the first screen.
    pub description: String,
    /// Whether each answer is delayed (`delay_ms`): the offline game master is then used as a
    /// provider, behind the delay.
    pub delayed: bool,
}

/// Whether the environment variable `name` is set to something other than blanks.
fn env_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.trim().is_empty())
}

/// Whether the environment asks for OpenAI or a compatible server: `OPENAI_API_KEY` or
/// `OPENAI_BASE_URL` is set. (The voice example needs OpenAI's own speech endpoints and asks
/// this rather than [`choose`].)
pub fn openai_configured() -> bool {
    env_set("OPENAI_API_KEY") || env_set("OPENAI_BASE_URL")
}

/// Picks the provider from `--provider`, or from the environment: `OPENAI_API_KEY` or
/// `OPENAI_BASE_URL` → OpenAI (or the compatible server there), else `OPENROUTER_API_KEY` →
/// OpenRouter, else offline. An error is one line saying what to do.
pub fn choose(options: &ProviderOptions) -> Result<Chosen, String> {
    let choice = match options.provider {
        ProviderChoice::Auto if openai_configured() => ProviderChoice::OpenAi,
        ProviderChoice::Auto if env_set("OPENROUTER_API_KEY") => ProviderChoice::OpenRouter,
        ProviderChoice::Auto => ProviderChoice::Offline,
        explicit => explicit,
    };
    let chosen = match choice {
        ProviderChoice::Auto | ProviderChoice::Offline => {
            let note = if options.model.is_some() {
                " (--model is ignored offline)"
            } else {
                ""
            };
            Chosen {
                provider: Arc::new(OfflineGm::new()),
                offline: true,
                description: format!(
                    "offline: the built-in game master, no model and no network{note}"
                ),
                delayed: false,
            }
        }
        ProviderChoice::OpenAi => openai(options.model.as_deref())?,
        ProviderChoice::OpenRouter => openrouter(options.model.as_deref())?,
    };
    Ok(if options.delay_ms > 0 {
        Chosen {
            provider: Arc::new(Delayed {
                inner: chosen.provider,
                delay: Duration::from_millis(options.delay_ms),
            }),
            description: format!(
                "{} (each answer delayed by {} ms)",
                chosen.description, options.delay_ms
            ),
            delayed: true,
            ..chosen
        }
    } else {
        chosen
    })
}

impl std::fmt::Debug for Chosen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chosen")
            .field("provider", &self.provider.name())
            .field("offline", &self.offline)
            .field("description", &self.description)
            .finish()
    }
}

/// Settings of the game master that the player may choose (flags of `play`, fields of the
/// server's request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GmSettings {
    /// The protocol, else the provider's default.
    pub protocol: Option<Protocol>,
    /// Where suggested actions come from, else the default (code).
    pub suggestions: Option<Suggestions>,
    /// Seeds the dice.
    pub seed: Option<u64>,
}

/// The game master's builder over `store` for the chosen provider: the offline game master with
/// the settings that suit it (the summary kept by code) when it is offline and undelayed,
/// otherwise the provider with an LLM summariser (code when offline). Callers may set more
/// before `build`.
pub fn game_master(
    chosen: &Chosen,
    store: Arc<dyn GameStore>,
    settings: GmSettings,
) -> GameMasterBuilder {
    let mut builder = if chosen.offline && !chosen.delayed {
        OfflineGm::game_master(store)
    } else {
        let summarizer = if chosen.offline {
            Summarizer::Code
        } else {
            Summarizer::Llm
        };
        GameMaster::builder(Arc::clone(&chosen.provider), store).summarizer(summarizer)
    };
    if let Some(suggestions) = settings.suggestions {
        builder = builder.suggestions(suggestions);
    }
    if let Some(protocol) = settings.protocol {
        builder = builder.protocol(protocol);
    }
    if let Some(seed) = settings.seed {
        builder = builder.seed(seed);
    }
    builder
}

/// The configuration of OpenAI or a compatible server, the one place the environment is read
/// for it: `base_url` names a local or self-hosted server (llama.cpp, Ollama, vLLM: the
/// conservative [`OpenAiConfig::local`] settings, with `OPENAI_API_KEY` if set), else
/// `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL` decide. `model` wins over
/// `OPENAI_MODEL`. On OpenAI's own API a known model gets its list prices, so `/cost` shows
/// money.
///
/// # Errors
///
/// Neither a key nor a base URL is set: the message says which variables to set.
pub fn openai_config(model: Option<&str>, base_url: Option<&str>) -> Result<OpenAiConfig, String> {
    let mut config = match base_url {
        Some(base_url) => {
            let env_model = std::env::var("OPENAI_MODEL")
                .ok()
                .filter(|m| !m.trim().is_empty());
            let model = env_model.unwrap_or_else(|| DEFAULT_MODEL.to_owned());
            let mut config = OpenAiConfig::local(base_url, model);
            if let Ok(key) = std::env::var("OPENAI_API_KEY")
                && !key.trim().is_empty()
            {
                config = config.with_api_key(key);
            }
            config
        }
        None => OpenAiConfig::from_env().map_err(|e| e.to_string())?,
    };
    if let Some(model) = model {
        config = config.with_model(model);
    }
    if is_hosted(&config) && config.pricing.is_none() {
        config.pricing = openai_list_price(config.model());
    }
    Ok(config)
}

/// Whether a configuration is OpenAI's own API rather than a compatible server.
fn is_hosted(config: &OpenAiConfig) -> bool {
    config.base_url.trim_end_matches('/') == OPENAI_BASE_URL
}

/// The configuration of OpenRouter, the one place the environment is read for it:
/// `OPENROUTER_API_KEY` (required), `OPENROUTER_MODEL` or `model`, `OPENROUTER_BASE_URL` or
/// `base_url`; the app is attributed as `title`. It reports the cost of each call itself.
///
/// # Errors
///
/// `OPENROUTER_API_KEY` is not set: the message says how to get a key.
pub fn openrouter_config(
    model: Option<&str>,
    base_url: Option<&str>,
    title: &str,
) -> Result<OpenRouterConfig, String> {
    let mut config = OpenRouterConfig::from_env().map_err(|e| e.to_string())?;
    if let Some(model) = model {
        config = config.with_model(model);
    }
    if let Some(base_url) = base_url {
        config = config.with_base_url(base_url);
    }
    Ok(config.with_app("https://example.invalid/dnd-gm", title))
}

/// OpenAI, or the OpenAI-compatible server at `OPENAI_BASE_URL` ([`openai_config`]).
fn openai(model: Option<&str>) -> Result<Chosen, String> {
    let config = openai_config(model, None)?;
    let description = if is_hosted(&config) {
        format!("openai · model {}", config.model())
    } else {
        format!(
            "OpenAI-compatible server at {} · model {}",
            config.base_url,
            config.model()
        )
    };
    let provider = OpenAiProvider::new(config).map_err(|e| e.to_string())?;
    Ok(Chosen {
        provider: Arc::new(provider),
        offline: false,
        description,
        delayed: false,
    })
}

/// OpenAI's list prices in US dollars per million tokens (input, cached input, output) for a
/// few common models, so `/cost` can estimate money: the API reports tokens, not prices.
/// Another model's cost shows as unknown.
fn openai_list_price(model: &str) -> Option<Pricing> {
    let (input, cached, output) = match model {
        "gpt-4o-mini" => (0.15, 0.075, 0.60),
        "gpt-4o" => (2.50, 1.25, 10.00),
        "gpt-4.1" => (2.00, 0.50, 8.00),
        "gpt-4.1-mini" => (0.40, 0.10, 1.60),
        "gpt-4.1-nano" => (0.10, 0.025, 0.40),
        _ => return None,
    };
    Some(Pricing {
        input_per_million: input,
        cached_input_per_million: Some(cached),
        output_per_million: output,
    })
}

/// OpenRouter ([`openrouter_config`]).
fn openrouter(model: Option<&str>) -> Result<Chosen, String> {
    let config = openrouter_config(model, None, "dnd-gm play")?;
    let description = format!("openrouter · model {}", config.model());
    let provider = OpenRouterProvider::new(config).map_err(|e| e.to_string())?;
    Ok(Chosen {
        provider: Arc::new(provider),
        offline: false,
        description,
        delayed: false,
    })
}

/// A provider whose every answer waits a while first: `--delay`.
struct Delayed {
    inner: Arc<dyn LlmProvider>,
    delay: Duration,
}

#[async_trait]
impl LlmProvider for Delayed {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    async fn context_window(&self) -> Option<u32> {
        self.inner.context_window().await
    }

    async fn complete(&self, req: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        tokio::time::sleep(self.delay).await;
        self.inner.complete(req).await
    }

    fn stream<'a>(
        &'a self,
        req: &'a CompletionRequest,
    ) -> BoxStream<'a, Result<StreamEvent, LlmError>> {
        futures::stream::once(tokio::time::sleep(self.delay))
            .flat_map(move |()| self.inner.stream(req))
            .boxed()
    }
}
