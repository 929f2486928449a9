//! A model that cheats at the turn order and the action economy, through the whole turn
//! (`GameMaster` with a scripted provider): attacking out of turn, a second Attack action,
//! ending the fight with a foe standing, acting while paralysed, casting while unconscious, and
//! using an item on another's turn. Each is refused with what is allowed, and only the one
//! lawful attack changes the state.

use serde_json::json;

use dnd_engine::gm::PlayerInput;
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Condition, Spend};
use dnd_engine::state::{Change, GameState, Target};

#[path = "support/table.rs"]
mod table;

/// The whole party against the Frost Harpy (200 HP), Isolde's turn first; Hedda down at 0 HP,
/// Wren paralysed.
fn fight() -> GameState {
    let mut state = table::seen_harpy(&["kraven", "isolde", "hedda", "wren"]);
    let hedda_hp = state.character("hedda").unwrap().hp.current;
    let order = table::order(&["isolde", "kraven", "hedda", "wren", "frost-harpy"]);
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

fn harpy_attack(attacker: &str) -> serde_json::Value {
    table::attack(attacker, "frost-harpy")
}

#[tokio::test]
async fn turn_order_and_action_economy_cheats_are_refused_and_change_nothing() {
    let cheats = vec![
        ToolCall::new("a", "roll_attack", harpy_attack("kraven")),
        ToolCall::new("b", "roll_attack", harpy_attack("isolde")),
        ToolCall::new("c", "roll_attack", harpy_attack("isolde")),
        ToolCall::new("d", "end_encounter", json!({})),
        ToolCall::new("e", "roll_attack", harpy_attack("wren")),
        ToolCall::new(
            "f",
            "cast_spell",
            json!({"caster": "hedda", "spell": "Sacred Flame", "slot_level": null, "targets": ["frost-harpy"]}),
        ),
        ToolCall::new(
            "g",
            "use_item",
            json!({"character": "kraven", "item": "Potion of Healing", "target": null}),
        ),
    ];
    let before = fight();
    let table::Played {
        results,
        outcome,
        after,
    } = table::scripted_turn(&before, cheats, "Isolde", "Everyone attacks the harpy!").await;

    // What the model was told, call by call.
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
    let (gm, _, id) = table::offline(&state).await;
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

/// A model that rests twice in one day to heal for free: the second long rest is refused with
/// the time the next may begin, and the hit points it would have restored stay lost.
#[tokio::test]
async fn a_cheating_model_cannot_take_two_long_rests_in_a_day() {
    let mut state = table::seen_harpy(&["kraven"]);
    state
        .apply_all(&[
            Change::LongRest {
                character: "kraven".into(),
            },
            Change::Damage {
                target: Target::Character("kraven".into()),
                amount: 10,
                critical: false,
            },
        ])
        .unwrap();
    let rest = ToolCall::new(
        "a",
        "update_character",
        json!({"character": "kraven", "update": "long_rest", "condition": null, "amount": null}),
    );
    let played = table::scripted_turn(&state, vec![rest], "Kraven", "I sleep again.").await;
    assert!(
        played.results[0].contains("only one long rest counts in 24 hours"),
        "{}",
        played.results[0]
    );
    assert_eq!(played.after.characters, state.characters);
}
