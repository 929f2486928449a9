//! A monster's save-based action and what its hits carry, played through the effects engine:
//! the action's effects (`srd::MonsterAction::effects`, built from its data) resolved by
//! `effects::resolve` with the monster as the caster and the DC from the data. This file only
//! gathers the subjects (cover from where the monster stands), spends what the action costs
//! and commits; what a breath, a song, Life Drain or a prone bite does is decided in `effects`.

use super::results::{EffectsReport, OnHitSave, SaveActionReport, TargetSave};
use super::{ToolContext, ToolError, creature};
use crate::combat::monster_plan;
use crate::combat::targeting::SpellTarget;
use crate::effects::{self, Caster, Casting, Outcome, Resolution, Subject};
use crate::rules::Spend;
use crate::srd::MonsterAction;
use crate::state::{Change, Target};

/// `action`'s effects for monster `id` (called `name`) on `subjects`, resolved: nothing committed.
fn resolve_action(
    ctx: &mut ToolContext<'_>,
    id: &str,
    name: &str,
    action: &MonsterAction,
    subjects: &[Subject],
) -> Result<Resolution, ToolError> {
    let acting = caster(id, name, action);
    let casting = Casting {
        caster: &acting,
        source: &action.name,
        level: 0,
        slot: 0,
        concentration: false,
    };
    effects::resolve(ctx.state, casting, subjects, &action.effects, ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))
}

/// A monster acting with `action`: its to-hit and the action's DC.
fn caster(id: &str, name: &str, action: &MonsterAction) -> Caster {
    Caster {
        id: id.to_owned(),
        name: name.to_owned(),
        attack_bonus: action.attack.as_ref().map_or(0, |a| a.to_hit),
        save_dc: action.save.map_or(10, |s| s.dc),
        modifier: 0,
        level: 1,
    }
}

/// The action of `monster`'s stat block named `name` (any case).
fn action_of(ctx: &ToolContext<'_>, monster: &str, name: &str) -> Result<MonsterAction, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    who.template
        .and_then(|t| t.actions.iter().find(|a| a.name.eq_ignore_ascii_case(name)))
        .cloned()
        .ok_or_else(|| ToolError::new(format!("{} has no action {name:?}", who.name)))
}

/// Commits `changes` and `resolution`'s rolls, then the saves damage calls for
/// (`damage::commit_with_follow_ups`). What each hurt creature rolled after its damage, by id.
pub(super) fn commit(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    changes: Vec<Change>,
    resolution: Resolution,
) -> Result<Vec<(String, super::damage::AfterDamage)>, ToolError> {
    super::damage::commit_with_follow_ups(ctx, monster, changes, resolution.rolls)
}

/// A save-based action (a song, a breath) on these targets: spends the monster's action (and
/// the action itself when it is of limited use or holds), then the effects engine resolves it
/// on every target total cover does not shield.
pub(super) fn save_action(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    action_name: &str,
    targets: &[String],
) -> Result<SaveActionReport, ToolError> {
    let action = action_of(ctx, monster, action_name)?;
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    let (id, name) = (who.target.id().to_owned(), who.name.clone());
    if action.attack.is_some() || action.effects.is_empty() {
        return Err(ToolError::new(format!(
            "{}'s {} forces no save on its own",
            name, action.name
        )));
    }
    // Cover from the monster: total cover keeps a target out of reach; half and
    // three-quarters add to a Dexterity save (`combat::targeting`, read by the interpreter).
    let (subjects, behind_total_cover) = subjects_from(ctx, &id, targets)?;
    super::encounter::act(ctx, monster, Spend::Action)?;
    let changes = monster_plan::spend(&id, &action);
    resolve_save(
        ctx,
        (&id, &name),
        &action,
        (subjects, behind_total_cover),
        changes,
    )
}

