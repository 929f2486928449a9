//! The story played by the engine: an NPC's goal step moves on the moment a tool call reaches
//! its trigger, and what the step does (an exit shown, a feature found) happens in the state,
//! not in the model's words. `advance_npc_goals` forces only a step with no trigger, of an NPC
//! the party stands with, and its refusals name nobody the party has not met.

#[path = "support/table.rs"]
mod table;

use serde_json::json;
use table::Table;

use dnd_engine::adventure::Adventure;

/// The built-in game with the party moved into the Hall of Echoes.
fn in_the_hall() -> Table {
    let mut t = Table::game(&["kraven"], 7);
    t.ok("move_to", json!({"exit": "east"}));
    t
}

#[test]
fn a_keepsake_given_shows_the_crawlway_through_the_goal_steps_effects() {
    let mut t = in_the_hall();
    // Kraven's passive Perception (10) is below the crawlway's DC 14: it stays hidden.
    assert!(table::crawlway_hidden(&t.state));
    let result = t.story_flag("aldous_given_keepsake", serde_json::json!(true));
    let story = result["story"].as_array().expect("the story is told");
    assert!(
        story[0]
            .as_str()
            .unwrap()
            .starts_with("Brother Aldous shows the crawlway"),
        "{story:?}"
    );
    assert!(
        !table::crawlway_hidden(&t.state),
        "the step's effect revealed the exit"
    );
    let throne_side = t
        .state
        .location("throne-of-rime")
        .and_then(|l| l.exit("crawlway"))
        .unwrap();
    assert!(!throne_side.hidden);
    let aldous = t.state.npc("aldous").unwrap();
    assert_eq!(aldous.current_step, 1);
    // And the party can now take it.
    t.ok("move_to", json!({"exit": "crawlway"}));
    assert_eq!(t.state.party_location().unwrap().id, "throne-of-rime");
}

#[test]
fn a_trigger_reached_far_from_the_npc_moves_it_on_without_telling_the_party() {
    let mut t = Table::game(&["kraven"], 7);
    let result = t.story_flag("aldous_given_keepsake", serde_json::json!(true));
    assert!(
        result.get("story").is_some(),
        "the revealed exit is told: {result}"
    );
    let told = result["story"].to_string();
    assert!(
        !told.contains("Aldous"),
        "Aldous is not where the party is: {told}"
    );
    assert_eq!(t.state.npc("aldous").unwrap().current_step, 1);
}

#[test]
fn advance_npc_goals_refuses_npcs_the_party_has_not_met_without_naming_them() {
    let mut t = Table::game(&["kraven"], 7);
    let before = t.state.clone();
    let error = t.refused("advance_npc_goals", json!({"npc": "sigrun"}));
    assert!(error.contains("nobody"), "{error}");
    // The model's own word comes back; nothing of who is really there does.
    assert!(!error.contains("Sigrun of the Oath"), "{error}");
    assert!(
        !error.contains("aldous") && !error.contains("Aldous"),
        "{error}"
    );
    assert_eq!(t.state, before);
}

#[test]
fn advance_npc_goals_refuses_a_step_that_waits_on_its_trigger() {
    let mut t = in_the_hall();
    let before = t.state.clone();
    let error = t.refused("advance_npc_goals", json!({"npc": "aldous"}));
    assert!(
        error.contains("moves on when the story reaches it"),
        "{error}"
    );
    assert_eq!(t.state, before);
    // Null forces nothing.
    let none = t.ok("advance_npc_goals", json!({"npc": null}));
    assert_eq!(none["advanced"], json!([]));
}

#[test]
fn an_effect_naming_nothing_real_is_refused_when_the_adventure_loads() {
    let text = Adventure::built_in_json().replacen(
        r#"{ "reveal_exit": { "room": "hall-of-echoes", "direction": "crawlway" } }"#,
        r#"{ "reveal_exit": { "room": "hall-of-echoes", "direction": "chimney" } }"#,
        1,
    );
    let error = Adventure::from_json(&text, "glacier.json")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("npcs[aldous].goal_steps[1].effects[0].reveal_exit: no exit \"chimney\" in \"hall-of-echoes\"; its exits are: west, down, crawlway"),
        "{error}"
    );

    let text = Adventure::built_in_json().replacen(
        r#"{ "reveal_exit": { "room": "hall-of-echoes", "direction": "crawlway" } }"#,
        r#"{ "end": { "ending": "spring-flood" } }"#,
        1,
    );
    let error = Adventure::from_json(&text, "glacier.json")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("no ending \"spring-flood\" in `endings`"),
        "{error}"
    );
}

