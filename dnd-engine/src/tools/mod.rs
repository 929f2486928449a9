//! The tools the LLM calls: one typed arguments struct per tool, its strict-mode JSON Schema,
//! and a handler that runs against the turn's working copy of the state.
//!
//! A handler never trusts the model: it parses the arguments into their type, looks up every
//! name it was given, asks the rules for every number, and turns the outcome into
//! [`Change`]s that [`ToolContext::commit`] applies all or nothing. What it returns is a plain
//! JSON value for the model (and the mechanics panel). A bad call (an unknown tool, arguments
//! that do not parse, an unknown character or item, a slot not left, a move through a wall)
//! returns a [`ToolError`] whose message says what was wrong and what is valid, and changes
//! nothing.
//!
//! | file | tools |
//! |---|---|
//! | `actions.rs` | the standard actions: `dash`, `disengage`, `dodge`, `help`, `hide`, `ready_action`, `trigger_readied`, `search`, `use_object`, `grapple`, `shove`, `escape_grapple`, `stand_up`, `first_aid` (rules in `combat::actions`) |
//! | `checks.rs` | `roll_dice`, `roll_skill_check`, `roll_saving_throw` |
//! | `combat.rs` | `roll_attack` (an attack outside a fight starts one) |
//! | `swings.rs` | what an attack swings with (a character's weapon and its numbers, a monster's action or Multiattack), and whether it reaches |
//! | `encounter.rs` | `start_encounter`, `next_turn`, `end_encounter`, the monsters' turns, and `act`: the gate (`combat::may_act`) every acting tool calls first |
//! | `spells.rs` | `cast_spell` (a spell with effects goes through `spell_effects.rs` and the effects engine; a summoning through `spell_summons.rs`) |
//! | `summon_command.rs` | `command_summon` (a caster names the foe its summoned creature attacks next) |
//! | `items.rs` | `use_item`, `check_inventory`, `add_inventory`, `update_inventory` |
//! | `locks.rs` | `open_lock` |
//! | `movement.rs` | `move_in_fight` (feet from the turn, difficult terrain, opportunity attacks) |
//! | `levelling.rs` | `level_up` |
//! | `preparing.rs` | `prepare_spells` (a preparing caster's list after a long rest) |
//! | `features.rs` | `use_feature`: a table of class and racial features' players, each class's in its `feature_<class>.rs` (fighting styles on attacks in `feature_fighting.rs`, the reactions taken for a hero in `feature_reactions.rs`) |
//! | `sheet.rs` | `get_character_stats`, `update_character`, `apply_hazard_damage` |
//! | `situation.rs` | which tools are offered now: a pure function of the state (`available_tools`); the gate for a call (`gate`) |
//! | `world.rs` | `get_room_details`, `move_to`, `get_monster_stats`, `rules_lookup`, `advance_npc_goals`, `get_game_flags`, `set_game_flag`, `log_story_event` |

mod actions;
mod checks;
mod combat;
mod creature;
mod damage;
mod encounter;
mod feature_barbarian;
mod feature_bard;
mod feature_chain;
mod feature_divine;
mod feature_fighting;
mod feature_hunter;
mod feature_monk;
mod feature_paladin;
mod feature_races;
mod feature_ranger;
mod feature_reactions;
mod feature_rogue;
mod feature_wizard;
mod features;
mod glyphs;
mod item_use;
mod items;
mod levelling;
mod locks;
mod monster_action;
mod monster_legendary;
mod monster_reactions;
mod monster_spells;
mod monster_turn;
mod movement;
pub mod names;
mod objects;
mod odds;
mod preparing;
mod puzzles;
mod reactions;
pub(crate) use reactions::trigger_of as reaction_trigger;
mod feature_druid;
mod feature_invocations;
mod feature_sorcerer;
mod feature_warlock;
mod registry;
pub mod results;
pub mod schema;
mod sheet;
pub mod situation;
mod social;
mod spell_areas;
mod spell_components;
mod spell_effects;
mod spell_granted;
mod spell_marks;
mod spell_places;
mod spell_rituals;
mod spell_summons;
mod spell_weapon;
mod spell_zones;
mod spells;
mod story;
mod summon_command;
mod swings;
mod talk;
mod traps;
mod wards;
mod world;
mod zone_turns;

use serde::{Deserialize, Serialize};

use crate::dice::TurnDice;
use crate::srd::Srd;
use crate::state::{Change, GameState, StoryEvent, Target};
use crate::store::{RollDetail, RollRecord};

pub use items::GOLD_ITEM;
pub use odds::{Odds, odds};
pub use registry::{ToolResult, call_tool, tool_names, tool_specs};
pub use situation::{
    Gate, Situation, Tools, available_tools, gate, situation, tools_now, tools_with,
};

