//! The model's context window, as the server says it: read once, on the first call that needs
//! it, and kept. llama.cpp's server says it at `GET /props`
//! (`default_generation_settings.n_ctx`); OpenRouter's models list says it as
//! `context_length`. A server that does not say (or cannot be reached) leaves it unknown, and
//! it is not asked again.

use std::sync::Mutex;

use serde_json::Value;

use crate::http::{HttpFailure, JsonEndpoint};

/// A context window read from the server once and kept.
#[derive(Debug, Default)]
pub(crate) struct ContextWindowCache {
    /// `None` until read; then what the server said, `None` when it said nothing.
    read: Mutex<Option<Option<u32>>>,
}

impl ContextWindowCache {
    /// The kept window, or `read`'s answer, kept for every later call. Two calls at once may
    /// both read; both keep the same answer.
    pub(crate) async fn get_or_read(&self, read: impl Future<Output = Option<u32>>) -> Option<u32> {
        if let Some(known) = *self.read.lock().unwrap_or_else(|p| p.into_inner()) {
            return known;
        }
        let tokens = read.await;
        *self.read.lock().unwrap_or_else(|p| p.into_inner()) = Some(tokens);
        tokens
    }
}

/// `GET url` with the endpoint's headers, its retries and its error mapping, read as JSON.
/// `None` for any failure: a server without the URL simply does not say.
pub(crate) async fn get_json(endpoint: &JsonEndpoint, url: &str) -> Option<Value> {
    let map_error = |failure: &HttpFailure<'_>| endpoint.map_failure(failure);
    let reply = endpoint
        .http()
        .send(
            |client| client.get(url).headers(endpoint.headers().clone()),
            &map_error,
        )
        .await;
    match reply {
        Ok(reply) => serde_json::from_slice(&reply.body).ok(),
        Err(error) => {
            tracing::debug!(%error, "the server did not say its context window");
            None
        }
    }
}

/// Where a llama.cpp server says its settings: `/props` at the server's root (the base URL
/// without its `/v1`).
pub fn props_url(base_url: &str) -> String {
    let root = base_url.trim_end_matches('/');
    let root = root.strip_suffix("/v1").unwrap_or(root);
    format!("{root}/props")
}

/// The context window in a llama.cpp `/props` answer: `default_generation_settings.n_ctx`
/// (or a top-level `n_ctx`).
pub fn n_ctx_of_props(props: &Value) -> Option<u32> {
    props
        .pointer("/default_generation_settings/n_ctx")
        .or_else(|| props.get("n_ctx"))
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| *n > 0)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn props_sit_at_the_root_and_say_n_ctx() {
        assert_eq!(
            props_url("http://127.0.0.1:8080/v1/"),
            "http://127.0.0.1:8080/props"
        );
        assert_eq!(
            props_url("http://127.0.0.1:8080"),
            "http://127.0.0.1:8080/props"
        );
        let props = json!({"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1});
        assert_eq!(n_ctx_of_props(&props), Some(8192));
        assert_eq!(n_ctx_of_props(&json!({"n_ctx": 4096})), Some(4096));
        assert_eq!(n_ctx_of_props(&json!({"model": "x"})), None);
    }

    #[tokio::test]
    async fn the_cache_reads_once() {
        let cache = ContextWindowCache::default();
        assert_eq!(cache.get_or_read(async { None }).await, None);
        assert_eq!(cache.get_or_read(async { Some(9) }).await, None, "kept");
    }
}
