//! Monsters' own reactions, played by code during a hero's turn (the mirror of
//! `tools::reactions`, where heroes declare theirs ahead):
//!
//! - **Parry** (`srd::ReactionRule::Parry`: a knight, a gladiator), when a hero's melee attack
//!   would hit it, it sees the attacker and wields a melee weapon: the hit is re-checked
//!   against its AC plus the bonus, and it parries only when that turns the hit (a natural 20
//!   still hits).
//! - **Shield** from its spell list (a mage), when a hero's attack hits it: cast with its
//!   lowest slot left only when +5 turns the hit; the +5 lasts until the start of its next
//!   turn, resolved by the effects engine like a hero's Shield.
//! - **Counterspell** from its spell list, when a hero within the spell's range (60 ft) casts a
//!   spell of 1st level or higher: with the lowest slot that stops it outright if it has one,
//!   else its lowest and the spellcasting ability check against DC 10 + the spell's level.
//!
//! Each needs a monster in the fight that may react now (`combat::may_act` with
//! `Spend::Reaction`: standing, not incapacitated, its one reaction a round unspent) and
//! fighting (not fled or surrendered); its reaction and slot are spent through `Change`s in
//! one commit with what the reaction does.

use super::results::ReactionCast;
use super::{ToolContext, ToolError};
use crate::combat::monster_spells::castable;
use crate::effects::{self, Caster};
use crate::rules::{AttackResult, Condition, Spend};
use crate::srd::{MonsterSpellcasting, ReactionRule, Spell, SpellRange, SpellSource};
use crate::state::{Change, MonsterInstance, ReactionTrigger};

/// The monster `id` if it may react now: in the fight, fighting, its reaction left. With the
/// change that spends the reaction (none outside a fight).
fn ready(ctx: &ToolContext<'_>, id: &str) -> Option<(MonsterInstance, Option<Change>)> {
    let m = ctx.state.monster(id)?;
    if !m.morale.is_fighting() || m.hp.current == 0 {
        return None;
    }
    let spend = crate::combat::may_act(ctx.state, id, Spend::Reaction).ok()?;
    Some((m.clone(), spend))
}

/// A reaction spell `m` may cast now for `when`, with the slot level it would use (its
/// lowest left of the spell's level or above).
fn reaction_spell<'s>(
    ctx: &ToolContext<'s>,
    m: &MonsterInstance,
    when: ReactionTrigger,
) -> Option<(&'s Spell, &'s MonsterSpellcasting, u8)> {
    let template = ctx.srd.monster(&m.template).ok()?;
    let spellcasting = template.spellcasting.as_ref()?;
    castable(ctx.srd, spellcasting, m)
        .into_iter()
        .find_map(|(spell, way)| match way {
            SpellSource::Slot(level) if super::reactions::trigger_of(spell) == Some(when) => {
                Some((spell, spellcasting, level))
            }
            _ => None,
        })
}

