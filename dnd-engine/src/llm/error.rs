//! Why a call to a model failed, sorted by what the caller should do about it.
//!
//! Every adapter maps its transport and HTTP failures onto these variants, so the engine can
//! retry, back off, or report to the player without knowing the provider. Each variant's
//! display text says what went wrong and what to do.
//!
//! **No secrets in messages.** Errors are logged, shown to users and serialized into
//! transcripts. Adapters must never put API keys, authorization headers or full request URLs
//! with credentials into a message; quote the provider's error text and the HTTP status only.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A failed call to a language model provider.
///
/// Serialized with a `kind` tag, e.g. `{"kind":"rate_limited","retry_after_ms":1500,
/// "message":".."}`; the retry delay is in whole milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LlmError {
    /// The provider rejected the credentials (HTTP 401/403).
    #[error(
        "the LLM provider rejected the credentials: {message}; check that the API key is set, \
         valid, and allowed to use this model"
    )]
    Auth {
        /// The HTTP status, if there was a response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        /// The provider's explanation.
        message: String,
    },
    /// Too many requests or tokens for the account's limits (HTTP 429).
    #[error(
        "the LLM provider is rate limiting requests: {message}; {}",
        rate_limit_advice(*.retry_after)
    )]
    RateLimited {
        /// How long the provider asked to wait, if it said.
        #[serde(
            rename = "retry_after_ms",
            with = "millis",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        retry_after: Option<Duration>,
        /// The provider's explanation.
        message: String,
    },
    /// The request took too long, connecting or waiting for the answer.
    #[error(
        "the request to the LLM provider timed out: {message}; retry, or allow a longer \
         timeout or fewer max_tokens"
    )]
    Timeout {
        /// What timed out.
        message: String,
    },
    /// The provider failed (HTTP 5xx), or answered with an HTTP error no other variant covers,
    /// or the connection broke.
    #[error(
        "the LLM provider failed{}: {message}; this is usually temporary, retry later",
        status_suffix(*.status)
    )]
    Server {
        /// The HTTP status, if there was a response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        /// The provider's explanation or the transport error.
        message: String,
    },
    /// The provider answered, but not in a form the adapter understands.
    #[error(
        "the LLM provider's response could not be understood: {message}; the model or server \
         may not support this request's features (tools, JSON output), try another model"
    )]
    BadResponse {
        /// What was wrong with the response.
        message: String,
    },
    /// The provider or model refused the request or its content (moderation, safety policy).
    #[error(
        "the LLM provider refused the request: {message}; rephrase or change the content, \
         retrying it unchanged will not help"
    )]
    Refused {
        /// The HTTP status, if the refusal came as an HTTP error.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        /// The provider's explanation or the model's refusal text.
        message: String,
    },
    /// The provider refused the request itself: a parameter or feature it does not support
    /// (e.g. `response_format`, `tools`), a model it does not have, a malformed body, a
    /// prompt longer than the context window (HTTP 400, 404, 422 and similar, or a server
    /// error that names a request parameter). Sending it unchanged fails the same way; a
    /// caller can fall back to a simpler request (no JSON Schema, no tools).
    #[error(
        "the LLM provider refused the request{}: {message}; the model or server may not \
         support one of its parameters or features, or the model name may be wrong",
        status_suffix(*.status)
    )]
    InvalidRequest {
        /// The HTTP status, if there was a response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        /// The provider's error code (e.g. `model_not_found`, `context_length_exceeded`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// The request parameter the provider named, if it named one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
        /// The provider's explanation.
        message: String,
    },
    /// The prompt and the room for the answer are more than the model's context window
    /// (OpenAI's `context_length_exceeded`, llama.cpp's "exceeds the available context size").
    /// Sending it unchanged fails the same way; the same request cut shorter may succeed, and
    /// the game master and the AI players retry once with a smaller window (`llm::window`).
    #[error(
        "the prompt is longer than the model's context window{}: {message}; send fewer or \
         shorter messages, or set the context window (with_context_window) so the engine cuts \
         requests to fit",
        status_suffix(*.status)
    )]
    ContextLength {
        /// The HTTP status, if there was a response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        /// The provider's explanation.
        message: String,
    },
    /// The account is out of credits or quota (OpenAI's `insufficient_quota`, HTTP 402).
    /// Waiting does not help; retries are pointless.
    #[error(
        "the LLM provider account is out of credits or quota{}: {message}; add credits or \
         check the plan and billing settings",
        status_suffix(*.status)
    )]
    QuotaExceeded {
        /// The HTTP status, if there was a response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        /// The provider's explanation.
        message: String,
    },
    /// Anything else (a bad request, a misconfiguration, a test script running out).
    #[error("the LLM request failed: {message}")]
    Other {
        /// What went wrong and, if known, what to do.
        message: String,
    },
}

