//! Criterion benches of the LLM adapters' pure work: what a call costs the engine besides the
//! network and the model (`dnd_llm_openai`; the OpenRouter adapter builds on the same code).
//!
//! - `llm/build_request`: a 30-message game request (system prompt, summary, state, six turns
//!   of player, tool call, tool result and narration, then a tool round) with 20 of the engine's
//!   tools, built into the wire body and serialized to bytes, with the tool schemas sanitized
//!   once and reused ([`StrictTools`], the path `OpenAiProvider` takes);
//! - `llm/parse_response`: its answer (text, two tool calls, usage with cache and reasoning
//!   tokens) parsed into the engine's response, raw JSON kept as the provider keeps it;
//! - `llm/build_and_parse`: both, one call's whole overhead. Target: under 100 µs;
//! - `stream/assemble_200_chunks`: a streamed answer of 200 server-sent events (181 text deltas,
//!   a tool call in 16 fragments, the finish, usage, `[DONE]`, and two keep-alive comments) fed
//!   event by event through the SSE parser and the stream assembler to the final response.
//!   Reported per chunk (criterion's throughput is in chunks: elements per second).
//!
//! **Allocation per chunk.** The bench binary's global allocator counts allocations
//! (`stats_alloc`; it adds a few atomic increments to each allocation, so every figure here is
//! slightly pessimistic). Before timing, the bench prints the allocations of assembling a
//! stream against those of only decoding its chunks' JSON (`serde_json::from_str::<ChatChunk>`
//! on each event's data), for 200 and 400 chunks. The difference is what assembly adds; it must
//! not grow with the number of chunks (the buffers of the parser and the assembler are reused;
//! only the accumulated text and the output list grow, by doubling). The provider's reading
//! loop (`events_from_body`, not measured here: it needs a connection) adds one small
//! allocation per network read that yields events, for the list it queues them through.
//!
//! Run with `cargo bench -p dnd-benches --bench llm`.

use std::alloc::System;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dnd_engine::llm::{CompletionRequest, LlmError, Message, StreamEvent, ToolCall, ToolSpec};
use dnd_engine::tools::tool_specs;
use dnd_llm_openai::sse::{SseEvent, SseParser};
use dnd_llm_openai::stream::StreamAssembler;
use dnd_llm_openai::wire::ChatChunk;
use dnd_llm_openai::{RequestOptions, StrictTools, build_request_with, parse_response};
use serde_json::json;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// A game's request: 30 messages, 20 tools.
fn request() -> CompletionRequest {
    let tools: Vec<ToolSpec> = tool_specs().into_iter().take(20).collect();
    assert_eq!(tools.len(), 20);
    let mut messages = vec![
        Message::system("You are the game master of The Wailing Glacier. ".repeat(20)),
        Message::system("The story so far: Kraven crossed the ice bridge and met Ysolde."),
        Message::system(format!(
            "Current state (JSON): {}",
            json!({"hp": 27, "room": "ice-bridge", "conditions": [], "inventory": ["rope", "torch"]})
        )),
    ];
    for turn in 0..7 {
        let id = format!("call_{turn}");
        messages.push(Message::user_named(
            "Kraven",
            format!("I try to climb the frozen wall ({turn})."),
        ));
        messages.push(Message::assistant_tool_calls(vec![ToolCall::new(
            &id,
            "roll_skill_check",
            json!({"creature": "kraven", "skill": "athletics", "dc": 12, "advantage": null, "reason": "climb"}),
        )]));
        messages.push(Message::tool_result(
            &id,
            json!({"total": 14, "dc": 12, "success": true, "rolls": [11]}).to_string(),
        ));
        if turn < 6 {
            messages.push(Message::assistant(
                "You haul yourself up the ice, fingers numb, and reach the ledge.",
            ));
        }
    }
    let request = CompletionRequest::new(messages).with_tools(tools);
    assert_eq!(request.messages.len(), 30);
    request
}

/// The answer to [`request`]: text, two tool calls, usage.
fn answer() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 1_745_000_000,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "The wind howls as you reach the ledge.",
            "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "roll_dice", "arguments": "{\"expression\":\"1d20+3\",\"advantage\":null,\"reason\":\"grip\"}"}},
                {"id": "call_b", "type": "function", "function": {"name": "get_room_details", "arguments": "{\"room\":null}"}}
            ]}}],
        "usage": {"prompt_tokens": 4210, "completion_tokens": 61, "total_tokens": 4271,
            "prompt_tokens_details": {"cached_tokens": 3840}, "completion_tokens_details": {"reasoning_tokens": 0}},
        "system_fingerprint": "fp_bench"
    }))
    .expect("the answer serializes")
}

