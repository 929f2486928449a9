//! Spells a class feature or a racial trait lets a character cast beyond its spell list, as
//! data beside the feature (`"casts"` in `classes.json` and `races.json`): Thief of Five
//! Fates' Bane once a long rest with a warlock slot, Infernal Legacy's Thaumaturgy at will and
//! Hellish Rebuke once a long rest as a 2nd-level spell. Which of them a character has, and
//! the casting, are `character::granted_spells`'.

use serde::{Deserialize, Serialize};

use crate::rules::Ability;

/// One spell a feature or trait grants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantedSpell {
    /// The spell's name ("Hellish Rebuke").
    pub spell: String,
    /// The character level it comes at (Infernal Legacy's Darkness: 5); 1 when absent.
    #[serde(default = "first_level", skip_serializing_if = "is_first")]
    pub from_level: u8,
    /// How it is cast.
    pub cast: GrantedCasting,
    /// The ability it is cast with (a tiefling's Charisma); absent: the class's spellcasting
    /// ability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<Ability>,
}

fn first_level() -> u8 {
    1
}

fn is_first(level: &u8) -> bool {
    *level == 1
}

/// How a granted spell is cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantedCasting {
    /// At will, as a cantrip known.
    AtWill,
    /// Once a long rest, with one of the warlock's spell slots (at their level).
    DailyWithWarlockSlot,
    /// Once a long rest, with no slot, as a spell of this level.
    DailyAs(u8),
}
