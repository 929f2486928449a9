//! The Pact of the Chain on the tools' paths (rules: `character::pact_chain`): Find Familiar's
//! special forms for a chain warlock ([`familiar_forms`], from `tools::spell_summons`), and
//! `use_feature` "pact-of-the-chain": the warlock forgoes one attack of its Attack action and
//! its familiar makes one attack with its reaction ([`familiar_attack`]).

use super::features::{FeatureUse, Played};
use super::{ToolContext, ToolError};
use crate::character::pact_chain::{self, CHAIN_FORMS, FIND_FAMILIAR};
use crate::effects::Summon;
use crate::rules::Spend;
use crate::srd::Spell;
use crate::state::Character;

/// The summoning `spell` makes for `caster` with `choice`: Find Familiar with the special
/// forms added for a chain warlock; a special form asked by anyone else is refused with what
/// the spell allows. Any other summoning is as its data says.
pub(super) fn familiar_forms(
    ctx: &ToolContext<'_>,
    caster: &Character,
    spell: &Spell,
    summon: &Summon,
    choice: Option<&str>,
) -> Result<Summon, ToolError> {
    if spell.slug != FIND_FAMILIAR {
        return Ok(summon.clone());
    }
    if pact_chain::chained(ctx.srd, caster) {
        return Ok(pact_chain::with_chain_forms(summon));
    }
    // A count before the creature ("1 imp") is read by the summoning itself.
    let asked = choice.map(|c| c.trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == ' '));
    if asked.is_some_and(pact_chain::chain_form) {
        return Err(ToolError::new(format!(
            "{} is a form only a warlock's Pact of the Chain gives its familiar ({}); {} may call {}",
            asked.unwrap_or_default().trim(),
            CHAIN_FORMS.join(", "),
            caster.name,
            summon.describe()
        )));
    }
    Ok(summon.clone())
}

/// Pact of the Chain (warlock 3): when the warlock takes the Attack action, it forgoes one of
/// its attacks (spent as one, taking the action if it is the first) and its familiar makes one
/// attack of its own at `target` with its reaction; `option` names the familiar's attack (null:
/// its first). In a fight only: refused without a familiar, with its reaction spent, or out
/// of the warlock's turn.
pub(super) fn familiar_attack(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    super::features::takes(using, true, true)?;
    let c = &using.c;
    if !crate::character::features::chose(c, pact_chain::PACT_OF_THE_CHAIN) {
        return Err(ToolError::new(format!(
            "{}'s pact boon is not the Pact of the Chain (chosen: {}): no familiar strikes for it",
            c.name,
            c.choices
                .get("pact-boon")
                .map_or_else(|| "none".to_owned(), |p| p.join(", "))
        )));
    }
    let Some(familiar) = pact_chain::familiar_of(ctx.state, c) else {
        return Err(ToolError::new(format!(
            "{} has no familiar: cast Find Familiar first (as a ritual, outside a fight)",
            c.name
        )));
    };
    let (familiar_id, familiar_name) = (familiar.id.clone(), familiar.name.clone());
    if ctx.state.encounter.is_none() {
        return Err(ToolError::new(
            "the familiar's attack takes one of the warlock's attacks in a fight; no fight is running (roll_attack starts one)",
        ));
    }
    let Some(named) = using.args.target.as_deref() else {
        return Err(ToolError::new(format!(
            "the Pact of the Chain needs a target: the creature {familiar_name} attacks"
        )));
    };
    let target = super::creature::find(ctx.state, ctx.srd, named)?;
    if target.target.id() == familiar_id || target.target.id() == c.id {
        return Err(ToolError::new(format!(
            "{familiar_name} attacks a foe, not {}",
            target.name
        )));
    }
    let target_id = target.target.id().to_owned();
    let own = super::features::costing(ctx, &c.id, Spend::Attack)?;
    let reaction = crate::combat::may_act(ctx.state, &familiar_id, Spend::Reaction)
        .map_err(|e| ToolError::new(format!("{e}: it cannot attack for {} now", c.name)))?;
    let mut changes = own;
    changes.extend(reaction);
    ctx.commit(changes)?;
    let attack = using.args.option.as_deref();
    let report = super::combat::attack_spent(ctx, &familiar_id, &target_id, attack, None)?;
    Ok(Played {
        effect: format!(
            "{} forgoes an attack: {familiar_name} strikes at {} with its reaction",
            c.name, target.name
        ),
        strikes: vec![report],
        ..Played::default()
    })
}
