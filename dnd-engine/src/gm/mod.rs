//! The game master: one turn from the player's words to narration, with every mechanic done in
//! code.
//!
//! [`GameMaster::turn`] does, in order: load the state from the store (one read); run the
//! checks code makes before the model is asked (passive Perception against hidden DCs where the
//! party is, NPC goal triggers); build the context (system prompt, summary, state snapshot, the
//! last turns of the LLM history, the input); run the protocol (tool calls go through
//! [`crate::tools`] against the turn's working copy); and commit everything in one store
//! transaction. If the provider or anything else fails before the commit, nothing is written
//! and the same input can be tried again.

mod added;
mod caps;
mod chosen;
mod context;
mod deadline;
mod memory;
mod outcome;
mod protocol;
mod recent;
mod scrub;
mod strict;
mod suggest;

use std::sync::Arc;

use futures::channel::mpsc;
use futures::stream::{self, BoxStream, StreamExt};
use rand::RngExt;

// The supported surface: the game master and its builder's settings, what a turn returns, and
// the pieces a caller that drives the tools itself or reads a turn's messages uses (the
// checks made before narration, the code summarizer, the scrubber, reading tool results back
// from the messages). The rest (the context's assembly, the StrictJson answer's shape, the
// action phase's answer) is how a turn works inside and may change in any release.
pub use added::{ADDED, AGAIN, added_calls, results_per_call};
pub use caps::OutputCaps;
pub(crate) use caps::end_at_sentence;
#[cfg(test)]
pub(crate) use context::build_context;
pub use context::{DEFAULT_SYSTEM_PROMPT, PreNarration, pre_narration_checks};
pub use memory::{SUMMARY_MAX_BYTES, Summarizer, fold_by_code};
pub(crate) use outcome::ActionList;
pub use outcome::{
    ACTION_LIST_SCHEMA, ActionMechanic, SUGGESTION_MAX_BYTES, SuggestedAction, TraceStep,
    TurnOutcome,
};
pub use protocol::Protocol;
pub use scrub::{Scrubbed, Scrubber, Secrets, scrub};
pub(crate) use strict::OFFERED_TOOLS;
pub(crate) use strict::{STRICT_ANSWER_SCHEMA, STRICT_NARRATION_SCHEMA};
pub use suggest::Suggestions;

use crate::dice::{TurnDice, game_rng, seeded_rng};
use crate::llm::{LlmError, LlmProvider, Message, ToolSpec, Usage};
use crate::srd::Srd;
use crate::state::{Change, GameSrd, GameState};
use crate::store::{CampaignId, ChatLine, GameStore, StoreError, TurnRecord};
use crate::tools::{ToolLimits, TurnLog, tool_specs};
use protocol::TurnRun;

/// What the player said or did this turn.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayerInput {
    /// Who speaks: a character's name, or "player".
    pub speaker: String,
    /// The words.
    pub text: String,
    /// The id of the last turn's suggested action the player picked, when it has a mechanic:
    /// the engine rolls that mechanic, as it offered it, before the game master narrates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
}

impl PlayerInput {
    /// Input from `speaker`.
    pub fn new(speaker: impl Into<String>, text: impl Into<String>) -> PlayerInput {
        PlayerInput {
            speaker: speaker.into(),
            text: text.into(),
            chosen: None,
        }
    }

    /// `speaker` picks one of the last turn's suggested actions: its words are the input, and
    /// its mechanic (if it has one), as the engine offered it, is rolled first.
    pub fn choose(speaker: impl Into<String>, action: &SuggestedAction) -> PlayerInput {
        PlayerInput {
            speaker: speaker.into(),
            text: action.description.clone(),
            chosen: action.mechanic.as_ref().map(|_| action.id.clone()),
        }
    }
}

