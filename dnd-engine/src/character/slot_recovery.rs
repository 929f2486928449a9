//! Spell slots recovered on a short rest: the wizard's Arcane Recovery (wizard 1) and the
//! Circle of the Land druid's Natural Recovery (druid 2) are one rule, played here once for
//! both: once per long rest, when a short rest ends, expended slots come back whose levels add
//! up to at most half the caster's level rounded up, none of 6th level or higher. The caster
//! says which ("1,1" or "2"); anything else is refused with what is allowed.

use crate::srd::Srd;
use crate::state::{Change, Character};

use super::uses::{self, FeatureError};

/// The wizard's feature.
pub const ARCANE_RECOVERY: &str = "arcane-recovery";

/// The Land druid's feature.
pub const NATURAL_RECOVERY: &str = "natural-recovery";

/// The lowest slot level neither feature recovers.
const TOO_HIGH: u8 = 6;

/// Why slots cannot be recovered as asked. Each message says what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecoveryError {
    /// Neither a wizard nor a Circle of the Land druid.
    #[error(
        "{name} ({class}) recovers no slots on a short rest: that is a wizard's Arcane Recovery or a Circle of the Land druid's Natural Recovery"
    )]
    NoFeature {
        /// The character.
        name: String,
        /// Its class.
        class: String,
    },
    /// The feature is not the character's yet, or is spent until a long rest.
    #[error(transparent)]
    Feature(#[from] FeatureError),
    /// The choice is no list of levels.
    #[error("{given:?} names no slot levels: give them as \"1,1\" or \"2\"; {allowed}")]
    Unreadable {
        /// What was given.
        given: String,
        /// What may be recovered.
        allowed: String,
    },
    /// A level of 6 or more (or 0).
    #[error("no slot of level {level} comes back this way (only levels 1 to 5); {allowed}")]
    BadLevel {
        /// The level asked.
        level: u8,
        /// What may be recovered.
        allowed: String,
    },
    /// The levels add up to more than the feature allows.
    #[error("those slots add up to {total} levels, more than {budget}; {allowed}")]
    OverBudget {
        /// The sum asked.
        total: u32,
        /// Half the level, rounded up.
        budget: u8,
        /// What may be recovered.
        allowed: String,
    },
    /// No expended slot of a level asked (as many as asked).
    #[error("{name} has {expended} expended slot(s) of level {level}, fewer than asked; {allowed}")]
    NotExpended {
        /// The caster.
        name: String,
        /// The level.
        level: u8,
        /// How many of that level are expended.
        expended: u8,
        /// What may be recovered.
        allowed: String,
    },
}

/// The slot levels a recovery may add up to at `level`: half of it, rounded up.
pub fn recovery_budget(level: u8) -> u8 {
    level.div_ceil(2)
}

/// What `c` may recover, in words: "up to 2 levels in all of the expended slots (level 1: 2,
/// level 2: 1), none of 6th level or higher".
pub fn allowed(c: &Character) -> String {
    let expended: Vec<String> = (1..TOO_HIGH)
        .filter_map(|l| {
            let n = c.spell_slots.spent[usize::from(l - 1)];
            (n > 0).then(|| format!("level {l}: {n}"))
        })
        .collect();
    let from = if expended.is_empty() {
        "no slot is expended".to_owned()
    } else {
        format!("expended: {}", expended.join(", "))
    };
    format!(
        "up to {} slot levels in all, none of 6th level or higher ({from})",
        recovery_budget(c.level)
    )
}

/// Reads "1,1", "2" or "1 2" as slot levels.
pub fn parse_levels(c: &Character, text: &str) -> Result<Vec<u8>, RecoveryError> {
    let unreadable = || RecoveryError::Unreadable {
        given: text.to_owned(),
        allowed: allowed(c),
    };
    let levels: Vec<u8> = text
        .split([',', ' ', '+'])
        .filter(|p| !p.trim().is_empty())
        .map(|p| p.trim().parse::<u8>().map_err(|_| unreadable()))
        .collect::<Result<_, _>>()?;
    if levels.is_empty() {
        return Err(unreadable());
    }
    Ok(levels)
}

