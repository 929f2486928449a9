//! An offline game master and an offline player: the whole game with no network and no model.
//!
//! # Why
//!
//! The engine is built so that a language model only interprets and narrates while code owns
//! the dice, the rules and the state. [`OfflineGm`] proves the point from the other side: it is
//! an [`LlmProvider`] with no model behind it at all, so a game can be played (and tested end to
//! end, deterministically, in CI) through exactly the same pipeline, tools and store a real
//! model uses. It plays any adventure in the format, knowing none by name, because it only
//! reads what a model would read: the request.
//!
//! [`OfflinePlayer`] is the other seat at the table: a small policy that turns what the party
//! knows (`seen.rs`: the state block and what the tools have shown, never hidden data) into the
//! hero's next words, so `GameMaster` + `OfflineGm` + `OfflinePlayer` can autoplay an adventure
//! from the entrance to an ending.
//!
//! Neither knows an adventure by name: no title, room, NPC, monster, flag, puzzle answer, trap
//! or object of the built-in adventure appears in this module's code (`tests/names.rs` checks
//! it against the adventure's data). What the story does is the engine's: a gift, a topic, an
//! answer or a broken object plays the adventure's own effects, never a flag the game master
//! sets.
//!
//! # How
//!
//! Each request is answered from the request alone (no memory between calls, no randomness:
//! the engine rolls every die), so the same request always gets the same answer:
//!
//! 1. The state snapshot (`Current state (JSON): ...`), the tool results of earlier turns in
//!    the history and of this turn are read into a view of the world (`view.rs`, with
//!    `snapshot.rs` for the snapshot and `learn.rs` for the results).
//! 2. The player's last words become an [`Intent`] through a keyword parser ([`parse_intent`]):
//!    attack, cast, search, look, move, open, take, use or drink, talk, give, persuade, lie,
//!    threaten, sense (insight), disarm, rest, inventory, flee, or unknown (`intent.rs`;
//!    `words.rs` matches phrases to names).
//! 3. In the narrative phase, the planner (`plan.rs`, with `fight.rs` and `ways.rs`) picks the
//!    next round of tool calls from the intent and the results so far (start the fight, then
//!    swing, then let the monsters act through `next_turn`, or end the fight; a defeat's flag
//!    is the adventure's `on_defeat`, played by the engine; `story.rs` for the story tools:
//!    `talk_to` for a word, a topic or a gift, `social_check`, `answer_puzzle` with the player's
//!    words as said, `disarm_trap` on a trap the party knows of, `attack_object` on a thing
//!    that is no creature), or decides the turn is done. A round whose tools are not all
//!    offered is first sent as the calls to the tools left out alone: the game master refuses
//!    them, changing nothing, and offers them next round, where the same round is planned
//!    again and sent whole (`asking`). Then the narration
//!    (`narrate.rs`) fills templates with the results and the adventure's own descriptions, in
//!    the second person, without DCs, ACs or ids.
//! 4. In the action phase (a request for the `action_list` JSON), `suggest.rs` computes 2 to 5
//!    suggestions from the world after the turn.
//! 5. A StrictJson request gets the first round of calls as its actions; the narration asked
//!    for after they ran is written from their results, as in the narrative phase.
//!
//! # Limits
//!
//! It only does what the tools allow. A search rolls Perception, and the engine marks found
//! whatever hidden feature or exit the total reaches; a lock can only be opened with its key (no
//! tool opens one on a successful check yet). The snapshot gives a seen monster's hostility and
//! AC, so suggestions to attack carry their odds.
//!
//! ```
//! use std::sync::Arc;
//! use dnd_engine::adventure::Adventure;
//! use dnd_engine::gm::{GameMaster, PlayerInput};
//! use dnd_engine::offline::OfflineGm;
//! use dnd_engine::store::{GameStore, MemoryStore};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let store = Arc::new(MemoryStore::new());
//! let adventure = Adventure::built_in();
//! let hero = adventure.character_ids()[0].to_owned();
//! let game = adventure.new_game(&[hero.as_str()]).unwrap();
//! let id = store.create_campaign("Campaign", &game).await.unwrap();
//! let gm = GameMaster::builder(Arc::new(OfflineGm::new()), store).seed(1).build();
//! let outcome = gm.turn(&id, PlayerInput::new(hero, "I look around.")).await.unwrap();
//! let start = adventure.room(&adventure.start).unwrap();
//! assert!(outcome.narration.contains(&start.title));
//! assert!(outcome.suggested_actions.len() >= 2);
//! # });
//! ```

