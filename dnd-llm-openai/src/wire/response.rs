//! What comes back: a chat completion, a streamed chunk, usage, an error body.
//!
//! Every field has a default and reads leniently (see [`lenient`](super::lenient)); unknown
//! fields are ignored. A response parses as long as its top level is a JSON object.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::enums::{FinishReason, Role, ToolType};
use super::lenient;

/// A `chat.completion` object (the answer to a request without `stream`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatResponse {
    /// The completion's id (`chatcmpl-...`, `gen-...`).
    #[serde(deserialize_with = "lenient::string")]
    pub id: Option<String>,
    /// Normally `chat.completion`.
    #[serde(deserialize_with = "lenient::string")]
    pub object: Option<String>,
    /// Unix time of creation.
    #[serde(deserialize_with = "lenient::integer")]
    pub created: Option<i64>,
    /// The model that answered.
    #[serde(deserialize_with = "lenient::string")]
    pub model: Option<String>,
    /// The answers; normally one.
    #[serde(deserialize_with = "lenient::objects")]
    pub choices: Vec<Choice>,
    /// Tokens used.
    #[serde(deserialize_with = "lenient::object")]
    pub usage: Option<WireUsage>,
    /// The serving tier (`default`, `flex`, `on_demand`, ...), as sent.
    #[serde(deserialize_with = "lenient::string")]
    pub service_tier: Option<String>,
    /// The backend configuration's fingerprint.
    #[serde(deserialize_with = "lenient::string")]
    pub system_fingerprint: Option<String>,
    /// An error reported inside an HTTP 200 body (OpenRouter does this).
    #[serde(deserialize_with = "lenient::value")]
    pub error: Option<Value>,
}

/// One answer of a [`ChatResponse`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Choice {
    /// Its position among the choices.
    #[serde(deserialize_with = "lenient::opt_count")]
    pub index: Option<u32>,
    /// The assistant message.
    #[serde(deserialize_with = "lenient::object")]
    pub message: Option<ResponseMessage>,
    /// Why the model stopped; `None` when absent or `null`.
    pub finish_reason: Option<FinishReason>,
    /// The upstream provider's own reason, when a router normalised `finish_reason`.
    #[serde(deserialize_with = "lenient::string")]
    pub native_finish_reason: Option<String>,
    /// An error for this choice (OpenRouter).
    #[serde(deserialize_with = "lenient::value")]
    pub error: Option<Value>,
}

/// The assistant message of a [`Choice`], or the accumulated delta of a stream.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ResponseMessage {
    /// Normally `assistant`.
    pub role: Option<Role>,
    /// The text; content parts are joined.
    #[serde(deserialize_with = "lenient::string")]
    pub content: Option<String>,
    /// The model's refusal, instead of content.
    #[serde(deserialize_with = "lenient::string")]
    pub refusal: Option<String>,
    /// The tool calls, in order.
    #[serde(deserialize_with = "lenient::objects")]
    pub tool_calls: Vec<WireToolCall>,
    /// The legacy single function call (some local servers still send it beside `tool_calls`).
    #[serde(deserialize_with = "lenient::object")]
    pub function_call: Option<WireFunction>,
    /// Reasoning text as DeepSeek, vLLM and others name it.
    #[serde(deserialize_with = "lenient::string")]
    pub reasoning_content: Option<String>,
    /// Reasoning text as OpenRouter and Ollama name it.
    #[serde(deserialize_with = "lenient::string")]
    pub reasoning: Option<String>,
    /// Structured reasoning blocks (OpenRouter), kept as sent.
    #[serde(deserialize_with = "lenient::value")]
    pub reasoning_details: Option<Value>,
}

/// A tool call, whole (in a response) or a fragment (in a stream's delta).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WireToolCall {
    /// Which call a stream fragment belongs to; missing on some servers.
    #[serde(deserialize_with = "lenient::opt_count")]
    pub index: Option<u32>,
    /// The provider's id for the call; may be missing, empty or repeated.
    #[serde(deserialize_with = "lenient::string")]
    pub id: Option<String>,
    /// Normally `function`.
    #[serde(rename = "type")]
    pub kind: Option<ToolType>,
    /// The function and its arguments.
    #[serde(deserialize_with = "lenient::object")]
    pub function: Option<WireFunction>,
}

