//! Two real `dnd-server` processes on one PostgreSQL database (offline game master, seeded
//! dice, 127.0.0.1 only): one campaign played through both alternately, each seeing the
//! other's turns and undo; many campaigns through both at once; and turns of one campaign sent
//! to both at the same moment. The turns are counted in the store afterwards: none lost, none
//! doubled.
//!
//! Each test makes a database of its own on the server `DATABASE_URL` names
//! (`scripts/pg-throwaway.sh` starts one); without it the tests skip, except on CI, where they
//! fail.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use dnd_engine::store::{CampaignId, GameStore, Page};
use dnd_store_postgres::PostgresStore;
use dnd_store_postgres::scratch::{self, Scratch};
use serde_json::{Value, json};

#[path = "../../dnd-engine/tests/support/environment.rs"]
mod environment;

#[path = "api/support.rs"]
#[allow(dead_code)]
mod support;

use support::{Sse, listening_base, parse};

/// A `dnd-server` process, killed when dropped.
struct Server {
    child: Child,
    base: String,
    http: reqwest::Client,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// The real binary on a free port of 127.0.0.1, on the database `url`.
    fn start(url: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dnd-server"))
            .args([
                "--addr",
                "127.0.0.1:0",
                "--provider",
                "offline",
                "--turns-per-minute",
                "100000",
                "--database-url",
                url,
            ])
            .env_remove("OPENAI_API_KEY")
            .env_remove("OPENAI_BASE_URL")
            .env_remove("OPENROUTER_API_KEY")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("its stdout"));
        let base = listening_base(&mut stdout);
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in stdout.lines() {});
        Server {
            child,
            base,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("a client"),
        }
    }

    async fn create(&self, seed: u64) -> (String, String) {
        let response = self
            .http
            .post(format!("{}/api/campaigns", self.base))
            .json(&json!({"heroes": ["kraven"], "seed": seed}))
            .send()
            .await
            .expect("created");
        assert_eq!(response.status(), 201);
        let created: Value = response.json().await.expect("JSON");
        (
            created["id"].as_str().expect("an id").to_owned(),
            created["seats"][0]["token"]
                .as_str()
                .expect("a token")
                .to_owned(),
        )
    }

    async fn view(&self, id: &str, token: &str) -> Value {
        let response = self
            .http
            .get(format!("{}/api/campaigns/{id}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("answered");
        assert_eq!(
            response.status(),
            200,
            "the campaign opens on {}",
            self.base
        );
        response.json().await.expect("JSON")
    }

    /// A turn's events, to the end of its stream.
    async fn turn(&self, id: &str, token: &str, text: &str) -> Vec<Sse> {
        let response = self
            .http
            .post(format!("{}/api/campaigns/{id}/turns", self.base))
            .bearer_auth(token)
            .json(&json!({"text": text}))
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status(), 200);
        parse(&response.text().await.expect("the stream"))
    }

    async fn undo(&self, id: &str, token: &str) -> Value {
        let response = self
            .http
            .post(format!("{}/api/campaigns/{id}/undo", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status(), 200);
        response.json().await.expect("JSON")
    }
}

/// The last event of a turn: `outcome` when it was saved, else `error` (its code).
fn ending(events: &[Sse]) -> Result<u64, String> {
    match events.last() {
        Some(e) if e.event == "outcome" => Ok(e.data["turn"].as_u64().unwrap_or(0)),
        Some(e) if e.event == "error" => Err(e.data["code"].as_str().unwrap_or("").to_owned()),
        other => panic!("a turn ends with outcome or error, not {other:?}"),
    }
}

/// A database of the test's own and two servers on it, or `None` (after saying why).
async fn two_servers(test: &str) -> Option<(Scratch, Server, Server, PostgresStore)> {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        environment::missing(
            "DATABASE_URL is not set; start a server with `eval \"$(scripts/pg-throwaway.sh start)\"`",
        );
        return None;
    };
    dnd_llm_openai::http::install_crypto_provider();
    let db = scratch::create(&url, test).await.expect("a database");
    let (a, b) = (Server::start(&db.url), Server::start(&db.url));
    let store = PostgresStore::connect(&db.url).await.expect("connects");
    Some((db, a, b, store))
}

