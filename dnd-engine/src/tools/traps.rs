//! Traps going off where the party walks or reaches, and `disarm_trap`.
//!
//! A trap is the adventure's data (`state::Trap`): the engine decides when it goes off (the
//! tools that cause its trigger call in here), whether the party noticed it first (passive
//! Perception at that moment, as before narration), and what it does: the save with its
//! ability and DC, the damage (half on a success, through the victim's defenses), a condition
//! and a fall on a failure, then its story effects. Every roll is recorded. A noticed trap is
//! avoided: a move steps around it, and taking a trapped feature's loot is refused until the
//! trap is disarmed or spent; `use_object` on the feature is the one way to set it off on
//! purpose. What happened reaches the model as the call's story lines (`TurnLog::told`),
//! never its DC.

use schemars::JsonSchema;
use serde::Deserialize;

use super::creature;
use super::results::TrapDisarmAttempt;
use super::{ToolContext, ToolError};
use crate::rules::attack::roll_damage;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::{check_modifiers, effective_defenses};
use crate::rules::situation::fall_damage;
use crate::rules::{Ability, Condition, Defenses, Spend};
use crate::srd::{ActionSave, OnSave};
use crate::state::{Change, Feature, GameState, Target, Trap, TrapTrigger};
use crate::store::RollDetail;

/// The tool most traps are disarmed with; a rogue adds the proficiency bonus.
const THIEVES_TOOLS: &str = "Thieves' Tools";

/// A known feature of `location` named by id or name (any case, a leading "the", "a" or
/// "an" ignored on either side: "the iron strongbox" names "An iron strongbox").
pub(super) fn known_feature<'a>(
    state: &'a GameState,
    location: &str,
    name: &str,
) -> Option<&'a Feature> {
    let wanted = bare(name);
    state.location(location)?.features.iter().find(|f| {
        f.is_known() && (f.id.eq_ignore_ascii_case(name.trim()) || bare(&f.name) == wanted)
    })
}

/// A name in lower case without its leading article.
fn bare(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    ["the ", "an ", "a "]
        .iter()
        .find_map(|article| lower.strip_prefix(article))
        .map_or_else(|| lower.clone(), |rest| rest.trim().to_owned())
}

/// The heroes standing in the party's room: who walks into a trap on the way.
fn walkers(state: &GameState) -> Vec<String> {
    let Some(here) = state.party_location() else {
        return Vec::new();
    };
    state
        .characters
        .iter()
        .filter(|c| c.location == here.id && !c.dead && c.hp.current > 0)
        .map(|c| c.id.clone())
        .collect()
}

/// The party's best passive Perception among those who can act, with who has it.
fn best_watcher(state: &GameState) -> Option<(String, i32)> {
    state
        .characters
        .iter()
        .filter(|c| c.can_act())
        .map(|c| (c.name.clone(), c.passive_perception()))
        .max_by_key(|(_, p)| *p)
}

/// Whether the party knows of the trap on `feature` now: known already, or noticed this
/// moment by passive Perception (then recorded, and told).
fn noticed_now(
    ctx: &mut ToolContext<'_>,
    location: &str,
    feature: &str,
) -> Result<bool, ToolError> {
    let Some(f) = ctx
        .state
        .location(location)
        .and_then(|l| l.features.iter().find(|f| f.id == feature))
    else {
        return Ok(false);
    };
    if f.trap_known() {
        return Ok(true);
    }
    let (Some(dc), Some((watcher, passive))) = (f.trap_notice_dc(), best_watcher(ctx.state)) else {
        return Ok(false);
    };
    if passive < dc {
        return Ok(false);
    }
    let name = f.name.clone();
    let changes = noticed_changes(f, location);
    ctx.commit(changes)?;
    ctx.log.told.push(format!(
        "{watcher} notices {name} in time (passive Perception)."
    ));
    Ok(true)
}

/// What noticing a feature's trap records: the feature found (when hidden) and the trap
/// noticed.
pub(crate) fn noticed_changes(f: &Feature, location: &str) -> Vec<Change> {
    let mut changes = Vec::new();
    if f.hidden && !f.found {
        changes.push(Change::FeatureFound {
            location: location.to_owned(),
            feature: f.id.clone(),
        });
    }
    if f.trap.as_ref().is_some_and(|t| !t.noticed) {
        changes.push(Change::TrapNoticed {
            location: location.to_owned(),
            feature: f.id.clone(),
        });
    }
    changes
}

