//! The list of tools, their specifications as the LLM sees them, and the one entry point that
//! runs a call.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::schema::strict_schema_for;
use super::{
    ToolContext, ToolError, actions, checks, combat, encounter, features, items, levelling, locks,
    movement, names, objects, preparing, puzzles, reactions, sheet, social, spells, summon_command,
    talk, traps, world,
};
use crate::llm::ToolSpec;
use crate::text::truncate_with_note;

/// Arguments of a tool that takes none.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// One tool: its name, what the model is told, its schema, and its handler.
struct ToolDef {
    name: &'static str,
    description: &'static str,
    schema: fn() -> Value,
    run: fn(&str, &mut ToolContext<'_>) -> Result<Value, ToolError>,
}

/// Parses a call's arguments into their type, with an error that lists what is expected.
fn parse_args<A: serde::de::DeserializeOwned + JsonSchema>(
    tool: &str,
    raw: &str,
) -> Result<A, ToolError> {
    let raw = if raw.trim().is_empty() { "{}" } else { raw };
    serde_json::from_str(raw).map_err(|e| {
        let schema = strict_schema_for::<A>();
        let fields: Vec<String> = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        ToolError::new(format!(
            "the arguments of {tool} do not parse: {e}; expected a JSON object with exactly these fields (null where optional): {}",
            if fields.is_empty() { "none".to_owned() } else { fields.join(", ") }
        ))
    })
}

/// A handler's typed result as the JSON the model reads.
fn content(result: impl Serialize) -> Result<Value, ToolError> {
    serde_json::to_value(result)
        .map_err(|e| ToolError::new(format!("the result could not be written as JSON: {e}")))
}

macro_rules! tool {
    ($name:expr, $description:literal, $args:ty, $handler:path) => {
        ToolDef {
            name: $name,
            description: $description,
            schema: strict_schema_for::<$args>,
            run: |raw, ctx| content($handler(parse_args::<$args>($name, raw)?, ctx)?),
        }
    };
}

static TOOLS: &[ToolDef] = &[
    tool!(
        names::ROLL_DICE,
        "Roll dice for what no other tool covers.",
        checks::RollDiceArgs,
        checks::roll_dice
    ),
    tool!(
        names::ROLL_SKILL_CHECK,
        "Roll a skill check against a DC.",
        checks::SkillCheckArgs,
        checks::roll_skill_check
    ),
    tool!(
        names::ROLL_SAVING_THROW,
        "Roll a saving throw against a DC.",
        checks::SavingThrowArgs,
        checks::roll_saving_throw
    ),
    tool!(
        names::ROLL_ATTACK,
        "Make an attack.",
        combat::AttackArgs,
        combat::roll_attack
    ),
    tool!(
        names::CAST_SPELL,
        "Cast a spell.",
        spells::CastSpellArgs,
        spells::cast_spell
    ),
    tool!(
        names::DECLARE_REACTIONS,
        "Set the reaction spells (Shield, Counterspell) a character casts on monsters' turns.",
        reactions::DeclareReactionsArgs,
        reactions::declare_reactions
    ),
    tool!(
        names::USE_ITEM,
        "Use an item from the inventory.",
        items::UseItemArgs,
        items::use_item
    ),
    tool!(
        names::OPEN_LOCK,
        "Pick or force a locked exit without its key.",
        locks::OpenLockArgs,
        locks::open_lock
    ),
    tool!(
        names::GET_CHARACTER_STATS,
        "A character's full sheet.",
        sheet::StatsArgs,
        sheet::get_character_stats
    ),
    tool!(
        names::CHECK_INVENTORY,
        "A character's items and gold.",
        items::InventoryArgs,
        items::check_inventory
    ),
    tool!(
        names::ADD_INVENTORY,
        "Give a character an item found here (rarely, from the story).",
        items::AddItemArgs,
        items::add_inventory
    ),
    tool!(
        names::UPDATE_INVENTORY,
        "Add or remove a quantity of a character's item.",
        items::UpdateItemArgs,
        items::update_inventory
    ),
    tool!(
        names::UPDATE_CHARACTER,
        "A condition the story causes or ends, ending concentration, or a rest.",
        sheet::UpdateCharacterArgs,
        sheet::update_character
    ),
    tool!(
        names::USE_FEATURE,
        "Use a class or racial feature; a refusal lists the usable ones.",
        features::UseFeatureArgs,
        features::use_feature
    ),
    tool!(
        names::APPLY_HAZARD_DAMAGE,
        "Damage from a fall or a hazard (not an attack or a spell).",
        sheet::HazardDamageArgs,
        sheet::apply_hazard_damage
    ),
    tool!(
        names::GET_ROOM_DETAILS,
        "Describe where the party is.",
        world::RoomArgs,
        world::get_room_details
    ),
    tool!(
        names::MOVE_IN_FIGHT,
        "Move a combatant on its turn in a fight.",
        movement::MoveInFightArgs,
        movement::move_in_fight
    ),
    tool!(
        names::MOVE_TO,
        "Move the party through an open exit.",
        world::MoveArgs,
        world::move_to
    ),
    tool!(
        names::GET_MONSTER_STATS,
        "A seen monster's stat block.",
        world::MonsterArgs,
        world::get_monster_stats
    ),
    tool!(
        names::RULES_LOOKUP,
        "Look up a rule, condition or spell.",
        world::RulesArgs,
        world::rules_lookup
    ),
    tool!(
        names::START_ENCOUNTER,
        "Start a fight: rolls initiative.",
        encounter::StartEncounterArgs,
        encounter::start_encounter
    ),
    tool!(
        names::NEXT_TURN,
        "End the current turn in a fight.",
        NoArgs,
        encounter::next_turn
    ),
    tool!(
        names::END_ENCOUNTER,
        "End the fight once it is decided.",
        NoArgs,
        encounter::end_encounter
    ),
    tool!(
        names::DASH,
        "The Dash action in a fight.",
        actions::CreatureArgs,
        actions::dash
    ),
    tool!(
        names::DISENGAGE,
        "The Disengage action in a fight.",
        actions::CreatureArgs,
        actions::disengage
    ),
    tool!(
        names::DODGE,
        "The Dodge action in a fight.",
        actions::CreatureArgs,
        actions::dodge
    ),
    tool!(
        names::HELP,
        "The Help action in a fight.",
        actions::HelpArgs,
        actions::help
    ),
    tool!(
        names::HIDE,
        "The Hide action in a fight.",
        actions::CreatureArgs,
        actions::hide
    ),
    tool!(
        names::READY_ACTION,
        "The Ready action in a fight (then trigger_readied).",
        actions::ReadyArgs,
        actions::ready_action
    ),
    tool!(
        names::TRIGGER_READIED,
        "Make a readied attack when its trigger happens.",
        actions::TriggerArgs,
        actions::trigger_readied
    ),
    tool!(
        names::SEARCH,
        "The Search action in a fight.",
        actions::SearchArgs,
        actions::search
    ),
    tool!(
        names::USE_OBJECT,
        "Use an object in the scene (a lever).",
        actions::UseObjectArgs,
        actions::use_object
    ),
    tool!(
        names::GRAPPLE,
        "Grapple a creature instead of one attack.",
        actions::GrappleArgs,
        actions::grapple
    ),
    tool!(
        names::SHOVE,
        "Shove a creature instead of one attack.",
        actions::ShoveArgs,
        actions::shove
    ),
    tool!(
        names::ESCAPE_GRAPPLE,
        "Escape a grapple or a spell's hold (Web).",
        actions::CreatureArgs,
        actions::escape_grapple
    ),
    tool!(
        names::STAND_UP,
        "Stand up from prone.",
        actions::CreatureArgs,
        actions::stand_up
    ),
    tool!(
        names::FIRST_AID,
        "Stabilise a dying character within 5 ft.",
        actions::FirstAidArgs,
        actions::first_aid
    ),
    tool!(
        names::ADVANCE_NPC_GOALS,
        "Move an NPC here to its goal's next step, which waits on no trigger.",
        world::NpcGoalArgs,
        world::advance_npc_goals
    ),
    tool!(
        names::GET_GAME_FLAGS,
        "The world flags the story has set.",
        NoArgs,
        world::get_game_flags
    ),
    tool!(
        names::SET_GAME_FLAG,
        "Set a world flag that matters later.",
        world::SetFlagArgs,
        world::set_game_flag
    ),
    tool!(
        names::LOG_STORY_EVENT,
        "Record something the story must remember.",
        world::StoryArgs,
        world::log_story_event
    ),
    tool!(
        names::SOCIAL_CHECK,
        "Persuade, deceive, intimidate or read an NPC here.",
        social::SocialCheckArgs,
        social::social_check
    ),
    tool!(
        names::TALK_TO,
        "Talk with an NPC here, or give it an item.",
        talk::TalkArgs,
        talk::talk_to
    ),
    tool!(
        names::COMMAND_SUMMON,
        "Tell a summoned creature whom to attack next.",
        summon_command::CommandSummonArgs,
        summon_command::command_summon
    ),
    tool!(
        names::LEVEL_UP,
        "Take a character's next level; a refusal lists the choices.",
        levelling::LevelUpArgs,
        levelling::level_up
    ),
    tool!(
        names::PREPARE_SPELLS,
        "Change prepared spells after a long rest.",
        preparing::PrepareSpellsArgs,
        preparing::prepare_spells
    ),
    tool!(
        names::ANSWER_PUZZLE,
        "Pass on the player's own answer to a puzzle.",
        puzzles::AnswerPuzzleArgs,
        puzzles::answer_puzzle
    ),
    tool!(
        names::DISARM_TRAP,
        "Try to disarm a found trap where the party is.",
        traps::DisarmTrapArgs,
        traps::disarm_trap
    ),
    tool!(
        names::ATTACK_OBJECT,
        "Attack an object here (a door).",
        objects::AttackObjectArgs,
        objects::attack_object
    ),
];

/// The name of every tool, in the order the LLM sees them.
pub fn tool_names() -> Vec<&'static str> {
    TOOLS.iter().map(|t| t.name).collect()
}

