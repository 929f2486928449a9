//! OpenRouter's errors as [`LlmError`]s.
//!
//! OpenRouter's error body is OpenAI's with two differences: `code` is a number (the HTTP
//! status, also inside 200 bodies and streams, where there is no status), and `metadata`
//! says more: the moderation verdict, or the upstream provider's own error. The metadata goes
//! into the message, because "Provider returned error" alone tells nobody what to fix.
//!
//! | status / code | variant | retried |
//! |---|---|---|
//! | 402 (out of credits) | [`LlmError::QuotaExceeded`] | never |
//! | 403 with moderation metadata, or a message about moderation | [`LlmError::Refused`] with status 403, the reasons, the flagged input, the provider and model | never |
//! | anything else | as the OpenAI adapter ([`dnd_llm_openai::errors::classify`]): 401 auth, 408 and 5xx server errors, 429 rate limits, other 4xx invalid requests | by the OpenAI SDKs' policy |
//!
//! Never retrying 402 and 403 is the shared HTTP layer's rule: a quota error and 400, 401, 403
//! and 404 are final whatever the headers say.

use std::fmt::Write as _;

use dnd_engine::llm::LlmError;
use dnd_llm_openai::errors::classify;
use dnd_llm_openai::http::HttpFailure;
use dnd_llm_openai::wire::ErrorObject;
use serde_json::Value;

/// The longest piece of metadata quoted in a message (an upstream's raw error can be long).
const METADATA_LIMIT: usize = 300;

/// The [`LlmError`] for an OpenRouter error response (its dialect's
/// [`error_from_failure`](dnd_llm_openai::Dialect::error_from_failure)).
pub fn error_from_failure(failure: &HttpFailure<'_>) -> LlmError {
    let parsed = serde_json::from_slice::<Value>(failure.body).ok();
    let Some(object) = parsed.as_ref().and_then(ErrorObject::from_body) else {
        // Not JSON (a proxy's HTML page): the OpenAI adapter quotes it.
        return dnd_llm_openai::errors::error_from_failure(failure);
    };
    let mut error = error_from_parts(Some(failure.status), &object);
    if let LlmError::RateLimited { retry_after, .. } = &mut error {
        *retry_after = failure.requested_wait();
    }
    error
}

/// The [`LlmError`] for an error object inside a 200 body or a stream (an
/// [`ObjectErrorMapper`](dnd_llm_openai::errors::ObjectErrorMapper)); its numeric `code` is
/// read as the status.
pub fn error_from_object(error: &ErrorObject) -> LlmError {
    error_from_parts(numeric_code(error), error)
}

/// The HTTP status an error object's `code` stands for, if it is one.
fn numeric_code(error: &ErrorObject) -> Option<u16> {
    error
        .code
        .as_deref()
        .and_then(|code| code.trim().parse::<u16>().ok())
        .filter(|code| (400..600).contains(code))
}

fn error_from_parts(status: Option<u16>, error: &ErrorObject) -> LlmError {
    let status = status.or_else(|| numeric_code(error));
    let details = metadata_text(error.metadata.as_ref());
    let base = error
        .message
        .as_deref()
        .filter(|m| !m.trim().is_empty())
        .unwrap_or("no message");
    let message = match &details {
        Some(details) => format!("{base} ({details})"),
        None => base.to_owned(),
    };
    let coded = |message: &str| match &error.code {
        Some(code) if !message.contains(code.as_str()) => format!("{message} (code {code})"),
        _ => message.to_owned(),
    };
    if status == Some(402) {
        return LlmError::quota_exceeded(Some(402), coded(&message));
    }
    if status == Some(403) && is_moderation(error) {
        return LlmError::refused(coded(&message)).with_status(403);
    }
    let enriched = ErrorObject {
        message: Some(message),
        metadata: None,
        ..error.clone()
    };
    classify(status, Some(&enriched), None)
}

