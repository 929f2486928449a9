//! Levelling up: what one more level gives a character, from its class data and the player's
//! choices, as the one [`Change::LevelledUp`] that writes it.
//!
//! [`level_up`] is a pure function (a sheet, the class data, the choices, dice in; changes
//! out). It refuses, changing nothing, a level not earned (XP below the SRD's table, or no
//! milestone in milestone levelling), a level beyond the class data (5), and every choice that
//! is missing or wrong, naming the options: the subclass at its level, an Ability Score
//! Improvement (+2 to one score or +1 to two, none above 20) or the SRD feat Grappler at 4th
//! level, the new spells (from the class's list, of a level it can cast, as many as the class
//! table adds), the picks of the new features with a choice (`level_features`).
//!
//! ```
//! use dnd_engine::adventure::Adventure;
//! use dnd_engine::character::{HpChoice, LevelChoices, level_up};
//! use dnd_engine::srd::Srd;
//! use dnd_engine::state::Levelling;
//! use rand::SeedableRng;
//!
//! let mut kraven = Adventure::built_in().characters[0].clone();
//! kraven.xp = 2_700; // level 4's threshold
//! let srd = Srd::bundled();
//! let choices = LevelChoices {
//!     hp: HpChoice::Fixed,
//!     improvement: Some(dnd_engine::character::Improvement::PlusTwo(
//!         dnd_engine::rules::Ability::Strength,
//!     )),
//!     ..LevelChoices::default()
//! };
//! let mut dice = rand::rngs::StdRng::seed_from_u64(1);
//! let up = level_up(&kraven, srd, &Levelling::Xp, &choices, &mut dice).unwrap();
//! assert_eq!(up.level, 4);
//! assert_eq!(up.hp_gained, 8); // the fighter's 6, Constitution +2
//! ```

use crate::dice::DieSource;

use crate::dice::{DiceExpr, Roll};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::level_spells::{bonus_cantrips, learnable, new_spell_counts, slots, spells};
use crate::rules::Ability;
use crate::rules::experience::xp_for_level;
use crate::srd::{Class, Srd, slugify};
use crate::state::{AbilityIncrease, Change, Character, LevelUp, Levelling};

/// The one feat of the SRD, taken in place of an Ability Score Improvement.
pub const GRAPPLER: &str = "Grappler";

/// How the new level's hit points are found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HpChoice {
    /// The class's fixed value (a d10 class: 6), plus the Constitution modifier.
    #[default]
    Fixed,
    /// The hit die rolled by the engine, plus the Constitution modifier.
    Roll,
}

/// An Ability Score Improvement or the feat taken in its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Improvement {
    /// +2 to one score.
    PlusTwo(#[schemars(with = "String")] Ability),
    /// +1 to two different scores.
    PlusOne(#[schemars(with = "Vec<String>")] Vec<Ability>),
    /// A feat by name (the SRD has one: Grappler, which needs Strength 13).
    Feat(String),
}

/// What the player chooses for a level.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelChoices {
    /// Fixed or rolled hit points.
    pub hp: HpChoice,
    /// The subclass, at the level the class chooses it.
    pub subclass: Option<String>,
    /// The improvement, at a level that grants one (4th).
    pub improvement: Option<Improvement>,
    /// The new spells and cantrips, as many as the level adds.
    pub spells: Vec<String>,
    /// Picks for the class features with a choice the level brings (the tool's form:
    /// `[{"feature": "ranger-fighting-style", "picks": ["Archery"]}]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<FeaturePick>,
}

/// What was picked for one class feature with a choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeaturePick {
    /// The feature, by slug or name ("ranger-fighting-style", "Hunter's Prey").
    #[schemars(extend("description" = ""))]
    pub feature: String,
    /// The options picked, by name or slug ("Archery", "Colossus Slayer").
    #[schemars(extend("description" = ""))]
    pub picks: Vec<String>,
}

/// A feature the new level brings, from the class data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GainedFeature {
    /// Its name.
    pub name: String,
    /// What it does, in a sentence or two.
    pub description: String,
    /// What to pick for it at the table, when it offers a choice ("choose 1 of: ...").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose: Option<String>,
}

/// A level gained: the change to commit and what it brings, for the narration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LevelledUp {
    /// The change that writes it (one [`Change::LevelledUp`]).
    pub changes: Vec<Change>,
    /// The new level.
    pub level: u8,
    /// Hit points added to the maximum.
    pub hp_gained: u32,
    /// The hit die, when rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp_roll: Option<Roll>,
    /// The proficiency bonus at the new level.
    pub proficiency_bonus: u8,
    /// Hit dice now.
    pub hit_dice: u8,
    /// The features gained.
    pub features: Vec<GainedFeature>,
    /// The spells learned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells_learned: Vec<String>,
}

