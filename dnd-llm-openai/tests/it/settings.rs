//! The configuration every adapter test starts from, for any dialect: shared with the
//! OpenRouter adapter's tests (by `#[path]`), as the loopback server is.

use std::time::Duration;

use dnd_llm_openai::http::{RetryPolicy, Timeouts};
use dnd_llm_openai::{ChatConfig, Dialect};

/// `D`'s configuration for the test server at `base_url`: `key`, tiny retry delays, short
/// timeouts.
pub fn test_config<D: Dialect>(base_url: &str, model: &str, key: &str) -> ChatConfig<D> {
    ChatConfig::<D>::new(model)
        .with_base_url(base_url)
        .with_api_key(key)
        .with_retry(RetryPolicy {
            initial_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(20),
            ..RetryPolicy::default()
        })
        .with_timeouts(Timeouts {
            connect: Duration::from_secs(2),
            request: Duration::from_secs(10),
            idle: Duration::from_secs(5),
        })
}
