//! What `prepare_spells` gives back ([`SpellsPrepared`]).

use serde::{Deserialize, Serialize};

/// A caster's prepared spells, changed or listed with the options (`prepare_spells`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellsPrepared {
    /// The character's name.
    pub character: String,
    /// Whether the list was changed by this call.
    pub changed: bool,
    /// Whether it may change the list now (not in a fight, not since its last long rest).
    pub may_change_now: bool,
    /// Its prepared spells of 1st level or higher.
    pub prepared: Vec<String>,
    /// What stays prepared whatever it chooses: cantrips, always-prepared spells.
    pub kept: Vec<String>,
    /// How many it may prepare.
    pub most: usize,
    /// What it may choose from (listed when nothing was changed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}
