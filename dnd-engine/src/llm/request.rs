//! What the engine asks of a model: the conversation, the tools on offer, and the sampling
//! and output settings.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::message::{Message, ToolSpec};

/// Whether and which tool the model must call.
///
/// Serialized as `"auto"`, `"none"`, `"required"` or `{"tool":"name"}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    /// The model decides whether to call tools (the default).
    #[default]
    Auto,
    /// The model must answer with text only, even if tools are listed.
    None,
    /// The model must call at least one tool.
    Required,
    /// The model must call the tool with this name.
    Tool(String),
}

/// The shape the model's text must take.
///
/// Serialized with a `type` tag: `{"type":"text"}`, `{"type":"json_object"}` or
/// `{"type":"json_schema","name":..,"schema":..,"strict":..}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResponseFormat {
    /// Free text (the default).
    #[default]
    Text,
    /// Any valid JSON object ("JSON mode").
    JsonObject,
    /// JSON matching a schema ("structured outputs").
    JsonSchema {
        /// A name for the schema; providers require one (letters, digits, `_`, `-`).
        name: String,
        /// The JSON Schema the output must match. Shared: a game sends the same schema with
        /// every turn's request, and copying it would cost more than the rest of the request.
        schema: Arc<Value>,
        /// Ask the provider to enforce the schema exactly rather than as a hint. Strict
        /// mode restricts which schemas are accepted (e.g. OpenAI's requires every property
        /// to be listed in `required` and `additionalProperties: false`).
        #[serde(default)]
        strict: bool,
    },
}

impl ResponseFormat {
    /// A strict JSON Schema format with this name and schema (a `Value`, or an `Arc` shared
    /// between requests).
    pub fn json_schema(name: impl Into<String>, schema: impl Into<Arc<Value>>) -> Self {
        ResponseFormat::JsonSchema {
            name: name.into(),
            schema: schema.into(),
            strict: true,
        }
    }
}

/// One request for a completion, independent of any provider.
///
/// Which model to use is the provider's configuration, not part of the request, so the same
/// request can be replayed against any provider. Unset options (`None`, no tools) are left to
/// the provider's defaults and omitted from the JSON.
///
/// ```
/// use dnd_engine::llm::{CompletionRequest, Message, ToolChoice};
///
/// let request = CompletionRequest::new(vec![
///     Message::system("You are the game master."),
///     Message::user("I open the door."),
/// ])
/// .with_temperature(0.7)
/// .with_max_tokens(400)
/// .with_tool_choice(ToolChoice::None);
/// assert_eq!(request.messages.len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CompletionRequest {
    /// The conversation so far, oldest first.
    pub messages: Vec<Message>,
    /// The tools the model may call. Shared: a game sends the same list with every call, and
    /// its schemas are the largest part of a request to copy.
    #[serde(default, skip_serializing_if = "no_tools")]
    pub tools: Arc<Vec<ToolSpec>>,
    /// Whether and which tool the model must call; ignored by adapters when `tools` is empty.
    #[serde(default)]
    pub tool_choice: ToolChoice,
    /// The shape of the model's text.
    #[serde(default)]
    pub response_format: ResponseFormat,
    /// Sampling temperature (typically 0 to 2); `None` for the provider's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    /// The most tokens the model may generate; `None` for the provider's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// A seed for providers that support best-effort deterministic sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How many leading messages stay the same from one turn to the next (the system prompt,
    /// the campaign summary, and the game master's history, which only grows between folds). Adapters whose provider caches prompts place a cache breakpoint
    /// after them; others ignore it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stable_prefix: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn no_tools(tools: &Arc<Vec<ToolSpec>>) -> bool {
    tools.is_empty()
}

impl CompletionRequest {
    /// A request for this conversation with every option at its default.
    pub fn new(messages: Vec<Message>) -> Self {
        CompletionRequest {
            messages,
            ..CompletionRequest::default()
        }
    }

    /// Appends a message to the conversation.
    pub fn with_message(mut self, message: Message) -> Self {
        self.messages.push(message);
        self
    }

    /// Replaces the tools the model may call (a `Vec`, or an `Arc` shared between requests).
    pub fn with_tools(mut self, tools: impl Into<Arc<Vec<ToolSpec>>>) -> Self {
        self.tools = tools.into();
        self
    }

    /// Adds one tool the model may call.
    pub fn with_tool(mut self, tool: ToolSpec) -> Self {
        Arc::make_mut(&mut self.tools).push(tool);
        self
    }

    /// Sets whether and which tool the model must call.
    pub fn with_tool_choice(mut self, tool_choice: ToolChoice) -> Self {
        self.tool_choice = tool_choice;
        self
    }

    /// Sets the shape of the model's text.
    pub fn with_response_format(mut self, response_format: ResponseFormat) -> Self {
        self.response_format = response_format;
        self
    }

    /// Sets the sampling temperature.
    pub fn with_temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Sets the most tokens the model may generate.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// Sets the sampling seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn builder_sets_every_option() {
        let tool = ToolSpec::new("roll", "Roll dice.", json!({"type": "object"}));
        let request = CompletionRequest::new(vec![Message::user("hi")])
            .with_message(Message::assistant("hello"))
            .with_tool(tool.clone())
            .with_tool_choice(ToolChoice::Tool("roll".into()))
            .with_response_format(ResponseFormat::JsonObject)
            .with_temperature(0.5)
            .with_max_tokens(100)
            .with_seed(7);
        assert_eq!(request.messages.len(), 2);
        assert_eq!(*request.tools, vec![tool]);
        assert_eq!(request.tool_choice, ToolChoice::Tool("roll".into()));
        assert_eq!(request.response_format, ResponseFormat::JsonObject);
        assert_eq!(request.temperature, Some(0.5));
        assert_eq!(request.max_tokens, Some(100));
        assert_eq!(request.seed, Some(7));
        assert!(request.with_tools(Vec::new()).tools.is_empty());
    }

    #[test]
    fn default_request_json_is_compact_and_reads_back() {
        let request = CompletionRequest::new(vec![Message::user("hi")]);
        let json = serde_json::to_value(&request).unwrap();
        assert_eq!(
            json,
            json!({
                "messages": [{"role": "user", "content": "hi"}],
                "tool_choice": "auto",
                "response_format": {"type": "text"},
            })
        );
        let minimal: CompletionRequest =
            serde_json::from_value(json!({"messages": [{"role": "user", "content": "hi"}]}))
                .unwrap();
        assert_eq!(minimal, request);
    }

    #[test]
    fn tool_choice_and_response_format_json() {
        assert_eq!(
            serde_json::to_value(ToolChoice::Required).unwrap(),
            json!("required")
        );
        assert_eq!(
            serde_json::to_value(ToolChoice::Tool("roll".into())).unwrap(),
            json!({"tool": "roll"})
        );
        let format = ResponseFormat::json_schema("npc", json!({"type": "object"}));
        let json = serde_json::to_value(&format).unwrap();
        assert_eq!(
            json,
            json!({"type": "json_schema", "name": "npc", "schema": {"type": "object"}, "strict": true})
        );
        assert_eq!(
            serde_json::from_value::<ResponseFormat>(json).unwrap(),
            format
        );
        for choice in [
            ToolChoice::Auto,
            ToolChoice::None,
            ToolChoice::Tool("x".into()),
        ] {
            let back: ToolChoice =
                serde_json::from_value(serde_json::to_value(&choice).unwrap()).unwrap();
            assert_eq!(back, choice);
        }
    }
}
