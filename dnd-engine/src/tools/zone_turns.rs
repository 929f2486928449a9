//! The moments an area that lasts catches a creature (`effects::zones`): the start and the end
//! of a creature's turn in it, and a move into it or through it (Spike Growth: once per 5 ft).
//! Each catch is resolved and committed as its caster's zone, through the casting's path
//! (`spell_zones::resolve_caught`), and reported as a [`ZoneReport`].

use super::results::{TurnEvent, ZoneReport};
use super::{ToolContext, ToolError};
use crate::effects;
use crate::state::{Position, TimedEffect, TimedKind};

/// When in a turn a zone is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Moment {
    Start,
    End,
}

/// At the start of the current creature's turn: the zones it stands in that catch a creature
/// starting its turn there (Moonbeam, Spirit Guardians, Web, Stinking Cloud).
pub(super) fn turn_started(ctx: &mut ToolContext<'_>) -> Result<Vec<TurnEvent>, ToolError> {
    let Some(id) = current(ctx) else {
        return Ok(Vec::new());
    };
    at_turn(ctx, &id, Moment::Start)
}

/// At the end of `id`'s turn: the zones that catch a creature ending its turn in them
/// (Flaming Sphere).
pub(super) fn turn_ended(ctx: &mut ToolContext<'_>, id: &str) -> Result<Vec<TurnEvent>, ToolError> {
    at_turn(ctx, id, Moment::End)
}

fn current(ctx: &ToolContext<'_>) -> Option<String> {
    ctx.state
        .encounter
        .as_ref()
        .and_then(|e| e.current().map(str::to_owned))
}

fn at_turn(
    ctx: &mut ToolContext<'_>,
    id: &str,
    moment: Moment,
) -> Result<Vec<TurnEvent>, ToolError> {
    let mut events = Vec::new();
    for (zone, spell, rules) in effects::zones(ctx.state, ctx.srd) {
        let wanted = match moment {
            Moment::Start => rules.turn_start,
            Moment::End => rules.turn_end,
        };
        if wanted && effects::catches(ctx.state, &zone, spell, id, None) {
            // A turn's start counts as its first time there (Moonbeam); its end does not.
            let once = moment == Moment::Start;
            events.extend(catch(ctx, &zone, id, 1, once)?);
        }
    }
    Ok(events.into_iter().map(TurnEvent::Zone).collect())
}

/// After `mover` moved from `from` to `to`: the zones it entered that catch a creature
/// entering (Moonbeam, Web), and those that catch it for each 5 ft moved inside (Spike
/// Growth).
pub(super) fn moved(
    ctx: &mut ToolContext<'_>,
    mover: &str,
    from: Position,
    to: Position,
) -> Result<Vec<ZoneReport>, ToolError> {
    let mut reports = Vec::new();
    for (zone, spell, rules) in effects::zones(ctx.state, ctx.srd) {
        if rules.per_5_ft {
            let steps = effects::steps_inside(ctx.state, &zone, spell, mover, from, to);
            reports.extend(catch(ctx, &zone, mover, steps, false)?);
        }
        if rules.entering
            && !effects::catches(ctx.state, &zone, spell, mover, Some(from))
            && effects::catches(ctx.state, &zone, spell, mover, Some(to))
        {
            reports.extend(catch(ctx, &zone, mover, 1, true)?);
        }
    }
    Ok(reports)
}

/// Catches `who` (an id) in `zone` `times` times (each resolved on its own: Spike Growth's
/// 2d4 per 5 ft), while the zone still stands and its caster is a character; `once`: only the
/// first time on the fight's turn (entering, or starting a turn there), which the zone records.
fn catch(
    ctx: &mut ToolContext<'_>,
    zone: &TimedEffect,
    who: &str,
    times: u32,
    once: bool,
) -> Result<Vec<ZoneReport>, ToolError> {
    let mut reports = Vec::new();
    for _ in 0..times {
        // An earlier catch may have ended it (its caster's concentration broke).
        let Some(now) = effects::zone_of(ctx.state, &zone.source, &zone.spell).cloned() else {
            break;
        };
        let TimedKind::Zone { slot, .. } = now.kind else {
            break;
        };
        let (Some(caster), Ok(spell)) = (
            ctx.state.character(&zone.source).cloned(),
            ctx.srd.spell(&zone.spell),
        ) else {
            break;
        };
        let who = [who.to_owned()];
        let turn = effects::turn_now(ctx.state);
        let mut changes = Vec::new();
        if once {
            if !effects::first_this_turn(&now, &who[0], turn) {
                break;
            }
            let effect = effects::updated(&now, None, None, &who, turn);
            changes.push(crate::state::Change::TimedEffectStarted { effect });
        }
        let cast = super::spell_zones::resolve_caught(ctx, &caster, spell, slot, changes, &who)?;
        if cast.effects.is_empty() && cast.lasting.is_empty() {
            continue;
        }
        reports.push(ZoneReport {
            zone: cast.spell,
            caster: cast.caster,
            effects: cast.effects,
            lasting: cast.lasting,
            concentration_saves: cast.concentration_saves,
        });
    }
    Ok(reports)
}
