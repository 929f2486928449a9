//! Lasting spells used again on later turns (issue 16), through `cast_spell`'s `again` as a
//! model calls it, with seeded dice: Call Lightning's second bolt, Heat Metal's heat, Flaming
//! Sphere rammed, Hunter's Mark's longer durations and its mark moved; and models that try to
//! stretch them (no concentration, the wrong spend, the beam moved beyond 60 ft), refused with
//! what is allowed.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{CasterProgression, SpellSlots};
use dnd_engine::state::{GameState, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, at, cast};

#[path = "support/zones.rs"]
mod zones;
use zones::{again, aimed, check_half_on_success, hp, last_damage, placed, zone_events};

#[test]
fn call_lightnings_second_bolt_is_an_action_with_no_slot_while_concentrating() {
    let mut t = placed(
        &["Call Lightning"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (0, 0)),
            ("frost-harpy", (60, 0)),
        ],
        4,
    );
    let first = t.ok(
        "cast_spell",
        aimed("hedda", "Call Lightning", Some(3), "frost-harpy"),
    );
    assert_eq!(first["effects"][0]["target"], "Frost Harpy", "{first}");
    let slots = t.state.character("hedda").unwrap().spell_slots;
    // Round two: Hedda's action calls the next bolt, wherever the harpy now is.
    t.ok("next_turn", json!({}));
    t.ok("next_turn", json!({}));
    assert_eq!(t.turn_of(), "hedda");
    let before = hp(&t.state, "frost-harpy");
    let second = t.ok(
        "cast_spell",
        again("hedda", "Call Lightning", Some("frost-harpy"), &[]),
    );
    let outcome = &second["effects"][0];
    assert_eq!(outcome["target"], "Frost Harpy", "{second}");
    let (dice, rolled) = last_damage(&t, "Call Lightning");
    assert_eq!(dice, "3d10", "the slot it was cast with");
    check_half_on_success(outcome, rolled);
    let damage = outcome["damage"].as_u64().unwrap() as u32;
    assert_eq!(hp(&t.state, "frost-harpy"), before - damage);
    assert_eq!(
        t.state.character("hedda").unwrap().spell_slots,
        slots,
        "no slot"
    );
    assert_eq!(
        t.state.character("hedda").unwrap().concentration.as_deref(),
        Some("Call Lightning")
    );
    // Its action is spent: the bonus action does not call a third.
    let e = t.refused(
        "cast_spell",
        again("hedda", "Call Lightning", Some("frost-harpy"), &[]),
    );
    assert!(e.contains("takes an action"), "{e}");
}

#[test]
fn heat_metal_burns_the_same_creature_again_with_a_bonus_action() {
    let mut t = Table::fight(&["hedda", "kraven"], &["hedda", "kraven", "frost-harpy"], 3);
    Arc::make_mut(&mut t.hero_mut("hedda").spells).push("Heat Metal".into());
    t.ok(
        "cast_spell",
        cast("hedda", "Heat Metal", None, &["frost-harpy"]),
    );
    t.ok("next_turn", json!({}));
    t.ok("next_turn", json!({}));
    let before = hp(&t.state, "frost-harpy");
    let r = t.ok("cast_spell", again("hedda", "Heat Metal", None, &[]));
    let damage = r["effects"][0]["damage"].as_u64().unwrap() as u32;
    assert_eq!(
        last_damage(&t, "Heat Metal"),
        ("2d8".to_owned(), u64::from(damage))
    );
    assert_eq!(hp(&t.state, "frost-harpy"), before - damage);
    // The bonus action is spent; the action is still Hedda's.
    let e = t.refused("cast_spell", again("hedda", "Heat Metal", None, &[]));
    assert!(e.contains("takes a bonus action"), "{e}");
    // Once the harpy is down, the metal has no one left to burn.
    t.apply(&[dnd_engine::state::Change::Damage {
        target: dnd_engine::state::Target::Monster("frost-harpy".into()),
        amount: 200,
        critical: false,
    }]);
    let e = t.refused("cast_spell", again("hedda", "Heat Metal", None, &[]));
    assert!(e.contains("no longer stands"), "{e}");
}

