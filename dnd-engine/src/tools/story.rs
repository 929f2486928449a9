//! The story played by the engine: [`play`] turns an adventure's [`StoryEffect`]s into changes
//! (and a fight, when one starts), and [`follow_triggers`], after every tool call, plays what a
//! monster's defeat sets in motion and moves NPCs on to their next goal step whenever the
//! world reaches the step's trigger, so the story never waits for the model to remember it.
//!
//! What happened comes back as short lines the model reads ("Brother Aldous: shows the
//! crawlway"). Only what the party can witness is told: an NPC's step is told when the NPC
//! stands where the party is; a revealed exit or feature is told because the party learns it.

use super::{ToolContext, ToolError};
use crate::state::{Change, GameState, StoryEffect};

/// How deep effects may cascade (a step's effect advancing another NPC, whose step advances a
/// third...): an adventure that loops is stopped with an error, not a hang.
const MAX_DEPTH: usize = 8;

/// How many rounds of goal triggers one tool call may set off.
const MAX_TRIGGER_ROUNDS: usize = 16;

/// Plays `effects` in order: each becomes changes committed at once (so the next sees it).
/// `actor` receives what is given (default: the first hero standing). Returns what the party
/// witnessed, one line each.
pub(super) fn play(
    ctx: &mut ToolContext<'_>,
    effects: &[StoryEffect],
    actor: Option<&str>,
) -> Result<Vec<String>, ToolError> {
    let mut told = Vec::new();
    play_at(ctx, effects, actor, 0, &mut told)?;
    Ok(told)
}

fn play_at(
    ctx: &mut ToolContext<'_>,
    effects: &[StoryEffect],
    actor: Option<&str>,
    depth: usize,
    told: &mut Vec<String>,
) -> Result<(), ToolError> {
    if depth > MAX_DEPTH {
        return Err(ToolError::new(format!(
            "the adventure's story effects cascade more than {MAX_DEPTH} deep (an NPC's goal step advancing another in a loop); the adventure file needs fixing"
        )));
    }
    for effect in effects {
        play_one(ctx, effect, actor, depth, told)?;
    }
    Ok(())
}

fn play_one(
    ctx: &mut ToolContext<'_>,
    effect: &StoryEffect,
    actor: Option<&str>,
    depth: usize,
    told: &mut Vec<String>,
) -> Result<(), ToolError> {
    let state = &*ctx.state;
    match effect {
        StoryEffect::RevealExit { room, direction } => {
            let hidden = state
                .location(room)
                .and_then(|l| l.exit(direction))
                .is_some_and(|e| e.hidden);
            if hidden {
                told.push(format!(
                    "A way {direction} is found in {}.",
                    title(state, room)
                ));
                ctx.commit(vec![Change::ExitFound {
                    location: room.clone(),
                    direction: direction.clone(),
                }])?;
            }
        }
        StoryEffect::UnlockExit { room, direction } => {
            let locked = state
                .location(room)
                .and_then(|l| l.exit(direction))
                .is_some_and(|e| e.locked);
            if locked {
                told.push(format!(
                    "The way {direction} in {} opens.",
                    title(state, room)
                ));
                ctx.commit(vec![Change::ExitUnlocked {
                    location: room.clone(),
                    direction: direction.clone(),
                }])?;
            }
        }
        StoryEffect::RevealFeature { room, feature } => {
            let found = state
                .location(room)
                .and_then(|l| l.features.iter().find(|f| &f.id == feature));
            if let Some(f) = found.filter(|f| !f.is_known()) {
                told.push(format!("Found in {}: {}.", title(state, room), f.name));
                ctx.commit(vec![Change::FeatureFound {
                    location: room.clone(),
                    feature: feature.clone(),
                }])?;
            }
        }
        StoryEffect::GiveItem { item } => {
            let to = receiver(state, actor)?;
            told.push(format!(
                "{} receives {} × {}.",
                state.name_of(&to),
                item.quantity,
                item.name
            ));
            ctx.commit(vec![Change::ItemAdded {
                character: to,
                item: item.clone(),
            }])?;
        }
        StoryEffect::TakeItem { item, quantity } => {
            let mut left = *quantity;
            let mut changes = Vec::new();
            for c in state.characters.iter() {
                let held = c.item_quantity(item);
                let taken = held.min(left);
                if taken > 0 {
                    told.push(format!("{} gives up {taken} × {item}.", c.name));
                    changes.push(Change::ItemRemoved {
                        character: c.id.clone(),
                        item: item.clone(),
                        quantity: taken,
                    });
                    left -= taken;
                }
            }
            ctx.commit(changes)?;
        }
        StoryEffect::SetFlag { flag, value } => {
            ctx.commit(vec![Change::FlagSet {
                key: flag.clone(),
                value: value.clone(),
            }])?;
        }
        StoryEffect::Attitude { npc, disposition } => {
            if let Some(n) = state.npc(npc).filter(|n| n.disposition != *disposition) {
                if party_sees(state, &n.location) {
                    told.push(format!(
                        "{} is now {}.",
                        n.name,
                        format!("{disposition:?}").to_lowercase()
                    ));
                }
                ctx.commit(vec![Change::NpcDisposition {
                    npc: n.id.clone(),
                    disposition: *disposition,
                }])?;
            }
        }
        StoryEffect::RevealGoal { npc } => {
            if let Some(n) = state.npc(npc).filter(|n| !n.goal_revealed) {
                told.push(format!("What {} wants: {}", n.name, n.goal));
                ctx.commit(vec![Change::NpcGoalRevealed { npc: n.id.clone() }])?;
            }
        }
        StoryEffect::AdvanceGoal { npc } => advance(ctx, npc, actor, depth + 1, told)?,
        StoryEffect::MoveNpc { npc, room } => {
            if let Some(n) = state.npc(npc).filter(|n| &n.location != room) {
                if party_sees(state, &n.location) {
                    told.push(format!("{} leaves for {}.", n.name, title(state, room)));
                } else if party_sees(state, room) {
                    told.push(format!("{} arrives.", n.name));
                }
                ctx.commit(vec![Change::NpcMoved {
                    npc: n.id.clone(),
                    location: room.clone(),
                }])?;
            }
        }
        StoryEffect::StartFight { monsters } => start_fight(ctx, monsters, told)?,
        StoryEffect::End { ending } => {
            ctx.commit(vec![Change::AdventureEnded {
                ending: ending.clone(),
            }])?;
            if let Some(e) = crate::state::ending_reached(ctx.state) {
                told.push(format!(
                    "The adventure ends: {}. {}",
                    e.title, e.description
                ));
            }
        }
    }
    Ok(())
}

