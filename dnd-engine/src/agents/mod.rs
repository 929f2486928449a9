//! Several agents at one table: the game master, AI players, NPCs voiced by their own model.
//!
//! They share one [`SharedLog`], and each sees its own view of it ([`SharedLog::view_for`]),
//! routed as the CHAIBA seed does: its own words as assistant messages, everyone else's as user
//! messages prefixed with their name, system context addressed to it (context addressed to
//! someone else is skipped), the results of its own tool calls as tool messages and the results
//! of others' as plain text ("Kraven attacked the harpy: 17 hits, 8 damage"). Every agent keeps
//! a log of its calls with their usage, for a debug view.
//!
//! [`AiPlayer`] is an agent that plays a character against a [`GameMaster`]: it picks one of the
//! suggested actions or says something of its own, and when the game master refuses the input
//! it tries again with the error fed back, up to a limit.

use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::gm::{GameMaster, GmError, OutputCaps, PlayerInput, TurnOutcome, end_at_sentence};
use crate::llm::{
    CompletionRequest, FinishReason, LlmError, LlmProvider, Message, Role, ToolCall, Usage, window,
};
use crate::store::CampaignId;

/// One entry of the shared log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEntry {
    /// What an agent said.
    Said {
        /// The agent.
        from: String,
        /// Its words.
        text: String,
    },
    /// Tool calls an agent made.
    ToolCalls {
        /// The agent.
        from: String,
        /// The calls.
        calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    ToolResult {
        /// The agent that made the call.
        from: String,
        /// The call's id.
        call_id: String,
        /// The full result, for the caller.
        content: String,
        /// One line for everyone else ("Kraven attacked the harpy: 17 hits, 8 damage").
        summary: String,
    },
    /// Context from the table: for everyone (`to: None`) or for one agent.
    System {
        /// The agent it is addressed to, or everyone.
        to: Option<String>,
        /// The context.
        text: String,
    },
}

/// The log every agent at the table reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SharedLog {
    /// The entries, oldest first.
    pub entries: Vec<LogEntry>,
}

impl SharedLog {
    /// Appends an entry.
    pub fn push(&mut self, entry: LogEntry) {
        self.entries.push(entry);
    }

    /// The log as `agent` sees it (see the module docs for the routing).
    pub fn view_for(&self, agent: &str) -> Vec<Message> {
        let mut view = Vec::new();
        for entry in &self.entries {
            match entry {
                LogEntry::Said { from, text } if from == agent => {
                    view.push(Message::assistant(text.clone()))
                }
                LogEntry::Said { from, text } => {
                    view.push(Message::user_named(from.clone(), format!("{from}: {text}")))
                }
                LogEntry::ToolCalls { from, calls } if from == agent => {
                    view.push(Message::assistant_tool_calls(calls.clone()))
                }
                LogEntry::ToolCalls { .. } => {}
                LogEntry::ToolResult {
                    from,
                    call_id,
                    content,
                    ..
                } if from == agent => {
                    view.push(Message::tool_result(call_id.clone(), content.clone()))
                }
                LogEntry::ToolResult { summary, .. } => view.push(Message::user(summary.clone())),
                LogEntry::System { to: None, text } => view.push(Message::system(text.clone())),
                LogEntry::System { to: Some(to), text } if to == agent => {
                    view.push(Message::system(text.clone()))
                }
                LogEntry::System { .. } => {}
            }
        }
        view
    }
}

/// One call an agent made, for the debug view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentCall {
    /// Messages sent.
    pub messages: usize,
    /// Tokens and cost.
    pub usage: Usage,
    /// Wall time in microseconds.
    pub micros: u64,
    /// The error, if the call failed.
    pub error: Option<String>,
    /// The output cap the call was sent with ([`Agent::max_tokens`]).
    #[serde(default)]
    pub max_tokens: u32,
    /// Whether the cap cut the answer (it was then ended at its last full sentence).
    #[serde(default)]
    pub cut: bool,
}

