//! `use_feature`: a character spends a limited class feature (`character::uses`) and the
//! engine plays it. Second Wind (fighter 1, a bonus action: 1d10 + fighter level hit points)
//! and Action Surge (fighter 2: one more action this turn, once its action is taken). Each
//! goes through `may_act` for what it costs in a fight; a feature the character lacks, one of
//! a higher level, or one with no use left is refused with what it may use, changing nothing.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::FeatureReport;
use super::{ToolContext, ToolError};
use crate::character::uses::{self, FeatureError};
use crate::combat::may_act;
use crate::dice::DiceExpr;
use crate::rules::Spend;
use crate::state::{Change, Target};
use crate::store::RollDetail;

/// The features `use_feature` plays, by slug prefix.
const PLAYED: &[&str] = &["second-wind", "action-surge"];

/// Arguments of `use_feature`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UseFeatureArgs {
    /// A character id or name.
    pub character: String,
    /// The class feature: "second-wind" or "action-surge".
    pub feature: String,
}

fn refused(e: FeatureError) -> ToolError {
    ToolError::new(e.to_string())
}

pub(super) fn use_feature(
    args: UseFeatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<FeatureReport, ToolError> {
    let c = super::sheet::named_character(ctx.state, &args.character)?.clone();
    let (class, feature) = uses::feature_of(ctx.srd, &c, &args.feature).map_err(refused)?;
    if !PLAYED.iter().any(|p| feature.slug.starts_with(p)) {
        return Err(ToolError::new(format!(
            "{} is not used through use_feature; this tool plays: {}",
            feature.name,
            PLAYED.join(", ")
        )));
    }
    let spent = uses::spend(class, feature, &c).map_err(refused)?;
    let surge = feature.slug.starts_with("action-surge");
    let mut changes = Vec::new();
    let (mut healed, mut rolled) = (None, None);
    let effect;
    if surge {
        // Gate on the turn (any spend checks whose turn it is and that it can act), then on
        // the action: Action Surge gives a second one, so the first must be taken.
        let Some(encounter) = ctx.state.encounter.as_ref() else {
            return Err(ToolError::new(
                "Action Surge gives one more action on a turn of a fight; no fight is running",
            ));
        };
        let action_taken = encounter.budget.action_used;
        may_act(ctx.state, &c.id, Spend::Movement(0)).map_err(|e| ToolError::new(e.to_string()))?;
        if !action_taken {
            return Err(ToolError::new(format!(
                "{} still has the action this turn: take it first (roll_attack, take_action, cast_spell); Action Surge then gives one more",
                c.name
            )));
        }
        changes.push(spent);
        changes.push(Change::ActionSurged {
            character: c.id.clone(),
        });
        effect = format!("{} pushes on: one more action this turn", c.name);
    } else {
        if let Some(cost) = may_act(ctx.state, &c.id, Spend::BonusAction)
            .map_err(|e| ToolError::new(e.to_string()))?
        {
            changes.push(cost);
        }
        changes.push(spent);
        let expr = DiceExpr::parse(&format!("1d10+{}", c.level))
            .map_err(|e| ToolError::new(e.to_string()))?;
        let roll = expr
            .roll(ctx.rng)
            .map_err(|e| ToolError::new(e.to_string()))?;
        let amount = u32::try_from(roll.total().max(0)).unwrap_or(0);
        let target = Target::Character(c.id.clone());
        ctx.record_roll(
            format!("{} Second Wind", c.name),
            roll.total(),
            Some(target.clone()),
            RollDetail::Healing(roll.clone()),
        );
        changes.push(Change::Heal { target, amount });
        healed = Some(amount.min(c.hp.max.saturating_sub(c.hp.current)));
        rolled = Some(roll.to_string());
        effect = format!("{} catches a second wind", c.name);
    }
    ctx.commit(changes)?;
    let after = ctx
        .state
        .character(&c.id)
        .ok_or_else(|| ToolError::new("character vanished"))?;
    let (of, _) = uses::uses_of(class, feature, after).unwrap_or((0, crate::srd::Rest::LongRest));
    Ok(FeatureReport {
        character: after.name.clone(),
        feature: feature.name.clone(),
        effect,
        healed,
        rolled,
        hp: after.hp,
        uses_left: uses::uses_left(after, &feature.slug, of),
        uses_of: of,
    })
}
