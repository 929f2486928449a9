//! Every request fits the model's context window: its size estimated one way everywhere, and
//! the oldest droppable messages cut until the prompt and the room for the answer fit.
//!
//! A caller says which messages may go: a protected head (the system prompt, the summary, the
//! state block), then *groups* of droppable messages, oldest first (the game master's past
//! turns, an AI player's view of the log), then a protected tail (the current turn). [`fit`]
//! drops whole groups from the front, so a tool result never loses the call it answers, and
//! never touches the head or the tail. Tokens are counted with [`estimate_tokens`] over each
//! message's JSON, the tools' JSON and the response schema, as sent.

use super::message::{Message, Role};
use super::request::{CompletionRequest, ResponseFormat};
use crate::state::estimate_tokens;

/// Tokens kept free for the answer when a request sets no `max_tokens`: a narration of a few
/// paragraphs, or a JSON answer, fits in it.
pub const DEFAULT_ANSWER_RESERVE: u32 = 1_024;

/// The estimated tokens of one message as sent (its JSON, role and names included).
pub fn message_tokens(message: &Message) -> usize {
    serde_json::to_string(message).map_or(0, |json| estimate_tokens(&json))
}

/// The estimated tokens of a request's prompt: every message, the tools' JSON and the
/// response schema, each as JSON.
pub fn request_tokens(request: &CompletionRequest) -> usize {
    let messages: usize = request.messages.iter().map(message_tokens).sum();
    let tools = if request.tools.is_empty() {
        0
    } else {
        serde_json::to_string(&*request.tools).map_or(0, |json| estimate_tokens(&json))
    };
    let schema = match &request.response_format {
        ResponseFormat::JsonSchema { schema, .. } => {
            serde_json::to_string(&**schema).map_or(0, |json| estimate_tokens(&json))
        }
        _ => 0,
    };
    messages + tools + schema
}

/// The room kept for the answer: the request's `max_tokens`, or [`DEFAULT_ANSWER_RESERVE`].
pub fn answer_reserve(request: &CompletionRequest) -> usize {
    request.max_tokens.unwrap_or(DEFAULT_ANSWER_RESERVE) as usize
}

/// The most prompt tokens a request may have in a window of `window` tokens: the window less
/// the room for the answer.
pub fn prompt_budget(window: u32, request: &CompletionRequest) -> usize {
    (window as usize).saturating_sub(answer_reserve(request))
}

/// The budget to retry with after the provider refused a prompt of `sent` estimated tokens
/// as too long: three quarters of it, since the estimate fell short of the provider's count.
pub fn smaller_budget(sent: usize) -> usize {
    sent * 3 / 4
}

/// The sizes of `messages` split into groups that can be dropped together: each starts at a
/// message that is not a tool result, so a tool result stays with the call before it.
pub fn message_groups(messages: &[Message]) -> Vec<usize> {
    let mut groups: Vec<usize> = Vec::new();
    for message in messages {
        match groups.last_mut() {
            Some(last) if message.role() == Role::Tool => *last += 1,
            _ => groups.push(1),
        }
    }
    groups
}

/// What [`fit`] cut from a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// How many groups were dropped, oldest first.
    pub groups: usize,
    /// How many messages they held.
    pub messages: usize,
    /// The estimated prompt tokens before the cut.
    pub before: usize,
    /// The estimated prompt tokens after it.
    pub after: usize,
}

/// A request that does not fit even with every droppable message cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    /// The estimated prompt tokens of what cannot be dropped.
    pub needed: usize,
    /// The prompt tokens the window leaves.
    pub budget: usize,
}

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the prompt needs about {} tokens without any of its older messages, but the model's context window leaves {} for it after the room kept for the answer; a larger context window, a shorter system prompt or a smaller max_tokens would fit",
            self.needed, self.budget
        )
    }
}

