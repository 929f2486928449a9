//! The three ways to make ability scores: the standard array, point buy, and 4d6 drop lowest
//! rolled by the engine's dice.
//!
//! ```
//! use dnd_engine::character::{ScoreMethod, point_buy_cost};
//! use dnd_engine::rules::AbilityScores;
//!
//! assert_eq!(point_buy_cost(15), Some(9));
//! let buy = ScoreMethod::PointBuy { scores: AbilityScores::new(15, 15, 15, 8, 8, 8) };
//! assert!(buy.problems("scores").is_empty(), "27 points exactly");
//! let over = ScoreMethod::PointBuy { scores: AbilityScores::new(15, 15, 15, 9, 8, 8) };
//! assert!(!over.problems("scores").is_empty(), "28 points");
//! ```

use serde::{Deserialize, Serialize};

use super::build_error::{BuildError, Problem, Problems};
use crate::dice::{DiceExpr, DieSource};
use crate::rules::{Ability, AbilityScores};

/// The standard array, assigned to the six abilities in any order.
pub const STANDARD_ARRAY: [i32; 6] = [15, 14, 13, 12, 10, 8];

/// The points point buy spends.
pub const POINT_BUY_BUDGET: u32 = 27;

/// What a score costs in point buy (8 to 15), or `None` outside that range.
pub fn point_buy_cost(score: i32) -> Option<u32> {
    const COSTS: [u32; 8] = [0, 1, 2, 3, 4, 5, 7, 9];
    usize::try_from(score - 8)
        .ok()
        .and_then(|i| COSTS.get(i))
        .copied()
}

/// Six scores by 4d6 drop the lowest die, in the order rolled (the player then assigns them).
pub fn roll_ability_scores<S: DieSource + ?Sized>(rng: &mut S) -> [i32; 6] {
    let expr = DiceExpr::parse("4d6kh3").expect("4d6kh3 is valid dice");
    let mut scores = [0; 6];
    for score in &mut scores {
        // A random source always has faces; a replay that runs out gives the lowest score.
        *score = expr.roll_total(rng).map_or(3, |t| t as i32);
    }
    scores
}

/// How the scores (before racial increases) were made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "method", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScoreMethod {
    /// 15, 14, 13, 12, 10, 8 in any order.
    StandardArray {
        /// The scores as assigned.
        scores: AbilityScores,
    },
    /// Each score 8 to 15, costing at most 27 points in all.
    PointBuy {
        /// The scores bought.
        scores: AbilityScores,
    },
    /// Six rolls of 4d6 drop lowest ([`roll_ability_scores`]), assigned in any order.
    Rolled {
        /// The six totals rolled.
        rolled: Vec<i32>,
        /// The scores as assigned: the rolls in some order.
        scores: AbilityScores,
    },
}

impl ScoreMethod {
    /// The scores before racial increases.
    pub fn scores(&self) -> AbilityScores {
        match self {
            ScoreMethod::StandardArray { scores }
            | ScoreMethod::PointBuy { scores }
            | ScoreMethod::Rolled { scores, .. } => *scores,
        }
    }