mod divine;
mod fight;
mod intent;
mod learn;
mod narrate;
mod plan;
mod player;
mod seen;
mod snapshot;
mod story;
mod suggest;
mod tell;
mod view;
mod ways;
mod words;

use async_trait::async_trait;
use serde_json::json;

pub use intent::{Intent, Sway, parse_intent};
pub use player::OfflinePlayer;
pub use words::exit_name;

use crate::gm::{ACTION_LIST_SCHEMA, STRICT_ANSWER_SCHEMA, STRICT_NARRATION_SCHEMA};
use crate::llm::{
    Capabilities, CompletionRequest, CompletionResponse, LlmError, LlmProvider, ResponseFormat,
    ToolCall,
};
use plan::{Next, plan};
use view::Turn;

/// A game master that needs no model: keyword intents, tool chains and templated narration.
///
/// Deterministic and stateless: the answer depends on the request only. See the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct OfflineGm {
    _private: (),
}

/// Which kind of answer a request wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Narrative,
    Actions,
    Strict,
    /// The StrictJson narration, written from the results of the actions that ran.
    StrictNarration,
}

/// What a request asks for, from its response format alone: the engine names every structured
/// request's schema, since the offline game master says it honours schemas
/// ([`LlmProvider::capabilities`]). Prompt text is never matched.
fn wanted(request: &CompletionRequest) -> Wanted {
    match &request.response_format {
        ResponseFormat::JsonSchema { name, .. } if name == ACTION_LIST_SCHEMA => Wanted::Actions,
        ResponseFormat::JsonSchema { name, .. } if name == STRICT_ANSWER_SCHEMA => Wanted::Strict,
        ResponseFormat::JsonSchema { name, .. } if name == STRICT_NARRATION_SCHEMA => {
            Wanted::StrictNarration
        }
        _ => Wanted::Narrative,
    }
}

impl OfflineGm {
    /// The offline game master.
    pub fn new() -> OfflineGm {
        OfflineGm::default()
    }

    /// A game master builder for `store` with the offline game master and the settings that
    /// suit it: the summary folded by code (no model to write it). The default when no language
    /// model is configured.
    pub fn game_master(
        store: std::sync::Arc<dyn crate::store::GameStore>,
    ) -> crate::gm::GameMasterBuilder {
        crate::gm::GameMaster::builder(std::sync::Arc::new(OfflineGm::new()), store)
            .summarizer(crate::gm::Summarizer::Code)
    }