/// Bounds on a turn. Each has a documented default; a field missing from a serialized form takes
/// its default.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct GmLimits {
    /// Rounds of tool calls before the narrative phase is stopped.
    pub max_tool_rounds: u32,
    /// The fewest past turns of LLM history sent with a call (default 1). Between two folds
    /// the history grows a turn at a time, up to `history_turns + summary_every - 1`, so each
    /// call repeats the previous call's start (what prompt caches reuse); see `summary_every`.
    pub history_turns: usize,
    /// What tools may do in one turn.
    pub tools: ToolLimits,
    /// Longest player input accepted, in bytes.
    pub max_input_bytes: usize,
    /// How many of the oldest past turns are folded into the campaign summary at once
    /// (default 2), when the history has grown to `history_turns + summary_every` turns: the
    /// summary and the history then change together, once every `summary_every` turns.
    pub summary_every: usize,
    /// The most input tokens (estimated as [`crate::state::estimate_tokens`] does, tools
    /// included) a call of the game master is sent while the history can give way (default
    /// 2,400): past turns are left out of a larger call, oldest first, until it fits. A call
    /// over the bound even with no past turn (its own turn's results are large) is sent as it
    /// is, since leaving out context would not bring it within the bound; the model's context
    /// window stays the hard bound. `None` leaves every call its whole history.
    pub call_tokens: Option<usize>,
    /// The most tool calls run from one answer of the model (default 8); the rest are dropped
    /// with a note to the model, so an answer of 200 calls neither runs them all nor fills the
    /// history.
    pub max_tool_calls_per_response: usize,
    /// The longest narration kept, in bytes (default 16,000, some 3,000 words); longer
    /// narration is cut with a note, in what the player sees and in the history the model is
    /// sent again.
    pub max_narration_bytes: usize,
    /// The longest text of a suggested action (its id, description, reason or dice), in bytes
    /// (default [`SUGGESTION_MAX_BYTES`], 300); a longer one is refused and asked again.
    pub max_suggestion_bytes: usize,
    /// The longest a turn may take before its commit (default 5 minutes). A turn past it fails
    /// with [`GmError::Deadline`] and writes nothing.
    pub turn_deadline: std::time::Duration,
}

impl Default for GmLimits {
    fn default() -> Self {
        GmLimits {
            max_tool_rounds: 8,
            history_turns: 1,
            tools: ToolLimits::default(),
            max_input_bytes: 2_000,
            summary_every: 2,
            call_tokens: Some(2_400),
            max_tool_calls_per_response: 8,
            max_narration_bytes: 16_000,
            max_suggestion_bytes: SUGGESTION_MAX_BYTES,
            turn_deadline: std::time::Duration::from_secs(300),
        }
    }
}

/// Why a turn failed. Nothing was committed: the same input can be tried again.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GmError {
    /// The language model provider failed.
    #[error("the language model failed: {0}")]
    Provider(#[source] LlmError),
    /// The store failed.
    #[error("the store failed: {0}")]
    Store(#[from] StoreError),
    /// The input was refused before anything ran.
    #[error("{0}")]
    Input(String),
    /// The turn ran past [`GmLimits::turn_deadline`] and was stopped before its commit.
    #[error(
        "the turn took longer than {} s, the longest a turn may take; nothing was saved: try again (the deadline is GmLimits::turn_deadline)",
        limit.as_secs_f64()
    )]
    Deadline {
        /// The deadline in force.
        limit: std::time::Duration,
    },
}

/// Runs turns of a game: a provider, a store, a protocol and limits.
pub struct GameMaster {
    provider: Arc<dyn LlmProvider>,
    store: Arc<dyn GameStore>,
    protocol: Protocol,
    suggestions: Suggestions,
    limits: GmLimits,
    system_prompt: String,
    temperature: Option<f32>,
    caps: OutputCaps,
    summarizer: Summarizer,
    tool_specs: Arc<Vec<ToolSpec>>,
    /// The action phase's schema, generated once and shared by every request.
    action_schema: Arc<serde_json::Value>,
    /// The builder's seed: when set, it replaces every campaign's own dice seed.
    seed: Option<u64>,
    /// Where the seeds given to campaigns without one come from (see [`GameState::dice_seed`]).
    fallback_seed: u64,
    /// The SRD the game plays on, given to every state it loads ([`GameState::set_srd`]).
    srd: GameSrd,
    /// The last turns committed, for the next turn's history (`recent.rs`).
    recent: recent::RecentMemo,
    /// The last state block written, for a next turn whose snapshot is the same.
    state_block: context::StateBlockMemo,
}

