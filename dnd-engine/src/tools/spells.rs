//! `cast_spell`: checks the caster knows the spell and has the slot, spends it, resolves the
//! attack or save per target, rolls damage or healing once, and handles concentration.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ToolContext, ToolError, creature};
use crate::dice::{Advantage, DiceExpr};
use crate::rules::attack::roll_damage;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::{effective_defenses, save_modifiers};
use crate::rules::{AttackProfile, AttackTarget, DamageDice, roll_attack};
use crate::srd::{OnSave, ScalesWith};
use crate::state::Change;

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
    /// Who the spell affects (ids or names); empty for spells without a target.
    pub targets: Vec<String>,
}

pub(super) fn cast_spell(
    args: CastSpellArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Value, ToolError> {
    super::encounter::act_casting(ctx, &args.caster, &args.spell)?;
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
    let slot = if spell.level == 0 {
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
    let damage = match &spell.damage {
        Some(d) => match (d.at(dice_level(d.scales_with)), d.kind) {
            (Some(text), Some(kind)) => Some(parse(text, d.add_modifier, kind)?),
            _ => None,
        },
        None => None,
    };
    let healing = match &spell.healing {
        Some(h) => h
            .at(dice_level(h.scales_with))
            .map(|text| parse(text, h.add_modifier, crate::rules::DamageType::Force))
            .transpose()?,
        None => None,
    };
    let mut targets = Vec::new();
    for name in &args.targets {
        targets.push(creature::find(ctx.state, ctx.srd, name)?);
    }
    if (damage.is_some() || healing.is_some()) && targets.is_empty() {
        return Err(ToolError::new(format!(
            "{} needs at least one target",
            spell.name
        )));
    }
    let mut effects = Vec::new();
    if let Some(heal) = healing {
        let expr = DiceExpr::parse(&heal.dice_text()).map_err(|e| ToolError::new(e.to_string()))?;
        let roll = expr
            .roll(ctx.rng)
            .map_err(|e| ToolError::new(e.to_string()))?;
        ctx.record_roll(format!("{} heals", spell.name), roll.total(), &roll);
        let amount = roll.total().max(0) as u32;
        for t in &targets {
            changes.push(Change::Heal {
                target: t.target.clone(),
                amount,
            });
            effects.push(json!({ "target": t.name, "healed": amount, "rolled": roll.to_string() }));
        }
    }
    if let Some(dice) = damage {
        if spell.attack.is_some() {
            for t in &targets {
                let profile = AttackProfile {
                    attack_bonus,
                    damage: std::slice::from_ref(&dice),
                    critical_range: 20,
                };
                let defense = AttackTarget {
                    armor_class: t.armor_class,
                    defenses: effective_defenses(&t.defenses, &t.conditions),
                    hits_are_critical: false,
                };
                let result = roll_attack(&profile, &defense, Advantage::Normal, ctx.rng);
                ctx.record_roll(
                    format!("{} at {}", spell.name, t.name),
                    i64::from(result.total),
                    &result,
                );
                if result.hit {
                    changes.push(Change::Damage {
                        target: t.target.clone(),
                        amount: result.total_damage,
                        critical: result.critical,
                    });
                }
                effects.push(json!({ "target": t.name, "attack": result }));
            }
        } else if let Some(save) = spell.save {
            let rolled = roll_damage(&dice, false, &Default::default(), ctx.rng);
            ctx.record_roll(
                format!("{} damage", spell.name),
                i64::from(rolled.rolled),
                &rolled,
            );
            for t in &targets {
                let (sources, auto_fail) = save_modifiers(&t.conditions, save.ability);
                let result =
                    roll_check_with(t.save(save.ability), save_dc, &sources, auto_fail, ctx.rng);
                ctx.record_roll(
                    format!("{} {} save", t.name, save.ability),
                    i64::from(result.total),
                    &result,
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
                effects.push(json!({ "target": t.name, "save": result, "damage": taken, "defense": defense }));
            }
        } else {
            // No attack and no save: the damage lands (Magic Missile: one dart per slot level + 2).
            let darts = if spell.slug == "magic-missile" {
                u32::from(slot.unwrap_or(1)) + 2
            } else {
                1
            };
            for i in 0..darts as usize {
                let t = &targets[i % targets.len()];
                let rolled = roll_damage(
                    &dice,
                    false,
                    &effective_defenses(&t.defenses, &t.conditions),
                    ctx.rng,
                );
                ctx.record_roll(
                    format!("{} hits {}", spell.name, t.name),
                    i64::from(rolled.taken),
                    &rolled,
                );
                changes.push(Change::Damage {
                    target: t.target.clone(),
                    amount: rolled.taken,
                    critical: false,
                });
                effects.push(json!({ "target": t.name, "damage": rolled.taken, "rolled": rolled }));
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
    ctx.commit(changes)?;
    Ok(json!({
        "caster": caster.name,
        "spell": spell.name,
        "slot_level": slot,
        "spell_attack_bonus": attack_bonus,
        "save_dc": save_dc,
        "effects": effects,
        "concentrating": spell.concentration,
        "concentration_dropped": dropped,
        "slots_left": ctx.state.character(&caster.id).map(|c| c.spell_slots.describe_available()),
    }))
}
