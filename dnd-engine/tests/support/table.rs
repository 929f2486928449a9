//! The table the tool and turn tests play at: a game state with its dice, limits and turn log,
//! called through the tools as a model would (`Table`); the usual fight against the Frost Harpy
//! (`seen_harpy`, `fight`); and a whole turn of a `GameMaster`, scripted (`scripted_turn`) or
//! offline (`offline`).
//!
//! One file, included with `#[path]` by every test binary that needs it (test crates share no
//! code otherwise), so the harness is written once:
//!
//! ```ignore
//! #[path = "support/table.rs"]
//! mod table;
//! use table::Table;
//!
//! let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
//! let error = t.refused("dodge", serde_json::json!({"creature": "frost-harpy"}));
//! ```

// Each test binary includes the whole file and uses its own part of it.
#![allow(dead_code)]

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::adventure::Adventure;
use dnd_engine::character::CharacterChoices;
use dnd_engine::dice::seeded_rng;
use dnd_engine::gm::{GameMaster, PlayerInput, Protocol, TurnOutcome, results_per_call};
use dnd_engine::llm::{CompletionResponse, LlmProvider, ScriptedProvider, ToolCall};
use dnd_engine::rules::HitPoints;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Area, Change, Character, Cover, GameState, InitiativeSlot, Position};
use dnd_engine::store::{CampaignId, GameStore, MemoryStore};
use dnd_engine::tools::{ToolContext, ToolLimits, ToolResult, TurnLog, call_tool};

/// A game state and what a tool call needs beside it, called as a model would call.
pub struct Table {
    pub state: GameState,
    pub rng: dnd_engine::dice::TurnDice,
    pub limits: ToolLimits,
    pub log: TurnLog,
}

impl Table {
    /// This state, its dice seeded with `seed`, the default limits and an empty turn log.
    pub fn new(state: GameState, seed: u64) -> Table {
        Table {
            state,
            rng: dnd_engine::dice::TurnDice::Game(seeded_rng(seed)),
            limits: ToolLimits::default(),
            log: TurnLog::default(),
        }
    }

    /// A new game of the built-in adventure with these heroes.
    pub fn game(party: &[&str], seed: u64) -> Table {
        Table::new(Adventure::built_in().new_game(party).unwrap(), seed)
    }

    /// These heroes and the Frost Harpy in a fight with this order (see [`fight`]).
    pub fn fight(party: &[&str], order: &[&str], seed: u64) -> Table {
        Table::new(fight(party, order), seed)
    }

    /// Calls the tool `name` with `args`, whatever comes of it.
    pub fn call(&mut self, name: &str, args: Value) -> ToolResult {
        let mut ctx = ToolContext {
            state: &mut self.state,
            srd: Srd::bundled(),
            rng: &mut self.rng,
            limits: &self.limits,
            log: &mut self.log,
        };
        call_tool(name, &args.to_string(), &mut ctx)
    }

    /// A call that must succeed; what it answered.
    pub fn ok(&mut self, name: &str, args: Value) -> Value {
        let r = self.call(name, args);
        assert!(r.ok, "{name} failed: {}", r.content);
        r.content
    }

    /// A call that must be refused, changing nothing (neither the state nor the turn log); its
    /// message.
    pub fn refused(&mut self, name: &str, args: Value) -> String {
        let before = (self.state.clone(), self.log.clone());
        let r = self.call(name, args);
        assert!(!r.ok, "{name} should have been refused: {}", r.content);
        assert_eq!(
            (self.state.clone(), self.log.clone()),
            before,
            "{name} changed something while refused"
        );
        r.content["error"].as_str().unwrap().to_owned()
    }

    /// Applies changes that must all be lawful.
    pub fn apply(&mut self, changes: &[Change]) {
        self.state.apply_all(changes).unwrap();
    }

    /// Sets a flag the story sets (a test's shortcut past the gift, defeat or answer that sets
    /// it in play; `set_game_flag` refuses such flags), then makes a harmless tool call so the
    /// story's triggers follow, as they would after the call that set it. Returns that call's
    /// result, which carries what the story did.
    #[allow(dead_code)]
    pub fn story_flag(&mut self, key: &str, value: Value) -> Value {
        self.apply(&[Change::FlagSet {
            key: key.into(),
            value,
        }]);
        self.ok("get_game_flags", serde_json::json!({}))
    }

