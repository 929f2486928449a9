//! Blink ([`super::Effect::Blink`], `TimedKind::Blinking`): at the end of each of the caster's turns
//! a d20 ([`BLINK_AT_LEAST`] or more) sends it to the Ethereal Plane until the start of its
//! next turn ([`blinked`], [`returned`], played by `next_turn`). While there it can neither be
//! targeted nor target anyone: [`ethereal`] is the one read, asked by `roll_attack` for both
//! sides, by the spells' target choice (heroes' and monsters') and by the monster planner.

use crate::state::{Change, GameState, TimedEffect, TimedKind, timed_effects};

/// The d20 that sends a blinking creature away.
pub const BLINK_AT_LEAST: u8 = 11;

/// Whether `creature` (id or name) is on the Ethereal Plane now.
pub fn ethereal(state: &GameState, creature: &str) -> bool {
    timed_effects(state, creature)
        .iter()
        .any(|e| e.kind == TimedKind::Blinking { ethereal: true })
}

fn with(e: &TimedEffect, ethereal: bool) -> Change {
    Change::TimedEffectStarted {
        effect: TimedEffect {
            kind: TimedKind::Blinking { ethereal },
            ..e.clone()
        },
    }
}

/// At the end of `creature`'s turn: its Blink (still here), if it has one, to roll for.
pub fn blinking(state: &GameState, creature: &str) -> Option<TimedEffect> {
    timed_effects(state, creature)
        .iter()
        .find(|e| e.kind == TimedKind::Blinking { ethereal: false })
        .cloned()
}

/// The change the end-of-turn d20 `d20` makes to `blink`: away on [`BLINK_AT_LEAST`] or more.
pub fn blinked(blink: &TimedEffect, d20: u8) -> Option<Change> {
    (d20 >= BLINK_AT_LEAST).then(|| with(blink, true))
}

/// At the start of `creature`'s turn: back from the Ethereal Plane, if it was there.
pub fn returned(state: &GameState, creature: &str) -> Vec<Change> {
    timed_effects(state, creature)
        .iter()
        .filter(|e| e.kind == TimedKind::Blinking { ethereal: true })
        .map(|e| with(e, false))
        .collect()
}

/// Why `by` cannot affect `on` (ids or names) because one of them is on the Ethereal Plane.
pub fn apart(state: &GameState, by: &str, on: &str) -> Option<String> {
    let away = |id: &str| ethereal(state, id).then(|| state.name_of(id));
    if let Some(name) = away(by) {
        return Some(format!(
            "{name} is on the Ethereal Plane until the start of its next turn and can affect no one here"
        ));
    }
    away(on).map(|name| {
        format!("{name} is on the Ethereal Plane until the start of its next turn and cannot be targeted")
    })
}
