//! A spell's damage at a given slot and caster level, as rules' dice: the one reading of
//! `Spell::damage` that casting and the odds of a casting share.

use super::{ScalesWith, Spell};
use crate::rules::DamageDice;

impl Spell {
    /// The damage one casting deals on a hit or a failed save: the dice for `slot_level` (a
    /// cantrip's for `character_level`), plus `ability_modifier` when the spell adds it. `None`
    /// for a spell without damage dice, or below its first level.
    pub fn damage_dice(
        &self,
        slot_level: u8,
        character_level: u8,
        ability_modifier: i32,
    ) -> Option<DamageDice> {
        let damage = self.damage.as_ref()?;
        let level = match damage.scales_with {
            ScalesWith::SlotLevel => slot_level,
            ScalesWith::CharacterLevel => character_level,
        };
        let mut dice = DamageDice::parse(damage.at(level)?, damage.kind?).ok()?;
        if damage.add_modifier {
            dice.bonus += ability_modifier;
        }
        Some(dice)
    }
}

#[cfg(test)]
mod tests {
    use crate::srd::Srd;

    #[test]
    fn fire_bolt_grows_with_the_caster_and_burning_hands_with_the_slot() {
        let srd = Srd::bundled();
        let fire_bolt = srd.spell("Fire Bolt").unwrap();
        let at = |level| fire_bolt.damage_dice(0, level, 3).unwrap().to_string();
        assert_eq!(at(1), "1d10 fire");
        assert_eq!(at(5), "2d10 fire");
        assert_eq!(at(17), "4d10 fire");
        let hands = srd.spell("Burning Hands").unwrap();
        assert_eq!(hands.damage_dice(1, 3, 3).unwrap().to_string(), "3d6 fire");
        assert_eq!(hands.damage_dice(2, 3, 3).unwrap().to_string(), "4d6 fire");
        assert_eq!(srd.spell("Shield").unwrap().damage_dice(1, 3, 3), None);
    }
}
