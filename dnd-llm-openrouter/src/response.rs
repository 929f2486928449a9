//! Response parsing: the OpenAI adapter's, with OpenRouter's error codes and its cost.
//!
//! OpenRouter reports what a call cost in `usage.cost` (credits, in US dollars) and a
//! breakdown in `usage.cost_details`. With a key of one's own at the upstream provider
//! (`usage.is_byok: true`), `cost` is only OpenRouter's fee and the upstream bills
//! `cost_details.upstream_inference_cost` to that key; [`cost_from_usage`] adds the two so
//! [`Usage::cost`](dnd_engine::llm::Usage::cost) is what the call cost, whoever bills it.

use dnd_engine::llm::{CompletionResponse, LlmError};
use serde_json::Value;

use crate::config::OpenRouter;

/// Parses a chat completion body from OpenRouter, keeping the raw JSON when `keep_raw`.
///
/// # Errors
///
/// [`LlmError::BadResponse`] when the body is not a JSON object or has no choice; the mapped
/// error (see [`crate::errors`]) when it carries an `error`; [`LlmError::Refused`] for a
/// model's refusal.
pub fn parse_response(body: &[u8], keep_raw: bool) -> Result<CompletionResponse, LlmError> {
    dnd_llm_openai::parse_in::<OpenRouter>(body, keep_raw)
}

/// What a call cost in US dollars, from OpenRouter's `usage` object: `cost`, plus
/// `cost_details.upstream_inference_cost` when the upstream billed the caller's own key
/// (`is_byok`); the upstream cost alone when `cost` is missing. `None` when neither is there.
pub fn cost_from_usage(usage: &Value) -> Option<f64> {
    let number = |value: Option<&Value>| {
        value
            .and_then(Value::as_f64)
            .filter(|n| n.is_finite() && *n >= 0.0)
    };
    let cost = number(usage.get("cost"));
    let details = usage.get("cost_details");
    let upstream = number(details.and_then(|d| d.get("upstream_inference_cost"))).or_else(|| {
        let prompt = number(details.and_then(|d| d.get("upstream_inference_prompt_cost")));
        let completion = number(details.and_then(|d| d.get("upstream_inference_completions_cost")));
        match (prompt, completion) {
            (None, None) => None,
            (p, c) => Some(p.unwrap_or(0.0) + c.unwrap_or(0.0)),
        }
    });
    let byok = usage.get("is_byok").and_then(Value::as_bool) == Some(true);
    match (cost, upstream) {
        (Some(cost), Some(upstream)) if byok => Some(cost + upstream),
        (Some(cost), _) => Some(cost),
        (None, upstream) => upstream,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn cost_with_and_without_an_own_key() {
        assert_eq!(cost_from_usage(&json!({"cost": 0.0012})), Some(0.0012));
        assert_eq!(
            cost_from_usage(
                &json!({"cost": 0.0012, "cost_details": {"upstream_inference_cost": 0.001}})
            ),
            Some(0.0012)
        );
        let byok = cost_from_usage(&json!({
            "cost": 0.0001, "is_byok": true,
            "cost_details": {"upstream_inference_cost": 0.002}
        }))
        .unwrap();
        assert!((byok - 0.0021).abs() < 1e-12);
        let split = cost_from_usage(&json!({"cost_details": {
            "upstream_inference_prompt_cost": 0.003, "upstream_inference_completions_cost": 0.001
        }}))
        .unwrap();
        assert!((split - 0.004).abs() < 1e-12);
        assert_eq!(cost_from_usage(&json!({"cost": "free"})), None);
        assert_eq!(cost_from_usage(&json!({"prompt_tokens": 3})), None);
    }

    #[test]
    fn errors_in_a_200_body_use_the_numeric_code() {
        let body = br#"{"error": {"code": 402, "message": "Insufficient credits"}}"#;
        let error = parse_response(body, false).unwrap_err();
        assert!(matches!(error, LlmError::QuotaExceeded { .. }), "{error:?}");
        assert!(matches!(
            parse_response(b"[1]", false),
            Err(LlmError::BadResponse { .. })
        ));
    }
}
