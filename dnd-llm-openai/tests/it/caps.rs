//! The game master's output caps on the wire: each call's cap in the field the server expects
//! (`max_completion_tokens` for OpenAI, `max_tokens` for a compatible server), and a narration
//! cut by it (`finish_reason: "length"`) ended at its last full sentence.

use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, OutputCaps, PlayerInput, Protocol, Summarizer};
use dnd_engine::store::{GameStore, MemoryStore};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider, TokenLimitField};
use serde_json::{Value, json};

use crate::config;
use crate::server::{Reply, TestServer};

/// A chat completion answering `content`, stopped for `finish_reason`.
fn answer(content: &str, finish_reason: &str) -> Reply {
    Reply::json(
        200,
        &json!({
            "id": "chatcmpl-cap", "object": "chat.completion", "created": 0, "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 400, "total_tokens": 1300}
        }),
    )
}

const ACTIONS: &str = r#"{"actions": [{"id": "wait", "description": "Wait and listen", "reason": null, "mechanic": null}, {"id": "go", "description": "Cross the bridge", "reason": null, "mechanic": null}]}"#;

/// Plays one two-phase turn through `config` against the server; the sent bodies and the
/// narration.
async fn one_turn(server: &TestServer, config: OpenAiConfig) -> (Vec<Value>, String) {
    let provider = Arc::new(OpenAiProvider::new(config).unwrap());
    let store = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Glacier", &state).await.unwrap();
    let gm = GameMaster::builder(provider, store)
        .suggestions(dnd_engine::gm::Suggestions::Model)
        .protocol(Protocol::TwoPhase)
        .summarizer(Summarizer::Code)
        .seed(1)
        .build();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I listen."))
        .await
        .unwrap();
    let bodies = server.requests().iter().map(|r| r.json()).collect();
    (bodies, outcome.narration)
}

#[tokio::test]
async fn openai_gets_max_completion_tokens_per_call_and_a_cut_narration_ends_cleanly() {
    let server = TestServer::start(vec![
        answer(
            "The ice groans. Far below, something scrapes against the sto",
            "length",
        ),
        answer(ACTIONS, "stop"),
    ])
    .await;
    let (bodies, narration) = one_turn(&server, config(&server.base_url)).await;
    let caps = OutputCaps::default();
    assert_eq!(bodies.len(), 2);
    for (body, cap) in bodies.iter().zip([caps.narration, caps.actions]) {
        assert_eq!(body["max_completion_tokens"], cap, "{body:#}");
        assert!(body.get("max_tokens").is_none(), "{body:#}");
    }
    assert_eq!(narration, "The ice groans.");
}

#[tokio::test]
async fn a_compatible_server_gets_max_tokens_per_call() {
    let server =
        TestServer::start(vec![answer("Snow falls.", "stop"), answer(ACTIONS, "stop")]).await;
    // The window is not read from `/props` here: this server speaks chat completions only.
    let local = OpenAiConfig::local(&server.base_url, "smollm2").with_read_context_window(false);
    assert_eq!(local.request.token_limit, TokenLimitField::MaxTokens);
    let (bodies, _) = one_turn(&server, local).await;
    let caps = OutputCaps::default();
    for (body, cap) in bodies.iter().zip([caps.narration, caps.actions]) {
        assert_eq!(body["max_tokens"], cap, "{body:#}");
        assert!(body.get("max_completion_tokens").is_none(), "{body:#}");
    }
    // The field is the config's choice: a compatible server that knows the new name gets it.
    let server =
        TestServer::start(vec![answer("Snow falls.", "stop"), answer(ACTIONS, "stop")]).await;
    let newer = OpenAiConfig::local(&server.base_url, "smollm2")
        .with_read_context_window(false)
        .with_token_limit_field(TokenLimitField::MaxCompletionTokens);
    let (bodies, _) = one_turn(&server, newer).await;
    assert_eq!(bodies[0]["max_completion_tokens"], caps.narration);
}
