//! Results of the item tools: `use_item`, `check_inventory`, `add_inventory`,
//! `update_inventory`, and `open_lock`.

use serde::{Deserialize, Serialize};

use super::SpellCast;
use crate::effects::Outcome;
use crate::rules::{AdvantageSources, CheckResult};
use crate::state::ItemStack;

/// What using an item did (`use_item`). Untagged: told apart by `on`, `unlocked_exit`,
/// `coated`, `spell`, `lasting`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ItemUsed {
    /// A healing potion healed someone.
    Healed {
        /// The item.
        used: String,
        /// Who drank it (a name).
        on: String,
        /// The dice, as text.
        rolled: String,
        /// The hit points it restored at most (the maximum caps them).
        healed_up_to: u32,
        /// Their hit points after, "current/max".
        hp: String,
    },
    /// A key opened its lock.
    Unlocked {
        /// The key.
        used: String,
        /// The direction of the exit it opened.
        unlocked_exit: String,
    },
    /// An oil coated a weapon.
    Coated {
        /// The oil.
        used: String,
        /// The weapon.
        coated: String,
        /// What the coating does.
        effect: String,
        /// The extra damage a hit deals, if any ("1d6 fire").
        extra_damage_per_hit: Option<String>,
    },
    /// A spell scroll read: the check a caster of too low a level makes, and the spell cast
    /// (none when the check failed and the scroll crumbled).
    ScrollRead {
        /// The scroll.
        used: String,
        /// The spell it held.
        spell: String,
        /// The spellcasting check for a spell above the reader's levels (DC 10 + its level).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        check: Option<CheckResult>,
        /// The casting, as `cast_spell` reports it (no slot spent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cast: Option<Box<SpellCast>>,
        /// The check failed: the scroll is used up and nothing else happens.
        lost: bool,
    },
    /// An item whose effects the engine resolved (the Flask of Warmth, an amulet's temporary
    /// hit points), with what they did and what lasts.
    Resolved {
        /// The item.
        used: String,
        /// Who used it (a name).
        user: String,
        /// What happened at once, per creature.
        effects: Vec<Outcome>,
        /// What lasts (a resistance for a minute), with its source and duration.
        lasting: Vec<Outcome>,
    },
    /// An item with no effect the engine resolves: the story tells it.
    Narrated {
        /// The item.
        used: String,
        /// That the engine resolved nothing.
        effect: String,
        /// The item's note from the adventure.
        note: String,
    },
}

/// A character's items and gold (`check_inventory`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory {
    /// The character's name.
    pub character: String,
    /// The items.
    pub items: Vec<ItemStack>,
    /// The gold pieces.
    pub gold: u32,
}

/// What a character took or was given (`add_inventory`, or `update_inventory` with a positive
/// change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemTaken {
    /// The character's name.
    pub character: String,
    /// The item.
    pub took: String,
    /// How many.
    pub quantity: u32,
    /// Where from: a feature's id, "the floor", or "the story".
    pub from: String,
    /// How many the character has now.
    pub now_has: u32,
    /// The character's gold now (coins become gold).
    pub gold: u32,
}

/// What a character gave up (`update_inventory` with a negative change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRemoved {
    /// The character's name.
    pub character: String,
    /// The item.
    pub removed: String,
    /// How many.
    pub quantity: u32,
    /// How many the character has now.
    pub now_has: u32,
}

/// What `update_inventory` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InventoryChanged {
    /// Items added.
    Added(ItemTaken),
    /// Items removed.
    Removed(ItemRemoved),
}

/// A try at a lock (`open_lock`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockAttempt {
    /// Who tried (a name).
    pub character: String,
    /// The direction of the exit.
    pub exit: String,
    /// "picks" or "forces".
    pub method: String,
    /// The check against the lock's DC.
    pub result: CheckResult,
    /// Every source of advantage and disadvantage the engine counted.
    #[serde(default, skip_serializing_if = "AdvantageSources::is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// Whether the exit is open now.
    pub unlocked: bool,
}