impl std::fmt::Debug for GameMaster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameMaster")
            .field("provider", &self.provider.name())
            .field("protocol", &self.protocol)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Builds a [`GameMaster`]: `GameMaster::builder(provider, store)...build()`.
pub struct GameMasterBuilder {
    provider: Arc<dyn LlmProvider>,
    store: Arc<dyn GameStore>,
    protocol: Option<Protocol>,
    suggestions: Suggestions,
    limits: GmLimits,
    system_prompt: String,
    temperature: Option<f32>,
    caps: OutputCaps,
    seed: Option<u64>,
    summarizer: Summarizer,
    srd: GameSrd,
}

impl GameMasterBuilder {
    /// The SRD the game plays on: its monsters, spells, items and classes for every tool and
    /// rule (defaults to the bundled SRD with the `bundled-srd` feature; without it, set one).
    /// A 5e-database folder becomes one with `srd::load_dir` and `FiveEDatabase::over`.
    pub fn srd(mut self, srd: Arc<Srd>) -> Self {
        self.srd = GameSrd::new(srd);
        self
    }

    /// The protocol; defaults to [`Protocol::TwoPhase`], or [`Protocol::StrictJson`] when the
    /// provider says it cannot call tools.
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = Some(protocol);
        self
    }

    /// Where a two-phase turn's suggested actions come from (defaults to
    /// [`Suggestions::Code`], which spares a model call a turn; [`Suggestions::Model`] asks
    /// the model).
    pub fn suggestions(mut self, suggestions: Suggestions) -> Self {
        self.suggestions = suggestions;
        self
    }

    /// Turn limits.
    pub fn limits(mut self, limits: GmLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The system prompt (defaults to [`DEFAULT_SYSTEM_PROMPT`]).
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = prompt.into();
        self
    }

    /// Sampling temperature sent with each request.
    pub fn temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Every call's answer capped at the same number of tokens ([`OutputCaps::uniform`]);
    /// [`output_caps`](Self::output_caps) sets one cap per kind of call.
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.caps = OutputCaps::uniform(max_tokens);
        self
    }

    /// The most tokens each kind of call may answer with (defaults to
    /// [`OutputCaps::default`]); an answer cut by its cap is ended at its last full sentence,
    /// or, for JSON, asked again once with a larger cap.
    pub fn output_caps(mut self, caps: OutputCaps) -> Self {
        self.caps = caps;
        self
    }

    /// Who folds old turns into the summary (defaults to [`Summarizer::Llm`]).
    pub fn summarizer(mut self, summarizer: Summarizer) -> Self {
        self.summarizer = summarizer;
        self
    }

    /// Seeds the dice (tests and replays); by default they come from the operating system.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// The game master.
    pub fn build(self) -> GameMaster {
        let protocol = self
            .protocol
            .unwrap_or(if self.provider.capabilities().tool_calling {
                Protocol::TwoPhase
            } else {
                Protocol::StrictJson
            });
        GameMaster {
            provider: self.provider,
            store: self.store,
            protocol,
            suggestions: self.suggestions,
            limits: self.limits,
            system_prompt: self.system_prompt,
            temperature: self.temperature,
            caps: self.caps,
            summarizer: self.summarizer,
            tool_specs: Arc::new(tool_specs()),
            action_schema: Arc::new(crate::tools::schema::strict_schema_for::<ActionList>()),
            seed: self.seed,
            fallback_seed: game_rng().random(),
            srd: self.srd,
            recent: recent::RecentMemo::default(),
            state_block: context::StateBlockMemo::default(),
        }
    }
}

