//! Enlarge/Reduce's rules: [`Effect::SaveIfUnwilling`], the save only an unwilling creature
//! makes (one on the caster's side takes the effects without a roll), and
//! [`Effect::SizeChange`] (`TimedKind::SizeChanged`), whose one read is [`size_damage`], asked
//! by `roll_attack` for each weapon hit: 1d4 more when enlarged, 1d4 less (at least 1) when
//! reduced. The advantage or disadvantage on Strength checks and saves is the spell's own
//! `advantage` effects, read where every roll reads them. Beside them, the other change to a
//! creature's body: Alter Self's natural weapon ([`natural_weapon`], asked by `roll_attack`
//! for a character's attack by that name).

use super::vocabulary::Effect;
use crate::state::{GameState, Target, TimedKind, timed_effects};

/// The timed kind a [`Effect::SizeChange`] starts.
pub(super) fn timed_kind(effect: &Effect) -> Option<TimedKind> {
    match effect {
        Effect::SizeChange { enlarged, .. } => Some(TimedKind::SizeChanged {
            enlarged: *enlarged,
        }),
        _ => None,
    }
}

/// Whether `target` is on the side of `caster` (an id): itself, or a character for a character,
/// a monster for a monster. Such a creature is willing; any other may resist.
pub(super) fn willing(state: &GameState, caster: &str, target: &Target) -> bool {
    let caster_is_character = state.character(caster).is_some();
    target.id().eq_ignore_ascii_case(caster)
        || caster_is_character == matches!(target, Target::Character(_))
}

/// How `creature`'s (id or name) size changes its weapon damage, with the spell that changed
/// it: `Some(true)` 1d4 more (enlarged), `Some(false)` 1d4 less (reduced), `None` unchanged.
pub fn size_damage<'a>(state: &'a GameState, creature: &str) -> Option<(bool, &'a str)> {
    timed_effects(state, creature)
        .iter()
        .find_map(|e| match e.kind {
            TimedKind::SizeChanged { enlarged } => Some((enlarged, e.spell.as_str())),
            _ => None,
        })
}

/// A natural weapon `creature`'s timed effects give it by the attack name `name` (Alter Self's
/// claws; any when `name` is `None`): (name, sides, bonus, damage type).
pub fn natural_weapon<'a>(
    effects: &'a [crate::state::TimedEffect],
    name: Option<&str>,
) -> Option<(&'a str, u16, i32, crate::rules::DamageType)> {
    effects.iter().find_map(|e| match &e.kind {
        TimedKind::NaturalWeapon {
            name: n,
            sides,
            bonus,
            damage_type,
        } if name.is_none_or(|want| want.trim().eq_ignore_ascii_case(n)) => {
            Some((n.as_str(), *sides, *bonus, *damage_type))
        }
        _ => None,
    })
}