/// The armed traps of the party's room whose trigger `matches`.
fn armed_where(state: &GameState, matches: impl Fn(&TrapTrigger) -> bool) -> Vec<(String, String)> {
    let Some(here) = state.party_location() else {
        return Vec::new();
    };
    here.features
        .iter()
        .filter(|f| {
            f.trap
                .as_ref()
                .is_some_and(|t| !t.spent && matches(&t.trigger))
        })
        .map(|f| (here.id.clone(), f.id.clone()))
        .collect()
}

/// The party walks into the traps of `traps` it has not noticed; the noticed ones it steps
/// around.
fn walk_into(ctx: &mut ToolContext<'_>, traps: Vec<(String, String)>) -> Result<(), ToolError> {
    for (location, feature) in traps {
        if noticed_now(ctx, &location, &feature)? {
            let name = feature_name(ctx.state, &location, &feature);
            ctx.log.told.push(format!("The party steps around {name}."));
            continue;
        }
        let victims = walkers(ctx.state);
        spring(ctx, &location, &feature, &victims)?;
    }
    Ok(())
}

/// Before the party leaves its room through `exit` (a direction or a room id): the traps its
/// way crosses.
pub(super) fn on_leaving(ctx: &mut ToolContext<'_>, exit: &str) -> Result<(), ToolError> {
    let Some(here) = ctx.state.party_location() else {
        return Ok(());
    };
    let Some(direction) = here
        .exits
        .iter()
        .find(|e| {
            e.is_passable()
                && (e.direction.eq_ignore_ascii_case(exit) || e.to.eq_ignore_ascii_case(exit))
        })
        .map(|e| e.direction.clone())
    else {
        return Ok(()); // the move itself refuses a way that is not open
    };
    let traps = armed_where(
        ctx.state,
        |t| matches!(t, TrapTrigger::Exit(d) if d.eq_ignore_ascii_case(&direction)),
    );
    walk_into(ctx, traps)
}

/// After the party entered its room: the traps its entering sets off.
pub(super) fn on_entering(ctx: &mut ToolContext<'_>) -> Result<(), ToolError> {
    let traps = armed_where(ctx.state, |t| *t == TrapTrigger::Enter);
    walk_into(ctx, traps)
}

/// After a hero moved into `area` of the party's room in a fight: the traps there.
pub(super) fn on_area(ctx: &mut ToolContext<'_>, mover: &str, area: &str) -> Result<(), ToolError> {
    if ctx.state.character(mover).is_none() {
        return Ok(()); // the adventure's monsters know their own lair
    }
    let traps = armed_where(
        ctx.state,
        |t| matches!(t, TrapTrigger::Area(a) if a.eq_ignore_ascii_case(area)),
    );
    for (location, feature) in traps {
        if noticed_now(ctx, &location, &feature)? {
            let name = feature_name(ctx.state, &location, &feature);
            ctx.log
                .told
                .push(format!("{} avoids {name}.", ctx.state.name_of(mover)));
            continue;
        }
        spring(ctx, &location, &feature, &[mover.to_owned()])?;
    }
    Ok(())
}

/// How a feature is touched: taken from in passing, or used on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Touch {
    /// Its loot taken (`add_inventory`): refused while a trap the party knows of is armed.
    Loot,
    /// Used on purpose (`use_object`): a known trap, whatever its trigger, goes off on the user
    /// (the one way to walk into a noticed trap deliberately).
    OnPurpose,
}

/// Before `creature` touches a known feature named `object`: a trap on it that the party
/// does not know of goes off on `creature` if touching sets it off; one the party knows of
/// refuses the taking of its loot, and goes off when used on purpose.
pub(super) fn on_touch(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    object: &str,
    touch: Touch,
) -> Result<(), ToolError> {
    let Some(location) = ctx.state.party_location().map(|l| l.id.clone()) else {
        return Ok(());
    };
    let Some(f) = known_feature(ctx.state, &location, object).filter(|f| f.trap_armed()) else {
        return Ok(());
    };
    let feature = f.id.clone();
    let known = f.trap_known();
    let touched = f.trap.as_ref().is_some_and(|t| t.trigger.on_touch());
    match (known, touch) {
        (true, Touch::Loot) if touched => {
            return Err(ToolError::new(format!(
                "{} is trapped, and the party knows it: disarm_trap first, or use_object on it to set the trap off on purpose",
                f.name
            )));
        }
        (true, Touch::Loot) | (false, _) if !touched => return Ok(()),
        _ => {}
    }
    let id = creature::find(ctx.state, ctx.srd, creature)?
        .target
        .id()
        .to_owned();
    spring(ctx, &location, &feature, &[id])
}

