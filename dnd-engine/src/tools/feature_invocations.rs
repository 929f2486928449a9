//! Two invocations `use_feature` plays: One with Shadows (warlock 5), an action in dim light
//! or darkness that makes the warlock invisible until it moves, acts or reacts (ended here for
//! every commit that spends its movement, action or reaction: [`shadows_end`]), refused in
//! bright light; and Gaze of Two Minds, an action touching an ally humanoid whose senses the
//! warlock borrows until the end of its next turn, blinded and deafened meanwhile to its own
//! surroundings (what it perceives through the ally is the narrator's).

use super::features::{FeatureUse, Played, takes};
use super::{ToolContext, ToolError, creature};
use crate::character::warlock;
use crate::rules::{CastingTime, Condition, Spend};
use crate::state::{Change, Character, GameState, Light, TimedEffect, TimedKind};

/// What One with Shadows' timed effect is called.
const ONE_WITH_SHADOWS: &str = "One with Shadows";

/// What Gaze of Two Minds' timed effects are called.
const GAZE: &str = "Gaze of Two Minds";

/// The invocation's refusal when `c` did not take it.
fn invoked(c: &Character, slug: &str, name: &str) -> Result<(), ToolError> {
    if warlock::invoked(c, slug) {
        return Ok(());
    }
    let chosen = c
        .choices
        .get(warlock::INVOCATIONS)
        .map_or("none".to_owned(), |p| p.join(", "));
    Err(ToolError::new(format!(
        "{} did not take the invocation {name} (its invocations: {chosen})",
        c.name
    )))
}

/// One with Shadows (warlock 5): in dim light or darkness, an action makes the warlock
/// invisible until it moves or takes an action or a reaction.
pub(super) fn one_with_shadows(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, false, false)?;
    let c = &using.c;
    invoked(c, "one-with-shadows", ONE_WITH_SHADOWS)?;
    let light = ctx
        .state
        .party_location()
        .map_or(Light::Bright, |l| l.light);
    if light == Light::Bright {
        return Err(ToolError::new(format!(
            "One with Shadows needs dim light or darkness; {} stands in bright light",
            c.name
        )));
    }
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.push(Change::TimedEffectStarted {
        effect: TimedEffect {
            source: c.id.clone(),
            spell: ONE_WITH_SHADOWS.to_owned(),
            target: c.id.clone(),
            concentration: false,
            rounds_left: None,
            ends_on_damage: false,
            level: 0,
            at_turn_end: false,
            kind: TimedKind::ConditionUntil {
                condition: Condition::Invisible,
                escape: None,
                ends_on_acting: true,
            },
        },
    });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{} becomes one with the shadows: invisible until it moves or takes an action or a reaction",
            c.name
        ),
        ..Played::default()
    })
}

/// The One with Shadows effects `changes` end: those of each creature whose movement, action
/// or reaction they spend (an attack or a spell ends it by itself, `effects::acting_ends`).
pub(super) fn shadows_end(state: &GameState, changes: &[Change]) -> Vec<Change> {
    let mut ends: Vec<Change> = Vec::new();
    for change in changes {
        let Change::Spent { creature, spend } = change else {
            continue;
        };
        let acts = match spend {
            Spend::Movement(feet) => *feet > 0,
            Spend::BonusAction | Spend::BonusDash | Spend::BonusDisengage => false,
            Spend::Spell { casting, .. } => *casting != CastingTime::BonusAction,
            _ => true,
        };
        if !acts {
            continue;
        }
        for e in crate::state::timed_effects(state, creature) {
            let end = Change::TimedEffectEnded { effect: e.clone() };
            if e.spell == ONE_WITH_SHADOWS && !ends.contains(&end) {
                ends.push(end);
            }
        }
    }
    ends
}

/// Gaze of Two Minds: an action touching a willing humanoid (an ally: another character, or
/// a humanoid that is not hostile); until the end of the warlock's next turn it perceives
/// through the ally's senses and is blinded and deafened as to its own surroundings. An action
/// on a later turn while it lasts keeps the link (no touch needed) to the end of the next.
pub(super) fn gaze_of_two_minds(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, true, false)?;
    let c = &using.c;
    invoked(c, "gaze-of-two-minds", GAZE)?;
    let Some(target) = using.args.target.as_deref() else {
        return Err(ToolError::new(
            "Gaze of Two Minds needs a target: the willing humanoid ally the warlock touches",
        ));
    };
    let ally = creature::find(ctx.state, ctx.srd, target)?;
    if ally.target.id() == c.id {
        return Err(ToolError::new(
            "Gaze of Two Minds borrows another creature's senses: name an ally, not the warlock",
        ));
    }
    let willing = match ctx.state.monster(ally.target.id()) {
        None => ally.standing,
        Some(m) => !m.hostile && m.kind.eq_ignore_ascii_case("humanoid") && ally.standing,
    };
    if !willing {
        return Err(ToolError::new(format!(
            "Gaze of Two Minds touches a willing humanoid: {} is not an ally humanoid able to agree (name another character of the party)",
            ally.name
        )));
    }
    // Already linked: the action renews it from afar, in place of the old one.
    let linked: Vec<Change> = crate::state::timed_effects(ctx.state, &c.id)
        .iter()
        .filter(|e| e.spell == GAZE)
        .map(|e| Change::TimedEffectEnded { effect: e.clone() })
        .collect();
    let distance = crate::combat::positions::distance(ctx.state, &c.id, ally.target.id());
    if distance > 5 && linked.is_empty() {
        return Err(ToolError::new(format!(
            "Gaze of Two Minds is a touch: {} is {distance} ft from {}; move within 5 ft",
            ally.name, c.name
        )));
    }
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    changes.extend(linked);
    for condition in [Condition::Blinded, Condition::Deafened] {
        changes.push(Change::TimedEffectStarted {
            effect: TimedEffect {
                source: c.id.clone(),
                spell: GAZE.to_owned(),
                target: c.id.clone(),
                concentration: false,
                // Until the end of its next turn: this turn's end and the next's.
                rounds_left: Some(2),
                ends_on_damage: false,
                level: 0,
                at_turn_end: true,
                kind: TimedKind::Condition {
                    condition,
                    repeat_save: None,
                },
            },
        });
    }
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{} touches {} and perceives through its eyes and ears until the end of its next turn, blinded and deafened to its own surroundings (what {} sees and hears is the narrator's to tell)",
            c.name, ally.name, ally.name
        ),
        ..Played::default()
    })
}
