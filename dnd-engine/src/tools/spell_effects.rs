//! `cast_spell` for a spell whose data lists effects (`srd::Spell::effects`): the targets are
//! chosen and placed as for any spell (count, range and cover), the effects engine
//! (`effects::resolve`) rolls and builds the changes, and this commits them all at once with
//! the slot, then makes the saves damage calls for. The rules live in `effects`; this file
//! only turns the state into the engine's subjects and its outcomes into the tool's result.

use super::results::{RollReasons, SpellCast};
use super::{ToolContext, ToolError};
use crate::combat::targeting::SpellTarget;
use crate::effects::{self, Caster, Casting, Outcome, Subject};
use crate::srd::{Spell, SpellReach};
use crate::state::{Change, Character};

/// What `cast_spell` settled before the effects: the caster, the slot and its change.
pub(super) struct Prepared<'a> {
    pub caster: &'a Character,
    pub spell: &'a Spell,
    pub slot: Option<u8>,
    /// The slot spent, if any.
    pub changes: Vec<Change>,
    pub attack_bonus: i32,
    pub save_dc: i32,
    pub modifier: i32,
    /// A zone the casting leaves (`effects::start_zone`): its rules, centre and the creatures
    /// it is fixed on, started after the concentration it needs.
    pub zone: Option<(
        effects::ZoneRules,
        Option<crate::state::Position>,
        Vec<String>,
    )>,
    /// A spell in play used again (`Prepared::again`), not a new casting: its concentration
    /// stays as it is.
    pub again: bool,
    /// The creatures (ids) the caster's Sculpt Spells spares (`tools::feature_wizard`).
    pub sculpted: Vec<String>,
    /// Twinned Spell: a spell of one creature names a second (`tools::feature_sorcerer`).
    pub twinned: bool,
    /// The creatures (ids) the caster's Careful Spell protects: they succeed on its save.
    pub careful: Vec<String>,
    /// Empowered Spell: how many damage dice may be rolled again (0 without it).
    pub rerolls: u8,
}

impl<'a> Prepared<'a> {
    /// `caster`'s `spell` used again at the `slot` it was cast with (a spectral weapon's next
    /// attack, a lasting area's next catch): its spellcasting numbers, no slot spent, `changes`
    /// committed first.
    pub(super) fn again(
        caster: &'a Character,
        spell: &'a Spell,
        slot: u8,
        changes: Vec<Change>,
    ) -> Result<Prepared<'a>, ToolError> {
        let (attack_bonus, save_dc) = caster.spellcasting().ok_or_else(|| {
            ToolError::new(format!("{} has no spellcasting ability", caster.name))
        })?;
        let modifier = caster
            .spellcasting_ability
            .map_or(0, |a| caster.abilities.modifier(a));
        Ok(Prepared {
            caster,
            spell,
            slot: Some(slot),
            changes,
            attack_bonus,
            save_dc,
            modifier,
            zone: None,
            again: true,
            sculpted: Vec::new(),
            twinned: false,
            careful: Vec::new(),
            rerolls: 0,
        })
    }
}