fn rate_limit_advice(retry_after: Option<Duration>) -> String {
    match retry_after {
        Some(delay) => format!("retry after {} ms", delay.as_millis()),
        None => "wait a little and retry, or lower the request rate".to_owned(),
    }
}

fn status_suffix(status: Option<u16>) -> String {
    status
        .map(|code| format!(" (HTTP {code})"))
        .unwrap_or_default()
}

impl LlmError {
    /// An [`LlmError::Auth`] with this message.
    pub fn auth(message: impl Into<String>) -> Self {
        LlmError::Auth {
            status: None,
            message: message.into(),
        }
    }

    /// An [`LlmError::RateLimited`] with this delay and message.
    pub fn rate_limited(retry_after: Option<Duration>, message: impl Into<String>) -> Self {
        LlmError::RateLimited {
            retry_after,
            message: message.into(),
        }
    }

    /// An [`LlmError::Timeout`] with this message.
    pub fn timeout(message: impl Into<String>) -> Self {
        LlmError::Timeout {
            message: message.into(),
        }
    }

    /// An [`LlmError::Server`] with this status and message.
    pub fn server(status: Option<u16>, message: impl Into<String>) -> Self {
        LlmError::Server {
            status,
            message: message.into(),
        }
    }

    /// An [`LlmError::BadResponse`] with this message.
    pub fn bad_response(message: impl Into<String>) -> Self {
        LlmError::BadResponse {
            message: message.into(),
        }
    }

    /// An [`LlmError::Refused`] with this message.
    pub fn refused(message: impl Into<String>) -> Self {
        LlmError::Refused {
            status: None,
            message: message.into(),
        }
    }

    /// An [`LlmError::InvalidRequest`] with this status and message, and no code or parameter.
    pub fn invalid_request(status: Option<u16>, message: impl Into<String>) -> Self {
        LlmError::InvalidRequest {
            status,
            code: None,
            param: None,
            message: message.into(),
        }
    }

    /// An [`LlmError::QuotaExceeded`] with this status and message.
    pub fn quota_exceeded(status: Option<u16>, message: impl Into<String>) -> Self {
        LlmError::QuotaExceeded {
            status,
            message: message.into(),
        }
    }

    /// This error with its HTTP status set, for the variants that carry one
    /// ([`Auth`](LlmError::Auth), [`Server`](LlmError::Server),
    /// [`Refused`](LlmError::Refused), [`InvalidRequest`](LlmError::InvalidRequest),
    /// [`QuotaExceeded`](LlmError::QuotaExceeded)); the others are returned unchanged.
    pub fn with_status(mut self, code: u16) -> Self {
        match &mut self {
            LlmError::Auth { status, .. }
            | LlmError::Server { status, .. }
            | LlmError::Refused { status, .. }
            | LlmError::InvalidRequest { status, .. }
            | LlmError::QuotaExceeded { status, .. }
            | LlmError::ContextLength { status, .. } => *status = Some(code),
            LlmError::RateLimited { .. }
            | LlmError::Timeout { .. }
            | LlmError::BadResponse { .. }
            | LlmError::Other { .. } => {}
        }
        self
    }

    /// The HTTP status of the response this error came from, if it came from one and the
    /// adapter recorded it. A rate limit without a recorded status reads as `None`.
    pub fn status(&self) -> Option<u16> {
        match self {
            LlmError::Auth { status, .. }
            | LlmError::Server { status, .. }
            | LlmError::Refused { status, .. }
            | LlmError::InvalidRequest { status, .. }
            | LlmError::QuotaExceeded { status, .. }
            | LlmError::ContextLength { status, .. } => *status,
            LlmError::RateLimited { .. }
            | LlmError::Timeout { .. }
            | LlmError::BadResponse { .. }
            | LlmError::Other { .. } => None,
        }
    }

    /// Replaces every occurrence of `secret` in the message with `[redacted]`.
    ///
    /// For adapters that quote a provider's error text, which may echo a credential back.
    /// Secrets shorter than 8 characters are left alone: replacing them would garble ordinary
    /// words, and such short values are not real credentials.
    pub fn redact(&mut self, secret: &str) {
        if secret.len() < 8 {
            return;
        }
        let message = self.message_mut();
        if message.contains(secret) {
            *message = message.replace(secret, "[redacted]");
        }
    }

    fn message_mut(&mut self) -> &mut String {
        match self {
            LlmError::Auth { message, .. }
            | LlmError::RateLimited { message, .. }
            | LlmError::Timeout { message }
            | LlmError::Server { message, .. }
            | LlmError::BadResponse { message }
            | LlmError::Refused { message, .. }
            | LlmError::InvalidRequest { message, .. }
            | LlmError::QuotaExceeded { message, .. }
            | LlmError::ContextLength { message, .. }
            | LlmError::Other { message } => message,
        }
    }

