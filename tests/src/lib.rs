//! End-to-end tests across crates live in `tests/tests/`. This library is intentionally empty.

/// Compiles and runs the Rust examples in the README, so they cannot rot.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
