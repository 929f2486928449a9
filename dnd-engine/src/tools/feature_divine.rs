//! Channel Divinity through `use_feature` (the rules: `character::divine`, `combat::turned`):
//! the cleric's Turn Undead (with Destroy Undead from 5th level) and the Oath of Devotion's
//! Turn the Unholy, one turning code for both; the Life domain's Preserve Life; Devotion's
//! Sacred Weapon. Each spends one use of the class's Channel Divinity pool and an action, and
//! is refused, changing nothing, when it would do nothing or break a rule. Also a turned
//! monster's turn ([`turned_turn`]): it flees its turner, or Dodges where it cannot.

use super::features::{FeatureUse, Played, refused, takes_nothing};
use super::results::TurnEvent;
use super::{ToolContext, ToolError, creature};
use crate::character::{divine, uses};
use crate::combat::{may_act, positions, turned};
use crate::rules::{Ability, Spend};
use crate::srd::{ActionSave, OnSave};
use crate::state::{Change, Target, TimedEffect, TimedKind};

/// A minute, in rounds.
const MINUTE: u32 = 10;

/// Refuses "channel-divinity" alone, which names no effect of the pool: the effects the
/// character has are listed.
fn named_effect(using: &FeatureUse<'_>) -> Result<(), ToolError> {
    let asked = crate::srd::slugify(using.args.feature.trim());
    if asked != "channel-divinity" && !asked.starts_with("channel-divinity-1") {
        return Ok(());
    }
    let effects: Vec<&str> = using
        .class
        .features
        .iter()
        .filter(|f| divine::is_channel_divinity_effect(f) && f.level <= using.c.level)
        .map(|f| f.slug.as_str())
        .collect();
    Err(ToolError::new(format!(
        "Channel Divinity is spent by one of its effects: name it as the feature ({})",
        effects.join(", ")
    )))
}

/// The Channel Divinity use and the action an effect spends, checked (uses first, then the
/// turn), or why not. "channel-divinity" alone names no effect: refused with the effects.
fn channel(using: &FeatureUse<'_>, ctx: &ToolContext<'_>) -> Result<Vec<Change>, ToolError> {
    let c = &using.c;
    let pool = divine::channel_divinity_pool(using.class)
        .ok_or_else(|| ToolError::new(format!("{} has no Channel Divinity", using.class.name)))?;
    let spent = uses::spend(using.class, pool, c).map_err(refused)?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.push(spent);
    Ok(changes)
}

/// Turn Undead (cleric 2) and Turn the Unholy (Devotion 3): each undead (and, for the
/// paladin, fiend) within 30 ft that can see or hear the turner makes a Wisdom save against
/// its spell save DC; on a failure it is turned for a minute or until it takes damage, or,
/// for a cleric's Turn Undead from 5th level, destroyed when its challenge is low enough.
pub(super) fn turn(using: &FeatureUse<'_>, ctx: &mut ToolContext<'_>) -> Result<Played, ToolError> {
    named_effect(using)?;
    takes_nothing(using)?;
    let c = &using.c;
    let turning = divine::turning(&using.feature.slug)
        .ok_or_else(|| ToolError::new(format!("{} turns nothing", using.feature.name)))?;
    let (_, dc) = c
        .spellcasting()
        .ok_or_else(|| ToolError::new(format!("{} has no spell save DC to turn with", c.name)))?;
    // What it spends is checked first: a turning with no use left is refused as such.
    let changes = channel(using, ctx)?;
    let reached = turned::turnable(ctx.state, ctx.srd, &c.id, turning.kinds);
    if reached.is_empty() {
        return Err(ToolError::new(format!(
            "{} reaches no {} within 30 ft of {} that can see or hear them: nothing to turn, so no Channel Divinity is spent",
            turning.name,
            turning.kinds.join(" or "),
            c.name
        )));
    }
    ctx.commit(changes)?;
    let save = ActionSave {
        ability: Ability::Wisdom,
        dc,
        on_success: OnSave::None,
    };
    let mut told = Vec::new();
    for id in reached {
        let Some(m) = ctx.state.monster(&id).cloned() else {
            continue;
        };
        let result = super::monster_turn::saving_throw(ctx, &id, save, turning.name, &[], None)?;
        if result.success {
            told.push(format!("{} resists ({})", m.name, result.total));
            continue;
        }
        let undead = ctx
            .srd
            .monster(&m.template)
            .ok()
            .filter(|t| t.kind.to_ascii_lowercase().starts_with("undead"));
        let destroyed = turning.destroys
            && undead.is_some_and(|t| divine::destroys(using.class, c, t.challenge_rating));
        if destroyed {
            let amount = m.hp.current;
            ctx.commit(vec![Change::Damage {
                target: Target::Monster(id.clone()),
                amount,
                critical: false,
            }])?;
            super::damage::after_damage(ctx, &id, amount, Some(&c.id))?;
            told.push(format!(
                "{} fails ({}) and is destroyed",
                m.name, result.total
            ));
            continue;
        }
        ctx.commit(vec![Change::TimedEffectStarted {
            effect: TimedEffect {
                source: c.id.clone(),
                spell: turning.name.to_owned(),
                target: id.clone(),
                concentration: false,
                rounds_left: Some(MINUTE),
                ends_on_damage: true,
                level: 0,
                at_turn_end: false,
                kind: TimedKind::Turned,
            },
        }])?;
        told.push(format!(
            "{} fails ({}) and is turned for a minute or until it takes damage",
            m.name, result.total
        ));
    }
    Ok(Played {
        effect: format!(
            "{} presents a holy symbol ({}, Wisdom save DC {dc}): {}",
            c.name,
            turning.name,
            told.join("; ")
        ),
        ..Played::default()
    })
}

