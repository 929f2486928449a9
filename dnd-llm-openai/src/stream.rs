//! Stream assembly: streamed chunks to [`StreamEvent`]s and a final response. Pure: it is fed
//! the data of each server-sent event and never touches the network.
//!
//! Tool-call fragments are assembled by their `index`, never by id (an id arrives only in a
//! call's first fragment, and some servers repeat one id for every call). Servers that get
//! `index` wrong are handled:
//!
//! - no `index` (Gemini's compatible endpoint): a fragment with a name or an id starts a new
//!   call, any other continues the last one;
//! - the same `index` for every call (Ollama, some vLLM versions): a fragment at an index whose
//!   call is already complete (its arguments parse) or that brings a different id starts a new
//!   call;
//! - arguments as an object instead of JSON text: taken as the whole arguments;
//! - the call's id and name repeated in every fragment (llama.cpp's server), also in one after
//!   the arguments are complete: the same call, unless the fragment begins a new JSON value.
//!
//! What a stream assembles is bounded ([`StreamAssembler::with_content_limit`], by default
//! [`ResponseLimits::DEFAULT_STREAM_CONTENT_BYTES`]): text, refusal, reasoning and tool calls
//! past the limit end the stream with [`LlmError::BadResponse`] naming it.
//!
//! The answer must carry a `finish_reason`: a stream that ends without one was cut short and
//! is an error, not a short answer, whether the body stops or `[DONE]` arrives early
//! (llama-cpp-python's server sends `[DONE]` at once, with no `finish_reason`, when another
//! request interrupts a stream).

use std::collections::VecDeque;
use std::mem;

use dnd_engine::llm::{LlmError, StreamEvent};
use futures::StreamExt;
use futures::stream::BoxStream;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::errors::{ObjectErrorMapper, error_from_object};
use crate::http::{BodyStream, ResponseLimits, too_large};
use crate::parse::finish;
use crate::sse::{SseEvent, SseParser};
use crate::wire::{
    self, ChatChunk, ErrorObject, ResponseMessage, WireFunction, WireToolCall, WireUsage,
};

/// A tool call being assembled.
#[derive(Debug, Default)]
struct CallSlot {
    /// The `index` the server gave it, if any.
    wire_index: Option<u32>,
    id: Option<String>,
    name: String,
    arguments: String,
    /// Arguments that came as an object.
    object: Option<Value>,
}

impl CallSlot {
    fn arguments_complete(&self) -> bool {
        self.object.is_some()
            || (!self.arguments.trim().is_empty()
                && serde_json::from_str::<IgnoredAny>(&self.arguments).is_ok())
    }

    fn add_arguments(&mut self, arguments: Value) {
        match arguments {
            Value::String(piece) => self.arguments.push_str(&piece),
            Value::Null => {}
            object @ Value::Object(_) => self.object = Some(object),
            other => self.arguments.push_str(&other.to_string()),
        }
    }

    fn into_wire(self) -> WireToolCall {
        let arguments = match self.object {
            Some(object) => object,
            None => Value::String(self.arguments),
        };
        WireToolCall {
            index: self.wire_index,
            id: self.id,
            kind: Some(wire::ToolType::Function),
            function: Some(WireFunction {
                name: Some(self.name),
                arguments: Some(arguments),
            }),
        }
    }
}

/// Assembles a streamed answer from the data of its events.
#[derive(Debug, Default)]
pub struct StreamAssembler {
    text: String,
    refusal: String,
    reasoning_content: String,
    reasoning: String,
    reasoning_details: Vec<Value>,
    calls: Vec<CallSlot>,
    legacy_call: Option<CallSlot>,
    finish_reason: Option<wire::FinishReason>,
    usage: Option<WireUsage>,
    model: Option<String>,
    id: Option<String>,
    done: bool,
    events: usize,
    /// How error objects in the stream become errors; OpenAI's when `None`.
    map_error: Option<ObjectErrorMapper>,
    /// Bytes of content assembled so far (see [`with_content_limit`](Self::with_content_limit)).
    content: usize,
    /// The content limit; the default's when `None`.
    content_limit: Option<usize>,
}

impl StreamAssembler {
    /// An assembler that has seen nothing.
    pub fn new() -> Self {
        StreamAssembler::default()
    }

    /// An assembler mapping error objects in the stream with `map_error` (for servers whose
    /// error codes differ from OpenAI's).
    pub fn with_error_mapper(map_error: ObjectErrorMapper) -> Self {
        StreamAssembler {
            map_error: Some(map_error),
            ..StreamAssembler::default()
        }
    }

