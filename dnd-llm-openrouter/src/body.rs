//! The request body: the OpenAI adapter's, plus what OpenRouter adds. Pure.
//!
//! [`build_body`] builds the OpenAI body with `build_request_with` (the same messages, tools,
//! strict schemas and token limit) and then adds, through the body's `extra` fields and content
//! parts:
//!
//! - `models`: the fallback models, tried in order after `model`;
//! - `provider`: the routing preferences, with `require_parameters: true` whenever tools or a
//!   JSON Schema are sent (see [`crate::routing`]);
//! - `cache_control` markers on content parts, for models that need them (see [`crate::cache`]).
//!
//! A field the caller put in [`RequestOptions::extra_body`](dnd_llm_openai::RequestOptions)
//! wins over the adapter's of the same name.

use dnd_engine::llm::{CompletionRequest, ResponseFormat};
use dnd_llm_openai::StrictTools;
use dnd_llm_openai::wire::ChatRequest;
use serde_json::{Map, Value};

use crate::cache::apply_breakpoints;
use crate::config::{OpenRouter, OpenRouterConfig};

/// Whether providers must support the request's parameters to serve it: it has tools, or asks
/// for JSON matching a schema.
pub fn needs_parameters(request: &CompletionRequest) -> bool {
    !request.tools.is_empty()
        || matches!(request.response_format, ResponseFormat::JsonSchema { .. })
}

/// The body for `request` (not streamed), reusing `strict_tools` when they are for the
/// request's tool list: the shared body in OpenRouter's dialect.
pub fn build_body<'a>(
    request: &'a CompletionRequest,
    config: &'a OpenRouterConfig,
    strict_tools: Option<&'a StrictTools>,
) -> ChatRequest<'a> {
    dnd_llm_openai::build_body(config, request, strict_tools)
}

/// Adds OpenRouter's fields to a built body: `models`, `provider`, then the cache markers
/// when the model needs them.
pub(crate) fn add_fields(
    dialect: &OpenRouter,
    body: &mut ChatRequest<'_>,
    request: &CompletionRequest,
    model: &str,
) {
    let mut added = Map::new();
    if !dialect.fallback_models.is_empty() {
        let models = dialect.fallback_models.iter().cloned().map(Value::String);
        added.insert("models".to_owned(), Value::Array(models.collect()));
    }
    if let Some(provider) = dialect.routing.for_request(needs_parameters(request)) {
        added.insert("provider".to_owned(), provider);
    }
    if !added.is_empty() {
        let extra = body.extra.to_mut();
        for (key, value) in added {
            extra.entry(key).or_insert(value);
        }
    }
    if dialect.cache.applies_to(model) {
        let positions = dialect.cache.breakpoints(request);
        if !positions.is_empty() {
            apply_breakpoints(body, &positions, &dialect.cache.marker());
        }
    }
}

#[cfg(test)]
mod tests {
    use dnd_engine::llm::{Message, ToolSpec};
    use serde_json::json;

    use super::*;
    use crate::config::OpenRouterConfigExt;
    use crate::routing::ProviderPreferences;

    fn body_json(request: &CompletionRequest, config: &OpenRouterConfig) -> Value {
        serde_json::to_value(build_body(request, config, None)).unwrap()
    }

    #[test]
    fn plain_requests_carry_nothing_extra() {
        let request = CompletionRequest::new(vec![Message::user("hi")]);
        let config = OpenRouterConfig::new("openai/gpt-4o-mini");
        assert_eq!(
            body_json(&request, &config),
            json!({"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]})
        );
    }

    #[test]
    fn tools_and_schemas_require_parameters_and_extra_body_wins() {
        let tool = ToolSpec::new("look", "Look.", json!({"type": "object", "properties": {}}));
        let request = CompletionRequest::new(vec![Message::user("hi")]).with_tool(tool);
        let config = OpenRouterConfig::new("m")
            .with_fallback_models(["b", "c"])
            .with_routing(ProviderPreferences::default().with_order(["x"]));
        let body = body_json(&request, &config);
        assert_eq!(body["models"], json!(["b", "c"]));
        assert_eq!(
            body["provider"],
            json!({"order": ["x"], "require_parameters": true})
        );
        let schema = CompletionRequest::new(vec![Message::user("hi")])
            .with_response_format(ResponseFormat::json_schema("a", json!({"type": "object"})));
        assert!(needs_parameters(&schema));
        assert!(!needs_parameters(
            &CompletionRequest::new(vec![]).with_response_format(ResponseFormat::JsonObject)
        ));
        let overridden = config.with_body_field("provider", json!({"sort": "price"}));
        assert_eq!(
            body_json(&request, &overridden)["provider"],
            json!({"sort": "price"})
        );
    }

    #[test]
    fn anthropic_models_get_cache_markers_others_do_not() {
        let mut request = CompletionRequest::new(vec![
            Message::system("rules"),
            Message::system("summary"),
            Message::user("hi"),
        ]);
        request.stable_prefix = 2;
        let marked = body_json(
            &request,
            &OpenRouterConfig::new("anthropic/claude-haiku-4.5"),
        );
        let part = |i: usize| marked["messages"][i]["content"][0]["cache_control"].clone();
        assert_eq!(part(1), json!({"type": "ephemeral"}));
        assert_eq!(part(2), json!({"type": "ephemeral"}));
        assert_eq!(marked["messages"][0]["content"], "rules");
        let plain = body_json(&request, &OpenRouterConfig::new("openai/gpt-4o"));
        assert_eq!(plain["messages"][1]["content"], "summary");
    }
}
