//! `LlmProvider` for the OpenAI Chat Completions wire format.
//!
//! **Status: not built yet.** This crate reserves its place in the workspace. It will hold
//! `OpenAiProvider`: a real HTTP client (reqwest, rustls) for `/chat/completions` that also
//! serves any OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio), with tolerant
//! response parsing, server-sent-event streaming, the OpenAI SDK's retry policy, and the
//! speech-to-text and text-to-speech endpoints. Request building and response parsing will be
//! pure functions over the provider-neutral types in [`dnd_engine::llm`].

/// The provider-neutral types this adapter will translate to and from the wire format.
pub use dnd_engine::llm;
