//! A glyph set off by a move (Glyph of Warding): after a creature moves into a warded area, each
//! glyph it sets off (`effects::set_off`) bursts through the effects engine, as its caster's
//! spell at the slot it was inscribed with, on everyone within its radius (`effects::burst`);
//! the glyph ends with it, and damage's follow-up saves are made. Called by `movement.rs` for
//! every move, a model's or a monster's.

use super::{ToolContext, ToolError, creature};
use crate::combat::targeting::SpellTarget;
use crate::effects::{self, Caster, Casting, Outcome};
use crate::state::{Change, Position};

/// The bursts of the glyphs `mover` (an id) sets off by moving from `from` to `to`, committed;
/// what they did.
pub(super) fn after_move(
    ctx: &mut ToolContext<'_>,
    mover: &str,
    from: Position,
    to: Position,
) -> Result<Vec<Outcome>, ToolError> {
    let mut out = Vec::new();
    for glyph in effects::set_off(ctx.state, mover, from, to) {
        let ended = Change::TimedEffectEnded {
            effect: glyph.clone(),
        };
        let burst = effects::burst(ctx.state, &glyph).filter(|(ids, ..)| !ids.is_empty());
        let Some((ids, burst, dc)) = burst else {
            ctx.commit(vec![ended])?;
            continue;
        };
        let who = Caster {
            id: glyph.source.clone(),
            name: ctx.state.name_of(&glyph.source),
            attack_bonus: 0,
            save_dc: dc,
            modifier: 0,
            level: ctx.state.character(&glyph.source).map_or(1, |c| c.level),
        };
        let casting = Casting {
            caster: &who,
            source: &glyph.spell,
            level: glyph.level,
            slot: glyph.level,
            concentration: false,
        };
        let mut subjects = Vec::with_capacity(ids.len());
        for id in &ids {
            let at = SpellTarget {
                distance_ft: 0,
                attack: None,
                cover: None,
            };
            subjects.push(creature::find(ctx.state, ctx.srd, id)?.subject(at));
        }
        let resolution = effects::resolve(ctx.state, casting, &subjects, &burst, ctx.rng)
            .map_err(|e| ToolError::new(e.to_string()))?;
        let mut changes = vec![ended];
        changes.extend(resolution.changes);
        super::damage::commit_with_follow_ups(ctx, &glyph.source, changes, resolution.rolls)?;
        out.extend(resolution.outcomes);
    }
    Ok(out)
}
