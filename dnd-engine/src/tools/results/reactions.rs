//! What the reaction window gives back: a declaration of standing reactions, and a reaction
//! the engine cast during a monster's turn (shown in that turn's events).

use serde::{Deserialize, Serialize};

use crate::rules::CheckResult;
use crate::state::StandingReaction;

/// `declare_reactions`: what the character will now cast, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReactionsDeclared {
    /// The character's name.
    pub character: String,
    /// Its standing reactions now (empty: none).
    pub reactions: Vec<StandingReaction>,
    /// The slots it has left to cast them with.
    pub slots_left: String,
}

/// A reaction the engine played: a hero's standing reaction during a monster's turn, or a
/// monster's own (its Parry, a mage's Shield or Counterspell) during a hero's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReactionCast {
    /// Who reacted (a character's or a monster's name).
    pub by: String,
    /// The reaction ("Shield", "Counterspell", "Parry").
    pub reaction: String,
    /// The slot it spent; `None` for a reaction that is no spell (Parry).
    pub slot_level: Option<u8>,
    /// What it did, in a sentence ("the goblin's 17 now misses AC 20: no damage").
    pub outcome: String,
    /// Whether it did what it is cast for: the hit turned into a miss, the spell stopped.
    pub succeeded: bool,
    /// Counterspell's ability check against DC 10 + the spell's level, when one was needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckResult>,
    /// The slots it has left, after a spell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_left: Option<String>,
}
