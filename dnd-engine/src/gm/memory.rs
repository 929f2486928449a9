//! Keeping the prompt the same size however long the campaign runs: folding old turns into the
//! summary, the structured memory code keeps, and the check that narration leaked nothing.

use serde::{Deserialize, Serialize};

use super::{GameMaster, GmError, TraceStep};
use crate::llm::{CompletionRequest, LlmError, Message, Usage, window};
use crate::state::{Change, GameState, MemoryFact, StoryKind};
use crate::store::HistoryEntry;
use crate::text::floor_char_boundary;

/// Who folds old turns into the campaign summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Summarizer {
    /// One call through the game's own provider.
    #[default]
    Llm,
    /// Code: the turns' story events appended to the summary, which is kept within a bound
    /// (used with the offline game master, and when tokens matter more than prose).
    Code,
}

/// The longest summary code keeps, in bytes (about 400 tokens).
pub const SUMMARY_MAX_BYTES: usize = 1_600;

/// The first part of a summary that folding never drops (the premise), in bytes.
const SUMMARY_HEAD_BYTES: usize = 500;

/// What the folded turns say, one line each: their story events, or else the narration's
/// first sentence.
pub fn folded_lines(entries: &[HistoryEntry]) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in entries {
        if entry.record.events.is_empty() {
            if let Some(gm) = entry
                .record
                .player_messages
                .iter()
                .rfind(|l| l.speaker == "gm")
            {
                let first = gm
                    .text
                    .split_inclusive(['.', '!', '?'])
                    .next()
                    .unwrap_or(&gm.text);
                if !first.trim().is_empty() {
                    lines.push(first.trim().to_owned());
                }
            }
        } else {
            lines.extend(entry.record.events.iter().map(|e| e.text.trim().to_owned()));
        }
    }
    lines
}

/// Appends `lines` to `summary` and keeps the result within [`SUMMARY_MAX_BYTES`]. The premise
/// (everything before the first blank line, at most 500 bytes) stays; after it, the oldest
/// folded sentences go first.
///
/// A supported API: what [`Summarizer::Code`] does with each fold, and what a scripted model
/// may answer a summary request with to stay within the same bound (the wire example does).
pub fn fold_by_code(summary: &str, lines: &[String]) -> String {
    let (head, tail) = match summary.split_once("\n\n") {
        Some((head, tail)) => (head, tail),
        None => (summary, ""),
    };
    let head = &head[..floor_char_boundary(head, SUMMARY_HEAD_BYTES.min(head.len()))];
    let mut tail = tail.trim().to_owned();
    for line in lines {
        if !tail.is_empty() {
            tail.push(' ');
        }
        tail.push_str(line);
        if !line.ends_with(['.', '!', '?']) {
            tail.push('.');
        }
    }
    let room = SUMMARY_MAX_BYTES.saturating_sub(head.len() + 2);
    if tail.len() > room {
        let cut = floor_char_boundary(&tail, tail.len() - room);
        // Start at the next sentence, so the tail does not begin mid-word.
        let start = tail[cut..].find(". ").map_or(cut, |i| cut + i + 2);
        tail = tail[start..].to_owned();
    }
    if tail.is_empty() {
        head.trim().to_owned()
    } else {
        format!("{}\n\n{}", head.trim(), tail.trim())
    }
}

/// The memory changes this turn implies: its promise, discovery and quest events, and the
/// names of the NPCs where the party now stands.
pub fn memory_changes(state: &GameState, events: &[crate::state::StoryEvent]) -> Vec<Change> {
    let mut changes = Vec::new();
    for event in events {
        let fact = match event.kind {
            StoryKind::Promise => MemoryFact::Promise(event.text.clone()),
            StoryKind::Discovery => MemoryFact::Discovery(event.text.clone()),
            StoryKind::Quest => MemoryFact::Quest(event.text.clone()),
            _ => continue,
        };
        changes.push(Change::Remembered { fact });
    }
    let here = state
        .party_location()
        .map(|l| l.id.as_str())
        .unwrap_or_default();
    for npc in state.npcs.iter().filter(|n| n.location == here) {
        if !state.memory.names_met.contains(&npc.name) {
            changes.push(Change::Remembered {
                fact: MemoryFact::NameMet(npc.name.clone()),
            });
        }
    }
    changes
}