#[test]
fn flaming_sphere_burns_whoever_ends_a_turn_beside_it_and_rams_with_a_bonus_action() {
    let mut t = placed(
        &["Flaming Sphere"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (30, 0)),
            ("frost-harpy", (60, 0)),
        ],
        3,
    );
    // The sphere appears by Kraven: nothing as it appears.
    let r = t.ok(
        "cast_spell",
        aimed("hedda", "Flaming Sphere", None, "kraven"),
    );
    assert_eq!(r["effects"], json!([]), "{r}");
    // Kraven ends his turn within 5 ft of it: a Dexterity save against 2d6 fire.
    t.ok("next_turn", json!({}));
    let passed = t.ok("next_turn", json!({}));
    let caught: Vec<Value> = zone_events(&passed)
        .into_iter()
        .filter(|z| z["effects"][0]["target"] == "Kraven")
        .collect();
    assert_eq!(caught.len(), 1, "{passed}");
    let outcome = &caught[0]["effects"][0];
    let (dice, rolled) = last_damage(&t, "Flaming Sphere");
    assert_eq!(dice, "2d6");
    check_half_on_success(outcome, rolled);
    assert_eq!(t.turn_of(), "hedda", "{passed}");
    // Hedda's bonus action rams it into the harpy, 25 ft from the sphere; 35 ft is too far.
    let moved_to = |x| dnd_engine::state::Change::Moved {
        creature: "frost-harpy".into(),
        to: at(x, 0, 0),
    };
    t.apply(&[moved_to(65)]);
    let e = t.refused(
        "cast_spell",
        again("hedda", "Flaming Sphere", Some("frost-harpy"), &[]),
    );
    assert!(
        e.contains("is 35 ft from") && e.contains("moves at most 30 ft"),
        "{e}"
    );
    t.apply(&[moved_to(55)]);
    let before = hp(&t.state, "frost-harpy");
    let r = t.ok(
        "cast_spell",
        again("hedda", "Flaming Sphere", Some("frost-harpy"), &[]),
    );
    let outcome = &r["effects"][0];
    assert_eq!(outcome["target"], "Frost Harpy", "{r}");
    check_half_on_success(outcome, last_damage(&t, "Flaming Sphere").1);
    let damage = outcome["damage"].as_u64().unwrap() as u32;
    assert_eq!(hp(&t.state, "frost-harpy"), before - damage);
    let e = t.refused(
        "cast_spell",
        again("hedda", "Flaming Sphere", Some("kraven"), &[]),
    );
    assert!(e.contains("takes a bonus action"), "{e}");
}

fn mark_rounds(state: &GameState, id: &str) -> Option<u32> {
    let effects = match state.character(id) {
        Some(c) => &c.timed_effects,
        None => &state.monster(id).unwrap().timed_effects,
    };
    effects
        .iter()
        .find(|e| matches!(e.kind, TimedKind::Marked { .. }))
        .and_then(|e| e.rounds_left)
}

#[test]
fn hunters_mark_lasts_8_hours_from_a_3rd_level_slot_and_24_from_a_5th() {
    for (slot, rounds) in [(1, 600), (2, 600), (3, 4800), (4, 4800), (5, 14400)] {
        let mut t = Table::fight(&["hedda", "kraven"], &["hedda", "kraven", "frost-harpy"], 1);
        let hedda = t.hero_mut("hedda");
        hedda.spell_slots = SpellSlots::for_class(CasterProgression::Full, 9);
        Arc::make_mut(&mut hedda.spells).push("Hunter's Mark".into());
        t.ok(
            "cast_spell",
            cast("hedda", "Hunter's Mark", Some(slot), &["frost-harpy"]),
        );
        assert_eq!(
            mark_rounds(&t.state, "frost-harpy"),
            Some(rounds),
            "slot {slot}"
        );
    }
}

#[test]
fn hunters_mark_moves_with_a_bonus_action_once_its_quarry_drops() {
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "ogre", "frost-harpy"],
        1,
    );
    Arc::make_mut(&mut t.hero_mut("hedda").spells).push("Hunter's Mark".into());
    t.ok(
        "cast_spell",
        cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
    );
    // While the harpy stands, the mark stays on it.
    let e = t.refused(
        "cast_spell",
        again("hedda", "Hunter's Mark", None, &["ogre"]),
    );
    assert!(e.contains("still stands"), "{e}");
    // The harpy drops; on a later turn Hedda's bonus action moves the mark to the ogre.
    t.apply(&[dnd_engine::state::Change::Damage {
        target: dnd_engine::state::Target::Monster("frost-harpy".into()),
        amount: 200,
        critical: false,
    }]);
    for _ in 0..4 {
        t.apply(&[dnd_engine::state::Change::TurnAdvanced]);
    }
    assert_eq!(t.turn_of(), "hedda");
    let left = mark_rounds(&t.state, "frost-harpy").unwrap();
    let r = t.ok(
        "cast_spell",
        again("hedda", "Hunter's Mark", None, &["ogre"]),
    );
    assert_eq!(r["slot_level"], Value::Null, "{r}");
    assert_eq!(
        mark_rounds(&t.state, "ogre"),
        Some(left),
        "what is left of the hour"
    );
    assert_eq!(mark_rounds(&t.state, "frost-harpy"), None);
    let e = t.refused(
        "cast_spell",
        again("hedda", "Hunter's Mark", None, &["kraven"]),
    );
    assert!(
        e.contains("still stands") || e.contains("bonus action"),
        "{e}"
    );
}

