//! The intent parser on every intent and on odd input, and the narration's filter; the games at
//! a table without a store are in `tests/table.rs`.

use super::words::sanitize;
use super::*;
use crate::llm::CompletionRequest;

fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

#[test]
fn each_intent_from_plain_words() {
    let cases = [
        (
            "I attack the Frost Harpy!",
            Intent::Attack {
                target: some("frost harpy"),
            },
        ),
        ("hit it", Intent::Attack { target: None }),
        (
            "Strike the jarl with my greatsword",
            Intent::Attack {
                target: some("jarl greatsword"),
            },
        ),
        (
            "cast fire bolt at the harpy",
            Intent::Cast {
                spell: "fire bolt".into(),
                target: some("harpy"),
            },
        ),
        (
            "I cast cure wounds",
            Intent::Cast {
                spell: "cure wounds".into(),
                target: None,
            },
        ),
        ("search the room", Intent::Search { investigate: false }),
        ("I look for traps", Intent::Search { investigate: false }),
        ("investigate the wall", Intent::Search { investigate: true }),
        ("look around", Intent::Look { subject: None }),
        (
            "examine the empty pillar",
            Intent::Look {
                subject: some("empty pillar"),
            },
        ),
        (
            "go east",
            Intent::Move {
                destination: some("east"),
                back: false,
            },
        ),
        (
            "I climb down the stair",
            Intent::Move {
                destination: some("down stair"),
                back: false,
            },
        ),
        (
            "head to the hall of echoes",
            Intent::Move {
                destination: some("hall echoes"),
                back: false,
            },
        ),
        (
            "go back",
            Intent::Move {
                destination: None,
                back: true,
            },
        ),
        (
            "run north",
            Intent::Move {
                destination: some("north"),
                back: false,
            },
        ),
        (
            "open the rime door",
            Intent::Open {
                exit: some("rime door"),
            },
        ),
        (
            "unlock the door with the key",
            Intent::Open {
                exit: some("door key"),
            },
        ),
        (
            "take the locket",
            Intent::Take {
                item: some("locket"),
            },
        ),
        ("pick up everything", Intent::Take { item: None }),
        ("grab all", Intent::Take { item: None }),
        // The take-all suggestion, in the parser's own words.
        (intent::TAKE_EVERYTHING, Intent::Take { item: None }),
        ("take it all here", Intent::Take { item: None }),
        (
            "take all the gold",
            Intent::Take {
                item: some("all gold"),
            },
        ),
        (
            "drink a potion",
            Intent::Use {
                item: some("potion"),
                drink: true,
            },
        ),
        (
            "quaff",
            Intent::Use {
                item: None,
                drink: true,
            },
        ),
        (
            "use the rime key",
            Intent::Use {
                item: some("rime key"),
                drink: false,
            },
        ),
        ("take a short rest", Intent::Rest { long: false }),
        ("we take a long rest", Intent::Rest { long: true }),
        ("sleep", Intent::Rest { long: true }),
        ("rest", Intent::Rest { long: false }),
        ("check my inventory", Intent::Inventory),
        ("what do I carry?", Intent::Inventory),
        ("flee!", Intent::Flee),
        ("run away", Intent::Flee),
        ("xyzzy", Intent::Unknown),
    ];
    for (text, expected) in cases {
        assert_eq!(parse_intent(text), expected, "{text:?}");
    }
    for text in [
        "talk to Sigrun",
        "I say to Sigrun: ice",
        "Ask the monk about the fire",
    ] {
        assert!(
            matches!(parse_intent(text), Intent::Talk { .. }),
            "{text:?}"
        );
    }
    assert!(matches!(
        parse_intent("give the locket to Aldous"),
        Intent::Give { .. }
    ));
}

#[test]
fn odd_input_never_panics() {
    assert_eq!(parse_intent(""), Intent::Unknown);
    assert_eq!(parse_intent("   \n\t "), Intent::Unknown);
    assert_eq!(parse_intent("!!!???...---"), Intent::Unknown);
    assert_eq!(parse_intent("cast"), Intent::Unknown);
    assert_eq!(
        parse_intent("ATTACK THE HARPY"),
        Intent::Attack {
            target: some("harpy")
        }
    );
    // Unicode: words of any script, emoji as separators.
    assert_eq!(parse_intent("Я атакую 🐉"), Intent::Unknown);
    assert_eq!(
        parse_intent("I attack the ドラゴン🐉!"),
        Intent::Attack {
            target: some("ドラゴン")
        }
    );
    assert_eq!(
        parse_intent("go ÉAST"),
        Intent::Move {
            destination: some("éast"),
            back: false
        }
    );
    // Very long: only the first few thousand characters are read.
    let long = "la ".repeat(100_000) + "attack";
    assert_eq!(parse_intent(&long), Intent::Unknown);
    let long = "attack ".to_owned() + &"x".repeat(1_000_000);
    assert!(matches!(
        parse_intent(&long),
        Intent::Attack { target: Some(_) }
    ));
    let nul = "take\0the\u{202e}locket";
    assert_eq!(
        parse_intent(nul),
        Intent::Take {
            item: some("locket")
        }
    );
}

