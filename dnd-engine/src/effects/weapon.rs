//! A spectral weapon a caster keeps (Spiritual Weapon): started by the casting as a
//! `state::TimedKind::SpellWeapon` on the caster, hovering where the casting's attack struck.
//! On a later turn the caster's bonus action moves it up to [`WEAPON_MOVE_FT`] and repeats the
//! spell's attack at a creature within [`WEAPON_REACH_FT`] of it (`tools::spell_weapon` runs
//! that through the turn gate and the interpreter). A weapon `held` in the caster's hand (Flame
//! Blade) makes no attack as it is cast; the caster's action strikes within 5 ft of itself.

use super::casting::{Casting, Outcome, Subject};
use super::vocabulary::Duration;
use crate::combat::positions::position_of;
use crate::state::{Change, GameState, Position, TimedEffect, TimedKind, timed_effects};

/// How far the weapon moves before a later attack.
pub const WEAPON_MOVE_FT: u32 = 20;

/// How far from the weapon its attack reaches.
pub const WEAPON_REACH_FT: u32 = 5;

/// The weapon a casting leaves its caster, hovering by the first creature it struck at.
pub(super) fn summon(
    state: &GameState,
    casting: Casting<'_>,
    subjects: &[Subject],
    duration: Duration,
) -> (Change, Outcome) {
    let caster = &casting.caster.id;
    let at = subjects
        .first()
        .and_then(|s| position_of(state, s.target.id()))
        .or_else(|| position_of(state, caster));
    let effect = TimedEffect {
        source: caster.clone(),
        spell: casting.source.to_owned(),
        target: caster.clone(),
        concentration: casting.concentration,
        rounds_left: duration.rounds(),
        ends_on_damage: false,
        level: casting.slot,
        at_turn_end: duration.at_turn_end(),
        kind: TimedKind::SpellWeapon {
            slot: casting.slot,
            at,
        },
    };
    let outcome = Outcome::Started {
        target: casting.caster.name.clone(),
        effect: effect.clone(),
    };
    (Change::TimedEffectStarted { effect }, outcome)
}

/// The weapon of `spell` that `caster` (an id) keeps, if it has one in play.
pub fn weapon_of<'s>(state: &'s GameState, caster: &str, spell: &str) -> Option<&'s TimedEffect> {
    timed_effects(state, caster).iter().find(|e| {
        matches!(e.kind, TimedKind::SpellWeapon { .. })
            && e.source.eq_ignore_ascii_case(caster)
            && e.spell.eq_ignore_ascii_case(spell)
    })
}

/// Whether a weapon hovering at `at` reaches a creature standing at `target` after its move
/// (`Err` with the distance when it does not); anything goes where no positions are kept.
pub fn weapon_reaches(at: Option<Position>, target: Option<Position>) -> Result<(), u32> {
    let (Some(at), Some(target)) = (at, target) else {
        return Ok(());
    };
    let distance = crate::state::round_to_5(at.exact_distance(target));
    if distance <= WEAPON_MOVE_FT + WEAPON_REACH_FT {
        Ok(())
    } else {
        Err(distance)
    }
}
