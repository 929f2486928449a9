//! `LlmProvider` for OpenRouter.
//!
//! **Status: not built yet.** This crate reserves its place in the workspace. It will hold
//! `OpenRouterProvider`, built on the OpenAI adapter's wire types (reused, not copied) plus what
//! OpenRouter adds: cost reporting, model fallback lists, provider routing, attribution headers
//! and prompt-cache breakpoints placed from the engine's knowledge of the stable prefix.

/// The provider-neutral types this adapter will translate to and from the wire format.
pub use dnd_engine::llm;
