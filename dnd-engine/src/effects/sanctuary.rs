//! Sanctuary ([`Effect::Sanctuary`]): a ward on a creature for a while. Before another creature
//! attacks it or names it for a harmful spell, that creature makes a Wisdom save against the
//! caster's spell save DC (fixed as cast, `TimedKind::Sanctuary`); on a failure the attack, or
//! the spell on the warded creature, is lost. Areas are not warded against. The ward ends when
//! the warded creature attacks ([`sanctuary_ends`], asked by `combat::attack_situation`) or
//! casts a spell on an enemy (asked by `cast_spell` once its targets are known).
//!
//! [`sanctuary_on`] is the one read: `roll_attack` (heroes' and monsters' attacks alike),
//! `cast_spell` and the monsters' spells ask it before the roll, and the monster planner asks it
//! to prefer an unwarded target.

use super::vocabulary::Effect;
use crate::state::{Change, GameState, TimedEffect, TimedKind, timed_effects};

/// The timed kind a [`Effect::Sanctuary`] starts, with the caster's spell save DC.
pub(super) fn timed_kind(effect: &Effect, dc: i32) -> Option<TimedKind> {
    matches!(effect, Effect::Sanctuary { .. }).then_some(TimedKind::Sanctuary { dc })
}

/// The Sanctuary on `target` (id or name) that `attacker` (id or name) must save against before
/// attacking it or naming it for a harmful spell; `None` when it has none, or when the attacker
/// is the warded creature itself.
pub fn sanctuary_on<'a>(
    state: &'a GameState,
    attacker: &str,
    target: &str,
) -> Option<&'a TimedEffect> {
    let ward = timed_effects(state, target)
        .iter()
        .find(|e| matches!(e.kind, TimedKind::Sanctuary { .. }))?;
    let same = ward.target.eq_ignore_ascii_case(attacker)
        || state.name_of(&ward.target).eq_ignore_ascii_case(attacker);
    (!same).then_some(ward)
}

/// The DC of a Sanctuary effect (0 for any other).
pub fn sanctuary_dc(ward: &TimedEffect) -> i32 {
    match ward.kind {
        TimedKind::Sanctuary { dc } => dc,
        _ => 0,
    }
}

/// The `TimedEffectEnded` of `creature`'s own Sanctuary: what its attack, or its spell on an
/// enemy, ends. Empty when it has none.
pub fn sanctuary_ends(state: &GameState, creature: &str) -> Vec<Change> {
    timed_effects(state, creature)
        .iter()
        .filter(|e| matches!(e.kind, TimedKind::Sanctuary { .. }))
        .map(|e| Change::TimedEffectEnded { effect: e.clone() })
        .collect()
}

/// Whether a spell with these effects is harmful to a creature it names (an attack, a save,
/// damage, darts or a pool): the spells Sanctuary wards against.
pub fn harmful(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::SpellAttack { .. }
        | Effect::Save { .. }
        | Effect::Damage { .. }
        | Effect::Darts { .. }
        | Effect::HpPool { .. } => true,
        Effect::OneOf { options } => options.iter().any(|o| harmful(&o.effects)),
        _ => false,
    })
}
