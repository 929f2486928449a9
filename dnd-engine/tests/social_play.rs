//! NPCs who answer by the rules: `talk_to` tells only the topics an NPC's attitude opens, and a
//! gift it wants does what the adventure says; `social_check` sets the DC from the reaction
//! table (`state::social`), rolls, decides and moves the attitude; Insight reads a goal or a
//! lie. Only NPCs where the party is can be spoken to, and nothing locked or unmet leaks into
//! a result or an error.

#[path = "support/table.rs"]
mod table;

use serde_json::{Value, json};
use table::Table;

use dnd_engine::adventure::Adventure;
use dnd_engine::llm::ToolCall;
use dnd_engine::state::social::{Request, RequestSize};
use dnd_engine::state::{Change, Disposition, ItemStack, StoryEffect};

/// The built-in game (Kraven alone, dice seeded) with the party in the Hall of Echoes.
fn in_the_hall(seed: u64) -> Table {
    hall_of(Adventure::built_in(), seed)
}

fn hall_of(adventure: Adventure, seed: u64) -> Table {
    let mut t = Table::new(adventure.new_game(&["kraven"]).unwrap(), seed);
    t.ok("move_to", json!({"exit": "east"}));
    t
}

/// The arguments of `talk_to`.
fn talk(character: &str, npc: &str, topic: Option<&str>, give: Option<&str>) -> Value {
    json!({"character": character, "npc": npc, "topic": topic, "give": give})
}

fn attitude(t: &Table, npc: &str) -> Disposition {
    t.state.npc(npc).unwrap().disposition
}

fn give_locket(t: &mut Table) {
    t.apply(&[Change::ItemAdded {
        character: "kraven".into(),
        item: ItemStack::new("Silver Locket", 1),
    }]);
}

/// The texts of Aldous's topics he will not discuss while unfriendly.
const LOCKED_SAYINGS: [&str; 2] = ["Behind my niche", "Follow no light"];

