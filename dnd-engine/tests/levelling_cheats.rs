//! A model that cheats at levelling, through the whole turn (`GameMaster` with a scripted
//! provider): a level without the XP, a second level at once, a spell from another class's
//! list, a cantrip left out, a subclass at the wrong level, a level for someone who does not
//! exist. Each is refused with what is allowed, and only the one lawful level changes the
//! sheet.

use serde_json::json;

use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, GameState};

#[path = "support/table.rs"]
mod table;

/// The whole party; Isolde has the XP for 4th level, the others 3rd level's 900.
fn party() -> GameState {
    let mut state = dnd_engine::adventure::Adventure::built_in()
        .new_game(&["kraven", "isolde", "hedda", "wren"])
        .unwrap();
    table::hero_mut(&mut state, "isolde").xp = 2_700;
    table::hero_mut(&mut state, "isolde").abilities.intelligence = 16;
    state
}

#[tokio::test]
async fn levelling_cheats_are_refused_and_change_nothing() {
    let call = |id: &str, args: serde_json::Value| ToolCall::new(id, "level_up", args);
    let cheats = vec![
        call("a", json!({"character": "kraven"})),
        call(
            "b",
            json!({"character": "isolde", "improvement": {"plus_two": "intelligence"}, "spells": ["Cure Wounds", "Web"]}),
        ),
        call(
            "c",
            json!({"character": "isolde", "improvement": {"plus_two": "dexterity"}, "spells": ["Web", "Invisibility"]}),
        ),
        call(
            "d",
            json!({"character": "isolde", "subclass": "Evocation", "improvement": {"plus_two": "intelligence"}, "spells": ["Web", "Invisibility", "Minor Illusion"]}),
        ),
        call("e", json!({"character": "gandalf"})),
        // The lawful one: +2 Intelligence, two spellbook spells and the 4th level's cantrip.
        call(
            "f",
            json!({"character": "isolde", "improvement": {"plus_two": "intelligence"}, "spells": ["Web", "Invisibility", "Minor Illusion"]}),
        ),
        // And at once another: 4th level needs 6500 XP for 5th.
        call(
            "g",
            json!({"character": "isolde", "spells": ["Fireball", "Fly"]}),
        ),
    ];
    let before = party();
    let table::Played {
        results,
        outcome,
        after,
    } = table::scripted_turn(&before, cheats, "Isolde", "We level up!").await;
    assert_eq!(results.len(), 7, "{results:#?}");
    let expect = [
        "Kraven has 900 XP; level 4 needs 2700",
        "\\\"Cure Wounds\\\" is not on the Wizard spell list; options: ",
        "level 4 adds 1 cantrip(s); 0 chosen",
        "Isolde Vane follows the Evocation already",
        "no character \\\"gandalf\\\"; valid: kraven, isolde, hedda, wren",
        "\"level\":4",
        "Isolde Vane has 2700 XP; level 5 needs 6500",
    ];
    for (i, (result, want)) in results.iter().zip(expect).enumerate() {
        assert!(result.contains(want), "call {i}: {result}");
        assert_eq!(result.contains("\"error\""), i != 5, "call {i}: {result}");
    }
    let levelled: Vec<&Change> = outcome
        .changes
        .iter()
        .filter(|c| matches!(c, Change::LevelledUp(_)))
        .collect();
    assert_eq!(levelled.len(), 1, "{levelled:?}");
    let isolde = after.character("isolde").unwrap();
    assert_eq!((isolde.level, isolde.abilities.intelligence), (4, 18));
    for id in ["kraven", "hedda", "wren"] {
        assert_eq!(after.character(id), before.character(id), "{id} untouched");
    }
}
