//! The model's seat at the table: an [`LlmProvider`] that answers each request the game master
//! sends with the tool calls its driver queued, and checks that every name those calls use was
//! shown to it first, in the messages of some request (the state block, a tool result, the
//! player's words). It sees no `GameState`: what it knows is what a real model would be told.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::{Value, json};

use dnd_engine::gm::{
    ACTION_LIST_SCHEMA, GameMaster, PlayerInput, Protocol, TurnOutcome, added_calls,
    results_per_call,
};
use dnd_engine::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, Message,
    ResponseFormat, ToolCall,
};
use dnd_engine::state::{GameState, Snapshot};
use dnd_engine::store::{CampaignId, GameStore};

/// The argument fields that name something in the world (a creature, place, item, answer):
/// each must have been shown to the model before it uses it.
const NAMING_FIELDS: &[&str] = &[
    "character",
    "creature",
    "attacker",
    "target",
    "npc",
    "puzzle",
    "feature",
    "object",
    "exit",
    "to",
    "item",
    "give",
    "topic",
    "answer",
    "monster",
    "monsters",
    "from",
];

/// What the seat was told and what it used before it was told.
#[derive(Default)]
struct Memory {
    /// Every message of every request, lower-cased.
    seen: String,
    /// The calls queued for the next request that offers tools.
    queued: Vec<(String, Value)>,
    /// Names used before any request showed them.
    unseen: Vec<String>,
    /// How many calls it has made.
    calls: usize,
    /// The results of its last round of calls, as the last request carried them.
    results: Vec<String>,
}

/// The model's seat (see the module's doc).
#[derive(Default)]
pub struct Seat {
    memory: Mutex<Memory>,
}

impl Seat {
    fn remember(&self, request: &CompletionRequest) {
        let mut memory = self.memory.lock().unwrap();
        for message in &request.messages {
            let text = match message {
                Message::System { content } | Message::User { content, .. } => content.clone(),
                Message::Assistant { content, .. } => content.clone().unwrap_or_default(),
                Message::Tool { content, .. } => content.clone(),
            };
            memory.seen.push_str(&text.to_lowercase());
            memory.seen.push('\n');
        }
        // A request that ends with tool results answers the seat's calls of this turn (since
        // the player spoke): one result per call, a call made again counting once.
        if matches!(request.messages.last(), Some(Message::Tool { .. })) {
            let turn = request
                .messages
                .iter()
                .rposition(|m| matches!(m, Message::User { .. }))
                .map_or(0, |i| i + 1);
            memory.results = results_per_call(&request.messages[turn..]);
        }
    }

    /// The queued calls, each name checked against what was seen.
    fn calls(&self) -> Vec<ToolCall> {
        let mut memory = self.memory.lock().unwrap();
        let queued = std::mem::take(&mut memory.queued);
        let mut calls = Vec::with_capacity(queued.len());
        for (name, args) in queued {
            let mut names = Vec::new();
            naming_values(&args, None, &mut names);
            for value in names {
                if !memory.seen.contains(&value.to_lowercase()) {
                    memory.unseen.push(format!("{name}: {value:?}"));
                }
            }
            memory.calls += 1;
            calls.push(ToolCall::new(format!("seat-{}", memory.calls), name, args));
        }
        calls
    }
}

/// The strings under [`NAMING_FIELDS`] in a call's arguments.
fn naming_values(value: &Value, field: Option<&str>, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                naming_values(v, Some(k), out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| naming_values(v, field, out)),
        Value::String(s) if field.is_some_and(|f| NAMING_FIELDS.contains(&f)) => {
            out.push(s.clone())
        }
        _ => {}
    }
}

