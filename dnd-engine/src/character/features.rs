//! What a character's class features do to the numbers of a roll, read from its class, level,
//! subclass and the choices it made (`Character::choices`). `tools::combat` asks here for a
//! weapon attack's critical range.

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

/// Whether `c` chose `option` (an option slug such as "fighter-fighting-style-archery", or a
/// skill or ancestry picked) for any of its class features or racial traits.
pub fn chose(c: &Character, option: &str) -> bool {
    c.choices.values().flatten().any(|o| o == option)
}