    /// This assembler refusing more than `limit` bytes of content: text, refusal, reasoning,
    /// and tool calls (names, arguments, and each call's own bookkeeping, so a flood of empty
    /// calls counts too). `events_from_body` sets it from the client's
    /// [`ResponseLimits::stream_content_bytes`]; the default is
    /// [`ResponseLimits::DEFAULT_STREAM_CONTENT_BYTES`].
    #[must_use]
    pub fn with_content_limit(mut self, limit: usize) -> Self {
        self.content_limit = Some(limit);
        self
    }

    /// Counts `bytes` more of content against the limit.
    fn charge(&mut self, bytes: usize) -> Result<(), LlmError> {
        let limit = self
            .content_limit
            .unwrap_or(ResponseLimits::DEFAULT_STREAM_CONTENT_BYTES);
        self.content = self.content.saturating_add(bytes);
        if self.content > limit {
            return Err(too_large(
                "the streamed answer (text, reasoning and tool calls)",
                limit,
                "ResponseLimits::stream_content_bytes",
            ));
        }
        Ok(())
    }

    fn error(&self, error: &Value) -> LlmError {
        let object = ErrorObject::from_error_value(error);
        self.map_error.unwrap_or(error_from_object)(&object)
    }

    /// Whether `[DONE]` arrived: nothing more is expected.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Feeds one event (its `event` field and data); text deltas are pushed to `out` as they
    /// come.
    ///
    /// # Errors
    ///
    /// The mapped error when the event carries an `error` (a failure after HTTP 200), or
    /// [`LlmError::BadResponse`] when its data is not JSON or the content passes its limit.
    pub fn push(
        &mut self,
        event: &str,
        data: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), LlmError> {
        if self.done {
            return Ok(());
        }
        let data = data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        self.events += 1;
        // Straight into the chunk type: the one decode per event. Through a `Value` only when
        // that fails (duplicate keys, which `Value` tolerates, or JSON that is no object).
        let chunk = match serde_json::from_str::<ChatChunk>(data) {
            Ok(chunk) => chunk,
            Err(direct) => match serde_json::from_str::<Value>(data) {
                Ok(value @ Value::Object(_)) => ChatChunk::deserialize(value).map_err(|e| {
                    LlmError::bad_response(format!("a stream chunk did not read: {e}"))
                })?,
                Ok(_) => return Ok(()),
                Err(_) if event == "error" => {
                    return Err(LlmError::server(
                        None,
                        format!("the stream reported an error: {}", excerpt(data)),
                    ));
                }
                Err(_) => {
                    return Err(LlmError::bad_response(format!(
                        "a stream event is not JSON ({direct}): {}",
                        excerpt(data)
                    )));
                }
            },
        };
        if let Some(error) = &chunk.error {
            return Err(self.error(error));
        }
        self.absorb(chunk, out)
    }

    fn absorb(&mut self, chunk: ChatChunk, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        if self.id.is_none() {
            self.id = chunk.id.filter(|id| !id.is_empty());
        }
        if self.model.is_none() {
            self.model = chunk.model.filter(|m| !m.is_empty());
        }
        if chunk.usage.is_some() {
            self.usage = chunk.usage;
        }
        for choice in chunk.choices {
            if choice.index.unwrap_or(0) != 0 {
                continue;
            }
            if let Some(error) = &choice.error {
                return Err(self.error(error));
            }
            if let Some(delta) = choice.delta {
                self.absorb_delta(delta, out)?;
            }
            if choice.finish_reason.is_some() {
                self.finish_reason = choice.finish_reason;
            }
        }
        Ok(())
    }

