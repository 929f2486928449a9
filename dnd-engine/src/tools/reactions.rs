//! The reaction window while monsters act. A monster's turn runs inside one tool call, so a
//! player cannot interject mid-call: a character declares ahead what it will cast as its
//! reaction (`declare_reactions`, kept as `Character::reactions`), and the engine casts it
//! during a monster's attack or spell, only when it is legal then (the spell known, a slot of
//! its level or above, the reaction unspent through the turn gate, able to act, in range):
//!
//! - **Shield**, when a monster's attack hits: the hit is re-checked against AC + 5, and
//!   Shield is cast only if that turns it into a miss (the caster decides after seeing the
//!   hit; a natural 20 still hits). The +5 lasts until the start of the caster's next turn
//!   (the spell's own effect, resolved by the effects engine). Also when a monster's Magic
//!   Missile targets the character: its darts deal it no damage.
//! - **Counterspell**, when a monster within its range (60 ft) casts a spell: the lowest slot
//!   that stops it outright (3rd, or the spell's level if higher), else the lowest slot and the
//!   spellcasting ability check against DC 10 + the spell's level (`effects::counter`).
//!
//! The slot and the reaction are spent through `Change`s in one commit with the spell's
//! effects; the result is a [`ReactionCast`] in the turn's events.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::{ReactionCast, ReactionsDeclared};
use super::{ToolContext, ToolError, creature};
use crate::combat::targeting::SpellTarget;
use crate::effects::{self, ArmorChange, Caster, Casting, Effect};
use crate::rules::{AttackResult, CastingTime, Spend};
use crate::srd::{Spell, SpellRange, Srd, slugify};
use crate::state::{Change, Character, GameState, ReactionTrigger, StandingReaction};

/// Arguments of `declare_reactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclareReactionsArgs {
    /// The character: id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// What it will cast as its reaction during monsters' turns, replacing any earlier
    /// declaration (empty: none): Shield with when "hit", Counterspell with when "spell_cast",
    /// Hellish Rebuke with when "damaged".
    /// The engine casts one only when it is legal then, and Shield only when it turns the hit.
    #[schemars(description = "Replaces the earlier list.")]
    pub reactions: Vec<StandingReaction>,
}

/// The trigger the engine casts `spell` on, from its data: a reaction that counters a spell
/// (Counterspell) on a spell being cast; a reaction that raises AC (Shield) on a hit; one
/// that deals damage (Hellish Rebuke) on being damaged. `None` for any other spell.
pub(crate) fn trigger_of(spell: &Spell) -> Option<ReactionTrigger> {
    if CastingTime::parse(&spell.casting_time) != Some(CastingTime::Reaction) {
        return None;
    }
    if effects::counters_up_to(&spell.effects, spell.level).is_some() {
        return Some(ReactionTrigger::SpellCast);
    }
    if shield_bonus(spell).is_some() {
        return Some(ReactionTrigger::Hit);
    }
    super::spell_granted::deals_damage(&spell.effects).then_some(ReactionTrigger::Damaged)
}

/// The AC bonus a reaction spell gives (Shield: 5).
pub(super) fn shield_bonus(spell: &Spell) -> Option<i32> {
    spell.effects.iter().find_map(|e| match e {
        Effect::ArmorClass {
            change: ArmorChange::Bonus(b),
            ..
        } => Some(*b),
        _ => None,
    })
}

fn knows(c: &Character, spell: &Spell) -> bool {
    c.spells.iter().any(|s| slugify(s) == spell.slug)
}

/// The lowest slot of `level` or above `c` has left.
fn lowest_slot(c: &Character, level: u8) -> Option<u8> {
    (level.max(1)..=9).find(|&l| c.spell_slots.available(l) > 0)
}

