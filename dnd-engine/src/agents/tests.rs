use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::adventure::Adventure;
use crate::gm::Protocol;
use crate::llm::{CompletionResponse, Role, ScriptedProvider};
use crate::store::{GameStore, MemoryStore};

fn sample_log() -> SharedLog {
    let mut log = SharedLog::default();
    log.push(LogEntry::System {
        to: None,
        text: "The table is set.".into(),
    });
    log.push(LogEntry::System {
        to: Some("gm".into()),
        text: "Secret: the harpy has 30 HP.".into(),
    });
    log.push(LogEntry::Said {
        from: "Kraven".into(),
        text: "I attack the harpy.".into(),
    });
    log.push(LogEntry::ToolCalls {
        from: "gm".into(),
        calls: vec![ToolCall::new("c1", "roll_attack", json!({}))],
    });
    log.push(LogEntry::ToolResult {
        from: "gm".into(),
        call_id: "c1".into(),
        content: "{\"hit\":true}".into(),
        summary: "Kraven attacked the harpy: 17 hits, 8 damage".into(),
    });
    log.push(LogEntry::Said {
        from: "gm".into(),
        text: "Your blade bites.".into(),
    });
    log
}

#[test]
fn each_agent_sees_its_own_view() {
    let log = sample_log();
    let gm = log.view_for("gm");
    let roles: Vec<Role> = gm.iter().map(Message::role).collect();
    assert_eq!(
        roles,
        [
            Role::System,
            Role::System,
            Role::User,
            Role::Assistant,
            Role::Tool,
            Role::Assistant
        ]
    );
    assert_eq!(gm[2].text(), Some("Kraven: I attack the harpy."));
    let kraven = log.view_for("Kraven");
    let texts: Vec<Option<&str>> = kraven.iter().map(Message::text).collect();
    assert_eq!(
        texts,
        [
            Some("The table is set."),
            Some("I attack the harpy."),
            Some("Kraven attacked the harpy: 17 hits, 8 damage"),
            Some("gm: Your blade bites.")
        ]
    );
    assert_eq!(kraven[1].role(), Role::Assistant);
    assert!(
        !kraven
            .iter()
            .any(|m| m.text().is_some_and(|t| t.contains("30 HP"))),
        "another agent's context leaked"
    );
}

#[tokio::test]
async fn an_ai_player_plays_and_retries_refused_inputs() {
    let store = Arc::new(MemoryStore::new());
    let id = store
        .create_campaign("g", &Adventure::built_in().new_game(&["kraven"]).unwrap())
        .await
        .unwrap();
    let gm_model = Arc::new(ScriptedProvider::new(vec![Ok(
        CompletionResponse::from_text("The bridge creaks under you."),
    )]));
    let gm = GameMaster::builder(gm_model.clone(), store)
        .protocol(Protocol::ToolLoop)
        .seed(1)
        .build();
    // The player first says nothing (refused: empty input), then picks a suggested action by id.
    let player_model = Arc::new(ScriptedProvider::new(vec![
        Ok(CompletionResponse::from_text("  ")),
        Ok(CompletionResponse::from_text("cross")),
    ]));
    let mut player = AiPlayer::new("Kraven", player_model.clone());
    let mut log = SharedLog::default();
    let last = TurnOutcome {
        turn: 0,
        narration: "You stand at the chasm.".into(),
        rolls: vec![],
        changes: vec![],
        events: vec![],
        suggested_actions: vec![crate::gm::SuggestedAction {
            id: "cross".into(),
            description: "Cross the ice bridge".into(),
            dice: None,
            dc: None,
            reason: None,
            chance: None,
            expected_damage: None,
            mechanic: None,
        }],
        notes: vec![],
        usage: Usage::default(),
        trace: vec![],
    };
    let outcome = player
        .play_turn(&mut log, &gm, &id, Some(&last))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "The bridge creaks under you.");
    let sent = gm_model.requests();
    assert!(sent[0].messages.last().unwrap().text() == Some("Cross the ice bridge"));
    let second = &player_model.requests()[1];
    assert!(
        second
            .messages
            .iter()
            .any(|m| m.text().is_some_and(|t| t.contains("That was refused")))
    );
    assert_eq!(player.agent.calls.len(), 2);

    // A player that is always refused gives up with the last error.
    let stubborn = Arc::new(ScriptedProvider::looping(vec![
        CompletionResponse::from_text(""),
    ]));
    let mut player = AiPlayer::new("Kraven", stubborn);
    let err = player
        .play_turn(&mut SharedLog::default(), &gm, &id, None)
        .await
        .unwrap_err();
    assert!(matches!(err, AgentError::Refused { tries: 3, .. }), "{err}");
}