/// Moves `npc` to its next goal step and plays that step's effects. Returns an error for an
/// NPC with no step left.
pub(super) fn advance(
    ctx: &mut ToolContext<'_>,
    npc: &str,
    actor: Option<&str>,
    depth: usize,
    told: &mut Vec<String>,
) -> Result<(), ToolError> {
    let id = ctx
        .state
        .npc(npc)
        .map(|n| n.id.clone())
        .ok_or_else(|| ToolError::new(format!("no NPC {npc:?}")))?;
    ctx.commit(vec![Change::NpcGoalAdvanced { npc: id.clone() }])?;
    let Some(n) = ctx.state.npc(&id) else {
        return Ok(());
    };
    let Some(step) = n.goal_steps.get(n.current_step).cloned() else {
        return Ok(());
    };
    if party_sees(ctx.state, &n.location) {
        told.push(format!("{} {}", n.name, lower_first(&step.description)));
    }
    play_at(ctx, &step.effects, actor, depth, told)
}

/// Moves on every NPC whose current step's trigger the world has reached, and plays what each
/// new step does, until nothing more is triggered. Run after every tool call that succeeded.
pub(super) fn follow_triggers(ctx: &mut ToolContext<'_>) -> Result<Vec<String>, ToolError> {
    let mut told = Vec::new();
    for _ in 0..MAX_TRIGGER_ROUNDS {
        // A monster out of the fight (dead, fled, surrendered) sets its story in motion.
        let defeated: Vec<(String, Vec<StoryEffect>)> = ctx
            .state
            .story
            .on_defeat
            .iter()
            .filter(|(id, _)| ctx.state.monster(id).is_some_and(|m| !m.is_fighting()))
            .map(|(id, effects)| (id.clone(), effects.clone()))
            .collect();
        for (monster, effects) in defeated {
            ctx.commit(vec![Change::DefeatPlayed { monster }])?;
            play_at(ctx, &effects, None, 0, &mut told)?;
        }
        let due: Vec<String> = crate::state::triggered_goal_steps(ctx.state)
            .into_iter()
            .filter_map(|c| match c {
                Change::NpcGoalAdvanced { npc } => Some(npc),
                _ => None,
            })
            .collect();
        if due.is_empty() {
            return Ok(told);
        }
        for npc in due {
            advance(ctx, &npc, None, 0, &mut told)?;
        }
    }
    Err(ToolError::new(format!(
        "the adventure's goal triggers set each other off more than {MAX_TRIGGER_ROUNDS} times in one call; the adventure file needs fixing"
    )))
}

/// The monsters turn hostile and are seen; those standing where the party is fight now, unless
/// a fight is already on (they then fight in it from their next turn as the hostile do).
fn start_fight(
    ctx: &mut ToolContext<'_>,
    monsters: &[String],
    told: &mut Vec<String>,
) -> Result<(), ToolError> {
    let ids: Vec<String> = monsters
        .iter()
        .filter_map(|m| ctx.state.monster(m))
        .filter(|m| m.is_alive())
        .map(|m| m.id.clone())
        .collect();
    ctx.commit(
        ids.iter()
            .map(|id| Change::MonsterProvoked {
                monster: id.clone(),
            })
            .collect(),
    )?;
    let here = ctx.state.party_location().map(|l| l.id.clone());
    let fighting: Vec<_> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| ids.contains(&m.id) && Some(&m.location) == here.as_ref())
        .cloned()
        .collect();
    if fighting.is_empty() || ctx.state.encounter.is_some() {
        return Ok(());
    }
    let names: Vec<&str> = fighting.iter().map(|m| m.name.as_str()).collect();
    told.push(format!("A fight begins: {}.", names.join(", ")));
    super::encounter::begin_fight(ctx, &fighting, &[])?;
    Ok(())
}

/// Who receives a gift: the actor if it is a hero standing, else the first hero standing.
fn receiver(state: &GameState, actor: Option<&str>) -> Result<String, ToolError> {
    actor
        .and_then(|a| state.character(a))
        .or_else(|| state.characters.iter().find(|c| c.hp.current > 0))
        .or_else(|| state.characters.first())
        .map(|c| c.id.clone())
        .ok_or_else(|| ToolError::new("the story gives an item, but the party has no one"))
}

/// Whether the party is in `room` (and so witnesses what happens there).
fn party_sees(state: &GameState, room: &str) -> bool {
    state.party_location().is_some_and(|l| l.id == room)
}

fn title(state: &GameState, room: &str) -> String {
    state
        .location(room)
        .map_or_else(|| room.to_owned(), |l| l.title.clone())
}

/// "Shows the crawlway" → "shows the crawlway": a step's description follows the NPC's name.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}
