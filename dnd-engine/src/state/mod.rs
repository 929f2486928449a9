//! The state of one campaign, and the one way it moves: [`Change`].
//!
//! A [`GameState`] is plain data that serializes whole. Nothing outside this module mutates it
//! field by field: tools and the game master produce [`Change`]s, and [`GameState::apply`]
//! checks each against the invariants (hit points within 0..=max, quantities never below zero,
//! moves only through exits that exist and are open, slots only when one is left) before
//! touching anything. A change that fails leaves the state exactly as it was, and the stored
//! list of a turn's changes replays the campaign from its start to the same state.
//!
//! The story log is not part of the state: it only grows, so it lives in the turn records
//! (`store::TurnRecord::events`) and is read from the store a page at a time. That keeps a
//! state, and every snapshot a store keeps of it, the same size however long the campaign runs.

mod apply;
mod change;
mod character;
pub mod compact;
mod condition_sources;
mod effects;
mod fair;
mod feature_uses;
mod game_srd;
mod legacy_items;
mod lookup;
mod memory;
mod monk_turn;
mod monster;
mod pact;
mod position;
mod prepared;
mod progress;
mod puzzle;
mod racial;
mod rage;
mod reactions;
mod revive;
mod slot_recovery;
mod snapshot;
pub mod social;
mod sorcery;
mod story;
mod summons;
mod timed;
mod timed_aloft;
mod timed_divine;
mod timed_hp;
mod timed_kind;
mod timed_reads;
mod timed_shape;
mod traps;
mod turn;
mod world;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::srd::Srd;

pub use change::{Change, ChangeError, Target};
pub use character::{Character, CharacterAttack, ItemStack, NotStabilisable};
pub use condition_sources::{ConditionSource, condition_sources};
pub use effects::{Effect, EffectKind, able, is_surprised};
pub use fair::{FairCommit, FairState, RevealedSeed};
pub use feature_uses::{FeatureUses, rest_name};
pub use game_srd::GameSrd;
pub use memory::{MEMORY_LIST_LIMIT, Memory, MemoryFact};
pub use monk_turn::MonkStep;
pub use monster::{Hold, Morale};
pub use pact::pact_weapon_attacks;
pub use position::{Area, Cover, Position, area_at, inside, round_to_5};
pub use progress::{
    AbilityIncrease, LevelUp, Levelling, Milestone, PactSlots, progress_text, reached_milestones,
};
pub use puzzle::{
    Puzzle, PuzzleProgress, PuzzleTries, answer_matches, answer_words,
    word_matches as puzzle_word_matches,
};
pub use racial::{Light, RELENTLESS_ENDURANCE};
pub use rage::{RAGE, raging};
pub use reactions::{ReactionTrigger, StandingReaction};
pub use revive::rounds_now;
pub use snapshot::{PuzzleView, Snapshot, estimate_tokens};
pub use social::{Social, SocialEvent};
pub use story::{Ending, Story, StoryEffect, ending_reached, flag_holds};
pub use summons::Summoned;
pub use timed::{
    GlyphKept, RepeatSave, RollKind, RollOn, SpeedChange, TimedEffect, TimedKind, ZoneKept,
    concentration_of,
};
pub use timed_aloft::{flies_by_magic, held_aloft};
pub use timed_divine::{blessed_weapon_bonus, smite_ready, turned_by};
pub use timed_reads::{
    armor_class_with, bars_attacks, blocks_healing, is_coated, melded, nonmagical_resistances_with,
    resistances_with, roll_dice_on, speed_with, timed_effects, weapon_damage,
};
pub use timed_shape::{ShapeForm, ShapeKept, beast_of, shape_attacks_per_action, wild_shape_of};
pub use traps::{Disarm, FeatureObject, TrapTrigger};
pub use turn::{attacks_per_action, budget_left, left_text, speed_now};
pub use world::{
    Disposition, Encounter, Exit, Feature, GameTime, GoalStep, InitiativeSlot, Location, Mode,
    MonsterInstance, Npc, StoryEvent, StoryKind, Trap,
};

