//! `command_summon`: a caster names the foe one of its summoned creatures attacks on its next
//! turn (`state::summons`, played by `combat::summon_plan`). Legal only for the caster's own
//! summon, against a hostile monster still fighting where it is; Animate Dead's command costs
//! the caster's bonus action and reaches 60 ft, Conjure Animals' is a word and costs nothing
//! (`effects::Command`).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolContext, ToolError};
use crate::combat::actions::{ActionReport, StandardAction};
use crate::rules::Spend;
use crate::state::Change;

/// How far Animate Dead's command reaches (the SRD: "within 60 feet of you").
const COMMAND_FT: u32 = 60;

/// Arguments of `command_summon`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandSummonArgs {
    /// The caster who summoned it: a character id or name.
    #[schemars(extend("description" = ""))]
    pub caster: String,
    /// The summoned creature, by id (as `cast_spell` gave it).
    #[schemars(extend("description" = ""))]
    pub summon: String,
    /// The hostile monster it attacks on its next turn, by id or name.
    #[schemars(extend("description" = ""))]
    pub target: String,
}

pub(super) fn command_summon(
    args: CommandSummonArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ActionReport, ToolError> {
    let caster = ctx
        .state
        .character(&args.caster)
        .ok_or_else(|| ToolError::new(format!("{:?} is not a character", args.caster)))?;
    let (caster_id, caster_name) = (caster.id.clone(), caster.name.clone());
    let own: Vec<String> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.is_summon() && m.summoned.as_ref().is_some_and(|s| s.by == caster_id))
        .map(|m| m.id.clone())
        .collect();
    let summon = ctx
        .state
        .monster(&args.summon)
        .filter(|m| m.is_summon())
        .filter(|m| own.iter().any(|o| o == &m.id))
        .ok_or_else(|| {
            ToolError::new(format!(
                "{:?} is not a summoned creature of {caster_name}; {caster_name}'s summons: {}",
                args.summon,
                if own.is_empty() {
                    "none".to_owned()
                } else {
                    own.join(", ")
                }
            ))
        })?
        .clone();
    if summon.summoned.as_ref().is_some_and(|s| s.no_attacks) {
        return Err(ToolError::new(format!(
            "{} cannot attack (a familiar): there is no foe to command it at",
            summon.name
        )));
    }
    let foes: Vec<&crate::state::MonsterInstance> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.hostile && m.is_fighting() && m.location == summon.location)
        .collect();
    let target = foes
        .iter()
        .find(|m| {
            m.id.eq_ignore_ascii_case(&args.target) || m.name.eq_ignore_ascii_case(&args.target)
        })
        .map(|m| m.id.clone())
        .ok_or_else(|| {
            let ids: Vec<&str> = foes.iter().map(|m| m.id.as_str()).collect();
            ToolError::new(format!(
                "{} may be commanded to attack a hostile monster still fighting where it is; {:?} is none (foes: {})",
                summon.name,
                args.target,
                if ids.is_empty() { "none".to_owned() } else { ids.join(", ") }
            ))
        })?;
    let bonus_action = summon
        .summoned
        .as_ref()
        .is_some_and(|s| s.bonus_action_command);
    if bonus_action {
        let far = crate::combat::positions::distance(ctx.state, &caster_id, &summon.id);
        if far > COMMAND_FT {
            return Err(ToolError::new(format!(
                "{} is {far} ft from {caster_name}: its command reaches {COMMAND_FT} ft",
                summon.name
            )));
        }
        super::encounter::act(ctx, &caster_id, Spend::BonusAction)?;
    } else if !ctx.state.character(&caster_id).is_some_and(|c| c.can_act()) {
        return Err(ToolError::new(format!(
            "{caster_name} cannot act, and so cannot command"
        )));
    }
    ctx.commit(vec![Change::SummonCommanded {
        monster: summon.id.clone(),
        target: Some(target.clone()),
    }])?;
    Ok(ActionReport {
        creature: caster_name,
        action: StandardAction::CommandSummon,
        success: true,
        text: format!(
            "{} will attack {} on its next turn{}",
            summon.name,
            ctx.state.name_of(&target),
            if bonus_action {
                " (a bonus action)"
            } else {
                ""
            }
        ),
        check: None,
        contest: None,
        advantage_reasons: Default::default(),
        found: Vec::new(),
    })
}

/// As a summon takes its turn: the command it was given is spent (a new turn needs a new one).
pub(super) fn command_spent(ctx: &mut ToolContext<'_>, monster: &str) -> Result<(), ToolError> {
    let commanded = ctx
        .state
        .monster(monster)
        .and_then(|m| m.summoned.as_ref())
        .is_some_and(|s| s.command.is_some());
    if commanded {
        ctx.commit(vec![Change::SummonCommanded {
            monster: monster.to_owned(),
            target: None,
        }])?;
    }
    Ok(())
}
