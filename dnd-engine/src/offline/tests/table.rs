//! The offline game master at a table without a store: every tool call it makes has exactly the
//! fields of the tool's strict schema and is accepted by `call_tool` on a real state; its
//! narration leaks no DC, AC or id; its suggestions pass the action phase's validation; it
//! answers the same request the same way; and it runs under every protocol.

use serde_json::Value;

use super::super::*;
use crate::adventure::Adventure;
use crate::dice::seeded_rng;
use crate::gm::{ActionList, DEFAULT_SYSTEM_PROMPT, build_context, pre_narration_checks};
use crate::llm::{CompletionRequest, Message, ResponseFormat, ToolCall};
use crate::srd::Srd;
use crate::state::{GameState, StoryEvent};
use crate::store::{HistoryEntry, TurnRecord};
use crate::tools::schema::strict_schema_for;
use crate::tools::{ToolContext, ToolLimits, TurnLog, call_tool, tool_specs};

/// A game without a store: the engine's context and tools, the offline GM as the model.
struct Table {
    state: GameState,
    rng: crate::dice::TurnDice,
    history: Vec<HistoryEntry>,
    /// Tool calls refused this game, as (tool, error).
    refused: Vec<(String, String)>,
    /// Requests the offline GM itself refused (nothing by that name, no way there), as the
    /// player's words and the reason.
    refusals: Vec<(String, String)>,
    /// The suggestions of the last action phase, as (id, description).
    suggested: Vec<(String, String)>,
    events: Vec<StoryEvent>,
}

impl Table {
    fn new(party: &[&str]) -> Table {
        Table {
            state: Adventure::built_in().new_game(party).unwrap(),
            rng: crate::dice::TurnDice::Game(seeded_rng(3)),
            history: Vec::new(),
            refused: Vec::new(),
            refusals: Vec::new(),
            suggested: Vec::new(),
            events: Vec::new(),
        }
    }

    /// One TwoPhase turn; returns the narration.
    fn turn(&mut self, speaker: &str, text: &str) -> String {
        let gm = OfflineGm::new();
        let checks = pre_narration_checks(&mut self.state);
        let mut messages = build_context(
            DEFAULT_SYSTEM_PROMPT,
            &self.state,
            self.history.clone(),
            speaker,
            text,
            &checks.findings,
        );
        let turn_start = messages.len() - 1;
        let specs = std::sync::Arc::new(tool_specs());
        let mut log = TurnLog::default();
        let mut narration = None;
        for _ in 0..8 {
            let request = CompletionRequest::new(messages.clone()).with_tools(specs.clone());
            if let plan::Next::Refused(why) = plan::plan(&view::Turn::read(&request)) {
                self.refusals.push((text.to_owned(), why));
            }
            let response = gm.answer(&request);
            assert_eq!(
                response,
                gm.answer(&request),
                "the same request, the same answer"
            );
            let calls: Vec<ToolCall> = response.tool_calls().to_vec();
            messages.push(response.message.clone());
            if calls.is_empty() {
                narration = response.text().map(str::to_owned);
                break;
            }
            for call in calls {
                assert_strict(&call);
                let mut ctx = ToolContext {
                    state: &mut self.state,
                    srd: Srd::bundled(),
                    rng: &mut self.rng,
                    limits: &ToolLimits::default(),
                    log: &mut log,
                };
                let result = call_tool(&call.name, &call.arguments.to_string(), &mut ctx);
                if !result.ok {
                    self.refused
                        .push((call.name.clone(), result.content["error"].to_string()));
                }
                messages.push(Message::tool_result(call.id, result.to_text()));
            }
        }
        let narration = narration.expect("the turn ends in narration within 8 rounds");
        eprintln!("> {speaker}: {text}\n< {narration}");
        assert_clean(&self.state, &narration);
        self.suggest(messages.clone());
        self.events.extend(log.events.iter().cloned());
        self.state.turn += 1;
        self.history.push(HistoryEntry {
            turn: self.state.turn,
            undone: false,
            record: TurnRecord {
                llm_messages: messages.split_off(turn_start),
                ..TurnRecord::default()
            }
            .into(),
        });
        narration
    }
}

