//! Weapons made magical by a spell ([`Effect::WeaponPlus`], Magic Weapon): the bonus a slot
//! gives, the timed kind it starts on the wielder, and the one read of it,
//! [`spell_weapon_plus`], which `state::Character::magic_weapon_bonus` asks for each attack.
//! Also a weapon empowered ([`Effect::EmpowerWeapon`], Shillelagh), read by [`empowered`] in
//! `Character::attack_bonus`, `attack_damage` and `attack_is_magical`. Also the amount a raised hit point maximum ([`Effect::RaiseMaxHp`], Aid) reaches by slot;
//! the state raises and lowers the hit points as it starts and ends (`state/timed_hp.rs`).
//!
//! Characters' attacks name no weapon the spell could be laid on, so the bonus goes with the
//! wielder: every nonmagical weapon attack of its gains it. A weapon already magical (a +1
//! sword, a magic bonus on the sheet, a cantrip) gains nothing, as the spell says.

use super::casting::Casting;
use super::vocabulary::Effect;
use crate::state::{TimedEffect, TimedKind};

/// The timed kind a [`Effect::WeaponPlus`] or [`Effect::RaiseMaxHp`] starts when a spell of
/// `level` is cast with `slot`: the weapon's bonus grows by one per `slot_levels_per_step`
/// slot levels above, up to `most`; the raise by `per_slot_level` per slot level above.
pub(super) fn timed_kind(effect: &Effect, casting: &Casting<'_>) -> Option<TimedKind> {
    let (level, slot) = (casting.level, casting.slot);
    if let Effect::EmpowerWeapon { weapons, sides, .. } = effect {
        return Some(TimedKind::EmpoweredWeapon {
            weapons: weapons.clone(),
            sides: *sides,
            modifier: casting.caster.modifier,
        });
    }
    if let Effect::RaiseMaxHp {
        amount,
        per_slot_level,
        ..
    } = effect
    {
        let above = u32::from(slot.saturating_sub(level));
        return Some(TimedKind::MaxHpRaised {
            amount: amount + per_slot_level * above,
        });
    }
    let Effect::WeaponPlus {
        bonus,
        slot_levels_per_step,
        most,
        ..
    } = effect
    else {
        return None;
    };
    let steps = slot.saturating_sub(level) / (*slot_levels_per_step).max(1);
    Some(TimedKind::WeaponPlus {
        bonus: (bonus + i32::from(steps)).min(*most),
    })
}

/// What a creature's timed effects do to its weapon attack `attack` (by name): the damage die's
/// sides and the modifier it attacks with, where a spell empowers it (Shillelagh).
pub fn empowered(effects: &[TimedEffect], attack: &str) -> Option<(u16, i32)> {
    effects.iter().find_map(|e| match &e.kind {
        TimedKind::EmpoweredWeapon {
            weapons,
            sides,
            modifier,
        } if weapons
            .iter()
            .any(|w| w.eq_ignore_ascii_case(attack.trim())) =>
        {
            Some((*sides, *modifier))
        }
        _ => None,
    })
}

/// The bonus a creature's timed effects give its nonmagical weapons (Magic Weapon): the
/// highest of them, 0 without one.
pub fn spell_weapon_plus(effects: &[TimedEffect]) -> i32 {
    effects
        .iter()
        .filter_map(|e| match e.kind {
            TimedKind::WeaponPlus { bonus } => Some(bonus),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::Duration;

    #[test]
    fn magic_weapons_bonus_is_1_then_2_at_4th_then_3_at_6th() {
        let magic_weapon = Effect::WeaponPlus {
            bonus: 1,
            slot_levels_per_step: 2,
            most: 3,
            duration: Duration::Hours(1),
        };
        let caster = crate::effects::Caster {
            id: "isolde".into(),
            name: "Isolde".into(),
            attack_bonus: 5,
            save_dc: 13,
            modifier: 3,
            level: 11,
        };
        let at = |slot| {
            let casting = Casting {
                caster: &caster,
                source: "Magic Weapon",
                level: 2,
                slot,
                concentration: true,
            };
            timed_kind(&magic_weapon, &casting)
        };
        let at = |slot| match at(slot) {
            Some(TimedKind::WeaponPlus { bonus }) => bonus,
            other => panic!("{other:?}"),
        };
        assert_eq!([2, 3, 4, 5, 6, 7, 9].map(at), [1, 1, 2, 2, 3, 3, 3]);
    }
}
