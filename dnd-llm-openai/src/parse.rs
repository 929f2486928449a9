//! Response parsing: a chat completion's bytes to the engine's [`CompletionResponse`]. Pure.
//!
//! The conversions here (tool calls and their ids, arguments, finish reasons, usage, reasoning)
//! are shared with the stream assembler, so a streamed answer and a plain one read the same.

use crate::dialect::Dialect;
use std::collections::HashSet;

use dnd_engine::llm::{
    CompletionResponse, FinishReason, LlmError, Message, Reasoning, ToolCall, Usage,
};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::errors::{ObjectErrorMapper, error_from_object};
use crate::wire::{self, ChatResponse, ErrorObject, ResponseMessage, WireUsage};

/// Parses a `chat.completion` body, keeping the raw JSON in [`CompletionResponse::raw`].
///
/// # Errors
///
/// - [`LlmError::BadResponse`] when the body is not a JSON object or has no choice;
/// - the mapped error when the body carries an `error` (some servers answer HTTP 200 with one);
/// - [`LlmError::Refused`] when the model refused (`refusal` set, no content, no tool calls).
pub fn parse_response(body: &[u8]) -> Result<CompletionResponse, LlmError> {
    parse_response_with(body, true)
}

/// As [`parse_response`], keeping the raw JSON only when `keep_raw`.
///
/// # Errors
///
/// As [`parse_response`].
pub fn parse_response_with(body: &[u8], keep_raw: bool) -> Result<CompletionResponse, LlmError> {
    let (raw, wire) = read_chat_completion(body)?;
    let mut response = response_from_wire(wire, body)?;
    if keep_raw {
        response.raw = Some(raw);
    }
    Ok(response)
}

/// Parses a whole answer's body in the dialect `D`: the shared parser with the dialect's
/// errors ([`Dialect::error_from_object`]), then the dialect's fields
/// ([`Dialect::read_response`]), the raw JSON kept when `keep_raw`.
///
/// # Errors
///
/// As [`parse_response`], an `error` object mapped by the dialect.
pub fn parse_in<D: Dialect>(body: &[u8], keep_raw: bool) -> Result<CompletionResponse, LlmError> {
    let (raw, wire) = read_chat_completion(body)?;
    let mut response = response_from_wire_with(wire, body, D::error_from_object)?;
    D::read_response(&raw, &mut response);
    if keep_raw {
        response.raw = Some(raw);
    }
    Ok(response)
}

/// Reads a chat completion body into its raw JSON and its wire form, for adapters that turn
/// the wire form into a response their own way (OpenRouter adds its errors and costs).
///
/// # Errors
///
/// [`LlmError::BadResponse`] when the body is not JSON, not an object, or not a chat
/// completion.
pub fn read_chat_completion(body: &[u8]) -> Result<(Value, ChatResponse), LlmError> {
    let raw: Value = serde_json::from_slice(body).map_err(|e| {
        LlmError::bad_response(format!(
            "the body is not JSON ({e}); it starts: {}",
            crate::http::body_excerpt(body, 200).unwrap_or_default()
        ))
    })?;
    if !raw.is_object() {
        return Err(LlmError::bad_response(
            "the body is JSON but not a chat completion object",
        ));
    }
    let wire = ChatResponse::deserialize(&raw)
        .map_err(|e| LlmError::bad_response(format!("the chat completion did not read: {e}")))?;
    Ok((raw, wire))
}

/// The engine's response for a parsed [`ChatResponse`]. `seed` (usually the body) makes the
/// ids made up for tool calls differ between responses.
///
/// # Errors
///
/// As [`parse_response`].
pub fn response_from_wire(wire: ChatResponse, seed: &[u8]) -> Result<CompletionResponse, LlmError> {
    response_from_wire_with(wire, seed, error_from_object)
}

