//! Where the prompt-cache markers go for an Anthropic model.

use crate::OpenRouterConfigExt;
use dnd_engine::llm::{CompletionRequest, LlmProvider, Message, ToolCall, ToolSpec};
use dnd_llm_openrouter::{MAX_BREAKPOINTS, OpenRouterProvider};
use serde_json::{Value, json};

use crate::provider;
use crate::server::{Reply, TestServer};

const MODEL: &str = "anthropic/claude-sonnet-4.5";

/// A game's request: system prompt and summary (the stable prefix), the state, then `turns`
/// turns (the player, a roll, its result, the narration), then the player's new input.
fn game(turns: usize) -> CompletionRequest {
    let mut messages = vec![
        Message::system("You are the game master of The Wailing Glacier."),
        Message::system("The story so far: Kraven crossed the ice bridge."),
        Message::system("Current state (JSON): {\"hp\": 27}"),
    ];
    for turn in 0..turns {
        let id = format!("call_{turn}");
        messages.push(Message::user_named("Kraven", format!("I act ({turn}).")));
        messages.push(Message::assistant_tool_calls(vec![ToolCall::new(
            &id,
            "roll_dice",
            json!({"notation": "1d20"}),
        )]));
        messages.push(Message::tool_result(&id, format!("{{\"total\":{turn}}}")));
        messages.push(Message::assistant(format!("Narration {turn}.")));
    }
    messages.push(Message::user_named("Kraven", "I look around."));
    let mut request = CompletionRequest::new(messages).with_tool(ToolSpec::new(
        "roll_dice",
        "Roll dice.",
        json!({"type": "object", "properties": {"notation": {"type": "string"}}, "required": ["notation"]}),
    ));
    request.stable_prefix = 2;
    request
}

fn body(provider: &OpenRouterProvider, request: &CompletionRequest) -> Value {
    serde_json::from_slice(&provider.request_body(request, false).unwrap()).unwrap()
}

/// The positions of the messages whose content carries a marker.
fn marked(body: &Value) -> Vec<usize> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m["content"]
                .as_array()
                .is_some_and(|parts| parts.iter().any(|p| p.get("cache_control").is_some()))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The position of the last message of turn `turn` (0-based) in [`game`].
fn end_of_turn(turn: usize) -> usize {
    3 + turn * 4 + 3
}

#[tokio::test]
async fn a_stable_prefix_of_two_is_marked_and_sent() {
    let server = TestServer::start(vec![Reply::json(
        200,
        &json!({"id": "gen-1", "model": MODEL, "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "The wind howls."}}], "usage": {"prompt_tokens": 3000, "completion_tokens": 4, "cost": 0.0091, "prompt_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 2900}}}),
    )])
    .await;
    let provider = provider(&server.base_url, MODEL);
    let request = game(1);
    let response = provider.complete(&request).await.unwrap();
    assert_eq!(response.usage.cache_write_tokens, 2900);
    let sent = server.requests()[0].json();
    assert_eq!(marked(&sent), vec![1, 7], "the prefix's end and the tail");
    insta::assert_json_snapshot!("stable_prefix_two", sent["messages"]);
}

#[test]
fn a_long_game_advances_the_checkpoint_and_never_exceeds_four_markers() {
    let provider = provider("http://127.0.0.1:9/api/v1", MODEL);
    for turns in 0..10 {
        let request = game(turns);
        assert_eq!(
            marked(&body(&provider, &request)),
            vec![1, request.messages.len() - 1],
            "{turns} turns: no checkpoint yet"
        );
    }
    for turns in 10..20 {
        let request = game(turns);
        assert_eq!(
            marked(&body(&provider, &request)),
            vec![1, end_of_turn(9), request.messages.len() - 1],
            "{turns} turns: the checkpoint after turn 10 stays"
        );
    }
    let request = game(23);
    assert_eq!(
        marked(&body(&provider, &request)),
        vec![
            1,
            end_of_turn(9),
            end_of_turn(19),
            request.messages.len() - 1
        ],
        "advanced to turn 20, the previous checkpoint kept for the call that advanced"
    );
    for turns in 0..120 {
        let sent = body(&provider, &game(turns));
        let markers = sent.to_string().matches("cache_control").count();
        assert!(
            markers <= MAX_BREAKPOINTS,
            "{turns} turns: {markers} markers"
        );
    }
}

#[test]
fn the_checkpoint_interval_is_configurable_and_other_models_get_no_markers() {
    let every_three = OpenRouterProvider::new(
        crate::config("http://127.0.0.1:9/api/v1", MODEL).with_cache_every(3),
    )
    .unwrap();
    let request = game(7);
    assert_eq!(
        marked(&body(&every_three, &request)),
        vec![
            1,
            end_of_turn(2),
            end_of_turn(5),
            request.messages.len() - 1
        ]
    );
    let openai = provider("http://127.0.0.1:9/api/v1", "openai/gpt-4o");
    let sent = body(&openai, &game(30));
    assert!(!sent.to_string().contains("cache_control"));
    assert_eq!(
        sent["messages"][1]["content"],
        json!("The story so far: Kraven crossed the ice bridge.")
    );
}
