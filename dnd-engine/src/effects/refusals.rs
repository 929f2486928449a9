//! What refuses a casting before anything is rolled: a choice left unmade, a target of the
//! wrong creature type, targets standing too far apart, a revival out of its time, an oil on a
//! weapon its user does not carry, and no
//! target where the effects need one. Asked once by the interpreter (`resolve.rs`).

use super::casting::{Casting, Refused, Subject};
use super::vocabulary::Effect;
use crate::state::GameState;

/// Refuses the casting, with what is allowed, or says whether its weapon is held (Flame
/// Blade: its attacks wait for a later action, so the casting needs no target).
pub(super) fn refuse(
    state: &GameState,
    casting: Casting<'_>,
    subjects: &[Subject],
    effects: &[Effect],
) -> Result<bool, Refused> {
    super::choice::unchosen(casting.source, effects)?;
    for effect in effects {
        if let Effect::OnlyCreatureType { creature_type } = effect
            && let Some(s) = subjects.iter().find(|s| !s.is_type(creature_type))
        {
            return Err(Refused(format!(
                "{} affects only a {creature_type}, and {} is {}: name {creature_type}s only",
                casting.source,
                s.name,
                s.creature_type.as_deref().unwrap_or("a character"),
            )));
        }
    }
    for effect in effects {
        if let Effect::TargetsWithin { feet } = effect {
            within_each_other(state, casting.source, subjects, *feet)?;
        }
        // Meld into Stone: only the caster steps into the stone.
        if let Effect::Meld { .. } = effect
            && let Some(s) = subjects
                .iter()
                .find(|s| !s.target.id().eq_ignore_ascii_case(&casting.caster.id))
        {
            return Err(Refused(format!(
                "{} melds only its caster into stone, not {}: name {} (or no one)",
                casting.source, s.name, casting.caster.name
            )));
        }
        if let Effect::Bond { .. } = effect
            && subjects
                .iter()
                .any(|s| s.target.id().eq_ignore_ascii_case(&casting.caster.id))
        {
            return Err(Refused(format!(
                "{} binds its caster to another creature: name a willing ally, not the caster",
                casting.source
            )));
        }
        if let Effect::Revive { within_rounds } = effect {
            super::magic::may_revive(state, casting.source, subjects, *within_rounds)?;
        }
        if let Effect::WeaponDamage {
            coating: true,
            weapon,
            ..
        } = effect
        {
            super::lasting::may_coat(state, casting.source, subjects, weapon.as_deref())?;
        }
    }
    // A held weapon (Flame Blade) strikes only on later actions, never as it is cast, and
    // needs no target then.
    let held = effects
        .iter()
        .any(|e| matches!(e, Effect::SpellWeapon { held: true, .. }));
    let needs_target = !held
        && effects.iter().any(|e| {
            !matches!(
                e,
                Effect::OnlyCreatureType { .. }
                    | Effect::TargetsWithin { .. }
                    // On an exit, not a creature (`warding.rs`).
                    | Effect::LockExit { .. }
                    | Effect::Glyph { .. }
            )
        });
    if needs_target && subjects.is_empty() {
        return Err(Refused(format!(
            "{} needs at least one target",
            casting.source
        )));
    }
    Ok(held)
}

/// Refuses targets standing more than `feet` apart (only where the fight keeps positions).
fn within_each_other(
    state: &GameState,
    source: &str,
    subjects: &[Subject],
    feet: u32,
) -> Result<(), Refused> {
    for (i, a) in subjects.iter().enumerate() {
        for b in &subjects[i + 1..] {
            let apart = crate::combat::positions::distance(state, a.target.id(), b.target.id());
            if apart > feet {
                return Err(Refused(format!(
                    "{source}'s targets must stand within {feet} ft of each other, and {} and {} are {apart} ft apart",
                    a.name, b.name
                )));
            }
        }
    }
    Ok(())
}
