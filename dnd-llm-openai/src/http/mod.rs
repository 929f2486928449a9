//! The thin HTTP layer every OpenAI-compatible service is sent through: a reqwest client with
//! rustls, per-phase timeouts, the SDKs' retry policy, and an API key that never prints.
//!
//! What is public here is what a configuration or a [`Dialect`](crate::Dialect) needs
//! ([`Timeouts`], [`ResponseLimits`], [`RetryPolicy`], [`ApiKey`], [`HttpFailure`], [`Headers`]);
//! the client itself is private, so no type of reqwest or `bytes` is part of this crate's API
//! and a reqwest upgrade changes nothing for its users. What is provider-specific, turning an
//! error response into an [`LlmError`], is the dialect's
//! [`error_from_failure`](crate::Dialect::error_from_failure). Inside, a `JsonEndpoint`
//! bundles the client with one URL, its headers, the key to redact and that mapping: the
//! provider posts through it.
//!
//! Timeouts, by phase:
//! - [`Timeouts::connect`]: establishing the connection;
//! - [`Timeouts::request`]: from sending to the complete body (a plain request), or to the
//!   response headers (a stream: once headers arrive this one stops);
//! - [`Timeouts::idle`]: the longest a stream may go without data, so a stalled stream ends
//!   with [`LlmError::Timeout`] instead of hanging a game. Only events with data count: a
//!   server that sends nothing but keep-alive comments (`: keep-alive`) is cut off too.
//!
//! Sizes, by kind of response ([`ResponseLimits`]): a whole body, a stream's bytes, and what a
//! stream assembles. Each is read incrementally and cut with [`LlmError::BadResponse`] naming
//! the limit, so a server that sends without end costs a bounded amount of memory.

mod client;
mod endpoint;
mod headers;
pub mod retry;

use std::fmt;
use std::time::Duration;

use dnd_engine::llm::LlmError;
use reqwest::header::{HeaderMap, HeaderValue};

pub(crate) use client::{BodyStream, HttpClient};
pub(crate) use endpoint::{JsonEndpoint, json_headers};
pub use headers::Headers;
pub use retry::RetryPolicy;

/// How long each phase of a request may take (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Establishing the connection (10 s).
    pub connect: Duration,
    /// A plain request's whole exchange, or a stream's wait for its headers (10 min, as the
    /// SDKs).
    pub request: Duration,
    /// The longest a stream may go without an event carrying data (2 min). Keep-alive
    /// comments and empty events do not count, so a server that only keeps the connection
    /// alive is cut off; raise it for a model that thinks silently for longer.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(10),
            request: Duration::from_secs(600),
            idle: Duration::from_secs(120),
        }
    }
}

/// How much a model may send back, in bytes (see the module docs). Every limit ends the
/// response with [`LlmError::BadResponse`] naming it; none truncates silently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseLimits {
    /// A whole (not streamed) response body (8 MiB). A chat answer is a few KiB of JSON; even
    /// 100 000 tokens of text are well under 1 MiB, so this only stops a runaway server.
    /// A `Content-Length` above it is refused before the body is read.
    pub body_bytes: usize,
    /// Every byte of a streamed response, comments and envelopes included (16 MiB). Servers
    /// wrap each token in a ~200-400 byte chunk, so this allows 40 000 or more streamed
    /// tokens, reasoning included, beyond any answer a game asks for.
    pub stream_bytes: usize,
    /// What a stream assembles: text, refusal, reasoning and tool calls (1 MiB, about 250 000
    /// tokens of English, above every model's output limit). This bounds the memory an
    /// answer holds however the server packs it into chunks.
    pub stream_content_bytes: usize,
}

impl ResponseLimits {
    /// A whole body's default limit: 8 MiB.
    pub const DEFAULT_BODY_BYTES: usize = 8 * 1024 * 1024;
    /// A stream's default limit in bytes: 16 MiB.
    pub const DEFAULT_STREAM_BYTES: usize = 16 * 1024 * 1024;
    /// A stream's default limit of assembled content: 1 MiB.
    pub const DEFAULT_STREAM_CONTENT_BYTES: usize = 1024 * 1024;
}

impl Default for ResponseLimits {
    fn default() -> Self {
        ResponseLimits {
            body_bytes: Self::DEFAULT_BODY_BYTES,
            stream_bytes: Self::DEFAULT_STREAM_BYTES,
            stream_content_bytes: Self::DEFAULT_STREAM_CONTENT_BYTES,
        }
    }
}

/// The error for a response past one of its limits: what passed which limit, and the setting
/// that raises it (`field`, e.g. `ResponseLimits::body_bytes`).
pub(crate) fn too_large(what: &str, limit: usize, field: &str) -> LlmError {
    LlmError::bad_response(format!(
        "{what} passed the limit of {} ({limit} bytes) and was cut off; if answers this \
         large are expected, raise `{field}` in the provider's configuration",
        human_bytes(limit)
    ))
}