/// Casts `p.spell` on the creatures `names` (or, for an area where the fight keeps
/// positions, those it covers from `aim`) through the effects engine, with the option
/// `choice` names where the spell has a choice (`effects::choose`), and the `point` a
/// teleport goes to (`effects::teleport`).
pub(super) fn cast(
    ctx: &mut ToolContext<'_>,
    p: Prepared<'_>,
    aim: Option<&str>,
    choice: Option<&str>,
    point: Option<crate::state::Position>,
    names: &[String],
) -> Result<SpellCast, ToolError> {
    let (caster, spell) = (p.caster, p.spell);
    // A summoning reads its choice itself (`spell_summons`).
    if let Some(summon) = spell.effects.iter().find_map(|e| match e {
        effects::Effect::Summon(s) => Some(s),
        _ => None,
    }) {
        return super::spell_summons::cast(ctx, p, summon, choice, names);
    }
    // The caster's choice (Protection from Energy's type) first: a wrong one costs nothing.
    let effects = effects::choose(&spell.name, &spell.effects, choice)
        .map_err(|e| ToolError::new(e.to_string()))?;
    // An area that lasts (Moonbeam) is placed and kept by its own path.
    if let Some(rules) = effects::zone_rules(&effects).cloned() {
        return super::spell_zones::cast(ctx, p, rules, &effects, aim, names);
    }
    let level = p.slot.unwrap_or(spell.level);
    let mut limit = spell.target_limit(level, caster.level);
    if p.twinned {
        limit.max = limit.max.map(|n| n + 1); // Twinned Spell's second creature
    }
    // A spell on the caster alone (Shield) needs no name.
    let self_only = spell.reach() == SpellReach::CasterOnly;
    let names: Vec<String> = if names.is_empty() && self_only {
        vec![caster.id.clone()]
    } else {
        names.to_vec()
    };
    // A spell that acts on a place (a teleport's point, an exit, a glyph's area) takes `aim`
    // for it; the creatures it names are checked first, then the place, before anything is
    // rolled.
    let places = super::spell_places::takes_aim(&effects);
    let area_aim = if places { None } else { aim };
    let mut chosen = super::spell_areas::targets(ctx, &caster.id, spell, limit, area_aim, &names)?;
    super::feature_sorcerer::careful_among(ctx.state, spell, &p.careful, &chosen)?;
    // Blink: a creature on the Ethereal Plane is out of reach: refused when named, passed over
    // when an area covers it.
    if let Some(why) = chosen
        .iter()
        .find_map(|(t, _)| effects::apart(ctx.state, &caster.id, t.target.id()))
    {
        if spell.area.is_none() {
            return Err(ToolError::new(why));
        }
        chosen.retain(|(t, _)| !effects::ethereal(ctx.state, t.target.id()));
    }
    // Sanctuary: a harmful spell named at a warded creature needs the caster's Wisdom save,
    // else it is lost on that creature (areas are not warded against).
    let named = chosen.len();
    let (wasted, mut p) = sanctuary(ctx, p, &effects, &mut chosen)?;
    if named > 0 && chosen.is_empty() {
        return wasted_cast(ctx, p, wasted);
    }
    let mut moved = Vec::new();
    for (change, outcome) in super::spell_places::settle(ctx, &p, &effects, aim, point)? {
        p.changes.push(change);
        moved.push(outcome);
    }
    // Rays and beams (Scorching Ray, Eldritch Blast): each strikes the next creature named,
    // round the list again when fewer were named than the spell has (three rays at one
    // harpy). Darts count themselves (`Effect::Darts`).
    let darts = spell
        .effects
        .iter()
        .any(|e| matches!(e, effects::Effect::Darts { .. }));
    if let (true, Some(n), false) = (limit.repeat, limit.max, darts)
        && !chosen.is_empty()
    {
        chosen = (0..n as usize)
            .map(|i| chosen[i % chosen.len()].clone())
            .collect();
    }
    let (targets, placed): (Vec<_>, Vec<SpellTarget>) = chosen.into_iter().unzip();
    let mut cast = unless_countered(ctx, p, &effects, &targets, placed)?;
    if cast.reactions.iter().any(|r| r.succeeded) {
        return Ok(cast); // countered: the place is left as it was
    }
    let (lasting, at_once): (Vec<Outcome>, Vec<Outcome>) = moved
        .into_iter()
        .partition(|o| matches!(o, Outcome::Started { .. }));
    cast.effects.splice(0..0, at_once);
    cast.effects.splice(0..0, wasted);
    cast.lasting.extend(lasting);
    Ok(cast)
}

/// Sanctuary around a casting: the caster's Wisdom save against each warded creature a
/// harmful spell without an area names (one lost is taken out of `chosen`, and said in the
/// outcomes returned), and the caster's own Sanctuary ended in `p.changes` when the spell names
/// a creature of the other side.
fn sanctuary<'p>(
    ctx: &mut ToolContext<'_>,
    mut p: Prepared<'p>,
    effects: &[effects::Effect],
    chosen: &mut Vec<(super::creature::CreatureInfo<'_>, SpellTarget)>,
) -> Result<(Vec<Outcome>, Prepared<'p>), ToolError> {
    let mut wasted = Vec::new();
    let me = super::creature::find(ctx.state, ctx.srd, &p.caster.id)?;
    let warded = effects::harmful(effects) && p.spell.area.is_none();
    let mut kept = Vec::with_capacity(chosen.len());
    for (t, at) in chosen.drain(..) {
        if !warded {
            kept.push((t, at));
            continue;
        }
        match super::wards::sanctuary_save(ctx, &me, &t)? {
            Some(w) if w.lost => wasted.push(Outcome::Unaffected {
                target: t.name.clone(),
                why: format!(
                    "{}: {} failed the Wisdom save ({} against DC {}), and the spell is lost on it",
                    w.spell, w.by, w.save.total, w.save.dc
                ),
            }),
            _ => kept.push((t, at)),
        }
    }
    *chosen = kept;
    if chosen.iter().any(|(t, _)| !t.is_character()) {
        p.changes
            .extend(effects::sanctuary_ends(ctx.state, &p.caster.id));
    }
    Ok((wasted, p))
}