    /// The hero `id`, to set up by hand.
    pub fn hero_mut(&mut self, id: &str) -> &mut Character {
        hero_mut(&mut self.state, id)
    }

    /// Whose turn it is, or "" outside a fight.
    pub fn turn_of(&self) -> String {
        self.state
            .encounter
            .as_ref()
            .and_then(|e| e.current())
            .unwrap_or_default()
            .to_owned()
    }
}

/// Whether the exit `direction` of `room` is still hidden.
pub fn exit_hidden(state: &GameState, room: &str, direction: &str) -> bool {
    state
        .location(room)
        .and_then(|l| l.exit(direction))
        .is_some_and(|e| e.hidden)
}

/// Whether the Hall of Echoes' crawlway (the glacier's shortcut) is still hidden.
pub fn crawlway_hidden(state: &GameState) -> bool {
    exit_hidden(state, "hall-of-echoes", "crawlway")
}

/// The hero `id` of `state`, to set up by hand.
pub fn hero_mut<'a>(state: &'a mut GameState, id: &str) -> &'a mut Character {
    Arc::make_mut(&mut state.characters)
        .iter_mut()
        .find(|c| c.id == id)
        .unwrap()
}

/// A new game with these heroes, the Frost Harpy seen and at 200 HP, so no swing ends a test.
pub fn seen_harpy(party: &[&str]) -> GameState {
    let mut state = Adventure::built_in().new_game(party).unwrap();
    state
        .apply(&Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    Arc::make_mut(&mut state.monsters)[0].hp = HitPoints::full(200);
    state
}

/// The turn order `ids`, first to act first, everyone with a speed of 30 ft.
pub fn order(ids: &[&str]) -> Vec<InitiativeSlot> {
    ids.iter()
        .enumerate()
        .map(|(i, id)| InitiativeSlot {
            id: (*id).into(),
            initiative: 20 - i as i32,
            speed: 30,
        })
        .collect()
}

/// These heroes and the Frost Harpy ([`seen_harpy`]) in a fight with this order (ids, first
/// to act first). An `ogre` in the order is the harpy's copy with the ogre's template (Large),
/// seen, at 200 HP.
pub fn fight(party: &[&str], ids: &[&str]) -> GameState {
    let mut state = seen_harpy(party);
    if ids.contains(&"ogre") {
        let mut ogre = state.monsters[0].clone();
        ogre.id = "ogre".into();
        ogre.name = "Ogre".into();
        ogre.template = "ogre".into();
        Arc::make_mut(&mut state.monsters).push(ogre);
    }
    state
        .apply(&Change::EncounterStarted { order: order(ids) })
        .unwrap();
    state
}

/// A hero made by the builder from `choices` (the character JSON format of
/// `dnd_engine::character::CharacterChoices`), to play a class the adventure's heroes lack.
pub fn built(choices: Value) -> Character {
    let choices: CharacterChoices =
        serde_json::from_value(choices).unwrap_or_else(|e| panic!("choices: {e}"));
    choices
        .build(Srd::bundled())
        .unwrap_or_else(|e| panic!("build: {e}"))
}

/// The adventure's `party` and these `heroes` (built: [`built`]), in the party's room, against
/// the Frost Harpy ([`seen_harpy`]) in a fight with this order (ids, first to act first).
pub fn fight_with(party: &[&str], heroes: Vec<Character>, ids: &[&str]) -> GameState {
    let mut state = seen_harpy(party);
    let room = state.characters[0].location.clone();
    for mut hero in heroes {
        hero.location = room.clone();
        Arc::make_mut(&mut state.characters).push(hero);
    }
    state
        .apply(&Change::EncounterStarted { order: order(ids) })
        .unwrap();
    state
}

/// A point in feet.
pub fn at(x: i32, y: i32, z: i32) -> Position {
    Position { x, y, z }
}

/// `party` against the Frost Harpy ([`seen_harpy`]) in the ice chasm, with a far ledge 700 ft
/// east (room for a longbow or Guiding Bolt), in the fight `order`, everyone at its place in
/// `places`.
pub fn placed_fight(
    party: &[&str],
    order: Vec<InitiativeSlot>,
    places: &[(&str, Position)],
) -> GameState {
    let mut state = seen_harpy(party);
    add_far_ledge(&mut state);
    let mut changes = vec![Change::EncounterStarted { order }];
    for (id, to) in places {
        changes.push(Change::Moved {
            creature: (*id).into(),
            to: *to,
        });
    }
    state.apply_all(&changes).unwrap();
    state
}

/// The arguments of `cast_spell`: `caster` casts `spell` with a slot of `slot` (`None`: the
/// spell's level) at `targets`, no area aimed, not as a ritual.
pub fn cast(caster: &str, spell: &str, slot: Option<u8>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets, "aim": null, "ritual": null})
}

