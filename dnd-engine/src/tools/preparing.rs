//! `prepare_spells`: a cleric, druid, paladin or wizard changes its prepared spells after a
//! long rest (`character::preparing` decides what it may prepare). Called with no spells, it
//! lists the options and changes nothing.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::SpellsPrepared;
use super::{ToolContext, ToolError};
use crate::character::preparing;

/// Arguments of `prepare_spells`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrepareSpellsArgs {
    /// A character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The spells of 1st level or higher to prepare, by name, replacing those prepared now;
    /// null to see the options without changing anything.
    #[schemars(description = "Replaces the prepared list; null: see the options.")]
    pub spells: Option<Vec<String>>,
}

pub(super) fn prepare_spells(
    args: PrepareSpellsArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<SpellsPrepared, ToolError> {
    let c = super::sheet::named_character(ctx.state, &args.character)?.clone();
    let refused = |e: preparing::PrepareError| ToolError::new(e.to_string());
    let Some(wanted) = args.spells else {
        let options = preparing::options(ctx.srd, &c).map_err(refused)?;
        let may_change_now = preparing::rested_since_preparing(&c) && ctx.state.encounter.is_none();
        return Ok(SpellsPrepared {
            character: c.name,
            changed: false,
            may_change_now,
            prepared: options.prepared,
            kept: options.kept,
            most: options.most,
            options: options.allowed,
        });
    };
    if ctx.state.encounter.is_some() {
        return Err(ToolError::new(
            "spells are prepared at the end of a long rest, not in a fight; cast from the spells prepared now",
        ));
    }
    let change = preparing::prepare(ctx.srd, &c, &wanted).map_err(refused)?;
    ctx.commit(vec![change])?;
    let after = super::sheet::named_character(ctx.state, &c.id)?.clone();
    let options = preparing::options(ctx.srd, &after).map_err(refused)?;
    Ok(SpellsPrepared {
        character: after.name,
        changed: true,
        may_change_now: false,
        prepared: options.prepared,
        kept: options.kept,
        most: options.most,
        options: Vec::new(),
    })
}