/// Why a level cannot be taken now. Each says what would be allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelUpError {
    /// Not enough experience.
    #[error("{name} has {xp} XP; level {level} needs {needs}")]
    NotEnoughXp {
        /// The character's name.
        name: String,
        /// Its XP.
        xp: u32,
        /// The level it would reach.
        level: u8,
        /// The XP that level needs.
        needs: u32,
    },
    /// Milestone levelling and no milestone has granted a level.
    #[error(
        "{0} has no level to take: in this adventure levels come at milestones, and none has been reached since the last"
    )]
    NoMilestone(String),
    /// Beyond the bundled class data.
    #[error(
        "{name} is a level-{level} {class}: the class data covers levels 1 to {highest}, so no higher level can be taken"
    )]
    BeyondClassData {
        /// The character's name.
        name: String,
        /// Its class.
        class: String,
        /// Its level.
        level: u8,
        /// The highest level of the data.
        highest: u8,
    },
    /// The sheet's class has no class data.
    #[error("{name} is a {class:?}, a class with no data to level from; the classes are: {}", .known.join(", "))]
    UnknownClass {
        /// The character's name.
        name: String,
        /// Its class as the sheet says.
        class: String,
        /// The classes with data.
        known: Vec<String>,
    },
    /// The dead do not level up.
    #[error("{0} is dead: the dead do not level up")]
    Dead(String),
    /// A choice missing or wrong.
    #[error("{what}: {why}{}", options_text(.options))]
    Choice {
        /// Which choice ("subclass", "improvement", "spells").
        what: &'static str,
        /// What is wrong.
        why: String,
        /// What may be chosen.
        options: Vec<String>,
    },
}

fn options_text(options: &[String]) -> String {
    const SHOWN: usize = 24;
    if options.is_empty() {
        return String::new();
    }
    let more = options.len().saturating_sub(SHOWN);
    let list = options
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        format!("; options: {list} and {more} more")
    } else {
        format!("; options: {list}")
    }
}

pub(super) fn choice(
    what: &'static str,
    why: impl Into<String>,
    options: Vec<String>,
) -> LevelUpError {
    LevelUpError::Choice {
        what,
        why: why.into(),
        options,
    }
}

/// Whether `c` may take a level now: alive, earned (XP or a milestone, by `levelling`), and
/// within its class data.
pub fn may_level_up(levelling: &Levelling, srd: &Srd, c: &Character) -> bool {
    let within = srd
        .class(&c.class)
        .is_ok_and(|class| class.level(c.level.saturating_add(1)).is_some());
    !c.dead && within && earned(levelling, c).is_ok()
}

fn earned(levelling: &Levelling, c: &Character) -> Result<(), LevelUpError> {
    let level = c.level.saturating_add(1);
    match levelling {
        Levelling::Milestone { .. } if c.milestone_levels == 0 => {
            Err(LevelUpError::NoMilestone(c.name.clone()))
        }
        Levelling::Milestone { .. } => Ok(()),
        Levelling::Xp => match xp_for_level(level) {
            Some(needs) if c.xp >= needs => Ok(()),
            needs => Err(LevelUpError::NotEnoughXp {
                name: c.name.clone(),
                xp: c.xp,
                level,
                needs: needs.unwrap_or(u32::MAX),
            }),
        },
    }
}

