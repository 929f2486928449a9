//! The core of an AI game master for Dungeons & Dragons 5e.
//!
//! The one rule: the language model is never the source of truth. It interprets the player and
//! narrates; this crate owns the dice, the rules and the game state, and every change to the
//! state goes through code that validates it.
//!
//! Modules, in the order their dependencies point (each uses only those above it):
//!
//! - [`dice`]: dice notation (Roll20 and Avrae dialects) parsed once and rolled many times,
//!   with every die's fate recorded, and exact probability distributions.
//! - [`llm`]: provider-neutral messages, tool specifications, requests and responses, the
//!   [`llm::LlmProvider`] trait and a [`llm::ScriptedProvider`] for tests.
//!
//! Rules, state, stores, tools and the game-master pipeline arrive in later milestones; see the
//! workspace's `ARCHITECTURE.md` for the map.

pub mod adventure;
pub mod agents;
pub mod character;
pub mod combat;
pub mod dice;
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