/// The caster as the effects engine takes it.
pub(super) fn caster_of(p: &Prepared<'_>) -> Caster {
    Caster {
        id: p.caster.id.clone(),
        name: p.caster.name.clone(),
        attack_bonus: p.attack_bonus,
        save_dc: p.save_dc,
        modifier: p.modifier,
        level: p.caster.level,
    }
}

/// A casting found legal (its targets chosen and placed): a monster with Counterspell may
/// answer it now (`tools::monster_reactions`); unless that stops it, [`resolve_and_commit`].
pub(super) fn unless_countered(
    ctx: &mut ToolContext<'_>,
    p: Prepared<'_>,
    effects: &[crate::effects::Effect],
    targets: &[super::creature::CreatureInfo<'_>],
    placed: Vec<SpellTarget>,
) -> Result<SpellCast, ToolError> {
    let level = p.slot.unwrap_or(p.spell.level);
    let (reactions, stopped) =
        super::monster_reactions::counter_hero_spell(ctx, &p.caster.id, p.spell, level)?;
    if stopped {
        return countered(ctx, p, reactions);
    }
    let mut cast = resolve_and_commit(ctx, p, effects, targets, placed)?;
    cast.reactions = reactions;
    Ok(cast)
}

/// A casting a monster's Counterspell stopped: the slot is spent all the same (as are the
/// action and the time, spent before), and nothing else happens: no effect, no
/// concentration, a costly component kept.
fn countered(
    ctx: &mut ToolContext<'_>,
    p: Prepared<'_>,
    reactions: Vec<super::results::ReactionCast>,
) -> Result<SpellCast, ToolError> {
    let slot: Vec<Change> = p
        .changes
        .iter()
        .filter(|c| matches!(c, Change::SlotSpent { .. }))
        .cloned()
        .collect();
    Ok(SpellCast {
        narrator: Some(format!("{} was countered: it has no effect", p.spell.name)),
        reactions,
        ..nothing_resolved(ctx, &p, slot)?
    })
}

/// A casting that resolves nothing (countered, or lost on every creature it named): `spent`
/// committed (the slot; the action and the time were spent before), and the result's header.
fn nothing_resolved(
    ctx: &mut ToolContext<'_>,
    p: &Prepared<'_>,
    spent: Vec<Change>,
) -> Result<SpellCast, ToolError> {
    ctx.commit(spent)?;
    Ok(SpellCast {
        caster: p.caster.name.clone(),
        spell: p.spell.name.clone(),
        slot_level: p.slot,
        spell_attack_bonus: p.attack_bonus,
        save_dc: p.save_dc,
        slots_left: ctx
            .state
            .character(&p.caster.id)
            .map(|c| c.spell_slots.describe_available()),
        ..SpellCast::default()
    })
}

/// Resolves `effects` of `p.spell` on `targets` (placed from the caster as `placed`), commits
/// `p.changes` and the resolution at once, runs the saves damage calls for, and reports.
/// Shared by a casting and a spell's repeated attack (`spell_weapon`).
pub(super) fn resolve_and_commit(
    ctx: &mut ToolContext<'_>,
    p: Prepared<'_>,
    effects: &[crate::effects::Effect],
    targets: &[super::creature::CreatureInfo<'_>],
    placed: Vec<SpellTarget>,
) -> Result<SpellCast, ToolError> {
    let (caster, spell) = (p.caster, p.spell);
    let level = p.slot.unwrap_or(spell.level);
    let subjects: Vec<Subject> = targets
        .iter()
        .zip(&placed)
        .map(|(t, at)| Subject {
            spared: p.sculpted.iter().any(|id| id == t.target.id()),
            careful: p.careful.iter().any(|id| id == t.target.id()),
            ..t.subject(at.clone())
        })
        .collect();
    // A new casting of the spell its caster concentrates on ends the one in play first (a
    // second Enlarge/Reduce moves the spell); a use again keeps it.
    let recast = !p.again
        && spell.concentration
        && caster
            .concentration
            .as_deref()
            .is_some_and(|on| on.eq_ignore_ascii_case(&spell.name));
    if recast {
        ctx.commit(vec![Change::Concentration {
            character: caster.id.clone(),
            spell: None,
        }])?;
    }
    let who = caster_of(&p);
    let casting = Casting {
        caster: &who,
        source: &spell.name,
        level: spell.level,
        slot: level,
        concentration: spell.concentration,
    };
    let resolution =
        effects::resolve_empowered(ctx.state, casting, &subjects, effects, p.rerolls, ctx.rng)
            .map_err(|e| ToolError::new(e.to_string()))?;
    let mut changes = p.changes;
    changes.extend(resolution.changes);
    let mut zone = None;
    if let Some((rules, at, on)) = &p.zone {
        let change = effects::start_zone(casting, rules, *at, on.clone());
        if let Change::TimedEffectStarted { effect } = &change {
            let target = caster.name.clone();
            let effect = effect.clone();
            zone = Some(Outcome::Started { target, effect });
        }
        changes.push(change);
    }
    // A zone used again keeps its concentration: nothing is dropped.
    let dropped = spell
        .concentration
        .then(|| caster.concentration.clone())
        .flatten()
        .filter(|on| !(p.again && on.eq_ignore_ascii_case(&spell.name)));
    // Whoever the spell hurt makes the saves damage calls for, once for all it took.
    let after = super::damage::commit_with_follow_ups(ctx, &caster.id, changes, resolution.rolls)?;
    let (mut hold_saves, mut concentration_saves) = (Vec::new(), Vec::new());
    for (_, after) in after {
        hold_saves.extend(after.hold_saves);
        concentration_saves.extend(after.concentration);
    }
    // What happened at once, then what lasts.
    let (effects, mut lasting): (Vec<Outcome>, Vec<Outcome>) =
        resolution.outcomes.into_iter().partition(|o| {
            matches!(
                o,
                Outcome::Attack { .. }
                    | Outcome::Save { .. }
                    | Outcome::Damage { .. }
                    | Outcome::Healed { .. }
                    | Outcome::Pushed { .. }
                    | Outcome::Moved { .. }
                    | Outcome::ExitLocked { .. }
            )
        });
    lasting.extend(zone);
    let kept = crate::combat::positions::position_of(ctx.state, &caster.id).is_some();
    let mut reasons: Vec<RollReasons> = Vec::new();
    for why in resolution.reasons {
        let (Some(s), Some(at)) = (subjects.get(why.subject), placed.get(why.subject)) else {
            continue;
        };
        super::spells::push_reasons(&mut reasons, &s.name, at, kept, why.sources, why.modifiers);
    }
    Ok(SpellCast {
        caster: caster.name.clone(),
        spell: spell.name.clone(),
        slot_level: p.slot,
        spell_attack_bonus: p.attack_bonus,
        save_dc: p.save_dc,
        effects,
        concentrating: spell.concentration,
        concentration_dropped: dropped,
        slots_left: ctx
            .state
            .character(&caster.id)
            .map(|c| c.spell_slots.describe_available()),
        hold_saves,
        concentration_saves,
        reasons,
        lasting,
        narrator: spell.narrative.clone().or_else(|| spell.unmodelled.clone()),
        reactions: Vec::new(),
    })
}

/// A casting lost on every creature it named (Sanctuary): the slot and the action spent, nothing
/// else (no concentration on a spell that holds no one), and why in the outcomes.
fn wasted_cast(
    ctx: &mut ToolContext<'_>,
    mut p: Prepared<'_>,
    wasted: Vec<Outcome>,
) -> Result<SpellCast, ToolError> {
    let spent = std::mem::take(&mut p.changes);
    Ok(SpellCast {
        effects: wasted,
        ..nothing_resolved(ctx, &p, spent)?
    })
}
