//! The conversation: messages, the tool calls a model makes, and the tools it may call.
//!
//! These mirror the shape every chat-completion API shares (a list of role-tagged messages,
//! tool calls carried by assistant messages, tool results tied back to their call id) without
//! committing to any one provider's field names. Adapters translate them to the wire.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who wrote a [`Message`]: the data-free mirror of its variants.
///
/// Useful to adapters that map roles to wire names and to code that filters a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Instructions from the application, read before anything else.
    System,
    /// A player (or the application speaking for one).
    User,
    /// The model.
    Assistant,
    /// The result of a tool the model called.
    Tool,
}

impl Role {
    /// The role's name as it appears in JSON: `system`, `user`, `assistant` or `tool`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One message of a conversation with a language model.
///
/// Serialized with the role as a `role` tag, e.g. `{"role":"user","content":"I attack"}`.
/// Optional parts (a user's `name`, an assistant's `content` or `tool_calls`) are left out
/// when absent and default to absent when missing, so transcripts stay compact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Instructions for the model (the game master's rules, persona and current state).
    System {
        /// The instructions.
        content: String,
    },
    /// What a player said or did.
    User {
        /// The player's words.
        content: String,
        /// Which player spoke, for tables with several; `None` for a single player.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The model's reply: text, tool calls, or both.
    Assistant {
        /// The reply's text, if the model wrote any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
        /// The tools the model asked to run, in the order it asked.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
        /// The model's reasoning, when the provider returned it. Kept so adapters can send it
        /// back on the tool-call turns of providers that require it; boxed because most
        /// messages have none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reasoning: Option<Box<Reasoning>>,
    },
    /// The result of running one tool call, sent back to the model.
    Tool {
        /// The [`ToolCall::id`] this result answers.
        tool_call_id: String,
        /// The result, usually JSON text.
        content: String,
    },
}

impl Message {
    /// A system message with these instructions.
    pub fn system(content: impl Into<String>) -> Self {
        Message::System {
            content: content.into(),
        }
    }

    /// A user message without a speaker name.
    pub fn user(content: impl Into<String>) -> Self {
        Message::User {
            content: content.into(),
            name: None,
        }
    }

    /// A user message from the named speaker (for tables with several players).
    pub fn user_named(name: impl Into<String>, content: impl Into<String>) -> Self {
        Message::User {
            content: content.into(),
            name: Some(name.into()),
        }
    }

    /// An assistant message holding only text.
    pub fn assistant(content: impl Into<String>) -> Self {
        Message::Assistant {
            content: Some(content.into()),
            tool_calls: Vec::new(),
            reasoning: None,
        }
    }

    /// An assistant message holding only tool calls.
    pub fn assistant_tool_calls(tool_calls: Vec<ToolCall>) -> Self {
        Message::Assistant {
            content: None,
            tool_calls,
            reasoning: None,
        }
    }

    /// The result of the tool call with id `tool_call_id`.
    pub fn tool_result(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Message::Tool {
            tool_call_id: tool_call_id.into(),
            content: content.into(),
        }
    }

    /// This message with the model's reasoning attached; unchanged unless it is an assistant
    /// message.
    pub fn with_reasoning(mut self, new: Reasoning) -> Self {
        if let Message::Assistant { reasoning, .. } = &mut self {
            *reasoning = Some(Box::new(new));
        }
        self
    }

    /// The reasoning of an assistant message, if the provider returned any.
    pub fn reasoning(&self) -> Option<&Reasoning> {
        match self {
            Message::Assistant { reasoning, .. } => reasoning.as_deref(),
            _ => None,
        }
    }

    /// Who wrote this message.
    pub fn role(&self) -> Role {
        match self {
            Message::System { .. } => Role::System,
            Message::User { .. } => Role::User,
            Message::Assistant { .. } => Role::Assistant,
            Message::Tool { .. } => Role::Tool,
        }
    }

    /// The message's text; `None` only for an assistant message without text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Message::System { content }
            | Message::User { content, .. }
            | Message::Tool { content, .. } => Some(content),
            Message::Assistant { content, .. } => content.as_deref(),
        }
    }

    /// The tool calls of an assistant message; empty for every other role.
    pub fn tool_calls(&self) -> &[ToolCall] {
        match self {
            Message::Assistant { tool_calls, .. } => tool_calls,
            _ => &[],
        }
    }

    /// The speaker name of a user message, if it has one.
    pub fn name(&self) -> Option<&str> {
        match self {
            Message::User { name, .. } => name.as_deref(),
            _ => None,
        }
    }

    /// The call id a tool message answers; `None` for every other role.
    pub fn tool_call_id(&self) -> Option<&str> {
        match self {
            Message::Tool { tool_call_id, .. } => Some(tool_call_id),
            _ => None,
        }
    }
}

