//! Worked examples of the spells that move creatures (issue 16), each through `cast_spell` as a
//! model calls it, with seeded dice, in the ice chasm where the fight keeps positions: Misty
//! Step's teleport to a named point (no opportunity attack), Fly's 60 ft flying speed and the
//! landing as it ends, Levitate's rise for a failed Constitution save (none for a willing
//! ally), Gaseous Form's 10 ft flying speed and its bar on attacks and spells, Meld into Stone,
//! and Gust of Wind's 15 ft push along its line. Each new rule also has a cheating case: a
//! misuse refused with what is allowed, changing nothing. The spells that guard places are in
//! `spell_guards.rs`.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::HitPoints;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Area, Change, Cover, GameState, Position, speed_now};

#[path = "support/table.rs"]
mod table;
use table::{Table, at};

/// `party` and goblins (`foes`, 30 HP each), in a fight in the ice chasm in the order party then
/// goblins, everyone placed; the heroes know `spells` with a slot of each level up to 5th. The
/// room also has a hollow in the ice 20 ft south-east of the mouth, behind total cover.
fn battle(party: &[(&str, Position)], foes: &[(&str, Position)], spells: &[&str]) -> GameState {
    let ids: Vec<&str> = party.iter().chain(foes).map(|(id, _)| *id).collect();
    let heroes: Vec<&str> = party.iter().map(|(id, _)| *id).collect();
    let mut state = table::seen_harpy(&heroes);
    let harpy = state.monsters[0].clone();
    for (id, _) in foes {
        let mut m = harpy.clone();
        m.id = (*id).into();
        m.name = (*id).into();
        m.template = "goblin".into();
        m.hp = HitPoints::full(30);
        m.armor_class = Srd::bundled().monster("goblin").unwrap().armor_class;
        m.area = None;
        Arc::make_mut(&mut state.monsters).push(m);
    }
    for hero in &heroes {
        let c = table::hero_mut(&mut state, hero);
        c.spell_slots.max = [4, 3, 3, 2, 1, 0, 0, 0, 0];
        Arc::make_mut(&mut c.spells).extend(spells.iter().map(|s| (*s).to_owned()));
    }
    Arc::make_mut(&mut state.locations)[0].areas.push(Area {
        id: "ice-hollow".into(),
        name: "a hollow in the ice".into(),
        x: 20,
        y: -10,
        z: 0,
        radius_ft: 3,
        cover: Cover::Total,
        difficult_terrain: false,
    });
    let mut changes = vec![Change::EncounterStarted {
        order: table::order(&ids),
    }];
    for (id, to) in party.iter().chain(foes) {
        changes.push(Change::Moved {
            creature: (*id).into(),
            to: *to,
        });
    }
    state.apply_all(&changes).unwrap();
    state
}

fn cast(caster: &str, spell: &str, targets: &[&str], aim: Option<&str>, point: Value) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets,
           "aim": aim, "point": point})
}

fn position(state: &GameState, id: &str) -> Position {
    state.encounter.as_ref().unwrap().position(id).unwrap()
}

fn speed(state: &GameState, id: &str) -> u32 {
    speed_now(state, id, 30)
}

#[test]
fn misty_step_takes_the_caster_30_ft_as_a_bonus_action_and_no_foe_gets_a_swing() {
    let state = battle(
        &[("isolde", at(0, 0, 0))],
        &[("goblin-a", at(5, 0, 0))],
        &["Misty Step"],
    );
    let mut t = Table::new(state, 3);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Misty Step", &[], None, json!({"x": 30, "y": 0})),
    );
    assert_eq!(position(&t.state, "isolde"), at(30, 0, 0), "{r}");
    let moved = &r["effects"][0];
    assert_eq!(moved["outcome"], "moved", "{r}");
    assert_eq!(moved["feet"], 30, "{r}");
    let encounter = t.state.encounter.as_ref().unwrap();
    assert!(encounter.budget.bonus_action_used, "a bonus action");
    assert!(!encounter.budget.action_used, "the action is left");
    assert_eq!(encounter.budget.movement_used_ft, 0, "no movement spent");
    assert!(
        encounter.has_reaction("goblin-a"),
        "no opportunity attack: the goblin keeps its reaction"
    );
    let isolde = t.state.character("isolde").unwrap();
    assert_eq!(isolde.hp.current, isolde.hp.max);
    assert_eq!(isolde.spell_slots.spent[1], 1, "a 2nd-level slot");
}

