//! The bard's features through the tools, worked as the SRD gives them: Bardic Inspiration (a
//! bonus action, a d6 (d8 from 5th level) for another creature within 60 ft, one at a time, to
//! add to one attack roll, check or save it could turn (`tests/bard_inspiration.rs` plays the
//! timing); Charisma-modifier uses a long rest, a short rest from
//! 5th level with Font of Inspiration), Jack of All Trades, Song of Rest, Cutting Words; and a
//! model that cheats with them, refused each time with what is allowed, changing nothing.

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, Character, GameState, Target, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack};

/// A human bard made by the builder at `level` (Lore from 3): Charisma 16 (three inspirations),
/// Strength 9, no Athletics.
fn bard(level: u8) -> Character {
    let spells = [
        "Healing Word",
        "Charm Person",
        "Sleep",
        "Thunderwave",
        "Cure Wounds",
        "Longstrider",
        "Heroism",
        "Bane",
    ];
    let known = match level {
        1 => 4,
        2 => 5,
        3 => 6,
        4 => 7,
        _ => 8,
    };
    let mut cantrips = vec!["Vicious Mockery", "Minor Illusion"];
    if level >= 4 {
        cantrips.push("Light");
    }
    let mut features = json!({});
    if level >= 3 {
        features = json!({"bard-expertise-1": ["Performance", "Persuasion"],
            "bonus-proficiencies": ["Arcana", "History", "Investigation"]});
    }
    table::built(json!({
        "name": "Vesna", "race": "Human", "class": "Bard", "level": level,
        "subclass": if level >= 3 { Some("Lore") } else { None },
        "background": "Acolyte",
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["performance", "persuasion", "deception"],
        "features": features,
        "equipment": {"gold": 50},
        "cantrips": cantrips,
        "spells": spells[..known],
    }))
}

/// Vesna of `level` and Kraven against the Frost Harpy (200 HP), in this turn order.
fn with_vesna(level: u8, order: &[&str], seed: u64) -> Table {
    Table::new(
        table::fight_with(&["kraven"], vec![bard(level)], order),
        seed,
    )
}

fn inspire(who: &str, target: Option<&str>) -> Value {
    json!({"character": who, "feature": "bardic-inspiration", "target": target})
}

fn die_on(state: &GameState, id: &str) -> Option<u16> {
    let kraven = state.character(id)?;
    kraven.timed_effects.iter().find_map(|e| match e.kind {
        TimedKind::Inspired { sides } if e.spell == "Bardic Inspiration" => Some(sides),
        _ => None,
    })
}

