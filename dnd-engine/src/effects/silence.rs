//! Silence ([`super::Effect::Silence`], `TimedKind::Silenced`): each creature inside the sphere
//! as the spell is cast is silenced for its duration: immune to thunder damage
//! ([`silence_immunities`], read inside `defenses_now` of characters and monsters alike) and
//! unable to cast a spell with a verbal component ([`silenced`], asked by `cast_spell` and by a
//! monster's casting). The deafness is the spell's own `condition` effect. The sphere itself is
//! not kept: who walks in or out later is the narrator's.

use crate::rules::{DamageType, DamageTypes};
use crate::state::{GameState, TimedEffect, TimedKind, timed_effects};

/// Whether a creature with these timed effects is inside a Silence.
pub fn hushed(effects: &[TimedEffect]) -> bool {
    effects.iter().any(|e| e.kind == TimedKind::Silenced)
}

/// The damage types the timed effects make a creature immune to: thunder while silenced.
pub fn silence_immunities(effects: &[TimedEffect]) -> DamageTypes {
    let mut types = DamageTypes::EMPTY;
    if hushed(effects) {
        types.insert(DamageType::Thunder);
    }
    types
}

/// Why `creature` (id or name) cannot cast `spell` now, when the spell has a verbal component
/// and a Silence holds the creature; `None` when it may.
pub fn silenced(state: &GameState, creature: &str, spell: &crate::srd::Spell) -> Option<String> {
    if !spell.components.verbal {
        return None;
    }
    let e = timed_effects(state, creature)
        .iter()
        .find(|e| e.kind == TimedKind::Silenced)?;
    Some(format!(
        "{} is inside {}: no spell with a verbal component can be cast there, and {} has one",
        state.name_of(creature),
        e.spell,
        spell.name
    ))
}
