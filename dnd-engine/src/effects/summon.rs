//! Summoning: a spell that brings creatures to fight on its caster's side (Conjure Animals,
//! Animate Dead), or to stand by it (Find Familiar's familiar, which cannot attack). The vocabulary ([`Summon`], in a spell's data as `Effect::Summon`) and the
//! rule over numbers ([`Summon::allowed`]: which creature, how many at a slot); the tools
//! (`tools/spell_summons.rs`, the one place that reads it) build the creatures from the SRD's
//! stat blocks, and `state::summons` keeps them until the spell ends.

use serde::{Deserialize, Serialize};

use crate::rules::ChallengeRating;

/// What a summoning spell brings (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summon {
    /// The creature type every creature must have ("beast"); `None` when `named` says which.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creature_type: Option<String>,
    /// The ways to choose, each a challenge rating (or a list of SRD monsters) and how many
    /// come: Conjure Animals' one of CR 2, two of CR 1, four of CR 1/2, eight of CR 1/4.
    pub options: Vec<SummonOption>,
    /// How the number grows with the slot.
    pub scaling: SummonScaling,
    /// How long it lasts, in rounds (ten a minute); `None`: until the creature drops to 0 hit
    /// points (Find Familiar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// What commanding a creature costs its caster, and how near it must be.
    pub command: Command,
    /// Whether the creatures attack (a familiar cannot: it takes no attack on its turns).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub attacks: bool,
    /// Only one at a time: casting again sends the one there away first (Find Familiar).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_at_a_time: bool,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

/// One way to choose what comes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummonOption {
    /// The highest challenge rating ("1/4") each creature may have; `None` when `named` lists
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_rating: Option<String>,
    /// The SRD monsters that may be chosen (slugs: "skeleton", "zombie"); empty: any of the
    /// challenge rating and creature type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named: Vec<String>,
    /// How many come at the spell's own level.
    pub count: u8,
}

/// How a summoning grows with the slot above the spell's level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum SummonScaling {
    /// Times as many from a slot level on: Conjure Animals' twice at 5th, three times at 7th,
    /// four times at 9th (`(slot, times)`, lowest first).
    Times {
        /// The slot levels and their multipliers.
        at: Vec<(u8, u8)>,
    },
    /// More for each slot level above the spell's: Animate Dead's two.
    PerLevel {
        /// How many more a level.
        more: u8,
    },
    /// The same number whatever the slot (Find Familiar).
    None,
}

/// What commanding a summoned creature costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "costs", rename_all = "snake_case")]
pub enum Command {
    /// A word, no action (Conjure Animals: the beasts obey verbal commands): with no command
    /// they fight the caster's foes, the order the caster is taken to have given.
    Free,
    /// A bonus action on the caster's turn, the creature within `range_ft` (Animate Dead:
    /// 60 ft); without a command for its turn it only defends itself (it attacks a foe already
    /// in reach, and does not move).
    BonusAction {
        /// How near the creature must be.
        range_ft: u32,
    },
}

/// A summoning refused, with what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummonRefused(pub String);

impl std::fmt::Display for SummonRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Summon {
    /// How many creatures of `option` come with a slot of `slot` for a spell of `level`.
    pub fn count(&self, option: &SummonOption, level: u8, slot: u8) -> u32 {
        let base = u32::from(option.count);
        match &self.scaling {
            SummonScaling::Times { at } => {
                let times = at
                    .iter()
                    .filter(|(from, _)| slot >= *from)
                    .map(|(_, t)| u32::from(*t))
                    .max()
                    .unwrap_or(1);
                base * times
            }
            SummonScaling::PerLevel { more } => {
                base + u32::from(*more) * u32::from(slot.saturating_sub(level))
            }
            SummonScaling::None => base,
        }
    }

