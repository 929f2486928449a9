//! Worked examples of spells that leave a condition until the creature itself ends it, through
//! the tools as a model calls them, with seeded dice: Invisibility (until the creature attacks
//! or casts a spell; a creature more per slot level above 2nd), and models that stretch it or
//! Web's hold.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::rules::Condition;
use dnd_engine::state::{Change, GameState};

#[path = "support/table.rs"]
mod table;
use table::{Table, cast};

fn invisible(state: &GameState, id: &str) -> bool {
    state
        .character(id)
        .unwrap()
        .conditions
        .has(Condition::Invisible)
}

/// Isolde (who has learned Invisibility and Web, with 3rd-level slots), Kraven and the harpy in
/// a fight, Isolde first.
fn fight(seed: u64) -> Table {
    let mut t = Table::fight(
        &["isolde", "kraven"],
        &["isolde", "kraven", "frost-harpy"],
        seed,
    );
    let isolde = t.hero_mut("isolde");
    isolde.spell_slots.max = [4, 3, 2, 0, 0, 0, 0, 0, 0];
    Arc::make_mut(&mut isolde.spells).extend(["Invisibility".to_owned(), "Web".to_owned()]);
    t
}

#[test]
fn invisibility_lasts_until_the_creature_attacks_and_that_attack_still_has_advantage() {
    let mut t = fight(3);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Invisibility", None, &["kraven"]),
    );
    assert_eq!(r["concentrating"], true, "{r}");
    assert!(invisible(&t.state, "kraven"));
    t.apply(&[Change::TurnAdvanced]);
    let swing = t.ok("roll_attack", table::attack("kraven", "frost-harpy"));
    let first = &swing["attacks"][0];
    assert_eq!(first["result"]["d20"]["advantage"], "advantage", "{swing}");
    assert!(
        !invisible(&t.state, "kraven"),
        "the attack ends it: {swing}"
    );
    assert!(
        t.state
            .character("kraven")
            .unwrap()
            .timed_effects
            .is_empty()
    );
}

#[test]
fn invisibility_cast_higher_covers_one_more_creature_a_level_and_each_ends_on_its_own() {
    let mut t = fight(5);
    t.ok(
        "cast_spell",
        cast("isolde", "Invisibility", Some(3), &["isolde", "kraven"]),
    );
    assert!(invisible(&t.state, "isolde") && invisible(&t.state, "kraven"));
    // Isolde's next turn: a cantrip ends hers, not Kraven's.
    for _ in 0..3 {
        t.apply(&[Change::TurnAdvanced]);
    }
    t.ok(
        "cast_spell",
        cast("isolde", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(!invisible(&t.state, "isolde"));
    assert!(invisible(&t.state, "kraven"));
}

/// A model that hides two heroes with a 2nd-level slot, frees a creature no one holds, and
/// lets an invisible hero keep attacking unseen: refused, or resolved by the rules.
#[tokio::test]
async fn a_cheating_model_cannot_hide_two_with_one_slot_or_free_the_unheld() {
    let before = fight(1).state;
    let calls = vec![
        dnd_engine::llm::ToolCall::new(
            "a",
            "cast_spell",
            cast("isolde", "Invisibility", None, &["isolde", "kraven"]),
        ),
        dnd_engine::llm::ToolCall::new("b", "escape_grapple", json!({"creature": "isolde"})),
    ];
    let played = table::scripted_turn(&before, calls, "Isolde", "Vanish, both of us!").await;
    let r = &played.results;
    assert!(
        r[0].contains("at most 1 target") && r[0].contains("2 were named"),
        "{}",
        r[0]
    );
    assert!(r[1].contains("nothing to escape"), "{}", r[1]);
    let isolde = |s: &GameState| s.character("isolde").unwrap().clone();
    assert_eq!(
        isolde(&played.after).spell_slots,
        isolde(&before).spell_slots
    );
    assert!(!invisible(&played.after, "isolde") && !invisible(&played.after, "kraven"));
}
