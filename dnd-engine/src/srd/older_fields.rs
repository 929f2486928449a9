//! The effects a spell's older fields (`attack`, `save`, `damage`, `healing`) say, for the
//! 5e-database loader, which parses those from its records: a spell attack or a save with its
//! damage, damage alone, or a heal, the dice by slot or by character level turned into one
//! [`Dice`] with its scaling. Dice whose scaling the vocabulary cannot say (Spiritual Weapon's
//! die every two slot levels) give no effects.

use super::{AttackKind, ScalesWith, Spell, SpellDice};
use crate::effects::{Dice, Effect};
use crate::rules::{DamageDice, DamageType};

impl Spell {
    /// The effects its older fields describe, or `None` when their dice scale in a way one
    /// [`Dice`] cannot say. Empty for a spell with none of those fields.
    pub fn effects_from_older_fields(&self) -> Option<Vec<Effect>> {
        if let Some(healing) = &self.healing {
            let dice = dice_of(self.level, healing)?;
            return Some(vec![Effect::Heal { dice }]);
        }
        let damage = match &self.damage {
            Some(d) => Some(Effect::Damage {
                dice: dice_of(self.level, d)?,
                damage_type: d.kind?,
            }),
            None => None,
        };
        let inner: Vec<Effect> = damage.into_iter().collect();
        if let Some(kind) = self.attack {
            return Some(vec![Effect::SpellAttack {
                melee: matches!(kind, AttackKind::MeleeSpell | AttackKind::MeleeWeapon),
                on_hit: inner,
            }]);
        }
        if let Some(save) = self.save {
            return Some(vec![Effect::Save {
                ability: save.ability,
                dc: None,
                on_success: save.on_success,
                ignores_cover: save.ignores_cover,
                on_fail: inner,
            }]);
        }
        Some(inner)
    }
}

/// One [`Dice`] for dice by level: by slot, a count at the spell's level and the same number
/// more each slot above; by character level, a count constant or times the cantrip's tier
/// (at 1, 5, 11 and 17). Sides and bonus must not change.
fn dice_of(level: u8, dice: &SpellDice) -> Option<Dice> {
    let parsed: Vec<(u8, DamageDice)> = dice
        .dice
        .iter()
        .map(|(k, text)| Some((*k, DamageDice::parse(text, DamageType::Force).ok()?)))
        .collect::<Option<_>>()?;
    let (_, first) = parsed.first()?;
    if parsed
        .iter()
        .any(|(_, d)| d.sides != first.sides || d.bonus != first.bonus)
    {
        return None;
    }
    let mut out = Dice {
        count: first.count,
        sides: first.sides,
        bonus: first.bonus,
        add_modifier: dice.add_modifier,
        per_slot_level: 0,
        bonus_per_slot_level: 0,
        by_tier: false,
    };
    match dice.scales_with {
        ScalesWith::CharacterLevel => {
            let tier = |k: u8| match k {
                17.. => 4,
                11.. => 3,
                5.. => 2,
                _ => 1,
            };
            let constant = parsed.iter().all(|(_, d)| d.count == first.count);
            out.by_tier = !constant;
            let fits = parsed
                .iter()
                .all(|(k, d)| constant || d.count == first.count * tier(*k));
            fits.then_some(out)
        }
        ScalesWith::SlotLevel => {
            let base = parsed.iter().find(|(k, _)| *k == level.max(1))?.1.count;
            out.count = base;
            out.per_slot_level = parsed
                .iter()
                .find(|(k, _)| *k == level.max(1) + 1)
                .map_or(0, |(_, d)| d.count.saturating_sub(base));
            let fits = parsed.iter().all(|(k, d)| {
                u16::from(k.saturating_sub(level.max(1))) * out.per_slot_level + base == d.count
            });
            fits.then_some(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::srd::{AttackKind, ScalesWith, SpellDice, Srd};

    fn dice(scales_with: ScalesWith, entries: &[(u8, &str)]) -> SpellDice {
        SpellDice {
            kind: Some(crate::rules::DamageType::Fire),
            scales_with,
            dice: entries.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
            add_modifier: false,
        }
    }

    #[test]
    fn older_fields_become_the_same_effects_as_the_bundled_data() {
        // Fireball and Fire Bolt written the older way give the effects the bundled data has.
        let srd = Srd::bundled();
        let mut fireball = srd.spell("Fireball").unwrap().clone();
        let bundled = std::mem::take(&mut fireball.effects);
        fireball.save = Some(crate::srd::SpellSave {
            ability: crate::rules::Ability::Dexterity,
            on_success: crate::srd::OnSave::Half,
            ignores_cover: false,
        });
        fireball.damage = Some(dice(
            ScalesWith::SlotLevel,
            &[(3, "8d6"), (4, "9d6"), (5, "10d6"), (9, "14d6")],
        ));
        assert_eq!(fireball.effects_from_older_fields(), Some(bundled));
        let mut bolt = srd.spell("Fire Bolt").unwrap().clone();
        let bundled = std::mem::take(&mut bolt.effects);
        bolt.attack = Some(AttackKind::RangedSpell);
        bolt.damage = Some(dice(
            ScalesWith::CharacterLevel,
            &[(1, "1d10"), (5, "2d10"), (11, "3d10"), (17, "4d10")],
        ));
        assert_eq!(bolt.effects_from_older_fields(), Some(bundled));
        // A die every two slot levels cannot be said: no effects.
        bolt.damage = Some(dice(
            ScalesWith::SlotLevel,
            &[(2, "1d8"), (3, "1d8"), (4, "2d8")],
        ));
        bolt.level = 2;
        assert_eq!(bolt.effects_from_older_fields(), None);
    }
}
