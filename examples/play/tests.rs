//! Whole games in-process, with the screen captured: hostile text never reaches the terminal,
//! saving never destroys, a turn another game beat is not kept, and `/quit` says "Saved" only
//! when it is true.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use async_trait::async_trait;
use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, Protocol};
use dnd_engine::llm::{CompletionResponse, ScriptedProvider, ToolCall};
use dnd_engine::offline::OfflineGm;
use dnd_engine::state::{Change, GameState, StoryEvent};
use dnd_engine::store::{
    CampaignId, CampaignInfo, GameStore, HistoryEntry, MemoryStore, Page, StoreError, TurnRecord,
};
use serde_json::json;

use crate::commands::{self, Input as Typed, Next};
use crate::game::{Game, Setup};
use crate::screen::{Screen, Tone, capture};

/// Everything a terminal obeys, in one string: a lone ESC, clear screen, a window title ended
/// by BEL and by ST, the 8-bit CSI, BEL, backspace, carriage return.
const EVIL: &str = "\x1b\x1b[2J\x1b]0;pwned\x07\x1b]2;pwned\x1b\\\u{9b}2J\x07\x08\r";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// A game over `store` (resuming its newest campaign, or starting one), with a plain screen.
async fn game(store: Arc<dyn GameStore>, gm: GameMaster, db: &Path) -> Game {
    Game::start(
        Setup {
            screen: Screen {
                terminal: false,
                color: false,
            },
            store,
            gm,
            db: db.to_path_buf(),
            adventure: Adventure::built_in(),
            character: "kraven".into(),
            offline: true,
            interactive: false,
        },
        false,
    )
    .await
    .expect("the game starts")
}

/// What the loop in `main` does with one typed line.
async fn type_line(game: &mut Game, line: &str) {
    let words = match commands::parse(line) {
        Typed::Empty => return,
        Typed::Say(words) => words,
        Typed::Pick(n) => match game.suggestion(n) {
            Ok(words) => words,
            Err(why) => {
                game.screen.line(&why);
                return;
            }
        },
        Typed::Command(command) => match commands::run(game, command).await {
            Next::Prompt | Next::Quit => return,
            Next::Play(words) => words,
        },
    };
    game.play(&words).await;
}

/// The built-in adventure with every name and text a player can be shown carrying [`EVIL`].
fn hostile_state() -> GameState {
    let mut state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let evil = |text: &mut String| text.push_str(EVIL);
    let mut summary = state.summary.to_string();
    evil(&mut summary);
    state.summary = summary.into();
    for c in Arc::make_mut(&mut state.characters) {
        evil(&mut c.name);
        evil(&mut c.class);
        evil(&mut c.race);
        for item in Arc::make_mut(&mut c.inventory) {
            evil(&mut item.name);
            evil(&mut item.note);
        }
        for attack in Arc::make_mut(&mut c.attacks) {
            evil(&mut attack.name);
        }
        for spell in Arc::make_mut(&mut c.spells) {
            evil(spell);
        }
        c.concentration = Some(format!("Bless{EVIL}"));
    }
    for room in Arc::make_mut(&mut state.locations) {
        evil(&mut room.title);
        evil(&mut room.short_description);
        evil(&mut room.description);
        room.visited = true;
        for exit in &mut room.exits {
            evil(&mut exit.direction);
        }
        for feature in &mut room.features {
            evil(&mut feature.name);
            evil(&mut feature.description);
        }
        for item in &mut room.loot {
            evil(&mut item.name);
        }
    }
    for monster in Arc::make_mut(&mut state.monsters) {
        evil(&mut monster.name);
    }
    for npc in Arc::make_mut(&mut state.npcs) {
        evil(&mut npc.name);
    }
    state
}

/// A model whose narration, suggestions and reasons carry [`EVIL`], every turn: it looks, rolls
/// Perception (the roll's label carries the character's name), narrates and suggests.
fn hostile_model() -> ScriptedProvider {
    let look = ToolCall::new("call-1", "get_room_details", json!({"detail": "full"}));
    let check = ToolCall::new(
        "call-2",
        "roll_skill_check",
        json!({"creature": "kraven", "skill": "perception", "dc": 13, "advantage": null,
               "reason": format!("the song{EVIL}")}),
    );
    let actions = json!({"actions": [
        {"id": "attack", "description": format!("Attack the harpy{EVIL}"),
         "reason": format!("it is close{EVIL}"), "mechanic": null},
        {"id": "hide", "description": format!("Hide behind the ice{EVIL}"),
         "reason": null, "mechanic": null}
    ]});
    ScriptedProvider::looping(vec![
        CompletionResponse::from_tool_calls(vec![look, check]),
        CompletionResponse::from_text(format!(
            "The ice sings{EVIL} and the wind answers.\n\nWhat do you do?{EVIL}"
        )),
        CompletionResponse::from_text(actions.to_string()),
    ])
}

