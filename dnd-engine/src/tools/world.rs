//! `get_room_details`, `move_to`, `get_monster_stats`, `rules_lookup`, `advance_npc_goals`,
//! `get_game_flags`, `set_game_flag`, `log_story_event`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::registry::NoArgs;
use super::results::{
    ExitSeen, FeatureSeen, FlagSet, Flags, GoalAdvanced, GoalsAdvanced, MonsterSeen, MonsterStats,
    NpcSeen, RoomDetails, RulesEntry, StoryLogged,
};
use super::{ToolContext, ToolError};
use crate::state::{Change, StoryEvent, StoryKind};

/// How much of a room to describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Detail {
    /// Title, one line, exits, what is known to be here.
    Overview,
    /// Everything known: the full description and each found feature's description.
    Full,
}

/// Arguments of `get_room_details`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomArgs {
    /// Overview or full; null for overview.
    #[schemars(description = "Null: overview.")]
    pub detail: Option<Detail>,
}

pub(super) fn get_room_details(
    args: RoomArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<RoomDetails, ToolError> {
    let room = ctx
        .state
        .party_location()
        .ok_or_else(|| ToolError::new("the party is nowhere"))?;
    let full = args.detail == Some(Detail::Full);
    let features = room
        .features
        .iter()
        .filter(|f| f.is_known())
        .map(|f| FeatureSeen {
            id: f.id.clone(),
            name: f.name.clone(),
            description: full.then(|| f.description.clone()),
            loot: full.then(|| f.loot.clone()).filter(|loot| !loot.is_empty()),
            // Only a trap the party knows of, still armed (`tools::traps`).
            trapped: f.trap_known() && f.trap_armed(),
            hit_points: f
                .object
                .as_ref()
                .map(|o| format!("{}/{}", o.hp_left(), o.hit_points)),
        })
        .collect();
    let exits = room
        .exits
        .iter()
        .filter(|e| !e.hidden)
        .map(|e| ExitSeen {
            direction: e.direction.clone(),
            to: e.to.clone(),
            locked: e.locked,
        })
        .collect();
    let monsters = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.location == room.id && m.revealed)
        .map(|m| MonsterSeen {
            id: m.id.clone(),
            name: m.name.clone(),
            alive: m.is_alive(),
            hostile: m.hostile,
        })
        .collect();
    let npcs = ctx
        .state
        .npcs
        .iter()
        .filter(|n| n.location == room.id)
        .map(|n| NpcSeen {
            id: n.id.clone(),
            name: n.name.clone(),
            description: n.description.clone(),
            disposition: n.disposition,
        })
        .collect();
    Ok(RoomDetails {
        id: room.id.clone(),
        title: room.title.clone(),
        description: if full {
            room.description.clone()
        } else {
            room.short_description.clone()
        },
        exits,
        features,
        loot: room.loot.clone(),
        monsters,
        npcs,
    })
}

/// Arguments of `move_to`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveArgs {
    /// The exit's direction ("north") or the id of the room it leads to.
    #[schemars(description = "A direction, or the room it leads to.")]
    pub exit: String,
}

