//! Monsters' special actions through the effects engine, worked from the SRD with seeded dice:
//! a white dragon wyrmling's Cold Breath (DC 12 Constitution, 5d8 cold, half on a success,
//! rolled once for everyone), the specter's Life Drain (DC 10 Constitution or the maximum
//! drops by the necrotic damage taken), the wolf's bite (DC 11 Strength or prone), and a
//! recharge rolled at the start of the monster's next turn.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::state::{Change, Target};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Kraven and Isolde against the harpy's place taken by `template` (200 HP), in the order
/// `order`.
fn against(template: &str, order: &[&str], seed: u64) -> Table {
    let mut t = Table::fight(&["kraven", "isolde"], order, seed);
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.template = template.into();
    m.hp = HitPoints::full(200);
    for hero in ["kraven", "isolde"] {
        t.hero_mut(hero).hp = HitPoints::full(200); // nobody drops: the turns run on
    }
    t
}

/// Every object in `v` whose `key` is a list.
fn objects_with<'v>(v: &'v Value, key: &str, out: &mut Vec<&'v Value>) {
    match v {
        Value::Object(map) => {
            if map.get(key).is_some_and(Value::is_array) {
                out.push(v);
            }
            map.values().for_each(|x| objects_with(x, key, out));
        }
        Value::Array(items) => items.iter().for_each(|x| objects_with(x, key, out)),
        _ => {}
    }
}

fn rolled(t: &Table, label: &str) -> Option<i64> {
    t.log
        .rolls
        .iter()
        .find(|r| r.label == label)
        .map(|r| r.total)
}

#[test]
fn cold_breath_rolls_once_and_halves_on_a_success() {
    let (mut halves, mut fulls) = (0, 0);
    for seed in 0..20 {
        let mut t = against(
            "white-dragon-wyrmling",
            &["kraven", "frost-harpy", "isolde"],
            seed,
        );
        let r = t.ok("next_turn", json!({}));
        let mut found = Vec::new();
        objects_with(&r, "saves", &mut found);
        assert_eq!(found.len(), 1, "one breath: {r}");
        assert_eq!(found[0]["action"], "Cold Breath");
        let total = rolled(&t, "Cold Breath damage").expect("the breath's damage, rolled once");
        assert!((5..=40).contains(&total), "5d8: {total}");
        let saves = found[0]["saves"].as_array().unwrap();
        assert_eq!(saves.len(), 2, "both heroes in the breath: {r}");
        for save in saves {
            assert_eq!(save["save"]["dc"], 12, "{save}");
            let damage = save["damage"].as_i64().unwrap();
            if save["save"]["success"] == true {
                assert_eq!(damage, total / 2, "half, rounded down: {save}");
                halves += 1;
            } else {
                assert_eq!(damage, total, "{save}");
                fulls += 1;
            }
        }
        let spent = &t.state.monster("frost-harpy").unwrap().spent_actions;
        assert_eq!(spent, &vec!["Cold Breath".to_owned()]);
    }
    assert!(halves > 0 && fulls > 0, "{halves} halves, {fulls} full");
}

#[test]
fn a_spent_breath_rolls_its_recharge_at_the_start_of_the_next_turn() {
    let mut recharged = [false, false];
    for seed in 0..20 {
        let mut t = against(
            "white-dragon-wyrmling",
            &["kraven", "frost-harpy", "isolde"],
            seed,
        );
        t.ok("next_turn", json!({})); // the breath
        t.ok("next_turn", json!({})); // Isolde's turn ends, Kraven's begins
        let r = t.ok("next_turn", json!({})); // the dragon again
        let events = r["monster_turns"].as_array().unwrap();
        let first = &events[0];
        assert_eq!(first["recharge"]["action"], "Cold Breath", "{r}");
        let back = first["recharge"]["recharged"] == true;
        assert_eq!(back, first["recharge"]["roll"].as_i64().unwrap() >= 5);
        let mut breaths = Vec::new();
        objects_with(&r, "saves", &mut breaths);
        // Recharged, it breathes again (and spends it again); else it bites.
        assert_eq!(!breaths.is_empty(), back, "{r}");
        recharged[usize::from(back)] = true;
    }
    assert_eq!(recharged, [true, true], "both outcomes over 20 seeds");
}

