//! The client: sends with retries, reads bodies within their deadlines and size limits,
//! streams with an idle timeout and a size limit.

use std::error::Error as _;
use std::time::{Duration, Instant};

use dnd_engine::llm::LlmError;
use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::header::HeaderMap;
use tokio::time::timeout;

use super::retry::{requested_wait, should_retry};
use super::{
    ErrorMapper, HttpFailure, ResponseLimits, RetryPolicy, Timeouts, install_crypto_provider,
    too_large,
};

/// Error bodies are read up to this size; the rest is not needed to say what went wrong.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// A reqwest client with the layer's timeouts, size limits and retry policy. Cheap to clone.
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: reqwest::Client,
    timeouts: Timeouts,
    retry: RetryPolicy,
    limits: ResponseLimits,
}

/// A successful plain response: its headers and whole body.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The response headers (the speech endpoint reads the content type).
    #[cfg_attr(not(feature = "speech"), allow(dead_code))]
    pub headers: HeaderMap,
    /// The body.
    pub body: Vec<u8>,
}

enum Want {
    /// The whole body, refused past `limit` bytes; `field` is the setting that raises it.
    Body {
        limit: usize,
        field: &'static str,
    },
    Headers,
}

enum Got {
    Body(Reply),
    Headers(reqwest::Response),
}

impl HttpClient {
    /// A client with these timeouts and retry policy (rustls with ring, HTTP/1.1), and the
    /// default [`ResponseLimits`] (see [`with_limits`](HttpClient::with_limits)).
    ///
    /// # Errors
    ///
    /// [`LlmError::Other`] if the TLS backend cannot start.
    pub fn new(timeouts: Timeouts, retry: RetryPolicy) -> Result<Self, LlmError> {
        install_crypto_provider();
        let client = reqwest::Client::builder()
            .connect_timeout(timeouts.connect)
            .build()
            .map_err(|e| {
                LlmError::other(format!("the HTTP client could not start: {}", chain(e)))
            })?;
        Ok(HttpClient {
            client,
            timeouts,
            retry,
            limits: ResponseLimits::default(),
        })
    }

