//! The standard actions as tools: `dash`, `disengage`, `dodge`, `help`, `hide`,
//! `ready_action`, `trigger_readied`, `search`, `use_object`, `grapple`, `shove`,
//! `escape_grapple`, `stand_up`. Each parses its arguments, calls one rule in
//! `combat::actions` (which goes through the gate, `combat::may_act`), records the rolls and
//! commits the changes; a refusal commits nothing.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::ReadiedAttack;
use super::{ToolContext, ToolError};
use crate::combat::actions::{self, ActionError, ActionReport, Outcome, ShoveEffect};
use crate::rules::Skill;
use crate::store::RollDetail;

impl From<ActionError> for ToolError {
    fn from(error: ActionError) -> ToolError {
        ToolError::new(error.to_string())
    }
}

/// Records an outcome's rolls, commits its changes and returns its report.
pub(super) fn finish(
    ctx: &mut ToolContext<'_>,
    outcome: Outcome,
) -> Result<ActionReport, ToolError> {
    for roll in outcome.rolls {
        ctx.record_roll(
            roll.label,
            i64::from(roll.result.total),
            Some(roll.roller),
            RollDetail::Check(roll.result),
        );
    }
    ctx.commit(outcome.changes)?;
    Ok(outcome.report)
}

/// Arguments of the actions only a creature takes (`dash`, `disengage`, `dodge`, `hide`,
/// `escape_grapple`, `stand_up`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatureArgs {
    /// Who acts: a character or visible monster, id or name (on its turn).
    #[schemars(extend("description" = ""))]
    pub creature: String,
}

pub(super) fn dash(
    args: CreatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::dash(ctx.state, &args.creature)?;
    finish(ctx, outcome)
}

pub(super) fn disengage(
    args: CreatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::disengage(ctx.state, &args.creature)?;
    finish(ctx, outcome)
}

pub(super) fn dodge(
    args: CreatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::dodge(ctx.state, &args.creature)?;
    finish(ctx, outcome)
}

pub(super) fn hide(
    args: CreatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::hide(ctx.state, ctx.srd, &args.creature, ctx.rng)?;
    finish(ctx, outcome)
}

pub(super) fn escape_grapple(
    args: CreatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    // No one grapples it but a spell holds it (Web): the action breaks free of that instead.
    let grappled = ctx
        .state
        .character(&args.creature)
        .map(|c| c.conditions)
        .or_else(|| ctx.state.monster(&args.creature).map(|m| m.conditions))
        .is_some_and(|c| c.has(crate::rules::Condition::Grappled));
    let outcome = match actions::spell_hold(ctx.state, &args.creature).filter(|_| !grappled) {
        Some(hold) => actions::escape_spell(ctx.state, ctx.srd, &args.creature, hold, ctx.rng)?,
        None => actions::escape_grapple(ctx.state, ctx.srd, &args.creature, ctx.rng)?,
    };
    finish(ctx, outcome)
}

pub(super) fn stand_up(
    args: CreatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::stand_up(ctx.state, &args.creature)?;
    finish(ctx, outcome)
}

/// Arguments of `first_aid`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FirstAidArgs {
    /// Who tends the wounds (on its turn in a fight): id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// The dying character, within 5 ft: id or name.
    #[schemars(extend("description" = ""))]
    pub patient: String,
}

pub(super) fn first_aid(
    args: FirstAidArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::first_aid(ctx.state, ctx.srd, &args.creature, &args.patient, ctx.rng)?;
    finish(ctx, outcome)
}

/// Arguments of `help`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HelpArgs {
    /// Who helps (on its turn): id or name.
    #[schemars(extend("description" = ""))]
    pub helper: String,
    /// The ally helped: id or name.
    #[schemars(extend("description" = ""))]
    pub ally: String,
    /// The foe the ally will attack (within 5 ft of the helper), or null to help the ally's
    /// next ability check.
    #[schemars(description = "The foe the ally will attack; null: its next check.")]
    pub target: Option<String>,
}

pub(super) fn help(args: HelpArgs, ctx: &mut ToolContext<'_>) -> Result<ActionReport, ToolError> {
    let outcome = actions::help(ctx.state, &args.helper, &args.ally, args.target.as_deref())?;
    finish(ctx, outcome)
}

