//! A player character's sheet, and the items and attacks on it.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::rules::{
    Ability, AbilityScores, ConditionSet, DamageDice, DeathSaves, HitDice, HitPoints, Proficiency,
    Skill, SpellSlots, proficiency_bonus, skill_modifier, spell_attack_bonus, spell_save_dc,
};

/// A stack of one item in an inventory or on the floor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "super::legacy_items::StackWire")]
pub struct ItemStack {
    /// The item's name ("Potion of Healing").
    pub name: String,
    /// How many (never 0 in an inventory: an empty stack is removed).
    pub quantity: u32,
    /// A short note ("heals 2d4+2", "opens the ice door").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// What using and carrying it does, as effects data (a potion, an oil, a +1 weapon, an
    /// amulet): written by the adventure, or filled from the SRD's magic items when the
    /// adventure is built. Without it, using the item is narrated (keys are known by name).
    /// Carried effects count only from here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magic: Option<crate::effects::ItemData>,
    /// Uses of its daily power spent since the last dawn (see
    /// [`Change::ItemPowerUsed`](super::Change::ItemPowerUsed)).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub used_today: u8,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

impl ItemStack {
    /// `quantity` of `name`, with no note.
    pub fn new(name: impl Into<String>, quantity: u32) -> ItemStack {
        ItemStack {
            name: name.into(),
            quantity,
            note: String::new(),
            magic: None,
            used_today: 0,
        }
    }
}

/// One attack on a character sheet: a weapon or an attack cantrip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterAttack {
    /// Its name ("Longsword").
    pub name: String,
    /// The ability it uses for to-hit and damage.
    pub ability: Ability,
    /// Whether the proficiency bonus is added to hit.
    #[serde(default = "yes")]
    pub proficient: bool,
    /// Damage dice without the ability modifier (`1d8 slashing`).
    pub damage: DamageDice,
    /// Whether the ability modifier is added to damage (weapons yes, most cantrips no).
    #[serde(default = "yes")]
    pub add_modifier_to_damage: bool,
    /// Extra bonus to hit and damage (a +1 weapon, a fighting style).
    #[serde(default)]
    pub magic_bonus: i32,
    /// Reach or range in feet, for the narration.
    #[serde(default)]
    pub range_ft: u32,
    /// Whether the attack is magical (a magic weapon, an attack cantrip): a creature that
    /// resists or ignores damage "from nonmagical attacks" takes it in full.
    #[serde(default)]
    pub magical: bool,
}

fn yes() -> bool {
    true
}

