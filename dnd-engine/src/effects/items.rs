//! What items need of the vocabulary: an item's data ([`ItemData`]: what using it does, what
//! carrying it does, whether it is used up), the SRD's magic items as data
//! (`srd/data/magic_items.json`, read into [`MagicItem`]s and the spell scroll's table of
//! [`ScrollLevel`]s), and the pure reads of what carried items add (AC, a weapon's bonus,
//! resistances). Plain data and arithmetic: `srd` and `state` read it, and what using an item
//! does is resolved by [`super::resolve`] like a spell, the user as the caster.
//!
//! ```
//! use dnd_engine::effects::{ItemData, ItemKind};
//!
//! let flask: ItemData = serde_json::from_str(r#"{"kind": "potion", "consumed": true, "use": [
//!   {"effect": "resistance", "damage_types": ["cold", "necrotic"], "duration": {"minutes": 1}}
//! ]}"#).unwrap();
//! assert_eq!(flask.kind, ItemKind::Potion);
//! assert_eq!(flask.on_use.len(), 1);
//! ```

use serde::{Deserialize, Serialize};

use super::vocabulary::Effect;
use crate::rules::DamageTypes;

/// What sort of item it is: how it is used and what its carried effects attach to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Drunk (an action in a fight), by the user or fed to a creature within 5 ft.
    Potion,
    /// A weapon: its carried effects name the weapon it is.
    Weapon,
    /// Armour, worn.
    Armor,
    /// A shield, carried.
    Shield,
    /// A spell scroll: read to cast the spell it holds (see [`ScrollLevel`]).
    Scroll,
    /// Anything else (an amulet, a flask).
    #[default]
    Wondrous,
}

/// What an item does, as data: on a stack in an inventory (`state::ItemStack::magic`, from the
/// adventure or filled from the SRD when the adventure is built) and in the SRD's list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemData {
    /// Its sort.
    #[serde(default)]
    pub kind: ItemKind,
    /// What using it does, resolved with the user as the caster and the drinker (or the user)
    /// as the target.
    #[serde(default, rename = "use", skip_serializing_if = "Vec::is_empty")]
    pub on_use: Vec<Effect>,
    /// What carrying it does ([`Effect::MagicWeapon`], [`Effect::MagicArmor`],
    /// [`Effect::Resistance`] without a duration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<Effect>,
    /// Using it uses it up (a potion, a scroll).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub consumed: bool,
    /// Its use is a power of so many uses a day, back at dawn (the Rimeheart Amulet: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_day: Option<u8>,
}

impl ItemData {
    /// Whether using it does anything the engine resolves.
    pub fn is_usable(&self) -> bool {
        !self.on_use.is_empty() || self.kind == ItemKind::Scroll
    }
}

/// One of the SRD's magic items: its name and data. "Weapon, +1" stands for every +1 weapon,
/// "Spell Scroll" for every scroll (see `srd::Srd::magic_item`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MagicItem {
    /// As the SRD names it ("Potion of Greater Healing", "Armor, +2").
    pub name: String,
    /// What it does.
    #[serde(flatten)]
    pub data: ItemData,
}

/// A row of the spell scroll's table: the save DC and attack bonus of a scroll's spell, by
/// the spell's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScrollLevel {
    /// The spell's level (0 for a cantrip).
    pub level: u8,
    /// Its save DC.
    pub save_dc: i32,
    /// Its spell attack bonus.
    pub attack_bonus: i32,
}

/// The DC of the ability check a caster makes to read a scroll of a spell above the levels it
/// can cast: 10 + the spell's level (the SRD's spell scroll).
pub fn scroll_check_dc(spell_level: u8) -> i32 {
    10 + i32::from(spell_level)
}

/// A "+N" item's base name and bonus: "+1 Longsword", "Longsword +1", "Longsword, +1" and
/// "Longsword (+1)" are ("Longsword", 1). Only +1 to +3, as the SRD has them.
pub fn plus_bonus(name: &str) -> Option<(&str, i32)> {
    let name = name.trim();
    let digit = |s: &str| match s {
        "+1" => Some(1),
        "+2" => Some(2),
        "+3" => Some(3),
        _ => None,
    };
    if let Some((first, rest)) = name.split_once(' ')
        && let Some(n) = digit(first)
    {
        return Some((rest.trim(), n));
    }
    let (rest, last) = name.rsplit_once(' ')?;
    let n = digit(last.trim_start_matches('(').trim_end_matches(')'))?;
    let base = rest.trim().trim_end_matches(',').trim();
    (!base.is_empty()).then_some((base, n))
}