/// The next level of `c`: the change that writes it and what it brings, or why not (changing
/// nothing). `srd` gives the class data and the spell lists; `dice` rolls the hit die when
/// `choices.hp` is [`HpChoice::Roll`].
pub fn level_up<R: DieSource + ?Sized>(
    c: &Character,
    srd: &Srd,
    levelling: &Levelling,
    choices: &LevelChoices,
    dice: &mut R,
) -> Result<LevelledUp, LevelUpError> {
    if c.dead {
        return Err(LevelUpError::Dead(c.name.clone()));
    }
    let class = srd
        .class(&c.class)
        .map_err(|_| LevelUpError::UnknownClass {
            name: c.name.clone(),
            class: c.class.clone(),
            known: srd.classes.iter().map(|k| k.slug.clone()).collect(),
        })?;
    let level = c.level.saturating_add(1);
    let Some(table) = class.level(level) else {
        return Err(LevelUpError::BeyondClassData {
            name: c.name.clone(),
            class: class.name.clone(),
            level: c.level,
            highest: class.levels.iter().map(|l| l.level).max().unwrap_or(0),
        });
    };
    earned(levelling, c)?;
    let subclass = subclass(class, level, c, choices)?;
    let features = class.features_at(level, subclass.as_deref().or(c.subclass.as_deref()));
    let grants_improvement = features
        .iter()
        .any(|f| f.slug.contains("ability-score-improvement"));
    let (ability_increases, feat) = improvement(c, grants_improvement, choices)?;
    let picks = choices
        .features
        .iter()
        .map(|p| (p.feature.clone(), p.picks.clone()))
        .collect();
    let gains = super::level_features::gains(c, srd, class, level, &features, &picks)?;

    let con_before = c.abilities.modifier(Ability::Constitution);
    let con_raise = ability_increases
        .iter()
        .filter(|i| i.ability == Ability::Constitution)
        .map(|i| i32::from(i.by))
        .sum::<i32>();
    let con_after = crate::rules::ability_modifier(c.abilities.constitution + con_raise);
    let hp_roll = match choices.hp {
        HpChoice::Fixed => None,
        HpChoice::Roll => {
            let expr = DiceExpr::parse(&format!("1d{}", class.hit_die.max(1)))
                .expect("a hit die is valid notation");
            Some(expr.roll(dice).expect("one die rolls"))
        }
    };
    let die = hp_roll
        .as_ref()
        .map_or(i32::from(class.hp_per_level), |r| r.total() as i32);
    // A raised Constitution modifier adds its point for every level, this one included;
    // Draconic Resilience adds one a level.
    let sub = subclass.as_deref().or(c.subclass.as_deref());
    let resilience = i32::from(super::granted::draconic_resilience(class, sub, level));
    let hp_gained =
        ((die + con_before).max(1) + (con_after - con_before) * i32::from(level) + resilience)
            .max(1) as u32;

    let (slots, pact_slots) = slots(class, level);
    let bonus = bonus_cantrips(&features);
    let spells_learned = spells(c, class, srd, level, bonus, &choices.spells)?;
    // A wizard writes its new spells in its spellbook, to prepare after a long rest; its
    // cantrips are known at once.
    let (written, known) = super::level_spells::split_written(class, srd, &spells_learned);
    let up = LevelUp {
        character: c.id.clone(),
        level,
        hp_gained,
        slots,
        pact_slots,
        spells_learned: known,
        written,
        subclass: subclass.clone(),
        ability_increases,
        feat,
        choices: gains.choices,
        expertise: gains.expertise,
        skills_gained: gains.proficiencies,
        added: gains.added,
        speed_gained: gains.speed_gained,
        armor_class_gained: gains.armor_class_gained,
    };
    Ok(LevelledUp {
        changes: vec![Change::LevelledUp(Box::new(up))],
        level,
        hp_gained,
        hp_roll,
        proficiency_bonus: table.proficiency_bonus,
        hit_dice: c.hit_dice.total.saturating_add(1),
        features: features
            .iter()
            .map(|f| GainedFeature {
                name: f.name.clone(),
                description: f.description.clone(),
                choose: f.options.as_ref().map(|o| {
                    let names: Vec<String> = o
                        .from
                        .iter()
                        .map(|s| {
                            class
                                .feature(s)
                                .map_or_else(|| s.clone(), |f| f.name.clone())
                        })
                        .collect();
                    format!("choose {} of: {}", o.choose, names.join(", "))
                }),
            })
            .chain(super::invocations_gained::gained(class, c, level))
            .collect(),
        spells_learned,
    })
}

/// The subclass chosen at this level: required at the class's level for it, refused at others.
fn subclass(
    class: &Class,
    level: u8,
    c: &Character,
    choices: &LevelChoices,
) -> Result<Option<String>, LevelUpError> {
    let options = vec![class.subclass.name.clone()];
    let chosen_here = level == class.subclass.chosen_at && c.subclass.is_none();
    match (&choices.subclass, chosen_here) {
        (None, true) => Err(choice(
            "subclass",
            format!(
                "a {} chooses a {} at level {level}",
                class.name, class.subclass.kind
            ),
            options,
        )),
        (Some(name), true) => {
            let wanted = slugify(name);
            if wanted == class.subclass.slug || wanted == slugify(&class.subclass.name) {
                Ok(Some(class.subclass.name.clone()))
            } else {
                Err(choice(
                    "subclass",
                    format!("{name:?} is not a {} of the SRD", class.subclass.kind),
                    options,
                ))
            }
        }
        (Some(_), false) => Err(choice(
            "subclass",
            match &c.subclass {
                Some(chosen) => format!("{} follows the {chosen} already", c.name),
                None => format!(
                    "the {} is chosen at level {}, not at {level}",
                    class.subclass.kind, class.subclass.chosen_at
                ),
            },
            Vec::new(),
        )),
        (None, false) => Ok(None),
    }
}

