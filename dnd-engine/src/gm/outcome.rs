//! What a turn returns: [`TurnOutcome`], its suggested actions with their odds, the trace of
//! every step, and the `GameResponse` JSON form the HOLODECK seed defined.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::llm::{ToolCall, Usage};
use crate::srd::Srd;
use crate::state::{Change, GameState, StoryEvent};
use crate::store::RollRecord;

/// An action the player might take next, as the model suggested it, with the engine's odds.
///
/// The odds come from the engine's own numbers only (the sheet's bonus, the target's armor
/// class, the check's DC: see [`crate::tools::odds`]), never from dice the model wrote. When the
/// player picks it, its `mechanic` is rolled by the engine before the game master narrates
/// ([`PlayerInput::choose`](super::PlayerInput::choose)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuggestedAction {
    /// A short id ("attack-harpy").
    pub id: String,
    /// What the player would do, in a few words.
    pub description: String,
    /// The dice it would roll with the real bonus ("1d20+5"), when the engine can tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// The number to meet (a DC or an AC), when the engine can tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// Why it might be a good idea.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The exact chance of success, when the engine can tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<f64>,
    /// The damage to expect on average, all outcomes weighed, when the engine can tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_damage: Option<f64>,
    /// The tool call the engine makes first when the player picks this action (its id is the
    /// action's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mechanic: Option<ToolCall>,
}

impl SuggestedAction {
    /// Attaches the engine's odds of the action's mechanic on `state`; none when it has no
    /// mechanic or the engine's numbers cannot tell.
    pub fn with_odds(mut self, state: &GameState, srd: &Srd) -> SuggestedAction {
        let odds = self
            .mechanic
            .as_ref()
            .and_then(|m| crate::tools::odds(state, srd, &m.name, &m.arguments));
        self.dice = odds.as_ref().map(|o| o.dice.clone());
        self.dc = odds.as_ref().map(|o| o.target);
        self.expected_damage = odds.as_ref().and_then(|o| o.expected_damage);
        self.chance = odds.map(|o| o.chance);
        self
    }

    /// "Attack the harpy (65%)".
    pub fn label(&self) -> String {
        match self.chance {
            Some(p) => format!("{} ({:.0}%)", self.description, p * 100.0),
            None => self.description.clone(),
        }
    }
}

/// The answer the action phase asks for: 2 to 5 suggestions.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionList {
    /// The suggestions, best first.
    pub actions: Vec<ActionSuggestion>,
}

/// One suggestion as the model writes it.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionSuggestion {
    /// A short kebab-case id.
    pub id: String,
    /// What the player would do, in a few words.
    pub description: String,
    /// Why it might be a good idea, or null.
    pub reason: Option<String>,
    /// The tool call that resolves it (an attack, a skill check), which the engine rolls if the
    /// player picks it and whose odds it shows; null for an action without one.
    pub mechanic: Option<ActionMechanic>,
}

/// The tool call behind a suggested action.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionMechanic {
    /// The tool's name ("roll_attack", "roll_skill_check").
    pub tool: String,
    /// Its arguments: a JSON object, written as a string.
    pub arguments: String,
}

/// The name of the JSON Schema of the action phase's answer (the action list).
pub const ACTION_LIST_SCHEMA: &str = "action_list";

/// The default longest text of a suggested action (its id, description, reason or dice), in
/// bytes: suggestions are one short sentence each, shown in a menu
/// ([`GmLimits::max_suggestion_bytes`](super::GmLimits::max_suggestion_bytes)).
pub const SUGGESTION_MAX_BYTES: usize = 300;

impl ActionList {
    /// Checks the list: 2 to 5 entries, each with an id and a description, ids unique.
    #[cfg(test)]
    pub(crate) fn validate(&self) -> Result<(), String> {
        self.validate_within(SUGGESTION_MAX_BYTES)
    }

    /// [`ActionList::validate`], with texts of at most `max_text_bytes` each.
    pub fn validate_within(&self, max_text_bytes: usize) -> Result<(), String> {
        if !(2..=5).contains(&self.actions.len()) {
            return Err(format!("give 2 to 5 actions, not {}", self.actions.len()));
        }
        for (i, a) in self.actions.iter().enumerate() {
            if a.id.trim().is_empty() || a.description.trim().is_empty() {
                return Err(format!("action {i} needs an id and a description"));
            }
            let longest = [
                Some(&a.id),
                Some(&a.description),
                a.reason.as_ref(),
                a.mechanic.as_ref().map(|m| &m.arguments),
            ]
            .into_iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(0);
            if longest > max_text_bytes {
                return Err(format!(
                    "action {i} has a text of {longest} bytes; keep each under {max_text_bytes} (one short sentence)"
                ));
            }
            if self.actions[..i].iter().any(|b| b.id == a.id) {
                return Err(format!("the id {:?} is used twice", a.id));
            }
        }
        Ok(())
    }