    /// This client with these size limits on what servers send back.
    #[must_use]
    pub fn with_limits(mut self, limits: ResponseLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sends the request `make` builds (once per attempt), retrying by the policy, and reads
    /// the whole body of the first successful response within [`Timeouts::request`] and
    /// [`ResponseLimits::body_bytes`].
    ///
    /// # Errors
    ///
    /// The last attempt's error: `map_error` of an error response, a transport error
    /// ([`LlmError::Timeout`], [`LlmError::Server`] without a status), or
    /// [`LlmError::BadResponse`] for a body past the limit (not retried).
    pub async fn send<F>(&self, make: F, map_error: &ErrorMapper<'_>) -> Result<Reply, LlmError>
    where
        F: Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    {
        let limit = self.limits.body_bytes;
        self.send_with_limit(make, map_error, limit, "ResponseLimits::body_bytes")
            .await
    }

    /// As [`send`](HttpClient::send), with a body limit of its own: `limit` bytes, raised by
    /// the setting `field` (named in the error). For bodies that are not chat answers, such
    /// as audio.
    ///
    /// # Errors
    ///
    /// As [`send`](HttpClient::send).
    pub async fn send_with_limit<F>(
        &self,
        make: F,
        map_error: &ErrorMapper<'_>,
        limit: usize,
        field: &'static str,
    ) -> Result<Reply, LlmError>
    where
        F: Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    {
        match self
            .attempts(&make, map_error, Want::Body { limit, field })
            .await?
        {
            Got::Body(reply) => Ok(reply),
            Got::Headers(_) => unreachable!("asked for the body"),
        }
    }

    /// Sends the request `make` builds, retrying by the policy until a successful response's
    /// headers arrive (within [`Timeouts::request`]), and returns its body as a stream with
    /// the idle timeout and the stream limits. Nothing is retried once the stream is returned.
    ///
    /// # Errors
    ///
    /// As [`send`](HttpClient::send).
    pub async fn send_streaming<F>(
        &self,
        make: F,
        map_error: &ErrorMapper<'_>,
    ) -> Result<BodyStream, LlmError>
    where
        F: Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    {
        match self.attempts(&make, map_error, Want::Headers).await? {
            Got::Headers(response) => Ok(BodyStream {
                chunks: response.bytes_stream().boxed(),
                idle: self.timeouts.idle,
                limits: self.limits,
                received: 0,
            }),
            Got::Body(_) => unreachable!("asked for the headers"),
        }
    }

    async fn attempts<F>(
        &self,
        make: &F,
        map_error: &ErrorMapper<'_>,
        want: Want,
    ) -> Result<Got, LlmError>
    where
        F: Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    {
        let started = Instant::now();
        let mut retry = 0;
        loop {
            let (error, status, headers) = match self.attempt(make, map_error, &want).await {
                Ok(got) => return Ok(got),
                Err(failed) => failed,
            };
            let retrying =
                retry < self.retry.max_retries && should_retry(status, headers.as_ref(), &error);
            if !retrying {
                return Err(error);
            }
            let delay = self
                .retry
                .delay(retry, headers.as_ref().and_then(requested_wait));
            if started.elapsed() + delay > self.retry.max_elapsed {
                return Err(error);
            }
            tracing::debug!(
                retry = retry + 1,
                status,
                delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                "retrying an LLM request"
            );
            tokio::time::sleep(delay).await;
            retry += 1;
        }
    }

    /// One attempt; on failure, the error with the status and headers the retry rules read.
    async fn attempt<F>(
        &self,
        make: &F,
        map_error: &ErrorMapper<'_>,
        want: &Want,
    ) -> Result<Got, (LlmError, Option<u16>, Option<HeaderMap>)>
    where
        F: Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    {
        let deadline = Instant::now() + self.timeouts.request;
        let response = match timeout(self.timeouts.request, make(&self.client).send()).await {
            Err(_) => return Err((headers_timeout(self.timeouts.request), None, None)),
            Ok(Err(e)) => return Err((transport_error(e), None, None)),
            Ok(Ok(response)) => response,
        };
        let status = response.status().as_u16();
        if !response.status().is_success() {
            let headers = response.headers().clone();
            let body = read_limited(response, deadline).await;
            let error = map_error(&HttpFailure {
                status,
                headers: &headers,
                body: &body,
            });
            return Err((error, Some(status), Some(headers)));
        }
        match want {
            Want::Headers => Ok(Got::Headers(response)),
            Want::Body { limit, field } => {
                let headers = response.headers().clone();
                match read_body(response, deadline, *limit, field).await {
                    Err(BodyError::Late) => Err((
                        LlmError::timeout(format!(
                            "the response body did not arrive within {} s",
                            self.timeouts.request.as_secs_f64()
                        )),
                        None,
                        None,
                    )),
                    Err(BodyError::Failed(error)) => Err((error, None, None)),
                    Ok(body) => Ok(Got::Body(Reply { headers, body })),
                }
            }
        }
    }
}

/// Why a whole body could not be read.
enum BodyError {
    /// The deadline passed.
    Late,
    /// The connection failed, or the body passed its limit.
    Failed(LlmError),
}

/// Reads a whole body chunk by chunk before `deadline`, refusing it once it passes `limit`
/// bytes (at once when its `Content-Length` says it will), so an endless body costs at most
/// `limit` bytes of memory.
async fn read_body(
    mut response: reqwest::Response,
    deadline: Instant,
    limit: usize,
    field: &str,
) -> Result<Vec<u8>, BodyError> {
    let too_large = || BodyError::Failed(too_large("the response body", limit, field));
    let declared = response.content_length();
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    let mut body = Vec::with_capacity(declared.map_or(0, |length| length as usize));
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        match timeout(remaining, response.chunk()).await {
            Err(_) => return Err(BodyError::Late),
            Ok(Err(e)) => return Err(BodyError::Failed(transport_error(e))),
            Ok(Ok(None)) => return Ok(body),
            Ok(Ok(Some(chunk))) => {
                if body.len() + chunk.len() > limit {
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
            }
        }
    }
}

fn headers_timeout(limit: Duration) -> LlmError {
    LlmError::timeout(format!(
        "no response from the provider within {} s",
        limit.as_secs_f64()
    ))
}

/// Reads an error body up to [`ERROR_BODY_LIMIT`] before `deadline`; what arrived by then.
async fn read_limited(mut response: reqwest::Response, deadline: Instant) -> Vec<u8> {
    let mut body = Vec::new();
    while body.len() < ERROR_BODY_LIMIT {
        let remaining = deadline.saturating_duration_since(Instant::now());
        match timeout(remaining, response.chunk()).await {
            Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
            _ => break,
        }
    }
    body.truncate(ERROR_BODY_LIMIT);
    body
}

/// A transport failure as an [`LlmError`], without the URL (which may carry credentials).
pub(crate) fn transport_error(error: reqwest::Error) -> LlmError {
    let timed_out = error.is_timeout();
    let builder = error.is_builder();
    let text = chain(error);
    if timed_out {
        LlmError::timeout(text)
    } else if builder {
        LlmError::other(format!("the request could not be built: {text}"))
    } else {
        LlmError::server(
            None,
            format!("the connection to the provider failed: {text}"),
        )
    }
}

/// The error and its causes, joined, with reqwest's URL left out.
fn chain(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// A streamed response body with an idle timeout and a limit on its size
/// ([`ResponseLimits::stream_bytes`]).
pub struct BodyStream {
    chunks: BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    idle: Duration,
    limits: ResponseLimits,
    /// Bytes read so far.
    received: usize,
}

impl std::fmt::Debug for BodyStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyStream")
            .field("idle", &self.idle)
            .field("limits", &self.limits)
            .field("received", &self.received)
            .finish_non_exhaustive()
    }
}

impl BodyStream {
    /// The idle timeout ([`Timeouts::idle`]).
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// The client's size limits; the stream reader takes its content limit from here.
    pub fn limits(&self) -> ResponseLimits {
        self.limits
    }

