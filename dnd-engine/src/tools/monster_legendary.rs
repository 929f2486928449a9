//! Legendary actions played at the end of other creatures' turns (the rule is
//! `combat::legendary`): each legendary monster of the fight that may either forces the save
//! of its legendary action that carries one on the heroes in its area (resolved by the
//! effects engine like any save action, `monster_action::legendary_save_action`), or attacks
//! with the attack its legendary action names, through the same attack code as any swing
//! (`combat::attack_spent`: it spends no action of its turn); its uses are counted through
//! `Change::UseSpent`, and its own turn gives them back (`restore`).

use super::results::TurnEvent;
use super::{ToolContext, ToolError};
use crate::combat::legendary::{
    AREA_AT_LEAST, LEGENDARY_ACTIONS, area_ft, legendary_attack, legendary_save, may_take, spent,
};
use crate::combat::monster_plan::{damage_average, pick_target};
use crate::state::Change;

/// The changes spending `cost` of `monster`'s legendary actions.
fn spend(monster: &str, cost: u8) -> Vec<Change> {
    (0..cost)
        .map(|_| Change::UseSpent {
            monster: monster.to_owned(),
            pool: LEGENDARY_ACTIONS.to_owned(),
            of: crate::combat::legendary::PER_ROUND,
        })
        .collect()
}

/// The save-based legendary action `id` takes now, if the rule says so: the action and the
/// heroes standing in its area (ids).
fn save_to_take(
    ctx: &ToolContext<'_>,
    id: &str,
) -> Option<(crate::srd::MonsterAction, Vec<String>)> {
    let m = ctx.state.monster(id)?;
    let template = ctx.srd.monster(&m.template).ok()?;
    let action = legendary_save(template)?;
    let radius = area_ft(action)?;
    if !may_take(m, action.cost.unwrap_or(1)) {
        return None;
    }
    let inside: Vec<String> = ctx
        .state
        .characters
        .iter()
        .filter(|c| !c.dead && c.hp.current > 0 && c.location == m.location)
        .filter(|c| crate::combat::positions::distance(ctx.state, id, &c.id) <= radius)
        .map(|c| c.id.clone())
        .collect();
    (inside.len() >= AREA_AT_LEAST).then(|| (action.clone(), inside))
}

/// At the end of `ended`'s turn: each other legendary monster takes a legendary attack if the
/// rule says so. What they did.
pub(super) fn after_turn(
    ctx: &mut ToolContext<'_>,
    ended: &str,
) -> Result<Vec<TurnEvent>, ToolError> {
    let Some(encounter) = ctx.state.encounter.as_ref() else {
        return Ok(Vec::new());
    };
    let ids: Vec<String> = encounter
        .order
        .iter()
        .map(|s| s.id.clone())
        .filter(|id| !id.eq_ignore_ascii_case(ended))
        .collect();
    let mut log = Vec::new();
    for id in ids {
        if let Some((action, inside)) = save_to_take(ctx, &id) {
            let cost = spend(&id, action.cost.unwrap_or(1));
            match super::monster_action::legendary_save_action(ctx, &id, &action, &inside, cost) {
                Ok(report) => log.push(TurnEvent::SaveAction(report)),
                Err(refused) => log.push(TurnEvent::Refused {
                    monster: id.clone(),
                    refused: refused.message,
                }),
            }
            continue;
        }
        let Some(m) = ctx.state.monster(&id) else {
            continue;
        };
        let Ok(template) = ctx.srd.monster(&m.template) else {
            continue;
        };
        let Some((legendary, attack)) = legendary_attack(template) else {
            continue;
        };
        let cost = legendary.cost.unwrap_or(1);
        if !may_take(m, cost) {
            continue;
        }
        let (legendary, attack) = (legendary.name.clone(), attack.clone());
        let location = m.location.clone();
        let heroes: Vec<(usize, String, u32, i32)> = ctx
            .state
            .characters
            .iter()
            .filter(|c| !c.dead && c.hp.current > 0 && c.location == location)
            // Past a hero on the Ethereal Plane (Blink) or warded by Sanctuary.
            .filter(|c| {
                !crate::effects::ethereal(ctx.state, &c.id)
                    && crate::effects::sanctuary_on(ctx.state, &id, &c.id).is_none()
            })
            .enumerate()
            .map(|(i, c)| (i, c.id.clone(), c.hp.current, c.armor_class))
            .collect();
        let reached: Vec<&(usize, String, u32, i32)> = heroes
            .iter()
            .filter(|(_, hero, ..)| super::combat::reaches(ctx, &id, hero))
            .collect();
        let pick = pick_target(
            reached.iter().map(|(i, _, hp, ac)| (*i, *hp, *ac)),
            damage_average(&attack),
        );
        let Some(target) = pick.map(|i| heroes[i].1.clone()) else {
            continue;
        };
        ctx.commit(spend(&id, cost))?;
        match super::combat::attack_spent(ctx, &id, &target, Some(&attack.name), None) {
            Ok(report) => log.push(TurnEvent::Legendary {
                monster: id.clone(),
                legendary,
                attack: report,
            }),
            Err(refused) => log.push(TurnEvent::Refused {
                monster: id.clone(),
                refused: refused.message,
            }),
        }
    }
    Ok(log)
}

/// At the start of `monster`'s turn: the legendary actions it spent come back.
pub(super) fn restore(ctx: &mut ToolContext<'_>, monster: &str) -> Result<(), ToolError> {
    let spent_any = ctx.state.monster(monster).is_some_and(|m| spent(m) > 0);
    if spent_any {
        ctx.commit(vec![Change::UsesRestored {
            monster: monster.to_owned(),
            pool: LEGENDARY_ACTIONS.to_owned(),
        }])?;
    }
    Ok(())
}