/// The memory block for the context: who is dead, and the kept lists.
pub fn memory_block(state: &GameState) -> Option<String> {
    let dead: Vec<&str> = state
        .monsters
        .iter()
        .filter(|m| m.revealed && !m.is_alive())
        .map(|m| m.name.as_str())
        .chain(
            state
                .characters
                .iter()
                .filter(|c| c.dead)
                .map(|c| c.name.as_str()),
        )
        .collect();
    let m = &state.memory;
    if dead.is_empty() && m.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    let mut add = |label: &str, items: &[&str]| {
        if !items.is_empty() {
            lines.push(format!("{label}: {}", items.join("; ")));
        }
    };
    add("Dead (they stay dead)", &dead);
    add(
        "Promises",
        &m.promises.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    add(
        "Names met",
        &m.names_met.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    add(
        "Discoveries",
        &m.discoveries.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    add(
        "Quests",
        &m.quests.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    Some(format!("Memory (kept by code):\n{}", lines.join("\n")))
}

/// The summariser's request: the summary so far and the lines to fold into it.
fn summary_request(summary: &str, lines: &[String], cap: u32) -> CompletionRequest {
    let prompt = format!(
        "The campaign summary so far:\n{summary}\n\nWhat happened since:\n- {}\n\nWrite the new summary: at most 150 words, past tense, keeping names, deaths, promises and open goals. Answer with the summary only.",
        lines.join("\n- ")
    );
    let mut request = CompletionRequest::new(vec![
        Message::system("You keep the summary of a Dungeons & Dragons campaign."),
        Message::user(prompt),
    ]);
    request.max_tokens = Some(cap);
    request
}

impl GameMaster {
    /// Folds turns that left the history window into the summary, by code or by one call.
    ///
    /// The call fits the model's context window: the oldest lines that would not fit are
    /// folded by code ([`fold_by_code`]) into the summary it is sent, the rest by the model. A
    /// refusal for context length is tried once more with three quarters of the prompt; if the
    /// model still cannot take it, code folds everything (the turn goes on).
    pub(super) async fn fold_summary(
        &self,
        summary: &str,
        folded: &[HistoryEntry],
        usage: &mut Usage,
        trace: &mut Vec<TraceStep>,
    ) -> Result<String, GmError> {
        let lines = folded_lines(folded);
        if self.summarizer == Summarizer::Code {
            return Ok(fold_by_code(summary, &lines));
        }
        let mut budget = self.provider.context_window().await.map(|tokens| {
            window::prompt_budget(tokens, &summary_request("", &[], self.caps.summary))
        });
        let mut retried = false;
        loop {
            let (mut base, mut rest) = (summary.to_owned(), lines.as_slice());
            let mut request = summary_request(&base, rest, self.caps.summary);
            while let Some(budget) = budget
                && window::request_tokens(&request) > budget
            {
                let Some((first, later)) = rest.split_first() else {
                    trace.push(TraceStep::Note {
                        text: format!("the summary alone is over the model's context window ({budget} prompt tokens); folded by code"),
                    });
                    return Ok(fold_by_code(summary, &lines));
                };
                base = fold_by_code(&base, std::slice::from_ref(first));
                rest = later;
                request = summary_request(&base, rest, self.caps.summary);
            }
            if rest.len() < lines.len() {
                trace.push(TraceStep::Note {
                    text: format!(
                        "{} of {} lines folded into the summary by code to fit the model's context window",
                        lines.len() - rest.len(),
                        lines.len()
                    ),
                });
            }
            let started = std::time::Instant::now();
            let response = match self.provider.complete(&request).await {
                Ok(response) => response,
                Err(error @ LlmError::ContextLength { .. }) => {
                    let tokens = window::request_tokens(&request);
                    let note = if retried {
                        format!(
                            "the summariser's prompt was refused again as too long ({error}); folded by code"
                        )
                    } else {
                        format!(
                            "the summariser's prompt of about {tokens} tokens was refused as too long ({error}); trying once more cut to three quarters"
                        )
                    };
                    trace.push(TraceStep::Note { text: note });
                    if retried {
                        return Ok(fold_by_code(summary, &lines));
                    }
                    retried = true;
                    budget = Some(window::smaller_budget(tokens));
                    continue;
                }
                Err(error) => return Err(GmError::Provider(error)),
            };
            *usage += response.usage;
            trace.push(TraceStep::ProviderCall {
                phase: "summary".into(),
                round: 1,
                micros: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
                usage: response.usage,
                finish_reason: response.finish_reason.as_str().to_owned(),
                max_tokens: Some(self.caps.summary),
            });
            let mut text = response.text().unwrap_or_default().trim().to_owned();
            if response.finish_reason == crate::llm::FinishReason::Length {
                text = super::caps::end_at_sentence(&text);
                trace.push(TraceStep::Note {
                    text: super::caps::cut_note(
                        "summary",
                        self.caps.summary,
                        "it ends at its last full sentence",
                    ),
                });
            }
            // An empty or runaway answer is no summary: fall back to code.
            return if text.is_empty() || text.len() > SUMMARY_MAX_BYTES * 2 {
                Ok(fold_by_code(&base, rest))
            } else {
                Ok(text)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_folding_keeps_the_premise_and_stays_bounded() {
        let premise = "A wailing rolls down the glacier every dusk.";
        let mut summary = premise.to_owned();
        for turn in 0..500 {
            summary = fold_by_code(&summary, &[format!("On turn {turn} the hero did a thing")]);
            assert!(summary.len() <= SUMMARY_MAX_BYTES, "{}", summary.len());
        }
        assert!(summary.starts_with(premise));
        assert!(
            summary.ends_with("turn 499 the hero did a thing."),
            "{summary}"
        );
        assert!(!summary.contains("turn 3 "));
    }
}
