//! The name of every tool, as the model calls it: one constant each, used by the registry, the
//! game master, the offline game master and the front ends, so a renamed tool cannot leave a
//! caller matching a name that no longer exists.

/// `roll_dice`.
pub const ROLL_DICE: &str = "roll_dice";
/// `roll_skill_check`.
pub const ROLL_SKILL_CHECK: &str = "roll_skill_check";
/// `roll_saving_throw`.
pub const ROLL_SAVING_THROW: &str = "roll_saving_throw";
/// `roll_attack`.
pub const ROLL_ATTACK: &str = "roll_attack";
/// `cast_spell`.
pub const CAST_SPELL: &str = "cast_spell";
/// `command_summon`.
pub const COMMAND_SUMMON: &str = "command_summon";
/// `use_item`.
pub const USE_ITEM: &str = "use_item";
/// `open_lock`.
pub const OPEN_LOCK: &str = "open_lock";
/// `get_character_stats`.
pub const GET_CHARACTER_STATS: &str = "get_character_stats";
/// `check_inventory`.
pub const CHECK_INVENTORY: &str = "check_inventory";
/// `add_inventory`.
pub const ADD_INVENTORY: &str = "add_inventory";
/// `update_inventory`.
pub const UPDATE_INVENTORY: &str = "update_inventory";
/// `update_character`.
pub const UPDATE_CHARACTER: &str = "update_character";
/// `use_feature`.
pub const USE_FEATURE: &str = "use_feature";
/// `apply_hazard_damage`.
pub const APPLY_HAZARD_DAMAGE: &str = "apply_hazard_damage";
/// `get_room_details`.
pub const GET_ROOM_DETAILS: &str = "get_room_details";
/// `move_in_fight`.
pub const MOVE_IN_FIGHT: &str = "move_in_fight";
/// `move_to`.
pub const MOVE_TO: &str = "move_to";
/// `get_monster_stats`.
pub const GET_MONSTER_STATS: &str = "get_monster_stats";
/// `rules_lookup`.
pub const RULES_LOOKUP: &str = "rules_lookup";
/// `start_encounter`.
pub const START_ENCOUNTER: &str = "start_encounter";
/// `level_up`.
pub const LEVEL_UP: &str = "level_up";
/// `prepare_spells`.
pub const PREPARE_SPELLS: &str = "prepare_spells";
/// `answer_puzzle`.
pub const ANSWER_PUZZLE: &str = "answer_puzzle";
/// `disarm_trap`.
pub const DISARM_TRAP: &str = "disarm_trap";
/// `attack_object`.
pub const ATTACK_OBJECT: &str = "attack_object";
/// `next_turn`.
pub const NEXT_TURN: &str = "next_turn";
/// `end_encounter`.
pub const END_ENCOUNTER: &str = "end_encounter";
/// `dash`.
pub const DASH: &str = "dash";
/// `disengage`.
pub const DISENGAGE: &str = "disengage";
/// `dodge`.
pub const DODGE: &str = "dodge";
/// `help`.
pub const HELP: &str = "help";
/// `hide`.
pub const HIDE: &str = "hide";
/// `ready_action`.
pub const READY_ACTION: &str = "ready_action";
/// `trigger_readied`.
pub const TRIGGER_READIED: &str = "trigger_readied";
/// `search`.
pub const SEARCH: &str = "search";
/// `use_object`.
pub const USE_OBJECT: &str = "use_object";
/// `grapple`.
pub const GRAPPLE: &str = "grapple";
/// `shove`.
pub const SHOVE: &str = "shove";
/// `escape_grapple`.
pub const ESCAPE_GRAPPLE: &str = "escape_grapple";
/// `stand_up`.
pub const STAND_UP: &str = "stand_up";
/// `first_aid`.
pub const FIRST_AID: &str = "first_aid";
/// `advance_npc_goals`.
pub const ADVANCE_NPC_GOALS: &str = "advance_npc_goals";
/// `get_game_flags`.
pub const GET_GAME_FLAGS: &str = "get_game_flags";
/// `set_game_flag`.
pub const SET_GAME_FLAG: &str = "set_game_flag";
/// `declare_reactions`.
pub const DECLARE_REACTIONS: &str = "declare_reactions";
/// `log_story_event`.
pub const LOG_STORY_EVENT: &str = "log_story_event";
/// `social_check`.
pub const SOCIAL_CHECK: &str = "social_check";
/// `talk_to`.
pub const TALK_TO: &str = "talk_to";

/// Every tool name, in the order the registry lists the tools.
pub const ALL: &[&str] = &[
    ROLL_DICE,
    ROLL_SKILL_CHECK,
    ROLL_SAVING_THROW,
    ROLL_ATTACK,
    CAST_SPELL,
    DECLARE_REACTIONS,
    USE_ITEM,
    OPEN_LOCK,
    GET_CHARACTER_STATS,
    CHECK_INVENTORY,
    ADD_INVENTORY,
    UPDATE_INVENTORY,
    UPDATE_CHARACTER,
    USE_FEATURE,
    APPLY_HAZARD_DAMAGE,
    GET_ROOM_DETAILS,
    MOVE_IN_FIGHT,
    MOVE_TO,
    GET_MONSTER_STATS,
    RULES_LOOKUP,
    START_ENCOUNTER,
    NEXT_TURN,
    END_ENCOUNTER,
    DASH,
    DISENGAGE,
    DODGE,
    HELP,
    HIDE,
    READY_ACTION,
    TRIGGER_READIED,
    SEARCH,
    USE_OBJECT,
    GRAPPLE,
    SHOVE,
    ESCAPE_GRAPPLE,
    STAND_UP,
    FIRST_AID,
    ADVANCE_NPC_GOALS,
    GET_GAME_FLAGS,
    SET_GAME_FLAG,
    LOG_STORY_EVENT,
    SOCIAL_CHECK,
    TALK_TO,
    COMMAND_SUMMON,
    LEVEL_UP,
    PREPARE_SPELLS,
    ANSWER_PUZZLE,
    DISARM_TRAP,
    ATTACK_OBJECT,
];
