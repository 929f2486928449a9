//! What a model answers: the assistant message, why it stopped, and what it cost.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::message::{Message, ToolCall};

/// Why the model stopped generating.
///
/// Serialized as a snake_case string. Providers add reasons over time, so any string that is
/// not a known reason reads as [`FinishReason::Other`] and writes back unchanged: a response
/// never fails to parse because of its finish reason.
///
/// There is no refusal reason: a provider refusing a request or its content is reported as
/// [`LlmError::Refused`](super::LlmError::Refused), so callers handle refusals in one place.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum FinishReason {
    /// The model finished its answer (or hit a stop sequence).
    #[default]
    Stop,
    /// The answer was cut off by `max_tokens` or the context window.
    Length,
    /// The model stopped to have its tool calls run.
    ToolCalls,
    /// The provider's content filter removed or cut off the answer.
    ContentFilter,
    /// A reason this crate does not know, as the provider spelled it.
    Other(String),
}

impl FinishReason {
    /// The reason's wire name: `stop`, `length`, `tool_calls`, `content_filter`, or the
    /// [`Other`](FinishReason::Other) string itself.
    pub fn as_str(&self) -> &str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::ToolCalls => "tool_calls",
            FinishReason::ContentFilter => "content_filter",
            FinishReason::Other(other) => other,
        }
    }

    /// Reads a wire name: known names become their variant, anything else becomes
    /// [`Other`](FinishReason::Other). Adapters map provider-specific synonyms (e.g.
    /// Anthropic's `end_turn`, `tool_use`) before calling this.
    pub fn from_wire(name: &str) -> Self {
        match name {
            "stop" => FinishReason::Stop,
            "length" => FinishReason::Length,
            "tool_calls" => FinishReason::ToolCalls,
            "content_filter" => FinishReason::ContentFilter,
            other => FinishReason::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for FinishReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for FinishReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for FinishReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(FinishReason::from_wire(&name))
    }
}

/// Tokens used, and money spent, by one or more completions.
///
/// Sum the usage of a turn's calls with `+`, `+=` or [`Iterator::sum`]. Token counts saturate
/// instead of overflowing; costs add when present, and a missing cost counts as unknown, not
/// zero (`None + Some(c) = Some(c)`, `None + None = None`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens read: the prompt, including [`cached_tokens`](Usage::cached_tokens).
    #[serde(default)]
    pub prompt_tokens: u32,
    /// Tokens generated, including any reasoning tokens the provider bills.
    #[serde(default)]
    pub completion_tokens: u32,
    /// The part of `prompt_tokens` served from the provider's prompt cache (a subset, not
    /// extra tokens).
    #[serde(default)]
    pub cached_tokens: u32,
    /// The part of `prompt_tokens` written to the provider's prompt cache (billed above the
    /// normal price by some providers); omitted from JSON when zero.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_tokens: u32,
    /// The part of `completion_tokens` spent reasoning before answering; omitted from JSON
    /// when zero.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reasoning_tokens: u32,
    /// What the calls cost in US dollars, when the provider reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Usage {
    /// Prompt plus completion tokens.
    pub fn total_tokens(&self) -> u32 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}

impl Add for Usage {
    type Output = Usage;

    fn add(mut self, rhs: Usage) -> Usage {
        self += rhs;
        self
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, rhs: Usage) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(rhs.prompt_tokens);
        self.completion_tokens = self.completion_tokens.saturating_add(rhs.completion_tokens);
        self.cached_tokens = self.cached_tokens.saturating_add(rhs.cached_tokens);
        self.cache_write_tokens = self
            .cache_write_tokens
            .saturating_add(rhs.cache_write_tokens);
        self.reasoning_tokens = self.reasoning_tokens.saturating_add(rhs.reasoning_tokens);
        self.cost = match (self.cost, rhs.cost) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }
}

impl Sum for Usage {
    fn sum<I: Iterator<Item = Usage>>(iter: I) -> Usage {
        iter.fold(Usage::default(), Add::add)
    }
}

impl<'a> Sum<&'a Usage> for Usage {
    fn sum<I: Iterator<Item = &'a Usage>>(iter: I) -> Usage {
        iter.copied().sum()
    }
}

/// A model's complete answer to one [`CompletionRequest`](super::CompletionRequest).
///
/// `message` is always a [`Message::Assistant`]; the accessors below read it without a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompletionResponse {
    /// The model's reply, always the `Assistant` variant.
    pub message: Message,
    /// Why the model stopped.
    #[serde(default)]
    pub finish_reason: FinishReason,
    /// What the call used.
    #[serde(default)]
    pub usage: Usage,
    /// The model that actually answered, as the provider names it (routers may pick one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The provider's response as it arrived, for traces and debugging; adapters may leave it
    /// out (streamed answers have no single body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<serde_json::Value>,
}

impl CompletionResponse {
    /// A text-only answer that finished normally, with zero usage and no model name.
    pub fn from_text(text: impl Into<String>) -> Self {
        CompletionResponse {
            message: Message::assistant(text),
            finish_reason: FinishReason::Stop,
            usage: Usage::default(),
            model: None,
            raw: None,
        }
    }

    /// An answer made only of tool calls, finished for [`FinishReason::ToolCalls`], with zero
    /// usage and no model name.
    pub fn from_tool_calls(tool_calls: Vec<ToolCall>) -> Self {
        CompletionResponse {
            message: Message::assistant_tool_calls(tool_calls),
            finish_reason: FinishReason::ToolCalls,
            usage: Usage::default(),
            model: None,
            raw: None,
        }
    }

    /// Replaces the finish reason.
    pub fn with_finish_reason(mut self, finish_reason: FinishReason) -> Self {
        self.finish_reason = finish_reason;
        self
    }

