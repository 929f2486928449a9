//! The narrative tool loop and the action phase, and what every protocol shares: the turn's
//! run, one provider call, bounding what the model sent (StrictJson is in `strict.rs`).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;
use futures::channel::mpsc::UnboundedSender;
use serde_json::Value;

use super::outcome::{ACTION_LIST_SCHEMA, ActionList, SuggestedAction, TraceStep};
use super::scrub::{Scrubber, Secrets};
use super::{GameMaster, GmError};
use crate::dice::TurnDice;
use crate::llm::{
    CompletionRequest, CompletionResponse, FinishReason, LlmError, Message, ResponseFormat,
    StreamEvent, ToolChoice, Usage, window,
};
use crate::state::GameState;
use crate::text::truncate_with_note;
use crate::tools::{Gate, ToolContext, ToolResult, TurnLog, call_tool, gate, tools_with};

/// Which protocol a game uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Protocol {
    /// Narrative with tools in a loop, then a second call for 2–5 suggested actions as JSON.
    #[default]
    TwoPhase,
    /// The narrative tool loop alone.
    ToolLoop,
    /// One call whose whole answer is a JSON `GameResponse`, for models without tool calling.
    StrictJson,
}

/// Everything a turn accumulates while the protocol runs.
pub(super) struct TurnRun<'a> {
    pub state: &'a mut GameState,
    pub log: &'a mut TurnLog,
    pub rng: &'a mut TurnDice,
    pub messages: Vec<Message>,
    /// Where this turn's own messages start in `messages` (they are stored for the history).
    pub turn_start: usize,
    /// Leading messages that stay the same from turn to turn.
    pub stable_prefix: usize,
    /// Where the history's turns start in `messages` (after the system prompt, summary,
    /// memory and state block), for cutting a request to the context window.
    pub history_at: usize,
    /// How many messages each turn of history holds, oldest first: what may be cut.
    pub history_turns: Vec<usize>,
    pub usage: Usage,
    pub trace: Vec<TraceStep>,
    pub notes: Vec<String>,
    pub narration: String,
    pub suggestions: Vec<SuggestedAction>,
    /// Where the narration's text goes as it arrives (a streamed turn, its narrative phase).
    pub text_sink: Option<UnboundedSender<super::TurnEvent>>,
    /// Where each tool call and its result go as they run (a streamed turn, every phase).
    pub tool_sink: Option<UnboundedSender<super::TurnEvent>>,
    /// The tools sent with the call being answered (its request's tools, or the StrictJson
    /// instruction's list): the gate of [`run_tool`](Self::run_tool) compares with this list,
    /// never a recomputed one.
    pub offered: Vec<&'static str>,
    /// Tools the model called this turn that were possible but not sent ([`Gate::Added`]):
    /// offered in the turn's next rounds ([`tools_with`]).
    pub asked: Vec<&'static str>,
}

