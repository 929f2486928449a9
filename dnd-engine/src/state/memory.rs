//! The facts a story must not forget, kept by code in structured form.
//!
//! A summary in prose can drop or garble a fact; a model can forget one that scrolled out of
//! its window. These lists are kept by code from the story log (promises, names, discoveries,
//! quests), and what can be read off the state itself (who is dead) is read from it, so the
//! dead stay dead however long the campaign runs. Each list keeps its most recent entries only,
//! so the memory block stays the same size.

use serde::{Deserialize, Serialize};

/// How many entries each list keeps.
pub const MEMORY_LIST_LIMIT: usize = 12;

/// A fact for the memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum MemoryFact {
    /// Something promised, by or to the party.
    Promise(String),
    /// Someone the party has met, by name.
    NameMet(String),
    /// Something found out.
    Discovery(String),
    /// A goal the party took on.
    Quest(String),
}

/// The structured memory of a campaign.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// Promises made, most recent last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub promises: Vec<String>,
    /// Names met, in the order met.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names_met: Vec<String>,
    /// Discoveries, most recent last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discoveries: Vec<String>,
    /// Quests taken on, most recent last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quests: Vec<String>,
}

impl Memory {
    /// Adds a fact; an exact repeat is ignored, and each list keeps its newest entries.
    pub fn remember(&mut self, fact: &MemoryFact) {
        let (list, text) = match fact {
            MemoryFact::Promise(t) => (&mut self.promises, t),
            MemoryFact::NameMet(t) => (&mut self.names_met, t),
            MemoryFact::Discovery(t) => (&mut self.discoveries, t),
            MemoryFact::Quest(t) => (&mut self.quests, t),
        };
        if text.trim().is_empty() || list.iter().any(|t| t == text) {
            return;
        }
        list.push(text.clone());
        if list.len() > MEMORY_LIST_LIMIT {
            list.remove(0);
        }
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.promises.is_empty()
            && self.names_met.is_empty()
            && self.discoveries.is_empty()
            && self.quests.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_bounded_and_deduplicated() {
        let mut m = Memory::default();
        for i in 0..40 {
            m.remember(&MemoryFact::Promise(format!("promise {i}")));
            m.remember(&MemoryFact::Promise(format!("promise {i}")));
        }
        assert_eq!(m.promises.len(), MEMORY_LIST_LIMIT);
        assert_eq!(m.promises.last().map(String::as_str), Some("promise 39"));
        m.remember(&MemoryFact::NameMet("  ".into()));
        assert!(m.names_met.is_empty());
    }
}