#[test]
fn effects_on_the_step_an_npc_starts_at_are_refused() {
    let text = Adventure::built_in_json().replacen(
        r#"{ "description": "Mutters at his brazier and snaps at anyone who comes near.", "trigger_flag": "aldous_given_keepsake" }"#,
        r#"{ "description": "Mutters.", "trigger_flag": "aldous_given_keepsake", "effects": [{ "set_flag": { "flag": "wailing", "value": false } }] }"#,
        1,
    );
    let error = Adventure::from_json(&text, "glacier.json")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("npcs[aldous].goal_steps[0].effects: step 0 is where aldous starts"),
        "{error}"
    );
}

#[test]
fn the_harpys_defeat_sets_its_flag_by_the_engine_once() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 3);
    assert_eq!(t.state.flags["harpy_defeated"], json!(false));
    // Whatever ends her fight (here a blow the table deals), the next call plays her defeat.
    let hp = t.state.monster("frost-harpy").unwrap().hp.current;
    t.apply(&[dnd_engine::state::Change::Damage {
        target: dnd_engine::state::Target::Monster("frost-harpy".into()),
        amount: hp,
        critical: false,
    }]);
    t.ok("get_game_flags", json!({}));
    assert_eq!(t.state.flags["harpy_defeated"], json!(true));
    assert!(
        !t.state.story.on_defeat.contains_key("frost-harpy"),
        "played once"
    );
    // The model may not set it back: the story set it, and only the story does.
    let error = t.refused(
        "set_game_flag",
        json!({"key": "harpy_defeated", "value": false}),
    );
    assert!(error.contains("set by the engine"), "{error}");
    assert_eq!(t.state.flags["harpy_defeated"], json!(true));
    // Set back in the state, the defeat is still not played twice.
    t.story_flag("harpy_defeated", serde_json::json!(false));
    assert_eq!(t.state.flags["harpy_defeated"], json!(false));
}

#[test]
fn set_game_flag_refuses_every_flag_a_story_effect_sets_and_changes_nothing() {
    let mut t = Table::game(&["kraven"], 7);
    let before = t.state.clone();
    // A gift's (aldous_given_keepsake), a goal step's (aldous_warning_heard), a puzzle's
    // (riddle_answered), a defeat's (harpy_defeated) and a broken object's (heart_broken).
    for key in [
        "aldous_given_keepsake",
        "aldous_warning_heard",
        "riddle_answered",
        "harpy_defeated",
        "heart_broken",
    ] {
        for value in [json!(true), json!(false), json!(1)] {
            let error = t.refused("set_game_flag", json!({"key": key, "value": value}));
            assert!(error.contains("set by the engine"), "{key}: {error}");
        }
    }
    assert_eq!(t.state, before, "nothing moved");
    // A flag no story effect sets is still the game master's to keep.
    t.ok(
        "set_game_flag",
        json!({"key": "lantern_lit", "value": true}),
    );
    assert_eq!(t.state.flags["lantern_lit"], json!(true));
}