#[async_trait]
impl LlmProvider for Seat {
    fn name(&self) -> &str {
        "model-like seat"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            tool_calling: true,
            json_schema: true,
            json_mode: true,
            context_window: None,
        }
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        self.remember(request);
        if matches!(&request.response_format, ResponseFormat::JsonSchema { name, .. } if name == ACTION_LIST_SCHEMA)
        {
            return Ok(CompletionResponse::from_text(
                json!({"actions": [{"id": "go-on", "description": "Go on", "reason": null, "mechanic": null}]})
                    .to_string(),
            ));
        }
        // A call refused because its tool was not sent is made again now that it is, as a
        // model reading the refusal does; the names in it were seen already.
        let again = added_calls(request);
        let calls = if request.tools.is_empty() {
            Vec::new()
        } else if !again.is_empty() {
            again
        } else {
            self.calls()
        };
        Ok(if calls.is_empty() {
            CompletionResponse::from_text("The story goes on.")
        } else {
            CompletionResponse::from_tool_calls(calls)
        })
    }
}

/// A campaign played from the model's seat: each turn the driver (the test, standing in for
/// the model's judgement) reads what the model was shown ([`Walk::view`], the snapshot every
/// request carries, and the tool results of its calls) and queues the calls it would make.
pub struct Walk {
    seat: Arc<Seat>,
    gm: GameMaster,
    store: Arc<dyn GameStore>,
    id: CampaignId,
    speaker: String,
    /// Every turn: what the player said, and the results of the calls, as the model read them.
    pub transcript: String,
}

/// The results of one turn's calls, as the model read them.
pub struct Told {
    /// Each result, parsed.
    pub results: Vec<Value>,
}

impl Told {
    /// Whether every call succeeded.
    pub fn all_ok(&self) -> bool {
        self.results.iter().all(|r| r.get("error").is_none())
    }

    /// All results as one text (to look for what the story said).
    pub fn text(&self) -> String {
        self.results
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Walk {
    /// A new campaign of `state` on `store`, the player speaking as `speaker`.
    pub async fn new(
        state: &GameState,
        store: Arc<dyn GameStore>,
        speaker: &str,
        seed: u64,
    ) -> Walk {
        let seat = Arc::new(Seat::default());
        let id = store.create_campaign("Walk", state).await.unwrap();
        let gm = GameMaster::builder(seat.clone(), store.clone())
            .protocol(Protocol::TwoPhase)
            .seed(seed)
            .build();
        Walk {
            seat,
            gm,
            store,
            id,
            speaker: speaker.into(),
            transcript: String::new(),
        }
    }

    /// What the next request's state block shows (the snapshot: the model's view of the
    /// world, nothing hidden).
    pub async fn view(&self) -> Snapshot {
        self.store.load(&self.id).await.unwrap().snapshot()
    }

    /// One turn: the player says `say`; the model calls `calls` in one round (and makes again,
    /// in the next, a call refused because its tool was not sent), then narrates.
    pub async fn turn(&mut self, say: &str, calls: Vec<(&str, Value)>) -> Told {
        let asked: Vec<String> = calls
            .iter()
            .map(|(name, args)| format!("{name} {args}"))
            .collect();
        {
            let mut memory = self.seat.memory.lock().unwrap();
            memory.results.clear();
            memory.queued = calls
                .into_iter()
                .map(|(name, args)| (name.to_owned(), args))
                .collect();
        }
        let outcome: TurnOutcome = self
            .gm
            .turn(&self.id, PlayerInput::new(self.speaker.clone(), say))
            .await
            .unwrap();
        let results: Vec<Value> = self
            .seat
            .memory
            .lock()
            .unwrap()
            .results
            .iter()
            .map(|r| serde_json::from_str(r).unwrap_or(Value::String(r.clone())))
            .collect();
        self.transcript.push_str(&format!("> {say}\n"));
        for (call, result) in asked.iter().zip(&results) {
            self.transcript
                .push_str(&format!("  {call}\n    -> {result}\n"));
        }
        self.transcript
            .push_str(&format!("  < {}\n", outcome.narration));
        assert_eq!(
            results.len(),
            asked.len(),
            "every call queued was made:\n{}",
            self.transcript
        );
        Told { results }
    }

    /// The names the model used before it was shown them (empty for an honest walk).
    pub fn unseen(&self) -> Vec<String> {
        self.seat.memory.lock().unwrap().unseen.clone()
    }

    /// The stored state, for the test's final checks (never for choosing a move).
    pub async fn state(&self) -> GameState {
        self.store.load(&self.id).await.unwrap()
    }
}
