//! Worked examples of areas that last (issue 16), through the tools as a model calls them, with
//! seeded dice: Moonbeam burning a creature that starts its turn in the beam, Spirit Guardians
//! sparing the caster's allies, Call Lightning's second bolt, Spike Growth's 2d4 for each 5 ft,
//! Web caught on entering, Heat Metal again, Hunter's Mark's longer durations and its mark
//! moved; and models that try to stretch them, refused with what is allowed.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{CasterProgression, SpellSlots};
use dnd_engine::state::{GameState, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, at, cast};

/// Hedda (who has learned `spells`, with a 5th-level caster's slots and Wisdom 16: DC 13),
/// Kraven and the harpy (200 HP) where `places` puts them, in that order.
fn placed(spells: &[&str], places: &[(&str, (i32, i32))], seed: u64) -> Table {
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

fn aimed(caster: &str, spell: &str, slot: Option<u8>, aim: &str) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": [], "aim": aim, "ritual": null})
}

fn again(caster: &str, spell: &str, aim: Option<&str>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets, "aim": aim, "ritual": null, "again": true})
}

fn hp(state: &GameState, id: &str) -> u32 {
    match state.character(id) {
        Some(c) => c.hp.current,
        None => state.monster(id).unwrap().hp.current,
    }
}

/// The zone reports among `next_turn`'s events.
fn zone_events(passed: &Value) -> Vec<Value> {
    passed["monster_turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("zone").is_some())
        .cloned()
        .collect()
}

/// The last damage roll of `spell` in the turn log: its dice ("3d10") and total.
fn last_damage(t: &Table, spell: &str) -> (String, u64) {
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
fn check_half_on_success(outcome: &Value, rolled: u64) {
    let want = if outcome["save"]["success"] == true {
        rolled / 2
    } else {
        rolled
    };
    assert_eq!(outcome["damage"], want, "{outcome}");
}

#[test]
fn moonbeam_burns_a_creature_that_starts_its_turn_in_the_beam() {
    let (mut halved, mut full) = (0, 0);
    for seed in 0..8 {
        let mut t = placed(
            &["Moonbeam"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (30, 0)),
                ("frost-harpy", (90, 0)),
            ],
            seed,
        );
        // The beam appears on Kraven, cast with a 3rd-level slot: nothing yet, the casting
        // only places it.
        let before = hp(&t.state, "kraven");
        let r = t.ok("cast_spell", aimed("hedda", "Moonbeam", Some(3), "kraven"));
        assert_eq!(r["effects"], json!([]), "{r}");
        assert_eq!(hp(&t.state, "kraven"), before);
        let zone = &t.state.character("hedda").unwrap().timed_effects[0];
        assert_eq!(
            zone.kind,
            TimedKind::Zone {
                slot: 3,
                at: Some(at(30, 0, 0)),
                on: vec![],
                caught: vec![],
                caught_in: None,
            }
        );
        assert_eq!(zone.rounds_left, Some(10), "a minute");
        // Kraven's turn starts in the beam: a Constitution save against Hedda's DC 13, 2d10
        // radiant and 1d10 for the slot above 2nd, half on a success.
        let passed = t.ok("next_turn", json!({}));
        let caught = zone_events(&passed);
        assert_eq!(caught.len(), 1, "{passed}");
        assert_eq!(caught[0]["zone"], "Moonbeam");
        let outcome = &caught[0]["effects"][0];
        assert_eq!(outcome["target"], "Kraven");
        assert_eq!(outcome["save"]["dc"], 13, "{outcome}");
        assert!(
            t.log
                .rolls
                .iter()
                .any(|r| r.label == "Kraven Constitution save against Moonbeam")
        );
        let (dice, rolled) = last_damage(&t, "Moonbeam");
        assert_eq!(dice, "3d10");
        check_half_on_success(outcome, rolled);
        if outcome["save"]["success"] == true {
            halved += 1;
        } else {
            full += 1;
        }
        let damage = outcome["damage"].as_u64().unwrap() as u32;
        assert_eq!(hp(&t.state, "kraven"), before.saturating_sub(damage));
    }
    assert!(halved > 0 && full > 0, "{halved} halved, {full} full");
}

#[test]
fn spirit_guardians_spare_the_casters_allies_and_slow_and_burn_its_foes() {
    let mut burnt = 0;
    for seed in 0..6 {
        let mut t = placed(
            &["Spirit Guardians"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (5, 0)),
                ("frost-harpy", (10, 0)),
            ],
            seed,
        );
        t.ok("cast_spell", cast("hedda", "Spirit Guardians", None, &[]));
        let kraven = hp(&t.state, "kraven");
        // Kraven stands in the spirits at the start of his turn: spared.
        let passed = t.ok("next_turn", json!({}));
        assert!(zone_events(&passed).is_empty(), "{passed}");
        assert_eq!(hp(&t.state, "kraven"), kraven);
        let before = hp(&t.state, "frost-harpy");
        // The harpy's turn starts 10 ft from Hedda: a Wisdom save against 3d8 radiant, and
        // its speed halved.
        let passed = t.ok("next_turn", json!({}));
        let caught = zone_events(&passed);
        assert_eq!(caught.len(), 1, "{passed}");
        let outcome = caught[0]["effects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o.get("save").is_some())
            .unwrap()
            .clone();
        assert_eq!(outcome["target"], "Frost Harpy");
        let (dice, rolled) = last_damage(&t, "Spirit Guardians");
        assert_eq!(dice, "3d8");
        check_half_on_success(&outcome, rolled);
        burnt += outcome["damage"].as_u64().unwrap();
        let slowed = caught[0]["lasting"].to_string();
        assert!(slowed.contains("halved"), "{}", caught[0]);
        assert!(hp(&t.state, "frost-harpy") <= before);
    }
    assert!(burnt > 0, "some seed burnt the harpy");
}

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
fn spike_growth_pierces_2d4_for_each_5_ft_moved_inside() {
    for seed in 0..4 {
        let mut t = placed(
            &["Spike Growth"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (0, 0)),
                ("frost-harpy", (40, 0)),
            ],
            seed,
        );
        // A 20-ft radius around the harpy: from x = 20 to 60.
        t.ok(
            "cast_spell",
            aimed("hedda", "Spike Growth", None, "frost-harpy"),
        );
        t.ok("next_turn", json!({}));
        let before = hp(&t.state, "kraven");
        // Kraven walks 30 ft east: the steps ending at 20, 25 and 30 ft are in the thorns.
        let m = t.ok(
            "move_in_fight",
            json!({"creature": "kraven", "to": "frost-harpy", "feet": 30}),
        );
        let zones = m["zones"].as_array().unwrap();
        assert_eq!(zones.len(), 3, "{m}");
        let mut taken = 0;
        for z in zones {
            let d = z["effects"][0]["damage"].as_u64().unwrap() as u32;
            assert!((2..=8).contains(&d), "2d4 piercing: {z}");
            assert_eq!(z["effects"][0]["rolled"]["dice"], "2d4", "{z}");
            taken += d;
        }
        assert_eq!(hp(&t.state, "kraven"), before.saturating_sub(taken));
    }
}

