//! A ward against kinds of creatures ([`Effect::Ward`], Protection from Evil and Good): for a
//! while, attacks against the warded creature by creatures of the listed types roll with
//! disadvantage. The kind it starts is `TimedKind::Ward`; [`ward_against`] is its one read,
//! asked by `effects::attack_advantage` for every attack roll.
//!
//! A monster's type is its template's in the game's SRD (the state keeps the template's
//! slug, not its type); a character is a humanoid, which no ward names.

use super::lasting::Lasting;
use super::vocabulary::Effect;
use crate::state::{GameState, TimedKind, timed_effects};

/// The timed kind a [`Effect::Ward`] starts.
pub(super) fn timed_kind(effect: &Effect) -> Option<TimedKind> {
    match effect {
        Effect::Ward { creature_types, .. } => Some(TimedKind::Ward {
            creature_types: creature_types.clone(),
        }),
        _ => None,
    }
}

/// The creature type of `id`: its template's for a monster ("undead"), "humanoid" for a
/// character, `None` for a monster whose template the bundled SRD lacks.
fn creature_type(state: &GameState, id: &str) -> Option<String> {
    match state.monster(id) {
        Some(m) => state
            .srd()
            .monster(&m.template)
            .ok()
            .map(|t| t.kind.clone()),
        None => Some("humanoid".to_owned()),
    }
}

/// Adds to `out` the disadvantage of each ward on `target` that names `attacker`'s type.
pub(super) fn ward_against(state: &GameState, attacker: &str, target: &str, out: &mut Lasting) {
    let wards = timed_effects(state, target)
        .iter()
        .filter_map(|e| match &e.kind {
            TimedKind::Ward { creature_types } => Some((e, creature_types)),
            _ => None,
        });
    let mut kind = None;
    for (e, types) in wards {
        let kind = kind.get_or_insert_with(|| creature_type(state, attacker));
        let Some(kind) = kind.as_deref() else {
            return;
        };
        let kind = kind.to_ascii_lowercase();
        if types
            .iter()
            .any(|t| kind.starts_with(&t.to_ascii_lowercase()))
        {
            out.sources
                .disadvantage(format!("{} wards the target against {kind}s", e.spell));
        }
    }
}
