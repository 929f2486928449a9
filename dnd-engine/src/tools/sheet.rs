//! `get_character_stats`, `update_character`, `update_hp`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ToolContext, ToolError, creature};
use crate::rules::conditions::effective_defenses;
use crate::rules::rest::{long_rest, short_rest};
use crate::rules::{Ability, Condition, DamageType, Skill};
use crate::state::{Change, Target};

/// Arguments of `get_character_stats`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsArgs {
    /// A character id or name.
    pub character: String,
}

pub(super) fn get_character_stats(
    args: StatsArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Value, ToolError> {
    let c = ctx.state.character(&args.character).ok_or_else(|| {
        ToolError::new(format!(
            "no character {:?}; valid: {}",
            args.character,
            ctx.state.character_ids().join(", ")
        ))
    })?;
    let abilities: serde_json::Map<String, Value> = Ability::ALL
        .iter()
        .map(|a| (a.abbreviation().to_owned(), json!({ "score": c.abilities.score(*a), "modifier": c.abilities.modifier(*a), "save": c.save_modifier(*a) })))
        .collect();
    let skills: serde_json::Map<String, Value> = Skill::ALL
        .iter()
        .map(|s| (s.name().to_owned(), json!(c.skill_modifier(*s))))
        .collect();
    let attacks: Vec<Value> = c
        .attacks
        .iter()
        .map(|a| json!({ "name": a.name, "to_hit": c.attack_bonus(a), "damage": c.attack_damage(a) }))
        .collect();
    Ok(json!({
        "id": c.id, "name": c.name, "class": c.class, "level": c.level, "race": c.race,
        "hp": c.hp, "armor_class": c.armor_class, "speed": c.conditions.speed(c.speed),
        "proficiency_bonus": c.proficiency_bonus(), "abilities": abilities, "skills": skills,
        "passive_perception": c.passive_perception(),
        "conditions": c.conditions, "death_saves": c.death_saves, "dead": c.dead,
        "hit_dice": c.hit_dice, "spell_slots": c.spell_slots.describe_available(),
        "spellcasting": c.spellcasting().map(|(attack, dc)| json!({ "attack_bonus": attack, "save_dc": dc })),
        "spells": c.spells, "concentration": c.concentration, "attacks": attacks,
    }))
}

/// What `update_character` may change: only what the rules let the story change mid-game.
/// Level, ability scores, AC and maximum HP are not among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CharacterUpdate {
    /// Give a condition (`condition` required).
    AddCondition,
    /// Remove a condition (`condition` required).
    RemoveCondition,
    /// Grant temporary hit points (`amount` required).
    TemporaryHp,
    /// End concentration.
    EndConcentration,
    /// A short rest spending `amount` hit dice (0 is allowed).
    ShortRest,
    /// A long rest.
    LongRest,
}

/// Arguments of `update_character`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateCharacterArgs {
    /// A character id or name.
    pub character: String,
    /// What to change.
    pub update: CharacterUpdate,
    /// The condition, for add_condition and remove_condition.
    pub condition: Option<Condition>,
    /// The amount, for temporary_hp and short_rest.
    pub amount: Option<u32>,
}

