//! A monster's turn played by the rules `combat::monster_plan` decides: recharge rolls, morale,
//! keeping a hold, moving into reach, and its action through the same gate and the same attack
//! code as a hero's (`encounter::act`, `combat::attack`); its save-based actions and what its
//! hits carry go through the effects engine (`tools/monster_action.rs`). Also the saves a held
//! creature repeats at the end of its turns.

use super::checks::add_situation;
use super::results::{HoldSave, TurnEvent};
use super::{ToolContext, ToolError, creature};
use crate::combat::monster_plan::{self, Plan};
use crate::rules::check::roll_check_with;
use crate::rules::conditions::save_modifiers;
use crate::rules::{CheckResult, Spend};
use crate::srd::ActionSave;
use crate::state::{Change, Hold, Morale, Target};
use crate::store::RollDetail;

/// Plays the turn of `monster`, whose turn it is; the caller ends the turn. What happened, for
/// the tool's result.
pub(super) fn play(ctx: &mut ToolContext<'_>, monster: &str) -> Result<Vec<TurnEvent>, ToolError> {
    let mut log = Vec::new();
    super::monster_legendary::restore(ctx, monster)?;
    for roll in monster_plan::recharge_rolls(ctx.state, ctx.srd, monster, ctx.rng) {
        ctx.record_roll(
            format!("{monster} recharge ({})", roll.action),
            i64::from(roll.roll),
            Some(Target::Monster(monster.to_owned())),
            RollDetail::Recharge(roll.clone()),
        );
        if roll.recharged {
            ctx.commit(vec![Change::ActionRecharged {
                monster: monster.to_owned(),
                action: roll.action.clone(),
            }])?;
        }
        log.push(TurnEvent::Recharge {
            monster: monster.to_owned(),
            recharge: roll,
        });
    }
    if let Some(morale) = monster_plan::morale(ctx.state, ctx.srd, monster) {
        // The holds end first: a monster that has fled or given up holds no one, so ending
        // them after would name holds already gone and refuse the whole turn.
        let mut changes = holds_of(ctx, monster);
        changes.push(Change::MoraleChanged {
            monster: monster.to_owned(),
            morale,
        });
        ctx.commit(changes)?;
        log.push(TurnEvent::Morale {
            monster: monster.to_owned(),
            morale,
        });
        return Ok(log);
    }
    // Turned (Turn Undead): it flees its turner instead of its plan.
    if let Some(fled) = super::feature_divine::turned_turn(ctx, monster)? {
        log.extend(fled);
        return Ok(log);
    }
    keep_holds(ctx, monster, &mut log)?;
    let in_reach = |target: &str| super::combat::reaches(ctx, monster, target);
    // A creature summoned on the party's side fights the hostile monsters (`summon_plan`).
    let summon = ctx.state.monster(monster).is_some_and(|m| m.is_summon());
    let planned = if summon {
        crate::combat::summon_plan::plan(ctx.state, ctx.srd, monster, &in_reach)
    } else {
        monster_plan::plan(ctx.state, ctx.srd, monster, &in_reach)
    };
    if summon {
        super::summon_command::command_spent(ctx, monster)?;
    }
    let Some(plan) = planned else {
        log.push(TurnEvent::NoTarget {
            monster: monster.to_owned(),
            no_target: if summon {
                "no foe it may attack (uncommanded, it only defends itself against a foe in its reach)"
            } else {
                "no hero it can reach stands here"
            }
            .to_owned(),
        });
        return Ok(log);
    };
    match plan {
        Plan::Attack { action, target } => {
            move_into_reach(ctx, monster, &action, &target, &mut log)?;
            if !ctx.state.monster(monster).is_some_and(|m| m.is_fighting()) {
                return Ok(log); // an opportunity attack felled it on the way
            }
            match super::combat::attack(ctx, monster, &target, Some(&action), None) {
                Ok(done) => log.push(TurnEvent::Attack(done)),
                // A plan the rules refuse (out of reach where positions say so) costs the turn,
                // never the call: the refusal is reported.
                Err(refused) => log.push(TurnEvent::Refused {
                    monster: monster.to_owned(),
                    refused: refused.message,
                }),
            }
        }
        Plan::Cast {
            spell,
            slot_level,
            targets,
        } => match super::monster_spells::cast(ctx, monster, &spell, slot_level, &targets) {
            Ok(cast) => log.push(TurnEvent::Effects(cast)),
            // Nothing left in reach (or behind total cover): the refusal is reported, the turn
            // passes.
            Err(refused) => log.push(TurnEvent::Refused {
                monster: monster.to_owned(),
                refused: refused.message,
            }),
        },
        Plan::Support { action, allies } => log.push(TurnEvent::Effects(
            super::monster_action::support_action(ctx, monster, &action, &allies)?,
        )),
        Plan::Save { action, targets } => log.push(TurnEvent::SaveAction(
            super::monster_action::save_action(ctx, monster, &action, &targets)?,
        )),
    }
    Ok(log)
}