    /// Adds a delta, its content counted against the limit before it is kept.
    fn absorb_delta(
        &mut self,
        delta: ResponseMessage,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), LlmError> {
        let texts = [
            &delta.content,
            &delta.refusal,
            &delta.reasoning_content,
            &delta.reasoning,
        ];
        self.charge(
            texts
                .iter()
                .filter_map(|t| t.as_ref())
                .map(String::len)
                .sum(),
        )?;
        if let Some(details) = &delta.reasoning_details {
            self.charge(json_size(details))?;
        }
        if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
            self.text.push_str(&text);
            out.push(StreamEvent::TextDelta(text));
        }
        if let Some(refusal) = delta.refusal {
            self.refusal.push_str(&refusal);
        }
        if let Some(reasoning) = delta.reasoning_content {
            self.reasoning_content.push_str(&reasoning);
        }
        if let Some(reasoning) = delta.reasoning {
            self.reasoning.push_str(&reasoning);
        }
        match delta.reasoning_details {
            Some(Value::Array(details)) => self.reasoning_details.extend(details),
            Some(other) => self.reasoning_details.push(other),
            None => {}
        }
        let has_calls = !delta.tool_calls.is_empty();
        for fragment in delta.tool_calls {
            self.absorb_fragment(fragment)?;
        }
        if !has_calls && let Some(function) = delta.function_call {
            self.charge(function_size(&function))?;
            let slot = self.legacy_call.get_or_insert_with(CallSlot::default);
            if let Some(name) = function.name {
                slot.name.push_str(&name);
            }
            if let Some(arguments) = function.arguments {
                slot.add_arguments(arguments);
            }
        }
        Ok(())
    }

    fn absorb_fragment(&mut self, fragment: WireToolCall) -> Result<(), LlmError> {
        let function = fragment.function.unwrap_or_default();
        let id = fragment.id.filter(|id| !id.is_empty());
        self.charge(function_size(&function) + id.as_ref().map_or(0, String::len))?;
        let name = function.name.filter(|n| !n.is_empty());
        let new_value = starts_value(function.arguments.as_ref());
        let calls = self.calls.len();
        let position = self.slot_for(fragment.index, id.as_deref(), name.as_deref(), new_value);
        if self.calls.len() > calls {
            self.charge(mem::size_of::<CallSlot>())?;
        }
        let slot = &mut self.calls[position];
        if slot.id.is_none() {
            slot.id = id;
        }
        if let Some(name) = name
            && slot.name != name
        {
            // A name sent in pieces (the slot has no arguments yet).
            slot.name.push_str(&name);
        }
        if let Some(arguments) = function.arguments {
            slot.add_arguments(arguments);
        }
        Ok(())
    }

    /// The slot a fragment belongs to, opening a new one when it starts a call.
    /// `new_value`: the fragment's arguments begin a JSON object.
    fn slot_for(
        &mut self,
        index: Option<u32>,
        id: Option<&str>,
        name: Option<&str>,
        new_value: bool,
    ) -> usize {
        let current = match index {
            Some(index) => self.calls.iter().rposition(|s| s.wire_index == Some(index)),
            None if id.is_none() && name.is_none() => self.calls.len().checked_sub(1),
            None => None,
        };
        if let Some(position) = current {
            let slot = &self.calls[position];
            let other_id = id.is_some() && slot.id.is_some() && slot.id.as_deref() != id;
            let starts_call = match name {
                Some(name) if !slot.name.is_empty() => {
                    // The same id and name again, with no new value: the same call repeated.
                    let repeated = id.is_some() && slot.id.as_deref() == id && slot.name == name;
                    (slot.arguments_complete() && (!repeated || new_value))
                        || (slot.name != name && !slot.arguments.is_empty())
                }
                _ => false,
            };
            if !other_id && !starts_call {
                return position;
            }
        }
        self.calls.push(CallSlot {
            wire_index: index,
            ..CallSlot::default()
        });
        self.calls.len() - 1
    }

    /// Ends the stream: the tool calls, then [`StreamEvent::Done`] with the whole response.
    ///
    /// # Errors
    ///
    /// [`LlmError::Server`] (retryable) when the stream was cut short: no `finish_reason`,
    /// with or without `[DONE]`; otherwise as [`parse_response`](crate::parse_response) (a
    /// refusal).
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        if self.finish_reason.is_none() {
            let ending = if self.done {
                "[DONE] came without a finish_reason (the server interrupted the answer, as \
                 llama-cpp-python's does when another request arrives)"
            } else {
                "no finish_reason and no [DONE]"
            };
            return Err(LlmError::server(
                None,
                format!(
                    "the stream ended before the answer was complete ({ending}, after {} events)",
                    self.events
                ),
            ));
        }
        let mut calls = mem::take(&mut self.calls);
        if calls.is_empty()
            && let Some(legacy) = self.legacy_call.take()
        {
            calls.push(legacy);
        }
        let mut seed = self.id.clone().unwrap_or_default().into_bytes();
        if seed.is_empty() {
            for call in &calls {
                seed.extend_from_slice(call.name.as_bytes());
                seed.extend_from_slice(call.arguments.as_bytes());
            }
            seed.extend_from_slice(self.text.as_bytes());
        }
        let details = mem::take(&mut self.reasoning_details);
        let message = ResponseMessage {
            role: Some(wire::Role::Assistant),
            content: Some(mem::take(&mut self.text)),
            refusal: Some(mem::take(&mut self.refusal)),
            tool_calls: calls.into_iter().map(CallSlot::into_wire).collect(),
            function_call: None,
            reasoning_content: Some(mem::take(&mut self.reasoning_content)),
            reasoning: Some(mem::take(&mut self.reasoning)),
            reasoning_details: (!details.is_empty()).then_some(Value::Array(details)),
        };
        let response = finish(
            message,
            self.finish_reason.take(),
            self.usage.as_ref(),
            self.model.take(),
            &seed,
        )?;
        let mut events: Vec<StreamEvent> = response
            .tool_calls()
            .iter()
            .cloned()
            .map(StreamEvent::ToolCall)
            .collect();
        events.push(StreamEvent::Done(response));
        Ok(events)
    }
}

