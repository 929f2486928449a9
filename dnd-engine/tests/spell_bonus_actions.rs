//! Worked examples of spells cast as a bonus action that keep working on later attacks, each
//! through the tools as a model calls them, with seeded dice: Hunter's Mark (+1d6 on the
//! caster's weapon hits against its quarry, concentration), and models that try to stretch it.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::state::{GameState, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn cast(caster: &str, spell: &str, slot: Option<u8>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets, "aim": null})
}

/// Hedda (who has learned `spells`), Kraven and the harpy (200 HP) in a fight, Hedda first.
fn fight(spells: &[&str], seed: u64) -> Table {
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "frost-harpy"],
        seed,
    );
    let hedda = t.hero_mut("hedda");
    Arc::make_mut(&mut hedda.spells).extend(spells.iter().map(|s| (*s).to_owned()));
    t
}

fn marked(state: &GameState) -> bool {
    state
        .monster("frost-harpy")
        .unwrap()
        .timed_effects
        .iter()
        .any(|e| matches!(e.kind, TimedKind::Marked { count: 1, sides: 6 }))
}

fn swing(caster: &str, attack: &str) -> Value {
    json!({"attacker": caster, "target": "frost-harpy", "attack": attack, "advantage": null})
}

#[test]
fn hunters_mark_adds_1d6_of_the_weapons_type_to_the_casters_hits_only() {
    let mut hits = 0;
    for seed in 0..12 {
        let mut t = fight(&["Hunter's Mark"], seed);
        let r = t.ok(
            "cast_spell",
            cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
        );
        assert!(marked(&t.state), "{r}");
        assert_eq!(r["concentrating"], true);
        // A bonus action: Hedda's action is still there for her warhammer.
        let a = t.ok("roll_attack", swing("hedda", "Warhammer"));
        let result = &a["attacks"][0]["result"];
        if result["hit"] == true {
            hits += 1;
            let damage = result["damage"].as_array().unwrap();
            assert_eq!(damage.len(), 2, "warhammer and the mark: {a}");
            assert_eq!(damage[1]["dice"], "1d6", "{a}");
            assert_eq!(
                damage[1]["type"], damage[0]["type"],
                "the weapon's type: {a}"
            );
            let faces = if result["critical"] == true { 2 } else { 1 };
            assert_eq!(damage[1]["faces"].as_array().unwrap().len(), faces);
            let total = result["total_damage"].as_u64().unwrap() as u32;
            assert_eq!(
                t.state.monster("frost-harpy").unwrap().hp.current,
                200 - total
            );
        }
        // Kraven's hits are his own: the mark is Hedda's.
        t.ok("next_turn", json!({}));
        let k = t.ok("roll_attack", table::attack("kraven", "frost-harpy"));
        for s in k["attacks"].as_array().unwrap() {
            let dice = s["result"]["damage"].as_array().map_or(0, Vec::len);
            assert!(dice <= 1, "no mark dice on Kraven's hit: {k}");
        }
    }
    assert!(hits > 0, "some seed hit");
}

#[test]
fn hunters_mark_ends_with_the_casters_concentration() {
    let mut t = fight(&["Hunter's Mark"], 3);
    t.ok(
        "cast_spell",
        cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
    );
    assert!(marked(&t.state));
    // On Hedda's next turn, Bless needs concentration too: the mark ends.
    for _ in 0..3 {
        t.apply(&[dnd_engine::state::Change::TurnAdvanced]);
    }
    assert!(marked(&t.state), "an hour: it lasts the rounds");
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Bless", None, &["hedda", "kraven"]),
    );
    assert_eq!(r["concentration_dropped"], "Hunter's Mark", "{r}");
    assert!(!marked(&t.state));
}

/// A model that marks two quarries, or follows the mark with a leveled spell in the same turn
/// (a bonus-action spell leaves only a cantrip for the action): refused with what is allowed.
#[tokio::test]
async fn a_cheating_model_cannot_mark_two_quarries_or_cast_a_leveled_spell_beside_it() {
    let before = fight(&["Hunter's Mark"], 1).state;
    let calls = vec![
        dnd_engine::llm::ToolCall::new(
            "a",
            "cast_spell",
            cast("hedda", "Hunter's Mark", None, &["frost-harpy", "kraven"]),
        ),
        dnd_engine::llm::ToolCall::new(
            "b",
            "cast_spell",
            cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
        ),
        dnd_engine::llm::ToolCall::new(
            "c",
            "cast_spell",
            cast("hedda", "Guiding Bolt", None, &["frost-harpy"]),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Mark it, then smite it!").await;
    let r = &played.results;
    assert!(r[0].contains("at most 1 target"), "{}", r[0]);
    assert!(r[1].contains("\"concentrating\":true"), "{}", r[1]);
    assert!(r[2].contains("cantrip"), "{}", r[2]);
    let slots = |s: &GameState| s.character("hedda").unwrap().spell_slots.clone();
    let mut expected = slots(&before);
    expected.spent[0] += 1; // the mark's slot only
    assert_eq!(slots(&played.after), expected);
}
