//! Opt-in tests against a REAL OpenAI-compatible server running a real (tiny) model.
//!
//! Our loopback servers speak the wire format as we understand it; a real server shows what we
//! missed. Start one with `scripts/local-llm-server.sh [PORT]` (llama.cpp's Python server and
//! SmolLM2-135M-Instruct, installed under `target/`), then:
//!
//! ```text
//! DND_LLM_SERVER=http://127.0.0.1:8765/v1 cargo test -p dnd-llm-openai --test real_server -- --ignored --nocapture
//! ```
//!
//! Every test is `#[ignore]`d with that reason, so a plain `cargo test` lists them as ignored,
//! never as passed. Asked for with `--ignored` but without `DND_LLM_SERVER`, they fail saying
//! what to set. The model is tiny and
//! calls tools badly (prose for arguments, a legacy `function_call` beside `tool_calls`, ids of
//! 60 characters, the whole call repeated in every streamed fragment); the tests assert that
//! the adapter and the engine take whatever comes without a panic or a hang: a tool call the
//! engine refuses is a typed error fed back to the model, which is fine.
//!
//! The server serves one request at a time and ends a stream at once (`[DONE]` with no
//! `finish_reason`) when another request is waiting, so these tests, run in parallel or beside
//! another client, interrupt each other's streams. The adapter reports that as a retryable
//! error, and the streamed tests ask again, up to five times.

use std::sync::Arc;
use std::time::{Duration, Instant};

use dnd_engine::adventure::Adventure;
use dnd_engine::dice::seeded_rng;
use dnd_engine::gm::{GameMaster, GmLimits, PlayerInput};
use dnd_engine::llm::{
    CompletionRequest, CompletionResponse, FinishReason, LlmError, LlmProvider, Message,
    ResponseFormat, StreamEvent, ToolChoice,
};
use dnd_engine::srd::Srd;
use dnd_engine::state::GameState;
use dnd_engine::store::{GameStore, MemoryStore, Page};
use dnd_engine::tools::{ToolContext, ToolLimits, TurnLog, call_tool, tool_specs};
use dnd_llm_openai::http::{RetryPolicy, Timeouts};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};
use futures::StreamExt;
use serde_json::{Value, json};

// A test the shared server would not let finish says it skipped (a failure on CI).
#[path = "../../dnd-engine/tests/support/environment.rs"]
mod environment;

/// The server's base URL. The tests run only when asked for (`--ignored`), so a missing
/// variable is a failure saying what to set, never a silent pass.
fn server() -> String {
    match std::env::var("DND_LLM_SERVER") {
        Ok(url) if !url.trim().is_empty() => url.trim().to_owned(),
        _ => panic!(
            "DND_LLM_SERVER is not set, so there is no server to test against: start one with \
             `scripts/local-llm-server.sh 8765` and set DND_LLM_SERVER=http://127.0.0.1:8765/v1"
        ),
    }
}

/// A provider for the local server: no key, the legacy `max_tokens`, bounded timeouts so a
/// stuck server fails the test instead of hanging it.
fn provider(base_url: &str) -> OpenAiProvider {
    let config = OpenAiConfig::local(base_url, "smollm2")
        .with_timeouts(Timeouts {
            connect: Duration::from_secs(5),
            request: Duration::from_secs(120),
            idle: Duration::from_secs(60),
        })
        .with_retry(RetryPolicy {
            initial_delay: Duration::from_millis(100),
            ..RetryPolicy::default()
        });
    OpenAiProvider::new(config).expect("the provider starts")
}

/// The engine's `roll_dice` tool, as the game offers it.
fn roll_dice() -> Vec<dnd_engine::llm::ToolSpec> {
    tool_specs()
        .into_iter()
        .filter(|tool| tool.name == "roll_dice")
        .collect()
}

/// Whether a stream was interrupted: llama-cpp-python's server ends a stream at once (`[DONE]`
/// without a `finish_reason`) when another client's request arrives, which the adapter reports
/// as a retryable error rather than a short answer.
fn interrupted(error: &LlmError) -> bool {
    matches!(error, LlmError::Server { status: None, .. })
        && error.retryable()
        && error.message().contains("without a finish_reason")
}

