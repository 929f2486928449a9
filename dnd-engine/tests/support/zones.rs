//! Helpers of the areas-that-last tests (`spell_zones.rs`, `spell_zones_again.rs`): a placed
//! fight with Hedda as the caster, `cast_spell`'s arguments aimed or used again, and reads of
//! the turn log. Included with `#[path]` after `support/table.rs` (as `mod table`).

#![allow(dead_code)]

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{CasterProgression, SpellSlots};
use dnd_engine::state::GameState;

use crate::table::{self, Table, at};

/// Hedda (who has learned `spells`, with a 5th-level caster's slots and Wisdom 16: DC 13),
/// Kraven and the harpy (200 HP) where `places` puts them, in that order.
pub fn placed(spells: &[&str], places: &[(&str, (i32, i32))], seed: u64) -> Table {
    let places: Vec<(&str, dnd_engine::state::Position)> = places
        .iter()
        .map(|(id, (x, y))| (*id, at(*x, *y, 0)))
        .collect();
    let state = table::placed_fight(
        &["hedda", "kraven"],
        table::order(&["hedda", "kraven", "frost-harpy"]),
        &places,
    );
    let mut t = Table::new(state, seed);
    // Open ground: no difficult terrain to double the moves.
    for area in &mut Arc::make_mut(&mut t.state.locations)[0].areas {
        area.difficult_terrain = false;
    }
    let hedda = t.hero_mut("hedda");
    hedda.spell_slots = SpellSlots::for_class(CasterProgression::Full, 5);
    Arc::make_mut(&mut hedda.spells).extend(spells.iter().map(|s| (*s).to_owned()));
    t
}

/// `cast_spell`'s arguments: `spell` with a slot of `slot`, aimed at `aim`, no one named.
pub fn aimed(caster: &str, spell: &str, slot: Option<u8>, aim: &str) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": [], "aim": aim, "ritual": null})
}

/// `cast_spell`'s arguments using `spell` again (no slot), aimed at `aim`, `targets` named.
pub fn again(caster: &str, spell: &str, aim: Option<&str>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets, "aim": aim, "ritual": null, "again": true})
}

/// The current hit points of a character or monster.
pub fn hp(state: &GameState, id: &str) -> u32 {
    match state.character(id) {
        Some(c) => c.hp.current,
        None => state.monster(id).unwrap().hp.current,
    }
}

/// The zone reports among `next_turn`'s events.
pub fn zone_events(passed: &Value) -> Vec<Value> {
    passed["monster_turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("zone").is_some())
        .cloned()
        .collect()
}

/// The last damage roll of `spell` in the turn log: its dice ("3d10") and total.
pub fn last_damage(t: &Table, spell: &str) -> (String, u64) {
    let roll = t
        .log
        .rolls
        .iter()
        .rev()
        .find(|r| r.label == format!("{spell} damage"))
        .expect("a damage roll");
    let detail = serde_json::to_value(&roll.detail).unwrap();
    let dice = detail["result"]["dice"].as_str().unwrap().to_owned();
    (dice, roll.total as u64)
}

/// A save's damage against the roll: all of it on a failure, half (rounded down) on a success.
pub fn check_half_on_success(outcome: &Value, rolled: u64) {
    let want = if outcome["save"]["success"] == true {
        rolled / 2
    } else {
        rolled
    };
    assert_eq!(outcome["damage"], want, "{outcome}");
}