    /// The next chunk if it arrives before `deadline`, `Ok(None)` at the end of the body.
    ///
    /// The deadline is the caller's because only the caller knows what counts as data: the
    /// event reader ([`events_from_body`](crate::stream::events_from_body)) sets it an idle
    /// timeout after the last event with data, so keep-alive comments, which arrive as
    /// chunks too, never extend it. The timeout's message says so.
    ///
    /// # Errors
    ///
    /// [`LlmError::Timeout`] at `deadline`; [`LlmError::Server`] when the connection breaks;
    /// [`LlmError::BadResponse`] once the body passes [`ResponseLimits::stream_bytes`].
    pub async fn next_chunk_until(
        &mut self,
        deadline: tokio::time::Instant,
    ) -> Result<Option<bytes::Bytes>, LlmError> {
        match tokio::time::timeout_at(deadline, self.chunks.next()).await {
            Err(_) => Err(LlmError::timeout(format!(
                "the stream stalled: no data arrived for {} s (keep-alive comments do not \
                 count)",
                self.idle.as_secs_f64()
            ))),
            Ok(None) => Ok(None),
            Ok(Some(Err(e))) => Err(transport_error(e)),
            Ok(Some(Ok(chunk))) => {
                self.received = self.received.saturating_add(chunk.len());
                if self.received > self.limits.stream_bytes {
                    return Err(too_large(
                        "the streamed response",
                        self.limits.stream_bytes,
                        "ResponseLimits::stream_bytes",
                    ));
                }
                Ok(Some(chunk))
            }
        }
    }
}
