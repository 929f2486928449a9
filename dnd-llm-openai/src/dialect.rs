//! [`Dialect`]: what one OpenAI-compatible service adds to the shared provider.
//!
//! Every server that speaks the Chat Completions format is sent to the same way: the same body,
//! the same HTTP layer (timeouts, retries, size limits, key redaction), the same parsing and
//! stream assembly. That is [`ChatProvider`](crate::ChatProvider) over a
//! [`ChatConfig`]. What differs between services is small and listed here:
//! the headers they want, how they word errors, fields they add to the body, fields they add
//! to the answer (a cost), and where they say the model's context window. A dialect supplies
//! those, each with a default that is OpenAI's behaviour, so a new compatible service is a
//! page of code.
//!
//! # Example: a third service
//!
//! A made-up service that wants a `X-Team` header, bills in `usage.price` and lists context
//! windows at `GET /info`:
//!
//! ```
//! use dnd_engine::llm::CompletionResponse;
//! use dnd_llm_openai::{ChatConfig, ChatProvider, Dialect};
//! use serde_json::Value;
//!
//! /// What the service adds: the team its calls are billed to.
//! #[derive(Debug, Clone)]
//! struct Acme {
//!     team: String,
//! }
//!
//! impl Dialect for Acme {
//!     fn config(model: String) -> ChatConfig<Self> {
//!         let team = Acme { team: "tavern".into() };
//!         ChatConfig::with_dialect("acme", "https://acme.invalid/v1", model, team)
//!     }
//!
//!     fn headers(&self) -> Vec<(&str, &str, bool)> {
//!         vec![("X-Team", self.team.as_str(), false)]
//!     }
//!
//!     fn read_response(raw: &Value, response: &mut CompletionResponse) {
//!         response.usage.cost = raw.pointer("/usage/price").and_then(Value::as_f64);
//!     }
//!
//!     fn context_window_url(&self, config: &ChatConfig<Self>) -> String {
//!         config.endpoint("info")
//!     }
//!
//!     fn context_window_in(&self, answer: &Value, _model: &str) -> Option<u32> {
//!         answer.get("context").and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok())
//!     }
//! }
//!
//! /// The service's provider: everything else is the shared one.
//! type AcmeProvider = ChatProvider<Acme>;
//!
//! let config = ChatConfig::<Acme>::new("acme-large").with_api_key("sk-acme");
//! let provider = AcmeProvider::new(config).unwrap();
//! let body = provider.request_body(&Default::default(), false).unwrap();
//! assert!(String::from_utf8(body).unwrap().contains(r#""model":"acme-large""#));
//! assert_eq!(provider.config().endpoint("models"), "https://acme.invalid/v1/models");
//! ```
//!
//! The OpenAI dialect ([`OpenAi`](crate::OpenAi)) and OpenRouter's (in `dnd-llm-openrouter`)
//! are written the same way.

use std::fmt;

use dnd_engine::llm::{CompletionRequest, CompletionResponse, LlmError};
use serde_json::Value;

use crate::build::{RequestOptions, StrictTools, build_request_with};
use crate::config::ChatConfig;
use crate::errors;
use crate::http::HttpFailure;
use crate::window::{n_ctx_of_props, props_url};
use crate::wire::{ChatRequest, ErrorObject};

/// What an OpenAI-compatible service adds to the shared [`ChatProvider`](crate::ChatProvider)
/// (see the [module docs](crate::dialect)). Every method has OpenAI's behaviour as its default.
///
/// The dialect's value lives in [`ChatConfig::dialect`]: its own settings (OpenRouter's routing
/// and fallback models, OpenAI's organisation). Its `Debug` is part of the configuration's, so
/// it must not print a secret.
pub trait Dialect: fmt::Debug + Clone + Send + Sync + 'static {
    /// The service's configuration for `model` with its defaults: name, base URL, token-limit
    /// field and the like (usually [`ChatConfig::with_dialect`] and a few settings). What
    /// [`ChatConfig::new`] returns.
    fn config(model: String) -> ChatConfig<Self>;

    /// The configuration from the environment (the service's key and model variables), what
    /// [`ChatConfig::from_env`] returns.
    ///
    /// # Errors
    ///
    /// [`LlmError::Auth`] when the service's variables are missing, saying which to set; by
    /// default always, since a service that does not override this reads nothing.
    fn config_from_env() -> Result<ChatConfig<Self>, LlmError> {
        Err(LlmError::auth(
            "this service is configured in code: it reads nothing from the environment",
        ))
    }

    /// Headers every request carries after `Content-Type` and `Authorization`, in order, as
    /// `(name, value, sensitive)`; a sensitive value is never printed. The configuration's
    /// [`extra_headers`](ChatConfig::extra_headers) come after these and win.
    fn headers(&self) -> Vec<(&str, &str, bool)> {
        Vec::new()
    }

    /// The [`LlmError`] for an error response (a status of 400 or more). A plain function, so
    /// the HTTP layer keeps it as a pointer.
    fn error_from_failure(failure: &HttpFailure<'_>) -> LlmError {
        errors::error_from_failure(failure)
    }

    /// The [`LlmError`] for an `error` object inside a 200 body or a stream.
    fn error_from_object(error: &ErrorObject) -> LlmError {
        errors::error_from_object(error)
    }

    /// Adds the dialect's fields to a built body (not yet streaming). `options` are the
    /// configuration's, `request` the engine's.
    fn add_to_body<'a>(
        &'a self,
        body: &mut ChatRequest<'a>,
        request: &'a CompletionRequest,
        options: &'a RequestOptions,
    ) {
        let _ = (body, request, options);
    }

    /// Reads the dialect's fields of a whole answer's JSON (`raw`) into the parsed response
    /// (a cost the service reports its own way).
    fn read_response(raw: &Value, response: &mut CompletionResponse) {
        let _ = (raw, response);
    }

    /// Where the service says the model's context window (read with `GET` when
    /// [`ChatConfig::read_context_window`] is on): llama.cpp's `/props` by default.
    fn context_window_url(&self, config: &ChatConfig<Self>) -> String {
        props_url(&config.base_url)
    }

    /// The context window of `model` in what [`context_window_url`](Self::context_window_url)
    /// answered: llama.cpp's `n_ctx` by default.
    fn context_window_in(&self, answer: &Value, model: &str) -> Option<u32> {
        let _ = model;
        n_ctx_of_props(answer)
    }
}

/// The body of `request` in `config`'s dialect, not yet streaming: the shared body
/// ([`build_request_with`]) plus the dialect's fields ([`Dialect::add_to_body`]). Pure;
/// `strict_tools` are reused when they are for the request's tool list.
pub fn build_body<'a, D: Dialect>(
    config: &'a ChatConfig<D>,
    request: &'a CompletionRequest,
    strict_tools: Option<&'a StrictTools>,
) -> ChatRequest<'a> {
    let mut body = build_request_with(request, &config.request, strict_tools);
    config
        .dialect
        .add_to_body(&mut body, request, &config.request);
    body
}