#[test]
fn aldous_lists_only_what_his_attitude_opens() {
    let mut t = in_the_hall(1);
    let listed = t.ok("talk_to", talk("kraven", "aldous", None, None));
    assert_eq!(listed["topics"], json!(["brazier/fire/cold/warm"]));
    assert_eq!(listed["locked"], 2);
    assert_eq!(listed["attitude"], "unfriendly");
    let text = listed.to_string();
    for secret in LOCKED_SAYINGS.iter().chain(&["crawlway", "mere"]) {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    // The open topic is told, by any of its words.
    let told = t.ok(
        "talk_to",
        talk("Kraven", "Brother Aldous", Some("the cold"), None),
    );
    assert!(
        told["says"].as_str().unwrap().starts_with("Cold."),
        "{told}"
    );
}

#[test]
fn a_locked_topic_is_refused_without_its_contents() {
    let mut t = in_the_hall(1);
    let error = t.refused("talk_to", talk("kraven", "aldous", Some("crawlway"), None));
    assert!(error.contains("needs a friendlier attitude"), "{error}");
    for secret in LOCKED_SAYINGS {
        assert!(!error.contains(secret), "{error}");
    }
    assert!(table::crawlway_hidden(&t.state));
    // A word no topic has lists only the open topics.
    let error = t.refused("talk_to", talk("kraven", "aldous", Some("weather"), None));
    assert!(error.contains("brazier/fire/cold/warm"), "{error}");
    assert!(
        !error.contains("mere") && !error.contains("crawlway"),
        "{error}"
    );
}

#[test]
fn the_locket_given_warms_aldous_and_his_crawlway_topic_opens() {
    let mut t = in_the_hall(1);
    give_locket(&mut t);
    let gave = t.ok("talk_to", talk("kraven", "aldous", None, Some("locket")));
    assert_eq!(gave["gave"], "Silver Locket");
    assert_eq!(gave["attitude"], "friendly");
    assert!(
        gave.get("locked").is_none(),
        "friendly opens every topic: {gave}"
    );
    assert_eq!(gave["topics"].as_array().unwrap().len(), 3, "{gave}");
    assert_eq!(
        t.state
            .character("kraven")
            .unwrap()
            .item_quantity("Silver Locket"),
        0
    );
    assert_eq!(t.state.flags["aldous_given_keepsake"], json!(true));
    // The keepsake is his goal step's trigger: the crawlway is shown, by the story engine.
    assert!(!table::crawlway_hidden(&t.state));
    assert!(gave["story"].to_string().contains("crawlway"), "{gave}");
    let told = t.ok("talk_to", talk("kraven", "aldous", Some("crawlway"), None));
    assert!(
        told["says"]
            .as_str()
            .unwrap()
            .starts_with("Behind my niche")
    );
    // Given once: there is no second locket, and a second would not be wanted.
    give_locket(&mut t);
    let error = t.refused(
        "talk_to",
        talk("kraven", "aldous", None, Some("Silver Locket")),
    );
    assert!(error.contains("already has"), "{error}");
}

#[test]
fn the_mere_topic_once_aldous_is_won_over_shows_the_thin_ice() {
    let mut t = in_the_hall(1);
    t.apply(&[Change::NpcDisposition {
        npc: "aldous".into(),
        disposition: Disposition::Indifferent,
    }]);
    let thin_ice_known = |t: &Table| {
        t.state
            .location("wisp-mere")
            .unwrap()
            .features
            .iter()
            .any(|f| f.id == "thin-ice" && f.is_known())
    };
    assert!(!thin_ice_known(&t));
    let told = t.ok("talk_to", talk("kraven", "aldous", Some("lake"), None));
    assert!(thin_ice_known(&t), "{told}");
    assert_eq!(t.state.flags["aldous_warning_heard"], json!(true));
    assert!(told["happened"].to_string().contains("Thin"), "{told}");
    // Told again, it says the same, and does nothing twice.
    let again = t.ok("talk_to", talk("kraven", "aldous", Some("mere"), None));
    assert_eq!(again["says"], told["says"]);
    assert!(again.get("happened").is_none(), "{again}");
}

#[test]
fn gifts_not_wanted_or_not_carried_are_refused() {
    let mut t = in_the_hall(1);
    let error = t.refused("talk_to", talk("kraven", "aldous", None, Some("Torch")));
    assert!(error.contains("does not take the Torch"), "{error}");
    let error = t.refused(
        "talk_to",
        talk("kraven", "aldous", None, Some("Silver Locket")),
    );
    assert!(error.contains("carries no"), "{error}");
}

/// Persuasion with no request asks Aldous (unfriendly) to warm to the party: DC 15. Over the
/// seeds, every outcome follows the table: 15 or more warms him one step, 10 or less (a
/// failure by 5) turns him hostile, anything between leaves him as he was; each is seen.
#[test]
fn winning_aldous_over_follows_the_reaction_table() {
    let (mut warmed, mut soured, mut unmoved) = (0, 0, 0);
    for seed in 0..40 {
        let mut t = in_the_hall(seed);
        let result = t.ok(
            "social_check",
            json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
                   "request": null, "size": null, "advantage": null}),
        );
        let rolled = result["rolled"].as_i64().unwrap();
        assert_eq!(result["success"], rolled >= 15, "seed {seed}: {result}");
        let now = attitude(&t, "aldous");
        match rolled {
            15.. => {
                assert_eq!(now, Disposition::Indifferent, "seed {seed}");
                warmed += 1;
            }
            ..=10 => {
                assert_eq!(now, Disposition::Hostile, "seed {seed}");
                soured += 1;
            }
            _ => {
                assert_eq!(now, Disposition::Unfriendly, "seed {seed}");
                unmoved += 1;
                // The same plea is not heard twice at the same attitude.
                let error = t.refused(
                    "social_check",
                    json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
                           "request": null, "size": null, "advantage": null}),
                );
                assert!(error.contains("already refused"), "{error}");
            }
        }
        assert_eq!(result["attitude"], json!(now), "seed {seed}");
    }
    assert!(
        warmed > 0 && soured > 0 && unmoved > 0,
        "{warmed} {soured} {unmoved}"
    );
}