/// Fits `request` within `budget` prompt tokens by dropping groups of the messages that
/// follow its first `head` ones (`groups` gives their sizes, oldest first), oldest first.
///
/// `Ok(None)` when the request fits as it is (nothing is copied); `Ok(Some)` with the cut
/// request and what was cut; [`Overflow`] when the head, the tail past the groups and the
/// tools alone are over the budget.
pub fn fit(
    request: &CompletionRequest,
    budget: usize,
    head: usize,
    groups: &[usize],
) -> Result<Option<(CompletionRequest, Cut)>, Overflow> {
    let before = request_tokens(request);
    if before <= budget {
        return Ok(None);
    }
    let droppable: usize = groups.iter().sum();
    let head = head.min(request.messages.len());
    let end = (head + droppable).min(request.messages.len());
    let mut tokens = before;
    let mut at = head;
    let mut dropped = 0;
    for &size in groups {
        if tokens <= budget || at >= end {
            break;
        }
        let until = (at + size).min(end);
        tokens -= request.messages[at..until]
            .iter()
            .map(message_tokens)
            .sum::<usize>();
        at = until;
        dropped += 1;
    }
    if tokens > budget {
        return Err(Overflow {
            needed: tokens,
            budget,
        });
    }
    let mut cut = request.clone();
    cut.messages.drain(head..at);
    // A stable prefix that reached into the dropped messages ends that much sooner.
    if cut.stable_prefix > head {
        cut.stable_prefix = cut.stable_prefix.saturating_sub(at - head).max(head);
    }
    Ok(Some((
        cut,
        Cut {
            groups: dropped,
            messages: at - head,
            before,
            after: tokens,
        },
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{ToolCall, ToolSpec};

    fn long(n: usize) -> String {
        "word ".repeat(n)
    }

    #[test]
    fn tool_results_stay_with_their_call() {
        let call = ToolCall::new("c1", "roll", serde_json::json!({}));
        let messages = vec![
            Message::user("a"),
            Message::assistant_tool_calls(vec![call]),
            Message::tool_result("c1", "7"),
            Message::assistant("b"),
        ];
        assert_eq!(message_groups(&messages), vec![1, 2, 1]);
    }

    #[test]
    fn fit_drops_oldest_groups_and_keeps_head_and_tail() {
        let request = CompletionRequest::new(vec![
            Message::system("rules"),
            Message::user(long(100)),
            Message::assistant(long(100)),
            Message::user(long(100)),
            Message::user("now"),
        ]);
        let total = request_tokens(&request);
        assert!(fit(&request, total, 1, &[1, 1, 1]).unwrap().is_none());
        let budget = total - 100;
        let (cut, what) = fit(&request, budget, 1, &[1, 1, 1]).unwrap().unwrap();
        assert_eq!(what.groups, 1);
        assert!(what.after <= budget && request_tokens(&cut) == what.after);
        assert_eq!(cut.messages.first(), request.messages.first());
        assert_eq!(cut.messages.last(), request.messages.last());
        assert_eq!(
            cut.messages[1], request.messages[2],
            "the oldest went first"
        );
        let overflow = fit(&request, 10, 1, &[1, 1, 1]).unwrap_err();
        assert!(overflow.needed > 10);
        assert!(overflow.to_string().contains("context window"));
    }

    #[test]
    fn tools_and_schema_count() {
        let bare = CompletionRequest::new(vec![Message::user("hi")]);
        let with_tool = bare.clone().with_tool(ToolSpec::new(
            "roll",
            long(50),
            serde_json::json!({"type": "object"}),
        ));
        assert!(request_tokens(&with_tool) > request_tokens(&bare) + 50);
        assert_eq!(answer_reserve(&bare), DEFAULT_ANSWER_RESERVE as usize);
        assert_eq!(prompt_budget(8_192, &bare.with_max_tokens(192)), 8_000);
        assert_eq!(smaller_budget(8_000), 6_000);
    }
}
