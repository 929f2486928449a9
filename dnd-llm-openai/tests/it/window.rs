//! The context window: read once from a llama.cpp server's `/props`, and a 400 for context
//! length retried once by the game master with a smaller prompt.

use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, PlayerInput, Protocol};
use dnd_engine::llm::{LlmError, LlmProvider};
use dnd_engine::store::{GameStore, MemoryStore};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};
use serde_json::{Value, json};

use crate::config;
use crate::server::{Reply, TestServer};

fn answer(text: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "smol",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    })
}

fn too_long() -> Reply {
    Reply::json(
        400,
        &json!({"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 8605, "n_ctx": 8192}}),
    )
}

#[tokio::test]
async fn a_local_server_says_its_context_window_once() {
    let props = json!({"default_generation_settings": {"n_ctx": 8192, "temperature": 0.8}, "total_slots": 1});
    let server = TestServer::start(vec![Reply::json(200, &props)]).await;
    let provider = OpenAiProvider::new(OpenAiConfig::local(&server.base_url, "smol")).unwrap();
    assert_eq!(provider.context_window().await, Some(8192));
    assert_eq!(provider.context_window().await, Some(8192));
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "read once and kept");
    assert_eq!(
        (requests[0].method.as_str(), requests[0].path.as_str()),
        ("GET", "/props")
    );
}

#[tokio::test]
async fn a_configured_window_or_a_silent_server_asks_nothing_more() {
    let server = TestServer::start(vec![Reply::json(
        404,
        &json!({"error": {"message": "File Not Found", "type": "not_found_error"}}),
    )])
    .await;
    let configured = OpenAiProvider::new(
        OpenAiConfig::local(&server.base_url, "smol").with_context_window(4096),
    )
    .unwrap();
    assert_eq!(configured.context_window().await, Some(4096));
    assert_eq!(configured.capabilities().context_window, Some(4096));
    assert!(server.requests().is_empty());
    let silent = OpenAiProvider::new(OpenAiConfig::local(&server.base_url, "smol")).unwrap();
    assert_eq!(silent.context_window().await, None);
    assert_eq!(silent.context_window().await, None);
    assert_eq!(
        server.requests().len(),
        1,
        "a server that does not say is not asked again"
    );
    // OpenAI's own API is not asked.
    let hosted = OpenAiProvider::new(config(&server.base_url)).unwrap();
    assert_eq!(hosted.context_window().await, None);
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_400_for_context_length_is_retried_once_with_a_smaller_prompt() {
    let long = "The wind howls over the ice and the party presses on. ".repeat(240);
    let server = TestServer::start(vec![
        Reply::json(200, &answer(&long)),
        Reply::json(200, &answer(&long)),
        too_long(),
        Reply::json(200, &answer("You press on.")),
        too_long(),
        too_long(),
    ])
    .await;
    let provider = Arc::new(OpenAiProvider::new(config(&server.base_url)).unwrap());
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(provider, store.clone())
        .protocol(Protocol::ToolLoop)
        // The model's window is what this test cuts to, not the cost bound; no fold in these
        // turns (a summary call would take a scripted answer).
        .limits(dnd_engine::gm::GmLimits {
            call_tokens: None,
            summary_every: 10,
            ..dnd_engine::gm::GmLimits::default()
        })
        .seed(5)
        .build();
    for _ in 0..2 {
        gm.turn(&id, PlayerInput::new("Kraven", "Walk."))
            .await
            .unwrap();
    }
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "Walk."))
        .await
        .unwrap();
    assert_eq!(outcome.narration, "You press on.");
    let requests = server.requests();
    assert_eq!(
        requests.len(),
        4,
        "the 400 is not retried as it is, only cut"
    );
    let (refused, retried) = (requests[2].body.len(), requests[3].body.len());
    assert!(retried < refused, "{retried} bytes after {refused}");
    let last = |i: usize| {
        requests[i].json()["messages"]
            .as_array()
            .unwrap()
            .last()
            .cloned()
    };
    assert_eq!(last(2), last(3), "the current turn is kept");
    // Refused twice: the turn fails with the typed error and writes nothing.
    let before = store.load(&id).await.unwrap();
    let error = gm
        .turn(&id, PlayerInput::new("Kraven", "Walk."))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            dnd_engine::gm::GmError::Provider(LlmError::ContextLength {
                status: Some(400),
                ..
            })
        ),
        "{error}"
    );
    assert_eq!(store.load(&id).await.unwrap(), before);
    assert_eq!(server.requests().len(), 6);
}