/// Moving into reach of the planned `action` before attacking: the one place a monster's
/// movement goes, through positions' `approach` (`movement::close_in`, which spends the feet
/// and rolls the opportunity attacks the move provokes). It stops where every swing of the
/// action reaches (`geometry::stop_within`: its melee reach, or a ranged attack's normal
/// range), as the simulator's monsters do. In a room without areas nobody moves.
fn move_into_reach(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    action: &str,
    target: &str,
    log: &mut Vec<TurnEvent>,
) -> Result<(), ToolError> {
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    let within = super::combat::swings_of(ctx, &who, Some(action))
        .ok()
        .and_then(|swings| {
            swings
                .iter()
                .map(|s| crate::combat::geometry::stop_within(s.reach))
                .min()
        })
        .unwrap_or(5);
    if let Some(moved) = super::movement::close_in(ctx, monster, target, within)? {
        log.push(TurnEvent::Moves {
            monster: monster.to_owned(),
            moves: moved,
        });
    }
    Ok(())
}

/// Spends the bonus action that keeps the monster's holds going (a harpy's song), or ends them
/// when it cannot.
fn keep_holds(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    log: &mut Vec<TurnEvent>,
) -> Result<(), ToolError> {
    let holding = ctx
        .state
        .monster(monster)
        .is_some_and(|m| !m.holds.is_empty());
    if !holding {
        return Ok(());
    }
    match crate::combat::may_act(ctx.state, monster, Spend::BonusAction) {
        Ok(spend) => {
            ctx.commit(spend.into_iter().collect())?;
            log.push(TurnEvent::KeepsUp {
                monster: monster.to_owned(),
                keeps_up: "its hold (a bonus action)".to_owned(),
            });
        }
        Err(_) => {
            let changes = holds_of(ctx, monster);
            ctx.commit(changes)?;
            log.push(TurnEvent::HoldEnded {
                monster: monster.to_owned(),
                hold_ended: "it could not keep it up".to_owned(),
            });
        }
    }
    Ok(())
}

/// The changes that end every hold of `monster`.
fn holds_of(ctx: &ToolContext<'_>, monster: &str) -> Vec<Change> {
    let holds = ctx
        .state
        .monster(monster)
        .map(|m| m.holds.clone())
        .unwrap_or_default();
    holds
        .iter()
        .flat_map(|h| monster_plan::end_hold(ctx.state, monster, h))
        .collect()
}

/// Ends the holds no one keeps up any more (their monster fell, fled, or cannot act).
pub(super) fn end_stale_holds(ctx: &mut ToolContext<'_>) -> Result<Option<TurnEvent>, ToolError> {
    let changes = monster_plan::stale_holds(ctx.state);
    if changes.is_empty() {
        return Ok(None);
    }
    let freed: Vec<String> = changes
        .iter()
        .filter_map(|c| match c {
            Change::HoldEnded { target, .. } => Some(target.clone()),
            _ => None,
        })
        .collect();
    ctx.commit(changes)?;
    Ok(Some(TurnEvent::HoldsEnded { holds_ended: freed }))
}

