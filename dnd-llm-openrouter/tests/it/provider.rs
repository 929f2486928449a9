//! The provider against the scripted server: plain calls.

use crate::OpenRouterConfigExt;
use dnd_engine::llm::{
    CompletionRequest, FinishReason, LlmError, LlmProvider, Message, ResponseFormat,
};
use dnd_engine::tools::tool_specs;
use dnd_llm_openrouter::{ProviderPreferences, ProviderSort};
use serde_json::{Value, json};

use crate::server::{Reply, TestServer};
use crate::{KEY, assert_no_key, config, fixture, provider};

fn ask(text: &str) -> CompletionRequest {
    CompletionRequest::new(vec![Message::user(text)])
}

#[tokio::test]
async fn a_plain_answer_with_its_cost_and_the_model_that_answered() {
    let server = TestServer::start(vec![Reply::json_text(200, &fixture("text.json"))]).await;
    let provider = dnd_llm_openrouter::OpenRouterProvider::new(
        config(&server.base_url, "openai/gpt-4o-mini")
            .with_fallback_models(["google/gemini-2.5-flash"]),
    )
    .unwrap();
    let response = provider.complete(&ask("Name a tavern.")).await.unwrap();
    assert_eq!(
        response.text(),
        Some("The tavern is called the Frozen Flagon.")
    );
    assert_eq!(response.model.as_deref(), Some("google/gemini-2.5-flash"));
    assert_eq!(response.usage.cost, Some(0.0001511));
    assert_eq!(
        (
            response.usage.prompt_tokens,
            response.usage.completion_tokens
        ),
        (412, 11)
    );
    assert!(response.raw.is_some());
    assert_eq!(provider.name(), "openrouter");
    let request = &server.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        request.json(),
        json!({
            "model": "openai/gpt-4o-mini",
            "messages": [{"role": "user", "content": "Name a tavern."}],
            "models": ["google/gemini-2.5-flash"]
        })
    );
}

#[tokio::test]
async fn an_own_key_adds_the_upstream_cost() {
    let server = TestServer::start(vec![Reply::json_text(200, &fixture("byok.json"))]).await;
    let response = provider(&server.base_url, "anthropic/claude-haiku-4.5")
        .complete(&ask("I sneak past."))
        .await
        .unwrap();
    let cost = response.usage.cost.unwrap();
    assert!((cost - 0.0002625).abs() < 1e-12, "{cost}");
    assert_eq!(response.usage.cached_tokens, 2048);
}