/// What `m`'s slots look like now, for the report ("level 1 slots: 3 of 4 left").
fn slots_left(m: &MonsterInstance, spellcasting: &MonsterSpellcasting) -> String {
    spellcasting
        .slots
        .iter()
        .map(|l| {
            let pool = MonsterSpellcasting::slot_pool(l.level);
            let spent = m.uses_spent.get(&pool).copied().unwrap_or(0);
            format!(
                "level {}: {} of {}",
                l.level,
                l.slots.saturating_sub(spent),
                l.slots
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The caster numbers of monster `m` for the effects engine.
fn caster_of(ctx: &ToolContext<'_>, m: &MonsterInstance, sc: &MonsterSpellcasting) -> Caster {
    let modifier = ctx
        .srd
        .monster(&m.template)
        .map_or(0, |t| t.abilities.modifier(sc.ability));
    Caster {
        id: m.id.clone(),
        name: m.name.clone(),
        attack_bonus: sc.attack_bonus,
        save_dc: sc.save_dc,
        modifier,
        level: sc.caster_level,
    }
}

/// A hero's attack (by `attacker`, a character id; `melee` or not) hit monster `victim`:
/// the monster parries or casts Shield when that turns the hit, and `result` becomes a miss.
pub(super) fn against_hit(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    victim: &str,
    melee: bool,
    result: &mut AttackResult,
) -> Result<Option<ReactionCast>, ToolError> {
    if !result.hit || result.d20.natural == 20 {
        return Ok(None);
    }
    let Some((m, spend)) = ready(ctx, victim) else {
        return Ok(None);
    };
    let attacker_name = ctx.state.name_of(attacker);
    if melee && let Some(bonus) = parry_bonus(ctx, &m, attacker) {
        let parried = result.target_ac + bonus;
        if result.total < parried {
            ctx.commit(spend.into_iter().collect())?;
            let outcome = format!(
                "{attacker_name}'s {} now misses AC {parried}: the {} parries, no damage",
                result.total, m.name
            );
            miss(result, parried);
            return Ok(Some(ReactionCast {
                by: m.name.clone(),
                reaction: "Parry".to_owned(),
                slot_level: None,
                outcome,
                succeeded: true,
                check: None,
                slots_left: None,
            }));
        }
    }
    let Some((spell, sc, slot)) = reaction_spell(ctx, &m, ReactionTrigger::Hit) else {
        return Ok(None);
    };
    let bonus = super::reactions::shield_bonus(spell).unwrap_or(0);
    let shielded = result.target_ac + bonus;
    if result.total >= shielded {
        return Ok(None); // it would not turn the hit: the slot is kept
    }
    let mut spent: Vec<Change> = spend.into_iter().collect();
    spent.push(slot_spent(&m, sc, slot));
    let caster = caster_of(ctx, &m, sc);
    super::reactions::cast_on_self(ctx, &caster, spell, slot, spent)?;
    let outcome = format!(
        "{attacker_name}'s {} now misses AC {shielded}: no damage; +{bonus} AC until the {}'s next turn",
        result.total, m.name
    );
    miss(result, shielded);
    let left = ctx.state.monster(&m.id).map(|now| slots_left(now, sc));
    Ok(Some(ReactionCast {
        by: m.name.clone(),
        reaction: spell.name.clone(),
        slot_level: Some(slot),
        outcome,
        succeeded: true,
        check: None,
        slots_left: left,
    }))
}

fn miss(result: &mut AttackResult, armor_class: i32) {
    result.target_ac = armor_class;
    result.hit = false;
    result.critical = false;
    result.damage.clear();
    result.total_damage = 0;
}

fn slot_spent(m: &MonsterInstance, sc: &MonsterSpellcasting, slot: u8) -> Change {
    Change::UseSpent {
        monster: m.id.clone(),
        pool: MonsterSpellcasting::slot_pool(slot),
        of: sc.slots_of(slot),
    }
}

/// `m`'s parry bonus against `attacker`, when its stat block has a Parry, it wields a melee
/// weapon and it sees the attacker (not blinded, the attacker not invisible).
fn parry_bonus(ctx: &ToolContext<'_>, m: &MonsterInstance, attacker: &str) -> Option<i32> {
    let template = ctx.srd.monster(&m.template).ok()?;
    let bonus = template
        .reactions
        .iter()
        .find_map(|r| r.rule.map(|ReactionRule::Parry { ac_bonus }| ac_bonus))?;
    let wields = template.actions.iter().any(|a| {
        a.attack.as_ref().is_some_and(|atk| {
            matches!(
                atk.kind,
                crate::srd::AttackKind::MeleeWeapon | crate::srd::AttackKind::MeleeOrRangedWeapon
            )
        })
    });
    let unseen = ctx
        .state
        .character(attacker)
        .is_some_and(|c| c.conditions.has(Condition::Invisible))
        || m.conditions.has(Condition::Blinded);
    (wields && !unseen).then_some(bonus)
}

/// Hero `caster` (a character id) casts `spell` at `level`: each monster fighting with a
/// Counterspell it may cast now, within its range of the caster, tries in turn until one
/// stops it. Cantrips are let through (no monster spends a 3rd-level slot on one). What they
/// did, and whether the spell fails.
pub(super) fn counter_hero_spell(
    ctx: &mut ToolContext<'_>,
    caster: &str,
    spell: &Spell,
    level: u8,
) -> Result<(Vec<ReactionCast>, bool), ToolError> {
    let mut reports = Vec::new();
    if level == 0 || ctx.state.encounter.is_none() {
        return Ok((reports, false));
    }
    let caster_name = ctx.state.name_of(caster);
    let ids: Vec<String> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.hostile)
        .map(|m| m.id.clone())
        .collect();
    for id in ids {
        let Some((m, spend)) = ready(ctx, &id) else {
            continue;
        };
        let Some((counter, sc, lowest)) = reaction_spell(ctx, &m, ReactionTrigger::SpellCast)
        else {
            continue;
        };
        let range = match counter.range {
            SpellRange::Feet(feet) => feet,
            _ => 0,
        };
        if crate::combat::positions::distance(ctx.state, &m.id, caster) > range {
            continue;
        }
        // The lowest slot left that stops it outright, else the lowest and the check.
        let slot = castable(ctx.srd, sc, &m)
            .into_iter()
            .filter(|(s, _)| s.name == counter.name)
            .filter_map(|(_, way)| match way {
                SpellSource::Slot(l) => Some(l),
                _ => None,
            })
            .find(|&l| effects::counters_up_to(&counter.effects, l).is_some_and(|up| level <= up))
            .unwrap_or(lowest);
        let modifier = caster_of(ctx, &m, sc).modifier;
        let Some(done) = effects::counter(&counter.effects, slot, level, modifier, ctx.rng) else {
            continue;
        };
        if let Some((dc, check)) = &done.check {
            ctx.record_roll(
                format!(
                    "{} counters {caster_name}'s {} (DC {dc})",
                    m.name, spell.name
                ),
                i64::from(check.total),
                Some(crate::state::Target::Monster(m.id.clone())),
                crate::store::RollDetail::Check(check.clone()),
            );
        }
        let mut changes: Vec<Change> = spend.into_iter().collect();
        changes.push(slot_spent(&m, sc, slot));
        ctx.commit(changes)?;
        let outcome = if done.stopped {
            format!(
                "{caster_name}'s {} (level {level}) fails and has no effect",
                spell.name
            )
        } else {
            format!(
                "the check fails: {caster_name}'s {} (level {level}) goes on",
                spell.name
            )
        };
        let left = ctx.state.monster(&m.id).map(|now| slots_left(now, sc));
        reports.push(ReactionCast {
            by: m.name.clone(),
            reaction: counter.name.clone(),
            slot_level: Some(slot),
            outcome,
            succeeded: done.stopped,
            check: done.check.map(|(_, r)| r),
            slots_left: left,
        });
        if done.stopped {
            return Ok((reports, true));
        }
    }
    Ok((reports, false))
}
