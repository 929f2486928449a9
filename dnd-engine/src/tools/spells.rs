//! `cast_spell`: checks the caster knows the spell and has the slot, spends it, and hands a
//! spell with effects to the effects engine (`tools::spell_effects`). A spell without effects
//! is narrative (or not modelled yet): it spends its slot and time, takes concentration, and
//! its result says what is left to the narrator. The older path below, which resolves an
//! attack or save from the spell's older `attack`, `save`, `damage` and `healing` fields,
//! serves only the bundled spells another part of issue 16 is migrating (Guiding Bolt,
//! Thunderwave, Spiritual Weapon, Web) and the few 5e-database spells whose dice the
//! vocabulary cannot say; it goes once those have effects.
//!
//! The targets come from the spell: one creature unless its data says more (Bless: three, and
//! one more per slot level above 1st) or it has an area; one creature named twice only for
//! darts, rays and beams (Magic Missile, Scorching Ray, Eldritch Blast), whose count the spell
//! also sets.

use super::results::{RollReasons, SpellCast};
use crate::effects::Outcome;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolContext, ToolError, creature};
use crate::combat::targeting::{SpellTarget, save_bonus, spell_attack_setup};
use crate::dice::DiceExpr;
use crate::rules::attack::roll_damage;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::{effective_defenses, save_modifiers};
use crate::rules::{AttackProfile, AttackTarget, DamageDice, roll_attack};
use crate::srd::{OnSave, ScalesWith, Spell, TargetLimit};
use crate::state::{Change, Target};
use crate::store::RollDetail;

/// Arguments of `cast_spell`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CastSpellArgs {
    /// The caster: a character id or name.
    pub caster: String,
    /// The spell's name, as on the caster's sheet.
    pub spell: String,
    /// The slot level to use; null for the spell's own level (cantrips use none).
    pub slot_level: Option<u8>,
    /// Who the spell affects (ids or names); empty for spells without a target. For a spell
    /// with an area in a fight that keeps positions, the area decides (everyone it covers,
    /// allies included) and any creature named here must stand in it.
    pub targets: Vec<String>,
    /// Where a spell with an area is aimed, in a fight that keeps positions: a creature or an
    /// area of the room (id or name). A sphere, cylinder or cube cast at a point is centred
    /// there (within the spell's range); a cone, a line or a cube of range Self goes out from
    /// the caster toward it. Null: at the first target named. Null for a spell without an area.
    #[serde(default)]
    pub aim: Option<String>,
    /// True to cast a ritual spell as a ritual, outside a fight: no slot (slot_level null), 10
    /// minutes longer (the clock advances). Null or false for a casting with a slot.
    #[serde(default)]
    pub ritual: Option<bool>,
    /// The caster's choice where the spell asks for one, by its name: Protection from Energy's
    /// damage type ("fire"), Enhance Ability's enhancement ("bear's endurance"). Null for a
    /// spell with no choice; a refusal lists the options.
    #[serde(default)]
    pub choice: Option<String>,
}

