//! Puzzles as data: a riddle or a lock-with-a-word ([`Puzzle`]) with the answers it accepts,
//! judged by the engine ([`answer_matches`]), never by the model; how far the party has got
//! with each ([`PuzzleTries`]); and the change that records an answer
//! ([`Change::PuzzleAnswered`](super::Change::PuzzleAnswered)).
//!
//! # Forgiving matching
//!
//! A player says "The answer is ice!", "Ices?" or "the glaicer": each should count when the
//! answer is "ice" or "the glacier". Both the words given and each accepted answer are read
//! the same way before they are compared:
//!
//! - case and punctuation do not count ("Ice!" is "ice"; "it's" is "its");
//! - articles and the filler words of a spoken answer are dropped ("a", "an", "the", "answer",
//!   "is", "it", "its", "i", "say", "think", "guess", "my", "you", "are", "must", "be");
//! - then the remaining words must match one for one, in order: equal, or equal once a plural
//!   "s" or "es" is taken from either, or (for an accepted word of 5 letters or more) one typo
//!   apart: a letter added, dropped, changed, or two neighbours swapped.
//!
//! A list of guesses ("ice, fire or stone") has more words than the answer and never matches.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use super::{GameState, StoryEffect};

/// A riddle or a word-lock in an adventure: where it is asked, what it accepts, and what
/// answering it does. Its answers never reach the model, a tool's result or the snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// Stable id, unique in the adventure ("sigrun-riddle").
    pub id: String,
    /// The room it is asked in (for a puzzle asked by an NPC: where the NPC starts).
    pub room: String,
    /// The NPC who asks it, if any: then it is before the party wherever that NPC stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<String>,
    /// The question, shown to the model once the party is before the puzzle.
    pub question: String,
    /// The answers accepted (at least one), matched forgivingly (see the module's rules).
    pub answers: Vec<String>,
    /// Whether a one-word answer is a secret narration must not say before it is solved.
    /// Answers of two words or more (articles aside) are always kept out of narration.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secret: bool,
    /// How many wrong answers it takes before it locks for good (none: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// What happens when it is answered right.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_success: Vec<StoryEffect>,
    /// What happens on each wrong answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<StoryEffect>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How far the party has got with one puzzle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleTries {
    /// Wrong answers given.
    #[serde(default)]
    pub failed: u32,
    /// Whether it has been answered right.
    #[serde(default)]
    pub solved: bool,
}

impl Puzzle {
    /// Wrong answers left before it locks (`None`: no limit).
    pub fn attempts_left(&self, tries: PuzzleTries) -> Option<u32> {
        self.attempts.map(|a| a.saturating_sub(tries.failed))
    }

    /// Whether `given` (the player's words) is one of its answers.
    pub fn accepts(&self, given: &str) -> bool {
        self.answers.iter().any(|a| answer_matches(given, a))
    }
}

/// Words dropped from both sides before comparing: articles and a spoken answer's filler.
const FILLER: &[&str] = &[
    "a", "an", "the", "answer", "is", "it", "its", "i", "say", "think", "guess", "my", "you",
    "are", "must", "be",
];

/// The words of `text` that carry an answer: lower case, without punctuation or filler.
pub fn answer_words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['\'', '’'], "")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !FILLER.contains(w))
        .map(str::to_owned)
        .collect()
}

/// Whether the player's words `given` match the accepted answer `accepted` (the module's
/// rules). An answer with no words left after filler (a blank) never matches.
pub fn answer_matches(given: &str, accepted: &str) -> bool {
    let given = answer_words(given);
    let accepted = answer_words(accepted);
    !accepted.is_empty()
        && given.len() == accepted.len()
        && given.iter().zip(&accepted).all(|(g, a)| word_matches(g, a))
}

/// One word against one accepted word, both as [`answer_words`] gives them: equal, a plural
/// of it, or one typo from it (5+ letters).
pub fn word_matches(given: &str, accepted: &str) -> bool {
    let forms = |w: &str| {
        let mut out = vec![w.to_owned()];
        for suffix in ["s", "es"] {
            if let Some(stem) = w.strip_suffix(suffix).filter(|s| s.len() >= 2) {
                out.push(stem.to_owned());
            }
        }
        out
    };
    let long = accepted.chars().count() >= 5;
    forms(given).iter().any(|g| {
        forms(accepted)
            .iter()
            .any(|a| g == a || (long && one_typo_apart(g, a)))
    })
}

/// At most one edit apart, an adjacent swap counting as one (optimal string alignment).
fn one_typo_apart(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()] <= 1
}

impl GameState {
    /// How far the party has got with the puzzle `id`.
    pub fn puzzle_tries(&self, id: &str) -> PuzzleTries {
        self.story.puzzle_tries.get(id).copied().unwrap_or_default()
    }

    /// The puzzles before the party now, unsolved and not locked: those asked by an NPC
    /// standing where the party is, and the others of the party's room.
    pub fn puzzles_here(&self) -> Vec<&Puzzle> {
        let Some(here) = self.party_location().map(|l| l.id.as_str()) else {
            return Vec::new();
        };
        self.story
            .puzzles
            .iter()
            .filter(|p| match &p.npc {
                Some(npc) => self.npc(npc).is_some_and(|n| n.location == here),
                None => p.room == here,
            })
            .filter(|p| {
                let tries = self.puzzle_tries(&p.id);
                !tries.solved && p.attempts_left(tries) != Some(0)
            })
            .collect()
    }
}

/// Applies [`Change::PuzzleAnswered`](super::Change::PuzzleAnswered): refused for a puzzle
/// that does not exist, is solved, or has no attempt left.
pub(super) fn answered(
    state: &mut GameState,
    puzzle: &str,
    solved: bool,
) -> Result<(), ChangeError> {
    let Some(p) = state.story.puzzles.iter().find(|p| p.id == puzzle) else {
        return Err(ChangeError::Invalid(format!("no puzzle {puzzle:?}")));
    };
    let tries = state.puzzle_tries(puzzle);
    if tries.solved {
        return Err(ChangeError::Invalid(format!(
            "the puzzle {puzzle:?} is already solved"
        )));
    }
    if p.attempts_left(tries) == Some(0) {
        return Err(ChangeError::Invalid(format!(
            "the puzzle {puzzle:?} has no attempts left"
        )));
    }
    let story = Arc::make_mut(&mut state.story);
    let entry: &mut PuzzleTries = story.puzzle_tries.entry(puzzle.to_owned()).or_default();
    if solved {
        entry.solved = true;
    } else {
        entry.failed += 1;
    }
    Ok(())
}

/// The tries of every puzzle, by id (the type of [`super::Story::puzzle_tries`]).
pub type PuzzleProgress = BTreeMap<String, PuzzleTries>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgiving_matching() {
        for (given, accepted) in [
            ("Ice", "ice"),
            ("The answer is ice!", "ice"),
            ("ices", "ice"),
            ("glacier", "the glacier"),
            ("A glaicer.", "the glacier"),
            ("glaciers", "the glacier"),
            ("It's a candle", "candle"),
            ("candel", "candle"),
            ("an echo", "echoes"),
            ("river of stars", "the river of stars"),
        ] {
            assert!(answer_matches(given, accepted), "{given} / {accepted}");
        }
        for (given, accepted) in [
            ("ise", "ice"),
            ("fire", "ice"),
            ("ice, fire or stone", "ice"),
            ("the", "the glacier"),
            ("", "ice"),
            ("glcaier x", "glacier"),
            ("glaxxer", "glacier"),
        ] {
            assert!(!answer_matches(given, accepted), "{given} / {accepted}");
        }
    }
}
