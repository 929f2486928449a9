//! Prompt-cache breakpoints for models that need them marked (Anthropic's, through OpenRouter).
//!
//! OpenAI and DeepSeek models cache long prompt prefixes by themselves. Anthropic models cache
//! only up to a `cache_control: {"type": "ephemeral"}` marker on a content part, at most four
//! per request; a cached read costs a tenth of the input price, a write a quarter more. Where
//! the markers go decides whether a game pays for its system prompt once or on every call.
//!
//! The markers are placed from what the engine knows, never by looking at the text:
//!
//! 1. **The stable prefix.** [`CompletionRequest::stable_prefix`] says how many leading
//!    messages stay the same from turn to turn (the system prompt, the campaign summary). A
//!    marker on the last of them caches the tools and that prefix across the whole game.
//! 2. **A checkpoint that advances every N turns** ([`PromptCache::advance_every`], 10 by
//!    default). A turn starts at a user message after the stable prefix. The marker goes at
//!    the end of the last completed turn whose number is a multiple of N, so it stays put for N
//!    turns (each call reads the same cached prefix) and then jumps N turns ahead: the cached
//!    prefix grows with the game instead of being rewritten on every call.
//! 3. **The previous checkpoint**, N turns back, so the call on which the checkpoint advances
//!    still reads the prefix cached so far and writes only the new part (Anthropic looks back
//!    only about twenty blocks from a marker for an earlier cached prefix).
//! 4. **The tail** (the last message with text), when [`PromptCache::cache_tail`] is on: the
//!    calls of one turn (tool rounds, the action phase) each extend the previous call's
//!    conversation, so each reads what the previous one wrote.
//!
//! A marker meant for a message without text (an assistant message that only calls tools) goes
//! on the nearest earlier message with text. Markers that land on the same message count once;
//! when more than four are wanted, the list above is also the order of priority.

use dnd_engine::llm::{CompletionRequest, Message};
use dnd_llm_openai::wire::{ChatRequest, RequestContent};
use serde_json::{Value, json};

/// The most cache breakpoints Anthropic accepts in one request.
pub const MAX_BREAKPOINTS: usize = 4;

/// When cache breakpoints are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheMode {
    /// For models that need explicit markers: `anthropic/...` (the default).
    #[default]
    Auto,
    /// For every model (providers that cache by themselves ignore the markers).
    Always,
    /// Never.
    Never,
}

/// Where and how prompt-cache breakpoints are placed (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptCache {
    /// Which models get markers.
    pub mode: CacheMode,
    /// Turns between two positions of the advancing checkpoint; 0 turns the checkpoint off.
    pub advance_every: usize,
    /// Also mark the last message, so the calls of one turn read each other's prefix.
    pub cache_tail: bool,
    /// The cache lifetime (`"1h"`); `None` for the provider's default (5 minutes).
    pub ttl: Option<String>,
}

impl Default for PromptCache {
    fn default() -> Self {
        PromptCache {
            mode: CacheMode::Auto,
            advance_every: 10,
            cache_tail: true,
            ttl: None,
        }
    }
}

impl PromptCache {
    /// No markers at all.
    pub fn off() -> Self {
        PromptCache {
            mode: CacheMode::Never,
            ..PromptCache::default()
        }
    }

    /// Whether requests to `model` get markers.
    pub fn applies_to(&self, model: &str) -> bool {
        match self.mode {
            CacheMode::Auto => model.starts_with("anthropic/"),
            CacheMode::Always => true,
            CacheMode::Never => false,
        }
    }

    /// The `cache_control` value: `{"type": "ephemeral"}`, with the lifetime when set.
    pub fn marker(&self) -> Value {
        match &self.ttl {
            Some(ttl) => json!({"type": "ephemeral", "ttl": ttl}),
            None => json!({"type": "ephemeral"}),
        }
    }

    /// The positions of the messages that get a marker, ascending, at most
    /// [`MAX_BREAKPOINTS`] (see the module docs for the rules).
    pub fn breakpoints(&self, request: &CompletionRequest) -> Vec<usize> {
        let messages = &request.messages;
        let stable = request.stable_prefix.min(messages.len());
        let mut wanted: Vec<Option<usize>> = Vec::with_capacity(MAX_BREAKPOINTS);
        wanted.push(stable.checked_sub(1).and_then(|end| carrier(messages, end)));
        let (current, previous) = self.checkpoints(messages, stable);
        let tail = if self.cache_tail {
            messages
                .len()
                .checked_sub(1)
                .and_then(|end| carrier(messages, end))
        } else {
            None
        };
        wanted.extend([current, tail, previous]);
        let mut chosen: Vec<usize> = Vec::with_capacity(MAX_BREAKPOINTS);
        for position in wanted.into_iter().flatten() {
            if chosen.len() < MAX_BREAKPOINTS && !chosen.contains(&position) {
                chosen.push(position);
            }
        }
        chosen.sort_unstable();
        chosen
    }

