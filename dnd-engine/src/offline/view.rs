//! What the offline game master knows, read from a request alone: the state snapshot, what
//! earlier tool results taught it, and what this turn's tool results changed since.
//!
//! The snapshot in the request is the state when the turn began; a move or a loot grab later in
//! the same turn is only visible in the tool results. So [`Turn::read`] builds the view in three
//! layers: results from earlier turns (history) teach lasting facts (a room's feature loot, which
//! monsters are hostile, an attack bonus, an AC), then the snapshot sets the present, then this
//! turn's results move it on. Nothing here ever sees more than the model would.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::intent::{Intent, parse_intent};
use crate::llm::{CompletionRequest, Message, ToolCall};
use crate::state::Snapshot;
use crate::tools::results::ToolOutput;

/// How the engine introduces the snapshot (see `gm::build_context`).
pub(crate) const STATE_PREFIX: &str = "Current state (JSON): ";
/// How the engine introduces what its own checks found before the turn.
const FINDINGS_PREFIX: &str = "Before this turn, code found:";

/// A stack of items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    pub name: String,
    pub quantity: u32,
}

/// A known feature of a room.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Feature {
    pub id: Option<String>,
    pub name: String,
    pub description: Option<String>,
    pub loot: Vec<Item>,
    /// Whether a tool said it holds an armed trap the party knows of (`disarm_trap`).
    pub trapped: bool,
    /// An object's hit points ("12/30"), as a tool said: it can be attacked (`attack_object`).
    pub hit_points: Option<String>,
}

/// A known exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Exit {
    pub direction: String,
    pub to: String,
    pub locked: bool,
}

/// A room as last seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Room {
    pub id: String,
    pub title: String,
    pub description: String,
    pub exits: Vec<Exit>,
    pub features: Vec<Feature>,
    pub floor: Vec<Item>,
}

/// A monster where the party is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Monster {
    pub id: String,
    pub name: String,
    pub hp: Option<(u32, u32)>,
    pub alive: bool,
    /// Its creature type, lower case ("undead"), as the snapshot gives it; empty when unknown.
    pub kind: String,
}

/// An NPC where the party is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Npc {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub doing: Option<String>,
}

/// A puzzle before the party, as the snapshot lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Puzzle {
    /// Its id, for `answer_puzzle`.
    pub id: String,
    /// The name of the NPC who asks it, if one does.
    pub asked_by: Option<String>,
}

/// A party member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hero {
    pub id: String,
    pub name: String,
    /// Its class, lower case ("fighter"), from the snapshot's "Brann, fighter 3".
    pub class: String,
    /// Its level, from the same (0 when it does not read).
    pub level: u8,
    /// Class features with no use left until a rest ("second-wind").
    pub spent_features: Vec<String>,
    pub hp: (u32, u32),
    pub down: bool,
    pub items: Vec<Item>,
    pub gold: u32,
}

/// One tool call of this turn and what it returned.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub call: ToolCall,
    /// Whether it succeeded: its result read back as its tool's type.
    pub ok: bool,
    /// The result, typed by its tool; `None` for a refusal.
    pub output: Option<ToolOutput>,
    /// What the story did because of the call (`tools::results::STORY`).
    pub story: Vec<String>,
}

/// The world as the offline game master sees it.
#[derive(Debug, Clone, Default)]
pub(crate) struct World {
    pub room: Room,
    pub monsters: Vec<Monster>,
    pub npcs: Vec<Npc>,
    pub party: Vec<Hero>,
    /// The initiative order, when a fight runs.
    pub encounter: Option<Vec<String>>,
    /// Whose turn it is in the fight (an id), as the snapshot or the last tool said.
    pub turn_of: Option<String>,
    pub flags: BTreeMap<String, Value>,
    /// Rooms as last described by a tool, by id.
    pub rooms: BTreeMap<String, Room>,
    /// Monster id → hostile, as a tool said.
    pub hostile: BTreeMap<String, bool>,
    /// Character id → the bonus of its first attack.
    pub to_hit: BTreeMap<String, i32>,
    /// (character id, skill) → modifier.
    pub skills: BTreeMap<(String, String), i32>,
    /// Monster id → the AC an attack met.
    pub armor: BTreeMap<String, i32>,
    /// The room the party last left, and the exit it took.
    pub came_from: Option<(String, String)>,
    /// Rooms searched in the turns in view.
    pub searched: BTreeSet<String>,
    /// Whether the room has areas (positions count in a fight there), as the snapshot said.
    pub areas: bool,
    /// The last distance seen between two combatants (ids, in either order), from the attacks
    /// of this fight; forgotten for a creature once it moves.
    pub distances: BTreeMap<(String, String), u32>,
    /// The puzzles before the party, as the snapshot listed them.
    pub puzzles: Vec<Puzzle>,
}

