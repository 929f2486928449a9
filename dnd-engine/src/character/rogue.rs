//! The rogue's rules that change a roll, as pure functions over the sheet, the class data and
//! facts the caller gathers from the fight: whether a hit deals Sneak Attack (rogue 1), and
//! how much of a hit Uncanny Dodge (rogue 5) leaves. The tools (`tools::feature_rogue`) read
//! the fight (advantage, who stands beside the target, whether the rogue already sneaked this
//! turn) and commit what these decide.

use crate::dice::Advantage;
use crate::rules::{DamageDice, DamageType};
use crate::srd::Srd;
use crate::state::Character;

/// The slug of Sneak Attack in the class data.
pub const SNEAK_ATTACK: &str = "sneak-attack";

/// The slug of Cunning Action in the class data.
pub const CUNNING_ACTION: &str = "cunning-action";

/// The slug of the Thief's Fast Hands in the class data.
pub const FAST_HANDS: &str = "fast-hands";

/// The slug of Uncanny Dodge in the class data.
pub const UNCANNY_DODGE: &str = "uncanny-dodge";

/// What the fight says about one attack, for Sneak Attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SneakFacts<'a> {
    /// The attack roll's advantage once every source is counted (both cancel to normal).
    pub roll: Advantage,
    /// Another enemy of the target (not the rogue, able to act) within 5 ft of it, by name.
    pub ally_beside: Option<&'a str>,
    /// The rogue already dealt Sneak Attack this turn (whoever's turn it is).
    pub used_this_turn: bool,
}

/// Why a finesse or ranged attack by a rogue deals no Sneak Attack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoSneak {
    /// Already dealt this turn.
    #[error("no Sneak Attack: already dealt once this turn")]
    UsedThisTurn,
    /// The roll has disadvantage.
    #[error("no Sneak Attack: the attack has disadvantage")]
    Disadvantage,
    /// Neither advantage nor an ally beside the target.
    #[error("no Sneak Attack: no advantage and no ally within 5 ft of the target")]
    NoOpening,
}

/// Sneak Attack's extra dice on a qualifying hit, and why the attack qualified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sneak {
    /// The dice (the weapon's damage type), doubled on a critical hit like any dice.
    pub dice: DamageDice,
    /// Why it qualified: "advantage" or "Kraven is beside the target".
    pub because: String,
}

/// Sneak Attack's dice at `c`'s rogue level, from the class table (1d6 at 1, 2d6 at 3, 3d6 at
/// 5), of `kind`; `None` when `c` has no Sneak Attack.
pub fn sneak_attack_dice(srd: &Srd, c: &Character, kind: DamageType) -> Option<DamageDice> {
    let (class, _) = super::uses::feature_of(srd, c, SNEAK_ATTACK).ok()?;
    let dice = class.level(c.level)?.numbers.sneak_attack.as_ref()?;
    Some(DamageDice::new(
        u16::from(dice.dice_count),
        u16::from(dice.dice_value),
        0,
        kind,
    ))
}

/// Whether `weapon` (a sheet attack's name) is a finesse or ranged weapon of the SRD: the only
/// weapons Sneak Attack rides on. A spell or a natural weapon is neither.
pub fn sneak_weapon(srd: &Srd, weapon: &str) -> bool {
    srd.spell_named(weapon).is_none()
        && srd.weapon(weapon).is_ok_and(|w| {
            w.ranged
                || w.properties
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case("finesse"))
        })
}