/// Whether a 403 is a moderation verdict (its metadata has reasons or the flagged input, or
/// its message says so) rather than a refused key.
fn is_moderation(error: &ErrorObject) -> bool {
    let flagged = error
        .metadata
        .as_ref()
        .and_then(Value::as_object)
        .is_some_and(|m| m.contains_key("reasons") || m.contains_key("flagged_input"));
    let message = error.message.as_deref().unwrap_or("").to_ascii_lowercase();
    flagged || message.contains("moderation") || message.contains("flagged")
}

/// The metadata as text: the moderation reasons, the flagged input, the provider and model,
/// the upstream's raw error, then any other field, each cut at [`METADATA_LIMIT`].
fn metadata_text(metadata: Option<&Value>) -> Option<String> {
    let map = metadata?.as_object()?;
    let mut text = String::new();
    let mut add = |label: &str, value: &Value| {
        let value = match value {
            Value::Null => return,
            Value::String(s) if s.trim().is_empty() => return,
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        };
        if !text.is_empty() {
            text.push_str("; ");
        }
        let _ = write!(text, "{label}: {}", cut(&value, METADATA_LIMIT));
    };
    const KNOWN: [(&str, &str); 5] = [
        ("reasons", "reasons"),
        ("flagged_input", "flagged input"),
        ("provider_name", "provider"),
        ("model_slug", "model"),
        ("raw", "upstream error"),
    ];
    for (key, label) in KNOWN {
        if let Some(value) = map.get(key) {
            add(label, value);
        }
    }
    for (key, value) in map {
        if !KNOWN.iter().any(|(known, _)| known == key) {
            add(key, value);
        }
    }
    (!text.is_empty()).then_some(text)
}

fn cut(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => format!("{} ...", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn failure(status: u16, body: &Value) -> LlmError {
        let body = serde_json::to_vec(body).unwrap();
        HttpFailure::simulate(status, [], &body, error_from_failure)
    }

    #[test]
    fn credits_and_moderation_are_final_and_say_why() {
        let credits = failure(
            402,
            &json!({"error": {"code": 402, "message": "Insufficient credits"}}),
        );
        assert!(matches!(
            credits,
            LlmError::QuotaExceeded {
                status: Some(402),
                ..
            }
        ));
        assert!(credits.message().contains("code 402"), "{credits}");
        let moderation = failure(
            403,
            &json!({"error": {"code": 403, "message": "Input was flagged", "metadata": {
                "reasons": ["violence", "harassment"], "flagged_input": "I stab the ...",
                "provider_name": "OpenAI", "model_slug": "openai/gpt-4o"}}}),
        );
        assert!(
            matches!(
                moderation,
                LlmError::Refused {
                    status: Some(403),
                    ..
                }
            ),
            "{moderation:?}"
        );
        let text = moderation.message();
        for part in [
            "reasons: violence, harassment",
            "flagged input: I stab the ...",
            "provider: OpenAI",
            "model: openai/gpt-4o",
        ] {
            assert!(text.contains(part), "{part} missing from {text}");
        }
        assert!(!credits.retryable() && !moderation.retryable());
        let key = failure(
            403,
            &json!({"error": {"code": 403, "message": "Key disabled"}}),
        );
        assert!(matches!(key, LlmError::Auth { .. }), "{key:?}");
    }

    #[test]
    fn upstream_errors_quote_the_provider_and_numeric_codes_are_statuses() {
        let upstream = error_from_object(&ErrorObject::from_error_value(&json!({
            "code": 502, "message": "Provider returned error",
            "metadata": {"provider_name": "Together", "raw": "{\"error\":\"model overloaded\"}"}
        })));
        assert!(
            matches!(
                upstream,
                LlmError::Server {
                    status: Some(502),
                    ..
                }
            ),
            "{upstream:?}"
        );
        assert!(upstream.message().contains("provider: Together"));
        assert!(upstream.message().contains("model overloaded"));
        assert!(upstream.retryable());
        let limited = error_from_object(&ErrorObject::from_error_value(
            &json!({"code": 429, "message": "Rate limit exceeded"}),
        ));
        assert!(matches!(limited, LlmError::RateLimited { .. }));
        let long = "x".repeat(1000);
        let cut_short = metadata_text(Some(&json!({"raw": long}))).unwrap();
        assert!(cut_short.len() < 400, "{cut_short}");
    }
}