/// What `c` may declare: its known spells the engine casts as reactions, with their triggers.
fn allowed(srd: &Srd, c: &Character) -> String {
    let mut out: Vec<String> = c
        .spells
        .iter()
        .filter_map(|name| srd.spell(name).ok())
        .filter_map(|s| {
            let when = trigger_of(s)?;
            lowest_slot(c, s.level)?;
            Some(format!("{} when {}", s.name, when.name()))
        })
        .collect();
    out.extend(super::spell_granted::declarable_now(srd, c)); // Infernal Legacy's
    if out.is_empty() {
        out.push("nothing (no known reaction spell with a slot left)".to_owned());
    }
    out.join(", ")
}

pub(super) fn declare_reactions(
    args: DeclareReactionsArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ReactionsDeclared, ToolError> {
    let c = ctx
        .state
        .character(&args.character)
        .ok_or_else(|| {
            ToolError::new(format!(
                "{:?} is not a character; only characters declare reactions",
                args.character
            ))
        })?
        .clone();
    let mut declared: Vec<StandingReaction> = Vec::new();
    for r in &args.reactions {
        let refuse = |why: String| {
            ToolError::new(format!(
                "{why}; {} may declare: {}",
                c.name,
                allowed(ctx.srd, &c)
            ))
        };
        let spell = ctx.srd.spell(&r.spell).map_err(|e| refuse(e.to_string()))?;
        // Infernal Legacy's Hellish Rebuke: a daily casting with no slot.
        let granted = super::spell_granted::declarable(ctx.srd, &c, spell);
        if !knows(&c, spell) && !granted {
            return Err(refuse(format!("{} does not know {}", c.name, spell.name)));
        }
        let Some(when) = trigger_of(spell) else {
            return Err(refuse(format!(
                "{} is not a reaction the engine casts during monsters' turns (it casts Shield when hit, Counterspell when a spell is cast, Hellish Rebuke when damaged)",
                spell.name
            )));
        };
        if when != r.when {
            return Err(refuse(format!(
                "{} is cast when {}, not when {}",
                spell.name,
                when.name(),
                r.when.name()
            )));
        }
        if lowest_slot(&c, spell.level).is_none() && !granted {
            return Err(refuse(format!(
                "{} has no slot of level {} or higher left for {} (left: {})",
                c.name,
                spell.level,
                spell.name,
                c.spell_slots.describe_available()
            )));
        }
        if declared.iter().any(|d| d.when == when) {
            return Err(refuse(format!(
                "one reaction per trigger: {} is already declared for {}",
                declared
                    .iter()
                    .find(|d| d.when == when)
                    .map_or("", |d| d.spell.as_str()),
                when.name()
            )));
        }
        declared.push(StandingReaction {
            spell: spell.name.clone(),
            when,
        });
    }
    ctx.commit(vec![Change::ReactionsDeclared {
        character: c.id.clone(),
        reactions: declared.clone(),
    }])?;
    Ok(ReactionsDeclared {
        character: c.name.clone(),
        reactions: declared,
        slots_left: c.spell_slots.describe_available(),
    })
}

/// A standing reaction of character `id` for `when` that is legal now: the character, its
/// spell, the lowest slot it could use, and the change that spends its reaction (if in a
/// fight).
fn ready<'s>(
    state: &GameState,
    srd: &'s Srd,
    id: &str,
    when: ReactionTrigger,
) -> Option<(Character, &'s Spell, u8, Option<Change>)> {
    let c = state.character(id)?;
    if !c.can_act() {
        return None;
    }
    let declared = c.reactions.iter().find(|r| r.when == when)?;
    let spell = srd.spell_named(&declared.spell)?;
    if !knows(c, spell) || trigger_of(spell) != Some(when) {
        return None;
    }
    let slot = lowest_slot(c, spell.level)?;
    let spend = crate::combat::may_act(state, &c.id, Spend::Reaction).ok()?;
    Some((c.clone(), spell, slot, spend))
}