/// Preserve Life (Life 2): 5 × cleric level hit points shared among creatures within 30 ft as
/// `option` splits them ("kraven: 10, wren: 5"), none raised above half its maximum, no undead
/// or construct.
pub(super) fn preserve_life(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    named_effect(using)?;
    let c = &using.c;
    let pool = divine::preserve_life_pool(c);
    let allowed = preserve_life_allowed(ctx, &c.id);
    let how = || {
        format!(
            "give the split as option (\"kraven: 10, wren: 5\"), at most {pool} hit points in all; within 30 ft, each up to half its maximum: {allowed}"
        )
    };
    if using.args.target.is_some() || using.args.amount.is_some() {
        return Err(ToolError::new(format!(
            "Preserve Life takes no target or amount: {}",
            how()
        )));
    }
    let split = using
        .args
        .option
        .as_deref()
        .ok_or_else(|| ToolError::new(how()))
        .and_then(|o| {
            divine::parse_split(o).map_err(|e| ToolError::new(format!("{e}: {}", how())))
        })?;
    let total: u32 = split.iter().map(|(_, n)| n).sum();
    if total > pool {
        return Err(ToolError::new(format!(
            "the split restores {total} hit points; Preserve Life has {pool}: {}",
            how()
        )));
    }
    let mut heals: Vec<(Target, String, u32)> = Vec::new();
    for (name, amount) in &split {
        let who = creature::find(ctx.state, ctx.srd, name)?;
        let id = who.target.id().to_owned();
        if heals.iter().any(|(t, ..)| t.id() == id) {
            return Err(ToolError::new(format!(
                "{} is named twice: {}",
                who.name,
                how()
            )));
        }
        if let Some(kind) = who.template.map(|t| t.kind.to_ascii_lowercase())
            && (kind.starts_with("undead") || kind.starts_with("construct"))
        {
            return Err(ToolError::new(format!(
                "Preserve Life has no effect on undead or constructs ({} is {kind}): {}",
                who.name,
                how()
            )));
        }
        if ctx.state.character(&id).is_some_and(|h| h.dead) {
            return Err(ToolError::new(format!("{} is dead: {}", who.name, how())));
        }
        let distance = positions::distance(ctx.state, &c.id, &id);
        if distance > turned::TURNING_RANGE_FT {
            return Err(ToolError::new(format!(
                "{} is {distance} ft away, beyond 30 ft: {}",
                who.name,
                how()
            )));
        }
        let room = divine::preserve_life_room(who.hp.0, who.hp.1);
        if *amount > room {
            return Err(ToolError::new(format!(
                "{} is at {}/{} and may be raised to half its maximum at most: up to {room}, not {amount}; {}",
                who.name,
                who.hp.0,
                who.hp.1,
                how()
            )));
        }
        heals.push((who.target.clone(), who.name.clone(), *amount));
    }
    let mut changes = channel(using, ctx)?;
    changes.extend(heals.iter().map(|(target, _, amount)| Change::Heal {
        target: target.clone(),
        amount: *amount,
    }));
    ctx.commit(changes)?;
    let told: Vec<String> = heals
        .iter()
        .map(|(_, name, amount)| format!("{name} +{amount}"))
        .collect();
    Ok(Played {
        effect: format!(
            "{} channels life itself (Preserve Life): {}",
            c.name,
            told.join(", ")
        ),
        healed: Some(total),
        rolled: None,
        ..Played::default()
    })
}

