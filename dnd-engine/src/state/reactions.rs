//! Standing reactions: what a character will cast as a reaction when its trigger comes during
//! monsters' turns (Shield when hit, Counterspell when a creature casts a spell), declared
//! ahead because a monster's turn runs inside one tool call and the player cannot interject.
//! The declaration is a [`Change::ReactionsDeclared`](super::Change::ReactionsDeclared); the
//! engine casts it only when it is legal then (`tools/reactions.rs`).

use serde::{Deserialize, Serialize};

/// What sets off a standing reaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReactionTrigger {
    /// The character is hit by a monster's attack (Shield).
    Hit,
    /// A creature within the spell's range casts a spell (Counterspell).
    SpellCast,
    /// A creature the character can see, within the spell's range, damages it (Hellish
    /// Rebuke).
    Damaged,
}

impl ReactionTrigger {
    /// The trigger's name as the tool takes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hit => "hit",
            Self::SpellCast => "spell_cast",
            Self::Damaged => "damaged",
        }
    }
}

/// One spell a character will cast as its reaction when `when` happens.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandingReaction {
    /// The spell, as on the character's sheet ("Shield", "Counterspell").
    #[schemars(extend("description" = ""))]
    pub spell: String,
    /// What sets it off.
    #[schemars(extend("description" = ""))]
    pub when: ReactionTrigger,
}
