//! Request building: the engine's [`CompletionRequest`] to a [`ChatRequest`] body. Pure: no
//! HTTP, no clock, no randomness; the same request and options always give the same body.

use std::borrow::Cow;
use std::sync::Arc;

use dnd_engine::llm::{CompletionRequest, Message, ResponseFormat, ToolCall, ToolChoice, ToolSpec};
use dnd_engine::tools::schema::strictify;
use serde_json::{Map, Value};

use crate::wire::{
    ChatRequest, FunctionDefinition, JsonSchemaFormat, RequestContent, RequestFunctionCall,
    RequestMessage, RequestResponseFormat, RequestTool, RequestToolCall, RequestToolChoice,
    StreamOptions,
};

/// Which field carries [`CompletionRequest::max_tokens`].
///
/// Reasoning models refuse `max_tokens`; older servers ignore or refuse
/// `max_completion_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenLimitField {
    /// `max_completion_tokens` (OpenAI's current name).
    #[default]
    MaxCompletionTokens,
    /// `max_tokens` (the legacy name most compatible servers know).
    MaxTokens,
}

/// When an assistant message's [`Reasoning`](dnd_engine::llm::Reasoning) goes back to the
/// server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReasoningEcho {
    /// On assistant messages with tool calls (what DeepSeek and reasoning models behind
    /// OpenRouter require; others ignore it).
    #[default]
    ToolCallTurns,
    /// On every assistant message that has reasoning.
    Always,
    /// Never.
    Never,
}

/// What request building needs besides the request: the model and the server's dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestOptions {
    /// The model name.
    pub model: String,
    /// Which field carries the token limit.
    pub token_limit: TokenLimitField,
    /// Pass tool schemas through the engine's strict-mode sanitizer and mark them
    /// `strict: true` (the default). Off for servers that reject `strict`.
    pub strict_tools: bool,
    /// `parallel_tool_calls`, sent only with tools; `None` leaves it to the server.
    pub parallel_tool_calls: Option<bool>,
    /// When reasoning goes back to the server.
    pub reasoning_echo: ReasoningEcho,
    /// Send `"content": ""` on an assistant message that only calls tools, instead of leaving
    /// `content` out. Off by default (OpenAI's API); on for local servers, because
    /// llama-cpp-python's server fails with HTTP 500 both without the key (its chat template
    /// reads it) and with `null` (it validates a string).
    pub empty_tool_call_content: bool,
    /// Ask for usage in the last streamed chunk (`stream_options.include_usage`).
    pub stream_usage: bool,
    /// Fields merged into every body last; they win over the adapter's own.
    pub extra_body: Map<String, Value>,
}

impl RequestOptions {
    /// Options for this model with every other setting at its default.
    pub fn new(model: impl Into<String>) -> Self {
        RequestOptions {
            model: model.into(),
            token_limit: TokenLimitField::default(),
            strict_tools: true,
            parallel_tool_calls: None,
            reasoning_echo: ReasoningEcho::default(),
            empty_tool_call_content: false,
            stream_usage: true,
            extra_body: Map::new(),
        }
    }
}

/// Tool schemas already passed through the strict sanitizer, for one shared tool list.
///
/// The engine sends the same `Arc<Vec<ToolSpec>>` with every call of a game; sanitizing it once
/// and reusing the result keeps each request from copying every schema. [`build_request_with`]
/// uses it when [`is_for`](StrictTools::is_for) the request's list and sanitizes on the fly
/// otherwise.
#[derive(Debug, Clone)]
pub struct StrictTools {
    // Held so the list cannot be freed and another allocated at the same address.
    source: Arc<Vec<ToolSpec>>,
    parameters: Vec<Value>,
}

impl StrictTools {
    /// Sanitizes the schemas of `tools`.
    pub fn new(tools: &Arc<Vec<ToolSpec>>) -> Self {
        let parameters = tools.iter().map(|tool| strict(&tool.parameters)).collect();
        StrictTools {
            source: Arc::clone(tools),
            parameters,
        }
    }

    /// Whether these are the schemas of exactly this list (the same allocation).
    pub fn is_for(&self, tools: &Arc<Vec<ToolSpec>>) -> bool {
        Arc::ptr_eq(&self.source, tools)
    }
}

/// The sanitized schemas of the last tool list a provider was sent: a game sends the same
/// shared list with every call, so the schemas are sanitized once, not per request.
#[derive(Debug, Default)]
pub struct StrictToolsCache {
    last: std::sync::Mutex<Option<Arc<StrictTools>>>,
}

impl StrictToolsCache {
    /// The sanitized schemas of `tools` (none for an empty list), from the cache when it holds
    /// this very list.
    pub fn get(&self, tools: &Arc<Vec<ToolSpec>>) -> Option<Arc<StrictTools>> {
        if tools.is_empty() {
            return None;
        }
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(strict) = last.as_ref().filter(|s| s.is_for(tools)) {
            return Some(Arc::clone(strict));
        }
        let strict = Arc::new(StrictTools::new(tools));
        *last = Some(Arc::clone(&strict));
        Some(strict)
    }

