//! What the model is sent each turn, and the checks code makes before it is asked anything.

#[cfg(test)]
use std::sync::Arc;
use std::sync::Mutex;

use crate::llm::Message;
use crate::state::{Change, GameState, reached_milestones};
#[cfg(test)]
use crate::store::HistoryEntry;

/// The system prompt used when the builder is given none.
pub const DEFAULT_SYSTEM_PROMPT: &str = "You are the game master of a Dungeons & Dragons 5e \
game. Narrate briefly (two to five sentences), in the second person, and end by asking what the \
player does.

Rules you never break:
- Code owns the dice, the rules and the state: every roll, hit point, item and move goes \
through a tool. Never invent a number a tool did not give you.
- Never act, speak or decide for the player's character.
- Keep DCs, ACs, ids and hidden things out of the story.
- The story moves through tools too (talk_to, social_check, answer_puzzle with the player's \
own answer, disarm_trap, attack_object): tell what comes back under \"story\".
- When a tool refuses, read why: fix the call, or narrate why the action fails.
- The state block is the truth: what the party has not found is not in it; do not hint at it.";

/// What code found before the model is asked: monsters in plain sight, features and exits
/// noticed by passive Perception, NPC goal steps whose trigger has happened, milestones
/// reached.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PreNarration {
    /// The changes these checks made.
    pub changes: Vec<Change>,
    /// One line per finding, for the model.
    pub findings: Vec<String>,
}

/// Checks the party's best passive Perception against every hidden feature and exit where it
/// stands, and NPC goal triggers. Applies what it finds to `state`.
///
/// A supported API: every turn of the game master runs it first; a game that calls the tools
/// itself, without [`GameMaster`](super::GameMaster), runs it before each narration too.
pub fn pre_narration_checks(state: &mut GameState) -> PreNarration {
    let mut out = PreNarration::default();
    let watchers: Vec<(String, i32)> = state
        .characters
        .iter()
        .filter(|c| c.can_act())
        .map(|c| (c.name.clone(), c.passive_perception()))
        .collect();
    let Some((watcher, passive)) = watchers.iter().max_by_key(|(_, p)| *p).cloned() else {
        return out;
    };
    if let Some(here) = state.party_location() {
        // Monsters are not hidden by the model: whoever is where the party stands is seen.
        for m in state
            .monsters
            .iter()
            .filter(|m| m.location == here.id && !m.revealed && m.is_alive())
        {
            out.changes.push(Change::MonsterRevealed {
                monster: m.id.clone(),
            });
            out.findings.push(format!("{} is here", m.name));
        }
        for f in &here.features {
            if f.hidden && !f.found && f.find_dc.is_some_and(|dc| passive >= dc) {
                out.changes.push(Change::FeatureFound {
                    location: here.id.clone(),
                    feature: f.id.clone(),
                });
                out.findings.push(format!(
                    "{watcher} notices (passive Perception): {} — {}",
                    f.name, f.description
                ));
            }
        }
        for (change, name) in here.traps_noticed_at(passive) {
            out.changes.push(change);
            out.findings.push(format!(
                "{watcher} notices (passive Perception) a trap on {name}: the party will not walk into it"
            ));
        }
        for e in &here.exits {
            if e.hidden && e.find_dc.is_some_and(|dc| passive >= dc) {
                out.changes.push(Change::ExitFound {
                    location: here.id.clone(),
                    direction: e.direction.clone(),
                });
                out.findings.push(format!(
                    "{watcher} notices (passive Perception) a way {}",
                    e.direction
                ));
            }
        }
    }
    // NPC goal steps move on in the tools themselves (`tools::story::follow_triggers`), with
    // their effects, the moment a call reaches their trigger.
    for change in reached_milestones(state) {
        if let Change::MilestoneReached { milestone } = &change {
            out.findings.push(format!(
                "milestone {milestone:?} reached: every living hero may now take a level (level_up)"
            ));
        }
        out.changes.push(change);
    }
    // Each change was built from this very state, so it applies; a failure would be a bug,
    // and dropping the finding is the safe answer.
    let mut applied = Vec::new();
    for change in out.changes {
        if state.apply(&change).is_ok() {
            applied.push(change);
        }
    }
    out.changes = applied;
    out
}

