//! Puzzles judged by the engine (`answer_puzzle`) and content the party could never reach.
//!
//! Worked examples: Sigrun's riddle in the Wailing Glacier, answered in the player's own words;
//! a word-lock of two attempts whose wrong answers have a cost. Forgiving matching (case,
//! articles, plurals, one typo in a long word), refusals that change nothing and name no
//! puzzle the party has not met, answers kept out of every result and out of narration, a
//! cheating model; and the validator's reachability: a room, a hidden feature or an ending no
//! route reaches is refused with its path.

#[path = "support/table.rs"]
mod table;

use serde_json::{Value, json};
use table::Table;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{Secrets, scrub};
use dnd_engine::llm::ToolCall;
use dnd_engine::state::{GameState, answer_matches};

/// The built-in game with the party moved into the Hall of Echoes, before Sigrun.
fn in_the_hall() -> Table {
    let mut t = Table::game(&["kraven"], 7);
    t.ok("move_to", json!({"exit": "east"}));
    t
}

#[test]
fn sigrun_s_riddle_is_asked_in_the_hall_and_judged_by_the_engine() {
    let mut t = Table::game(&["kraven"], 7);
    // Not before the party in the first room; and never its answers.
    assert!(t.state.snapshot().puzzles.is_empty());
    let far = t.refused(
        "answer_puzzle",
        json!({"character": "kraven", "puzzle": "sigrun-riddle", "answer": "ice"}),
    );
    assert_eq!(
        far,
        "no puzzle \"sigrun-riddle\" before the party here; no puzzle is before the party"
    );

    let mut t = in_the_hall();
    let snapshot = t.state.snapshot();
    assert_eq!(snapshot.puzzles.len(), 1);
    let riddle = &snapshot.puzzles[0];
    assert_eq!(riddle.id, "sigrun-riddle");
    assert_eq!(riddle.asked_by.as_deref(), Some("Sigrun of the Oath"));
    assert!(riddle.question.contains("What am I?"));
    assert!(!snapshot.to_json().contains("the glacier\""));

    let wrong = t.ok(
        "answer_puzzle",
        json!({"character": "kraven", "puzzle": "sigrun-riddle", "answer": "A shadow?"}),
    );
    assert_eq!(wrong["solved"], json!(false));
    assert_eq!(wrong.get("attempts_left"), None, "no limit on this one");
    assert_eq!(t.state.flags["riddle_answered"], json!(false));

    let right = t.ok(
        "answer_puzzle",
        json!({"character": "Kraven", "puzzle": "sigrun-riddle", "answer": "The answer is... the Glacier!"}),
    );
    assert_eq!(right["solved"], json!(true));
    assert_eq!(t.state.flags["riddle_answered"], json!(true));
    // Its effect set the flag; Sigrun's goal step followed in the same call.
    let story = right["story"].to_string();
    assert!(story.contains("Sigrun of the Oath stands aside"), "{story}");
    assert!(t.state.snapshot().puzzles.is_empty());

    let again = t.refused(
        "answer_puzzle",
        json!({"character": "kraven", "puzzle": "sigrun-riddle", "answer": "ice"}),
    );
    assert!(
        again.starts_with("the puzzle \"sigrun-riddle\" is already solved"),
        "{again}"
    );
}

#[test]
fn forgiving_matching_and_what_it_refuses() {
    for (given, accepted) in [
        ("ICE", "ice"),
        ("It's ice.", "ice"),
        ("icicles", "icicle"),
        ("the glaciers", "the glacier"),
        ("glaicer", "the glacier"),
        ("a rivr of stars", "the river of stars"),
        ("The River of Star", "the river of stars"),
    ] {
        assert!(answer_matches(given, accepted), "{given:?} / {accepted:?}");
    }
    for (given, accepted) in [
        // A typo counts only in words of 5 letters or more.
        ("ise", "ice"),
        // A list of guesses is not an answer.
        ("ice or fire or stone", "ice"),
        ("river", "the river of stars"),
        // Two typos in one word.
        ("glaxxer", "glacier"),
        ("the", "the glacier"),
    ] {
        assert!(!answer_matches(given, accepted), "{given:?} / {accepted:?}");
    }
}

