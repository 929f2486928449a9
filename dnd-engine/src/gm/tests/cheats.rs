//! A cheating model, through the whole turn: bare numbers for hit points, healing the dead,
//! free temporary hit points, a rest in the middle of a fight, invisibility for free, a cantrip
//! at twenty copies of one target, the dead party walking on, and the quest's key conjured from
//! the story. Each call is refused with an error that says what is allowed, and the campaign's
//! characters and monsters are as they were.

use std::sync::Arc;

use serde_json::json;

use super::{ACTIONS, call, text, tools};
use crate::adventure::Adventure;
use crate::gm::*;
use crate::llm::{ScriptedProvider, ToolCall};
use crate::state::{Change, GameState, Target};
use crate::store::{GameStore, MemoryStore};

/// Plays one turn whose model makes `calls`, and returns each call's error, checking that the
/// characters, the monsters and the fight are what they were.
async fn refused_in_a_turn(state: GameState, calls: Vec<ToolCall>) -> Vec<String> {
    let count = calls.len();
    // A call to a tool left out for room is refused and added; the model calls it again.
    let provider = Arc::new(
        ScriptedProvider::new(vec![
            tools(calls),
            text("The glacier groans."),
            text(ACTIONS),
        ])
        .calling_again(),
    );
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Cheats", &state).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .seed(7)
        .build();
    let before = store.load(&id).await.unwrap();
    gm.turn(&id, PlayerInput::new("Isolde", "I do as the GM says."))
        .await
        .unwrap();
    let after = store.load(&id).await.unwrap();
    assert_eq!(after.characters, before.characters, "a character changed");
    let hp =
        |s: &GameState| -> Vec<_> { s.monsters.iter().map(|m| (m.hp, m.conditions)).collect() };
    assert_eq!(hp(&after), hp(&before), "a monster changed");
    assert_eq!(after.encounter, before.encounter, "the fight changed");
    assert_eq!(
        after.party_location().map(|l| l.id.clone()),
        before.party_location().map(|l| l.id.clone())
    );
    // The last narrative request holds every call's result.
    let requests = provider.requests();
    let last = requests.iter().rfind(|r| !r.tools.is_empty()).unwrap();
    let results = results_per_call(&last.messages);
    assert_eq!(results.len(), count);
    for r in &results {
        assert!(r.contains("\"error\""), "not refused: {r}");
    }
    results
}

/// Isolde and Hedda at the ice chasm, the frost harpy seen and dead.
fn dead_harpy() -> GameState {
    let mut state = Adventure::built_in()
        .new_game(&["isolde", "hedda"])
        .unwrap();
    for change in [
        Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        },
        Change::Damage {
            target: Target::Monster("frost-harpy".into()),
            amount: 30,
            critical: false,
        },
    ] {
        state.apply(&change).unwrap();
    }
    state
}

#[tokio::test]
async fn a_cheating_model_is_refused_and_told_what_is_allowed() {
    let calls = vec![
        call(
            "c1",
            "update_hp",
            json!({"target": "isolde", "amount": -9999, "damage_type": null, "reason": "a cheat"}),
        ),
        call(
            "c2",
            "update_hp",
            json!({"target": "frost-harpy", "amount": 30, "damage_type": null, "reason": null}),
        ),
        call(
            "c3",
            "cast_spell",
            json!({"caster": "hedda", "spell": "Cure Wounds", "slot_level": null, "targets": ["frost-harpy"]}),
        ),
        call(
            "c4",
            "update_character",
            json!({"character": "isolde", "update": "temporary_hp", "condition": null, "amount": 4_294_967_295u32}),
        ),
        call(
            "c5",
            "update_character",
            json!({"character": "isolde", "update": "add_condition", "condition": "invisible", "amount": null}),
        ),
        call(
            "c6",
            "cast_spell",
            json!({"caster": "isolde", "spell": "Fire Bolt", "slot_level": null, "targets": vec!["frost-harpy"; 20]}),
        ),
        call(
            "c7",
            "add_inventory",
            json!({"character": "isolde", "item": "Rime Key", "quantity": 1, "from": null}),
        ),
        call(
            "c8",
            "apply_hazard_damage",
            json!({"target": "isolde", "cause": "fall", "feet": 30, "amount": -9999, "severity": null, "damage_type": null, "reason": null}),
        ),
    ];
    let errors = refused_in_a_turn(dead_harpy(), calls).await;
    let expect = [
        "apply_hazard_damage",
        "apply_hazard_damage",
        "heal only the living",
        "only from a spell or a feature",
        "may impose only: prone, exhaustion",
        "at most 1 target",
        "item of this adventure",
        "amount",
    ];
    for (error, wanted) in errors.iter().zip(expect) {
        assert!(error.contains(wanted), "{error} should say {wanted:?}");
    }
}

#[tokio::test]
async fn no_long_rest_in_a_fight_and_no_walk_for_the_dead() {
    let mut fighting = dead_harpy();
    let started: Change = serde_json::from_value(json!({"change": "encounter_started", "order": [
        {"id": "isolde", "initiative": 15}, {"id": "hedda", "initiative": 9}
    ]}))
    .unwrap();
    fighting.apply(&started).unwrap();
    let errors = refused_in_a_turn(
        fighting,
        vec![call(
            "r1",
            "update_character",
            json!({"character": "isolde", "update": "long_rest", "condition": null, "amount": null}),
        )],
    )
    .await;
    assert!(errors[0].contains("no rest during a fight"), "{errors:?}");

    let mut dead = dead_harpy();
    for hero in ["isolde", "hedda"] {
        dead.apply(&Change::Damage {
            target: Target::Character(hero.into()),
            amount: 100,
            critical: false,
        })
        .unwrap();
    }
    let errors =
        refused_in_a_turn(dead, vec![call("m1", "move_to", json!({"exit": "east"}))]).await;
    assert!(
        errors[0].contains("no one in the party can move"),
        "{errors:?}"
    );
}
