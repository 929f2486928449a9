//! [`OpenRouter`] as a [`Dialect`] of the shared provider: everything OpenRouter does
//! differently from OpenAI, and nothing else.
//!
//! | hook | OpenRouter's |
//! |---|---|
//! | configuration | [`OPENROUTER_BASE_URL`](crate::OPENROUTER_BASE_URL), `max_tokens`, the context window read; `OPENROUTER_API_KEY` (required), `OPENROUTER_MODEL`, `OPENROUTER_BASE_URL` |
//! | headers | the [`Attribution`](crate::Attribution) headers |
//! | errors | numeric codes, 402 and 403 moderation ([`crate::errors`]) |
//! | body | `models`, `provider` and the cache markers ([`crate::build_body`]) |
//! | answer | the cost from `usage.cost` and `usage.cost_details` ([`cost_from_usage`]) |
//! | context window | the model's `context_length` in `GET /models` ([`context_length_of`]) |

use dnd_engine::llm::{CompletionRequest, CompletionResponse, LlmError};
use dnd_llm_openai::http::HttpFailure;
use dnd_llm_openai::wire::{ChatRequest, ErrorObject};
use dnd_llm_openai::{ChatConfig, Dialect, RequestOptions};
use serde_json::Value;

use crate::body::add_fields;
use crate::config::{DEFAULT_MODEL, OpenRouter};
use crate::errors;
use crate::response::cost_from_usage;

impl Dialect for OpenRouter {
    fn config(model: String) -> ChatConfig<Self> {
        OpenRouter::default_config(model)
    }

    /// Reads `OPENROUTER_API_KEY` (required), `OPENROUTER_MODEL` (default [`DEFAULT_MODEL`])
    /// and `OPENROUTER_BASE_URL` (default [`OPENROUTER_BASE_URL`](crate::OPENROUTER_BASE_URL)).
    fn config_from_env() -> Result<ChatConfig<Self>, LlmError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let key = var("OPENROUTER_API_KEY").ok_or_else(|| {
            LlmError::auth(
                "no OpenRouter key: set OPENROUTER_API_KEY (create one at \
                 https://openrouter.ai/settings/keys), and OPENROUTER_MODEL to choose the model",
            )
        })?;
        let model = var("OPENROUTER_MODEL").unwrap_or_else(|| DEFAULT_MODEL.into());
        let mut config = OpenRouter::default_config(model).with_api_key(key);
        if let Some(base_url) = var("OPENROUTER_BASE_URL") {
            config.base_url = base_url;
        }
        Ok(config)
    }

    fn headers(&self) -> Vec<(&str, &str, bool)> {
        let attribution = self.attribution.headers().into_iter();
        attribution
            .map(|(name, value)| (name, value, false))
            .collect()
    }

    fn error_from_failure(failure: &HttpFailure<'_>) -> LlmError {
        errors::error_from_failure(failure)
    }

    fn error_from_object(error: &ErrorObject) -> LlmError {
        errors::error_from_object(error)
    }

    fn add_to_body<'a>(
        &'a self,
        body: &mut ChatRequest<'a>,
        request: &'a CompletionRequest,
        options: &'a RequestOptions,
    ) {
        add_fields(self, body, request, &options.model);
    }

    fn read_response(raw: &Value, response: &mut CompletionResponse) {
        if let Some(cost) = raw.get("usage").and_then(cost_from_usage) {
            response.usage.cost = Some(cost);
        }
    }

    fn context_window_url(&self, config: &ChatConfig<Self>) -> String {
        config.endpoint("models")
    }

    fn context_window_in(&self, answer: &Value, model: &str) -> Option<u32> {
        context_length_of(answer, model)
    }
}

/// The context window of `model` in OpenRouter's models list (`{"data": [{"id",
/// "context_length", "top_provider": {"context_length"}}]}`): the smaller of the model's and
/// its top provider's, since a request may be routed to either.
pub fn context_length_of(models: &Value, model: &str) -> Option<u32> {
    let entry = models
        .get("data")?
        .as_array()?
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(model))?;
    let lengths = [
        entry.get("context_length"),
        entry.pointer("/top_provider/context_length"),
    ];
    lengths
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .filter(|n| *n > 0)
        .min()
        .and_then(|n| u32::try_from(n).ok())
}
