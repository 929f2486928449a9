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
    for said in [
        "I look around.",
        "I attack the harpy.",
        "I attack the harpy.",
    ] {
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
    assert!(
        seen[4].contains("\"nonce\""),
        "the turns rolled fair dice: {}",
        seen[4]
    );
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

/// The README's Python verifier, exactly as written there.
fn readme_verifier() -> String {
    let readme = include_str!("../../../README.md");
    let section = &readme[readme
        .find("## Provably fair dice")
        .expect("the README section")..];
    let start = section.find("```python\n").expect("a python block") + "```python\n".len();
    let end = section[start..].find("```").expect("the block ends") + start;
    section[start..end].to_owned()
}

/// Runs the README's verifier on `log`: its exit success and its output.
fn run_python(dir: &std::path::Path, log: &Value) -> Option<(bool, String)> {
    let script = dir.join("verify.py");
    let path = dir.join("log.json");
    std::fs::write(&script, readme_verifier()).unwrap();
    std::fs::write(&path, serde_json::to_vec(log).unwrap()).unwrap();
    let output = std::process::Command::new("python3")
        .arg(&script)
        .arg(&path)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    Some((output.status.success(), text))
}

#[tokio::test]
async fn the_readmes_python_verifier_passes_a_real_log_and_fails_a_tampered_one() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let fair = format!("/api/campaigns/{id}/fair");
    assert_eq!(server.post(&fair, &token, json!({})).await.status(), 201);
    for said in [
        "I look around.",
        "I attack the harpy.",
        "I attack the harpy.",
    ] {
        server.turn(&id, &token, said).await;
    }
    // A second seed, for a log that spans a reveal.
    let revealed = server
        .post(&format!("{fair}/reveal"), &token, json!({}))
        .await;
    assert!(revealed.status().is_success());
    server.turn(&id, &token, "I attack the harpy.").await;
    let revealed = server
        .post(&format!("{fair}/reveal"), &token, json!({"then": "off"}))
        .await;
    assert!(revealed.status().is_success());
    let log: Value = server
        .get(&format!("{fair}/log"), &token)
        .await
        .json()
        .await
        .unwrap();
    assert!(!log["rolls"].as_array().unwrap().is_empty(), "{log}");
    assert_eq!(log["seeds"].as_array().unwrap().len(), 2);

    let dir = tempfile::tempdir().unwrap();
    let Some((ok, out)) = run_python(dir.path(), &log) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is needed in CI to run the README's verifier"
        );
        eprintln!("skipped: python3 is not installed, so the README's verifier cannot run");
        return;
    };
    assert!(ok, "{out}");
    assert!(out.contains("every revealed roll verified"), "{out}");

    let roll = log["rolls"].as_array().unwrap().last().unwrap().clone();
    let mut die = log.clone();
    let last = die["rolls"].as_array().unwrap().len() - 1;
    let face = &mut die["rolls"][last]["dice"][0]["face"];
    let sides = roll["dice"][0]["sides"].as_u64().unwrap();
    *face = json!(face.as_u64().unwrap() % sides + 1);
    let (ok, out) = run_python(dir.path(), &die).unwrap();
    assert!(!ok, "{out}");
    let named = format!(
        "FAILED: turn {}, nonce {}: {}",
        roll["turn"],
        roll["nonce"],
        roll["label"].as_str().unwrap()
    );
    assert!(out.contains(&named), "{out}");

    let mut seed = log.clone();
    let hex = seed["seeds"][0]["server_seed"].as_str().unwrap().to_owned();
    let flipped = if hex.starts_with('0') { "1" } else { "0" };
    seed["seeds"][0]["server_seed"] = json!(format!("{flipped}{}", &hex[1..]));
    let (ok, out) = run_python(dir.path(), &seed).unwrap();
    assert!(!ok && out.contains("FAILED: turn "), "{out}");

    let mut nonce = log.clone();
    let n = nonce["rolls"][0]["nonce"].as_u64().unwrap();
    nonce["rolls"][0]["nonce"] = json!(n + 1);
    let (ok, out) = run_python(dir.path(), &nonce).unwrap();
    assert!(!ok && out.contains("FAILED: turn "), "{out}");
}
