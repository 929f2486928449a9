//! What `cast_spell` settles before the effects engine for a spell that acts on a place rather
//! than on creatures: where a teleport goes (Misty Step: `point`, or the area `aim` names), the
//! exit a lock goes on (Arcane Lock: `aim`), the area a glyph guards (Glyph of Warding: `aim`).
//! Each is checked by its rule in `effects` (`teleport`, `lock_exit`, `inscribe`) before anything
//! is rolled or spent, so a wrong place costs nothing; the changes join the casting's.

use super::spell_effects::{Prepared, caster_of};
use super::{ToolContext, ToolError};
use crate::effects::{self, Casting, Effect, Outcome};
use crate::state::{Change, Position};

/// Whether `effects` act on a place that `aim` names (a teleport's area, an exit, a glyph's
/// area), so that `aim` is not an area spell's.
pub(super) fn takes_aim(effects: &[Effect]) -> bool {
    effects::teleport_feet(effects).is_some()
        || effects::lock_bonus(effects).is_some()
        || effects::glyph_of(effects).is_some()
}

/// The changes and outcomes of what `p`'s `effects` do to places. A `point` is refused for a
/// spell that teleports no one.
pub(super) fn settle(
    ctx: &ToolContext<'_>,
    p: &Prepared<'_>,
    effects: &[Effect],
    aim: Option<&str>,
    point: Option<Position>,
) -> Result<Vec<(Change, Outcome)>, ToolError> {
    let (caster, spell) = (p.caster, p.spell);
    let refused = |e: effects::Refused| ToolError::new(e.to_string());
    let mut done = Vec::new();
    match effects::teleport_feet(effects) {
        Some(feet) => {
            let point = match (point, aim) {
                (None, Some(area)) => Some(area_point(ctx, &spell.name, area)?),
                _ => point,
            };
            let moved = effects::teleport(ctx.state, ctx.srd, &spell.name, &caster.id, feet, point)
                .map_err(refused)?;
            done.extend(moved);
            return Ok(done);
        }
        None if point.is_some() => {
            return Err(ToolError::new(format!(
                "{} takes no one to a point: give point null (aim names where an area goes)",
                spell.name
            )));
        }
        None => {}
    }
    if let Some(bonus) = effects::lock_bonus(effects) {
        let locked = effects::lock_exit(ctx.state, &spell.name, &caster.location, aim, bonus)
            .map_err(refused)?;
        done.push(locked);
        return Ok(done);
    }
    if let Some(glyph) = effects::glyph_of(effects) {
        let who = caster_of(p);
        let casting = Casting {
            caster: &who,
            source: &spell.name,
            level: spell.level,
            slot: p.slot.unwrap_or(spell.level),
            concentration: false,
        };
        let inscribed =
            effects::inscribe(ctx.state, casting, glyph, &caster.location, aim).map_err(refused)?;
        done.push(inscribed);
        return Ok(done);
    }
    Ok(done)
}

/// The point of the room's area `name` (id or name) a teleport goes to; refused with the
/// areas when there is none of that name.
fn area_point(
    ctx: &ToolContext<'_>,
    spell: &str,
    name: &str,
) -> Result<crate::state::Position, ToolError> {
    let areas = crate::combat::positions::room_areas(ctx.state);
    areas
        .iter()
        .find(|a| a.id.eq_ignore_ascii_case(name) || a.name.eq_ignore_ascii_case(name))
        .map(crate::state::Area::position)
        .ok_or_else(|| {
            let known: Vec<&str> = areas.iter().map(|a| a.id.as_str()).collect();
            ToolError::new(format!(
                "{spell} goes to a point: aim names an area of the room ({}), or point gives it in feet",
                if known.is_empty() { "this room has none".to_owned() } else { known.join(", ") }
            ))
        })
}
