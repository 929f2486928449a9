//! Worked examples of areas that last (issue 16), through the tools as a model calls them, with
//! seeded dice: Moonbeam burning a creature that starts its turn in the beam (only the first
//! time on a turn), Spirit Guardians sparing the caster's allies, Spike Growth's 2d4 for each
//! 5 ft, Web caught on entering, Stinking Cloud at a turn's start. Using them again on later
//! turns is `spell_zones_again.rs`.

use serde_json::json;

use dnd_engine::state::{TimedKind, ZoneKept};
use dnd_engine::tools::results::{TurnEvent, TurnsPassed};

#[path = "support/table.rs"]
mod table;
use table::{at, cast};

#[path = "support/zones.rs"]
mod zones;
use zones::{aimed, check_half_on_success, hp, last_damage, placed, zone_events};

#[test]
fn moonbeam_burns_a_creature_that_starts_its_turn_in_the_beam() {
    let (mut halved, mut full) = (0, 0);
    for seed in 0..8 {
        let mut t = placed(
            &["Moonbeam"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (30, 0)),
                ("frost-harpy", (90, 0)),
            ],
            seed,
        );
        // The beam appears on Kraven, cast with a 3rd-level slot: nothing yet, the casting
        // only places it.
        let before = hp(&t.state, "kraven");
        let r = t.ok("cast_spell", aimed("hedda", "Moonbeam", Some(3), "kraven"));
        assert_eq!(r["effects"], json!([]), "{r}");
        assert_eq!(hp(&t.state, "kraven"), before);
        let zone = &t.state.character("hedda").unwrap().timed_effects[0];
        assert_eq!(
            zone.kind,
            TimedKind::Zone(Box::new(ZoneKept {
                slot: 3,
                at: Some(at(30, 0, 0)),
                on: vec![],
                caught: vec![],
                caught_in: None,
            }))
        );
        assert_eq!(zone.rounds_left, Some(10), "a minute");
        // Kraven's turn starts in the beam: a Constitution save against Hedda's DC 13, 2d10
        // radiant and 1d10 for the slot above 2nd, half on a success.
        let passed = t.ok("next_turn", json!({}));
        let caught = zone_events(&passed);
        assert_eq!(caught.len(), 1, "{passed}");
        assert_eq!(caught[0]["zone"], "Moonbeam");
        // The event reads back as its type (the offline game master reads it so).
        let typed: TurnsPassed = serde_json::from_value(passed.clone()).unwrap();
        assert!(
            matches!(&typed.monster_turns[0], TurnEvent::Zone(z) if z.caster == "Hedda Stonebrow"),
            "{passed}"
        );
        let outcome = &caught[0]["effects"][0];
        assert_eq!(outcome["target"], "Kraven");
        assert_eq!(outcome["save"]["dc"], 13, "{outcome}");
        assert!(
            t.log
                .rolls
                .iter()
                .any(|r| r.label == "Kraven Constitution save against Moonbeam")
        );
        let (dice, rolled) = last_damage(&t, "Moonbeam");
        assert_eq!(dice, "3d10");
        check_half_on_success(outcome, rolled);
        if outcome["save"]["success"] == true {
            halved += 1;
        } else {
            full += 1;
        }
        let damage = outcome["damage"].as_u64().unwrap() as u32;
        assert_eq!(hp(&t.state, "kraven"), before.saturating_sub(damage));
    }
    assert!(halved > 0 && full > 0, "{halved} halved, {full} full");
}

#[test]
fn spirit_guardians_spare_the_casters_allies_and_slow_and_burn_its_foes() {
    use dnd_engine::combat::positions::{Destination, plan_move};
    let srd = dnd_engine::srd::Srd::bundled();
    let mut burnt = 0;
    for seed in 0..6 {
        let mut t = placed(
            &["Spirit Guardians"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (-10, 0)),
                ("frost-harpy", (10, 0)),
            ],
            seed,
        );
        t.ok("cast_spell", cast("hedda", "Spirit Guardians", None, &[]));
        // Moving 15 ft inside the spirits' 15 ft: the ally at its speed, the foe at half (each
        // foot costs two).
        let toward = |who| Destination::Toward(who, 5);
        let ally = plan_move(&t.state, srd, "kraven", toward("frost-harpy"), None).unwrap();
        assert_eq!((ally.feet, ally.cost_ft), (15, 15));
        let foe = plan_move(&t.state, srd, "frost-harpy", toward("kraven"), None).unwrap();
        assert_eq!((foe.feet, foe.cost_ft), (15, 30));
        let kraven = hp(&t.state, "kraven");
        // Kraven stands in the spirits at the start of his turn: spared.
        let passed = t.ok("next_turn", json!({}));
        assert!(zone_events(&passed).is_empty(), "{passed}");
        assert_eq!(hp(&t.state, "kraven"), kraven);
        let before = hp(&t.state, "frost-harpy");
        // The harpy's turn starts 10 ft from Hedda: a Wisdom save against 3d8 radiant.
        let passed = t.ok("next_turn", json!({}));
        let caught = zone_events(&passed);
        assert_eq!(caught.len(), 1, "{passed}");
        let outcome = &caught[0]["effects"][0];
        assert_eq!(outcome["target"], "Frost Harpy", "{passed}");
        let (dice, rolled) = last_damage(&t, "Spirit Guardians");
        assert_eq!(dice, "3d8");
        check_half_on_success(outcome, rolled);
        burnt += outcome["damage"].as_u64().unwrap();
        assert!(hp(&t.state, "frost-harpy") <= before);
    }
    assert!(burnt > 0, "some seed burnt the harpy");
}