/// A legendary action that forces a save (`combat::legendary::legendary_save`) on these
/// targets: no action of the monster's turn is spent, `cost` (the uses of the round's
/// legendary actions) is committed with it, and the effects engine resolves it on every
/// target total cover does not shield.
pub(super) fn legendary_save_action(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    action: &MonsterAction,
    targets: &[String],
    cost: Vec<Change>,
) -> Result<SaveActionReport, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    let (id, name) = (who.target.id().to_owned(), who.name.clone());
    let subjects = subjects_from(ctx, &id, targets)?;
    let mut report = resolve_save(ctx, (&id, &name), action, subjects, cost)?;
    report.legendary = true;
    Ok(report)
}

/// The subjects `targets` make for the monster `id`, and those total cover shields.
fn subjects_from(
    ctx: &ToolContext<'_>,
    id: &str,
    targets: &[String],
) -> Result<(Vec<Subject>, Vec<String>), ToolError> {
    let mut subjects = Vec::new();
    let mut behind_total_cover = Vec::new();
    for target in targets {
        let victim = creature::find(ctx.state, ctx.srd, target)?;
        match crate::combat::positions::cover_against(ctx.state, id, victim.target.id()) {
            Ok(cover) => {
                let at = SpellTarget {
                    distance_ft: crate::combat::positions::distance(
                        ctx.state,
                        id,
                        victim.target.id(),
                    ),
                    attack: None,
                    cover: cover.cloned(),
                };
                subjects.push(victim.subject(at));
            }
            Err(_) => behind_total_cover.push(victim.name.clone()),
        }
    }
    Ok((subjects, behind_total_cover))
}

/// Resolves the save action `action` of the monster `(id, name)` on `subjects`, committing
/// `changes` (what it spends) with it, and reports each target's save.
fn resolve_save(
    ctx: &mut ToolContext<'_>,
    (id, name): (&str, &str),
    action: &MonsterAction,
    (subjects, behind_total_cover): (Vec<Subject>, Vec<String>),
    changes: Vec<Change>,
) -> Result<SaveActionReport, ToolError> {
    let (id, name) = (id.to_owned(), name.to_owned());
    let action = action.clone();
    if subjects.is_empty() {
        ctx.commit(changes)?;
        return Ok(SaveActionReport {
            monster: name,
            action: action.name,
            saves: Vec::new(),
            behind_total_cover,
            legendary: false,
        });
    }
    let resolution = resolve_action(ctx, &id, &name, &action, &subjects)?;
    let mut all = changes;
    all.extend(resolution.changes.iter().cloned());
    let outcomes = resolution.outcomes.clone();
    let reasons = resolution.reasons.clone();
    let mut after = commit(ctx, &id, all, resolution)?;
    let mut saves = Vec::new();
    for (i, s) in subjects.iter().enumerate() {
        let mine = |o: &&Outcome| outcome_target(o) == Some(s.name.as_str());
        let Some(Outcome::Save { save, damage, .. }) = outcomes
            .iter()
            .filter(mine)
            .find(|o| matches!(o, Outcome::Save { .. }))
        else {
            continue;
        };
        let rest: Vec<Outcome> = outcomes
            .iter()
            .filter(mine)
            .filter(|o| !matches!(o, Outcome::Save { .. }))
            .cloned()
            .collect();
        let done = after
            .iter()
            .position(|(hurt, _)| hurt == s.target.id())
            .map(|k| after.remove(k).1)
            .unwrap_or_default();
        saves.push(TargetSave {
            target: s.name.clone(),
            save: save.clone(),
            damage: *damage,
            hold_saves: done.hold_saves,
            concentration_save: done.concentration,
            modifier_reasons: reasons
                .iter()
                .filter(|w| w.subject == i)
                .flat_map(|w| w.modifiers.clone())
                .collect(),
            effects: rest,
        });
    }
    Ok(SaveActionReport {
        monster: name,
        action: action.name,
        saves,
        behind_total_cover,
        legendary: false,
    })
}

