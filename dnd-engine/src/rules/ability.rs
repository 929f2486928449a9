//! Ability scores, skills, proficiency and challenge ratings: the numbers every other rule
//! starts from.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the six abilities.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Strength.
    Strength,
    /// Dexterity.
    Dexterity,
    /// Constitution.
    Constitution,
    /// Intelligence.
    Intelligence,
    /// Wisdom.
    Wisdom,
    /// Charisma.
    Charisma,
}

impl Ability {
    /// All six, in the order of a character sheet.
    pub const ALL: [Ability; 6] = [
        Ability::Strength,
        Ability::Dexterity,
        Ability::Constitution,
        Ability::Intelligence,
        Ability::Wisdom,
        Ability::Charisma,
    ];

    /// The three-letter abbreviation in lower case (`str`, `dex`...), as 5e-database uses.
    pub fn abbreviation(self) -> &'static str {
        match self {
            Ability::Strength => "str",
            Ability::Dexterity => "dex",
            Ability::Constitution => "con",
            Ability::Intelligence => "int",
            Ability::Wisdom => "wis",
            Ability::Charisma => "cha",
        }
    }

    /// Parses a full name or an abbreviation, in any case (`"DEX"`, `"wisdom"`).
    pub fn parse(text: &str) -> Option<Ability> {
        let lower = text.trim().to_ascii_lowercase();
        Ability::ALL
            .into_iter()
            .find(|a| lower == a.abbreviation() || lower == a.name().to_ascii_lowercase())
    }

    /// The full name, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            Ability::Strength => "Strength",
            Ability::Dexterity => "Dexterity",
            Ability::Constitution => "Constitution",
            Ability::Intelligence => "Intelligence",
            Ability::Wisdom => "Wisdom",
            Ability::Charisma => "Charisma",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The modifier of an ability score: `(score - 10) / 2`, rounded down (8 gives -1, 15 gives +2).
pub fn ability_modifier(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

/// The six scores of a creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AbilityScores {
    /// Strength score.
    #[serde(rename = "str")]
    pub strength: i32,
    /// Dexterity score.
    #[serde(rename = "dex")]
    pub dexterity: i32,
    /// Constitution score.
    #[serde(rename = "con")]
    pub constitution: i32,
    /// Intelligence score.
    #[serde(rename = "int")]
    pub intelligence: i32,
    /// Wisdom score.
    #[serde(rename = "wis")]
    pub wisdom: i32,
    /// Charisma score.
    #[serde(rename = "cha")]
    pub charisma: i32,
}

impl AbilityScores {
    /// Scores in sheet order (STR, DEX, CON, INT, WIS, CHA).
    pub const fn new(str: i32, dex: i32, con: i32, int: i32, wis: i32, cha: i32) -> Self {
        AbilityScores {
            strength: str,
            dexterity: dex,
            constitution: con,
            intelligence: int,
            wisdom: wis,
            charisma: cha,
        }
    }

    /// The score of one ability.
    pub fn score(&self, ability: Ability) -> i32 {
        [
            self.strength,
            self.dexterity,
            self.constitution,
            self.intelligence,
            self.wisdom,
            self.charisma,
        ][ability.index()]
    }

    /// The modifier of one ability.
    pub fn modifier(&self, ability: Ability) -> i32 {
        ability_modifier(self.score(ability))
    }
}

impl Default for AbilityScores {
    /// All tens: every modifier is zero.
    fn default() -> Self {
        AbilityScores::new(10, 10, 10, 10, 10, 10)
    }
}

/// The 18 skills.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // the names say it all
pub enum Skill {
    Acrobatics,
    AnimalHandling,
    Arcana,
    Athletics,
    Deception,
    History,
    Insight,
    Intimidation,
    Investigation,
    Medicine,
    Nature,
    Perception,
    Performance,
    Persuasion,
    Religion,
    SleightOfHand,
    Stealth,
    Survival,
}

impl Skill {
    /// All 18, alphabetically.
    pub const ALL: [Skill; 18] = [
        Skill::Acrobatics,
        Skill::AnimalHandling,
        Skill::Arcana,
        Skill::Athletics,
        Skill::Deception,
        Skill::History,
        Skill::Insight,
        Skill::Intimidation,
        Skill::Investigation,
        Skill::Medicine,
        Skill::Nature,
        Skill::Perception,
        Skill::Performance,
        Skill::Persuasion,
        Skill::Religion,
        Skill::SleightOfHand,
        Skill::Stealth,
        Skill::Survival,
    ];

    /// The ability a check with this skill uses.
    pub fn ability(self) -> Ability {
        use Ability::*;
        match self {
            Skill::Athletics => Strength,
            Skill::Acrobatics | Skill::SleightOfHand | Skill::Stealth => Dexterity,
            Skill::Arcana
            | Skill::History
            | Skill::Investigation
            | Skill::Nature
            | Skill::Religion => Intelligence,
            Skill::AnimalHandling
            | Skill::Insight
            | Skill::Medicine
            | Skill::Perception
            | Skill::Survival => Wisdom,
            Skill::Deception | Skill::Intimidation | Skill::Performance | Skill::Persuasion => {
                Charisma
            }
        }
    }

