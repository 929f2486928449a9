//! A server on 127.0.0.1:0 in this process (offline game master, temporary SQLite file), a
//! client, and a reader of server-sent events.

use std::sync::Arc;

use dnd_engine::store::GameStore;
use dnd_server::Config;
use dnd_store_sqlite::SqliteStore;
use serde_json::{Value, json};

/// A running server.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The store it plays on (tests read it to count turns).
    pub store: Arc<SqliteStore>,
    /// A client.
    pub http: reqwest::Client,
    _dir: tempfile::TempDir,
}

/// One server-sent event.
#[derive(Debug, Clone)]
pub struct Sse {
    pub event: String,
    pub data: Value,
}

impl TestServer {
    /// A server with `config` (its `db` is a fresh temporary file; seeded dice).
    pub async fn start(mut config: Config) -> TestServer {
        dnd_llm_openai::http::install_crypto_provider();
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("server.sqlite3");
        let store = Arc::new(SqliteStore::open(&db).unwrap());
        config.db = Some(db);
        config.seed = config.seed.or(Some(20));
        let dyn_store: Arc<dyn GameStore> = store.clone();
        let app = dnd_server::app_on(config, dyn_store).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        TestServer {
            base,
            store,
            http: reqwest::Client::new(),
            _dir: dir,
        }
    }

    /// The default server.
    pub async fn offline() -> TestServer {
        TestServer::start(Config::default()).await
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Creates a campaign from `body`: (id, seat tokens in order, the whole answer).
    pub async fn create(&self, body: Value) -> (String, Vec<String>, Value) {
        let response = self
            .http
            .post(self.url("/api/campaigns"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        let created: Value = response.json().await.unwrap();
        let id = created["id"].as_str().unwrap().to_owned();
        let tokens = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_owned())
            .collect();
        (id, tokens, created)
    }

    /// A campaign of Kraven alone.
    pub async fn kraven(&self) -> (String, String) {
        let (id, tokens, _) = self.create(json!({"heroes": ["kraven"]})).await;
        (id, tokens[0].clone())
    }

    /// `GET` with a token.
    pub async fn get(&self, path: &str, token: &str) -> reqwest::Response {
        self.http
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    /// `POST` of JSON with a token.
    pub async fn post(&self, path: &str, token: &str, body: Value) -> reqwest::Response {
        self.http
            .post(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    /// The View of a campaign.
    pub async fn view(&self, id: &str, token: &str) -> Value {
        let response = self.get(&format!("/api/campaigns/{id}"), token).await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    /// Plays a turn to its end: its events.
    pub async fn turn(&self, id: &str, token: &str, text: &str) -> Vec<Sse> {
        let response = self
            .post(
                &format!("/api/campaigns/{id}/turns"),
                token,
                json!({"text": text}),
            )
            .await;
        assert_eq!(response.status(), 200, "{:?}", response.text().await);
        events(response).await
    }
}

/// All the events of a streamed answer, to its end.
pub async fn events(response: reqwest::Response) -> Vec<Sse> {
    assert_eq!(
        response.headers()["content-type"],
        "text/event-stream",
        "a turn answers with server-sent events"
    );
    parse(&response.text().await.unwrap())
}

/// Server-sent events from their text (comments, the keep-alives, skipped); an event whose
/// blank line has not arrived yet is left out.
pub fn parse(text: &str) -> Vec<Sse> {
    let complete = &text[..text.rfind("\n\n").map_or(0, |end| end + 2)];
    complete
        .split("\n\n")
        .filter_map(|block| {
            let mut event = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(name) = line.strip_prefix("event: ") {
                    event = Some(name.to_owned());
                } else if let Some(more) = line.strip_prefix("data: ") {
                    data.push_str(more);
                }
            }
            Some(Sse {
                event: event?,
                data: serde_json::from_str(&data).unwrap_or(Value::Null),
            })
        })
        .collect()
}

/// The error code of an error answer, after checking its status.
pub async fn error_code(response: reqwest::Response, status: u16) -> String {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.unwrap();
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "an error says what was wrong: {body}");
    body["error"]["code"].as_str().unwrap().to_owned()
}

/// The base URL (`http://127.0.0.1:PORT`) a `dnd-server` process says it listens on, read from
/// the first line of its output (`dnd-server: http://127.0.0.1:PORT/`).
// The API tests run the server in this process; only the tests of the binary read this.
#[allow(dead_code)]
pub fn listening_base(stdout: &mut impl std::io::BufRead) -> String {
    let mut first = String::new();
    stdout
        .read_line(&mut first)
        .expect("the server's first line");
    first
        .trim()
        .strip_prefix("dnd-server: ")
        .unwrap_or_else(|| panic!("the server did not say where it listens: {first:?}"))
        .trim_end_matches('/')
        .to_owned()
}
