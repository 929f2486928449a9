//! [`ToolOutput`]: any tool's result, read back from the JSON the model saw by the tool's name.
//! The one place that knows which result type each tool gives.

use serde::Deserialize;
use serde_json::Value;

use super::PuzzleAnswered;
use super::{
    ActionReport, AttackOutcome, CharacterSheet, CharacterUpdated, CheckRolled, DiceRolled,
    FeatureReport, FightEnded, FightStarted, FlagSet, Flags, GoalsAdvanced, HazardDamage,
    Inventory, InventoryChanged, ItemTaken, ItemUsed, LevelGained, LockAttempt, MonsterStats,
    MoveOutcome, ReactionsDeclared, ReadiedAttack, RoomDetails, RulesEntry, SaveRolled,
    SocialChecked, SpellCast, SpellsPrepared, StoryLogged, Talked, TurnsPassed,
};
use super::{ObjectAttacked, TrapDisarmAttempt};
use crate::tools::names as tool;

/// A tool's result, typed by the tool that gave it.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutput {
    /// `roll_dice`.
    Dice(DiceRolled),
    /// `roll_skill_check`.
    Check(CheckRolled),
    /// `roll_saving_throw`.
    Save(SaveRolled),
    /// `roll_attack`.
    Attack(AttackOutcome),
    /// `cast_spell`.
    Spell(SpellCast),
    /// `declare_reactions`.
    Reactions(ReactionsDeclared),
    /// `use_item`.
    ItemUsed(ItemUsed),
    /// `open_lock`.
    Lock(LockAttempt),
    /// `get_character_stats`.
    Sheet(Box<CharacterSheet>),
    /// `check_inventory`.
    Inventory(Inventory),
    /// `add_inventory`.
    ItemAdded(ItemTaken),
    /// `update_inventory`.
    InventoryChanged(InventoryChanged),
    /// `update_character`.
    CharacterUpdated(CharacterUpdated),
    /// `use_feature`.
    FeatureUsed(FeatureReport),
    /// `apply_hazard_damage`.
    Hazard(HazardDamage),
    /// `get_room_details`.
    Room(RoomDetails),
    /// `move_to`: the room reached.
    MovedTo(RoomDetails),
    /// `move_in_fight`.
    MoveInFight(MoveOutcome),
    /// `get_monster_stats`.
    MonsterStats(Box<MonsterStats>),
    /// `rules_lookup`.
    Rules(Box<RulesEntry>),
    /// `start_encounter`.
    FightStarted(FightStarted),
    /// `next_turn`.
    TurnsPassed(TurnsPassed),
    /// `end_encounter`.
    FightEnded(FightEnded),
    /// A standard action: `dash`, `disengage`, `dodge`, `help`, `hide`, `ready_action`,
    /// `search`, `use_object`, `grapple`, `shove`, `escape_grapple`, `stand_up`, `first_aid`.
    Action(ActionReport),
    /// `trigger_readied`.
    Readied(ReadiedAttack),
    /// `advance_npc_goals`.
    Goals(GoalsAdvanced),
    /// `get_game_flags`.
    Flags(Flags),
    /// `set_game_flag`.
    FlagSet(FlagSet),
    /// `log_story_event`.
    Story(StoryLogged),
    /// `social_check`.
    Social(SocialChecked),
    /// `talk_to`.
    Talk(Talked),
    /// `level_up`.
    LevelGained(Box<LevelGained>),
    /// `prepare_spells`.
    SpellsPrepared(SpellsPrepared),
    /// `answer_puzzle`.
    Puzzle(PuzzleAnswered),
    /// `disarm_trap`.
    TrapDisarm(TrapDisarmAttempt),
    /// `attack_object`.
    ObjectAttacked(ObjectAttacked),
}

/// Why a result could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    /// No tool has this name.
    #[error("there is no tool {0:?}")]
    UnknownTool(String),
    /// The JSON is not that tool's result.
    #[error("the result of {tool} does not read as one: {message}")]
    Shape {
        /// The tool.
        tool: String,
        /// What serde said.
        message: String,
    },
}

/// The key under which a result carries what the story did because of the call (an NPC's goal
/// step reached, its effects the party witnessed): short lines, beside the tool's own fields.
pub const STORY: &str = "story";