/// An agent: a name at the table, a model, its instructions, and its call log.
pub struct Agent {
    /// Its name in the log ("Kraven", "gm", "Sigrun").
    pub name: String,
    /// Its instructions, sent first in every call.
    pub system_prompt: String,
    provider: Arc<dyn LlmProvider>,
    /// Every call it made.
    pub calls: Vec<AgentCall>,
    /// How many of the latest log messages it is sent (its view is cut from the front, so a
    /// long game does not outgrow a small model's context).
    pub window: usize,
    /// The most tokens one answer may have (default [`OutputCaps::player_line`], 80: a line
    /// of one sentence). An answer the cap cut ends at its last full sentence.
    pub max_tokens: u32,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("name", &self.name)
            .field("provider", &self.provider.name())
            .field("calls", &self.calls.len())
            .finish()
    }
}

impl Agent {
    /// An agent called `name` that speaks through `provider`.
    pub fn new(
        name: impl Into<String>,
        system_prompt: impl Into<String>,
        provider: Arc<dyn LlmProvider>,
    ) -> Agent {
        Agent {
            name: name.into(),
            system_prompt: system_prompt.into(),
            provider,
            calls: Vec::new(),
            window: 24,
            max_tokens: OutputCaps::default().player_line,
        }
    }

    /// The same agent, its answers capped at `max_tokens` tokens (for an NPC's longer speech,
    /// or a model that reasons before it answers).
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Agent {
        self.max_tokens = max_tokens;
        self
    }

    /// Asks the model for this agent's next words, given its view of the log; the answer is
    /// appended to the log and returned.
    pub async fn speak(&mut self, log: &mut SharedLog) -> Result<String, LlmError> {
        let mut messages = vec![Message::system(self.system_prompt.clone())];
        let view = log.view_for(&self.name);
        let skip = view.len().saturating_sub(self.window);
        messages.extend(view.into_iter().skip(skip));
        let text = self.ask(messages).await?;
        log.push(LogEntry::Said {
            from: self.name.clone(),
            text: text.clone(),
        });
        Ok(text)
    }

