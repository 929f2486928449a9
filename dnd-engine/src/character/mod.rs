//! Characters beyond the state's sheet: the layer above `state` and `srd` (below `tools`) that
//! turns a player's choices (race, class, background, ability scores, skills, kit, spells) into
//! a [`state::Character`] sheet by the SRD's rules, refusing every illegal choice with an error
//! that names the field and what is allowed; and how a character grows (levelling), as
//! functions that read a sheet and the class data and return the [`Change`]s to commit, so a
//! tool stays a thin wrapper and the rules are tested without one.
//!
//! [`state::Character`]: crate::state::Character
//! [`Change`]: crate::state::Change

pub mod abilities;
pub mod build_error;
pub mod builder;
mod choices;
pub mod equipment;
pub mod file;
mod level_spells;
mod levelling;
mod spells;

pub use abilities::{
    POINT_BUY_BUDGET, STANDARD_ARRAY, ScoreMethod, point_buy_cost, roll_ability_scores,
};
pub use build_error::{BuildError, BuildErrors, Problem};
pub use builder::{BackgroundChoice, CharacterChoices, KitChoice, StartingKit};
pub use file::{
    CharacterFileError, FileProblem, load_character_file, read_character_file, write_sheet,
};
pub use levelling::{
    FeaturePick, GRAPPLER, GainedFeature, HpChoice, Improvement, LevelChoices, LevelUpError,
    LevelledUp, first_legal_choices, level_up, may_level_up,
};

pub mod barbarian;
pub mod bard;
#[cfg(test)]
mod builder_tests;
pub mod divine;
pub mod features;
pub mod fighting_style;
pub mod granted_spells;
mod level_features;
pub mod monk;
pub mod pact_chain;
pub mod preparing;
pub mod race;
pub mod ranger;
pub mod rogue;
pub mod slot_recovery;
pub mod sorcerer;
pub mod uses;
pub mod warlock;
pub mod wild_shape;
pub mod wizard;

// What a build or a level writes on the sheet by itself (tests/build_choices.rs).
pub mod granted;
mod invocations_gained;
pub mod tome;
