//! The paladin's features through `use_feature` (the rules: `character::divine`): Divine
//! Smite readied for the next melee weapon hit ([`smite_rider`] adds it to the hit in
//! `tools::combat`), Lay on Hands from its pool of hit points, Divine Sense. Each is refused,
//! changing nothing, when the rules do not allow it, with what is allowed.
//!
//! Why Divine Smite is readied rather than an argument of `roll_attack`: the SRD decides the
//! smite once the hit is known, and the hit is rolled inside `roll_attack`. Readying it first
//! (`use_feature`, the slot level as `amount`) and spending the slot only when a melee weapon
//! hit lands keeps the player's choice, costs nothing on a miss, needs no change to the
//! attack's arguments, and rides the hit the way Branding Smite's dice do (a timed effect the
//! hit reads), so the smite's dice are part of the hit's damage, doubled on a critical.

use super::features::{FeatureUse, Played, refused, takes_nothing};
use super::{ToolContext, ToolError, creature};
use crate::character::{divine, uses};
use crate::combat::positions;
use crate::rules::{Condition, DamageDice, DamageType, Spend};
use crate::state::{Change, TimedEffect, TimedKind};

/// Divine Smite (paladin 2), readied: the next melee weapon hit before the paladin's next turn
/// spends a slot of level `amount` (null: the lowest it has) for 2d8 radiant, 1d8 more a
/// level above 1st (at most 5d8), 1d8 more against an undead or fiend. `option` may name the
/// weapon it will strike with, refused when that is a ranged weapon.
pub(super) fn divine_smite(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    if using.args.target.is_some() {
        return Err(ToolError::new(
            "Divine Smite takes no target: it rides the next melee weapon hit, on whoever it strikes",
        ));
    }
    let melee: Vec<&str> = c
        .attacks
        .iter()
        .filter(|a| ctx.srd.spell_named(&a.name).is_none())
        .filter(|a| {
            positions::Reach::of_character_attack(ctx.srd, a)
                .melee_ft
                .is_some()
        })
        .map(|a| a.name.as_str())
        .collect();
    if let Some(weapon) = using.args.option.as_deref()
        && !melee.iter().any(|m| m.eq_ignore_ascii_case(weapon.trim()))
    {
        return Err(ToolError::new(format!(
            "Divine Smite rides a melee weapon hit; {weapon:?} is not one of {}'s melee weapons: {}",
            c.name,
            if melee.is_empty() {
                "none".to_owned()
            } else {
                melee.join(", ")
            }
        )));
    }
    if melee.is_empty() {
        return Err(ToolError::new(format!(
            "{} has no melee weapon to smite with",
            c.name
        )));
    }
    let available = c.spell_slots.describe_available();
    let slot = match using.args.amount {
        Some(level) => u8::try_from(level).unwrap_or(u8::MAX),
        None => (1..=9)
            .find(|l| c.spell_slots.available(*l) > 0)
            .unwrap_or(1),
    };
    if !(1..=9).contains(&slot) || c.spell_slots.available(slot) == 0 {
        return Err(ToolError::new(format!(
            "{} has no spell slot of level {slot} to smite with; slots left: {available}",
            c.name
        )));
    }
    if let Some((_, readied)) = crate::state::smite_ready(&c.timed_effects) {
        return Err(ToolError::new(format!(
            "{} has a smite readied already (a level-{readied} slot): it rides the next melee weapon hit",
            c.name
        )));
    }
    ctx.commit(vec![Change::TimedEffectStarted {
        effect: TimedEffect {
            source: c.id.clone(),
            spell: "Divine Smite".to_owned(),
            target: c.id.clone(),
            concentration: false,
            rounds_left: Some(1),
            ends_on_damage: false,
            level: slot,
            at_turn_end: false,
            kind: TimedKind::SmiteReady { slot },
        },
    }])?;
    Ok(Played {
        effect: format!(
            "{} readies a smite: the next melee weapon hit spends a level-{slot} slot for {}d8 radiant ({} against an undead or fiend); a miss spends nothing",
            c.name,
            divine::smite_dice(slot, false),
            divine::smite_dice(slot, true)
        ),
        ..Played::default()
    })
}

/// The readied smite a swing carries: its radiant dice and the changes a landed hit commits
/// (the slot spent, the readiness ended). Only a character's melee weapon attack (not a
/// spell's) with a slot of the readied level still left; otherwise `None`, and the smite
/// stays readied.
pub(super) fn smite_rider(
    ctx: &ToolContext<'_>,
    who: &creature::CreatureInfo<'_>,
    victim: &creature::CreatureInfo<'_>,
    weapon: &str,
    melee: bool,
) -> Option<(DamageDice, Vec<Change>)> {
    let c = ctx.state.character(who.target.id())?;
    if !melee || ctx.srd.spell_named(weapon).is_some() {
        return None;
    }
    let (effect, slot) = crate::state::smite_ready(&c.timed_effects)?;
    if c.spell_slots.available(slot) == 0 {
        return None;
    }
    let holy_foe = victim.template.is_some_and(|t| {
        let kind = t.kind.to_ascii_lowercase();
        kind.starts_with("undead") || kind.starts_with("fiend")
    });
    let dice = DamageDice::new(
        divine::smite_dice(slot, holy_foe),
        8,
        0,
        DamageType::Radiant,
    );
    Some((
        dice,
        vec![
            Change::SlotSpent {
                character: c.id.clone(),
                level: slot,
            },
            Change::TimedEffectEnded {
                effect: effect.clone(),
            },
        ],
    ))
}

