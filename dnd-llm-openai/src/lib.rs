//! [`LlmProvider`](dnd_engine::llm::LlmProvider) for the OpenAI Chat Completions API, and for
//! every server that speaks it (llama.cpp, vLLM, Ollama, LM Studio, routers).
//!
//! # Pieces
//!
//! | module | owns |
//! |---|---|
//! | [`wire`] | the wire format as Rust types, public for other adapters: borrowed request bodies with extra fields merged in, tolerant responses and chunks (an `Other` case on every enum, defaults everywhere) |
//! | [`build_request`] (`build`) | the engine's request to a body, pure: every role, tool calls with arguments as JSON text, tool results tied to call ids, tools through the engine's strict-mode sanitizer, `tool_choice`, `parallel_tool_calls`, `response_format`, `temperature`, `seed`, either token-limit field, reasoning sent back on tool-call turns |
//! | [`parse_response`] (`parse`) | a body to the engine's response, pure: unique tool-call ids (made up when missing or repeated, the provider's kept), arguments as text, object, `""` or not JSON at all, refusals, finish reasons and their synonyms, usage with cache and reasoning tokens, reasoning text and details, the raw JSON |
//! | [`sse`], [`stream`] | server-sent events and stream assembly, pure: tool-call fragments by `index` (made up when missing or repeated), comments skipped, errors after HTTP 200, the assembled content bounded, usage from the last chunk, `[DONE]`, a stream cut short as an error |
//! | [`errors`] | error responses and error objects to typed [`LlmError`](dnd_engine::llm::LlmError)s |
//! | [`http`] | the thin HTTP layer: reqwest with rustls (private: no reqwest or `bytes` type is in this crate's API), per-phase timeouts (a stream's request timeout stops at its headers; an idle timeout on data, keep-alive comments not counting), size limits on bodies and streams ([`ResponseLimits`](http::ResponseLimits)), the OpenAI SDKs' retry policy, an API key that never prints |
//! | [`ChatConfig`], [`ChatProvider`], [`Dialect`] (`dialect`) | one configuration and one provider for every OpenAI-compatible service; a dialect says what one service adds (headers, errors, body and answer fields, where the context window is read): a third service is a page of code (see [`dialect`]) |
//! | [`OpenAi`], [`OpenAiConfig`], [`OpenAiProvider`] | OpenAI's dialect (organisation and project headers, speech settings) and the configuration and provider on it |
//! | `speech` | [`Transcriber`](dnd_engine::llm::Transcriber) and [`Speaker`](dnd_engine::llm::Speaker) on `/audio/transcriptions` and `/audio/speech`, behind the `speech` feature (default on) |
//! | `trace` | the `model_call` tracing span of each call: provider, model, streamed, input, output and cached tokens, latency in ms, outcome (`ok` or the error's kind); never a key, a header or a body |
//!
//! # Secrets
//!
//! The API key lives in an [`ApiKey`](http::ApiKey), whose `Debug` prints `<redacted>`; the
//! header carrying it is marked sensitive; error messages quote the provider's text with the
//! key removed and never include URLs. `OpenAiConfig` and `OpenAiProvider` have hand-written
//! `Debug`s that show neither the key nor the values of extra headers.
//!
//! # Example
//!
//! ```no_run
//! use dnd_engine::llm::{CompletionRequest, LlmProvider, Message};
//! use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};
//!
//! # async fn run() -> Result<(), dnd_engine::llm::LlmError> {
//! // A local server: no key, the legacy `max_tokens`.
//! let config = OpenAiConfig::local("http://127.0.0.1:8080/v1", "smollm2");
//! let provider = OpenAiProvider::new(config)?;
//! let request = CompletionRequest::new(vec![Message::user("Name a tavern.")]);
//! let answer = provider.complete(&request).await?;
//! println!("{}", answer.text().unwrap_or_default());
//! # Ok(())
//! # }
//! ```

mod build;
mod config;
pub mod dialect;
pub mod errors;
pub mod http;
mod openai;
mod parse;
mod provider;
#[cfg(feature = "speech")]
mod speech;
pub mod sse;
pub mod stream;
mod trace;
mod window;
pub mod wire;

/// The provider-neutral types this adapter translates to and from the wire format.
pub use dnd_engine::llm;

pub use build::{
    ReasoningEcho, RequestOptions, StrictTools, StrictToolsCache, TokenLimitField, build_request,
    build_request_with, into_streaming,
};
pub use config::{ChatConfig, Pricing};
pub use dialect::{Dialect, build_body};
pub use openai::{DEFAULT_MODEL, OPENAI_BASE_URL, OpenAi, OpenAiConfig};
pub use parse::{
    arguments_from_wire, finish_reason_from_wire, parse_in, parse_response, parse_response_with,
    read_chat_completion, reasoning_from_wire, response_from_wire, response_from_wire_with,
    tool_calls_from_wire, usage_from_wire,
};
pub use provider::{ChatProvider, OpenAiProvider};
#[cfg(feature = "speech")]
pub use speech::SpeechOptions;
pub use window::{n_ctx_of_props, props_url};
