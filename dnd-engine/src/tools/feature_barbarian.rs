//! The barbarian's features through `use_feature` (Rage, Reckless Attack, Frenzy), and the
//! hooks the attack path (`tools::combat`) calls for them: the rage's damage and Reckless
//! Attack's advantage on a melee Strength weapon attack, and the attack that keeps a rage up.
//! The rules are `character::barbarian`; how a rage lasts and ends is `state::rage`.

use super::combat::Swing;
use super::creature::CreatureInfo;
use super::features::{FeatureUse, Played, refused, takes_nothing};
use super::{ToolContext, ToolError};
use crate::character::barbarian;
use crate::character::uses;
use crate::combat::may_act;
use crate::combat::positions::Reach;
use crate::rules::{AdvantageSources, DamageDice, Spend};
use crate::state::{Change, Target, TimedKind, raging};

fn act_error(e: crate::combat::CombatError) -> ToolError {
    ToolError::new(e.to_string())
}

/// Rage (barbarian 1): a bonus action, one use of the day's rages; with the option "frenzy"
/// (Berserker 3) a frenzied rage. Refused while raging already or in heavy armour.
pub(super) fn rage(using: &FeatureUse<'_>, ctx: &mut ToolContext<'_>) -> Result<Played, ToolError> {
    let a = using.args;
    if a.target.is_some() || a.amount.is_some() {
        return Err(ToolError::new(
            "Rage takes no target or amount: the barbarian rages itself; option \"frenzy\" (Berserker 3) or null",
        ));
    }
    let c = &using.c;
    let frenzied = match a.option.as_deref().map(str::trim) {
        None => false,
        Some(o) if o.eq_ignore_ascii_case("frenzy") => {
            uses::feature_of(ctx.srd, c, "frenzy").map_err(refused)?;
            true
        }
        Some(o) => {
            return Err(ToolError::new(format!(
                "Rage has no option {o:?}: \"frenzy\" (a Berserker's, from level 3) or null"
            )));
        }
    };
    if raging(&c.timed_effects).is_some() {
        return Err(ToolError::new(format!(
            "{} is raging already; the rage lasts a minute, and ends early unconscious or after a turn without attacking or being hurt",
            c.name
        )));
    }
    if let Some(armour) = barbarian::heavy_armour(ctx.srd, &c.inventory) {
        return Err(ToolError::new(format!(
            "{} wears {armour}, heavy armour: no rage in it (take it off first)",
            c.name
        )));
    }
    let spent = uses::spend(using.class, using.feature, c).map_err(refused)?;
    let damage = barbarian::rage_damage(ctx.srd, c).unwrap_or(2);
    let mut changes = super::features::costing(ctx, &c.id, Spend::BonusAction)?;
    changes.push(spent);
    // No concentration while raging.
    if c.concentration.is_some() {
        changes.push(Change::Concentration {
            character: c.id.clone(),
            spell: None,
        });
    }
    changes.extend(
        barbarian::rage_effects(c, damage, frenzied)
            .into_iter()
            .map(|effect| Change::TimedEffectStarted { effect }),
    );
    ctx.commit(changes)?;
    let frenzy = if frenzied {
        "; in a frenzy, a melee weapon attack as a bonus action on each later turn (use_feature frenzy), and a level of exhaustion when it ends"
    } else {
        ""
    };
    Ok(Played {
        effect: format!(
            "{} rages for up to a minute: +{damage} damage on melee weapon hits with Strength, resistance to bludgeoning, piercing and slashing, advantage on Strength checks and saves, no spells{frenzy}",
            c.name
        ),
        ..Played::default()
    })
}

/// Reckless Attack (barbarian 2): decided before the first attack of a turn; no action.
pub(super) fn reckless_attack(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes_nothing(using)?;
    let c = &using.c;
    let Some(encounter) = ctx.state.encounter.as_ref() else {
        return Err(ToolError::new(
            "Reckless Attack is decided on the first attack of a turn in a fight; no fight is running",
        ));
    };
    let action_taken = encounter.budget.action_used;
    may_act(ctx.state, &c.id, Spend::Movement(0)).map_err(act_error)?;
    if barbarian::is_reckless(c) {
        return Err(ToolError::new(format!(
            "{} already attacks recklessly this turn",
            c.name
        )));
    }
    if action_taken {
        return Err(ToolError::new(format!(
            "{} has taken its action this turn: Reckless Attack is decided before the first attack of a turn (call it, then roll_attack)",
            c.name
        )));
    }
    let changes = barbarian::reckless_effects(c)
        .into_iter()
        .map(|effect| Change::TimedEffectStarted { effect })
        .collect();
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{} throws caution aside: advantage on melee Strength weapon attacks this turn, and attacks against {} have advantage until its next turn",
            c.name, c.name
        ),
        ..Played::default()
    })
}