/// A vault behind a word-lock: two wrong answers wake the guardian and lock the words out.
fn vault() -> Value {
    json!({
        "title": "The Star Vault",
        "start": "hall",
        "rooms": [
            {"id": "hall", "title": "Hall", "short_description": "A bare hall.",
             "description": "Dust.",
             "exits": [{"direction": "north", "to": "vault-door"}]},
            {"id": "vault-door", "title": "Vault Door", "short_description": "A door of stars.",
             "description": "Silver letters turn slowly on a black door.",
             "exits": [{"direction": "south", "to": "hall"},
                       {"direction": "door", "to": "vault", "locked": true, "unlock_dc": 25}],
             "monsters": [{"id": "guardian", "srd": "Animated Armor", "hostile": false}]},
            {"id": "vault", "title": "Vault", "short_description": "Gold.",
             "description": "Gold, and a crown.",
             "exits": [{"direction": "out", "to": "vault-door"}],
             "features": [{"id": "crown-niche", "name": "A niche", "hidden": true,
                           "description": "A crown on velvet."}]}
        ],
        "flags": {"door_woken": 0},
        "puzzles": [
            {"id": "star-lock", "room": "vault-door",
             "question": "The letters ask: 'What flows at night and never wets a stone?'",
             "answers": ["the river of stars"], "attempts": 2,
             "on_success": [{"unlock_exit": {"room": "vault-door", "direction": "door"}},
                            {"reveal_feature": {"room": "vault", "feature": "crown-niche"}},
                            {"give_item": {"item": {"name": "Star Key", "quantity": 1}}}],
             "on_failure": [{"set_flag": {"flag": "door_woken", "value": 1}}]},
            {"id": "sphinx", "room": "hall", "secret": true,
             "question": "The sphinx asks your name.", "answers": ["Ozymandias"]}
        ],
        "characters": [{"id": "hero", "name": "Hero", "class": "fighter", "level": 1,
            "race": "human",
            "abilities": {"str": 15, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 8},
            "hp": {"current": 11, "max": 11}, "armor_class": 16, "speed": 30,
            "hit_dice": {"sides": 10, "total": 1, "spent": 0}}]
    })
}

fn vault_game() -> Table {
    let adventure = Adventure::from_json(&vault().to_string(), "vault.json").expect("valid");
    Table::new(adventure.new_game(&[]).expect("builds"), 3)
}

#[test]
fn a_word_lock_with_two_attempts_costs_each_wrong_answer_then_locks() {
    let mut t = vault_game();
    let elsewhere = t.refused(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "star-lock", "answer": "the river of stars"}),
    );
    // The sphinx is here; the lock is not, and its question and answer stay unsaid.
    assert_eq!(
        elsewhere,
        "no puzzle \"star-lock\" before the party here; the puzzles before the party are: sphinx"
    );
    t.ok("move_to", json!({"exit": "north"}));
    assert_eq!(t.state.snapshot().puzzles[0].attempts_left, Some(2));

    let first = t.ok(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "star-lock", "answer": "the moon"}),
    );
    assert_eq!(first["solved"], json!(false));
    assert_eq!(first["attempts_left"], json!(1));
    assert_eq!(first["locked"], json!(false));
    assert_eq!(t.state.flags["door_woken"], json!(1), "on_failure played");
    let second = t.ok(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "star-lock", "answer": "the milky way"}),
    );
    assert_eq!(second["locked"], json!(true));
    for result in [&first, &second] {
        assert!(!result.to_string().contains("river"), "{result}");
    }
    assert!(t.state.snapshot().puzzles.is_empty());
    let spent = t.refused(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "star-lock", "answer": "the river of stars"}),
    );
    assert!(spent.contains("has no attempts left"), "{spent}");
    assert!(t.state.location("vault-door").unwrap().exits[1].locked);
}

#[test]
fn a_right_answer_with_a_typo_opens_the_lock_and_plays_every_effect() {
    let mut t = vault_game();
    t.ok("move_to", json!({"exit": "north"}));
    let opened = t.ok(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "star-lock", "answer": "A rivr of stars!"}),
    );
    assert_eq!(opened["solved"], json!(true));
    let story = opened["story"].to_string();
    assert!(
        story.contains("The way door in Vault Door opens"),
        "{story}"
    );
    assert!(story.contains("Hero receives 1 × Star Key"), "{story}");
    assert_eq!(
        t.state.character("hero").unwrap().item_quantity("Star Key"),
        1
    );
    assert!(
        t.state.location("vault").unwrap().features[0].is_known(),
        "the niche revealed"
    );
    t.ok("move_to", json!({"exit": "door"}));
    assert_eq!(t.state.party_location().unwrap().id, "vault");
}