/// The scores raised or the feat taken, where the level grants an improvement.
fn improvement(
    c: &Character,
    granted: bool,
    choices: &LevelChoices,
) -> Result<(Vec<AbilityIncrease>, Option<String>), LevelUpError> {
    let options = || {
        let mut o: Vec<String> = Ability::ALL
            .iter()
            .filter(|a| c.abilities.score(**a) < 20)
            .map(|a| {
                format!(
                    "{} (now {})",
                    a.name().to_lowercase(),
                    c.abilities.score(*a)
                )
            })
            .collect();
        o.push(format!("the feat {GRAPPLER} (Strength 13 or more)"));
        o
    };
    match (&choices.improvement, granted) {
        (None, false) => Ok((Vec::new(), None)),
        (Some(_), false) => Err(choice(
            "improvement",
            "this level grants no Ability Score Improvement (4th level does)",
            Vec::new(),
        )),
        (None, true) => Err(choice(
            "improvement",
            "this level grants an Ability Score Improvement: +2 to one score, +1 to two, or a feat",
            options(),
        )),
        (Some(Improvement::Feat(name)), true) => {
            if !name.eq_ignore_ascii_case(GRAPPLER) {
                return Err(choice(
                    "improvement",
                    format!("{name:?} is not a feat of the SRD"),
                    vec![GRAPPLER.into()],
                ));
            }
            if c.abilities.strength < 13 {
                return Err(choice(
                    "improvement",
                    format!(
                        "{GRAPPLER} needs Strength 13; {} has {}",
                        c.name, c.abilities.strength
                    ),
                    options(),
                ));
            }
            Ok((Vec::new(), Some(GRAPPLER.into())))
        }
        (Some(Improvement::PlusOne(two)), true) if two.len() != 2 || two.first() == two.get(1) => {
            Err(choice(
                "improvement",
                "plus_one names two different scores (+1 each); for +2 to one score use plus_two",
                options(),
            ))
        }
        (Some(raise), true) => {
            let raises: Vec<(Ability, u8)> = match raise {
                Improvement::PlusTwo(a) => vec![(*a, 2)],
                Improvement::PlusOne(two) => two.iter().map(|a| (*a, 1)).collect(),
                Improvement::Feat(_) => Vec::new(),
            };
            for (ability, by) in &raises {
                let score = c.abilities.score(*ability) + i32::from(*by);
                if score > 20 {
                    return Err(choice(
                        "improvement",
                        format!(
                            "{} would be {score}: no score rises above 20",
                            ability.name()
                        ),
                        options(),
                    ));
                }
            }
            let raised = raises
                .iter()
                .map(|(ability, by)| AbilityIncrease {
                    ability: *ability,
                    by: *by,
                })
                .collect();
            Ok((raised, None))
        }
    }
}

/// The first legal choices for the next level of `c` (fixed hit points, the SRD subclass, +2
/// to the highest score below 20 or +1 to two, the first spells of the list): what the offline
/// game master picks. `None` when the level cannot be taken.
pub fn first_legal_choices(
    c: &Character,
    srd: &Srd,
    levelling: &Levelling,
) -> Option<LevelChoices> {
    if !may_level_up(levelling, srd, c) {
        return None;
    }
    let class = srd.class(&c.class).ok()?;
    let level = c.level + 1;
    let subclass = (level == class.subclass.chosen_at && c.subclass.is_none())
        .then(|| class.subclass.name.clone());
    let grants = class
        .features_at(level, None)
        .iter()
        .any(|f| f.slug.contains("ability-score-improvement"));
    let improvement = grants
        .then(|| {
            let mut below: Vec<Ability> = Ability::ALL
                .into_iter()
                .filter(|a| c.abilities.score(*a) < 20)
                .collect();
            below.sort_by_key(|a| std::cmp::Reverse(c.abilities.score(*a)));
            match below.as_slice() {
                [first, ..] if c.abilities.score(*first) <= 18 => {
                    Some(Improvement::PlusTwo(*first))
                }
                [first, second, ..] => Some(Improvement::PlusOne(vec![*first, *second])),
                // Every score at 20 or 19 but one: the feat, if Strength allows it.
                _ => (c.abilities.strength >= 13).then(|| Improvement::Feat(GRAPPLER.into())),
            }
        })
        .flatten();
    let (cantrips, leveled) = new_spell_counts(class, level);
    let sub = subclass.as_deref().or(c.subclass.as_deref());
    let cantrips = cantrips + bonus_cantrips(&class.features_at(level, sub));
    let pick = |n: usize, cantrip: bool| {
        learnable(c, class, srd, level, cantrip)
            .take(n)
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
    };
    let mut spells = pick(cantrips, true);
    spells.extend(pick(leveled, false));
    let gained = class.features_at(level, subclass.as_deref().or(c.subclass.as_deref()));
    let mut features = super::level_features::default_picks(c, &gained);
    features.extend(super::invocations_gained::default_pick(class, c, level));
    Some(LevelChoices {
        hp: HpChoice::Fixed,
        subclass,
        improvement,
        spells,
        features,
    })
}
