//! The monk's rules, read from the sheet and the class data (`srd/data/classes.json`): Martial
//! Arts (an unarmed strike or a monk weapon hits with the better of Strength and Dexterity and
//! deals at least the martial arts die), Unarmored Movement, the ki save DC, Deflect Missiles'
//! reduction. All apply only while the monk is unarmoured: the sheet does not say what is
//! worn, so (as the builder's Armor Class does) armour or a shield carried counts as worn.
//!
//! Pure functions of the state: `tools::combat` asks here for a swing's ability and die and
//! `combat::encounter` for a monk's speed; the ki features are played by
//! `tools::feature_monk`.

use std::borrow::Cow;

use crate::rules::{Ability, DamageDice, DamageType};
use crate::srd::{LevelNumbers, Srd, WeaponCategory};
use crate::state::{Character, CharacterAttack};

/// The name of the strike every monk has without a weapon.
pub const UNARMED_STRIKE: &str = "Unarmed Strike";

/// The ki pool's feature slug: Flurry of Blows, Patient Defense, Step of the Wind and
/// Stunning Strike all spend from it.
pub const KI: &str = "ki";

/// Whether `c` is a monk.
pub fn is_monk(c: &Character) -> bool {
    c.class.eq_ignore_ascii_case("monk")
}

/// The monk table's numbers at `c`'s level (the highest level the data has, above it).
fn numbers<'a>(srd: &'a Srd, c: &Character) -> Option<&'a LevelNumbers> {
    if !is_monk(c) {
        return None;
    }
    let class = srd.class("monk").ok()?;
    class
        .levels
        .iter()
        .filter(|l| l.level <= c.level)
        .max_by_key(|l| l.level)
        .map(|l| &l.numbers)
}

/// The sides of `c`'s martial arts die (4 at levels 1-4, 6 at 5), or `None` for a non-monk.
pub fn martial_arts_die(srd: &Srd, c: &Character) -> Option<u16> {
    numbers(srd, c)?
        .martial_arts
        .map(|d| u16::from(d.dice_value))
}

/// Whether `c` carries no armour and no shield (counted as wearing none).
pub fn unarmoured(srd: &Srd, c: &Character) -> bool {
    !c.inventory.iter().any(|s| {
        let name = s.name.trim_end_matches(" Armor");
        srd.armor
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case(&s.name) || a.name.eq_ignore_ascii_case(name))
    })
}

/// Whether `name` is a monk weapon: an unarmed strike, a shortsword, or a simple melee weapon
/// without the two-handed or heavy property.
pub fn monk_weapon(srd: &Srd, name: &str) -> bool {
    if name.eq_ignore_ascii_case(UNARMED_STRIKE) {
        return true;
    }
    srd.weapons
        .iter()
        .find(|w| w.name.eq_ignore_ascii_case(name))
        .is_some_and(|w| {
            w.slug == "shortsword"
                || (w.category == WeaponCategory::Simple
                    && !w.ranged
                    && !w
                        .properties
                        .iter()
                        .any(|p| p == "two-handed" || p == "heavy"))
        })
}

/// Whether Martial Arts counts for `attack` of `c`: a monk, unarmoured, with an unarmed strike
/// or a monk weapon.
pub fn martial_arts_applies(srd: &Srd, c: &Character, attack: &str) -> bool {
    is_monk(c) && unarmoured(srd, c) && monk_weapon(srd, attack)
}

/// `attack` as Martial Arts makes it for `c`: the better of Strength and Dexterity, and the
/// martial arts die in place of the weapon's when it is larger (by its average). Unchanged
/// where Martial Arts does not count.
pub fn martial_attack<'a>(
    srd: &Srd,
    c: &Character,
    attack: &'a CharacterAttack,
) -> Cow<'a, CharacterAttack> {
    let Some(sides) = martial_arts_die(srd, c) else {
        return Cow::Borrowed(attack);
    };
    if !martial_arts_applies(srd, c, &attack.name) {
        return Cow::Borrowed(attack);
    }
    let mut a = attack.clone();
    if c.abilities.modifier(Ability::Dexterity) > c.abilities.modifier(Ability::Strength) {
        a.ability = Ability::Dexterity;
    } else {
        a.ability = Ability::Strength;
    }
    // Twice the average, to compare whole numbers: 1dS averages (S + 1) / 2.
    let doubled_average = |d: &DamageDice| u32::from(d.count) * (u32::from(d.sides) + 1);
    // The die replaces the unarmed strike's flat 1, and a weapon's dice (its bonus stays).
    let bonus = if a.damage.count == 0 {
        0
    } else {
        a.damage.bonus
    };
    let martial = DamageDice::new(1, sides, bonus, a.damage.kind);
    if doubled_average(&martial) > doubled_average(&a.damage) {
        a.damage = martial;
    }
    Cow::Owned(a)
}

/// A monk's unarmed strike as the sheet keeps it: proficient, 1 + Strength bludgeoning, as
/// anyone's; Martial Arts ([`martial_attack`]) makes it the martial arts die and the better of
/// Strength and Dexterity while the monk is unarmoured. `None` for a non-monk (others' unarmed
/// strikes are not on their sheets).
pub fn unarmed_strike(c: &Character) -> Option<CharacterAttack> {
    is_monk(c).then(strike)
}

/// The unarmed strike the builder writes on a new sheet of `class`: a monk's; `None` for
/// other classes.
pub fn built_unarmed_strike(class: &crate::srd::Class) -> Option<CharacterAttack> {
    (class.slug == "monk").then(strike)
}