    /// The carriers of the current and the previous checkpoint, if the game is long enough.
    fn checkpoints(&self, messages: &[Message], stable: usize) -> (Option<usize>, Option<usize>) {
        let every = self.advance_every;
        if every == 0 {
            return (None, None);
        }
        let turn_starts: Vec<usize> = messages
            .iter()
            .enumerate()
            .skip(stable)
            .filter(|(_, m)| matches!(m, Message::User { .. }))
            .map(|(i, _)| i)
            .collect();
        // The last turn is the one being played; the others are complete.
        let completed = turn_starts.len().saturating_sub(1);
        let reached = completed / every * every;
        // The checkpoint after `turns` complete turns: the end of the turn before
        // `turn_starts[turns]`.
        let after = |turns: usize| {
            (turns >= every)
                .then(|| turn_starts.get(turns))
                .flatten()
                .and_then(|start| carrier(messages, start.checked_sub(1)?))
                .filter(|position| *position >= stable)
        };
        (after(reached), reached.checked_sub(every).and_then(after))
    }
}

/// The message at or before `end` that can carry a marker: one with non-empty text (a marker
/// on an empty text part is refused).
fn carrier(messages: &[Message], end: usize) -> Option<usize> {
    (0..=end.min(messages.len().checked_sub(1)?))
        .rev()
        .find(|i| messages[*i].text().is_some_and(|text| !text.is_empty()))
}

/// Puts `marker` on the last content part of each message of `body` at `positions` (turning
/// plain text into one text part). Positions without content are skipped.
pub fn apply_breakpoints(body: &mut ChatRequest<'_>, positions: &[usize], marker: &Value) {
    for &position in positions {
        let Some(message) = body.messages.get_mut(position) else {
            continue;
        };
        let Some(content) = message.content.take() else {
            continue;
        };
        let mut parts = content.into_parts();
        if let Some(last) = parts.last_mut() {
            last.cache_control = Some(marker.clone());
        }
        message.content = Some(RequestContent::Parts(parts));
    }
}

#[cfg(test)]
mod tests {
    use dnd_engine::llm::ToolCall;

    use super::*;

    /// System prompt, summary, then `turns` turns of user, assistant calling a tool, tool
    /// result, assistant narration.
    fn game(turns: usize) -> CompletionRequest {
        let mut messages = vec![Message::system("rules"), Message::system("summary")];
        for turn in 0..turns {
            let id = format!("c{turn}");
            messages.push(Message::user(format!("turn {turn}")));
            messages.push(Message::assistant_tool_calls(vec![ToolCall::new(
                &id,
                "roll_dice",
                json!({"notation": "1d20"}),
            )]));
            messages.push(Message::tool_result(&id, "{\"total\":12}"));
            messages.push(Message::assistant(format!("narration {turn}")));
        }
        messages.push(Message::user("now"));
        let mut request = CompletionRequest::new(messages);
        request.stable_prefix = 2;
        request
    }

    /// The position of the last message of turn `turn` (0-based) in [`game`].
    fn end_of_turn(turn: usize) -> usize {
        2 + turn * 4 + 3
    }

    #[test]
    fn a_short_game_marks_the_prefix_and_the_tail() {
        let cache = PromptCache::default();
        let request = game(3);
        assert_eq!(
            cache.breakpoints(&request),
            vec![1, request.messages.len() - 1]
        );
        let no_tail = PromptCache {
            cache_tail: false,
            ..PromptCache::default()
        };
        assert_eq!(no_tail.breakpoints(&request), vec![1]);
    }

    #[test]
    fn the_checkpoint_stays_for_ten_turns_then_advances() {
        let cache = PromptCache::default();
        for turns in 10..20 {
            let request = game(turns);
            assert_eq!(
                cache.breakpoints(&request),
                vec![1, end_of_turn(9), request.messages.len() - 1],
                "{turns} turns"
            );
        }
        for turns in [20, 25, 29] {
            let request = game(turns);
            assert_eq!(
                cache.breakpoints(&request),
                vec![
                    1,
                    end_of_turn(9),
                    end_of_turn(19),
                    request.messages.len() - 1
                ],
                "{turns} turns"
            );
        }
        for turns in 0..200 {
            assert!(cache.breakpoints(&game(turns)).len() <= MAX_BREAKPOINTS);
        }
    }

    #[test]
    fn markers_skip_messages_without_text() {
        let mut request = game(1);
        // End on the assistant's tool call: the tail marker goes back to the user message.
        request.messages.truncate(4);
        assert_eq!(PromptCache::default().breakpoints(&request), vec![1, 2]);
        let mut empty = CompletionRequest::new(vec![Message::assistant("")]);
        empty.stable_prefix = 5;
        assert!(PromptCache::default().breakpoints(&empty).is_empty());
    }

    #[test]
    fn modes_and_markers() {
        let cache = PromptCache::default();
        assert!(cache.applies_to("anthropic/claude-sonnet-4.5"));
        assert!(!cache.applies_to("openai/gpt-4o-mini"));
        assert!(!PromptCache::off().applies_to("anthropic/claude-sonnet-4.5"));
        let hour = PromptCache {
            ttl: Some("1h".into()),
            mode: CacheMode::Always,
            ..PromptCache::default()
        };
        assert!(hour.applies_to("openai/gpt-4o-mini"));
        assert_eq!(hour.marker(), json!({"type": "ephemeral", "ttl": "1h"}));
    }
}