    /// As [`get`](StrictToolsCache::get) when strict tools are `enabled`
    /// ([`RequestOptions::strict_tools`]); `None` otherwise.
    pub fn get_if(&self, enabled: bool, tools: &Arc<Vec<ToolSpec>>) -> Option<Arc<StrictTools>> {
        if !enabled {
            return None;
        }
        self.get(tools)
    }
}

fn strict(schema: &Value) -> Value {
    let mut schema = schema.clone();
    strictify(&mut schema);
    schema
}

/// The body for `request`, not streamed; tool schemas are sanitized on the fly.
pub fn build_request<'a>(
    request: &'a CompletionRequest,
    options: &'a RequestOptions,
) -> ChatRequest<'a> {
    build_request_with(request, options, None)
}

/// The body for `request`, reusing `strict_tools` when they are for the request's tool list.
pub fn build_request_with<'a>(
    request: &'a CompletionRequest,
    options: &'a RequestOptions,
    strict_tools: Option<&'a StrictTools>,
) -> ChatRequest<'a> {
    let has_tools = !request.tools.is_empty();
    let (max_tokens, max_completion_tokens) = match options.token_limit {
        TokenLimitField::MaxTokens => (request.max_tokens, None),
        TokenLimitField::MaxCompletionTokens => (None, request.max_tokens),
    };
    ChatRequest {
        model: Cow::Borrowed(&options.model),
        messages: request
            .messages
            .iter()
            .map(|message| message_to_wire(message, options))
            .collect(),
        tools: tools_to_wire(&request.tools, options, strict_tools),
        tool_choice: if has_tools {
            tool_choice_to_wire(&request.tool_choice)
        } else {
            None
        },
        parallel_tool_calls: options.parallel_tool_calls.filter(|_| has_tools),
        response_format: response_format_to_wire(&request.response_format),
        temperature: request.temperature.map(wire_temperature),
        seed: request.seed,
        max_tokens,
        max_completion_tokens,
        stream: None,
        stream_options: None,
        extra: Cow::Borrowed(&options.extra_body),
    }
}

/// Turns a built body into a streaming one (`stream: true`, and usage in the last chunk when
/// the options ask for it).
pub fn into_streaming<'a>(mut body: ChatRequest<'a>, options: &RequestOptions) -> ChatRequest<'a> {
    body.stream = Some(true);
    if options.stream_usage {
        body.stream_options = Some(StreamOptions {
            include_usage: true,
        });
    }
    body
}

/// A temperature as the double with the same shortest decimal form, so `0.7f32` is sent as
/// `0.7`, not `0.699999988079071`.
fn wire_temperature(temperature: f32) -> f64 {
    temperature
        .to_string()
        .parse()
        .unwrap_or(f64::from(temperature))
}

fn message_to_wire<'a>(message: &'a Message, options: &RequestOptions) -> RequestMessage<'a> {
    match message {
        Message::System { content } => RequestMessage {
            role: "system",
            content: Some(RequestContent::Text(Cow::Borrowed(content))),
            ..RequestMessage::default()
        },
        Message::User { content, name } => RequestMessage {
            role: "user",
            content: Some(RequestContent::Text(Cow::Borrowed(content))),
            name: name.as_deref().map(participant_name),
            ..RequestMessage::default()
        },
        Message::Assistant {
            content,
            tool_calls,
            reasoning,
        } => {
            let text = content.as_deref().filter(|text| !text.is_empty());
            let content = match (text, tool_calls.is_empty()) {
                (Some(text), _) => Some(RequestContent::Text(Cow::Borrowed(text))),
                // Neither text nor calls: an empty string keeps the message valid.
                (None, true) => Some(RequestContent::Text(Cow::Borrowed(""))),
                (None, false) if options.empty_tool_call_content => {
                    Some(RequestContent::Text(Cow::Borrowed("")))
                }
                (None, false) => None,
            };
            let send_reasoning = match options.reasoning_echo {
                ReasoningEcho::Always => true,
                ReasoningEcho::ToolCallTurns => !tool_calls.is_empty(),
                ReasoningEcho::Never => false,
            };
            let mut wire = RequestMessage {
                role: "assistant",
                content,
                tool_calls: tool_calls.iter().map(tool_call_to_wire).collect(),
                ..RequestMessage::default()
            };
            if let Some(reasoning) = reasoning.as_deref().filter(|_| send_reasoning) {
                let text = reasoning.text.as_deref().filter(|t| !t.is_empty());
                if reasoning.field.as_deref() == Some("reasoning") {
                    wire.reasoning = text;
                } else {
                    wire.reasoning_content = text;
                }
                wire.reasoning_details = reasoning.details.as_ref();
            }
            wire
        }
        Message::Tool {
            tool_call_id,
            content,
        } => RequestMessage {
            role: "tool",
            content: Some(RequestContent::Text(Cow::Borrowed(content))),
            tool_call_id: Some(tool_call_id),
            ..RequestMessage::default()
        },
    }
}