#[test]
fn refusals_for_a_hero_down_or_unknown_and_an_empty_answer() {
    let mut t = vault_game();
    let unknown = t.refused(
        "answer_puzzle",
        json!({"character": "zed", "puzzle": "sphinx", "answer": "Ozymandias"}),
    );
    assert!(unknown.starts_with("no character \"zed\""), "{unknown}");
    let empty = t.refused(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "sphinx", "answer": "  "}),
    );
    assert!(empty.contains("pass the player's words"), "{empty}");
    t.hero_mut("hero").hp.current = 0;
    let down = t.refused(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "sphinx", "answer": "Ozymandias"}),
    );
    assert!(down.contains("is down and cannot answer"), "{down}");
}

#[test]
fn narration_saying_a_secret_answer_is_scrubbed_until_the_puzzle_is_solved() {
    let mut t = vault_game();
    let text = "The sphinx smiles. Its name is Ozymandias, you feel. The stars say the river of stars. You wait.";
    let before = scrub(text, &Secrets::of(&t.state));
    // The secret one-word answer and the two-word phrase go with their sentences.
    assert_eq!(before.text, "The sphinx smiles. You wait.");
    assert_eq!(
        before.removed,
        vec!["the answer to sphinx", "the answer to star-lock"]
    );
    // A puzzle's id is internal: unmet, its sentence goes.
    assert_eq!(
        scrub("The star-lock hums. You wait.", &Secrets::of(&t.state)).text,
        "You wait."
    );
    // "ice" and "the glacier" are everyday words in the glacier: never scrubbed.
    let glacier = Table::game(&["kraven"], 1);
    let plain = "The glacier groans. Ice cracks.";
    assert_eq!(scrub(plain, &Secrets::of(&glacier.state)).text, plain);

    t.ok(
        "answer_puzzle",
        json!({"character": "hero", "puzzle": "sphinx", "answer": "ozymandias"}),
    );
    let after = scrub(text, &Secrets::of(&t.state));
    assert_eq!(
        after.text,
        "The sphinx smiles. Its name is Ozymandias, you feel. You wait."
    );
}

