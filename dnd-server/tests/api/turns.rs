//! Playing: streamed turns, suggested actions, the voice design's request, one turn at a time,
//! whose turn in a fight, a failed turn writing nothing, campaigns in parallel, and a second
//! seat watching live.

use std::sync::Arc;
use std::time::Duration;

use dnd_engine::state::{Change, InitiativeSlot};
use dnd_engine::store::{CampaignId, GameStore, TurnRecord};
use futures::StreamExt;
use serde_json::{Value, json};

use crate::support::{Sse, TestServer, error_code, events, parse};

fn names(events: &[Sse]) -> Vec<&str> {
    events.iter().map(|e| e.event.as_str()).collect()
}

#[tokio::test]
async fn a_turn_streams_its_narration_then_its_outcome() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let events = server.turn(&id, &token, "I look around.").await;
    let kinds = names(&events);
    assert!(kinds.contains(&"narration"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"outcome"), "{kinds:?}");
    let narrated: String = events
        .iter()
        .filter(|e| e.event == "narration")
        .map(|e| e.data["text"].as_str().unwrap())
        .collect();
    assert!(!narrated.trim().is_empty());
    let outcome = &events.last().unwrap().data;
    assert_eq!(outcome["turn"], 1);
    let view = &outcome["view"];
    assert_eq!(view["turn"], 1);
    let log = view["log"].as_array().unwrap();
    assert_eq!(log[0]["text"], "I look around.");
    assert!(log[0]["speaker"].as_str().unwrap().contains("Kraven"));
    assert_eq!(log[1]["speaker"], "gm");
    assert!(
        !view["suggestions"].as_array().unwrap().is_empty(),
        "{view}"
    );
    // The store holds exactly that one turn.
    let state = server.store.load(&CampaignId(id.clone())).await.unwrap();
    assert_eq!(state.turn, 1);
}

#[tokio::test]
async fn the_voice_designs_request_plays_a_turn_as_the_seats_hero() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let body = json!({
        "session_id": "kitchen-table",
        "active_speaker": "kraven",
        "utterance": "I search the ice.",
        "timestamp": "2026-11-25T08:00:00Z"
    });
    let response = server
        .post(&format!("/api/campaigns/{id}/turns"), &token, body.clone())
        .await;
    let events = events(response).await;
    assert_eq!(events.last().unwrap().event, "outcome");
    assert_eq!(
        events.last().unwrap().data["view"]["log"][0]["text"],
        "I search the ice."
    );
    let mut other = body;
    other["active_speaker"] = json!("Isolde");
    let response = server
        .post(&format!("/api/campaigns/{id}/turns"), &token, other)
        .await;
    assert_eq!(error_code(response, 403).await, "wrong_speaker");
}

#[tokio::test]
async fn a_suggested_action_is_rolled_by_the_engine_then_narrated() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let none = server
        .post(
            &format!("/api/campaigns/{id}/actions"),
            &token,
            json!({"index": 1}),
        )
        .await;
    assert_eq!(error_code(none, 422).await, "no_such_action");
    // Play until a suggestion the engine rolls is offered (the first turn's usually is).
    let mut rolled = None;
    for text in [
        "I look around.",
        "I search the room.",
        "I listen at the walls.",
    ] {
        let events = server.turn(&id, &token, text).await;
        let view = &events.last().unwrap().data["view"];
        if let Some(s) = view["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["rolled"] == true)
        {
            rolled = Some((
                s["index"].as_u64().unwrap(),
                view["rolls"].as_array().unwrap().len(),
            ));
            break;
        }
    }
    let (index, rolls_before) = rolled.expect("a suggestion with a roll");
    let response = server
        .post(
            &format!("/api/campaigns/{id}/actions"),
            &token,
            json!({"index": index}),
        )
        .await;
    let events = events(response).await;
    let kinds = names(&events);
    let call = kinds
        .iter()
        .position(|k| *k == "tool_call")
        .expect("the engine's roll");
    assert_eq!(kinds[call + 1], "tool_result", "{kinds:?}");
    assert_eq!(events[call].data["id"], events[call + 1].data["id"]);
    assert_eq!(kinds.last(), Some(&"outcome"));
    let view = &events.last().unwrap().data["view"];
    assert!(
        view["rolls"].as_array().unwrap().len() > rolls_before,
        "the roll is in the panel: {}",
        view["rolls"]
    );
    let unknown = server
        .post(
            &format!("/api/campaigns/{id}/actions"),
            &token,
            json!({"index": 99}),
        )
        .await;
    assert_eq!(error_code(unknown, 422).await, "no_such_action");
}