/// As [`response_from_wire`], with another server's mapping of error objects.
///
/// # Errors
///
/// As [`parse_response`].
pub fn response_from_wire_with(
    wire: ChatResponse,
    seed: &[u8],
    map_error: ObjectErrorMapper,
) -> Result<CompletionResponse, LlmError> {
    if let Some(error) = &wire.error {
        return Err(map_error(&ErrorObject::from_error_value(error)));
    }
    let mut choices = wire.choices;
    // The first choice by index (servers list them in order, but need not).
    let position = choices
        .iter()
        .enumerate()
        .min_by_key(|(i, c)| c.index.unwrap_or(u32::try_from(*i).unwrap_or(u32::MAX)))
        .map(|(i, _)| i)
        .ok_or_else(|| LlmError::bad_response("the response has no choices"))?;
    let choice = choices.swap_remove(position);
    if let Some(error) = &choice.error {
        return Err(map_error(&ErrorObject::from_error_value(error)));
    }
    let message = choice.message.unwrap_or_default();
    let id_seed = match wire.id.as_deref() {
        Some(id) if !id.is_empty() => id.as_bytes(),
        _ => seed,
    };
    finish(
        message,
        choice.finish_reason,
        wire.usage.as_ref(),
        wire.model,
        id_seed,
    )
}

/// Builds the response from an assistant message (whole, or assembled from a stream).
pub(crate) fn finish(
    message: ResponseMessage,
    finish_reason: Option<wire::FinishReason>,
    usage: Option<&WireUsage>,
    model: Option<String>,
    id_seed: &[u8],
) -> Result<CompletionResponse, LlmError> {
    let ResponseMessage {
        content,
        refusal,
        mut tool_calls,
        function_call,
        reasoning_content,
        reasoning,
        reasoning_details,
        ..
    } = message;
    if tool_calls.is_empty()
        && let Some(function) = function_call
    {
        // The legacy form, from servers that send only it.
        tool_calls.push(wire::WireToolCall {
            function: Some(function),
            ..wire::WireToolCall::default()
        });
    }
    let calls = tool_calls_from_wire(
        tool_calls.into_iter().map(|call| {
            let function = call.function.unwrap_or_default();
            (call.id, function.name, function.arguments)
        }),
        id_seed,
    );
    let content = content.filter(|text| !text.is_empty());
    if let Some(refusal) = refusal.filter(|r| !r.trim().is_empty())
        && content.is_none()
        && calls.is_empty()
    {
        return Err(LlmError::refused(refusal));
    }
    let mut message = Message::Assistant {
        content,
        tool_calls: calls,
        reasoning: None,
    };
    if let Some(reasoning) = reasoning_from_wire(reasoning_content, reasoning, reasoning_details) {
        message = message.with_reasoning(reasoning);
    }
    Ok(CompletionResponse {
        message,
        finish_reason: finish_reason_from_wire(finish_reason.as_ref()),
        usage: usage.map(usage_from_wire).unwrap_or_default(),
        model: model.filter(|m| !m.is_empty()),
        raw: None,
    })
}

/// Tool calls from `(provider id, name, arguments)`, with ids made unique (see
/// [`ToolCall::provider_id`]) and arguments decoded (see [`arguments_from_wire`]).
pub fn tool_calls_from_wire(
    calls: impl Iterator<Item = (Option<String>, Option<String>, Option<Value>)>,
    id_seed: &[u8],
) -> Vec<ToolCall> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out: Vec<ToolCall> = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    for (position, (id, name, arguments)) in calls.enumerate() {
        let mut call = ToolCall::new(
            String::new(),
            tool_name(name),
            arguments_from_wire(arguments),
        );
        match id.filter(|id| !id.is_empty()) {
            Some(id) if seen.insert(id.clone()) => call.id = id,
            other => {
                call.provider_id = other;
                pending.push(position);
            }
        }
        out.push(call);
    }
    // Made-up ids last, so they cannot collide with a provider id that comes later.
    for position in pending {
        let mut salt = 0u64;
        let id = loop {
            let id = made_up_id(id_seed, position as u64, salt);
            if !seen.contains(&id) {
                break id;
            }
            salt += 1;
        };
        seen.insert(id.clone());
        out[position].id = id;
    }
    out
}

/// A tool name as the model meant it, without surrounding whitespace or a trailing `:`
/// (llama.cpp's server can leave on the name the colon that ends `functions.<name>:` in its
/// chat template; no valid function name contains one).
fn tool_name(name: Option<String>) -> String {
    let name = name.unwrap_or_default();
    let clean = name.trim().trim_end_matches(':').trim_end();
    if clean.len() == name.len() {
        name
    } else {
        clean.to_owned()
    }
}

