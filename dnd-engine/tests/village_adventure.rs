//! The second built-in adventure, "The Quiet Nights of Wendle Hollow": a village mystery where
//! talking, Insight, a trap and one fight decide it. It loads, passes the reachability check,
//! its party follows the character builder, and both endings are reached by playing the real
//! tools with only what the party can see; the culprit's secret, the trap and the way below
//! stay out of every result and the snapshot until found, and a model cannot shortcut them.

#[path = "support/table.rs"]
mod table;

use serde_json::{Value, json};
use table::Table;

use dnd_engine::adventure::Adventure;
use dnd_engine::character::CharacterChoices;
use dnd_engine::llm::ToolCall;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Disposition, GameState, ending_reached};

const HOLLOW: &str = "wendle-hollow";

fn hollow() -> Adventure {
    Adventure::built_in_named(HOLLOW).expect("a built-in adventure")
}

/// A new game of the Hollow with all four heroes, the dice seeded.
fn game(seed: u64) -> Table {
    Table::new(hollow().new_game(&[]).unwrap(), seed)
}

fn talk(character: &str, npc: &str, topic: Option<&str>, give: Option<&str>) -> Value {
    json!({"character": character, "npc": npc, "topic": topic, "give": give})
}

fn insight(character: &str, npc: &str) -> Value {
    json!({"character": character, "npc": npc, "skill": "insight", "request": null, "size": null, "advantage": null})
}

fn here(t: &Table) -> String {
    t.state.party_location().map(|l| l.id.clone()).unwrap()
}

fn ending(t: &Table) -> Option<String> {
    ending_reached(&t.state).map(|e| e.id.clone())
}

/// Everything a result says, in lower case, for leak checks.
fn lower(value: &Value) -> String {
    value.to_string().to_lowercase()
}

/// What a model may see of the state: the snapshot every request carries.
fn snapshot(state: &GameState) -> String {
    state.snapshot().to_json().to_lowercase()
}

#[test]
fn it_is_built_in_by_name_and_validates() {
    assert_eq!(Adventure::BUILT_IN, ["wailing-glacier", "wendle-hollow"]);
    let glacier = Adventure::built_in_named("Wailing-Glacier").unwrap();
    assert_eq!(
        glacier,
        Adventure::built_in(),
        "the glacier stays the default"
    );
    assert!(Adventure::built_in_named("wendle").is_none());
    let text = Adventure::built_in_json_named(HOLLOW).unwrap();
    let adventure =
        Adventure::from_json(text, "wendle_hollow.json").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(adventure, hollow());
    adventure.validate("wendle_hollow.json").unwrap();
    assert_eq!(adventure.title, "The Quiet Nights of Wendle Hollow");
    assert_eq!(adventure.rooms.len(), 6, "a village of 5 to 8 places");
    assert!((3..=5).contains(&adventure.npcs.len()));
    let monsters: Vec<_> = adventure.rooms.iter().flat_map(|r| &r.monsters).collect();
    assert_eq!(monsters.len(), 1, "one fight");
    assert_eq!(monsters[0].srd, "Ghast");
    let endings: Vec<&str> = adventure.endings.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(endings, ["hollow-sleeps", "dark-of-the-moon"]);
    let liars = adventure
        .npcs
        .iter()
        .filter(|n| n.topics.iter().any(|t| t.lie))
        .count();
    assert!(liars >= 1, "someone lies, and Insight can tell");
    assert_eq!(
        adventure.character_ids(),
        ["bram", "nessa", "tamsin", "lio"]
    );
}

