//! Hunter's Mark moved (`cast_spell` with `again`): when the creature it marks drops to 0 hit
//! points, the caster's bonus action on a later turn marks a new creature within the spell's
//! range, for what is left of the spell's time, with no slot and the same concentration.

use super::creature;
use super::results::SpellCast;
use super::{ToolContext, ToolError};
use crate::combat::targeting::spell_target;
use crate::effects::Outcome;
use crate::rules::Spend;
use crate::srd::Spell;
use crate::state::{Change, Character, TimedEffect, TimedKind, concentration_of};

/// Moves `caster`'s mark of `spell` to the one creature `names` gives. Refused (changing
/// nothing) without the spell's concentration, while the marked creature still stands,
/// without the bonus action, or for a creature out of range.
pub(super) fn move_mark(
    ctx: &mut ToolContext<'_>,
    caster: &Character,
    spell: &Spell,
    names: &[String],
) -> Result<SpellCast, ToolError> {
    if !concentration_of(ctx.state, &caster.id).is_some_and(|s| s.eq_ignore_ascii_case(&spell.name))
    {
        return Err(ToolError::new(format!(
            "{} is not concentrating on {}: cast it with a slot (again null); a mark moves only while the spell lasts",
            caster.name, spell.name
        )));
    }
    let Some(old) = mark_of(ctx, &caster.id, &spell.name) else {
        return Err(ToolError::new(format!(
            "{} has no creature marked by {}: cast it with a slot (again null)",
            caster.name, spell.name
        )));
    };
    let marked = creature::find(ctx.state, ctx.srd, &old.target).ok();
    if let Some(still) = marked.as_ref().filter(|m| m.standing) {
        return Err(ToolError::new(format!(
            "{}'s mark is on {}, who still stands: it moves only after its creature drops to 0 hit points",
            caster.name, still.name
        )));
    }
    let [name] = names else {
        return Err(ToolError::new(format!(
            "name the one creature {} moves to in targets ({} named)",
            spell.name,
            names.len()
        )));
    };
    let new = creature::find(ctx.state, ctx.srd, name)?;
    if !new.standing {
        return Err(ToolError::new(format!(
            "{} is down: mark a creature that stands",
            new.name
        )));
    }
    spell_target(ctx.state, &caster.id, new.target.id(), spell)
        .map_err(|e| ToolError::new(e.to_string()))?;
    super::encounter::act(ctx, &caster.id, Spend::BonusAction)
        .map_err(|e| ToolError::new(format!("moving {} takes a bonus action: {e}", spell.name)))?;
    let moved = TimedEffect {
        target: new.target.id().to_owned(),
        ..old.clone()
    };
    let mut changes = Vec::new();
    // The old mark goes where its creature still carries it (a slain monster does).
    if marked.is_some() {
        changes.push(Change::TimedEffectEnded { effect: old });
    }
    changes.push(Change::TimedEffectStarted {
        effect: moved.clone(),
    });
    ctx.commit(changes)?;
    let (attack_bonus, save_dc) = caster.spellcasting().unwrap_or_default();
    Ok(SpellCast {
        caster: caster.name.clone(),
        spell: spell.name.clone(),
        slot_level: None,
        spell_attack_bonus: attack_bonus,
        save_dc,
        concentrating: true,
        slots_left: Some(caster.spell_slots.describe_available()),
        lasting: vec![Outcome::Started {
            target: new.name.clone(),
            effect: moved,
        }],
        narrator: spell.unmodelled.clone(),
        ..SpellCast::default()
    })
}

/// The mark `caster` (an id) put with `spell`, on whichever creature carries it.
fn mark_of(ctx: &ToolContext<'_>, caster: &str, spell: &str) -> Option<TimedEffect> {
    let state = &*ctx.state;
    state
        .characters
        .iter()
        .flat_map(|c| &c.timed_effects)
        .chain(state.monsters.iter().flat_map(|m| &m.timed_effects))
        .find(|e| {
            matches!(e.kind, TimedKind::Marked { .. })
                && e.source.eq_ignore_ascii_case(caster)
                && e.spell.eq_ignore_ascii_case(spell)
        })
        .cloned()
}