/// An action that helps allies (the knight's Leadership) on `allies`: spends the monster's
/// action and the action itself, then the effects engine starts what it grants on each.
pub(super) fn support_action(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    action_name: &str,
    allies: &[String],
) -> Result<EffectsReport, ToolError> {
    let action = action_of(ctx, monster, action_name)?;
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    let (id, name) = (who.target.id().to_owned(), who.name.clone());
    let mut subjects = Vec::new();
    for ally in allies {
        let helped = creature::find(ctx.state, ctx.srd, ally)?;
        let at = SpellTarget {
            distance_ft: crate::combat::positions::distance(ctx.state, &id, helped.target.id()),
            attack: None,
            cover: None,
        };
        subjects.push(helped.subject(at));
    }
    super::encounter::act(ctx, monster, Spend::Action)?;
    let mut changes = monster_plan::spend(&id, &action);
    let resolution = resolve_action(ctx, &id, &name, &action, &subjects)?;
    changes.extend(resolution.changes.iter().cloned());
    let outcomes = resolution.outcomes.clone();
    commit(ctx, &id, changes, resolution)?;
    Ok(EffectsReport {
        monster: name,
        uses: action.name,
        slot_level: None,
        effects: outcomes,
        reactions: Vec::new(),
    })
}

/// The creature an outcome is about, by name (`None` for a pool's total).
fn outcome_target(o: &Outcome) -> Option<&str> {
    match o {
        Outcome::Attack { target, .. }
        | Outcome::Save { target, .. }
        | Outcome::Damage { target, .. }
        | Outcome::Healed { target, .. }
        | Outcome::TemporaryHp { target, .. }
        | Outcome::Started { target, .. }
        | Outcome::Drained { target, .. }
        | Outcome::Held { target, .. }
        | Outcome::Condition { target, .. }
        | Outcome::ConditionEnded { target, .. }
        | Outcome::Stabilized { target }
        | Outcome::Pushed { target, .. }
        | Outcome::Dispelled { target, .. }
        | Outcome::Revived { target }
        | Outcome::Unaffected { target, .. }
        | Outcome::Moved { target, .. }
        | Outcome::Calmed { target } => Some(target),
        Outcome::Pool { .. } | Outcome::Summoned { .. } | Outcome::ExitLocked { .. } => None,
    }
}

/// After a monster's attack action hits `target` for `damage_taken`: what the hit carries
/// beyond its damage (a specter's Life Drain, a wolf's bite knocking prone), resolved by the
/// effects engine and committed. `None` when the action carries nothing or the target is dead.
pub(super) fn on_hit(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    action: &str,
    target: &Target,
    damage_taken: u32,
) -> Result<Option<OnHitSave>, ToolError> {
    let Ok(action) = action_of(ctx, monster, action) else {
        return Ok(None);
    };
    if action.attack.is_none() || action.effects.is_empty() {
        return Ok(None);
    }
    let alive = match target {
        Target::Character(id) => ctx.state.character(id).is_some_and(|c| !c.dead),
        Target::Monster(id) => ctx.state.monster(id).is_some_and(|m| m.is_alive()),
    };
    if !alive {
        return Ok(None);
    }
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    let (id, name) = (who.target.id().to_owned(), who.name.clone());
    let victim = creature::find(ctx.state, ctx.srd, target.id())?;
    // The save a hit forces is no Dexterity save against an area: cover plays no part.
    let at = SpellTarget {
        distance_ft: crate::combat::positions::distance(ctx.state, &id, target.id()),
        attack: None,
        cover: None,
    };
    let s = victim.subject(at);
    let acting = caster(&id, &name, &action);
    let casting = Casting {
        caster: &acting,
        source: &action.name,
        level: 0,
        slot: 0,
        concentration: false,
    };
    let resolution = effects::resolve_hit(
        ctx.state,
        casting,
        &s,
        damage_taken,
        &action.effects,
        ctx.rng,
    )
    .map_err(|e| ToolError::new(e.to_string()))?;
    let save = resolution.outcomes.iter().find_map(|o| match o {
        Outcome::Save { save, .. } => Some(save.clone()),
        _ => None,
    });
    let changes = resolution.changes.clone();
    commit(ctx, &id, changes.clone(), resolution)?;
    Ok(save.map(|save| OnHitSave {
        save,
        effect: changes,
    }))
}
