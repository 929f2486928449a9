mod caps;
mod cheats;
mod chosen;
mod hostile;
mod memo;
mod offered;
mod window;

use std::sync::Arc;

use futures::StreamExt;
use serde_json::json;

use super::*;
use crate::adventure::Adventure;
use crate::llm::{Capabilities, CompletionResponse, ScriptedProvider, ToolCall};
use crate::store::{MemoryStore, Page};

fn call(id: &str, name: &str, args: serde_json::Value) -> ToolCall {
    ToolCall::new(id, name, args)
}

fn tools(calls: Vec<ToolCall>) -> Result<CompletionResponse, LlmError> {
    Ok(CompletionResponse::from_tool_calls(calls))
}

fn text(t: &str) -> Result<CompletionResponse, LlmError> {
    Ok(CompletionResponse::from_text(t))
}

const ACTIONS: &str = r#"{"actions": [
  {"id": "search", "description": "Search the chasm's edge", "reason": null, "mechanic": {"tool": "roll_skill_check", "arguments": "{\"creature\": \"kraven\", \"skill\": \"perception\", \"dc\": 12, \"advantage\": null, \"reason\": null}"}},
  {"id": "cross", "description": "Cross the ice bridge", "reason": "onward", "mechanic": null}
]}"#;

async fn table(
    script: Vec<Result<CompletionResponse, LlmError>>,
    protocol: Protocol,
) -> (
    Arc<ScriptedProvider>,
    Arc<MemoryStore>,
    GameMaster,
    CampaignId,
) {
    let provider = Arc::new(ScriptedProvider::new(script));
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .protocol(protocol)
        .seed(7)
        .build();
    (provider, store, gm, id)
}

/// `gm` with its limits the defaults as `change` leaves them.
fn limited(gm: GameMaster, change: impl FnOnce(&mut GmLimits)) -> GameMaster {
    let mut limits = GmLimits::default();
    change(&mut limits);
    GameMaster { limits, ..gm }
}

fn perception_check() -> ToolCall {
    call(
        "c1",
        "roll_skill_check",
        json!({"creature": "kraven", "skill": "perception", "dc": 12, "advantage": null, "reason": "scan the chasm"}),
    )
}