    /// The answer to one request: tool calls or narration in the narrative phase, the
    /// `{"actions": [...]}` JSON in the action phase, a `StrictAnswer` JSON for StrictJson.
    pub fn answer(&self, request: &CompletionRequest) -> CompletionResponse {
        let turn = Turn::read(request);
        let response = match wanted(request) {
            Wanted::Actions => {
                CompletionResponse::from_text(suggest::suggestions(&turn).to_string())
            }
            Wanted::Strict => CompletionResponse::from_text(strict(&turn).to_string()),
            Wanted::StrictNarration => {
                let narration = match plan(&turn) {
                    Next::Done { lead, tail } => narrate::narrate(&turn, &lead, &tail),
                    Next::Refused(why) => narrate::narrate(&turn, &[why], &[]),
                    Next::Calls(_) => narrate::narrate(&turn, &[], &[]),
                };
                CompletionResponse::from_text(json!({ "narration": narration }).to_string())
            }
            Wanted::Narrative => match asking(&turn, plan(&turn)) {
                Next::Calls(calls) if !request.tools.is_empty() => {
                    // Counted from the request, not the view: a round the view leaves out
                    // (`asking`) still holds its ids.
                    let round = calling_rounds(request) + 1;
                    CompletionResponse::from_tool_calls(
                        calls
                            .into_iter()
                            .enumerate()
                            .map(|(i, (name, args))| {
                                ToolCall::new(format!("offline-{round}-{}", i + 1), name, args)
                            })
                            .collect(),
                    )
                }
                Next::Calls(_) => CompletionResponse::from_text(narrate::narrate(&turn, &[], &[])),
                Next::Done { lead, tail } => {
                    CompletionResponse::from_text(narrate::narrate(&turn, &lead, &tail))
                }
                Next::Refused(why) => {
                    CompletionResponse::from_text(narrate::narrate(&turn, &[why], &[]))
                }
            },
        };
        response.with_model("offline")
    }
}

/// How many answers with tool calls the request holds since the player last spoke.
fn calling_rounds(request: &CompletionRequest) -> usize {
    request
        .messages
        .iter()
        .rev()
        .take_while(|m| !matches!(m, crate::llm::Message::User { .. }))
        .filter(|m| !m.tool_calls().is_empty())
        .count()
}

/// The round to send for `next`: as planned when every tool in it is offered; else only the
/// calls whose tool is not, which the game master refuses, changing nothing, and adds to the
/// next round's list (`tools::situation`). The view leaves such refusals out (`view.rs`), so
/// the next request plans the same round again, now offered whole, in its order.
fn asking(turn: &Turn, next: Next) -> Next {
    match next {
        Next::Calls(calls) if calls.iter().any(|(tool, _)| !turn.offers(tool)) => Next::Calls(
            calls
                .into_iter()
                .filter(|(tool, _)| !turn.offers(tool))
                .collect(),
        ),
        other => other,
    }
}

/// One StrictJson answer: the first round of calls as actions (the engine runs them), and a
/// narration that promises nothing the dice have not decided yet.
fn strict(turn: &Turn) -> serde_json::Value {
    let (actions, narration) = match asking(turn, plan(turn)) {
        Next::Calls(calls) => (
            calls
                .into_iter()
                .map(|(tool, args)| json!({"tool": tool, "arguments": args.to_string()}))
                .collect(),
            AGAIN.to_owned(),
        ),
        Next::Done { lead, tail } => (Vec::new(), narrate::narrate(turn, &lead, &tail)),
        Next::Refused(why) => (Vec::new(), narrate::narrate(turn, &[why], &[])),
    };
    strict_answer(actions, narration)
}

/// The StrictJson narration of an answer with actions: it promises nothing the dice have not
/// decided yet.
const AGAIN: &str = "You commit to it; the dice will tell how it goes. What do you do next?";

/// A StrictJson answer with these actions and this narration.
fn strict_answer(actions: Vec<serde_json::Value>, narration: String) -> serde_json::Value {
    json!({
        "narration": narration,
        "out_of_character_notes": [],
        "actions": actions,
        "dice_rolls": [],
        "next_prompt_suggestion": null,
    })
}

#[async_trait]
impl LlmProvider for OfflineGm {
    fn name(&self) -> &str {
        "offline"
    }

    /// Tool calls, and answers that always match the schema asked for: so the engine names the
    /// schema of every structured request, which is how [`OfflineGm`] tells them apart.
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            tool_calling: true,
            json_schema: true,
            json_mode: true,
            context_window: None,
        }
    }

    async fn complete(&self, req: &CompletionRequest) -> Result<CompletionResponse, LlmError> {
        Ok(self.answer(req))
    }
}

#[cfg(test)]
mod tests;