/// The messages of one call: system prompt, summary, the last turns, then the memory and
/// state blocks, what code found and the input.
///
/// The order is for prompt caching: providers reuse the longest prefix a call shares with an
/// earlier one, so what changes rarely comes first (the system prompt; the summary, which
/// changes only when old turns are folded into it; the history, which only grows between
/// folds) and what changes every turn (the state) comes last, after the history.
///
/// The history's records are shared with the store (see [`HistoryEntry::record`]): a record
/// this call holds alone (one just read from disk) gives up its messages, a shared one lends
/// copies. Past turns' tool results are sent cut short (`past_turn`).
// The turn writes the same context from its memos (`GameMaster::run_turn`); this whole
// assembly is what the tests read it against.
#[cfg(test)]
pub(crate) fn build_context(
    system_prompt: &str,
    state: &GameState,
    history: Vec<HistoryEntry>,
    speaker: &str,
    input: &str,
    findings: &[String],
) -> Vec<Message> {
    let past: usize = history.iter().map(|h| h.record.llm_messages.len()).sum();
    let mut messages = context_head(system_prompt, state, past);
    for entry in history {
        let at = messages.len();
        match Arc::try_unwrap(entry.record) {
            Ok(record) => messages.extend(record.llm_messages),
            Err(shared) => messages.extend_from_slice(&shared.llm_messages),
        }
        past_turn(&mut messages[at..]);
    }
    context_tail(
        &mut messages,
        state,
        state_block(state),
        speaker,
        input,
        findings,
    );
    messages
}

/// The longest text of a past turn's tool result sent again, in bytes. The turn's own calls
/// saw it whole; later turns need what it did (who, what, how much, where to), not every word
/// of a room's description (the state block has the room).
pub const PAST_RESULT_TEXT_BYTES: usize = 60;

/// A past turn's messages as the model is sent them again, shorter: in each tool result,
/// every string longer than [`PAST_RESULT_TEXT_BYTES`] cut at a word with a mark, and one in
/// a list longer than [`PAST_LISTED_TEXT_BYTES`] cut to the mark alone, the JSON kept whole
/// with every field so what it says can still be read (a result that is not JSON is cut as one
/// text); in each tool call, the `null` arguments left out (strict mode makes the model send
/// every field; the tools read a missing one as `null`). The cut depends only on the message,
/// so the same turn reads the same on every later call (a cached prefix stays a prefix).
pub(super) fn past_turn(messages: &mut [Message]) {
    for message in messages {
        match message {
            Message::Tool { content, .. } if content.len() > PAST_RESULT_TEXT_BYTES => {
                *content = match serde_json::from_str::<serde_json::Value>(content) {
                    Ok(mut value) => {
                        shorten(&mut value, false);
                        value.to_string()
                    }
                    Err(_) => shortened(content, PAST_RESULT_TEXT_BYTES),
                };
            }
            Message::Assistant { tool_calls, .. } => {
                for call in tool_calls {
                    if let serde_json::Value::Object(fields) = &mut call.arguments {
                        fields.retain(|_, value| !value.is_null());
                    }
                }
            }
            _ => {}
        }
    }
}

/// The longest text kept whole in a list of a past turn's result (a room's features, a
/// fight's rolls): names and ids stay, descriptions go.
pub const PAST_LISTED_TEXT_BYTES: usize = 24;

/// Every string in `value` cut to [`PAST_RESULT_TEXT_BYTES`], or in a list (`listed`) to
/// [`PAST_LISTED_TEXT_BYTES`] ([`shortened`]).
fn shorten(value: &mut serde_json::Value, listed: bool) {
    use serde_json::Value;
    let most = if listed {
        PAST_LISTED_TEXT_BYTES
    } else {
        PAST_RESULT_TEXT_BYTES
    };
    match value {
        Value::String(text) if text.len() > most => *text = shortened(text, most),
        Value::Array(items) => items.iter_mut().for_each(|item| shorten(item, true)),
        Value::Object(fields) => fields.values_mut().for_each(|field| shorten(field, listed)),
        _ => {}
    }
}

/// `text` cut at the last space before `most` bytes, with an ellipsis.
fn shortened(text: &str, most: usize) -> String {
    let end = crate::text::floor_char_boundary(text, most);
    let end = text[..end]
        .rfind(' ')
        .filter(|at| *at > end / 2)
        .unwrap_or(end);
    format!("{}…", text[..end].trim_end())
}