#[tokio::test]
async fn a_second_turn_while_one_runs_is_409_and_never_interleaved() {
    let server = TestServer::start(dnd_server::Config {
        provider: dnd_table::provider::ProviderOptions {
            provider: dnd_table::provider::ProviderChoice::Offline,
            delay_ms: 300,
            ..Default::default()
        },
        ..dnd_server::Config::default()
    })
    .await;
    let (id, token) = server.kraven().await;
    let first = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &token,
            json!({"text": "I wait."}),
        )
        .await;
    assert_eq!(first.status(), 200);
    let second = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &token,
            json!({"text": "I run."}),
        )
        .await;
    assert_eq!(error_code(second, 409).await, "turn_in_progress");
    let undo = server
        .post(&format!("/api/campaigns/{id}/undo"), &token, json!({}))
        .await;
    assert_eq!(error_code(undo, 409).await, "turn_in_progress");
    let events = events(first).await;
    assert_eq!(events.last().unwrap().event, "outcome");
    // Only the first turn was played; now the next may be.
    let view = server.view(&id, &token).await;
    assert_eq!(view["turn"], 1);
    assert_eq!(view["log"].as_array().unwrap().len(), 2);
    server.turn(&id, &token, "I run.").await;
}

#[tokio::test]
async fn in_a_fight_only_the_hero_whose_turn_it_is_acts() {
    let server = TestServer::offline().await;
    let (id, tokens, created) = server.create(json!({"heroes": ["kraven", "isolde"]})).await;
    let isolde = created["seats"][1]["hero"].as_str().unwrap().to_owned();
    // A fight in which Isolde acts first, written to the store as a turn would.
    let order = vec![
        InitiativeSlot {
            id: "isolde".into(),
            initiative: 18,
            speed: 30,
        },
        InitiativeSlot {
            id: "kraven".into(),
            initiative: 9,
            speed: 30,
        },
    ];
    let record = TurnRecord {
        input: "A fight begins.".into(),
        changes: vec![Change::EncounterStarted { order }],
        ..TurnRecord::default()
    };
    let campaign = CampaignId(id.clone());
    server.store.commit_turn(&campaign, record).await.unwrap();
    let view = server.view(&id, &tokens[0]).await;
    assert_eq!(view["whose_turn"], isolde.as_str());
    assert_eq!(view["combat"]["order"][0]["current"], true);
    let refused = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &tokens[0],
            json!({"text": "I swing."}),
        )
        .await;
    assert_eq!(refused.status(), 409);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "not_your_turn");
    assert_eq!(body["error"]["whose_turn"], isolde.as_str());
    assert!(
        body["error"]["message"].as_str().unwrap().contains(&isolde),
        "{body}"
    );
    assert_eq!(server.store.load(&campaign).await.unwrap().turn, 1);
    // Isolde may.
    let events = server.turn(&id, &tokens[1], "I raise my shield.").await;
    assert!(matches!(
        events.last().unwrap().event.as_str(),
        "outcome" | "error"
    ));
}

#[tokio::test]
async fn a_failed_turn_writes_nothing() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    server.turn(&id, &token, "I look around.").await;
    let campaign = CampaignId(id.clone());
    let before = server.store.load(&campaign).await.unwrap();
    let view_before = server.view(&id, &token).await;
    // Under the server's 2,000 characters but over the engine's 2,000 bytes: the game master
    // refuses it after the turn has started.
    let text = "é".repeat(1_500);
    let events = server.turn(&id, &token, &text).await;
    let last = events.last().unwrap();
    assert_eq!(last.event, "error", "{:?}", names(&events));
    assert_eq!(last.data["code"], "bad_input");
    assert!(
        last.data["message"]
            .as_str()
            .unwrap()
            .contains("nothing was saved")
    );
    let after = server.store.load(&campaign).await.unwrap();
    assert_eq!(after, before, "the state is as it was");
    assert_eq!(server.view(&id, &token).await, view_before);
}

#[tokio::test]
async fn campaigns_play_in_parallel() {
    let server = Arc::new(TestServer::offline().await);
    let mut campaigns = Vec::new();
    for _ in 0..4 {
        campaigns.push(server.kraven().await);
    }
    let plays = campaigns.iter().cloned().map(|(id, token)| {
        let server = Arc::clone(&server);
        tokio::spawn(async move {
            for text in ["I look around.", "I listen.", "I search."] {
                let events = server.turn(&id, &token, text).await;
                assert_eq!(events.last().unwrap().event, "outcome");
            }
        })
    });
    for play in futures::future::join_all(plays).await {
        play.unwrap();
    }
    for (id, _) in &campaigns {
        let state = server.store.load(&CampaignId(id.clone())).await.unwrap();
        assert_eq!(state.turn, 3, "no turn lost or doubled in {id}");
    }
}

