//! The character builder: a player's choices ([`CharacterChoices`]) made into a
//! [`Character`] sheet at levels 1 to 5, with every rule checked and every problem reported
//! at once, each naming its field.
//!
//! What it decides: scores with racial increases, skills (class, background, race),
//! saving throws, hit points by the fixed value per level (plus Dwarven Toughness), hit dice,
//! spell slots, cantrips and spells known or prepared (with the subclass's always-prepared
//! spells), equipment with packs opened, Armor Class from the armour carried, attacks from the
//! weapons carried, speed from the race. Class features are only chosen here (a fighting
//! style, expertise), and the few that change a sheet number are counted (Defense, Expertise,
//! Unarmored Defense, Draconic Resilience); what features do in play is not this module's.
//!
//! ```
//! use dnd_engine::character::{CharacterChoices, ScoreMethod, StartingKit};
//! use dnd_engine::rules::{AbilityScores, Skill};
//! use dnd_engine::srd::Srd;
//!
//! let choices = CharacterChoices {
//!     name: "Brannoc".into(),
//!     race: "Half-Orc".into(),
//!     class: "Barbarian".into(),
//!     scores: ScoreMethod::StandardArray { scores: AbilityScores::new(15, 13, 14, 8, 12, 10) },
//!     skills: vec![Skill::Athletics, Skill::Survival],
//!     equipment: StartingKit::Gold(50),
//!     ..CharacterChoices::default()
//! };
//! let brannoc = choices.build(Srd::bundled()).unwrap();
//! assert_eq!(brannoc.abilities.strength, 17, "15 and the half-orc's +2");
//! assert_eq!(brannoc.hp.max, 14, "12 + Constitution 15's +2");
//! assert_eq!(brannoc.armor_class, 13, "Unarmored Defense: 10 + Dex +1 + Con +2");
//! assert_eq!(brannoc.gold, 50, "2d4 x 10 rolled instead of the kit");
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::abilities::{ScoreMethod, raised};
use super::build_error::{BuildErrors, Problem, Problems};
use super::choices::RacePicks;
use crate::rules::{Ability, AbilityScores, HitDice, HitPoints, Proficiency, Skill};
use crate::srd::{Class, Race, Srd, slugify};
use crate::state::Character;

/// Everything a player chooses for a new character. This is also the hand-written character
/// file's format (see [`super::file`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CharacterChoices {
    /// The name as shown ("Hedda Stonebrow").
    pub name: String,
    /// The sheet id; absent, the first word of the name in lower case ("hedda").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The race or subrace ("Hill Dwarf", "Human").
    pub race: String,
    /// The class ("Cleric").
    pub class: String,
    /// The level, 1 to 5.
    #[serde(default = "one")]
    pub level: u8,
    /// The subclass, once the class's level for it is reached (the SRD has one per class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// The background.
    #[serde(default)]
    pub background: BackgroundChoice,
    /// The ability scores before racial increases, and how they were made.
    pub scores: ScoreMethod,
    /// The abilities a race's free increases go to (the half-elf's two +1s).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ability_choices: Vec<Ability>,
    /// The skills picked from the class's list.
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// The choices of class features, by feature slug or name: option slugs or names for a
    /// choice among features ("fighter-fighting-style": ["Defense"]), skills for Expertise and
    /// Bonus Proficiencies, spells for "pact-of-the-tome" and "book-of-ancient-secrets".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub features: BTreeMap<String, Vec<String>>,
    /// The choices of racial traits, by trait slug: a high elf's cantrip, a half-elf's two
    /// skills, a dwarf's tool, a dragonborn's ancestry.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub race_traits: BTreeMap<String, Vec<String>>,
    /// The starting kit, or gold instead.
    #[serde(default)]
    pub equipment: StartingKit,
    /// Cantrips picked from the class's list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cantrips: Vec<String>,
    /// Spells of 1st level and higher, known or prepared, from the class's list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
    /// A wizard's spellbook besides its prepared `spells`: a book holds six wizard spells at
    /// 1st level and two more each level after, prepared ones included.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spellbook: Vec<String>,
}

fn one() -> u8 {
    1
}