/// The spell a scroll's name holds: "Spell Scroll (Bless)", "Spell Scroll of Bless",
/// "Scroll of Bless", "Spell Scroll: Bless" are "Bless".
pub fn scroll_spell(name: &str) -> Option<&str> {
    let name = name.trim();
    let lower = name.to_ascii_lowercase();
    for prefix in ["spell scroll of ", "scroll of ", "spell scroll: "] {
        if lower.starts_with(prefix) {
            return Some(name[prefix.len()..].trim()).filter(|s| !s.is_empty());
        }
    }
    if lower.starts_with("spell scroll (") && lower.ends_with(')') {
        return Some(name["spell scroll (".len()..name.len() - 1].trim()).filter(|s| !s.is_empty());
    }
    None
}

/// The AC carried items add: the best magic armour's bonus plus the best magic shield's.
pub fn armor_bonus<'a>(items: impl IntoIterator<Item = &'a ItemData>) -> i32 {
    let (mut armor, mut shield) = (0, 0);
    for e in items.into_iter().flat_map(|d| &d.carried) {
        if let Effect::MagicArmor { bonus, shield: s } = e {
            let best = if *s { &mut shield } else { &mut armor };
            *best = (*best).max(*bonus);
        }
    }
    armor + shield
}

/// The best bonus of a carried magic weapon that is `weapon` (its name without the "+N", in
/// any case: a "+1 Longsword" is the sheet's "Longsword"), if one is carried.
pub fn weapon_bonus<'a>(
    items: impl IntoIterator<Item = (&'a str, &'a ItemData)>,
    weapon: &str,
) -> Option<i32> {
    let wanted = crate::srd::slugify(weapon);
    items
        .into_iter()
        .filter(|(name, _)| {
            let base = plus_bonus(name).map_or(*name, |(base, _)| base);
            crate::srd::slugify(base) == wanted
        })
        .flat_map(|(_, d)| &d.carried)
        .filter_map(|e| match e {
            Effect::MagicWeapon { bonus } => Some(*bonus),
            _ => None,
        })
        .max()
}

/// The damage types carried items make their bearer resist.
pub fn carried_resistances<'a>(items: impl IntoIterator<Item = &'a ItemData>) -> DamageTypes {
    let mut out = DamageTypes::EMPTY;
    for e in items.into_iter().flat_map(|d| &d.carried) {
        if let Effect::Resistance {
            damage_types,
            duration: None,
        } = e
        {
            out = out.union(*damage_types);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::DamageType;

    #[test]
    fn plus_names_read_every_way_the_srd_and_adventures_write_them() {
        assert_eq!(plus_bonus("+1 Longsword"), Some(("Longsword", 1)));
        assert_eq!(plus_bonus("Longsword +2"), Some(("Longsword", 2)));
        assert_eq!(plus_bonus("Chain Mail, +3"), Some(("Chain Mail", 3)));
        assert_eq!(plus_bonus("Shield (+1)"), Some(("Shield", 1)));
        assert_eq!(plus_bonus("Longsword +4"), None, "the SRD stops at +3");
        assert_eq!(plus_bonus("Longsword"), None);
        assert_eq!(plus_bonus("+1"), None);
    }

    #[test]
    fn scroll_names_give_their_spell() {
        assert_eq!(scroll_spell("Spell Scroll (Bless)"), Some("Bless"));
        assert_eq!(
            scroll_spell("scroll of Magic Missile"),
            Some("Magic Missile")
        );
        assert_eq!(scroll_spell("Spell Scroll: Shield"), Some("Shield"));
        assert_eq!(scroll_spell("Spell Scroll ()"), None);
        assert_eq!(scroll_spell("Scrollwork Box"), None);
        assert_eq!(scroll_check_dc(3), 13);
    }

    #[test]
    fn carried_items_add_the_best_armour_and_shield_and_their_resistances() {
        let armour = |bonus, shield| ItemData {
            kind: ItemKind::Armor,
            carried: vec![Effect::MagicArmor { bonus, shield }],
            ..ItemData::default()
        };
        let amulet = ItemData {
            carried: vec![Effect::Resistance {
                damage_types: [DamageType::Cold].into_iter().collect(),
                duration: None,
            }],
            ..ItemData::default()
        };
        let items = [armour(1, false), armour(2, false), armour(1, true), amulet];
        assert_eq!(
            armor_bonus(&items),
            3,
            "+2 armour (not +1 as well) and a +1 shield"
        );
        let res = carried_resistances(&items);
        assert!(res.contains(DamageType::Cold) && !res.contains(DamageType::Fire));
        let sword = ItemData {
            kind: ItemKind::Weapon,
            carried: vec![Effect::MagicWeapon { bonus: 2 }],
            ..ItemData::default()
        };
        let carried = [("Longsword +2", &sword), ("+1 Dagger", &items[0])];
        assert_eq!(weapon_bonus(carried, "longsword"), Some(2));
        assert_eq!(weapon_bonus(carried, "Dagger"), None, "armour is no weapon");
        assert_eq!(weapon_bonus(carried, "Greatsword"), None);
    }
}
