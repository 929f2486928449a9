//! The tools offered per situation (`tools::situation`), pinned for the built-in adventures'
//! moments, with the JSON size of their specifications (the figures in the README's table) and
//! the gate's rule for the others: refused once, then added, or refused every time.

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::json;

use super::Table;
use crate::adventure::Adventure;
use crate::srd::Srd;
use crate::state::{GameState, estimate_tokens};
use crate::tools::situation::CROWDED;
use crate::tools::{Gate, available_tools, gate, tool_specs, tools_now, tools_with};

/// The party, everyone, moved to `room` (a test's shortcut past the walk there).
fn move_party(state: &mut GameState, room: &str) {
    for c in Arc::make_mut(&mut state.characters) {
        c.location = room.to_owned();
    }
}

/// The JSON of the specifications of `names`, as one array.
fn spec_json(names: &[&str]) -> String {
    let specs: Vec<_> = tool_specs()
        .into_iter()
        .filter(|s| names.contains(&s.name.as_str()))
        .collect();
    serde_json::to_string(&specs).unwrap()
}

/// The glacier's moments and Wendle Hollow's party, each with its state.
fn moments() -> Vec<(&'static str, GameState)> {
    let start = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let mut fight = Table::new(&["kraven"]);
    fight.ok(
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    let mut hall = start.clone();
    move_party(&mut hall, "hall-of-echoes");
    let mut casters = Adventure::built_in()
        .new_game(&["isolde", "hedda"])
        .unwrap();
    move_party(&mut casters, "hall-of-echoes");
    let mut ready = start.clone();
    Arc::make_mut(&mut ready.characters)[0].xp = 2_700;
    let mut heart = start.clone();
    move_party(&mut heart, "glacier-heart");
    let wendle = Adventure::built_in_named("wendle-hollow").unwrap();
    let wendle = wendle.new_game(&[]).unwrap();
    vec![
        ("glacier, the start room (Kraven)", start.clone()),
        ("glacier, in the harpy fight (Kraven)", fight.state),
        (
            "glacier, with Aldous and Sigrun at the riddle (Kraven)",
            hall,
        ),
        ("glacier, at the riddle (Isolde and Hedda)", casters),
        ("glacier, a level ready (Kraven)", ready),
        ("glacier, the heart of ice (Kraven)", heart),
        ("wendle hollow, the party of four on the green", wendle),
    ]
}

#[test]
fn the_tools_per_situation_are_these() {
    let srd = Srd::bundled();
    let all = tool_specs();
    let all_names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
    let every = spec_json(&all_names);
    let mut table = format!(
        "every tool: {} tools, {} bytes, ~{} tokens\n",
        all.len(),
        every.len(),
        estimate_tokens(&every)
    );
    for (name, state) in moments() {
        let now = tools_now(&state, srd);
        let tools = now.offered;
        assert!(
            tools.len() <= CROWDED,
            "{name}: {} tools: {tools:?}",
            tools.len()
        );
        let json = spec_json(&tools);
        // The gate's rule, per moment: a tool left out is refused once and added; a barred one
        // is refused every time.
        let (added, barred): (Vec<&str>, Vec<&str>) = all_names
            .iter()
            .copied()
            .filter(|t| !tools.contains(t))
            .partition(|t| now.possible.contains(t));
        writeln!(
            table,
            "\n{name} ({:?}): {} tools, {} bytes, ~{} tokens\n  {}\n  refused once, then added: {}\n  refused: {}",
            crate::tools::situation(&state),
            tools.len(),
            json.len(),
            estimate_tokens(&json),
            tools.join(", "),
            added.join(", "),
            barred.join(", ")
        )
        .unwrap();
    }
    println!("{table}");
    insta::assert_snapshot!("tools_per_situation", table);
}

#[test]
fn each_situation_offers_what_it_needs_and_not_what_cannot_happen() {
    let srd = Srd::bundled();
    let moments = moments();
    let tools = |i: usize| available_tools(&moments[i].1, srd);
    // The first room, a fighter alone, the harpy not yet seen: nothing to fight or cast.
    let start = tools(0);
    for absent in [
        "start_encounter",
        "roll_attack",
        "next_turn",
        "end_encounter",
        "cast_spell",
        "talk_to",
        "level_up",
    ] {
        assert!(!start.contains(&absent), "{absent} in {start:?}");
    }
    // Once the harpy is seen, the fight may start (and an attack starts it).
    let mut seen = moments[0].1.clone();
    for m in Arc::make_mut(&mut seen.monsters) {
        m.revealed = true;
    }
    let seen = available_tools(&seen, srd);
    assert!(seen.contains(&"start_encounter") && seen.contains(&"roll_attack"));
    assert!(!seen.contains(&"next_turn"), "{seen:?}");
    // The fight: its turns and actions, no starting another one, no walking off.
    let fight = tools(1);
    for present in ["next_turn", "end_encounter", "move_in_fight", "roll_attack"] {
        assert!(fight.contains(&present), "{present} not in {fight:?}");
    }
    assert!(!fight.contains(&"start_encounter") && !fight.contains(&"move_to"));
    // Aldous and Sigrun: talking, persuading and the riddle.
    let hall = tools(2);
    for present in ["talk_to", "social_check", "answer_puzzle"] {
        assert!(hall.contains(&present), "{present} not in {hall:?}");
    }
    // Casters get their spells.
    assert!(tools(3).contains(&"cast_spell"), "{:?}", tools(3));
    // XP for the next level: level_up, and only then.
    assert!(tools(4).contains(&"level_up"), "{:?}", tools(4));
    // The heart of ice can be broken.
    assert!(tools(5).contains(&"attack_object"), "{:?}", tools(5));
}

#[test]
fn the_modes_own_tools_come_first_and_what_the_room_adds_last() {
    let order = crate::tools::tool_names();
    let every = ["roll_dice", "roll_skill_check", "use_item"];
    let fight_core = [
        "roll_attack",
        "use_feature",
        "move_in_fight",
        "next_turn",
        "end_encounter",
        "dodge",
        "disengage",
    ];
    let walk_core = [
        "move_to",
        "get_room_details",
        "set_game_flag",
        "log_story_event",
        "update_character",
    ];
    for (name, state) in moments() {
        let tools = available_tools(&state, Srd::bundled());
        let mode: &[&str] = if state.encounter.is_some() {
            &fight_core
        } else {
            &walk_core
        };
        let core: Vec<&str> = every.iter().chain(mode).copied().collect();
        // The core, in its own order, then the rest: cast_spell first, then the registry's order.
        let lead: Vec<&str> = core.iter().copied().filter(|t| tools.contains(t)).collect();
        assert_eq!(tools[..lead.len()], lead, "{name}");
        let mut rest: Vec<&str> = tools[lead.len()..].to_vec();
        if rest.first() == Some(&"cast_spell") {
            rest.remove(0);
        }
        let positions: Vec<usize> = rest
            .iter()
            .map(|t| order.iter().position(|o| o == t).unwrap())
            .collect();
        assert!(positions.is_sorted(), "{name}: {tools:?}");
        assert!(!rest.contains(&"cast_spell"), "{name}: {tools:?}");
    }
}

#[test]
fn a_tool_not_sent_is_refused_and_a_possible_one_added() {
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let now = tools_now(&state, Srd::bundled());
    let sent = now.offered.as_slice();
    // Its moment has not come: refused with the list sent, sent or not.
    let Gate::Barred(refusal) = gate("next_turn", sent, &state) else {
        panic!("no fight: next_turn barred");
    };
    assert!(
        refusal.contains("next_turn is not available now"),
        "{refusal}"
    );
    assert!(refusal.contains(&sent.join(", ")), "{refusal}");
    assert!(matches!(
        gate("next_turn", &["next_turn"], &state),
        Gate::Barred(_)
    ));
    assert_eq!(gate("move_to", sent, &state), Gate::Run);
    // A lookup left out for room is refused, and added: it is possible now.
    assert!(!sent.contains(&"rules_lookup"), "{sent:?}");
    let Gate::Added(tool, refusal) = gate("rules_lookup", sent, &state) else {
        panic!("rules_lookup is possible now");
    };
    assert_eq!(tool, "rules_lookup");
    assert!(
        refusal.contains("it is now added: call it again") && refusal.contains(&sent.join(", ")),
        "{refusal}"
    );
    // An unknown name is the registry's to refuse, with every tool.
    assert_eq!(gate("fly_away", sent, &state), Gate::Run);
}

#[test]
fn an_asked_tool_takes_the_place_of_the_last_extra_and_the_list_stays_at_twelve() {
    let srd = Srd::bundled();
    for (name, state) in moments() {
        let now = tools_now(&state, srd);
        let left_out: Vec<&str> = now
            .possible
            .iter()
            .copied()
            .filter(|t| !now.offered.contains(t))
            .collect();
        // Each left-out possible tool, asked alone, then all of them at once.
        let mut asks: Vec<Vec<&str>> = left_out.iter().map(|t| vec![*t]).collect();
        asks.push(left_out.clone());
        for asked in asks {
            let with = tools_with(&state, srd, &asked).offered;
            // Asked one at a time (as a model asks), the list keeps its size; asked all at
            // once, it holds what was offered or asked, and nothing else.
            let bound = if asked.len() == 1 {
                CROWDED.max(now.offered.len())
            } else {
                now.offered.len() + asked.len()
            };
            assert!(
                with.iter()
                    .all(|t| now.offered.contains(t) || asked.contains(t)),
                "{name}: {with:?}"
            );
            assert!(
                with.len() <= bound,
                "{name}, asked {asked:?}: {} tools: {with:?}",
                with.len()
            );
            assert!(
                with.len() >= now.offered.len().min(CROWDED),
                "{name}: {with:?}"
            );
            // What stays keeps its order.
            let kept = |a: &[&'static str], b: &[&'static str]| -> Vec<&'static str> {
                a.iter().copied().filter(|t| b.contains(t)).collect()
            };
            assert_eq!(
                kept(&with, &now.offered),
                kept(&now.offered, &with),
                "{name}"
            );
            for t in &asked {
                assert!(with.contains(t), "{name}: {t} not in {with:?}");
            }
        }
    }
    // The harpy fight: no Dash offered, until it is asked for, in the place of an extra.
    let mut fight = Table::new(&["kraven"]);
    fight.ok(
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    let now = tools_now(&fight.state, srd);
    assert!(!now.offered.contains(&"dash"), "{:?}", now.offered);
    let with = tools_with(&fight.state, srd, &["dash"]).offered;
    assert!(with.contains(&"dash"), "{with:?}");
    assert_eq!(with.len(), now.offered.len(), "{with:?}");
    // A barred or unknown tool asked for is not offered.
    let walk = tools_with(&fight.state, srd, &["start_encounter", "fly_away"]).offered;
    assert_eq!(walk, now.offered);
}