/// Every tool as the LLM sees it: name, description and strict-mode argument schema.
pub fn tool_specs() -> Vec<ToolSpec> {
    TOOLS
        .iter()
        .map(|t| ToolSpec::new(t.name, t.description, (t.schema)()))
        .collect()
}

/// What a tool call gave back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// Whether it succeeded (and applied its changes).
    pub ok: bool,
    /// The result for the model: the tool's value, or `{"error": "..."}`.
    pub content: Value,
}

impl ToolResult {
    /// The content as the text of a tool message (compact JSON, as `Display` writes it, but
    /// into a byte buffer rather than through a formatter).
    pub fn to_text(&self) -> String {
        serde_json::to_string(&self.content).unwrap_or_default()
    }
}

/// Runs one tool call. An unknown tool, arguments that do not parse, or a call the rules refuse
/// give `ok: false` with a message for the model, and leave the state and the turn log exactly
/// as they were.
pub fn call_tool(name: &str, arguments: &str, ctx: &mut ToolContext<'_>) -> ToolResult {
    let refused = |message: String| ToolResult {
        ok: false,
        content: serde_json::json!({
            "error": truncate_with_note(&message, ctx.limits.max_error_bytes)
        }),
    };
    let Some(tool) = TOOLS.iter().find(|t| t.name == name) else {
        return refused(format!(
            "there is no tool {:?}; the tools are: {}",
            truncate_with_note(name, 60),
            tool_names().join(", ")
        ));
    };
    if let Err(message) = check_sizes(arguments, ctx.limits) {
        return refused(message);
    }
    // The rollback point: a copy of the state is a few reference counts (its parts are shared
    // and copied on write, `GameState`), so a call that changes nothing copies nothing.
    let saved_state = ctx.state.clone();
    let (changes, rolls, events, new_items, told) = (
        ctx.log.changes.len(),
        ctx.log.rolls.len(),
        ctx.log.events.len(),
        ctx.log.new_items,
        ctx.log.told.len(),
    );
    // What the call set in motion in the story (an NPC's goal step whose trigger it reached)
    // is part of the call: refused with it if the story cannot follow.
    let ran = (tool.run)(arguments, ctx).and_then(|content| {
        // What the call's own tool told (a trap it set off), then what followed from it.
        let mut lines = ctx.log.told.split_off(told);
        lines.extend(super::story::follow_triggers(ctx)?);
        Ok(with_story(content, lines))
    });
    // The dice the call drew, with their nonce, go on every record it made; a refused call's
    // dice are dropped and its nonce is not used again.
    let fair = ctx.rng.take_call();
    match ran {
        Ok(content) => {
            if let Some(draw) = fair {
                for record in &mut ctx.log.rolls[rolls..] {
                    record.fair = Some(draw.clone());
                }
            }
            ToolResult { ok: true, content }
        }
        Err(error) => {
            *ctx.state = saved_state;
            ctx.log.changes.truncate(changes);
            ctx.log.rolls.truncate(rolls);
            ctx.log.events.truncate(events);
            ctx.log.new_items = new_items;
            ctx.log.told.truncate(told);
            refused(error.message)
        }
    }
}

