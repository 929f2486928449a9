//! A monster action's mechanics in the effects engine's vocabulary, built once from its
//! structured fields when the data is read (both loaders call [`fill`]): the one form the
//! interpreter (`effects::resolve`) reads, so a breath, a song, Life Drain and a prone bite
//! are decided where spells are.
//!
//! - An action without an attack that forces a save (a breath, Engulf, a song): a save at the
//!   data's DC whose failure deals the damage (half on a success when the data says so) and
//!   carries the rider.
//! - An action with an attack whose save carries a rider the code applies (Life Drain, the
//!   wolf's bite): what a hit carries, a save at the data's DC whose failure brings the rider;
//!   the hit's damage stays with the weapon attack.
//! - Anything else: no effects (a plain attack, or a save the description only tells).

use super::{MonsterAction, SaveEffect};
use crate::effects::{Dice, Effect};
use crate::rules::DamageDice;

/// Fills `action.effects` from its fields when the data did not write them.
pub fn fill(action: &mut MonsterAction) {
    if action.effects.is_empty() {
        action.effects = effects_of(action);
    }
}

/// What `action` does as effects (see the module docs).
pub fn effects_of(action: &MonsterAction) -> Vec<Effect> {
    let Some(save) = action.save else {
        return Vec::new();
    };
    let rider: Vec<Effect> = match &action.on_failed_save {
        Some(SaveEffect::Conditions {
            conditions,
            repeat: true,
        }) => vec![Effect::Hold {
            conditions: conditions.clone(),
        }],
        Some(SaveEffect::Conditions { conditions, .. }) => conditions
            .iter()
            .map(|c| Effect::AddCondition { condition: *c })
            .collect(),
        Some(SaveEffect::DrainMaxHp) => vec![Effect::MaxHpReduction],
        None => Vec::new(),
    };
    let mut on_fail: Vec<Effect> = Vec::new();
    if action.attack.is_none() {
        on_fail.extend(action.damage.iter().map(damage));
    }
    on_fail.extend(rider);
    if on_fail.is_empty() {
        return Vec::new();
    }
    vec![Effect::Save {
        ability: save.ability,
        dc: Some(save.dc),
        on_success: save.on_success,
        ignores_cover: false,
        on_fail,
    }]
}

/// A stat block's damage dice as an effect.
fn damage(d: &DamageDice) -> Effect {
    Effect::Damage {
        dice: Dice {
            count: d.count,
            sides: d.sides,
            bonus: d.bonus,
            add_modifier: false,
            per_slot_level: 0,
            slot_levels_per_step: 1,
            bonus_per_slot_level: 0,
            by_tier: false,
        },
        damage_type: d.kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ability, Condition};
    use crate::srd::{OnSave, Srd};

    fn action(monster: &str, name: &str) -> MonsterAction {
        let m = Srd::bundled().monster(monster).unwrap();
        m.actions.iter().find(|a| a.name == name).unwrap().clone()
    }

    #[test]
    fn a_breath_is_a_save_for_half_of_its_damage() {
        let breath = action("white-dragon-wyrmling", "Cold Breath");
        let Effect::Save {
            ability,
            dc,
            on_success,
            on_fail,
            ..
        } = &breath.effects[0]
        else {
            panic!("{:?}", breath.effects);
        };
        assert_eq!(
            (*ability, *dc, *on_success),
            (Ability::Constitution, Some(12), OnSave::Half)
        );
        assert!(matches!(
            on_fail[..],
            [Effect::Damage {
                dice: Dice {
                    count: 5,
                    sides: 8,
                    ..
                },
                ..
            }]
        ));
    }

    #[test]
    fn riders_of_a_hit_leave_the_damage_to_the_weapon() {
        let drain = action("specter", "Life Drain");
        let Effect::Save { on_fail, .. } = &drain.effects[0] else {
            panic!("{:?}", drain.effects);
        };
        assert_eq!(on_fail, &vec![Effect::MaxHpReduction]);
        let bite = action("wolf", "Bite");
        let Effect::Save { on_fail, .. } = &bite.effects[0] else {
            panic!("{:?}", bite.effects);
        };
        let prone = Effect::AddCondition {
            condition: Condition::Prone,
        };
        assert_eq!(on_fail, &vec![prone]);
        // A save the description only tells (the giant spider's poison) does nothing here.
        assert!(action("giant-spider", "Bite").effects.is_empty());
    }

    #[test]
    fn the_song_holds() {
        let song = action("harpy", "Luring Song");
        let Effect::Save { on_fail, .. } = &song.effects[0] else {
            panic!("{:?}", song.effects);
        };
        let conditions = vec![Condition::Charmed, Condition::Incapacitated];
        assert_eq!(on_fail, &vec![Effect::Hold { conditions }]);
    }
}