/// Arguments of `ready_action`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadyArgs {
    /// Who readies (on its turn): id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// The circumstance that sets it off, in a short sentence.
    #[schemars(description = "What sets it off.")]
    pub trigger: String,
    /// The attack readied (weapon or action name), or null for the first on the sheet.
    #[schemars(description = "Null: the first on the sheet.")]
    pub attack: Option<String>,
    /// Whom it will attack, or null for whoever sets it off.
    #[schemars(description = "Null: whoever sets it off.")]
    pub target: Option<String>,
}

pub(super) fn ready_action(
    args: ReadyArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::ready(
        ctx.state,
        &args.creature,
        &args.trigger,
        args.attack.as_deref(),
        args.target.as_deref(),
    )?;
    finish(ctx, outcome)
}

/// Arguments of `trigger_readied`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggerArgs {
    /// Who readied the action: id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// The creature whose act set it off: id or name.
    #[schemars(extend("description" = ""))]
    pub triggered_by: String,
}

pub(super) fn trigger_readied(
    args: TriggerArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ReadiedAttack, ToolError> {
    let triggered = actions::trigger_readied(ctx.state, &args.creature, &args.triggered_by)?;
    ctx.commit(triggered.changes)?;
    let attack = super::combat::attack_spent(
        ctx,
        &args.creature,
        &triggered.target,
        triggered.attack.as_deref(),
        None,
    )?;
    Ok(ReadiedAttack {
        reaction: "readied attack".to_owned(),
        triggered_by: args.triggered_by,
        attack,
    })
}

/// The skill of a search.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SearchSkill {
    /// Looking and listening: hidden foes, hidden things in sight.
    Perception,
    /// Working out from clues where something is.
    Investigation,
}

/// Arguments of `search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Who searches (on its turn): id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// Perception or investigation.
    #[schemars(extend("description" = ""))]
    pub skill: SearchSkill,
}

pub(super) fn search(
    args: SearchArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let skill = match args.skill {
        SearchSkill::Perception => Skill::Perception,
        SearchSkill::Investigation => Skill::Investigation,
    };
    let outcome = actions::search(ctx.state, ctx.srd, &args.creature, skill, ctx.rng)?;
    let total = outcome.report.check.as_ref().map(|c| c.total);
    let searcher = ctx.state.character(&args.creature).is_some();
    let mut report = finish(ctx, outcome)?;
    // A hero's search also finds the room's hidden features and exits, as roll_skill_check does.
    if let (Some(total), true) = (total, searcher) {
        let found = super::checks::search(ctx, total)?;
        report.found = found;
    }
    Ok(report)
}

/// Arguments of `use_object`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UseObjectArgs {
    /// Who uses it (on its turn in a fight): id or name.
    #[schemars(extend("description" = ""))]
    pub creature: String,
    /// The object, as the story names it ("the lever", "the brazier"); items carried are
    /// used with use_item.
    #[schemars(description = "As the story names it (\"the lever\").")]
    pub object: String,
}

pub(super) fn use_object(
    args: UseObjectArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::use_object(ctx.state, &args.creature, &args.object)?;
    let report = finish(ctx, outcome)?;
    // Using a trapped feature sets its trap off, a known one too: this is the deliberate act.
    super::traps::on_touch(
        ctx,
        &args.creature,
        &args.object,
        super::traps::Touch::OnPurpose,
    )?;
    Ok(report)
}

/// Arguments of `grapple`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrappleArgs {
    /// Who grapples (one attack of its Attack action): id or name.
    #[schemars(extend("description" = ""))]
    pub attacker: String,
    /// Whom: no more than one size larger, within 5 ft.
    #[schemars(extend("description" = ""))]
    pub target: String,
}

pub(super) fn grapple(
    args: GrappleArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let outcome = actions::grapple(ctx.state, ctx.srd, &args.attacker, &args.target, ctx.rng)?;
    finish(ctx, outcome)
}

/// Arguments of `shove`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShoveArgs {
    /// Who shoves (one attack of its Attack action): id or name.
    #[schemars(extend("description" = ""))]
    pub attacker: String,
    /// Whom: no more than one size larger, within 5 ft.
    #[schemars(extend("description" = ""))]
    pub target: String,
    /// Knock it prone, or push it 5 ft away.
    #[schemars(extend("description" = ""))]
    pub effect: ShoveEffect,
}

pub(super) fn shove(args: ShoveArgs, ctx: &mut ToolContext<'_>) -> Result<ActionReport, ToolError> {
    let outcome = actions::shove(
        ctx.state,
        ctx.srd,
        &args.attacker,
        &args.target,
        args.effect,
        ctx.rng,
    )?;
    finish(ctx, outcome)
}
