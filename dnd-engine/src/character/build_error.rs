//! Why a character cannot be built: one [`BuildError`] per problem, each naming the field
//! (a path into the character file, as the adventure format does) and what is allowed.

use std::fmt;

/// One problem with a character's choices.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct BuildError {
    /// Where the problem is, as a path into the character file (`scores.scores.str`, `skills[2]`).
    pub field: String,
    /// What is wrong, and what is allowed.
    pub problem: Problem,
}

/// What is wrong with one choice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A name that is not among the choices (a race, class, background, skill, spell, item).
    #[error("{given:?} is not a {what} that can be chosen here; choose one of: {}", allowed.join(", "))]
    NotAllowed {
        /// What kind of thing ("race", "class skill", "wizard spell").
        what: String,
        /// The name given.
        given: String,
        /// What may be chosen.
        allowed: Vec<String>,
    },
    /// A number outside its range (a level, a score, an option number).
    #[error("{given} is out of range: allowed {min} to {max}")]
    OutOfRange {
        /// The number given.
        given: i64,
        /// The least allowed.
        min: i64,
        /// The most allowed.
        max: i64,
    },
    /// Point buy spending more than the budget.
    #[error(
        "the scores cost {spent} points; point buy allows {budget} (8 costs 0, 9-13 one more each, 14 costs 7, 15 costs 9)"
    )]
    OverBudget {
        /// Points the scores cost.
        spent: u32,
        /// The budget (27).
        budget: u32,
    },
    /// The scores are not the required set in some order (the standard array, the rolls).
    #[error("the scores {given:?} must be {expected:?} in any order")]
    NotTheSet {
        /// The scores given, STR to CHA.
        given: Vec<i32>,
        /// The set required.
        expected: Vec<i32>,
    },
    /// The wrong number of picks.
    #[error("{given} chosen; {what} takes {expected}")]
    WrongCount {
        /// What is picked ("class skills").
        what: String,
        /// How many were picked.
        given: usize,
        /// How many are allowed.
        expected: usize,
    },
    /// More picks than allowed.
    #[error("{given} chosen; {what} allows at most {most}")]
    TooMany {
        /// What is picked ("prepared spells").
        what: String,
        /// How many were picked.
        given: usize,
        /// The most allowed.
        most: usize,
    },
    /// The same thing picked twice, or already had from elsewhere.
    #[error("{given:?} is chosen twice or already given by {by}")]
    Duplicate {
        /// The name.
        given: String,
        /// What already gives it.
        by: String,
    },
    /// Something that comes later: a subclass or feature above the level, a spell above the
    /// highest slot.
    #[error("{what} comes at level {needed}; this character is level {level}")]
    TooEarly {
        /// What it is ("subclass Champion", "feature Extra Attack", "2nd-level spell Aid").
        what: String,
        /// The level it needs (a class level, or a spell level for spells).
        needed: u8,
        /// The character's (class or highest slot) level.
        level: u8,
    },
    /// A spell of a level the character has no slot for.
    #[error(
        "{spell} is a level-{spell_level} spell; this character's highest spell slot is level {highest}"
    )]
    AboveSlots {
        /// The spell.
        spell: String,
        /// Its level.
        spell_level: u8,
        /// The highest slot level the character has (0: none).
        highest: u8,
    },
    /// A choice the character must make was not made.
    #[error("missing: {what}")]
    Missing {
        /// What must be chosen, with the options.
        what: String,
    },
}

/// Every problem found with a character's choices (never empty).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct BuildErrors(pub Vec<BuildError>);

impl fmt::Display for BuildErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(f, "{n} problem{}:", if n == 1 { "" } else { "s" })?;
        for e in &self.0 {
            write!(f, "\n- {e}")?;
        }
        Ok(())
    }
}

impl BuildErrors {
    /// Whether some problem is at `field`.
    pub fn at(&self, field: &str) -> Option<&Problem> {
        self.0.iter().find(|e| e.field == field).map(|e| &e.problem)
    }
}

/// Collects problems while building.
#[derive(Debug, Default)]
pub(crate) struct Problems(pub(crate) Vec<BuildError>);

impl Problems {
    pub(crate) fn add(&mut self, field: impl Into<String>, problem: Problem) {
        self.0.push(BuildError {
            field: field.into(),
            problem,
        });
    }

    pub(crate) fn not_allowed(
        &mut self,
        field: impl Into<String>,
        what: impl Into<String>,
        given: impl Into<String>,
        allowed: impl IntoIterator<Item = impl Into<String>>,
    ) {
        self.add(
            field,
            Problem::NotAllowed {
                what: what.into(),
                given: given.into(),
                allowed: allowed.into_iter().map(Into::into).collect(),
            },
        );
    }
}
