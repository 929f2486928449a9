//! OpenAI's errors as [`LlmError`]s: from an error response, or from an `error` object inside
//! a 200 body or a stream. Pure: the caller passes what arrived.
//!
//! | status / code | variant |
//! |---|---|
//! | `insufficient_quota` (any status), 402 | [`LlmError::QuotaExceeded`] |
//! | `content_policy_violation`, `content_filter` | [`LlmError::Refused`] |
//! | 401, 403 | [`LlmError::Auth`] |
//! | 429 | [`LlmError::RateLimited`] with the requested wait |
//! | 408, 409 | [`LlmError::Server`] (retryable) |
//! | 400 or 413 with `context_length_exceeded` or a message saying the prompt is over the context (llama.cpp's "exceeds the available context size") | [`LlmError::ContextLength`] |
//! | 5xx naming a request parameter it does not support | [`LlmError::InvalidRequest`] |
//! | other 5xx | [`LlmError::Server`] |
//! | other 4xx (400, 404, 422, ...) | [`LlmError::InvalidRequest`] with code and parameter |
//!
//! Messages quote the provider's `message` (and its type, code and parameter), or an excerpt
//! of a body that is not JSON; adapters redact the API key from them.

use dnd_engine::llm::LlmError;
use serde_json::Value;

use crate::http::retry::requested_wait;
use crate::http::{HttpFailure, body_excerpt};
use crate::wire::ErrorObject;

/// Request parameters a server may refuse to support; naming one turns a server error into
/// [`LlmError::InvalidRequest`], so the engine falls back instead of retrying.
const OPTIONAL_PARAMETERS: [&str; 11] = [
    "response_format",
    "json_schema",
    "tool_choice",
    "parallel_tool_calls",
    "tools",
    "max_completion_tokens",
    "max_tokens",
    "stream_options",
    "seed",
    "reasoning_effort",
    "strict",
];

const REFUSAL_WORDS: [&str; 9] = [
    "not supported",
    "unsupported",
    "does not support",
    "not implemented",
    "unknown",
    "unrecognized",
    "not allowed",
    "invalid",
    "extra",
];

/// The [`LlmError`] for an OpenAI error response (the default
/// [`Dialect::error_from_failure`](crate::Dialect::error_from_failure)).
pub fn error_from_failure(failure: &HttpFailure<'_>) -> LlmError {
    let parsed = serde_json::from_slice::<Value>(failure.body).ok();
    let object = parsed.as_ref().and_then(ErrorObject::from_body);
    let fallback = body_excerpt(failure.body, 500);
    let mut error = classify(Some(failure.status), object.as_ref(), fallback.as_deref());
    if let LlmError::RateLimited { retry_after, .. } = &mut error {
        *retry_after = requested_wait(failure.headers);
    }
    error
}

/// Turns an error object found inside a 200 body or a stream into an [`LlmError`]; adapters of
/// servers with their own error codes pass theirs to [`response_from_wire_with`] and
/// [`StreamAssembler::with_error_mapper`].
///
/// [`response_from_wire_with`]: crate::response_from_wire_with
/// [`StreamAssembler::with_error_mapper`]: crate::stream::StreamAssembler::with_error_mapper
pub type ObjectErrorMapper = fn(&ErrorObject) -> LlmError;

/// The [`LlmError`] for an error object that arrived inside a 200 body or a stream.
pub fn error_from_object(error: &ErrorObject) -> LlmError {
    // OpenRouter puts an HTTP-like number in `code`.
    let status = error
        .code
        .as_deref()
        .and_then(|code| code.parse::<u16>().ok())
        .filter(|code| (400..600).contains(code));
    classify(status, Some(error), None)
}

