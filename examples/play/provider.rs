//! Who plays the game master: the offline one, OpenAI (or any server that speaks its API), or
//! OpenRouter. All of it is decided in [`choose`].

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, StreamEvent,
};
use dnd_engine::offline::OfflineGm;
use dnd_llm_openai::{OPENAI_BASE_URL, OpenAiConfig, OpenAiProvider, Pricing};
use dnd_llm_openrouter::{OpenRouterConfig, OpenRouterProvider};
use futures::StreamExt;
use futures::stream::BoxStream;

use crate::options::{Options, ProviderChoice};

/// The provider chosen, and what to tell the player about it.
pub struct Chosen {
    /// The provider.
    pub provider: Arc<dyn LlmProvider>,
    /// Whether it is the offline game master (it needs the code summarizer, and costs nothing).
    pub offline: bool,
    /// "openai · gpt-4o-mini", for the first screen.
    pub description: String,
}

/// Picks the provider from `--provider`, or from the environment: `OPENAI_API_KEY` or
/// `OPENAI_BASE_URL` → OpenAI (or the compatible server there), else `OPENROUTER_API_KEY` →
/// OpenRouter, else offline. An error is one line saying what to do.
pub fn choose(options: &Options) -> Result<Chosen, String> {
    let set = |name: &str| std::env::var(name).is_ok_and(|v| !v.trim().is_empty());
    let choice = match options.provider {
        ProviderChoice::Auto if set("OPENAI_API_KEY") || set("OPENAI_BASE_URL") => {
            ProviderChoice::OpenAi
        }
        ProviderChoice::Auto if set("OPENROUTER_API_KEY") => ProviderChoice::OpenRouter,
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
            ..chosen
        }
    } else {
        chosen
    })
}

/// OpenAI, or the OpenAI-compatible server at `OPENAI_BASE_URL`, configured from the
/// environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`); `--model` wins.
fn openai(model: Option<&str>) -> Result<Chosen, String> {
    let mut config = OpenAiConfig::from_env().map_err(|e| e.to_string())?;
    if let Some(model) = model {
        config = config.with_model(model);
    }
    let hosted = config.base_url.trim_end_matches('/') == OPENAI_BASE_URL;
    if hosted && config.pricing.is_none() {
        config.pricing = openai_list_price(config.model());
    }
    let description = if hosted {
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

/// OpenRouter: `OPENROUTER_API_KEY`, `OPENROUTER_MODEL` or `--model`. It reports the cost of
/// each call itself, so `/cost` shows money without a price list.
fn openrouter(model: Option<&str>) -> Result<Chosen, String> {
    let mut config = OpenRouterConfig::from_env().map_err(|e| e.to_string())?;
    if let Some(model) = model {
        config = config.with_model(model);
    }
    let config = config.with_app("https://example.invalid/dnd-gm", "dnd-gm play");
    let description = format!("openrouter · model {}", config.model());
    let provider = OpenRouterProvider::new(config).map_err(|e| e.to_string())?;
    Ok(Chosen {
        provider: Arc::new(provider),
        offline: false,
        description,
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
