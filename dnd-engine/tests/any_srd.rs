//! A game on an SRD other than the bundled one: the adventure loader, the game master's tools
//! and the state all read the SRD the game was given (`GameMasterBuilder::srd`,
//! `Adventure::new_game_on`), never the bundled data behind it.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, PlayerInput, Protocol, results_per_call};
use dnd_engine::llm::{CompletionResponse, ScriptedProvider, ToolCall};
use dnd_engine::srd::{Srd, load_dir};
use dnd_engine::state::{Change, GameState};
use dnd_engine::store::{GameStore, MemoryStore};

#[path = "support/environment.rs"]
mod environment;

const ACTIONS: &str = r#"{"actions": [
  {"id": "look", "description": "Look at the harpy", "reason": null, "mechanic": null}
]}"#;

/// The bundled SRD with the harpy's armour class and the specter's hit points changed: numbers
/// no bundled record has, so a read of the bundled data would show.
fn homebrew() -> Arc<Srd> {
    let mut srd = Srd::bundled().clone();
    let harpy = srd.monsters.iter_mut().find(|m| m.slug == "harpy").unwrap();
    harpy.armor_class = 19;
    let specter = srd
        .monsters
        .iter_mut()
        .find(|m| m.slug == "specter")
        .unwrap();
    specter.hit_points = 77;
    Arc::new(srd)
}

/// A new game of the built-in adventure on `srd`, the Frost Harpy seen.
fn game_on(srd: &Arc<Srd>) -> GameState {
    let mut state = Adventure::built_in()
        .new_game_on(Arc::clone(srd), &["kraven"])
        .unwrap();
    state
        .apply(&Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    state
}

/// Plays one turn on `srd` in which the model asks for the Frost Harpy's stats; returns the
/// tool's result as JSON.
async fn harpy_stats_on(srd: Arc<Srd>, state: &GameState) -> Value {
    let call = ToolCall::new("c1", "get_monster_stats", json!({"monster": "frost-harpy"}));
    // Outside a fight the tool is not in the first round's list: the call is refused and
    // added, and the model calls it again, as a model reading the refusal does.
    let provider = Arc::new(
        ScriptedProvider::new(vec![
            Ok(CompletionResponse::from_tool_calls(vec![call])),
            Ok(CompletionResponse::from_text("The harpy shrieks.")),
            Ok(CompletionResponse::from_text(ACTIONS)),
        ])
        .calling_again(),
    );
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Glacier", state).await.unwrap();
    let gm = GameMaster::builder(provider.clone(), store)
        .protocol(Protocol::TwoPhase)
        .srd(srd)
        .seed(5)
        .build();
    gm.turn(&id, PlayerInput::new("Kraven", "What is that thing?"))
        .await
        .unwrap();
    let requests = provider.requests();
    let last = requests.iter().rfind(|r| !r.tools.is_empty()).unwrap();
    let results = results_per_call(&last.messages);
    serde_json::from_str(&results[0]).unwrap_or_else(|e| panic!("{e}: {}", results[0]))
}

#[tokio::test]
async fn a_homebrew_srd_gives_its_numbers_to_the_loader_and_the_tools() {
    let srd = homebrew();
    let state = game_on(&srd);
    // The loader made the Hollow Jarl from the homebrew specter (its file sets no hit points).
    assert_eq!(state.monster("hollow-jarl").unwrap().hp.max, 77);
    let stats = harpy_stats_on(srd, &state).await;
    assert_eq!(stats["stat_block"]["armor_class"], 19, "{stats}");

    // The same game on the bundled SRD shows the bundled numbers: the test above is not
    // passing by accident.
    let bundled = Srd::bundled_shared();
    let state = game_on(&bundled);
    assert_ne!(state.monster("hollow-jarl").unwrap().hp.max, 77);
    let stats = harpy_stats_on(bundled, &state).await;
    assert_ne!(stats["stat_block"]["armor_class"], 19, "{stats}");
}

#[tokio::test]
async fn a_game_runs_on_the_5e_database_files() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/5e-database-2014"
    ));
    if !dir.is_dir() {
        return environment::missing(&format!(
            "{} is absent: put the 2014 SRD JSON files of the 5e-database project there",
            dir.display()
        ));
    }
    let database = load_dir(&dir).unwrap();
    let srd = Arc::new(database.over(Srd::bundled().clone()));
    let loaded_harpy = serde_json::to_value(srd.monster("harpy").unwrap()).unwrap();
    let bundled_harpy = serde_json::to_value(Srd::bundled().monster("harpy").unwrap()).unwrap();
    // The two records differ (the files keep their own text), so the comparison below tells
    // which one the game read.
    assert_ne!(loaded_harpy, bundled_harpy);

    let state = game_on(&srd);
    let stats = harpy_stats_on(srd, &state).await;
    assert_eq!(stats["stat_block"], loaded_harpy);
}