impl Default for CharacterChoices {
    /// A nameless human fighter with the standard array in order: a base to fill in.
    fn default() -> Self {
        CharacterChoices {
            name: String::new(),
            id: None,
            race: "Human".into(),
            class: "Fighter".into(),
            level: 1,
            subclass: None,
            background: BackgroundChoice::default(),
            scores: ScoreMethod::StandardArray {
                scores: AbilityScores::new(15, 14, 13, 12, 10, 8),
            },
            ability_choices: Vec::new(),
            skills: Vec::new(),
            features: BTreeMap::new(),
            race_traits: BTreeMap::new(),
            equipment: StartingKit::default(),
            cantrips: Vec::new(),
            spells: Vec::new(),
            spellbook: Vec::new(),
        }
    }
}

/// Chained setters, for code that makes a character step by step:
///
/// ```
/// use dnd_engine::character::{CharacterChoices, ScoreMethod};
/// use dnd_engine::rules::{AbilityScores, Skill};
/// use dnd_engine::srd::Srd;
///
/// let wren = CharacterChoices::new("Wren", "Lightfoot Halfling", "Rogue")
///     .scores(ScoreMethod::PointBuy { scores: AbilityScores::new(8, 15, 14, 12, 12, 10) })
///     .skills([Skill::Acrobatics, Skill::Perception, Skill::Stealth, Skill::SleightOfHand])
///     .feature("rogue-expertise-1", ["Stealth", "Perception"])
///     .gold(60)
///     .build(Srd::bundled())
///     .unwrap();
/// assert_eq!(wren.armor_class, 10 + 3, "gold, so no leather armour");
/// ```
impl CharacterChoices {
    /// A level-1 character of `race` and `class` named `name`, the rest left to set.
    pub fn new(name: &str, race: &str, class: &str) -> CharacterChoices {
        CharacterChoices {
            name: name.to_owned(),
            race: race.to_owned(),
            class: class.to_owned(),
            ..CharacterChoices::default()
        }
    }

    /// The level (1 to 5).
    pub fn level(mut self, level: u8) -> Self {
        self.level = level;
        self
    }

    /// The subclass.
    pub fn subclass(mut self, name: &str) -> Self {
        self.subclass = Some(name.to_owned());
        self
    }

    /// The background.
    pub fn background(mut self, background: BackgroundChoice) -> Self {
        self.background = background;
        self
    }

    /// The scores and how they were made.
    pub fn scores(mut self, method: ScoreMethod) -> Self {
        self.scores = method;
        self
    }

    /// The class skills.
    pub fn skills(mut self, skills: impl IntoIterator<Item = Skill>) -> Self {
        self.skills = skills.into_iter().collect();
        self
    }

    /// A class feature's choice.
    pub fn feature<'a>(mut self, slug: &str, picks: impl IntoIterator<Item = &'a str>) -> Self {
        let picks = picks.into_iter().map(str::to_owned).collect();
        self.features.insert(slug.to_owned(), picks);
        self
    }

    /// A racial trait's choice.
    pub fn race_trait<'a>(mut self, slug: &str, picks: impl IntoIterator<Item = &'a str>) -> Self {
        let picks = picks.into_iter().map(str::to_owned).collect();
        self.race_traits.insert(slug.to_owned(), picks);
        self
    }

    /// The kit, one [`KitChoice`] per equipment choice.
    pub fn kit(mut self, choices: Vec<KitChoice>) -> Self {
        self.equipment = StartingKit::Kit(choices);
        self
    }

    /// Starting gold rolled instead of the kit.
    pub fn gold(mut self, gold: u32) -> Self {
        self.equipment = StartingKit::Gold(gold);
        self
    }

    /// Cantrips and spells.
    pub fn spells<'a>(
        mut self,
        cantrips: impl IntoIterator<Item = &'a str>,
        spells: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        self.cantrips = cantrips.into_iter().map(str::to_owned).collect();
        self.spells = spells.into_iter().map(str::to_owned).collect();
        self
    }
}