impl TurnRun<'_> {
    pub(super) fn note(&mut self, text: impl Into<String>) {
        self.trace.push(TraceStep::Note { text: text.into() });
    }

    /// Runs one tool call against the working state, recording it in the messages and trace.
    /// `raw` is the arguments' JSON text ([`argument_text`]).
    pub(super) fn run_tool(&mut self, gm: &GameMaster, id: &str, name: &str, raw: &str) {
        let started = Instant::now();
        if let Some(sink) = &self.tool_sink {
            // Arguments that are not JSON (a model's slip) are shown as the text they were.
            let arguments = serde_json::from_str(raw).unwrap_or_else(|_| Value::from(raw));
            let _ = sink.unbounded_send(super::TurnEvent::ToolCall {
                id: id.to_owned(),
                name: name.to_owned(),
                arguments,
            });
        }
        let mut ctx = ToolContext {
            state: self.state,
            srd: &gm.srd,
            rng: self.rng,
            limits: &gm.limits.tools,
            log: self.log,
        };
        // Only a tool sent with this call runs (`tools::situation`): the others are refused
        // with the list sent, changing nothing; a possible one is added to the next rounds.
        // "Barred" is judged on the state as the call finds it, so a fight started earlier in
        // the same answer already bars `start_encounter`.
        let refusal = |message: &str| {
            serde_json::json!({
                "error": truncate_with_note(message, gm.limits.tools.max_error_bytes)
            })
        };
        let result = match gate(name, &self.offered, ctx.state) {
            Gate::Run => call_tool(name, raw, &mut ctx),
            Gate::Barred(message) => ToolResult {
                ok: false,
                content: refusal(&message),
            },
            Gate::Added(tool, message) => {
                if !self.asked.contains(&tool) {
                    self.asked.push(tool);
                }
                let mut content = refusal(&message);
                content[super::ADDED] = tool.into();
                ToolResult { ok: false, content }
            }
        };
        self.trace.push(TraceStep::ToolCall {
            name: name.to_owned(),
            ok: result.ok,
            micros: elapsed(started),
        });
        if let Some(sink) = &self.tool_sink {
            let result = if result.ok {
                Ok(result.content.clone())
            } else {
                // A refusal's words, as the model reads them.
                Err(match result.content.get("error").and_then(Value::as_str) {
                    Some(why) => why.to_owned(),
                    None => result.content.to_string(),
                })
            };
            let _ = sink.unbounded_send(super::TurnEvent::ToolResult {
                id: id.to_owned(),
                name: name.to_owned(),
                result,
            });
        }
        self.messages
            .push(Message::tool_result(id, result.to_text()));
    }
}

/// A tool's name is at most this long (the longest real one is 24 bytes); a longer one named by
/// the model is kept cut (its call is refused as unknown). Not a setting: no tool needs more.
const MAX_TOOL_NAME_BYTES: usize = 64;

/// A tool call's id is at most this long (providers send 10 to 40 bytes); a longer one is
/// replaced by a short one of ours, which its result then answers.
const MAX_TOOL_ID_BYTES: usize = 64;

/// The text a tool parses its arguments from: a string as it is (a model that sent the
/// arguments as text, or a strict answer), anything else as JSON.
pub(super) fn argument_text(arguments: &Value) -> Cow<'_, str> {
    match arguments {
        Value::String(text) => Cow::Borrowed(text),
        // Compact JSON, as `Display` writes it, but into a byte buffer.
        other => Cow::Owned(serde_json::to_string(other).unwrap_or_default()),
    }
}

/// What [`bound_message`] kept of an answer's tool calls.
pub(super) struct BoundCalls {
    /// How many calls past the bound were dropped.
    dropped: usize,
    /// The arguments of each kept call as the model sent them, as text ([`argument_text`];
    /// the message keeps a note in place of any over the bound): the call runs on these, so
    /// its refusal names the bound. Written once, for the size check and the call.
    arguments: Vec<String>,
}