#[test]
fn life_drain_lowers_the_maximum_by_the_damage_on_a_failed_save() {
    let (mut drained, mut resisted) = (0, 0);
    for seed in 0..40 {
        let mut t = against("specter", &["frost-harpy", "kraven", "isolde"], seed);
        let max = t.state.character("kraven").unwrap().hp.max;
        let r = t.ok(
            "roll_attack",
            json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Life Drain", "advantage": null}),
        );
        let swing = &r["attacks"][0];
        let after = t.state.character("kraven").unwrap();
        if swing["result"]["hit"] != true {
            assert!(swing.get("on_hit_save").is_none(), "{swing}");
            assert_eq!(after.hp.max, max);
            continue;
        }
        let taken = swing["result"]["total_damage"].as_u64().unwrap() as u32;
        let save = &swing["on_hit_save"];
        assert_eq!(save["save"]["dc"], 10, "{swing}");
        if save["save"]["success"] == true {
            assert_eq!(after.hp.max, max, "a success keeps the maximum");
            resisted += 1;
        } else {
            assert_eq!(after.hp.max, max - taken, "lowered by the damage taken");
            assert_eq!(after.hp_drained, taken);
            assert!(after.hp.current <= after.hp.max);
            drained += 1;
        }
    }
    assert!(
        drained > 0 && resisted > 0,
        "{drained} drained, {resisted} resisted"
    );
}

#[test]
fn a_wolf_bite_knocks_prone_on_a_failed_strength_save() {
    let mut prone = 0;
    for seed in 0..40 {
        let mut t = against("wolf", &["frost-harpy", "kraven", "isolde"], seed);
        let r = t.ok("roll_attack", table::attack("frost-harpy", "kraven"));
        let swing = &r["attacks"][0];
        let down = t
            .state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Prone);
        if swing["result"]["hit"] != true {
            assert!(!down);
            continue;
        }
        let save = &swing["on_hit_save"];
        assert_eq!(save["save"]["dc"], 11, "{swing}");
        assert_eq!(down, save["save"]["success"] == false, "{swing}");
        prone += usize::from(down);
    }
    assert!(prone > 0, "some of the bites knock Kraven down");
}

#[test]
fn a_bite_on_a_hero_already_prone_adds_nothing() {
    for seed in 0..40 {
        let mut t = against("wolf", &["frost-harpy", "kraven", "isolde"], seed);
        t.apply(&[Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: Condition::Prone,
        }]);
        let r = t.ok("roll_attack", table::attack("frost-harpy", "kraven"));
        let save = &r["attacks"][0]["on_hit_save"];
        if save["save"]["success"] == false {
            assert_eq!(save["effect"], json!([]), "already prone: {save}");
            return;
        }
    }
    panic!("no failed save in 40 seeds");
}

/// A model that makes the dragon "attack" with its breath, through a whole scripted turn: the
/// breath makes no attack roll, so the call is refused with the attacks it has, and nothing
/// is spent or dealt.
#[tokio::test]
async fn a_breath_named_as_an_attack_is_refused() {
    let before = against(
        "white-dragon-wyrmling",
        &["frost-harpy", "kraven", "isolde"],
        1,
    )
    .state;
    let calls = vec![dnd_engine::llm::ToolCall::new(
        "a",
        "roll_attack",
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Cold Breath", "advantage": null}),
    )];
    let played = table::scripted_turn(&before, calls, "Kraven", "The dragon breathes!").await;
    let result = &played.results[0];
    assert!(result.contains("makes no attack roll"), "{result}");
    assert!(result.contains("Bite"), "the attacks it has: {result}");
    let (was, now) = (
        before.character("kraven").unwrap(),
        played.after.character("kraven").unwrap(),
    );
    assert_eq!(now.hp, was.hp);
    assert!(
        played
            .after
            .monster("frost-harpy")
            .unwrap()
            .spent_actions
            .is_empty()
    );
}
