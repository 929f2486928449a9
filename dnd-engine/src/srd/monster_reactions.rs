//! A monster's reactions as the stat block lists them, each with the rule the engine plays it
//! by where it has one (a knight's Parry), read from the bundled data's `rule` or, for the
//! 5e-database's monsters, from the description's numbers ([`ReactionRule::read`]).

use serde::{Deserialize, Serialize};

/// One reaction of a monster's stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterReaction {
    /// Its name ("Parry").
    pub name: String,
    /// What it does, in words.
    pub description: String,
    /// How the engine plays it; `None`: the narrator's (a shrieker's Shriek).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<ReactionRule>,
}

/// A reaction the engine plays for a monster during a hero's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReactionRule {
    /// Against one melee attack it can see that would hit it, while it wields a melee weapon:
    /// `ac_bonus` more AC against that attack (Parry).
    Parry {
        /// The AC it adds.
        ac_bonus: i32,
    },
}

impl ReactionRule {
    /// The rule a description states, for data that does not write one: "adds N to its AC
    /// against that attack" about a melee attack is a parry of N.
    pub fn read(description: &str) -> Option<ReactionRule> {
        let text = description.to_ascii_lowercase();
        if !text.contains("melee attack") {
            return None;
        }
        let (_, after) = text.split_once("adds ")?;
        let (number, rest) = after.split_once(' ')?;
        let ac_bonus: i32 = number.parse().ok()?;
        rest.starts_with("to its ac")
            .then_some(ReactionRule::Parry { ac_bonus })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parry_is_read_from_its_description_and_nothing_else_is() {
        let knight = "The knight adds 2 to its AC against one melee attack that would hit it. To do so, the knight must see the attacker and be wielding a melee weapon.";
        assert_eq!(
            ReactionRule::read(knight),
            Some(ReactionRule::Parry { ac_bonus: 2 })
        );
        let gladiator = "When a melee attack it can see would hit it while it wields a melee weapon, the gladiator adds 3 to its AC against that attack.";
        assert_eq!(
            ReactionRule::read(gladiator),
            Some(ReactionRule::Parry { ac_bonus: 3 })
        );
        assert_eq!(ReactionRule::read("It screams loudly."), None);
        assert_eq!(
            ReactionRule::read("A ranged attack: it adds 2 to its AC."),
            None
        );
    }
}
