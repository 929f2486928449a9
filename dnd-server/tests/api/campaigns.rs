//! Health, the documents, the page, and campaigns: create, list, read, delete, undo.

use serde_json::{Value, json};

use crate::support::{TestServer, error_code};

#[tokio::test]
async fn health_and_the_openapi_document_name_every_route() {
    let server = TestServer::offline().await;
    let health: Value = reqwest::get(server.url("/api/health"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health, json!({"status": "ok"}));

    let doc: Value = reqwest::get(server.url("/api/openapi.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    // Every route the router declares is in the document.
    let routes = include_str!("../../src/routes.rs");
    let declared: Vec<&str> = routes
        .split(".route(\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert!(declared.len() >= 14, "{declared:?}");
    for path in declared {
        assert!(
            doc["paths"].get(path).is_some(),
            "{path} is not in openapi.json"
        );
    }
}

#[tokio::test]
async fn the_page_and_its_files_are_served_with_their_types() {
    let server = TestServer::offline().await;
    for (path, kind) in [
        ("/", "text/html"),
        ("/play/1", "text/html"),
        ("/app.js", "text/javascript"),
        ("/panels.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let response = reqwest::get(server.url(path)).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(!response.text().await.unwrap().is_empty(), "{path}");
    }
    let adventures: Value = reqwest::get(server.url("/api/adventures"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(adventures[0]["id"], "wailing-glacier");
    assert!(
        adventures[0]["heroes"]
            .as_array()
            .unwrap()
            .contains(&json!("kraven"))
    );
}

#[tokio::test]
async fn a_campaign_seats_each_hero_with_its_own_token_and_link() {
    let server = TestServer::offline().await;
    let (id, tokens, created) = server
        .create(json!({"heroes": ["kraven", "Isolde"], "seed": 5, "protocol": "two_phase"}))
        .await;
    assert_eq!(tokens.len(), 2);
    assert_ne!(tokens[0], tokens[1]);
    for (seat, token) in created["seats"].as_array().unwrap().iter().zip(&tokens) {
        assert_eq!(token.len(), 64);
        assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(seat["link"], format!("/play/{id}#{token}"));
    }
    let view = &created["view"];
    assert_eq!(view["turn"], 0);
    assert_eq!(view["adventure"], "wailing-glacier");
    assert_eq!(view["heroes"].as_array().unwrap().len(), 2);
    assert_eq!(view["seat"]["hero"], created["seats"][0]["hero"]);
    let sheet = &view["heroes"][0];
    for field in [
        "name",
        "class",
        "level",
        "hp",
        "max_hp",
        "temp_hp",
        "ac",
        "conditions",
        "slots",
        "inventory",
    ] {
        assert!(
            sheet.get(field).is_some(),
            "the sheet has no {field}: {sheet}"
        );
    }
    let rooms = view["map"]["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0]["here"], true);
    assert!(view["combat"].is_null());
    assert!(view["whose_turn"].is_null());

    // The second seat reads the same campaign as its own hero.
    let second = server.view(&id, &tokens[1]).await;
    assert_eq!(second["seat"]["hero"], created["seats"][1]["hero"]);

    // Companions fill the empty seats with AI heroes, who get no token.
    let (_, tokens, created) = server
        .create(json!({"heroes": ["kraven"], "companions": true}))
        .await;
    assert_eq!(tokens.len(), 1);
    let seats = created["view"]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    assert_eq!(seats.iter().filter(|s| s["ai"] == true).count(), 3);
}

#[tokio::test]
async fn campaigns_are_listed_by_the_tokens_presented_and_deleted() {
    let server = TestServer::offline().await;
    let (a, ta) = server.kraven().await;
    let (b, tb) = server.kraven().await;
    let (_c, _tc) = server.kraven().await;
    let listed: Value = server
        .get("/api/campaigns", &format!("{ta}, {tb}"))
        .await
        .json()
        .await
        .unwrap();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids.len(),
        2,
        "only the campaigns of the tokens shown: {listed}"
    );
    assert!(ids.contains(&a.as_str()) && ids.contains(&b.as_str()));
    assert_eq!(listed[0]["turn"], 0);
    assert!(listed[0]["heroes"][0].as_str().unwrap().contains("Kraven"));

    let deleted = server
        .http
        .delete(server.url(&format!("/api/campaigns/{a}")))
        .bearer_auth(&ta)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    let gone = server.get(&format!("/api/campaigns/{a}"), &ta).await;
    assert_eq!(error_code(gone, 404).await, "campaign_not_found");
    let listed: Value = server
        .get("/api/campaigns", &format!("{ta},{tb}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn undo_takes_back_the_last_turn() {
    let server = TestServer::offline().await;
    let (id, token) = server.kraven().await;
    let nothing = server
        .post(&format!("/api/campaigns/{id}/undo"), &token, json!({}))
        .await;
    assert_eq!(error_code(nothing, 409).await, "nothing_to_undo");
    server.turn(&id, &token, "I look around.").await;
    assert_eq!(server.view(&id, &token).await["turn"], 1);
    let undone = server
        .post(&format!("/api/campaigns/{id}/undo"), &token, json!({}))
        .await;
    assert_eq!(undone.status(), 200);
    let view: Value = undone.json().await.unwrap();
    assert_eq!(view["turn"], 0);
    assert!(view["log"].as_array().unwrap().is_empty(), "{view}");
    assert!(view["suggestions"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn seats_survive_a_restart_of_the_server_on_the_same_file() {
    dnd_llm_openai::http::install_crypto_provider();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kept.sqlite3");
    let config = dnd_server::Config {
        db: Some(db.clone()),
        seed: Some(3),
        ..dnd_server::Config::default()
    };
    let first = dnd_server::app(config.clone()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let running = tokio::spawn(async move { axum::serve(listener, first).await });
    let created: Value = reqwest::Client::new()
        .post(format!("{base}/api/campaigns"))
        .json(&json!({}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    running.abort();
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["seats"][0]["token"].as_str().unwrap(),
    );
    let second = dnd_server::app(config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, second).await });
    let view = reqwest::Client::new()
        .get(format!("{base}/api/campaigns/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(view.status(), 200);
}