/// Sneak Attack on one attack by `c` with `weapon` (its damage `kind`): `None` when it cannot
/// apply at all (not a rogue, not a finesse or ranged weapon); otherwise the dice, or why not.
/// The SRD: once per turn, a hit with a finesse or ranged weapon deals the extra dice if the
/// attack has advantage, or if another enemy of the target is within 5 ft of it, is not
/// incapacitated, and the attack does not have disadvantage.
pub fn sneak_attack(
    srd: &Srd,
    c: &Character,
    weapon: &str,
    kind: DamageType,
    facts: SneakFacts<'_>,
) -> Option<Result<Sneak, NoSneak>> {
    if !sneak_weapon(srd, weapon) {
        return None;
    }
    let dice = sneak_attack_dice(srd, c, kind)?;
    if facts.used_this_turn {
        return Some(Err(NoSneak::UsedThisTurn));
    }
    let because = match (facts.roll, facts.ally_beside) {
        (Advantage::Advantage, _) => "advantage".to_owned(),
        (Advantage::Disadvantage, _) => return Some(Err(NoSneak::Disadvantage)),
        (Advantage::Normal, Some(ally)) => format!("{ally} is within 5 ft of the target"),
        (Advantage::Normal, None) => return Some(Err(NoSneak::NoOpening)),
    };
    Some(Ok(Sneak { dice, because }))
}

/// The damage a hit of `damage` deals after Uncanny Dodge halves it (rounded down).
pub fn uncanny_dodge(damage: u32) -> u32 {
    damage / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srd::Srd;

    fn rogue(level: u8) -> Character {
        let mut c = crate::adventure::Adventure::built_in()
            .new_game(&["wren"])
            .unwrap()
            .characters[0]
            .clone();
        c.level = level;
        c
    }

    fn facts(roll: Advantage, ally: Option<&str>) -> SneakFacts<'_> {
        SneakFacts {
            roll,
            ally_beside: ally,
            used_this_turn: false,
        }
    }

    #[test]
    fn the_dice_follow_the_class_table() {
        let srd = Srd::bundled();
        let count = |level| {
            sneak_attack_dice(srd, &rogue(level), DamageType::Piercing).map(|d| (d.count, d.sides))
        };
        assert_eq!(count(1), Some((1, 6)));
        assert_eq!(count(2), Some((1, 6)));
        assert_eq!(count(3), Some((2, 6)));
        assert_eq!(count(5), Some((3, 6)));
        let mut wizard = rogue(3);
        wizard.class = "wizard".into();
        assert_eq!(sneak_attack_dice(srd, &wizard, DamageType::Piercing), None);
    }

    #[test]
    fn advantage_or_an_ally_beside_without_disadvantage() {
        let srd = Srd::bundled();
        let wren = rogue(3);
        let sneak = |weapon, f| sneak_attack(srd, &wren, weapon, DamageType::Piercing, f);
        // A shortsword (finesse) with advantage; a shortbow (ranged) with an ally beside.
        let hit = sneak("Shortsword", facts(Advantage::Advantage, None)).unwrap();
        assert_eq!(hit.unwrap().because, "advantage");
        let hit = sneak("Shortbow", facts(Advantage::Normal, Some("Kraven"))).unwrap();
        assert_eq!(hit.unwrap().dice.count, 2);
        // Disadvantage spoils the ally's opening; neither opening: none.
        assert_eq!(
            sneak("Shortsword", facts(Advantage::Disadvantage, Some("Kraven"))),
            Some(Err(NoSneak::Disadvantage))
        );
        assert_eq!(
            sneak("Shortsword", facts(Advantage::Normal, None)),
            Some(Err(NoSneak::NoOpening))
        );
        // Once a turn.
        let used = SneakFacts {
            used_this_turn: true,
            ..facts(Advantage::Advantage, None)
        };
        assert_eq!(sneak("Dagger", used), Some(Err(NoSneak::UsedThisTurn)));
        // A club is neither finesse nor ranged; a spell is no weapon: nothing to say.
        assert_eq!(sneak("Club", facts(Advantage::Advantage, None)), None);
        assert_eq!(sneak("Fire Bolt", facts(Advantage::Advantage, None)), None);
    }

    #[test]
    fn uncanny_dodge_halves_rounding_down() {
        assert_eq!(uncanny_dodge(13), 6);
        assert_eq!(uncanny_dodge(1), 0);
        assert_eq!(uncanny_dodge(20), 10);
    }
}