#[test]
fn the_party_is_what_the_builder_makes_of_their_choices() {
    let text = Adventure::built_in_json_named(HOLLOW).unwrap();
    let file: Value = serde_json::from_str(text).unwrap();
    let adventure = hollow();
    let entries = file["characters"].as_array().unwrap();
    assert_eq!(entries.len(), 4, "a party of four");
    for (entry, sheet) in entries.iter().zip(&adventure.characters) {
        let choices: CharacterChoices = serde_json::from_value(entry["build"].clone()).unwrap();
        let built = choices.build(Srd::bundled()).unwrap();
        assert_eq!(&built, sheet, "{}", sheet.id);
        assert_eq!(sheet.level, 2, "{}", sheet.id);
    }
    let classes: Vec<&str> = adventure
        .characters
        .iter()
        .map(|c| c.class.as_str())
        .collect();
    assert_eq!(classes, ["fighter", "cleric", "rogue", "bard"]);
    let tamsin = &adventure.characters[2];
    assert!(
        tamsin.item_quantity("Thieves' Tools") > 0,
        "the rogue can disarm the trap"
    );
}

#[test]
fn a_broken_choice_is_refused_at_its_field_like_any_adventure_error() {
    let text = Adventure::built_in_json_named(HOLLOW).unwrap();
    let mut file: Value = serde_json::from_str(text).unwrap();
    file["characters"][0]["build"]["class"] = json!("Fightr");
    file["characters"][1]["build"]["skills"] = json!(["medicine", "stealth"]);
    file["characters"][2]["level"] = json!(2);
    let error = Adventure::from_json(&file.to_string(), "hollow.json")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("hollow.json: characters[0].build.class: \"Fightr\" is not a class"),
        "{error}"
    );
    assert!(
        error.contains("characters[1].build.skills[1]: \"Stealth\" is not a Cleric skill"),
        "{error}"
    );
    assert!(
        error.contains("characters[2].level: unknown field `level`"),
        "{error}"
    );
}

#[test]
fn no_secret_reaches_a_result_or_the_snapshot_before_it_is_found() {
    // Without Tamsin, whose passive Perception would notice the kettle (and so find it).
    let mut t = Table::new(hollow().new_game(&["bram", "nessa", "lio"]).unwrap(), 3);
    let secrets = [
        "tallow-cellar",
        "tallow cellar",
        "kettle",
        "ghast",
        "abel-sedge",
        "hungering",
        "candle-lady",
        "slip away downriver",
        "beneath her shop",
        "dc 1",
    ];
    let check = |text: &str, what: &str| {
        for secret in secrets {
            assert!(!text.contains(secret), "{secret} leaked in {what}: {text}");
        }
    };
    check(&snapshot(&t.state), "the start's snapshot");
    let room = t.ok("move_to", json!({"exit": "west"}));
    check(&lower(&room), "the chandlery");
    check(&snapshot(&t.state), "the chandlery's snapshot");
    let full = t.ok("get_room_details", json!({"detail": "full"}));
    check(&lower(&full), "the chandlery in full");
    // The way down and the trap on it read as things that do not exist.
    let down = t.refused("move_to", json!({"exit": "down"}));
    check(&down.to_lowercase(), "move_to down");
    let trap = t.refused(
        "disarm_trap",
        json!({"character": "lio", "feature": "tallow-kettle"}),
    );
    let plain = t.refused(
        "disarm_trap",
        json!({"character": "lio", "feature": "order-book"}),
    );
    assert_eq!(
        trap.replace("tallow-kettle", "X"),
        plain.replace("order-book", "X")
    );
    // Corwen's lie is told as she tells it: nothing in the result says it is one.
    let told = t.ok("talk_to", talk("lio", "corwen", Some("the nights"), None));
    assert!(
        told["says"]
            .as_str()
            .unwrap()
            .contains("sleep like the dead")
    );
    check(&lower(&told), "Corwen's lie");
    assert!(!lower(&told).contains("lie"), "{told}");
    check(&snapshot(&t.state), "the snapshot after the lie");
}