/// Removes this screen's own colour codes (`ESC [ digits m`).
fn without_own_colours(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let digits = tail
            .find(|c: char| !c.is_ascii_digit() && c != ';')
            .unwrap_or(tail.len());
        if tail[digits..].starts_with('m') {
            rest = &tail[digits + 1..];
        } else {
            out.push_str("\x1b[");
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn hostile_text_never_reaches_the_terminal() {
    for color in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("game.sqlite3");
        let rt = runtime();
        let (_, printed) = capture::printed(|| {
            rt.block_on(async {
                let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
                store
                    .create_campaign(&format!("run{EVIL}"), &hostile_state())
                    .await
                    .unwrap();
                let gm = GameMaster::builder(Arc::new(hostile_model()), Arc::clone(&store))
                    .suggestions(dnd_engine::gm::Suggestions::Model)
                    .protocol(Protocol::TwoPhase)
                    .seed(3)
                    .build();
                let mut game = game(store, gm, &db).await;
                game.screen.color = color;
                for line in [
                    "look around",
                    &format!("I shout {EVIL}loudly"),
                    "2",
                    "/sheet",
                    "/inventory",
                    "/map",
                    "/log",
                    "/rolls",
                    "/load",
                    "/load nothing",
                    "/save",
                    "/cost",
                    &format!("/x{EVIL}"),
                    "9",
                ] {
                    type_line(&mut game, line).await;
                }
                let (tone, farewell) = game.farewell();
                game.screen.say(tone, &farewell);
            })
        });
        let shown = if color {
            assert!(printed.contains("\x1b["), "colours are on");
            without_own_colours(&printed)
        } else {
            printed.clone()
        };
        for control in ['\x1b', '\x07', '\u{9b}', '\x08', '\r'] {
            assert!(
                !shown.contains(control),
                "{control:?} reached the screen (colour {color}):\n{printed}"
            );
        }
        // The fields were printed (so the check above has something to check), without their
        // sequences.
        for expected in [
            "Recap of \"run",
            "Kraven",
            "The ice sings and the wind answers.",
            "Attack the harpy",
            "Hide behind the ice",
            "Perception",
            "I shout loudly",
            "Farewell",
        ] {
            assert!(
                shown.contains(expected),
                "{expected:?} is shown:\n{printed}"
            );
        }
        assert!(
            !shown.contains("pwned"),
            "a window title is dropped whole:\n{printed}"
        );
    }
}

#[test]
fn saving_never_replaces_another_save() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.sqlite3");
    let rt = runtime();
    let ((before, after, playing, saved), printed) = capture::printed(|| {
        rt.block_on(async {
            let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
            let gm = OfflineGm::game_master(Arc::clone(&store)).seed(1).build();
            let mut game = game(Arc::clone(&store), gm, &db).await;
            for line in ["look around", "/save foo", "search", "look around", "/new"] {
                type_line(&mut game, line).await;
            }
            let before = store.list_campaigns().await.unwrap();
            type_line(&mut game, "/save FOO").await;
            let after = store.list_campaigns().await.unwrap();
            let playing = game.name().to_owned();
            // A free name still saves.
            type_line(&mut game, "/save bar").await;
            (before, after, playing, game.name().to_owned())
        })
    });
    assert_eq!(after, before, "nothing was created or deleted:\n{printed}");
    let foo: Vec<&CampaignInfo> = after.iter().filter(|c| c.name == "foo").collect();
    assert_eq!(foo.len(), 1);
    assert_eq!(foo[0].turns, 3, "the three-turn save is whole:\n{printed}");
    assert_ne!(playing, "foo", "the new game plays on under its own name");
    assert_eq!(saved, "bar");
    assert!(
        printed.contains("there is already a save named foo (3 turns)"),
        "{printed}"
    );
    assert!(printed.contains("/load foo"), "{printed}");
    assert!(printed.contains("Saved as bar"), "{printed}");
}

/// How [`Flaky`] commits.
const COMMIT: u8 = 0;
/// Every commit fails, as on a read-only database.
const READ_ONLY: u8 = 1;
/// Another game commits a turn just before this one's commit.
const RACED: u8 = 2;
/// Another game undoes the last turn and commits one of its own just before this one's commit:
/// the campaign has as many turns in effect as this turn was computed on, but not the same.
const UNDONE_AND_RACED: u8 = 3;

/// A store that fails commits as it is told to; everything else is a `MemoryStore`'s.
#[derive(Default)]
struct Flaky {
    inner: MemoryStore,
    mode: AtomicU8,
}

#[async_trait]
impl GameStore for Flaky {
    async fn create_campaign(
        &self,
        name: &str,
        initial: &GameState,
    ) -> Result<CampaignId, StoreError> {
        self.inner.create_campaign(name, initial).await
    }

