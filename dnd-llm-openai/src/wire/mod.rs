//! The OpenAI Chat Completions wire format: request bodies, responses, streamed chunks and
//! error bodies, as Rust types.
//!
//! Public so every adapter for a server that speaks this format (OpenRouter, local servers)
//! reuses them instead of copying them.
//!
//! Requests ([`ChatRequest`]) borrow from the engine's request and serialize straight to bytes;
//! unknown server-specific parameters go in [`ChatRequest::extra`]. Responses
//! ([`ChatResponse`], [`ChatChunk`]) are read tolerantly:
//!
//! - every enum has an `Other(String)` case ([`FinishReason`], [`Role`], [`ToolType`]);
//! - every field has a default, and a field of an unexpected type reads as absent (see
//!   [`lenient`]), so one odd field never fails a whole response;
//! - unknown fields are ignored (never `deny_unknown_fields`), and no response type is an
//!   untagged enum whose failure would say only "did not match any variant";
//! - values this crate only passes through (reasoning details, error metadata, cost details)
//!   are kept as [`serde_json::Value`]s.

mod enums;
pub mod lenient;
mod request;
mod response;

pub use enums::{FinishReason, Role, ToolType};
pub use request::{
    ChatRequest, ContentPart, FunctionDefinition, JsonSchemaFormat, RequestContent,
    RequestFunctionCall, RequestMessage, RequestResponseFormat, RequestTool, RequestToolCall,
    RequestToolChoice, StreamOptions,
};
pub use response::{
    ChatChunk, ChatResponse, Choice, ChunkChoice, CompletionTokensDetails, ErrorObject,
    PromptTokensDetails, ResponseMessage, WireFunction, WireToolCall, WireUsage,
};
