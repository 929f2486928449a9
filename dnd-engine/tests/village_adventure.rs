//! The second built-in adventure, "The Quiet Nights of Wendle Hollow".

use dnd_engine::adventure::Adventure;

#[test]
fn it_loads_and_validates() {
    if let Err(e) = Adventure::load(concat!(env!("CARGO_MANIFEST_DIR"), "/src/adventure/wendle_hollow.json")) {
        panic!("{e}");
    }
}