impl GameMaster {
    /// A builder over a provider and a store.
    pub fn builder(provider: Arc<dyn LlmProvider>, store: Arc<dyn GameStore>) -> GameMasterBuilder {
        GameMasterBuilder {
            provider,
            store,
            protocol: None,
            suggestions: Suggestions::default(),
            limits: GmLimits::default(),
            system_prompt: DEFAULT_SYSTEM_PROMPT.to_owned(),
            temperature: None,
            caps: OutputCaps::default(),
            seed: None,
            summarizer: Summarizer::default(),
            srd: GameSrd::default(),
        }
    }

    /// The SRD this game master plays on ([`GameMasterBuilder::srd`]).
    pub fn srd(&self) -> &Arc<Srd> {
        self.srd.shared()
    }

    /// The seed of this turn's dice: the campaign's seed (or the builder's) mixed with the turn
    /// number, so a turn played again after a cancel rolls the same dice: a player cannot
    /// reroll a result they have already seen by cancelling it.
    fn turn_seed(&self, campaign: &CampaignId, state: &GameState) -> u64 {
        let base = match (self.seed, state.dice_seed) {
            (Some(seed), _) => seed,
            (None, seed) if seed.is_set() => seed.0,
            // A campaign without a seed (saved before seeds existed, or built by hand) gets one
            // in this turn (`seed_campaign`); until then its dice come from its id: the same on
            // every retry, so even this one turn cannot be rerolled.
            (None, _) => {
                let mut hasher = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(&campaign.0, &mut hasher);
                std::hash::Hasher::finish(&hasher)
            }
        };
        mix_seed(base, state.turn)
    }

    /// The change giving a campaign without a dice seed its own: a fresh secret, or with the
    /// builder's seed one derived from it, so seeded games replay exactly.
    fn seed_campaign(&self, state: &GameState) -> Option<Change> {
        if state.dice_seed.is_set() {
            return None;
        }
        let seed = match self.seed {
            Some(seed) => mix_seed(seed, u64::MAX),
            None => mix_seed(self.fallback_seed, state.turn),
        };
        Some(Change::DiceSeeded {
            seed: crate::state::DiceSeed(seed.max(1)),
        })
    }

    /// The output caps in use.
    pub fn output_caps(&self) -> OutputCaps {
        self.caps
    }