#[test]
fn a_request_too_large_for_the_attitude_is_refused_whatever_the_roll() {
    let mut t = in_the_hall(3);
    let error = t.refused(
        "social_check",
        json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
               "request": "give us your robe", "size": "significant", "advantage": null}),
    );
    assert!(
        error.contains("unfriendly") && error.contains("at most a minor one"),
        "{error}"
    );
    t.apply(&[Change::NpcDisposition {
        npc: "aldous".into(),
        disposition: Disposition::Hostile,
    }]);
    let error = t.refused(
        "social_check",
        json!({"character": "kraven", "npc": "aldous", "skill": "intimidation",
               "request": "give us your robe", "size": "minor", "advantage": null}),
    );
    assert!(error.contains("one that costs it nothing"), "{error}");
    // Something asked needs its size; intimidation needs something asked.
    let error = t.refused(
        "social_check",
        json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
               "request": "hum a tune", "size": null, "advantage": null}),
    );
    assert!(error.contains("size none, minor or significant"), "{error}");
    let error = t.refused(
        "social_check",
        json!({"character": "kraven", "npc": "aldous", "skill": "intimidation",
               "request": null, "size": null, "advantage": null}),
    );
    assert!(error.contains("demands something"), "{error}");
    let error = t.refused(
        "social_check",
        json!({"character": "kraven", "npc": "aldous", "skill": "insight",
               "request": "are you lying?", "size": null, "advantage": null}),
    );
    assert!(error.contains("insight asks nothing"), "{error}");
    t.hero_mut("kraven").hp.current = 0;
    let error = t.refused("talk_to", talk("kraven", "aldous", None, None));
    assert!(error.contains("cannot speak"), "{error}");
}

/// The glacier with a request of Aldous's own: his blessing, which costs him nothing, and
/// gives the Warden's Ember.
fn with_a_blessing(size: RequestSize) -> Adventure {
    let mut adventure = Adventure::built_in();
    let aldous = adventure
        .npcs
        .iter_mut()
        .find(|n| n.id == "aldous")
        .unwrap();
    aldous.requests.push(Request {
        id: "blessing".into(),
        keywords: vec!["bless".into()],
        size,
        effects: vec![StoryEffect::GiveItem {
            item: ItemStack::new("Warden's Ember", 1),
        }],
    });
    adventure.validate("blessing").unwrap();
    adventure
}

#[test]
fn a_friendly_npc_grants_what_costs_it_nothing_without_a_roll_and_only_once() {
    let mut t = hall_of(with_a_blessing(RequestSize::None), 5);
    t.apply(&[Change::NpcDisposition {
        npc: "aldous".into(),
        disposition: Disposition::Friendly,
    }]);
    let ask = json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
                     "request": "Would you bless our journey?", "size": "significant",
                     "advantage": null});
    let granted = t.ok("social_check", ask.clone());
    assert_eq!(granted["rolled"], Value::Null, "DC 0: no roll");
    assert_eq!(granted["success"], true);
    assert!(
        granted["happened"].to_string().contains("Warden's Ember"),
        "{granted}"
    );
    assert_eq!(
        t.state
            .character("kraven")
            .unwrap()
            .item_quantity("Warden's Ember"),
        1
    );
    assert!(t.log.rolls.is_empty(), "no die was rolled");
    let error = t.refused("social_check", ask);
    assert!(error.contains("already granted"), "{error}");
}

#[test]
fn an_npcs_own_request_keeps_its_size_whatever_the_model_says() {
    // A minor request of a hostile NPC is refused, though the model calls it free.
    let mut t = hall_of(with_a_blessing(RequestSize::Minor), 5);
    t.apply(&[Change::NpcDisposition {
        npc: "aldous".into(),
        disposition: Disposition::Hostile,
    }]);
    let error = t.refused(
        "social_check",
        json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
               "request": "bless us", "size": "none", "advantage": null}),
    );
    assert!(error.contains("hostile"), "{error}");
    assert_eq!(
        t.state
            .character("kraven")
            .unwrap()
            .item_quantity("Warden's Ember"),
        0
    );
}

/// Kraven (Intimidation +2) demands Sigrun's name, a request of no cost to an indifferent
/// NPC: DC 10. A success is granted and leaves her one step colder; a failure by 5 or more
/// (a total of 5 or less) too; over the seeds both are seen.
#[test]
fn intimidation_works_but_leaves_the_npc_colder() {
    let (mut cowed, mut failed) = (0, 0);
    for seed in 0..30 {
        let mut t = in_the_hall(seed);
        let result = t.ok(
            "social_check",
            json!({"character": "kraven", "npc": "sigrun", "skill": "intimidation",
                   "request": "tell us your true name", "size": "none", "advantage": null}),
        );
        let rolled = result["rolled"].as_i64().unwrap();
        assert_eq!(result["success"], rolled >= 10, "seed {seed}: {result}");
        let want = if rolled >= 10 || rolled <= 5 {
            Disposition::Unfriendly
        } else {
            Disposition::Indifferent
        };
        assert_eq!(attitude(&t, "sigrun"), want, "seed {seed}: {result}");
        if rolled >= 10 {
            cowed += 1;
        } else {
            failed += 1;
        }
    }
    assert!(cowed > 0 && failed > 0);
}

