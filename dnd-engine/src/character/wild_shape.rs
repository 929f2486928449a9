//! Wild Shape (druid 2): which beasts a druid may become at its level, and the beast's body
//! built from the SRD's stat block for the sheet (`state::ShapeForm`): its hit points, AC,
//! walking speed, Strength, Dexterity and Constitution, and its attacks as the stat block
//! writes them (to hit and damage exact); the druid keeps its Intelligence, Wisdom and
//! Charisma and its proficiencies, and gains the beast's skills where it lacks them. How the
//! body is swapped and given back is `state::timed_shape`'s.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::rules::{Ability, HitPoints, Proficiency};
use crate::srd::{Class, Monster, Srd};
use crate::state::{Character, CharacterAttack, ShapeForm, ShapeKept, TimedEffect, TimedKind};

/// The name a Wild Shape's timed effect goes by.
pub const WILD_SHAPE: &str = "Wild Shape";

/// Why a druid may not take a beast's shape. Each message says what is allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WildShapeError {
    /// Not a creature of the SRD.
    #[error("no SRD beast {0:?}; {1}")]
    Unknown(String, String),
    /// Not a beast.
    #[error("{name} is a {kind}, not a beast: Wild Shape takes the shape of beasts only")]
    NotBeast {
        /// The creature.
        name: String,
        /// Its type.
        kind: String,
    },
    /// Its challenge is too high, or it flies or swims where the level forbids it.
    #[error(
        "{name} {why}; at druid level {level} the beast must be of challenge {max} or lower{limits}"
    )]
    Beyond {
        /// The creature.
        name: String,
        /// What is wrong.
        why: String,
        /// The druid's level.
        level: u8,
        /// The highest challenge allowed.
        max: String,
        /// The movement limits, in words.
        limits: String,
    },
    /// Already shaped.
    #[error(
        "{name} is already in the shape of a {beast}: revert first (use_feature wild-shape with option \"revert\", a bonus action)"
    )]
    AlreadyShaped {
        /// The druid.
        name: String,
        /// Its beast.
        beast: String,
    },
}

/// What the druid's level allows: the highest challenge (as a number), and whether a beast
/// may swim or fly, from the class table (`wild_shape_max_cr`, `wild_shape_swim`).
fn limits(class: &Class, level: u8) -> (f64, bool, bool) {
    let numbers = class.level(level).map(|l| &l.numbers);
    let max = numbers
        .and_then(|n| n.wild_shape_max_cr)
        .map_or(0.25, f64::from);
    let swim = numbers.and_then(|n| n.wild_shape_swim).unwrap_or(false);
    let fly = numbers.and_then(|n| n.wild_shape_fly).unwrap_or(false);
    (max, swim, fly)
}

fn cr_text(cr: f64) -> String {
    crate::rules::ChallengeRating::from_f64(cr).map_or_else(|| cr.to_string(), |c| c.to_string())
}

/// The beast `name` if `c` (a druid, its feature checked by the caller) may take its shape at
/// its level: a beast of the SRD, of challenge up to the table's, without a flying speed (or
/// a swimming one before 4th level).
pub fn beast_allowed<'a>(
    srd: &'a Srd,
    class: &Class,
    c: &Character,
    name: &str,
) -> Result<&'a Monster, WildShapeError> {
    if let Some(beast) = crate::state::beast_of(c) {
        return Err(WildShapeError::AlreadyShaped {
            name: c.name.clone(),
            beast: beast.to_owned(),
        });
    }
    let (max, swim, fly) = limits(class, c.level);
    let m = srd
        .monster(name)
        .map_err(|e| WildShapeError::Unknown(name.to_owned(), e.to_string()))?;
    if !m.kind.to_ascii_lowercase().starts_with("beast") {
        return Err(WildShapeError::NotBeast {
            name: m.name.clone(),
            kind: m.kind.clone(),
        });
    }
    let mut limits_text = String::new();
    if !fly {
        limits_text.push_str(", without a flying speed");
    }
    if !swim {
        limits_text.push_str(", without a swimming speed");
    }
    let why = if m.challenge_rating.as_f64() > max {
        Some(format!("is of challenge {}", m.challenge_rating))
    } else if m.speed.fly > 0 && !fly {
        Some(format!("flies ({} ft.)", m.speed.fly))
    } else if m.speed.swim > 0 && !swim {
        Some(format!("swims ({} ft.)", m.speed.swim))
    } else {
        None
    };
    match why {
        Some(why) => Err(WildShapeError::Beyond {
            name: m.name.clone(),
            why,
            level: c.level,
            max: cr_text(max),
            limits: limits_text,
        }),
        None => Ok(m),
    }
}