#[tokio::test]
async fn a_refusal_for_context_length_is_tried_once_with_the_oldest_messages_cut() {
    let too_long = || {
        Err(LlmError::context_length(
            Some(400),
            "maximum context length",
        ))
    };
    let model = Arc::new(ScriptedProvider::new(vec![
        too_long(),
        Ok(CompletionResponse::from_text("I walk on.")),
        too_long(),
        too_long(),
    ]));
    let mut agent = Agent::new("Kraven", "Play Kraven.", model.clone());
    let mut log = SharedLog::default();
    for turn in 0..6 {
        log.push(LogEntry::Said {
            from: "gm".into(),
            text: format!("Turn {turn}: ") + &"The ice groans. ".repeat(100),
        });
        log.push(LogEntry::Said {
            from: "Kraven".into(),
            text: "I walk on.".into(),
        });
    }
    log.push(LogEntry::Said {
        from: "gm".into(),
        text: "A harpy shrieks above you.".into(),
    });
    assert_eq!(agent.speak(&mut log).await.unwrap(), "I walk on.");
    let requests = model.requests();
    let (refused, retried) = (&requests[0], &requests[1]);
    assert!(
        crate::llm::window::request_tokens(retried)
            <= crate::llm::window::request_tokens(refused) * 3 / 4
    );
    assert_eq!(
        retried.messages[0], refused.messages[0],
        "the system prompt stays"
    );
    assert_eq!(
        retried.messages.last(),
        refused.messages.last(),
        "the latest stays"
    );
    assert_eq!(agent.calls.len(), 2);
    assert!(agent.calls[0].error.is_some());
    // Refused twice: the error comes back, and nothing is added to the log.
    let entries = log.entries.len();
    let error = agent.speak(&mut log).await.unwrap_err();
    assert!(matches!(error, LlmError::ContextLength { .. }), "{error}");
    assert_eq!(log.entries.len(), entries);
    assert_eq!(model.requests().len(), 4, "one retry, no more");
}

#[tokio::test]
async fn a_player_line_is_capped_and_a_cut_one_ends_at_its_last_full_sentence() {
    use crate::llm::FinishReason;
    let provider = Arc::new(ScriptedProvider::new(vec![
        Ok(CompletionResponse::from_text("I draw my sword.")),
        Ok(
            CompletionResponse::from_text("I climb the wall. Then I look for the way ou")
                .with_finish_reason(FinishReason::Length),
        ),
    ]));
    let mut agent = Agent::new("Kraven", AI_PLAYER_PROMPT, provider.clone());
    let mut log = sample_log();
    assert_eq!(agent.speak(&mut log).await.unwrap(), "I draw my sword.");
    let mut agent = agent.with_max_tokens(40);
    assert_eq!(agent.speak(&mut log).await.unwrap(), "I climb the wall.");
    let caps: Vec<Option<u32>> = provider.requests().iter().map(|r| r.max_tokens).collect();
    assert_eq!(
        caps,
        vec![Some(crate::gm::OutputCaps::default().player_line), Some(40)]
    );
    let cut: Vec<(u32, bool)> = agent.calls.iter().map(|c| (c.max_tokens, c.cut)).collect();
    assert_eq!(cut, vec![(80, false), (40, true)]);
    // The log holds the line as kept.
    assert!(
        matches!(log.entries.last(), Some(LogEntry::Said { text, .. }) if text == "I climb the wall.")
    );
}