fn feature_name(state: &GameState, location: &str, feature: &str) -> String {
    state
        .location(location)
        .and_then(|l| l.features.iter().find(|f| f.id == feature))
        .map_or_else(|| feature.to_owned(), |f| f.name.clone())
}

/// The trap on `feature` goes off on `victims`: each saves, takes its damage (half on a
/// success), and on a failure its condition and fall; then its story effects play once, and
/// it is spent unless it resets. The party knows of it from now on.
pub(super) fn spring(
    ctx: &mut ToolContext<'_>,
    location: &str,
    feature: &str,
    victims: &[String],
) -> Result<(), ToolError> {
    let Some(f) = ctx
        .state
        .location(location)
        .and_then(|l| l.features.iter().find(|f| f.id == feature))
        .cloned()
    else {
        return Ok(());
    };
    let Some(trap) = f.trap.clone().filter(|t| !t.spent) else {
        return Ok(());
    };
    ctx.log.told.push(format!("{} goes off!", f.name));
    ctx.commit(noticed_changes(&f, location))?;
    for victim in victims {
        let line = strike(ctx, &f.name, &trap, victim)?;
        ctx.log.told.push(line);
    }
    let actor = victims.first().map(String::as_str);
    let told = super::story::play(ctx, &trap.effects, actor)?;
    ctx.log.told.extend(told);
    if !trap.reset {
        ctx.commit(vec![Change::TrapSpent {
            location: location.to_owned(),
            feature: feature.to_owned(),
        }])?;
    }
    Ok(())
}

/// One victim's save, damage, condition and fall: the line that tells it.
fn strike(
    ctx: &mut ToolContext<'_>,
    name: &str,
    trap: &Trap,
    victim: &str,
) -> Result<String, ToolError> {
    let save = ActionSave {
        ability: trap.save,
        dc: trap.dc,
        on_success: OnSave::Half,
    };
    let result = super::monster_turn::saving_throw(ctx, victim, save, name, &[], None)?;
    let who = creature::find(ctx.state, ctx.srd, victim)?;
    let defenses = effective_defenses(&who.defenses, &who.conditions);
    let mut dealt = roll_damage(&trap.damage, false, &Defenses::default(), ctx.rng);
    let before = if result.success {
        dealt.rolled / 2
    } else {
        dealt.rolled
    };
    (dealt.taken, dealt.defense) = defenses.apply(before, trap.damage.kind);
    let taken = dealt.taken;
    ctx.record_roll(
        format!("{name}: {} to {}", trap.damage, who.name),
        i64::from(taken),
        None,
        RollDetail::Damage(dealt),
    );
    let mut parts = vec![format!(
        "{} {} the {} save: {taken} {} damage",
        who.name,
        if result.success { "makes" } else { "fails" },
        trap.save.name(),
        trap.damage.kind.name()
    )];
    hurt(ctx, &who.target, taken)?;
    if !result.success {
        if let Some(condition) = trap.condition
            && add_condition(ctx, &who.target, condition)?
        {
            parts.push(format!("and is {}", condition.name()));
        }
        if let Some(dice) = trap.fall_ft.and_then(fall_damage) {
            let feet = trap.fall_ft.unwrap_or(0);
            let fell = roll_damage(&dice, false, &defenses, ctx.rng);
            let fall = fell.taken;
            ctx.record_roll(
                format!("{name}: a {feet} ft fall, {dice} to {}", who.name),
                i64::from(fall),
                None,
                RollDetail::Damage(fell),
            );
            hurt(ctx, &who.target, fall)?;
            parts.push(format!("falls {feet} ft for {fall} bludgeoning damage"));
            // A creature hurt by a fall lands prone (SRD, "Falling").
            if fall > 0 {
                add_condition(ctx, &who.target, Condition::Prone)?;
            }
        }
    }
    let after = creature::find(ctx.state, ctx.srd, victim)?;
    let state = if after.standing {
        format!("{}/{} HP", after.hp.0, after.hp.1)
    } else {
        "down".to_owned()
    };
    Ok(format!("{} ({state}).", parts.join(", ")))
}

/// Damage from a trap (no creature's: a fall or hazard for the rules that follow damage).
fn hurt(ctx: &mut ToolContext<'_>, target: &Target, amount: u32) -> Result<(), ToolError> {
    if amount == 0 {
        return Ok(());
    }
    ctx.commit(vec![Change::Damage {
        target: target.clone(),
        amount,
        critical: false,
    }])?;
    super::damage::after_damage(ctx, target.id(), amount, None)?;
    Ok(())
}