    /// The protocol in use.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn GameStore> {
        &self.store
    }

    /// Plays one turn: see the module docs. Nothing is written unless it all succeeds.
    pub async fn turn(
        &self,
        campaign: &CampaignId,
        input: PlayerInput,
    ) -> Result<TurnOutcome, GmError> {
        self.run_turn(campaign, input, None).await
    }

    /// Plays one turn, yielding the narration's text as it arrives and the outcome at the end.
    pub fn turn_stream<'a>(
        &'a self,
        campaign: &'a CampaignId,
        input: PlayerInput,
    ) -> BoxStream<'a, TurnEvent> {
        let (sender, receiver) = mpsc::unbounded::<TurnEvent>();
        let (done_sender, done_receiver) = mpsc::unbounded::<TurnEvent>();
        // One channel carries the turn's text and tool calls in the order they happen, then
        // another its outcome. The turn itself is driven by a stream that yields nothing.
        let turn = stream::once(async move {
            let outcome = self.run_turn(campaign, input, Some(sender)).await;
            let _ = done_sender.unbounded_send(TurnEvent::Done(Box::new(outcome)));
        })
        .filter_map(|()| async { None });
        let events = receiver.chain(done_receiver);
        stream::select(events, turn).boxed()
    }

    /// Plays the turn under the deadline, then commits it. The deadline stops before the
    /// commit, never during it: a store's commit is atomic, and one cut short could still land
    /// after the turn was reported as failed.
    async fn run_turn(
        &self,
        campaign: &CampaignId,
        input: PlayerInput,
        text_sink: Option<mpsc::UnboundedSender<TurnEvent>>,
    ) -> Result<TurnOutcome, GmError> {
        let deadline = self.limits.turn_deadline;
        let play = self.play_turn(campaign, input, text_sink);
        let Some(played) = deadline::within(deadline, play).await else {
            return Err(GmError::Deadline { limit: deadline });
        };
        let (record, mut outcome, recent) = played?;
        outcome.turn = self.store.commit_turn(campaign, record).await?;
        // The commit made this turn the campaign's head: its history is now `recent`.
        self.recent.keep(campaign, outcome.turn, recent);
        Ok(outcome)
    }

    /// Everything a turn does before its commit: the record to commit, the outcome to show
    /// (its turn number is set by the commit), and the history once it is committed.
    async fn play_turn(
        &self,
        campaign: &CampaignId,
        input: PlayerInput,
        text_sink: Option<mpsc::UnboundedSender<TurnEvent>>,
    ) -> Result<(TurnRecord, TurnOutcome, recent::Recent), GmError> {
        let text = input.text.trim();
        if text.is_empty() {
            return Err(GmError::Input(
                "say what your character does: the input was empty".into(),
            ));
        }
        if text.len() > self.limits.max_input_bytes {
            return Err(GmError::Input(format!(
                "the input is {} bytes long; keep it under {} (a few sentences)",
                text.len(),
                self.limits.max_input_bytes
            )));
        }
        // The state and its head in one read: the commit is refused if another game committed
        // or undid a turn since (`state.turn` would not see an undo followed by a commit).
        let (mut state, after_turn) = self.store.load_with_head(campaign).await?;
        // The store saves no rules data: the state plays on this game master's SRD.
        state.srd = self.srd.clone();
        // The recent turns sent, and on a turn that folds the ones just before them.
        let (mut history, folded) = self.load_history(campaign, &state, after_turn).await?;
        let run_turns = state.turn;
        // A fair campaign's dice come from its committed seed, each tool call's from its own
        // nonce in this turn's range: the turn's history number, never one an undone turn had.
        let mut rng = match &state.fair.current {
            Some(commit) => {
                let number = crate::fair::next_turn(&*self.store, campaign, after_turn).await?;
                TurnDice::Fair(Box::new(crate::dice::FairDice::new(
                    &commit.seed,
                    &commit.client_seed,
                    number,
                )))
            }
            None => TurnDice::Game(seeded_rng(self.turn_seed(campaign, &state))),
        };
        let mut log = TurnLog::default();
        if let Some(change) = self.seed_campaign(&state)
            && state.apply(&change).is_ok()
        {
            log.changes.push(change);
        }
        let mut usage = Usage::default();
        // A step per provider call and tool call: room for a usual turn.
        let mut trace = Vec::with_capacity(8);
        if !folded.is_empty() {
            let summary = self
                .fold_summary(&state.summary, &folded, &mut usage, &mut trace)
                .await?;
            let change = Change::SummaryUpdated { summary };
            if state.apply(&change).is_ok() {
                log.changes.push(change);
            }
        }
        let checks = pre_narration_checks(&mut state);
        log.changes.extend(checks.changes.iter().cloned());
        // The context as `build_context` writes it, from the memos where they apply.
        let mut messages = context::context_head(&self.system_prompt, &state, history.len());
        let history_at = messages.len();
        let history_turns = history.turn_sizes();
        history.move_into(&mut messages);
        context::context_tail(
            &mut messages,
            &state,
            self.state_block.text(&state),
            &input.speaker,
            text,
            &checks.findings,
        );
        let turn_start = messages.len() - 1;
        // The system prompt, the summary and the history stay the same for the next turns
        // until a fold (`recent::Window`): a cache breakpoint at the history's end is read
        // again by the next turn's calls.
        let stable_prefix = history_at + history_turns.iter().sum::<usize>();
        let mut run = TurnRun {
            state: &mut state,
            log: &mut log,
            rng: &mut rng,
            messages,
            turn_start,
            stable_prefix,
            history_at,
            history_turns,
            usage,
            trace,
            notes: Vec::new(),
            narration: String::new(),
            suggestions: Vec::new(),
            tool_sink: text_sink.clone(),
            text_sink,
            offered: Vec::new(),
            asked: Vec::new(),
        };
        if let Some(id) = &input.chosen {
            self.roll_chosen(campaign, id, &mut run).await?;
        }
        match self.protocol {
            Protocol::TwoPhase => {
                self.narrative_phase(&mut run).await?;
                run.text_sink = None;
                match self.suggestions {
                    Suggestions::Model => self.action_phase(&mut run).await?,
                    Suggestions::Code => {
                        run.suggestions = suggest::from_state(run.state, &input.speaker, &self.srd);
                    }
                }
            }
            Protocol::ToolLoop => self.narrative_phase(&mut run).await?,
            Protocol::StrictJson => self.strict_json_turn(&mut run).await?,
        }
        // What the player reads never holds a DC, an AC or an internal id (`scrub`): the
        // streamed text was scrubbed sentence by sentence the same way.
        let scrubbed = scrub::scrub(&run.narration, &scrub::Secrets::of(run.state));
        if !scrubbed.removed.is_empty() {
            run.trace.push(TraceStep::Note {
                text: format!(
                    "taken out of the narration before the player saw it: {}",
                    scrubbed.removed.join(", ")
                ),
            });
            run.narration = scrubbed.text;
        }
        for change in memory::memory_changes(run.state, &run.log.events) {
            if run.state.apply(&change).is_ok() {
                run.log.changes.push(change);
            }
        }
        let TurnRun {
            mut messages,
            turn_start,
            usage,
            trace,
            notes,
            narration,
            suggestions,
            ..
        } = run;
        let llm_messages: Vec<Message> = messages.split_off(turn_start);
        // What the next turn is sent, once this one is committed (one more turn in effect).
        let next = self.window(run_turns + 1).sent;
        let history = history.after(&mut messages, history_at, &llm_messages, next);
        let record = TurnRecord {
            input: text.to_owned(),
            changes: log.changes.clone(),
            rolls: log.rolls.clone(),
            events: log.events.clone(),
            player_messages: vec![
                ChatLine {
                    speaker: input.speaker.clone(),
                    text: text.to_owned(),
                },
                ChatLine {
                    speaker: "gm".into(),
                    text: narration.clone(),
                },
            ],
            llm_messages,
            choices: suggestions
                .iter()
                .filter_map(|s| s.mechanic.clone())
                .collect(),
            after_turn: Some(after_turn),
        };
        let outcome = TurnOutcome {
            turn: 0,
            narration,
            rolls: log.rolls,
            changes: log.changes,
            events: log.events,
            suggested_actions: suggestions,
            notes,
            usage,
            trace,
        };
        Ok((record, outcome, history))
    }
}

/// One seed from two: SplitMix64's finaliser over the base and the turn, so neighbouring turns
/// get unrelated generators.
fn mix_seed(base: u64, turn: u64) -> u64 {
    let mut z = base ^ turn.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What [`GameMaster::turn_stream`] yields, in the order it happens: narration text and tool
/// calls with their results as the turn runs, then [`Done`](TurnEvent::Done). More kinds may
/// be added: a match needs a `_` arm.
#[derive(Debug)]
#[non_exhaustive]
pub enum TurnEvent {
    /// More narration text.
    Text(String),
    /// A tool is about to run (the model's call, or a chosen action's roll).
    ToolCall {
        /// The call's id, which its [`ToolResult`](TurnEvent::ToolResult) repeats.
        id: String,
        /// The tool.
        name: String,
        /// Its arguments (as text when they were not JSON).
        arguments: serde_json::Value,
    },
    /// A tool ran: its JSON result, or why it was refused (nothing changed then).
    ToolResult {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
        /// The result the model reads, or the refusal's words.
        result: Result<serde_json::Value, String>,
    },
    /// The end of the turn: its outcome or why it failed.
    Done(Box<Result<TurnOutcome, GmError>>),
}

#[cfg(test)]
mod tests;
