//! The one error type of the dice engine.
//!
//! Every message says what was wrong, where (a 1-based column for the person who typed it; the
//! byte offset is in the variant for programs), and what is accepted instead, so a chat bot
//! can show it verbatim to a player.

use thiserror::Error;

/// Why a dice expression could not be parsed, rolled or analysed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DiceError {
    /// The text is not a dice expression of the chosen dialect.
    #[error("column {column}: expected {expected}, found {found}", column = .position + 1)]
    Syntax {
        /// Byte offset into the expression where the problem starts.
        position: usize,
        /// What the parser would have accepted here.
        expected: String,
        /// What it found instead (quoted text, or "the end of the expression").
        found: String,
    },
    /// The expression is well-formed but asks for more than the engine allows.
    #[error("column {column}: {what} is {value}, over the limit of {max}", column = .position + 1)]
    Limit {
        /// Byte offset of the offending part.
        position: usize,
        /// What is over the limit ("the number of dice", "the number of sides", ...).
        what: &'static str,
        /// The value that was asked for.
        value: u64,
        /// The largest value accepted.
        max: u64,
    },
    /// A number in the expression is too large even to hold (more than 64 bits), so it is
    /// refused rather than clamped to something the player did not write.
    #[error(
        "column {column}: {what} is too large ({digits} digits); the largest accepted is {max}",
        column = .position + 1
    )]
    NumberTooLarge {
        /// Byte offset of the number.
        position: usize,
        /// Which number it is ("the number of sides", "the count after kh", ...).
        what: &'static str,
        /// How many digits it was written with (the number itself may be too long to echo).
        digits: usize,
        /// The largest value accepted in its place.
        max: u64,
    },
    /// The expression is well-formed but means something impossible: a zero-sided die, a
    /// reroll or explosion that can never stop, a selector an operator does not take.
    #[error("column {column}: {message}", column = .position + 1)]
    Invalid {
        /// Byte offset of the offending part.
        position: usize,
        /// What is wrong and what would be accepted.
        message: String,
    },
    /// Rolling needed more dice than the roll budget allows (rerolls and explosions count).
    #[error(
        "this roll needed more than {budget} dice (rerolls and explosions count); \
         roll fewer dice or loosen the reroll/explode condition"
    )]
    TooManyRolls {
        /// The budget that was exceeded.
        budget: u32,
    },
    /// A [`FixedFaces`](super::FixedFaces) replay had no face left, or a face that does not
    /// fit the die being rolled.
    #[error(
        "the die source had no face for a d{sides}: the replay ran out of faces or held a face outside 1..={sides}"
    )]
    SourceExhausted {
        /// Sides of the die that could not be rolled.
        sides: u32,
    },
    /// A division or modulo by zero happened while rolling or analysing.
    #[error("division by zero: the right-hand side of `/`, `//` or `%` was 0")]
    DivisionByZero,
    /// The result is too large to be represented exactly.
    #[error("the result is too large (beyond ±2^53); use smaller numbers")]
    OutOfRange,
    /// The exact distribution of this expression cannot be computed.
    #[error("no exact distribution: {reason}")]
    Unsupported {
        /// Which construct is not supported and what to do instead.
        reason: String,
    },
}

impl DiceError {
    /// Builds a [`DiceError::Syntax`] error.
    pub(crate) fn syntax(position: usize, expected: impl Into<String>, found: String) -> Self {
        DiceError::Syntax {
            position,
            expected: expected.into(),
            found,
        }
    }

    /// Builds a [`DiceError::Invalid`] error.
    pub(crate) fn invalid(position: usize, message: impl Into<String>) -> Self {
        DiceError::Invalid {
            position,
            message: message.into(),
        }
    }

    /// Builds a [`DiceError::Unsupported`] error.
    pub(crate) fn unsupported(reason: impl Into<String>) -> Self {
        DiceError::Unsupported {
            reason: reason.into(),
        }
    }

    /// The byte offset in the expression this error points at, when it points at one.
    pub fn position(&self) -> Option<usize> {
        match self {
            DiceError::Syntax { position, .. }
            | DiceError::Limit { position, .. }
            | DiceError::NumberTooLarge { position, .. }
            | DiceError::Invalid { position, .. } => Some(*position),
            _ => None,
        }
    }
}

/// What can go wrong while rolling, kept small so the roller's results fit in registers; the
/// public API turns it into a [`DiceError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    TooManyRolls(u32),
    DivisionByZero,
    SourceExhausted(u32),
}

impl From<Fault> for DiceError {
    fn from(fault: Fault) -> Self {
        match fault {
            Fault::TooManyRolls(budget) => DiceError::TooManyRolls { budget },
            Fault::DivisionByZero => DiceError::DivisionByZero,
            Fault::SourceExhausted(sides) => DiceError::SourceExhausted { sides },
        }
    }
}