    /// An [`LlmError::ContextLength`] with this status and message.
    pub fn context_length(status: Option<u16>, message: impl Into<String>) -> Self {
        LlmError::ContextLength {
            status,
            message: message.into(),
        }
    }

    /// Whether a provider's error text says the prompt was longer than the context window:
    /// OpenAI's `context_length_exceeded` code or "maximum context length" message,
    /// llama.cpp's "exceeds the available context size", vLLM's and OpenRouter's wordings.
    /// Adapters use it to map an HTTP 400 to [`LlmError::ContextLength`].
    pub fn says_context_length(text: &str) -> bool {
        let lower = text.to_ascii_lowercase();
        [
            "context_length_exceeded",
            "maximum context length",
            "exceeds the available context size",
            "context length",
            "context window",
            "too many tokens in the prompt",
        ]
        .iter()
        .any(|needle| lower.contains(needle))
    }

    /// An [`LlmError::Other`] with this message.
    pub fn other(message: impl Into<String>) -> Self {
        LlmError::Other {
            message: message.into(),
        }
    }

    /// Whether sending the same request again may succeed.
    ///
    /// True for rate limits, timeouts, and server errors without a status or with 408, 409,
    /// 429 or 5xx (the statuses the OpenAI SDKs retry). False for everything that would fail
    /// the same way again: credentials, refusals, invalid or unsupported requests, exhausted
    /// quota, unreadable responses, other errors.
    pub fn retryable(&self) -> bool {
        match self {
            LlmError::RateLimited { .. } | LlmError::Timeout { .. } => true,
            LlmError::Server { status, .. } => match status {
                None => true,
                Some(code) => matches!(code, 408 | 409 | 429) || *code >= 500,
            },
            LlmError::Auth { .. }
            | LlmError::BadResponse { .. }
            | LlmError::Refused { .. }
            | LlmError::InvalidRequest { .. }
            | LlmError::QuotaExceeded { .. }
            | LlmError::ContextLength { .. }
            | LlmError::Other { .. } => false,
        }
    }

    /// How long the provider asked to wait before retrying, if it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::RateLimited { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// The variant's message, without the advice the display text adds.
    pub fn message(&self) -> &str {
        match self {
            LlmError::Auth { message, .. }
            | LlmError::RateLimited { message, .. }
            | LlmError::Timeout { message }
            | LlmError::Server { message, .. }
            | LlmError::BadResponse { message }
            | LlmError::Refused { message, .. }
            | LlmError::InvalidRequest { message, .. }
            | LlmError::QuotaExceeded { message, .. }
            | LlmError::ContextLength { message, .. }
            | LlmError::Other { message } => message,
        }
    }

    /// The variant's name as in the serialized form's `kind` (`rate_limited`, `timeout`):
    /// a stable word for logs and metrics, with no message in it.
    pub fn kind(&self) -> &'static str {
        match self {
            LlmError::Auth { .. } => "auth",
            LlmError::RateLimited { .. } => "rate_limited",
            LlmError::Timeout { .. } => "timeout",
            LlmError::Server { .. } => "server",
            LlmError::BadResponse { .. } => "bad_response",
            LlmError::Refused { .. } => "refused",
            LlmError::InvalidRequest { .. } => "invalid_request",
            LlmError::QuotaExceeded { .. } => "quota_exceeded",
            LlmError::ContextLength { .. } => "context_length",
            LlmError::Other { .. } => "other",
        }
    }
}