/// A user's name as the wire accepts it: no whitespace or `<|\/>`, at most 64 characters.
fn participant_name(name: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_whitespace() || matches!(c, '<' | '|' | '\\' | '/' | '>');
    if !name.contains(bad) && name.chars().count() <= 64 {
        return Cow::Borrowed(name);
    }
    Cow::Owned(
        name.chars()
            .take(64)
            .map(|c| if bad(c) { '_' } else { c })
            .collect(),
    )
}

fn tool_call_to_wire(call: &ToolCall) -> RequestToolCall<'_> {
    let arguments = match &call.arguments {
        // Text the model wrote that was not JSON: sent back exactly as it came.
        Value::String(text) => Cow::Borrowed(text.as_str()),
        other => Cow::Owned(other.to_string()),
    };
    RequestToolCall {
        id: &call.id,
        kind: "function",
        function: RequestFunctionCall {
            name: &call.name,
            arguments,
        },
    }
}

fn tools_to_wire<'a>(
    tools: &'a Arc<Vec<ToolSpec>>,
    options: &RequestOptions,
    cached: Option<&'a StrictTools>,
) -> Vec<RequestTool<'a>> {
    let cached = cached.filter(|c| c.is_for(tools));
    tools
        .iter()
        .enumerate()
        .map(|(i, tool)| {
            let parameters = match (options.strict_tools, cached) {
                (false, _) => Cow::Borrowed(&tool.parameters),
                (true, Some(cached)) => Cow::Borrowed(&cached.parameters[i]),
                (true, None) => Cow::Owned(strict(&tool.parameters)),
            };
            RequestTool {
                kind: "function",
                function: FunctionDefinition {
                    name: &tool.name,
                    description: &tool.description,
                    parameters,
                    strict: options.strict_tools.then_some(true),
                },
            }
        })
        .collect()
}

fn tool_choice_to_wire(choice: &ToolChoice) -> Option<RequestToolChoice<'_>> {
    match choice {
        // The server's default when tools are listed; not sending it spares servers that
        // refuse an explicit "auto" (vLLM without auto tool choice enabled).
        ToolChoice::Auto => None,
        ToolChoice::None => Some(RequestToolChoice::Mode("none")),
        ToolChoice::Required => Some(RequestToolChoice::Mode("required")),
        ToolChoice::Tool(name) => Some(RequestToolChoice::Function(name)),
    }
}

fn response_format_to_wire(format: &ResponseFormat) -> Option<RequestResponseFormat<'_>> {
    match format {
        ResponseFormat::Text => None,
        ResponseFormat::JsonObject => Some(RequestResponseFormat::JsonObject),
        ResponseFormat::JsonSchema {
            name,
            schema,
            strict: is_strict,
        } => Some(RequestResponseFormat::JsonSchema(JsonSchemaFormat {
            name: if name.is_empty() { "response" } else { name },
            schema: if *is_strict {
                Cow::Owned(strict(schema))
            } else {
                Cow::Borrowed(schema)
            },
            strict: *is_strict,
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_call_only_messages_leave_content_out_or_send_it_empty() {
        let request =
            CompletionRequest::new(vec![Message::assistant_tool_calls(vec![ToolCall::new(
                "c1",
                "look",
                serde_json::json!({}),
            )])]);
        let mut options = RequestOptions::new("m");
        let body = serde_json::to_value(build_request(&request, &options)).unwrap();
        assert!(body["messages"][0].get("content").is_none());
        options.empty_tool_call_content = true;
        let body = serde_json::to_value(build_request(&request, &options)).unwrap();
        assert_eq!(body["messages"][0]["content"], "");
    }

    #[test]
    fn names_are_made_acceptable_only_when_needed() {
        assert!(matches!(participant_name("Aria"), Cow::Borrowed("Aria")));
        assert_eq!(participant_name("Aria Moon</b>"), "Aria_Moon__b_");
        assert_eq!(participant_name(&"x".repeat(70)).len(), 64);
    }

    #[test]
    fn strict_tools_only_when_enabled_and_cached_per_list() {
        let cache = StrictToolsCache::default();
        let tools = Arc::new(vec![ToolSpec::new("look", "Look.", serde_json::json!({}))]);
        assert!(cache.get_if(false, &tools).is_none());
        let first = cache.get_if(true, &tools).unwrap();
        assert!(Arc::ptr_eq(&first, &cache.get_if(true, &tools).unwrap()));
        assert!(cache.get_if(true, &Arc::new(Vec::new())).is_none());
    }
}