/// The story lines of a result (empty when the call set nothing in motion).
pub fn story_lines(content: &Value) -> Vec<String> {
    content
        .get(STORY)
        .and_then(Value::as_array)
        .map(|lines| {
            lines
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl ToolOutput {
    /// Reads the result `content` of a successful call to `tool`.
    ///
    /// # Errors
    ///
    /// [`OutputError::UnknownTool`] for a name no tool has; [`OutputError::Shape`] when the
    /// JSON is not what that tool gives (a refusal's `{"error": ...}`, or a foreign value).
    pub fn parse(tool_name: &str, content: &Value) -> Result<ToolOutput, OutputError> {
        fn read<T: for<'de> Deserialize<'de>>(
            name: &str,
            content: &Value,
        ) -> Result<T, OutputError> {
            T::deserialize(content).map_err(|e| OutputError::Shape {
                tool: name.to_owned(),
                message: e.to_string(),
            })
        }
        let name = tool_name;
        Ok(match name {
            tool::ROLL_DICE => ToolOutput::Dice(read(name, content)?),
            tool::ROLL_SKILL_CHECK => ToolOutput::Check(read(name, content)?),
            tool::ROLL_SAVING_THROW => ToolOutput::Save(read(name, content)?),
            tool::ROLL_ATTACK => ToolOutput::Attack(read(name, content)?),
            tool::CAST_SPELL => ToolOutput::Spell(read(name, content)?),
            tool::DECLARE_REACTIONS => ToolOutput::Reactions(read(name, content)?),
            tool::USE_ITEM => ToolOutput::ItemUsed(read(name, content)?),
            tool::OPEN_LOCK => ToolOutput::Lock(read(name, content)?),
            tool::GET_CHARACTER_STATS => ToolOutput::Sheet(Box::new(read(name, content)?)),
            tool::CHECK_INVENTORY => ToolOutput::Inventory(read(name, content)?),
            tool::ADD_INVENTORY => ToolOutput::ItemAdded(read(name, content)?),
            tool::UPDATE_INVENTORY => ToolOutput::InventoryChanged(read(name, content)?),
            tool::UPDATE_CHARACTER => ToolOutput::CharacterUpdated(read(name, content)?),
            tool::USE_FEATURE => ToolOutput::FeatureUsed(read(name, content)?),
            tool::APPLY_HAZARD_DAMAGE => ToolOutput::Hazard(read(name, content)?),
            tool::GET_ROOM_DETAILS => ToolOutput::Room(read(name, content)?),
            tool::MOVE_TO => ToolOutput::MovedTo(read(name, content)?),
            tool::MOVE_IN_FIGHT => ToolOutput::MoveInFight(read(name, content)?),
            tool::GET_MONSTER_STATS => ToolOutput::MonsterStats(Box::new(read(name, content)?)),
            tool::RULES_LOOKUP => ToolOutput::Rules(Box::new(read(name, content)?)),
            tool::START_ENCOUNTER => ToolOutput::FightStarted(read(name, content)?),
            tool::NEXT_TURN => ToolOutput::TurnsPassed(read(name, content)?),
            tool::END_ENCOUNTER => ToolOutput::FightEnded(read(name, content)?),
            tool::DASH
            | tool::DISENGAGE
            | tool::DODGE
            | tool::HELP
            | tool::HIDE
            | tool::READY_ACTION
            | tool::SEARCH
            | tool::USE_OBJECT
            | tool::GRAPPLE
            | tool::SHOVE
            | tool::ESCAPE_GRAPPLE
            | tool::STAND_UP
            | tool::FIRST_AID
            | tool::COMMAND_SUMMON => ToolOutput::Action(read(name, content)?),
            tool::TRIGGER_READIED => ToolOutput::Readied(read(name, content)?),
            tool::ADVANCE_NPC_GOALS => ToolOutput::Goals(read(name, content)?),
            tool::GET_GAME_FLAGS => ToolOutput::Flags(read(name, content)?),
            tool::SET_GAME_FLAG => ToolOutput::FlagSet(read(name, content)?),
            tool::LOG_STORY_EVENT => ToolOutput::Story(read(name, content)?),
            tool::SOCIAL_CHECK => ToolOutput::Social(read(name, content)?),
            tool::TALK_TO => ToolOutput::Talk(read(name, content)?),
            tool::LEVEL_UP => ToolOutput::LevelGained(Box::new(read(name, content)?)),
            tool::PREPARE_SPELLS => ToolOutput::SpellsPrepared(read(name, content)?),
            tool::ANSWER_PUZZLE => ToolOutput::Puzzle(read(name, content)?),
            tool::DISARM_TRAP => ToolOutput::TrapDisarm(read(name, content)?),
            tool::ATTACK_OBJECT => ToolOutput::ObjectAttacked(read(name, content)?),
            other => return Err(OutputError::UnknownTool(other.to_owned())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_name_has_a_result_type() {
        for name in tool::ALL {
            // An empty object is no tool's result: the error must be about its shape, never
            // about an unknown tool.
            let error = ToolOutput::parse(name, &serde_json::json!({})).unwrap_err();
            assert!(
                matches!(error, OutputError::Shape { .. }),
                "{name}: {error}"
            );
        }
        assert_eq!(
            ToolOutput::parse("summon_dragon", &serde_json::json!({})),
            Err(OutputError::UnknownTool("summon_dragon".into()))
        );
    }

    #[test]
    fn a_refusal_is_not_read_as_a_result() {
        let refusal = serde_json::json!({"error": "it is the harpy's turn"});
        assert!(ToolOutput::parse(tool::ROLL_ATTACK, &refusal).is_err());
        assert!(ToolOutput::parse(tool::MOVE_TO, &refusal).is_err());
    }
}
