//! The spells a feature or trait grants (`character::granted_spells`) through the tools:
//! `cast_spell` asks [`casting`] whether a casting is a granted one (found by itself: the
//! spell is not on the caster's sheet, or the free daily casting is there to take), and the
//! damage's follow-ups (`tools::damage::after_damage`: an attack, a monster's spell or
//! action) ask [`rebuke`] whether a character hurt by a hostile monster answers with the
//! Hellish Rebuke it declared as its reaction (`declare_reactions`, when "damaged"): from
//! Infernal Legacy's daily casting as a 2nd-level spell with no slot, else from its own spells
//! with its lowest slot.

use super::results::ReactionCast;
use super::{ToolContext, ToolError, creature};
use crate::character::granted_spells::{self as granted, Granted};
use crate::effects::Effect;
use crate::rules::{Condition, Spend};
use crate::srd::{GrantedCasting, Spell, SpellRange, Srd, slugify};
use crate::state::{Change, Character, ReactionTrigger};

/// A granted casting: the caster as it casts the spell (with the grant's ability), the slot
/// level the spell resolves at (`None` for a cantrip), what it spends, and a sentence for the
/// narrator.
pub(super) struct GrantedCast {
    /// The caster, with the grant's spellcasting ability.
    pub(super) caster: Character,
    /// The level the spell is cast at.
    pub(super) slot: Option<u8>,
    /// Its daily use and the warlock slot it takes.
    pub(super) changes: Vec<Change>,
    /// How it was cast, for the result.
    pub(super) note: String,
}

/// Whether `c` casts `spell` now through a grant, and how; `None` for a casting of its own
/// (`known`: the spell is on its sheet or otherwise its own) or a ritual. Refused: a grant of
/// a higher level than `c`'s for a spell it does not know, the daily casting spent, a slot
/// level the grant does not allow, no warlock slot left.
pub(super) fn casting(
    ctx: &ToolContext<'_>,
    c: &Character,
    spell: &Spell,
    slot_level: Option<u8>,
    known: bool,
    ritual: bool,
) -> Result<Option<GrantedCast>, ToolError> {
    if ritual {
        return Ok(None);
    }
    let g = match granted::grant_of(ctx.srd, c, &spell.slug) {
        Ok(Some(g)) => g,
        Ok(None) => return Ok(None),
        Err(_) if known => return Ok(None),
        Err(why) => return Err(ToolError::new(why)),
    };
    let left = granted::uses_left(c, &g);
    // A spell of its own with a slot named, or with the daily casting spent, is cast as usual.
    if known && (g.spell.cast == GrantedCasting::AtWill || slot_level.is_some() || left == Some(0))
    {
        return Ok(None);
    }
    let spent = granted::spend(c, &g).map_err(ToolError::new)?;
    let mut changes: Vec<Change> = spent.into_iter().collect();
    let (slot, note) = match g.spell.cast {
        GrantedCasting::AtWill => (None, format!("cast at will with {}", g.by)),
        GrantedCasting::DailyAs(level) => {
            if slot_level.is_some_and(|s| s != level) {
                return Err(ToolError::new(format!(
                    "{} casts {} once a long rest as a level-{level} spell with no slot: leave slot_level null",
                    g.by, spell.name
                )));
            }
            (
                Some(level),
                format!(
                    "cast with {} as a level-{level} spell, no slot; once a long rest",
                    g.by
                ),
            )
        }
        GrantedCasting::DailyWithWarlockSlot => {
            let level = warlock_slot(c, spell, &g, slot_level)?;
            changes.push(Change::SlotSpent {
                character: c.id.clone(),
                level,
            });
            (
                Some(level),
                format!(
                    "cast with {} and a level-{level} warlock slot; once a long rest",
                    g.by
                ),
            )
        }
    };
    Ok(Some(GrantedCast {
        caster: granted::caster_for(c, &g),
        slot,
        changes,
        note,
    }))
}

/// The level of the warlock slot `c` casts `spell` with through `g`: its slots' level, which
/// `slot_level` may name; refused without one left or when the spell is above it.
fn warlock_slot(
    c: &Character,
    spell: &Spell,
    g: &Granted,
    slot_level: Option<u8>,
) -> Result<u8, ToolError> {
    let Some(level) = granted::warlock_slot_level(c) else {
        return Err(ToolError::new(format!(
            "{} casts {} with a warlock spell slot, and {} has none",
            g.by, spell.name, c.name
        )));
    };
    if slot_level.is_some_and(|s| s != level) || spell.level > level {
        return Err(ToolError::new(format!(
            "{} casts {} with a warlock spell slot, of level {level} for {}: leave slot_level null (or {level}){}",
            g.by,
            spell.name,
            c.name,
            if spell.level > level {
                format!("; {} is a level-{} spell", spell.name, spell.level)
            } else {
                String::new()
            }
        )));
    }
    if c.spell_slots.available(level) == 0 {
        return Err(ToolError::new(format!(
            "{} casts {} with a warlock spell slot, and {} has none left (left: {}); they come back after a short or long rest",
            g.by,
            spell.name,
            c.name,
            c.spell_slots.describe_available()
        )));
    }
    Ok(level)
}