/// A function name and its arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WireFunction {
    /// The function's name (in a stream, only the first fragment has it).
    #[serde(deserialize_with = "lenient::string")]
    pub name: Option<String>,
    /// The arguments: JSON text by the spec, but an object on some servers; kept as sent.
    #[serde(deserialize_with = "lenient::value")]
    pub arguments: Option<Value>,
}

/// Token usage, with every detail the known servers report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WireUsage {
    /// Tokens read.
    #[serde(deserialize_with = "lenient::count")]
    pub prompt_tokens: u32,
    /// Tokens generated.
    #[serde(deserialize_with = "lenient::count")]
    pub completion_tokens: u32,
    /// Their sum.
    #[serde(deserialize_with = "lenient::count")]
    pub total_tokens: u32,
    /// What the prompt tokens were made of.
    #[serde(deserialize_with = "lenient::object")]
    pub prompt_tokens_details: Option<PromptTokensDetails>,
    /// What the completion tokens were made of.
    #[serde(deserialize_with = "lenient::object")]
    pub completion_tokens_details: Option<CompletionTokensDetails>,
    /// DeepSeek's name for cached prompt tokens.
    #[serde(deserialize_with = "lenient::opt_count")]
    pub prompt_cache_hit_tokens: Option<u32>,
    /// Anthropic-style name for cached prompt tokens (some compatible servers use it).
    #[serde(deserialize_with = "lenient::opt_count")]
    pub cache_read_input_tokens: Option<u32>,
    /// Anthropic-style name for prompt tokens written to the cache.
    #[serde(deserialize_with = "lenient::opt_count")]
    pub cache_creation_input_tokens: Option<u32>,
    /// The cost in US dollars (credits), when the server reports it (OpenRouter).
    #[serde(deserialize_with = "lenient::number")]
    pub cost: Option<f64>,
    /// The cost's breakdown, kept as sent.
    #[serde(deserialize_with = "lenient::value")]
    pub cost_details: Option<Value>,
}

/// `usage.prompt_tokens_details`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PromptTokensDetails {
    /// Read from the prompt cache.
    #[serde(deserialize_with = "lenient::count")]
    pub cached_tokens: u32,
    /// Written to the prompt cache.
    #[serde(deserialize_with = "lenient::count")]
    pub cache_write_tokens: u32,
    /// Audio input.
    #[serde(deserialize_with = "lenient::count")]
    pub audio_tokens: u32,
}

/// `usage.completion_tokens_details`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompletionTokensDetails {
    /// Spent reasoning.
    #[serde(deserialize_with = "lenient::count")]
    pub reasoning_tokens: u32,
    /// Audio output.
    #[serde(deserialize_with = "lenient::count")]
    pub audio_tokens: u32,
    /// Predicted-output tokens that were used.
    #[serde(deserialize_with = "lenient::count")]
    pub accepted_prediction_tokens: u32,
    /// Predicted-output tokens that were not used (still billed).
    #[serde(deserialize_with = "lenient::count")]
    pub rejected_prediction_tokens: u32,
}

/// A `chat.completion.chunk` object: one server-sent event of a streamed answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatChunk {
    /// The completion's id, the same in every chunk.
    #[serde(deserialize_with = "lenient::string")]
    pub id: Option<String>,
    /// The model that answers.
    #[serde(deserialize_with = "lenient::string")]
    pub model: Option<String>,
    /// The deltas; empty in the final usage-only chunk.
    #[serde(deserialize_with = "lenient::objects")]
    pub choices: Vec<ChunkChoice>,
    /// Tokens used, in the last chunk when asked for (or always, on some servers).
    #[serde(deserialize_with = "lenient::object")]
    pub usage: Option<WireUsage>,
    /// An error after the stream began (HTTP 200 with an error in the data).
    #[serde(deserialize_with = "lenient::value")]
    pub error: Option<Value>,
}

/// One choice of a [`ChatChunk`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChunkChoice {
    /// Which choice this delta extends.
    #[serde(deserialize_with = "lenient::opt_count")]
    pub index: Option<u32>,
    /// What is new.
    #[serde(deserialize_with = "lenient::object")]
    pub delta: Option<ResponseMessage>,
    /// Set on the choice's last chunk.
    pub finish_reason: Option<FinishReason>,
    /// An error for this choice.
    #[serde(deserialize_with = "lenient::value")]
    pub error: Option<Value>,
}