/// Everything the offline game master reads from one request.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    /// The speaker's character id (the first character when the name matches none).
    pub hero: Option<String>,
    /// What the words mean.
    pub intent: Intent,
    /// What code noticed before the turn (passive Perception, monsters in sight, NPC moves).
    pub findings: Vec<String>,
    /// The world when the turn began.
    pub start: World,
    /// The world after this turn's tool results.
    pub now: World,
    /// This turn's tool rounds so far.
    pub rounds: Vec<Vec<Step>>,
    /// The tools the game master offers in this request (`tools::situation`); empty when the
    /// request names none, and then any may be called.
    pub offered: Vec<String>,
}

impl Turn {
    /// Reads a request.
    pub fn read(request: &CompletionRequest) -> Turn {
        let messages = &request.messages;
        let state_at = messages.iter().position(
            |m| matches!(m, Message::System { content } if content.starts_with(STATE_PREFIX)),
        );
        let user_at = messages
            .iter()
            .rposition(|m| matches!(m, Message::User { .. }));
        // The history comes before the state block (`gm::build_context`), this turn after
        // the player's input.
        let history_to = state_at.or(user_at).unwrap_or(messages.len());
        let mut world = World::default();
        for round in rounds(&messages[..history_to]) {
            round.iter().for_each(|s| world.apply(s));
        }
        if let Some(Message::System { content }) = state_at.map(|i| &messages[i]) {
            // A snapshot that does not read as one leaves the world as the tools taught it.
            if let Ok(snapshot) = serde_json::from_str::<Snapshot>(&content[STATE_PREFIX.len()..]) {
                world.overlay(&snapshot);
            }
        }
        let (text, speaker) = match user_at.map(|i| &messages[i]) {
            Some(Message::User { content, name }) => (content.clone(), name.clone()),
            _ => (String::new(), None),
        };
        let hero = speaker
            .as_deref()
            .and_then(|s| world.hero(s))
            .or_else(|| world.party.first())
            .map(|h| h.id.clone());
        let start = world.clone();
        let rounds = user_at.map_or_else(Vec::new, |i| rounds(&messages[i + 1..]));
        for round in &rounds {
            round.iter().for_each(|s| world.apply(s));
        }
        let findings = messages[..user_at.unwrap_or(messages.len())]
            .iter()
            .filter_map(|m| match m {
                Message::System { content } => content.strip_prefix(FINDINGS_PREFIX),
                _ => None,
            })
            .flat_map(|block| block.lines())
            .filter_map(|line| line.trim().strip_prefix("- "))
            .map(str::to_owned)
            .collect();
        Turn {
            hero,
            findings,
            offered: offered(request),
            intent: parse_intent(&text),
            start,
            now: world,
            rounds,
        }
    }

    /// Whether `tool` may be called in this request.
    pub fn offers(&self, tool: &str) -> bool {
        self.offered.is_empty() || self.offered.iter().any(|t| t == tool)
    }

    /// Every step of this turn, in order.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.rounds.iter().flatten()
    }

    /// The steps of the last round.
    pub fn last(&self) -> &[Step] {
        self.rounds.last().map_or(&[], Vec::as_slice)
    }

    /// Whether a tool with this name has run this turn.
    pub fn ran(&self, tool: &str) -> bool {
        self.steps().any(|s| s.call.name == tool)
    }
}