impl Table {
    /// A copy of this table to try something on, its dice seeded afresh (the generator cannot
    /// be copied).
    fn fork(&self, seed: u64) -> Table {
        Table {
            state: self.state.clone(),
            rng: crate::dice::TurnDice::Game(seeded_rng(seed)),
            history: self.history.clone(),
            refused: Vec::new(),
            refusals: Vec::new(),
            suggested: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The action phase after `messages`: keeps its suggestions in `suggested`.
    fn suggest(&mut self, mut messages: Vec<Message>) {
        messages.push(Message::system(
            "Suggest 2 to 5 actions the player might take next, best first. Answer with JSON only.",
        ));
        let request = CompletionRequest::new(messages).with_response_format(
            ResponseFormat::json_schema("action_list", strict_schema_for::<ActionList>()),
        );
        let text = OfflineGm::new()
            .answer(&request)
            .text()
            .unwrap_or_default()
            .to_owned();
        let list: ActionList = serde_json::from_str(&text).unwrap();
        list.validate().unwrap();
        for a in &list.actions {
            assert_clean(&self.state, &a.description);
        }
        self.suggested = list
            .actions
            .into_iter()
            .map(|a| (a.id, a.description))
            .collect();
    }

    /// The suggestions before anything is said: the context of a first turn, then the action
    /// phase.
    fn suggest_at_start(&mut self, speaker: &str) {
        let messages = build_context(
            DEFAULT_SYSTEM_PROMPT,
            &self.state,
            Vec::new(),
            speaker,
            "",
            &[],
        );
        self.suggest(messages);
    }
}

/// The arguments have exactly the fields of the tool's strict schema.
fn assert_strict(call: &ToolCall) {
    let spec = tool_specs()
        .into_iter()
        .find(|s| s.name == call.name)
        .unwrap();
    let mut expected: Vec<&String> = spec.parameters["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    let mut given: Vec<&String> = call.arguments.as_object().unwrap().keys().collect();
    expected.sort();
    given.sort();
    assert_eq!(given, expected, "{}: {}", call.name, call.arguments);
}

/// No DC, no AC, no hyphenated id in what the player reads.
fn assert_clean(state: &GameState, text: &str) {
    let w: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
    assert!(
        !w.windows(2)
            .any(|p| matches!(p[0], "DC" | "AC") && p[1].parse::<u32>().is_ok()),
        "a DC or AC in: {text}"
    );
    let ids = state
        .locations
        .iter()
        .map(|l| l.id.clone())
        .chain(state.monsters.iter().map(|m| m.id.clone()))
        .chain(
            state
                .locations
                .iter()
                .flat_map(|l| l.features.iter().map(|f| f.id.clone())),
        );
    for id in ids.filter(|id| id.contains('-')) {
        assert!(!text.contains(&id), "the id {id} in: {text}");
    }
}

mod story;

fn kraven(state: &GameState) -> &crate::state::Character {
    state.character("kraven").unwrap()
}

#[test]
fn a_walk_through_the_glacier_uses_every_tool_correctly() {
    let mut t = Table::new(&["kraven"]);
    let look = t.turn("Kraven", "I look around.");
    assert!(
        look.contains("The Ice Chasm") && look.contains("Frost Harpy"),
        "{look}"
    );
    let inventory = t.turn("Kraven", "check my inventory");
    assert!(inventory.contains("Greatsword"), "{inventory}");
    t.turn("Kraven", "I search the area carefully.");
    t.turn("Kraven", "I examine the harpy's spire");
    // Fight until the harpy falls.
    let mut fight = String::new();
    for _ in 0..20 {
        if !t.state.monster("frost-harpy").unwrap().is_fighting() {
            break;
        }
        if kraven(&t.state).hp.current * 5 < kraven(&t.state).hp.max * 2 {
            fight += &t.turn("Kraven", "I drink a potion.");
        }
        fight += &t.turn("Kraven", "I attack the harpy!");
    }
    // A harpy that fled on its turn leaves the fight to end on Kraven's next word.
    if t.state.encounter.is_some() {
        fight += &t.turn("Kraven", "I attack!");
    }
    // Slain, or fled below a quarter of its hit points (the morale rule): defeated either way.
    assert!(
        !t.state.monster("frost-harpy").unwrap().is_fighting(),
        "{fight}"
    );
    assert!(t.state.encounter.is_none());
    assert_eq!(t.state.flags["harpy_defeated"], Value::Bool(true));
    assert!(
        t.events
            .iter()
            .any(|e| e.text.contains("defeated Frost Harpy"))
    );
    let gold = kraven(&t.state).gold;
    t.turn("Kraven", "I take everything from the harpy's spire.");
    assert!(kraven(&t.state).gold > gold);
    assert_eq!(kraven(&t.state).item_quantity("Silver Locket"), 1);
    t.turn("Kraven", "I take a short rest.");
    t.turn("Kraven", "I take a short rest.");
    t.turn("Kraven", "I go east.");
    assert_eq!(kraven(&t.state).location, "hall-of-echoes");
    t.turn("Kraven", "I talk to Brother Aldous.");
    let gave = t.turn("Kraven", "I give the silver locket to Aldous.");
    assert_eq!(
        t.state.flags["aldous_given_keepsake"],
        Value::Bool(true),
        "{gave}"
    );
    assert_eq!(kraven(&t.state).item_quantity("Silver Locket"), 0);
    let answer = t.turn("Kraven", "I answer Sigrun: \"The answer is ice.\"");
    assert_eq!(t.state.flags["riddle_answered"], Value::Bool(true));
    // Judged by the engine (`answer_puzzle`), not set by the game master.
    assert!(t.state.puzzle_tries("sigrun-riddle").solved);
    assert!(answer.contains("stands aside"), "{answer}");
    t.turn("Kraven", "I take the rime key");
    assert_eq!(kraven(&t.state).item_quantity("Rime Key"), 1);
    t.turn("Kraven", "I climb down.");
    t.turn("Kraven", "I go north.");
    assert_eq!(kraven(&t.state).location, "throne-of-rime");
    // The rime door opens with the key, then leads on. Flee the Jarl first: not with him here.
    let flee = t.turn("Kraven", "I attack the jarl");
    assert!(
        t.state.encounter.is_some() || !t.state.monster("hollow-jarl").unwrap().is_alive(),
        "{flee}"
    );
    let mut rounds = 0;
    while t.state.encounter.is_some() && rounds < 20 && kraven(&t.state).can_act() {
        t.turn("Kraven", "I attack the Hollow Jarl");
        rounds += 1;
    }
    if kraven(&t.state).can_act() {
        let opened = t.turn("Kraven", "unlock the rime door with the rime key");
        assert!(opened.contains("open"), "{opened}");
        t.turn("Kraven", "go through the rime door");
        assert_eq!(kraven(&t.state).location, "glacier-heart");
        t.turn("Kraven", "I pick up everything");
        assert_eq!(kraven(&t.state).item_quantity("Rimeheart Amulet"), 1);
        t.turn("Kraven", "long rest");
        t.turn("Kraven", "go back");
        assert_eq!(kraven(&t.state).location, "throne-of-rime");
    }
    t.turn("Kraven", "xyzzy plugh");
    t.turn("Kraven", "🐉🐉🐉");
    assert!(t.refused.is_empty(), "refused: {:?}", t.refused);
}

#[test]
fn spells_flight_and_refusals() {
    let mut t = Table::new(&["isolde", "hedda"]);
    t.turn("Isolde Vane", "look around");
    let cast = t.turn("Isolde Vane", "I cast fire bolt at the harpy");
    assert!(cast.contains("Fire Bolt"), "{cast}");
    assert!(t.state.encounter.is_some());
    let heal = t.turn("Hedda Stonebrow", "I cast cure wounds on Isolde");
    assert!(heal.contains("Cure Wounds"), "{heal}");
    let flee = t.turn("Isolde Vane", "I flee!");
    assert!(
        flee.contains("break away") || flee.contains("slip out"),
        "{flee}"
    );
    assert!(t.refused.is_empty(), "refused: {:?}", t.refused);
    // Requests the world refuses are narrated, never a panic.
    let nothing = t.turn("Isolde Vane", "I take the crown of the moon");
    assert!(nothing.contains("not here"), "{nothing}");
    let wall = t.turn("Isolde Vane", "I go north");
    assert!(
        wall.contains("no way") || wall.contains("Enemies") || wall.contains("Which way"),
        "{wall}"
    );
    let unknown_spell = t.turn("Hedda Stonebrow", "I cast wish at the harpy");
    assert!(unknown_spell.contains("will not come"), "{unknown_spell}");
}

#[test]
fn an_offline_player_walks_the_glacier_at_this_table() {
    let mut t = Table::new(&["kraven"]);
    let mut player = OfflinePlayer::new("kraven");
    let mut said = Vec::new();
    while let Some(input) = player.next_input(None, &t.state) {
        assert!(said.len() < 200, "{said:?}");
        t.turn(&input.speaker, &input.text);
        said.push(input.text);
    }
    let k = kraven(&t.state);
    assert!(t.state.story.ended.is_some() || !k.can_act(), "{said:?}");
    // Deterministic: the same table and the same player say the same things.
    let mut again = Table::new(&["kraven"]);
    let mut player = OfflinePlayer::new("kraven");
    let mut said_again = Vec::new();
    while let Some(input) = player.next_input(None, &again.state) {
        again.turn(&input.speaker, &input.text);
        said_again.push(input.text);
    }
    assert_eq!(said, said_again);
}

#[tokio::test]
async fn every_protocol_runs_with_the_offline_gm() {
    use crate::gm::{GameMaster, PlayerInput, Protocol};
    use crate::store::{GameStore, MemoryStore};
    use std::sync::Arc;
    for protocol in [Protocol::TwoPhase, Protocol::ToolLoop, Protocol::StrictJson] {
        let store = Arc::new(MemoryStore::new());
        let game = Adventure::built_in().new_game(&["kraven"]).unwrap();
        let id = store.create_campaign("Glacier", &game).await.unwrap();
        let gm = GameMaster::builder(Arc::new(OfflineGm::new()), store.clone())
            .protocol(protocol)
            .seed(5)
            .build();
        for text in ["I look around.", "I attack the harpy!", "I search."] {
            let outcome = gm
                .turn(&id, PlayerInput::new("Kraven", text))
                .await
                .unwrap();
            assert!(!outcome.narration.is_empty(), "{protocol:?} {text}");
            assert!(
                !outcome.notes.iter().any(|n| n.contains("refused")),
                "{protocol:?} {text}: {:?}",
                outcome.notes
            );
            if protocol == Protocol::TwoPhase {
                assert!((2..=5).contains(&outcome.suggested_actions.len()));
            }
        }
        assert!(
            store.load(&id).await.unwrap().encounter.is_some(),
            "{protocol:?}"
        );
    }
}

#[test]
fn the_hearthfire_oil_coats_the_greatsword() {
    let mut t = Table::new(&["kraven"]);
    let mut oil = crate::state::ItemStack::new("Hearthfire Oil", 1);
    oil.magic = Some(
        serde_json::from_str(
            r#"{"consumed": true, "use": [{"effect": "weapon_damage", "dice": {"count": 1, "sides": 4},
                "damage_type": "fire", "coating": true, "duration": {"minutes": 1}}]}"#,
        )
        .unwrap(),
    );
    std::sync::Arc::make_mut(&mut std::sync::Arc::make_mut(&mut t.state.characters)[0].inventory)
        .push(oil);
    let said = t.turn("Kraven", "I use the hearthfire oil");
    assert!(said.contains("greatsword"), "{said}");
    let greatsword = &kraven(&t.state).attacks[0];
    assert!(kraven(&t.state).attack_is_magical(greatsword));
    assert!(
        kraven(&t.state)
            .timed_effects
            .iter()
            .any(|e| e.spell == "Hearthfire Oil")
    );
    assert_eq!(kraven(&t.state).item_quantity("Hearthfire Oil"), 0);
    assert!(t.refused.is_empty(), "refused: {:?}", t.refused);
}