#[test]
fn sanitize_drops_the_numbers_behind_the_story() {
    let text = "A crooked pinnacle of ice. Climbing it takes a DC 12 Strength (Athletics) check. Cracking it (AC 15, 30 hit points) would end it. 'What am I?'";
    let kept = sanitize(text);
    assert!(!kept.contains("DC 12") && !kept.contains("AC 15"), "{kept}");
    // One concept, one place: the game master's own scrub, with no ids to watch.
    let scrubbed = crate::gm::scrub(text, &crate::gm::Secrets::default()).text;
    assert_eq!(kept, scrubbed.trim());
    assert!(kept.starts_with("A crooked pinnacle") && kept.ends_with("'What am I?'"));
}

#[test]
fn the_offline_gm_is_a_provider_named_offline() {
    let gm = OfflineGm::new();
    assert_eq!(crate::llm::LlmProvider::name(&gm), "offline");
    // A request with nothing in it still gets an answer.
    let response = gm.answer(&CompletionRequest::new(Vec::new()));
    assert!(response.text().is_some());
}

mod names;
mod player;
mod table;

/// The narration of a turn whose only step is `next_turn` with this result, for Kraven with
/// `hp` hit points when the turn began.
fn narrate_monster_turn(hp: u32, result: serde_json::Value) -> String {
    use crate::adventure::Adventure;
    use crate::gm::{DEFAULT_SYSTEM_PROMPT, build_context};
    use crate::llm::{CompletionResponse, Message, ToolCall};
    let mut state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    std::sync::Arc::make_mut(&mut state.characters)[0]
        .hp
        .current = hp;
    let mut messages = build_context(
        DEFAULT_SYSTEM_PROMPT,
        &state,
        Vec::new(),
        "Kraven",
        "I attack the harpy",
        &[],
    );
    let call = ToolCall::new("c1", "next_turn", serde_json::json!({}));
    messages.push(CompletionResponse::from_tool_calls(vec![call]).message);
    messages.push(Message::tool_result("c1", result.to_string()));
    let turn = view::Turn::read(&CompletionRequest::new(messages));
    narrate::narrate(&turn, &[], &[])
}

#[test]
fn a_fall_is_told_once_and_never_for_one_already_down() {
    use crate::dice::Advantage;
    use crate::rules::{AttackResult, D20Roll};
    use crate::tools::results::{AttackReport, SwingReport, TurnEvent, TurnNow, TurnsPassed};
    let swing = |weapon: &str, hp: &str| SwingReport {
        attack: weapon.into(),
        result: AttackResult {
            d20: D20Roll::from_faces(15, None, Advantage::Normal),
            attack_bonus: 3,
            total: 18,
            target_ac: 16,
            hit: true,
            critical: false,
            damage: Default::default(),
            total_damage: 6,
        },
        advantage_reasons: Default::default(),
        distance_ft: 5,
        cover: None,
        target_hp: hp.into(),
        target_down: true,
        on_hit_save: None,
        hold_saves: Vec::new(),
        concentration_save: None,
        reaction: None,
        duplicate: None,
        sneak_attack: None,
    };
    let passed = TurnsPassed {
        monster_turns: vec![TurnEvent::Attack(AttackReport {
            attacker: "frost-harpy".into(),
            target: "kraven".into(),
            attacks: vec![swing("Claws", "0/28"), swing("Club", "0/28")],
            encounter_started: None,
            opportunity_attack: false,
            sanctuary: None,
        })],
        now: TurnNow {
            turn_of: Some("kraven".into()),
            round: Some(1),
            left: None,
            all_foes_down: false,
            party_down: true,
        },
    };
    let result = serde_json::to_value(passed).unwrap();
    let said = narrate_monster_turn(5, result.clone());
    assert_eq!(said.matches("You fall to the ice.").count(), 1, "{said}");
    assert_eq!(said.matches("hits you").count(), 2, "{said}");
    // Down before the turn: hit where you lie, but you do not fall again.
    let said = narrate_monster_turn(0, result);
    assert!(!said.contains("You fall"), "{said}");
}