/// A background: one of the SRD's (the Acolyte) by name, or a custom one of two skills (the
/// rules' way to make a background the SRD lacks, such as the pregenerated heroes' Soldier).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum BackgroundChoice {
    /// An SRD background by name.
    Srd(String),
    /// A custom background: a name and any two skills; it gives no kit.
    Custom {
        /// Its name ("Soldier").
        name: String,
        /// Its two skills.
        skills: Vec<Skill>,
    },
}

impl Default for BackgroundChoice {
    fn default() -> Self {
        BackgroundChoice::Srd("Acolyte".into())
    }
}

/// The starting equipment: the class's and background's kit with its choices made, or gold
/// rolled instead of both (see [`super::equipment::roll_starting_gold`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StartingKit {
    /// One [`KitChoice`] per equipment choice: the class's, then the background's.
    Kit(Vec<KitChoice>),
    /// Gold pieces rolled by the class's starting-gold dice.
    Gold(u32),
}

impl Default for StartingKit {
    fn default() -> Self {
        StartingKit::Kit(Vec::new())
    }
}

/// One equipment choice made: the option taken (1 for the first), and the items picked for
/// its "any weapon of a category" part.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KitChoice {
    /// The option, counting from 1.
    pub option: usize,
    /// The items picked from the option's category, if it has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<String>,
}

/// What the build has settled so far, for the parts that need it.
pub(crate) struct Settled<'a> {
    pub(crate) class: &'a Class,
    pub(crate) race: Race<'a>,
    pub(crate) level: u8,
    pub(crate) subclass: bool,
    pub(crate) abilities: AbilityScores,
}

