//! A call to a tool that is possible now but was not sent with the call is refused, and the
//! tool is added to the next rounds' lists (`tools::situation`, [`Gate::Added`]). The refusal
//! carries the tool's name under [`ADDED`], so a model (or a script standing in for one, or the
//! offline game master) can tell it from any other refusal without reading its words, and
//! call the tool again in the next round: [`added_calls`].
//!
//! [`Gate::Added`]: crate::tools::Gate::Added

use crate::llm::{CompletionRequest, Message, ToolCall};

/// The key, in the JSON of a refusal for a tool not sent with the call, under which the tool
/// now added to the next round's list is named: `{"error": "...", "added": "search"}`.
pub const ADDED: &str = "added";

/// What the id of a call made again by [`added_calls`] starts with, before the first call's id.
pub const AGAIN: &str = "again-";

/// The calls of the last answer in `request` that were refused because their tool was not
/// sent with the call, and whose tool the request now offers: what a model calls again in this
/// round, with the same arguments, under new ids ([`AGAIN`] and the old id). Empty when there
/// are none, or when the player or the model has spoken since that answer.
pub fn added_calls(request: &CompletionRequest) -> Vec<ToolCall> {
    let messages = &request.messages;
    // The last answer with tool calls, followed only by their results (and the game master's
    // notes, such as the StrictJson request to answer again).
    let Some(at) = messages
        .iter()
        .rposition(|m| matches!(m, Message::Assistant { .. }))
    else {
        return Vec::new();
    };
    let Message::Assistant { tool_calls, .. } = &messages[at] else {
        return Vec::new();
    };
    let after = &messages[at + 1..];
    if !after
        .iter()
        .all(|m| matches!(m, Message::Tool { .. } | Message::System { .. }))
    {
        return Vec::new();
    }
    let offered =
        |name: &str| request.tools.is_empty() || request.tools.iter().any(|t| t.name == name);
    after
        .iter()
        .filter_map(|m| match m {
            Message::Tool {
                tool_call_id,
                content,
            } => {
                let added = serde_json::from_str::<serde_json::Value>(content).ok()?;
                let added = added.get(ADDED)?.as_str()?.to_owned();
                let call = tool_calls.iter().find(|c| &c.id == tool_call_id)?;
                (call.name == added && offered(&added)).then(|| {
                    ToolCall::new(format!("{AGAIN}{}", call.id), added, call.arguments.clone())
                })
            }
            _ => None,
        })
        .collect()
}

/// The tool results in `messages`, one per call, in order: a call refused as not sent and
/// called again ([`added_calls`]) counts once, its second result in the place of its refusal.
pub fn results_per_call(messages: &[Message]) -> Vec<String> {
    let mut results: Vec<(&str, String)> = Vec::new();
    for message in messages {
        let Message::Tool {
            tool_call_id,
            content,
        } = message
        else {
            continue;
        };
        let first = tool_call_id
            .strip_prefix(AGAIN)
            .and_then(|id| results.iter().position(|(r, _)| *r == id));
        match first {
            Some(at) => results[at].1.clone_from(content),
            None => results.push((tool_call_id, content.clone())),
        }
    }
    results.into_iter().map(|(_, content)| content).collect()
}
