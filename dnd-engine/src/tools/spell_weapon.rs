//! A spell's repeated attack on a later turn (Spiritual Weapon): `roll_attack` naming the spell
//! as its attack. The caster's bonus action goes through the turn gate (`Spend::BonusAction`),
//! the weapon moves up to 20 ft to a creature within 5 ft of it (`effects::weapon_reaches`,
//! where positions are kept), and the spell's own `spell_attack` effects are resolved again at
//! the slot it was cast with; the weapon then hovers by that creature.

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
    let Some(spell) = attack.and_then(|a| ctx.srd.spell(a).ok()) else {
        return Ok(None);
    };
    if !spell
        .effects
        .iter()
        .any(|e| matches!(e, Effect::SpellWeapon { .. }))
    {
        return Ok(None);
    }
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
    if let Err(distance) = weapon_reaches(at, stands) {
        return Err(ToolError::new(format!(
            "{}'s {} hovers {distance} ft from {}; it moves {WEAPON_MOVE_FT} ft and strikes within {WEAPON_REACH_FT} ft: name a creature within {} ft of it",
            caster.name,
            spell.name,
            victim.name,
            WEAPON_MOVE_FT + WEAPON_REACH_FT
        )));
    }
    super::encounter::act(ctx, &caster.id, Spend::BonusAction)?;
    let (attack_bonus, save_dc) = caster
        .spellcasting()
        .ok_or_else(|| ToolError::new(format!("{} has no spellcasting ability", caster.name)))?;
    let modifier = caster
        .spellcasting_ability
        .map_or(0, |a| caster.abilities.modifier(a));
    // The weapon moves to the creature it strikes; its minute runs on.
    let moved = crate::state::TimedEffect {
        kind: TimedKind::SpellWeapon { slot, at: stands },
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
    let prepared = Prepared {
        caster: &caster,
        spell,
        slot: Some(slot),
        changes: vec![Change::TimedEffectStarted { effect: moved }],
        attack_bonus,
        save_dc,
        modifier,
    };
    resolve_and_commit(ctx, prepared, &attacks, &[victim], vec![placed]).map(Some)
}