/// Brings the party to the chandlery with Pip's tale told (the way below shown), by the tools.
fn pips_tale(t: &mut Table) {
    t.ok("move_to", json!({"exit": "east"}));
    let osric = t.ok("talk_to", talk("bram", "osric", Some("who"), None));
    assert!(osric["says"].as_str().unwrap().contains("Pip"), "{osric}");
    t.ok(
        "add_inventory",
        json!({"character": "lio", "item": "Honey Cake", "quantity": 1, "from": "cake-board"}),
    );
    t.ok("move_to", json!({"exit": "west"}));
    t.ok("move_to", json!({"exit": "south"}));
    let locked = t.refused("talk_to", talk("lio", "pip", Some("the truth"), None));
    assert!(locked.contains("needs a friendlier attitude"), "{locked}");
    assert!(!locked.contains("candle-lady"), "{locked}");
    let gave = t.ok("talk_to", talk("lio", "pip", None, Some("honey cake")));
    assert_eq!(gave["attitude"], "friendly");
    // Friendly, the same question that drew his lie now draws the truth.
    let told = t.ok(
        "talk_to",
        talk("lio", "pip", Some("what did you see that night?"), None),
    );
    assert!(
        told["says"].as_str().unwrap().contains("Mistress Sedge"),
        "{told}"
    );
    assert!(
        !table::exit_hidden(&t.state, "chandlery", "down"),
        "Pip's tale shows the way below"
    );
    t.ok("move_to", json!({"exit": "north"}));
    t.ok("move_to", json!({"exit": "west"}));
    assert_eq!(here(t), "chandlery");
}

