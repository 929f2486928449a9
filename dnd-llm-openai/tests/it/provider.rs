//! The provider against the scripted server: plain calls.

use std::time::{Duration, Instant};

use dnd_engine::llm::{
    CompletionRequest, FinishReason, LlmError, LlmProvider, Message, ResponseFormat,
};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider, Pricing};
use serde_json::{Value, json};

use crate::server::{Reply, TestServer};
use crate::{KEY, assert_no_key, config, conversation, fixture, roll_tool};

fn provider(server: &TestServer) -> OpenAiProvider {
    OpenAiProvider::new(config(&server.base_url)).unwrap()
}

fn ask(text: &str) -> CompletionRequest {
    CompletionRequest::new(vec![Message::user(text)])
}

#[tokio::test]
async fn a_plain_answer_with_headers_usage_and_cost() {
    let server = TestServer::start(vec![Reply::json_text(200, &fixture("openai_text.json"))]).await;
    let provider = OpenAiProvider::new(
        config(&server.base_url)
            .with_organization("org-dnd")
            .with_project("proj_glacier")
            .with_header("X-Table", "7")
            .with_pricing(Pricing {
                input_per_million: 0.15,
                cached_input_per_million: Some(0.075),
                output_per_million: 0.6,
            }),
    )
    .unwrap();
    let response = provider.complete(&ask("I open the door.")).await.unwrap();
    assert!(response.text().unwrap().starts_with("The door groans open"));
    assert_eq!(response.model.as_deref(), Some("gpt-4o-mini-2024-07-18"));
    assert_eq!(response.usage.prompt_tokens, 1217);
    let expected = (193.0 * 0.15 + 1024.0 * 0.075 + 27.0 * 0.6) / 1e6;
    assert!((response.usage.cost.unwrap() - expected).abs() < 1e-12);
    assert!(response.raw.is_some());

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("openai-organization"), Some("org-dnd"));
    assert_eq!(request.header("openai-project"), Some("proj_glacier"));
    assert_eq!(request.header("x-table"), Some("7"));
    assert_eq!(
        request.json(),
        json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "I open the door."}]})
    );
    assert_eq!(provider.name(), "openai");
}

#[tokio::test]
async fn a_local_server_gets_no_key() {
    let server = TestServer::start(vec![Reply::json_text(200, &fixture("openai_text.json"))]).await;
    let provider = OpenAiProvider::new(OpenAiConfig::local(&server.base_url, "smollm2")).unwrap();
    provider
        .complete(&ask("hi").with_max_tokens(20))
        .await
        .unwrap();
    let request = &server.requests()[0];
    assert_eq!(request.header("authorization"), None);
    assert_eq!(request.json()["max_tokens"], 20);
    assert!(!provider.capabilities().json_schema);
}

#[tokio::test]
async fn a_tool_call_round_trip_with_the_exact_requests() {
    let server = TestServer::start(vec![
        Reply::json_text(200, &fixture("openai_tool_calls.json")),
        Reply::json_text(200, &fixture("openai_text.json")),
    ])
    .await;
    let provider = provider(&server);
    let mut request = CompletionRequest::new(vec![
        Message::system("You are the game master. Never invent dice results."),
        Message::user_named("Aria", "I attack the goblin twice."),
    ])
    .with_tools(vec![roll_tool()])
    .with_temperature(0.7);
    let first = provider.complete(&request).await.unwrap();
    assert_eq!(first.finish_reason, FinishReason::ToolCalls);
    let calls = first.tool_calls().to_vec();
    request.messages.push(first.message);
    for (call, total) in calls.iter().zip([17, 8]) {
        request.messages.push(Message::tool_result(
            &call.id,
            json!({"total": total}).to_string(),
        ));
    }
    let second = provider.complete(&request).await.unwrap();
    assert!(second.text().is_some());
    let bodies: Vec<Value> = server.requests().iter().map(|r| r.json()).collect();
    insta::assert_json_snapshot!("tool_round_trip_requests", bodies);
}