/// Messages a turn adds to its context, reserved up front so the conversation is not moved
/// while the turn runs: the memory, state and findings blocks, a few tool rounds (a call and
/// its results each), the narration, the action phase's instructions and answer.
const TURN_MESSAGES: usize = 28;

/// The start of a context, before the history: the system prompt and the summary, with room
/// for `past` messages of history and the turn's own.
pub(super) fn context_head(system_prompt: &str, state: &GameState, past: usize) -> Vec<Message> {
    let mut messages = Vec::with_capacity(2 + past + TURN_MESSAGES);
    messages.push(Message::system(system_prompt));
    if !state.summary.is_empty() {
        messages.push(Message::system(format!(
            "The story so far: {}",
            state.summary
        )));
    }
    messages
}

/// The end of a context, after the history: the memory block, the state block (`state_text`,
/// from [`state_block`] or a [`StateBlockMemo`]), what code found, then the player's input.
pub(super) fn context_tail(
    messages: &mut Vec<Message>,
    state: &GameState,
    state_text: String,
    speaker: &str,
    input: &str,
    findings: &[String],
) {
    if let Some(memory) = super::memory::memory_block(state) {
        messages.push(Message::system(memory));
    }
    messages.push(Message::system(state_text));
    if !findings.is_empty() {
        messages.push(Message::system(format!(
            "Before this turn, code found:\n- {}",
            findings.join("\n- ")
        )));
    }
    messages.push(Message::user_named(speaker, input));
}

/// The state message's text, `Current state (JSON): {...}`, written into one buffer.
pub(super) fn state_block(state: &GameState) -> String {
    const LEAD: &str = "Current state (JSON): ";
    let mut text = Vec::with_capacity(4096);
    text.extend_from_slice(LEAD.as_bytes());
    // Serializing plain strings, numbers and maps cannot fail (as `Snapshot::to_json`).
    if serde_json::to_writer(&mut text, &state.snapshot()).is_err() {
        text.truncate(LEAD.len());
    }
    // serde_json writes UTF-8 only.
    String::from_utf8(text).unwrap_or_default()
}

/// The last state block a game master wrote, with the state it was written from. Most turns
/// leave what the snapshot shows as it was (no one moved, no flag was set), so the next turn
/// reuses the text instead of building the snapshot and writing it again; the comparison is
/// cheap because unchanged parts of a state are the same shared `Arc`s.
#[derive(Debug, Default)]
pub(super) struct StateBlockMemo {
    last: Mutex<Option<(GameState, String)>>,
}

impl StateBlockMemo {
    /// [`state_block`] of `state`: the last text when the snapshot would show the same.
    pub(super) fn text(&self, state: &GameState) -> String {
        // The memo is rebuilt whole under the lock: a poisoned one is still consistent.
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((seen, text)) = last.as_ref()
            && same_snapshot(seen, state)
        {
            return text.clone();
        }
        let text = state_block(state);
        *last = Some((state.clone(), text.clone()));
        text
    }
}

/// Whether two states give the same snapshot: every field the snapshot may read is equal. The
/// fields are named, not matched with `..`, so a new field of `GameState` must be placed on
/// one side or the other here.
fn same_snapshot(a: &GameState, b: &GameState) -> bool {
    let GameState {
        title,
        characters,
        monsters,
        locations,
        npcs,
        encounter,
        flags,
        time,
        mode,
        // The XP text reads whether levels come by XP or milestones.
        levelling,
        // The snapshot tells the ending once one is reached.
        story,
        // Not in the snapshot: sent in their own messages, or never sent.
        summary: _,
        memory: _,
        turn: _,
        dice_seed: _,
        fair: _,
        // The rules data, not the world: the snapshot shows none of it.
        srd: _,
    } = a;
    // `Arc`'s equality looks at the pointers first: unchanged parts compare at once.
    *title == b.title
        && *characters == b.characters
        && *monsters == b.monsters
        && *locations == b.locations
        && *npcs == b.npcs
        && *encounter == b.encounter
        && *flags == b.flags
        && *time == b.time
        && *mode == b.mode
        && *levelling == b.levelling
        && *story == b.story
}
