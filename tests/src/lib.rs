//! End-to-end tests across crates live in `tests/tests/`. This library is intentionally empty.

/// Compiles and runs the Rust examples in the README, so they cannot rot.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Compiles and runs the examples of each published crate's README (the page a registry shows),
/// so they cannot rot either. They are here rather than in each crate so that a crate's docs
/// stay its own; `no_run` ones (a model server, a database) are compiled only.
#[doc = include_str!("../../dnd-dice/README.md")]
#[doc = include_str!("../../dnd-engine/README.md")]
#[doc = include_str!("../../dnd-store-sqlite/README.md")]
#[doc = include_str!("../../dnd-store-postgres/README.md")]
#[doc = include_str!("../../dnd-llm-openai/README.md")]
#[doc = include_str!("../../dnd-llm-openrouter/README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;
