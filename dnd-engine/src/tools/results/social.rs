//! What `social_check` and `talk_to` give back.

use serde::{Deserialize, Serialize};

use crate::state::Disposition;

/// A social check: who spoke to whom, the roll's total (never its DC), and what came of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocialChecked {
    /// The hero's name.
    pub character: String,
    /// The NPC's name.
    pub npc: String,
    /// The skill ("Persuasion").
    pub skill: String,
    /// The check's total; null when the request needed no roll.
    pub rolled: Option<i32>,
    /// Whether it worked.
    pub success: bool,
    /// What came of it, in a line ("Sigrun grants it.").
    pub outcome: String,
    /// What Insight read (the NPC's goal, whether its last claim was a lie).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learned: Option<String>,
    /// The NPC's attitude now.
    pub attitude: Disposition,
    /// What the granted request, or the lie Insight saw through, did that the party saw.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub happened: Vec<String>,
}

/// A word with an NPC: the topics it will discuss now, or what it said, and a gift taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Talked {
    /// The NPC's name.
    pub npc: String,
    /// Its attitude now.
    pub attitude: Disposition,
    /// With no topic asked: the topics it will talk about now, by their words ("oath/ring").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<String>,
    /// With no topic asked: how many more topics need a friendlier attitude.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub locked: usize,
    /// What it said of the topic asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
    /// The item it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gave: Option<String>,
    /// What the words or the gift did that the party saw.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub happened: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
