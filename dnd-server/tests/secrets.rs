//! The provider's key never leaves the server: the `dnd-server` binary, run with a key in its
//! environment against an upstream on 127.0.0.1 that echoes the key back in its error (as
//! OpenAI's "Incorrect API key provided: ..." does), plays a turn that fails; neither the
//! responses (the page, the API document, the campaign, the turn's stream) nor the process's
//! output hold the key.

use std::io::{BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[path = "api/support.rs"]
#[allow(dead_code)]
mod support;

use support::listening_base;

const KEY: &str = "sk-test-0123456789-never-shown";

/// An upstream that answers every request 401 with the request's `Authorization` header in its
/// message.
async fn echoing_upstream() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 64 * 1024];
                let mut read = 0;
                // The head is enough: the body's length does not matter to an error.
                while !buffer[..read].windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer[read..]).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => read += n,
                    }
                }
                let head = String::from_utf8_lossy(&buffer[..read]).to_string();
                let authorization = head
                    .lines()
                    .find_map(|l| {
                        l.strip_prefix("authorization: ")
                            .or(l.strip_prefix("Authorization: "))
                    })
                    .unwrap_or("none")
                    .to_owned();
                let body = json!({"error": {
                    "message": format!("Incorrect API key provided: {authorization}"),
                    "type": "invalid_request_error", "code": "invalid_api_key"}})
                .to_string();
                let reply = format!(
                    "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    base
}

/// The text of the response to `request`.
async fn body(request: reqwest::RequestBuilder) -> String {
    request.send().await.unwrap().text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_provider_key_reaches_no_response_page_or_log() {
    dnd_llm_openai::http::install_crypto_provider();
    let upstream = echoing_upstream().await;
    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_dnd-server"))
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("server.sqlite3"))
        .env("OPENAI_API_KEY", KEY)
        .env("OPENAI_BASE_URL", &upstream)
        .env("OPENAI_MODEL", "smol")
        .env_remove("OPENROUTER_API_KEY")
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let base = listening_base(&mut stdout);

    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let mut seen = String::new();
    for path in ["/", "/api/openapi.json", "/api/health", "/api/adventures"] {
        seen += &body(http.get(format!("{base}{path}"))).await;
    }
    let created: Value = http
        .post(format!("{base}/api/campaigns"))
        .json(&json!({"heroes": ["kraven"], "seed": 3}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    seen += &created.to_string();
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["seats"][0]["token"].as_str().unwrap().to_owned();
    let turn = body(
        http.post(format!("{base}/api/campaigns/{id}/turns"))
            .bearer_auth(&token)
            .json(&json!({"text": "I look around."})),
    )
    .await;
    assert!(
        turn.contains("event: error"),
        "the upstream refused every call, so the turn fails: {turn}"
    );
    assert!(
        turn.contains("Incorrect API key"),
        "the upstream was reached and its error passed on: {turn}"
    );
    seen += &turn;
    seen += &body(
        http.get(format!("{base}/api/campaigns/{id}"))
            .bearer_auth(&token),
    )
    .await;

    server.kill().unwrap();
    server.wait().unwrap();
    let mut output = String::new();
    stdout.read_to_string(&mut output).unwrap();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    for (what, text) in [("a response", &seen), ("the server's output", &output)] {
        assert!(!text.contains(KEY), "the key reached {what}: {text}");
        assert!(
            !text.contains("0123456789-never"),
            "part of the key reached {what}: {text}"
        );
    }
}