/// A lie Sigrun believes (Wren's Deception against DC 15 to win her over) is found out when a
/// later check fails: she turns one step colder than the lie had made her.
#[test]
fn a_lie_is_believed_until_a_later_check_fails() {
    let mut checked = false;
    for seed in 0..40 {
        let mut t = Table::new(Adventure::built_in().new_game(&["wren"]).unwrap(), seed);
        t.ok("move_to", json!({"exit": "east"}));
        let lie = t.ok(
            "social_check",
            json!({"character": "wren", "npc": "sigrun", "skill": "deception",
                   "request": null, "size": null, "advantage": null}),
        );
        if lie["success"] != true {
            continue;
        }
        assert_eq!(attitude(&t, "sigrun"), Disposition::Friendly);
        let social = &t.state.story.social["sigrun"];
        assert!(social.progress.deceived);
        // Asking her for something significant while friendly: DC 20.
        let ask = t.ok(
            "social_check",
            json!({"character": "wren", "npc": "sigrun", "skill": "persuasion",
                   "request": "lend me your spear", "size": "significant", "advantage": null}),
        );
        if ask["success"] == true {
            continue;
        }
        assert!(
            ask["outcome"].as_str().unwrap().contains("sees through"),
            "{ask}"
        );
        let rolled = ask["rolled"].as_i64().unwrap();
        let want = if rolled <= 15 {
            Disposition::Unfriendly
        } else {
            Disposition::Indifferent
        };
        assert_eq!(attitude(&t, "sigrun"), want, "seed {seed}: {ask}");
        assert!(!t.state.story.social["sigrun"].progress.deceived);
        checked = true;
        break;
    }
    assert!(checked, "no seed gave a believed lie and a later failure");
}

/// Insight against Sigrun's DC 13 reads her wish (her goal, revealed); a failure reveals
/// nothing and cannot be tried again until she says something new.
#[test]
fn insight_reads_sigruns_wish_or_nothing() {
    let (mut read, mut missed) = (0, 0);
    for seed in 0..30 {
        let mut t = in_the_hall(seed);
        let insight = json!({"character": "kraven", "npc": "sigrun", "skill": "insight",
                             "request": null, "size": null, "advantage": null});
        let result = t.ok("social_check", insight.clone());
        let text = result.to_string();
        assert!(result.get("dc").is_none(), "the DC never shows: {text}");
        let revealed = t.state.npc("sigrun").unwrap().goal_revealed;
        if result["success"] == true {
            assert!(revealed);
            assert!(
                result["learned"]
                    .as_str()
                    .unwrap()
                    .contains("release from that oath")
            );
            read += 1;
        } else {
            assert!(!revealed);
            assert!(!text.contains("release"), "{text}");
            let error = t.refused("social_check", insight);
            assert!(error.contains("already been read"), "{error}");
            missed += 1;
        }
    }
    assert!(read > 0 && missed > 0);
}

#[test]
fn insight_tells_whether_the_last_claim_was_a_lie() {
    let mut adventure = Adventure::built_in();
    let aldous = adventure
        .npcs
        .iter_mut()
        .find(|n| n.id == "aldous")
        .unwrap();
    aldous.topics[0].lie = true;
    aldous.goal_revealed = true;
    let mut seen = false;
    for seed in 0..20 {
        let mut t = hall_of(adventure.clone(), seed);
        let told = t.ok("talk_to", talk("kraven", "aldous", Some("brazier"), None));
        assert!(
            !told.to_string().contains("lie"),
            "a lie is not told as one: {told}"
        );
        let read = t.ok(
            "social_check",
            json!({"character": "kraven", "npc": "aldous", "skill": "insight",
                   "request": null, "size": null, "advantage": null}),
        );
        if read["success"] == true {
            assert_eq!(read["learned"], "Brother Aldous lied about brazier.");
            seen = true;
            break;
        }
    }
    assert!(seen);
}