/// Turns in effect and in the history of a campaign, read from the store.
async fn count(store: &PostgresStore, id: &str) -> (u64, Vec<(u64, bool)>) {
    let id = CampaignId(id.to_owned());
    let state = store.load(&id).await.expect("loads");
    let history = store
        .history(&id, Page::first(usize::MAX))
        .await
        .expect("history");
    (
        state.turn,
        history.iter().map(|h| (h.turn, h.undone)).collect(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_campaign_through_two_servers_alternately() {
    let Some((db, a, b, store)) = two_servers("alternate").await else {
        return;
    };
    let (id, token) = a.create(7).await;
    for n in 1..=6u64 {
        let (here, there) = if n % 2 == 1 { (&a, &b) } else { (&b, &a) };
        let events = here.turn(&id, &token, "I look around carefully.").await;
        assert_eq!(ending(&events), Ok(n), "turn {n}: {events:?}");
        // The other server shows it: it reads the shared store, and knows the seat.
        assert_eq!(there.view(&id, &token).await["turn"], n);
    }
    let undone = b.undo(&id, &token).await;
    assert_eq!(undone["turn"], 5);
    assert_eq!(a.view(&id, &token).await["turn"], 5);
    // Both list it for its token.
    for server in [&a, &b] {
        let listed: Value = server
            .http
            .get(format!("{}/api/campaigns", server.base))
            .bearer_auth(&token)
            .send()
            .await
            .expect("listed")
            .json()
            .await
            .expect("JSON");
        assert_eq!(listed[0]["id"], id.as_str());
    }
    let (turn, history) = count(&store, &id).await;
    assert_eq!(turn, 5);
    assert_eq!(
        history,
        (1..=6).map(|n| (n, n == 6)).collect::<Vec<_>>(),
        "six turns, the last undone, none lost or doubled"
    );
    // The database keeps the tokens' digests, never a token.
    let client = store.client().await.expect("a connection");
    let kept: String = client
        .query_one(
            "SELECT string_agg(table_json, '') || string_agg(token_sha256, '') \
             FROM server_tables JOIN server_seat_tokens USING (campaign_id)",
            &[],
        )
        .await
        .expect("read")
        .get(0);
    assert!(!kept.contains(&token), "a token is stored in the clear");
    drop((a, b, client, store));
    db.drop_database().await.expect("dropped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_campaigns_through_two_servers_at_once_lose_and_double_nothing() {
    let Some((db, a, b, store)) = two_servers("many").await else {
        return;
    };
    let servers = Arc::new([a, b]);
    let mut campaigns = Vec::new();
    for n in 0..8u64 {
        campaigns.push(servers[(n % 2) as usize].create(100 + n).await);
    }
    let mut tasks = Vec::new();
    for (n, (id, token)) in campaigns.iter().cloned().enumerate() {
        let servers = Arc::clone(&servers);
        tasks.push(tokio::spawn(async move {
            for k in 0..4usize {
                let server = &servers[(n + k) % 2];
                let events = server.turn(&id, &token, "I search the room.").await;
                assert_eq!(ending(&events), Ok(k as u64 + 1), "{id}: {events:?}");
            }
        }));
    }
    for task in tasks {
        task.await.expect("a campaign's player finished");
    }
    for (id, _) in &campaigns {
        let (turn, history) = count(&store, id).await;
        assert_eq!(turn, 4, "campaign {id}");
        assert_eq!(history, (1..=4).map(|n| (n, false)).collect::<Vec<_>>());
    }

    // One campaign, its turn sent to both servers at the same moment: each is saved whole or
    // refused as a conflict, and the store has exactly the saved ones.
    let (id, token) = servers[0].create(9).await;
    let mut saved = 0;
    for round in 0..5 {
        let (ra, rb) = tokio::join!(
            servers[0].turn(&id, &token, "I attack the shadows."),
            servers[1].turn(&id, &token, "I attack the shadows."),
        );
        for result in [ending(&ra), ending(&rb)] {
            match result {
                Ok(_) => saved += 1,
                Err(code) => assert_eq!(code, "conflict", "round {round}"),
            }
        }
    }
    let (turn, history) = count(&store, &id).await;
    assert!(saved >= 5, "at least one of each pair is saved");
    assert_eq!(turn, saved);
    assert_eq!(history, (1..=saved).map(|n| (n, false)).collect::<Vec<_>>());
    drop((servers, store));
    db.drop_database().await.expect("dropped");
}
