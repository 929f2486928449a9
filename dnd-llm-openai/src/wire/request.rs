//! The request body of `POST /chat/completions`, borrowing from the engine's request.
//!
//! Strings are borrowed (`&str`, [`Cow`]) so building a body copies almost nothing; the body is
//! serialized straight to bytes. Every field is `pub` so a router adapter can adjust a built
//! body (add `provider` preferences to [`ChatRequest::extra`], turn a message's content into
//! parts with `cache_control`) before sending it.

use std::borrow::Cow;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// The body of a chat completion request.
///
/// `None` and empty fields are left out. [`extra`](ChatRequest::extra) is merged in last: a key
/// there replaces the typed field of the same name, so any server-specific parameter can be
/// sent or overridden without a new field here.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatRequest<'a> {
    /// The model name.
    pub model: Cow<'a, str>,
    /// The conversation.
    pub messages: Vec<RequestMessage<'a>>,
    /// The tools on offer; left out when empty.
    pub tools: Vec<RequestTool<'a>>,
    /// `"auto"`, `"none"`, `"required"` or a named function.
    pub tool_choice: Option<RequestToolChoice<'a>>,
    /// Whether the model may call several tools in one answer.
    pub parallel_tool_calls: Option<bool>,
    /// `json_object` or `json_schema`.
    pub response_format: Option<RequestResponseFormat<'a>>,
    /// Sampling temperature (a double, so the engine's `0.7f32` can be sent as `0.7`).
    pub temperature: Option<f64>,
    /// Best-effort deterministic sampling.
    pub seed: Option<u64>,
    /// The legacy token limit (old servers understand only this one).
    pub max_tokens: Option<u32>,
    /// The token limit, including reasoning tokens (reasoning models accept only this one).
    pub max_completion_tokens: Option<u32>,
    /// Ask for server-sent events.
    pub stream: Option<bool>,
    /// `{"include_usage": true}` to get usage in the last streamed chunk.
    pub stream_options: Option<StreamOptions>,
    /// Any other fields, merged in last (they win over the typed ones).
    pub extra: Cow<'a, Map<String, Value>>,
}

/// `stream_options`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StreamOptions {
    /// Send usage in a final chunk with no choices.
    pub include_usage: bool,
}

impl Serialize for ChatRequest<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let extra = &*self.extra;
        let mut map = serializer.serialize_map(None)?;
        // A typed field is written unless `extra` has the same key.
        macro_rules! field {
            ($name:literal, $value:expr) => {
                if !extra.contains_key($name) {
                    map.serialize_entry($name, $value)?;
                }
            };
        }
        macro_rules! optional {
            ($name:literal, $value:expr) => {
                if let Some(value) = $value {
                    field!($name, value);
                }
            };
        }
        // What stays the same from call to call first (the tools, then the conversation, which
        // only grows), so consecutive bodies share a long first stretch: the order providers
        // put them in for their prompt caches, and what a byte-level cache or a log diff sees.
        field!("model", &self.model);
        if !self.tools.is_empty() {
            field!("tools", &self.tools);
        }
        optional!("tool_choice", &self.tool_choice);
        optional!("parallel_tool_calls", &self.parallel_tool_calls);
        field!("messages", &self.messages);
        optional!("response_format", &self.response_format);
        optional!("temperature", &self.temperature);
        optional!("seed", &self.seed);
        optional!("max_tokens", &self.max_tokens);
        optional!("max_completion_tokens", &self.max_completion_tokens);
        optional!("stream", &self.stream);
        optional!("stream_options", &self.stream_options);
        for (key, value) in extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct RequestMessage<'a> {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: &'a str,
    /// The text, or content parts; left out for an assistant message that only calls tools.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<RequestContent<'a>>,
    /// The speaker of a user message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Cow<'a, str>>,
    /// The tool calls of an assistant message.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<RequestToolCall<'a>>,
    /// The call a tool message answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<&'a str>,
    /// Reasoning sent back under DeepSeek's and vLLM's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<&'a str>,
    /// Reasoning sent back under OpenRouter's and Ollama's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<&'a str>,
    /// Structured reasoning blocks sent back as they came.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_details: Option<&'a Value>,
}

/// A message's content: plain text, or parts (which can carry `cache_control`).
#[derive(Debug, Clone, PartialEq)]
pub enum RequestContent<'a> {
    /// Plain text.
    Text(Cow<'a, str>),
    /// Content parts.
    Parts(Vec<ContentPart<'a>>),
}

impl Serialize for RequestContent<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestContent::Text(text) => serializer.serialize_str(text),
            RequestContent::Parts(parts) => parts.serialize(serializer),
        }
    }
}