#[test]
fn spike_growth_pierces_2d4_for_each_5_ft_moved_inside() {
    for seed in 0..4 {
        let mut t = placed(
            &["Spike Growth"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (0, 0)),
                ("frost-harpy", (40, 0)),
            ],
            seed,
        );
        // A 20-ft radius around the harpy: from x = 20 to 60.
        t.ok(
            "cast_spell",
            aimed("hedda", "Spike Growth", None, "frost-harpy"),
        );
        t.ok("next_turn", json!({}));
        let before = hp(&t.state, "kraven");
        // Kraven dashes and walks 30 ft east: the steps ending at 20, 25 and 30 ft are in the
        // thorns, difficult terrain (45 ft of movement).
        t.ok("dash", json!({"creature": "kraven"}));
        let m = t.ok(
            "move_in_fight",
            json!({"creature": "kraven", "to": "frost-harpy", "feet": 30}),
        );
        assert_eq!(m["movement_spent_ft"], 45, "{m}");
        let zones = m["zones"].as_array().unwrap();
        assert_eq!(zones.len(), 3, "{m}");
        let mut taken = 0;
        for z in zones {
            let d = z["effects"][0]["damage"].as_u64().unwrap() as u32;
            assert!((2..=8).contains(&d), "2d4 piercing: {z}");
            assert_eq!(z["effects"][0]["rolled"]["dice"], "2d4", "{z}");
            taken += d;
        }
        assert_eq!(hp(&t.state, "kraven"), before.saturating_sub(taken));
    }
}

#[test]
fn a_creature_entering_the_webs_saves_again() {
    let mut t = placed(
        &["Web"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (5, 0)),
            ("frost-harpy", (40, 0)),
        ],
        2,
    );
    t.ok("cast_spell", aimed("hedda", "Web", None, "frost-harpy"));
    t.ok("next_turn", json!({}));
    // Kraven walks 25 ft into the 20-ft cube around the harpy (x from 30 to 50): its last
    // 5 ft are in the webs, difficult terrain (30 ft of movement).
    let m = t.ok(
        "move_in_fight",
        json!({"creature": "kraven", "to": "frost-harpy", "feet": 25}),
    );
    assert_eq!(m["movement_spent_ft"], 30, "{m}");
    let zones = m["zones"].as_array().unwrap();
    assert_eq!(zones.len(), 1, "{m}");
    assert_eq!(zones[0]["effects"][0]["save"]["dc"], 13, "{m}");
    let failed = zones[0]["effects"][0]["save"]["success"] == false;
    let restrained = t
        .state
        .character("kraven")
        .unwrap()
        .conditions
        .has(dnd_engine::rules::Condition::Restrained);
    assert_eq!(failed, restrained, "{m}");
}

#[test]
fn a_creature_is_caught_by_the_beam_only_the_first_time_on_a_turn() {
    let mut t = placed(
        &["Moonbeam"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (10, 0)),
            ("frost-harpy", (30, 0)),
        ],
        6,
    );
    t.ok(
        "cast_spell",
        aimed("hedda", "Moonbeam", None, "frost-harpy"),
    );
    t.ok("next_turn", json!({}));
    let walk = |to: &str, feet: u32| json!({"creature": "kraven", "to": to, "feet": feet});
    // In (5 ft from the harpy, inside the 5-ft beam), out, and in again on one turn.
    let first = t.ok("move_in_fight", walk("frost-harpy", 15));
    assert_eq!(first["zones"].as_array().map_or(0, Vec::len), 1, "{first}");
    let out = t.ok("move_in_fight", walk("hedda", 5));
    assert!(out.get("zones").is_none(), "{out}");
    let again = t.ok("move_in_fight", walk("frost-harpy", 5));
    assert!(
        again.get("zones").is_none(),
        "caught once this turn: {again}"
    );
    // The harpy's own turn starts in the beam: a new turn, a new save.
    let passed = t.ok("next_turn", json!({}));
    let harpy = zone_events(&passed)
        .iter()
        .filter(|z| z["effects"][0]["target"] == "Frost Harpy")
        .count();
    assert_eq!(harpy, 1, "{passed}");
}