#[tokio::test]
async fn two_phase_turn_end_to_end() {
    let (provider, store, gm, id) = table(
        vec![
            tools(vec![perception_check()]),
            text("Wind howls over the chasm. What do you do?"),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look around."))
        .await
        .unwrap();
    assert_eq!(outcome.turn, 1);
    assert_eq!(
        outcome.narration,
        "Wind howls over the chasm. What do you do?"
    );
    assert_eq!(outcome.rolls.len(), 1);
    assert_eq!(outcome.suggested_actions.len(), 2);
    let chance = outcome.suggested_actions[0].chance.unwrap();
    assert!(
        (chance - 0.6).abs() < 1e-9,
        "1d20+3 meets 12 on 9+: 60%, got {chance}"
    );
    assert!(outcome.suggested_actions[0].label().ends_with("(60%)"));
    let requests = provider.requests();
    assert_eq!(requests.len(), 3);
    assert!(!requests[0].tools.is_empty() && requests[2].tools.is_empty());
    assert!(matches!(
        requests[2].response_format,
        crate::llm::ResponseFormat::JsonSchema { .. }
    ));
    // Committed: the history keeps this turn's own messages for the next turns' context.
    let history = store.history(&id, Page::first(5)).await.unwrap();
    let roles: Vec<&str> = history[0]
        .record
        .llm_messages
        .iter()
        .map(|m| m.role().as_str())
        .collect();
    assert_eq!(roles, ["user", "assistant", "tool", "assistant"]);
    let response = serde_json::to_value(outcome.to_game_response()).unwrap();
    for key in [
        "narration",
        "out_of_character_notes",
        "actions",
        "dice_rolls",
        "next_prompt_suggestion",
    ] {
        assert!(response.get(key).is_some(), "{key} missing: {response}");
    }
}

#[tokio::test]
async fn malformed_tool_calls_reach_the_model_and_change_nothing() {
    let bad = vec![
        call("b1", "teleport", json!({})),
        call("b2", "roll_dice", json!({"dice": "1d20"})),
        call("b3", "move_to", json!({"exit": "up"})),
        call(
            "b4",
            "update_hp",
            json!({"target": "kraven", "amount": 99, "damage_type": null, "reason": null}),
        ),
        call(
            "b5",
            "add_inventory",
            json!({"character": "kraven", "item": "Vorpal Sword", "quantity": 1, "from": "nowhere"}),
        ),
        call(
            "b6",
            "cast_spell",
            json!({"caster": "kraven", "spell": "Fireball", "slot_level": 3, "targets": []}),
        ),
        call(
            "b7",
            "roll_attack",
            json!({"attacker": "kraven", "target": "ghost-king", "attack": null, "advantage": null}),
        ),
    ];
    let (provider, store, gm, id) = table(
        vec![
            tools(bad),
            tools(vec![perception_check()]),
            text("You steady yourself."),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let before = store.load(&id).await.unwrap();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I do many strange things."))
        .await
        .unwrap();
    let second = &provider.requests()[1].messages;
    let errors: Vec<&str> = second
        .iter()
        .filter_map(|m| match m {
            Message::Tool { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 7);
    assert!(errors.iter().all(|e| e.contains("\"error\"")), "{errors:?}");
    assert_eq!(outcome.rolls.len(), 1, "only the good call rolled");
    let after = store.load(&id).await.unwrap();
    assert_eq!(after.characters[0], before.characters[0]);
    assert_eq!(after.turn, 1);
}

#[tokio::test]
async fn a_provider_failure_writes_nothing_and_the_retry_succeeds() {
    let (provider, store, gm, id) = table(
        vec![
            tools(vec![perception_check()]),
            Err(LlmError::server(Some(502), "bad gateway")),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let err = gm
        .turn(&id, PlayerInput::new("Kraven", "I look around."))
        .await
        .unwrap_err();
    assert!(matches!(err, GmError::Provider(_)), "{err}");
    assert_eq!(store.load(&id).await.unwrap().turn, 0);
    assert!(store.history(&id, Page::first(5)).await.unwrap().is_empty());
    provider.push_response(CompletionResponse::from_text("The wind dies down."));
    provider.push_response(CompletionResponse::from_text(ACTIONS));
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look around."))
        .await
        .unwrap();
    assert_eq!(outcome.turn, 1);
}

#[tokio::test]
async fn a_model_that_calls_tools_forever_is_stopped() {
    let forever: Vec<_> = (0..10)
        .map(|i| tools(vec![call(&format!("r{i}"), "get_game_flags", json!({}))]))
        .collect();
    let (provider, _store, gm, id) = table(forever, Protocol::ToolLoop).await;
    let gm = limited(gm, |limits| {
        limits.max_tool_rounds = 3;
    });
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Loop."))
        .await
        .unwrap();
    assert_eq!(provider.requests().len(), 3);
    assert!(
        outcome
            .trace
            .iter()
            .any(|t| matches!(t, TraceStep::Note { text } if text.contains("after 3 rounds")))
    );
    assert!(!outcome.notes.is_empty());
}

#[tokio::test]
async fn invalid_suggestions_get_one_retry_then_none() {
    let (_p, _s, gm, id) = table(
        vec![text("Snow falls."), text("not json"), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    assert_eq!(outcome.suggested_actions.len(), 2);
    let (_p, _s, gm, id) = table(
        vec![text("Snow falls."), text("{}"), text(r#"{"actions": []}"#)],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    assert!(outcome.suggested_actions.is_empty());
    assert!(
        outcome
            .trace
            .iter()
            .any(|t| matches!(t, TraceStep::Note { text } if text.contains("without them")))
    );
}

#[tokio::test]
async fn a_server_refusing_json_schema_gets_the_schema_in_the_prompt() {
    let (provider, _s, gm, id) = table(
        vec![
            text("Snow falls."),
            Err(LlmError::server(
                Some(400),
                "response_format json_schema is not supported",
            )),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    assert_eq!(outcome.suggested_actions.len(), 2);
    let last = provider.requests().pop().unwrap();
    assert!(!matches!(
        last.response_format,
        crate::llm::ResponseFormat::JsonSchema { .. }
    ));
    assert!(last.messages.iter().any(|m| {
        m.text()
            .is_some_and(|t| t.contains("must match this schema"))
    }));
}

#[tokio::test]
async fn strict_json_runs_actions_through_the_tools_and_ignores_claimed_dice() {
    let answer = json!({
        "narration": "You peer into the mist.",
        "out_of_character_notes": [],
        "actions": [{"tool": "roll_skill_check", "arguments": "{\"creature\":\"kraven\",\"skill\":\"perception\",\"dc\":12,\"advantage\":null,\"reason\":null}"}],
        "dice_rolls": ["1d20 = 20, a natural twenty!"],
        "next_prompt_suggestion": "Cross the bridge"
    });
    let told = json!({"narration": "Mist, and nothing in it."}).to_string();
    let provider = Arc::new(
        ScriptedProvider::new(vec![text(&answer.to_string()), text(&told)]).with_capabilities(
            Capabilities {
                tool_calling: false,
                ..Capabilities::default()
            },
        ),
    );
    let store = Arc::new(MemoryStore::new());
    let id = store
        .create_campaign("g", &Adventure::built_in().new_game(&["kraven"]).unwrap())
        .await
        .unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .seed(3)
        .build();
    assert_eq!(gm.protocol(), Protocol::StrictJson);
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look."))
        .await
        .unwrap();
    // The narration is the one written after the dice fell, from their results.
    assert_eq!(outcome.narration, "Mist, and nothing in it.");
    let requests = provider.requests();
    assert_eq!(requests.len(), 2);
    assert!(matches!(
        &requests[1].response_format,
        crate::llm::ResponseFormat::JsonSchema { name, .. } if name == STRICT_NARRATION_SCHEMA
    ));
    let result = requests[1].messages.iter().find_map(|m| match m {
        Message::Tool {
            tool_call_id,
            content,
        } if tool_call_id == "strict-0" => Some(content),
        _ => None,
    });
    assert!(
        result.is_some_and(|r| r.contains("Perception")),
        "the narration request carries the check's result"
    );
    assert_eq!(outcome.rolls.len(), 1, "the engine rolled the check itself");
    assert!(
        outcome
            .trace
            .iter()
            .any(|t| matches!(t, TraceStep::Note { text } if text.contains("ignored 1 dice")))
    );

    let (_p, _s, gm, id) = table(
        vec![text("I am not JSON"), text("still not")],
        Protocol::StrictJson,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "still not");
    assert!(
        outcome
            .changes
            .iter()
            .all(|c| !matches!(c, crate::state::Change::Damage { .. }))
    );
}

#[tokio::test]
async fn streaming_yields_text_then_the_outcome() {
    let (_p, _s, gm, id) = table(
        vec![text("The ice groans."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let events: Vec<TurnEvent> = gm
        .turn_stream(&id, PlayerInput::new("Kraven", "Listen."))
        .collect()
        .await;
    assert!(matches!(&events[0], TurnEvent::Text(t) if t == "The ice groans."));
    match events.last() {
        Some(TurnEvent::Done(outcome)) => assert_eq!(outcome.as_ref().as_ref().unwrap().turn, 1),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn streaming_yields_each_tool_call_and_its_result_as_it_runs() {
    let (_p, _s, gm, id) = table(
        vec![
            tools(vec![
                call(
                    "r1",
                    "roll_dice",
                    json!({"expression": "1d20", "reason": null, "advantage": null}),
                ),
                call("t1", "teleport", json!({})),
            ]),
            text("The die rolls."),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let events: Vec<TurnEvent> = gm
        .turn_stream(&id, PlayerInput::new("Kraven", "Roll."))
        .collect()
        .await;
    let kinds: Vec<String> = events
        .iter()
        .map(|e| match e {
            TurnEvent::Text(_) => "text".to_owned(),
            TurnEvent::ToolCall { id, name, .. } => format!("call {id} {name}"),
            TurnEvent::ToolResult { id, result, .. } => {
                format!(
                    "result {id} {}",
                    if result.is_ok() { "ok" } else { "refused" }
                )
            }
            TurnEvent::Done(_) => "done".to_owned(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "call r1 roll_dice",
            "result r1 ok",
            "call t1 teleport",
            "result t1 refused",
            "text",
            "done"
        ]
    );
    let Some(TurnEvent::ToolCall { arguments, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(arguments["expression"], "1d20");
    let TurnEvent::ToolResult { result, .. } = &events[1] else {
        panic!("{events:?}")
    };
    let total = result.as_ref().unwrap()["total"].as_i64().unwrap();
    assert!((1..=20).contains(&total), "{result:?}");
    let TurnEvent::ToolResult { result, .. } = &events[3] else {
        panic!("{events:?}")
    };
    assert!(
        result.as_ref().unwrap_err().contains("teleport"),
        "{result:?}"
    );
}

#[tokio::test]
async fn bad_input_is_refused_before_anything_runs() {
    let (provider, _s, gm, id) = table(vec![], Protocol::TwoPhase).await;
    assert!(matches!(
        gm.turn(&id, PlayerInput::new("Kraven", "   ")).await,
        Err(GmError::Input(_))
    ));
    assert!(matches!(
        gm.turn(&id, PlayerInput::new("Kraven", "x".repeat(5000)))
            .await,
        Err(GmError::Input(_))
    ));
    assert!(matches!(
        gm.turn(&CampaignId("404".into()), PlayerInput::new("Kraven", "hi"))
            .await,
        Err(GmError::Store(_))
    ));
    assert!(provider.requests().is_empty());
}

#[tokio::test]
async fn passive_perception_finds_the_frozen_climber_before_the_model_speaks() {
    let (provider, store, gm, id) = table(
        vec![text("Something glints in the ice."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let kraven_passive = store.load(&id).await.unwrap().characters[0].passive_perception();
    gm.turn(&id, PlayerInput::new("Kraven", "I look around."))
        .await
        .unwrap();
    let first = &provider.requests()[0];
    let context: String = first
        .messages
        .iter()
        .filter_map(|m| m.text())
        .collect::<Vec<_>>()
        .join("\n");
    let found = store.load(&id).await.unwrap().locations[0]
        .features
        .iter()
        .find(|f| f.id == "frozen-climber")
        .unwrap()
        .found;
    assert_eq!(
        found,
        kraven_passive >= 12,
        "passive {kraven_passive} against DC 12"
    );
    assert_eq!(
        context.contains("frozen climber") || context.contains("Frozen"),
        found,
        "{context}"
    );
}

#[tokio::test]
async fn the_dead_stay_dead_and_names_are_remembered() {
    let (provider, store, gm, id) =
        table(vec![text("Quiet."), text(ACTIONS)], Protocol::TwoPhase).await;
    let mut state = store.load(&id).await.unwrap();
    // The harpy died last turn (as a committed change would have it).
    state
        .apply(&crate::state::Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    state
        .apply(&crate::state::Change::Damage {
            target: crate::state::Target::Monster("frost-harpy".into()),
            amount: 99,
            critical: false,
        })
        .unwrap();
    let id2 = store.create_campaign("Dead harpy", &state).await.unwrap();
    let _ = id;
    gm.turn(&id2, PlayerInput::new("Kraven", "I look at the body."))
        .await
        .unwrap();
    let context: Vec<String> = provider.requests()[0]
        .messages
        .iter()
        .filter_map(|m| m.text().map(str::to_owned))
        .collect();
    assert!(
        context
            .iter()
            .any(|t| t.contains("Dead (they stay dead): Frost Harpy")),
        "{context:?}"
    );
    assert_eq!(provider.requests()[0].stable_prefix, 2);
}

#[tokio::test]
async fn folding_by_llm_calls_the_provider_every_m_turns() {
    // Keep 2, fold 4 at once: turns 1 to 6 send all the turns before them (the history only
    // grows), the 7th folds the oldest four with one summary call and sends the last two.
    let mut script = Vec::new();
    for _ in 0..6 {
        script.push(text("Snow falls."));
    }
    script.push(text("The hero crossed the glacier in silence."));
    script.push(text("More snow."));
    let (provider, store, gm, id) = table(script, Protocol::ToolLoop).await;
    let gm = limited(gm, |limits| {
        limits.history_turns = 2;
        limits.summary_every = 4;
    });
    for _ in 0..7 {
        gm.turn(&id, PlayerInput::new("Kraven", "Walk."))
            .await
            .unwrap();
    }
    let requests = provider.requests();
    assert_eq!(requests.len(), 8, "seven turns and one summary call");
    let players = |i: usize| {
        requests[i]
            .messages
            .iter()
            .filter(|m| matches!(m, Message::User { .. }))
            .count()
    };
    // Each turn's request: its past turns' inputs and its own.
    assert_eq!(
        (0..6).map(players).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 6]
    );
    assert!(
        requests[6]
            .messages
            .iter()
            .any(|m| m.text().is_some_and(|t| t.contains("What happened since")))
    );
    assert_eq!(
        players(7),
        3,
        "two past turns after the fold, and the input"
    );
    // Between folds, each turn's request starts with the whole previous turn's request but
    // its tail: what a prompt cache reuses. The tail starts at the first system message after
    // the system prompt and the summary (the memory, state and findings blocks).
    let head = |messages: &[Message]| {
        messages
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, m)| {
                matches!(m, Message::System { .. })
                    && !m.text().is_some_and(|t| t.starts_with("The story so far"))
            })
            .map_or(messages.len(), |(i, _)| i)
    };
    for i in 1..6 {
        // The stable prefix a cache breakpoint marks is everything before the tail.
        assert_eq!(requests[i].stable_prefix, head(&requests[i].messages));
        let before = &requests[i - 1].messages;
        let shared = before
            .iter()
            .zip(&requests[i].messages)
            .take_while(|(a, b)| a == b)
            .count();
        assert!(
            shared >= head(before) && head(&requests[i].messages) > head(before),
            "request {i} shares {shared} of {}",
            before.len()
        );
    }
    let state = store.load(&id).await.unwrap();
    assert_eq!(&*state.summary, "The hero crossed the glacier in silence.");
}

#[tokio::test]
async fn a_leaked_dc_or_id_is_flagged() {
    let (_p, _s, gm, id) = table(
        vec![text("Beat DC 15 to spot the frost-harpy."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Look."))
        .await
        .unwrap();
    assert!(outcome.trace.iter().any(|t| matches!(t, TraceStep::Note { text } if text.contains("DC 15") && text.contains("frost-harpy"))), "{:?}", outcome.trace);
}
