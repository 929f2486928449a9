//! What a creature's own attack or spell ends: the timed effects that last until it acts
//! (Invisibility's `state::TimedKind::ConditionUntil` with `ends_on_acting`). Attacks ask
//! through `combat::attack_situation`, castings in `cast_spell`, both committing the ends with
//! what they do.

use crate::state::{Change, GameState, TimedKind, timed_effects};

/// The `TimedEffectEnded` changes for `creature`'s (id or name) effects that its attack or
/// spell ends; empty when it has none.
pub fn acting_ends(state: &GameState, creature: &str) -> Vec<Change> {
    timed_effects(state, creature)
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                TimedKind::ConditionUntil {
                    ends_on_acting: true,
                    ..
                }
            )
        })
        .map(|e| Change::TimedEffectEnded { effect: e.clone() })
        .collect()
}