#[test]
fn bardic_inspiration_gives_another_a_d6_spent_on_a_roll_it_can_turn() {
    let mut t = with_vesna(1, &["vesna", "kraven", "frost-harpy"], 3);
    let report = t.ok("use_feature", inspire("vesna", Some("kraven")));
    // Charisma 16: three uses a long rest.
    assert_eq!(
        (report["uses_left"].as_u64(), report["uses_of"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(die_on(&t.state, "kraven"), Some(6));
    let kept = t.state.character("kraven").unwrap().timed_effects[0].rounds_left;
    assert_eq!(kept, Some(100), "ten minutes");
    assert!(t.state.encounter.as_ref().unwrap().budget.bonus_action_used);
    // One die at a time, and never to the bard itself.
    let mut u = with_vesna(1, &["vesna", "kraven", "frost-harpy"], 3);
    u.ok("use_feature", inspire("vesna", Some("kraven")));
    u.state.encounter.as_mut().unwrap().budget.bonus_action_used = false;
    let twice = u.refused("use_feature", inspire("vesna", Some("kraven")));
    assert!(twice.contains("one at a time"), "{twice}");
    let own = u.refused("use_feature", inspire("vesna", Some("vesna")));
    assert!(own.contains("cannot inspire itself"), "{own}");

    // Kraven's turn: his attack rolls keep the die until one misses by 6 or less; that one
    // adds it, and spends it.
    t.ok("next_turn", json!({}));
    let mut spent = false;
    for _ in 0..6 {
        t.state.encounter.as_mut().unwrap().budget = Default::default();
        let swing = t.ok("roll_attack", attack("kraven", "frost-harpy"));
        let label = t.log.rolls.last().unwrap().label.clone();
        let inspired = label.contains("Bardic Inspiration (1d6)");
        assert_eq!(
            die_on(&t.state, "kraven").is_none(),
            inspired,
            "{label} {swing}"
        );
        if inspired {
            spent = true;
            break;
        }
    }
    assert!(
        spent,
        "a miss within 6 of the harpy's AC in six swings at seed 3"
    );
}

#[test]
fn a_5th_level_bard_gives_a_d8_and_gets_her_uses_back_on_a_short_rest() {
    let mut t = with_vesna(5, &["vesna", "kraven", "frost-harpy"], 2);
    let report = t.ok("use_feature", inspire("vesna", Some("kraven")));
    assert_eq!(report["feature"], "Bardic Inspiration (d8)");
    assert_eq!(die_on(&t.state, "kraven"), Some(8));
    t.apply(&[Change::EncounterEnded]);
    let rest =
        json!({"character": "vesna", "update": "short_rest", "condition": null, "amount": 0});
    t.ok("update_character", rest.clone());
    assert!(
        t.state.character("vesna").unwrap().feature_uses.is_empty(),
        "Font of Inspiration"
    );

    // At 1st level the use waits for a long rest.
    let mut t = with_vesna(1, &["vesna", "kraven", "frost-harpy"], 2);
    t.ok("use_feature", inspire("vesna", Some("kraven")));
    t.apply(&[Change::EncounterEnded]);
    t.ok("update_character", rest);
    assert_eq!(
        t.state.character("vesna").unwrap().feature_uses["bardic-inspiration-d6"].spent,
        1
    );
}

#[test]
fn jack_of_all_trades_adds_half_proficiency_to_checks_without_it() {
    let athletics = |level: u8| {
        let mut t = with_vesna(level, &["vesna", "kraven", "frost-harpy"], 1);
        let sheet = t.ok("get_character_stats", json!({"character": "vesna"}));
        (
            sheet["skills"]["Athletics"].clone(),
            sheet["skills"]["Performance"].clone(),
        )
    };
    // Strength 9 (-1): -1 at 1st level, -1 + 1 from 2nd; Performance (proficient, Cha +3) is
    // untouched.
    assert_eq!(athletics(1), (json!(-1), json!(5)));
    assert_eq!(athletics(2), (json!(0), json!(5)));
    // At 5th level the proficiency bonus is 3: half is 1, rounded down.
    assert_eq!(athletics(5).0, json!(0));
    // Expertise (3rd level, chosen in the builder) doubles the bonus: 3 + 2 x 2.
    assert_eq!(athletics(3).1, json!(7));
}

/// Kraven (hurt by 25) spends one hit die on a short rest with dice `seed`, with Vesna of
/// `level` beside him: the hit points he gets back.
fn rested(level: u8, seed: u64) -> u32 {
    let mut t = with_vesna(level, &["vesna", "kraven", "frost-harpy"], seed);
    t.apply(&[
        Change::EncounterEnded,
        Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 25,
            critical: false,
        },
    ]);
    let before = t.state.character("kraven").unwrap().hp.current;
    t.ok(
        "update_character",
        json!({"character": "kraven", "update": "short_rest", "condition": null, "amount": 1}),
    );
    t.state.character("kraven").unwrap().hp.current - before
}

#[test]
fn song_of_rest_gives_an_extra_d6_to_one_who_spends_hit_dice() {
    for seed in 0..6 {
        // The same hit die, with and without the song (a bard of 2nd level sings).
        let plain = rested(1, seed);
        let sung = rested(2, seed);
        assert!(
            (1..=6).contains(&(sung - plain)),
            "seed {seed}: {plain} then {sung}"
        );
    }
}

/// The harpy attacks Kraven with dice `seed`, Vesna (Lore 3) beside him: the swing's report.
fn harpy_swings(seed: u64) -> (Table, Value) {
    let mut t = with_vesna(3, &["frost-harpy", "vesna", "kraven"], seed);
    let report = t.ok(
        "roll_attack",
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Claws", "advantage": null}),
    );
    (t, report)
}

#[test]
fn cutting_words_takes_the_die_off_a_monsters_hit_with_the_reaction() {
    let (t, report) = (0..200)
        .map(harpy_swings)
        .find(|(_, r)| r["attacks"][0]["reaction"]["reaction"] == "Cutting Words")
        .expect("cutting words in 200 seeds");
    let swing = &report["attacks"][0];
    let result = &swing["result"];
    // The hit is re-judged with the die taken off: a miss deals nothing.
    let turned = swing["reaction"]["succeeded"] == true;
    assert_eq!(turned, result["hit"] == false, "{report}");
    if turned {
        assert_eq!(result["total_damage"], 0);
    }
    assert!(result["total"].as_i64() < Some(result["target_ac"].as_i64().unwrap() + 6));
    let vesna = t.state.character("vesna").unwrap();
    assert_eq!(vesna.feature_uses["bardic-inspiration-d6"].spent, 1);
    assert!(!t.state.encounter.as_ref().unwrap().has_reaction("vesna"));
    // A bard without the College of Lore never cuts.
    let none = (0..60).any(|seed| {
        let mut t = with_vesna(2, &["frost-harpy", "vesna", "kraven"], seed);
        let r = t.ok(
            "roll_attack",
            json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Claws", "advantage": null}),
        );
        r["attacks"][0].get("reaction").is_some()
    });
    assert!(!none);
}

/// A scripted model hands out inspiration as it likes: Kraven inspiring, Vesna inspiring
/// herself, a lawful die to Kraven, a second to Kraven, a die to a creature that is not there,
/// and Cutting Words through use_feature. Each is refused with what is allowed; only the
/// lawful die changes the state.
#[tokio::test]
async fn a_model_cheating_with_inspiration_is_refused() {
    let before = table::fight_with(
        &["kraven"],
        vec![bard(3)],
        &["vesna", "kraven", "frost-harpy"],
    );
    let call = |id: &str, args: Value| ToolCall::new(id, "use_feature", args);
    let cheats = vec![
        call("a", inspire("kraven", Some("vesna"))),
        call("b", inspire("vesna", Some("vesna"))),
        call("c", inspire("vesna", Some("kraven"))),
        call("d", inspire("vesna", Some("kraven"))),
        call("e", inspire("vesna", Some("bob"))),
        call(
            "f",
            json!({"character": "vesna", "feature": "cutting-words", "target": "frost-harpy"}),
        ),
        call("g", inspire("vesna", None)),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Vesna", "Go on, Kraven!").await;
    assert_eq!(results.len(), 7, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "cannot inspire itself"),
        (3, "one at a time"),
        (4, "no character or visible monster named"),
        (5, "not used through use_feature"),
        (6, "needs a target"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(results[2].contains("inspires"), "{}", results[2]);
    assert_eq!(die_on(&after, "kraven"), Some(6));
    assert_eq!(
        after.character("vesna").unwrap().feature_uses["bardic-inspiration-d6"].spent,
        1
    );
}

/// Out of her turn, Vesna's bonus action is not hers; with no use left she is told when it
/// comes back; below 1st level of bard, Cutting Words' data says so.
#[test]
fn inspiration_out_of_turn_or_spent_is_refused() {
    let mut t = with_vesna(1, &["kraven", "vesna", "frost-harpy"], 4);
    let off = t.refused("use_feature", inspire("vesna", Some("kraven")));
    assert!(off.contains("Kraven"), "{off}");
    let mut t = with_vesna(1, &["vesna", "kraven", "frost-harpy"], 4);
    t.apply(&[Change::FeatureUsed {
        character: "vesna".into(),
        feature: "bardic-inspiration-d6".into(),
        of: 3,
        restores: dnd_engine::srd::Rest::LongRest,
        count: 3,
    }]);
    let spent = t.refused("use_feature", inspire("vesna", Some("kraven")));
    assert!(spent.contains("comes back after a long rest"), "{spent}");
}
