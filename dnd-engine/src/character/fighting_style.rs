//! Fighting styles in play (the fighter's at 1, the paladin's and the ranger's at 2), read from
//! the choice kept on the sheet (`Character::choices`, any "...fighting-style" feature) and the
//! weapon's SRD properties: Archery's +2 to hit with a ranged weapon, Dueling's +2 damage with a
//! melee weapon in one hand, Great Weapon Fighting's reroll of 1s and 2s with a melee weapon in
//! two hands, Protection's reaction with a shield. Defense is the builder's Armor Class
//! (`equipment::armor_class`). Two-Weapon Fighting has nothing to add to: the engine makes no
//! off-hand attacks.
//!
//! What is held is not on the sheet, so it is read from what is carried: a two-handed weapon is
//! held in two hands; a versatile one too when its sheet damage is the two-handed die or no
//! shield is carried; anything else in one hand.

use crate::dice::DieSource;

use crate::rules::attack::damage_from_faces;
use crate::rules::{AttackResult, Defenses};
use crate::srd::{ArmorCategory, Srd, Weapon};
use crate::state::{Character, CharacterAttack};

/// A fighting style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// +2 to attack rolls with ranged weapons.
    Archery,
    /// +1 AC in armour (the builder's).
    Defense,
    /// +2 damage with a melee weapon held in one hand.
    Dueling,
    /// Reroll 1s and 2s of a two-handed melee weapon's damage dice, once.
    GreatWeaponFighting,
    /// A reaction with a shield: disadvantage on an attack at a creature beside you.
    Protection,
    /// The ability modifier on an off-hand attack's damage (no off-hand attacks are made).
    TwoWeaponFighting,
}

/// The fighting style `c` chose, if any.
pub fn style(c: &Character) -> Option<Style> {
    c.choices
        .iter()
        .filter(|(feature, _)| feature.ends_with("fighting-style"))
        .flat_map(|(_, options)| options)
        .find_map(|o| {
            let name = o
                .rsplit_once("fighting-style-")
                .map_or(o.as_str(), |(_, n)| n);
            Some(match name {
                "archery" => Style::Archery,
                "defense" => Style::Defense,
                "dueling" => Style::Dueling,
                "great-weapon-fighting" => Style::GreatWeaponFighting,
                "protection" => Style::Protection,
                "two-weapon-fighting" => Style::TwoWeaponFighting,
                _ => return None,
            })
        })
}

/// Whether `c` carries a shield.
pub fn carries_shield(srd: &Srd, c: &Character) -> bool {
    c.inventory.iter().any(|s| {
        srd.armor(&s.name)
            .is_ok_and(|a| a.category == ArmorCategory::Shield)
    })
}

/// Whether `weapon` is held in two hands by `c` for `attack` (see the module's note).
pub fn in_two_hands(srd: &Srd, c: &Character, attack: &CharacterAttack, weapon: &Weapon) -> bool {
    let has = |p: &str| weapon.properties.iter().any(|q| q.eq_ignore_ascii_case(p));
    has("two-handed")
        || (has("versatile")
            && (weapon.versatile == Some(attack.damage) || !carries_shield(srd, c)))
}

/// Archery's +2 to hit with a ranged weapon; 0 otherwise.
pub fn attack_bonus(srd: &Srd, c: &Character, attack: &CharacterAttack) -> i32 {
    let ranged = srd.weapon(&attack.name).is_ok_and(|w| w.ranged);
    if ranged && style(c) == Some(Style::Archery) {
        2
    } else {
        0
    }
}

/// Dueling's +2 damage with a melee weapon held in one hand; 0 otherwise.
pub fn damage_bonus(srd: &Srd, c: &Character, attack: &CharacterAttack) -> i32 {
    match srd.weapon(&attack.name) {
        Ok(w)
            if !w.ranged
                && style(c) == Some(Style::Dueling)
                && !in_two_hands(srd, c, attack, w) =>
        {
            2
        }
        _ => 0,
    }
}

/// Whether Great Weapon Fighting rerolls this attack's low damage dice: a melee weapon held
/// in two hands, swung in melee.
pub fn rerolls_low_dice(srd: &Srd, c: &Character, attack: &CharacterAttack, melee: bool) -> bool {
    melee
        && style(c) == Some(Style::GreatWeaponFighting)
        && srd
            .weapon(&attack.name)
            .is_ok_and(|w| !w.ranged && in_two_hands(srd, c, attack, w))
}

/// Great Weapon Fighting on a rolled hit: each 1 or 2 of the weapon's dice (the first damage
/// entry) is rolled again once and the new roll stands; the damage taken is counted again.
pub fn reroll_low_dice<R: DieSource + ?Sized>(
    result: &mut AttackResult,
    defenses: &Defenses,
    rng: &mut R,
) {
    let Some(first) = result.damage.first_mut() else {
        return;
    };
    if !first.faces.iter().any(|f| *f <= 2) {
        return;
    }
    let sides = first.dice.sides.max(1);
    let faces = first
        .faces
        .iter()
        .map(|f| {
            if *f <= 2 {
                rng.die(u32::from(sides)) as u16
            } else {
                *f
            }
        })
        .collect();
    let before = first.taken;
    *first = damage_from_faces(&first.dice, faces, defenses);
    result.total_damage = result.total_damage - before + first.taken;
}
