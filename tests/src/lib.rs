//! End-to-end tests across crates live in `tests/tests/`. This library is intentionally empty.