/// A player character.
///
/// The lists (spells, attacks, inventory) are shared behind `Arc`s like the collections of
/// [`GameState`](super::GameState), so copying a sheet for a change is cheap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// Stable id ("kraven"), used by tools and changes.
    pub id: String,
    /// Name as shown.
    pub name: String,
    /// Class, lower case ("fighter").
    pub class: String,
    /// Level 1 to 20.
    pub level: u8,
    /// Ancestry ("human").
    #[serde(default)]
    pub race: String,
    /// Ability scores.
    pub abilities: AbilityScores,
    /// Skill proficiencies (absent: none).
    #[serde(default)]
    pub skills: BTreeMap<Skill, Proficiency>,
    /// Abilities whose saves add the proficiency bonus.
    #[serde(default)]
    pub save_proficiencies: Vec<Ability>,
    /// Hit points.
    pub hp: HitPoints,
    /// Armor Class.
    pub armor_class: i32,
    /// Walking speed in feet.
    pub speed: u32,
    /// Conditions and exhaustion.
    #[serde(default)]
    pub conditions: ConditionSet,
    /// Death saves (meaningful at 0 HP).
    #[serde(default)]
    pub death_saves: DeathSaves,
    /// Whether the character is dead.
    #[serde(default)]
    pub dead: bool,
    /// When it died, in rounds ([`super::rounds_now`]): Revivify works within 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub died_at_round: Option<u64>,
    /// Hit dice.
    pub hit_dice: HitDice,
    /// Spell slots.
    #[serde(default)]
    pub spell_slots: SpellSlots,
    /// The spellcasting ability, for casters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spellcasting_ability: Option<Ability>,
    /// Spells prepared or known (SRD names).
    #[serde(default)]
    pub spells: Arc<Vec<String>>,
    /// The spell being concentrated on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<String>,
    /// Reactions declared ahead, cast by the engine during monsters' turns when legal (Shield
    /// when hit, Counterspell when a creature casts a spell): see `state::StandingReaction`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<super::StandingReaction>,
    /// Attacks.
    #[serde(default)]
    pub attacks: Arc<Vec<CharacterAttack>>,
    /// Inventory.
    #[serde(default)]
    pub inventory: Arc<Vec<ItemStack>>,
    /// Gold pieces.
    #[serde(default)]
    pub gold: u32,
    /// Id of the location the character is in.
    pub location: String,
    /// How much of the hit point maximum a monster drained (the specter's Life Drain), already
    /// taken off `hp.max`; a long rest gives it back.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hp_drained: u32,
    /// When its last long rest began: no one benefits from more than one long rest in 24
    /// hours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_long_rest: Option<super::GameTime>,
    /// Timed effects on it (Bless, Mage Armor, Hold Person): see `state::TimedEffect`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed_effects: Vec<super::TimedEffect>,
    /// Experience points earned ([`Change::XpGained`](super::Change::XpGained)): with XP
    /// levelling, the next level needs `rules::experience::xp_for_next_level`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub xp: u32,
    /// Levels granted by milestones and not taken yet (milestone levelling:
    /// [`Change::MilestoneReached`](super::Change::MilestoneReached)).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub milestone_levels: u8,
    /// The subclass chosen, by name ("Champion"), once the class level to choose it is reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// Feats taken in place of an Ability Score Improvement ("Grappler").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feats: Vec<String>,
    /// Class features' uses spent since their rest, by feature slug ("second-wind"): see
    /// `character::uses`. Absent: none spent.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub feature_uses: BTreeMap<String, super::FeatureUses>,
    /// What the character chose for its class features and racial traits, by feature or trait
    /// slug: option slugs for a choice among features (`"fighter-fighting-style":
    /// ["fighter-fighting-style-archery"]`), skills for Expertise, a dragonborn's ancestry.
    /// The features' code reads them here (`character::features`). Absent: nothing chosen.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub choices: BTreeMap<String, Vec<String>>,
    /// A wizard's spellbook: spells written in it besides those on [`spells`](Self::spells)
    /// (its prepared ones are from the book too: `character::preparing::spellbook_of`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spellbook: Vec<String>,
    /// When it last changed its prepared spells ([`Change::SpellsPrepared`](super::Change::SpellsPrepared)):
    /// it may again once a long rest has begun since. Absent: never in this game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepared_at: Option<super::GameTime>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Why a character cannot be stabilised ([`Character::stabilised`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotStabilisable {
    /// It is dead.
    Dead,
    /// It is above 0 hit points.
    NotDying,
    /// It is stable already.
    AlreadyStable,
}

impl NotStabilisable {
    /// In words: "dead", "not at 0 hit points", "already stable".
    pub fn why(self) -> &'static str {
        match self {
            NotStabilisable::Dead => "dead",
            NotStabilisable::NotDying => "not at 0 hit points",
            NotStabilisable::AlreadyStable => "already stable",
        }
    }
}

impl Character {
    /// The change that makes it stable (first aid, Spare the Dying: one rule for both), or why
    /// it cannot be stabilised now.
    pub fn stabilised(&self) -> Result<super::Change, NotStabilisable> {
        if self.dead {
            return Err(NotStabilisable::Dead);
        }
        if self.hp.current > 0 {
            return Err(NotStabilisable::NotDying);
        }
        if self.death_saves.stable {
            return Err(NotStabilisable::AlreadyStable);
        }
        let mut saves = self.death_saves;
        saves.stabilise();
        Ok(super::Change::DeathSaves {
            character: self.id.clone(),
            saves,
            regains_one_hp: false,
        })
    }

    /// Armor Class now: the sheet's, with its timed effects (Mage Armor, Shield of Faith,
    /// Shield) and the bonus of the magic armour and shield it carries.
    pub fn armor_class_now(&self) -> i32 {
        super::armor_class_with(&self.timed_effects, self.armor_class)
            + crate::effects::armor_bonus(self.carried().map(|(_, d)| d))
    }

    /// The items it carries that do something while carried, by name.
    pub fn carried(&self) -> impl Iterator<Item = (&str, &crate::effects::ItemData)> {
        self.inventory
            .iter()
            .filter_map(|s| s.magic.as_ref().map(|d| (s.name.as_str(), d)))
    }

    /// Its defenses now: the resistances of the items it carries (the Rimeheart Amulet) and of
    /// its timed effects (the Flask of Warmth), and of its race in `srd`.
    pub fn defenses_now(&self, srd: &crate::srd::Srd) -> crate::rules::Defenses {
        let carried = crate::effects::carried_resistances(self.carried().map(|(_, d)| d));
        crate::rules::Defenses {
            resistances: carried
                .union(super::resistances_with(&self.timed_effects))
                .union(self.racial_resistances(srd)),
            nonmagical_resistances: super::nonmagical_resistances_with(&self.timed_effects),
            immunities: crate::effects::silence_immunities(&self.timed_effects),
            ..crate::rules::Defenses::default()
        }
    }