#[test]
fn a_goal_step_moves_on_by_the_clock_with_its_effects() {
    // Aldous tires of waiting: an hour after the party could first have come, he shows the
    // crawlway on his own.
    let text = Adventure::built_in_json().replacen(
        r#"{ "description": "Mutters at his brazier and snaps at anyone who comes near.", "trigger_flag": "aldous_given_keepsake" }"#,
        r#"{ "description": "Mutters at his brazier and snaps at anyone who comes near.", "trigger_flag": "aldous_given_keepsake", "after_minutes": 60 }"#,
        1,
    );
    let game = Adventure::from_json(&text, "glacier.json")
        .unwrap()
        .new_game(&["kraven"])
        .unwrap();
    let mut t = Table::new(game, 7);
    t.ok("move_to", json!({"exit": "east"})); // 10 minutes
    assert_eq!(t.state.npc("aldous").unwrap().current_step, 0);
    assert!(table::crawlway_hidden(&t.state));
    // A short rest is an hour: the clock passes the step's wait.
    let rested = t.ok(
        "update_character",
        json!({"character": "kraven", "update": "short_rest", "condition": null, "amount": 0,
               "recover_slots": null}),
    );
    assert_eq!(t.state.npc("aldous").unwrap().current_step, 1, "{rested}");
    assert!(
        !table::crawlway_hidden(&t.state),
        "the step's effects played"
    );
    assert!(
        rested["story"]
            .to_string()
            .contains("Brother Aldous shows the crawlway"),
        "{rested}"
    );

    let zero = Adventure::built_in_json().replacen(
        r#""trigger_flag": "aldous_given_keepsake" }"#,
        r#""trigger_flag": "aldous_given_keepsake", "after_minutes": 0 }"#,
        1,
    );
    let error = Adventure::from_json(&zero, "glacier.json")
        .unwrap_err()
        .to_string();
    assert!(error.contains("npcs[aldous].goal_steps[0].after_minutes: a step that moves on by the clock waits at least 1 minute"), "{error}");
}

#[tokio::test]
async fn a_cheating_model_cannot_give_a_gift_or_win_a_fight_with_a_flag() {
    // The party stands with Aldous, keepsake unfound, the harpy alive: a model that "hands
    // over" the keepsake or "slays" the harpy by flag is refused, and the crawlway stays hidden.
    let before = in_the_hall().state;
    let calls = vec![
        dnd_engine::llm::ToolCall::new(
            "a",
            "set_game_flag",
            json!({"key": "aldous_given_keepsake", "value": true}),
        ),
        dnd_engine::llm::ToolCall::new(
            "b",
            "set_game_flag",
            json!({"key": "harpy_defeated", "value": true}),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Kraven", "Here, old man, take it.").await;
    assert_eq!(played.results.len(), 2, "{:#?}", played.results);
    for result in &played.results {
        assert!(result.contains("set by the engine"), "{result}");
    }
    assert_eq!(played.after.flags["aldous_given_keepsake"], json!(false));
    assert_eq!(played.after.flags["harpy_defeated"], json!(false));
    assert_eq!(played.after.npc("aldous").unwrap().current_step, 0);
    assert!(table::crawlway_hidden(&played.after));
}

#[test]
fn advance_npc_goals_refuses_a_step_that_waits_on_the_clock_alone() {
    // Aldous's first step waits an hour, with no trigger: the model cannot hurry the clock.
    let text = Adventure::built_in_json().replacen(
        r#"{ "description": "Mutters at his brazier and snaps at anyone who comes near.", "trigger_flag": "aldous_given_keepsake" }"#,
        r#"{ "description": "Mutters at his brazier and snaps at anyone who comes near.", "after_minutes": 60 }"#,
        1,
    );
    let game = Adventure::from_json(&text, "glacier.json")
        .unwrap()
        .new_game(&["kraven"])
        .unwrap();
    let mut t = Table::new(game, 7);
    t.ok("move_to", json!({"exit": "east"}));
    let before = t.state.clone();
    let error = t.refused("advance_npc_goals", json!({"npc": "aldous"}));
    assert!(error.contains("time passing"), "{error}");
    assert_eq!(t.state, before, "nothing moved");
    assert!(table::crawlway_hidden(&t.state));
}

#[test]
fn the_snapshot_shows_only_the_flags_that_hold() {
    // At the start only the glacier's wailing holds: the list at rest (sigrun_released, heart_broken, ...) names
    // people and secrets the party has not met, and stays out of every request.
    let mut t = Table::game(&["kraven"], 7);
    let text = serde_json::to_string(&t.state.snapshot()).unwrap();
    for secret in [
        "sigrun_released",
        "heart_broken",
        "riddle_answered",
        "aldous_given",
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    t.story_flag("harpy_defeated", json!(true));
    let snapshot = t.state.snapshot();
    let shown: Vec<&String> = snapshot.flags.keys().collect();
    assert_eq!(shown, ["harpy_defeated", "wailing"]);
}