impl CharacterChoices {
    /// Makes the sheet, or every problem with the choices.
    pub fn build(&self, srd: &Srd) -> Result<Character, BuildErrors> {
        let mut problems = Problems::default();
        let class = match srd.class(&self.class) {
            Ok(c) => Some(c),
            Err(_) => {
                let names = srd.classes.iter().map(|c| c.name.clone());
                problems.not_allowed("class", "class", &self.class, names);
                None
            }
        };
        let race = match srd.race(&self.race) {
            Ok(r) => Some(r),
            Err(_) => {
                let names = srd.races.races.iter().flat_map(|r| {
                    std::iter::once(r.name.clone()).chain(r.subraces.iter().map(|s| s.name.clone()))
                });
                problems.not_allowed("race", "race", &self.race, names);
                None
            }
        };
        let max_level = class.map_or(5, |c| c.levels.len() as u8);
        if !(1..=max_level).contains(&self.level) {
            problems.add(
                "level",
                Problem::OutOfRange {
                    given: self.level.into(),
                    min: 1,
                    max: max_level.into(),
                },
            );
        }
        if self.name.trim().is_empty() {
            problems.add(
                "name",
                Problem::Missing {
                    what: "a name".into(),
                },
            );
        }
        problems.0.extend(self.scores.problems("scores"));
        let (Some(class), Some(race)) = (class, race) else {
            return Err(BuildErrors(problems.0));
        };
        if !(1..=max_level).contains(&self.level) {
            return Err(BuildErrors(problems.0));
        }
        let abilities = self.racial_scores(race, &mut problems);
        let subclass = self.check_subclass(class, &mut problems);
        let settled = Settled {
            class,
            race,
            level: self.level,
            subclass,
            abilities,
        };
        let race_picks = super::choices::race_picks(self, race, &mut problems);
        let mut skills = self.skill_proficiencies(srd, &settled, &race_picks, &mut problems);
        let picks = super::choices::features(self, &settled, &skills, &mut problems);
        let feature_picks = &picks.chosen;
        let book = super::tome::book_picks(
            srd,
            feature_picks,
            &[],
            &self.features,
            &self.cantrips,
            &mut problems,
        );
        for &skill in &picks.proficiencies {
            skills.insert(skill, Proficiency::Proficient);
        }
        for &skill in &picks.expertise {
            skills.insert(skill, Proficiency::Expertise);
        }
        let (spells, slots) = super::spells::spells(
            self,
            srd,
            &settled,
            &race_picks,
            feature_picks,
            &mut problems,
        );
        let spellbook = super::spells::spellbook(self, srd, &settled, &spells, &mut problems);
        let kit = super::equipment::kit(self, srd, &settled, &mut problems);
        let hp_max = hit_points(&settled);
        let armor_class =
            super::equipment::armor_class(srd, &settled, feature_picks, &kit.inventory);
        let mut attacks = super::equipment::attacks(srd, &settled, &kit.inventory);
        attacks.extend(super::monk::built_unarmed_strike(class));
        if !problems.0.is_empty() {
            return Err(BuildErrors(problems.0));
        }
        let id = self.id.clone().unwrap_or_else(|| {
            let first = self.name.split_whitespace().next().unwrap_or_default();
            // A name with no ASCII letter or digit ("Ænu") still needs an id.
            Some(slugify(first))
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "hero".to_owned())
        });
        let mut save_proficiencies = class.saving_throws.clone();
        save_proficiencies.sort_by_key(|a| Ability::ALL.iter().position(|b| b == a));
        Ok(Character {
            id,
            name: self.name.trim().to_owned(),
            class: class.slug.clone(),
            level: self.level,
            race: race.name().to_lowercase(),
            abilities,
            skills,
            save_proficiencies,
            hp: HitPoints::full(hp_max),
            armor_class,
            speed: race.speed()
                + super::barbarian::fast_movement_ft(srd, &class.slug, self.level, &kit.inventory),
            conditions: Default::default(),
            death_saves: Default::default(),
            dead: false,
            died_at_round: None,
            hit_dice: HitDice {
                sides: class.hit_die,
                total: self.level,
                spent: 0,
            },
            spell_slots: slots,
            spellcasting_ability: class
                .spellcasting
                .as_ref()
                .filter(|s| s.from_level <= self.level)
                .map(|s| s.ability),
            spells: Arc::new(spells),
            concentration: None,
            reactions: Vec::new(),
            attacks: Arc::new(attacks),
            inventory: Arc::new(kit.inventory),
            gold: kit.gold,
            location: String::new(),
            hp_drained: 0,
            last_long_rest: None,
            timed_effects: Vec::new(),
            // A hero made at a level starts with that level's experience.
            xp: crate::rules::experience::xp_for_level(self.level).unwrap_or(0),
            milestone_levels: 0,
            subclass: subclass.then(|| class.subclass.name.clone()),
            feats: Vec::new(),
            feature_uses: Default::default(),
            choices: picks
                .by_feature
                .into_iter()
                .chain(race_picks.by_trait)
                .chain(book)
                .filter(|(_, v)| !v.is_empty())
                .collect(),
            spellbook,
            prepared_at: None,
        })
    }

    /// The scores with the race's fixed increases and the chosen ones.
    fn racial_scores(&self, race: Race<'_>, problems: &mut Problems) -> AbilityScores {
        let mut scores = self.scores.scores();
        for bonus in race.ability_bonuses() {
            scores = raised(scores, bonus.ability, bonus.bonus.into());
        }
        let choices = race.race.ability_bonus_choices.as_ref();
        let expected = choices.map_or(0, |c| usize::from(c.choose));
        if self.ability_choices.len() != expected {
            problems.add(
                "ability_choices",
                Problem::WrongCount {
                    what: format!("{}'s free ability increases", race.name()),
                    given: self.ability_choices.len(),
                    expected,
                },
            );
            return scores;
        }
        let Some(choices) = choices else {
            return scores;
        };
        for (i, ability) in self.ability_choices.iter().enumerate() {
            let field = format!("ability_choices[{i}]");
            if !choices.from.contains(ability) {
                let allowed = choices.from.iter().map(|a| a.name());
                problems.not_allowed(field, "free increase", ability.name(), allowed);
            } else if self.ability_choices[..i].contains(ability) {
                problems.add(
                    field,
                    Problem::Duplicate {
                        given: ability.name().into(),
                        by: "another choice".into(),
                    },
                );
            } else {
                scores = raised(scores, *ability, choices.bonus.into());
            }
        }
        scores
    }

    /// Whether the subclass is taken, refusing one named before its level or not the class's.
    fn check_subclass(&self, class: &Class, problems: &mut Problems) -> bool {
        let sub = &class.subclass;
        let due = self.level >= sub.chosen_at;
        match &self.subclass {
            None if due => {
                let what = format!("the {} (the SRD's is {})", sub.kind, sub.name);
                problems.add("subclass", Problem::Missing { what });
                false
            }
            None => false,
            Some(name) if slugify(name) != sub.slug && slugify(name) != slugify(&sub.name) => {
                problems.not_allowed("subclass", &sub.kind, name, [sub.name.clone()]);
                false
            }
            Some(_) if !due => {
                problems.add(
                    "subclass",
                    Problem::TooEarly {
                        what: format!("{} {}", sub.kind, sub.name),
                        needed: sub.chosen_at,
                        level: self.level,
                    },
                );
                false
            }
            Some(_) => true,
        }
    }

    /// Skill proficiencies: the class's picks, the background's, the race's, with Expertise.
    fn skill_proficiencies(
        &self,
        srd: &Srd,
        settled: &Settled<'_>,
        race_picks: &RacePicks,
        problems: &mut Problems,
    ) -> BTreeMap<Skill, Proficiency> {
        let mut had: Vec<(Skill, String)> = Vec::new();
        match &self.background {
            BackgroundChoice::Srd(name) => match srd.background(name) {
                Ok(b) => had.extend(b.skills.iter().map(|s| (*s, b.name.clone()))),
                Err(_) => {
                    let names = srd.backgrounds.iter().map(|b| b.name.clone());
                    problems.not_allowed("background", "background", name, names);
                }
            },
            BackgroundChoice::Custom { name, skills } => {
                if skills.len() != 2 {
                    problems.add(
                        "background.skills",
                        Problem::WrongCount {
                            what: "a custom background".into(),
                            given: skills.len(),
                            expected: 2,
                        },
                    );
                }
                had.extend(skills.iter().map(|s| (*s, name.clone())));
            }
        }
        for t in settled.race.traits() {
            had.extend(t.skills.iter().map(|s| (*s, t.name.clone())));
        }
        had.extend(race_picks.skills.iter().cloned());
        let offer = &settled.class.skill_choices;
        let wanted = usize::from(offer.choose);
        if self.skills.len() != wanted {
            problems.add(
                "skills",
                Problem::WrongCount {
                    what: format!("{} skills", settled.class.name),
                    given: self.skills.len(),
                    expected: wanted,
                },
            );
        }
        for (i, skill) in self.skills.iter().enumerate() {
            let field = format!("skills[{i}]");
            if !offer.from.contains(skill) {
                let what = format!("{} skill", settled.class.name);
                problems.not_allowed(
                    field,
                    what,
                    skill.name(),
                    offer.from.iter().map(|s| s.name()),
                );
            } else if let Some((_, by)) = had.iter().find(|(s, _)| s == skill) {
                let by = by.clone();
                problems.add(
                    field,
                    Problem::Duplicate {
                        given: skill.name().into(),
                        by,
                    },
                );
            } else {
                had.push((*skill, settled.class.name.clone()));
            }
        }
        had.iter()
            .map(|(s, _)| (*s, Proficiency::Proficient))
            .collect()
    }
}

/// Hit points by the fixed value: the die's maximum at 1st level, the class's average after,
/// each with the Constitution modifier (at least 1 a level), and Dwarven Toughness's and
/// Draconic Resilience's 1 a level.
fn hit_points(settled: &Settled<'_>) -> u32 {
    let con = settled.abilities.modifier(Ability::Constitution);
    let first = (i32::from(settled.class.hp_at_first_level) + con).max(1);
    let later = (i32::from(settled.class.hp_per_level) + con).max(1);
    let toughness = settled
        .race
        .traits()
        .iter()
        .any(|t| t.slug == "dwarven-toughness");
    // Draconic Resilience adds 1 a sorcerer level as Dwarven Toughness does.
    let sub = settled
        .subclass
        .then_some(settled.class.subclass.slug.as_str());
    let resilience = super::granted::draconic_resilience(settled.class, sub, settled.level);
    let level = i32::from(settled.level);
    let max = first + later * (level - 1) + level * (i32::from(toughness) + i32::from(resilience));
    max.max(1) as u32
}