/// Limits on what tools may do in one turn, and on what a model may make them store.
///
/// Everything a model writes through a tool (a flag, a story event, an item's name) is kept in
/// the state or the history and sent back in later prompts, so each is bounded here: the prompt
/// stays bounded whatever the model stores. A call over a bound is refused with the bound in
/// the message, and changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolLimits {
    /// How many items may appear from nowhere (not taken from loot that exists) in one turn.
    pub new_items_per_turn: u32,
    /// The largest quantity of one such item.
    pub max_new_item_quantity: u32,
    /// The most such items may be worth, in copper pieces (default 500: 5 gp, a few torches,
    /// rope and rations, a dagger, or 5 gold pieces); each must be mundane gear as well.
    pub max_story_value_cp: u32,
    /// The longest arguments of one call, in bytes of JSON (default 4,000: the largest real
    /// call, `cast_spell` on several targets, is a few hundred).
    pub max_argument_bytes: usize,
    /// The longest single text in a call's arguments, in bytes (default 400: a name, a reason
    /// or a one-sentence story event).
    pub max_text_bytes: usize,
    /// How many world flags a campaign may hold (default 64); changing an existing flag is
    /// always allowed.
    pub max_flags: usize,
    /// The longest flag, its name and its value's JSON together, in bytes (default 200).
    pub max_flag_bytes: usize,
    /// The longest error message sent back to the model, in bytes (default 1,000); longer ones
    /// are cut with a note, so a refused call never echoes a huge argument back.
    pub max_error_bytes: usize,
}

impl Default for ToolLimits {
    fn default() -> Self {
        ToolLimits {
            new_items_per_turn: 1,
            max_new_item_quantity: 5,
            max_story_value_cp: 500,
            max_argument_bytes: 4_000,
            max_text_bytes: 400,
            max_flags: 64,
            max_flag_bytes: 200,
            max_error_bytes: 1_000,
        }
    }
}

/// What the tools of one turn did, for the turn record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnLog {
    /// Every change applied, in order.
    pub changes: Vec<Change>,
    /// Every roll made.
    pub rolls: Vec<RollRecord>,
    /// Story events logged.
    pub events: Vec<StoryEvent>,
    /// Items that appeared from nowhere so far this turn.
    pub new_items: u32,
    /// What the party witnessed during the tool call in progress (a trap going off), told
    /// under the result's `"story"` once the call succeeds (`registry::call_tool`).
    pub told: Vec<String>,
}

/// What a handler works with: the turn's working state and everything else it may use.
pub struct ToolContext<'a> {
    /// The turn's working copy of the state.
    pub state: &'a mut GameState,
    /// Monster, spell and rules data.
    pub srd: &'a Srd,
    /// The dice: the ordinary generator or the fair stream. A tool never chooses a seed or a
    /// nonce: the turn builds this before any tool runs (`dice::fair`).
    pub rng: &'a mut TurnDice,
    /// Per-turn limits.
    pub limits: &'a ToolLimits,
    /// What this turn has done so far.
    pub log: &'a mut TurnLog,
}

impl ToolContext<'_> {
    /// Applies changes to the working state, all or nothing, and records them.
    pub fn commit(&mut self, changes: Vec<Change>) -> Result<(), ToolError> {
        // Moving, acting or reacting ends One with Shadows' invisibility, first.
        let ends = feature_invocations::shadows_end(self.state, &changes);
        let changes = if ends.is_empty() {
            changes
        } else {
            ends.into_iter().chain(changes).collect()
        };
        self.state
            .apply_all(&changes)
            .map_err(|(_, error)| ToolError::new(error.to_string()))?;
        self.log.changes.extend(changes);
        Ok(())
    }

    /// The dice `creature`'s timed effects add to (or take from) a roll of `kind` (Bless,
    /// Bane), rolled with the turn's dice: the one call every roll that counts them makes.
    /// What the roll spends (Guidance's one d4) is committed here, with the roll: a tool
    /// refused later has the whole state restored by the registry.
    pub fn roll_bonus(
        &mut self,
        creature: &str,
        kind: crate::state::RollKind,
    ) -> crate::effects::Bonus {
        let mut bonus = crate::effects::roll_bonus(self.state, creature, kind, self.rng);
        let spent = std::mem::take(&mut bonus.spent);
        if !spent.is_empty() {
            // Ending an effect that is there cannot be refused; were it, the d4 still counted.
            let _ = self.commit(spent);
        }
        bonus
    }

    /// Records a roll for the mechanics panel: who rolled (`None` for no creature) and what.
    pub fn record_roll(
        &mut self,
        label: impl Into<String>,
        total: i64,
        roller: Option<Target>,
        detail: RollDetail,
    ) {
        self.log
            .rolls
            .push(RollRecord::new(label, total, roller, detail));
    }
}

/// A tool call the engine refused: nothing changed. The message is for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    /// What was wrong, and what would be valid.
    pub message: String,
}

impl ToolError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests;
