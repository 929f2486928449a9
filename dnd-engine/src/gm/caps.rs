//! Output caps: the most tokens each kind of model call may answer with, and what becomes of an
//! answer the cap cut short (finish reason `length`).
//!
//! Prose (narration, a summary, an AI player's line) ends at its last full sentence; JSON (the
//! action list, the StrictJson answers) cannot be read once cut, so it is asked again once with
//! [`OutputCaps::retry`] tokens, then falls back as any invalid answer does.

use serde::{Deserialize, Serialize};

/// The most tokens the model may answer with, one field per kind of call. Sent with every
/// request as [`CompletionRequest::max_tokens`](crate::llm::CompletionRequest::max_tokens),
/// which each adapter writes as the field its server expects (`max_completion_tokens` for
/// OpenAI, `max_tokens` for compatible servers and OpenRouter).
///
/// The defaults hold what each call is asked for with room to spare, so a cut means a model
/// that rambled, not one that was stopped mid-task. Tokens are counted as about four bytes of
/// English (or three of JSON). Reasoning models count their hidden reasoning against
/// OpenAI's `max_completion_tokens`: raise the caps for them. A field missing from a
/// serialized form takes its default.
///
/// ```
/// use dnd_engine::gm::OutputCaps;
///
/// let caps = OutputCaps { narration: 600, ..OutputCaps::default() };
/// assert_eq!(caps.actions, OutputCaps::default().actions);
/// assert_eq!(OutputCaps::retry(350), 700);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OutputCaps {
    /// A narrative call (default 400): two to five sentences, as the system prompt asks, are
    /// under 150 tokens; the same call also carries the tool calls of a round (about 30 tokens
    /// each).
    pub narration: u32,
    /// The action list (default 500): five actions of id, description, reason and a mechanic
    /// whose arguments are an escaped JSON string ("attack the frost harpy with your
    /// longsword", with its `roll_attack` call) come to some 1,450 bytes, about 400 tokens.
    pub actions: u32,
    /// The campaign summary (default 300): the prompt asks for at most 150 words, some 200
    /// tokens.
    pub summary: u32,
    /// An AI player's line (default 80): one sentence in the first person, or an action id.
    pub player_line: u32,
    /// The StrictJson answer (default 700): a narration and the actions to run, as JSON.
    pub strict_answer: u32,
    /// The StrictJson narration written from the actions' results (default 400): the
    /// narration in a one-field JSON object.
    pub strict_narration: u32,
}

impl Default for OutputCaps {
    fn default() -> Self {
        OutputCaps {
            narration: 400,
            actions: 500,
            summary: 300,
            player_line: 80,
            strict_answer: 700,
            strict_narration: 400,
        }
    }
}

impl OutputCaps {
    /// Every kind of call capped at the same number of tokens.
    pub fn uniform(max_tokens: u32) -> OutputCaps {
        OutputCaps {
            narration: max_tokens,
            actions: max_tokens,
            summary: max_tokens,
            player_line: max_tokens,
            strict_answer: max_tokens,
            strict_narration: max_tokens,
        }
    }

    /// The cap of the one retry of a JSON answer that `cap` cut: twice as many tokens.
    pub fn retry(cap: u32) -> u32 {
        cap.saturating_mul(2)
    }
}

/// The trace note for an answer the cap cut, saying what was done with it.
pub(super) fn cut_note(phase: &str, cap: u32, what_then: &str) -> String {
    format!("the {phase} answer was cut at the output cap of {cap} tokens; {what_then}")
}

/// The larger cap a cut JSON answer of `phase` is asked again with, and the trace note saying
/// so.
pub(super) fn asked_again(phase: &str, cap: u32) -> (u32, String) {
    let larger = OutputCaps::retry(cap);
    (
        larger,
        cut_note(phase, cap, &format!("asked again with {larger}")),
    )
}

/// Closing marks that may follow a sentence's end and still belong to it.
const CLOSERS: &[char] = &['"', '\'', '”', '’', ')', ']', '»', '*', '_'];