/// How much of a model's answer is kept: the text cut to [`GmLimits::max_narration_bytes`],
/// reasoning over it dropped, the tool calls cut to
/// [`GmLimits::max_tool_calls_per_response`], and over-long ids, names and arguments (over
/// [`ToolLimits::max_argument_bytes`]) replaced, so the history sent back in later turns stays
/// bounded.
///
/// [`GmLimits::max_narration_bytes`]: super::GmLimits::max_narration_bytes
/// [`GmLimits::max_tool_calls_per_response`]: super::GmLimits::max_tool_calls_per_response
/// [`ToolLimits::max_argument_bytes`]: crate::tools::ToolLimits::max_argument_bytes
fn bound_message(message: &mut Message, limits: &super::GmLimits) -> BoundCalls {
    let Message::Assistant {
        content,
        tool_calls,
        reasoning,
    } = message
    else {
        return BoundCalls {
            dropped: 0,
            arguments: Vec::new(),
        };
    };
    if let Some(text) = content
        && let Cow::Owned(cut) = truncate_with_note(text, limits.max_narration_bytes)
    {
        *text = cut;
    }
    // Reasoning is sent back as it came or not at all: a cut one could break a signature.
    let reasoning_size = reasoning.as_ref().map_or(0, |r| {
        r.text.as_ref().map_or(0, String::len)
            + r.details.as_ref().map_or(0, |d| d.to_string().len())
    });
    if reasoning_size > limits.max_narration_bytes {
        *reasoning = None;
    }
    let dropped = tool_calls
        .len()
        .saturating_sub(limits.max_tool_calls_per_response);
    tool_calls.truncate(limits.max_tool_calls_per_response);
    let mut arguments = Vec::with_capacity(tool_calls.len());
    for (i, call) in tool_calls.iter_mut().enumerate() {
        if call.id.len() > MAX_TOOL_ID_BYTES {
            call.id = format!("call-{i}-renamed");
            call.provider_id = None;
        }
        if call.name.len() > MAX_TOOL_NAME_BYTES {
            call.name = truncate_with_note(&call.name, MAX_TOOL_NAME_BYTES).into_owned();
        }
        let text = argument_text(&call.arguments).into_owned();
        let size = text.len();
        if size > limits.tools.max_argument_bytes {
            call.arguments = Value::String(format!("({size} bytes of arguments, not kept)"));
        }
        arguments.push(text);
    }
    BoundCalls { dropped, arguments }
}

fn elapsed(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX)
}

impl GameMaster {
    /// One provider call, cut to fit the model's context window, streamed when a text sink is
    /// listening, with usage and trace kept.
    ///
    /// The request is cut with [`window::fit`]: the turns of history go first, oldest first;
    /// the head (system prompt, summary, memory, state) and this turn's messages stay. A
    /// refusal for context length is tried once more with three quarters of the prompt sent;
    /// a second refusal, or a prompt that cannot fit, fails the turn (nothing is committed).
    pub(super) async fn call(
        &self,
        run: &mut TurnRun<'_>,
        phase: &str,
        round: u32,
        request: &CompletionRequest,
        stream_text: bool,
    ) -> Result<CompletionResponse, GmError> {
        // The cost bound first: past turns the call can do without, left out (never an error).
        let capped = self.limits.call_tokens.and_then(|cap| {
            // Over the bound even without its history: sent as it is, since leaving out
            // context would not bring it within the bound.
            window::fit(request, cap, run.history_at, &run.history_turns)
                .ok()
                .flatten()
        });
        let (request, skip) = match &capped {
            Some((cut, what)) => {
                run.note(format!(
                    "{} of the oldest turns of history left out of this call to keep it within {} input tokens (GmLimits::call_tokens): about {} from {}",
                    what.groups,
                    self.limits.call_tokens.unwrap_or_default(),
                    what.after,
                    what.before
                ));
                (cut, what.groups)
            }
            None => (request, 0),
        };
        let mut budget = self
            .provider
            .context_window()
            .await
            .map(|tokens| window::prompt_budget(tokens, request));
        // The provider's refusal for context length, and the prompt tokens it refused.
        let mut refused: Option<(LlmError, usize)> = None;
        loop {
            let fitted = match budget {
                None => None,
                Some(budget) => {
                    match window::fit(request, budget, run.history_at, &run.history_turns[skip..]) {
                        Ok(fitted) => fitted,
                        // After a refusal, the least that can be sent is worth one try if it
                        // is less than what was refused; else the refusal stands.
                        Err(overflow) => match refused {
                            Some((_, sent)) if overflow.needed < sent => window::fit(
                                request,
                                overflow.needed,
                                run.history_at,
                                &run.history_turns[skip..],
                            )
                            .ok()
                            .flatten(),
                            Some((error, _)) => return Err(GmError::Provider(error)),
                            None => {
                                return Err(GmError::Provider(LlmError::context_length(
                                    None,
                                    overflow.to_string(),
                                )));
                            }
                        },
                    }
                }
            };
            let sent = match &fitted {
                Some((cut, what)) => {
                    run.note(format!(
                        "{} of the oldest turns of history ({} messages) left out to fit the model's context window: about {} prompt tokens from {}",
                        what.groups, what.messages, what.after, what.before
                    ));
                    cut
                }
                None => request,
            };
            match self.send(run, phase, round, sent, stream_text).await {
                Err(GmError::Provider(error @ LlmError::ContextLength { .. }))
                    if refused.is_none() =>
                {
                    let tokens = window::request_tokens(sent);
                    let smaller = window::smaller_budget(tokens);
                    run.note(format!(
                        "the provider refused a prompt of about {tokens} tokens as longer than its context ({error}); trying once more cut to {smaller}"
                    ));
                    budget = Some(budget.map_or(smaller, |b| b.min(smaller)));
                    refused = Some((error, tokens));
                }
                other => return other,
            }
        }
    }

