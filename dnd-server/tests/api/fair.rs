//! Provably fair dice over HTTP: opting in publishes a commitment before any roll, turns roll
//! from the seed, no answer holds the seed before its reveal, and the campaign's log (or a
//! posted one) verifies, while a tampered one fails and names the roll.

use dnd_engine::store::{CampaignId, GameStore};
use serde_json::{Value, json};

use crate::support::{TestServer, error_code};

async fn text(response: reqwest::Response) -> String {
    assert!(response.status().is_success(), "{}", response.status());
    response.text().await.unwrap()
}

#[tokio::test]
async fn a_fair_campaign_publishes_its_commitment_hides_its_seed_and_verifies() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let fair = format!("/api/campaigns/{id}/fair");

    let bad = server
        .post(&fair, &token, json!({"client_seed": "not:this"}))
        .await;
    assert_eq!(error_code(bad, 409).await, "fair_refused");
    let on = server
        .post(&fair, &token, json!({"client_seed": "my-table"}))
        .await;
    assert_eq!(on.status(), 201);
    let on: Value = on.json().await.unwrap();
    let commitment = on["commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);
    assert_eq!(on["client_seed"], "my-table");
    let again = server.post(&fair, &token, json!({})).await;
    assert_eq!(error_code(again, 409).await, "fair_refused");

    let mut seen = Vec::new();
    for said in ["I look around.", "I attack the harpy.", "I attack the harpy."] {
        let events = server.turn(&id, &token, said).await;
        seen.push(
            events
                .iter()
                .map(|e| e.data.to_string())
                .collect::<String>(),
        );
    }
    let secret = {
        let state = server.store.load(&CampaignId(id.clone())).await.unwrap();
        state.fair.current.as_ref().unwrap().seed.reveal()
    };
    seen.push(text(server.get(&fair, &token).await).await);
    seen.push(text(server.get(&format!("{fair}/log"), &token).await).await);
    seen.push(text(server.get(&format!("{fair}/verify"), &token).await).await);
    seen.push(text(server.get(&format!("/api/campaigns/{id}"), &token).await).await);
    seen.push(text(server.get("/api/campaigns", &token).await).await);
    for answer in &seen {
        assert!(!answer.contains(&secret), "the seed leaked: {answer:.300}");
    }
    assert!(seen[4].contains("\"nonce\""), "the turns rolled fair dice: {}", seen[4]);
    let report: Value =
        serde_json::from_str(&text(server.get(&format!("{fair}/verify"), &token).await).await)
            .unwrap();
    assert_eq!(report["verified"], 0);
    assert!(report["unrevealed"].as_u64().unwrap() > 0, "{report}");

    let revealed: Value = server
        .post(&format!("{fair}/reveal"), &token, json!({"then": "off"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(revealed["on"], false);
    assert_eq!(revealed["revealed"][0]["server_seed"], secret.as_str());
    assert_eq!(revealed["revealed"][0]["commitment"], commitment.as_str());
    let undo = server
        .post(&format!("/api/campaigns/{id}/undo"), &token, json!({}))
        .await;
    assert_eq!(error_code(undo, 409).await, "fair_refused");

    let report: Value = server
        .get(&format!("{fair}/verify"), &token)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(report["failures"], json!([]), "{report}");
    let verified = report["verified"].as_u64().unwrap();
    assert!(verified > 0, "{report}");

    // Anyone may verify a posted log; a changed die fails and names its roll.
    let mut log: Value = server
        .get(&format!("{fair}/log"), &token)
        .await
        .json()
        .await
        .unwrap();
    let posted: Value = server
        .http
        .post(server.url("/api/fair/verify"))
        .json(&log)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(posted["verified"].as_u64(), Some(verified));
    let roll = log["rolls"][0].clone();
    let face = roll["dice"][0]["face"].as_u64().unwrap();
    let sides = roll["dice"][0]["sides"].as_u64().unwrap();
    log["rolls"][0]["dice"][0]["face"] = json!(face % sides + 1);
    let tampered: Value = server
        .http
        .post(server.url("/api/fair/verify"))
        .json(&log)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let failure = &tampered["failures"][0];
    assert_eq!(failure["label"], roll["label"], "{tampered}");
    assert_eq!(failure["nonce"], roll["nonce"], "{tampered}");
    assert_eq!(failure["turn"], roll["turn"], "{tampered}");
    let wrong = server
        .http
        .post(server.url("/api/fair/verify"))
        .json(&json!({"format": "other", "seeds": [], "commits": [], "rolls": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(error_code(wrong, 400).await, "bad_request");
}
