//! Older saves' item stacks: an oil was once written `"effect": {"coat_weapon": {"extra":
//! ...}}` beside the effects data. Read here into the same effects data the adventure now
//! writes (a coating, `effects::Effect::WeaponDamage`, for a minute), so a saved game with an
//! oil in a pack still coats a weapon through the effects engine.

use serde::Deserialize;

use super::ItemStack;
use crate::effects::{Dice, Duration, Effect, ItemData, ItemKind};
use crate::rules::DamageDice;

/// An item stack as written, old fields included.
#[derive(Deserialize)]
pub(super) struct StackWire {
    name: String,
    quantity: u32,
    #[serde(default)]
    note: String,
    #[serde(default)]
    effect: Option<LegacyEffect>,
    #[serde(default)]
    magic: Option<ItemData>,
    #[serde(default)]
    used_today: u8,
}

/// The old item effect: a coating until the fight ended.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum LegacyEffect {
    CoatWeapon {
        #[serde(default)]
        extra: Option<DamageDice>,
    },
}

impl From<StackWire> for ItemStack {
    fn from(w: StackWire) -> ItemStack {
        let legacy = match w.effect {
            Some(LegacyEffect::CoatWeapon { extra: Some(extra) }) => Some(coating(extra)),
            _ => None,
        };
        ItemStack {
            name: w.name,
            quantity: w.quantity,
            note: w.note,
            magic: w.magic.or(legacy),
            used_today: w.used_today,
        }
    }
}

/// An oil adding `extra` to the hits of the weapon it coats, for a minute, used up.
fn coating(extra: DamageDice) -> ItemData {
    ItemData {
        kind: ItemKind::Wondrous,
        on_use: vec![Effect::WeaponDamage {
            dice: Dice::flat(extra.count, extra.sides),
            damage_type: extra.kind,
            next_hit_only: false,
            coating: true,
            weapon: None,
            duration: Duration::Minutes(1),
        }],
        carried: Vec::new(),
        consumed: true,
        per_day: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_saves_oil_loads_as_a_coating_effect() {
        let old = r#"{"name": "Hearthfire Oil", "quantity": 1,
            "effect": {"coat_weapon": {"extra": {"dice": "1d4", "type": "fire"}}}}"#;
        let stack: ItemStack = serde_json::from_str(old).unwrap();
        let data = stack.magic.expect("the oil keeps what it does");
        assert!(data.consumed);
        assert!(matches!(
            &data.on_use[..],
            [Effect::WeaponDamage { coating: true, dice, damage_type: crate::rules::DamageType::Fire, .. }]
                if dice.count == 1 && dice.sides == 4
        ));
        // Written back, it is the new form, and reads the same.
        let again: ItemStack = serde_json::from_str(
            &serde_json::to_string(&ItemStack {
                magic: Some(data),
                ..stack
            })
            .unwrap(),
        )
        .unwrap();
        assert!(again.magic.is_some());
    }
}