/// `limit` in the largest binary unit that divides it (`8 MiB`, `64 KiB`, `1000 bytes`).
fn human_bytes(limit: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    if limit >= MIB && limit.is_multiple_of(MIB) {
        format!("{} MiB", limit / MIB)
    } else if limit >= KIB && limit.is_multiple_of(KIB) {
        format!("{} KiB", limit / KIB)
    } else {
        format!("{limit} bytes")
    }
}

/// A response with an error status, as a dialect's
/// [`error_from_failure`](crate::Dialect::error_from_failure) sees it.
#[derive(Debug, Clone, Copy)]
pub struct HttpFailure<'a> {
    /// The HTTP status.
    pub status: u16,
    /// The response headers (`Retry-After`, `x-should-retry`, request ids).
    pub(crate) headers: &'a HeaderMap,
    /// The body, possibly cut at 64 KiB.
    pub body: &'a [u8],
}

impl<'a> HttpFailure<'a> {
    /// What `map` makes of a failure with this status, headers (`(name, value)`) and body: for
    /// testing a dialect's error mapping without a server. Headers that cannot be sent over
    /// HTTP are left out.
    pub fn simulate<'h>(
        status: u16,
        headers: impl IntoIterator<Item = (&'h str, &'h str)>,
        body: &'a [u8],
        each: impl FnOnce(&HttpFailure<'_>) -> LlmError,
    ) -> LlmError {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            if let (Ok(name), Ok(value)) = (
                reqwest::header::HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                map.append(name, value);
            }
        }
        each(&HttpFailure {
            status,
            headers: &map,
            body,
        })
    }

    /// The response's headers, values readable as text, sensitive ones hidden.
    pub fn headers(&self) -> Headers<'a> {
        Headers::new(self.headers)
    }

    /// How long the server asked to wait before a retry (`retry-after-ms`, `Retry-After` in
    /// seconds or as an HTTP date), if it did.
    pub fn requested_wait(&self) -> Option<Duration> {
        retry::requested_wait(self.headers)
    }
}

/// Turns an error response into an [`LlmError`]; the provider-specific part of the layer.
pub(crate) type ErrorMapper<'a> = dyn Fn(&HttpFailure<'_>) -> LlmError + Send + Sync + 'a;

/// An API key. Its `Debug` shows only whether it is set, never the key; it has no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `Bearer <key>` as a header value marked sensitive (reqwest and `http` then never print
    /// it).
    ///
    /// # Errors
    ///
    /// [`LlmError::Auth`] when the key holds characters a header cannot (the key is not
    /// quoted).
    pub(crate) fn bearer(&self) -> Result<HeaderValue, LlmError> {
        let mut value = HeaderValue::from_str(&format!("Bearer {}", self.0)).map_err(|_| {
            LlmError::auth("the API key contains characters that cannot be sent in a header")
        })?;
        value.set_sensitive(true);
        Ok(value)
    }

    /// Removes the key from an error's message, in case a server echoed it.
    pub fn redact(&self, error: &mut LlmError) {
        error.redact(&self.0);
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Installs ring as the process's rustls crypto provider unless one is installed already;
/// reqwest is built without one (see the workspace manifest).
pub fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may win the race; either provider serves.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// Text of a body for an error message: valid UTF-8 up to `limit` bytes, trimmed; `None` when
/// empty.
pub(crate) fn body_excerpt(body: &[u8], limit: usize) -> Option<String> {
    let text = String::from_utf8_lossy(&body[..body.len().min(limit)]);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut excerpt = text.to_owned();
    if body.len() > limit {
        excerpt.push_str(" ...");
    }
    Some(excerpt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_key_never_prints() {
        let key = ApiKey::new("sk-secret-123456789");
        assert_eq!(format!("{key:?}"), "ApiKey(<redacted>)");
        let header = key.bearer().unwrap();
        assert!(header.is_sensitive());
        assert!(!format!("{header:?}").contains("secret"));
        let mut error = LlmError::auth("bad key sk-secret-123456789");
        key.redact(&mut error);
        assert!(!error.to_string().contains("sk-secret"));
        assert!(ApiKey::new("line\nbreak").bearer().is_err());
    }

    #[test]
    fn too_large_names_the_limit_and_the_setting() {
        let error = too_large(
            "the response body",
            8 * 1024 * 1024,
            "ResponseLimits::body_bytes",
        );
        assert!(matches!(error, LlmError::BadResponse { .. }));
        let text = error.to_string();
        assert!(text.contains("8 MiB (8388608 bytes)"), "{text}");
        assert!(text.contains("`ResponseLimits::body_bytes`"), "{text}");
        assert_eq!(human_bytes(64 * 1024), "64 KiB");
        assert_eq!(human_bytes(1000), "1000 bytes");
    }

    #[test]
    fn body_excerpt_cuts_and_trims() {
        assert_eq!(body_excerpt(b"  \n", 10), None);
        assert_eq!(body_excerpt(b" oops ", 10).as_deref(), Some("oops"));
        assert_eq!(body_excerpt(b"abcdefghij", 4).as_deref(), Some("abcd ..."));
    }
}