pub(super) fn move_to(args: MoveArgs, ctx: &mut ToolContext<'_>) -> Result<RoomDetails, ToolError> {
    // A locked way says how it opens, so the model's next call is a lawful one.
    if let Some(exit) = ctx
        .state
        .party_location()
        .and_then(|l| l.exit(&args.exit))
        .filter(|e| e.locked && !e.hidden)
    {
        let key = exit
            .key
            .as_deref()
            .filter(|k| ctx.state.characters.iter().any(|c| c.item_quantity(k) > 0));
        return Err(ToolError::new(format!(
            "the exit {:?} is locked: open it first, with use_item and {} or with open_lock (pick it with thieves' tools, or force it), then move_to",
            exit.direction,
            match key {
                Some(k) => format!("the {k} the party carries"),
                None => "its key, if the party finds it,".to_owned(),
            }
        )));
    }
    super::encounter::leave_fight(ctx)?;
    // The way out may cross a trap (the glacier's thin ice on the way north).
    super::traps::on_leaving(ctx, &args.exit)?;
    ctx.commit(vec![
        Change::PartyMoved {
            exit: args.exit.clone(),
        },
        Change::TimeAdvanced { minutes: 10 },
    ])?;
    let here = ctx
        .state
        .party_location()
        .map(|l| l.id.clone())
        .unwrap_or_default();
    // Whoever stands in the open is seen on arrival.
    let seen: Vec<Change> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.location == here && !m.revealed && m.is_alive())
        .map(|m| Change::MonsterRevealed {
            monster: m.id.clone(),
        })
        .collect();
    ctx.commit(seen)?;
    super::traps::on_entering(ctx)?;
    get_room_details(
        RoomArgs {
            detail: Some(Detail::Full),
        },
        ctx,
    )
}

/// Arguments of `get_monster_stats`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MonsterArgs {
    /// A monster the party has seen: id or name.
    #[schemars(extend("description" = ""))]
    pub monster: String,
}

pub(super) fn get_monster_stats(
    args: MonsterArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<MonsterStats, ToolError> {
    let m = ctx
        .state
        .monster(&args.monster)
        .filter(|m| m.revealed)
        .ok_or_else(|| {
            let seen: Vec<&str> = ctx
                .state
                .monsters
                .iter()
                .filter(|m| m.revealed)
                .map(|m| m.id.as_str())
                .collect();
            ToolError::new(format!(
                "no monster {:?} the party has seen; seen: {}",
                args.monster,
                seen.join(", ")
            ))
        })?;
    let template = ctx
        .srd
        .monster(&m.template)
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(MonsterStats {
        id: m.id.clone(),
        name: m.name.clone(),
        hp: m.hp,
        armor_class: m.armor_class,
        conditions: m.conditions,
        stat_block: template.clone(),
    })
}

/// Arguments of `rules_lookup`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesArgs {
    /// A rules topic ("grappling", "cover"), a condition ("prone") or a spell ("fireball").
    #[schemars(extend("description" = ""))]
    pub topic: String,
}

pub(super) fn rules_lookup(
    args: RulesArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<RulesEntry, ToolError> {
    let srd = ctx.srd;
    if let Ok(rule) = srd.rule(&args.topic) {
        return Ok(RulesEntry::Rule(rule.clone()));
    }
    if let Ok(condition) = srd.condition(&args.topic) {
        return Ok(RulesEntry::Condition(condition.clone()));
    }
    if let Ok(spell) = srd.spell(&args.topic) {
        return Ok(RulesEntry::Spell(Box::new(spell.clone())));
    }
    Err(ToolError::new(
        srd.rule(&args.topic)
            .err()
            .map_or_else(|| "not found".into(), |e| e.to_string()),
    ))
}

/// Arguments of `advance_npc_goals`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NpcGoalArgs {
    /// An NPC where the party is, whose current goal step waits on no trigger: it moves to its
    /// next step (and what that step does happens). Null: nothing to force; steps with a
    /// trigger move on by themselves when the world reaches it.
    #[schemars(extend("description" = ""))]
    pub npc: Option<String>,
}

