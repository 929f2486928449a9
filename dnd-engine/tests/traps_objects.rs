//! Traps, played by the engine: a trap goes off inside the tool that sets it off (the
//! glacier's thin ice on the way north, a strongbox's needle when its loot is taken, a pit on
//! entering a room, a rotten span stepped onto in a fight), with its save halving the damage,
//! its condition and its fall on a failure, each roll recorded; a noticed trap is avoided
//! unless used on purpose; `disarm_trap` checks against the adventure's DC. What the party has
//! not found never reaches a result or an error. Objects: `tests/breakable_objects.rs`.

#[path = "support/table.rs"]
mod table;

use std::sync::Arc;

use serde_json::{Value, json};
use table::Table;

use dnd_engine::adventure::Adventure;
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::Condition;
use dnd_engine::state::{Change, GameState};
use dnd_engine::store::RollDetail;

/// The built-in game with Kraven alone, his Wisdom lowered to 8 so his passive Perception (11)
/// misses the thin ice (13), standing on the shore of the Mere of Lights.
fn at_the_mere(seed: u64) -> Table {
    let mut t = Table::game(&["kraven"], seed);
    t.hero_mut("kraven").abilities.wisdom = 8;
    t.ok("move_to", json!({"exit": "east"}));
    t.ok("move_to", json!({"exit": "down"}));
    t
}

fn thin_ice(state: &GameState) -> dnd_engine::state::Feature {
    state
        .location("wisp-mere")
        .unwrap()
        .features
        .iter()
        .find(|f| f.id == "thin-ice")
        .unwrap()
        .clone()
}

fn story(result: &Value) -> String {
    result["story"].to_string()
}

/// The damage rolls recorded since `from`, as (rolled, taken).
fn damage_rolls(t: &Table, from: usize) -> Vec<(u32, u32)> {
    t.log.rolls[from..]
        .iter()
        .filter_map(|r| match &*r.detail {
            RollDetail::Damage(d) => Some((d.rolled, d.taken)),
            _ => None,
        })
        .collect()
}

fn saves(t: &Table, from: usize) -> Vec<bool> {
    t.log.rolls[from..]
        .iter()
        .filter_map(|r| match &*r.detail {
            RollDetail::Save(s) => Some(s.success),
            _ => None,
        })
        .collect()
}

#[test]
fn the_thin_ice_unnoticed_goes_off_on_the_way_north_and_a_save_halves_it() {
    let (mut made, mut failed) = (0, 0);
    for seed in 1..40 {
        let mut t = at_the_mere(seed);
        let from = t.log.rolls.len();
        let hp = t.state.character("kraven").unwrap().hp.current;
        let result = t.ok("move_to", json!({"exit": "north"}));
        let told = story(&result);
        assert!(told.contains("Thin ice goes off!"), "{told}");
        // The party still crosses, wet and cold.
        assert_eq!(t.state.party_location().unwrap().id, "throne-of-rime");
        let save = saves(&t, from);
        let damage = damage_rolls(&t, from);
        assert_eq!(
            (save.len(), damage.len()),
            (1, 1),
            "one save, one damage roll"
        );
        let (rolled, taken) = damage[0];
        if save[0] {
            made += 1;
            assert_eq!(taken, rolled / 2, "a save halves the damage (seed {seed})");
            assert!(told.contains("makes the Dexterity save"), "{told}");
        } else {
            failed += 1;
            assert_eq!(taken, rolled, "a failure takes it all (seed {seed})");
            assert!(told.contains("fails the Dexterity save"), "{told}");
        }
        let after = t.state.character("kraven").unwrap().hp.current;
        assert_eq!(after, hp - taken);
        // Spent, found, and never told with its DC.
        let ice = thin_ice(&t.state);
        assert!(ice.trap.as_ref().unwrap().spent && ice.found);
        assert!(!told.contains("13"), "{told}");
    }
    assert!(
        made > 0 && failed > 0,
        "both outcomes seen: {made} made, {failed} failed"
    );
}

#[test]
fn thin_ice_noticed_or_revealed_by_aldous_is_stepped_around() {
    // Aldous's warning (his goal step's effects) reveals the thin ice.
    let mut t = at_the_mere(3);
    t.story_flag("aldous_given_keepsake", serde_json::json!(true));
    assert!(thin_ice(&t.state).trap_known());
    let hp = t.state.character("kraven").unwrap().hp.current;
    let result = t.ok("move_to", json!({"exit": "north"}));
    assert!(story(&result).contains("steps around Thin ice"), "{result}");
    assert_eq!(t.state.character("kraven").unwrap().hp.current, hp);
    assert!(
        !thin_ice(&t.state).trap.unwrap().spent,
        "avoided, not spent"
    );

    // A hero whose passive Perception reaches 13 notices it as the party sets out.
    let mut t = Table::game(&["wren"], 3);
    t.ok("move_to", json!({"exit": "east"}));
    t.ok("move_to", json!({"exit": "down"}));
    let result = t.ok("move_to", json!({"exit": "north"}));
    let told = story(&result);
    assert!(
        told.contains("notices Thin ice in time (passive Perception)"),
        "{told}"
    );
    assert!(told.contains("steps around"), "{told}");
    assert!(thin_ice(&t.state).found);
}

