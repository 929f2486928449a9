//! The story as data: what a goal step, a puzzle, a trap or a broken object does to the world
//! ([`StoryEffect`]), the adventure's endings ([`Ending`]), and the changes only the story makes
//! ([`Change::NpcMoved`], [`Change::MonsterProvoked`], [`Change::AdventureEnded`],
//! [`Change::DefeatPlayed`]).
//!
//! An effect is resolved into ordinary [`Change`]s by `tools::story`, so every one of them is
//! checked by [`GameState::apply`] like any other change, and an adventure file names them
//! with ids the validator checks when it loads.
//!
//! [`Change::NpcMoved`]: super::Change::NpcMoved
//! [`Change::MonsterProvoked`]: super::Change::MonsterProvoked
//! [`Change::AdventureEnded`]: super::Change::AdventureEnded
//! [`Change::DefeatPlayed`]: super::Change::DefeatPlayed
//! [`Change`]: super::Change
//! [`GameState::apply`]: super::GameState::apply

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use super::lookup::{monster_mut, npc_mut};
use super::{Change, Disposition, GameState, ItemStack};

/// One thing the story does to the world. In an adventure file each is an object with one key,
/// the effect's name: `{"reveal_exit": {"room": "hall", "direction": "crawlway"}}`,
/// `{"set_flag": {"flag": "riddle_answered", "value": true}}`, `{"end": {"ending": "freed"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StoryEffect {
    /// A hidden exit becomes known (and usable, if not locked).
    RevealExit {
        /// The room it leaves from.
        room: String,
        /// Its direction.
        direction: String,
    },
    /// A hidden feature becomes known.
    RevealFeature {
        /// The room it is in.
        room: String,
        /// Its id.
        feature: String,
    },
    /// A locked exit opens.
    UnlockExit {
        /// The room it leaves from.
        room: String,
        /// Its direction.
        direction: String,
    },
    /// Items appear in the pack of the hero who acted (or the first hero standing).
    GiveItem {
        /// What, and how many.
        item: ItemStack,
    },
    /// Items leave the pack of whichever hero carries them (as many as there are, up to
    /// `quantity`).
    TakeItem {
        /// The item's name.
        item: String,
        /// How many.
        #[serde(default = "one")]
        quantity: u32,
    },
    /// A world flag is set.
    SetFlag {
        /// The flag (declared in the adventure's `flags`).
        flag: String,
        /// Its new value.
        value: serde_json::Value,
    },
    /// An NPC's attitude changes.
    Attitude {
        /// The NPC.
        npc: String,
        /// The new attitude.
        disposition: Disposition,
    },
    /// The party learns what an NPC wants.
    RevealGoal {
        /// The NPC.
        npc: String,
    },
    /// An NPC moves on to its next goal step (whose own effects then happen).
    AdvanceGoal {
        /// The NPC.
        npc: String,
    },
    /// An NPC goes somewhere else.
    MoveNpc {
        /// The NPC.
        npc: String,
        /// The room it goes to.
        room: String,
    },
    /// These monsters turn on the party: seen, hostile, and a fight starts where the party is
    /// if they are there.
    StartFight {
        /// The monsters' ids.
        monsters: Vec<String>,
    },
    /// The adventure ends with this ending.
    End {
        /// The ending's id (one of the adventure's `endings`).
        ending: String,
    },
}

fn one() -> u32 {
    1
}

impl StoryEffect {
    /// The effect's name as an adventure file writes it ("reveal_exit").
    pub fn name(&self) -> &'static str {
        match self {
            StoryEffect::RevealExit { .. } => "reveal_exit",
            StoryEffect::RevealFeature { .. } => "reveal_feature",
            StoryEffect::UnlockExit { .. } => "unlock_exit",
            StoryEffect::GiveItem { .. } => "give_item",
            StoryEffect::TakeItem { .. } => "take_item",
            StoryEffect::SetFlag { .. } => "set_flag",
            StoryEffect::Attitude { .. } => "attitude",
            StoryEffect::RevealGoal { .. } => "reveal_goal",
            StoryEffect::AdvanceGoal { .. } => "advance_goal",
            StoryEffect::MoveNpc { .. } => "move_npc",
            StoryEffect::StartFight { .. } => "start_fight",
            StoryEffect::End { .. } => "end",
        }
    }
}

/// One way the adventure can end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// Stable id, unique in the adventure ("singer-freed").
    pub id: String,
    /// Its title ("The Song Ends").
    pub title: String,
    /// What the game master tells when it is reached.
    pub description: String,
}

/// The story's own data in a campaign, beside the world it changes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Story {
    /// The ways the adventure can end; empty for an open-ended game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endings: Vec<Ending>,
    /// The id of the ending reached, once the adventure is over ([`Change::AdventureEnded`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// What happens when a monster is out of the fight (dead, fled or surrendered), by the
    /// monster's id; each list is played once, then removed ([`Change::DefeatPlayed`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub on_defeat: BTreeMap<String, Vec<StoryEffect>>,
    /// When each NPC reached its current goal step, in minutes of game time since day 1
    /// began (`GameTime::total_minutes`): the clock its step's `after_minutes` counts from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub step_reached_at: BTreeMap<String, u64>,
    /// The adventure's puzzles (`state::puzzle`), answers included: never shown to the model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub puzzles: Vec<super::Puzzle>,
    /// How far the party has got with each puzzle, by id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub puzzle_tries: super::PuzzleProgress,
    /// What each NPC knows, wants and may grant, and what the party has had of it, by the
    /// NPC's id (`state::social`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub social: BTreeMap<String, super::Social>,
    /// Every flag some story effect of the campaign sets, recorded when it began (a monster's
    /// `on_defeat` list is gone once played, the flag it sets stays the story's): the engine
    /// sets these, `set_game_flag` never does.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub flags_set_by_story: BTreeSet<String>,
}

