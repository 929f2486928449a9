//! Every error of the contract: its status and its stable code.

use serde_json::json;

use crate::support::{TestServer, error_code};

#[tokio::test]
async fn bad_json_is_400_with_serdes_message() {
    let server = TestServer::offline().await;
    let response = server
        .http
        .post(server.url("/api/campaigns"))
        .header("content-type", "application/json")
        .body("{\"heroes\": [kraven]}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_json");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("line 1"),
        "serde's message, with where: {body}"
    );
    // A field the endpoint does not take is refused by name.
    let response = server
        .http
        .post(server.url("/api/campaigns"))
        .json(&json!({"herös": ["kraven"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(error_code(response, 400).await, "bad_json");

    let (id, token) = server.kraven().await;
    let response = server
        .http
        .post(server.url(&format!("/api/campaigns/{id}/turns")))
        .bearer_auth(&token)
        .body("not json")
        .send()
        .await
        .unwrap();
    assert_eq!(error_code(response, 400).await, "bad_json");
}

#[tokio::test]
async fn a_campaign_needs_a_token_of_its_own_seats() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let (_other, other_token) = server.kraven().await;
    let path = format!("/api/campaigns/{id}");
    for (method, path) in [
        ("GET", path.clone()),
        ("DELETE", path.clone()),
        ("POST", format!("{path}/turns")),
        ("POST", format!("{path}/actions")),
        ("POST", format!("{path}/undo")),
        ("GET", format!("{path}/events")),
    ] {
        let request = |token: Option<&str>| {
            let mut request = server
                .http
                .request(method.parse().unwrap(), server.url(&path))
                .json(&json!({"text": "hello"}));
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            request
        };
        let missing = request(None).send().await.unwrap();
        assert_eq!(
            error_code(missing, 401).await,
            "missing_token",
            "{method} {path}"
        );
        let wrong = request(Some(&other_token)).send().await.unwrap();
        assert_eq!(
            error_code(wrong, 403).await,
            "wrong_token",
            "{method} {path}"
        );
        let nearly = request(Some(&token[..63])).send().await.unwrap();
        assert_eq!(
            error_code(nearly, 403).await,
            "wrong_token",
            "{method} {path}"
        );
    }
    let listed = server
        .http
        .get(server.url("/api/campaigns"))
        .send()
        .await
        .unwrap();
    assert_eq!(error_code(listed, 401).await, "missing_token");
    // Nothing was changed by the refused requests.
    assert_eq!(server.view(&id, &token).await["turn"], 0);
}

#[tokio::test]
async fn an_unknown_campaign_is_404() {
    let server = TestServer::offline().await;
    let (_id, token) = server.kraven().await;
    for path in ["/api/campaigns/999", "/api/campaigns/999/undo"] {
        let response = if path.ends_with("undo") {
            server.post(path, &token, json!({})).await
        } else {
            server.get(path, &token).await
        };
        assert_eq!(error_code(response, 404).await, "campaign_not_found");
    }
    let nowhere = server.get("/api/nowhere", &token).await;
    assert_eq!(error_code(nowhere, 404).await, "not_found");
}

#[tokio::test]
async fn bodies_and_texts_have_limits() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let huge = "x".repeat(dnd_server::MAX_BODY_BYTES + 1);
    let response = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &token,
            json!({"text": huge}),
        )
        .await;
    assert_eq!(error_code(response, 413).await, "body_too_large");
    let response = server
        .http
        .post(server.url("/api/campaigns"))
        .body(format!("{{\"adventure\": \"{huge}\"}}"))
        .send()
        .await
        .unwrap();
    assert_eq!(error_code(response, 413).await, "body_too_large");

    let long = "a".repeat(dnd_server::MAX_TEXT_CHARS + 1);
    let response = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &token,
            json!({"text": long}),
        )
        .await;
    assert_eq!(error_code(response, 422).await, "text_too_long");
    let response = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &token,
            json!({"text": "  "}),
        )
        .await;
    assert_eq!(error_code(response, 422).await, "missing_text");
    assert_eq!(server.view(&id, &token).await["turn"], 0);
}

#[tokio::test]
async fn bad_campaign_requests_say_what_is_accepted() {
    let server = TestServer::offline().await;
    for (body, code, hint) in [
        (
            json!({"adventure": "/etc/passwd"}),
            "unknown_adventure",
            "wendle-hollow",
        ),
        (json!({"heroes": ["gandalf"]}), "unknown_hero", "kraven"),
        (
            json!({"heroes": ["a", "b", "c", "d", "e"]}),
            "too_many_heroes",
            "1 to 4",
        ),
        (
            json!({"protocol": "telepathy"}),
            "bad_protocol",
            "two_phase",
        ),
    ] {
        let response = server
            .http
            .post(server.url("/api/campaigns"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 422, "{body}");
        let answer: serde_json::Value = response.json().await.unwrap();
        assert_eq!(answer["error"]["code"], code);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(hint), "{message}");
    }
}

#[tokio::test]
async fn a_campaign_is_rate_limited() {
    let server = TestServer::start(dnd_server::Config {
        turns_per_minute: 2,
        ..dnd_server::Config::default()
    })
    .await;
    let (id, token) = server.kraven().await;
    server.turn(&id, &token, "I look around.").await;
    server.turn(&id, &token, "I listen.").await;
    let response = server
        .post(
            &format!("/api/campaigns/{id}/turns"),
            &token,
            json!({"text": "Again."}),
        )
        .await;
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(error_code(response, 429).await, "rate_limited");
    // Another campaign is not held back.
    let (other, other_token) = server.kraven().await;
    server.turn(&other, &other_token, "I look around.").await;
}

#[tokio::test]
async fn cors_is_closed_unless_an_origin_is_given() {
    let closed = TestServer::offline().await;
    let response = closed
        .http
        .get(closed.url("/api/health"))
        .header("origin", "http://evil.invalid")
        .send()
        .await
        .unwrap();
    assert!(
        response
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
    let open = TestServer::start(dnd_server::Config {
        cors: Some("http://localhost:3000".into()),
        ..dnd_server::Config::default()
    })
    .await;
    let response = open
        .http
        .get(open.url("/api/health"))
        .header("origin", "http://localhost:3000")
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.headers()["access-control-allow-origin"],
        "http://localhost:3000"
    );
}