#[test]
fn the_thin_ice_stays_out_of_every_result_until_found() {
    let mut t = at_the_mere(5);
    let room = t.ok("get_room_details", json!({"detail": "full"}));
    assert!(!room.to_string().to_lowercase().contains("thin"), "{room}");
    let snapshot = serde_json::to_string(&t.state.snapshot()).unwrap();
    assert!(!snapshot.to_lowercase().contains("thin ice"), "{snapshot}");
    // Asking to disarm it reads exactly as asking about a feature with no trap.
    let hidden = t.refused(
        "disarm_trap",
        json!({"character": "kraven", "feature": "thin-ice"}),
    );
    let plain = t.refused(
        "disarm_trap",
        json!({"character": "kraven", "feature": "overturned-sledge"}),
    );
    assert!(hidden.contains("found no trap"), "{hidden}");
    assert_eq!(
        hidden.replace("thin-ice", "X"),
        plain.replace("overturned-sledge", "X")
    );
    assert!(
        !hidden.contains("Thin ice") && !hidden.contains("13"),
        "{hidden}"
    );
}

/// The built-in adventure with a needle-trapped strongbox at the glacier's mouth and a pit
/// that re-arms in the Hall of Echoes.
fn trapped_glacier() -> Adventure {
    let mut value: Value = serde_json::from_str(Adventure::built_in_json()).unwrap();
    let rooms = value["rooms"].as_array_mut().unwrap();
    rooms[0]["features"].as_array_mut().unwrap().push(json!({
        "id": "strongbox",
        "name": "An iron strongbox",
        "description": "Rusted shut at the hinges, heavy with something.",
        "loot": [{"name": "Gold pieces", "quantity": 30}],
        "trap": {
            "trigger": "open",
            "notice_dc": 16,
            "disarm": {"dc": 12, "tool": "Thieves' Tools"},
            "save": "constitution",
            "dc": 25,
            "damage": {"dice": "1d4", "type": "piercing"},
            "condition": "poisoned"
        }
    }));
    rooms[1]["features"].as_array_mut().unwrap().push(json!({
        "id": "pit",
        "name": "A hidden pit",
        "description": "A slab that tips into a 20-foot shaft.",
        "hidden": true,
        "trap": {
            "trigger": "enter",
            "save": "dexterity",
            "dc": 30,
            "damage": {"dice": "1d1", "type": "piercing"},
            "fall_ft": 20,
            "reset": true
        }
    }));
    Adventure::from_json(&value.to_string(), "trapped.json").unwrap()
}

fn trapped_game(party: &[&str], seed: u64) -> Table {
    Table::new(trapped_glacier().new_game(party).unwrap(), seed)
}

fn strongbox(state: &GameState) -> dnd_engine::state::Trap {
    state
        .location("ice-chasm")
        .unwrap()
        .features
        .iter()
        .find(|f| f.id == "strongbox")
        .unwrap()
        .trap
        .clone()
        .unwrap()
}

#[test]
fn taking_from_a_trapped_box_sets_it_off_and_a_failed_save_poisons() {
    // DC 25 Constitution: Kraven (+4) fails on any roll but a natural 20 plus luck.
    let mut t = trapped_game(&["kraven"], 11);
    let gold = t.state.character("kraven").unwrap().gold;
    let from = t.log.rolls.len();
    let result = t.ok(
        "add_inventory",
        json!({"character": "kraven", "item": "Gold pieces", "quantity": 30, "from": "strongbox"}),
    );
    let told = story(&result);
    assert!(told.contains("An iron strongbox goes off!"), "{told}");
    assert_eq!(saves(&t, from), vec![false]);
    assert!(told.contains("and is poisoned"), "{told}");
    let kraven = t.state.character("kraven").unwrap();
    assert!(kraven.conditions.has(Condition::Poisoned));
    let (_, taken) = damage_rolls(&t, from)[0];
    assert_eq!(kraven.hp.current, kraven.hp.max - taken);
    assert_eq!(kraven.gold, gold + 30, "the gold is taken all the same");
    assert!(strongbox(&t.state).spent, "no reset: spent");
}

