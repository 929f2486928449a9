//! What a situation does without a spell or an attack: the damage of a fall or a hazard, and
//! the conditions a situation may impose or lift.
//!
//! Each number comes from the rules, never from the teller of the story: a fall deals 1d6
//! bludgeoning per 10 feet fallen, at most 20d6 (SRD, "Falling"); any other hazard deals the
//! improvised damage the DMG gives by how severe it is and by the party's level (the table
//! below). The game master names the cause; these functions give the dice.
//!
//! | levels | setback | dangerous | deadly |
//! |---|---|---|---|
//! | 1–4 | 1d10 | 2d10 | 4d10 |
//! | 5–10 | 2d10 | 4d10 | 10d10 |
//! | 11–16 | 4d10 | 10d10 | 18d10 |
//! | 17–20 | 10d10 | 18d10 | 24d10 |
//!
//! Conditions: a situation (a slip on the ice, a forced march, the cold) can knock a creature
//! prone or tire it, and nothing else: every other condition comes from a spell, an attack, a
//! monster's action or a trap the engine resolves, and a beneficial one (invisible) never comes
//! for free. A condition is lifted by a choice or by time only where the rules say so: see
//! [`can_impose`] and [`can_lift`].

use serde::{Deserialize, Serialize};

use super::{Condition, DamageDice, DamageType};

/// How far a fall may count: the rules stop adding dice at 200 feet (20d6).
pub const MAX_FALL_DICE: u16 = 20;

/// The dice of a fall of `feet`: 1d6 bludgeoning per full 10 feet, at most 20d6; `None` under
/// 10 feet, which deals no damage.
pub fn fall_damage(feet: u32) -> Option<DamageDice> {
    let dice = (feet / 10).min(u32::from(MAX_FALL_DICE)) as u16;
    (dice > 0).then(|| DamageDice::new(dice, 6, 0, DamageType::Bludgeoning))
}

/// How bad a hazard is, in the DMG's words for improvised damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A nuisance: it hurts, but is unlikely to kill (brushing a brazier, a small rockfall).
    Setback,
    /// Likely to hurt badly (a collapsing ceiling, a lava splash).
    Dangerous,
    /// Likely to kill (lava, a crushing wall).
    Deadly,
}

/// The d10s of improvised damage for a hazard of `severity` at the party's `level` (the DMG
/// table in the module docs; a level of 0 counts as 1, above 20 as 20).
pub fn hazard_damage(severity: Severity, level: u8, kind: DamageType) -> DamageDice {
    let tier = match level {
        0..=4 => 0,
        5..=10 => 1,
        11..=16 => 2,
        _ => 3,
    };
    const TABLE: [[u16; 3]; 4] = [[1, 2, 4], [2, 4, 10], [4, 10, 18], [10, 18, 24]];
    let column = match severity {
        Severity::Setback => 0,
        Severity::Dangerous => 1,
        Severity::Deadly => 2,
    };
    DamageDice::new(TABLE[tier][column], 10, 0, kind)
}

/// The conditions a situation alone may impose: prone (a fall, a slip, a shove of the wind)
/// and exhaustion (cold, heat, a forced march, hunger). Each of the others needs a spell, an
/// attack, a monster's action or a trap the engine resolves, or is a benefit (invisible) that a
/// spell or an item grants.
pub const IMPOSED_BY_A_SITUATION: [Condition; 2] = [Condition::Prone, Condition::Exhaustion];

/// Whether a situation alone may impose `condition` (see [`IMPOSED_BY_A_SITUATION`]).
pub fn can_impose(condition: Condition) -> bool {
    IMPOSED_BY_A_SITUATION.contains(&condition)
}

/// Whether `condition` may end by a choice or by time, without a save, a check, healing or a
/// rest the engine resolves:
///
/// - prone: the creature stands up (in a fight, standing costs half its movement);
/// - invisible: a benefit, which its bearer may always give up;
/// - blinded, charmed, deafened, frightened, poisoned: outside a fight only, when the effect
///   that caused them runs out (the engine does not track their durations yet); during a fight
///   they end by the save or the duration of the effect that imposed them.
///
/// Never by choice: unconscious (healing or a rest wakes a creature), exhaustion (a long rest
/// removes one level), grappled (an escape contest), and paralyzed, petrified, restrained,
/// stunned, incapacitated (the effect's save or end).
pub fn can_lift(condition: Condition, in_a_fight: bool) -> bool {
    match condition {
        Condition::Prone | Condition::Invisible => true,
        Condition::Blinded
        | Condition::Charmed
        | Condition::Deafened
        | Condition::Frightened
        | Condition::Poisoned => !in_a_fight,
        _ => false,
    }
}

/// The names of the conditions [`can_lift`] allows, for an error message.
pub fn liftable(in_a_fight: bool) -> Vec<&'static str> {
    Condition::ALL
        .iter()
        .filter(|c| can_lift(**c, in_a_fight))
        .map(|c| c.name())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fall_is_1d6_per_10_feet_up_to_20d6() {
        assert_eq!(fall_damage(5), None, "under 10 feet, no damage");
        assert_eq!(
            fall_damage(30),
            Some(DamageDice::new(3, 6, 0, DamageType::Bludgeoning))
        );
        assert_eq!(fall_damage(35).unwrap().count, 3, "full 10 feet only");
        assert_eq!(fall_damage(200).unwrap().count, 20);
        assert_eq!(fall_damage(250).unwrap().count, 20, "capped at 20d6");
        assert_eq!(fall_damage(u32::MAX).unwrap().count, 20);
    }

    #[test]
    fn hazards_follow_the_improvised_damage_table() {
        let d = |s, l| hazard_damage(s, l, DamageType::Cold).count;
        use Severity::*;
        assert_eq!((d(Setback, 1), d(Dangerous, 4), d(Deadly, 3)), (1, 2, 4));
        assert_eq!((d(Setback, 5), d(Dangerous, 10), d(Deadly, 7)), (2, 4, 10));
        assert_eq!(
            (d(Setback, 11), d(Dangerous, 16), d(Deadly, 12)),
            (4, 10, 18)
        );
        assert_eq!(
            (d(Setback, 17), d(Dangerous, 20), d(Deadly, 20)),
            (10, 18, 24)
        );
        assert_eq!(d(Setback, 0), 1);
        assert_eq!(hazard_damage(Deadly, 1, DamageType::Fire).sides, 10);
        assert_eq!(
            hazard_damage(Deadly, 1, DamageType::Fire).kind,
            DamageType::Fire
        );
    }

    #[test]
    fn a_situation_imposes_only_prone_and_exhaustion_and_lifts_only_what_ends_by_choice() {
        assert!(can_impose(Condition::Prone) && can_impose(Condition::Exhaustion));
        for c in [
            Condition::Invisible,
            Condition::Paralyzed,
            Condition::Unconscious,
        ] {
            assert!(!can_impose(c), "{c:?}");
        }
        assert!(can_lift(Condition::Prone, true));
        assert!(can_lift(Condition::Poisoned, false) && !can_lift(Condition::Poisoned, true));
        for c in [
            Condition::Unconscious,
            Condition::Exhaustion,
            Condition::Paralyzed,
            Condition::Grappled,
        ] {
            assert!(!can_lift(c, false), "{c:?}");
        }
        assert_eq!(liftable(true), ["invisible", "prone"]);
    }
}