    /// One provider call as it is: see [`call`](Self::call).
    async fn send(
        &self,
        run: &mut TurnRun<'_>,
        phase: &str,
        round: u32,
        request: &CompletionRequest,
        stream_text: bool,
    ) -> Result<CompletionResponse, GmError> {
        let started = Instant::now();
        let response = match (&run.text_sink, stream_text) {
            (Some(sink), true) => {
                let mut events = self.provider.stream(request);
                let mut done = None;
                // What the player is shown stops at the narration bound, as the narration does,
                // and is scrubbed sentence by sentence before it is shown (`scrub`).
                let mut room = self.limits.max_narration_bytes;
                let mut scrubber = Scrubber::new(Secrets::of(run.state));
                let show = |text: String, room: &mut usize| {
                    let mut text = text;
                    if *room == 0 || text.is_empty() {
                        return;
                    }
                    if text.len() > *room {
                        text.truncate(crate::text::floor_char_boundary(&text, *room));
                        text.push_str(&format!(
                            "… (narration cut at {} bytes)",
                            self.limits.max_narration_bytes
                        ));
                        *room = 0;
                    } else {
                        *room -= text.len();
                    }
                    let _ = sink.unbounded_send(super::TurnEvent::Text(text));
                };
                let mut shown_any = false;
                while let Some(event) = events.next().await {
                    match event.map_err(GmError::Provider)? {
                        StreamEvent::TextDelta(text) => {
                            let piece = scrubber.push(&text);
                            shown_any |= !piece.is_empty();
                            show(piece, &mut room);
                        }
                        StreamEvent::ToolCall(_) => {}
                        StreamEvent::Done(response) => done = Some(response),
                    }
                }
                // An answer the output cap cut is shown as the narration will be kept: to its
                // last full sentence (`caps::end_at_sentence`).
                let rest = match &done {
                    Some(response) if response.finish_reason == FinishReason::Length => {
                        scrubber.finish_cut(shown_any)
                    }
                    _ => scrubber.finish(),
                };
                show(rest, &mut room);
                done.ok_or_else(|| {
                    GmError::Provider(LlmError::bad_response(
                        "the stream ended without its final response",
                    ))
                })?
            }
            _ => self
                .provider
                .complete(request)
                .await
                .map_err(GmError::Provider)?,
        };
        run.usage += response.usage;
        run.trace.push(TraceStep::ProviderCall {
            phase: phase.to_owned(),
            round,
            micros: elapsed(started),
            usage: response.usage,
            finish_reason: response.finish_reason.as_str().to_owned(),
            max_tokens: request.max_tokens,
        });
        Ok(response)
    }

    /// Bounds an answer of the model in place: see [`bound_message`].
    pub(super) fn bound_answer(&self, message: &mut Message) -> BoundCalls {
        bound_message(message, &self.limits)
    }

    pub(super) fn request(
        &self,
        stable_prefix: usize,
        messages: Vec<Message>,
    ) -> CompletionRequest {
        let mut request = CompletionRequest::new(messages);
        request.stable_prefix = stable_prefix;
        request.temperature = self.temperature;
        request
    }