#[test]
fn without_the_key_wren_picks_the_rime_door() {
    let mut t = Table::new(&["wren"]);
    std::sync::Arc::make_mut(&mut t.state.characters)[0].location = "throne-of-rime".into();
    let mut said = String::new();
    for _ in 0..40 {
        said += &t.turn("Wren", "I open the rime door");
        let rime = t
            .state
            .location("throne-of-rime")
            .and_then(|l| l.exit("rime door"))
            .unwrap();
        if !rime.locked {
            break;
        }
    }
    assert!(said.contains("swings open"), "{said}");
    assert!(t.refused.is_empty(), "refused: {:?}", t.refused);
    t.turn("Wren", "go through the rime door");
    assert_eq!(t.state.character("wren").unwrap().location, "glacier-heart");
}

/// Plays each of the table's current suggestions from a copy of it, as the player would by
/// choosing it: the offline GM must not refuse its own words, no tool may refuse its calls,
/// and the suggestion must do what it says.
fn play_every_suggestion(t: &Table, speaker: &str, when: &str) {
    assert!(t.suggested.len() >= 2, "{when}: {:?}", t.suggested);
    for (id, description) in &t.suggested {
        let mut copy = t.fork(1);
        let hero = |t: &Table| t.state.characters[0].clone();
        let before = hero(&copy);
        let said = copy.turn(speaker, description);
        assert!(
            copy.refusals.is_empty() && copy.refused.is_empty(),
            "{when}, suggestion {id} ({description:?}) was refused: {:?} {:?}\n{said}",
            copy.refusals,
            copy.refused
        );
        let after = hero(&copy);
        let kind = id.split('-').next().unwrap_or_default();
        match kind {
            "take" => assert!(
                after.inventory != before.inventory || after.gold != before.gold,
                "{when}, {description:?} took nothing: {said}"
            ),
            "go" => assert_ne!(after.location, before.location, "{description:?}: {said}"),
            "attack" => assert!(copy.state.encounter.is_some(), "{description:?}: {said}"),
            _ => {}
        }
    }
}

#[test]
fn every_suggestion_is_accepted_at_the_start_and_after_look() {
    for (party, speaker) in [
        (&["kraven"][..], "Kraven"),
        (&["isolde", "hedda"][..], "Isolde Vane"),
        (&["wren"][..], "Wren"),
    ] {
        let mut t = Table::new(party);
        t.suggest_at_start(speaker);
        play_every_suggestion(&t, speaker, "at the start");
        t.turn(speaker, "I look around.");
        assert!(
            t.suggested.iter().any(|(id, _)| id.starts_with("take")),
            "loot lies in view after look: {:?}",
            t.suggested
        );
        play_every_suggestion(&t, speaker, "after look");
    }
}
