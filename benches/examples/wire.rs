//! What a turn costs on the wire: a scripted campaign played through the real
//! `OpenAiProvider` against an OpenAI-compatible server on 127.0.0.1, every request's bytes
//! recorded. The server answers as the offline game master would (it decodes the request the
//! adapter sent and asks `OfflineGm`), so the game plays as it does offline while the requests
//! are exactly what a paid model would be sent.
//!
//! ```sh
//! cargo run --release -p dnd-benches --example wire -- --turns 300
//! cargo run --release -p dnd-benches --example wire -- --turns 300 --model-suggestions
//! cargo run --release -p dnd-benches --example wire -- --turns 300 --whole-history
//! cargo run --release -p dnd-benches --example wire -- --turns 30 --dump /tmp/calls.jsonl
//! ```
//!
//! `--model-suggestions` asks the model for the suggested actions in a second call each turn
//! (the two-phase design's first form) instead of reading them off the state;
//! `--whole-history` sends every past turn, folding nothing (the first design's baseline);
//! `--keep N` and `--every N` set `GmLimits::history_turns` and `summary_every`, `--cap N`
//! sets `GmLimits::call_tokens` (`--cap 0`: none).
//!
//! The summariser's calls are answered with a summary of the length the engine asks for (150
//! words, made by code from what the call sent), so the summary later calls carry has a real
//! model's size; the prefix share of a call is measured against the previous call of the same
//! kind (the game master's or the summariser's), as a prefix cache keeps both.
//!
//! `--dump FILE` writes the bodies of the last ten turns' requests (from `--dump-from TURN` with
//! it), one a line, to see what a call is made of.
//!
//! It prints a Markdown table: input tokens per call and per turn (estimated as
//! `state::estimate_tokens` does, one token per four bytes of the request body, tools
//! included), calls per turn, tools per call, and the share of each call's body that is a
//! byte-identical prefix of the previous call's (what prefix caching can reuse).

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, GmLimits, PlayerInput, Protocol, Suggestions, fold_by_code};
use dnd_engine::llm::{
    CompletionRequest, CompletionResponse, Message, ResponseFormat, ToolCall, ToolSpec,
};
use dnd_engine::offline::OfflineGm;
use dnd_engine::store::{GameStore, MemoryStore};
use dnd_llm_openai::{OpenAiConfig, OpenAiProvider};

/// What the player says, turn after turn, round and round: exploring, talking, fighting and
/// resting, as a long campaign does.
const SCRIPT: &[&str] = &[
    "I look around.",
    "I search the area.",
    "I attack the harpy!",
    "I attack the harpy!",
    "I attack the harpy!",
    "I take everything.",
    "I go east.",
    "I talk to Aldous.",
    "I ask Sigrun about the oath.",
    "I search the hall.",
    "I go west.",
    "I take a short rest.",
    "I check my pack.",
    "I go east.",
];

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    turn: usize,
    /// The summariser's call (no tools), measured against the previous summariser call: it
    /// is a conversation of its own, and a prefix cache keeps both.
    summary: bool,
    bytes: usize,
    tools: usize,
    prefix: usize,
}

