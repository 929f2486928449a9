//! [`OpenRouterProvider`]: the shared provider of `dnd-llm-openai` in OpenRouter's dialect.

use dnd_llm_openai::ChatProvider;

use crate::config::OpenRouter;

/// An [`LlmProvider`](dnd_engine::llm::LlmProvider) for OpenRouter: the OpenAI adapter's
/// [`ChatProvider`] (same HTTP layer, timeouts, retries, key handling, streaming) in the
/// [`OpenRouter`] dialect. Keep-alive comments (`: OPENROUTER PROCESSING`) of a stream do not
/// count as data for the idle timeout; the final response's cost is `usage.cost`.
///
/// ```no_run
/// use dnd_engine::llm::{CompletionRequest, LlmProvider, Message};
/// use dnd_llm_openrouter::{OpenRouterConfig, OpenRouterConfigExt, OpenRouterProvider};
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
pub type OpenRouterProvider = ChatProvider<OpenRouter>;