/// Everything about one campaign.
///
/// **Read-only once a campaign has started.** The fields are `pub` to be read (and to build a
/// state in code before its campaign is created), not to be set: a campaign moves only through
/// [`Change`]s applied by [`GameState::apply`], because the store keeps a campaign as its
/// initial state plus each turn's changes ([`crate::store::TurnRecord`]). A field set by hand
/// is checked by nothing, is in no record, and is gone on the next load, replay or undo. Tools
/// and the game master only ever produce changes.
///
/// The collections, the summary and the memory lists are shared behind `Arc`s and copied on
/// write (`Arc::make_mut`, inside [`GameState::apply`]): cloning a state, which a store does on
/// every load and the turn pipeline on every tool call, costs a few reference counts, and a
/// change copies only the part it touches. Reading is plain `Vec` and map access through `Deref`; building one takes `.into()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The campaign's title ("The Wailing Glacier").
    pub title: String,
    /// The player characters.
    pub characters: Arc<Vec<Character>>,
    /// Monsters in the world, alive or dead.
    #[serde(default)]
    pub monsters: Arc<Vec<MonsterInstance>>,
    /// Places.
    pub locations: Arc<Vec<Location>>,
    /// Non-player characters.
    #[serde(default)]
    pub npcs: Arc<Vec<Npc>>,
    /// The fight in progress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<Encounter>,
    /// World flags set by the story ("harpy_defeated": true).
    #[serde(default)]
    pub flags: Arc<BTreeMap<String, serde_json::Value>>,
    /// The in-game clock.
    #[serde(default)]
    pub time: GameTime,
    /// Exploration, combat or social.
    #[serde(default)]
    pub mode: Mode,
    /// The campaign summary: older turns folded into prose (up to a page, read each turn and
    /// replaced whole: shared).
    #[serde(default)]
    pub summary: Arc<str>,
    /// Facts the story must keep: promises, names, discoveries, quests (bounded lists).
    #[serde(default)]
    pub memory: Arc<Memory>,
    /// How many turns have been committed.
    #[serde(default)]
    pub turn: u64,
    /// The campaign's secret dice seed: each turn's dice come from it and the turn number, so a
    /// turn cancelled after its outcome was shown rolls the same dice when it is played again.
    /// Never in the snapshot the model sees, nor in a `Debug` print. Unset in a state built by
    /// hand or saved before seeds existed: the game master then gives the campaign one
    /// ([`Change::DiceSeeded`]) in its next turn.
    #[serde(default)]
    pub dice_seed: DiceSeed,
    /// Provably fair dice, when the campaign opted in ([`crate::dice::fair`]): the committed
    /// seed (secret, never in the snapshot or a view) and the revealed ones. Shared.
    #[serde(default, skip_serializing_if = "is_fair_off")]
    pub fair: Arc<FairState>,
    /// How the characters gain levels: by XP (the default) or at the adventure's milestones.
    #[serde(default, skip_serializing_if = "Levelling::is_xp")]
    pub levelling: Levelling,
    /// The story's own data: endings, the ending reached, what a defeat sets in motion
    /// ([`Story`]; shared: copied only when the story moves).
    #[serde(default, skip_serializing_if = "Story::is_empty")]
    pub story: Arc<Story>,
    /// The SRD this game plays on: never saved, the default ([`GameSrd`]) when loaded; the game
    /// master sets its own ([`GameState::set_srd`]). Read it with [`GameState::srd`].
    #[serde(skip)]
    pub srd: GameSrd,
}

/// A campaign's secret dice seed ([`GameState::dice_seed`]); 0 is "not set". Its `Debug` print
/// leaves the number out, so a logged state does not give away the dice to come.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DiceSeed(pub u64);

fn is_fair_off(fair: &Arc<FairState>) -> bool {
    **fair == FairState::default()
}

impl DiceSeed {
    /// Whether a seed was set.
    pub fn is_set(self) -> bool {
        self.0 != 0
    }
}

impl std::fmt::Debug for DiceSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_set() {
            "DiceSeed(<secret>)"
        } else {
            "DiceSeed(unset)"
        })
    }
}

impl GameState {
    /// The SRD this game plays on (see [`GameSrd`]).
    pub fn srd(&self) -> &Srd {
        &self.srd
    }

