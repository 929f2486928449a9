//! Characters beyond the sheet: how they grow. A layer above `state` and `srd` and below
//! `tools`: its functions read a sheet and the class data and return the [`Change`]s to
//! commit, so a tool stays a thin wrapper and the rules are tested without one.
//!
//! [`Change`]: crate::state::Change

mod level_spells;
mod levelling;
pub use levelling::{
    GRAPPLER, GainedFeature, HpChoice, Improvement, LevelChoices, LevelUpError, LevelledUp,
    first_legal_choices, level_up, may_level_up,
};
