//! The SRD's magic items the engine resolves (`data/magic_items.json`): the four healing
//! potions, +1 to +3 weapons, armour and shields, and the spell scroll with its table of save
//! DCs and attack bonuses. Each is [`ItemData`] from the effects vocabulary; using one is
//! resolved by `effects::resolve`, carrying one is read by `state::Character`.

use super::{Srd, slugify};
use crate::effects::{ItemData, ItemKind, MagicItem, ScrollLevel, plus_bonus, scroll_spell};

/// The bundled file's shape.
// Only the bundled files are read through it (feature `bundled-srd`).
#[cfg_attr(not(feature = "bundled-srd"), allow(dead_code))]
#[derive(Debug, serde::Deserialize)]
pub(super) struct MagicItemsFile {
    pub items: Vec<MagicItem>,
    pub spell_scroll: Vec<ScrollLevel>,
}

impl Srd {
    /// What a magic item does, by the name an adventure or a player gives it: an SRD item by
    /// its own name ("Potion of Greater Healing", any case); a weapon, armour or shield of the
    /// SRD with "+1" to "+3" ("+1 Longsword", "Chain Mail +2", "Shield, +1"); a scroll of an
    /// SRD spell ("Spell Scroll (Bless)", "Scroll of Magic Missile"). `None` otherwise.
    pub fn magic_item(&self, name: &str) -> Option<ItemData> {
        let wanted = slugify(name);
        if let Some(item) = self.magic_items.iter().find(|i| slugify(&i.name) == wanted) {
            return Some(item.data.clone());
        }
        let generic = |kind: ItemKind, bonus: i32| {
            self.magic_items
                .iter()
                .find(|i| {
                    i.data.kind == kind && plus_bonus(&i.name).is_some_and(|(_, n)| n == bonus)
                })
                .map(|i| i.data.clone())
        };
        if let Some((base, bonus)) = plus_bonus(name) {
            if self
                .weapon(base)
                .is_ok_and(|w| slugify(&w.name) == slugify(base))
            {
                return generic(ItemKind::Weapon, bonus);
            }
            if let Ok(a) = self.armor(base)
                && slugify(&a.name) == slugify(base)
            {
                let kind = if a.slug == "shield" {
                    ItemKind::Shield
                } else {
                    ItemKind::Armor
                };
                return generic(kind, bonus);
            }
            return None;
        }
        let spell = scroll_spell(name)?;
        self.spell(spell).ok()?;
        self.magic_items
            .iter()
            .find(|i| i.data.kind == ItemKind::Scroll)
            .map(|i| i.data.clone())
    }

    /// The save DC and attack bonus of a scroll of a spell of `level`.
    pub fn scroll_level(&self, level: u8) -> Option<ScrollLevel> {
        self.spell_scroll.iter().copied().find(|s| s.level == level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::Effect;

    fn heal_dice(name: &str) -> (u16, u16, i32) {
        let item = Srd::bundled().magic_item(name).expect(name);
        assert_eq!(item.kind, ItemKind::Potion);
        assert!(item.consumed, "{name} is drunk once");
        match item.on_use.as_slice() {
            [Effect::Heal { dice }] => (dice.count, dice.sides, dice.bonus),
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn the_four_healing_potions_heal_their_srd_dice() {
        assert_eq!(heal_dice("Potion of Healing"), (2, 4, 2));
        assert_eq!(heal_dice("potion of greater healing"), (4, 4, 4));
        assert_eq!(heal_dice("Potion of Superior Healing"), (8, 4, 8));
        assert_eq!(heal_dice("Potion of Supreme Healing"), (10, 4, 20));
    }

    #[test]
    fn plus_weapons_armour_and_shields_are_found_by_their_base_item() {
        let srd = Srd::bundled();
        let carried = |name: &str| srd.magic_item(name).map(|d| (d.kind, d.carried));
        assert_eq!(
            carried("+2 Longsword"),
            Some((ItemKind::Weapon, vec![Effect::MagicWeapon { bonus: 2 }]))
        );
        assert_eq!(
            carried("Chain Mail +1"),
            Some((
                ItemKind::Armor,
                vec![Effect::MagicArmor {
                    bonus: 1,
                    shield: false
                }]
            ))
        );
        assert_eq!(
            carried("Shield, +3"),
            Some((
                ItemKind::Shield,
                vec![Effect::MagicArmor {
                    bonus: 3,
                    shield: true
                }]
            ))
        );
        assert_eq!(carried("+1 Frying Pan"), None, "no SRD weapon of that name");
        assert_eq!(
            carried("Longsword"),
            None,
            "a mundane sword is no magic item"
        );
    }

    #[test]
    fn a_scroll_of_an_srd_spell_is_a_scroll_and_its_table_is_the_srds() {
        let srd = Srd::bundled();
        let scroll = srd.magic_item("Spell Scroll (Magic Missile)").unwrap();
        assert_eq!(scroll.kind, ItemKind::Scroll);
        assert!(scroll.consumed);
        assert!(srd.magic_item("Scroll of Nonexistent Spell").is_none());
        let row = |l| srd.scroll_level(l).map(|s| (s.save_dc, s.attack_bonus));
        assert_eq!(row(0), Some((13, 5)));
        assert_eq!(row(2), Some((13, 5)));
        assert_eq!(row(3), Some((15, 7)));
        assert_eq!(row(5), Some((17, 9)));
        assert_eq!(row(7), Some((18, 10)));
        assert_eq!(row(9), Some((19, 11)));
        assert_eq!(row(10), None);
    }
}