/// The class feature that recovers slots for `c` (Arcane Recovery or Natural Recovery),
/// checked to be its at its level and subclass.
fn recovery_feature<'a>(
    srd: &'a Srd,
    c: &Character,
) -> Result<(&'a crate::srd::Class, &'a crate::srd::ClassFeature), RecoveryError> {
    let slug = match c.class.trim().to_ascii_lowercase().as_str() {
        "wizard" => ARCANE_RECOVERY,
        "druid" => NATURAL_RECOVERY,
        _ => {
            return Err(RecoveryError::NoFeature {
                name: c.name.clone(),
                class: c.class.clone(),
            });
        }
    };
    Ok(uses::feature_of(srd, c, slug)?)
}

/// The changes that recover the slots of `levels` for `c` as its short rest ends: the
/// feature's use (once per long rest) and the slots. Refused, with what is allowed, when `c`
/// has no such feature, has spent it, or asks for slots it may not recover.
pub fn recover_slots(
    srd: &Srd,
    c: &Character,
    levels: &[u8],
) -> Result<Vec<Change>, RecoveryError> {
    let (class, feature) = recovery_feature(srd, c)?;
    let spent = uses::spend(class, feature, c)?;
    if let Some(&level) = levels.iter().find(|&&l| l == 0 || l >= TOO_HIGH) {
        return Err(RecoveryError::BadLevel {
            level,
            allowed: allowed(c),
        });
    }
    let total: u32 = levels.iter().map(|&l| u32::from(l)).sum();
    let budget = recovery_budget(c.level);
    if total > u32::from(budget) {
        return Err(RecoveryError::OverBudget {
            total,
            budget,
            allowed: allowed(c),
        });
    }
    for level in 1..TOO_HIGH {
        let asked = levels.iter().filter(|&&l| l == level).count();
        let expended = c.spell_slots.spent[usize::from(level - 1)];
        if asked > usize::from(expended) {
            return Err(RecoveryError::NotExpended {
                name: c.name.clone(),
                level,
                expended,
                allowed: allowed(c),
            });
        }
    }
    Ok(vec![
        spent,
        Change::SlotsRecovered {
            character: c.id.clone(),
            levels: levels.to_vec(),
        },
    ])
}

/// [`recover_slots`] from the caster's words ("1,1", "2").
pub fn recover_slots_named(
    srd: &Srd,
    c: &Character,
    text: &str,
) -> Result<Vec<Change>, RecoveryError> {
    recover_slots(srd, c, &parse_levels(c, text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn isolde() -> Character {
        let mut c = crate::adventure::Adventure::built_in()
            .new_game(&["isolde"])
            .unwrap()
            .characters[0]
            .clone();
        c.spell_slots.spent[0] = 2;
        c.spell_slots.spent[1] = 1;
        c
    }

    #[test]
    fn half_the_level_rounded_up() {
        assert_eq!(
            (1..=6).map(recovery_budget).collect::<Vec<_>>(),
            [1, 1, 2, 2, 3, 3]
        );
    }

    #[test]
    fn a_3rd_level_wizard_recovers_two_levels_of_expended_slots() {
        let srd = Srd::bundled();
        let c = isolde();
        for ok in ["1,1", "2", "1"] {
            let changes = recover_slots_named(srd, &c, ok).unwrap();
            assert!(matches!(changes[0], Change::FeatureUsed { .. }));
        }
        let over = recover_slots_named(srd, &c, "1,2").unwrap_err();
        assert!(matches!(over, RecoveryError::OverBudget { total: 3, .. }));
        assert!(
            over.to_string()
                .contains("up to 2 slot levels in all, none of 6th level or higher (expended: level 1: 2, level 2: 1)"),
            "{over}"
        );
        let mut one = c.clone();
        one.spell_slots.spent[0] = 0;
        assert!(matches!(
            recover_slots_named(srd, &one, "1").unwrap_err(),
            RecoveryError::NotExpended { level: 1, .. }
        ));
        assert!(matches!(
            recover_slots_named(srd, &c, "6").unwrap_err(),
            RecoveryError::BadLevel { level: 6, .. }
        ));
        assert!(matches!(
            recover_slots_named(srd, &c, "two").unwrap_err(),
            RecoveryError::Unreadable { .. }
        ));
        let mut fighter = c;
        fighter.class = "fighter".into();
        assert!(matches!(
            recover_slots_named(srd, &fighter, "1").unwrap_err(),
            RecoveryError::NoFeature { .. }
        ));
    }
}