/// Sorts an error by status and code (see the module docs).
pub fn classify(
    status: Option<u16>,
    error: Option<&ErrorObject>,
    fallback: Option<&str>,
) -> LlmError {
    let message = describe(status, error, fallback);
    let code = error.and_then(ErrorObject::code_or_type).unwrap_or("");
    let mentions = |needle: &str| {
        code.contains(needle)
            || error
                .and_then(|e| e.kind.as_deref())
                .is_some_and(|kind| kind.contains(needle))
    };
    if mentions("insufficient_quota") || mentions("billing") || status == Some(402) {
        return LlmError::quota_exceeded(status, message);
    }
    if mentions("content_policy") || mentions("content_filter") || mentions("moderation") {
        let mut refused = LlmError::refused(message);
        if let Some(status) = status {
            refused = refused.with_status(status);
        }
        return refused;
    }
    let invalid = |message: String| LlmError::InvalidRequest {
        status,
        code: error.and_then(|e| e.code.clone()),
        param: error.and_then(|e| e.param.clone()),
        message,
    };
    // A prompt over the context window: a 400 (413 on some proxies) whose code or text says
    // so, typed so the engine can retry it cut shorter.
    if matches!(status, Some(400 | 413) | None)
        && (mentions("context_length_exceeded")
            || mentions("exceed_context_size")
            || LlmError::says_context_length(&message))
    {
        return LlmError::context_length(status, message);
    }
    match status {
        Some(401 | 403) => LlmError::auth(message).with_status(status.unwrap_or(401)),
        Some(429) => LlmError::rate_limited(None, message),
        Some(408 | 409) => LlmError::server(status, message),
        Some(500..=599) if names_unsupported_parameter(error, &message) => invalid(message),
        Some(500..=599) => LlmError::server(status, message),
        Some(_) => invalid(message),
        None if mentions("rate_limit") => LlmError::rate_limited(None, message),
        None if mentions("invalid_request") => invalid(message),
        None => LlmError::server(None, message),
    }
}

/// Whether a server error is really a refusal of a request parameter.
fn names_unsupported_parameter(error: Option<&ErrorObject>, message: &str) -> bool {
    if error.and_then(|e| e.param.as_deref()).is_some() {
        return true;
    }
    let lower = message.to_ascii_lowercase();
    let named = OPTIONAL_PARAMETERS.iter().any(|p| lower.contains(p));
    let format = lower.contains("response_format") || lower.contains("json_schema");
    named && (format || REFUSAL_WORDS.iter().any(|w| lower.contains(w)))
}

/// The provider's message with its type, code and parameter, or the body excerpt.
fn describe(status: Option<u16>, error: Option<&ErrorObject>, fallback: Option<&str>) -> String {
    let Some(error) = error else {
        return match (fallback, status) {
            (Some(text), _) => format!("the response was not a JSON error: {text}"),
            (None, Some(status)) => format!("HTTP {status} with an empty body"),
            (None, None) => "an error without details".to_owned(),
        };
    };
    let mut message = error
        .message
        .clone()
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| "no message".to_owned());
    let mut details = Vec::new();
    if let Some(kind) = error.kind.as_deref().filter(|k| !message.contains(k)) {
        details.push(format!("type: {kind}"));
    }
    if let Some(code) = error.code.as_deref().filter(|c| !message.contains(c)) {
        details.push(format!("code: {code}"));
    }
    if let Some(param) = error.param.as_deref() {
        details.push(format!("param: {param}"));
    }
    if !details.is_empty() {
        message.push_str(" (");
        message.push_str(&details.join(", "));
        message.push(')');
    }
    message
}

#[cfg(test)]
mod tests {
    use reqwest::header::{HeaderMap, HeaderValue};
    use serde_json::json;

    use super::*;