    /// The name as printed on a sheet ("Sleight of Hand").
    pub fn name(self) -> &'static str {
        match self {
            Skill::Acrobatics => "Acrobatics",
            Skill::AnimalHandling => "Animal Handling",
            Skill::Arcana => "Arcana",
            Skill::Athletics => "Athletics",
            Skill::Deception => "Deception",
            Skill::History => "History",
            Skill::Insight => "Insight",
            Skill::Intimidation => "Intimidation",
            Skill::Investigation => "Investigation",
            Skill::Medicine => "Medicine",
            Skill::Nature => "Nature",
            Skill::Perception => "Perception",
            Skill::Performance => "Performance",
            Skill::Persuasion => "Persuasion",
            Skill::Religion => "Religion",
            Skill::SleightOfHand => "Sleight of Hand",
            Skill::Stealth => "Stealth",
            Skill::Survival => "Survival",
        }
    }

    /// Parses a skill name in any case, with spaces, dashes or underscores ("sleight-of-hand").
    pub fn parse(text: &str) -> Option<Skill> {
        let key: String = text
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Skill::ALL.into_iter().find(|s| {
            s.name()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .eq(key.chars())
        })
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How much of the proficiency bonus applies to a check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Proficiency {
    /// No bonus.
    #[default]
    None,
    /// Half the bonus, rounded down (Jack of All Trades).
    Half,
    /// The bonus.
    Proficient,
    /// Twice the bonus.
    Expertise,
}

impl Proficiency {
    /// What this level of proficiency adds, given the proficiency bonus.
    pub fn bonus(self, proficiency_bonus: i32) -> i32 {
        match self {
            Proficiency::None => 0,
            Proficiency::Half => proficiency_bonus / 2,
            Proficiency::Proficient => proficiency_bonus,
            Proficiency::Expertise => proficiency_bonus * 2,
        }
    }
}

/// The proficiency bonus of a character of `level` (1 to 20; outside that range it is clamped):
/// +2 at levels 1–4, rising by one every four levels to +6 at 17–20.
pub fn proficiency_bonus(level: u8) -> i32 {
    let level = i32::from(level.clamp(1, 20));
    2 + (level - 1) / 4
}

/// A modifier for a check with a skill: the ability modifier plus the proficiency part.
pub fn skill_modifier(
    scores: &AbilityScores,
    skill: Skill,
    proficiency: Proficiency,
    proficiency_bonus: i32,
) -> i32 {
    scores.modifier(skill.ability()) + proficiency.bonus(proficiency_bonus)
}

/// A passive score: 10 plus the check modifier, +5 with advantage and -5 with disadvantage.
pub fn passive_score(check_modifier: i32, advantage: crate::dice::Advantage) -> i32 {
    10 + check_modifier
        + match advantage {
            crate::dice::Advantage::Normal => 0,
            crate::dice::Advantage::Advantage => 5,
            crate::dice::Advantage::Disadvantage => -5,
        }
}

/// A monster's challenge rating: 0, 1/8, 1/4, 1/2, or a whole number up to 30.
///
/// Stored in eighths so that it is exact, comparable and hashable. It serializes as a number
/// (`0.125`, `2`), the form 5e-database uses, and also reads the strings `"1/8"`, `"1/4"`, `"1/2"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChallengeRating {
    eighths: u16,
}

/// XP for CR 0, 1/8, 1/4, 1/2, then CR 1 to 30 (from the SRD's table).
const XP_FRACTIONAL: [u32; 4] = [10, 25, 50, 100];
const XP_WHOLE: [u32; 30] = [
    200, 450, 700, 1_100, 1_800, 2_300, 2_900, 3_900, 5_000, 5_900, 7_200, 8_400, 10_000, 11_500,
    13_000, 15_000, 18_000, 20_000, 22_000, 25_000, 33_000, 41_000, 50_000, 62_000, 75_000, 90_000,
    105_000, 120_000, 135_000, 155_000,
];

impl ChallengeRating {
    /// CR 0.
    pub const ZERO: ChallengeRating = ChallengeRating { eighths: 0 };

    /// A whole-number CR (0 to 30).
    pub fn whole(cr: u8) -> Option<ChallengeRating> {
        (cr <= 30).then_some(ChallengeRating {
            eighths: u16::from(cr) * 8,
        })
    }

    /// From a number as 5e-database writes it: 0, 0.125, 0.25, 0.5 or a whole number to 30.
    pub fn from_f64(value: f64) -> Option<ChallengeRating> {
        let eighths = value * 8.0;
        let valid = matches!(eighths, 0.0 | 1.0 | 2.0 | 4.0)
            || (eighths.fract() == 0.0 && (8.0..=240.0).contains(&eighths) && eighths % 8.0 == 0.0);
        valid.then_some(ChallengeRating {
            eighths: eighths as u16,
        })
    }

