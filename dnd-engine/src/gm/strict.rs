//! The StrictJson protocol, for models without tool calling: one call answers with the actions
//! it wants as JSON, the engine runs them through the tools and rolls every die, and when any
//! ran, a second call writes the narration from their results. A story written before the dice
//! fell could contradict them; this one cannot.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::caps::{asked_again, cut_note, end_at_sentence};
use super::outcome::SuggestedAction;
use super::protocol::{CUT_JSON_AGAIN, TurnRun, parse_json};
use super::{GameMaster, GmError};
use crate::llm::{FinishReason, Message, ResponseFormat, ToolCall};
use crate::text::truncate_with_note;
use crate::tools::schema::strict_schema_for;
use crate::tools::tools_with;

/// The name of the JSON Schema of the first StrictJson answer ([`StrictAnswer`]).
pub const STRICT_ANSWER_SCHEMA: &str = "game_response";

/// What precedes the tools offered now in the StrictJson instruction, their names following
/// it joined by ", " up to a ")": the offline game master reads its choices from it, as a
/// tool-calling model does from the request's tools.
pub(crate) const OFFERED_TOOLS: &str = "tools offered now: ";

/// What the model is told when an action's tool was added to the list (`tools::situation`).
const ANSWER_AGAIN: &str = "Some of those actions were refused because their tool was not in the list; the list above now holds it. The results above stand: answer again with the actions still to take, if any.";

/// The id of the `i`th action of the StrictJson answer of `round` (the first keeps the plain
/// `strict-` ids).
fn strict_id(round: u32, i: usize) -> String {
    if round == 1 {
        format!("strict-{i}")
    } else {
        format!("strict-{round}-{i}")
    }
}

/// The name of the JSON Schema of the StrictJson narration written from the results
/// ([`StrictNarration`]).
pub const STRICT_NARRATION_SCHEMA: &str = "strict_narration";