/// A made-up call id: 9 letters and digits (the length Mistral's servers insist on), from a
/// hash of the response (FNV-1a: stable across platforms and Rust versions) and the position.
fn made_up_id(seed: &[u8], position: u64, salt: u64) -> String {
    const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = seed
        .iter()
        .copied()
        .chain(position.to_le_bytes())
        .chain(salt.to_le_bytes());
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (0..9)
        .map(|_| {
            let c = ALPHABET[(hash % 62) as usize];
            hash /= 62;
            char::from(c)
        })
        .collect()
}

/// A tool call's arguments as the engine wants them:
///
/// - JSON text decodes to its value;
/// - an object (some servers send one) is kept;
/// - missing, `null`, `""` or blank text is `{}` (a tool without parameters);
/// - text that is not JSON is kept as a [`Value::String`], so the engine's tool layer answers
///   the model with a typed "could not parse the arguments" error instead of failing the turn.
pub fn arguments_from_wire(arguments: Option<Value>) -> Value {
    match arguments {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::String(text)) if text.trim().is_empty() => Value::Object(Map::new()),
        Some(Value::String(text)) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        Some(other) => other,
    }
}

/// The engine's finish reason; common synonyms from other servers are mapped, `""` or a
/// missing reason reads as [`FinishReason::Stop`].
pub fn finish_reason_from_wire(reason: Option<&wire::FinishReason>) -> FinishReason {
    use wire::FinishReason as W;
    match reason {
        None | Some(W::Stop) => FinishReason::Stop,
        Some(W::Length) => FinishReason::Length,
        Some(W::ToolCalls | W::FunctionCall) => FinishReason::ToolCalls,
        Some(W::ContentFilter) => FinishReason::ContentFilter,
        Some(W::Error) => FinishReason::Other("error".to_owned()),
        Some(W::Other(other)) => match other.as_str() {
            "" | "eos" | "eos_token" | "end_turn" | "stop_sequence" | "end" => FinishReason::Stop,
            "max_tokens" | "model_length" | "max_output_tokens" => FinishReason::Length,
            "tool_use" | "tool_call" => FinishReason::ToolCalls,
            "safety" | "content_filtered" => FinishReason::ContentFilter,
            _ => FinishReason::Other(other.clone()),
        },
    }
}

/// The engine's usage: cached tokens from OpenAI's, DeepSeek's or Anthropic-style fields,
/// cache writes, reasoning tokens, and the cost when the server reports one.
pub fn usage_from_wire(usage: &WireUsage) -> Usage {
    let prompt = usage.prompt_tokens_details.as_ref();
    let completion = usage.completion_tokens_details.as_ref();
    let cached = prompt
        .map(|p| p.cached_tokens)
        .filter(|n| *n > 0)
        .or(usage.prompt_cache_hit_tokens)
        .or(usage.cache_read_input_tokens)
        .unwrap_or(0);
    let cache_write = prompt
        .map(|p| p.cache_write_tokens)
        .filter(|n| *n > 0)
        .or(usage.cache_creation_input_tokens)
        .unwrap_or(0);
    let completion_tokens = if usage.completion_tokens == 0 && usage.total_tokens > 0 {
        usage.total_tokens.saturating_sub(usage.prompt_tokens)
    } else {
        usage.completion_tokens
    };
    Usage {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens,
        cached_tokens: cached,
        cache_write_tokens: cache_write,
        reasoning_tokens: completion.map_or(0, |c| c.reasoning_tokens),
        cost: usage.cost.filter(|c| c.is_finite() && *c >= 0.0),
    }
}

