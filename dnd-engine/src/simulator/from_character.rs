//! Any character sheet as a combatant: a pregenerated hero, one made by
//! [`CharacterChoices::build`](crate::character::CharacterChoices::build), or one read from a
//! character file ([`load_character_file`](crate::character::load_character_file)), so "can
//! my party beat this?" is asked of the heroes people make.
//!
//! What the sheet gives the simulator: maximum hit points, Armor Class now, initiative
//! (Dexterity), saves, speed, its defenses (the race's resistances included), and each turn the
//! Attack action with its best attack by average damage: the weapon swung as many times as
//! the class's Extra Attack allows, or an attack cantrip cast once. The simulator plays no
//! class feature, spell slot or racial trait beyond these (see the module's "Not played").

use super::{Combatant, Reach, Side, SimAction};
use crate::rules::Ability;
use crate::srd::Srd;
use crate::state::{Character, CharacterAttack};

/// Why a character cannot fight in the simulator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CharacterConversionError {
    /// The sheet lists no attack.
    #[error("{0} has no attack on its sheet: give it a weapon or an attack cantrip")]
    NoAttack(String),
}

impl Combatant {
    /// The character `c` as a party combatant (see the [module docs](crate::simulator)); `srd` gives the
    /// weapons' reach and range and tells a cantrip from a weapon.
    ///
    /// ```
    /// use dnd_engine::character::read_character_file;
    /// use dnd_engine::simulator::{Combatant, SimAction};
    /// use dnd_engine::srd::Srd;
    ///
    /// let srd = Srd::bundled();
    /// let sheet = read_character_file(r#"{
    ///   "name": "Brakka", "race": "Half-Orc", "class": "Fighter", "level": 5,
    ///   "subclass": "Champion",
    ///   "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
    ///   "scores": {"method": "standard_array",
    ///              "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
    ///   "skills": ["perception", "survival"],
    ///   "features": {"fighter-fighting-style": ["Great Weapon Fighting"]},
    ///   "equipment": {"kit": [{"option": 1}, {"option": 2, "picks": ["Greatsword", "Longsword"]},
    ///                         {"option": 2}, {"option": 2}]}
    /// }"#, srd).unwrap();
    /// let brakka = Combatant::from_character(&sheet, srd).unwrap();
    /// assert_eq!(brakka.hit_points, sheet.hp.max);
    /// // Extra Attack: two swings a turn at 5th level.
    /// assert_eq!(brakka.actions.len(), 2);
    /// assert!(matches!(brakka.actions[0], SimAction::Attack { .. }));
    /// ```
    pub fn from_character(c: &Character, srd: &Srd) -> Result<Combatant, CharacterConversionError> {
        let best = c
            .attacks
            .iter()
            .max_by_key(|a| (c.attack_damage(a).average(), c.attack_bonus(a)))
            .ok_or_else(|| CharacterConversionError::NoAttack(c.name.clone()))?;
        let is_spell = srd.spell_named(&best.name).is_some();
        let swings = if is_spell {
            1
        } else {
            srd.class(&c.class)
                .map_or(1, |class| class.attacks_per_attack_action(c.level))
        };
        let mut combatant = Combatant::new(&c.name, Side::Party, c.hp.max, c.armor_class_now())
            .with_initiative(
                c.abilities.modifier(Ability::Dexterity),
                c.abilities.dexterity,
            )
            .with_saves(Ability::ALL.map(|a| c.save_modifier(a)))
            .with_speed(c.speed);
        combatant.defenses = c.defenses_now(srd);
        for _ in 0..swings {
            combatant.actions.push(attack_action(c, srd, best));
        }
        Ok(combatant)
    }
}

/// One attack of `c` with `attack`, as the simulator rolls it.
fn attack_action(c: &Character, srd: &Srd, attack: &CharacterAttack) -> SimAction {
    SimAction::Attack {
        name: attack.name.clone(),
        to_hit: c.attack_bonus(attack),
        damage: std::iter::once(c.attack_damage(attack)).collect(),
        magical: c.attack_is_magical(attack),
        reach: reach_of(srd, attack),
    }
}

/// A weapon's reach or range from the SRD; a cantrip's from its sheet entry.
fn reach_of(srd: &Srd, attack: &CharacterAttack) -> Reach {
    Reach::of_character_attack(srd, attack)
}