/// The caster of a reaction spell, for the effects engine.
pub(super) fn caster_of(c: &Character) -> Caster {
    let (attack_bonus, save_dc) = c.spellcasting().unwrap_or((0, 10));
    Caster {
        id: c.id.clone(),
        name: c.name.clone(),
        attack_bonus,
        save_dc,
        modifier: c
            .spellcasting_ability
            .map_or(0, |a| c.abilities.modifier(a)),
        level: c.level,
    }
}

/// Casts Shield for `c` with `slot`: the slot, the reaction and the spell's +5 AC until its
/// next turn, resolved by the effects engine on the caster and committed at once.
fn cast_shield(
    ctx: &mut ToolContext<'_>,
    c: &Character,
    spell: &Spell,
    slot: u8,
    spend: Option<Change>,
) -> Result<(), ToolError> {
    let mut spent: Vec<Change> = spend.into_iter().collect();
    spent.push(Change::SlotSpent {
        character: c.id.clone(),
        level: slot,
    });
    cast_on_self(ctx, &caster_of(c), spell, slot, spent)
}

/// A reaction spell on its own caster (Shield, a hero's or a monster's): resolved by the
/// effects engine and committed at once with `spent` (the reaction, the slot).
pub(super) fn cast_on_self(
    ctx: &mut ToolContext<'_>,
    caster: &Caster,
    spell: &Spell,
    slot: u8,
    spent: Vec<Change>,
) -> Result<(), ToolError> {
    let me = creature::find(ctx.state, ctx.srd, &caster.id)?;
    let resolution = resolve_on(ctx, caster, spell, slot, &me, 0)?;
    let mut changes = spent;
    changes.extend(resolution.changes);
    ctx.commit(changes)?;
    ctx.log.rolls.extend(resolution.rolls);
    Ok(())
}

/// A reaction spell of `caster` cast with `slot` on the one creature `on`, `distance_ft` away,
/// resolved by the effects engine; nothing committed.
pub(super) fn resolve_on(
    ctx: &mut ToolContext<'_>,
    caster: &Caster,
    spell: &Spell,
    slot: u8,
    on: &creature::CreatureInfo<'_>,
    distance_ft: u32,
) -> Result<effects::Resolution, ToolError> {
    let subject = on.subject(SpellTarget {
        distance_ft,
        attack: None,
        cover: None,
    });
    let casting = Casting {
        caster,
        source: &spell.name,
        level: spell.level,
        slot,
        concentration: spell.concentration,
    };
    effects::resolve(ctx.state, casting, &[subject], &spell.effects, ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))
}

fn slots_left(state: &GameState, id: &str) -> String {
    state
        .character(id)
        .map(|c| c.spell_slots.describe_available())
        .unwrap_or_default()
}

/// A monster's attack by `attacker` (its name) hit character `victim`: Shield, when declared,
/// legal and enough to turn the hit (not a natural 20), is cast and `result` becomes a miss.
pub(super) fn shield_against_hit(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    victim: &str,
    result: &mut AttackResult,
) -> Result<Option<ReactionCast>, ToolError> {
    if !result.hit || result.d20.natural == 20 {
        return Ok(None);
    }
    let Some((c, spell, slot, spend)) = ready(ctx.state, ctx.srd, victim, ReactionTrigger::Hit)
    else {
        return Ok(None);
    };
    let bonus = shield_bonus(spell).unwrap_or(0);
    let shielded = result.target_ac + bonus;
    if result.total >= shielded {
        return Ok(None); // Shield would not turn it: the slot is kept
    }
    cast_shield(ctx, &c, spell, slot, spend)?;
    result.target_ac = shielded;
    result.hit = false;
    result.critical = false;
    result.damage.clear();
    result.total_damage = 0;
    Ok(Some(ReactionCast {
        by: c.name.clone(),
        reaction: spell.name.clone(),
        slot_level: Some(slot),
        outcome: format!(
            "{}'s {} now misses AC {shielded}: no damage; +{bonus} AC until {}'s next turn",
            attacker, result.total, c.name
        ),
        succeeded: true,
        check: None,
        slots_left: Some(slots_left(ctx.state, &c.id)),
    }))
}

