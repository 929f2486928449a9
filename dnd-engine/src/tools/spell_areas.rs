//! Who a casting affects, for both of `cast_spell`'s paths: an area spell where the fight keeps
//! positions covers whoever its shape reaches from its aim (`combat::targeting::area_cover`);
//! any other casting affects the creatures named, counted by the spell's limit, each placed
//! from the caster (range, cover) by `combat::targeting::spell_target`.

use super::{ToolContext, ToolError, creature};
use crate::combat::targeting::{SpellTarget, area_cover, spell_target};
use crate::srd::{Spell, TargetLimit};

/// The creatures a casting of `spell` by `caster` (an id) affects, each with its placement.
///
/// With an area and positions: the aim is `aim`, else the first creature named; each creature
/// named must stand in the area (the model may list whom it expects; the area decides). Without
/// positions, or without an area: the creatures named ([`super::spells::choose_targets`]); an
/// `aim` is then refused for a spell without an area (it would mean nothing) and ignored for an
/// area spell in a room without positions (the names count, as the model gave them).
pub(super) fn targets<'s>(
    ctx: &ToolContext<'s>,
    caster: &str,
    spell: &Spell,
    limit: TargetLimit,
    aim: Option<&str>,
    names: &[String],
) -> Result<Vec<(creature::CreatureInfo<'s>, SpellTarget)>, ToolError> {
    if spell.area.is_none() && aim.is_some() {
        return Err(ToolError::new(format!(
            "{} has no area: name whom it affects in targets and leave aim null",
            spell.name
        )));
    }
    let aim = aim.or(names.first().map(String::as_str));
    let area = area_cover(ctx.state, caster, spell, aim).map_err(|e| {
        let hint = if aim.is_none() {
            " (name where it is aimed in aim)"
        } else {
            ""
        };
        ToolError::new(format!("{e}{hint}"))
    })?;
    let Some(area) = area else {
        let chosen = super::spells::choose_targets(ctx, spell, limit, names)?;
        return chosen
            .into_iter()
            .map(|t| {
                let at = spell_target(ctx.state, caster, t.target.id(), spell)
                    .map_err(|e| ToolError::new(e.to_string()))?;
                Ok((t, at))
            })
            .collect();
    };
    let covered_names = || {
        let names: Vec<String> = area
            .covered
            .iter()
            .map(|(id, _)| ctx.state.name_of(id))
            .collect();
        if names.is_empty() {
            "no one".to_owned()
        } else {
            names.join(", ")
        }
    };
    for name in names {
        let found = creature::find(ctx.state, ctx.srd, name)?;
        if !area
            .covered
            .iter()
            .any(|(id, _)| id.eq_ignore_ascii_case(found.target.id()))
        {
            // Out of range, behind total cover, or another creature than a Self spell allows:
            // the range rule says what is allowed; otherwise it stands beside the area.
            if let Err(e) = spell_target(ctx.state, caster, found.target.id(), spell) {
                return Err(ToolError::new(e.to_string()));
            }
            return Err(ToolError::new(format!(
                "{} stands outside {}'s {}, which covers {}: an area affects whoever it covers, so aim it elsewhere or leave {} out of targets",
                found.name,
                spell.name,
                area.described,
                covered_names(),
                found.name
            )));
        }
    }
    if area.covered.is_empty() {
        return Err(ToolError::new(format!(
            "{}'s {} covers no creature: aim it where creatures stand",
            spell.name, area.described
        )));
    }
    area.covered
        .into_iter()
        .map(|(id, at)| Ok((creature::find(ctx.state, ctx.srd, &id)?, at)))
        .collect()
}
