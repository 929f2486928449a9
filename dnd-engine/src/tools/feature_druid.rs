//! The druid's Wild Shape through `use_feature`: `option` names the beast (an action in a
//! fight, one of two uses a short rest), or "revert" to return to the druid's own body early
//! (a bonus action, no use). The rules are `character::wild_shape`'s; the body is swapped on
//! the sheet by the timed effect (`state::timed_shape`).

use super::features::{FeatureUse, Played, refused};
use super::{ToolContext, ToolError};
use crate::character::uses;
use crate::character::wild_shape::{beast_allowed, hours, no_spells_in_shape, wild_shape_effect};
use crate::rules::Spend;
use crate::state::{Change, GameState, wild_shape_of};

/// The `option` that ends a shape early.
const REVERT: &str = "revert";

/// Wild Shape (druid 2): takes the beast's shape named by `option`, or reverts.
pub(super) fn wild_shape(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    let a = using.args;
    if a.target.is_some() || a.amount.is_some() {
        return Err(ToolError::new(
            "Wild Shape takes no target or amount: name the beast in option (\"Wolf\"), or \"revert\"",
        ));
    }
    let Some(option) = a.option.as_deref().map(str::trim) else {
        return Err(ToolError::new(format!(
            "Wild Shape needs option: the beast to become (\"Wolf\"; at druid level {} a beast of challenge {} or lower), or \"revert\"",
            c.level,
            if c.level >= 4 { "1/2" } else { "1/4" }
        )));
    };
    if option.eq_ignore_ascii_case(REVERT) {
        return revert(using, ctx);
    }
    let beast = beast_allowed(ctx.srd, using.class, c, option)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let spent = uses::spend(using.class, using.feature, c).map_err(refused)?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.push(spent);
    changes.push(Change::TimedEffectStarted {
        effect: wild_shape_effect(c, beast),
    });
    ctx.commit(changes)?;
    let h = hours(c.level);
    Ok(Played {
        effect: format!(
            "{} takes the shape of a {} for up to {h} hour{}: {} hit points, AC {}, speed {} ft.; no spells until it reverts",
            c.name,
            beast.name,
            if h == 1 { "" } else { "s" },
            beast.hit_points,
            beast.armor_class,
            beast.speed.walk
        ),
        ..Played::default()
    })
}

/// Reverting early: a bonus action in a fight; the druid's own body with its own hit points.
fn revert(using: &FeatureUse<'_>, ctx: &mut ToolContext<'_>) -> Result<Played, ToolError> {
    let c = &using.c;
    let Some(effect) = wild_shape_of(c).cloned() else {
        return Err(ToolError::new(format!(
            "{} is in its own shape: there is nothing to revert; name a beast in option to take its shape",
            c.name
        )));
    };
    let mut changes = super::features::costing(ctx, &c.id, Spend::BonusAction)?;
    changes.push(Change::TimedEffectEnded { effect });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!("{} returns to its own shape", c.name),
        ..Played::default()
    })
}

/// Refuses a spell cast by a character in a beast's shape (`cast_spell`).
pub(super) fn may_cast(state: &GameState, caster: &str) -> Result<(), ToolError> {
    match state.character(caster).and_then(no_spells_in_shape) {
        Some(why) => Err(ToolError::new(why)),
        None => Ok(()),
    }
}
