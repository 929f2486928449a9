//! A model that misuses the effects engine's newer rules, through the whole turn (`GameMaster`
//! with a scripted provider): an oil rubbed on a weapon its user does not carry, or on another
//! creature, is refused and keeps the oil; Guidance counted on two checks adds its d4 to the
//! first only, then the spell is over.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::adventure::Adventure;
use dnd_engine::llm::ToolCall;
use dnd_engine::state::{GameState, ItemStack};

#[path = "support/table.rs"]
mod table;

/// Kraven with the adventure's Hearthfire Oil, Hedda who knows Guidance, Wren.
fn before() -> GameState {
    let mut state = table::seen_harpy(&["kraven", "hedda", "wren"]);
    let oil: ItemStack = Adventure::built_in()
        .loot()
        .find(|i| i.name == "Hearthfire Oil")
        .expect("the oil is in the adventure")
        .clone();
    Arc::make_mut(&mut table::hero_mut(&mut state, "kraven").inventory).push(oil);
    let hedda = table::hero_mut(&mut state, "hedda");
    if !hedda.spells.iter().any(|s| s == "Guidance") {
        Arc::make_mut(&mut hedda.spells).push("Guidance".into());
    }
    state
}

fn oil_on(id: &str, target: &str) -> ToolCall {
    ToolCall::new(
        id,
        "use_item",
        json!({"character": "kraven", "item": "Hearthfire Oil", "target": target, "targets": []}),
    )
}

#[tokio::test]
async fn an_oil_on_a_weapon_not_carried_is_refused_and_kept() {
    let before = before();
    let calls = vec![oil_on("a", "Longbow"), oil_on("b", "wren")];
    let played = table::scripted_turn(&before, calls, "Kraven", "Fire on my blade!").await;
    let r = &played.results;
    assert_eq!(r.len(), 2, "{r:#?}");
    for result in r {
        assert!(
            result.contains("coats one weapon Kraven carries") && result.contains("Greatsword"),
            "{result}"
        );
    }
    let kraven = played.after.character("kraven").unwrap();
    assert_eq!(kraven.item_quantity("Hearthfire Oil"), 1);
    assert!(kraven.timed_effects.is_empty());
}

#[tokio::test]
async fn guidance_counted_on_two_checks_adds_to_the_first_only() {
    let before = before();
    let check = |id: &str| {
        ToolCall::new(
            id,
            "roll_skill_check",
            json!({"creature": "wren", "skill": "stealth", "dc": 12, "advantage": null, "reason": null}),
        )
    };
    let calls = vec![
        ToolCall::new(
            "a",
            "cast_spell",
            table::cast("hedda", "Guidance", None, &["wren"]),
        ),
        check("b"),
        check("c"),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Go quietly, Wren.").await;
    let r = &played.results;
    assert_eq!(r.len(), 3, "{r:#?}");
    let modifier = |text: &str| {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        v["result"]["modifier"].as_i64().unwrap()
    };
    let stealth = i64::from(
        played
            .after
            .character("wren")
            .unwrap()
            .skill_modifier(dnd_engine::rules::Skill::Stealth),
    );
    // The first check gets the d4 (1 to 4 more than Wren's Stealth), the second nothing.
    assert!((1..=4).contains(&(modifier(&r[1]) - stealth)), "{}", r[1]);
    assert_eq!(modifier(&r[2]), stealth, "spent on the first: {}", r[2]);
    assert!(
        played
            .after
            .character("wren")
            .unwrap()
            .timed_effects
            .is_empty()
    );
    assert_eq!(played.after.character("hedda").unwrap().concentration, None);
}
