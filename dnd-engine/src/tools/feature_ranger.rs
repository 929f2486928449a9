//! The ranger's features on the tools' paths: Favored Enemy's advantage and Natural Explorer's
//! doubled proficiency on a check about its subject (`roll_skill_check`), Colossus Slayer's
//! 1d8 on a weapon hit (`tools::combat`), and Primeval Awareness through `use_feature`. The
//! rules are `character::ranger`.

use super::combat::Swing;
use super::creature::CreatureInfo;
use super::features::{FeatureUse, Played};
use super::{ToolContext, ToolError};
use crate::character::ranger::{self, COLOSSUS_SLAYER};
use crate::rules::{AdvantageSources, DamageDice, Skill, Spend};
use crate::state::{Change, TimedEffect, TimedKind};

/// A character's check with `skill` about `subject`: Favored Enemy's advantage (added to
/// `sources`), and Natural Explorer's bonus (returned, 0 when none).
pub(super) fn check_about(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    skill: Skill,
    subject: Option<&str>,
    sources: &mut AdvantageSources,
) -> i32 {
    let (Some(subject), Some(c)) = (subject, ctx.state.character(who.target.id())) else {
        return 0;
    };
    if ranger::favored_enemy_check(ctx.srd, ctx.state, c, skill, subject) {
        sources.advantage("Favored Enemy");
    }
    ranger::natural_explorer_bonus(ctx.srd, c, skill, subject)
}

/// Colossus Slayer on a hunter's weapon swing at a hurt creature: its 1d8 (of the weapon's
/// damage type) on the damage, and, on the hunter's own turn, the marker a hit starts so it
/// comes once a turn (commit it only when the swing lands).
pub(super) fn colossus_slayer(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    swing: &Swing,
    damage: &mut Vec<DamageDice>,
) -> Option<Change> {
    let c = ctx.state.character(who.target.id())?;
    let weapon = ctx.srd.spell_named(&swing.name).is_none();
    if !weapon || !ranger::colossus_slayer(ctx.srd, c, victim.hp) {
        return None;
    }
    let kind = swing.damage.first()?.kind;
    damage.push(DamageDice::new(1, 8, 0, kind));
    let own = own_turn(ctx, &c.id);
    own.then(|| this_turn(&c.id, COLOSSUS_SLAYER, TimedKind::UsedThisTurn))
}

/// Whether it is character `id`'s turn in a fight.
pub(super) fn own_turn(ctx: &ToolContext<'_>, id: &str) -> bool {
    ctx.state
        .turn_now()
        .is_some_and(|now| now.eq_ignore_ascii_case(id))
}

/// A marker `spell` of `kind` on character `c` that ends with its own turn (a once-a-turn
/// feature spent, a record of the turn).
pub(super) fn this_turn(c: &str, spell: &str, kind: TimedKind) -> Change {
    Change::TimedEffectStarted {
        effect: TimedEffect {
            source: c.to_owned(),
            spell: spell.to_owned(),
            target: c.to_owned(),
            concentration: false,
            rounds_left: Some(1),
            ends_on_damage: false,
            level: 0,
            at_turn_end: true,
            kind,
        },
    }
}

/// Primeval Awareness (ranger 3): an action and a spell slot (`amount`, its level; null for the
/// lowest left) to sense which of its creature types are about.
pub(super) fn primeval_awareness(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    if using.args.target.is_some() || using.args.option.is_some() {
        return Err(ToolError::new(
            "Primeval Awareness takes no target or option: the amount is the spell slot's level (or null for the lowest left)",
        ));
    }
    let left: Vec<u8> = (1..=5)
        .filter(|l| c.spell_slots.available(*l) > 0)
        .collect();
    let slot = match using.args.amount {
        None => left.first().copied(),
        Some(n) => u8::try_from(n).ok().filter(|l| left.contains(l)),
    }
    .ok_or_else(|| {
        ToolError::new(format!(
            "Primeval Awareness spends a spell slot; {} has {}",
            c.name,
            if left.is_empty() {
                "none left".to_owned()
            } else {
                format!(
                    "slots of level {} left",
                    left.iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ))
    })?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.push(Change::SlotSpent {
        character: c.id.clone(),
        level: slot,
    });
    ctx.commit(changes)?;
    let sensed = ranger::primeval_awareness(ctx.srd, ctx.state);
    let what = if sensed.is_empty() {
        "none of aberrations, celestials, dragons, elementals, fey, fiends or undead".to_owned()
    } else {
        sensed.join(", ")
    };
    Ok(Played {
        effect: format!(
            "{} attunes to the land for {slot} minute(s) and senses {what} within a mile (not where, nor how many)",
            c.name
        ),
        ..Played::default()
    })
}