pub(super) fn cast_spell(
    args: CastSpellArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<SpellCast, ToolError> {
    super::encounter::act_casting(ctx, &args.caster, &args.spell)?;
    // Casting ends what lasts until the caster acts (Invisibility); a refusal below restores it.
    let ends = crate::effects::acting_ends(ctx.state, &args.caster);
    if !ends.is_empty() {
        ctx.commit(ends)?;
    }
    let caster = ctx
        .state
        .character(&args.caster)
        .ok_or_else(|| ToolError::new(format!("{:?} is not a character; only characters cast with this tool (monsters use roll_attack)", args.caster)))?
        .clone();
    if !caster.can_act() {
        return Err(ToolError::new(format!(
            "{} cannot cast: down or incapacitated",
            caster.name
        )));
    }
    let spell = ctx
        .srd
        .spell(&args.spell)
        .map_err(|e| ToolError::new(e.to_string()))?;
    if !caster
        .spells
        .iter()
        .any(|s| crate::srd::slugify(s) == spell.slug)
    {
        return Err(ToolError::new(format!(
            "{} does not know {}; known spells: {}",
            caster.name,
            spell.name,
            caster.spells.join(", ")
        )));
    }
    let (attack_bonus, save_dc) = caster
        .spellcasting()
        .ok_or_else(|| ToolError::new(format!("{} has no spellcasting ability", caster.name)))?;
    let ability_mod = caster
        .spellcasting_ability
        .map_or(0, |a| caster.abilities.modifier(a));
    let mut changes = Vec::new();
    let ritual = args.ritual == Some(true);
    if ritual {
        changes.extend(super::spell_rituals::ritual(
            ctx,
            &caster,
            spell,
            args.slot_level,
        )?);
    }
    let slot = if spell.level == 0 || ritual {
        None
    } else {
        let slot = args.slot_level.unwrap_or(spell.level);
        if slot < spell.level || slot > 9 {
            return Err(ToolError::new(format!(
                "{} is a level-{} spell: cast it with a slot of level {} to 9",
                spell.name, spell.level, spell.level
            )));
        }
        if caster.spell_slots.available(slot) == 0 {
            return Err(ToolError::new(format!(
                "{} has no level-{slot} slot left (left: {})",
                caster.name,
                caster.spell_slots.describe_available()
            )));
        }
        changes.push(Change::SlotSpent {
            character: caster.id.clone(),
            level: slot,
        });
        Some(slot)
    };
    // A component with a cost must be carried, and leaves with the casting if consumed.
    changes.extend(super::spell_components::costly_component(&caster, spell)?);
    if !spell.effects.is_empty() {
        let prepared = super::spell_effects::Prepared {
            caster: &caster,
            spell,
            slot,
            changes,
            attack_bonus,
            save_dc,
            modifier: ability_mod,
        };
        let (aim, choice) = (args.aim.as_deref(), args.choice.as_deref());
        return super::spell_effects::cast(ctx, prepared, aim, choice, &args.targets);
    }
    if let Some(choice) = &args.choice {
        return Err(ToolError::new(format!(
            "{} has no choice to make, yet {choice:?} was named: give choice null",
            spell.name
        )));
    }
    let dice_level = |scales: ScalesWith| match scales {
        ScalesWith::SlotLevel => slot.unwrap_or(spell.level),
        ScalesWith::CharacterLevel => caster.level,
    };
    let parse = |text: &str, add: bool, kind| -> Result<DamageDice, ToolError> {
        let mut dice = DamageDice::parse(text, kind)
            .map_err(|e| ToolError::new(format!("{}: {e}", spell.name)))?;
        if add {
            dice.bonus += ability_mod;
        }
        Ok(dice)
    };
    let damage = spell.damage_dice(slot.unwrap_or(spell.level), caster.level, ability_mod);
    let healing = match &spell.healing {
        Some(h) => h
            .at(dice_level(h.scales_with))
            .map(|text| parse(text, h.add_modifier, crate::rules::DamageType::Force))
            .transpose()?,
        None => None,
    };
    let limit = spell.target_limit(slot.unwrap_or(spell.level), caster.level);
    // Who, with range and cover, before anything is rolled or spent (an area from the
    // positions, else the names: `spell_areas`).
    let (targets, placed): (Vec<_>, Vec<SpellTarget>) = super::spell_areas::targets(
        ctx,
        &caster.id,
        spell,
        limit,
        args.aim.as_deref(),
        &args.targets,
    )?
    .into_iter()
    .unzip();
    if (damage.is_some() || healing.is_some()) && targets.is_empty() {
        return Err(ToolError::new(format!(
            "{} needs at least one target",
            spell.name
        )));
    }
    let kept = crate::combat::positions::position_of(ctx.state, &caster.id).is_some();
    // Darts, rays and beams: each strikes the next creature named, round the list again when
    // fewer were named than the spell has (three darts at one harpy); other spells affect each
    // creature named once. Indices into `targets`.
    let shots: Vec<usize> = match (limit.repeat, limit.max) {
        (true, Some(n)) if !targets.is_empty() => {
            (0..n as usize).map(|i| i % targets.len()).collect()
        }
        _ => (0..targets.len()).collect(),
    };
    let mut effects = Vec::new();
    let mut reasons = Vec::new();
    if let Some(heal) = healing {
        let expr = DiceExpr::parse(&heal.dice_text()).map_err(|e| ToolError::new(e.to_string()))?;
        let roll = expr
            .roll(ctx.rng)
            .map_err(|e| ToolError::new(e.to_string()))?;
        let (amount, rolled) = (roll.total().max(0) as u32, roll.to_string());
        ctx.record_roll(
            format!("{} heals", spell.name),
            roll.total(),
            Some(Target::Character(caster.id.clone())),
            RollDetail::Healing(roll),
        );
        for t in &targets {
            changes.push(Change::Heal {
                target: t.target.clone(),
                amount,
            });
            effects.push(Outcome::Healed {
                target: t.name.to_owned(),
                healed: amount,
                rolled: rolled.clone(),
            });
        }
    }
    if let Some(dice) = damage {
        if spell.attack.is_some() {
            for &i in &shots {
                let (t, at) = (&targets[i], &placed[i]);
                let bonus = ctx.roll_bonus(&caster.id, crate::state::RollKind::Attack);
                let profile = AttackProfile {
                    attack_bonus: attack_bonus + bonus.total,
                    damage: std::slice::from_ref(&dice),
                    critical_range: 20,
                };
                let setup = spell_attack_setup(ctx.state, &caster.id, t.target.id(), at);
                let cover_ac = setup.cover_ac;
                let defense = AttackTarget {
                    armor_class: t.armor_class + cover_ac,
                    defenses: effective_defenses(&t.defenses, &t.conditions),
                    hits_are_critical: false,
                };
                for end in setup.ends {
                    if !changes.contains(&end) {
                        changes.push(end);
                    }
                }
                let sources = setup.sources;
                let result = roll_attack(&profile, &defense, sources.resolve(), ctx.rng);
                let modifiers: Vec<String> = (cover_ac > 0)
                    .then(|| format!("+{cover_ac} AC: {}", describe_cover(at)))
                    .into_iter()
                    .chain(bonus.reasons)
                    .collect();
                push_reasons(&mut reasons, t.name.as_str(), at, kept, sources, modifiers);
                ctx.record_roll(
                    format!("{} at {}", spell.name, t.name),
                    i64::from(result.total),
                    Some(Target::Character(caster.id.clone())),
                    RollDetail::Attack(result.clone()),
                );
                if result.hit {
                    changes.push(Change::Damage {
                        target: t.target.clone(),
                        amount: result.total_damage,
                        critical: result.critical,
                    });
                }
                effects.push(Outcome::Attack {
                    target: t.name.to_owned(),
                    attack: result,
                });
            }
        } else if let Some(save) = spell.save {
            let rolled = roll_damage(&dice, false, &Default::default(), ctx.rng);
            ctx.record_roll(
                format!("{} damage", spell.name),
                i64::from(rolled.rolled),
                Some(Target::Character(caster.id.clone())),
                RollDetail::Damage(rolled.clone()),
            );
            for (t, at) in targets.iter().zip(&placed) {
                let (mut sources, auto_fail) = save_modifiers(&t.conditions, save.ability);
                sources.extend(crate::combat::save_situation(
                    ctx.state,
                    t.target.id(),
                    save.ability,
                ));
                // Cover from the caster: +2 or +5 to a Dexterity save, unless the spell says
                // cover does not help (Sacred Flame).
                let cover = at.cover.as_ref().filter(|_| !save.ignores_cover);
                let bonus = save_bonus(cover, save.ability);
                let rolled_on = ctx.roll_bonus(t.target.id(), crate::state::RollKind::Save);
                let modifier =
                    t.save(save.ability) + bonus.as_ref().map_or(0, |b| b.0) + rolled_on.total;
                let result = roll_check_with(modifier, save_dc, &sources, auto_fail, ctx.rng);
                let note = bonus
                    .as_ref()
                    .map(|(_, why)| format!(" ({why})"))
                    .unwrap_or_default();
                let modifiers = bonus
                    .map(|(_, why)| why)
                    .into_iter()
                    .chain(rolled_on.reasons)
                    .collect();
                push_reasons(&mut reasons, t.name.as_str(), at, kept, sources, modifiers);
                ctx.record_roll(
                    format!("{} {} save{note}", t.name, save.ability),
                    i64::from(result.total),
                    Some(t.target.clone()),
                    RollDetail::Save(result.clone()),
                );
                let base = match (result.success, save.on_success) {
                    (false, _) => rolled.rolled,
                    (true, OnSave::Half) => rolled.rolled / 2,
                    (true, _) => 0,
                };
                let (taken, defense) =
                    effective_defenses(&t.defenses, &t.conditions).apply(base, dice.kind);
                if taken > 0 {
                    changes.push(Change::Damage {
                        target: t.target.clone(),
                        amount: taken,
                        critical: false,
                    });
                }
                effects.push(Outcome::Save {
                    target: t.name.to_owned(),
                    save: result,
                    damage: taken,
                    defense,
                });
            }
        } else {
            // No attack and no save: the damage lands, once per dart (Magic Missile).
            for &i in &shots {
                let t = &targets[i];
                let rolled = roll_damage(
                    &dice,
                    false,
                    &effective_defenses(&t.defenses, &t.conditions),
                    ctx.rng,
                );
                ctx.record_roll(
                    format!("{} hits {}", spell.name, t.name),
                    i64::from(rolled.taken),
                    Some(Target::Character(caster.id.clone())),
                    RollDetail::Damage(rolled.clone()),
                );
                changes.push(Change::Damage {
                    target: t.target.clone(),
                    amount: rolled.taken,
                    critical: false,
                });
                effects.push(Outcome::Damage {
                    target: t.name.to_owned(),
                    damage: rolled.taken,
                    rolled,
                });
            }
        }
    }
    if spell.concentration {
        changes.push(Change::Concentration {
            character: caster.id.clone(),
            spell: Some(spell.name.clone()),
        });
    }
    let dropped = spell
        .concentration
        .then(|| caster.concentration.clone())
        .flatten();
    // Whoever the spell hurt makes the saves damage calls for, once for all it took.
    let mut hurt: Vec<(String, u32)> = Vec::new();
    for change in &changes {
        if let Change::Damage { target, amount, .. } = change {
            match hurt.iter_mut().find(|(id, _)| id == target.id()) {
                Some((_, total)) => *total += amount,
                None => hurt.push((target.id().to_owned(), *amount)),
            }
        }
    }
    ctx.commit(changes)?;
    let (mut hold_saves, mut concentration_saves) = (Vec::new(), Vec::new());
    for (id, amount) in &hurt {
        let after = super::damage::after_damage(ctx, id, *amount, Some(&caster.id))?;
        hold_saves.extend(after.hold_saves);
        concentration_saves.extend(after.concentration);
    }
    Ok(SpellCast {
        caster: caster.name.clone(),
        spell: spell.name.clone(),
        slot_level: slot,
        spell_attack_bonus: attack_bonus,
        save_dc,
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
        lasting: Vec::new(),
        narrator: spell.narrative.clone().or_else(|| spell.unmodelled.clone()),
    })
}

/// "half cover in the ice bridge".
fn describe_cover(at: &SpellTarget) -> String {
    at.cover
        .as_ref()
        .map(|a| format!("{} in {}", a.cover.describe(), a.name))
        .unwrap_or_default()
}

/// Adds the reasons of one roll when it has any (or the positions gave a distance).
pub(super) fn push_reasons(
    reasons: &mut Vec<RollReasons>,
    target: &str,
    at: &SpellTarget,
    kept: bool,
    advantage_reasons: crate::rules::AdvantageSources,
    modifier_reasons: Vec<String>,
) {
    let cover = at.cover.as_ref().map(|a| a.cover.describe().to_owned());
    let nothing = advantage_reasons.reasons().is_empty() && modifier_reasons.is_empty();
    if nothing && cover.is_none() && !kept {
        return;
    }
    reasons.push(RollReasons {
        target: target.to_owned(),
        distance_ft: (kept && at.distance_ft > 0).then_some(at.distance_ft),
        cover,
        advantage_reasons,
        modifier_reasons,
    });
}

/// Finds the creatures a casting names, within what the spell allows: at most its count
/// ([`crate::srd::Spell::target_limit`]: one, unless the spell's data says more or it has an
/// area), and each creature once unless the spell's darts, rays or beams may strike one
/// creature more than once.
pub(super) fn choose_targets<'s>(
    ctx: &ToolContext<'s>,
    spell: &Spell,
    limit: TargetLimit,
    names: &[String],
) -> Result<Vec<creature::CreatureInfo<'s>>, ToolError> {
    if let Some(max) = limit.max
        && names.len() > max as usize
    {
        let each = if limit.repeat {
            " (one per dart, ray or beam; a creature may be named again)"
        } else {
            ", each a different creature"
        };
        return Err(ToolError::new(format!(
            "{} names at most {max} target{} when cast this way{each}; {} were named",
            spell.name,
            if max == 1 { "" } else { "s" },
            names.len()
        )));
    }
    let mut targets: Vec<creature::CreatureInfo<'s>> = Vec::with_capacity(names.len());
    for name in names {
        let found = creature::find(ctx.state, ctx.srd, name)?;
        if !limit.repeat && targets.iter().any(|t| t.target == found.target) {
            return Err(ToolError::new(format!(
                "{} affects each creature once, and {} is named twice: name each creature at most once (only darts, rays and beams, as Magic Missile, Scorching Ray and Eldritch Blast, may strike one creature again)",
                spell.name, found.name
            )));
        }
        targets.push(found);
    }
    Ok(targets)
}