#[test]
fn misty_step_lands_on_a_raised_area_at_its_height_within_30_ft() {
    // From 30 ft below and 10 ft beside the spire's top: 31.6 ft, 30 ft as the fight counts.
    let state = battle(&[("isolde", at(30, 15, 0))], &[], &["Misty Step"]);
    let mut t = Table::new(state, 3);
    t.ok(
        "cast_spell",
        cast(
            "isolde",
            "Misty Step",
            &[],
            None,
            json!({"x": 40, "y": 15, "z": 30}),
        ),
    );
    assert_eq!(position(&t.state, "isolde"), at(40, 15, 30));
}

#[test]
fn misty_step_aimed_at_an_area_goes_to_its_point() {
    let state = battle(&[("isolde", at(60, 0, 0))], &[], &["Misty Step"]);
    let mut t = Table::new(state, 3);
    let error = t.refused(
        "cast_spell",
        cast("isolde", "Misty Step", &[], Some("the moon"), Value::Null),
    );
    assert!(error.contains("far-archway"), "the areas listed: {error}");
    t.ok(
        "cast_spell",
        cast(
            "isolde",
            "Misty Step",
            &[],
            Some("far-archway"),
            Value::Null,
        ),
    );
    assert_eq!(position(&t.state, "isolde"), at(80, 0, 0));
}

#[test]
fn a_cheating_model_cannot_teleport_out_of_reach_into_a_creature_the_air_or_the_unseen() {
    let state = battle(
        &[("isolde", at(0, 0, 0))],
        &[("goblin-a", at(10, 0, 0))],
        &["Misty Step", "Fireball"],
    );
    let mut t = Table::new(state, 3);
    let misty = |point: Value| cast("isolde", "Misty Step", &[], None, point);
    let cases = [
        (misty(Value::Null), "name it in point"),
        (misty(json!({"x": 35, "y": 0})), "reaches 30 ft at most"),
        (misty(json!({"x": 10, "y": 2})), "goblin-a stands there"),
        (misty(json!({"x": 0, "y": -40})), "outside the room"),
        (misty(json!({"x": 10, "y": 10, "z": 10})), "cannot fly"),
        (misty(json!({"x": 20, "y": -10})), "total cover"),
        (
            cast(
                "isolde",
                "Fireball",
                &[],
                Some("goblin-a"),
                json!({"x": 5, "y": 5}),
            ),
            "takes no one to a point",
        ),
    ];
    for (args, expected) in cases {
        let error = t.refused("cast_spell", args.clone());
        assert!(error.contains(expected), "{args}: {error}");
    }
    // Where the fight keeps no positions, a point means nothing.
    t.state.encounter.as_mut().unwrap().positions.clear();
    let error = t.refused("cast_spell", misty(json!({"x": 5, "y": 0})));
    assert!(error.contains("give point null"), "{error}");
    let r = t.ok("cast_spell", misty(Value::Null));
    assert!(r["narrator"].is_null(), "nothing left to narrate: {r}");
}