/// The `error` object of an error body: OpenAI's fields, read from any of the shapes servers
/// use (`{"error": {...}}`, `{"error": "text"}`, `{"detail": ...}`, `{"message": ...}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// What went wrong.
    pub message: Option<String>,
    /// OpenAI's error type (`invalid_request_error`, `insufficient_quota`, ...).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The request parameter at fault.
    pub param: Option<String>,
    /// A code: a string for OpenAI (`insufficient_quota`), a number for OpenRouter.
    pub code: Option<String>,
    /// Extra details (OpenRouter's moderation reasons, the upstream's raw error).
    pub metadata: Option<Value>,
}

impl ErrorObject {
    /// Reads an error from a response body's JSON; `None` if it holds none.
    pub fn from_body(body: &Value) -> Option<ErrorObject> {
        let map = body.as_object()?;
        if let Some(error) = map.get("error").filter(|e| !e.is_null()) {
            return Some(ErrorObject::from_error_value(error));
        }
        // FastAPI-style servers (llama-cpp-python) and others.
        for key in ["detail", "message"] {
            if let Some(detail) = map.get(key).filter(|e| !e.is_null()) {
                return Some(ErrorObject::from_error_value(detail));
            }
        }
        None
    }

    /// Reads the value of an `error` field: an object, or a bare message.
    pub fn from_error_value(error: &Value) -> ErrorObject {
        let text = |v: &Value| match v {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        };
        match error {
            Value::Object(map) => ErrorObject {
                message: map.get("message").and_then(text),
                kind: map.get("type").and_then(text),
                param: map.get("param").and_then(text),
                code: map.get("code").and_then(text),
                metadata: map.get("metadata").filter(|m| !m.is_null()).cloned(),
            },
            other => ErrorObject {
                message: text(other),
                ..ErrorObject::default()
            },
        }
    }

    /// The code or type, whichever says `insufficient_quota` or similar first.
    pub fn code_or_type(&self) -> Option<&str> {
        self.code.as_deref().or(self.kind.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn odd_response_still_parses() {
        let response: ChatResponse = serde_json::from_value(json!({
            "id": 5,
            "created": "1700000000",
            "choices": [
                {"index": 0, "finish_reason": "eos", "message": {"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}},
                "garbage"
            ],
            "usage": {"prompt_tokens": null, "completion_tokens": 3, "prompt_tokens_details": null},
            "service_tier": "on_demand",
            "brand_new_field": {"x": 1}
        }))
        .unwrap();
        assert_eq!(response.id.as_deref(), Some("5"));
        assert_eq!(response.created, Some(1_700_000_000));
        assert_eq!(response.choices.len(), 1);
        let choice = &response.choices[0];
        assert_eq!(
            choice.finish_reason,
            Some(FinishReason::Other("eos".into()))
        );
        assert_eq!(
            choice.message.as_ref().unwrap().content.as_deref(),
            Some("Hi")
        );
        assert_eq!(response.usage.unwrap().completion_tokens, 3);
    }

    #[test]
    fn error_bodies_of_every_shape() {
        let openai = ErrorObject::from_body(&json!({"error": {
            "message": "You exceeded your current quota", "type": "insufficient_quota",
            "param": null, "code": "insufficient_quota"}}))
        .unwrap();
        assert_eq!(openai.code_or_type(), Some("insufficient_quota"));
        assert_eq!(openai.param, None);
        let router =
            ErrorObject::from_body(&json!({"error": {"code": 402, "message": "credits"}})).unwrap();
        assert_eq!(router.code.as_deref(), Some("402"));
        let bare = ErrorObject::from_body(&json!({"error": "model not found"})).unwrap();
        assert_eq!(bare.message.as_deref(), Some("model not found"));
        let fastapi = ErrorObject::from_body(&json!({"detail": "Not Found"})).unwrap();
        assert_eq!(fastapi.message.as_deref(), Some("Not Found"));
        assert!(ErrorObject::from_body(&json!({"choices": []})).is_none());
        assert!(ErrorObject::from_body(&json!({"error": null})).is_none());
    }
}
