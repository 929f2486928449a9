//! `level_up`: a character takes its next level, by `character::levelling`.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::LevelGained;
use super::{ToolContext, ToolError};
use crate::character::{FeaturePick, HpChoice, Improvement, LevelChoices, level_up as next_level};
use crate::store::RollDetail;

/// Arguments of `level_up`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LevelUpArgs {
    /// The character's id.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// Hit points: "fixed" (the class's average, the default) or "roll" (the engine rolls the
    /// hit die); the Constitution modifier is added either way.
    #[schemars(description = "Null: fixed.")]
    pub hp: Option<HpChoice>,
    /// The subclass, at the level the class chooses it (the refusal lists it).
    #[schemars(extend("description" = ""))]
    pub subclass: Option<String>,
    /// At a level with an Ability Score Improvement (4th): {"plus_two": "strength"},
    /// {"plus_one": ["dexterity", "constitution"]} or {"feat": "Grappler"}.
    #[schemars(description = "Abilities in lowercase.")]
    pub improvement: Option<Improvement>,
    /// New spells and cantrips, by name, as many as the level adds (the refusal lists the
    /// options).
    #[schemars(extend("description" = ""))]
    pub spells: Option<Vec<String>>,
    /// Picks for the new level's features with a choice: [{"feature": "ranger-fighting-style",
    /// "picks": ["Archery"]}]; also "bonus-proficiencies" (a Lore bard's three skills),
    /// "pact-of-the-tome" (three cantrips), "book-of-ancient-secrets" (two 1st-level rituals), a
    /// warlock's new "eldritch-invocations" (the refusal lists the options); null when none.
    #[schemars(description = "For features with a choice.")]
    pub features: Option<Vec<FeaturePick>>,
}

pub(super) fn level_up(
    args: LevelUpArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<LevelGained, ToolError> {
    let c = super::items::character(ctx, &args.character)?.clone();
    let choices = LevelChoices {
        hp: args.hp.unwrap_or_default(),
        subclass: args.subclass,
        improvement: args.improvement,
        spells: args.spells.unwrap_or_default(),
        features: args.features.unwrap_or_default(),
    };
    let levelling = ctx.state.levelling.clone();
    let up = next_level(&c, ctx.srd, &levelling, &choices, ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    ctx.commit(up.changes.clone())?;
    let hp_rolled = up.hp_roll.map(|roll| {
        let text = format!("{roll}");
        ctx.record_roll(
            format!("{} hit die for level {}", c.name, up.level),
            roll.total(),
            Some(crate::state::Target::Character(c.id.clone())),
            RollDetail::Dice(roll),
        );
        text
    });
    let now = ctx
        .state
        .character(&c.id)
        .ok_or_else(|| ToolError::new("the character vanished"))?;
    let next = crate::rules::experience::xp_for_next_level(now.level).filter(|_| {
        ctx.srd
            .class(&now.class)
            .is_ok_and(|k| k.level(now.level + 1).is_some())
    });
    Ok(LevelGained {
        character: now.name.clone(),
        level: up.level,
        hp_gained: up.hp_gained,
        hp_max: now.hp.max,
        hp_rolled,
        proficiency_bonus: up.proficiency_bonus,
        hit_dice: up.hit_dice,
        slots: (now.spell_slots.max != [0; 9] || now.spell_slots.pact_max > 0)
            .then(|| now.spell_slots.describe_available()),
        features: up.features,
        spells_learned: up.spells_learned,
        subclass: now.subclass.clone().filter(|_| choices.subclass.is_some()),
        xp: match next {
            Some(need) => format!("{} XP (level {} at {need})", now.xp, now.level + 1),
            None => format!("{} XP", now.xp),
        },
    })
}