    fn failure(status: u16, body: &Value) -> LlmError {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("3"));
        let body = serde_json::to_vec(body).unwrap();
        error_from_failure(&HttpFailure {
            status,
            headers: &headers,
            body: &body,
        })
    }

    fn openai(message: &str, kind: &str, code: Option<&str>, param: Option<&str>) -> Value {
        json!({"error": {"message": message, "type": kind, "code": code, "param": param}})
    }

    #[test]
    fn statuses_and_codes_map_to_variants() {
        let quota = failure(
            429,
            &openai(
                "You exceeded your current quota",
                "insufficient_quota",
                Some("insufficient_quota"),
                None,
            ),
        );
        assert!(
            matches!(
                quota,
                LlmError::QuotaExceeded {
                    status: Some(429),
                    ..
                }
            ),
            "{quota:?}"
        );
        let limited = failure(
            429,
            &openai(
                "Rate limit reached",
                "requests",
                Some("rate_limit_exceeded"),
                None,
            ),
        );
        assert_eq!(
            limited.retry_after(),
            Some(std::time::Duration::from_secs(3))
        );
        let auth = failure(
            401,
            &openai(
                "Incorrect API key provided",
                "invalid_request_error",
                Some("invalid_api_key"),
                None,
            ),
        );
        assert!(
            matches!(
                auth,
                LlmError::Auth {
                    status: Some(401),
                    ..
                }
            ),
            "{auth:?}"
        );
        let model = failure(
            404,
            &openai(
                "The model `gpt-9` does not exist",
                "invalid_request_error",
                Some("model_not_found"),
                None,
            ),
        );
        match &model {
            LlmError::InvalidRequest { status, code, .. } => {
                assert_eq!(*status, Some(404));
                assert_eq!(code.as_deref(), Some("model_not_found"));
            }
            other => panic!("{other:?}"),
        }
        let param = failure(
            400,
            &openai(
                "Unsupported parameter: 'max_tokens'",
                "invalid_request_error",
                Some("unsupported_parameter"),
                Some("max_tokens"),
            ),
        );
        assert!(param.to_string().contains("param: max_tokens"), "{param}");
        assert!(matches!(
            failure(503, &openai("overloaded", "server_error", None, None)),
            LlmError::Server {
                status: Some(503),
                ..
            }
        ));
        assert!(matches!(
            failure(402, &json!({"error": {"code": 402, "message": "credits"}})),
            LlmError::QuotaExceeded { .. }
        ));
        let policy = failure(
            400,
            &openai(
                "flagged",
                "invalid_request_error",
                Some("content_policy_violation"),
                None,
            ),
        );
        assert!(
            matches!(
                policy,
                LlmError::Refused {
                    status: Some(400),
                    ..
                }
            ),
            "{policy:?}"
        );
    }

    #[test]
    fn a_prompt_over_the_context_is_a_context_length_error() {
        let openai_400 = failure(
            400,
            &openai(
                "This model's maximum context length is 8192 tokens. However, your messages resulted in 8605 tokens.",
                "invalid_request_error",
                Some("context_length_exceeded"),
                Some("messages"),
            ),
        );
        assert!(
            matches!(
                openai_400,
                LlmError::ContextLength {
                    status: Some(400),
                    ..
                }
            ),
            "{openai_400:?}"
        );
        let llama = failure(
            400,
            &json!({"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 8605, "n_ctx": 8192}}),
        );
        assert!(matches!(llama, LlmError::ContextLength { .. }), "{llama:?}");
        assert!(!llama.retryable());
        // A 400 about something else stays an invalid request.
        let other = failure(
            400,
            &openai("bad temperature", "invalid_request_error", None, None),
        );
        assert!(
            matches!(other, LlmError::InvalidRequest { .. }),
            "{other:?}"
        );
    }

    #[test]
    fn a_server_error_naming_an_unsupported_parameter_is_not_retryable() {
        let llama = failure(
            500,
            &json!({"error": {"message": "response_format type json_schema is not supported", "type": "internal_server_error"}}),
        );
        assert!(
            matches!(
                llama,
                LlmError::InvalidRequest {
                    status: Some(500),
                    ..
                }
            ),
            "{llama:?}"
        );
        assert!(!llama.retryable());
        let transient = failure(
            500,
            &json!({"error": {"message": "The server had an error while processing your request.", "type": "server_error"}}),
        );
        assert!(transient.retryable(), "{transient:?}");
    }

    #[test]
    fn bodies_that_are_not_json_are_quoted() {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("text/html"));
        let error = error_from_failure(&HttpFailure {
            status: 502,
            headers: &headers,
            body: b"<html>Bad Gateway</html>",
        });
        assert!(
            error.to_string().contains("<html>Bad Gateway</html>"),
            "{error}"
        );
        let empty = error_from_failure(&HttpFailure {
            status: 500,
            headers: &headers,
            body: b"",
        });
        assert!(
            empty.to_string().contains("HTTP 500 with an empty body"),
            "{empty}"
        );
    }

    #[test]
    fn errors_inside_bodies_use_numeric_codes_as_statuses() {
        let router = ErrorObject::from_error_value(
            &json!({"code": 502, "message": "Provider returned error"}),
        );
        assert!(matches!(
            error_from_object(&router),
            LlmError::Server {
                status: Some(502),
                ..
            }
        ));
        let plain = ErrorObject::from_error_value(&json!("upstream disconnected"));
        assert!(error_from_object(&plain).retryable());
    }
}