    /// The bonus a carried magic weapon adds to `attack` (a +1 longsword to "Longsword"), or,
    /// for a nonmagical weapon, a spell's (Magic Weapon).
    pub fn magic_weapon_bonus(&self, attack: &CharacterAttack) -> i32 {
        match crate::effects::weapon_bonus(self.carried(), &attack.name) {
            Some(bonus) => bonus,
            None if attack.magic_bonus == 0 && !attack.magical => {
                crate::effects::spell_weapon_plus(&self.timed_effects)
            }
            None => 0,
        }
    }

    /// Whether `attack` counts as magical now: a magic weapon on the sheet or carried, a
    /// cantrip, or a weapon coated by a timed effect (an oil).
    pub fn attack_is_magical(&self, attack: &CharacterAttack) -> bool {
        attack.magical
            || self.magic_weapon_bonus(attack) > 0
            || super::timed_reads::is_coated(&self.timed_effects, &attack.name)
            || crate::effects::empowered(&self.timed_effects, &attack.name).is_some()
            || super::blessed_weapon_bonus(&self.timed_effects, &attack.name) > 0
    }

    /// The ability modifier `attack` rolls with: its own, or a spell's where one empowers the
    /// weapon and its modifier is higher (Shillelagh).
    fn attack_modifier(&self, attack: &CharacterAttack) -> i32 {
        let own = self.abilities.modifier(attack.ability);
        match crate::effects::empowered(&self.timed_effects, &attack.name) {
            Some((_, spell)) => own.max(spell),
            None => own,
        }
    }

    /// The proficiency bonus for the character's level.
    pub fn proficiency_bonus(&self) -> i32 {
        proficiency_bonus(self.level)
    }

    /// The modifier of a skill check.
    pub fn skill_modifier(&self, skill: Skill) -> i32 {
        let proficiency = self.skills.get(&skill).copied().unwrap_or_default();
        // Jack of All Trades: half the bonus where a bard has none.
        let proficiency = crate::character::bard::with_jack_of_all_trades(self, proficiency);
        skill_modifier(
            &self.abilities,
            skill,
            proficiency,
            self.proficiency_bonus(),
        ) + crate::effects::skill_bonus(&self.timed_effects, skill)
    }

    /// The modifier of a saving throw.
    pub fn save_modifier(&self, ability: Ability) -> i32 {
        let proficient = self.save_proficiencies.contains(&ability);
        self.abilities.modifier(ability)
            + if proficient {
                self.proficiency_bonus()
            } else {
                0
            }
    }

    /// Passive Wisdom (Perception), without advantage or disadvantage.
    pub fn passive_perception(&self) -> i32 {
        10 + self.skill_modifier(Skill::Perception)
    }

    /// The spell attack bonus and save DC, for casters.
    pub fn spellcasting(&self) -> Option<(i32, i32)> {
        let ability = self.spellcasting_ability?;
        let modifier = self.abilities.modifier(ability);
        Some((
            spell_attack_bonus(self.proficiency_bonus(), modifier),
            spell_save_dc(self.proficiency_bonus(), modifier),
        ))
    }

    /// The bonus to hit of one of its attacks.
    pub fn attack_bonus(&self, attack: &CharacterAttack) -> i32 {
        self.attack_modifier(attack)
            + if attack.proficient {
                self.proficiency_bonus()
            } else {
                0
            }
            + attack.magic_bonus
            + self.magic_weapon_bonus(attack)
            + super::blessed_weapon_bonus(&self.timed_effects, &attack.name)
    }

    /// The damage of one of its attacks, with the ability modifier and magic bonus folded in.
    pub fn attack_damage(&self, attack: &CharacterAttack) -> DamageDice {
        let mut damage = attack.damage;
        if let Some((sides, _)) = crate::effects::empowered(&self.timed_effects, &attack.name) {
            damage.sides = sides;
        }
        if attack.add_modifier_to_damage {
            damage.bonus += self.attack_modifier(attack);
        }
        damage.bonus += attack.magic_bonus + self.magic_weapon_bonus(attack);
        damage
    }

    /// Whether the character can act: alive, above 0 HP and not incapacitated.
    pub fn can_act(&self) -> bool {
        !self.dead && self.hp.current > 0 && self.conditions.can_act()
    }

    /// How many of an item the character carries (by case-insensitive name).
    pub fn item_quantity(&self, name: &str) -> u32 {
        self.inventory
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map_or(0, |s| s.quantity)
    }
}
