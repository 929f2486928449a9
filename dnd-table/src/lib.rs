//! One layer for running games, shared by the terminal game (`play`), the game server and the
//! other examples, so that each is a front end and none keeps its own copy:
//!
//! - [`provider`]: who plays the game master, chosen from the environment (`OPENAI_API_KEY`,
//!   `OPENAI_BASE_URL`, `OPENROUTER_API_KEY`) and a few options, and the game master built
//!   over a store with the settings that suit that provider;
//! - [`storage`] and [`campaign`]: the save file in the platform's data folder, starting a
//!   campaign of a built-in adventure with its heroes, copying one;
//! - the mechanics panel's data as plain serialisable structs: [`panel`] (each roll and change
//!   of a turn as a line with its dice), [`sheet`] (the character sheet and inventory),
//!   [`map`] (the rooms found, laid out on a grid), [`combat`] (initiative order and
//!   positions), [`story`] (the story so far and every roll). The terminal prints them as
//!   text; the server sends them as JSON.
//!
//! - [`logging`]: where the traces go (`play --log FILE`, the server's stderr), by `RUST_LOG`.
//!
//! Nothing here decides a rule: every number comes from the engine's state and the store.

pub mod campaign;
pub mod combat;
pub mod logging;
pub mod map;
pub mod panel;
pub mod provider;
pub mod sheet;
pub mod storage;
pub mod story;
