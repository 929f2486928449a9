//! Objects with an Armor Class and hit points, played by the engine: `attack_object` rolls a
//! character's weapon against the heart of ice (AC 15, 30 HP, immune to cold), tracks its hit
//! points, and when it breaks plays what the adventure says (the singer found, the flag set,
//! the adventure ended). A broken object cannot be broken again, and cold does nothing to it.

#[path = "support/table.rs"]
mod table;

use std::sync::Arc;

use serde_json::{Value, json};
use table::Table;

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::DamageType;
use dnd_engine::state::Change;

/// Kraven (or `hero`) before the heart of ice, the rime door opened by hand.
fn at_the_heart(hero: &str, seed: u64) -> Table {
    let mut t = Table::game(&[hero], seed);
    t.apply(&[
        Change::ExitFound {
            location: "hall-of-echoes".into(),
            direction: "crawlway".into(),
        },
        Change::ExitUnlocked {
            location: "throne-of-rime".into(),
            direction: "rime door".into(),
        },
    ]);
    t.ok("move_to", json!({"exit": "east"}));
    t.ok("move_to", json!({"exit": "crawlway"}));
    t.ok("move_to", json!({"exit": "rime door"}));
    assert_eq!(t.state.party_location().unwrap().id, "glacier-heart");
    t
}

#[test]
fn the_heart_of_ice_breaks_at_0_hp_and_frees_the_singer() {
    let mut t = at_the_heart("kraven", 21);
    let room = t.ok("get_room_details", json!({"detail": null}));
    let heart = room["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "heart-of-ice")
        .unwrap()
        .clone();
    assert_eq!(heart["hit_points"], json!("30/30"));
    let mut last = Value::Null;
    for _ in 0..40 {
        last = t.ok(
            "attack_object",
            json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
        );
        let left = last["hp_left"].as_u64().unwrap();
        let heart = t
            .state
            .location("glacier-heart")
            .unwrap()
            .features
            .iter()
            .find(|f| f.id == "heart-of-ice")
            .unwrap()
            .object
            .clone()
            .unwrap();
        assert_eq!(
            u64::from(heart.hp_left()),
            left,
            "the result tells the HP tracked"
        );
        if last["broken"] == json!(true) {
            break;
        }
    }
    assert_eq!(last["broken"], json!(true), "{last}");
    assert_eq!(last["hp_left"], json!(0));
    let told = last["what_happened"].to_string();
    assert!(told.contains("The heart of ice breaks."), "{told}");
    assert!(told.contains("The singer in the ice"), "{told}");
    assert!(told.contains("The Song Ends"), "{told}");
    assert_eq!(t.state.flags["heart_broken"], json!(true));
    assert_eq!(t.state.story.ended.as_deref(), Some("song-ends"));
    let singer = t
        .state
        .location("glacier-heart")
        .unwrap()
        .features
        .iter()
        .find(|f| f.id == "the-singer")
        .unwrap()
        .clone();
    assert!(singer.found);
    // Broken is broken.
    let error = t.refused(
        "attack_object",
        json!({"attacker": "kraven", "object": "the heart of ice", "attack": null}),
    );
    assert!(error.contains("already broken"), "{error}");
}

#[test]
fn cold_does_nothing_to_the_heart_of_ice() {
    let mut t = at_the_heart("kraven", 6);
    for attack in Arc::make_mut(&mut t.hero_mut("kraven").attacks) {
        attack.damage.kind = DamageType::Cold;
    }
    let mut hits = 0;
    for _ in 0..10 {
        let result = t.ok(
            "attack_object",
            json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
        );
        if result["hit"] == json!(true) {
            hits += 1;
            assert_eq!(result["damage"], json!(0), "{result}");
        }
        assert_eq!(result["hp_left"], json!(30));
    }
    assert!(hits > 0);
}

#[test]
fn attack_object_in_a_fight_spends_an_attack() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 3);
    // A breakable icicle at the glacier's mouth, for the fight's room.
    Arc::make_mut(&mut t.state.locations)[0]
        .features
        .push(dnd_engine::state::Feature {
            id: "icicle".into(),
            name: "A great icicle".into(),
            description: "Hanging over the bridge.".into(),
            hidden: false,
            find_dc: None,
            found: false,
            trap: None,
            loot: Vec::new(),
            object: Some(dnd_engine::state::FeatureObject {
                armor_class: 1,
                hit_points: 500,
                damage_taken: 0,
                immune: Vec::new(),
                resistant: Vec::new(),
                on_broken: Vec::new(),
            }),
        });
    t.ok(
        "attack_object",
        json!({"attacker": "kraven", "object": "icicle", "attack": null}),
    );
    // Kraven (level 3) has one attack in his Attack action.
    let error = t.refused(
        "attack_object",
        json!({"attacker": "kraven", "object": "icicle", "attack": null}),
    );
    assert!(error.contains("Kraven"), "{error}");
}

#[tokio::test]
async fn a_cheating_model_cannot_break_a_broken_heart_again() {
    let mut t = at_the_heart("kraven", 21);
    for _ in 0..40 {
        let r = t.ok(
            "attack_object",
            json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
        );
        if r["broken"] == json!(true) {
            break;
        }
    }
    let calls = vec![ToolCall::new(
        "a",
        "attack_object",
        json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
    )];
    let played = table::scripted_turn(&t.state, calls, "Kraven", "Again!").await;
    assert!(
        played.results[0].contains("already broken"),
        "{:?}",
        played.results
    );
}

#[test]
fn a_poisoned_attacker_swings_at_the_heart_with_disadvantage() {
    let mut t = at_the_heart("kraven", 2);
    let plain = t.ok(
        "attack_object",
        json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
    );
    assert_eq!(plain["result"]["d20"]["count"], json!(1), "{plain}");
    t.apply(&[Change::ConditionAdded {
        target: dnd_engine::state::Target::Character("kraven".into()),
        condition: dnd_engine::rules::Condition::Poisoned,
    }]);
    let poisoned = t.ok(
        "attack_object",
        json!({"attacker": "kraven", "object": "heart-of-ice", "attack": null}),
    );
    assert_eq!(poisoned["result"]["d20"]["count"], json!(2), "{poisoned}");
    assert_eq!(
        poisoned["result"]["d20"]["advantage"],
        json!("disadvantage")
    );
}