/// A request from the model to run one tool.
///
/// `arguments` is already JSON, not the JSON-encoded string some wire formats use: adapters
/// decode it. When the model's argument text is not valid JSON, adapters keep the raw text as
/// a [`Value::String`] so the engine can tell the model what was wrong instead of failing the
/// whole response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for this call; the matching [`Message::Tool`] repeats it.
    pub id: String,
    /// The name of the tool to run, one of the request's [`ToolSpec::name`]s.
    pub name: String,
    /// The arguments, which should match the tool's [`ToolSpec::parameters`] schema.
    pub arguments: Value,
    /// The provider's own id for this call, when it differs from [`id`](ToolCall::id).
    ///
    /// Some servers send no id, or the same id for several calls of one answer; adapters then
    /// make up a unique `id` (the one the engine and the tool results use) and keep the
    /// provider's here. `None` when `id` is the provider's id, or the provider sent none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_id: Option<String>,
}

impl ToolCall {
    /// A call with this id to the tool `name` with these arguments.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments,
            provider_id: None,
        }
    }

    /// Decodes the arguments into the tool's typed argument struct.
    ///
    /// Models sometimes encode the arguments object twice (a JSON string holding JSON); when
    /// the arguments are a string that does not decode as `T` directly, its contents are
    /// decoded as JSON and tried again.
    ///
    /// # Errors
    ///
    /// [`ToolArgumentsError`] naming the tool and call id and saying what did not match, meant
    /// to be sent back to the model as the tool's result so it can correct itself.
    pub fn parse_arguments<T: DeserializeOwned>(&self) -> Result<T, ToolArgumentsError> {
        let first_error = match T::deserialize(&self.arguments) {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        if let Value::String(text) = &self.arguments
            && let Ok(inner) = serde_json::from_str::<Value>(text)
            && let Ok(value) = T::deserialize(&inner)
        {
            return Ok(value);
        }
        Err(ToolArgumentsError {
            tool: self.name.clone(),
            call_id: self.id.clone(),
            message: first_error.to_string(),
        })
    }
}

/// The arguments of a [`ToolCall`] did not match the tool's argument type.
///
/// Not an [`LlmError`](super::LlmError): the provider answered fine, the model made a mistake.
/// The usual response is to send the error's display text back to the model as the
/// tool's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error(
    "the arguments of call `{call_id}` to tool `{tool}` are invalid: {message}; \
     call the tool again with arguments that match its parameter schema"
)]
pub struct ToolArgumentsError {
    /// The tool's name.
    pub tool: String,
    /// The call's id.
    pub call_id: String,
    /// What failed to decode, from the JSON decoder.
    pub message: String,
}

/// A tool the model may call: its name, what it does, and the JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// The name the model uses to call the tool (letters, digits, `_` and `-` are safe
    /// everywhere).
    pub name: String,
    /// What the tool does and when to use it; the model reads this to decide.
    pub description: String,
    /// The JSON Schema of the arguments object.
    pub parameters: Value,
}

impl ToolSpec {
    /// A tool with this name, description and argument schema.
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        ToolSpec {
            name: name.into(),
            description: description.into(),
            parameters,
        }
    }
}

/// A model's reasoning ("thinking") as its provider returned it.
///
/// Kept with the assistant message so it can go back to the provider: some require the
/// reasoning of a tool-call turn to be sent back with the tool results. The engine never reads
/// it; it is not narration.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Reasoning {
    /// The reasoning as text, if the provider sent text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Structured reasoning blocks (summaries, encrypted blobs), kept as the provider sent
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// The wire field the text came in (e.g. `reasoning_content` or `reasoning`), so an
    /// adapter can send it back under the same name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl Reasoning {
    /// Reasoning made of this text, received in the wire field `field`.
    pub fn text(text: impl Into<String>, field: impl Into<String>) -> Self {
        Reasoning {
            text: Some(text.into()),
            details: None,
            field: Some(field.into()),
        }
    }

    /// Whether there is nothing in it.
    pub fn is_empty(&self) -> bool {
        self.text.as_deref().is_none_or(str::is_empty) && self.details.is_none()
    }
}