/// The fight below: every hero attacks the monster the party sees, turn by turn, until it or
/// the party is down. Whether the party won.
fn fight_below(t: &mut Table, arrived: &Value) -> bool {
    let monster = arrived["monsters"][0]["id"].as_str().unwrap().to_owned();
    t.ok(
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    for _ in 0..200 {
        if t.state.encounter.is_none() {
            break;
        }
        let turn = t.turn_of();
        if t.state.character(&turn).is_some() {
            // A paralysed hero's attack is refused; its turn passes all the same.
            t.call(
                "roll_attack",
                json!({"attacker": turn, "target": monster, "attack": null, "advantage": null}),
            );
        }
        if t.state.monster(&monster).is_some_and(|m| !m.is_alive()) {
            break;
        }
        t.ok("next_turn", json!({}));
    }
    let won = t.state.monster(&monster).is_some_and(|m| !m.is_alive());
    if won && t.state.encounter.is_some() {
        t.ok("end_encounter", json!({}));
    }
    won
}

/// Goes down from the chandlery, the trap found and disarmed first if a search finds it.
/// The room arrived in, and whether the trap went off on the way.
fn go_below(t: &mut Table) -> (Value, bool) {
    // A search of the shop; the engine judges what its total finds, whatever DC is named.
    let found = t.ok(
        "roll_skill_check",
        json!({"creature": "tamsin", "skill": "perception", "dc": 10, "advantage": null, "reason": "search the back of the shop", "subject": null}),
    );
    let seen = lower(&found).contains("kettle");
    if seen {
        let disarm = t.ok(
            "disarm_trap",
            json!({"character": "tamsin", "feature": "tallow-kettle"}),
        );
        assert!(disarm["result"]["modifier"] == json!(5), "{disarm}");
    }
    let hp: u32 = t.state.characters.iter().map(|c| c.hp.current).sum();
    let arrived = t.ok("move_to", json!({"exit": "down"}));
    assert_eq!(here(t), "tallow-cellar");
    let after: u32 = t.state.characters.iter().map(|c| c.hp.current).sum();
    let went_off = lower(&arrived).contains("a kettle on a cord goes off");
    assert_eq!(went_off, after < hp, "{arrived}");
    assert!(
        arrived["monsters"][0]["name"] == "Abel Sedge, the Hungering",
        "{arrived}"
    );
    (arrived, went_off)
}

/// The whole mystery: Pip's tale, the trap, the fight below, then Corwen's lie seen through;
/// the reeve tells the Hollow, and the adventure ends well.
fn solve(seed: u64) -> Option<Table> {
    let mut t = game(seed);
    pips_tale(&mut t);
    let lie = t.ok(
        "talk_to",
        talk("tamsin", "corwen", Some("the nights"), None),
    );
    assert!(
        lie["says"].as_str().unwrap().contains("bar my door"),
        "{lie}"
    );
    let (arrived, _) = go_below(&mut t);
    if !fight_below(&mut t, &arrived) {
        return None;
    }
    assert_eq!(t.state.flags["taker_destroyed"], json!(true));
    assert_eq!(ending(&t), None, "the culprit is not yet unmasked");
    t.ok("move_to", json!({"exit": "up"}));
    // Corwen's last claim was her lie about the nights: Insight sees through it.
    let read = t.ok("social_check", insight("tamsin", "corwen"));
    if read["success"] != json!(true) {
        return None;
    }
    let learned = read["learned"].as_str().unwrap();
    assert!(learned.contains("Corwen Sedge lied about night"), "{read}");
    assert_eq!(t.state.flags["liar_unmasked"], json!(true));
    assert_eq!(
        t.state.npc("corwen").unwrap().disposition,
        Disposition::Hostile
    );
    Some(t)
}

#[test]
fn talking_a_trap_a_fight_and_insight_end_it_well() {
    // With these dice the party wins below and Tamsin reads Corwen; another seed may lose the
    // fight or fail the read, which `solve` reports as None.
    let t = solve(1).expect("seed 1 solves the mystery");
    assert_eq!(ending(&t).as_deref(), Some("hollow-sleeps"));
    assert_eq!(t.state.flags["hollow_at_peace"], json!(true));
}

#[test]
fn seeing_through_the_lie_first_shows_the_way_below_and_plays_once() {
    let (mut t, read) = (1..40)
        .find_map(|seed| {
            let mut t = game(seed);
            t.ok("move_to", json!({"exit": "west"}));
            t.ok("talk_to", talk("tamsin", "corwen", Some("vanished"), None));
            let read = t.ok("social_check", insight("tamsin", "corwen"));
            (read["success"] == json!(true)).then_some((t, read))
        })
        .expect("a seed where Insight succeeds");
    assert!(!table::exit_hidden(&t.state, "chandlery", "down"), "{read}");
    assert_eq!(read["attitude"], "hostile", "caught out, she turns: {read}");
    assert!(lower(&read["happened"]).contains("down"), "{read}");
    assert!(
        read["learned"]
            .as_str()
            .unwrap()
            .contains("What Corwen Sedge wants"),
        "her goal is read too: {read}"
    );
    assert_eq!(t.state.flags["liar_unmasked"], json!(true));
    assert_eq!(t.state.flags["questions_asked"], json!(true));
    // Unmasked, she will not talk of it again; read again, nothing plays a second time.
    let refused = t.refused("talk_to", talk("tamsin", "corwen", Some("night"), None));
    assert!(refused.contains("while hostile"), "{refused}");
    let again = t.call("social_check", insight("lio", "corwen"));
    if again.ok {
        assert!(again.content.get("happened").is_none(), "{}", again.content);
    }
    assert_eq!(ending(&t), None, "the thing below still hungers");
}

fn persuade(character: &str, npc: &str, request: Option<&str>) -> Value {
    json!({"character": character, "npc": npc, "skill": "persuasion", "request": request, "size": null, "advantage": null})
}

/// The sexton won over and asked for the still water the Hollow washes its dead in; whether
/// both checks went the party's way.
fn still_water(t: &mut Table) -> bool {
    t.ok("move_to", json!({"exit": "north"}));
    let told = t.ok("talk_to", talk("lio", "alys", Some("abel"), None));
    assert!(
        told["says"].as_str().unwrap().contains("still water"),
        "{told}"
    );
    // Indifferent, the water is a minor favour at DC 20; won over first (DC 15), it is DC 10.
    if t.ok("social_check", persuade("lio", "alys", None))["success"] != json!(true) {
        return false;
    }
    assert_eq!(
        t.state.npc("alys").unwrap().disposition,
        Disposition::Friendly
    );
    let asked = t.ok(
        "social_check",
        persuade("lio", "alys", Some("a flask of the still water")),
    );
    if asked["success"] != json!(true) {
        return false;
    }
    assert_eq!(
        t.state
            .character("lio")
            .unwrap()
            .item_quantity("Flask of Still Water"),
        1
    );
    // Friendly, she sends the party to the grave.
    let grave = t.ok("talk_to", talk("lio", "alys", Some("the grave"), None));
    assert!(
        lower(&grave["happened"]).contains("sunken grave"),
        "{grave}"
    );
    true
}

#[test]
fn the_still_water_breaks_corwen_without_an_insight_roll_and_the_fight_ends_it() {
    let mut t = (1..40)
        .find_map(|seed| {
            let mut t = game(seed);
            still_water(&mut t).then_some(t)
        })
        .expect("a seed where Lio persuades the sexton");
    t.ok("move_to", json!({"exit": "south"}));
    t.ok("move_to", json!({"exit": "west"}));
    assert!(table::exit_hidden(&t.state, "chandlery", "down"));
    let gave = t.ok(
        "talk_to",
        talk("lio", "corwen", None, Some("flask of still water")),
    );
    assert_eq!(gave["attitude"], "hostile", "{gave}");
    assert_eq!(t.state.flags["liar_unmasked"], json!(true));
    assert!(!table::exit_hidden(&t.state, "chandlery", "down"));
    let (arrived, _) = go_below(&mut t);
    assert!(fight_below(&mut t, &arrived), "the party wins below");
    assert_eq!(ending(&t).as_deref(), Some("hollow-sleeps"));
}

#[test]
fn waiting_out_the_day_once_corwen_is_alarmed_lets_her_slip_away() {
    let mut t = game(2);
    t.ok("move_to", json!({"exit": "west"}));
    t.ok("talk_to", talk("bram", "corwen", Some("missing"), None));
    assert_eq!(t.state.flags["questions_asked"], json!(true));
    // An hour is not long enough: the clock gives her eight.
    t.ok(
        "update_character",
        json!({"character": "bram", "update": "short_rest", "condition": null, "amount": 0, "recover_slots": null}),
    );
    assert_eq!(ending(&t), None);
    let rested = t.ok(
        "update_character",
        json!({"character": "nessa", "update": "long_rest", "condition": null, "amount": null, "recover_slots": null}),
    );
    assert_eq!(ending(&t).as_deref(), Some("dark-of-the-moon"), "{rested}");
    assert!(lower(&rested).contains("the dark of the moon"), "{rested}");
}

#[test]
fn without_alarming_corwen_the_clock_does_not_run() {
    let mut t = game(2);
    t.ok("move_to", json!({"exit": "west"}));
    t.ok("talk_to", talk("bram", "corwen", Some("candles"), None));
    t.ok(
        "update_character",
        json!({"character": "nessa", "update": "long_rest", "condition": null, "amount": null, "recover_slots": null}),
    );
    assert_eq!(ending(&t), None);
}

#[test]
fn an_unnoticed_kettle_scalds_whoever_goes_down_first() {
    // Without Tamsin (passive Perception 16), no one's passive Perception notices it.
    let mut t = Table::new(hollow().new_game(&["bram", "nessa", "lio"]).unwrap(), 5);
    pips_tale(&mut t);
    let hp: u32 = t.state.characters.iter().map(|c| c.hp.current).sum();
    let arrived = t.ok("move_to", json!({"exit": "down"}));
    assert!(
        lower(&arrived).contains("a kettle on a cord goes off"),
        "{arrived}"
    );
    let after: u32 = t.state.characters.iter().map(|c| c.hp.current).sum();
    assert!(
        after < hp || lower(&arrived).contains("dexterity"),
        "{arrived}"
    );
    let kettle = t
        .state
        .location("chandlery")
        .unwrap()
        .features
        .iter()
        .find(|f| f.id == "tallow-kettle")
        .unwrap()
        .trap
        .clone()
        .unwrap();
    assert!(kettle.spent, "it goes off once");
}

#[test]
fn pip_lies_at_first_and_insight_can_tell() {
    let (t, read) = (1..40)
        .find_map(|seed| {
            let mut t = game(seed);
            t.ok("move_to", json!({"exit": "south"}));
            let told = t.ok(
                "talk_to",
                talk("tamsin", "pip", Some("what did you see"), None),
            );
            assert!(
                told["says"]
                    .as_str()
                    .unwrap()
                    .contains("didn't see nothing")
            );
            let read = t.ok("social_check", insight("tamsin", "pip"));
            (read["success"] == json!(true)).then_some((t, read))
        })
        .expect("a seed where Insight succeeds");
    assert!(
        read["learned"]
            .as_str()
            .unwrap()
            .contains("Pip Ketter lied"),
        "{read}"
    );
    assert!(
        table::exit_hidden(&t.state, "chandlery", "down"),
        "only his tale shows it"
    );
}

/// A model that walks the party down a way it has not found, disarms a trap it has not seen,
/// sets the culprit's flag by hand, pushes the reeve's and Corwen's goals on, and talks to an
/// NPC elsewhere: each is refused and the mystery stays unsolved.
#[tokio::test]
async fn a_cheating_model_cannot_unmask_the_culprit_or_skip_the_way_below() {
    // Bram and Lio: neither's passive Perception notices the kettle.
    let mut t = Table::new(hollow().new_game(&["bram", "lio"]).unwrap(), 1);
    t.ok("move_to", json!({"exit": "west"}));
    let before = t.state.clone();
    let calls = vec![
        ToolCall::new("a", "move_to", json!({"exit": "down"})),
        ToolCall::new(
            "b",
            "disarm_trap",
            json!({"character": "bram", "feature": "tallow-kettle"}),
        ),
        ToolCall::new(
            "c",
            "set_game_flag",
            json!({"key": "liar_unmasked", "value": true}),
        ),
        ToolCall::new("d", "advance_npc_goals", json!({"npc": "corwen"})),
        ToolCall::new("e", "talk_to", talk("lio", "pip", Some("truth"), None)),
    ];
    let played = table::scripted_turn(&before, calls, "Lio", "She's hiding something.").await;
    assert_eq!(played.results.len(), 5, "{:#?}", played.results);
    for (i, result) in played.results.iter().enumerate() {
        assert!(
            result.contains("\"error\""),
            "call {i} went through: {result}"
        );
        let text = result.to_lowercase();
        for secret in [
            "tallow-cellar",
            "kettle on a cord",
            "beneath her shop",
            "mistress sedge",
        ] {
            assert!(!text.contains(secret), "call {i} leaked {secret}: {result}");
        }
    }
    let after = &played.after;
    assert_eq!(after.flags["liar_unmasked"], json!(false));
    assert!(table::exit_hidden(after, "chandlery", "down"));
    assert_eq!(
        after.party_location().map(|l| l.id.as_str()),
        Some("chandlery")
    );
    assert!(ending_reached(after).is_none());
}

#[test]
fn effects_for_a_lie_seen_through_need_a_lie_and_real_ids() {
    let text = Adventure::built_in_json_named(HOLLOW).unwrap();
    let mut file: Value = serde_json::from_str(text).unwrap();
    let corwen = &mut file["npcs"][2];
    assert_eq!(corwen["id"], "corwen");
    corwen["topics"][0]["exposed"] =
        json!([{"reveal_exit": {"room": "chandlery", "direction": "down"}}]);
    corwen["topics"][1]["exposed"][2] =
        json!({"reveal_exit": {"room": "chandlery", "direction": "up"}});
    let error = Adventure::from_json(&file.to_string(), "hollow.json")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("npcs[corwen].topics[candles].exposed: only a lie can be seen through"),
        "{error}"
    );
    assert!(
        error.contains("npcs[corwen].topics[the-nights].exposed[2]"),
        "{error}"
    );
}