    /// One call with these messages (the system prompt first), cut to fit the model's context
    /// window: the oldest messages of the view go first, in groups that keep a tool result
    /// with its call; the system prompt and what came since the agent last spoke stay. A refusal for context
    /// length is tried once more with three quarters of the prompt sent.
    async fn ask(&mut self, messages: Vec<Message>) -> Result<String, LlmError> {
        let request = CompletionRequest::new(messages).with_max_tokens(self.max_tokens);
        // What came since the agent last spoke is what it answers: never cut.
        let view = request.messages.get(1..).unwrap_or_default();
        let past = view
            .iter()
            .rposition(|m| m.role() == Role::Assistant)
            .map_or(0, |i| i + 1);
        let groups = window::message_groups(&view[..past]);
        let mut budget = self
            .provider
            .context_window()
            .await
            .map(|tokens| window::prompt_budget(tokens, &request));
        // The provider's refusal for context length, and the prompt tokens it refused.
        let mut refused: Option<(LlmError, usize)> = None;
        loop {
            let started = Instant::now();
            let fitted = match budget.map(|budget| window::fit(&request, budget, 1, &groups)) {
                // After a refusal, the least that can be sent is worth one try if it is less
                // than what was refused; else the refusal stands.
                Some(Err(overflow)) => match &refused {
                    Some((_, sent)) if overflow.needed < *sent => {
                        Ok(window::fit(&request, overflow.needed, 1, &groups)
                            .ok()
                            .flatten())
                    }
                    Some((error, _)) => return Err(error.clone()),
                    None => Err(LlmError::context_length(None, overflow.to_string())),
                },
                Some(Ok(fitted)) => Ok(fitted),
                None => Ok(None),
            };
            let sent = match &fitted {
                Ok(Some((cut, _))) => cut,
                _ => &request,
            };
            let result = match &fitted {
                Err(overflow) => Err(overflow.clone()),
                Ok(_) => self.provider.complete(sent).await,
            };
            let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
            let (usage, error) = match &result {
                Ok(response) => (response.usage, None),
                Err(error) => (Usage::default(), Some(error.to_string())),
            };
            let cut = matches!(&result, Ok(r) if r.finish_reason == FinishReason::Length);
            self.calls.push(AgentCall {
                messages: sent.messages.len(),
                usage,
                micros,
                error,
                max_tokens: self.max_tokens,
                cut,
            });
            match result {
                Ok(response) => {
                    let text = response.text().unwrap_or_default().trim();
                    // A line the cap cut ends at its last full sentence.
                    return Ok(if cut {
                        end_at_sentence(text)
                    } else {
                        text.to_owned()
                    });
                }
                Err(error @ LlmError::ContextLength { .. })
                    if refused.is_none() && fitted.is_ok() =>
                {
                    let tokens = window::request_tokens(sent);
                    let smaller = window::smaller_budget(tokens);
                    budget = Some(budget.map_or(smaller, |b| b.min(smaller)));
                    refused = Some((error, tokens));
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// The usage of every call, summed.
    pub fn usage(&self) -> Usage {
        self.calls.iter().map(|c| c.usage).sum()
    }
}

/// Why an AI player could not play its turn.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// Its model failed.
    #[error("the player's model failed: {0}")]
    Model(#[from] LlmError),
    /// The game master failed (not because of the player's input).
    #[error(transparent)]
    Game(GmError),
    /// Every try was refused.
    #[error("the game master refused {tries} inputs in a row; the last error: {last}")]
    Refused {
        /// How many inputs were tried.
        tries: u32,
        /// The last refusal.
        last: String,
    },
}

/// An agent that plays one character against a game master.
#[derive(Debug)]
pub struct AiPlayer {
    /// The agent.
    pub agent: Agent,
    /// The character it plays (its name as the speaker).
    pub character: String,
    /// Inputs tried per turn before giving up.
    pub max_tries: u32,
}

/// The instructions an AI player gets unless given others.
pub const AI_PLAYER_PROMPT: &str = "You play one character in a Dungeons & Dragons game. Each \
turn you read what the game master said and the suggested actions, and answer with what your \
character does next, in one sentence, in the first person. You may answer with the id of a \
suggested action instead.";

impl AiPlayer {
    /// A player for `character` speaking through `provider`, with the default instructions.
    pub fn new(character: impl Into<String>, provider: Arc<dyn LlmProvider>) -> AiPlayer {
        let character = character.into();
        AiPlayer {
            agent: Agent::new(character.clone(), AI_PLAYER_PROMPT, provider),
            character,
            max_tries: 3,
        }
    }

    /// Plays one turn: reads the game master's last outcome into the log, chooses, and sends
    /// the choice to the game master; a refused input is tried again with the error fed back.
    pub async fn play_turn(
        &mut self,
        log: &mut SharedLog,
        gm: &GameMaster,
        campaign: &CampaignId,
        last: Option<&TurnOutcome>,
    ) -> Result<TurnOutcome, AgentError> {
        if let Some(outcome) = last {
            log.push(LogEntry::Said {
                from: "gm".into(),
                text: outcome.narration.clone(),
            });
            if !outcome.suggested_actions.is_empty() {
                let list: Vec<String> = outcome
                    .suggested_actions
                    .iter()
                    .map(|a| format!("{}: {}", a.id, a.label()))
                    .collect();
                log.push(LogEntry::System {
                    to: Some(self.character.clone()),
                    text: format!("Suggested actions:\n{}", list.join("\n")),
                });
            }
        }
        let mut last_error = String::new();
        for _ in 0..self.max_tries {
            let said = self.agent.speak(log).await?;
            // An action id picks that suggestion: its words, and its mechanic rolled first.
            let input = last
                .and_then(|o| o.suggested_actions.iter().find(|a| a.id == said.trim()))
                .map_or_else(
                    || PlayerInput::new(self.character.clone(), said.clone()),
                    |a| PlayerInput::choose(self.character.clone(), a),
                );
            match gm.turn(campaign, input).await {
                Ok(outcome) => return Ok(outcome),
                Err(GmError::Input(reason)) => {
                    log.push(LogEntry::System {
                        to: Some(self.character.clone()),
                        text: format!("That was refused: {reason}. Try something else."),
                    });
                    last_error = reason;
                }
                Err(other) => return Err(AgentError::Game(other)),
            }
        }
        Err(AgentError::Refused {
            tries: self.max_tries,
            last: last_error,
        })
    }
}

#[cfg(test)]
mod tests;
