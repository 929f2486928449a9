//! `open_lock`: a locked exit opened without its key, by picking the lock or forcing it.
//!
//! The DC is the adventure's (`unlock_dc` on the exit), never the model's: the model chooses
//! who tries and how, the engine rolls and decides. A lock without a DC opens only with its key
//! (`use_item`).

use super::results::LockAttempt;
use crate::rules::Spend;
use schemars::JsonSchema;
use serde::Deserialize;

use super::checks::add_situation;
use super::items::character;
use super::{ToolContext, ToolError};
use crate::dice::Advantage;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::check_modifiers;
use crate::rules::{Ability, Skill};
use crate::state::{Change, Character, Target};
use crate::store::RollDetail;

/// The item a lock is picked with.
const THIEVES_TOOLS: &str = "Thieves' Tools";

/// How the lock is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LockMethod {
    /// With thieves' tools: a Dexterity check, adding the proficiency bonus for rogues.
    Pick,
    /// By strength: a Strength (Athletics) check.
    Force,
}

/// Arguments of `open_lock`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenLockArgs {
    /// Who tries: a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The locked exit, by its direction as the room lists it ("rime door").
    #[schemars(description = "As the room lists it (\"rime door\").")]
    pub exit: String,
    /// "pick" (needs thieves' tools) or "force".
    #[schemars(extend("description" = ""))]
    pub method: LockMethod,
    /// From the situation; the engine adds what conditions give.
    #[schemars(extend("description" = ""))]
    pub advantage: Option<Advantage>,
}

pub(super) fn open_lock(
    args: OpenLockArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<LockAttempt, ToolError> {
    open_lock_with(args, ctx, Spend::Action)
}

/// [`open_lock`] paid with `cost`: the action, or a Thief's bonus action (Fast Hands).
pub(super) fn open_lock_with(
    args: OpenLockArgs,
    ctx: &mut ToolContext<'_>,
    cost: Spend,
) -> Result<LockAttempt, ToolError> {
    let who = character(ctx, &args.character)?.clone();
    // Picking or forcing a lock is the character's action in a fight, on its turn; the gate
    // also refuses the down and the incapacitated, in or out of one.
    super::encounter::act(ctx, &who.id, cost)?;
    let here = ctx
        .state
        .location(&who.location)
        .ok_or_else(|| ToolError::new(format!("{} is nowhere", who.name)))?;
    let Some(exit) = here.exit(&args.exit).filter(|e| !e.hidden) else {
        let visible: Vec<&str> = here
            .exits
            .iter()
            .filter(|e| !e.hidden)
            .map(|e| e.direction.as_str())
            .collect();
        return Err(ToolError::new(format!(
            "no exit {:?} here; the exits are: {}",
            args.exit,
            visible.join(", ")
        )));
    };
    if !exit.locked {
        return Err(ToolError::new(format!(
            "the {} is not locked",
            exit.direction
        )));
    }
    let Some(dc) = exit.unlock_dc.map(|dc| dc + exit.lock_bonus) else {
        return Err(ToolError::new(format!(
            "the {} cannot be picked or forced: it opens only with its key (use_item)",
            exit.direction
        )));
    };
    let (location, direction) = (here.id.clone(), exit.direction.clone());
    let modifier = lock_modifier(&who, args.method)?;
    let (mut sources, auto_fail) = check_modifiers(&who.conditions, false, false);
    add_situation(&mut sources, args.advantage);
    let result = roll_check_with(modifier, dc, &sources, auto_fail, ctx.rng);
    let how = match args.method {
        LockMethod::Pick => "picks",
        LockMethod::Force => "forces",
    };
    ctx.record_roll(
        format!("{} {how} the lock of the {direction}", who.name),
        i64::from(result.total),
        Some(Target::Character(who.id.clone())),
        RollDetail::Check(result.clone()),
    );
    if result.success {
        ctx.commit(vec![Change::ExitUnlocked {
            location,
            direction: direction.clone(),
        }])?;
    }
    Ok(LockAttempt {
        character: who.name.clone(),
        exit: direction,
        method: how.to_owned(),
        unlocked: result.success,
        result,
        advantage_reasons: sources,
    })
}

/// The check's modifier: Dexterity (plus proficiency for a rogue, whose class teaches thieves'
/// tools) to pick, Strength (Athletics) to force.
fn lock_modifier(who: &Character, method: LockMethod) -> Result<i32, ToolError> {
    match method {
        LockMethod::Force => Ok(who.skill_modifier(Skill::Athletics)),
        LockMethod::Pick => {
            if who.item_quantity(THIEVES_TOOLS) == 0 {
                return Err(ToolError::new(format!(
                    "{} carries no thieves' tools to pick a lock with; force it instead, or find its key",
                    who.name
                )));
            }
            let proficient = who.class.eq_ignore_ascii_case("rogue");
            Ok(who.abilities.modifier(Ability::Dexterity)
                + if proficient {
                    who.proficiency_bonus()
                } else {
                    0
                })
        }
    }
}