#[tokio::test]
async fn a_json_schema_answer() {
    let server = TestServer::start(vec![Reply::json_text(
        200,
        &fixture("openai_json_schema.json"),
    )])
    .await;
    let provider = provider(&server);
    let schema = json!({"type": "object", "properties": {"actions": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}});
    let request = ask("Suggest actions.")
        .with_response_format(ResponseFormat::json_schema("action_list", schema));
    let response = provider.complete(&request).await.unwrap();
    let actions: Value = serde_json::from_str(response.text().unwrap()).unwrap();
    assert_eq!(actions["actions"].as_array().unwrap().len(), 2);
    let sent = server.requests()[0].json();
    assert_eq!(sent["response_format"]["type"], "json_schema");
    assert_eq!(
        sent["response_format"]["json_schema"]["name"],
        "action_list"
    );
    assert_eq!(sent["response_format"]["json_schema"]["strict"], true);
    assert_eq!(
        sent["response_format"]["json_schema"]["schema"]["additionalProperties"],
        false
    );
}

#[tokio::test]
async fn rate_limited_with_retry_after_then_success() {
    let limited = json!({"error": {"message": "Rate limit reached for gpt-4o-mini", "type": "requests", "param": null, "code": "rate_limit_exceeded"}});
    let server = TestServer::start(vec![
        Reply::json(429, &limited).header("retry-after", "1"),
        Reply::json_text(200, &fixture("openai_text.json")),
    ])
    .await;
    let started = Instant::now();
    let response = provider(&server).complete(&ask("hi")).await.unwrap();
    assert!(response.text().is_some());
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn rate_limited_until_the_retries_run_out_keeps_the_requested_wait() {
    let limited = json!({"error": {"message": "slow down", "type": "requests", "code": "rate_limit_exceeded"}});
    let reply = Reply::json(429, &limited).header("retry-after-ms", "10");
    let server = TestServer::start(vec![reply.clone(), reply.clone(), reply]).await;
    let error = provider(&server).complete(&ask("hi")).await.unwrap_err();
    assert_eq!(error.retry_after(), Some(Duration::from_millis(10)));
    assert!(error.retryable());
    assert_eq!(server.requests().len(), 3);
    assert_no_key(&error);
}

#[tokio::test]
async fn server_errors_three_times_then_a_typed_error() {
    let oops = json!({"error": {"message": "The server had an error while processing your request.", "type": "server_error", "param": null, "code": null}});
    let server = TestServer::start(vec![
        Reply::json(500, &oops),
        Reply::json(500, &oops),
        Reply::json(500, &oops),
    ])
    .await;
    let error = provider(&server).complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::Server {
                status: Some(500),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("The server had an error"),
        "{error}"
    );
    assert_eq!(server.requests().len(), 3, "one attempt and two retries");
}

#[tokio::test]
async fn insufficient_quota_is_not_retried() {
    let quota = json!({"error": {"message": "You exceeded your current quota, please check your plan and billing details.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}});
    let server = TestServer::start(vec![
        Reply::json(429, &quota),
        Reply::json_text(200, &fixture("openai_text.json")),
    ])
    .await;
    let error = provider(&server).complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::QuotaExceeded {
                status: Some(429),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(!error.retryable());
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_unsupported_parameter_is_a_typed_error_without_retries() {
    let refused = json!({"error": {"code": 500, "message": "Unsupported response_format type: json_schema", "type": "server_error"}});
    let server =
        TestServer::start(vec![Reply::json(500, &refused), Reply::json(500, &refused)]).await;
    let request = ask("Suggest actions.")
        .with_response_format(ResponseFormat::json_schema("a", json!({"type": "object"})));
    let error = provider(&server).complete(&request).await.unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::InvalidRequest {
                status: Some(500),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        !error.retryable(),
        "the engine falls back on a non-retryable error"
    );
    assert_eq!(server.requests().len(), 1);

    let bad = json!({"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}});
    let server = TestServer::start(vec![Reply::json(400, &bad)]).await;
    let error = provider(&server).complete(&ask("hi")).await.unwrap_err();
    match &error {
        LlmError::InvalidRequest { param, code, .. } => {
            assert_eq!(param.as_deref(), Some("max_tokens"));
            assert_eq!(code.as_deref(), Some("unsupported_parameter"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn x_should_retry_overrides_the_status() {
    let oops = json!({"error": {"message": "no", "type": "server_error"}});
    let server = TestServer::start(vec![
        Reply::json(503, &oops).header("x-should-retry", "false"),
        Reply::json_text(200, &fixture("openai_text.json")),
    ])
    .await;
    assert!(provider(&server).complete(&ask("hi")).await.is_err());
    assert_eq!(server.requests().len(), 1);

    let conflict = json!({"error": {"message": "busy", "type": "invalid_request_error"}});
    let server = TestServer::start(vec![
        Reply::json(422, &conflict).header("x-should-retry", "true"),
        Reply::json_text(200, &fixture("openai_text.json")),
    ])
    .await;
    assert!(provider(&server).complete(&ask("hi")).await.is_ok());
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_body_that_is_not_json() {
    let server = TestServer::start(vec![Reply::body(
        200,
        "text/html",
        "<html><body>Welcome to nginx!</body></html>",
    )])
    .await;
    let error = provider(&server).complete(&ask("hi")).await.unwrap_err();
    assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
    assert!(error.to_string().contains("Welcome to nginx"), "{error}");

    let server = TestServer::start(vec![Reply::body(
        502,
        "text/html",
        "<h1>502 Bad Gateway</h1>",
    )])
    .await;
    let error = OpenAiProvider::new(
        config(&server.base_url).with_retry(dnd_llm_openai::http::RetryPolicy::none()),
    )
    .unwrap()
    .complete(&ask("hi"))
    .await
    .unwrap_err();
    assert_eq!(
        (error.kind(), error.status()),
        ("server", Some(502)),
        "{error:?}"
    );
    assert!(error.to_string().contains("502 Bad Gateway"), "{error}");
}

#[tokio::test]
async fn unknown_fields_and_enum_values_over_http() {
    let server =
        TestServer::start(vec![Reply::json_text(200, &fixture("unknown_values.json"))]).await;
    let response = provider(&server).complete(&ask("hi")).await.unwrap();
    assert_eq!(response.text(), Some("The wind howls."));
    assert_eq!(response.raw.unwrap()["service_tier"], "on_demand");
}

#[tokio::test]
async fn a_connection_refused_is_retried_then_reported() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let error = OpenAiProvider::new(config(&base_url))
        .unwrap()
        .complete(&ask("hi"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, LlmError::Server { status: None, .. }),
        "{error:?}"
    );
    assert!(error.retryable());
    assert!(
        !error.to_string().contains("127.0.0.1"),
        "no URL in errors: {error}"
    );
}

#[tokio::test]
async fn the_key_is_absent_from_every_error_and_debug_string() {
    let echo = json!({"error": {"message": format!("Incorrect API key provided: {KEY}. You can find your API key at https://platform.openai.com/account/api-keys."), "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}});
    let server = TestServer::start(vec![
        Reply::json(401, &echo),
        Reply::body(200, "text/plain", format!("bad gateway for {KEY}")),
        Reply::json(400, &json!({"error": {"message": KEY}})),
    ])
    .await;
    let provider = provider(&server);
    let mut errors = Vec::new();
    for _ in 0..3 {
        errors.push(provider.complete(&conversation()).await.unwrap_err());
    }
    assert!(
        matches!(
            errors[0],
            LlmError::Auth {
                status: Some(401),
                ..
            }
        ),
        "{:?}",
        errors[0]
    );
    assert!(
        errors[0].to_string().contains("[redacted]"),
        "{}",
        errors[0]
    );
    for error in &errors {
        assert_no_key(error);
        let json = serde_json::to_string(error).unwrap();
        assert!(!json.contains(KEY), "{json}");
    }
    let debug = format!(
        "{provider:?} {:?} {:?}",
        provider.config(),
        provider.headers()
    );
    assert!(
        !debug.contains(KEY) && !debug.contains(&KEY[8..]),
        "{debug}"
    );
    assert_eq!(server.requests().len(), 3, "401 and 400 are not retried");
}
