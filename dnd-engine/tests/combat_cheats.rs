//! A model that cheats at the turn order and the action economy, through the whole turn
//! (`GameMaster` with a scripted provider): attacking out of turn, a second Attack action,
//! ending the fight with a foe standing, acting while paralysed, casting while unconscious, and
//! using an item on another's turn. Each is refused with what is allowed, and only the one
//! lawful attack changes the state.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, PlayerInput, Protocol};
use dnd_engine::llm::{CompletionResponse, Message, ScriptedProvider, ToolCall};
use dnd_engine::rules::{Condition, HitPoints, Spend};
use dnd_engine::state::{Change, GameState, InitiativeSlot, Target};
use dnd_engine::store::{GameStore, MemoryStore};

const ACTIONS: &str = r#"{"actions": [
  {"id": "strike", "description": "Strike the harpy again", "reason": null, "mechanic": null},
  {"id": "wait", "description": "Hold your ground", "reason": null, "mechanic": null}
]}"#;

/// The whole party against the Frost Harpy (200 HP), Isolde's turn first; Hedda down at 0 HP,
/// Wren paralysed.
fn fight() -> GameState {
    let mut state = Adventure::built_in()
        .new_game(&["kraven", "isolde", "hedda", "wren"])
        .unwrap();
    state
        .apply(&Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    Arc::make_mut(&mut state.monsters)[0].hp = HitPoints::full(200);
    let hedda_hp = state.character("hedda").unwrap().hp.current;
    let order = ["isolde", "kraven", "hedda", "wren", "frost-harpy"]
        .iter()
        .enumerate()
        .map(|(i, id)| InitiativeSlot {
            id: (*id).into(),
            initiative: 20 - i as i32,
            speed: 30,
        })
        .collect();
    state
        .apply_all(&[
            Change::Damage {
                target: Target::Character("hedda".into()),
                amount: hedda_hp,
                critical: false,
            },
            Change::ConditionAdded {
                target: Target::Character("wren".into()),
                condition: Condition::Paralyzed,
            },
            Change::EncounterStarted { order },
        ])
        .unwrap();
    state
}

fn call(id: &str, name: &str, args: serde_json::Value) -> ToolCall {
    ToolCall::new(id, name, args)
}

fn harpy_attack(attacker: &str) -> serde_json::Value {
    json!({"attacker": attacker, "target": "frost-harpy", "attack": null, "advantage": null})
}

#[tokio::test]
async fn turn_order_and_action_economy_cheats_are_refused_and_change_nothing() {
    let cheats = vec![
        call("a", "roll_attack", harpy_attack("kraven")),
        call("b", "roll_attack", harpy_attack("isolde")),
        call("c", "roll_attack", harpy_attack("isolde")),
        call("d", "end_encounter", json!({})),
        call("e", "roll_attack", harpy_attack("wren")),
        call(
            "f",
            "cast_spell",
            json!({"caster": "hedda", "spell": "Sacred Flame", "slot_level": null, "targets": ["frost-harpy"]}),
        ),
        call(
            "g",
            "use_item",
            json!({"character": "kraven", "item": "Potion of Healing", "target": null}),
        ),
    ];
    let provider = Arc::new(ScriptedProvider::new(vec![
        Ok(CompletionResponse::from_tool_calls(cheats)),
        Ok(CompletionResponse::from_text("Steel and frost meet.")),
        Ok(CompletionResponse::from_text(ACTIONS)),
    ]));
    let store = Arc::new(MemoryStore::new());
    let before = fight();
    let id = store.create_campaign("Glacier", &before).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .protocol(Protocol::TwoPhase)
        .seed(5)
        .build();
    let outcome = gm
        .turn(
            &id,
            PlayerInput::new("Isolde", "Everyone attacks the harpy!"),
        )
        .await
        .unwrap();

    // What the model was told, call by call.
    let requests = provider.requests();
    let results: Vec<String> = requests[1]
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 7, "{results:#?}");
    let expect = [
        "it is Isolde Vane's turn (round 1); Kraven's turn comes after Isolde Vane",
        "\"attacks\"",
        "Isolde Vane has already used the action this turn",
        "the fight is not over: Frost Harpy still stands here",
        "Wren Ashdown cannot act now: paralyzed (no actions or reactions)",
        "cannot act now: at 0 HP",
        "it is Isolde Vane's turn (round 1)",
    ];
    for (i, (result, want)) in results.iter().zip(expect).enumerate() {
        assert!(result.contains(want), "call {i}: {result}");
    }
    for (i, result) in results.iter().enumerate().filter(|(i, _)| *i != 1) {
        assert!(
            result.contains("\"error\""),
            "call {i} was not refused: {result}"
        );
    }
    // Each refusal says what is allowed.
    assert!(results[0].contains("next_turn"), "{}", results[0]);
    assert!(
        results[2].contains("left this turn: a bonus action"),
        "{}",
        results[2]
    );
    assert!(results[3].contains("every foe is down"), "{}", results[3]);

    // Only Isolde's one attack moved anything: her Attack action spent, the harpy's HP.
    let moved: Vec<&Change> = outcome
        .changes
        .iter()
        .filter(|c| {
            matches!(
                c,
                Change::Spent { .. }
                    | Change::Damage { .. }
                    | Change::Heal { .. }
                    | Change::SlotSpent { .. }
                    | Change::ItemRemoved { .. }
                    | Change::EncounterEnded
                    | Change::TurnAdvanced
            )
        })
        .collect();
    assert_eq!(
        moved[0],
        &Change::Spent {
            creature: "isolde".into(),
            spend: Spend::Attack
        }
    );
    assert!(
        moved[1..].iter().all(|c| matches!(
            c,
            Change::Damage { target: Target::Monster(m), .. } if m == "frost-harpy"
        )),
        "{moved:?}"
    );
    let after = store.load(&id).await.unwrap();
    let encounter = after.encounter.as_ref().expect("the fight goes on");
    assert_eq!(encounter.current(), Some("isolde"));
    assert!(encounter.budget.action_used);
    // No hero changed: no potion drunk, no slot spent, nobody healed or hurt.
    assert_eq!(after.characters, before.characters);
}

/// The offline game master plays by the same rules: on another hero's turn it passes that turn
/// with `next_turn` before the speaker attacks, and attacks once.
#[tokio::test]
async fn the_offline_game_master_waits_for_the_speakers_turn_and_attacks_once() {
    let mut state = fight();
    // Kraven speaks on Isolde's turn.
    state
        .apply(&Change::ConditionRemoved {
            target: Target::Character("wren".into()),
            condition: Condition::Paralyzed,
        })
        .unwrap();
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(
        Arc::new(dnd_engine::offline::OfflineGm::new()),
        store.clone(),
    )
    .protocol(Protocol::TwoPhase)
    .seed(5)
    .build();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I attack the harpy."))
        .await
        .unwrap();
    let spent: Vec<&Change> = outcome
        .changes
        .iter()
        .filter(|c| matches!(c, Change::Spent { .. }))
        .collect();
    assert_eq!(
        spent,
        vec![&Change::Spent {
            creature: "kraven".into(),
            spend: Spend::Attack
        }],
        "{}",
        outcome.narration
    );
    let passed = outcome
        .changes
        .iter()
        .position(|c| *c == Change::TurnAdvanced)
        .expect("Isolde's turn passed");
    let attacked = outcome
        .changes
        .iter()
        .position(|c| matches!(c, Change::Spent { .. }))
        .unwrap();
    assert!(passed < attacked, "{:?}", outcome.changes);
}
