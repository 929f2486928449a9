//! The core of an AI game master for Dungeons & Dragons 5e.
//!
//! The one rule: the language model is never the source of truth. It interprets the player and
//! narrates; this crate owns the dice, the rules and the game state, and every change to the
//! state goes through code that validates it.
//!
//! ```
//! use dnd_engine::dice::{DiceExpr, seeded_rng};
//! use dnd_engine::srd::Srd;
//!
//! // The SRD's goblin, and its hit points rolled from its hit dice.
//! let goblin = Srd::bundled().monster("goblin").unwrap();
//! let hit_points = DiceExpr::parse(&goblin.hit_dice).unwrap();
//! let rolled = hit_points.roll(&mut seeded_rng(1)).unwrap().total();
//! assert!((2..=12).contains(&rolled));
//! ```
//!
//! # Modules, from the bottom up
//!
//! Each layer uses only the layers listed before it (the workspace's `ARCHITECTURE.md` draws
//! the map):
//!
//! - [`dice`]: dice notation (Roll20 and Avrae dialects), rolls with every die's fate, exact
//!   distributions and provably fair dice; the `dnd-dice` crate, re-exported.
//! - [`text`], [`files`]: untrusted text made safe for a terminal; files read with a size bound.
//! - [`llm`]: provider-neutral messages, tools, requests and responses, the
//!   [`llm::LlmProvider`] trait and a [`llm::ScriptedProvider`] for tests.
//! - [`srd`]: the bundled SRD 5.1 subset (monsters, spells, classes, races, gear, rules), lookups
//!   with "did you mean", and a loader for the community 5e-database files.
//! - [`rules`]: the rules of 5e as pure functions (checks, attacks, damage, conditions,
//!   encounters).
//! - [`state`]: one campaign's [`state::GameState`] and the only way it moves,
//!   [`state::Change`]; [`store`]: the [`store::GameStore`] trait, turn records and an in-memory
//!   store (SQLite and PostgreSQL stores are the `dnd-store-*` crates).
//! - [`effects`], [`combat`], [`character`]: what spells, features and items do; turns, budgets
//!   and positions in a fight; characters built and levelled by the SRD's rules.
//! - [`tools`]: the tools the model calls, each a typed argument, a JSON Schema and a handler.
//! - [`gm`]: the game master's turn, from the player's words to narration and a committed
//!   record; [`fair`]: a campaign's provably fair dice; [`adventure`]: adventures loaded from
//!   JSON (two built in); [`agents`]: several agents at one table.
//! - [`offline`]: an offline game master and player, the whole game with no model;
//!   [`simulator`]: plays an encounter out many times and reports how it tends to go.
//!
//! # Entry points
//!
//! A game builds a [`gm::GameMaster`] over an [`llm::LlmProvider`] and a [`store::GameStore`],
//! creates a campaign from an [`adventure`], and plays it turn by turn. The providers are in
//! `dnd-llm-openai` and `dnd-llm-openrouter`.

pub mod adventure;
pub mod agents;
pub mod character;
pub mod combat;
pub use dnd_dice as dice;
pub mod effects;
pub mod fair;
pub mod files;
pub mod gm;
pub mod llm;
pub mod offline;
pub mod rules;
pub mod simulator;
pub mod srd;
pub mod state;
pub mod store;
pub mod text;
pub mod tools;