pub(super) fn update_character(
    args: UpdateCharacterArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Value, ToolError> {
    let c = ctx
        .state
        .character(&args.character)
        .ok_or_else(|| {
            ToolError::new(format!(
                "no character {:?}; valid: {}",
                args.character,
                ctx.state.character_ids().join(", ")
            ))
        })?
        .clone();
    let target = Target::Character(c.id.clone());
    let need_condition = || {
        args.condition
            .ok_or_else(|| ToolError::new(format!("{:?} needs a condition", args.update)))
    };
    let need_amount = || {
        args.amount
            .ok_or_else(|| ToolError::new(format!("{:?} needs an amount", args.update)))
    };
    let changes = match args.update {
        CharacterUpdate::AddCondition => vec![Change::ConditionAdded {
            target,
            condition: need_condition()?,
        }],
        CharacterUpdate::RemoveCondition => vec![Change::ConditionRemoved {
            target,
            condition: need_condition()?,
        }],
        CharacterUpdate::TemporaryHp => vec![Change::TemporaryHp {
            target,
            amount: need_amount()?,
        }],
        CharacterUpdate::EndConcentration => vec![Change::Concentration {
            character: c.id.clone(),
            spell: None,
        }],
        CharacterUpdate::ShortRest => {
            let count =
                u8::try_from(need_amount()?).map_err(|_| ToolError::new("too many hit dice"))?;
            let (mut hp, mut dice, mut slots) = (c.hp, c.hit_dice, c.spell_slots);
            let con = c.abilities.modifier(Ability::Constitution);
            let rest = short_rest(&mut hp, &mut dice, &mut slots, count, con, ctx.rng)
                .map_err(|e| ToolError::new(e.to_string()))?;
            ctx.record_roll(
                format!("{} short rest", c.name),
                i64::from(rest.hp_after - rest.hp_before),
                &rest,
            );
            let mut changes = vec![
                Change::HitDiceSpent {
                    character: c.id.clone(),
                    count,
                },
                Change::TimeAdvanced { minutes: 60 },
            ];
            if rest.hp_after > rest.hp_before {
                changes.push(Change::Heal {
                    target,
                    amount: rest.hp_after - rest.hp_before,
                });
            }
            if rest.pact_slots_recovered {
                changes.push(Change::PactSlotsRecovered {
                    character: c.id.clone(),
                });
            }
            changes
        }
        CharacterUpdate::LongRest => {
            let (mut hp, mut dice, mut slots, mut conditions, mut saves) =
                (c.hp, c.hit_dice, c.spell_slots, c.conditions, c.death_saves);
            let rest = long_rest(&mut hp, &mut dice, &mut slots, &mut conditions, &mut saves);
            ctx.record_roll(format!("{} long rest", c.name), 0, &rest);
            vec![
                Change::LongRest {
                    character: c.id.clone(),
                },
                Change::TimeAdvanced { minutes: 8 * 60 },
            ]
        }
    };
    ctx.commit(changes)?;
    let after = ctx
        .state
        .character(&c.id)
        .ok_or_else(|| ToolError::new("character vanished"))?;
    Ok(
        json!({ "character": after.name, "update": args.update_name(), "hp": after.hp, "conditions": after.conditions, "hit_dice": after.hit_dice, "concentration": after.concentration }),
    )
}

impl UpdateCharacterArgs {
    fn update_name(&self) -> &'static str {
        match self.update {
            CharacterUpdate::AddCondition => "add_condition",
            CharacterUpdate::RemoveCondition => "remove_condition",
            CharacterUpdate::TemporaryHp => "temporary_hp",
            CharacterUpdate::EndConcentration => "end_concentration",
            CharacterUpdate::ShortRest => "short_rest",
            CharacterUpdate::LongRest => "long_rest",
        }
    }
}

/// Arguments of `update_hp`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateHpArgs {
    /// A character or visible monster, id or name.
    pub target: String,
    /// Negative for damage, positive for healing.
    pub amount: i32,
    /// The damage type, for damage (resistances apply); null for healing or untyped harm.
    pub damage_type: Option<DamageType>,
    /// What caused it, as the player will see it.
    pub reason: Option<String>,
}

pub(super) fn update_hp(args: UpdateHpArgs, ctx: &mut ToolContext<'_>) -> Result<Value, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, &args.target)?;
    let (current, max) = who.hp;
    let change = match args.amount {
        0 => {
            return Err(ToolError::new(
                "amount must not be 0: negative for damage, positive for healing",
            ));
        }
        n if n > 0 => {
            let missing = max - current;
            if n.unsigned_abs() > missing {
                return Err(ToolError::new(format!(
                    "{} has {current}/{max} HP: healing cannot go above the maximum, so heal at most {missing}",
                    who.name
                )));
            }
            Change::Heal {
                target: who.target.clone(),
                amount: n.unsigned_abs(),
            }
        }
        n => {
            let amount = match args.damage_type {
                Some(kind) => {
                    effective_defenses(&who.defenses, &who.conditions)
                        .apply(n.unsigned_abs(), kind)
                        .0
                }
                None => n.unsigned_abs(),
            };
            Change::Damage {
                target: who.target.clone(),
                amount,
                critical: false,
            }
        }
    };
    ctx.commit(vec![change])?;
    let after = creature::find(ctx.state, ctx.srd, &args.target)?;
    Ok(
        json!({ "target": after.name, "reason": args.reason, "hp": format!("{}/{}", after.hp.0, after.hp.1), "down": !after.standing }),
    )
}
