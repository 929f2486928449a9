//! Encounter difficulty from the XP thresholds and the multiplier for the number of monsters.

use serde::{Deserialize, Serialize};

use super::ability::ChallengeRating;

/// How hard an encounter is for a party.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    /// Below the easy threshold.
    Trivial,
    /// At least easy.
    Easy,
    /// At least medium.
    Medium,
    /// At least hard.
    Hard,
    /// At least deadly.
    Deadly,
}

/// Per-character XP thresholds (easy, medium, hard, deadly) for levels 1 to 20.
const THRESHOLDS: [[u32; 4]; 20] = [
    [25, 50, 75, 100],
    [50, 100, 150, 200],
    [75, 150, 225, 400],
    [125, 250, 375, 500],
    [250, 500, 750, 1_100],
    [300, 600, 900, 1_400],
    [350, 750, 1_100, 1_700],
    [450, 900, 1_400, 2_100],
    [550, 1_100, 1_600, 2_400],
    [600, 1_200, 1_900, 2_800],
    [800, 1_600, 2_400, 3_600],
    [1_000, 2_000, 3_000, 4_500],
    [1_100, 2_200, 3_400, 5_100],
    [1_250, 2_500, 3_800, 5_700],
    [1_400, 2_800, 4_300, 6_400],
    [1_600, 3_200, 4_800, 7_200],
    [2_000, 3_900, 5_900, 8_800],
    [2_100, 4_200, 6_300, 9_500],
    [2_400, 4_900, 7_300, 10_900],
    [2_800, 5_700, 8_500, 12_700],
];

/// The multipliers in order, from the extra step below ×1 (large parties) to the extra step
/// above ×4 (small parties).
const MULTIPLIERS: [f64; 8] = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0];

/// The XP thresholds (easy, medium, hard, deadly) of one character of `level` (clamped to 1–20).
pub fn xp_thresholds(level: u8) -> [u32; 4] {
    THRESHOLDS[usize::from(level.clamp(1, 20)) - 1]
}

/// The multiplier for `monsters` monsters against a party of `party_size`: ×1 for one, ×1.5
/// for two, ×2 for 3–6, ×2.5 for 7–10, ×3 for 11–14, ×4 for 15 or more; one step higher for a
/// party of fewer than three, one step lower for six or more.
pub fn encounter_multiplier(monsters: usize, party_size: usize) -> f64 {
    let step: usize = match monsters {
        0 => return 0.0,
        1 => 1,
        2 => 2,
        3..=6 => 3,
        7..=10 => 4,
        11..=14 => 5,
        _ => 6,
    };
    let step = match party_size {
        0..=2 => step + 1,
        6.. => step - 1,
        _ => step,
    };
    MULTIPLIERS[step]
}

/// The difficulty of an encounter, with the numbers behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncounterDifficulty {
    /// The party's thresholds summed (easy, medium, hard, deadly).
    pub thresholds: [u32; 4],
    /// The monsters' XP summed.
    pub base_xp: u32,
    /// The multiplier applied.
    pub multiplier: f64,
    /// Base XP times the multiplier: what is compared with the thresholds.
    pub adjusted_xp: u32,
    /// The verdict.
    pub difficulty: Difficulty,
}

/// Rates an encounter for a party (one level per character) against monsters by CR.
pub fn encounter_difficulty(
    party_levels: &[u8],
    monsters: &[ChallengeRating],
) -> EncounterDifficulty {
    let thresholds = party_levels.iter().fold([0u32; 4], |mut sum, level| {
        for (s, t) in sum.iter_mut().zip(xp_thresholds(*level)) {
            *s += t;
        }
        sum
    });
    let base_xp: u32 = monsters.iter().map(|cr| cr.xp()).sum();
    let multiplier = encounter_multiplier(monsters.len(), party_levels.len());
    let adjusted_xp = (f64::from(base_xp) * multiplier).round() as u32;
    let difficulty = match thresholds.iter().rposition(|t| adjusted_xp >= *t) {
        _ if party_levels.is_empty() => Difficulty::Deadly,
        None => Difficulty::Trivial,
        Some(0) => Difficulty::Easy,
        Some(1) => Difficulty::Medium,
        Some(2) => Difficulty::Hard,
        Some(_) => Difficulty::Deadly,
    };
    EncounterDifficulty {
        thresholds,
        base_xp,
        multiplier,
        adjusted_xp,
        difficulty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cr(text: &str) -> ChallengeRating {
        ChallengeRating::parse(text).unwrap()
    }

    #[test]
    fn the_dmg_worked_example() {
        // Four 3rd-level characters (75/150/225/400 each) against a CR 1 and three CR 1/2
        // monsters: 200 + 3 × 100 = 500 XP, ×2 for four monsters = 1000: hard, short of deadly.
        let party = [3, 3, 3, 3];
        let r = encounter_difficulty(&party, &[cr("1"), cr("1/2"), cr("1/2"), cr("1/2")]);
        assert_eq!(r.thresholds, [300, 600, 900, 1_600]);
        assert_eq!(r.base_xp, 500);
        assert_eq!(r.multiplier, 2.0);
        assert_eq!(r.adjusted_xp, 1_000);
        assert_eq!(r.difficulty, Difficulty::Hard);
    }

    #[test]
    fn six_goblins_against_four_level_three() {
        let r = encounter_difficulty(&[3; 4], &[cr("1/4"); 6]);
        assert_eq!(r.adjusted_xp, 600);
        assert_eq!(r.difficulty, Difficulty::Medium);
    }

    #[test]
    fn party_size_shifts_the_multiplier() {
        assert_eq!(encounter_multiplier(1, 4), 1.0);
        assert_eq!(encounter_multiplier(1, 2), 1.5);
        assert_eq!(encounter_multiplier(1, 6), 0.5);
        assert_eq!(encounter_multiplier(15, 1), 5.0);
        assert_eq!(encounter_multiplier(8, 4), 2.5);
        assert_eq!(
            encounter_difficulty(&[1], &[]).difficulty,
            Difficulty::Trivial
        );
    }
}