impl Story {
    /// Whether it holds nothing (for serde's `skip_serializing_if`).
    pub fn is_empty(&self) -> bool {
        *self == Story::default()
    }
}

/// Applies the story's own changes; any other change is left alone.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    match change {
        Change::NpcMoved { npc, location } => {
            if !state.locations.iter().any(|l| &l.id == location) {
                let ids: Vec<&str> = state.locations.iter().map(|l| l.id.as_str()).collect();
                return Err(ChangeError::Invalid(format!(
                    "no room {location:?}; the rooms are: {}",
                    ids.join(", ")
                )));
            }
            npc_mut(state, npc)?.location = location.clone();
        }
        Change::MonsterProvoked { monster } => {
            let m = monster_mut(state, monster)?;
            m.hostile = true;
            m.revealed = true;
        }
        Change::AdventureEnded { ending } => {
            if let Some(done) = &state.story.ended {
                return Err(ChangeError::Invalid(format!(
                    "the adventure has already ended ({done})"
                )));
            }
            if !state.story.endings.iter().any(|e| &e.id == ending) {
                let ids: Vec<&str> = state.story.endings.iter().map(|e| e.id.as_str()).collect();
                return Err(ChangeError::Invalid(format!(
                    "no ending {ending:?}; the endings are: {}",
                    if ids.is_empty() {
                        "none".to_owned()
                    } else {
                        ids.join(", ")
                    }
                )));
            }
            Arc::make_mut(&mut state.story).ended = Some(ending.clone());
        }
        Change::DefeatPlayed { monster } => {
            if !state.story.on_defeat.contains_key(monster) {
                return Err(ChangeError::Invalid(format!(
                    "nothing waits on {monster}'s defeat"
                )));
            }
            Arc::make_mut(&mut state.story).on_defeat.remove(monster);
        }
        _ => {}
    }
    Ok(())
}

/// The ending reached, if the adventure is over.
pub fn ending_reached(state: &GameState) -> Option<&Ending> {
    let id = state.story.ended.as_ref()?;
    state.story.endings.iter().find(|e| &e.id == id)
}

/// Whether a flag's value says something happened: `true`, a number other than 0, a text that
/// is not empty. A flag at its resting value (`false`, 0, "") is not shown to the model: the
/// adventure's list of flags names people and secrets the party has not met.
pub fn flag_holds(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        // A flag is a word, a number or a switch: anything else never counts as set.
        _ => false,
    }
}

impl GameState {
    /// Every story effect the campaign holds now: goal steps, traps, breakable objects, what
    /// NPCs tell, want and grant (and their lies seen through), puzzles, and the defeats still
    /// to be played.
    pub fn story_effects(&self) -> impl Iterator<Item = &StoryEffect> {
        let places = self
            .locations
            .iter()
            .flat_map(|l| &l.features)
            .flat_map(|f| {
                let trap = f.trap.iter().flat_map(|t| &t.effects);
                let object = f.object.iter().flat_map(|o| &o.on_broken);
                trap.chain(object)
            });
        let steps = self
            .npcs
            .iter()
            .flat_map(|n| &n.goal_steps)
            .flat_map(|s| &s.effects);
        let social = self.story.social.values().flat_map(|s| {
            let topics = s
                .topics
                .iter()
                .flat_map(|t| t.effects.iter().chain(&t.exposed));
            let wants = s.wants.iter().flat_map(|w| &w.effects);
            let requests = s.requests.iter().flat_map(|r| &r.effects);
            topics.chain(wants).chain(requests)
        });
        let puzzles = self
            .story
            .puzzles
            .iter()
            .flat_map(|p| p.on_success.iter().chain(&p.on_failure));
        let defeats = self.story.on_defeat.values().flatten();
        places
            .chain(steps)
            .chain(social)
            .chain(puzzles)
            .chain(defeats)
    }

    /// Whether a story effect sets this flag (now, or in a list already played): such a flag
    /// is the engine's to set when the story reaches it.
    pub fn story_sets_flag(&self, key: &str) -> bool {
        self.story.flags_set_by_story.contains(key)
            || self
                .story_effects()
                .any(|e| matches!(e, StoryEffect::SetFlag { flag, .. } if flag == key))
    }

    /// The flags the story's effects set, for [`Story::flags_set_by_story`].
    pub fn flags_story_sets(&self) -> BTreeSet<String> {
        self.story_effects()
            .filter_map(|e| match e {
                StoryEffect::SetFlag { flag, .. } => Some(flag.clone()),
                _ => None,
            })
            .collect()
    }

    /// The world flags that hold ([`flag_holds`]): what the model may see of the flags.
    pub fn flags_holding(&self) -> impl Iterator<Item = (&String, &serde_json::Value)> {
        self.flags.iter().filter(|(_, v)| flag_holds(v))
    }
}