/// Streams `request` to its final response, asking again (up to five times) when another
/// client of the shared server interrupted the stream.
async fn stream_patiently(
    provider: &OpenAiProvider,
    request: &CompletionRequest,
) -> Result<(Vec<StreamEvent>, CompletionResponse), LlmError> {
    let mut attempt = 1;
    loop {
        let events: Vec<Result<StreamEvent, LlmError>> = provider.stream(request).collect().await;
        let mut kept = Vec::with_capacity(events.len());
        let mut failure = None;
        for event in events {
            match event {
                Ok(event) => kept.push(event),
                Err(error) => failure = Some(error),
            }
        }
        match failure {
            Some(error) if interrupted(&error) && attempt < 5 => {
                eprintln!("  stream interrupted by another client (attempt {attempt}): {error}");
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Some(error) => return Err(error),
            None => match kept.last() {
                Some(StreamEvent::Done(response)) => {
                    let response = response.clone();
                    return Ok((kept, response));
                }
                _ => panic!("the stream ended without Done: {kept:?}"),
            },
        }
    }
}

fn game() -> GameState {
    Adventure::built_in()
        .new_game(&["kraven"])
        .expect("the built-in adventure starts")
}

#[tokio::test]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_plain_answer() {
    let url = server();
    let request = CompletionRequest::new(vec![
        Message::system("You are a terse innkeeper."),
        Message::user("Name your tavern."),
    ])
    .with_max_tokens(40)
    .with_temperature(0.2)
    .with_seed(7);
    let response = provider(&url).complete(&request).await.expect("an answer");
    eprintln!("plain: {:?} {:?}", response.text(), response.finish_reason);
    assert!(response.text().is_some_and(|t| !t.trim().is_empty()));
    assert!(matches!(
        response.finish_reason,
        FinishReason::Stop | FinishReason::Length
    ));
    assert!(response.usage.prompt_tokens > 0 && response.usage.completion_tokens > 0);
    assert!(response.raw.is_some());
}

#[tokio::test]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_streamed_answer() {
    let url = server();
    let provider = provider(&url);
    let request = CompletionRequest::new(vec![Message::user("Describe a frozen cave.")])
        .with_max_tokens(40)
        .with_seed(7);
    let (events, response) = match stream_patiently(&provider, &request).await {
        Ok(answer) => answer,
        Err(error) if interrupted(&error) => {
            return environment::missing(&format!(
                "the shared server interrupted every attempt (run it alone, --test-threads 1); \
                 the adapter said so: {error}"
            ));
        }
        Err(error) => panic!("{error}"),
    };
    let mut deltas = String::new();
    let mut pieces = 0;
    for event in &events {
        if let StreamEvent::TextDelta(text) = event {
            deltas.push_str(text);
            pieces += 1;
        }
    }
    eprintln!("streamed in {pieces} pieces: {deltas:?}");
    assert!(pieces > 1, "text arrived in pieces");
    assert_eq!(response.text(), Some(deltas.as_str()));
    assert!(response.tool_calls().is_empty());
}

/// Runs each tool call of `response` on `state` through the engine and appends the assistant
/// message and the results to `request`; returns how many calls the engine refused.
fn run_tools(
    response: CompletionResponse,
    request: &mut CompletionRequest,
    state: &mut GameState,
) -> usize {
    let mut rng = dnd_engine::dice::TurnDice::Game(seeded_rng(11));
    let limits = ToolLimits::default();
    let mut log = TurnLog::default();
    let mut refused = 0;
    let calls = response.tool_calls().to_vec();
    request.messages.push(response.message);
    for call in calls {
        let arguments = match &call.arguments {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let mut ctx = ToolContext {
            state,
            srd: Srd::bundled(),
            rng: &mut rng,
            limits: &limits,
            log: &mut log,
        };
        let result = call_tool(&call.name, &arguments, &mut ctx);
        eprintln!(
            "  call {:?} id {:?} ({} chars, provider id {:?}) args {arguments} -> ok {} {}",
            call.name,
            call.id,
            call.id.len(),
            call.provider_id,
            result.ok,
            result.to_text()
        );
        refused += usize::from(!result.ok);
        request
            .messages
            .push(Message::tool_result(&call.id, result.to_text()));
    }
    refused
}

/// One tool round trip: a forced `roll_dice` call, the engine runs it, the result goes back,
/// the model answers. `streamed` sends both calls as streams.
async fn tool_round_trip(provider: &OpenAiProvider, streamed: bool) {
    let mut state = game();
    let mut request = CompletionRequest::new(vec![
        Message::system(
            "You are the game master. Never invent dice results: call roll_dice for every roll.",
        ),
        Message::user_named("Kraven", "Roll 1d20+3 for my stealth check."),
    ])
    .with_tools(roll_dice())
    .with_tool_choice(ToolChoice::Tool("roll_dice".into()))
    .with_max_tokens(80)
    .with_seed(3);
    let ask = |request: CompletionRequest| async move {
        if streamed {
            stream_patiently(provider, &request)
                .await
                .map(|(_, response)| response)
        } else {
            provider.complete(&request).await
        }
    };
    let first = match ask(request.clone()).await {
        Ok(first) => first,
        Err(error) if interrupted(&error) => {
            return environment::missing(&format!(
                "the shared server interrupted every attempt (run it alone, --test-threads 1); \
                 the adapter said so: {error}"
            ));
        }
        Err(error) => panic!("no first answer: {error}"),
    };
    eprintln!(
        "tool round trip (streamed: {streamed}): {} call(s), finish {:?}",
        first.tool_calls().len(),
        first.finish_reason
    );
    assert_eq!(first.tool_calls().len(), 1, "one forced call: {first:?}");
    assert_eq!(first.tool_calls()[0].name, "roll_dice");
    let refused = run_tools(first, &mut request, &mut state);
    eprintln!("  the engine refused {refused} call(s); the errors go back to the model");
    request.tool_choice = ToolChoice::Auto;
    match ask(request.clone()).await {
        Ok(second) => eprintln!(
            "  then: {:?} with {} call(s)",
            second.text(),
            second.tool_calls().len()
        ),
        // A typed error is an acceptable outcome for a tiny model; a panic or hang is not.
        Err(error) => eprintln!("  then a typed error: {error}"),
    }
}

#[tokio::test]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_tool_round_trip_with_roll_dice() {
    let url = server();
    let provider = provider(&url);
    tool_round_trip(&provider, false).await;
}

