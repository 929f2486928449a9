//! Making characters: the layer above `state` and `srd` that turns a player's choices (race,
//! class, background, ability scores, skills, kit, spells) into a [`state::Character`] sheet
//! by the SRD's rules, refusing every illegal choice with an error that names the field and
//! what is allowed.
//!
//! [`state::Character`]: crate::state::Character

pub mod abilities;
pub mod build_error;
pub mod builder;
mod choices;
pub mod equipment;
pub mod file;
mod spells;

pub use abilities::{
    POINT_BUY_BUDGET, STANDARD_ARRAY, ScoreMethod, point_buy_cost, roll_ability_scores,
};
pub use build_error::{BuildError, BuildErrors, Problem};
pub use builder::{BackgroundChoice, CharacterChoices, KitChoice, StartingKit};
pub use file::{
    CharacterFileError, FileProblem, load_character_file, read_character_file, write_sheet,
};

#[cfg(test)]
mod builder_tests;
pub mod features;
pub mod uses;
