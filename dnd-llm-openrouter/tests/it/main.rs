//! The adapter's tests against a scripted HTTP server on 127.0.0.1, in one binary.
//!
//! - `provider`: plain answers with their cost, the fallback model that answered, a tool
//!   round trip with the exact requests and headers (insta), 402 and 403 moderation not
//!   retried, the key kept out of everything;
//! - `streaming`: streamed answers with keep-alive comments (skipped, and no substitute for
//!   data under the idle timeout), errors after HTTP 200, the size limits;
//! - `caching`: where the cache markers go for an Anthropic model.

mod caching;
mod provider;
// The loopback server of the OpenAI adapter's tests: one server for both wire formats.
#[allow(dead_code)] // endings only the OpenAI tests use
#[path = "../../../dnd-llm-openai/tests/it/server.rs"]
mod server;
// The OpenAI adapter's test configuration, for any dialect.
#[path = "../../../dnd-llm-openai/tests/it/settings.rs"]
mod settings;
mod streaming;
mod window;

use dnd_llm_openrouter::{OpenRouterConfig, OpenRouterProvider};
// The fallback-model and cache setters, for the test modules.
pub(crate) use dnd_llm_openrouter::OpenRouterConfigExt;

/// The key the tests configure; it must never appear in an error or a `Debug`.
const KEY: &str = "sk-or-v1-4f3e2d1c0b9a88776655443322110ffeeddccbbaa99887766554433221100";

/// The text of a fixture file.
fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A config for the test server: the test key, tiny retry delays, short timeouts.
fn config(base_url: &str, model: &str) -> OpenRouterConfig {
    settings::test_config(base_url, model, KEY)
}

fn provider(base_url: &str, model: &str) -> OpenRouterProvider {
    OpenRouterProvider::new(config(base_url, model)).unwrap()
}

/// Asserts the key appears nowhere in a value's `Debug` and `Display`.
fn assert_no_key(value: &(impl std::fmt::Debug + std::fmt::Display)) {
    let debug = format!("{value:?}");
    let display = value.to_string();
    for text in [&debug, &display] {
        assert!(
            !text.contains(KEY) && !text.contains(&KEY[10..40]),
            "key in {text}"
        );
    }
}