    /// The suggestions with the engine's odds on `state`. A mechanic whose arguments are not a
    /// JSON object is dropped (the action stays, without odds or a roll).
    pub fn into_suggestions(self, state: &GameState, srd: &Srd) -> Vec<SuggestedAction> {
        self.actions
            .into_iter()
            .map(|a| {
                let mechanic = a.mechanic.and_then(|m| {
                    let arguments = serde_json::from_str::<serde_json::Value>(&m.arguments)
                        .ok()
                        .filter(serde_json::Value::is_object)?;
                    Some(ToolCall::new(a.id.clone(), m.tool, arguments))
                });
                SuggestedAction {
                    id: a.id,
                    description: a.description,
                    dice: None,
                    dc: None,
                    reason: a.reason,
                    chance: None,
                    expected_damage: None,
                    mechanic,
                }
                .with_odds(state, srd)
            })
            .collect()
    }
}

/// One step of a turn, for the debug view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
#[non_exhaustive]
pub enum TraceStep {
    /// A call to the provider.
    ProviderCall {
        /// "narrative", "actions" or "strict_json".
        phase: String,
        /// Its round in the phase, from 1.
        round: u32,
        /// Wall time in microseconds.
        micros: u64,
        /// Tokens and cost.
        usage: Usage,
        /// Why the model stopped (`length`: the output cap cut the answer; a note says what
        /// was done with it).
        finish_reason: String,
        /// The output cap the call was sent with ([`OutputCaps`](super::OutputCaps)), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_tokens: Option<u32>,
    },
    /// A tool call.
    ToolCall {
        /// The tool.
        name: String,
        /// Whether it succeeded.
        ok: bool,
        /// Wall time in microseconds.
        micros: u64,
    },
    /// Something the engine decided ("tool round limit reached", "suggestions dropped").
    Note {
        /// What.
        text: String,
    },
}

impl TraceStep {
    /// Whether this is a provider call whose answer the output cap cut (finish reason
    /// `length`); a [`Note`](TraceStep::Note) after it says what was done with the answer.
    pub fn was_cut(&self) -> bool {
        matches!(self, TraceStep::ProviderCall { finish_reason, .. }
            if finish_reason == crate::llm::FinishReason::Length.as_str())
    }
}

/// Everything one turn did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnOutcome {
    /// The turn number the store gave it.
    pub turn: u64,
    /// The story text for the player.
    pub narration: String,
    /// Every roll, with its dice.
    pub rolls: Vec<RollRecord>,
    /// Every state change.
    pub changes: Vec<Change>,
    /// Story events logged.
    pub events: Vec<StoryEvent>,
    /// What the player might do next, with odds.
    pub suggested_actions: Vec<SuggestedAction>,
    /// Out-of-character notes (mechanics, what the engine refused).
    pub notes: Vec<String>,
    /// Tokens and cost, summed over the turn's calls.
    pub usage: Usage,
    /// Each provider and tool call, with timings.
    pub trace: Vec<TraceStep>,
}

/// The `GameResponse` JSON of the HOLODECK seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResponse {
    /// The story text.
    pub narration: String,
    /// Notes outside the story.
    pub out_of_character_notes: Vec<String>,
    /// Suggested actions, labelled with their odds.
    pub actions: Vec<SuggestedAction>,
    /// The rolls made.
    pub dice_rolls: Vec<RollRecord>,
    /// A prompt the player might type next.
    pub next_prompt_suggestion: Option<String>,
}

impl TurnOutcome {
    /// How many model calls the turn made (the summariser's included): its
    /// [`TraceStep::ProviderCall`] steps, each with its own usage and cached tokens.
    pub fn model_calls(&self) -> usize {
        self.trace
            .iter()
            .filter(|step| matches!(step, TraceStep::ProviderCall { .. }))
            .count()
    }

    /// How many of the turn's model answers the output cap cut ([`TraceStep::was_cut`]).
    pub fn replies_cut(&self) -> usize {
        self.trace.iter().filter(|step| step.was_cut()).count()
    }

    /// The outcome in the seed's `GameResponse` shape.
    pub fn to_game_response(&self) -> GameResponse {
        GameResponse {
            narration: self.narration.clone(),
            out_of_character_notes: self.notes.clone(),
            actions: self.suggested_actions.clone(),
            dice_rolls: self.rolls.clone(),
            next_prompt_suggestion: self
                .suggested_actions
                .first()
                .map(|a| a.description.clone()),
        }
    }
}