/// Frenzy (Berserker 3): while in a frenzied rage, one melee weapon attack as a bonus action
/// (`target`; `option` the weapon, null for the first melee one).
pub(super) fn frenzy(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let a = using.args;
    let c = &using.c;
    if a.amount.is_some() {
        return Err(ToolError::new(
            "Frenzy takes no amount: a target, and the melee weapon as the option (or null)",
        ));
    }
    let frenzied = matches!(
        raging(&c.timed_effects).map(|e| &e.kind),
        Some(TimedKind::Raging { frenzied: true, .. })
    );
    if !frenzied {
        return Err(ToolError::new(format!(
            "{} is not in a frenzy: it comes with a rage begun as one (use_feature rage with option \"frenzy\")",
            c.name
        )));
    }
    let Some(target) = a.target.as_deref() else {
        return Err(ToolError::new(
            "Frenzy's attack needs a target: a creature within reach",
        ));
    };
    let melee: Vec<&str> = c
        .attacks
        .iter()
        .filter(|w| Reach::of_character_attack(ctx.srd, w).melee_ft.is_some())
        .map(|w| w.name.as_str())
        .collect();
    let weapon = match a.option.as_deref() {
        None => melee.first().copied(),
        Some(w) => melee
            .iter()
            .copied()
            .find(|m| m.eq_ignore_ascii_case(w.trim())),
    }
    .ok_or_else(|| {
        ToolError::new(format!(
            "{}'s frenzied attack is made with a melee weapon: {}",
            c.name,
            if melee.is_empty() {
                "it carries none".to_owned()
            } else {
                melee.join(", ")
            }
        ))
    })?
    .to_owned();
    let cost = super::features::costing(ctx, &c.id, Spend::BonusAction)?;
    ctx.commit(cost)?;
    let report = super::combat::attack_spent(ctx, &c.id, target, Some(&weapon), None)?;
    let swing = report.attacks.first();
    let hit = swing.is_some_and(|s| s.result.hit);
    let dealt = swing.map_or(0, |s| s.result.total_damage);
    Ok(Played {
        effect: if hit {
            format!(
                "{} strikes {} in a frenzy with its {weapon}: a hit for {dealt} damage",
                c.name, report.target
            )
        } else {
            format!(
                "{} swings at {} in a frenzy with its {weapon}, and misses",
                c.name, report.target
            )
        },
        rolled: swing.map(|s| format!("{} against AC {}", s.result.total, s.result.target_ac)),
        ..Played::default()
    })
}

/// Reckless Attack's advantage on a barbarian's melee Strength weapon attack (asked by
/// `combat::attack_setup`, so the odds see it too).
pub(super) fn attack_sources(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    swing: &Swing,
    melee: bool,
    out: &mut AdvantageSources,
) {
    if let Some(c) = ctx.state.character(who.target.id()) {
        barbarian::attack_sources(c, &swing.name, melee, out);
    }
}

/// A raging barbarian's melee Strength weapon attack: its rage damage on the weapon's damage;
/// and, made at a hostile creature, the change that keeps its rage up.
pub(super) fn on_attack(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    swing: &Swing,
    melee: bool,
    damage: &mut [DamageDice],
) -> Option<Change> {
    let c = ctx.state.character(who.target.id())?;
    raging(&c.timed_effects)?;
    if let Some(first) = damage.first_mut() {
        first.bonus += barbarian::rage_bonus(c, &swing.name, melee);
    }
    let hostile = match &victim.target {
        Target::Monster(id) => ctx.state.monster(id).is_some_and(|m| m.hostile),
        Target::Character(_) => false,
    };
    hostile.then(|| Change::RageKeptUp {
        character: c.id.clone(),
    })
}
