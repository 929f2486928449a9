//! What is wrong with an adventure: each [`Problem`] with its path, all of them in an
//! [`AdventureError`].

use std::fmt;

/// One thing wrong with an adventure file: where, and what.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Problem {
    /// Where: `rooms[ice-chasm].exits[north].to`; empty for the file as a whole.
    pub path: String,
    /// What was wrong and what would be valid.
    pub message: String,
}

impl Problem {
    pub(super) fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Why an adventure could not be loaded or started: every problem found, each displayed on
/// its own line as `file: path: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdventureError {
    /// The file (or other source) the adventure came from.
    pub source_name: String,
    /// Everything wrong with it (never empty).
    pub problems: Vec<Problem>,
}

impl AdventureError {
    pub(super) fn one(
        source_name: &str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        AdventureError {
            source_name: source_name.to_owned(),
            problems: vec![Problem::new(path, message)],
        }
    }
}

impl fmt::Display for AdventureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}: {problem}", self.source_name)?;
        }
        Ok(())
    }
}

impl std::error::Error for AdventureError {}
