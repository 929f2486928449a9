//! Areas that last, for `cast_spell` (the rules are `effects::zones`): the casting places the
//! zone where it is aimed and keeps it on the caster; `cast_spell` with `again` uses it on a
//! later turn (Call Lightning's next bolt, Heat Metal's heat, Moonbeam moved, Flaming Sphere
//! rammed) through the turn gate with the spend its data names; and whoever it catches is
//! resolved and committed through the same path as any casting
//! (`spell_effects::resolve_and_commit`). The turn boundaries and moves that catch creatures
//! are in `zone_turns.rs`.

use super::creature::{self, CreatureInfo};
use super::results::SpellCast;
use super::spell_effects::{Prepared, resolve_and_commit};
use super::{ToolContext, ToolError};
use crate::combat::positions::position_of;
use crate::combat::targeting::{SpellTarget, aim_point, area_cover};
use crate::effects::{self, AgainDoes, Effect, ZoneRules};
use crate::rules::Spend;
use crate::srd::Spell;
use crate::state::{Change, Character, TimedEffect};

/// Casts a spell whose area lasts: placed at `aim` (or the first creature named; on the caster
/// for Spirit Guardians), the casting's own effects on whom it covers when its data says so
/// (Call Lightning's first bolt, Web), then the zone kept on the caster.
pub(super) fn cast(
    ctx: &mut ToolContext<'_>,
    mut p: Prepared<'_>,
    rules: ZoneRules,
    all: &[Effect],
    aim: Option<&str>,
    names: &[String],
) -> Result<SpellCast, ToolError> {
    let (caster, spell) = (p.caster, p.spell);
    let now = effects::casting_effects(all);
    let aimed = aim.or(names.first().map(String::as_str));
    // Where positions are kept, the area is checked as any area (range, a known aim).
    let area = area_cover(ctx.state, &caster.id, spell, aimed).map_err(|e| {
        let hint = if aimed.is_none() {
            " (name where it is aimed in aim)"
        } else {
            ""
        };
        ToolError::new(format!("{e}{hint}"))
    })?;
    let at = match (&area, aimed) {
        (Some(_), Some(aim)) if !rules.on_caster => aim_point(ctx.state, aim).map(|(p, _)| p),
        _ => None,
    };
    let (targets, placed): (Vec<CreatureInfo<'_>>, Vec<SpellTarget>) = if now.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        let limit = spell.target_limit(p.slot.unwrap_or(spell.level), caster.level);
        super::spell_areas::targets(ctx, &caster.id, spell, limit, aim, names)?
            .into_iter()
            .unzip()
    };
    // Who it is fixed on: those it covered, or, where no positions are kept, those named.
    let mut on: Vec<String> = targets.iter().map(|t| t.target.id().to_owned()).collect();
    if on.is_empty() && area.is_none() {
        on = ids(ctx, names)?;
    }
    p.zone = Some((rules, at, on));
    super::spell_effects::unless_countered(ctx, p, &now, &targets, placed)
}