/// The reasoning of a message, if it has any, remembering which field its text came in.
pub fn reasoning_from_wire(
    reasoning_content: Option<String>,
    reasoning: Option<String>,
    details: Option<Value>,
) -> Option<Reasoning> {
    let (text, field) = match (reasoning_content, reasoning) {
        (Some(text), _) if !text.is_empty() => (Some(text), "reasoning_content"),
        (_, Some(text)) if !text.is_empty() => (Some(text), "reasoning"),
        _ => (None, "reasoning"),
    };
    let details = details.filter(|d| !matches!(d, Value::Array(a) if a.is_empty()));
    let reasoning = Reasoning {
        text,
        details,
        field: Some(field.to_owned()),
    };
    (!reasoning.is_empty()).then_some(reasoning)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn arguments_in_every_shape() {
        assert_eq!(arguments_from_wire(None), json!({}));
        assert_eq!(arguments_from_wire(Some(json!(""))), json!({}));
        assert_eq!(arguments_from_wire(Some(json!("  "))), json!({}));
        assert_eq!(
            arguments_from_wire(Some(json!(r#"{"a":1}"#))),
            json!({"a": 1})
        );
        assert_eq!(arguments_from_wire(Some(json!({"a": 1}))), json!({"a": 1}));
        assert_eq!(
            arguments_from_wire(Some(json!("rolls a d20 please"))),
            json!("rolls a d20 please")
        );
    }

    #[test]
    fn ids_are_kept_when_unique_and_made_up_otherwise() {
        let calls = tool_calls_from_wire(
            vec![
                (Some("call_0".to_owned()), Some("a".to_owned()), None),
                (Some("call_0".to_owned()), Some("b".to_owned()), None),
                (None, Some("c".to_owned()), None),
                (Some(String::new()), Some("d".to_owned()), None),
            ]
            .into_iter(),
            b"seed",
        );
        assert_eq!(calls[0].id, "call_0");
        assert_eq!(calls[0].provider_id, None);
        assert_eq!(calls[1].provider_id.as_deref(), Some("call_0"));
        assert_eq!(calls[2].provider_id, None);
        let ids: HashSet<&str> = calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 4);
        for call in &calls[1..] {
            assert_eq!(call.id.len(), 9);
            assert!(
                call.id.chars().all(|c| c.is_ascii_alphanumeric()),
                "{}",
                call.id
            );
        }
        let again = tool_calls_from_wire(
            vec![(None, Some("c".to_owned()), None)].into_iter(),
            b"seed",
        );
        let other = tool_calls_from_wire(
            vec![(None, Some("c".to_owned()), None)].into_iter(),
            b"other seed",
        );
        assert_eq!(again[0].id, made_up_id(b"seed", 0, 0));
        assert_ne!(again[0].id, other[0].id);
    }

    #[test]
    fn names_lose_the_template_colon() {
        let calls = tool_calls_from_wire(
            vec![
                (None, Some("roll_dice:".to_owned()), None),
                (None, Some(" roll_dice : ".to_owned()), None),
                (None, Some("roll_dice".to_owned()), None),
            ]
            .into_iter(),
            b"seed",
        );
        assert!(calls.iter().all(|c| c.name == "roll_dice"), "{calls:?}");
    }

    #[test]
    fn finish_reasons_and_synonyms() {
        use wire::FinishReason as W;
        assert_eq!(finish_reason_from_wire(None), FinishReason::Stop);
        assert_eq!(
            finish_reason_from_wire(Some(&W::Other("eos".into()))),
            FinishReason::Stop
        );
        assert_eq!(
            finish_reason_from_wire(Some(&W::Other(String::new()))),
            FinishReason::Stop
        );
        assert_eq!(
            finish_reason_from_wire(Some(&W::FunctionCall)),
            FinishReason::ToolCalls
        );
        assert_eq!(
            finish_reason_from_wire(Some(&W::Other("recitation".into()))),
            FinishReason::Other("recitation".into())
        );
    }

    #[test]
    fn usage_reads_every_dialect() {
        let usage: WireUsage = serde_json::from_value(json!({
            "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120,
            "prompt_cache_hit_tokens": 64,
            "cache_creation_input_tokens": 10,
            "completion_tokens_details": {"reasoning_tokens": 12},
            "cost": 0.0042
        }))
        .unwrap();
        let usage = usage_from_wire(&usage);
        assert_eq!(
            (
                usage.cached_tokens,
                usage.cache_write_tokens,
                usage.reasoning_tokens
            ),
            (64, 10, 12)
        );
        assert_eq!(usage.cost, Some(0.0042));
        let total_only: WireUsage =
            serde_json::from_value(json!({"prompt_tokens": 5, "total_tokens": 9})).unwrap();
        assert_eq!(usage_from_wire(&total_only).completion_tokens, 4);
    }
}