#[test]
fn a_known_trap_refuses_the_touch_until_disarmed() {
    let mut t = trapped_game(&["wren"], 2);
    let trapped = |t: &mut Table| {
        let room = t.ok("get_room_details", json!({"detail": null}));
        room["features"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == "strongbox")
            .unwrap()["trapped"]
            .clone()
    };
    assert_eq!(
        trapped(&mut t),
        Value::Null,
        "an unnoticed trap is not shown"
    );
    t.apply(&[Change::TrapNoticed {
        location: "ice-chasm".into(),
        feature: "strongbox".into(),
    }]);
    let error = t.refused(
        "add_inventory",
        json!({"character": "wren", "item": "Gold pieces", "quantity": 30, "from": "strongbox"}),
    );
    assert!(
        error.contains("is trapped") && error.contains("disarm_trap"),
        "{error}"
    );
    assert_eq!(trapped(&mut t), json!(true));
    // Used on purpose, it goes off all the same.
    let result = t.ok(
        "use_object",
        json!({"creature": "wren", "object": "the iron strongbox"}),
    );
    assert!(
        story(&result).contains("An iron strongbox goes off!"),
        "{result}"
    );
    assert!(strongbox(&t.state).spent);
    assert_eq!(trapped(&mut t), Value::Null, "spent: no longer a danger");
}

#[test]
fn the_party_may_walk_onto_thin_ice_it_knows_of_on_purpose() {
    let mut t = at_the_mere(4);
    t.story_flag("aldous_given_keepsake", serde_json::json!(true));
    let hp = t.state.character("kraven").unwrap().hp.current;
    let result = t.ok(
        "use_object",
        json!({"creature": "kraven", "object": "thin ice"}),
    );
    assert!(story(&result).contains("Thin ice goes off!"), "{result}");
    assert!(t.state.character("kraven").unwrap().hp.current < hp);
    assert!(thin_ice(&t.state).trap.unwrap().spent);
}

#[test]
fn disarming_succeeds_or_fails_against_the_dc_and_a_bad_failure_sets_it_off() {
    let (mut disarmed, mut missed, mut set_off) = (0, 0, 0);
    for seed in 1..60 {
        let mut t = trapped_game(&["wren"], seed);
        t.apply(&[Change::TrapNoticed {
            location: "ice-chasm".into(),
            feature: "strongbox".into(),
        }]);
        let result = t.ok(
            "disarm_trap",
            json!({"character": "wren", "feature": "strongbox"}),
        );
        let total = result["result"]["total"].as_i64().unwrap();
        // Wren: Dexterity +3, a rogue's proficiency with thieves' tools +2.
        assert_eq!(result["result"]["modifier"], json!(5));
        let trap = strongbox(&t.state);
        if total >= 12 {
            disarmed += 1;
            assert_eq!(result["disarmed"], json!(true));
            assert!(trap.spent);
            t.ok(
                "add_inventory",
                json!({"character": "wren", "item": "Gold pieces", "quantity": 30, "from": "strongbox"}),
            );
        } else if total <= 7 {
            set_off += 1;
            assert_eq!(result["set_off"], json!(true), "{result}");
            assert!(trap.spent);
            assert!(!result["what_happened"].as_array().unwrap().is_empty());
        } else {
            missed += 1;
            assert_eq!(result["set_off"], json!(false));
            assert!(!trap.spent, "a near miss changes nothing");
        }
    }
    assert!(
        disarmed > 0 && missed > 0 && set_off > 0,
        "{disarmed} {missed} {set_off}"
    );
}

#[test]
fn disarming_needs_the_tool() {
    let mut t = trapped_game(&["kraven"], 4);
    t.apply(&[Change::TrapNoticed {
        location: "ice-chasm".into(),
        feature: "strongbox".into(),
    }]);
    let error = t.refused(
        "disarm_trap",
        json!({"character": "kraven", "feature": "strongbox"}),
    );
    assert!(error.contains("carries no Thieves' Tools"), "{error}");
}