impl GameMaster {
    /// StrictJson: one call whose answer is a whole `GameResponse`; its actions run through the
    /// same tool handlers, and any dice it claims to have rolled are ignored. An action whose
    /// tool was possible but not in the instruction's list is refused and added
    /// (`tools::situation`): the answer is then asked for once more, with the list that now
    /// holds it, and its actions run too.
    pub(super) async fn strict_json_turn(&self, run: &mut TurnRun<'_>) -> Result<(), GmError> {
        let kept = self.limits.max_tool_calls_per_response;
        let mut ran_any = false;
        let mut last = None;
        for round in 1..=2u32 {
            run.offered = tools_with(run.state, &self.srd, &run.asked).offered;
            let mut messages = run.messages.clone();
            messages.insert(run.turn_start, Message::system(format!(
                "Answer with one JSON object only, matching this schema: {}. `actions` are tool calls the engine runs for you ({OFFERED_TOOLS}{}); `arguments` is a JSON object as a string. Never roll dice yourself: the engine rolls.",
                strict_schema_for::<StrictAnswer>(),
                run.offered.join(", ")
            )));
            if round > 1 {
                messages.push(Message::system(ANSWER_AGAIN));
            }
            let (answer, last_text) = self.strict_answer(run, messages, round).await?;
            let Some(answer) = answer else {
                if ran_any {
                    run.note("no valid JSON after a retry: the actions that ran are narrated");
                    break;
                }
                run.note(
                    "no valid JSON after a retry: the text is used as narration, with no actions",
                );
                let mut message = Message::assistant(last_text);
                self.bound_answer(&mut message);
                run.narration = message.text().unwrap_or_default().trim().to_owned();
                run.messages.push(message);
                return Ok(());
            };
            if !answer.dice_rolls.is_empty() {
                run.note(format!(
                    "ignored {} dice rolls the model claimed; the engine rolls its own",
                    answer.dice_rolls.len()
                ));
            }
            // The answer is kept with its actions as tool calls, so the results that follow
            // answer calls the history holds (for the model next turn, and for any reader).
            let calls = answer
                .actions
                .iter()
                .take(kept)
                .enumerate()
                .map(|(i, action)| {
                    ToolCall::new(
                        strict_id(round, i),
                        action.tool.clone(),
                        Value::String(action.arguments.clone()),
                    )
                })
                .collect();
            let mut message = Message::Assistant {
                content: Some(last_text),
                tool_calls: calls,
                reasoning: None,
            };
            self.bound_answer(&mut message);
            run.messages.push(message);
            if answer.actions.len() > kept {
                run.note(format!(
                    "{} actions in the answer were not run: at most {kept} run from one answer",
                    answer.actions.len() - kept
                ));
            }
            let asked = run.asked.len();
            for (i, action) in answer.actions.iter().take(kept).enumerate() {
                let before = run.asked.len();
                run.run_tool(self, &strict_id(round, i), &action.tool, &action.arguments);
                ran_any = true;
                // A tool added for the next answer is not a refusal the player needs to read.
                if run.asked.len() == before
                    && let Some(Message::Tool { content, .. }) = run.messages.last()
                    && content.contains("\"error\"")
                {
                    run.notes
                        .push(format!("{} was refused: {content}", action.tool));
                }
            }
            let again = run.asked.len() > asked;
            last = Some(answer);
            if !again {
                break;
            }
            run.note("an action's tool was not in the list sent; it is added, and the answer asked for again");
        }
        let Some(answer) = last else {
            return Ok(());
        };
        // With actions run, the narration is written again from their results, so the story
        // never contradicts the dice; without any, the answer's own narration stands.
        let narration = if ran_any {
            run.note("the actions ran; the narration is written from their results");
            self.narrate_results(run).await?
        } else {
            answer.narration.clone()
        };
        run.narration =
            truncate_with_note(narration.trim(), self.limits.max_narration_bytes).into_owned();
        run.notes.extend(
            answer.out_of_character_notes.iter().take(kept).map(|note| {
                truncate_with_note(note, self.limits.tools.max_text_bytes).into_owned()
            }),
        );
        if let Some(next) = answer
            .next_prompt_suggestion
            .filter(|s| !s.trim().is_empty())
        {
            run.suggestions = vec![SuggestedAction {
                id: "next".into(),
                description: truncate_with_note(&next, self.limits.max_suggestion_bytes)
                    .into_owned(),
                dice: None,
                dc: None,
                reason: None,
                chance: None,
                expected_damage: None,
                mechanic: None,
            }];
        }
        Ok(())
    }

    /// The StrictJson answer to `messages`: asked once more with the error fed back (or, cut
    /// by the output cap, with a larger cap); `None` when neither attempt was valid. Also the
    /// last answer's text.
    async fn strict_answer(
        &self,
        run: &mut TurnRun<'_>,
        mut messages: Vec<Message>,
        round: u32,
    ) -> Result<(Option<StrictAnswer>, String), GmError> {
        let schema = strict_schema_for::<StrictAnswer>();
        let caps = self.provider.capabilities();
        let mut last_text = String::new();
        let mut cap = self.caps.strict_answer;
        for attempt in 1..=2u32 {
            let mut request = self.request(run.stable_prefix, messages.clone());
            request.max_tokens = Some(cap);
            request.response_format = if caps.json_schema {
                ResponseFormat::json_schema(STRICT_ANSWER_SCHEMA, schema.clone())
            } else if caps.json_mode {
                ResponseFormat::JsonObject
            } else {
                ResponseFormat::Text
            };
            let step = (round - 1) * 2 + attempt;
            let response = self.call(run, "strict_json", step, &request, false).await?;
            last_text = response.text().unwrap_or_default().to_owned();
            match parse_json::<StrictAnswer>(&last_text) {
                Ok(parsed) => return Ok((Some(parsed), last_text)),
                // Cut JSON cannot be read: asked again with a larger cap, without the cut text.
                Err(_) if response.finish_reason == FinishReason::Length => {
                    let (larger, note) = asked_again("strict_json", cap);
                    run.note(note);
                    cap = larger;
                    messages.push(Message::system(CUT_JSON_AGAIN));
                }
                Err(error) => {
                    run.note(format!("strict JSON answer {attempt} invalid: {error}"));
                    messages.push(Message::assistant(last_text.clone()));
                    messages.push(Message::system(format!("That was not valid JSON for the schema: {error}. Answer again with the JSON only.")));
                }
            }
        }
        Ok((None, last_text))
    }

