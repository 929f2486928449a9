//! `get_character_stats`, `update_character`, `apply_hazard_damage`.
//!
//! No number here comes from the model: a fall or a hazard is rolled by the engine from the
//! cause the model names ([`crate::rules::situation`]), temporary hit points come only from a
//! spell or feature the engine resolves, rests only outside a fight, and a situation imposes or
//! lifts only the conditions the rules let it (prone, exhaustion; see `situation::can_lift`).

use super::results::{
    AbilityLine, AttackLine, CharacterSheet, CharacterUpdated, HazardDamage, Spellcasting,
};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolContext, ToolError, creature};
use crate::rules::attack::roll_damage;
use crate::rules::conditions::effective_defenses;
use crate::rules::rest::{long_rest, short_rest};
use crate::rules::situation::{self, Severity};
use crate::rules::{Ability, Condition, DamageType, Skill};
use crate::state::{Change, Target};
use crate::store::RollDetail;

/// Arguments of `get_character_stats`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsArgs {
    /// A character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
}

/// The character a tool's argument names (id or name), or a refusal listing the valid ids.
pub(super) fn named_character<'s>(
    state: &'s crate::state::GameState,
    name: &str,
) -> Result<&'s crate::state::Character, ToolError> {
    state.character(name).ok_or_else(|| {
        ToolError::new(format!(
            "no character {name:?}; valid: {}",
            state.character_ids().join(", ")
        ))
    })
}

pub(super) fn get_character_stats(
    args: StatsArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<CharacterSheet, ToolError> {
    let c = named_character(ctx.state, &args.character)?;
    let abilities = Ability::ALL
        .iter()
        .map(|a| {
            let line = AbilityLine {
                score: c.abilities.score(*a),
                modifier: c.abilities.modifier(*a),
                save: c.save_modifier(*a),
            };
            (a.abbreviation().to_owned(), line)
        })
        .collect();
    let skills = Skill::ALL
        .iter()
        .map(|s| (s.name().to_owned(), c.skill_modifier(*s)))
        .collect();
    let attacks = c
        .attacks
        .iter()
        .map(|a| {
            // As struck: Martial Arts' ability and die for a monk.
            let a = crate::character::monk::martial_attack(ctx.srd, c, a);
            AttackLine {
                name: a.name.clone(),
                to_hit: c.attack_bonus(&a),
                damage: c.attack_damage(&a),
            }
        })
        .collect();
    Ok(CharacterSheet {
        id: c.id.clone(),
        name: c.name.clone(),
        class: c.class.clone(),
        level: c.level,
        race: c.race.clone(),
        hp: c.hp,
        armor_class: c.armor_class_now(),
        speed: c
            .conditions
            .speed(crate::character::monk::speed(ctx.srd, c)),
        proficiency_bonus: c.proficiency_bonus(),
        abilities,
        skills,
        passive_perception: c.passive_perception(),
        languages: crate::character::granted::languages(ctx.srd, c),
        conditions: c.conditions,
        death_saves: c.death_saves,
        dead: c.dead,
        hit_dice: c.hit_dice,
        spell_slots: c.spell_slots.describe_available(),
        spellcasting: c
            .spellcasting()
            .map(|(attack_bonus, save_dc)| Spellcasting {
                attack_bonus,
                save_dc,
            }),
        spells: c.spells.as_ref().clone(),
        granted_spells: crate::character::granted_spells::granted_spells(ctx.srd, c)
            .iter()
            .map(|g| crate::character::granted_spells::describe(c, g))
            .collect(),
        concentration: c.concentration.clone(),
        attacks,
        xp: crate::state::progress_text(c, &ctx.state.levelling),
        level_up: super::encounter::level_ready(ctx, c),
    })
}

/// What `update_character` may change: only what the rules let the story change mid-game.
/// Level, ability scores, AC and maximum HP are not among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CharacterUpdate {
    /// Give a condition a situation imposes: prone or exhaustion (`condition` required).
    AddCondition,
    /// End a condition that ends by choice or time: prone (standing up), invisible; outside a
    /// fight also blinded, charmed, deafened, frightened, poisoned (`condition` required).
    RemoveCondition,
    /// Refused: temporary hit points come only from a spell or feature the engine resolves.
    TemporaryHp,
    /// End concentration.
    EndConcentration,
    /// A short rest (1 hour) spending `amount` hit dice (0 is allowed); not during a fight.
    ShortRest,
    /// A long rest (8 hours); not during a fight, and only with at least 1 HP.
    LongRest,
}

