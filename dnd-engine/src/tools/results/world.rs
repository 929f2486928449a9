//! Results of the world tools: `get_room_details` and `move_to` ([`RoomDetails`]),
//! `get_monster_stats`, `rules_lookup`, `advance_npc_goals`, the flags and the story log.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rules::HitPoints;
use crate::rules::conditions::ConditionSet;
use crate::srd::{ConditionInfo, Monster, RulesTopic, Spell};
use crate::state::{Disposition, ItemStack};

/// Where the party is, as far as it knows (`get_room_details`; `move_to` gives the room it
/// reached, in full).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomDetails {
    /// The room's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The full description, or the one-line one in an overview.
    pub description: String,
    /// The exits the party knows of.
    pub exits: Vec<ExitSeen>,
    /// The features it has found.
    pub features: Vec<FeatureSeen>,
    /// What lies loose in the room.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loot: Vec<ItemStack>,
    /// The monsters it has seen here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub monsters: Vec<MonsterSeen>,
    /// The people here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub npcs: Vec<NpcSeen>,
}

/// A known exit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitSeen {
    /// Its direction ("north").
    pub direction: String,
    /// The id of the room it leads to.
    pub to: String,
    /// Whether it is locked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub locked: bool,
}

/// A found feature: in an overview only its id and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureSeen {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its description (full detail only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// What can be taken from it (full detail only; left out when nothing is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loot: Option<Vec<ItemStack>>,
    /// Whether the party knows it holds an armed trap (`disarm_trap`; touching it is refused).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trapped: bool,
    /// An object's hit points left and whole ("12/30"; "0/30" broken), for `attack_object`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_points: Option<String>,
}

/// A monster seen in the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterSeen {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Whether it lives.
    pub alive: bool,
    /// Whether it is hostile.
    pub hostile: bool,
}

/// A person in the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NpcSeen {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// How it looks.
    pub description: String,
    /// How it feels about the party.
    pub disposition: Disposition,
}

/// A seen monster's state and stat block (`get_monster_stats`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MonsterStats {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its hit points now.
    pub hp: HitPoints,
    /// Its armour class.
    pub armor_class: i32,
    /// Its conditions.
    pub conditions: ConditionSet,
    /// The SRD stat block it was made from.
    pub stat_block: Monster,
}

/// What `rules_lookup` found: a rules topic, a condition or a spell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RulesEntry {
    /// A rules topic.
    Rule(RulesTopic),
    /// A condition.
    Condition(ConditionInfo),
    /// A spell (boxed: a spell's record is several times a topic's).
    Spell(Box<Spell>),
}

/// The NPCs `advance_npc_goals` moved on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalsAdvanced {
    /// Each one, in order.
    pub advanced: Vec<GoalAdvanced>,
    /// What the story did because of it (the new step's effects the party witnessed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub story: Vec<String>,
}

/// One NPC moved to its next goal step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalAdvanced {
    /// Its name.
    pub npc: String,
    /// What it does now; `None` once its goal is done.
    pub now: Option<String>,
    /// Whether its last step is done.
    pub goal_done: bool,
}

/// Every flag of the world (`get_game_flags`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flags {
    /// Name → value.
    pub flags: BTreeMap<String, Value>,
}

/// The flag `set_game_flag` set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlagSet {
    /// Its name.
    pub set: String,
    /// Its value now.
    pub value: Value,
}

/// `log_story_event` kept the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryLogged {
    /// Always true: a refused event is an error.
    pub logged: bool,
}