    async fn load(&self, campaign: &CampaignId) -> Result<GameState, StoreError> {
        self.inner.load(campaign).await
    }

    async fn load_with_head(&self, campaign: &CampaignId) -> Result<(GameState, u64), StoreError> {
        self.inner.load_with_head(campaign).await
    }

    async fn commit_turn(
        &self,
        campaign: &CampaignId,
        record: TurnRecord,
    ) -> Result<u64, StoreError> {
        match self.mode.load(Ordering::SeqCst) {
            READ_ONLY => {
                return Err(StoreError::Backend(
                    "game.sqlite3: attempt to write a readonly database".into(),
                ));
            }
            mode @ (RACED | UNDONE_AND_RACED) => {
                self.mode.store(COMMIT, Ordering::SeqCst);
                if mode == UNDONE_AND_RACED {
                    self.inner.undo(campaign, 1).await?;
                }
                let other = TurnRecord {
                    input: "the other game's turn".into(),
                    changes: vec![Change::TimeAdvanced { minutes: 10 }],
                    ..TurnRecord::default()
                };
                self.inner.commit_turn(campaign, other).await?;
            }
            _ => {}
        }
        self.inner.commit_turn(campaign, record).await
    }

    async fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        self.inner.list_campaigns().await
    }

    async fn story_log(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<StoryEvent>, StoreError> {
        self.inner.story_log(campaign, page).await
    }

    async fn history(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        self.inner.history(campaign, page).await
    }

    async fn undo(&self, campaign: &CampaignId, turns: u32) -> Result<GameState, StoreError> {
        self.inner.undo(campaign, turns).await
    }

    async fn delete(&self, campaign: &CampaignId) -> Result<(), StoreError> {
        self.inner.delete(campaign).await
    }
}

#[test]
fn quit_says_saved_only_when_the_last_commit_went_through() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.sqlite3");
    let rt = runtime();
    let (farewells, printed) = capture::printed(|| {
        rt.block_on(async {
            let store = Arc::new(Flaky::default());
            let gm = OfflineGm::game_master(store.clone()).seed(1).build();
            let mut game = game(store.clone(), gm, &db).await;
            let mut farewells = vec![game.farewell()];
            type_line(&mut game, "look around").await;
            farewells.push(game.farewell());
            store.mode.store(READ_ONLY, Ordering::SeqCst);
            type_line(&mut game, "search").await;
            farewells.push(game.farewell());
            type_line(&mut game, "/save").await;
            store.mode.store(COMMIT, Ordering::SeqCst);
            type_line(&mut game, "/retry").await;
            farewells.push(game.farewell());
            farewells
        })
    });
    let saved = |f: &(Tone, String)| f.1.starts_with("Saved as kraven-1.");
    assert!(
        saved(&farewells[0]) && saved(&farewells[1]),
        "{farewells:?}"
    );
    let (tone, failed) = &farewells[2];
    assert_eq!(*tone, Tone::Bad);
    assert!(!failed.contains("Saved as"), "{failed}");
    assert!(
        failed.starts_with("Not saved: the turn \"search\"") && failed.contains("readonly"),
        "what was not saved, and why: {failed}"
    );
    assert!(
        printed.contains("error: not saved: the turn \"search\""),
        "/save does not claim it either: {printed}"
    );
    assert!(
        saved(&farewells[3]),
        "saved again after a turn went through: {farewells:?}"
    );
}

#[test]
fn a_turn_another_game_beat_is_not_kept_and_the_game_reloads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.sqlite3");
    let rt = runtime();
    let ((), printed) = capture::printed(|| {
        rt.block_on(async {
            let store = Arc::new(Flaky::default());
            let gm = OfflineGm::game_master(store.clone()).seed(1).build();
            let mut game = game(store.clone(), gm, &db).await;
            type_line(&mut game, "look around").await;
            store.mode.store(RACED, Ordering::SeqCst);
            type_line(&mut game, "search").await;
            let campaign = &store.list_campaigns().await.unwrap()[0];
            let history = store.history(&campaign.id, Page::first(10)).await.unwrap();
            let inputs: Vec<&str> = history.iter().map(|h| h.record.input.as_str()).collect();
            assert_eq!(
                inputs,
                ["look around", "the other game's turn"],
                "search was not kept"
            );
            assert_eq!(game.retry_input().as_deref(), Some("search"));
            assert!(
                game.farewell().1.contains("another game"),
                "{:?}",
                game.farewell()
            );
            // Play goes on from the reloaded game.
            type_line(&mut game, "/retry").await;
            let state = store.load(&campaign.id).await.unwrap();
            assert_eq!(state.turn, 3);
            assert!(game.farewell().1.starts_with("Saved as"));
        })
    });
    let conflict = printed
        .find("Another game is running on this save")
        .unwrap_or_else(|| panic!("the player is told: {printed}"));
    let after = &printed[conflict..];
    // The line is wrapped: compare its words.
    let words = after.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("it moved kraven-1 on while this turn was played"),
        "{after}"
    );
    assert!(after.contains("not kept"), "{after}");
    assert!(
        after.contains("Recap of \"kraven-1\" (2 turns played)"),
        "reloaded: {after}"
    );
}