    /// The option a creature with `slug`, `kind` (its creature type, "beast") and `cr` falls
    /// under, or why none: of the creature type, named by the option or of its challenge
    /// rating or lower (the SRD's "eight beasts of challenge rating 1/4 or lower"); of those,
    /// the one that brings the most (a wolf, CR 1/4, comes eight at a time, not one).
    pub fn option_for(
        &self,
        spell: &str,
        slug: &str,
        kind: &str,
        cr: ChallengeRating,
    ) -> Result<&SummonOption, SummonRefused> {
        if let Some(t) = &self.creature_type
            && !kind.to_ascii_lowercase().starts_with(t.as_str())
        {
            return Err(SummonRefused(format!(
                "{spell} brings creatures of type {t}; {slug} is {kind}. Allowed: {}",
                self.describe()
            )));
        }
        self.options
            .iter()
            .filter(|o| {
                let named = o.named.is_empty() || o.named.iter().any(|n| n == slug);
                let rated = o
                    .challenge_rating
                    .as_deref()
                    .and_then(ChallengeRating::parse)
                    .is_none_or(|most| cr <= most);
                named && rated
            })
            .max_by_key(|o| o.count)
            .ok_or_else(|| {
                SummonRefused(format!(
                    "{spell} cannot bring {slug} (challenge rating {}). Allowed: {}",
                    cr.as_f64(),
                    self.describe()
                ))
            })
    }

    /// The options in words, for a refusal.
    pub fn describe(&self) -> String {
        let kind = self.creature_type.as_deref().unwrap_or("creature");
        self.options
            .iter()
            .map(|o| match (&o.challenge_rating, o.named.is_empty()) {
                (Some(cr), true) => format!("{} {kind} of CR {cr} or lower", o.count),
                _ => format!("{} {}", o.count, o.named.join(" or ")),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conjure() -> Summon {
        Summon {
            creature_type: Some("beast".into()),
            options: [("2", 1), ("1", 2), ("1/2", 4), ("1/4", 8)]
                .into_iter()
                .map(|(cr, count)| SummonOption {
                    challenge_rating: Some(cr.into()),
                    named: Vec::new(),
                    count,
                })
                .collect(),
            scaling: SummonScaling::Times {
                at: vec![(5, 2), (7, 3), (9, 4)],
            },
            rounds: Some(600),
            command: Command::Free,
            attacks: true,
            one_at_a_time: false,
        }
    }

    #[test]
    fn conjure_animals_counts_by_challenge_rating_and_slot() {
        let s = conjure();
        let quarter = ChallengeRating::parse("1/4").unwrap();
        let wolves = s.option_for("Conjure Animals", "wolf", "beast", quarter);
        let wolves = wolves.unwrap();
        assert_eq!(s.count(wolves, 3, 3), 8);
        assert_eq!(s.count(wolves, 3, 4), 8);
        assert_eq!(s.count(wolves, 3, 5), 16);
        assert_eq!(s.count(wolves, 3, 9), 32);
        let one = ChallengeRating::parse("1").unwrap();
        let bear = s.option_for("Conjure Animals", "brown-bear", "beast", one);
        assert_eq!(s.count(bear.unwrap(), 3, 3), 2);
        let three = ChallengeRating::parse("3").unwrap();
        assert!(
            s.option_for("Conjure Animals", "x", "beast", three)
                .is_err()
        );
        assert!(
            s.option_for("Conjure Animals", "goblin", "humanoid", quarter)
                .is_err()
        );
    }

    #[test]
    fn animate_dead_grows_by_two_a_level() {
        let s = Summon {
            creature_type: None,
            options: vec![SummonOption {
                challenge_rating: None,
                named: vec!["skeleton".into(), "zombie".into()],
                count: 1,
            }],
            scaling: SummonScaling::PerLevel { more: 2 },
            rounds: Some(14_400),
            command: Command::BonusAction { range_ft: 60 },
            attacks: true,
            one_at_a_time: false,
        };
        let cr = ChallengeRating::parse("1/4").unwrap();
        let o = s
            .option_for("Animate Dead", "zombie", "undead", cr)
            .unwrap();
        assert_eq!(s.count(o, 3, 3), 1);
        assert_eq!(s.count(o, 3, 5), 5);
        assert!(s.option_for("Animate Dead", "ghoul", "undead", cr).is_err());
    }
}