#[test]
fn fly_gives_a_60_ft_flying_speed_and_the_flyer_comes_down_as_it_ends() {
    let state = battle(
        &[("isolde", at(0, 0, 0)), ("kraven", at(5, 0, 0))],
        &[],
        &["Fly"],
    );
    let mut t = Table::new(state, 3);
    assert!(
        t.refused(
            "move_in_fight",
            json!({"creature": "isolde", "to": "rime-spire", "feet": null})
        )
        .contains("fly"),
        "no wings before the spell"
    );
    // A 4th-level slot: two creatures.
    let mut args = cast("isolde", "Fly", &["isolde", "kraven"], None, Value::Null);
    args["slot_level"] = json!(4);
    t.ok("cast_spell", args);
    assert_eq!(speed(&t.state, "isolde"), 60);
    assert_eq!(speed(&t.state, "kraven"), 60);
    // Up to the spire's top, 30 ft up: 50 ft of her 60.
    let r = t.ok(
        "move_in_fight",
        json!({"creature": "isolde", "to": "rime-spire", "feet": null}),
    );
    assert_eq!(position(&t.state, "isolde"), at(40, 15, 30), "{r}");
    // Kraven hangs in the air when the concentration ends; Isolde stands on the spire.
    t.apply(&[Change::Moved {
        creature: "kraven".into(),
        to: at(5, 0, 20),
    }]);
    t.apply(&[Change::Concentration {
        character: "isolde".into(),
        spell: None,
    }]);
    assert_eq!(
        position(&t.state, "kraven"),
        at(5, 0, 0),
        "down to the floor"
    );
    assert_eq!(
        position(&t.state, "isolde"),
        at(40, 15, 30),
        "still on the spire"
    );
    assert_eq!(speed(&t.state, "kraven"), 30);
}

#[test]
fn levitate_lifts_a_goblin_that_fails_its_constitution_save_20_ft_and_holds_it_there() {
    let (mut lifted, mut resisted) = (0, 0);
    for seed in 0..10 {
        let state = battle(
            &[("isolde", at(0, 0, 0))],
            &[("goblin-a", at(20, 0, 0))],
            &["Levitate"],
        );
        let mut t = Table::new(state, seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Levitate", &["goblin-a"], None, Value::Null),
        );
        let save = r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["outcome"] == "save")
            .unwrap_or_else(|| panic!("an unwilling goblin saves: {r}"));
        if save["save"]["success"].as_bool().unwrap() {
            resisted += 1;
            assert_eq!(position(&t.state, "goblin-a"), at(20, 0, 0));
            assert_eq!(speed(&t.state, "goblin-a"), 30);
            continue;
        }
        lifted += 1;
        assert_eq!(position(&t.state, "goblin-a"), at(20, 0, 20), "{r}");
        assert_eq!(speed(&t.state, "goblin-a"), 0, "it cannot move itself");
        // It floats down as the concentration ends.
        t.apply(&[Change::Concentration {
            character: "isolde".into(),
            spell: None,
        }]);
        assert_eq!(position(&t.state, "goblin-a"), at(20, 0, 0));
        assert_eq!(speed(&t.state, "goblin-a"), 30);
    }
    assert!(
        lifted > 0 && resisted > 0,
        "{lifted} lifted, {resisted} resisted"
    );
}

#[test]
fn levitate_lifts_a_willing_ally_without_a_save() {
    let state = battle(
        &[("isolde", at(0, 0, 0)), ("kraven", at(10, 0, 0))],
        &[],
        &["Levitate"],
    );
    let mut t = Table::new(state, 1);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Levitate", &["kraven"], None, Value::Null),
    );
    assert!(
        !r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["outcome"] == "save"),
        "{r}"
    );
    assert_eq!(position(&t.state, "kraven"), at(10, 0, 20), "{r}");
}