#[test]
fn stinking_cloud_asks_a_constitution_save_of_whoever_starts_its_turn_inside() {
    let (mut held, mut free) = (0, 0);
    for seed in 0..8 {
        let mut t = placed(
            &["Stinking Cloud"],
            &[
                ("hedda", (0, 0)),
                ("kraven", (60, 0)),
                ("frost-harpy", (60, 5)),
            ],
            seed,
        );
        // No save as it forms: only at the start of a turn inside.
        let r = t.ok(
            "cast_spell",
            aimed("hedda", "Stinking Cloud", Some(3), "kraven"),
        );
        assert_eq!(r["effects"], json!([]), "{r}");
        let passed = t.ok("next_turn", json!({}));
        let events = passed["monster_turns"].as_array().unwrap();
        let kraven = &events[0];
        assert_eq!(kraven["zone"], "Stinking Cloud", "{passed}");
        let save = &kraven["effects"][0]["save"];
        assert_eq!(kraven["effects"][0]["target"], "Kraven", "{passed}");
        assert_eq!(save["dc"], 13, "{passed}");
        // A failure spends his turn retching; a success leaves it to him.
        let failed = save["success"] == false;
        let lost_turn = events.iter().any(|e| e["cannot_act"] == "Kraven");
        assert_eq!(failed, lost_turn, "{passed}");
        if failed {
            held += 1;
        } else {
            free += 1;
        }
    }
    assert!(held > 0 && free > 0, "{held} held, {free} free");
}

#[test]
fn grease_asks_its_save_as_it_appears_and_of_whoever_ends_a_turn_in_it() {
    let mut t = placed(
        &["Grease"],
        &[
            ("hedda", (0, 0)),
            ("kraven", (30, 0)),
            ("frost-harpy", (90, 0)),
        ],
        2,
    );
    let r = t.ok("cast_spell", aimed("hedda", "Grease", None, "kraven"));
    assert_eq!(r["effects"][0]["target"], "Kraven", "{r}");
    assert_eq!(r["concentrating"], false, "it lasts its minute on its own");
    // Kraven's turn starts in the grease: no save for that (only as it ends there).
    let passed = t.ok("next_turn", json!({}));
    assert!(zone_events(&passed).is_empty(), "{passed}");
    let passed = t.ok("next_turn", json!({}));
    let caught = zone_events(&passed);
    assert_eq!(caught.len(), 1, "{passed}");
    assert_eq!(caught[0]["effects"][0]["target"], "Kraven", "{passed}");
    assert_eq!(caught[0]["effects"][0]["save"]["dc"], 13, "{passed}");
}

#[test]
fn a_priests_spirit_guardians_catch_the_heroes_and_spare_the_monsters() {
    use dnd_engine::rules::HitPoints;
    use dnd_engine::state::{Change, TimedEffect};
    let mut burnt = 0;
    for seed in 0..6 {
        // The harpy's place taken by a priest (DC 13) keeping Spirit Guardians cast with a
        // 3rd-level slot, fixed on Kraven where the room keeps no positions.
        let mut t = table::Table::fight(
            &["kraven", "isolde"],
            &["isolde", "kraven", "frost-harpy"],
            seed,
        );
        let m = &mut std::sync::Arc::make_mut(&mut t.state.monsters)[0];
        m.template = "priest".into();
        m.hp = HitPoints::full(60);
        let zone = TimedEffect {
            source: "frost-harpy".into(),
            spell: "Spirit Guardians".into(),
            target: "frost-harpy".into(),
            concentration: true,
            rounds_left: Some(100),
            ends_on_damage: false,
            level: 3,
            at_turn_end: false,
            kind: TimedKind::Zone(Box::new(ZoneKept {
                slot: 3,
                at: None,
                on: vec!["kraven".into()],
                caught: vec![],
                caught_in: None,
            })),
        };
        t.apply(&[
            Change::Concentration {
                character: "frost-harpy".into(),
                spell: Some("Spirit Guardians".into()),
            },
            Change::TimedEffectStarted { effect: zone },
        ]);
        let before = hp(&t.state, "kraven");
        let passed = t.ok("next_turn", json!({}));
        let caught = zone_events(&passed);
        assert_eq!(caught.len(), 1, "{passed}");
        let outcome = &caught[0]["effects"][0];
        assert_eq!(outcome["target"], "Kraven", "{passed}");
        assert_eq!(outcome["save"]["dc"], 13, "the priest's DC: {passed}");
        let (dice, rolled) = last_damage(&t, "Spirit Guardians");
        assert_eq!(dice, "3d8");
        check_half_on_success(outcome, rolled);
        let damage = outcome["damage"].as_u64().unwrap() as u32;
        assert_eq!(hp(&t.state, "kraven"), before.saturating_sub(damage));
        burnt += damage;
    }
    assert!(burnt > 0);
}