/// Rolls `target`'s save against a monster's action (conditions count, as on any save), with
/// a cover `bonus` and its reason, and records it.
pub(super) fn saving_throw(
    ctx: &mut ToolContext<'_>,
    target: &str,
    save: ActionSave,
    against: &str,
    threats: &[crate::character::race::SaveAgainst],
    bonus: Option<&(i32, String)>,
) -> Result<CheckResult, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, target)?;
    let (mut sources, auto_fail) = save_modifiers(&who.conditions, save.ability);
    // What the fight's effects give the save (a Dodge: advantage on Dexterity saves), as on
    // any save (`combat::save_situation`).
    sources.extend(crate::combat::save_situation(
        ctx.state,
        who.target.id(),
        save.ability,
    ));
    add_situation(&mut sources, None);
    // A hold's save is against its conditions (a harpy's charm: Fey Ancestry).
    sources.extend(crate::character::race::save_sources(
        ctx.state,
        who.target.id(),
        save.ability,
        threats,
    ));
    // Bless adds a d4, Bane takes one away, as on any save (`effects::roll_bonus`).
    let mut blessed = ctx.roll_bonus(who.target.id(), crate::state::RollKind::Save);
    let mut result = roll_check_with(
        who.save(save.ability) + bonus.map_or(0, |b| b.0) + blessed.total,
        save.dc,
        &sources,
        auto_fail,
        ctx.rng,
    );
    let inspired = super::feature_bard::inspired_check(ctx, who.target.id(), &mut result);
    blessed.reasons.extend(inspired);
    let notes: Vec<&str> = bonus
        .map(|b| b.1.as_str())
        .into_iter()
        .chain(blessed.reasons.iter().map(String::as_str))
        .collect();
    let note = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    ctx.record_roll(
        format!("{} {} save against {against}{note}", who.name, save.ability),
        i64::from(result.total),
        Some(who.target.clone()),
        RollDetail::Save(result.clone()),
    );
    Ok(result)
}

/// At the end of `creature`'s turn: a save against each hold on it that allows one (a harpy's
/// song); a success ends that hold. What was rolled.
pub(super) fn end_of_turn_saves(
    ctx: &mut ToolContext<'_>,
    creature: &str,
) -> Result<Vec<TurnEvent>, ToolError> {
    Ok(hold_saves(ctx, creature, None)?
        .into_iter()
        .map(TurnEvent::RepeatSave)
        .collect())
}

/// After `creature` took damage from `source` (a creature's id, or `None` for a fall or a
/// hazard): a save against each hold on it by another monster (a harpy's song breaks when
/// something else hurts its thrall). Nothing for one already down.
pub(super) fn saves_on_damage(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    source: Option<&str>,
) -> Result<Vec<HoldSave>, ToolError> {
    let standing = creature::find(ctx.state, ctx.srd, creature).is_ok_and(|c| c.standing);
    if !standing {
        return Ok(Vec::new());
    }
    hold_saves(ctx, creature, Some(source.unwrap_or_default()))
}

/// A save against each hold on `creature` that allows one, sparing the holds of `spare` (the
/// source of the damage, when damage calls for the saves); a success ends that hold.
fn hold_saves(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    spare: Option<&str>,
) -> Result<Vec<HoldSave>, ToolError> {
    let holds: Vec<(String, Hold)> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| spare.is_none_or(|s| !m.id.eq_ignore_ascii_case(s)))
        .flat_map(|m| {
            m.holds
                .iter()
                .filter(|h| h.target.eq_ignore_ascii_case(creature))
                .map(|h| (m.id.clone(), h.clone()))
        })
        .collect();
    let mut log = Vec::new();
    for (monster, hold) in holds {
        let action = ctx
            .state
            .monster(&monster)
            .and_then(|m| ctx.srd.monster(&m.template).ok())
            .and_then(|t| {
                t.actions
                    .iter()
                    .find(|a| a.name.eq_ignore_ascii_case(&hold.action))
            })
            .cloned();
        let Some(save) = action.as_ref().and_then(|a| a.save) else {
            continue;
        };
        let threats = crate::character::race::action_threats(ctx.srd, action.as_ref());
        let result = saving_throw(ctx, creature, save, &hold.action, &threats, None)?;
        if result.success {
            let changes = monster_plan::end_hold(ctx.state, &monster, &hold);
            ctx.commit(changes)?;
        }
        log.push(HoldSave {
            repeat_save: hold.action.clone(),
            by: creature.to_owned(),
            result,
        });
    }
    Ok(log)
}

/// Whether `morale` lets a monster be attacked: a fled monster is gone (an error saying so); a
/// surrendered one fights again when attacked (the change that says so).
pub(super) fn attacked(
    ctx: &ToolContext<'_>,
    target: &Target,
) -> Result<Option<Change>, ToolError> {
    let Target::Monster(id) = target else {
        return Ok(None);
    };
    let Some(m) = ctx.state.monster(id) else {
        return Ok(None);
    };
    match m.morale {
        Morale::Fighting => Ok(None),
        Morale::Fled => Err(ToolError::new(format!(
            "{} has fled the fight and is out of reach; attack a foe still here, or end the fight with end_encounter",
            m.name
        ))),
        Morale::Surrendered if m.is_alive() => Ok(Some(Change::MoraleChanged {
            monster: m.id.clone(),
            morale: Morale::Fighting,
        })),
        Morale::Surrendered => Ok(None),
    }
}