/// The bytes a function fragment adds: its name and arguments (as JSON text when they are
/// not a string).
fn function_size(function: &WireFunction) -> usize {
    let name = function.name.as_ref().map_or(0, String::len);
    let arguments = match &function.arguments {
        Some(Value::String(text)) => text.len(),
        Some(other) => json_size(other),
        None => 0,
    };
    name + arguments
}

/// The length of a value written as JSON.
fn json_size(value: &Value) -> usize {
    serde_json::to_vec(value).map_or(0, |text| text.len())
}

/// Whether a fragment's arguments begin a JSON object (as an object, or as text).
fn starts_value(arguments: Option<&Value>) -> bool {
    match arguments {
        Some(Value::Object(_)) => true,
        Some(Value::String(text)) => text.trim_start().starts_with('{'),
        _ => false,
    }
}

/// The events of a streamed body: its server-sent events parsed and assembled, until `[DONE]`,
/// the end of the body (an error if the answer was cut short) or the first error. Nothing is
/// retried here: once data has arrived, a failure is the stream's last item.
///
/// The idle timeout counts from the last event with data: comments (`: keep-alive`), blank
/// lines and events without data do not restart it, so a server that only keeps the
/// connection alive ends the stream with [`LlmError::Timeout`]. The assembler's content limit
/// is set from the body's [`ResponseLimits::stream_content_bytes`].
pub(crate) fn events_from_body(
    body: BodyStream,
    assembler: StreamAssembler,
) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
    let assembler = assembler.with_content_limit(body.limits().stream_content_bytes);
    let reading = Reading {
        data_deadline: tokio::time::Instant::now() + body.idle(),
        body,
        parser: SseParser::new(),
        assembler,
        queue: VecDeque::new(),
        ended: false,
    };
    futures::stream::unfold(Some(reading), |state| async move {
        let mut reading = state?;
        loop {
            if let Some(event) = reading.queue.pop_front() {
                return Some((Ok(event), Some(reading)));
            }
            if reading.ended {
                return None;
            }
            if let Err(error) = reading.advance().await {
                return Some((Err(error), None));
            }
        }
    })
    .boxed()
}

struct Reading {
    body: BodyStream,
    /// When the stream stalls unless an event with data arrives first.
    data_deadline: tokio::time::Instant,
    parser: SseParser,
    assembler: StreamAssembler,
    queue: VecDeque<StreamEvent>,
    ended: bool,
}

impl Reading {
    /// Reads one chunk and queues the events it completes; at the end (`[DONE]` or the end of
    /// the body) queues the tool calls and the final response.
    async fn advance(&mut self) -> Result<(), LlmError> {
        let Reading {
            body,
            data_deadline,
            parser,
            assembler,
            queue,
            ended,
        } = self;
        let mut out = Vec::new();
        // The parser dispatches only events with data: each one restarts the idle timeout.
        let mut data_events = 0_usize;
        let mut feed = |event: SseEvent<'_>| {
            data_events += 1;
            assembler.push(event.event, event.data, &mut out)
        };
        match body.next_chunk_until(*data_deadline).await? {
            Some(chunk) => parser.push(&chunk, &mut feed)?,
            None => {
                parser.finish(&mut feed)?;
                *ended = true;
            }
        }
        if data_events > 0 {
            *data_deadline = tokio::time::Instant::now() + body.idle();
        }
        queue.extend(out);
        if assembler.is_done() {
            *ended = true;
        }
        if *ended {
            queue.extend(assembler.finish()?);
        }
        Ok(())
    }
}

fn excerpt(data: &str) -> &str {
    match data.char_indices().nth(200) {
        Some((at, _)) => &data[..at],
        None => data,
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