    /// Plays this game on `srd` from now on: what a game master does with every state it
    /// loads, so the rules deep in a change read the same data as its tools.
    pub fn set_srd(&mut self, srd: Arc<Srd>) {
        self.srd = GameSrd::new(srd);
    }

    /// Whose turn it is, in a fight (`None` outside one).
    pub fn turn_now(&self) -> Option<&str> {
        self.encounter.as_ref().and_then(|e| e.current())
    }

    /// A character by id or name (case-insensitive).
    pub fn character(&self, id: &str) -> Option<&Character> {
        // The exact id first: the engine asks by id many times a roll, and a byte comparison
        // is cheaper than a case-folding one over every creature.
        self.characters.iter().find(|c| c.id == id).or_else(|| {
            self.characters
                .iter()
                .find(|c| c.id.eq_ignore_ascii_case(id) || c.name.eq_ignore_ascii_case(id))
        })
    }

    /// A monster by id or name (case-insensitive; by name, the first one alive wins).
    pub fn monster(&self, id: &str) -> Option<&MonsterInstance> {
        self.monsters
            .iter()
            .find(|m| m.id == id)
            .or_else(|| self.monsters.iter().find(|m| m.id.eq_ignore_ascii_case(id)))
            .or_else(|| {
                self.monsters
                    .iter()
                    .filter(|m| m.name.eq_ignore_ascii_case(id))
                    .max_by_key(|m| m.is_alive())
            })
    }

    /// The name shown for a combatant ("Frost Harpy", "Kraven"): the character's or the
    /// monster's name, else `id` itself.
    pub fn name_of(&self, id: &str) -> String {
        self.character(id)
            .map(|c| c.name.clone())
            .or_else(|| self.monster(id).map(|m| m.name.clone()))
            .unwrap_or_else(|| id.to_owned())
    }

    /// A location by id.
    pub fn location(&self, id: &str) -> Option<&Location> {
        self.locations.iter().find(|l| l.id == id)
    }

    /// An NPC by id or name.
    pub fn npc(&self, id: &str) -> Option<&Npc> {
        self.npcs
            .iter()
            .find(|n| n.id.eq_ignore_ascii_case(id) || n.name.eq_ignore_ascii_case(id))
    }

    /// Where the party is: the location of the first character (the party moves together).
    pub fn party_location(&self) -> Option<&Location> {
        self.characters
            .first()
            .and_then(|c| self.location(&c.location))
    }

    /// Applies a change, or returns why it cannot apply and leaves the state untouched.
    pub fn apply(&mut self, change: &Change) -> Result<(), ChangeError> {
        apply::apply_change(self, change)?;
        revive::note_deaths(self);
        Ok(())
    }

    /// Applies changes in order, all or nothing: on the first failure the state is as it was
    /// before the first change, and the error names which change failed.
    pub fn apply_all(&mut self, changes: &[Change]) -> Result<(), (usize, ChangeError)> {
        let mut working = self.clone();
        for (i, change) in changes.iter().enumerate() {
            working.apply(change).map_err(|e| (i, e))?;
        }
        *self = working;
        Ok(())
    }

    /// Names of the characters, for error messages.
    pub(crate) fn character_ids(&self) -> Vec<String> {
        self.characters.iter().map(|c| c.id.clone()).collect()
    }
}

/// The NPC goal steps due now: one `NpcGoalAdvanced` per NPC whose current step names a flag
/// that holds ([`flag_holds`]), or whose `after_minutes` of game time have passed since it
/// reached the step.
pub fn triggered_goal_steps(state: &GameState) -> Vec<Change> {
    let set = |flag: &String| progress::flag_is_set(state, flag);
    let now = state.time.total_minutes();
    let waited = |npc: &str, minutes: u32| {
        state
            .story
            .step_reached_at
            .get(npc)
            .is_some_and(|since| now.saturating_sub(*since) >= u64::from(minutes))
    };
    state
        .npcs
        .iter()
        .filter(|n| {
            n.goal_steps.get(n.current_step).is_some_and(|step| {
                step.trigger_flag.as_ref().is_some_and(set)
                    || step.after_minutes.is_some_and(|m| waited(&n.id, m))
            })
        })
        .map(|n| Change::NpcGoalAdvanced { npc: n.id.clone() })
        .collect()
}

#[cfg(test)]
mod tests;