/// Gives a condition to a creature still standing that lacks it; whether it did.
fn add_condition(
    ctx: &mut ToolContext<'_>,
    target: &Target,
    condition: Condition,
) -> Result<bool, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, target.id())?;
    if !who.standing || who.conditions.has(condition) {
        return Ok(false);
    }
    ctx.commit(vec![Change::ConditionAdded {
        target: target.clone(),
        condition,
    }])?;
    Ok(true)
}

/// Whether `name` is a trap the party has found, still armed, where `character` stands.
pub(super) fn known_trap_at(state: &GameState, character: &str, name: &str) -> bool {
    state.character(character).is_some_and(|c| {
        known_feature(state, &c.location, name).is_some_and(|f| f.trap_known() && f.trap_armed())
    })
}

/// Arguments of `disarm_trap`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DisarmTrapArgs {
    /// Who tries (the action, in a fight): a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The trapped feature where the party is, by id or name, once the party has found its
    /// trap.
    #[schemars(extend("description" = ""))]
    pub feature: String,
}

pub(super) fn disarm_trap(
    args: DisarmTrapArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<TrapDisarmAttempt, ToolError> {
    disarm_trap_with(args, ctx, Spend::Action)
}

/// [`disarm_trap`] paid with `spend` (the action, or a Thief's bonus action through Fast
/// Hands).
pub(super) fn disarm_trap_with(
    args: DisarmTrapArgs,
    ctx: &mut ToolContext<'_>,
    spend: Spend,
) -> Result<TrapDisarmAttempt, ToolError> {
    let who = super::items::character(ctx, &args.character)?.clone();
    let location = who.location.clone();
    // Only what the party knows is named: an unnoticed trap reads as no trap at all.
    let f = known_feature(ctx.state, &location, &args.feature)
        .filter(|f| f.trap_known())
        .cloned()
        .ok_or_else(|| {
            let known: Vec<String> = ctx
                .state
                .location(&location)
                .map(|l| {
                    l.features
                        .iter()
                        .filter(|f| f.trap_known() && f.trap_armed())
                        .map(|f| f.id.clone())
                        .collect()
                })
                .unwrap_or_default();
            ToolError::new(format!(
                "the party has found no trap on {:?} here; traps found here: {}",
                args.feature,
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ))
        })?;
    let Some(trap) = f.trap.clone().filter(|t| !t.spent) else {
        return Err(ToolError::new(format!(
            "the trap on {} is already spent or disarmed: nothing left to disarm",
            f.name
        )));
    };
    let Some(disarm) = trap.disarm.clone() else {
        return Err(ToolError::new(format!(
            "the trap on {} cannot be disarmed: go around it",
            f.name
        )));
    };
    super::encounter::act(ctx, &who.id, spend)?;
    let modifier = match (&disarm.tool, disarm.skill) {
        (Some(tool), _) => {
            if who.item_quantity(tool) == 0 {
                return Err(ToolError::new(format!(
                    "{} carries no {tool}, which this trap needs",
                    who.name
                )));
            }
            let proficient =
                tool.eq_ignore_ascii_case(THIEVES_TOOLS) && who.class.eq_ignore_ascii_case("rogue");
            who.abilities.modifier(Ability::Dexterity)
                + if proficient {
                    who.proficiency_bonus()
                } else {
                    0
                }
        }
        (None, Some(skill)) => who.skill_modifier(skill),
        (None, None) => who.abilities.modifier(Ability::Dexterity),
    };
    let (sources, auto_fail) = check_modifiers(&who.conditions, false, false);
    let result = roll_check_with(modifier, disarm.dc, &sources, auto_fail, ctx.rng);
    ctx.record_roll(
        format!("{} disarms {}", who.name, f.name),
        i64::from(result.total),
        Some(Target::Character(who.id.clone())),
        RollDetail::Check(result.clone()),
    );
    // A failure by 5 or more sets a trap off (DMG), any failure one that says so.
    let set_off = !result.success
        && (trap.trigger == TrapTrigger::FailedCheck || result.total <= disarm.dc - 5);
    let told_from = ctx.log.told.len();
    if result.success {
        ctx.commit(vec![Change::TrapSpent {
            location: location.clone(),
            feature: f.id.clone(),
        }])?;
    } else if set_off {
        spring(ctx, &location, &f.id, std::slice::from_ref(&who.id))?;
    }
    let told = ctx.log.told.split_off(told_from);
    Ok(TrapDisarmAttempt {
        character: who.name.clone(),
        feature: f.name.clone(),
        disarmed: result.success,
        set_off,
        result,
        advantage_reasons: sources,
        what_happened: told,
    })
}
