//! Provider-neutral types for talking to language models.
//!
//! # Why
//!
//! The game master must work with any model: OpenAI, OpenRouter's catalogue, a local server,
//! or no model at all (an offline GM, scripted tests). So nothing above this module knows a
//! provider's wire format. The engine builds a [`CompletionRequest`] from [`Message`]s and
//! [`ToolSpec`]s, hands it to some [`LlmProvider`], and gets back a [`CompletionResponse`] or
//! a typed [`LlmError`]. Adapter crates (`dnd-llm-openai`, `dnd-llm-openrouter`) translate
//! these types to and from HTTP, and everything else, including tests, is written against the
//! trait.
//!
//! The types are deliberately the common core of chat-completion APIs: role-tagged messages,
//! tool calls with JSON arguments, tool results tied to call ids, an optional JSON output
//! format, and token usage with cost. The model's choice is provider configuration, not part
//! of a request, so a recorded request can be replayed against any provider.
//!
//! Everything serializes with serde, so transcripts, test fixtures and snapshots can store
//! requests, responses and errors as plain JSON.
//!
//! # Pieces
//!
//! - [`Message`], [`ToolCall`], [`ToolSpec`]: the conversation and the tools on offer.
//! - [`CompletionRequest`] with [`ToolChoice`] and [`ResponseFormat`]: what is asked.
//! - [`CompletionResponse`] with [`FinishReason`] and [`Usage`]: what came back.
//! - [`LlmError`]: why a call failed, and whether retrying may help.
//! - [`LlmProvider`] and [`StreamEvent`]: the backend trait, with streaming for free.
//! - [`ScriptedProvider`]: a fake backend that replays answers and records requests.
//! - [`Transcriber`] and [`Speaker`] with [`Audio`]: speech to text and text to speech.
//!
//! # Example
//!
//! ```
//! use dnd_engine::llm::{
//!     CompletionRequest, CompletionResponse, LlmProvider, Message, ScriptedProvider, ToolCall,
//!     ToolSpec,
//! };
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! #[derive(Deserialize)]
//! struct RollArgs {
//!     notation: String,
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let provider: Box<dyn LlmProvider> = Box::new(ScriptedProvider::new(vec![Ok(
//!     CompletionResponse::from_tool_calls(vec![ToolCall::new(
//!         "call_1",
//!         "roll_dice",
//!         json!({"notation": "1d20+5"}),
//!     )]),
//! )]));
//!
//! let roll = ToolSpec::new(
//!     "roll_dice",
//!     "Roll dice in standard notation.",
//!     json!({"type": "object", "properties": {"notation": {"type": "string"}}}),
//! );
//! let request = CompletionRequest::new(vec![
//!     Message::system("You are the game master. Never invent dice results."),
//!     Message::user_named("Aria", "I swing my sword at the goblin."),
//! ])
//! .with_tools(vec![roll]);
//!
//! let response = provider.complete(&request).await?;
//! let args: RollArgs = response.tool_calls()[0].parse_arguments()?;
//! assert_eq!(args.notation, "1d20+5");
//! # Ok(())
//! # }
//! ```

mod error;
mod message;
mod provider;
mod request;
mod response;
mod scripted;
mod speech;
pub mod window;

#[cfg(test)]
mod message_tests;

pub use error::LlmError;
pub use message::{Message, Reasoning, Role, ToolArgumentsError, ToolCall, ToolSpec};
pub use provider::{Capabilities, LlmProvider, StreamEvent, collect_response, replay_as_stream};
pub use request::{CompletionRequest, ResponseFormat, ToolChoice};
pub use response::{CompletionResponse, FinishReason, Usage};
pub use scripted::ScriptedProvider;
pub use speech::{Audio, AudioFormat, Speaker, Transcriber};