    /// The second StrictJson call: the conversation so far (the answer, its actions as tool
    /// calls and their results), and the request to narrate from those results. A text that is
    /// not the JSON asked for is taken as the narration itself.
    async fn narrate_results(&self, run: &mut TurnRun<'_>) -> Result<String, GmError> {
        let schema = strict_schema_for::<StrictNarration>();
        let mut messages = run.messages.clone();
        messages.push(Message::system(format!(
            "The engine has run those actions and rolled their dice: their results are above. Write the narration for the player from these results only: what succeeded, what failed, what it cost. Never invent a roll or an outcome. Answer with one JSON object only, matching this schema: {schema}"
        )));
        let caps = self.provider.capabilities();
        let mut cap = self.caps.strict_narration;
        let mut attempt = 1;
        let narration = loop {
            let mut request = self.request(run.stable_prefix, messages.clone());
            request.max_tokens = Some(cap);
            request.response_format = if caps.json_schema {
                ResponseFormat::json_schema(STRICT_NARRATION_SCHEMA, schema.clone())
            } else if caps.json_mode {
                ResponseFormat::JsonObject
            } else {
                ResponseFormat::Text
            };
            let response = self
                .call(run, "strict_narration", attempt, &request, false)
                .await?;
            let cut = response.finish_reason == FinishReason::Length;
            let text = response.text().unwrap_or_default().to_owned();
            match parse_json::<StrictNarration>(&text) {
                Ok(parsed) if cut => {
                    run.note(cut_note(
                        "strict_narration",
                        cap,
                        "it ends at its last full sentence",
                    ));
                    break end_at_sentence(&parsed.narration);
                }
                Ok(parsed) => break parsed.narration,
                // Cut JSON cannot be read: asked again once with a larger cap.
                Err(_) if cut && attempt == 1 => {
                    let (larger, note) = asked_again("strict_narration", cap);
                    run.note(note);
                    cap = larger;
                    attempt += 1;
                    messages.push(Message::system(CUT_JSON_AGAIN));
                }
                Err(error) => {
                    run.note(format!(
                        "the narration was not the JSON asked for ({error}); its text is used"
                    ));
                    break if cut { end_at_sentence(&text) } else { text };
                }
            }
        };
        let mut message = Message::assistant(narration.clone());
        self.bound_answer(&mut message);
        run.messages.push(message);
        Ok(narration)
    }
}

/// The second StrictJson answer: the narration written from the actions' results.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictNarration {
    /// The story text for the player, told from the results.
    pub narration: String,
}

/// The one-call answer of the StrictJson protocol.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictAnswer {
    /// The story text for the player.
    pub narration: String,
    /// Notes outside the story.
    pub out_of_character_notes: Vec<String>,
    /// Tool calls for the engine to run, in order.
    pub actions: Vec<StrictAction>,
    /// Dice the model says it rolled (ignored: the engine rolls).
    pub dice_rolls: Vec<String>,
    /// A prompt the player might type next, or null.
    pub next_prompt_suggestion: Option<String>,
}

/// One tool call inside a StrictJson answer.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictAction {
    /// The tool's name.
    pub tool: String,
    /// Its arguments: a JSON object, written as a string.
    pub arguments: String,
}
