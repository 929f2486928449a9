//! Counterspell: a spell being cast fails. The casting's slot decides what stops at once (the
//! spell's own `automatic_up_to`, 3rd level, or the slot Counterspell is cast with, if higher);
//! a spell above that fails only when the counterer's spellcasting ability check meets
//! DC 10 + the spell's level. The reaction window that casts it is `tools/reactions.rs`.

use crate::dice::DieSource;

use super::vocabulary::Effect;
use crate::rules::check::roll_check_with;
use crate::rules::{AdvantageSources, CheckResult};

/// What a counter did to one spell.
#[derive(Debug, Clone, PartialEq)]
pub struct Countered {
    /// Whether the spell fails.
    pub stopped: bool,
    /// The ability check, with its DC, when the spell was above the automatic level.
    pub check: Option<(i32, CheckResult)>,
}

/// The highest level `effects` stop without a check when cast with a slot of `slot`; `None`
/// when they counter nothing.
pub fn counters_up_to(effects: &[Effect], slot: u8) -> Option<u8> {
    effects.iter().find_map(|e| match e {
        Effect::Counter { automatic_up_to } => Some((*automatic_up_to).max(slot)),
        _ => None,
    })
}

/// Counters a spell of `level` with `effects` cast with a slot of `slot`: at the automatic
/// level or lower it fails; higher, a check with `modifier` (the counterer's spellcasting
/// ability modifier) against 10 + `level`. `None` when `effects` counter nothing.
pub fn counter<R: DieSource + ?Sized>(
    effects: &[Effect],
    slot: u8,
    level: u8,
    modifier: i32,
    rng: &mut R,
) -> Option<Countered> {
    let up_to = counters_up_to(effects, slot)?;
    if level <= up_to {
        return Some(Countered {
            stopped: true,
            check: None,
        });
    }
    let dc = 10 + i32::from(level);
    let result = roll_check_with(modifier, dc, &AdvantageSources::default(), None, rng);
    Some(Countered {
        stopped: result.success,
        check: Some((dc, result)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_to_the_slot_a_spell_stops_and_above_it_a_check_decides() {
        let counterspell = [Effect::Counter { automatic_up_to: 3 }];
        let mut rng = crate::dice::seeded_rng(7);
        let at_3 = counter(&counterspell, 3, 3, 3, &mut rng).unwrap();
        assert!(at_3.stopped && at_3.check.is_none());
        // Upcast to 5th: a 5th-level spell stops without a check.
        assert!(
            counter(&counterspell, 5, 5, 3, &mut rng)
                .unwrap()
                .check
                .is_none()
        );
        // A 4th-level spell against a 3rd-level slot: DC 14, the check decides.
        let at_4 = counter(&counterspell, 3, 4, 3, &mut rng).unwrap();
        let (dc, check) = at_4.check.clone().expect("a check");
        assert_eq!(dc, 14);
        assert_eq!(at_4.stopped, check.total >= 14);
        assert_eq!(counter(&[], 3, 1, 3, &mut rng), None);
    }
}