/// The result with what the story did because of it, under `"story"` (a result that is not an
/// object is wrapped as `{"result": ..., "story": [...]}`).
fn with_story(content: Value, told: Vec<String>) -> Value {
    if told.is_empty() {
        return content;
    }
    match content {
        Value::Object(mut map) => {
            // A result may carry story lines of its own (a puzzle's effects): these follow.
            let mut lines = match map.remove(super::results::STORY) {
                Some(Value::Array(own)) => own,
                _ => Vec::new(),
            };
            lines.extend(told.into_iter().map(Value::from));
            map.insert(super::results::STORY.into(), Value::Array(lines));
            Value::Object(map)
        }
        other => serde_json::json!({"result": other, super::results::STORY: told}),
    }
}

/// Refuses arguments over [`ToolLimits::max_argument_bytes`], or with one text over
/// [`ToolLimits::max_text_bytes`], before they are parsed into a tool's type: whatever a call
/// stores is bounded, and no error echoes a huge text back.
fn check_sizes(arguments: &str, limits: &super::ToolLimits) -> Result<(), String> {
    if arguments.len() > limits.max_argument_bytes {
        return Err(format!(
            "the arguments are {} bytes long; at most {} are accepted: send names and short texts",
            arguments.len(),
            limits.max_argument_bytes
        ));
    }
    // No text can be longer than the whole arguments.
    if arguments.len() <= limits.max_text_bytes {
        return Ok(());
    }
    // Arguments that are not JSON are left to the tool's own parser, which says what is wrong.
    let Ok(value) = serde_json::from_str::<Value>(arguments) else {
        return Ok(());
    };
    match longest_text(&value, "") {
        Some((field, len)) if len > limits.max_text_bytes => Err(format!(
            "{field} is {len} bytes long; a text in a tool call may have at most {} bytes",
            limits.max_text_bytes
        )),
        _ => Ok(()),
    }
}

/// The longest string anywhere in a JSON value, with the path of the field that holds it.
fn longest_text(value: &Value, path: &str) -> Option<(String, usize)> {
    let field = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    };
    match value {
        Value::String(text) => Some((
            if path.is_empty() { "the text" } else { path }.to_owned(),
            text.len(),
        )),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| longest_text(item, &format!("{path}[{i}]")))
            .max_by_key(|(_, len)| *len),
        Value::Object(map) => map
            .iter()
            .flat_map(|(key, item)| {
                // A key is a text too.
                let own = (field(&truncate_with_note(key, 40)), key.len());
                std::iter::once(own).chain(longest_text(item, &field(key)))
            })
            .max_by_key(|(_, len)| *len),
        _ => None,
    }
}