#[test]
fn an_unlocked_way_is_named_as_a_way_or_a_door() {
    assert_eq!(exit_name("east"), "the way east");
    assert_eq!(exit_name("rime door"), "the rime door");
}

#[test]
fn what_a_request_asks_for_comes_from_its_format_never_its_words() {
    use crate::gm::ACTION_LIST_SCHEMA;
    use crate::llm::{Message, ResponseFormat};
    let words = vec![
        Message::system("Suggest 2 to 5 actions the player might take next, best first."),
        Message::user("I look around."),
    ];
    // The words of the action request, without its schema: a narrative turn.
    let plain = CompletionRequest::new(words.clone());
    assert_eq!(wanted(&plain), Wanted::Narrative);
    // The schema, whatever the words: the action list.
    let typed = CompletionRequest::new(vec![Message::user("anything")]).with_response_format(
        ResponseFormat::json_schema(ACTION_LIST_SCHEMA, serde_json::json!({"type": "object"})),
    );
    assert_eq!(wanted(&typed), Wanted::Actions);
    let answer = OfflineGm::new().answer(&typed);
    let list: serde_json::Value = serde_json::from_str(answer.text().unwrap()).unwrap();
    assert!(list["actions"].is_array(), "{list}");
}

#[test]
fn the_offline_player_casts_the_spell_the_odds_favour_and_keeps_its_slots_otherwise() {
    use crate::adventure::Adventure;
    use crate::state::{Change, GameState};
    let fight = |spent_first_level: bool| -> GameState {
        let mut state = Adventure::built_in().new_game(&["isolde"]).unwrap();
        let mut changes = vec![
            Change::MonsterRevealed {
                monster: "frost-harpy".into(),
            },
            Change::EncounterStarted {
                order: vec![
                    crate::state::InitiativeSlot {
                        id: "isolde".into(),
                        initiative: 15,
                        speed: 30,
                    },
                    crate::state::InitiativeSlot {
                        id: "frost-harpy".into(),
                        initiative: 10,
                        speed: 40,
                    },
                ],
            },
        ];
        if spent_first_level {
            changes.extend((0..4).map(|_| Change::SlotSpent {
                character: "isolde".into(),
                level: 1,
            }));
            changes.extend((0..2).map(|_| Change::SlotSpent {
                character: "isolde".into(),
                level: 2,
            }));
        }
        state.apply_all(&changes).unwrap();
        state
    };
    let mut player = OfflinePlayer::new("isolde");
    let state = fight(false);
    let said = player.next_input(None, &state).unwrap().text;
    // A new game looks around first; the next words are the fight's.
    assert_eq!(said, "I look around.");
    let said = player.next_input(None, &state).unwrap().text;
    assert_eq!(said, "I cast Magic Missile at the Frost Harpy!");
    // Every slot spent: her cantrip attack (Fire Bolt, her sheet's first) is the swing.
    let said = player.next_input(None, &fight(true)).unwrap().text;
    assert_eq!(said, "I attack the Frost Harpy!");
}

#[test]
fn a_standing_reaction_from_plain_words() {
    use crate::state::ReactionTrigger;
    assert_eq!(
        parse_intent("I keep Shield ready as my reaction when hit."),
        Intent::React {
            spell: "shield".into(),
            when: ReactionTrigger::Hit
        }
    );
    assert_eq!(
        parse_intent("Keep Counterspell ready as my reaction when a spell is cast"),
        Intent::React {
            spell: "counterspell".into(),
            when: ReactionTrigger::SpellCast
        }
    );
}

#[test]
fn the_offline_player_declares_shield_before_the_fight_once() {
    use crate::adventure::Adventure;
    use crate::state::{Change, ReactionTrigger, StandingReaction};
    let mut state = Adventure::built_in().new_game(&["isolde"]).unwrap();
    state
        .apply(&Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    let mut player = OfflinePlayer::new("isolde");
    assert_eq!(
        player.next_input(None, &state).unwrap().text,
        "I look around."
    );
    let said = player.next_input(None, &state).unwrap().text;
    assert_eq!(said, "I keep Shield ready as my reaction when hit.");
    // The game master's plan for those words declares it.
    assert_eq!(
        parse_intent(&said),
        Intent::React {
            spell: "shield".into(),
            when: ReactionTrigger::Hit
        }
    );
    state
        .apply(&Change::ReactionsDeclared {
            character: "isolde".into(),
            reactions: vec![StandingReaction {
                spell: "Shield".into(),
                when: ReactionTrigger::Hit,
            }],
        })
        .unwrap();
    let said = player.next_input(None, &state).unwrap().text;
    assert!(said.contains("Frost Harpy"), "{said}");
}
