//! Placeholder, replaced by the dice bench.
fn main() {}