/// Lay on Hands (paladin 1): an action and a touch; `amount` hit points from the pool (5 ×
/// paladin level a long rest), at most what the creature is missing; or `option` "poison" for
/// 5 of the pool to end its poisoned condition. Not on undead or constructs.
pub(super) fn lay_on_hands(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    let of = uses::uses_of(using.class, using.feature, c).map_or(0, |(of, _)| of);
    let left = uses::uses_left(c, &using.feature.slug, of);
    let how = format!(
        "name the creature touched as target, and either amount (hit points, 1 to {left} left of {of}) or option \"poison\" (5 points: ends the poisoned condition)"
    );
    let Some(target) = using.args.target.as_deref() else {
        return Err(ToolError::new(format!("Lay on Hands needs a touch: {how}")));
    };
    let who = creature::find(ctx.state, ctx.srd, target)?;
    if let Some(kind) = who.template.map(|t| t.kind.to_ascii_lowercase())
        && (kind.starts_with("undead") || kind.starts_with("construct"))
    {
        return Err(ToolError::new(format!(
            "Lay on Hands has no effect on undead or constructs ({} is {kind})",
            who.name
        )));
    }
    if ctx.state.character(who.target.id()).is_some_and(|h| h.dead) {
        return Err(ToolError::new(format!("{} is dead", who.name)));
    }
    let distance = positions::distance(ctx.state, &c.id, who.target.id());
    if distance > 5 {
        return Err(ToolError::new(format!(
            "Lay on Hands is a touch: {} is {distance} ft from {}; move within 5 ft first",
            who.name, c.name
        )));
    }
    let (count, change, told, healed) = match (using.args.amount, using.args.option.as_deref()) {
        (Some(_), Some(_)) | (None, None) => return Err(ToolError::new(how)),
        (None, Some(cure)) => {
            let cure = cure.trim().to_ascii_lowercase();
            if cure.contains("disease") {
                return Err(ToolError::new(format!(
                    "no disease is kept in this game: Lay on Hands cures a poison here (option \"poison\"); {how}"
                )));
            }
            if !cure.contains("poison") {
                return Err(ToolError::new(how));
            }
            if !who.conditions.has(Condition::Poisoned) {
                return Err(ToolError::new(format!(
                    "{} is not poisoned: nothing to cure; {how}",
                    who.name
                )));
            }
            let change = Change::ConditionRemoved {
                target: who.target.clone(),
                condition: Condition::Poisoned,
            };
            let told = format!("{} is no longer poisoned", who.name);
            (divine::LAY_ON_HANDS_CURE, change, told, None)
        }
        (Some(amount), None) => {
            let missing = who.hp.1.saturating_sub(who.hp.0);
            if amount == 0 || amount > missing {
                return Err(ToolError::new(format!(
                    "{} is missing {missing} hit points: restore 1 to {}; {how}",
                    who.name,
                    missing.min(u32::from(left))
                )));
            }
            let change = Change::Heal {
                target: who.target.clone(),
                amount,
            };
            let told = format!("{} regains {amount} hit points", who.name);
            (
                u8::try_from(amount).unwrap_or(u8::MAX),
                change,
                told,
                Some(amount),
            )
        }
    };
    let spent = uses::spend_many(using.class, using.feature, c, count).map_err(refused)?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.extend([spent, change]);
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!("{} lays on hands: {told}", c.name),
        healed,
        rolled: None,
        ..Played::default()
    })
}

/// Divine Sense (paladin 1): an action, 1 + Charisma modifier uses a long rest; the paladin
/// learns what celestials, fiends and undead are within 60 ft and not behind total cover, and
/// where: by name those the party has seen, by kind the others.
pub(super) fn divine_sense(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes_nothing(using)?;
    let c = &using.c;
    let spent = uses::spend(using.class, using.feature, c).map_err(refused)?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.push(spent);
    let sensed: Vec<String> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.is_alive() && m.location.eq_ignore_ascii_case(&c.location))
        .filter_map(|m| {
            let kind = ctx.srd.monster(&m.template).ok()?.kind.to_ascii_lowercase();
            let sort = ["celestial", "fiend", "undead"]
                .into_iter()
                .find(|k| kind.starts_with(k))?;
            let distance = positions::distance(ctx.state, &c.id, &m.id);
            let hidden = positions::cover_against(ctx.state, &c.id, &m.id).is_err();
            (distance <= 60 && !hidden).then(|| {
                let who = if m.revealed {
                    format!("{} ({sort})", m.name)
                } else {
                    format!("an unseen {sort}")
                };
                let place = positions::area_of(ctx.state, &m.id)
                    .map(|a| format!(", at {}", a.name))
                    .unwrap_or_default();
                format!("{who}, {distance} ft away{place}")
            })
        })
        .collect();
    ctx.commit(changes)?;
    let effect = if sensed.is_empty() {
        format!(
            "{} senses no celestial, fiend or undead within 60 ft",
            c.name
        )
    } else {
        format!("{} senses {}", c.name, sensed.join("; "))
    };
    Ok(Played {
        effect,
        ..Played::default()
    })
}
