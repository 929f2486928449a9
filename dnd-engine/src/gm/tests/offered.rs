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