/// Whether `c` may declare `spell` as a standing reaction through a grant with a casting left
/// (Infernal Legacy's Hellish Rebuke).
pub(super) fn declarable(srd: &Srd, c: &Character, spell: &Spell) -> bool {
    granted::grant_of(srd, c, &spell.slug)
        .ok()
        .flatten()
        .is_some_and(|g| granted::uses_left(c, &g) != Some(0))
}

/// Character `victim` (id) has just taken `taken` damage from `attacker` (id): the Hellish
/// Rebuke it declared for "damaged", cast by the engine when legal then (a hostile monster
/// standing within the spell's range and seen; the character able to act, its reaction
/// unspent, a daily casting or a slot left), at the attacker. `None` when it does not answer
/// (never at an ally: the engine does not choose to burn a friend).
pub(super) fn rebuke(
    ctx: &mut ToolContext<'_>,
    victim: &str,
    attacker: &str,
    taken: u32,
) -> Result<Option<ReactionCast>, ToolError> {
    let Some(c) = ctx.state.character(victim).cloned() else {
        return Ok(None);
    };
    if !ctx.state.monster(attacker).is_some_and(|m| m.hostile) {
        return Ok(None);
    }
    let declared = c
        .reactions
        .iter()
        .find(|r| r.when == ReactionTrigger::Damaged);
    let Some(spell) = declared.and_then(|r| ctx.srd.spell_named(&r.spell)) else {
        return Ok(None);
    };
    let Ok(foe) = creature::find(ctx.state, ctx.srd, attacker) else {
        return Ok(None);
    };
    let range = match spell.range {
        SpellRange::Feet(feet) => feet,
        _ => 0,
    };
    let distance = crate::combat::positions::distance(ctx.state, &c.id, attacker);
    let unseen = c.conditions.has(Condition::Blinded) || foe.conditions.has(Condition::Invisible);
    if taken == 0 || !c.can_act() || !foe.standing || distance > range || unseen {
        return Ok(None);
    }
    let Ok(spend) = crate::combat::may_act(ctx.state, &c.id, Spend::Reaction) else {
        return Ok(None);
    };
    // Infernal Legacy's free casting first, else the caster's own with its lowest slot.
    let grant = granted::grant_of(ctx.srd, &c, &spell.slug).ok().flatten();
    let mut changes: Vec<Change> = spend.into_iter().collect();
    let (caster, slot, slot_spent) = match grant.as_ref().map(|g| (g, granted::spend(&c, g))) {
        Some((g, Ok(Some(used)))) => {
            changes.push(used);
            let level = match g.spell.cast {
                GrantedCasting::DailyAs(level) => level,
                _ => spell.level,
            };
            (granted::caster_for(&c, g), level, None)
        }
        _ => {
            let knows = c.spells.iter().any(|s| slugify(s) == spell.slug);
            let lowest = (spell.level.max(1)..=9).find(|&l| c.spell_slots.available(l) > 0);
            let Some(level) = lowest.filter(|_| knows) else {
                return Ok(None);
            };
            changes.push(Change::SlotSpent {
                character: c.id.clone(),
                level,
            });
            (c.clone(), level, Some(level))
        }
    };
    let caster = super::reactions::caster_of(&caster);
    let resolution = super::reactions::resolve_on(ctx, &caster, spell, slot, &foe, distance)?;
    let dealt: u32 = resolution
        .changes
        .iter()
        .filter_map(|ch| match ch {
            Change::Damage { target, amount, .. } if target.id() == foe.target.id() => {
                Some(*amount)
            }
            _ => None,
        })
        .sum();
    changes.extend(resolution.changes);
    super::damage::commit_with_follow_ups(ctx, &c.id, changes, resolution.rolls)?;
    let how = match slot_spent {
        Some(level) => format!("a level-{level} slot"),
        None => format!("{} (no slot, as level {slot})", grant_name(grant.as_ref())),
    };
    Ok(Some(ReactionCast {
        by: c.name.clone(),
        reaction: spell.name.clone(),
        slot_level: slot_spent,
        outcome: format!(
            "hellish flames engulf {}: {dealt} damage (Dexterity save against DC {}), cast with {how}",
            foe.name, caster.save_dc
        ),
        succeeded: true,
        check: None,
        slots_left: Some(
            ctx.state
                .character(&c.id)
                .map(|c| c.spell_slots.describe_available())
                .unwrap_or_default(),
        ),
    }))
}

fn grant_name(g: Option<&Granted>) -> &str {
    g.map_or("its grant", |g| g.by.as_str())
}

/// The granted spells `c` may declare as standing reactions now, with their triggers
/// ("Hellish Rebuke when damaged").
pub(super) fn declarable_now(srd: &Srd, c: &Character) -> Vec<String> {
    granted::granted_spells(srd, c)
        .iter()
        .filter_map(|g| {
            let spell = srd.spell(&g.spell.spell).ok()?;
            let when = super::reactions::trigger_of(spell)?;
            declarable(srd, c, spell).then(|| format!("{} when {}", spell.name, when.name()))
        })
        .collect()
}

/// Whether `effects` deal damage, directly or on a failed save or a hit: a reaction spell that
/// does answers being damaged (Hellish Rebuke).
pub(super) fn deals_damage(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::Damage { .. } => true,
        Effect::Save { on_fail, .. } => deals_damage(on_fail),
        Effect::SpellAttack { on_hit, .. } => deals_damage(on_hit),
        _ => false,
    })
}