fn strike() -> CharacterAttack {
    CharacterAttack {
        name: UNARMED_STRIKE.to_owned(),
        ability: Ability::Strength,
        proficient: true,
        damage: DamageDice::new(0, 0, 1, DamageType::Bludgeoning),
        add_modifier_to_damage: true,
        magic_bonus: 0,
        range_ft: 5,
        magical: false,
    }
}

/// `c`'s attack named `name` (any case): the sheet's, or a monk's unarmed strike where the
/// sheet has none (a sheet written by hand).
pub fn attack_named(c: &Character, name: &str) -> Option<CharacterAttack> {
    c.attacks
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .cloned()
        .or_else(|| {
            name.eq_ignore_ascii_case(UNARMED_STRIKE)
                .then(|| unarmed_strike(c))
                .flatten()
        })
}

/// Feet Unarmored Movement adds to `c`'s speed (10 at levels 2-5): a monk without armour or
/// shield; 0 otherwise.
pub fn unarmored_movement(srd: &Srd, c: &Character) -> u32 {
    match numbers(srd, c).and_then(|n| n.unarmored_movement) {
        Some(feet) if unarmoured(srd, c) => u32::from(feet),
        _ => 0,
    }
}

/// `c`'s walking speed with its class features (Unarmored Movement).
pub fn speed(srd: &Srd, c: &Character) -> u32 {
    c.speed + unarmored_movement(srd, c)
}

/// The DC of a save against `c`'s ki features (Stunning Strike, Open Hand Technique):
/// 8 + proficiency bonus + Wisdom modifier.
pub fn ki_save_dc(c: &Character) -> i32 {
    8 + c.proficiency_bonus() + c.abilities.modifier(Ability::Wisdom)
}

/// What Deflect Missiles takes off a ranged weapon hit, besides its 1d10: Dexterity modifier +
/// monk level.
pub fn deflect_bonus(c: &Character) -> i32 {
    c.abilities.modifier(Ability::Dexterity) + i32::from(c.level)
}

/// Whether `c` may deflect a missile now: a monk of 3rd level or more (Deflect Missiles).
pub fn deflects_missiles(srd: &Srd, c: &Character) -> bool {
    is_monk(c) && super::uses::feature_of(srd, c, "deflect-missiles").is_ok()
}

/// What Slow Fall takes off falling damage: five times the monk level, from 4th level; 0
/// otherwise.
pub fn slow_fall(srd: &Srd, c: &Character) -> u32 {
    if is_monk(c) && super::uses::feature_of(srd, c, "slow-fall").is_ok() {
        5 * u32::from(c.level)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A human monk made by the builder: Dexterity 16, Wisdom 15, Strength 9.
    pub(crate) fn monk(level: u8) -> Character {
        let choices: crate::character::CharacterChoices =
            serde_json::from_value(serde_json::json!({
                "name": "Li", "race": "Human", "class": "Monk", "level": level,
                "subclass": if level >= 3 { Some("Open Hand") } else { None },
                "background": "Acolyte",
                "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 15, "con": 12, "int": 10, "wis": 14, "cha": 13}},
                "skills": ["acrobatics", "stealth"],
                "equipment": {"kit": [{"option": 1}, {"option": 2}, {"option": 1, "picks": ["Amulet"]}, {"option": 1}]}
            }))
            .expect("monk choices");
        choices.build(Srd::bundled()).expect("a legal monk")
    }

    #[test]
    fn martial_arts_die_grows_at_5_and_a_quarterstaff_keeps_its_d6_until_then() {
        let srd = Srd::bundled();
        assert_eq!(martial_arts_die(srd, &monk(1)), Some(4));
        assert_eq!(martial_arts_die(srd, &monk(5)), Some(6));
        let li = monk(1);
        let fist = unarmed_strike(&li).unwrap();
        assert_eq!(li.attacks.last(), Some(&fist), "the builder writes it");
        // Dexterity 16 beats Strength 9: +3 to hit and damage, and the d4 for the flat 1.
        let martial = martial_attack(srd, &li, &fist);
        assert_eq!(martial.ability, Ability::Dexterity);
        assert_eq!(
            martial.damage,
            DamageDice::new(1, 4, 0, DamageType::Bludgeoning)
        );
        let club = CharacterAttack {
            name: "Club".into(),
            ability: Ability::Strength,
            proficient: true,
            damage: DamageDice::new(1, 4, 0, DamageType::Bludgeoning),
            add_modifier_to_damage: true,
            magic_bonus: 0,
            range_ft: 5,
            magical: false,
        };
        let at5 = martial_attack(srd, &monk(5), &club);
        assert_eq!((at5.ability, at5.damage.sides), (Ability::Dexterity, 6));
        // A greatclub is two-handed: no monk weapon.
        assert!(!monk_weapon(srd, "Greatclub"));
        assert!(monk_weapon(srd, "Shortsword") && monk_weapon(srd, "Quarterstaff"));
        assert!(!monk_weapon(srd, "Shortbow"));
    }

    #[test]
    fn armour_carried_ends_martial_arts_and_unarmored_movement() {
        let srd = Srd::bundled();
        let mut li = monk(2);
        assert_eq!(speed(srd, &li), 40);
        assert_eq!(ki_save_dc(&li), 8 + 2 + 2);
        std::sync::Arc::make_mut(&mut li.inventory)
            .push(crate::state::ItemStack::new("Leather Armor", 1));
        assert_eq!(speed(srd, &li), 30);
        assert!(!martial_arts_applies(srd, &li, UNARMED_STRIKE));
        assert_eq!(speed(srd, &monk(1)), 30, "Unarmored Movement comes at 2");
    }
}