/// The other game undid the last turn and played one of its own: the campaign has as many turns
/// in effect as this turn was computed on, but a different state, so the turn is not kept.
#[test]
fn a_turn_played_before_another_game_undid_and_replayed_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.sqlite3");
    let rt = runtime();
    let ((), printed) = capture::printed(|| {
        rt.block_on(async {
            let store = Arc::new(Flaky::default());
            let gm = OfflineGm::game_master(store.clone()).seed(1).build();
            let mut game = game(store.clone(), gm, &db).await;
            type_line(&mut game, "look around").await;
            type_line(&mut game, "search").await;
            store.mode.store(UNDONE_AND_RACED, Ordering::SeqCst);
            type_line(&mut game, "listen").await;
            let campaign = &store.list_campaigns().await.unwrap()[0];
            let history = store.history(&campaign.id, Page::first(10)).await.unwrap();
            let turns: Vec<(&str, bool)> = history
                .iter()
                .map(|h| (h.record.input.as_str(), h.undone))
                .collect();
            assert_eq!(
                turns,
                [
                    ("look around", false),
                    ("search", true),
                    ("the other game's turn", false)
                ],
                "listen was not kept"
            );
            assert_eq!(game.retry_input().as_deref(), Some("listen"));
        })
    });
    assert!(
        printed.contains("Another game is running on this save"),
        "the player is told: {printed}"
    );
}

/// Picking a suggestion by its number sends a pick, not only its words: the engine rolls the
/// mechanic it offered before the game master narrates.
#[test]
fn a_picked_suggestion_is_rolled_by_the_engine_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.sqlite3");
    let rt = runtime();
    let (offered, second, printed) = {
        let ((offered, second), printed) = capture::printed(|| {
            rt.block_on(async {
                let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
                let gm = OfflineGm::game_master(Arc::clone(&store)).seed(1).build();
                let mut game = game(Arc::clone(&store), gm, &db).await;
                type_line(&mut game, "look around").await;
                let id = store.list_campaigns().await.unwrap()[0].id.clone();
                let first = store.history(&id, Page::first(9)).await.unwrap();
                let offered = first[0].record.choices.clone();
                // The offline game master lists the attack on the harpy first.
                type_line(&mut game, "1").await;
                let history = store.history(&id, Page::first(9)).await.unwrap();
                (offered, history.get(1).map(|h| h.record.clone()))
            })
        });
        (offered, second, printed)
    };
    assert!(
        offered.iter().any(|c| c.name == "roll_attack"),
        "the first turn offered an attack with its mechanic: {offered:?}\n{printed}"
    );
    let second = second.expect("the pick was played");
    let rolled = second
        .llm_messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .find(|c| c.id.starts_with("chosen-"));
    assert!(
        rolled.is_some_and(|c| c.name == "roll_attack"),
        "the engine rolled the pick first:\n{printed}"
    );
}

#[test]
fn play_starts_the_village_adventure_by_name_and_plays_a_turn() {
    // What `play --adventure wendle-hollow` sets up: the adventure by name, its first hero.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.sqlite3");
    let rt = runtime();
    let (state, printed) = capture::printed(|| {
        rt.block_on(async {
            let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
            let gm = OfflineGm::game_master(Arc::clone(&store)).seed(1).build();
            let adventure = Adventure::named_or_file("wendle-hollow").unwrap();
            let character = adventure.character_ids()[0].to_owned();
            let mut game = Game::start(
                Setup {
                    screen: Screen {
                        terminal: false,
                        color: false,
                    },
                    store: Arc::clone(&store),
                    gm,
                    db: db.clone(),
                    adventure,
                    character,
                    offline: true,
                    interactive: false,
                },
                true,
            )
            .await
            .expect("the game starts");
            type_line(&mut game, "look around").await;
            let id = store.list_campaigns().await.unwrap()[0].id.clone();
            store.load(&id).await.unwrap()
        })
    });
    assert_eq!(
        state.title, "The Quiet Nights of Wendle Hollow",
        "{printed}"
    );
    assert_eq!(
        state.party_location().map(|l| l.id.as_str()),
        Some("village-green")
    );
    assert!(state.character("bram").is_some(), "the default hero plays");
    assert!(printed.contains("Village Green"), "{printed}");
}
