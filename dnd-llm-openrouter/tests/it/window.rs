//! The model's context window, read once from OpenRouter's models list.

use dnd_engine::llm::{LlmError, LlmProvider};
use dnd_llm_openrouter::OpenRouterProvider;
use serde_json::json;

use crate::config;
use crate::server::{Reply, TestServer};

#[tokio::test]
async fn the_models_list_says_the_context_length_once() {
    let models = json!({"data": [
        {"id": "meta-llama/llama-3.1-8b-instruct", "context_length": 131072, "top_provider": {"context_length": 16384, "max_completion_tokens": 4096}},
        {"id": "openai/gpt-4o-mini", "context_length": 128000, "top_provider": {"context_length": 128000}}
    ]});
    let server = TestServer::start(vec![Reply::json(200, &models)]).await;
    let provider =
        OpenRouterProvider::new(config(&server.base_url, "meta-llama/llama-3.1-8b-instruct"))
            .unwrap();
    assert_eq!(
        provider.context_window().await,
        Some(16_384),
        "the smaller of the two"
    );
    assert_eq!(provider.context_window().await, Some(16_384));
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "read once and kept");
    assert_eq!(
        (requests[0].method.as_str(), requests[0].path.as_str()),
        ("GET", "/v1/models")
    );
}

#[tokio::test]
async fn a_configured_window_or_an_unlisted_model_reads_nothing_more() {
    let server = TestServer::start(vec![Reply::json(200, &json!({"data": []}))]).await;
    let configured = OpenRouterProvider::new(
        config(&server.base_url, "openai/gpt-4o-mini").with_context_window(8_192),
    )
    .unwrap();
    assert_eq!(configured.context_window().await, Some(8_192));
    assert!(server.requests().is_empty());
    let unlisted = OpenRouterProvider::new(config(&server.base_url, "someone/else")).unwrap();
    assert_eq!(unlisted.context_window().await, None);
    assert_eq!(unlisted.context_window().await, None);
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_400_saying_the_context_is_exceeded_is_typed() {
    let body = json!({"error": {"code": 400, "message": "This endpoint's maximum context length is 8192 tokens. However, you requested about 8605 tokens. Please reduce the length of either one."}});
    let server = TestServer::start(vec![Reply::json(400, &body)]).await;
    let provider = OpenRouterProvider::new(
        config(&server.base_url, "openai/gpt-4o-mini").with_context_window(8_192),
    )
    .unwrap();
    let request =
        dnd_engine::llm::CompletionRequest::new(vec![dnd_engine::llm::Message::user("hi")]);
    let error = provider.complete(&request).await.unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::ContextLength {
                status: Some(400),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1, "not retried as it is");
}