#[test]
fn a_pit_that_resets_drops_whoever_enters_and_stays_armed() {
    let mut t = trapped_game(&["kraven"], 8);
    let from = t.log.rolls.len();
    let hp = t.state.character("kraven").unwrap().hp.current;
    let result = t.ok("move_to", json!({"exit": "east"}));
    let told = story(&result);
    assert!(told.contains("A hidden pit goes off!"), "{told}");
    assert!(told.contains("falls 20 ft"), "{told}");
    // The DC 30 save fails; 1 piercing, then 2d6 for the fall.
    let rolls = damage_rolls(&t, from);
    assert_eq!(rolls.len(), 2, "the trap's damage and the fall's");
    assert_eq!(rolls[0], (1, 1));
    let taken: u32 = rolls.iter().map(|(_, taken)| taken).sum();
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!(kraven.hp.current, hp - taken);
    assert!(
        kraven.conditions.has(Condition::Prone),
        "a fall lands prone"
    );
    let pit = |state: &GameState| {
        state
            .location("hall-of-echoes")
            .unwrap()
            .features
            .iter()
            .find(|f| f.id == "pit")
            .unwrap()
            .clone()
    };
    assert!(!pit(&t.state).trap.unwrap().spent, "it re-arms");
    assert!(pit(&t.state).found, "the party knows it now");
    // Known, it is stepped around the next time; still armed, it is still there to disarm
    // (this one cannot be: the refusal says so, not that it is spent).
    t.ok("stand_up", json!({"creature": "kraven"}));
    t.ok("move_to", json!({"exit": "west"}));
    let result = t.ok("move_to", json!({"exit": "east"}));
    assert!(
        story(&result).contains("steps around A hidden pit"),
        "{result}"
    );
    let error = t.refused(
        "disarm_trap",
        json!({"character": "kraven", "feature": "pit"}),
    );
    assert!(error.contains("cannot be disarmed"), "{error}");
}