/// The data of a streamed answer of `chunks` events (at least 20): text deltas, a tool call in
/// 16 fragments, the finish, usage, `[DONE]`.
fn stream_events(chunks: usize) -> Vec<String> {
    let head = r#""id":"chatcmpl-bench","object":"chat.completion.chunk","model":"gpt-4o-mini""#;
    let mut events = Vec::with_capacity(chunks);
    let texts = chunks - 19;
    for i in 0..texts {
        events.push(format!(
            r#"{{{head},"choices":[{{"index":0,"delta":{{"content":"word{i} "}},"finish_reason":null}}]}}"#
        ));
    }
    let arguments = r#"{"expression":"1d20+3","advantage":null,"reason":"the guard's perception"}"#;
    let pieces: Vec<String> = (0..16)
        .map(|i| {
            let piece = &arguments[arguments.len() * i / 16..arguments.len() * (i + 1) / 16];
            serde_json::to_string(piece).expect("a JSON string")
        })
        .collect();
    assert_eq!(pieces.len(), 16);
    for (i, piece) in pieces.iter().enumerate() {
        let start = if i == 0 {
            r#""id":"call_s","type":"function","function":{"name":"roll_dice","arguments":"#
        } else {
            r#""function":{"arguments":"#
        };
        events.push(format!(
            r#"{{{head},"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":0,{start}{piece}}}}}]}},"finish_reason":null}}]}}"#
        ));
    }
    events.push(format!(
        r#"{{{head},"choices":[{{"index":0,"delta":{{}},"finish_reason":"tool_calls"}}]}}"#
    ));
    events.push(format!(
        r#"{{{head},"choices":[],"usage":{{"prompt_tokens":4210,"completion_tokens":{chunks},"total_tokens":{}}}}}"#,
        4210 + chunks
    ));
    events.push("[DONE]".to_owned());
    assert_eq!(events.len(), chunks);
    events
}

/// Each event as the bytes a network read would deliver.
fn stream_bytes(events: &[String]) -> Vec<Vec<u8>> {
    events
        .iter()
        .enumerate()
        .map(|(i, data)| {
            let comment = if i % 100 == 0 { ": keep-alive\n\n" } else { "" };
            format!("{comment}data: {data}\n\n").into_bytes()
        })
        .collect()
}

/// Parses and assembles a stream; returns the number of text deltas and tool calls.
fn assemble(reads: &[Vec<u8>]) -> Result<usize, LlmError> {
    let mut parser = SseParser::new();
    let mut assembler = StreamAssembler::new();
    let mut out: Vec<StreamEvent> = Vec::new();
    let mut seen = 0;
    for read in reads {
        let mut feed = |event: SseEvent<'_>| assembler.push(event.event, event.data, &mut out);
        parser.push(read, &mut feed)?;
        seen += out.len();
        out.clear();
    }
    parser.finish(&mut |event: SseEvent<'_>| assembler.push(event.event, event.data, &mut out))?;
    let last = assembler.finish()?;
    Ok(seen + last.len())
}

/// Allocations of assembling `chunks` events, and of only decoding their JSON.
fn allocations(chunks: usize) -> (usize, usize) {
    let events = stream_events(chunks);
    let reads = stream_bytes(&events);
    let region = Region::new(GLOBAL);
    black_box(assemble(&reads).expect("the stream assembles"));
    let assembled = region.change().allocations;
    let region = Region::new(GLOBAL);
    for data in events.iter().filter(|d| *d != "[DONE]") {
        black_box(serde_json::from_str::<ChatChunk>(data).expect("a chunk"));
    }
    (assembled, region.change().allocations)
}

fn bench_request(c: &mut Criterion) {
    let request = request();
    let options = RequestOptions::new("gpt-4o-mini");
    let strict = StrictTools::new(&request.tools);
    let answer = answer();
    let body_len = serde_json::to_vec(&build_request_with(&request, &options, Some(&strict)))
        .expect("the body serializes")
        .len();
    eprintln!(
        "llm: a 30-message request with 20 tools is {body_len} bytes; its answer {} bytes",
        answer.len()
    );
    let mut group = c.benchmark_group("llm");
    group.bench_function("build_request", |b| {
        b.iter(|| {
            let body = build_request_with(black_box(&request), &options, Some(&strict));
            serde_json::to_vec(&body).expect("the body serializes")
        });
    });
    group.bench_function("parse_response", |b| {
        b.iter(|| parse_response(black_box(&answer)).expect("the answer parses"));
    });
    group.bench_function("build_and_parse", |b| {
        b.iter(|| {
            let body = build_request_with(black_box(&request), &options, Some(&strict));
            let bytes = serde_json::to_vec(&body).expect("the body serializes");
            (
                bytes.len(),
                parse_response(black_box(&answer)).expect("the answer parses"),
            )
        });
    });
    group.finish();
}

fn bench_stream(c: &mut Criterion) {
    for chunks in [200, 400] {
        let (assembled, decoded) = allocations(chunks);
        eprintln!(
            "stream: {chunks} chunks: {assembled} allocations assembled, {decoded} for the JSON \
             decode alone, {} added by parsing and assembly ({:.3} per chunk)",
            assembled.saturating_sub(decoded),
            assembled.saturating_sub(decoded) as f64 / chunks as f64
        );
    }
    let events = stream_events(200);
    let reads = stream_bytes(&events);
    let mut group = c.benchmark_group("stream");
    group.throughput(Throughput::Elements(200));
    group.bench_function("assemble_200_chunks", |b| {
        b.iter(|| assemble(black_box(&reads)).expect("the stream assembles"));
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_request, bench_stream
}
criterion_main!(benches);
