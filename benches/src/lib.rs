//! Criterion benches for the workspace live in `benches/benches/`; run them with
//! `cargo bench -p dnd-benches --bench dice`. This library is intentionally empty.
