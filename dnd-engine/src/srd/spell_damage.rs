//! What one casting of a spell rolls first, read from its effects: the first spell attack or
//! save ([`Spell::first_roll`]) and its damage dice at a given slot and caster level
//! ([`Spell::damage_dice`]). Casting (through `effects::resolve`) and the odds of a casting
//! (`tools::odds`) read the same effects; a spell without effects rolls nothing.

use super::{AttackKind, Spell, SpellSave};
use crate::effects::Effect;
use crate::rules::DamageDice;

/// The first roll a spell makes on each target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstRoll {
    /// A spell attack.
    Attack,
    /// A saving throw.
    Save(SpellSave),
    /// None: the damage lands (Magic Missile's darts), `count` darts at the spell's level and
    /// `per_slot_level` more per slot above (0 and 0 for a spell whose data has no darts).
    Lands {
        /// Darts at the spell's own level.
        count: u8,
        /// More per slot level above.
        per_slot_level: u8,
    },
}

/// The first attack, save or darts in `effects`, depth first, with the damage effect that
/// follows it (the first one inside it).
fn first(effects: &[Effect]) -> Option<(FirstRoll, Option<&Effect>)> {
    for e in effects {
        match e {
            Effect::SpellAttack { on_hit, .. } => {
                return Some((FirstRoll::Attack, damage_in(on_hit)));
            }
            Effect::Save {
                ability,
                on_success,
                ignores_cover,
                on_fail,
                ..
            } => {
                let save = SpellSave {
                    ability: *ability,
                    on_success: *on_success,
                    ignores_cover: *ignores_cover,
                };
                return Some((FirstRoll::Save(save), damage_in(on_fail)));
            }
            Effect::Darts {
                count,
                per_slot_level,
                ..
            } => {
                let lands = FirstRoll::Lands {
                    count: *count,
                    per_slot_level: *per_slot_level,
                };
                return Some((lands, Some(e)));
            }
            Effect::Damage { .. } => {
                let lands = FirstRoll::Lands {
                    count: 1,
                    per_slot_level: 0,
                };
                return Some((lands, Some(e)));
            }
            _ => {}
        }
    }
    None
}

fn damage_in(effects: &[Effect]) -> Option<&Effect> {
    effects.iter().find(|e| matches!(e, Effect::Damage { .. }))
}

impl Spell {
    /// The spell attack it makes, melee or ranged, from its effects; `None` for a spell that makes none.
    pub fn attack_kind(&self) -> Option<AttackKind> {
        fn find(effects: &[Effect]) -> Option<AttackKind> {
            effects.iter().find_map(|e| match e {
                Effect::SpellAttack { melee: true, .. } => Some(AttackKind::MeleeSpell),
                Effect::SpellAttack { .. } => Some(AttackKind::RangedSpell),
                Effect::Save { on_fail, .. } => find(on_fail),
                _ => None,
            })
        }
        find(&self.effects)
    }

    /// Whether it deals damage or heals (a Self spell that does reaches a creature beside the
    /// caster: Vampiric Touch), from its effects.
    pub fn deals_or_heals(&self) -> bool {
        fn find(effects: &[Effect]) -> bool {
            effects.iter().any(|e| match e {
                Effect::Damage { .. } | Effect::Darts { .. } | Effect::Heal { .. } => true,
                Effect::SpellAttack { on_hit: inner, .. } | Effect::Save { on_fail: inner, .. } => {
                    find(inner)
                }
                _ => false,
            })
        }
        find(&self.effects)
    }

    /// The first roll the spell makes on each target, from its effects; `None` for a spell that neither attacks, forces
    /// a save nor deals damage.
    pub fn first_roll(&self) -> Option<FirstRoll> {
        first(&self.effects).map(|(roll, _)| roll)
    }

    /// The damage one casting deals on a hit or a failed save (one dart's for darts): the dice
    /// of the first attack's or save's damage for `slot_level` (a cantrip's for
    /// `character_level`), plus `ability_modifier` when the spell adds it. `None` for a spell
    /// without damage dice, or below its first level.
    pub fn damage_dice(
        &self,
        slot_level: u8,
        character_level: u8,
        ability_modifier: i32,
    ) -> Option<DamageDice> {
        let (_, effect) = first(&self.effects)?;
        let (dice, kind) = match effect? {
            Effect::Damage { dice, damage_type }
            | Effect::Darts {
                dice, damage_type, ..
            } => (dice, *damage_type),
            _ => return None,
        };
        if slot_level < self.level {
            return None;
        }
        let (count, sides, bonus) =
            dice.at(self.level, slot_level, character_level, ability_modifier);
        Some(DamageDice::new(count, sides, bonus, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::FirstRoll;
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

    #[test]
    fn the_first_roll_and_its_dice_come_from_the_effects() {
        let srd = Srd::bundled();
        let spell = |name| srd.spell(name).unwrap();
        assert_eq!(spell("Ray of Frost").first_roll(), Some(FirstRoll::Attack));
        let Some(FirstRoll::Save(save)) = spell("Lightning Bolt").first_roll() else {
            panic!("Lightning Bolt forces a save");
        };
        assert_eq!(save.ability, crate::rules::Ability::Dexterity);
        assert_eq!(
            spell("Lightning Bolt")
                .damage_dice(5, 9, 3)
                .unwrap()
                .to_string(),
            "10d6 lightning"
        );
        assert_eq!(
            spell("Magic Missile").first_roll(),
            Some(FirstRoll::Lands {
                count: 3,
                per_slot_level: 1
            })
        );
        assert_eq!(
            spell("Magic Missile")
                .damage_dice(1, 1, 3)
                .unwrap()
                .to_string(),
            "1d4+1 force"
        );
        // Below the spell's level, no dice; a save with no damage, none either.
        assert_eq!(spell("Shatter").damage_dice(1, 9, 3), None);
        assert!(matches!(
            spell("Hold Person").first_roll(),
            Some(FirstRoll::Save(_))
        ));
        assert_eq!(spell("Hold Person").damage_dice(2, 3, 3), None);
    }
}