    /// Replaces the usage.
    pub fn with_usage(mut self, usage: Usage) -> Self {
        self.usage = usage;
        self
    }

    /// Sets the model name.
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }

    /// The answer's text, if the model wrote any.
    pub fn text(&self) -> Option<&str> {
        self.message.text()
    }

    /// The tool calls the model made, in order; empty if none.
    pub fn tool_calls(&self) -> &[ToolCall] {
        self.message.tool_calls()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finish_reason_known_names_are_snake_case() {
        let all = [
            (FinishReason::Stop, "stop"),
            (FinishReason::Length, "length"),
            (FinishReason::ToolCalls, "tool_calls"),
            (FinishReason::ContentFilter, "content_filter"),
        ];
        for (reason, name) in all {
            assert_eq!(serde_json::to_value(&reason).unwrap(), json!(name));
            assert_eq!(
                serde_json::from_value::<FinishReason>(json!(name)).unwrap(),
                reason
            );
        }
    }

    #[test]
    fn finish_reason_unknown_value_round_trips_as_other() {
        let reason: FinishReason = serde_json::from_value(json!("end_turn")).unwrap();
        assert_eq!(reason, FinishReason::Other("end_turn".into()));
        assert_eq!(serde_json::to_value(&reason).unwrap(), json!("end_turn"));
        assert_eq!(reason.to_string(), "end_turn");
        assert!(serde_json::from_value::<FinishReason>(json!(3)).is_err());
    }

    #[test]
    fn usage_sums_tokens_and_costs() {
        let a = Usage {
            prompt_tokens: 100,
            completion_tokens: 20,
            cached_tokens: 50,
            cache_write_tokens: 7,
            reasoning_tokens: 3,
            cost: Some(0.25),
        };
        let b = Usage {
            prompt_tokens: 10,
            completion_tokens: 5,
            cost: None,
            ..Usage::default()
        };
        let sum = a + b;
        assert_eq!(sum.cache_write_tokens, 7);
        assert_eq!((a + a).reasoning_tokens, 6);
        assert_eq!(sum.prompt_tokens, 110);
        assert_eq!(sum.completion_tokens, 25);
        assert_eq!(sum.cached_tokens, 50);
        assert_eq!(sum.cost, Some(0.25));
        assert_eq!(sum.total_tokens(), 135);

        assert_eq!((b + b).cost, None);
        assert_eq!((b + a).cost, Some(0.25));
        let mut total = a;
        total += a;
        assert_eq!(total.cost, Some(0.5));
        assert_eq!(total.prompt_tokens, 200);

        let summed: Usage = [a, b, a].iter().sum();
        assert_eq!(summed.total_tokens(), 255);
        assert_eq!(summed.cost, Some(0.5));

        let big = Usage {
            prompt_tokens: u32::MAX,
            completion_tokens: 1,
            ..Usage::default()
        };
        assert_eq!(big.total_tokens(), u32::MAX);
        assert_eq!((big + big).prompt_tokens, u32::MAX);
    }

    #[test]
    fn usage_json_omits_unknown_cost_and_defaults_missing_fields() {
        let usage = Usage {
            prompt_tokens: 3,
            completion_tokens: 4,
            ..Usage::default()
        };
        assert_eq!(
            serde_json::to_value(usage).unwrap(),
            json!({"prompt_tokens": 3, "completion_tokens": 4, "cached_tokens": 0})
        );
        let read: Usage = serde_json::from_value(json!({"prompt_tokens": 3})).unwrap();
        assert_eq!(read.prompt_tokens, 3);
        assert_eq!(read.completion_tokens, 0);
        assert_eq!(read.cost, None);
    }

    #[test]
    fn response_helpers_and_accessors() {
        let text = CompletionResponse::from_text("The door creaks open.")
            .with_model("test-model")
            .with_usage(Usage {
                prompt_tokens: 1,
                ..Usage::default()
            });
        assert_eq!(text.text(), Some("The door creaks open."));
        assert!(text.tool_calls().is_empty());
        assert_eq!(text.finish_reason, FinishReason::Stop);
        assert_eq!(text.model.as_deref(), Some("test-model"));
        assert_eq!(
            serde_json::to_value(&text).unwrap(),
            json!({
                "message": {"role": "assistant", "content": "The door creaks open."},
                "finish_reason": "stop",
                "usage": {"prompt_tokens": 1, "completion_tokens": 0, "cached_tokens": 0},
                "model": "test-model",
            })
        );

        let call = ToolCall::new("c1", "roll", json!({"notation": "1d20"}));
        let calls = CompletionResponse::from_tool_calls(vec![call.clone()])
            .with_finish_reason(FinishReason::Length);
        assert_eq!(calls.text(), None);
        assert_eq!(calls.tool_calls(), [call]);
        assert_eq!(calls.finish_reason, FinishReason::Length);
        let back: CompletionResponse =
            serde_json::from_value(serde_json::to_value(&calls).unwrap()).unwrap();
        assert_eq!(back, calls);
    }

    #[test]
    fn usage_cache_write_and_reasoning_tokens_are_read_and_omitted_when_zero() {
        let read: Usage = serde_json::from_value(json!({
            "prompt_tokens": 10, "completion_tokens": 5, "cached_tokens": 4,
            "cache_write_tokens": 6, "reasoning_tokens": 2
        }))
        .unwrap();
        assert_eq!(read.cache_write_tokens, 6);
        assert_eq!(read.reasoning_tokens, 2);
        assert_eq!(serde_json::to_value(read).unwrap()["reasoning_tokens"], 2);
        let json = serde_json::to_value(Usage::default()).unwrap();
        assert!(json.get("cache_write_tokens").is_none(), "{json}");
        assert!(json.get("reasoning_tokens").is_none(), "{json}");
    }
}
