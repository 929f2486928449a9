//! `move_in_fight`: a combatant moves within the fight's room, spending feet of its turn
//! through the gate, and the hostiles whose reach it leaves make their opportunity attacks
//! (rolled here, each spending that hostile's reaction). The geometry is
//! `combat::positions`; this file only carries a move out.

use super::results::{MoveDropped, MoveOutcome, Moved};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolContext, ToolError, creature};
use crate::combat::positions::{self, Destination, Move};
use crate::combat::{self, CombatError};
use crate::rules::Spend;
use crate::state::{Change, Position, area_at};

/// Arguments of `move_in_fight`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveInFightArgs {
    /// Who moves: a combatant whose turn it is, id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// Where to: an area of the room (id or name, as the snapshot lists them), or a creature
    /// to move toward (stopping within 5 ft of it).
    #[schemars(description = "An area, or a creature to move toward.")]
    pub to: String,
    /// How many feet to go at most; null for the whole way to an area, or toward a creature as
    /// far as the movement left allows.
    #[schemars(description = "At most; null: as far as it can.")]
    pub feet: Option<u32>,
}

pub(super) fn move_in_fight(
    args: MoveInFightArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<MoveOutcome, ToolError> {
    let mover = creature::find(ctx.state, ctx.srd, &args.creature)?;
    let id = mover.target.id().to_owned();
    let areas = positions::room_areas(ctx.state);
    let is_area = areas
        .iter()
        .any(|a| a.id.eq_ignore_ascii_case(&args.to) || a.name.eq_ignore_ascii_case(&args.to));
    let toward = match creature::find(ctx.state, ctx.srd, &args.to) {
        Ok(found) if !is_area => Some(found.target.id().to_owned()),
        _ => None,
    };
    let destination = match &toward {
        Some(target) => Destination::Toward(target, 5),
        None => Destination::Area(&args.to),
    };
    // Toward a creature with no distance given: as far as the turn's movement reaches, as a
    // monster closes in. Otherwise (and when that finds no move), the move asked for, which the
    // gate refuses if the feet are not left.
    let closing = match (&toward, args.feet) {
        (Some(target), None) => positions::approach(ctx.state, ctx.srd, &id, target, 5),
        _ => None,
    };
    let planned = match closing {
        Some(planned) => planned,
        None => positions::plan_move(ctx.state, ctx.srd, &id, destination, args.feet)
            .map_err(|e| ToolError::new(e.to_string()))?,
    };
    let area_before = area_of(ctx.state, &id);
    let outcome = carry_out(ctx, planned)?;
    // Stepping into an area of the room sets off the traps there (`tools::traps`).
    if let Some(area) = area_of(ctx.state, &id).filter(|a| Some(a) != area_before.as_ref()) {
        super::traps::on_area(ctx, &id, &area)?;
    }
    Ok(outcome)
}

/// The id of the area of the party's room where `id` stands in the fight, if any.
fn area_of(state: &crate::state::GameState, id: &str) -> Option<String> {
    let at = state.encounter.as_ref()?.position(id)?;
    crate::state::area_at(positions::room_areas(state), at).map(|a| a.id.clone())
}

/// Carries out a planned move: the feet through the gate (refused, changing nothing, when it
/// is not the mover's turn or the feet are not left), then the opportunity attacks it provokes,
/// then the move itself, unless an opportunity attack dropped the mover where it stood.
pub(super) fn carry_out(
    ctx: &mut ToolContext<'_>,
    planned: Move,
) -> Result<MoveOutcome, ToolError> {
    let spend = combat::may_act(ctx.state, &planned.mover, Spend::Movement(planned.cost_ft))
        .map_err(|e| moving_error(ctx, &planned, e))?;
    // Stepping out of stone ends Meld into Stone.
    if planned.feet > 0
        && let Some(e) =
            crate::state::melded(crate::state::timed_effects(ctx.state, &planned.mover))
    {
        let effect = e.clone();
        ctx.commit(vec![Change::TimedEffectEnded { effect }])?;
    }
    let mut attacks = Vec::new();
    for (foe, attack) in &planned.provokes {
        // A hostile without its reaction, or unable to act, lets the mover go.
        let Ok(Some(reaction)) = combat::may_act(ctx.state, foe, Spend::Reaction) else {
            continue;
        };
        ctx.commit(vec![reaction])?;
        let mut result = super::combat::attack_spent(ctx, foe, &planned.mover, Some(attack), None)?;
        result.opportunity_attack = true;
        attacks.push(result);
        if creature::find(ctx.state, ctx.srd, &planned.mover).is_ok_and(|m| !m.standing) {
            return Ok(MoveOutcome::Dropped(MoveDropped {
                moved: false,
                why: "an opportunity attack dropped it before it got away".to_owned(),
                opportunity_attacks: attacks,
            }));
        }
    }
    // A move of no feet spends nothing (the gate still refused it off-turn).
    let mut changes: Vec<Change> = spend.filter(|_| planned.cost_ft > 0).into_iter().collect();
    if planned.feet > 0 {
        changes.push(Change::Moved {
            creature: planned.mover.clone(),
            to: planned.to,
        });
    }
    ctx.commit(changes)?;
    let zones = if planned.feet > 0 {
        super::zone_turns::moved(ctx, &planned.mover, planned.from, planned.to)?
    } else {
        Vec::new()
    };
    // A warded area entered sets its glyphs off (Glyph of Warding).
    let glyphs = if planned.feet > 0 {
        super::glyphs::after_move(ctx, &planned.mover, planned.from, planned.to)?
    } else {
        Vec::new()
    };
    Ok(MoveOutcome::Moved(Moved {
        moved: planned.feet > 0,
        from: place(ctx, planned.from),
        to: place(ctx, planned.to),
        creature: planned.mover,
        feet: planned.feet,
        movement_spent_ft: planned.cost_ft,
        difficult_terrain: planned.difficult,
        opportunity_attacks: attacks,
        now: super::encounter::current_turn(ctx),
        zones,
        glyphs,
    }))
}

/// A monster's move toward its target before it strikes: as far as its movement allows, to
/// within `within` feet (what its planned attack reaches). `None` when it does not need to
/// move, or cannot.
pub(super) fn close_in(
    ctx: &mut ToolContext<'_>,
    mover: &str,
    target: &str,
    within: u32,
) -> Result<Option<MoveOutcome>, ToolError> {
    let Some(planned) = positions::approach(ctx.state, ctx.srd, mover, target, within) else {
        return Ok(None);
    };
    carry_out(ctx, planned).map(Some)
}

/// Where a point is, in words: "the ice bridge" or "(12, 3), 10 ft up".
fn place(ctx: &ToolContext<'_>, at: Position) -> String {
    let height = if at.z > 0 {
        format!(", {} ft up", at.z)
    } else {
        String::new()
    };
    match area_at(positions::room_areas(ctx.state), at) {
        Some(area) => format!("{}{height}", area.name),
        None => format!("({}, {}){height}", at.x, at.y),
    }
}

/// The gate's refusal, with what the move would have cost.
fn moving_error(ctx: &ToolContext<'_>, planned: &Move, error: CombatError) -> ToolError {
    let terrain = if planned.difficult {
        " (difficult terrain doubles it)"
    } else {
        ""
    };
    ToolError::new(format!(
        "moving {} ft to {} costs {} ft of movement{terrain}: {error}; move less with `feet`",
        planned.feet,
        place(ctx, planned.to),
        planned.cost_ft
    ))
}