/// A monster's Magic Missile targets these characters (ids): each with Shield declared and
/// legal casts it, and the darts deal it no damage. The ids shielded, with the reports.
pub(super) fn shield_against_darts(
    ctx: &mut ToolContext<'_>,
    targets: &[String],
) -> Result<(Vec<String>, Vec<ReactionCast>), ToolError> {
    let (mut ids, mut reports) = (Vec::new(), Vec::new());
    for id in targets {
        if ids.contains(id) {
            continue;
        }
        let Some((c, spell, slot, spend)) = ready(ctx.state, ctx.srd, id, ReactionTrigger::Hit)
        else {
            continue;
        };
        cast_shield(ctx, &c, spell, slot, spend)?;
        ids.push(c.id.clone());
        reports.push(ReactionCast {
            by: c.name.clone(),
            reaction: spell.name.clone(),
            slot_level: Some(slot),
            outcome: "magic missile deals no damage to it".to_owned(),
            succeeded: true,
            check: None,
            slots_left: Some(slots_left(ctx.state, &c.id)),
        });
    }
    Ok((ids, reports))
}

/// Monster `monster` (id; `name` as shown) casts `cast` at `level` (its slot, or the spell's
/// level for one cast without a slot): each character with Counterspell declared, legal and
/// within its range tries in turn until one stops it. What they did, and whether the spell
/// fails.
pub(super) fn counter_spell(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    name: &str,
    cast: &Spell,
    level: u8,
) -> Result<(Vec<ReactionCast>, bool), ToolError> {
    let ids: Vec<String> = ctx.state.characters.iter().map(|c| c.id.clone()).collect();
    let mut reports = Vec::new();
    for id in ids {
        let Some((c, spell, lowest, spend)) =
            ready(ctx.state, ctx.srd, &id, ReactionTrigger::SpellCast)
        else {
            continue;
        };
        let range = match spell.range {
            SpellRange::Feet(feet) => feet,
            _ => 0,
        };
        if crate::combat::positions::distance(ctx.state, &c.id, monster) > range {
            continue;
        }
        // The lowest slot that stops it outright, else the lowest and the check.
        let up_to = effects::counters_up_to(&spell.effects, lowest).unwrap_or(0);
        let slot = if level <= up_to {
            lowest
        } else {
            (level..=9)
                .find(|&l| c.spell_slots.available(l) > 0)
                .unwrap_or(lowest)
        };
        let modifier = caster_of(&c).modifier;
        let Some(done) = effects::counter(&spell.effects, slot, level, modifier, ctx.rng) else {
            continue;
        };
        if let Some((dc, check)) = &done.check {
            ctx.record_roll(
                format!("{} counters {name}'s {} (DC {dc})", c.name, cast.name),
                i64::from(check.total),
                Some(crate::state::Target::Character(c.id.clone())),
                crate::store::RollDetail::Check(check.clone()),
            );
        }
        let mut changes: Vec<Change> = spend.into_iter().collect();
        changes.push(Change::SlotSpent {
            character: c.id.clone(),
            level: slot,
        });
        ctx.commit(changes)?;
        let outcome = if done.stopped {
            format!(
                "{name}'s {} (level {level}) fails and has no effect",
                cast.name
            )
        } else {
            format!(
                "the check fails: {name}'s {} (level {level}) goes on",
                cast.name
            )
        };
        reports.push(ReactionCast {
            by: c.name.clone(),
            reaction: spell.name.clone(),
            slot_level: Some(slot),
            outcome,
            succeeded: done.stopped,
            check: done.check.map(|(_, r)| r),
            slots_left: Some(slots_left(ctx.state, &c.id)),
        });
        if done.stopped {
            return Ok((reports, true));
        }
    }
    Ok((reports, false))
}