/// Models that call Call Lightning's bolt again without concentrating on it, or after the
/// action is spent, move the beam beyond 60 ft, or use again a spell with nothing to repeat:
/// each refused with what is allowed, nothing changed.
#[test]
fn a_cheating_model_cannot_stretch_a_lasting_area() {
    let mut t = placed(
        &["Call Lightning", "Moonbeam", "Fireball"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (30, 0)),
            ("frost-harpy", (60, 0)),
        ],
        1,
    );
    let e = t.refused(
        "cast_spell",
        again("hedda", "Call Lightning", Some("frost-harpy"), &[]),
    );
    assert!(
        e.contains("keeps no Call Lightning in play") && e.contains("concentrating on: nothing"),
        "{e}"
    );
    let e = t.refused(
        "cast_spell",
        again("hedda", "Fireball", Some("frost-harpy"), &[]),
    );
    assert!(e.contains("nothing to use again"), "{e}");
    let mut with_slot = again("hedda", "Call Lightning", Some("frost-harpy"), &[]);
    with_slot["slot_level"] = json!(3);
    let e = t.refused("cast_spell", with_slot);
    assert!(e.contains("spends no slot"), "{e}");
    t.ok("cast_spell", aimed("hedda", "Moonbeam", None, "kraven"));
    // Moonbeam took the action: moving it this turn is refused for that.
    let e = t.refused(
        "cast_spell",
        again("hedda", "Moonbeam", Some("frost-harpy"), &[]),
    );
    assert!(e.contains("takes an action"), "{e}");
    t.ok("next_turn", json!({}));
    let passed = t.ok("next_turn", json!({}));
    assert_eq!(t.turn_of(), "hedda", "{passed}");
    // The far ledge is 670 ft from the beam.
    let e = t.refused(
        "cast_spell",
        again("hedda", "Moonbeam", Some("far-ledge"), &[]),
    );
    assert!(e.contains("moves at most 60 ft"), "{e}");
    // Moving onto the harpy (within 60 ft of Kraven's square) is allowed.
    t.ok(
        "cast_spell",
        again("hedda", "Moonbeam", Some("frost-harpy"), &[]),
    );
    // Concentration moved to Moonbeam earlier: Call Lightning is not Hedda's to repeat.
    let e = t.refused(
        "cast_spell",
        again("hedda", "Call Lightning", Some("frost-harpy"), &[]),
    );
    assert!(e.contains("concentrating on: Moonbeam"), "{e}");
}

/// The same misuses from a scripted model in a whole turn: the bolt called again before any
/// casting, then twice in the turn it was cast; each refused with what is allowed.
#[tokio::test]
async fn a_scripted_model_calling_the_bolt_again_is_refused() {
    let before = placed(
        &["Call Lightning"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (0, 0)),
            ("frost-harpy", (60, 0)),
        ],
        1,
    )
    .state;
    let call = |id: &str, args: Value| dnd_engine::llm::ToolCall::new(id, "cast_spell", args);
    let bolt = || again("hedda", "Call Lightning", Some("frost-harpy"), &[]);
    let calls = vec![
        call("a", bolt()),
        call(
            "b",
            aimed("hedda", "Call Lightning", Some(3), "frost-harpy"),
        ),
        call("c", bolt()),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Storm, answer me!").await;
    let r = &played.results;
    assert!(
        r[0].contains("keeps no Call Lightning in play") && r[0].contains("cast it with a slot"),
        "{}",
        r[0]
    );
    assert!(r[1].contains("\"spell\":\"Call Lightning\""), "{}", r[1]);
    assert!(r[2].contains("takes an action"), "{}", r[2]);
    let hedda = played.after.character("hedda").unwrap();
    assert_eq!(hedda.spell_slots.spent[2], 1, "one slot, for the casting");
}