/// A far ledge 700 ft east of the ice chasm's mouth: room for a longbow, Guiding Bolt, or an
/// area aimed out of range.
pub fn add_far_ledge(state: &mut GameState) {
    Arc::make_mut(&mut state.locations)[0].areas.push(Area {
        id: "far-ledge".into(),
        name: "a far ledge".into(),
        x: 700,
        y: 0,
        z: 0,
        radius_ft: 10,
        cover: Cover::None,
        difficult_terrain: false,
    });
}

/// The arguments of `roll_attack` from `attacker` at `target`, with the first attack.
pub fn attack(attacker: &str, target: &str) -> Value {
    json!({"attacker": attacker, "target": target, "attack": null, "advantage": null})
}

/// The suggested actions the scripted model answers with, last in a turn.
const ACTIONS: &str = r#"{"actions": [
  {"id": "strike", "description": "Strike the harpy again", "reason": null, "mechanic": null},
  {"id": "wait", "description": "Hold your ground", "reason": null, "mechanic": null}
]}"#;

/// What one scripted turn left.
pub struct Played {
    /// The tool results the model was told, call by call (a call made again: its last).
    pub results: Vec<String>,
    /// The turn's outcome.
    pub outcome: TurnOutcome,
    /// The state stored after the turn.
    pub after: GameState,
}

/// A game master (two phases, dice seeded with 5) over `provider` and `store`.
pub fn game_master(provider: Arc<dyn LlmProvider>, store: Arc<MemoryStore>) -> GameMaster {
    GameMaster::builder(provider, store)
        .protocol(Protocol::TwoPhase)
        .seed(5)
        .build()
}

/// The offline game master over a new store holding `state` as a campaign.
pub async fn offline(state: &GameState) -> (GameMaster, Arc<MemoryStore>, CampaignId) {
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Glacier", state).await.unwrap();
    let gm = game_master(
        Arc::new(dnd_engine::offline::OfflineGm::new()),
        store.clone(),
    );
    (gm, store, id)
}

/// Plays one turn from `before` in which the model makes `calls`, then narrates and suggests;
/// `speaker` says `line`. A call whose tool was left out of the list for room is refused and
/// added, and the model calls it again in the next round (`ScriptedProvider::calling_again`):
/// its result in [`Played::results`] is the second.
pub async fn scripted_turn(
    before: &GameState,
    calls: Vec<ToolCall>,
    speaker: &str,
    line: &str,
) -> Played {
    // A call to a tool left out of the list for room is refused and added to the next
    // round's: the model calls it again there, as a model reading the refusal does.
    let provider = Arc::new(
        ScriptedProvider::new(vec![
            Ok(CompletionResponse::from_tool_calls(calls)),
            Ok(CompletionResponse::from_text("Frost and steel.")),
            Ok(CompletionResponse::from_text(ACTIONS)),
        ])
        .calling_again(),
    );
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Glacier", before).await.unwrap();
    let gm = game_master(provider.clone(), store.clone());
    let outcome = gm.turn(&id, PlayerInput::new(speaker, line)).await.unwrap();
    // The last narrative request holds every call's result; a call made again counts once.
    let requests = provider.requests();
    let last = requests.iter().rfind(|r| !r.tools.is_empty()).unwrap();
    let results = results_per_call(&last.messages);
    let after = store.load(&id).await.unwrap();
    Played {
        results,
        outcome,
        after,
    }
}
