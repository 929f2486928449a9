//! Recharge: a monster's action marked "Recharge 5–6" is usable again when a d6 rolled at the
//! start of its turn shows at least the lower number.

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};

/// A recharge roll at the start of a monster's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RechargeRoll {
    /// The action.
    pub action: String,
    /// The d6.
    pub roll: u8,
    /// The lowest roll that recharges it.
    pub min: u8,
    /// Whether it is usable again.
    pub recharged: bool,
}

/// Rolls the d6 for one spent action that recharges on `min` or more.
pub fn roll_recharge(action: &str, min: u8, rng: &mut (impl DieSource + ?Sized)) -> RechargeRoll {
    let roll = rng.die(6) as u8;
    RechargeRoll {
        action: action.to_owned(),
        roll,
        min,
        recharged: roll >= min,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::seeded_rng;

    #[test]
    fn recharge_five_six_comes_back_on_a_five_or_a_six_only() {
        let mut rng = seeded_rng(3);
        for _ in 0..200 {
            let r = roll_recharge("Breath", 5, &mut rng);
            assert!((1..=6).contains(&r.roll));
            assert_eq!(r.recharged, r.roll >= 5, "{r:?}");
        }
    }
}