    /// The names of the tools offered in this round of `run` (`tools::situation`, with the
    /// tools the model asked for this turn), kept in `run` for the gate; and their
    /// specifications, in the same order (the mode's own tools first, so a prompt cache keeps
    /// them: `tools::situation`). Recomputed each round, so a round after `start_encounter`
    /// offers the fight's tools.
    pub(super) fn offer(&self, run: &mut TurnRun<'_>) -> Vec<crate::llm::ToolSpec> {
        run.offered = tools_with(run.state, &self.srd, &run.asked).offered;
        run.offered
            .iter()
            .filter_map(|name| self.tool_specs.iter().find(|spec| spec.name == *name))
            .cloned()
            .collect()
    }

    /// The narrative phase: the model calls tools until it answers in words, at most
    /// `max_tool_rounds` rounds. The calls of one round run in order.
    pub(super) async fn narrative_phase(&self, run: &mut TurnRun<'_>) -> Result<(), GmError> {
        let mut cap = self.caps.narration;
        let mut widened = false;
        for round in 1..=self.limits.max_tool_rounds {
            // The conversation moves into the request and back: no copy per call.
            let tools = self.offer(run);
            let request = self
                .request(run.stable_prefix, std::mem::take(&mut run.messages))
                .with_tools(tools)
                .with_tool_choice(ToolChoice::Auto)
                .with_max_tokens(cap);
            let response = self.call(run, "narrative", round, &request, true).await;
            run.messages = request.messages;
            let response = response?;
            let cut = response.finish_reason == FinishReason::Length;
            let mut message = response.message;
            let BoundCalls { dropped, arguments } = self.bound_answer(&mut message);
            // Cut before a word or a call (a reasoning model can spend its whole cap thinking):
            // there is nothing to end cleanly, so the round is asked again, once, with more.
            if cut
                && arguments.is_empty()
                && message.text().is_none_or(|t| t.trim().is_empty())
                && !widened
            {
                let larger = super::caps::OutputCaps::retry(cap);
                run.note(super::caps::cut_note(
                    "narrative",
                    cap,
                    &format!("it had no words yet, so it was asked again with {larger}"),
                ));
                cap = larger;
                widened = true;
                continue;
            }
            if cut {
                Self::end_cut_narration(run, cap, &mut message, !arguments.is_empty());
            }
            if arguments.is_empty() {
                run.narration = message.text().unwrap_or_default().trim().to_owned();
                run.messages.push(message);
                return Ok(());
            }
            // The ids and names as kept (the results must answer the ids the history holds).
            let calls: Vec<(String, String)> = message
                .tool_calls()
                .iter()
                .map(|c| (c.id.clone(), c.name.clone()))
                .collect();
            run.messages.push(message);
            let kept = self.limits.max_tool_calls_per_response;
            for ((id, name), arguments) in calls.iter().zip(&arguments) {
                run.run_tool(self, id, name, arguments);
            }
            if dropped > 0 {
                let text = format!(
                    "{dropped} more tool calls in that answer were not run: at most {kept} run from one answer; call again for what is still needed"
                );
                run.note(text.clone());
                run.messages.push(Message::system(text));
            }
        }
        run.note(format!(
            "the model was still calling tools after {} rounds; the turn ends here",
            self.limits.max_tool_rounds
        ));
        run.notes
            .push("The game master took too many steps; what happened so far stands.".into());
        Ok(())
    }

    /// A narrative answer the output cap cut: its text ends at its last full sentence (in
    /// what the player reads and in the history), with a trace note. Tool calls it holds run
    /// as they are: one whose arguments were cut is refused by its tool, as any malformed
    /// call is, and the model sees why.
    fn end_cut_narration(run: &mut TurnRun<'_>, cap: u32, message: &mut Message, calls: bool) {
        if let Message::Assistant {
            content: Some(text),
            ..
        } = message
        {
            *text = super::caps::end_at_sentence(text);
        }
        let then = if calls {
            "its text ends at its last full sentence and its tool calls run as sent"
        } else {
            "it ends at its last full sentence"
        };
        run.note(super::caps::cut_note("narrative", cap, then));
    }

