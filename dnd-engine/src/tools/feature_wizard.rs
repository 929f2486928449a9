//! The Evocation wizard's Sculpt Spells in `cast_spell` (its `sculpt` argument): the creatures
//! named are found and checked against the rule (`character::wizard::may_sculpt`); the effects
//! engine then spares them (`effects::Subject::spared`).

use super::{ToolContext, ToolError, creature};
use crate::srd::Spell;
use crate::state::Character;

/// The ids of the creatures `caster` spares from `spell` with Sculpt Spells (`names`; none
/// when null), or why not: the caster is no Evocation wizard of 2nd level, the spell no
/// evocation or one that lasts, too many creatures, a name that is no creature here.
pub(super) fn sculpted(
    ctx: &ToolContext<'_>,
    caster: &Character,
    spell: &Spell,
    names: Option<&[String]>,
) -> Result<Vec<String>, ToolError> {
    let Some(names) = names else {
        return Ok(Vec::new());
    };
    crate::character::wizard::may_sculpt(ctx.srd, caster, spell, names.len())
        .map_err(|e| ToolError::new(e.to_string()))?;
    if crate::effects::zone_rules(&spell.effects).is_some() {
        return Err(ToolError::new(format!(
            "Sculpt Spells spares creatures from a spell's instant effect; {} lasts as an area, which it does not shape here: cast it with sculpt null",
            spell.name
        )));
    }
    let mut ids: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let id = creature::find(ctx.state, ctx.srd, name)?
            .target
            .id()
            .to_owned();
        if ids.contains(&id) {
            return Err(ToolError::new(format!(
                "{name} is named twice in sculpt: name each creature once"
            )));
        }
        ids.push(id);
    }
    Ok(ids)
}
