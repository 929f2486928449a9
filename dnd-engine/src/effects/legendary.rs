//! Legendary Resistance as the interpreter applies it: a monster whose stat block has it
//! (`MonsterInstance::legendary_resistance`, so many a day) turns a failed save into a success,
//! one use spent through `Change::UseSpent`. The rule for when it does: the failure would do
//! more than damage (a condition, a hold, a drain), and a use is left; damage alone it takes.

use super::casting::Subject;
use super::vocabulary::Effect;
use crate::state::{Change, GameState, Target};

/// The pool its uses are counted under.
pub const LEGENDARY_RESISTANCE: &str = "Legendary Resistance";

/// The change that spends a use when `s` turns its failed save against `on_fail` into a
/// success (see the module docs), or `None` when it does not.
pub(super) fn resist(state: &GameState, s: &Subject, on_fail: &[Effect]) -> Option<Change> {
    let Target::Monster(id) = &s.target else {
        return None;
    };
    let m = state.monster(id)?;
    let spent = m
        .uses_spent
        .get(&LEGENDARY_RESISTANCE.to_ascii_lowercase())
        .copied()
        .unwrap_or(0);
    let worth_it = on_fail.iter().any(|e| !matches!(e, Effect::Damage { .. }));
    (worth_it && spent < m.legendary_resistance).then(|| Change::UseSpent {
        monster: m.id.clone(),
        pool: LEGENDARY_RESISTANCE.to_owned(),
        of: m.legendary_resistance,
    })
}
