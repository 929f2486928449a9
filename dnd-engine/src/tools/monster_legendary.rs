//! Legendary actions played at the end of other creatures' turns (the rule is
//! `combat::legendary`): each legendary monster of the fight that may, attacks with the
//! attack its legendary action names, through the same attack code as any swing
//! (`combat::attack_spent`: it spends no action of its turn), its uses counted through
//! `Change::UseSpent`; its own turn gives them back (`restore`).

use super::results::TurnEvent;
use super::{ToolContext, ToolError};
use crate::combat::legendary::{LEGENDARY_ACTIONS, legendary_attack, may_take, spent};
use crate::combat::monster_plan::{damage_average, pick_target};
use crate::state::Change;

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
        let changes = (0..cost)
            .map(|_| Change::UseSpent {
                monster: id.clone(),
                pool: LEGENDARY_ACTIONS.to_owned(),
                of: crate::combat::legendary::PER_ROUND,
            })
            .collect();
        ctx.commit(changes)?;
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
