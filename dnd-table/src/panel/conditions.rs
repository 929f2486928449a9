//! The panel's lines for conditions and timed effects: each added condition and each timed
//! effect that starts with its cause, time left and what ends it (the snapshot's texts), and
//! what ends one.

use dnd_engine::rules::Condition;
use dnd_engine::state::{Change, GameState, compact, condition_sources};

use super::{PanelLine, Tone, exhaustion, target_id_name, target_name};

/// The line of a condition's or a timed effect's change, if it is one.
pub(super) fn line(change: &Change, after: &GameState) -> Option<PanelLine> {
    Some(match change {
        Change::ConditionAdded { target, condition } => PanelLine::new(
            condition.gained(&target_name(target, after), exhaustion(target, after)),
            Tone::Bad,
        )
        .with_detail(cause(after, target.id(), *condition, None)),
        Change::TimedEffectStarted { effect } => {
            let who = target_id_name(&effect.target, after);
            match effect.condition() {
                Some(condition) => PanelLine::new(condition.gained(&who, 0), Tone::Bad)
                    .with_detail(cause(after, &effect.target, condition, Some(&effect.spell))),
                None => PanelLine::new(format!("{who}: {}", effect.describe()), Tone::Plain),
            }
        }
        Change::TimedEffectEnded { effect } => {
            let who = target_id_name(&effect.target, after);
            let text = match effect.condition() {
                // Something else may still impose it: then only the effect ends.
                Some(c) if !still_has(after, &effect.target, c) => {
                    format!("{} ({} ends)", c.lost(&who, 0), effect.spell)
                }
                _ => format!("{}: {} ends", who, effect.spell),
            };
            PanelLine::new(text, Tone::Good)
        }
        Change::HoldEnded { monster, target } => PanelLine::new(
            format!(
                "{} is free of {}'s hold",
                target_id_name(target, after),
                target_id_name(monster, after)
            ),
            Tone::Good,
        ),
        _ => return None,
    })
}

/// What caused `condition` on `id` (the cause from `spell` when one is named), with its time
/// left and what ends it: the snapshot's text, without the condition's name.
fn cause(state: &GameState, id: &str, condition: Condition, spell: Option<&str>) -> String {
    let sources = condition_sources(state, id);
    let mine = sources.iter().filter(|s| s.condition == condition);
    let picked = match spell {
        Some(spell) => mine
            .clone()
            .find(|s| s.source.starts_with(spell))
            .or_else(|| mine.clone().next()),
        None => mine.clone().next(),
    };
    picked.map(compact::condition_cause).unwrap_or_default()
}

/// Whether `id` still has `condition` (something else may impose it).
fn still_has(state: &GameState, id: &str, condition: Condition) -> bool {
    state.character(id).map_or_else(
        || {
            state
                .monster(id)
                .is_some_and(|m| m.conditions.has(condition))
        },
        |c| c.conditions.has(condition),
    )
}