#[test]
fn gaseous_form_flies_at_10_ft_and_nothing_faster() {
    let state = battle(
        &[("isolde", at(0, 0, 0))],
        &[],
        &["Gaseous Form", "Magic Missile"],
    );
    let mut t = Table::new(state, 1);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Gaseous Form", &["isolde"], None, Value::Null),
    );
    assert_eq!(speed(&t.state, "isolde"), 10, "{r}");
    let lasting = r["lasting"].as_array().unwrap();
    assert_eq!(
        lasting.len(),
        6,
        "the flight, three saves, the bar and the resistance: {r}"
    );
    // Resistance to a nonmagical attack's damage, of any type; none to a magical one.
    let defenses = t
        .state
        .character("isolde")
        .unwrap()
        .defenses_now(dnd_engine::srd::Srd::bundled());
    let slashing = dnd_engine::rules::DamageType::Slashing;
    assert!(
        defenses
            .against_attack(false)
            .resistances
            .contains(slashing)
    );
    assert!(!defenses.against_attack(true).resistances.contains(slashing));
    // Up 10 ft toward the spire, no farther.
    let moved = t.ok(
        "move_in_fight",
        json!({"creature": "isolde", "to": "rime-spire", "feet": 10}),
    );
    assert_eq!(moved["feet"], 10, "{moved}");
    let error = t.refused(
        "move_in_fight",
        json!({"creature": "isolde", "to": "rime-spire", "feet": 5}),
    );
    assert!(error.contains("movement"), "{error}");
    // No attack and no spell while a mist, whatever the turn has left.
    let before = t.state.character("isolde").unwrap().spell_slots;
    for (tool, args) in [
        (
            "cast_spell",
            cast("isolde", "Magic Missile", &["isolde"], None, Value::Null),
        ),
        ("roll_attack", table::attack("isolde", "isolde")),
    ] {
        let error = t.refused(tool, args);
        assert!(
            error.contains("cannot attack or cast spells"),
            "{tool}: {error}"
        );
    }
    assert_eq!(t.state.character("isolde").unwrap().spell_slots, before);
}

#[test]
fn meld_into_stone_puts_the_caster_beyond_every_attack_and_spell_until_it_steps_out() {
    use dnd_engine::combat::positions::cover_against;
    let state = battle(
        &[("isolde", at(0, 0, 0)), ("kraven", at(5, 0, 0))],
        &[("goblin-a", at(10, 0, 0))],
        &["Meld into Stone"],
    );
    let mut t = Table::new(state, 1);
    let error = t.refused(
        "cast_spell",
        cast("isolde", "Meld into Stone", &["kraven"], None, Value::Null),
    );
    assert!(error.contains("only its caster"), "{error}");
    t.ok(
        "cast_spell",
        cast("isolde", "Meld into Stone", &["isolde"], None, Value::Null),
    );
    let shielded = cover_against(&t.state, "goblin-a", "isolde").unwrap_err();
    assert!(shielded.to_string().contains("stone"), "{shielded}");
    assert!(cover_against(&t.state, "goblin-a", "kraven").is_ok());
    // She steps out: the spell ends, and the goblin can reach her again.
    t.ok(
        "move_in_fight",
        json!({"creature": "isolde", "to": "goblin-a", "feet": 5}),
    );
    assert!(
        t.state
            .character("isolde")
            .unwrap()
            .timed_effects
            .is_empty()
    );
    assert!(cover_against(&t.state, "goblin-a", "isolde").is_ok());
}

#[test]
fn gust_of_wind_pushes_those_in_its_line_who_fail_15_ft_away_and_slows_them() {
    let (mut pushed, mut stood) = (0, 0);
    for seed in 0..8 {
        let state = battle(
            &[("isolde", at(0, 0, 0))],
            &[("goblin-a", at(10, 0, 0)), ("goblin-b", at(20, 10, 0))],
            &["Gust of Wind"],
        );
        let mut t = Table::new(state, seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Gust of Wind", &[], Some("goblin-a"), Value::Null),
        );
        let saves: Vec<&Value> = r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["outcome"] == "save")
            .collect();
        assert_eq!(saves.len(), 1, "only the line: {r}");
        let save = saves[0];
        assert_eq!(save["target"], "goblin-a", "only the line: {r}");
        if save["save"]["success"].as_bool().unwrap() {
            stood += 1;
            assert_eq!(position(&t.state, "goblin-a"), at(10, 0, 0));
        } else {
            pushed += 1;
            assert_eq!(position(&t.state, "goblin-a"), at(25, 0, 0), "{r}");
        }
        assert_eq!(speed(&t.state, "goblin-a"), 15, "walking into the wind");
        assert_eq!(position(&t.state, "goblin-b"), at(20, 10, 0));
        assert_eq!(speed(&t.state, "goblin-b"), 30);
    }
    assert!(pushed > 0 && stood > 0, "{pushed} pushed, {stood} stood");
}