/// The byte just after the last full sentence of `text`: a `.`, `!`, `?` or `…` (with any
/// closing quotes or brackets after it) followed by whitespace or the end of the text, or a
/// line break. `None` when the text holds no full sentence.
pub(crate) fn last_full_sentence(text: &str) -> Option<usize> {
    let trimmed = text.trim_end();
    let mut last = None;
    let mut chars = trimmed.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\n' {
            // A line break ends a line of a list or a paragraph: what is before it is whole.
            if !trimmed[..at].trim().is_empty() {
                last = Some(trimmed[..at].trim_end().len());
            }
            continue;
        }
        if !matches!(c, '.' | '!' | '?' | '…') {
            continue;
        }
        let mut end = at + c.len_utf8();
        while let Some(&(next_at, next)) = chars.peek() {
            if matches!(next, '.' | '!' | '?' | '…') || CLOSERS.contains(&next) {
                end = next_at + next.len_utf8();
                chars.next();
            } else {
                break;
            }
        }
        match chars.peek() {
            None => last = Some(end),
            Some(&(_, next)) if next.is_whitespace() => last = Some(end),
            _ => {}
        }
    }
    last
}

/// A prose answer cut by the output cap, ended cleanly: up to its last full sentence; without
/// one, what there is less its last (maybe cut) word, ended with an ellipsis. Never ends
/// mid-word, and is empty only when `text` has no words at all.
pub(crate) fn end_at_sentence(text: &str) -> String {
    if let Some(end) = last_full_sentence(text) {
        return text[..end].trim().to_owned();
    }
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    // The last word may have been cut mid-way: drop it, unless it is the only one.
    let whole = match text.rfind(char::is_whitespace) {
        Some(at) => text[..at].trim_end(),
        None => text,
    };
    let whole = whole.trim_end_matches(|c: char| c.is_ascii_punctuation() && !CLOSERS.contains(&c));
    let whole = if whole.is_empty() { text } else { whole };
    format!("{whole}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_narration_ends_at_its_last_full_sentence() {
        assert_eq!(
            end_at_sentence("The door creaks open. A cold wind blows out of the dark, carry"),
            "The door creaks open."
        );
        assert_eq!(
            end_at_sentence("\"Halt!\" the guard shouts. He lowers his spe"),
            "\"Halt!\" the guard shouts."
        );
        assert_eq!(
            end_at_sentence("You wait… Nothing moves. The to"),
            "You wait… Nothing moves."
        );
        // A decimal point or an abbreviation inside a word is not a sentence's end.
        assert_eq!(
            end_at_sentence("It weighs 2.5 pounds. The e.g"),
            "It weighs 2.5 pounds."
        );
        // A line of a list is whole once its line break has come.
        assert_eq!(
            end_at_sentence("You see:\n- a rope\n- a lan"),
            "You see:\n- a rope"
        );
        // A text that ends on a sentence's end is whole.
        assert_eq!(end_at_sentence("All is quiet. "), "All is quiet.");
    }

    #[test]
    fn without_a_full_sentence_the_words_kept_end_with_an_ellipsis() {
        assert_eq!(
            end_at_sentence("The goblin raises its rusty sc"),
            "The goblin raises its rusty…"
        );
        assert_eq!(
            end_at_sentence("You step forward, and"),
            "You step forward…"
        );
        assert_eq!(end_at_sentence("Slowly, "), "Slowly…");
        assert_eq!(end_at_sentence("Aaaaargh"), "Aaaaargh…");
        assert_eq!(end_at_sentence("  "), "");
    }

    #[test]
    fn the_last_full_sentence_is_found_after_closing_marks() {
        assert_eq!(last_full_sentence("Run!\" she"), Some(5));
        assert_eq!(last_full_sentence("(It is locked.) Then"), Some(15));
        assert_eq!(last_full_sentence("no end here"), None);
        assert_eq!(last_full_sentence("v1.2"), None);
    }

    #[test]
    fn the_retry_doubles_the_cap_without_overflow() {
        assert_eq!(OutputCaps::retry(350), 700);
        assert_eq!(OutputCaps::retry(u32::MAX), u32::MAX);
        let uniform = OutputCaps::uniform(64);
        assert_eq!((uniform.summary, uniform.player_line), (64, 64));
    }
}
