//! What a character's class features do to the numbers of a roll, read from its class and
//! level (the sheet records no subclass yet: the SRD has one per class, taken at its level, so
//! a fighter of 3rd level is a Champion). `tools::combat` asks here for a weapon attack's
//! critical range.

use crate::srd::Srd;
use crate::state::Character;

/// The lowest natural d20 that is a critical hit on `c`'s weapon attacks: 19 with Improved
/// Critical (Champion 3), else 20. Spell attacks always crit on a 20 only.
pub fn weapon_critical_range(srd: &Srd, c: &Character) -> u8 {
    if super::uses::feature_of(srd, c, "improved-critical").is_ok() {
        19
    } else {
        20
    }
}