#[tokio::test]
async fn a_tool_round_trip_with_the_exact_requests_and_headers() {
    let server = TestServer::start(vec![
        Reply::json_text(200, &fixture("tool_calls.json")),
        Reply::json_text(200, &fixture("text.json")),
    ])
    .await;
    let provider = dnd_llm_openrouter::OpenRouterProvider::new(
        config(&server.base_url, "openai/gpt-4o-mini")
            .with_fallback_models(["anthropic/claude-haiku-4.5", "google/gemini-2.5-flash"])
            .with_routing(ProviderPreferences::default().with_sort(ProviderSort::Throughput))
            .with_app("https://example.com/glacier", "The Wailing Glacier"),
    )
    .unwrap();
    let roll_dice: Vec<_> = tool_specs()
        .into_iter()
        .filter(|tool| tool.name == "roll_dice")
        .collect();
    let mut request = CompletionRequest::new(vec![
        Message::system("You are the game master. Never invent dice results."),
        Message::user_named("Kraven", "I sneak past the guard."),
    ])
    .with_tools(roll_dice)
    .with_max_tokens(300);
    let first = provider.complete(&request).await.unwrap();
    assert_eq!(first.finish_reason, FinishReason::ToolCalls);
    let call = first.tool_calls()[0].clone();
    assert_eq!(call.arguments["expression"], "1d20+5");
    request.messages.push(first.message);
    request
        .messages
        .push(Message::tool_result(&call.id, r#"{"total":17}"#));
    let second = provider.complete(&request).await.unwrap();
    assert!(second.text().is_some());

    let requests = server.requests();
    for recorded in &requests {
        assert_eq!(
            recorded.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
    }
    let headers: Vec<(&str, Option<&str>)> = [
        "http-referer",
        "x-openrouter-title",
        "x-title",
        "content-type",
    ]
    .into_iter()
    .map(|name| (name, requests[0].header(name)))
    .collect();
    let bodies: Vec<Value> = requests.iter().map(|r| r.json()).collect();
    insta::assert_json_snapshot!(
        "tool_round_trip",
        json!({"headers": headers, "bodies": bodies})
    );
}

#[tokio::test]
async fn a_json_schema_request_requires_parameters() {
    let server = TestServer::start(vec![Reply::json_text(200, &fixture("text.json"))]).await;
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    provider(&server.base_url, "openai/gpt-4o-mini")
        .complete(&ask("A name.").with_response_format(ResponseFormat::json_schema("name", schema)))
        .await
        .unwrap();
    let sent = server.requests()[0].json();
    assert_eq!(sent["provider"], json!({"require_parameters": true}));
    assert_eq!(sent["response_format"]["type"], "json_schema");
}

#[tokio::test]
async fn out_of_credits_is_not_retried_and_says_so() {
    let credits = json!({"error": {"code": 402, "message": "This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 1200.", "metadata": {"provider_name": null}}});
    let server = TestServer::start(vec![
        Reply::json(402, &credits),
        Reply::json_text(200, &fixture("text.json")),
    ])
    .await;
    let error = provider(&server.base_url, "openai/gpt-4o")
        .complete(&ask("hi"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::QuotaExceeded {
                status: Some(402),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.message().contains("can only afford 1200"), "{error}");
    assert!(error.message().contains("code 402"), "{error}");
    assert!(!error.retryable());
    assert_eq!(server.requests().len(), 1, "a 402 is never retried");
    assert_no_key(&error);
}

#[tokio::test]
async fn moderation_is_not_retried_and_carries_its_metadata() {
    let flagged = json!({"error": {"code": 403, "message": "openai/gpt-4o requires moderation on OpenAI. Your input was flagged for \"violence\".", "metadata": {
        "reasons": ["violence"],
        "flagged_input": "I cut the goblin's...throat",
        "provider_name": "OpenAI",
        "model_slug": "openai/gpt-4o"
    }}});
    let server = TestServer::start(vec![
        Reply::json(403, &flagged).header("x-should-retry", "true"),
        Reply::json_text(200, &fixture("text.json")),
    ])
    .await;
    let error = provider(&server.base_url, "openai/gpt-4o")
        .complete(&ask("I cut the goblin's throat."))
        .await
        .unwrap_err();
    match &error {
        LlmError::Refused { status, message } => {
            assert_eq!(*status, Some(403));
            for part in [
                "reasons: violence",
                "flagged input: I cut the goblin's...throat",
                "provider: OpenAI",
                "model: openai/gpt-4o",
            ] {
                assert!(message.contains(part), "{part} missing from {message}");
            }
        }
        other => panic!("{other:?}"),
    }
    assert!(!error.retryable());
    assert_eq!(server.requests().len(), 1, "a 403 is never retried");
}

#[tokio::test]
async fn upstream_errors_are_retried_then_typed() {
    let upstream = json!({"error": {"code": 502, "message": "Provider returned error", "metadata": {"provider_name": "Together", "raw": "upstream connect error"}}});
    let server = TestServer::start(vec![
        Reply::json(502, &upstream),
        Reply::json(502, &upstream),
        Reply::json(502, &upstream),
    ])
    .await;
    let error = provider(&server.base_url, "meta-llama/llama-3.3-70b-instruct")
        .complete(&ask("hi"))
        .await
        .unwrap_err();
    assert_eq!(
        (error.kind(), error.status()),
        ("server", Some(502)),
        "{error:?}"
    );
    assert!(error.message().contains("provider: Together"), "{error}");
    assert!(
        error.message().contains("upstream connect error"),
        "{error}"
    );
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn the_key_is_in_no_debug_and_no_error() {
    let echo = json!({"error": {"code": 401, "message": format!("No auth credentials found for key {KEY}")}});
    let server = TestServer::start(vec![
        Reply::json(401, &echo),
        Reply::body(502, "text/html", format!("<html>bad gateway {KEY}</html>")),
        Reply::json(
            200,
            &json!({"error": {"code": 402, "message": format!("{KEY} is out of credits")}}),
        ),
    ])
    .await;
    let provider = provider(&server.base_url, "openai/gpt-4o");
    assert!(!format!("{provider:?}").contains(KEY));
    assert!(!format!("{:?}", provider.config()).contains(&KEY[10..40]));
    assert!(!format!("{:?}", provider.headers()).contains(&KEY[10..40]));
    let mut no_retry = config(&server.base_url, "openai/gpt-4o");
    no_retry.retry.max_retries = 0;
    let once = dnd_llm_openrouter::OpenRouterProvider::new(no_retry).unwrap();
    for _ in 0..3 {
        let error = once.complete(&ask("hi")).await.unwrap_err();
        assert_no_key(&error);
        assert_no_key(&serde_json::to_string(&error).unwrap());
    }
    let unreachable = dnd_llm_openrouter::OpenRouterProvider::new(config(
        "http://127.0.0.1:9/api/v1",
        "openai/gpt-4o",
    ))
    .unwrap();
    let error = unreachable.complete(&ask("hi")).await.unwrap_err();
    assert_no_key(&error);
}