#[test]
fn a_creature_entering_the_webs_saves_again() {
    let mut t = placed(
        &["Web"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (0, 0)),
            ("frost-harpy", (40, 0)),
        ],
        2,
    );
    t.ok("cast_spell", aimed("hedda", "Web", None, "frost-harpy"));
    t.ok("next_turn", json!({}));
    // Kraven walks into the 20-ft cube around the harpy (x from 30 to 50).
    let m = t.ok(
        "move_in_fight",
        json!({"creature": "kraven", "to": "frost-harpy", "feet": 30}),
    );
    let zones = m["zones"].as_array().unwrap();
    assert_eq!(zones.len(), 1, "{m}");
    assert_eq!(zones[0]["effects"][0]["save"]["dc"], 13, "{m}");
    let failed = zones[0]["effects"][0]["save"]["success"] == false;
    let restrained = t
        .state
        .character("kraven")
        .unwrap()
        .conditions
        .has(dnd_engine::rules::Condition::Restrained);
    assert_eq!(failed, restrained, "{m}");
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

#[test]
fn a_creature_is_caught_by_the_beam_only_the_first_time_on_a_turn() {
    let mut t = placed(
        &["Moonbeam"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (10, 0)),
            ("frost-harpy", (30, 0)),
        ],
        6,
    );
    t.ok(
        "cast_spell",
        aimed("hedda", "Moonbeam", None, "frost-harpy"),
    );
    t.ok("next_turn", json!({}));
    let walk = |to: &str, feet: u32| json!({"creature": "kraven", "to": to, "feet": feet});
    // In (5 ft from the harpy, inside the 5-ft beam), out, and in again on one turn.
    let first = t.ok("move_in_fight", walk("frost-harpy", 15));
    assert_eq!(first["zones"].as_array().map_or(0, Vec::len), 1, "{first}");
    let out = t.ok("move_in_fight", walk("hedda", 5));
    assert!(out.get("zones").is_none(), "{out}");
    let again = t.ok("move_in_fight", walk("frost-harpy", 5));
    assert!(
        again.get("zones").is_none(),
        "caught once this turn: {again}"
    );
    // The harpy's own turn starts in the beam: a new turn, a new save.
    let passed = t.ok("next_turn", json!({}));
    let harpy = zone_events(&passed)
        .iter()
        .filter(|z| z["effects"][0]["target"] == "Frost Harpy")
        .count();
    assert_eq!(harpy, 1, "{passed}");
}

#[test]
fn stinking_cloud_asks_a_constitution_save_of_whoever_starts_its_turn_inside() {
    let (mut held, mut free) = (0, 0);
    for seed in 0..8 {
        let mut t = placed(
            &["Stinking Cloud"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (60, 0)),
                ("frost-harpy", (60, 5)),
            ],
            seed,
        );
        // No save as it forms: only at the start of a turn inside.
        let r = t.ok(
            "cast_spell",
            aimed("hedda", "Stinking Cloud", Some(3), "kraven"),
        );
        assert_eq!(r["effects"], json!([]), "{r}");
        let passed = t.ok("next_turn", json!({}));
        let events = passed["monster_turns"].as_array().unwrap();
        let kraven = &events[0];
        assert_eq!(kraven["zone"], "Stinking Cloud", "{passed}");
        let save = &kraven["effects"][0]["save"];
        assert_eq!(kraven["effects"][0]["target"], "Kraven", "{passed}");
        assert_eq!(save["dc"], 13, "{passed}");
        // A failure spends his turn retching; a success leaves it to him.
        let failed = save["success"] == false;
        let lost_turn = events.iter().any(|e| e["cannot_act"] == "Kraven");
        assert_eq!(failed, lost_turn, "{passed}");
        if failed {
            held += 1;
        } else {
            free += 1;
        }
    }
    assert!(held > 0 && free > 0, "{held} held, {free} free");
}