impl<'a> RequestContent<'a> {
    /// The content as parts, turning plain text into one text part.
    pub fn into_parts(self) -> Vec<ContentPart<'a>> {
        match self {
            RequestContent::Text(text) => vec![ContentPart::text(text)],
            RequestContent::Parts(parts) => parts,
        }
    }
}

/// A text content part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContentPart<'a> {
    /// Always `text` here.
    #[serde(rename = "type")]
    pub kind: &'a str,
    /// The text.
    pub text: Cow<'a, str>,
    /// A prompt-cache breakpoint, e.g. `{"type": "ephemeral"}` (Anthropic models through a
    /// router).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_control: Option<Value>,
}

impl<'a> ContentPart<'a> {
    /// A text part without a cache breakpoint.
    pub fn text(text: impl Into<Cow<'a, str>>) -> Self {
        ContentPart {
            kind: "text",
            text: text.into(),
            cache_control: None,
        }
    }
}

/// A tool call of an assistant message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestToolCall<'a> {
    /// The call's id, which the tool message repeats.
    pub id: &'a str,
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: &'a str,
    /// The function and its arguments.
    pub function: RequestFunctionCall<'a>,
}

/// The function of a [`RequestToolCall`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestFunctionCall<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// The arguments as JSON text (the wire wants a string, not an object).
    pub arguments: Cow<'a, str>,
}

/// A tool on offer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestTool<'a> {
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: &'a str,
    /// The function.
    pub function: FunctionDefinition<'a>,
}

/// A function the model may call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionDefinition<'a> {
    /// Its name.
    pub name: &'a str,
    /// What it does; left out when empty.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub description: &'a str,
    /// The JSON Schema of its arguments.
    pub parameters: Cow<'a, Value>,
    /// Strict schema adherence (structured outputs for tool arguments).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

/// `tool_choice`.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestToolChoice<'a> {
    /// `"auto"`, `"none"` or `"required"`.
    Mode(&'a str),
    /// `{"type": "function", "function": {"name": ...}}`.
    Function(&'a str),
}

impl Serialize for RequestToolChoice<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestToolChoice::Mode(mode) => serializer.serialize_str(mode),
            RequestToolChoice::Function(name) => {
                #[derive(Serialize)]
                struct Name<'n> {
                    name: &'n str,
                }
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "function")?;
                map.serialize_entry("function", &Name { name })?;
                map.end()
            }
        }
    }
}

/// `response_format`.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestResponseFormat<'a> {
    /// `{"type": "json_object"}`: any JSON object.
    JsonObject,
    /// `{"type": "json_schema", "json_schema": {...}}`: JSON matching a schema.
    JsonSchema(JsonSchemaFormat<'a>),
}

/// The `json_schema` of a [`RequestResponseFormat::JsonSchema`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonSchemaFormat<'a> {
    /// The schema's name.
    pub name: &'a str,
    /// The schema.
    pub schema: Cow<'a, Value>,
    /// Enforce it exactly.
    pub strict: bool,
}

impl Serialize for RequestResponseFormat<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            RequestResponseFormat::JsonObject => map.serialize_entry("type", "json_object")?,
            RequestResponseFormat::JsonSchema(format) => {
                map.serialize_entry("type", "json_schema")?;
                map.serialize_entry("json_schema", format)?;
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn extra_fields_win_over_typed_ones_and_none_is_left_out() {
        let mut extra = Map::new();
        extra.insert("temperature".into(), json!(1.5));
        extra.insert("provider".into(), json!({"require_parameters": true}));
        let body = ChatRequest {
            model: "m".into(),
            messages: vec![RequestMessage {
                role: "user",
                content: Some(RequestContent::Text("hi".into())),
                ..RequestMessage::default()
            }],
            temperature: Some(0.5),
            tool_choice: Some(RequestToolChoice::Function("roll")),
            extra: Cow::Owned(extra),
            ..ChatRequest::default()
        };
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            json!({
                "model": "m",
                "messages": [{"role": "user", "content": "hi"}],
                "tool_choice": {"type": "function", "function": {"name": "roll"}},
                "temperature": 1.5,
                "provider": {"require_parameters": true},
            })
        );
    }

    #[test]
    fn content_parts_carry_cache_control() {
        let mut parts = RequestContent::Text("rules".into()).into_parts();
        parts[0].cache_control = Some(json!({"type": "ephemeral"}));
        assert_eq!(
            serde_json::to_value(RequestContent::Parts(parts)).unwrap(),
            json!([{"type": "text", "text": "rules", "cache_control": {"type": "ephemeral"}}])
        );
    }
}
