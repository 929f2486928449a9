//! The `model_call` tracing span: one per call to a model, with what it cost and how it
//! ended.
//!
//! Its fields are the provider's name, the model, whether the answer was streamed, then, once
//! the call ends, the input, output and cached tokens, the latency in milliseconds and the
//! outcome (`ok`, or the error's kind: `rate_limited`, `timeout`, ...). An event `model call`
//! carries the same fields when the call ends, for subscribers that print events only. Never a
//! key, a header or a body: what reaches a log is what is written here.

use std::time::Instant;

use dnd_engine::llm::{CompletionResponse, LlmError};
use tracing::Span;
use tracing::field::Empty;

/// One model call being traced.
pub(crate) struct ModelCall {
    span: Span,
    started: Instant,
}

impl ModelCall {
    /// Opens the span of a call to `model` through the provider named `provider`.
    pub(crate) fn start(provider: &str, model: &str, streamed: bool) -> Self {
        let span = tracing::info_span!(
            "model_call",
            provider = %provider,
            model = %model,
            streamed,
            input_tokens = Empty,
            output_tokens = Empty,
            cached_tokens = Empty,
            latency_ms = Empty,
            outcome = Empty,
        );
        ModelCall {
            span,
            started: Instant::now(),
        }
    }

    /// The span, to run the call's work in.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Records how the call ended, and says so in an event.
    pub(crate) fn finish(&self, result: Result<&CompletionResponse, &LlmError>) {
        let latency_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.span.record("latency_ms", latency_ms);
        match result {
            Ok(response) => {
                let usage = &response.usage;
                self.span.record("input_tokens", usage.prompt_tokens);
                self.span.record("output_tokens", usage.completion_tokens);
                self.span.record("cached_tokens", usage.cached_tokens);
                self.span.record("outcome", "ok");
                tracing::info!(
                    parent: &self.span,
                    input_tokens = usage.prompt_tokens,
                    output_tokens = usage.completion_tokens,
                    cached_tokens = usage.cached_tokens,
                    latency_ms,
                    outcome = "ok",
                    "model call"
                );
            }
            Err(error) => {
                self.span.record("outcome", error.kind());
                // The error's message is the adapter's, with the key already removed.
                tracing::warn!(
                    parent: &self.span,
                    latency_ms,
                    outcome = error.kind(),
                    %error,
                    "model call"
                );
            }
        }
    }
}
