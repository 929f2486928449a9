//! The result of `answer_puzzle`.

use serde::{Deserialize, Serialize};

/// A puzzle answered: right or wrong, never what the right answer was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleAnswered {
    /// Who answered, by name.
    pub character: String,
    /// The puzzle's id.
    pub puzzle: String,
    /// Whether the answer was right.
    pub solved: bool,
    /// Wrong answers left before it locks, after a wrong one with a limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts_left: Option<u32>,
    /// Whether that was the last attempt: it stays unsolved for good.
    #[serde(default)]
    pub locked: bool,
    /// What the story did because of it (its effects the party witnessed), then what that set
    /// in motion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub story: Vec<String>,
}