    /// From `"1/8"`, `"1/4"`, `"1/2"` or a number.
    pub fn parse(text: &str) -> Option<ChallengeRating> {
        match text.trim() {
            "1/8" => Some(ChallengeRating { eighths: 1 }),
            "1/4" => Some(ChallengeRating { eighths: 2 }),
            "1/2" => Some(ChallengeRating { eighths: 4 }),
            other => other.parse::<f64>().ok().and_then(Self::from_f64),
        }
    }

    /// The CR as a number (0.125 for 1/8).
    pub fn as_f64(self) -> f64 {
        f64::from(self.eighths) / 8.0
    }

    /// The XP a creature of this CR is worth.
    pub fn xp(self) -> u32 {
        match self.eighths {
            0 => XP_FRACTIONAL[0],
            1 => XP_FRACTIONAL[1],
            2 => XP_FRACTIONAL[2],
            4 => XP_FRACTIONAL[3],
            e => XP_WHOLE[usize::from(e / 8) - 1],
        }
    }

    /// The proficiency bonus of a creature of this CR: +2 up to CR 4, then one more every four.
    pub fn proficiency_bonus(self) -> i32 {
        let whole = i32::from(self.eighths / 8);
        2 + (whole - 1).max(0) / 4
    }
}

impl fmt::Display for ChallengeRating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.eighths {
            1 => f.write_str("1/8"),
            2 => f.write_str("1/4"),
            4 => f.write_str("1/2"),
            e => write!(f, "{}", e / 8),
        }
    }
}

impl Serialize for ChallengeRating {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.eighths.is_multiple_of(8) {
            serializer.serialize_u64(u64::from(self.eighths / 8))
        } else {
            serializer.serialize_f64(self.as_f64())
        }
    }
}

impl<'de> Deserialize<'de> for ChallengeRating {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Text(String),
        }
        let (cr, shown) = match Raw::deserialize(deserializer)? {
            Raw::Number(n) => (ChallengeRating::from_f64(n), n.to_string()),
            Raw::Text(t) => (ChallengeRating::parse(&t), t),
        };
        cr.ok_or_else(|| {
            serde::de::Error::custom(format!(
                "challenge rating {shown} is not one of 0, 1/8, 1/4, 1/2 or a whole number 1 to 30"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_round_down() {
        assert_eq!(ability_modifier(1), -5);
        assert_eq!(ability_modifier(8), -1);
        assert_eq!(ability_modifier(9), -1);
        assert_eq!(ability_modifier(10), 0);
        assert_eq!(ability_modifier(15), 2);
        assert_eq!(ability_modifier(30), 10);
    }

    #[test]
    fn proficiency_by_level_and_cr() {
        assert_eq!(proficiency_bonus(1), 2);
        assert_eq!(proficiency_bonus(4), 2);
        assert_eq!(proficiency_bonus(5), 3);
        assert_eq!(proficiency_bonus(17), 6);
        assert_eq!(proficiency_bonus(20), 6);
        let cr = |t| ChallengeRating::parse(t).unwrap();
        assert_eq!(cr("1/4").proficiency_bonus(), 2);
        assert_eq!(cr("4").proficiency_bonus(), 2);
        assert_eq!(cr("5").proficiency_bonus(), 3);
        assert_eq!(cr("30").proficiency_bonus(), 9);
    }

    #[test]
    fn challenge_rating_xp_and_forms() {
        let cr = |t| ChallengeRating::parse(t).unwrap();
        assert_eq!(cr("0").xp(), 10);
        assert_eq!(cr("1/8").xp(), 25);
        assert_eq!(cr("0.25").xp(), 50);
        assert_eq!(cr("5").xp(), 1_800);
        assert_eq!(cr("30").xp(), 155_000);
        assert_eq!(cr("1/2").to_string(), "1/2");
        assert!(ChallengeRating::parse("0.3").is_none());
        assert!(ChallengeRating::parse("31").is_none());
        let json = serde_json::to_string(&cr("1/8")).unwrap();
        assert_eq!(json, "0.125");
        let back: ChallengeRating = serde_json::from_str("\"1/4\"").unwrap();
        assert_eq!(back, cr("0.25"));
        assert!(serde_json::from_str::<ChallengeRating>("0.3").is_err());
    }

    #[test]
    fn skills_and_passives() {
        let scores = AbilityScores::new(10, 16, 10, 10, 14, 10);
        assert_eq!(
            skill_modifier(&scores, Skill::Stealth, Proficiency::Expertise, 2),
            7
        );
        assert_eq!(
            skill_modifier(&scores, Skill::Perception, Proficiency::Proficient, 2),
            4
        );
        assert_eq!(passive_score(4, crate::dice::Advantage::Normal), 14);
        assert_eq!(passive_score(4, crate::dice::Advantage::Advantage), 19);
        assert_eq!(Skill::parse("sleight-of-hand"), Some(Skill::SleightOfHand));
        assert_eq!(Skill::parse("ANIMAL HANDLING"), Some(Skill::AnimalHandling));
        assert_eq!(Ability::parse("Dex"), Some(Ability::Dexterity));
    }
}