#[test]
fn npcs_the_party_has_not_met_are_never_named() {
    let mut t = Table::game(&["kraven"], 1);
    for (tool, args) in [
        ("talk_to", talk("kraven", "sigrun", None, None)),
        (
            "social_check",
            json!({"character": "kraven", "npc": "aldous", "skill": "insight",
                   "request": null, "size": null, "advantage": null}),
        ),
    ] {
        let error = t.refused(tool, args);
        assert!(error.contains("here: nobody"), "{error}");
        let other = if error.contains("sigrun") {
            "aldous"
        } else {
            "sigrun"
        };
        assert!(!error.to_lowercase().contains(other), "{error}");
    }
    // In the hall, a wrong name lists those there, and only them.
    let mut t = in_the_hall(1);
    let error = t.refused("talk_to", talk("kraven", "hrimgar", None, None));
    assert!(error.ends_with("here: sigrun, aldous"), "{error}");
}

#[test]
fn the_snapshot_holds_no_topic_or_insight_dc() {
    let t = in_the_hall(1);
    let snapshot = serde_json::to_string(&t.state.snapshot()).unwrap();
    for secret in LOCKED_SAYINGS
        .iter()
        .chain(&["insight_dc", "Hrimgar was my lord"])
    {
        assert!(!snapshot.contains(secret), "{secret}: {snapshot}");
    }
}

#[test]
fn the_validator_checks_social_data() {
    let mut file: Value = serde_json::from_str(Adventure::built_in_json()).unwrap();
    let aldous = &mut file["npcs"][1];
    aldous["insight_dc"] = json!(40);
    aldous["topics"][0]["keywords"] = json!([]);
    aldous["wants"][0]["effects"][1] = json!({"set_flag": {"flag": "aldous_warm", "value": true}});
    aldous["wants"]
        .as_array_mut()
        .unwrap()
        .push(json!({"item": "Hearth Stone"}));
    aldous["requests"] = json!([{"id": "x", "keywords": ["x"], "size": "minor",
                                 "effects": [{"move_npc": {"npc": "nobody", "room": "ice-chasm"}}]}]);
    let error = Adventure::from_json(&file.to_string(), "social.json").unwrap_err();
    let paths: Vec<&str> = error.problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "npcs[aldous].insight_dc",
            "npcs[aldous].topics[the-cold].keywords",
            "npcs[aldous].requests[x].effects[0].move_npc",
            "npcs[aldous].wants[Silver Locket].effects[1].set_flag",
            "npcs[aldous].wants[Hearth Stone].item",
        ],
        "{error}"
    );
}

/// A model that cheats at the table, through a whole turn: it asks Aldous for the crawlway
/// he will not yet speak of, persuades Sigrun from the first room, gives a key nobody carries,
/// and sizes a demand down. Each is refused and the world is as it was.
#[tokio::test]
async fn a_cheating_model_moves_nobody() {
    let before = in_the_hall(9).state;
    let calls = vec![
        ToolCall::new(
            "a",
            "talk_to",
            talk("kraven", "aldous", Some("crawlway"), None),
        ),
        ToolCall::new(
            "b",
            "talk_to",
            talk("kraven", "aldous", None, Some("Rime Key")),
        ),
        ToolCall::new(
            "c",
            "social_check",
            json!({"character": "kraven", "npc": "aldous", "skill": "persuasion",
                   "request": "show us the crawlway behind your niche", "size": "significant",
                   "advantage": "advantage"}),
        ),
        ToolCall::new(
            "d",
            "social_check",
            json!({"character": "kraven", "npc": "jarl", "skill": "intimidation",
                   "request": "yield", "size": "none", "advantage": null}),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Kraven", "Talk, old man.").await;
    let expect = [
        "needs a friendlier attitude",
        "carries no",
        "at most a minor one",
        "here: sigrun, aldous",
    ];
    assert_eq!(played.results.len(), expect.len(), "{:#?}", played.results);
    for (result, want) in played.results.iter().zip(expect) {
        assert!(result.contains(want), "{result}");
        assert!(!result.contains("Behind my niche"), "{result}");
    }
    assert!(table::crawlway_hidden(&played.after));
    assert_eq!(played.after.npcs, before.npcs);
}