#[tokio::test]
async fn a_second_seat_sees_the_first_seats_turn_live() {
    let server = TestServer::offline().await;
    let (id, tokens, created) = server.create(json!({"heroes": ["kraven", "isolde"]})).await;
    let watching = server
        .get(&format!("/api/campaigns/{id}/events"), &tokens[1])
        .await;
    assert_eq!(watching.status(), 200);
    let mut stream = watching.bytes_stream();
    let played = server.turn(&id, &tokens[0], "I look around.").await;
    assert_eq!(played.last().unwrap().event, "outcome");
    // Read the watcher's stream until the turn's view arrives.
    let mut text = String::new();
    let seen = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(chunk) = stream.next().await {
            text.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            if parse(&text).iter().any(|e| e.event == "view") {
                return;
            }
        }
    })
    .await;
    assert!(seen.is_ok(), "no view on the second seat's stream: {text}");
    let events = parse(&text);
    let kinds = names(&events);
    assert_eq!(kinds[0], "turn_started", "{kinds:?}");
    assert_eq!(events[0].data["text"], "I look around.");
    assert!(kinds.contains(&"narration"), "{kinds:?}");
    let view = &events.iter().find(|e| e.event == "view").unwrap().data;
    assert_eq!(view["turn"], 1);
    assert_eq!(
        view["seat"]["hero"], created["seats"][1]["hero"],
        "the watcher's own seat"
    );
}

#[tokio::test]
async fn a_suggestion_is_taken_only_by_the_hero_it_was_made_for() {
    let server = TestServer::offline().await;
    let (id, tokens, created) = server.create(json!({"heroes": ["kraven", "isolde"]})).await;
    let events = server.turn(&id, &tokens[0], "I look around.").await;
    let view = &events.last().unwrap().data["view"];
    let first = &view["suggestions"][0];
    assert_eq!(first["for"], created["seats"][0]["hero"]);
    let taken = server
        .post(
            &format!("/api/campaigns/{id}/actions"),
            &tokens[1],
            json!({"index": 1}),
        )
        .await;
    assert_eq!(error_code(taken, 409).await, "not_your_action");
    assert_eq!(server.view(&id, &tokens[1]).await["turn"], 1);
}

#[tokio::test]
async fn an_ai_companion_takes_its_turn_in_a_fight() {
    let server = TestServer::offline().await;
    let (id, tokens, created) = server
        .create(json!({"heroes": ["kraven"], "companions": true}))
        .await;
    let seats = created["view"]["seats"].as_array().unwrap();
    let isolde = seats.iter().find(|s| s["hero_id"] == "isolde").unwrap();
    assert_eq!(isolde["ai"], true);
    // A fight: Kraven, then Isolde (an AI companion), then the harpy.
    let slot = |id: &str, initiative| InitiativeSlot {
        id: id.into(),
        initiative,
        speed: 30,
    };
    let record = TurnRecord {
        input: "A fight begins.".into(),
        changes: vec![Change::EncounterStarted {
            order: vec![
                slot("kraven", 20),
                slot("isolde", 15),
                slot("frost-harpy", 5),
            ],
        }],
        ..TurnRecord::default()
    };
    let campaign = CampaignId(id.clone());
    server.store.commit_turn(&campaign, record).await.unwrap();
    let watching = server
        .get(&format!("/api/campaigns/{id}/events"), &tokens[0])
        .await;
    let mut stream = watching.bytes_stream();
    let played = server
        .turn(&id, &tokens[0], "I attack the Frost Harpy.")
        .await;
    assert_eq!(played.last().unwrap().event, "outcome");
    let mut text = String::new();
    let companion_played = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(chunk) = stream.next().await {
            text.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            let events = parse(&text);
            if let Some(at) = events
                .iter()
                .position(|e| e.event == "turn_started" && e.data["ai"] == true)
                && events[at..].iter().any(|e| e.event == "view")
            {
                return events[at].data["hero"].clone();
            }
        }
        Value::Null
    })
    .await;
    assert_eq!(
        companion_played.ok(),
        Some(isolde["hero"].clone()),
        "Isolde's turn was played by her AI companion: {text}"
    );
    // Her turn is in the store beside Kraven's, and the next human turn may be played.
    let log = server.view(&id, &tokens[0]).await["log"].clone();
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|line| line["speaker"] == isolde["hero"]),
        "{log}"
    );
}
