//! One JSON POST endpoint of a server: the client, the URL, the headers every request carries,
//! the key to keep out of error messages, and the provider's error mapping.
//!
//! It exists because every adapter sends the same way: the OpenAI and OpenRouter providers
//! both hold a [`JsonEndpoint`] and send through it, so the headers (built by
//! [`json_headers`]), the redaction of the key and the two kinds of POST (a whole reply, or a
//! stream of server-sent events) are written once. The adapters stay request builders and
//! response parsers.

use std::fmt;

use bytes::Bytes;
use dnd_engine::llm::LlmError;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};

use super::client::Reply;
use super::{ApiKey, BodyStream, HttpClient, HttpFailure};

/// Turns an error response into an [`LlmError`]; a plain function so an endpoint stays cheap
/// to clone and has no lifetime (the adapters' `error_from_failure`s are such functions).
pub type FailureMapper = fn(&HttpFailure<'_>) -> LlmError;

/// One endpoint taking JSON bodies by POST (a chat-completions URL), with everything each
/// request needs. Its `Debug` shows the URL only: never the key, never header values.
#[derive(Clone)]
pub struct JsonEndpoint {
    http: HttpClient,
    url: String,
    headers: HeaderMap,
    api_key: Option<ApiKey>,
    map_error: FailureMapper,
}

impl fmt::Debug for JsonEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonEndpoint")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl JsonEndpoint {
    /// An endpoint at `url` sending through `http` with `headers` (see [`json_headers`]);
    /// `api_key`, when set, is removed from every error message; `map_error` maps error
    /// responses.
    pub fn new(
        http: HttpClient,
        url: impl Into<String>,
        headers: HeaderMap,
        api_key: Option<ApiKey>,
        map_error: FailureMapper,
    ) -> Self {
        JsonEndpoint {
            http,
            url: url.into(),
            headers,
            api_key,
            map_error,
        }
    }

    /// The HTTP client (for other endpoints of the same server).
    pub fn http(&self) -> &HttpClient {
        &self.http
    }

    /// The headers every request carries (the authorization one is marked sensitive).
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// `error` with the API key removed from its message, in case a server echoed it.
    pub fn redacted(&self, mut error: LlmError) -> LlmError {
        if let Some(key) = &self.api_key {
            key.redact(&mut error);
        }
        error
    }

    /// The [`LlmError`] for an error response, by the provider's mapping, with the key
    /// removed. Also serves requests to other URLs of the same server.
    pub fn map_failure(&self, failure: &HttpFailure<'_>) -> LlmError {
        self.redacted((self.map_error)(failure))
    }

    /// Posts `body` with the endpoint's headers, retrying by the client's policy, and returns
    /// the whole reply.
    ///
    /// # Errors
    ///
    /// As [`HttpClient::send`], error responses mapped by [`map_failure`](Self::map_failure).
    pub async fn post(&self, body: Bytes) -> Result<Reply, LlmError> {
        let map_error = |failure: &HttpFailure<'_>| self.map_failure(failure);
        self.http.send(self.request(&body, false), &map_error).await
    }

    /// Posts `body` with the endpoint's headers and `Accept: text/event-stream`, and returns
    /// the response's body as a stream once its headers arrive.
    ///
    /// # Errors
    ///
    /// As [`HttpClient::send_streaming`], error responses mapped by
    /// [`map_failure`](Self::map_failure).
    pub async fn post_for_events(&self, body: Bytes) -> Result<BodyStream, LlmError> {
        let map_error = |failure: &HttpFailure<'_>| self.map_failure(failure);
        self.http
            .send_streaming(self.request(&body, true), &map_error)
            .await
    }

    /// Builds the POST of `body` for each attempt (a retry builds it again; `Bytes` clones
    /// share the buffer).
    fn request<'a>(
        &'a self,
        body: &'a Bytes,
        events: bool,
    ) -> impl Fn(&reqwest::Client) -> reqwest::RequestBuilder + 'a {
        move |client| {
            let request = client.post(&self.url).headers(self.headers.clone());
            let request = if events {
                request.header(ACCEPT, "text/event-stream")
            } else {
                request
            };
            request.body(body.clone())
        }
    }
}

/// The headers of a JSON endpoint: `Content-Type: application/json`, `Authorization: Bearer
/// <key>` when there is a key (marked sensitive), then each `(name, value, sensitive)` in
/// order, a later one replacing an earlier one of the same name.
///
/// # Errors
///
/// [`LlmError::Auth`] for a key that cannot be sent in a header; [`LlmError::Other`] for a
/// header name or value that cannot be sent.
pub fn json_headers<'a>(
    api_key: Option<&ApiKey>,
    named: impl IntoIterator<Item = (&'a str, &'a str, bool)>,
) -> Result<HeaderMap, LlmError> {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(key) = api_key {
        headers.insert(AUTHORIZATION, key.bearer()?);
    }
    for (name, value, sensitive) in named {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| LlmError::other(format!("`{name}` is not a valid header name")))?;
        let mut value = HeaderValue::from_str(value)
            .map_err(|_| LlmError::other(format!("the value of header `{name}` cannot be sent")))?;
        value.set_sensitive(sensitive);
        headers.insert(name, value);
    }
    Ok(headers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::{RetryPolicy, Timeouts};

    #[test]
    fn headers_in_order_with_sensitivity() {
        let key = ApiKey::new("sk-secret");
        let headers = json_headers(
            Some(&key),
            [
                ("X-Title", "Game", false),
                ("X-Extra", "a", true),
                ("x-extra", "b", true),
            ],
        )
        .unwrap();
        assert_eq!(headers[CONTENT_TYPE], "application/json");
        assert!(headers[AUTHORIZATION].is_sensitive());
        assert!(!headers["X-Title"].is_sensitive());
        assert_eq!(headers["X-Extra"], "b");
        assert!(headers["X-Extra"].is_sensitive());
        assert!(!json_headers(None, []).unwrap().contains_key(AUTHORIZATION));
    }

    #[test]
    fn bad_headers_are_refused_with_their_name() {
        let error = json_headers(None, [("bad name", "v", false)]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`bad name` is not a valid header name")
        );
        let error = json_headers(None, [("X-Ok", "line\nbreak", true)]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("the value of header `x-ok` cannot be sent")
        );
        let error = json_headers(Some(&ApiKey::new("a\nb")), []).unwrap_err();
        assert!(matches!(error, LlmError::Auth { .. }));
    }

    #[test]
    fn failures_are_mapped_then_redacted_and_debug_hides_the_key() {
        let http = HttpClient::new(Timeouts::default(), RetryPolicy::default()).unwrap();
        let key = ApiKey::new("sk-secret-0123");
        let headers = json_headers(Some(&key), []).unwrap();
        let endpoint = JsonEndpoint::new(http, "http://x/chat", headers, Some(key), |failure| {
            LlmError::auth(String::from_utf8_lossy(failure.body).into_owned())
        });
        let failure = HttpFailure {
            status: 401,
            headers: &HeaderMap::new(),
            body: b"bad key sk-secret-0123",
        };
        assert!(
            !endpoint
                .map_failure(&failure)
                .to_string()
                .contains("sk-secret")
        );
        assert!(!format!("{endpoint:?}").contains("sk-secret"));
    }
}
