//! The Evocation wizard's Sculpt Spells (wizard 2) as a pure rule: who may sculpt which spell,
//! and how many creatures it may spare. `tools::feature_wizard` names the creatures and the
//! effects engine spares them (`effects::Subject::spared`).

use crate::srd::{School, Spell, Srd};
use crate::state::Character;

use super::uses::{self, FeatureError};

/// The slug of Sculpt Spells in the class data.
pub const SCULPT_SPELLS: &str = "sculpt-spells";

/// Why a casting cannot be sculpted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SculptError {
    /// Not an Evocation wizard of 2nd level or more.
    #[error("Sculpt Spells is an Evocation wizard's (2nd level): {0}; cast with sculpt null")]
    NotTheirs(FeatureError),
    /// The spell is of another school.
    #[error(
        "Sculpt Spells shapes evocation spells only; {spell} is {school}: cast it with sculpt null"
    )]
    NotEvocation {
        /// The spell.
        spell: String,
        /// Its school.
        school: String,
    },
    /// More creatures than 1 + the spell's level.
    #[error("Sculpt Spells spares up to {max} creatures from {spell} (1 + its level), not {asked}")]
    TooMany {
        /// The spell.
        spell: String,
        /// 1 + the spell's level.
        max: usize,
        /// How many were named.
        asked: usize,
    },
}

/// How many creatures Sculpt Spells may spare from a spell of `level`: 1 + its level.
pub fn sculpt_limit(level: u8) -> usize {
    1 + usize::from(level)
}

/// Whether `c` may sculpt `spell` sparing `count` creatures: the feature is its (an Evocation
/// wizard of 2nd level or more), the spell an evocation, the count at most 1 + its level.
pub fn may_sculpt(
    srd: &Srd,
    c: &Character,
    spell: &Spell,
    count: usize,
) -> Result<(), SculptError> {
    uses::feature_of(srd, c, SCULPT_SPELLS).map_err(SculptError::NotTheirs)?;
    if spell.school != School::Evocation {
        return Err(SculptError::NotEvocation {
            spell: spell.name.clone(),
            school: format!("{:?}", spell.school).to_lowercase(),
        });
    }
    let max = sculpt_limit(spell.level);
    if count > max {
        return Err(SculptError::TooMany {
            spell: spell.name.clone(),
            max,
            asked: count,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evocation_wizard_spares_one_plus_the_spell_level() {
        let srd = Srd::bundled();
        let isolde = crate::adventure::Adventure::built_in()
            .new_game(&["isolde"])
            .unwrap()
            .characters[0]
            .clone();
        let fireball = srd.spell("Fireball").unwrap();
        assert_eq!(sculpt_limit(fireball.level), 4);
        assert_eq!(may_sculpt(srd, &isolde, fireball, 4), Ok(()));
        assert!(matches!(
            may_sculpt(srd, &isolde, fireball, 5),
            Err(SculptError::TooMany { max: 4, .. })
        ));
        let sleep = srd.spell("Sleep").unwrap();
        assert!(matches!(
            may_sculpt(srd, &isolde, sleep, 1),
            Err(SculptError::NotEvocation { .. })
        ));
        let mut first = isolde.clone();
        first.level = 1;
        assert!(matches!(
            may_sculpt(srd, &first, fireball, 1),
            Err(SculptError::NotTheirs(_))
        ));
    }
}