    /// The action phase: 2 to 5 suggested actions as JSON, one retry with the error fed back,
    /// then none (the turn still succeeds). Its messages are not kept in the history.
    pub(super) async fn action_phase(&self, run: &mut TurnRun<'_>) -> Result<(), GmError> {
        let kept = run.messages.len();
        let mut messages = std::mem::take(&mut run.messages);
        let result = self.suggest_actions(run, &mut messages).await;
        messages.truncate(kept);
        run.messages = messages;
        result
    }

    async fn suggest_actions(
        &self,
        run: &mut TurnRun<'_>,
        messages: &mut Vec<Message>,
    ) -> Result<(), GmError> {
        let instruction = "Suggest 2 to 5 actions the player might take next, best first. Answer with JSON only: {\"actions\": [{\"id\", \"description\", \"reason\" (or null), \"mechanic\": the tool call that would resolve it, {\"tool\", \"arguments\" (a JSON object as a string)}, such as roll_attack or roll_skill_check, or null}]}. The engine works out the odds and rolls the mechanic if the player picks it.";
        let schema_hint = || {
            Message::system(format!(
                "The JSON must match this schema: {}",
                self.action_schema
            ))
        };
        messages.push(Message::system(instruction));
        let capabilities = self.provider.capabilities();
        let mut use_schema = capabilities.json_schema;
        if !use_schema {
            messages.push(schema_hint());
        }
        let mut cap = self.caps.actions;
        for attempt in 1..=2u32 {
            let mut request = self.request(run.stable_prefix, std::mem::take(messages));
            request.max_tokens = Some(cap);
            request.response_format = if use_schema {
                ResponseFormat::json_schema(ACTION_LIST_SCHEMA, Arc::clone(&self.action_schema))
            } else if capabilities.json_mode {
                ResponseFormat::JsonObject
            } else {
                ResponseFormat::Text
            };
            let response = self.call(run, "actions", attempt, &request, false).await;
            *messages = request.messages;
            let response = match response {
                Ok(r) => r,
                // A server that refuses JSON-Schema output (llama.cpp's Python server does):
                // try once more with the schema in the prompt.
                Err(GmError::Provider(e)) if use_schema && !e.retryable() => {
                    run.note(format!("the provider refused JSON-Schema output ({e}); the schema goes into the prompt"));
                    use_schema = false;
                    messages.push(schema_hint());
                    continue;
                }
                Err(e) => return Err(e),
            };
            let text = response.text().unwrap_or_default();
            match parse_json::<ActionList>(text).and_then(|list| {
                list.validate_within(self.limits.max_suggestion_bytes)
                    .map(|()| list)
            }) {
                Ok(list) => {
                    run.suggestions = list.into_suggestions(run.state, &self.srd);
                    return Ok(());
                }
                // Cut JSON cannot be read: asked again with a larger cap, and without the cut
                // text, which would only cost tokens.
                Err(_) if response.finish_reason == FinishReason::Length => {
                    let (larger, note) = super::caps::asked_again("actions", cap);
                    run.note(note);
                    cap = larger;
                    messages.push(Message::system(CUT_JSON_AGAIN));
                }
                Err(error) => {
                    run.note(format!(
                        "suggested actions attempt {attempt} invalid: {error}"
                    ));
                    messages.push(Message::assistant(text));
                    messages.push(Message::system(format!(
                        "That answer was not valid: {error}. Answer again with the JSON only."
                    )));
                }
            }
        }
        run.note("no valid suggested actions after a retry; the turn goes on without them");
        Ok(())
    }
}

/// What the model is told when its JSON answer was cut by the output cap.
pub(super) const CUT_JSON_AGAIN: &str = "That answer was cut off by the length limit before its JSON ended. Answer again with the JSON only, complete, keeping every text in it short.";

/// Parses a JSON answer, forgiving a Markdown code fence around it.
pub(super) fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|t| t.strip_suffix("```"))
        .unwrap_or(trimmed);
    serde_json::from_str(inner.trim()).map_err(|e| e.to_string())
}
