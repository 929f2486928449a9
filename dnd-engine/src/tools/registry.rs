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
        "Roll dice in standard notation for anything no other tool covers. Never invent a roll: call this.",
        checks::RollDiceArgs,
        checks::roll_dice
    ),
    tool!(
        names::ROLL_SKILL_CHECK,
        "Roll a skill check for a character (or visible monster) against a DC; conditions are applied by the engine.",
        checks::SkillCheckArgs,
        checks::roll_skill_check
    ),
    tool!(
        names::ROLL_SAVING_THROW,
        "Roll a saving throw against a DC; conditions are applied by the engine.",
        checks::SavingThrowArgs,
        checks::roll_saving_throw
    ),
    tool!(
        names::ROLL_ATTACK,
        "Make an attack (a monster's whole multiattack by default): to-hit against the target's AC, crits, damage applied.",
        combat::AttackArgs,
        combat::roll_attack
    ),
    tool!(
        names::CAST_SPELL,
        "Cast a spell the caster knows, or one a feature or trait grants (an invocation's once a long rest with a warlock slot; a tiefling's Infernal Legacy, no slot): spends the slot, resolves attack or save per target, rolls damage or healing, tracks concentration.",
        spells::CastSpellArgs,
        spells::cast_spell
    ),
    tool!(
        names::DECLARE_REACTIONS,
        "Declare what a character casts as its reaction during monsters' turns (Shield when hit, Counterspell when a creature casts a spell, Hellish Rebuke when damaged), replacing any earlier declaration; the engine casts it only when legal (spell known, a slot, the reaction unspent, in range), Shield only when it turns the hit into a miss.",
        reactions::DeclareReactionsArgs,
        reactions::declare_reactions
    ),
    tool!(
        names::USE_ITEM,
        "Use an item from the inventory: a healing potion heals (an action), a key opens its lock, an oil coats a weapon, a spell scroll casts its spell (no slot; the spell on the reader's class list), a magic item does what its data says; other items are narrated.",
        items::UseItemArgs,
        items::use_item
    ),
    tool!(
        names::OPEN_LOCK,
        "Try to open a locked exit without its key, by picking the lock (thieves' tools) or forcing it; the engine knows the DC.",
        locks::OpenLockArgs,
        locks::open_lock
    ),
    tool!(
        names::GET_CHARACTER_STATS,
        "A character's full sheet: abilities, skills, saves, HP, AC, slots, spells, attacks.",
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
        "Give a character an item: taken from loot where the party is, or (rarely, limited per turn) granted by the story.",
        items::AddItemArgs,
        items::add_inventory
    ),
    tool!(
        names::UPDATE_INVENTORY,
        "Add (positive) or remove (negative) a quantity of an item: used up, dropped, given, sold.",
        items::UpdateItemArgs,
        items::update_inventory
    ),
    tool!(
        names::UPDATE_CHARACTER,
        "Change what the story may change on a character: prone or exhaustion from a situation, ending a condition by choice, concentration, rests outside a fight.",
        sheet::UpdateCharacterArgs,
        sheet::update_character
    ),
    tool!(
        names::USE_FEATURE,
        "A character uses a class or racial feature the engine plays, its cost, uses and rules checked (a refusal lists what it may use). Fighter: second-wind (bonus action), action-surge (after the action). Barbarian: rage (bonus action; option frenzy for a Berserker), reckless-attack (before the first attack of a turn), frenzy (a frenzied rage's bonus-action attack at target, option the weapon). Ranger: primeval-awareness (action, amount the slot level), hunters-prey-horde-breaker (once a turn after a weapon attack: target another creature within 5 ft of that target; option the weapon). Rogue: cunning-action (bonus action, option dash, disengage or hide; a Thief also use_object or thieves_tools with target). Monk, bonus actions: martial-arts and flurry-of-blows (target; Open Hand option prone, push or no-reactions), patient-defense, step-of-the-wind (option dash or disengage); stunning-strike (readies it for the next melee hit). Bard: bardic-inspiration (bonus action, target another creature). Cleric and paladin: channel-divinity-turn-undead, -preserve-life (option the split, \"kraven: 10, wren: 5\"), -turn-the-unholy, -sacred-weapon (option the weapon); divine-smite (amount the slot level, readied for the next melee hit); lay-on-hands (action, target, amount, or option poison); divine-sense (action). Druid: wild-shape (action, option the beast; option revert, bonus action). Sorcerer: flexible-casting-converting (a slot of level amount into points), flexible-casting-creating (points into a slot of level amount). Warlock: pact-of-the-blade (action, option the weapon), pact-of-the-chain (one attack of the Attack action given up: target the creature the familiar attacks with its reaction, option its attack), one-with-shadows (action, in dim light or darkness), gaze-of-two-minds (action, target an ally). Dragonborn: breath-weapon (action, target).",
        features::UseFeatureArgs,
        features::use_feature
    ),
    tool!(
        names::APPLY_HAZARD_DAMAGE,
        "Harm from a fall or a hazard, not an attack or a spell: name the cause (feet fallen, or the hazard's severity and damage type) and the engine rolls the damage. Healing comes only from spells, items and rests.",
        sheet::HazardDamageArgs,
        sheet::apply_hazard_damage
    ),
    tool!(
        names::GET_ROOM_DETAILS,
        "Describe where the party is: exits, what they have found, who is here. Hidden things appear only once found.",
        world::RoomArgs,
        world::get_room_details
    ),
    tool!(
        names::MOVE_IN_FIGHT,
        "In a fight, move a combatant on its turn to an area of the room or toward a creature: spends feet of its movement (difficult terrain doubles), and leaving a foe's reach without Disengage provokes its opportunity attack, rolled here.",
        movement::MoveInFightArgs,
        movement::move_in_fight
    ),
    tool!(
        names::MOVE_TO,
        "Move the party through an open exit of the current room.",
        world::MoveArgs,
        world::move_to
    ),
    tool!(
        names::GET_MONSTER_STATS,
        "The stat block of a monster the party has seen.",
        world::MonsterArgs,
        world::get_monster_stats
    ),
    tool!(
        names::RULES_LOOKUP,
        "Look up a rules topic, condition or spell.",
        world::RulesArgs,
        world::rules_lookup
    ),
    tool!(
        names::START_ENCOUNTER,
        "Start a fight: rolls initiative; monsters whose turn comes first act at once.",
        encounter::StartEncounterArgs,
        encounter::start_encounter
    ),
    tool!(
        names::NEXT_TURN,
        "End the current turn in a fight: monsters act on their turns until it is a character's turn.",
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
        "The Dash action in a fight: extra movement equal to the creature's speed this turn.",
        actions::CreatureArgs,
        actions::dash
    ),
    tool!(
        names::DISENGAGE,
        "The Disengage action in a fight: its movement provokes no opportunity attacks this turn.",
        actions::CreatureArgs,
        actions::disengage
    ),
    tool!(
        names::DODGE,
        "The Dodge action in a fight: until its next turn, attacks against it have disadvantage and it has advantage on Dexterity saves.",
        actions::CreatureArgs,
        actions::dodge
    ),
    tool!(
        names::HELP,
        "The Help action in a fight: an ally has advantage on its next ability check, or its next attack against a foe within 5 ft of the helper, before the helper's next turn.",
        actions::HelpArgs,
        actions::help
    ),
    tool!(
        names::HIDE,
        "The Hide action in a fight: a Stealth check against the foes' passive Perception; hidden, its attacks have advantage (and reveal it) and attacks against it disadvantage.",
        actions::CreatureArgs,
        actions::hide
    ),
    tool!(
        names::READY_ACTION,
        "The Ready action in a fight: an attack readied for a trigger, made with the reaction through trigger_readied before the creature's next turn.",
        actions::ReadyArgs,
        actions::ready_action
    ),
    tool!(
        names::TRIGGER_READIED,
        "Set off a readied attack when its trigger happens (on anyone's turn): spends the reaction and makes the attack.",
        actions::TriggerArgs,
        actions::trigger_readied
    ),
    tool!(
        names::SEARCH,
        "The Search action in a fight: a Perception or Investigation check that finds hidden foes and hidden things.",
        actions::SearchArgs,
        actions::search
    ),
    tool!(
        names::USE_OBJECT,
        "The Use an Object action: interact with something in the scene (a lever, a door); a trap on it goes off, even one the party knows (disarm_trap first); items carried use use_item.",
        actions::UseObjectArgs,
        actions::use_object
    ),
    tool!(
        names::GRAPPLE,
        "Grapple instead of one attack: Athletics against the target's Athletics or Acrobatics; the target no more than one size larger. Grappled: speed 0.",
        actions::GrappleArgs,
        actions::grapple
    ),
    tool!(
        names::SHOVE,
        "Shove instead of one attack: Athletics against the target's Athletics or Acrobatics; knocks it prone or pushes it 5 ft.",
        actions::ShoveArgs,
        actions::shove
    ),
    tool!(
        names::ESCAPE_GRAPPLE,
        "The action to escape a grapple (Athletics or Acrobatics against the grappler's Athletics), or a spell's hold such as Web (its check against the caster's DC).",
        actions::CreatureArgs,
        actions::escape_grapple
    ),
    tool!(
        names::STAND_UP,
        "Stand up from prone: costs half the creature's speed in movement.",
        actions::CreatureArgs,
        actions::stand_up
    ),
    tool!(
        names::FIRST_AID,
        "First aid on a dying character within 5 ft (the action in a fight): a DC 10 Wisdom (Medicine) check; on a success it is stable and makes no more death saves.",
        actions::FirstAidArgs,
        actions::first_aid
    ),
    tool!(
        names::ADVANCE_NPC_GOALS,
        "Move an NPC where the party is to the next step of its goal, when that step waits on no trigger (steps with a trigger move on by themselves).",
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
        "Set a world flag when something that matters later happens.",
        world::SetFlagArgs,
        world::set_game_flag
    ),
    tool!(
        names::LOG_STORY_EVENT,
        "Record something the story must remember: a death, a promise, a name, a discovery.",
        world::StoryArgs,
        world::log_story_event
    ),
    tool!(
        names::SOCIAL_CHECK,
        "Persuade, deceive or intimidate an NPC where the party is into a request (or, with none, to warm to the party), or read it with insight: the engine sets the DC from its attitude, rolls, decides and plays what a granted request does.",
        social::SocialCheckArgs,
        social::social_check
    ),
    tool!(
        names::TALK_TO,
        "Talk with an NPC where the party is: with no topic, the topics it will discuss at its attitude; with one, what it says; give hands it an item from the hero's pack (a gift it wants does what the story says).",
        talk::TalkArgs,
        talk::talk_to
    ),
    tool!(
        names::COMMAND_SUMMON,
        "A caster tells its summoned creature (Conjure Animals, Animate Dead) which hostile monster to attack on its next turn; Animate Dead's command costs the caster's bonus action and reaches 60 ft. Uncommanded, conjured beasts fight the caster's foes and animated dead only defend themselves.",
        summon_command::CommandSummonArgs,
        summon_command::command_summon
    ),
    tool!(
        names::LEVEL_UP,
        "A character takes its next level once it has the XP (or, in a milestone adventure, a milestone): hit points fixed or rolled, slots, features; name the subclass, improvement and new spells when the level asks for them (a refusal lists the options).",
        levelling::LevelUpArgs,
        levelling::level_up
    ),
    tool!(
        names::PREPARE_SPELLS,
        "A cleric, druid, paladin or wizard changes its prepared spells after a long rest (outside a fight, once per rest): from its class list (a wizard: its spellbook), at most its ability modifier + level; spells null lists the options.",
        preparing::PrepareSpellsArgs,
        preparing::prepare_spells
    ),
    tool!(
        names::ANSWER_PUZZLE,
        "Pass the player's answer to a riddle or word-lock listed under puzzles in the state, in their own words; the engine judges it and plays what follows. Never answer for them.",
        puzzles::AnswerPuzzleArgs,
        puzzles::answer_puzzle
    ),
    tool!(
        names::DISARM_TRAP,
        "A character tries to disarm a trap the party has found where it stands (the action in a fight): the engine knows the check and its DC; a bad failure sets it off.",
        traps::DisarmTrapArgs,
        traps::disarm_trap
    ),
    tool!(
        names::ATTACK_OBJECT,
        "A character attacks an object the party knows where it stands (a door, a heart of ice), in or out of a fight: to-hit against its AC, damage through its immunities; at 0 HP it breaks and what that does happens.",
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
    match ran {
        Ok(content) => ToolResult { ok: true, content },
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