/// A model that answers for the player, guesses a list, names a puzzle the party has not met,
/// and sets the riddle's flag by hand: the engine judges the list wrong, refuses the rest, and
/// the riddle stays unsolved.
#[tokio::test]
async fn a_cheating_model_cannot_solve_a_riddle_for_the_player() {
    let before = in_the_hall().state;
    let calls = vec![
        ToolCall::new(
            "a",
            "answer_puzzle",
            json!({"character": "kraven", "puzzle": "sigrun-riddle", "answer": "shadow, ice, stone, wind"}),
        ),
        ToolCall::new(
            "b",
            "answer_puzzle",
            json!({"character": "kraven", "puzzle": "star-lock", "answer": "ice"}),
        ),
        ToolCall::new(
            "c",
            "answer_puzzle",
            json!({"character": "kraven", "puzzle": "sigrun-riddle"}),
        ),
        ToolCall::new(
            "d",
            "set_game_flag",
            json!({"key": "riddle_answered", "value": true}),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Kraven", "Sigrun? Any ideas?").await;
    assert_eq!(played.results.len(), 4, "{:#?}", played.results);
    assert!(
        played.results[0].contains("\"solved\":false"),
        "{}",
        played.results[0]
    );
    assert!(
        played.results[1].contains(
            "no puzzle \\\"star-lock\\\" before the party here; the puzzles before the party are: sigrun-riddle"
        ),
        "{}",
        played.results[1]
    );
    assert!(
        played.results[2].contains("missing field `answer`"),
        "{}",
        played.results[2]
    );
    assert!(
        played.results[3].contains("set by the engine")
            && played.results[3].contains("answer_puzzle"),
        "{}",
        played.results[3]
    );
    assert!(!played.after.puzzle_tries("sigrun-riddle").solved);
    assert_eq!(played.after.flags["riddle_answered"], json!(false));
    assert_eq!(played.after.puzzle_tries("sigrun-riddle").failed, 1);
}

fn problems(value: &Value) -> Vec<String> {
    match Adventure::from_json(&value.to_string(), "vault.json") {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_glacier_has_no_unreachable_content() {
    let adventure = Adventure::built_in();
    assert!(!adventure.rooms.is_empty());
    assert_eq!(adventure.validate("glacier"), Ok(()));
}

#[test]
fn a_room_behind_a_door_nothing_opens_is_refused_with_its_path() {
    let mut v = vault();
    // No DC, and no puzzle to unlock it.
    v["rooms"][1]["exits"][1]
        .as_object_mut()
        .unwrap()
        .remove("unlock_dc");
    v["puzzles"][0]["on_success"] = json!([]);
    v["rooms"][2]["features"][0]["find_dc"] = json!(12);
    assert_eq!(
        problems(&v),
        vec![
            "rooms[vault]: no route reaches it from the start room \"hall\": rooms[vault-door].exits[door] is locked, with no key, no unlock_dc and no unlock_exit effect"
        ]
    );
    // A key locked behind its own door opens nothing.
    v["rooms"][1]["exits"][1]["key"] = json!("Star Key");
    v["rooms"][2]["loot"] = json!([{"name": "Star Key", "quantity": 1}]);
    assert_eq!(
        problems(&v),
        vec![
            "rooms[vault]: no route reaches it from the start room \"hall\": rooms[vault-door].exits[door] is locked, with no unlock_dc and no unlock_exit effect, and its key \"Star Key\" lies nowhere the party can reach"
        ]
    );
    // The key on this side of the door: reachable.
    v["rooms"][2]["loot"] = json!([]);
    v["rooms"][1]["loot"] = json!([{"name": "star key", "quantity": 1}]);
    assert_eq!(problems(&v), Vec::<String>::new());
}

#[test]
fn a_hidden_exit_or_feature_nothing_finds_and_an_ending_nothing_reaches_are_refused() {
    let mut v = vault();
    v["puzzles"][0]["on_success"] =
        json!([{"unlock_exit": {"room": "vault-door", "direction": "door"}}]);
    v["rooms"][0]["exits"][0]["hidden"] = json!(true);
    v["endings"] = json!([{"id": "crowned", "title": "Crowned", "description": "You wear it."}]);
    assert_eq!(
        problems(&v),
        vec![
            "rooms[hall].exits[north].find_dc: the exit is hidden with no find_dc and no reveal_exit effect names it, so the party can never find it; give it a find_dc or reveal it with an effect",
            "rooms[vault-door]: no route reaches it from the start room \"hall\": rooms[hall].exits[north] is hidden with no find_dc and no reveal_exit effect",
            "rooms[vault]: no route reaches it from the start room \"hall\": no exit of a room the party can reach leads here",
            "rooms[vault].features[crown-niche].find_dc: the feature is hidden with no find_dc, no reveal_feature effect names it and no trap of it goes off where the party walks, so the party can never find it; give it a find_dc or reveal it with an effect (a goal step, a puzzle, a defeat)",
            "endings[crowned]: no `end` effect reaches this ending; end the adventure with {\"end\": {\"ending\": ...}} in a goal step, a puzzle's on_success or a monster's on_defeat",
        ]
    );
    // Routes through data: the sphinx's answer shows the way, the crown ends it.
    v["rooms"][0]["exits"][0]["find_dc"] = json!(15);
    v["puzzles"][1]["on_success"] = json!([
        {"reveal_feature": {"room": "vault", "feature": "crown-niche"}},
        {"end": {"ending": "crowned"}}
    ]);
    assert_eq!(problems(&v), Vec::<String>::new());
}

#[test]
fn a_broken_puzzle_is_refused_with_its_path() {
    let mut v = vault();
    v["puzzles"][0]["attempts"] = json!(0);
    v["puzzles"][0]["answers"] = json!(["the", "moon"]);
    v["puzzles"][0]["on_failure"] = json!([{"reveal_exit": {"room": "cellar", "direction": "up"}}]);
    v["puzzles"][1]["npc"] = json!("sphinx-npc");
    v["puzzles"][1]["question"] = json!("");
    assert_eq!(
        problems(&v),
        vec![
            "puzzles[star-lock].answers[0]: \"the\" has no words left once articles and filler (\"the\", \"is\", \"it\") are dropped, so nothing could match it",
            "puzzles[star-lock].attempts: 0 attempts would lock the puzzle before anyone answers; give 1 or more, or leave it out for no limit",
            "puzzles[star-lock].on_failure[0].reveal_exit: no room \"cellar\"; the rooms are: hall, vault-door, vault",
            "puzzles[sphinx].npc: no NPC \"sphinx-npc\"; the NPCs are: ",
            "puzzles[sphinx].question: a puzzle needs the question the party is asked",
        ]
    );
}

/// The state a campaign stores keeps the answers (to judge them) but the model's view never
/// carries them: not the snapshot, not a room's details.
#[test]
fn no_answer_reaches_the_snapshot_or_the_room_details() {
    let mut t = vault_game();
    t.ok("move_to", json!({"exit": "north"}));
    let room = t.ok("get_room_details", json!({"detail": "overview"}));
    let state: &GameState = &t.state;
    for text in [state.snapshot().to_json(), room.to_string()] {
        assert!(!text.contains("river of stars"), "{text}");
        assert!(!text.contains("Ozymandias"), "{text}");
    }
}
