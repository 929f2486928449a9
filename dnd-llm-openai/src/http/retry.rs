//! When to retry and how long to wait: the policy of OpenAI's own SDKs.
//!
//! - A `x-should-retry: true|false` header decides, when the server sends one.
//! - Otherwise 408, 409, 429, 5xx and connection failures are retried (what
//!   [`LlmError::retryable`] says), except that 400, 401, 403, 404 and an exhausted quota never
//!   are, whatever the header says.
//! - The wait is `retry-after-ms`, else `Retry-After` (seconds, or an HTTP date), when it is
//!   between 0 and [`RetryPolicy::max_retry_after`] (120 s); else 0.5 s × 2ⁿ capped at 8 s,
//!   less up to 25 % of jitter.
//! - At most [`RetryPolicy::max_retries`] retries, and none that would end after
//!   [`RetryPolicy::max_elapsed`].
//! - A stream is retried only until its response headers arrive: once data has been read, a
//!   failure is returned, never replayed.

use std::time::{Duration, SystemTime};

use dnd_engine::llm::LlmError;
use reqwest::header::HeaderMap;

/// How many times and how long to retry. Tests use tiny delays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (the SDKs' default is 2: three attempts in all).
    pub max_retries: u32,
    /// The first backoff delay (0.5 s), doubled at each retry.
    pub initial_delay: Duration,
    /// The longest backoff delay (8 s).
    pub max_delay: Duration,
    /// The longest server-requested wait that is honoured (120 s); a longer one falls back to
    /// the backoff.
    pub max_retry_after: Duration,
    /// The most time from the first attempt to the start of the last one; a retry whose wait
    /// would pass it is not made.
    pub max_elapsed: Duration,
    /// The part of each backoff delay taken off at random (0.25), so clients spread out.
    pub jitter: f64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 2,
            initial_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(120),
            max_elapsed: Duration::from_secs(15 * 60),
            jitter: 0.25,
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        }
    }

    /// The wait before retry number `retry` (0 for the first retry): the server's request if
    /// it made a usable one, else the jittered backoff.
    pub fn delay(&self, retry: u32, requested: Option<Duration>) -> Duration {
        if let Some(wait) = requested.filter(|wait| *wait <= self.max_retry_after) {
            return wait;
        }
        let factor = 2u32.saturating_pow(retry);
        let backoff = self
            .initial_delay
            .saturating_mul(factor)
            .min(self.max_delay);
        let jitter = self.jitter.clamp(0.0, 1.0) * rand::random::<f64>();
        backoff.mul_f64(1.0 - jitter)
    }
}

/// What the server asked to wait: `retry-after-ms` (milliseconds), else `Retry-After` as
/// seconds (fractions allowed) or as an HTTP date. `None` when absent, unreadable or negative.
pub fn requested_wait(headers: &HeaderMap) -> Option<Duration> {
    let text = |name: &str| headers.get(name)?.to_str().ok().map(str::trim);
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let value = text("retry-after")?;
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(
        date.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// Whether a failed attempt should be retried (see the module docs for the rules).
pub fn should_retry(status: Option<u16>, headers: Option<&HeaderMap>, error: &LlmError) -> bool {
    if matches!(status, Some(400 | 401 | 403 | 404))
        || matches!(error, LlmError::QuotaExceeded { .. })
    {
        return false;
    }
    let header = headers
        .and_then(|h| h.get("x-should-retry"))
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    match header {
        Some("true") => true,
        Some("false") => false,
        _ => error.retryable(),
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn requested_wait_reads_every_form() {
        assert_eq!(
            requested_wait(&headers(&[
                ("retry-after-ms", "1500"),
                ("retry-after", "9")
            ])),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            requested_wait(&headers(&[("retry-after", "2")])),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            requested_wait(&headers(&[("retry-after", "0.25")])),
            Some(Duration::from_millis(250))
        );
        let soon = SystemTime::now() + Duration::from_secs(30);
        let date = httpdate::fmt_http_date(soon);
        let wait = requested_wait(&headers(&[("retry-after", &date)])).unwrap();
        assert!(
            wait <= Duration::from_secs(30) && wait >= Duration::from_secs(28),
            "{wait:?}"
        );
        let past = httpdate::fmt_http_date(SystemTime::now() - Duration::from_secs(30));
        assert_eq!(
            requested_wait(&headers(&[("retry-after", &past)])),
            Some(Duration::ZERO)
        );
        assert_eq!(requested_wait(&headers(&[("retry-after", "soon")])), None);
        assert_eq!(requested_wait(&headers(&[("retry-after", "-3")])), None);
        assert_eq!(requested_wait(&HeaderMap::new()), None);
    }

    #[test]
    fn delay_honours_requests_up_to_the_cap_then_backs_off_with_jitter() {
        let policy = RetryPolicy::default();
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(3))),
            Duration::from_secs(3)
        );
        assert_eq!(
            policy.delay(5, Some(Duration::from_secs(120))),
            Duration::from_secs(120)
        );
        for retry in 0..10 {
            let expected = Duration::from_millis(500)
                .saturating_mul(2u32.pow(retry))
                .min(Duration::from_secs(8));
            for requested in [None, Some(Duration::from_secs(121))] {
                let delay = policy.delay(retry, requested);
                assert!(delay <= expected, "{retry}: {delay:?}");
                assert!(delay >= expected.mul_f64(0.75), "{retry}: {delay:?}");
            }
        }
        assert!(policy.delay(40, None) <= Duration::from_secs(8));
    }

    #[test]
    fn should_retry_follows_the_sdk_rules() {
        let server = LlmError::server(Some(500), "oops");
        assert!(should_retry(Some(500), None, &server));
        let no = headers(&[("x-should-retry", "false")]);
        assert!(!should_retry(Some(500), Some(&no), &server));
        let yes = headers(&[("x-should-retry", "true")]);
        let conflict = LlmError::server(Some(409), "conflict");
        assert!(should_retry(Some(409), None, &conflict));
        let invalid = LlmError::invalid_request(Some(422), "bad");
        assert!(should_retry(Some(422), Some(&yes), &invalid));
        assert!(!should_retry(Some(422), None, &invalid));
        for status in [400, 401, 403, 404] {
            assert!(!should_retry(
                Some(status),
                Some(&yes),
                &LlmError::server(Some(status), "x")
            ));
        }
        let quota = LlmError::quota_exceeded(Some(429), "insufficient_quota");
        assert!(!should_retry(Some(429), Some(&yes), &quota));
        assert!(should_retry(None, None, &LlmError::timeout("connect")));
        assert!(should_retry(
            Some(429),
            None,
            &LlmError::rate_limited(None, "slow")
        ));
    }
}
