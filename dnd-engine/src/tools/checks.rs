//! `roll_dice`, `roll_skill_check`, `roll_saving_throw`.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::{CheckRolled, DiceRolled, SaveRolled};
use super::{ToolContext, ToolError, creature};
use crate::dice::{Advantage, DiceExpr};
use crate::rules::check::roll_check_with;
use crate::rules::conditions::{check_modifiers, save_modifiers};
use crate::rules::{Ability, AdvantageSources, Skill};
use crate::state::Change;
use crate::store::RollDetail;

/// Arguments of `roll_dice`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollDiceArgs {
    /// Dice notation: "1d20+5", "2d6 [fire]", "4d6kh3".
    #[schemars(extend("description" = ""))]
    pub expression: String,
    /// What the roll is for, as the player sees it.
    #[schemars(extend("description" = ""))]
    pub reason: Option<String>,
    /// For the leftmost d20.
    #[schemars(extend("description" = ""))]
    pub advantage: Option<Advantage>,
}

pub(super) fn roll_dice(
    args: RollDiceArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<DiceRolled, ToolError> {
    let expr = DiceExpr::parse(&args.expression)
        .map_err(|e| ToolError::new(format!("dice expression {:?}: {e}", args.expression)))?;
    let expr = expr.with_advantage(args.advantage.unwrap_or_default());
    let roll = expr
        .roll(ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let label = args.reason.unwrap_or_else(|| args.expression.clone());
    let (rolled, total) = (roll.to_string(), roll.total());
    ctx.record_roll(&label, total, None, RollDetail::Dice(roll));
    Ok(DiceRolled {
        reason: label,
        rolled,
        total,
    })
}

/// Arguments of `roll_skill_check`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillCheckArgs {
    /// The character (or visible monster) making the check, by id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// A skill in snake_case ("sleight_of_hand").
    #[schemars(with = "String", description = "snake_case (\"sleight_of_hand\")")]
    pub skill: Skill,
    /// The DC to meet or beat.
    #[schemars(extend("description" = ""))]
    pub dc: i32,
    /// From the situation; the engine adds what conditions give.
    #[schemars(extend("description" = ""))]
    pub advantage: Option<Advantage>,
    /// What the check is for.
    #[schemars(extend("description" = ""))]
    pub reason: Option<String>,
    /// A creature, creature type or terrain the check is about, where a feature cares
    /// (Favored Enemy, Natural Explorer); null otherwise.
    #[schemars(description = "For Favored Enemy or Natural Explorer.")]
    pub subject: Option<String>,
}

pub(super) fn roll_skill_check(
    args: SkillCheckArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<CheckRolled, ToolError> {
    check_dc(args.dc)?;
    let who = creature::find(ctx.state, ctx.srd, &args.creature)?;
    if !who.standing {
        return Err(ToolError::new(format!(
            "{} is down and cannot make checks",
            who.name
        )));
    }
    let needs_sight = matches!(args.skill, Skill::Perception | Skill::Investigation);
    let (mut sources, mut auto_fail) = check_modifiers(&who.conditions, needs_sight, false);
    if args.skill == Skill::Perception {
        // The room's light against the looker's darkvision (`character::race`).
        let (light, dark) =
            crate::character::race::perception_in_the_light(ctx.state, who.target.id());
        sources.extend(light);
        auto_fail = auto_fail.or(dark);
    }
    let effects = crate::combat::ability_check_situation(
        ctx.state,
        who.target.id(),
        Some(args.skill.ability()),
    );
    sources.extend(effects.sources);
    let subject = args.subject.as_deref();
    let explorer = super::feature_ranger::check_about(ctx, &who, args.skill, subject, &mut sources);
    add_situation(&mut sources, args.advantage);
    // Guidance adds a d4 (`effects::roll_bonus`).
    let mut bonus = ctx.roll_bonus(who.target.id(), crate::state::RollKind::Check);
    let modifier = who.skill(args.skill) + bonus.total + explorer;
    let mut result = roll_check_with(modifier, args.dc, &sources, auto_fail, ctx.rng);
    // Bardic Inspiration, where the die could turn a failure.
    bonus.reasons.extend(super::feature_bard::inspired_check(
        ctx,
        who.target.id(),
        &mut result,
    ));
    let note = if bonus.reasons.is_empty() {
        String::new()
    } else {
        format!(" ({})", bonus.reasons.join(", "))
    };
    let label = format!("{} {} check{note}", who.name, args.skill);
    ctx.record_roll(
        &label,
        i64::from(result.total),
        Some(who.target.clone()),
        RollDetail::Check(result.clone()),
    );
    ctx.commit(effects.ends)?; // a Help is spent by the check it helps
    // An active search finds what its total reaches, as passive Perception does before a turn.
    let found = if who.is_character() && needs_sight && result.automatic_failure.is_none() {
        search(ctx, result.total)?
    } else {
        Vec::new()
    };
    Ok(CheckRolled {
        creature: who.name.to_owned(),
        check: args.skill.name().to_owned(),
        reason: args.reason,
        result,
        advantage_reasons: sources,
        found,
    })
}

/// Marks found every hidden feature and exit where the party is whose DC `total` meets, and
/// returns what was found (names and descriptions; never the DCs).
pub(super) fn search(ctx: &mut ToolContext<'_>, total: i32) -> Result<Vec<String>, ToolError> {
    let Some(here) = ctx.state.party_location() else {
        return Ok(Vec::new());
    };
    let mut changes = Vec::new();
    let mut found = Vec::new();
    for f in &here.features {
        if f.hidden && !f.found && f.find_dc.is_some_and(|dc| total >= dc) {
            changes.push(Change::FeatureFound {
                location: here.id.clone(),
                feature: f.id.clone(),
            });
            found.push(format!("{}: {}", f.name, f.description));
        }
    }
    for (change, name) in here.traps_noticed_at(total) {
        changes.push(change);
        found.push(format!("a trap on {name}"));
    }
    for e in &here.exits {
        if e.hidden && e.find_dc.is_some_and(|dc| total >= dc) {
            changes.push(Change::ExitFound {
                location: here.id.clone(),
                direction: e.direction.clone(),
            });
            found.push(format!("a way {}", e.direction));
        }
    }
    ctx.commit(changes)?;
    Ok(found)
}

/// Arguments of `roll_saving_throw`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavingThrowArgs {
    /// Who saves: a character or visible monster, id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// An ability in lowercase ("dexterity").
    #[schemars(with = "String", description = "Lowercase (\"dexterity\").")]
    pub ability: Ability,
    /// The DC.
    #[schemars(extend("description" = ""))]
    pub dc: i32,
    /// From the situation; the engine adds what conditions give.
    #[schemars(extend("description" = ""))]
    pub advantage: Option<Advantage>,
    /// What the save is against, as the player sees it.
    #[schemars(extend("description" = ""))]
    pub reason: Option<String>,
    /// What it is against where a race cares; empty for none.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub against: Vec<crate::character::race::SaveAgainst>,
}

pub(super) fn roll_saving_throw(
    args: SavingThrowArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<SaveRolled, ToolError> {
    check_dc(args.dc)?;
    let who = creature::find(ctx.state, ctx.srd, &args.creature)?;
    let (mut sources, auto_fail) = save_modifiers(&who.conditions, args.ability);
    sources.extend(crate::combat::save_situation(
        ctx.state,
        who.target.id(),
        args.ability,
    ));
    add_situation(&mut sources, args.advantage);
    // Dwarven Resilience, Brave, Fey Ancestry, Gnome Cunning.
    sources.extend(crate::character::race::save_sources(
        ctx.state,
        who.target.id(),
        args.ability,
        &args.against,
    ));
    // Bless adds a d4, Bane takes one away (`effects::roll_bonus`).
    let mut bonus = ctx.roll_bonus(who.target.id(), crate::state::RollKind::Save);
    let mut result = roll_check_with(
        who.save(args.ability) + bonus.total,
        args.dc,
        &sources,
        auto_fail,
        ctx.rng,
    );
    bonus.reasons.extend(super::feature_bard::inspired_check(
        ctx,
        who.target.id(),
        &mut result,
    ));
    let label = format!("{} {} save", who.name, args.ability);
    ctx.record_roll(
        &label,
        i64::from(result.total),
        Some(who.target.clone()),
        RollDetail::Save(result.clone()),
    );
    Ok(SaveRolled {
        creature: who.name.to_owned(),
        save: args.ability.name().to_owned(),
        reason: args.reason,
        result,
        advantage_reasons: sources,
        modifier_reasons: bonus.reasons,
    })
}

pub(super) fn add_situation(sources: &mut AdvantageSources, advantage: Option<Advantage>) {
    sources.add(advantage.unwrap_or_default(), "the situation");
}

pub(super) fn check_dc(dc: i32) -> Result<(), ToolError> {
    if (1..=30).contains(&dc) {
        Ok(())
    } else {
        Err(ToolError::new(format!(
            "DC {dc} is out of range: DCs run from 1 to 30 (10 easy, 15 medium, 20 hard)"
        )))
    }
}