#[derive(Default)]
struct Log {
    turn: usize,
    /// The previous game master's call and the previous summariser's call.
    previous: [Vec<u8>; 2],
    seen: Vec<Seen>,
    /// Every call's body with its turn, for `--dump`.
    bodies: Vec<(usize, Vec<u8>)>,
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The adapter's request, read back into the engine's types (only what the offline game master
/// looks at: the messages, whether tools are offered, the JSON schema's name).
fn decode(body: &Value) -> CompletionRequest {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let messages = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| match m["role"].as_str().unwrap_or_default() {
            "system" | "developer" => Message::system(text(&m["content"])),
            "user" => Message::User {
                content: text(&m["content"]),
                name: m["name"].as_str().map(str::to_owned),
            },
            "tool" => Message::Tool {
                tool_call_id: text(&m["tool_call_id"]),
                content: text(&m["content"]),
            },
            _ => Message::Assistant {
                content: m["content"].as_str().map(str::to_owned),
                tool_calls: m["tool_calls"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| {
                        let f = &c["function"];
                        let args = serde_json::from_str(f["arguments"].as_str().unwrap_or("{}"))
                            .unwrap_or(Value::Null);
                        ToolCall::new(text(&c["id"]), text(&f["name"]), args)
                    })
                    .collect(),
                reasoning: None,
            },
        })
        .collect();
    let tools: Vec<ToolSpec> = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            let f = &t["function"];
            ToolSpec::new(
                text(&f["name"]),
                text(&f["description"]),
                f["parameters"].clone(),
            )
        })
        .collect();
    let mut request = CompletionRequest::new(messages).with_tools(tools);
    if let Some(name) = body["response_format"]["json_schema"]["name"].as_str() {
        let schema = body["response_format"]["json_schema"]["schema"].clone();
        request = request.with_response_format(ResponseFormat::json_schema(name, schema));
    }
    request
}

/// The summary a model would write when `request` is the summariser's (its prompt starts
/// with the summary so far, then the lines to fold): as long as the prompt allows, 150 words,
/// made by code from what it was sent, so the summary every later call carries has a real
/// model's size (the offline game master does not summarise).
fn summary_asked(request: &Value) -> Option<String> {
    if request["tools"].as_array().is_some_and(|t| !t.is_empty()) {
        return None;
    }
    let prompt = request["messages"]
        .as_array()?
        .iter()
        .find_map(|m| (m["role"] == "user").then(|| m["content"].as_str().unwrap_or_default()))?;
    let rest = prompt.strip_prefix("The campaign summary so far:\n")?;
    let (summary, rest) = rest.split_once("\n\nWhat happened since:\n- ")?;
    let (lines, _) = rest.split_once("\n\nWrite the new summary")?;
    let lines: Vec<String> = lines.split("\n- ").map(str::to_owned).collect();
    let folded = fold_by_code(summary, &lines);
    let words: Vec<&str> = folded.split_whitespace().collect();
    let from = words.len().saturating_sub(150);
    Some(words[from..].join(" "))
}

/// The prompt tokens a cache like OpenAI's would serve from a prefix of `prefix_bytes` shared
/// with the previous call: none below 1,024 tokens, then whole blocks of 128 (OpenAI's rule).
fn cached_tokens(prompt_bytes: usize, prefix_bytes: usize) -> usize {
    if prompt_bytes / 4 < 1_024 {
        0
    } else {
        prefix_bytes / 4 / 128 * 128
    }
}

/// The offline game master's answer in the chat completions wire format, its usage with the
/// cached tokens a prefix cache would report.
fn encode(response: &CompletionResponse, prompt_bytes: usize, prefix_bytes: usize) -> Value {
    let Message::Assistant {
        content,
        tool_calls,
        ..
    } = &response.message
    else {
        unreachable!("a provider answers as the assistant")
    };
    let calls: Vec<Value> = tool_calls
        .iter()
        .map(|c| {
            json!({"id": c.id, "type": "function",
                   "function": {"name": c.name, "arguments": c.arguments.to_string()}})
        })
        .collect();
    let mut message = json!({"role": "assistant", "content": content});
    if !calls.is_empty() {
        message["tool_calls"] = json!(calls);
    }
    let completion = content.as_deref().map_or(0, str::len) / 4 + 1;
    json!({
        "id": "wire", "object": "chat.completion", "created": 0, "model": "offline",
        "choices": [{"index": 0, "message": message,
                     "finish_reason": if calls.is_empty() { "stop" } else { "tool_calls" }}],
        "usage": {"prompt_tokens": prompt_bytes / 4, "completion_tokens": completion,
                  "total_tokens": prompt_bytes / 4 + completion,
                  "prompt_tokens_details": {"cached_tokens": cached_tokens(prompt_bytes, prefix_bytes)}}
    })
}