#[tokio::test]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_streamed_tool_round_trip_with_roll_dice() {
    let url = server();
    let provider = provider(&url);
    tool_round_trip(&provider, true).await;
}

#[tokio::test]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_json_schema_request_is_a_typed_error_and_json_mode_works() {
    let url = server();
    let provider = provider(&url);
    let schema =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let started = Instant::now();
    let error = provider
        .complete(
            &CompletionRequest::new(vec![Message::user("Name a goblin.")])
                .with_response_format(ResponseFormat::json_schema("goblin", schema))
                .with_max_tokens(30),
        )
        .await
        .expect_err("this server refuses json_schema");
    eprintln!("json_schema: {error}");
    assert!(
        matches!(error, LlmError::InvalidRequest { .. }),
        "{error:?}"
    );
    assert!(!error.retryable());
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "refused at once, not retried"
    );
    let response = provider
        .complete(
            &CompletionRequest::new(vec![Message::user(
                "Answer with a JSON object with a \"name\" for a goblin.",
            )])
            .with_response_format(ResponseFormat::JsonObject)
            .with_max_tokens(40),
        )
        .await
        .expect("json_object is accepted");
    eprintln!("json_object: {:?}", response.text());
    if response.finish_reason == FinishReason::Stop {
        let text = response.text().unwrap_or_default();
        assert!(
            serde_json::from_str::<Value>(text).is_ok_and(|v| v.is_object()),
            "JSON mode gave {text:?}"
        );
    }
}

#[tokio::test]
#[ignore = "needs a real model server: set DND_LLM_SERVER (scripts/local-llm-server.sh starts one) and pass --ignored"]
async fn a_game_master_turn_finishes_or_writes_nothing() {
    let url = server();
    let provider: Arc<dyn LlmProvider> = Arc::new(provider(&url));
    let store = Arc::new(MemoryStore::new());
    let initial = game();
    let campaign = store
        .create_campaign("Real server", &initial)
        .await
        .expect("a campaign");
    let master = GameMaster::builder(provider, store.clone())
        .max_tokens(120)
        .seed(5)
        .limits(GmLimits {
            max_tool_rounds: 2,
            ..GmLimits::default()
        })
        .build();
    let started = Instant::now();
    let outcome = tokio::time::timeout(
        Duration::from_secs(600),
        master.turn(
            &campaign,
            PlayerInput::new("Kraven", "I look around the cave."),
        ),
    )
    .await
    .expect("the turn ends (no hang)");
    let history = store
        .history(&campaign, Page::first(100))
        .await
        .expect("the history reads");
    match outcome {
        Ok(outcome) => {
            eprintln!(
                "turn {} in {:?}: {:?}\n  {} roll(s), {} action(s), notes {:?}",
                outcome.turn,
                started.elapsed(),
                outcome.narration,
                outcome.rolls.len(),
                outcome.suggested_actions.len(),
                outcome.notes
            );
            assert_eq!(outcome.turn, 1);
            assert_eq!(history.len(), 1, "one turn committed");
        }
        Err(error) => {
            eprintln!("the turn failed in {:?}: {error}", started.elapsed());
            assert!(history.is_empty(), "a failed turn writes nothing");
            let state = store.load(&campaign).await.expect("the state reads");
            assert_eq!(state.turn, initial.turn);
        }
    }
}
