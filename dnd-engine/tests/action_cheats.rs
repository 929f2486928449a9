//! A model that cheats with the standard actions, through the whole turn (`GameMaster` with a
//! scripted provider): a second Dash with no action left, Help from a hero whose turn it is
//! not and from one who has already acted, Hide under the eyes of a foe whose passive
//! Perception no Stealth can reach, a grapple on a creature two sizes larger. Each is refused
//! with what is allowed (the hide is rolled and fails), and only the lawful acts change the
//! state.

use serde_json::json;

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Proficiency, Skill, Spend};
use dnd_engine::state::{Change, GameState};

#[path = "support/table.rs"]
mod table;

/// Kraven, Isolde and Wren against the Frost Harpy (200 HP) and an ogre, in this order.
fn fight(order: &[&str]) -> GameState {
    table::fight(&["kraven", "isolde", "wren"], order)
}

/// Plays one scripted turn; the tool results the model was told, and the turn's changes.
async fn play(state: GameState, calls: Vec<ToolCall>) -> (Vec<String>, Vec<Change>, GameState) {
    let played = table::scripted_turn(&state, calls, "Kraven", "We fight dirty.").await;
    (played.results, played.outcome.changes, played.after)
}

#[tokio::test]
async fn dash_help_and_grapple_cheats_are_refused_with_what_is_allowed() {
    let before = fight(&["kraven", "isolde", "wren", "frost-harpy", "ogre"]);
    let calls = vec![
        ToolCall::new("a", "dash", json!({"creature": "kraven"})),
        ToolCall::new("b", "dash", json!({"creature": "kraven"})),
        ToolCall::new(
            "c",
            "help",
            json!({"helper": "isolde", "ally": "kraven", "target": "frost-harpy"}),
        ),
        ToolCall::new(
            "d",
            "help",
            json!({"helper": "kraven", "ally": "isolde", "target": "frost-harpy"}),
        ),
        ToolCall::new(
            "e",
            "grapple",
            json!({"attacker": "wren", "target": "ogre"}),
        ),
    ];
    let (results, changes, after) = play(before.clone(), calls).await;
    assert_eq!(results.len(), 5, "{results:#?}");
    let expect = [
        "dashes",
        "Kraven has already used the action this turn; left this turn: a bonus action, 60 ft of movement",
        "it is Kraven's turn (round 1)",
        "Kraven has already used the action this turn",
        "Ogre is Large, more than one size larger than Wren Ashdown (Small)",
    ];
    for (i, (result, want)) in results.iter().zip(expect).enumerate() {
        assert!(result.contains(want), "call {i}: {result}");
        assert_eq!(result.contains("\"error\""), i > 0, "call {i}: {result}");
    }
    assert!(
        results[4].contains("no larger than Medium"),
        "{}",
        results[4]
    );
    // Only the one Dash moved anything.
    let acted: Vec<&Change> = changes
        .iter()
        .filter(|c| {
            matches!(
                c,
                Change::Spent { .. } | Change::EffectStarted { .. } | Change::ConditionAdded { .. }
            )
        })
        .collect();
    assert_eq!(
        acted,
        vec![&Change::Spent {
            creature: "kraven".into(),
            spend: Spend::Dash
        }]
    );
    let encounter = after.encounter.as_ref().unwrap();
    assert!(encounter.effects.is_empty());
    assert_eq!(after.characters, before.characters);
    assert_eq!(after.monsters, before.monsters);
}

#[tokio::test]
async fn hide_under_a_watchful_eye_fails_and_a_second_hide_is_refused() {
    // Kraven watches with Wisdom 30 and expertise in Perception: passive Perception 24, more
    // than the harpy's Stealth (+1) can ever reach.
    let mut before = fight(&["frost-harpy", "kraven", "isolde", "wren", "ogre"]);
    let kraven = table::hero_mut(&mut before, "kraven");
    kraven.abilities.wisdom = 30;
    kraven
        .skills
        .insert(Skill::Perception, Proficiency::Expertise);
    let calls = vec![
        ToolCall::new("a", "hide", json!({"creature": "frost-harpy"})),
        ToolCall::new("b", "hide", json!({"creature": "frost-harpy"})),
    ];
    let (results, changes, after) = play(before, calls).await;
    assert!(results[0].contains("\"success\":false"), "{}", results[0]);
    assert!(
        results[0].contains("Kraven notices (passive Perception 24)"),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("Frost Harpy has already used the action"),
        "{}",
        results[1]
    );
    assert!(
        !changes
            .iter()
            .any(|c| matches!(c, Change::EffectStarted { .. })),
        "{changes:?}"
    );
    assert!(after.encounter.as_ref().unwrap().effects.is_empty());
}

#[tokio::test]
async fn help_against_a_foe_across_the_room_is_refused() {
    use dnd_engine::state::Position;
    // The harpy perches 30 ft from Isolde, who stands beside Kraven.
    let mut before = fight(&["isolde", "kraven", "wren", "frost-harpy", "ogre"]);
    let encounter = before.encounter.as_mut().unwrap();
    for (id, y) in [
        ("isolde", 0),
        ("kraven", 5),
        ("wren", 5),
        ("frost-harpy", 30),
        ("ogre", 60),
    ] {
        encounter
            .positions
            .insert(id.into(), Position { x: 0, y, z: 0 });
    }
    let calls = vec![
        ToolCall::new(
            "a",
            "help",
            json!({"helper": "isolde", "ally": "kraven", "target": "frost-harpy"}),
        ),
        // Help with a check needs no foe near: allowed.
        ToolCall::new(
            "b",
            "help",
            json!({"helper": "isolde", "ally": "kraven", "target": null}),
        ),
    ];
    let (results, changes, _) = play(before, calls).await;
    assert!(
        results[0].contains(
            "Frost Harpy is 30 ft from Isolde Vane: help with an attack reaches only 5 ft"
        ),
        "{}",
        results[0]
    );
    assert!(!results[1].contains("\"error\""), "{}", results[1]);
    let started = changes
        .iter()
        .filter(|c| matches!(c, Change::EffectStarted { .. }))
        .count();
    assert_eq!(started, 1, "{changes:?}");
}
