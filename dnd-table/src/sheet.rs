//! The character sheet and the inventory as data: what `play`'s `/sheet` and `/inventory` print
//! and what the server sends as JSON, built from the state alone.

use dnd_engine::rules::{Ability, Proficiency};
use dnd_engine::state::{Character, GameState};
use serde::Serialize;

/// A character's sheet, every number as the rules compute it now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sheet {
    /// The character's id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The race (empty when the sheet names none).
    pub race: String,
    /// The class.
    pub class: String,
    /// The level.
    pub level: u8,
    /// Hit points now.
    pub hp: u32,
    /// Hit point maximum.
    pub max_hp: u32,
    /// Temporary hit points.
    pub temp_hp: u32,
    /// Armour class now (conditions and effects counted).
    pub ac: i32,
    /// Speed in feet.
    pub speed: u32,
    /// Proficiency bonus.
    pub proficiency: i32,
    /// Passive Perception.
    pub passive_perception: i32,
    /// Experience and what the next level needs, in words.
    pub progress: String,
    /// Dead.
    pub dead: bool,
    /// At 0 HP and alive: the death saves so far (successes, failures).
    pub down: Option<(u8, u8)>,
    /// The six scores: abbreviation ("STR"), score, modifier.
    pub abilities: Vec<(String, i32, i32)>,
    /// Proficient saves: ability name, modifier.
    pub saves: Vec<(String, i32)>,
    /// Proficient skills: name, expertise, modifier.
    pub skills: Vec<(String, bool, i32)>,
    /// Attacks: name, bonus to hit, damage.
    pub attacks: Vec<(String, i32, String)>,
    /// Spell attack bonus and save DC, for a caster.
    pub spellcasting: Option<(i32, i32)>,
    /// Spell slots left, by level ("1st: 2, 2nd: 1", or "none").
    pub slots: String,
    /// Spell slots as numbers: level, left.
    pub slots_left: Vec<(u8, u8)>,
    /// Known or prepared spells.
    pub spells: Vec<String>,
    /// The spell concentrated on.
    pub concentration: Option<String>,
    /// Each condition with its cause, time left and what ends it, then the other timed effects
    /// ("Condition: ...", "Effect: ..."), or "Conditions: none".
    pub conditions: Vec<String>,
    /// Hit dice left, their total and the die's sides.
    pub hit_dice: (u32, u32, u32),
    /// Gold pieces.
    pub gold: u32,
    /// What the character carries.
    pub inventory: Vec<Item>,
}

/// One stack of the inventory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// How many.
    pub quantity: u32,
    /// A note ("lit", "half full"), or empty.
    pub note: String,
}

impl Sheet {
    /// The sheet of `c` (`state` for the causes of its conditions and the levelling rules).
    pub fn of(state: &GameState, c: &Character) -> Sheet {
        Sheet {
            id: c.id.clone(),
            name: c.name.clone(),
            race: c.race.clone(),
            class: c.class.clone(),
            level: c.level,
            hp: c.hp.current,
            max_hp: c.hp.max,
            temp_hp: c.hp.temporary,
            ac: c.armor_class_now(),
            speed: c.speed,
            proficiency: c.proficiency_bonus(),
            passive_perception: c.passive_perception(),
            progress: dnd_engine::state::progress_text(c, &state.levelling),
            dead: c.dead,
            down: (!c.dead && c.hp.current == 0)
                .then_some((c.death_saves.successes, c.death_saves.failures)),
            abilities: Ability::ALL
                .iter()
                .map(|a| {
                    (
                        a.abbreviation().to_ascii_uppercase(),
                        c.abilities.score(*a),
                        c.abilities.modifier(*a),
                    )
                })
                .collect(),
            saves: Ability::ALL
                .iter()
                .filter(|a| c.save_proficiencies.contains(a))
                .map(|a| (a.name().to_owned(), c.save_modifier(*a)))
                .collect(),
            skills: c
                .skills
                .iter()
                .filter(|(_, p)| **p != Proficiency::None)
                .map(|(s, p)| {
                    (
                        s.to_string(),
                        *p == Proficiency::Expertise,
                        c.skill_modifier(*s),
                    )
                })
                .collect(),
            attacks: c
                .attacks
                .iter()
                .map(|a| {
                    (
                        a.name.clone(),
                        c.attack_bonus(a),
                        c.attack_damage(a).to_string(),
                    )
                })
                .collect(),
            spellcasting: c.spellcasting(),
            slots: c.spell_slots.describe_available(),
            slots_left: (1..=9u8)
                .map(|l| (l, c.spell_slots.available(l)))
                .filter(|(_, n)| *n > 0)
                .collect(),
            spells: c.spells.to_vec(),
            concentration: c.concentration.clone(),
            conditions: condition_lines(state, c),
            hit_dice: (
                u32::from(c.hit_dice.available()),
                u32::from(c.hit_dice.total),
                u32::from(c.hit_dice.sides),
            ),
            gold: c.gold,
            inventory: c
                .inventory
                .iter()
                .map(|i| Item {
                    name: i.name.clone(),
                    quantity: i.quantity,
                    note: i.note.clone(),
                })
                .collect(),
        }
    }
}

/// "Condition: ..." and "Effect: ..." lines for `c`, or "Conditions: none".
pub fn condition_lines(state: &GameState, c: &Character) -> Vec<String> {
    let mut lines: Vec<String> = dnd_engine::state::condition_sources(state, &c.id)
        .iter()
        .map(|s| format!("Condition: {}", dnd_engine::state::compact::condition(s)))
        .collect();
    lines.extend(
        c.timed_effects
            .iter()
            .filter(|e| e.condition().is_none())
            .map(|e| format!("Effect: {}", e.describe())),
    );
    if lines.is_empty() {
        lines.push("Conditions: none".into());
    }
    lines
}

/// "+3", or "−1" with a true minus sign.
pub fn signed(n: i32) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        format!("+{n}")
    }
}
