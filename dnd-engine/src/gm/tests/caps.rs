//! Output caps: every call carries the cap of its kind, and an answer the cap cut is ended at
//! its last full sentence (prose) or asked again once with a larger cap (JSON).

use super::*;
use crate::llm::FinishReason;

/// An answer the output cap cut.
fn cut(t: &str) -> Result<CompletionResponse, LlmError> {
    Ok(CompletionResponse::from_text(t).with_finish_reason(FinishReason::Length))
}

fn notes(outcome: &TurnOutcome) -> Vec<&str> {
    outcome
        .trace
        .iter()
        .filter_map(|t| match t {
            TraceStep::Note { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn caps_sent(outcome: &TurnOutcome) -> Vec<(String, Option<u32>)> {
    outcome
        .trace
        .iter()
        .filter_map(|t| match t {
            TraceStep::ProviderCall {
                phase, max_tokens, ..
            } => Some((phase.clone(), *max_tokens)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn every_call_carries_the_cap_of_its_kind_and_the_trace_shows_it() {
    let (provider, _s, gm, id) = table(
        vec![
            tools(vec![perception_check()]),
            text("Wind howls. What do you do?"),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look around."))
        .await
        .unwrap();
    let defaults = OutputCaps::default();
    let sent: Vec<Option<u32>> = provider.requests().iter().map(|r| r.max_tokens).collect();
    assert_eq!(
        sent,
        vec![
            Some(defaults.narration),
            Some(defaults.narration),
            Some(defaults.actions)
        ]
    );
    assert_eq!(
        caps_sent(&outcome),
        vec![
            ("narrative".to_owned(), Some(defaults.narration)),
            ("narrative".to_owned(), Some(defaults.narration)),
            ("actions".to_owned(), Some(defaults.actions)),
        ]
    );
    // Nothing was cut: no note says so.
    assert_eq!(outcome.replies_cut(), 0);
    assert!(notes(&outcome).iter().all(|n| !n.contains("output cap")));

    // The builder's caps are the ones sent.
    let provider = Arc::new(ScriptedProvider::new(vec![
        text("Snow falls."),
        text(ACTIONS),
    ]));
    let gm = GameMaster::builder(provider.clone(), gm.store().clone())
        .suggestions(crate::gm::Suggestions::Model)
        .output_caps(OutputCaps {
            narration: 120,
            actions: 90,
            ..OutputCaps::default()
        })
        .build();
    assert_eq!(gm.output_caps().narration, 120);
    gm.turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    let sent: Vec<Option<u32>> = provider.requests().iter().map(|r| r.max_tokens).collect();
    assert_eq!(sent, vec![Some(120), Some(90)]);
}

#[tokio::test]
async fn a_cut_narration_ends_at_its_last_full_sentence_in_the_outcome_and_the_history() {
    let (provider, store, gm, id) = table(
        vec![
            cut("The bridge sways. Ice cracks under your boots. A shape moves in the mi"),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I cross."))
        .await
        .unwrap();
    assert_eq!(
        outcome.narration,
        "The bridge sways. Ice cracks under your boots."
    );
    assert_eq!(outcome.replies_cut(), 1);
    assert!(
        notes(&outcome)
            .iter()
            .any(|n| n.contains("narrative answer was cut at the output cap of 400 tokens")),
        "{:?}",
        notes(&outcome)
    );
    // The action phase saw the cut narration, and so will the next turn.
    let actions_request = provider.requests().pop().unwrap();
    assert!(
        actions_request
            .messages
            .iter()
            .any(|m| { m.text() == Some("The bridge sways. Ice cracks under your boots.") })
    );
    let history = store.history(&id, Page::first(1)).await.unwrap();
    let said: Vec<_> = history[0]
        .record
        .llm_messages
        .iter()
        .filter_map(|m| m.text())
        .collect();
    assert!(said.contains(&"The bridge sways. Ice cracks under your boots."));
    assert!(!said.iter().any(|t| t.contains("mi")));
}

#[tokio::test]
async fn a_cut_narration_without_a_full_sentence_keeps_its_words_and_an_ellipsis() {
    let (_p, _s, gm, id) = table(
        vec![cut("The goblin raises its rusty sc"), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I wait."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "The goblin raises its rusty…");
}

#[tokio::test]
async fn a_narration_cut_before_any_word_is_asked_again_once_with_a_larger_cap() {
    let (provider, _s, gm, id) = table(
        vec![
            cut(""),
            cut("The wind drops. You hear a voi"),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I wait."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "The wind drops.");
    let narration = OutputCaps::default().narration;
    let sent: Vec<Option<u32>> = provider.requests().iter().map(|r| r.max_tokens).collect();
    assert_eq!(
        sent[..2],
        [Some(narration), Some(OutputCaps::retry(narration))]
    );
    assert!(
        notes(&outcome)
            .iter()
            .any(|n| n.contains("it had no words yet"))
    );
    assert_eq!(outcome.replies_cut(), 2);

    // Empty twice: asked again only once; the turn goes on with no narration, as before.
    let (provider, _s, gm, id) =
        table(vec![cut(""), cut(""), text(ACTIONS)], Protocol::TwoPhase).await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I wait."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "");
    assert_eq!(provider.requests().len(), 3);
}

#[tokio::test]
async fn a_streamed_cut_narration_shows_what_is_kept() {
    let (_p, _s, gm, id) = table(
        vec![
            cut("The ice groans. Something stirs below, clawi"),
            text(ACTIONS),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let events: Vec<TurnEvent> = gm
        .turn_stream(&id, PlayerInput::new("Kraven", "Listen."))
        .collect()
        .await;
    let shown: String = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(shown.trim(), "The ice groans.");
    match events.last() {
        Some(TurnEvent::Done(outcome)) => {
            assert_eq!(outcome.as_ref().as_ref().unwrap().narration, shown.trim())
        }
        other => panic!("{other:?}"),
    }

    // With no full sentence before the cut, the words shown end with the ellipsis.
    let (_p, _s, gm, id) = table(
        vec![cut("Something stirs below, clawi"), text(ACTIONS)],
        Protocol::TwoPhase,
    )
    .await;
    let events: Vec<TurnEvent> = gm
        .turn_stream(&id, PlayerInput::new("Kraven", "Listen."))
        .collect()
        .await;
    assert!(matches!(&events[0], TurnEvent::Text(t) if t == "Something stirs below…"));
}

#[tokio::test]
async fn a_cut_action_list_is_asked_again_once_with_a_larger_cap() {
    let (provider, _s, gm, id) = table(
        vec![
            text("Snow falls."),
            cut(r#"{"actions": [{"id": "search-the-crev"#),
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
    let requests = provider.requests();
    let actions = OutputCaps::default().actions;
    assert_eq!(requests[1].max_tokens, Some(actions));
    assert_eq!(requests[2].max_tokens, Some(OutputCaps::retry(actions)));
    // The retry is told why, and is not sent the cut text back.
    let retry = &requests[2].messages;
    assert_eq!(
        retry.last().and_then(Message::text),
        Some(protocol_cut_again())
    );
    assert!(
        !retry
            .iter()
            .any(|m| m.text().is_some_and(|t| t.contains("search-the-crev")))
    );
    assert!(
        notes(&outcome)
            .iter()
            .any(|n| n.contains("actions answer was cut")
                && n.contains(&format!("asked again with {}", OutputCaps::retry(actions))))
    );

    // Cut twice: the turn goes on without suggestions, as after any second invalid answer.
    let (provider, _s, gm, id) = table(
        vec![
            text("Snow falls."),
            cut(r#"{"actions": [{"id""#),
            cut(r#"{"actions": [{"id": "a", "desc"#),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Wait."))
        .await
        .unwrap();
    assert!(outcome.suggested_actions.is_empty());
    assert_eq!(provider.requests().len(), 3, "one retry, no more");
    assert!(notes(&outcome).iter().any(|n| n.contains("without them")));
}

fn protocol_cut_again() -> &'static str {
    super::super::protocol::CUT_JSON_AGAIN
}

fn strict_provider(script: Vec<Result<CompletionResponse, LlmError>>) -> Arc<ScriptedProvider> {
    Arc::new(
        ScriptedProvider::new(script).with_capabilities(Capabilities {
            tool_calling: false,
            json_schema: true,
            ..Capabilities::default()
        }),
    )
}

#[tokio::test]
async fn a_cut_strict_answer_is_asked_again_and_a_cut_strict_narration_ends_cleanly() {
    let answer = json!({
        "narration": "You peer into the mist.",
        "out_of_character_notes": [],
        "actions": [{"tool": "roll_skill_check", "arguments": "{\"creature\":\"kraven\",\"skill\":\"perception\",\"dc\":12,\"advantage\":null,\"reason\":null}"}],
        "dice_rolls": [],
        "next_prompt_suggestion": null
    });
    // The narration's JSON is whole, but its text was cut: it ends at its last sentence.
    let told = json!({"narration": "Mist curls around you. Nothing moves in i"}).to_string();
    let provider = strict_provider(vec![
        cut(r#"{"narration": "You peer"#),
        text(&answer.to_string()),
        cut(r#"{"narration": "Mist cu"#),
        cut(&told),
    ]);
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .protocol(Protocol::StrictJson)
        .seed(7)
        .build();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "Mist curls around you.");
    let defaults = OutputCaps::default();
    let sent: Vec<Option<u32>> = provider.requests().iter().map(|r| r.max_tokens).collect();
    assert_eq!(
        sent,
        vec![
            Some(defaults.strict_answer),
            Some(OutputCaps::retry(defaults.strict_answer)),
            Some(defaults.strict_narration),
            Some(OutputCaps::retry(defaults.strict_narration)),
        ]
    );
    assert_eq!(outcome.rolls.len(), 1, "the answer's action ran once");
    let notes = notes(&outcome);
    for phase in ["strict_json", "strict_narration"] {
        assert!(
            notes
                .iter()
                .any(|n| n.contains(&format!("the {phase} answer was cut"))),
            "{phase}: {notes:?}"
        );
    }
}

#[tokio::test]
async fn a_cut_summary_ends_at_its_last_full_sentence() {
    let mut script = Vec::new();
    // Keep 2, fold 4: the 7th turn folds the first four.
    for _ in 0..6 {
        script.push(text("Snow falls."));
    }
    script.push(cut(
        "The hero crossed the glacier. A wolf followed at a dist",
    ));
    script.push(text("More snow."));
    let (provider, store, gm, id) = table(script, Protocol::ToolLoop).await;
    let gm = limited(gm, |limits| {
        limits.history_turns = 2;
        limits.summary_every = 4;
    });
    let mut last = None;
    for _ in 0..7 {
        last = Some(
            gm.turn(&id, PlayerInput::new("Kraven", "Walk."))
                .await
                .unwrap(),
        );
    }
    assert_eq!(
        provider.requests()[6].max_tokens,
        Some(OutputCaps::default().summary)
    );
    let state = store.load(&id).await.unwrap();
    assert_eq!(&*state.summary, "The hero crossed the glacier.");
    let last = last.unwrap();
    assert!(
        notes(&last)
            .iter()
            .any(|n| n.contains("summary answer was cut"))
    );
}