#[test]
fn a_trap_naming_nothing_real_is_refused_when_the_adventure_loads() {
    let text = Adventure::built_in_json().replacen(
        r#""trigger": { "exit": "north" }"#,
        r#""trigger": { "exit": "sideways" }, "fall_ft": 5, "disarm": {"dc": 40, "skill": "athletics"}"#,
        1,
    );
    let error = Adventure::from_json(&text, "glacier.json")
        .unwrap_err()
        .to_string();
    for expected in [
        "rooms[wisp-mere].features[thin-ice].trap.trigger.exit: no exit \"sideways\" from this room; its exits are: up, north",
        "rooms[wisp-mere].features[thin-ice].trap.fall_ft: a fall of 5 ft deals no damage",
        "rooms[wisp-mere].features[thin-ice].trap.disarm.dc: DC 40 is outside 1..=30",
    ] {
        assert!(error.contains(expected), "{expected}\n{error}");
    }
    let text = Adventure::built_in_json()
        .replacen(r#""armor_class": 15,"#, r#""armor_class": 0,"#, 1)
        .replacen(
            r#"{ "reveal_feature": { "room": "glacier-heart", "feature": "the-singer" } }"#,
            r#"{ "reveal_feature": { "room": "glacier-heart", "feature": "the-dancer" } }"#,
            1,
        );
    let error = Adventure::from_json(&text, "glacier.json")
        .unwrap_err()
        .to_string();
    assert!(error.contains("rooms[glacier-heart].features[heart-of-ice].object.armor_class: Armor Class 0 is outside 1..=30"), "{error}");
    assert!(
        error.contains(
            "rooms[glacier-heart].features[heart-of-ice].object.on_broken[1].reveal_feature"
        ),
        "{error}"
    );
}

#[tokio::test]
async fn a_cheating_model_cannot_disarm_an_unfound_trap_or_break_what_the_party_has_not_seen() {
    let mut t = at_the_mere(9);
    t.ok("get_room_details", json!({"detail": null}));
    let before = t.state.clone();
    let calls = vec![
        ToolCall::new(
            "a",
            "disarm_trap",
            json!({"character": "kraven", "feature": "thin-ice"}),
        ),
        ToolCall::new(
            "b",
            "attack_object",
            json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
        ),
        ToolCall::new(
            "c",
            "attack_object",
            json!({"attacker": "kraven", "object": "overturned-sledge", "attack": null}),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Kraven", "I smash everything.").await;
    assert_eq!(played.results.len(), 3, "{:#?}", played.results);
    for (result, expected) in played.results.iter().zip([
        "the party has found no trap on \\\"thin-ice\\\" here; traps found here: none",
        "no object \\\"heart-of-ice\\\" the party knows here that can be broken; objects here: none",
        "no object \\\"overturned-sledge\\\" the party knows here",
    ]) {
        assert!(result.contains(expected), "{result}");
        assert!(!result.contains("Thin ice") && !result.contains("heart of ice"), "{result}");
    }
    assert!(
        !played
            .outcome
            .changes
            .iter()
            .any(|c| matches!(c, Change::TrapSpent { .. } | Change::ObjectDamaged { .. }))
    );
    assert!(!thin_ice(&played.after).trap.unwrap().spent);
}

#[test]
fn a_trap_is_noticed_by_passive_perception_before_narration_or_by_a_search() {
    // Wren's passive Perception is 15, below the strongbox's 16: nothing before narration.
    let mut t = trapped_game(&["wren"], 12);
    let checks = dnd_engine::gm::pre_narration_checks(&mut t.state);
    assert!(
        !checks.findings.iter().any(|f| f.contains("strongbox")),
        "{:?}",
        checks.findings
    );
    assert!(!strongbox(&t.state).noticed);
    // A search that reaches 16 notices it (and tells no DC).
    let mut found = false;
    for _ in 0..30 {
        let result = t.ok(
            "roll_skill_check",
            json!({"creature": "wren", "skill": "perception", "dc": 10, "advantage": null, "reason": "looking for traps", "subject": null}),
        );
        let total = result["result"]["total"].as_i64().unwrap();
        let told = result["found"].to_string();
        if total >= 16 {
            assert!(told.contains("a trap on An iron strongbox"), "{told}");
            found = true;
            break;
        }
        assert!(!told.contains("trap"), "{told}");
    }
    assert!(found && strongbox(&t.state).noticed);

    // Sharper eyes (Wisdom 18: passive 17) notice it before the model is asked.
    let mut t = trapped_game(&["wren"], 12);
    t.hero_mut("wren").abilities.wisdom = 18;
    let checks = dnd_engine::gm::pre_narration_checks(&mut t.state);
    assert!(
        checks
            .findings
            .iter()
            .any(|f| f.contains("a trap on An iron strongbox")),
        "{:?}",
        checks.findings
    );
    assert!(strongbox(&t.state).noticed);
}

#[test]
fn stepping_into_a_trapped_area_in_a_fight_sets_it_off_on_the_mover() {
    let mut state = table::placed_fight(
        &["kraven"],
        table::order(&["kraven", "frost-harpy"]),
        &[
            ("kraven", table::at(22, 0, 0)),
            ("frost-harpy", table::at(40, 15, 30)),
        ],
    );
    // A rotten span in the bridge: a 30 ft drop that no one saves against (DC 30).
    Arc::make_mut(&mut state.locations)[0].features.push(
        serde_json::from_value(json!({
            "id": "rotten-span",
            "name": "A rotten span",
            "description": "Ice eaten hollow from beneath.",
            "hidden": true,
            "trap": {
                "trigger": {"area": "ice-bridge"},
                "save": "dexterity", "dc": 30,
                "damage": {"dice": "1d1", "type": "cold"},
                "fall_ft": 30
            }
        }))
        .unwrap(),
    );
    let mut t = Table::new(state, 5);
    let from = t.log.rolls.len();
    let result = t.ok(
        "move_in_fight",
        json!({"creature": "kraven", "to": "ice-bridge", "feet": 5}),
    );
    let told = story(&result);
    assert!(told.contains("A rotten span goes off!"), "{told}");
    assert!(told.contains("falls 30 ft"), "{told}");
    assert_eq!(damage_rolls(&t, from).len(), 2);
    assert!(
        t.state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Prone)
    );
}

#[test]
fn fast_hands_disarms_a_found_trap_or_sets_it_off_with_the_bonus_action() {
    // Wren is a 3rd-level Thief: Fast Hands' thieves' tools work on a trap as on a lock.
    let (mut disarmed, mut failed) = (0, 0);
    for seed in 1..30 {
        let mut t = trapped_game(&["wren"], seed);
        t.apply(&[Change::TrapNoticed {
            location: "ice-chasm".into(),
            feature: "strongbox".into(),
        }]);
        let result = t.ok(
            "use_feature",
            json!({"character": "wren", "feature": "fast-hands", "option": "thieves_tools",
                   "target": "strongbox", "amount": null}),
        );
        let effect = result["effect"].as_str().unwrap();
        assert!(effect.contains("with the bonus action"), "{effect}");
        if effect.contains("disarms it") {
            disarmed += 1;
            assert!(strongbox(&t.state).spent);
        } else {
            failed += 1;
        }
    }
    assert!(
        disarmed > 0 && failed > 0,
        "{disarmed} disarmed, {failed} failed"
    );

    // Fast Hands' Use an Object on the trapped box sets it off, as use_object does.
    let mut t = trapped_game(&["wren"], 3);
    let result = t.ok(
        "use_feature",
        json!({"character": "wren", "feature": "fast-hands", "option": "use_object",
               "target": "the iron strongbox", "amount": null}),
    );
    assert!(
        story(&result).contains("An iron strongbox goes off!"),
        "{result}"
    );
    assert!(strongbox(&t.state).spent);
}
