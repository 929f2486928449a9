//! A monster casting a spell from its list (`srd::MonsterSpellcasting`) on its turn: the spell
//! must be on its list with a way to cast it left (at will, an innate use, a slot of its level
//! or above), its effects data resolved by `effects::resolve` with the monster as the caster
//! (its DC, attack bonus, ability modifier and caster level), the slot or the innate use spent
//! through `Change::UseSpent` in the same commit. Range and cover from where it stands, as for
//! any caster (`combat::targeting::spell_target`); a concentration spell moves its
//! concentration, which damage and 0 HP end as a character's do.

use super::results::EffectsReport;
use super::{ToolContext, ToolError, creature};
use crate::combat::monster_spells::{castable, slot_of};
use crate::combat::targeting::spell_target;
use crate::effects::{self, Caster, Casting};
use crate::srd::{MonsterSpellcasting, SpellSource};
use crate::state::Change;

/// `monster` casts `spell` (with a slot of `slot_level`, or at will or innately when `None`)
/// on `targets` (ids). Refused, with what it may cast, when the spell is not on its list, has
/// no effects data, or nothing is left to cast it with.
pub(super) fn cast(
    ctx: &mut ToolContext<'_>,
    monster: &str,
    spell_name: &str,
    slot_level: Option<u8>,
    targets: &[String],
) -> Result<EffectsReport, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, monster)?;
    let (id, name) = (who.target.id().to_owned(), who.name.clone());
    let template = who
        .template
        .ok_or_else(|| ToolError::new("monster without a stat block"))?;
    let spellcasting = template
        .spellcasting
        .as_ref()
        .ok_or_else(|| ToolError::new(format!("{name} casts no spells")))?;
    let m = ctx
        .state
        .monster(&id)
        .ok_or_else(|| ToolError::new("monster vanished"))?;
    let options = castable(ctx.srd, spellcasting, m);
    let allowed = || {
        let names: Vec<String> = options
            .iter()
            .map(|(s, w)| match w {
                SpellSource::Slot(level) => format!("{} (level {level} slot)", s.name),
                _ => s.name.clone(),
            })
            .collect();
        if names.is_empty() {
            "nothing".to_owned()
        } else {
            names.join(", ")
        }
    };
    let Some(&(spell, way)) = options.iter().find(|(s, w)| {
        s.name.eq_ignore_ascii_case(spell_name)
            && match slot_level {
                Some(level) => *w == SpellSource::Slot(level) || slot_of(s, *w) == level,
                None => true,
            }
    }) else {
        return Err(ToolError::new(format!(
            "{name} cannot cast {spell_name} now; it may cast: {}",
            allowed()
        )));
    };
    if let Some(why) = effects::silenced(ctx.state, &id, spell) {
        return Err(ToolError::new(why));
    }
    // A slot named higher than the lowest left: cast with that one if there is one left.
    let way = match (slot_level, way) {
        (Some(level), SpellSource::Slot(_)) => SpellSource::Slot(level),
        _ => way,
    };
    let slot = slot_of(spell, way);
    let limit = spell.target_limit(slot, spellcasting.caster_level);
    let named: Vec<&String> = match limit.max {
        Some(max) => targets.iter().take(max as usize).collect(),
        None => targets.iter().collect(),
    };
    // The plan names every hero for an area: those out of its reach (or behind total cover)
    // are left out; with none left the casting is refused, saying why.
    let mut subjects = Vec::new();
    let mut out_of_reach = None;
    for target in named {
        let victim = creature::find(ctx.state, ctx.srd, target)?;
        if let Some(why) = effects::apart(ctx.state, &id, victim.target.id()) {
            out_of_reach = Some(why);
            continue;
        }
        match spell_target(ctx.state, &id, victim.target.id(), spell) {
            Ok(at) => subjects.push(victim.subject(at)),
            Err(e) => out_of_reach = Some(e.to_string()),
        }
    }
    if subjects.is_empty() {
        return Err(ToolError::new(out_of_reach.unwrap_or_else(|| {
            format!("{name}'s {} needs at least one target", spell.name)
        })));
    }
    let spend = crate::combat::spell_spend(ctx.state, spell)
        .map_err(|e| ToolError::new(format!("{name} cannot cast {}: {e}", spell.name)))?;
    super::encounter::act(ctx, monster, spend)?;
    let mut changes = match way {
        SpellSource::AtWill => Vec::new(),
        SpellSource::Slot(level) => vec![Change::UseSpent {
            monster: id.clone(),
            pool: MonsterSpellcasting::slot_pool(level),
            of: spellcasting.slots_of(level),
        }],
        SpellSource::Innate(per_day) => vec![Change::UseSpent {
            monster: id.clone(),
            pool: MonsterSpellcasting::innate_pool(&spell.name),
            of: per_day,
        }],
    };
    // The reaction window: a hero's declared Counterspell may stop the spell (the monster's
    // action and slot are spent all the same), and a Magic Missile's target its Shield.
    let (mut reactions, stopped) =
        super::reactions::counter_spell(ctx, &id, &name, spell, slot.max(spell.level))?;
    if stopped {
        ctx.commit(changes)?;
        return Ok(EffectsReport {
            monster: name,
            uses: spell.name.clone(),
            slot_level: matches!(way, SpellSource::Slot(_)).then_some(slot),
            effects: Vec::new(),
            reactions,
        });
    }
    // Sanctuary: a harmful spell is lost on a warded hero whose ward the monster fails to
    // overcome (a Wisdom save each); with none left, only what it spent is committed.
    let mut wasted = Vec::new();
    if effects::harmful(&spell.effects) && spell.area.is_none() {
        let mut kept = Vec::with_capacity(subjects.len());
        for s in subjects {
            let victim = creature::find(ctx.state, ctx.srd, s.target.id())?;
            match super::wards::sanctuary_save(ctx, &who, &victim)? {
                Some(w) if w.lost => wasted.push(effects::Outcome::Unaffected {
                    target: s.name.clone(),
                    why: format!(
                        "{}: {name} failed the Wisdom save, and the spell is lost on it",
                        w.spell
                    ),
                }),
                _ => kept.push(s),
            }
        }
        subjects = kept;
        if subjects.is_empty() {
            ctx.commit(changes)?;
            return Ok(EffectsReport {
                monster: name,
                uses: spell.name.clone(),
                slot_level: matches!(way, SpellSource::Slot(_)).then_some(slot),
                effects: wasted,
                reactions,
            });
        }
    }
    let shielded = if spell.slug == "magic-missile" {
        let ids: Vec<String> = subjects
            .iter()
            .filter(|s| matches!(s.target, crate::state::Target::Character(_)))
            .map(|s| s.target.id().to_owned())
            .collect();
        let (ids, cast) = super::reactions::shield_against_darts(ctx, &ids)?;
        reactions.extend(cast);
        ids
    } else {
        Vec::new()
    };
    let modifier = template.abilities.modifier(spellcasting.ability);
    let caster = Caster {
        id: id.clone(),
        name: name.clone(),
        attack_bonus: spellcasting.attack_bonus,
        save_dc: spellcasting.save_dc,
        modifier,
        level: spellcasting.caster_level,
    };
    let casting = Casting {
        caster: &caster,
        source: &spell.name,
        level: spell.level,
        slot,
        concentration: spell.concentration,
    };
    // An area that lasts does at once only what its data says (`effects::casting_effects`).
    let now = effects::casting_effects(&spell.effects);
    let resolution = effects::resolve(ctx.state, casting, &subjects, &now, ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    // Shield: the darts deal a shielded hero no damage.
    let spared = |target: &crate::state::Target| shielded.iter().any(|id| id == target.id());
    changes.extend(
        resolution
            .changes
            .iter()
            .filter(|c| !matches!(c, Change::Damage { target, .. } if spared(target)))
            .cloned(),
    );
    // It stays where it was aimed (the first target), or on the monster (Spirit Guardians).
    if let Some(rules) = effects::zone_rules(&spell.effects) {
        let at = subjects
            .first()
            .and_then(|s| crate::combat::positions::position_of(ctx.state, s.target.id()));
        let on = subjects.iter().map(|s| s.target.id().to_owned()).collect();
        changes.push(effects::start_zone(casting, rules, at, on));
    }
    let mut outcomes = wasted;
    outcomes.extend(resolution.outcomes.iter().cloned());
    for o in &mut outcomes {
        if let effects::Outcome::Damage { target, .. } = o
            && let Some(s) = subjects.iter().find(|s| &s.name == target)
            && spared(&s.target)
        {
            *o = effects::Outcome::Unaffected {
                target: target.clone(),
                why: "Shield: magic missile deals it no damage".to_owned(),
            };
        }
    }
    super::monster_action::commit(ctx, &id, changes, resolution)?;
    Ok(EffectsReport {
        monster: name,
        uses: spell.name.clone(),
        slot_level: matches!(way, SpellSource::Slot(_)).then_some(slot),
        effects: outcomes,
        reactions,
    })
}