    /// What is wrong with the scores, each at `field` + ".scores.str" and so on.
    pub fn problems(&self, field: &str) -> Vec<BuildError> {
        let mut problems = Problems::default();
        let scores = self.scores();
        let listed: Vec<i32> = Ability::ALL.iter().map(|a| scores.score(*a)).collect();
        let same_set = |expected: &[i32]| {
            let mut a = listed.clone();
            let mut b = expected.to_vec();
            a.sort_unstable();
            b.sort_unstable();
            a == b
        };
        match self {
            ScoreMethod::StandardArray { .. } => {
                if !same_set(&STANDARD_ARRAY) {
                    problems.add(
                        format!("{field}.scores"),
                        Problem::NotTheSet {
                            given: listed,
                            expected: STANDARD_ARRAY.to_vec(),
                        },
                    );
                }
            }
            ScoreMethod::PointBuy { .. } => {
                let mut spent = 0;
                for ability in Ability::ALL {
                    let score = scores.score(ability);
                    match point_buy_cost(score) {
                        Some(cost) => spent += cost,
                        None => problems.add(
                            format!("{field}.scores.{}", ability.abbreviation()),
                            Problem::OutOfRange {
                                given: score.into(),
                                min: 8,
                                max: 15,
                            },
                        ),
                    }
                }
                if spent > POINT_BUY_BUDGET {
                    problems.add(
                        format!("{field}.scores"),
                        Problem::OverBudget {
                            spent,
                            budget: POINT_BUY_BUDGET,
                        },
                    );
                }
            }
            ScoreMethod::Rolled { rolled, .. } => {
                if rolled.len() != 6 {
                    problems.add(
                        format!("{field}.rolled"),
                        Problem::WrongCount {
                            what: "4d6 drop lowest".into(),
                            given: rolled.len(),
                            expected: 6,
                        },
                    );
                }
                for (i, r) in rolled.iter().enumerate() {
                    if !(3..=18).contains(r) {
                        problems.add(
                            format!("{field}.rolled[{i}]"),
                            Problem::OutOfRange {
                                given: (*r).into(),
                                min: 3,
                                max: 18,
                            },
                        );
                    }
                }
                if rolled.len() == 6 && !same_set(rolled) {
                    problems.add(
                        format!("{field}.scores"),
                        Problem::NotTheSet {
                            given: listed,
                            expected: rolled.clone(),
                        },
                    );
                }
            }
        }
        problems.0
    }
}

/// `scores` with `bonus` added to `ability`, capped at 20 as the rules cap scores.
pub(crate) fn raised(scores: AbilityScores, ability: Ability, bonus: i32) -> AbilityScores {
    let mut s = scores;
    let slot = match ability {
        Ability::Strength => &mut s.strength,
        Ability::Dexterity => &mut s.dexterity,
        Ability::Constitution => &mut s.constitution,
        Ability::Intelligence => &mut s.intelligence,
        Ability::Wisdom => &mut s.wisdom,
        Ability::Charisma => &mut s.charisma,
    };
    *slot = (*slot + bonus).min(20);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{FixedFaces, seeded_rng};

    #[test]
    fn point_buy_costs_follow_the_table() {
        let costs: Vec<_> = (7..=16).map(point_buy_cost).collect();
        let want = [
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(7),
            Some(9),
            None,
        ];
        assert_eq!(costs, want);
    }

    #[test]
    fn a_point_buy_score_out_of_range_is_named() {
        let buy = ScoreMethod::PointBuy {
            scores: AbilityScores::new(16, 8, 8, 8, 8, 7),
        };
        let problems = buy.problems("scores");
        let fields: Vec<_> = problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["scores.scores.str", "scores.scores.cha"]);
    }

    #[test]
    fn the_standard_array_must_be_used_once_each() {
        let good = ScoreMethod::StandardArray {
            scores: AbilityScores::new(8, 15, 14, 13, 12, 10),
        };
        assert!(good.problems("s").is_empty());
        let twice = ScoreMethod::StandardArray {
            scores: AbilityScores::new(15, 15, 14, 13, 12, 10),
        };
        assert!(matches!(
            twice.problems("s")[0].problem,
            Problem::NotTheSet { .. }
        ));
    }

    #[test]
    fn rolled_scores_drop_the_lowest_die() {
        // 6,5,2,4 keeps 15; then five rolls of all ones give 3.
        let mut faces = FixedFaces::new([6, 5, 2, 4].into_iter().chain([1; 20]));
        assert_eq!(roll_ability_scores(&mut faces), [15, 3, 3, 3, 3, 3]);
        let rolled = roll_ability_scores(&mut seeded_rng(7));
        assert!(rolled.iter().all(|s| (3..=18).contains(s)));
        let assigned = ScoreMethod::Rolled {
            rolled: rolled.to_vec(),
            scores: AbilityScores::new(
                rolled[5], rolled[4], rolled[3], rolled[2], rolled[1], rolled[0],
            ),
        };
        assert!(assigned.problems("s").is_empty());
    }
}