/// Groups tool calls with their results: one group per assistant message that called tools.
fn rounds(messages: &[Message]) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        let calls = message.tool_calls();
        if calls.is_empty() {
            continue;
        }
        let results: Vec<(&str, &str)> = messages[i + 1..]
            .iter()
            .map_while(|m| match m {
                Message::Tool {
                    tool_call_id,
                    content,
                } => Some((tool_call_id.as_str(), content.as_str())),
                _ => None,
            })
            .collect();
        let steps: Vec<Step> = calls
            .iter()
            .enumerate()
            .filter_map(|(n, call)| {
                let text = results
                    .iter()
                    .find(|(id, _)| *id == call.id)
                    .or_else(|| results.get(n))
                    .map_or("", |(_, t)| t);
                let result: Value = serde_json::from_str(text).unwrap_or(Value::Null);
                // A call refused because its tool was not sent changed nothing and asked for
                // the tool: as if never made, so the round is planned again (`mod.rs` `asking`).
                if result.get(crate::gm::ADDED).is_some() {
                    return None;
                }
                // A refusal is `{"error": ...}`: no tool's result.
                let output = match result.get("error") {
                    Some(_) => None,
                    None => ToolOutput::parse(&call.name, &result).ok(),
                };
                Some(Step {
                    call: call.clone(),
                    ok: output.is_some(),
                    output,
                    story: crate::tools::results::story_lines(&result),
                })
            })
            .collect();
        if !steps.is_empty() {
            out.push(steps);
        }
    }
    out
}

impl World {
    /// A party member by id or name.
    pub fn hero(&self, who: &str) -> Option<&Hero> {
        self.party
            .iter()
            .find(|h| h.id.eq_ignore_ascii_case(who) || h.name.eq_ignore_ascii_case(who))
    }

    /// A monster here by id or name.
    pub fn monster(&self, who: &str) -> Option<&Monster> {
        self.monsters
            .iter()
            .find(|m| m.id.eq_ignore_ascii_case(who) || m.name.eq_ignore_ascii_case(who))
    }

    /// Whether a monster here is an enemy: it is in the fight, or a tool said it is hostile.
    pub fn is_hostile(&self, m: &Monster) -> bool {
        self.encounter.as_ref().is_some_and(|o| o.contains(&m.id))
            || self.hostile.get(&m.id).copied().unwrap_or(false)
    }

    /// The last distance seen between two combatants, if any.
    pub fn distance(&self, a: &str, b: &str) -> Option<u32> {
        let key = |x: &str, y: &str| (x.to_owned(), y.to_owned());
        self.distances
            .get(&key(a, b))
            .or_else(|| self.distances.get(&key(b, a)))
            .copied()
    }

    /// Living enemies here.
    pub fn foes(&self) -> Vec<&Monster> {
        self.monsters
            .iter()
            .filter(|m| m.alive && self.is_hostile(m))
            .collect()
    }

    /// Every loot stack in view here: (where, item), "floor" for the open.
    pub fn loot(&self) -> Vec<(Option<&Feature>, &Item)> {
        self.room
            .floor
            .iter()
            .map(|i| (None, i))
            .chain(
                self.room
                    .features
                    .iter()
                    .flat_map(|f| f.loot.iter().map(move |i| (Some(f), i))),
            )
            .collect()
    }
}

/// The tools a request offers: its tool specifications, or the StrictJson instruction's list
/// (`gm::strict::OFFERED_TOOLS`); empty when it names none.
fn offered(request: &CompletionRequest) -> Vec<String> {
    if !request.tools.is_empty() {
        return request.tools.iter().map(|t| t.name.clone()).collect();
    }
    let marker = crate::gm::OFFERED_TOOLS;
    request
        .messages
        .iter()
        .find_map(|m| match m {
            Message::System { content } => content
                .split_once(marker)
                .and_then(|(_, rest)| rest.split_once(')'))
                .map(|(list, _)| list.split(", ").map(str::to_owned).collect()),
            _ => None,
        })
        .unwrap_or_default()
}