/// Serializes an optional [`Duration`] as whole milliseconds (saturating at `u64::MAX`).
mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        value: &Option<Duration>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(delay) => {
                serializer.serialize_u64(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX))
            }
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(deserializer)?.map(Duration::from_millis))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn retryable_sorts_errors_by_what_to_do() {
        assert!(LlmError::rate_limited(None, "slow down").retryable());
        assert!(LlmError::timeout("read timed out").retryable());
        assert!(LlmError::server(None, "connection reset").retryable());
        assert!(LlmError::server(Some(503), "overloaded").retryable());
        assert!(LlmError::server(Some(408), "request timeout").retryable());
        assert!(!LlmError::server(Some(400), "bad request").retryable());
        assert!(!LlmError::auth("invalid key").retryable());
        assert!(!LlmError::bad_response("not JSON").retryable());
        assert!(!LlmError::refused("policy").retryable());
        assert!(!LlmError::other("script ran out").retryable());
    }

    #[test]
    fn retry_after_comes_only_from_rate_limits() {
        let delay = Duration::from_millis(1500);
        assert_eq!(
            LlmError::rate_limited(Some(delay), "x").retry_after(),
            Some(delay)
        );
        assert_eq!(LlmError::rate_limited(None, "x").retry_after(), None);
        assert_eq!(LlmError::server(Some(503), "x").retry_after(), None);
    }

    #[test]
    fn display_says_what_to_do() {
        let auth = LlmError::auth("invalid api key").to_string();
        assert!(auth.contains("invalid api key"), "{auth}");
        assert!(auth.contains("check that the API key"), "{auth}");
        let limited = LlmError::rate_limited(Some(Duration::from_secs(2)), "quota").to_string();
        assert!(limited.contains("retry after 2000 ms"), "{limited}");
        let server = LlmError::server(Some(502), "bad gateway").to_string();
        assert!(server.contains("(HTTP 502): bad gateway"), "{server}");
        assert!(!LlmError::server(None, "reset").to_string().contains("HTTP"));
        assert_eq!(LlmError::refused("no").message(), "no");
    }

    #[test]
    fn serializes_with_kind_tag_and_millisecond_delay() {
        let error = LlmError::rate_limited(Some(Duration::from_millis(1500)), "slow down");
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(
            json,
            json!({"kind": "rate_limited", "retry_after_ms": 1500, "message": "slow down"})
        );
        assert_eq!(serde_json::from_value::<LlmError>(json).unwrap(), error);

        let no_delay = LlmError::rate_limited(None, "slow down");
        let json = serde_json::to_value(&no_delay).unwrap();
        assert_eq!(
            json,
            json!({"kind": "rate_limited", "message": "slow down"})
        );
        assert_eq!(serde_json::from_value::<LlmError>(json).unwrap(), no_delay);

        let server = LlmError::server(Some(500), "oops");
        assert_eq!(
            serde_json::to_value(&server).unwrap(),
            json!({"kind": "server", "status": 500, "message": "oops"})
        );
    }

    #[test]
    fn new_variants_are_not_retryable_and_carry_their_status() {
        let unsupported = LlmError::InvalidRequest {
            status: Some(500),
            code: None,
            param: Some("response_format".into()),
            message: "response_format is not supported".into(),
        };
        assert!(!unsupported.retryable());
        assert_eq!(unsupported.status(), Some(500));
        assert!(
            unsupported.to_string().contains("(HTTP 500)"),
            "{unsupported}"
        );
        let quota = LlmError::quota_exceeded(Some(429), "insufficient_quota");
        assert!(!quota.retryable());
        assert!(quota.to_string().contains("add credits"), "{quota}");
        assert_eq!(
            LlmError::auth("bad key").with_status(401).status(),
            Some(401)
        );
        assert_eq!(LlmError::timeout("slow").with_status(408).status(), None);
        assert_eq!(
            serde_json::to_value(LlmError::invalid_request(Some(400), "bad")).unwrap(),
            json!({"kind": "invalid_request", "status": 400, "message": "bad"})
        );
        assert_eq!(
            serde_json::to_value(LlmError::auth("no")).unwrap(),
            json!({"kind": "auth", "message": "no"})
        );
        let read: LlmError =
            serde_json::from_value(json!({"kind": "refused", "message": "policy"})).unwrap();
        assert_eq!(read, LlmError::refused("policy"));
    }

    #[test]
    fn context_length_is_typed_final_and_recognised() {
        let error = LlmError::context_length(Some(400), "exceeds the available context size");
        assert!(!error.retryable());
        assert_eq!(error.status(), Some(400));
        assert!(error.to_string().contains("with_context_window"), "{error}");
        assert_eq!(
            serde_json::to_value(&error).unwrap(),
            json!({"kind": "context_length", "status": 400, "message": "exceeds the available context size"})
        );
        assert!(LlmError::says_context_length(
            "This model's maximum context length is 8192 tokens"
        ));
        assert!(LlmError::says_context_length(
            "the request exceeds the available context size, try increasing it"
        ));
        assert!(!LlmError::says_context_length(
            "Unsupported parameter: 'max_tokens'"
        ));
    }

    #[test]
    fn redact_removes_a_secret_from_the_message() {
        let mut error = LlmError::auth("Incorrect API key provided: sk-test-1234567890.");
        error.redact("sk-test-1234567890");
        assert_eq!(error.message(), "Incorrect API key provided: [redacted].");
        let mut short = LlmError::other("a b c");
        short.redact("b");
        assert_eq!(short.message(), "a b c");
    }

    #[test]
    fn kind_is_the_serialized_tag() {
        let errors = [
            LlmError::auth("a"),
            LlmError::rate_limited(None, "b"),
            LlmError::timeout("c"),
            LlmError::server(Some(502), "d"),
            LlmError::bad_response("e"),
            LlmError::refused("f"),
            LlmError::invalid_request(Some(400), "g"),
            LlmError::quota_exceeded(Some(402), "h"),
            LlmError::context_length(Some(400), "i"),
            LlmError::other("j"),
        ];
        for error in errors {
            let json = serde_json::to_value(&error).unwrap();
            assert_eq!(json["kind"], error.kind(), "{error:?}");
        }
    }
}