/// `cast_spell` with `again`: a lasting spell the caster keeps, used on a later turn with no
/// slot, or Hunter's Mark moved to a new creature. Refused (changing nothing) when the spell
/// has nothing to do again, the caster keeps none in play, the turn has not the spend left,
/// or the aim is beyond what the spell allows.
pub(super) fn again(
    ctx: &mut ToolContext<'_>,
    caster: &str,
    spell: &str,
    aim: Option<&str>,
    names: &[String],
) -> Result<SpellCast, ToolError> {
    let spell = ctx
        .srd
        .spell(spell)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let caster = ctx
        .state
        .character(caster)
        .ok_or_else(|| {
            ToolError::new(format!(
                "{caster:?} is not a character: only a character's spells are used again"
            ))
        })?
        .clone();
    if spell
        .effects
        .iter()
        .any(|e| matches!(e, Effect::Mark { .. }))
    {
        return super::spell_marks::move_mark(ctx, &caster, spell, names);
    }
    let Some(again) = effects::zone_rules(&spell.effects).and_then(|r| r.again) else {
        return Err(ToolError::new(format!(
            "{} has nothing to use again: again is for a lasting spell its caster keeps (Call Lightning's next bolt, Heat Metal, moving Moonbeam or Flaming Sphere) and for moving Hunter's Mark; cast {} with again null",
            spell.name, spell.name
        )));
    };
    let Some(zone) = effects::zone_of(ctx.state, &caster.id, &spell.name).cloned() else {
        let on = caster.concentration.as_deref().unwrap_or("nothing");
        return Err(ToolError::new(format!(
            "{} keeps no {} in play (concentrating on: {on}): only while its concentration lasts is it used again; cast it with a slot first (again null)",
            caster.name, spell.name
        )));
    };
    let Some(crate::state::ZoneKept { slot, at, on, .. }) = zone.kind.zone().cloned() else {
        return Err(ToolError::new("not a lasting area".to_owned()));
    };
    let aimed = aim.or(names.first().map(String::as_str));
    let point = aimed.and_then(|a| aim_point(ctx.state, a)).map(|(p, _)| p);
    let kept = position_of(ctx.state, &caster.id).is_some();
    let mut moved = Vec::new();
    let caught = match again.does {
        AgainDoes::Strike => struck(ctx, &caster, spell, aimed, names)?,
        AgainDoes::SameCreatures => {
            let standing = on
                .iter()
                .any(|id| creature::find(ctx.state, ctx.srd, id).is_ok_and(|c| c.standing));
            if !standing {
                return Err(ToolError::new(format!(
                    "{}'s {} was fixed on {}, who no longer stands: nothing is left for it to do",
                    caster.name,
                    spell.name,
                    on.iter()
                        .map(|id| ctx.state.name_of(id))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            on.clone()
        }
        AgainDoes::Move | AgainDoes::Ram => {
            if kept && point.is_none() {
                return Err(ToolError::new(format!(
                    "{}'s {} moves to a creature or an area of the room: name it in aim",
                    caster.name, spell.name
                )));
            }
            if let Err(distance) = effects::may_move(again, at, point) {
                let feet = again.feet.unwrap_or_default();
                return Err(ToolError::new(format!(
                    "{}'s {} is {distance} ft from {}; it moves at most {feet} ft: aim within {feet} ft of it",
                    caster.name,
                    spell.name,
                    aimed.unwrap_or_default()
                )));
            }
            // Where no positions are kept, the creatures named are where it now is.
            let fixed = if point.is_some() {
                None
            } else {
                Some(ids(ctx, names)?)
            };
            let now = effects::turn_now(ctx.state);
            let to = effects::updated(&zone, point, fixed, &[], now);
            let (caught, entering) = if again.does == AgainDoes::Ram {
                (rammed(ctx, aimed), Vec::new())
            } else {
                let entering = entered(ctx, &zone, &to, spell, now);
                (entering.clone(), entering)
            };
            let effect = effects::updated(&to, None, None, &entering, now);
            moved.push(Change::TimedEffectStarted { effect });
            caught
        }
    };
    let spend = if again.bonus_action {
        Spend::BonusAction
    } else {
        Spend::Action
    };
    let takes = if again.bonus_action {
        "a bonus action"
    } else {
        "an action"
    };
    super::encounter::act(ctx, &caster.id, spend)
        .map_err(|e| ToolError::new(format!("using {} again takes {takes}: {e}", spell.name)))?;
    resolve_caught(ctx, &caster, spell, slot, moved, &caught)
}

/// The creatures a new bolt strikes (Call Lightning): the spell's area at the aim, within its
/// range of the caster; where no positions are kept, the creatures named.
fn struck(
    ctx: &ToolContext<'_>,
    caster: &Character,
    spell: &Spell,
    aimed: Option<&str>,
    names: &[String],
) -> Result<Vec<String>, ToolError> {
    match area_cover(ctx.state, &caster.id, spell, aimed) {
        Ok(Some(area)) => Ok(area.covered.into_iter().map(|(id, _)| id).collect()),
        Ok(None) => ids(ctx, names),
        Err(e) => Err(ToolError::new(e.to_string())),
    }
}

/// The creature a sphere rams: the one it is aimed at, if the aim is a creature.
fn rammed(ctx: &ToolContext<'_>, aimed: Option<&str>) -> Vec<String> {
    aimed
        .and_then(|a| creature::find(ctx.state, ctx.srd, a).ok())
        .map(|c| vec![c.target.id().to_owned()])
        .unwrap_or_default()
}

/// Who a zone moved from `from` to `to` newly catches, when entering it catches (Moonbeam):
/// each only the first time on the turn `now`.
fn entered(
    ctx: &ToolContext<'_>,
    from: &TimedEffect,
    to: &TimedEffect,
    spell: &Spell,
    now: Option<(u32, usize)>,
) -> Vec<String> {
    if !effects::zone_rules(&spell.effects).is_some_and(|r| r.entering) {
        return Vec::new();
    }
    let Some(encounter) = &ctx.state.encounter else {
        return Vec::new();
    };
    encounter
        .order
        .iter()
        .map(|s| s.id.clone())
        .filter(|id| {
            effects::catches(ctx.state, to, spell, id, None)
                && !effects::catches(ctx.state, from, spell, id, None)
                && effects::first_this_turn(from, id, now)
        })
        .collect()
}

fn ids(ctx: &ToolContext<'_>, names: &[String]) -> Result<Vec<String>, ToolError> {
    names
        .iter()
        .map(|n| {
            Ok(creature::find(ctx.state, ctx.srd, n)?
                .target
                .id()
                .to_owned())
        })
        .collect()
}

/// Resolves what `spell`'s zone does on the creatures `caught` (ids; the fallen and the
/// unseen left out), cast by `caster` at `slot`, with `changes` first (the zone moved), and
/// commits it all through the casting's path.
pub(super) fn resolve_caught(
    ctx: &mut ToolContext<'_>,
    caster: &Character,
    spell: &Spell,
    slot: u8,
    changes: Vec<Change>,
    caught: &[String],
) -> Result<SpellCast, ToolError> {
    let prepared = Prepared::again(caster, spell, slot, changes)?;
    let from = position_of(ctx.state, &caster.id);
    let mut targets = Vec::new();
    let mut placed = Vec::new();
    for id in caught {
        let Ok(found) = creature::find(ctx.state, ctx.srd, id) else {
            continue;
        };
        if !found.standing {
            continue;
        }
        let distance = match (from, position_of(ctx.state, id)) {
            (Some(a), Some(b)) => a.distance(b),
            _ => 5,
        };
        targets.push(found);
        placed.push(SpellTarget {
            distance_ft: distance,
            attack: None,
            cover: None,
        });
    }
    let caught_effects = effects::caught_effects(&spell.effects);
    resolve_and_commit(ctx, prepared, &caught_effects, &targets, placed)
}
