//! The moments an area that lasts catches a creature (`effects::zones`): the start and the end
//! of a creature's turn in it, and a move into it or through it (Spike Growth: once per 5 ft).
//! Each catch is resolved and committed as its caster's zone, through the casting's path
//! (`spell_zones::resolve_caught`), and reported as a [`ZoneReport`].

use super::results::{TurnEvent, ZoneReport};
use super::{ToolContext, ToolError};
use crate::combat::positions::position_of;
use crate::combat::targeting::SpellTarget;
use crate::effects::{self, Caster, Casting, Outcome};
use crate::srd::Spell;
use crate::state::{Change, Position, TimedEffect};

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
        let Some(&crate::state::ZoneKept { slot, .. }) = now.kind.zone() else {
            break;
        };
        let Ok(spell) = ctx.srd.spell(&zone.spell) else {
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
            changes.push(Change::TimedEffectStarted { effect });
        }
        let report = match ctx.state.character(&zone.source).cloned() {
            Some(caster) => {
                let cast =
                    super::spell_zones::resolve_caught(ctx, &caster, spell, slot, changes, &who)?;
                ZoneReport {
                    zone: cast.spell,
                    caster: cast.caster,
                    effects: cast.effects,
                    lasting: cast.lasting,
                    concentration_saves: cast.concentration_saves,
                }
            }
            None => match by_monster(ctx, &zone.source, spell, slot, changes, &who)? {
                Some(report) => report,
                None => break,
            },
        };
        if !(report.effects.is_empty() && report.lasting.is_empty()) {
            reports.push(report);
        }
    }
    Ok(reports)
}

/// A zone a monster keeps (a priest's Spirit Guardians) catching `who` (ids): the monster as
/// the caster with its spellcasting numbers, resolved and committed as its spells are. `None`
/// when the monster is unseen or casts no spells (nothing is rolled).
fn by_monster(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    spell: &Spell,
    slot: u8,
    mut changes: Vec<Change>,
    who: &[String],
) -> Result<Option<ZoneReport>, ToolError> {
    let Ok(found) = super::creature::find(ctx.state, ctx.srd, monster) else {
        return Ok(None);
    };
    let Some((template, casting)) = found
        .template
        .and_then(|t| Some((t, t.spellcasting.as_ref()?)))
    else {
        return Ok(None);
    };
    let caster = Caster {
        id: found.target.id().to_owned(),
        name: found.name.clone(),
        attack_bonus: casting.attack_bonus,
        save_dc: casting.save_dc,
        modifier: template.abilities.modifier(casting.ability),
        level: casting.caster_level,
    };
    let from = position_of(ctx.state, &caster.id);
    let mut subjects = Vec::new();
    for id in who {
        let Ok(caught) = super::creature::find(ctx.state, ctx.srd, id) else {
            continue;
        };
        if !caught.standing {
            continue;
        }
        let distance_ft = match (from, position_of(ctx.state, id)) {
            (Some(a), Some(b)) => a.distance(b),
            _ => 5,
        };
        subjects.push(caught.subject(SpellTarget {
            distance_ft,
            attack: None,
            cover: None,
        }));
    }
    let cast = Casting {
        caster: &caster,
        source: &spell.name,
        level: spell.level,
        slot,
        concentration: spell.concentration,
    };
    let caught_effects = effects::caught_effects(&spell.effects);
    let resolution = effects::resolve(ctx.state, cast, &subjects, &caught_effects, ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    changes.extend(resolution.changes);
    let after = super::damage::commit_with_follow_ups(ctx, &caster.id, changes, resolution.rolls)?;
    let (effects, lasting) = resolution
        .outcomes
        .into_iter()
        .partition(|o| !matches!(o, Outcome::Started { .. }));
    Ok(Some(ZoneReport {
        zone: spell.name.clone(),
        caster: caster.name,
        effects,
        lasting,
        concentration_saves: after
            .into_iter()
            .filter_map(|(_, a)| a.concentration)
            .collect(),
    }))
}
