//! A spell's repeated attack on a later turn (Spiritual Weapon): `roll_attack` naming the spell
//! as its attack. The caster's bonus action goes through the turn gate (`Spend::BonusAction`),
//! the weapon moves up to 20 ft to a creature within 5 ft of it (`effects::weapon_reaches`,
//! where positions are kept), and the spell's own `spell_attack` effects are resolved again at
//! the slot it was cast with; the weapon then hovers by that creature. A weapon held in the
//! caster's hand (Flame Blade) takes the action instead and reaches 5 ft from the caster.

use super::results::SpellCast;
use super::spell_effects::{Prepared, resolve_and_commit};
use super::{ToolContext, ToolError, creature};
use crate::combat::positions::position_of;
use crate::combat::targeting::SpellTarget;
use crate::effects::{Effect, WEAPON_MOVE_FT, WEAPON_REACH_FT, weapon_of, weapon_reaches};
use crate::rules::Spend;
use crate::state::{Change, TimedKind};

/// Attacks with `attacker`'s spectral weapon of the spell `attack` names, if `attack` names a
/// spell that leaves one (`None` otherwise: a weapon or an action, for `roll_attack`). Refused
/// when the caster has none in play, has used its bonus action, or the weapon cannot reach.
pub(super) fn strike(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
    attack: Option<&str>,
) -> Result<Option<SpellCast>, ToolError> {
    let Some(spell) = attack.and_then(|a| ctx.srd.spell_named(a)) else {
        return Ok(None);
    };
    let Some(held) = spell.effects.iter().find_map(|e| match e {
        Effect::SpellWeapon { held, .. } => Some(*held),
        _ => None,
    }) else {
        return Ok(None);
    };
    let caster = ctx
        .state
        .character(attacker)
        .ok_or_else(|| {
            ToolError::new(format!(
                "{attacker:?} is not a character: only a caster attacks with its {}",
                spell.name
            ))
        })?
        .clone();
    let Some(weapon) = weapon_of(ctx.state, &caster.id, &spell.name).cloned() else {
        return Err(ToolError::new(format!(
            "{} has no {} in play: cast it with cast_spell (the casting makes the first attack); a later turn's bonus action attacks with it again",
            caster.name, spell.name
        )));
    };
    let TimedKind::SpellWeapon { slot, at } = weapon.kind else {
        return Ok(None);
    };
    let victim = creature::find(ctx.state, ctx.srd, target)?;
    if victim.target.id().eq_ignore_ascii_case(&caster.id) {
        return Err(ToolError::new(format!(
            "{} cannot attack itself with its {}",
            caster.name, spell.name
        )));
    }
    let stands = position_of(ctx.state, victim.target.id());
    if held {
        // A blade in the caster's hand reaches as a melee attack does, and takes the action.
        let from = position_of(ctx.state, &caster.id);
        if let Err(distance) = held_reaches(from, stands) {
            return Err(ToolError::new(format!(
                "{} is {distance} ft from {}; the {} in its hand strikes within {WEAPON_REACH_FT} ft",
                caster.name, victim.name, spell.name
            )));
        }
    } else if let Err(distance) = weapon_reaches(at, stands) {
        return Err(ToolError::new(format!(
            "{}'s {} hovers {distance} ft from {}; it moves {WEAPON_MOVE_FT} ft and strikes within {WEAPON_REACH_FT} ft: name a creature within {} ft of it",
            caster.name,
            spell.name,
            victim.name,
            WEAPON_MOVE_FT + WEAPON_REACH_FT
        )));
    }
    let spend = if held {
        Spend::Action
    } else {
        Spend::BonusAction
    };
    super::encounter::act(ctx, &caster.id, spend)?;
    // The weapon moves to the creature it strikes (a held one stays in hand); its time runs on.
    let moved = crate::state::TimedEffect {
        kind: TimedKind::SpellWeapon {
            slot,
            at: if held { at } else { stands },
        },
        ..weapon
    };
    let attacks: Vec<Effect> = spell
        .effects
        .iter()
        .filter(|e| matches!(e, Effect::SpellAttack { .. }))
        .cloned()
        .collect();
    let placed = SpellTarget {
        distance_ft: 5,
        attack: None,
        cover: None,
    };
    let changes = vec![Change::TimedEffectStarted { effect: moved }];
    let prepared = Prepared::again(&caster, spell, slot, changes)?;
    resolve_and_commit(ctx, prepared, &attacks, &[victim], vec![placed]).map(Some)
}

/// Whether a creature at `target` stands within reach of a blade held at `from` (`Err` with the
/// distance when not); anything goes where no positions are kept.
fn held_reaches(
    from: Option<crate::state::Position>,
    target: Option<crate::state::Position>,
) -> Result<(), u32> {
    let (Some(from), Some(target)) = (from, target) else {
        return Ok(());
    };
    let distance = crate::state::round_to_5(from.exact_distance(target));
    if distance <= WEAPON_REACH_FT {
        Ok(())
    } else {
        Err(distance)
    }
}