/// Serves one keep-alive connection: each request recorded and answered.
async fn serve(mut stream: TcpStream, log: Arc<Mutex<Log>>) {
    let gm = OfflineGm::new();
    let mut buffer = Vec::new();
    loop {
        let head_end = loop {
            if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let mut chunk = [0u8; 16 * 1024];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buffer[..head_end]).to_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        while buffer.len() < head_end + length {
            let mut chunk = [0u8; 64 * 1024];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Vec<u8> = buffer[head_end..head_end + length].to_vec();
        buffer.drain(..head_end + length);
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let summary = summary_asked(&request);
        let shared = {
            let mut log = log.lock().unwrap();
            let prefix = common_prefix(&log.previous[usize::from(summary.is_some())], &body);
            let turn = log.turn;
            log.seen.push(Seen {
                turn,
                summary: summary.is_some(),
                bytes: body.len(),
                tools: request["tools"].as_array().map_or(0, Vec::len),
                prefix,
            });
            log.bodies.push((turn, body.clone()));
            log.previous[usize::from(summary.is_some())] = body.clone();
            prefix
        };
        let response = match summary {
            Some(text) => CompletionResponse::from_text(text),
            None => gm.answer(&decode(&request)),
        };
        let answer = encode(&response, body.len(), shared).to_string();
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
            answer.len()
        );
        if stream.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
    }
}

fn turns_asked() -> usize {
    argument("--turns")
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// The value after `flag` on the command line.
fn argument(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2).find(|w| w[0] == flag).map(|w| w[1].clone())
}