/// One of the beast's attacks as a sheet's attack whose numbers are the stat block's: the
/// better of its Strength and Dexterity carries the attack, and the rest of the bonus to hit
/// rides as a flat bonus, taken back off the damage so the damage is the block's too. A
/// second damage type the block adds is left to the narration (the bundled beasts have one).
fn beast_attack(m: &Monster, action: &crate::srd::MonsterAction) -> Option<CharacterAttack> {
    let attack = action.attack.as_ref()?;
    let first = action
        .damage
        .first()
        .or_else(|| action.damage_options.first())?;
    let ability = if m.abilities.dexterity > m.abilities.strength {
        Ability::Dexterity
    } else {
        Ability::Strength
    };
    let flat = attack.to_hit - m.abilities.modifier(ability);
    let mut damage = *first;
    damage.bonus -= flat;
    Some(CharacterAttack {
        name: action.name.clone(),
        ability,
        proficient: false,
        damage,
        add_modifier_to_damage: false,
        magic_bonus: flat,
        range_ft: attack.reach.or(attack.range.map(|r| r.0)).unwrap_or(5),
        magical: false,
    })
}

/// Attacks one Attack action makes as the beast: the swings of its usual Multiattack, or 1.
fn multiattack_swings(m: &Monster) -> u8 {
    let steps = m.actions.iter().find_map(|a| a.multiattack.first());
    let swings: u32 = steps.map_or(1, |s| {
        s.iter()
            .filter(|step| {
                m.actions
                    .iter()
                    .any(|a| a.name.eq_ignore_ascii_case(&step.action) && a.attack.is_some())
            })
            .map(|step| step.count)
            .sum()
    });
    u8::try_from(swings.max(1)).unwrap_or(1)
}

/// The beast's body for `c`'s sheet: the stat block's hit points (full), AC, walking speed,
/// physical scores and attacks; the druid's skills, with a proficiency in each skill the
/// beast's block lists that the druid lacks (the block's bonus is the beast's proficiency on
/// its own scores, which the druid's proficiency bonus matches or betters at levels 2 to 5).
pub fn beast_form(c: &Character, m: &Monster) -> ShapeForm {
    let mut skills: BTreeMap<_, _> = c.skills.clone();
    for skill in m.skills.keys() {
        skills.entry(*skill).or_insert(Proficiency::Proficient);
    }
    let attacks: Vec<CharacterAttack> = m
        .actions
        .iter()
        .filter_map(|a| beast_attack(m, a))
        .collect();
    ShapeForm {
        hp: HitPoints::full(m.hit_points),
        armor_class: m.armor_class,
        speed: m.speed.walk,
        physical: [
            m.abilities.strength,
            m.abilities.dexterity,
            m.abilities.constitution,
        ],
        attacks: Arc::new(attacks),
        skills,
        attacks_per_action: multiattack_swings(m),
    }
}

/// Hours a shape lasts: half the druid level, rounded down.
pub fn hours(level: u8) -> u32 {
    u32::from(level / 2).max(1)
}

/// The timed effect that puts `c` in the beast's shape for its hours.
pub fn wild_shape_effect(c: &Character, m: &Monster) -> TimedEffect {
    TimedEffect {
        source: c.id.clone(),
        spell: WILD_SHAPE.to_owned(),
        target: c.id.clone(),
        concentration: false,
        rounds_left: Some(hours(c.level) * 600),
        ends_on_damage: false,
        level: 0,
        at_turn_end: false,
        kind: TimedKind::WildShape(Box::new(ShapeKept {
            beast: m.name.clone(),
            form: beast_form(c, m),
            own: None,
        })),
    }
}

/// Why `c` may not cast a spell now: in a beast's shape it cannot (its concentration on a
/// spell already cast goes on).
pub fn no_spells_in_shape(c: &Character) -> Option<String> {
    crate::state::beast_of(c).map(|beast| {
        format!(
            "{} is in the shape of a {beast} and cannot cast spells (a spell already concentrated on goes on); revert first with use_feature wild-shape, option \"revert\" (a bonus action)",
            c.name
        )
    })
}