/// Who Preserve Life may heal and by how much at most, in words: "kraven up to 12, wren up to
/// 0".
fn preserve_life_allowed(ctx: &ToolContext<'_>, cleric: &str) -> String {
    let near: Vec<String> = ctx
        .state
        .characters
        .iter()
        .filter(|h| !h.dead && positions::distance(ctx.state, cleric, &h.id) <= 30)
        .map(|h| {
            format!(
                "{} up to {}",
                h.id,
                divine::preserve_life_room(h.hp.current, h.hp.max)
            )
        })
        .collect();
    near.join(", ")
}

/// Sacred Weapon (Devotion 3): for a minute the weapon named in `option` (null: the first
/// weapon on the sheet) adds the paladin's Charisma modifier (at least +1) to its attack
/// rolls, and counts as magical.
pub(super) fn sacred_weapon(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    named_effect(using)?;
    let c = &using.c;
    if using.args.target.is_some() || using.args.amount.is_some() {
        return Err(ToolError::new(
            "Sacred Weapon takes no target or amount: name the weapon as option (null: the first on the sheet)",
        ));
    }
    let weapons: Vec<&str> = c
        .attacks
        .iter()
        .filter(|a| ctx.srd.spell_named(&a.name).is_none())
        .map(|a| a.name.as_str())
        .collect();
    let weapon = match using.args.option.as_deref() {
        Some(w) => weapons
            .iter()
            .find(|n| n.eq_ignore_ascii_case(w.trim()))
            .copied()
            .ok_or_else(|| {
                ToolError::new(format!(
                    "{} holds no weapon {w:?}; weapons: {}",
                    c.name,
                    weapons.join(", ")
                ))
            })?,
        None => weapons
            .first()
            .copied()
            .ok_or_else(|| ToolError::new(format!("{} has no weapon to bless", c.name)))?,
    }
    .to_owned();
    let bonus = c.abilities.modifier(Ability::Charisma).max(1);
    let mut changes = channel(using, ctx)?;
    changes.push(Change::TimedEffectStarted {
        effect: TimedEffect {
            source: c.id.clone(),
            spell: "Sacred Weapon".to_owned(),
            target: c.id.clone(),
            concentration: false,
            rounds_left: Some(MINUTE),
            ends_on_damage: false,
            level: 0,
            at_turn_end: false,
            kind: TimedKind::BlessedWeapon {
                weapon: weapon.clone(),
                bonus,
            },
        },
    });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{}'s {weapon} shines with holy light: {bonus:+} to attack rolls with it for a minute, and it counts as magical",
            c.name
        ),
        ..Played::default()
    })
}

/// A turned monster's turn, in place of its plan: it Dashes toward the area of the room
/// farthest from its turner (provoking opportunity attacks as any move does), or, where no
/// area takes it farther away, Dodges. `None` when it is not turned.
pub(super) fn turned_turn(
    ctx: &mut ToolContext<'_>,
    monster: &str,
) -> Result<Option<Vec<TurnEvent>>, ToolError> {
    let Some(turning) =
        crate::state::turned_by(crate::state::timed_effects(ctx.state, monster)).cloned()
    else {
        return Ok(None);
    };
    let mut log = Vec::new();
    let name = ctx.state.name_of(monster);
    let turner = ctx.state.name_of(&turning.source);
    let (left, speed) = ctx
        .state
        .encounter
        .as_ref()
        .and_then(|e| {
            let slot = e.slot(monster)?;
            let speed = crate::state::speed_now(ctx.state, &slot.id, slot.speed);
            Some((e.budget.movement_left(speed), speed))
        })
        .unwrap_or((0, 0));
    let flees = turned::flight(ctx.state, ctx.srd, monster, &turning.source, left + speed);
    if let Some(planned) = flees
        && let Ok(Some(dash)) = may_act(ctx.state, monster, Spend::Dash)
    {
        ctx.commit(vec![dash])?;
        log.push(TurnEvent::Turned {
            monster: monster.to_owned(),
            turned: format!("{name}, turned by {turner}, dashes away"),
        });
        let moved = super::movement::carry_out(ctx, planned)?;
        log.push(TurnEvent::Moves {
            monster: monster.to_owned(),
            moves: moved,
        });
        return Ok(Some(log));
    }
    let dodge = crate::combat::actions::dodge(ctx.state, monster);
    let turned = match dodge {
        Ok(outcome) => {
            ctx.commit(outcome.changes)?;
            format!("{name}, turned by {turner}, has nowhere to flee and Dodges")
        }
        Err(_) => format!("{name}, turned by {turner}, cowers"),
    };
    log.push(TurnEvent::Turned {
        monster: monster.to_owned(),
        turned,
    });
    Ok(Some(log))
}