fn median(mut values: Vec<usize>) -> usize {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let turns = turns_asked();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let log = Arc::new(Mutex::new(Log::default()));
    let served = log.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream, served.clone()));
        }
    });

    let config = OpenAiConfig::local(format!("http://{address}/v1"), "offline");
    let provider = Arc::new(OpenAiProvider::new(config).unwrap());
    let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let id = store.create_campaign("Wire", &state).await.unwrap();
    let model_suggestions = std::env::args().any(|a| a == "--model-suggestions");
    let mut limits = GmLimits::default();
    if let Some(keep) = argument("--keep").and_then(|v| v.parse().ok()) {
        limits.history_turns = keep;
    }
    if let Some(every) = argument("--every").and_then(|v| v.parse().ok()) {
        limits.summary_every = every;
    }
    if let Some(cap) = argument("--cap").and_then(|v| v.parse::<usize>().ok()) {
        limits.call_tokens = (cap > 0).then_some(cap);
    }
    if std::env::args().any(|a| a == "--whole-history") {
        // The first design's baseline: every past turn sent, nothing folded.
        limits.history_turns = usize::MAX / 4;
        limits.call_tokens = None;
    }
    let gm = GameMaster::builder(provider, store.clone())
        .limits(limits)
        .protocol(Protocol::TwoPhase)
        .suggestions(if model_suggestions {
            Suggestions::Model
        } else {
            Suggestions::Code
        })
        .seed(7)
        .build();
    // What the engine's own accounts say of each turn (`TurnOutcome::usage`, summed from the
    // trace's calls): the cached tokens come back from the server's usage, as from OpenAI's.
    let mut reported: Vec<(usize, u32, u32)> = Vec::with_capacity(turns);
    for turn in 1..=turns {
        log.lock().unwrap().turn = turn;
        let said = SCRIPT[(turn - 1) % SCRIPT.len()];
        match gm.turn(&id, PlayerInput::new("Kraven", said)).await {
            Ok(outcome) => reported.push((
                turn,
                outcome.usage.prompt_tokens,
                outcome.usage.cached_tokens,
            )),
            Err(error) => eprintln!("turn {turn}: {error}"),
        }
    }

    let seen = log.lock().unwrap().seen.clone();
    if let Some(path) = argument("--dump") {
        // The last ten turns' request bodies (or from `--dump-from TURN`), one per line.
        let from = argument("--dump-from")
            .and_then(|v| v.parse().ok())
            .unwrap_or(turns.saturating_sub(9));
        let mut lines = Vec::new();
        for (turn, body) in &log.lock().unwrap().bodies {
            if *turn >= from {
                lines.extend_from_slice(body);
                lines.push(b'\n');
            }
        }
        std::fs::write(&path, lines).unwrap();
        eprintln!("the request bodies from turn {from} are in {path}, one a line");
    }
    // Averages over ten turns, so one fight or one rest does not make the row.
    let window = |last: usize| -> (f64, usize, usize) {
        let first = last.saturating_sub(9).max(1);
        let calls: Vec<&Seen> = seen
            .iter()
            .filter(|s| (first..=last).contains(&s.turn))
            .collect();
        let n = (last - first + 1).max(1);
        let bytes: usize = calls.iter().map(|s| s.bytes).sum();
        let most = calls.iter().map(|s| s.bytes).max().unwrap_or(0);
        (calls.len() as f64 / n as f64, bytes / 4 / n, most / 4)
    };
    println!("| turns | calls per turn | input tokens per turn | largest call (tokens) |");
    println!("|---|---:|---:|---:|");
    let mut rows: Vec<usize> = [10, 100, 200, turns]
        .into_iter()
        .filter(|t| *t <= turns)
        .collect();
    rows.dedup();
    for last in rows {
        let (calls, tokens, most) = window(last);
        println!(
            "| {}–{last} | {calls:.1} | {tokens} | {most} |",
            last.saturating_sub(9).max(1)
        );
    }
    let calls = seen.len() as f64 / turns as f64;
    let game_master: Vec<&Seen> = seen.iter().filter(|s| !s.summary).collect();
    let summaries: Vec<&Seen> = seen.iter().filter(|s| s.summary).collect();
    let share = |s: &Seen| s.prefix * 100 / s.bytes.max(1);
    println!();
    println!(
        "- calls per turn, on average: {calls:.2} ({:.2} the game master's, {:.2} the summariser's)",
        game_master.len() as f64 / turns as f64,
        summaries.len() as f64 / turns as f64
    );
    println!(
        "- tools in a call: at most {}, median {}",
        seen.iter().map(|s| s.tools).max().unwrap_or(0),
        median(seen.iter().map(|s| s.tools).collect())
    );
    let last_ten: Vec<&&Seen> = game_master.iter().filter(|s| s.turn + 10 > turns).collect();
    println!(
        "- the game master's calls: median {} tokens, largest {}; in the last ten turns median {}, largest {}, {} of {} under 2,500",
        median(game_master.iter().map(|s| s.bytes / 4).collect()),
        game_master.iter().map(|s| s.bytes / 4).max().unwrap_or(0),
        median(last_ten.iter().map(|s| s.bytes / 4).collect()),
        last_ten.iter().map(|s| s.bytes / 4).max().unwrap_or(0),
        last_ten.iter().filter(|s| s.bytes / 4 < 2_500).count(),
        last_ten.len()
    );
    println!(
        "- the summariser's calls: median {} tokens, largest {}",
        median(summaries.iter().map(|s| s.bytes / 4).collect()),
        summaries.iter().map(|s| s.bytes / 4).max().unwrap_or(0)
    );
    let shares: Vec<usize> = game_master.iter().map(|s| share(s)).collect();
    let at_least = shares.iter().filter(|share| **share >= 60).count();
    println!(
        "- share of a game master's call that repeats the previous one's first bytes: median {}%, at least 60% in {} of {} calls",
        median(shares),
        at_least,
        game_master.len()
    );
    let last: Vec<&(usize, u32, u32)> = reported
        .iter()
        .filter(|(turn, _, _)| *turn + 10 > turns)
        .collect();
    let (input, cached) = last.iter().fold((0u64, 0u64), |(i, c), (_, p, k)| {
        (i + u64::from(*p), c + u64::from(*k))
    });
    let n = last.len().max(1) as u64;
    println!(
        "- the last ten turns as the engine's usage reports them: {} input tokens a turn, {} of them cached ({}%)",
        input / n,
        cached / n,
        cached * 100 / input.max(1)
    );
}
