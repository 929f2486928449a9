//! Suggested actions: odds from the engine's own numbers, and a picked action rolled by the
//! engine before the model narrates, exactly as it was offered.

use serde_json::json;

use super::{table, text};
use crate::gm::*;
use crate::llm::ToolCall;
use crate::store::{GameStore, Page};

/// Suggestions whose first one is a perception check at DC 15, with odds the model made up in
/// its reason: the engine ignores them.
fn check_offered() -> String {
    let arguments = json!({"creature": "kraven", "skill": "perception", "dc": 15, "advantage": null, "reason": "the spire"});
    json!({"actions": [
        {"id": "scan-spire", "description": "Scan the spire", "reason": "95% to succeed, trust me",
         "mechanic": {"tool": "roll_skill_check", "arguments": arguments.to_string()}},
        {"id": "wait", "description": "Wait", "reason": null, "mechanic": null},
        {"id": "bogus", "description": "Do something odd", "reason": null,
         "mechanic": {"tool": "roll_skill_check", "arguments": "not json"}}
    ]})
    .to_string()
}

#[tokio::test]
async fn odds_come_from_the_sheet_and_the_dc() {
    let (_p, store, gm, id) = table(
        vec![text("The harpy circles."), text(&check_offered())],
        Protocol::TwoPhase,
    )
    .await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I look up."))
        .await
        .unwrap();
    let state = store.load(&id).await.unwrap();
    let modifier = state
        .character("kraven")
        .unwrap()
        .skill_modifier(crate::rules::Skill::Perception);
    // d20 + modifier meets 15 on 15 - modifier or more.
    let faces = (1..=20).filter(|f| f + modifier >= 15).count();
    let check = &outcome.suggested_actions[0];
    assert_eq!(check.chance, Some(faces as f64 / 20.0), "{check:?}");
    assert_eq!(check.dc, Some(15));
    assert_eq!(
        check.dice.as_deref(),
        Some(format!("1d20+{modifier}").as_str())
    );
    // No mechanic, or one that cannot be read: no odds, and nothing to roll.
    assert_eq!(outcome.suggested_actions[1].chance, None);
    assert_eq!(outcome.suggested_actions[2].chance, None);
    assert_eq!(outcome.suggested_actions[2].mechanic, None);
    // The offered mechanics are kept with the turn.
    let history = store.history(&id, Page::first(1)).await.unwrap();
    let offered: Vec<&str> = history[0]
        .record
        .choices
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(offered, ["scan-spire"]);
}

#[tokio::test]
async fn a_picked_action_is_rolled_before_the_model_is_asked() {
    let (provider, store, gm, id) = table(
        vec![
            text("The harpy circles."),
            text(&check_offered()),
            // Turn 2: the model only narrates what the engine already rolled.
            text("Your blade sings."),
            text(&check_offered()),
        ],
        Protocol::TwoPhase,
    )
    .await;
    let first = gm
        .turn(&id, PlayerInput::new("Kraven", "I look up."))
        .await
        .unwrap();
    let picked = PlayerInput::choose("Kraven", &first.suggested_actions[0]);
    assert_eq!(picked.chosen.as_deref(), Some("scan-spire"));
    let second = gm.turn(&id, picked).await.unwrap();
    assert!(!second.rolls.is_empty(), "the engine rolled the check");
    assert_eq!(second.rolls[0].label, "Kraven Perception check");
    // The model's first request of the turn already holds the attack and its result.
    let requests = provider.requests();
    let asked = &requests[2];
    let rolled: Vec<&ToolCall> = asked.messages.iter().flat_map(|m| m.tool_calls()).collect();
    assert!(
        rolled
            .iter()
            .any(|c| c.id == "chosen-scan-spire" && c.name == "roll_skill_check")
    );
    assert!(matches!(
        asked.messages.last(),
        Some(Message::Tool { tool_call_id, content }) if tool_call_id == "chosen-scan-spire" && content.contains("\"dc\":15")
    ));
    assert!(second.trace.iter().any(
        |s| matches!(s, TraceStep::Note { text } if text.contains("chosen action was rolled first"))
    ));
    assert_eq!(store.load(&id).await.unwrap().turn, 2);
}

/// A caller cannot pick what the last turn did not offer, nor change how it is rolled: only
/// an id travels, and the mechanic comes from the stored turn.
#[tokio::test]
async fn a_pick_the_last_turn_did_not_offer_is_refused() {
    let (provider, store, gm, id) = table(
        vec![text("The harpy circles."), text(&check_offered())],
        Protocol::TwoPhase,
    )
    .await;
    gm.turn(&id, PlayerInput::new("Kraven", "I look up."))
        .await
        .unwrap();
    let asked = provider.requests().len();
    let huge = "x".repeat(1_000_000);
    for forged in ["scan-jarl", "wait", "bogus", huge.as_str()] {
        let input = PlayerInput {
            chosen: Some(forged.into()),
            ..PlayerInput::new("Kraven", "I win.")
        };
        match gm.turn(&id, input).await {
            Err(GmError::Input(why)) => {
                assert!(why.contains("scan-spire"), "{why}");
                assert!(
                    why.len() < 400,
                    "the refusal stays short: {} bytes",
                    why.len()
                );
            }
            other => panic!("{forged}: expected a refusal, got {other:?}"),
        }
    }
    assert_eq!(provider.requests().len(), asked, "the model was not asked");
    assert_eq!(
        store.load(&id).await.unwrap().turn,
        1,
        "nothing was written"
    );
    // Text that is not a pick rolls nothing first.
    let plain = PlayerInput::choose(
        "Kraven",
        &SuggestedAction {
            id: "wait".into(),
            description: "Wait".into(),
            dice: None,
            dc: None,
            reason: None,
            chance: None,
            expected_damage: None,
            mechanic: None,
        },
    );
    assert_eq!(plain.chosen, None);
}