pub(super) fn advance_npc_goals(
    args: NpcGoalArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<GoalsAdvanced, ToolError> {
    let Some(name) = &args.npc else {
        return Ok(GoalsAdvanced {
            advanced: Vec::new(),
            story: Vec::new(),
        });
    };
    // Only NPCs the party stands with are named: an error never lists who it has not met.
    let npc = super::social::present_npc(ctx.state, name)?;
    let Some(step) = npc.goal_steps.get(npc.current_step) else {
        return Err(ToolError::new(format!(
            "{} has no goal step left to move on from",
            npc.name
        )));
    };
    if step.trigger_flag.is_some() || step.after_minutes.is_some() {
        return Err(ToolError::new(format!(
            "{} moves on when the story reaches it, not when asked: their step waits on something the party must do, or on time passing",
            npc.name
        )));
    }
    let id = npc.id.clone();
    let mut told = Vec::new();
    super::story::advance(ctx, &id, None, 0, &mut told)?;
    let n = ctx
        .state
        .npc(&id)
        .ok_or_else(|| ToolError::new(format!("no NPC {id:?}")))?;
    Ok(GoalsAdvanced {
        advanced: vec![GoalAdvanced {
            npc: n.name.clone(),
            now: n
                .goal_steps
                .get(n.current_step)
                .map(|s| s.description.clone()),
            goal_done: n.current_step >= n.goal_steps.len(),
        }],
        story: told,
    })
}

pub(super) fn get_game_flags(_args: NoArgs, ctx: &mut ToolContext<'_>) -> Result<Flags, ToolError> {
    // Only what has happened: a flag at rest names what the party has not met.
    Ok(Flags {
        flags: ctx
            .state
            .flags_holding()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}

/// A flag's value.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FlagValue {
    /// true or false.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A short text.
    Text(String),
}

/// Arguments of `set_game_flag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetFlagArgs {
    /// The flag's name, in snake_case ("harpy_defeated").
    #[schemars(description = "snake_case")]
    pub key: String,
    /// Its value.
    #[schemars(extend("description" = ""))]
    pub value: FlagValue,
}

pub(super) fn set_game_flag(
    args: SetFlagArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<FlagSet, ToolError> {
    let value = match args.value {
        FlagValue::Bool(b) => json!(b),
        FlagValue::Number(n) => json!(n),
        FlagValue::Text(t) => json!(t),
    };
    if args.key.trim().is_empty() {
        return Err(ToolError::new(
            "a flag needs a name: a short snake_case word such as \"harpy_defeated\"",
        ));
    }
    let size = args.key.len() + value.to_string().len();
    if size > ctx.limits.max_flag_bytes {
        return Err(ToolError::new(format!(
            "a flag's name and value may have at most {} bytes together (this one has {size}); use a short snake_case name and a short value",
            ctx.limits.max_flag_bytes
        )));
    }
    // What the story sets (a puzzle solved, a gift given, a foe beaten, a trap sprung) is the
    // engine's to judge, never the model's.
    if ctx.state.story_sets_flag(&args.key) {
        return Err(ToolError::new(format!(
            "the flag {:?} is set by the engine when the story reaches it (a puzzle answered through answer_puzzle, a gift through talk_to, a lie seen through with social_check, a foe defeated, a trap or object, an NPC's goal); flags the game master may set are the ones no story event sets",
            args.key
        )));
    }
    let flags = &ctx.state.flags;
    if !flags.contains_key(&args.key) && flags.len() >= ctx.limits.max_flags {
        return Err(ToolError::new(format!(
            "the world already holds {} flags, the most it keeps; change one that holds instead ({})",
            flags.len(),
            ctx.state
                .flags_holding()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    ctx.commit(vec![Change::FlagSet {
        key: args.key.clone(),
        value: value.clone(),
    }])?;
    Ok(FlagSet {
        set: args.key,
        value,
    })
}

/// Arguments of `log_story_event`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoryArgs {
    /// What kind of event: discovery, combat, death, social, promise, quest, loot, other.
    #[schemars(extend("description" = ""))]
    pub kind: StoryKind,
    /// What happened, in one sentence.
    #[schemars(description = "One sentence.")]
    pub text: String,
}

pub(super) fn log_story_event(
    args: StoryArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<StoryLogged, ToolError> {
    if args.text.trim().is_empty() {
        return Err(ToolError::new("text must say what happened"));
    }
    let event = StoryEvent {
        turn: ctx.state.turn + 1,
        kind: args.kind,
        text: args.text,
    };
    ctx.log.events.push(event);
    Ok(StoryLogged { logged: true })
}
