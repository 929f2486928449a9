//! The SRD's one background, the Acolyte, as data (`data/backgrounds.json`). Its kit follows
//! the SRD text: the 5e-database file lists only the clothes, the pouch and the holy symbol,
//! so the incense, the vestments and the prayer book or wheel were added from the SRD.
//!
//! ```
//! use dnd_engine::rules::Skill;
//! use dnd_engine::srd::Srd;
//!
//! let acolyte = Srd::bundled().background("acolyte").unwrap();
//! assert_eq!(acolyte.skills, [Skill::Insight, Skill::Religion]);
//! ```

use serde::{Deserialize, Serialize};

use super::classes::{EquipmentChoice, FeatureStatus, ItemCount};
use crate::rules::Skill;

/// A background: skills, tools, languages, kit and a feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Background {
    /// The 5e-database index ("acolyte").
    pub slug: String,
    /// Its name.
    pub name: String,
    /// One sentence for a player.
    pub description: String,
    /// Skill proficiencies it gives.
    pub skills: Vec<Skill>,
    /// Tool proficiencies it gives (none for the Acolyte).
    pub tools: Vec<String>,
    /// Languages of the player's choice.
    pub extra_languages: u8,
    /// Equipment it gives.
    pub starting_equipment: Vec<ItemCount>,
    /// Equipment picked (the Acolyte's holy symbol).
    pub equipment_choices: Vec<EquipmentChoice>,
    /// Gold pieces in the starting purse.
    pub starting_gold: u32,
    /// Its feature.
    pub feature: BackgroundFeature,
}

/// A background's feature ("Shelter of the Faithful").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackgroundFeature {
    /// Its name.
    pub name: String,
    /// What it gives, in our words.
    pub description: String,
    /// What the engine does with it.
    #[serde(flatten)]
    pub status: FeatureStatus,
}
