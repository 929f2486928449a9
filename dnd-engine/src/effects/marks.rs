//! Marks: a creature a caster has marked takes more damage from that caster's weapon hits
//! (Hunter's Mark: 1d6, of the weapon's damage type, doubled on a critical hit like any attack
//! die). The mark is a `state::TimedKind::Marked` on the target, ending with the caster's
//! concentration; the weapon attack (`tools::combat`) asks [`mark_damage`] for its dice.

use crate::rules::{DamageDice, DamageType};
use crate::state::{GameState, TimedKind, timed_effects};

/// The extra dice `attacker`'s weapon hit against `target` (ids) deals from the marks
/// `attacker` put on it, each of `kind` (the weapon's damage type), one per spell.
pub fn mark_damage(
    state: &GameState,
    attacker: &str,
    target: &str,
    kind: DamageType,
) -> Vec<DamageDice> {
    let mut spells: Vec<&str> = Vec::new();
    let mut dice = Vec::new();
    for e in timed_effects(state, target) {
        if let TimedKind::Marked { count, sides } = e.kind
            && e.source.eq_ignore_ascii_case(attacker)
            && !spells.iter().any(|s| s.eq_ignore_ascii_case(&e.spell))
        {
            spells.push(&e.spell);
            dice.push(DamageDice::new(count, sides, 0, kind));
        }
    }
    dice
}
