//! A model that calls tools the moment does not offer (`tools::situation`): `next_turn` with
//! no fight, `cast_spell` for a fighter alone, `talk_to` with no one here. Each is refused with
//! the tools offered now, and nothing changes; a StrictJson answer's actions likewise.

use serde_json::json;

use super::{ACTIONS, call, table, text, tools};
use crate::gm::*;
use crate::llm::Message;
use crate::store::GameStore;

/// The tool results a request carries, in order.
fn results(request: &crate::llm::CompletionRequest) -> Vec<String> {
    request
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_tool_the_moment_does_not_offer_is_refused_with_what_is() {
    let calls = vec![
        call("n1", "next_turn", json!({})),
        call(
            "s1",
            "cast_spell",
            json!({"caster": "kraven", "spell": "Fire Bolt", "slot_level": null, "targets": ["frost-harpy"]}),
        ),
        call(
            "t1",
            "talk_to",
            json!({"character": "kraven", "npc": "Sigrun", "topic": null, "give": null}),
        ),
    ];
    let (provider, store, gm, id) = table(
        vec![tools(calls), text("The wind howls."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let before = store.load(&id).await.unwrap();
    gm.turn(&id, PlayerInput::new("Kraven", "I cheat."))
        .await
        .unwrap();
    let after = store.load(&id).await.unwrap();
    assert_eq!(after.characters, before.characters);
    // (The harpy may be seen at the turn's start: passive Perception, not the calls.)
    let hp = |s: &crate::state::GameState| -> Vec<_> {
        s.monsters.iter().map(|m| (m.hp, m.conditions)).collect()
    };
    assert_eq!(hp(&after), hp(&before));
    assert_eq!(after.encounter, None);
    let requests = provider.requests();
    // The first request offered none of them: a fighter alone, no fight, no one to talk to.
    let offered: Vec<&str> = requests[0].tools.iter().map(|t| t.name.as_str()).collect();
    assert!(
        offered.len() <= crate::tools::situation::CROWDED,
        "{offered:?}"
    );
    for absent in ["next_turn", "cast_spell", "talk_to"] {
        assert!(!offered.contains(&absent), "{absent} offered: {offered:?}");
    }
    let results = results(&requests[1]);
    assert_eq!(results.len(), 3);
    for (r, tool) in results.iter().zip(["next_turn", "cast_spell", "talk_to"]) {
        assert!(
            r.contains(&format!("{tool} is not available now")) && r.contains("move_to"),
            "{r}"
        );
    }
}

#[tokio::test]
async fn a_round_after_the_fight_starts_offers_the_fights_tools() {
    let start = call(
        "e1",
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    let (provider, _store, gm, id) = table(
        vec![tools(vec![start]), text("Steel out."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    gm.turn(&id, PlayerInput::new("Kraven", "I attack the harpy."))
        .await
        .unwrap();
    let requests = provider.requests();
    let names =
        |i: usize| -> Vec<String> { requests[i].tools.iter().map(|t| t.name.clone()).collect() };
    assert!(
        !names(0).contains(&"next_turn".to_owned()),
        "{:?}",
        names(0)
    );
    assert!(names(1).contains(&"next_turn".to_owned()), "{:?}", names(1));
    assert!(
        !names(1).contains(&"start_encounter".to_owned()),
        "{:?}",
        names(1)
    );
}

#[tokio::test]
async fn a_strict_answer_acting_outside_the_moment_is_refused() {
    let answer = json!({
        "narration": "The harpy falls.",
        "out_of_character_notes": [],
        "actions": [{"tool": "end_encounter", "arguments": "{}"}],
        "dice_rolls": [],
        "next_prompt_suggestion": null
    });
    let (provider, _store, gm, id) = table(
        vec![
            text(&answer.to_string()),
            text(r#"{"narration": "Nothing changes."}"#),
        ],
        Protocol::StrictJson,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "It's over."))
        .await
        .unwrap();
    let requests = provider.requests();
    // The instruction names only the tools offered now.
    let told = serde_json::to_string(&requests[0].messages).unwrap();
    assert!(told.contains("tools offered now: roll_dice"), "{told}");
    assert!(!told.contains("end_encounter"), "{told}");
    let results = results(&requests[1]);
    assert!(
        results[0].contains("end_encounter is not available now"),
        "{results:?}"
    );
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("end_encounter was refused"))
    );
}

/// A saving throw for Kraven: possible at the glacier's start, but left out of its list.
fn save() -> crate::llm::ToolCall {
    call(
        "v1",
        "roll_saving_throw",
        json!({"creature": "kraven", "ability": "constitution", "dc": 10, "advantage": null, "reason": "the cold"}),
    )
}

/// The names of the tools a request sent.
fn sent(request: &crate::llm::CompletionRequest) -> Vec<&str> {
    request.tools.iter().map(|t| t.name.as_str()).collect()
}

#[tokio::test]
async fn a_possible_tool_not_sent_is_refused_then_added_and_its_second_call_runs() {
    // Called once: refused, nothing rolled; the next round offers it.
    let (provider, _store, gm, id) = table(
        vec![tools(vec![save()]), text("Cold."), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let once = gm
        .turn(&id, PlayerInput::new("Kraven", "I brace against the cold."))
        .await
        .unwrap();
    // (Passive Perception may find things at the turn's start: changes, but no rolls.)
    assert!(once.rolls.is_empty(), "{:?}", once.rolls);
    let requests = provider.requests();
    assert!(!sent(&requests[0]).contains(&"roll_saving_throw"));
    let refusal = &results(&requests[1])[0];
    assert!(
        refusal.contains("roll_saving_throw is not among the tools sent with this call")
            && refusal.contains("it is now added: call it again")
            && refusal.contains("move_to"),
        "{refusal}"
    );
    assert!(
        refusal.contains(r#""added":"roll_saving_throw""#),
        "{refusal}"
    );
    let next = sent(&requests[1]);
    assert!(next.contains(&"roll_saving_throw"), "{next:?}");
    assert!(next.len() <= crate::tools::situation::CROWDED, "{next:?}");

    // Called again in the next round: it runs, with one roll.
    let (provider, _store, gm, id) = table(
        vec![
            tools(vec![save()]),
            tools(vec![call("v2", "roll_saving_throw", save().arguments)]),
            text("Cold."),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let twice = gm
        .turn(&id, PlayerInput::new("Kraven", "I brace against the cold."))
        .await
        .unwrap();
    assert_eq!(twice.rolls.len(), 1, "{:?}", twice.rolls);
    let requests = provider.requests();
    let second = &results(&requests[2])[1];
    assert!(!second.contains("\"error\""), "{second}");
    // Still offered in the round after (the turn's asked tools stay).
    assert!(sent(&requests[2]).contains(&"roll_saving_throw"));
}

#[tokio::test]
async fn a_barred_tool_is_refused_every_time_and_never_added() {
    let next = || call("n1", "next_turn", json!({}));
    let (provider, store, gm, id) = table(
        vec![
            tools(vec![next()]),
            tools(vec![next()]),
            text("Nothing moves."),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let before = store.load(&id).await.unwrap();
    gm.turn(&id, PlayerInput::new("Kraven", "Next!"))
        .await
        .unwrap();
    let after = store.load(&id).await.unwrap();
    assert_eq!(after.encounter, before.encounter);
    let requests = provider.requests();
    for round in [1, 2] {
        assert!(!sent(&requests[round]).contains(&"next_turn"));
    }
    let told = results(&requests[2]);
    assert_eq!(told.len(), 2);
    for r in &told {
        assert!(r.contains("next_turn is not available now"), "{r}");
        assert!(!r.contains("added"), "{r}");
    }
}

#[tokio::test]
async fn a_strict_answer_with_a_tool_not_listed_is_asked_once_more_with_it() {
    let answer = |tool: &str, args: &str| {
        json!({
            "narration": "…",
            "out_of_character_notes": [],
            "actions": [{"tool": tool, "arguments": args}],
            "dice_rolls": [],
            "next_prompt_suggestion": null
        })
        .to_string()
    };
    let args = save().arguments.to_string();
    let (provider, _store, gm, id) = table(
        vec![
            text(&answer("roll_saving_throw", &args)),
            text(&answer("roll_saving_throw", &args)),
            text(r#"{"narration": "You shrug off the cold."}"#),
        ],
        Protocol::StrictJson,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I brace against the cold."))
        .await
        .unwrap();
    assert_eq!(outcome.rolls.len(), 1, "{:?}", outcome.rolls);
    let requests = provider.requests();
    let told = |i: usize| serde_json::to_string(&requests[i].messages).unwrap();
    assert!(!told(0).contains("roll_saving_throw"));
    // The second answer is asked with the list that now holds it.
    assert!(
        told(1).contains("update_character, roll_saving_throw, roll_attack"),
        "{}",
        told(1)
    );
    assert!(results(&requests[1])[0].contains("it is now added"));
    // Not a refusal the player reads.
    assert!(
        !outcome.notes.iter().any(|n| n.contains("was refused")),
        "{:?}",
        outcome.notes
    );
}

#[tokio::test]
async fn the_offline_game_master_asks_for_a_tool_left_out_then_plays_its_round_whole() {
    use crate::state::Change;
    // The harpy seen and the frozen climber found: the start room's list is full without
    // the sheet (`get_character_stats`), which "I level up." reads first.
    let mut state = crate::adventure::Adventure::built_in()
        .new_game(&["kraven"])
        .unwrap();
    for change in [
        Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        },
        Change::FeatureFound {
            location: "ice-chasm".into(),
            feature: "frozen-climber".into(),
        },
    ] {
        state.apply(&change).unwrap();
    }
    let offered = crate::tools::available_tools(&state, crate::srd::Srd::bundled());
    assert!(!offered.contains(&"get_character_stats"), "{offered:?}");
    let store = std::sync::Arc::new(crate::store::MemoryStore::new());
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = crate::offline::OfflineGm::game_master(store)
        .seed(7)
        .build();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I level up."))
        .await
        .unwrap();
    let calls: Vec<(&str, bool)> = outcome
        .trace
        .iter()
        .filter_map(|step| match step {
            TraceStep::ToolCall { name, ok, .. } => Some((name.as_str(), *ok)),
            _ => None,
        })
        .collect();
    // Refused (nothing changed) and added, then called again and read.
    assert_eq!(
        calls,
        [
            ("get_character_stats", false),
            ("get_character_stats", true)
        ]
    );
    assert!(
        outcome
            .narration
            .contains("Not yet: you have 900 XP (level 4 at 2700)."),
        "{}",
        outcome.narration
    );
}

#[test]
fn added_calls_are_the_refused_ones_now_offered_and_results_count_once_per_call() {
    use crate::llm::{CompletionRequest, ToolSpec};
    let refused = json!({"error": "…", "added": "roll_saving_throw"}).to_string();
    let messages = vec![
        Message::user("I brace against the cold."),
        Message::assistant_tool_calls(vec![
            save(),
            call("d1", "roll_dice", json!({"expression": "1d4"})),
        ]),
        Message::tool_result("v1", refused.clone()),
        Message::tool_result("d1", r#"{"total": 3}"#),
    ];
    let spec = |name: &str| ToolSpec::new(name, "", json!({}));
    let request = |tools: Vec<ToolSpec>, messages: Vec<Message>| {
        CompletionRequest::new(messages).with_tools(tools)
    };
    // Offered now: called again, same arguments, a new id.
    let again = added_calls(&request(
        vec![spec("roll_dice"), spec("roll_saving_throw")],
        messages.clone(),
    ));
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].id, format!("{AGAIN}v1"));
    assert_eq!(again[0].name, "roll_saving_throw");
    assert_eq!(again[0].arguments, save().arguments);
    // Not offered, or the player has spoken since: nothing.
    assert!(added_calls(&request(vec![spec("roll_dice")], messages.clone())).is_empty());
    let mut spoken = messages.clone();
    spoken.push(Message::user("Never mind."));
    assert!(added_calls(&request(vec![spec("roll_saving_throw")], spoken)).is_empty());
    // One result per call: the second in the place of the refusal.
    let mut all = messages;
    all.push(Message::assistant_tool_calls(again));
    all.push(Message::tool_result(
        format!("{AGAIN}v1"),
        r#"{"total": 14}"#,
    ));
    assert_eq!(
        results_per_call(&all),
        [r#"{"total": 14}"#.to_owned(), r#"{"total": 3}"#.to_owned()]
    );
}