/// Arguments of `update_character`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateCharacterArgs {
    /// A character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// What to change.
    #[schemars(extend("description" = ""))]
    pub update: CharacterUpdate,
    /// A condition in lowercase ("prone"), for add_condition and remove_condition.
    #[schemars(with = "Option<String>", description = "Lowercase (\"prone\").")]
    pub condition: Option<Condition>,
    /// The hit dice to spend, for short_rest.
    #[schemars(description = "Hit dice to spend.")]
    pub amount: Option<u32>,
    /// For short_rest: the expended slots a wizard's Arcane Recovery or a Land druid's Natural
    /// Recovery brings back as the rest ends, by level ("1,1" or "2"); null for none.
    #[serde(default)]
    #[schemars(description = "Arcane Recovery's slot levels (\"1,1\").")]
    pub recover_slots: Option<String>,
}

pub(super) fn update_character(
    args: UpdateCharacterArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<CharacterUpdated, ToolError> {
    let c = named_character(ctx.state, &args.character)?.clone();
    let target = Target::Character(c.id.clone());
    let in_a_fight = ctx.state.encounter.is_some();
    let need_condition = || {
        args.condition
            .ok_or_else(|| ToolError::new(format!("{:?} needs a condition", args.update)))
    };
    let need_amount = || {
        args.amount
            .ok_or_else(|| ToolError::new(format!("{:?} needs an amount", args.update)))
    };
    if in_a_fight
        && matches!(
            args.update,
            CharacterUpdate::ShortRest | CharacterUpdate::LongRest
        )
    {
        return Err(ToolError::new(
            "no rest during a fight: a rest needs an hour (short) or eight (long) of calm; end the fight first (end_encounter, once no foe stands)",
        ));
    }
    if args.recover_slots.is_some() && args.update != CharacterUpdate::ShortRest {
        return Err(ToolError::new(
            "recover_slots goes with a short_rest only (Arcane Recovery, Natural Recovery): leave it null",
        ));
    }
    let changes = match args.update {
        CharacterUpdate::AddCondition => {
            let condition = need_condition()?;
            if !situation::can_impose(condition) {
                let allowed: Vec<&str> = situation::IMPOSED_BY_A_SITUATION
                    .iter()
                    .map(|c| c.name())
                    .collect();
                return Err(ToolError::new(format!(
                    "{} is not something a situation imposes: it comes from a spell, an attack, a monster's action or a trap the engine resolves (cast_spell, roll_attack), and a benefit never comes free; a situation may impose only: {}",
                    condition.name(),
                    allowed.join(", ")
                )));
            }
            vec![Change::ConditionAdded { target, condition }]
        }
        CharacterUpdate::RemoveCondition => {
            let condition = need_condition()?;
            if !situation::can_lift(condition, in_a_fight) {
                return Err(ToolError::new(format!(
                    "{} does not end by choice{}: it ends by a save, an escape, healing or a rest the engine resolves; what may be ended here{}: {}",
                    condition.name(),
                    if in_a_fight { " in a fight" } else { "" },
                    if in_a_fight { " now" } else { "" },
                    situation::liftable(in_a_fight).join(", ")
                )));
            }
            vec![Change::ConditionRemoved { target, condition }]
        }
        CharacterUpdate::TemporaryHp => {
            return Err(ToolError::new(
                "temporary hit points come only from a spell or a feature the engine resolves (cast it with cast_spell); this tool grants none",
            ));
        }
        CharacterUpdate::EndConcentration => vec![Change::Concentration {
            character: c.id.clone(),
            spell: None,
        }],
        CharacterUpdate::ShortRest => {
            // Arcane Recovery or Natural Recovery as the rest ends: checked before any roll.
            let recovered = match &args.recover_slots {
                Some(levels) => {
                    crate::character::slot_recovery::recover_slots_named(ctx.srd, &c, levels)
                        .map_err(|e| ToolError::new(e.to_string()))?
                }
                None => Vec::new(),
            };
            let count =
                u8::try_from(need_amount()?).map_err(|_| ToolError::new("too many hit dice"))?;
            let (mut hp, mut dice, mut slots) = (c.hp, c.hit_dice, c.spell_slots);
            let con = c.abilities.modifier(Ability::Constitution);
            let rest = short_rest(&mut hp, &mut dice, &mut slots, count, con, ctx.rng)
                .map_err(|e| ToolError::new(e.to_string()))?;
            ctx.record_roll(
                format!("{} short rest", c.name),
                i64::from(rest.hp_after - rest.hp_before),
                Some(target.clone()),
                RollDetail::ShortRest(rest.clone()),
            );
            let mut changes = vec![
                Change::HitDiceSpent {
                    character: c.id.clone(),
                    count,
                },
                Change::TimeAdvanced { minutes: 60 },
            ];
            // Song of Rest: a bard's 1d6 more for one who spent hit dice.
            let song = super::feature_bard::song_of_rest(ctx, &c, count)?;
            let hp_after = (rest.hp_after + song).min(c.hp.max);
            if hp_after > rest.hp_before {
                changes.push(Change::Heal {
                    target,
                    amount: hp_after - rest.hp_before,
                });
            }
            if c.feature_uses
                .values()
                .any(|u| u.restores == crate::srd::Rest::ShortRest)
            {
                changes.push(Change::FeatureUsesRestored {
                    character: c.id.clone(),
                    rest: crate::srd::Rest::ShortRest,
                });
            }
            if rest.pact_slots_recovered {
                changes.push(Change::PactSlotsRecovered {
                    character: c.id.clone(),
                });
            }
            changes.extend(recovered);
            changes
        }
        CharacterUpdate::LongRest => {
            if c.hp.current == 0 {
                return Err(ToolError::new(format!(
                    "{} is at 0 HP: a long rest needs at least 1 hit point at its start; stabilise and heal first (a potion, a spell, or a short rest once conscious)",
                    c.name
                )));
            }
            let (mut hp, mut dice, mut slots, mut conditions, mut saves) =
                (c.hp, c.hit_dice, c.spell_slots, c.conditions, c.death_saves);
            let rest = long_rest(&mut hp, &mut dice, &mut slots, &mut conditions, &mut saves);
            ctx.record_roll(
                format!("{} long rest", c.name),
                0,
                Some(target.clone()),
                RollDetail::LongRest(rest),
            );
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
    Ok(CharacterUpdated {
        character: after.name.clone(),
        update: args.update_name().to_owned(),
        hp: after.hp,
        conditions: after.conditions,
        hit_dice: after.hit_dice,
        concentration: after.concentration.clone(),
        slots_left: args
            .recover_slots
            .as_ref()
            .map(|_| after.spell_slots.describe_available()),
    })
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

/// What harms a creature outside an attack or a spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HazardCause {
    /// A fall: 1d6 bludgeoning per 10 feet, at most 20d6 (`feet` required).
    Fall,
    /// Any other hazard (fire, a rockfall, freezing water): the DMG's improvised damage by
    /// severity and the party's level (`severity` and `damage_type` required).
    Hazard,
}

/// Arguments of `apply_hazard_damage`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HazardDamageArgs {
    /// A character or visible monster, id or name.
    #[schemars(extend("description" = ""))]
    pub target: String,
    /// What harms it: the engine rolls the dice for this cause.
    #[schemars(extend("description" = ""))]
    pub cause: HazardCause,
    /// For a fall: how far, in feet (under 10 deals no damage); null for a hazard.
    #[schemars(description = "A fall's height.")]
    pub feet: Option<u32>,
    /// For a hazard: setback, dangerous or deadly; null for a fall.
    #[schemars(description = "A hazard's.")]
    pub severity: Option<Severity>,
    /// A hazard's damage type in lowercase ("fire"); null for a fall (bludgeoning).
    #[schemars(with = "Option<String>", description = "Lowercase (\"fire\").")]
    pub damage_type: Option<DamageType>,
    /// What caused it, as the player will see it.
    #[schemars(extend("description" = ""))]
    pub reason: Option<String>,
}

pub(super) fn apply_hazard_damage(
    args: HazardDamageArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<HazardDamage, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, &args.target)?;
    let dice = match args.cause {
        HazardCause::Fall => {
            let feet = args.feet.ok_or_else(|| {
                ToolError::new(
                    "a fall needs feet: how far the creature fell (1d6 per 10 feet, at most 20d6)",
                )
            })?;
            situation::fall_damage(feet).ok_or_else(|| {
                ToolError::new(format!(
                    "a fall of {feet} feet deals no damage: falls deal 1d6 per full 10 feet"
                ))
            })?
        }
        HazardCause::Hazard => {
            let (Some(severity), Some(kind)) = (args.severity, args.damage_type) else {
                return Err(ToolError::new(
                    "a hazard needs a severity (setback, dangerous or deadly) and a damage_type; the engine rolls the dice for them",
                ));
            };
            // The party's level sets the tier: the highest, as the DMG reads "the characters' level".
            let level = ctx
                .state
                .characters
                .iter()
                .map(|c| c.level)
                .max()
                .unwrap_or(1);
            situation::hazard_damage(severity, level, kind)
        }
    };
    let defenses = effective_defenses(&who.defenses, &who.conditions);
    let mut rolled = roll_damage(&dice, false, &defenses, ctx.rng);
    // A monk's Slow Fall (its reaction) takes five times its level off a fall.
    let slowed = match args.cause {
        HazardCause::Fall => super::feature_monk::slow_fall(ctx, who.target.id(), rolled.taken)?,
        HazardCause::Hazard => 0,
    };
    rolled.taken -= slowed;
    let label = args.reason.as_deref().unwrap_or(match args.cause {
        HazardCause::Fall => "a fall",
        HazardCause::Hazard => "a hazard",
    });
    let slow = if slowed > 0 {
        format!(" (Slow Fall: {slowed} less)")
    } else {
        String::new()
    };
    ctx.record_roll(
        format!("{label}: {} to {}{slow}", dice, who.name),
        i64::from(rolled.taken),
        None,
        RollDetail::Damage(rolled.clone()),
    );
    if rolled.taken > 0 {
        ctx.commit(vec![Change::Damage {
            target: who.target.clone(),
            amount: rolled.taken,
            critical: false,
        }])?;
    }
    let hurt = who.target.id().to_owned();
    let after_damage = super::damage::after_damage(ctx, &hurt, rolled.taken, None)?;
    let after = creature::find(ctx.state, ctx.srd, &args.target)?;
    Ok(HazardDamage {
        target: after.name.to_owned(),
        reason: args.reason,
        dice: dice.to_string(),
        rolled: rolled.rolled,
        damage: rolled.taken,
        defense: rolled.defense,
        hp: crate::state::compact::hit_points(after.hp.0, after.hp.1),
        down: !after.standing,
        hold_saves: after_damage.hold_saves,
        concentration_save: after_damage.concentration,
    })
}
