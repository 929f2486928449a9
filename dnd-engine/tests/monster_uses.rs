//! How often a monster may use an action, counted in the state through `Change`s and refused
//! when spent: the knight's Leadership once per short rest (the SRD: for 1 minute, a d4 on the
//! attack rolls and saves of the allies within 30 ft), an action of uses a day, and a spent
//! recharge attack named by a model.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::combat::monster_plan::{self, Plan};
use dnd_engine::rules::HitPoints;
use dnd_engine::srd::{ActionUsage, MonsterAction, Srd};
use dnd_engine::state::{Change, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Kraven against a knight (the harpy's place) and a goblin beside it, in the order `order`.
fn knight_and_goblin(order: &[&str], seed: u64) -> Table {
    let mut t = Table::new(table::seen_harpy(&["kraven"]), seed);
    let monsters = Arc::make_mut(&mut t.state.monsters);
    monsters[0].template = "knight".into();
    monsters[0].hp = HitPoints::full(52);
    let mut goblin = monsters[0].clone();
    goblin.id = "goblin".into();
    goblin.name = "Goblin".into();
    goblin.template = "goblin".into();
    goblin.hp = HitPoints::full(7);
    monsters.push(goblin);
    t.hero_mut("kraven").hp = HitPoints::full(200);
    t.apply(&[Change::EncounterStarted {
        order: table::order(order),
    }]);
    t
}

#[test]
fn the_knights_leadership_blesses_its_allies_once_until_it_rests() {
    let mut t = knight_and_goblin(&["kraven", "frost-harpy", "goblin"], 3);
    let all = |_: &str| true;
    let plan = monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all).unwrap();
    assert_eq!(
        plan,
        Plan::Support {
            action: "Leadership".into(),
            allies: vec!["goblin".into()]
        }
    );
    let r = t.ok("next_turn", json!({}));
    assert_eq!(r["monster_turns"][0]["uses"], "Leadership", "{r}");
    let goblin = t.state.monster("goblin").unwrap();
    let lead = &goblin.timed_effects[0];
    assert_eq!(
        (lead.spell.as_str(), lead.rounds_left),
        ("Leadership", Some(10))
    );
    assert!(matches!(
        lead.kind,
        TimedKind::RollDice {
            count: 1,
            sides: 4,
            attacks: true,
            saves: true,
            checks: false,
            penalty: false,
            next_only: false
        }
    ));
    let knight = t.state.monster("frost-harpy").unwrap();
    assert_eq!(knight.spent_actions, vec!["Leadership".to_owned()]);
    // Spent, it fights with its greatsword; the state refuses a second use.
    let plan = monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all).unwrap();
    assert!(
        matches!(plan, Plan::Attack { ref action, .. } if action == "Multiattack"),
        "{plan:?}"
    );
    let again = Change::ActionSpent {
        monster: "frost-harpy".into(),
        action: "Leadership".into(),
    };
    assert!(t.state.apply(&again).is_err());
    // A short rest's hour gives it back.
    t.apply(&[Change::TimeAdvanced { minutes: 60 }]);
    assert!(
        t.state
            .monster("frost-harpy")
            .unwrap()
            .spent_actions
            .is_empty()
    );
}

#[test]
fn leadership_alone_is_no_plan_it_attacks() {
    let mut t = knight_and_goblin(&["kraven", "frost-harpy", "goblin"], 3);
    let monsters = Arc::make_mut(&mut t.state.monsters);
    let goblin = monsters.iter_mut().find(|m| m.id == "goblin").unwrap();
    goblin.hp.current = 0; // the goblin is down
    let all = |_: &str| true;
    let plan = monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all).unwrap();
    assert!(matches!(plan, Plan::Attack { .. }), "{plan:?}");
}

#[test]
fn an_action_of_uses_a_day_is_counted_and_refused_when_spent() {
    let mut t = knight_and_goblin(&["kraven", "frost-harpy", "goblin"], 3);
    let mut gaze = Srd::bundled().monster("knight").unwrap().actions[1].clone();
    gaze.name = "Dread Gaze".into();
    gaze.usage = Some(ActionUsage::PerDay { times: 2 });
    let spend = monster_plan::spend("frost-harpy", &gaze);
    assert_eq!(
        spend,
        vec![Change::UseSpent {
            monster: "frost-harpy".into(),
            pool: "Dread Gaze".into(),
            of: 2
        }]
    );
    let usable = |t: &Table, a: &MonsterAction| {
        monster_plan::usable(t.state.monster("frost-harpy").unwrap(), a)
    };
    t.apply(&spend);
    assert!(usable(&t, &gaze), "one of two used");
    t.apply(&spend);
    assert!(!usable(&t, &gaze), "both used");
    let refused = t.state.apply(&spend[0]).unwrap_err().to_string();
    assert!(refused.contains("all 2 of its Dread Gaze"), "{refused}");
    // An hour is not a day; eight hours are.
    t.apply(&[Change::TimeAdvanced { minutes: 60 }]);
    assert!(!usable(&t, &gaze));
    t.apply(&[Change::TimeAdvanced { minutes: 8 * 60 }]);
    assert!(usable(&t, &gaze));
}

/// A model that has the giant spider shoot its Web again while it waits to recharge, through a
/// whole scripted turn: refused with the attacks it may make, nothing spent or rolled.
#[tokio::test]
async fn a_spent_web_named_by_a_model_is_refused() {
    let mut t = Table::fight(&["kraven"], &["frost-harpy", "kraven"], 1);
    Arc::make_mut(&mut t.state.monsters)[0].template = "giant-spider".into();
    t.apply(&[Change::ActionSpent {
        monster: "frost-harpy".into(),
        action: "Web".into(),
    }]);
    let before = t.state.clone();
    let calls = vec![dnd_engine::llm::ToolCall::new(
        "a",
        "roll_attack",
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Web", "advantage": null}),
    )];
    let played = table::scripted_turn(&before, calls, "Kraven", "It spits another web!").await;
    let result = &played.results[0];
    assert!(result.contains("Web is spent"), "{result}");
    assert!(result.contains("attack with: Bite"), "{result}");
    assert_eq!(
        played.after.character("kraven").unwrap().conditions,
        before.character("kraven").unwrap().conditions
    );
    // Unspent, the same call is made, and the Web is spent by it.
    let mut fresh = Table::fight(&["kraven"], &["frost-harpy", "kraven"], 1);
    Arc::make_mut(&mut fresh.state.monsters)[0].template = "giant-spider".into();
    fresh.ok(
        "roll_attack",
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Web", "advantage": null}),
    );
    let spider = fresh.state.monster("frost-harpy").unwrap();
    assert_eq!(spider.spent_actions, vec!["Web".to_owned()]);
}
