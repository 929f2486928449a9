//! The rogue's features through the tools, worked as the SRD gives them: Sneak Attack (added by
//! the engine, never the model: a finesse or ranged hit with advantage, or with another enemy
//! of the target beside it and no disadvantage; once a turn, on any turn; doubled on a
//! critical), Cunning Action (Dash, Disengage or Hide as a bonus action) and the Thief's Fast
//! Hands, Uncanny Dodge (the reaction that halves a hit); and a model that cheats with them,
//! refused each time with what is allowed, changing nothing.

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::state::Change;

#[path = "support/table.rs"]
mod table;
use table::{Table, attack};

/// `attacker`'s attack at the harpy with `weapon` and `advantage` (null for none).
fn strike(attacker: &str, weapon: &str, advantage: Value) -> Value {
    json!({"attacker": attacker, "target": "frost-harpy", "attack": weapon, "advantage": advantage})
}

/// The first swing of an attack report.
fn swing(report: &Value) -> &Value {
    &report["attacks"][0]
}

fn hit(report: &Value) -> bool {
    swing(report)["result"]["hit"].as_bool().unwrap()
}

/// The first seed in 0..300 for which `play` holds.
fn seed_where(play: impl Fn(u64) -> bool) -> u64 {
    (0..300).find(|s| play(*s)).expect("a seed in 300")
}

/// Wren (rogue 3) and Kraven against the harpy, Wren's turn; no positions are kept in this
/// room, so Kraven stands within 5 ft of the harpy.
fn wren_and_kraven(seed: u64) -> Table {
    Table::fight(
        &["wren", "kraven"],
        &["wren", "kraven", "frost-harpy"],
        seed,
    )
}

#[test]
fn sneak_attack_adds_2d6_with_an_ally_beside_the_target_once_a_turn() {
    // Two hits in one turn: the second action as a fighter's Action Surge would give it.
    let both_hit = |s| {
        let mut t = wren_and_kraven(s);
        let first = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
        t.apply(&[Change::ActionSurged {
            character: "wren".into(),
        }]);
        let second = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
        hit(&first) && hit(&second)
    };
    let mut t = wren_and_kraven(seed_where(both_hit));
    let first = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
    let s = swing(&first);
    assert_eq!(
        s["sneak_attack"], "Sneak Attack: +2d6 piercing (Kraven is within 5 ft of the target)",
        "{first}"
    );
    // The shortsword's 1d6 + 3, then the 2d6 of a 3rd-level rogue.
    let damage = s["result"]["damage"].as_array().unwrap();
    assert_eq!(damage.len(), 2, "{s}");
    assert_eq!(damage[1]["dice"], "2d6");
    assert_eq!(damage[1]["faces"].as_array().unwrap().len(), 2);
    let total: u64 = damage.iter().map(|d| d["taken"].as_u64().unwrap()).sum();
    assert_eq!(s["result"]["total_damage"].as_u64().unwrap(), total);

    t.apply(&[Change::ActionSurged {
        character: "wren".into(),
    }]);
    let second = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
    let s = swing(&second);
    assert_eq!(
        s["sneak_attack"],
        "no Sneak Attack: already dealt once this turn"
    );
    assert_eq!(s["result"]["damage"].as_array().unwrap().len(), 1);
}

#[test]
fn sneak_attack_needs_advantage_or_an_ally_and_no_disadvantage() {
    // Wren alone: no ally beside the harpy. A plain attack has no opening.
    let mut t = Table::fight(&["wren"], &["wren", "frost-harpy"], 3);
    let plain = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
    assert_eq!(
        swing(&plain)["sneak_attack"],
        "no Sneak Attack: no advantage and no ally within 5 ft of the target"
    );
    // With advantage, a hit sneaks.
    let seed = seed_where(|s| {
        let mut t = Table::fight(&["wren"], &["wren", "frost-harpy"], s);
        hit(&t.ok(
            "roll_attack",
            strike("wren", "Shortsword", json!("advantage")),
        ))
    });
    let mut t = Table::fight(&["wren"], &["wren", "frost-harpy"], seed);
    let sneaky = t.ok(
        "roll_attack",
        strike("wren", "Shortsword", json!("advantage")),
    );
    assert_eq!(
        swing(&sneaky)["sneak_attack"],
        "Sneak Attack: +2d6 piercing (advantage)"
    );
    // Kraven beside the harpy, but the attack has disadvantage: none.
    let mut t = wren_and_kraven(3);
    let hampered = t.ok(
        "roll_attack",
        strike("wren", "Shortsword", json!("disadvantage")),
    );
    assert_eq!(
        swing(&hampered)["sneak_attack"],
        "no Sneak Attack: the attack has disadvantage"
    );
    // An incapacitated ally opens nothing.
    let mut t = wren_and_kraven(3);
    t.hero_mut("kraven").hp.current = 0;
    let alone = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
    assert!(
        swing(&alone)["sneak_attack"]
            .as_str()
            .unwrap()
            .contains("no ally within 5 ft"),
        "{alone}"
    );
    // A fighter's attack says nothing of Sneak Attack.
    let mut t = Table::fight(&["kraven", "wren"], &["kraven", "wren", "frost-harpy"], 3);
    let fighter = t.ok("roll_attack", attack("kraven", "frost-harpy"));
    assert!(swing(&fighter).get("sneak_attack").is_none(), "{fighter}");
}

#[test]
fn a_critical_sneak_attack_doubles_its_dice() {
    let crit = |s| {
        let mut t = wren_and_kraven(s);
        let r = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
        swing(&r)["result"]["critical"] == true
    };
    let mut t = wren_and_kraven(seed_where(crit));
    let r = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
    let damage = swing(&r)["result"]["damage"].as_array().unwrap().clone();
    assert_eq!(damage[1]["dice"], "2d6");
    assert_eq!(damage[1]["faces"].as_array().unwrap().len(), 4, "{r}");
}

#[test]
fn a_readied_attack_on_another_turn_may_sneak_again() {
    // Wren sneaks on her turn, then readies an attack (her second action, as Action Surge
    // would give); on the harpy's turn the readied shot sneaks again: once a turn, any turn.
    let play = |s| -> (Table, Value, Value) {
        let mut t = wren_and_kraven(s);
        let own = t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
        t.apply(&[Change::ActionSurged {
            character: "wren".into(),
        }]);
        t.ok(
            "ready_action",
            json!({"creature": "wren", "trigger": "the harpy swoops", "attack": "Shortsword", "target": "frost-harpy"}),
        );
        t.apply(&[Change::TurnAdvanced, Change::TurnAdvanced]);
        assert_eq!(t.turn_of(), "frost-harpy");
        let readied = t.ok(
            "trigger_readied",
            json!({"creature": "wren", "triggered_by": "frost-harpy"}),
        );
        (t, own, readied)
    };
    let seed = seed_where(|s| {
        let (_, own, readied) = play(s);
        hit(&own) && hit(&readied["attack"])
    });
    let (_, own, readied) = play(seed);
    assert!(
        swing(&own)["sneak_attack"]
            .as_str()
            .unwrap()
            .starts_with("Sneak Attack: +2d6"),
        "{own}"
    );
    assert!(
        swing(&readied["attack"])["sneak_attack"]
            .as_str()
            .unwrap()
            .starts_with("Sneak Attack: +2d6"),
        "{readied}"
    );
}

/// A scripted model tries to add Sneak Attack itself: an argument roll_attack does not take,
/// and use_feature on a feature the engine applies; both refused, and the plain attack that
/// follows gets the engine's Sneak Attack.
#[tokio::test]
async fn a_model_cannot_add_sneak_attack_itself() {
    let before = table::fight(&["wren", "kraven"], &["wren", "kraven", "frost-harpy"]);
    let mut cheat = strike("wren", "Shortsword", Value::Null);
    cheat["sneak_attack"] = json!(true);
    let calls = vec![
        ToolCall::new("a", "roll_attack", cheat),
        ToolCall::new(
            "b",
            "use_feature",
            json!({"character": "wren", "feature": "sneak-attack"}),
        ),
        ToolCall::new(
            "c",
            "roll_attack",
            strike("wren", "Shortsword", Value::Null),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Wren", "I stab the harpy!").await;
    assert_eq!(results.len(), 3, "{results:#?}");
    assert!(results[0].contains("unknown field"), "{}", results[0]);
    assert!(
        results[1].contains("Sneak Attack is not used through use_feature"),
        "{}",
        results[1]
    );
    assert!(results[2].contains("Sneak Attack"), "{}", results[2]);
    assert!(after.character("wren").unwrap().feature_uses.is_empty());
}

fn cunning(who: &str, option: &str, target: Value) -> Value {
    json!({"character": who, "feature": "cunning-action", "option": option, "target": target})
}

fn budget(t: &Table) -> dnd_engine::rules::TurnBudget {
    t.state.encounter.as_ref().unwrap().budget
}

#[test]
fn cunning_action_dashes_disengages_or_hides_with_the_bonus_action() {
    // Attack with the action, then Dash with the bonus action: 30 ft more this turn.
    let mut t = wren_and_kraven(4);
    t.ok("roll_attack", strike("wren", "Shortsword", Value::Null));
    let report = t.ok("use_feature", cunning("wren", "dash", Value::Null));
    assert_eq!(report["feature"], "Cunning Action");
    assert!(
        report["effect"]
            .as_str()
            .unwrap()
            .contains("(bonus action)"),
        "{report}"
    );
    let b = budget(&t);
    assert!(b.action_used && b.bonus_action_used);
    assert_eq!(b.extra_movement_ft, 30);
    // One bonus action a turn.
    let again = t.refused("use_feature", cunning("wren", "disengage", Value::Null));
    assert!(
        again.contains("has already used the bonus action this turn"),
        "{again}"
    );

    // Disengage with the bonus action, keeping the action.
    let mut t = wren_and_kraven(4);
    t.ok("use_feature", cunning("wren", "Disengage", Value::Null));
    let b = budget(&t);
    assert!(b.disengaged && b.bonus_action_used && !b.action_used);

    // Hide: a Stealth check against the harpy's passive Perception, with the bonus action.
    let mut t = wren_and_kraven(4);
    let hid = t.ok("use_feature", cunning("wren", "hide", Value::Null));
    assert!(
        hid["rolled"].as_str().unwrap().starts_with("Stealth "),
        "{hid}"
    );
    let b = budget(&t);
    assert!(b.bonus_action_used && !b.action_used);
    let hidden = dnd_engine::combat::is_hidden(&t.state, "wren");
    assert_eq!(
        hidden,
        hid["effect"].as_str().unwrap().contains(" hides "),
        "{hid}"
    );
}

#[test]
fn fast_hands_uses_an_object_or_thieves_tools_with_the_bonus_action() {
    let mut t = wren_and_kraven(4);
    {
        let exit = &mut std::sync::Arc::make_mut(&mut t.state.locations)[0].exits[0];
        exit.locked = true;
        exit.unlock_dc = Some(2);
    }
    let used = t.ok(
        "use_feature",
        cunning("wren", "use_object", json!("the winch lever")),
    );
    assert!(
        used["effect"]
            .as_str()
            .unwrap()
            .contains("uses the winch lever"),
        "{used}"
    );
    assert!(budget(&t).bonus_action_used && !budget(&t).action_used);

    // Next round, on Wren's turn: the lock (DC 2) picked with the bonus action.
    t.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    assert_eq!(t.turn_of(), "wren");
    let picked = t.ok(
        "use_feature",
        json!({"character": "wren", "feature": "fast-hands", "option": "thieves_tools", "target": "east"}),
    );
    assert!(
        picked["effect"].as_str().unwrap().contains("opens it"),
        "{picked}"
    );
    assert!(!t.state.locations[0].exits[0].locked);
    assert!(budget(&t).bonus_action_used && !budget(&t).action_used);
}

#[test]
fn cunning_action_refuses_what_the_rogue_may_not_do() {
    let mut t = wren_and_kraven(4);
    let before = t.state.clone();
    let bare = t.refused(
        "use_feature",
        json!({"character": "wren", "feature": "cunning-action"}),
    );
    assert!(
        bare.contains(
            "needs an option: dash, disengage, hide, use_object (target: the object used), thieves_tools (target: the locked exit, or a trap the party has found)"
        ),
        "{bare}"
    );
    let dodge = t.refused("use_feature", cunning("wren", "dodge", Value::Null));
    assert!(dodge.contains("needs an option: dash"), "{dodge}");
    let aimed = t.refused("use_feature", cunning("wren", "dash", json!("kraven")));
    assert!(aimed.contains("dash takes no target"), "{aimed}");
    let no_object = t.refused("use_feature", cunning("wren", "use_object", Value::Null));
    assert!(
        no_object.contains("needs a target: the object used"),
        "{no_object}"
    );
    // A rogue of 2nd level has Cunning Action but no Fast Hands (the Thief's, at 3rd).
    t.hero_mut("wren").level = 2;
    let slow = t.refused(
        "use_feature",
        cunning("wren", "use_object", json!("the lever")),
    );
    assert!(slow.contains("needs Fast Hands"), "{slow}");
    assert!(
        slow.contains("options: dash, disengage, hide") && !slow.contains("use_object ("),
        "{slow}"
    );
    t.hero_mut("wren").level = 1;
    let low = t.refused("use_feature", cunning("wren", "dash", Value::Null));
    assert!(low.contains("comes at rogue level 2"), "{low}");
    t.hero_mut("wren").level = 3;
    assert_eq!(t.state, before);
}

/// A scripted model plays Cunning Action wrongly: for the fighter, out of Wren's turn, twice
/// in one turn; only the lawful Dash changes anything.
#[tokio::test]
async fn a_model_cheating_with_cunning_action_is_refused() {
    let before = table::fight(&["wren", "kraven"], &["kraven", "wren", "frost-harpy"]);
    let calls = vec![
        ToolCall::new("a", "use_feature", cunning("kraven", "dash", Value::Null)),
        ToolCall::new("b", "use_feature", cunning("wren", "dash", Value::Null)),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Wren", "I dart away!").await;
    assert!(results[0].contains("has no feature"), "{}", results[0]);
    assert!(results[1].contains("it is Kraven's turn"), "{}", results[1]);
    assert_eq!(after.encounter, before.encounter);

    let before = table::fight(&["wren", "kraven"], &["wren", "kraven", "frost-harpy"]);
    let calls = vec![
        ToolCall::new("a", "use_feature", cunning("wren", "dash", Value::Null)),
        ToolCall::new("b", "use_feature", cunning("wren", "hide", Value::Null)),
        ToolCall::new("c", "use_feature", cunning("wren", "fly", Value::Null)),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Wren", "I dash and hide!").await;
    assert!(results[0].contains("(bonus action)"), "{}", results[0]);
    assert!(
        results[1].contains("has already used the bonus action"),
        "{}",
        results[1]
    );
    assert!(results[2].contains("needs an option"), "{}", results[2]);
    let b = after.encounter.as_ref().unwrap().budget;
    assert_eq!((b.bonus_action_used, b.extra_movement_ft), (true, 30));
    assert!(!dnd_engine::combat::is_hidden(&after, "wren"));
}

/// The harpy's turn against Wren at `level`, dice `seed`: its whole attack at her.
fn harpy_strikes_wren(seed: u64, level: u8) -> (Table, Value) {
    let mut t = Table::fight(
        &["wren", "kraven"],
        &["frost-harpy", "wren", "kraven"],
        seed,
    );
    t.hero_mut("wren").level = level;
    let report = t.ok("roll_attack", attack("frost-harpy", "wren"));
    (t, report)
}

/// The swings of a report that hit.
fn hits(report: &Value) -> Vec<&Value> {
    report["attacks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["result"]["hit"] == true)
        .collect()
}

#[test]
fn uncanny_dodge_halves_the_first_hit_with_the_reaction() {
    // A seed where both of the harpy's swings hit: the first is halved, the second is not
    // (one reaction a round).
    let seed = seed_where(|s| hits(&harpy_strikes_wren(s, 5).1).len() == 2);
    let (t, report) = harpy_strikes_wren(seed, 5);
    let swings = hits(&report);
    let dodge = &swings[0]["reaction"];
    assert_eq!(dodge["reaction"], "Uncanny Dodge", "{report}");
    assert_eq!(dodge["by"], "Wren Ashdown");
    let rolled: u64 = swings[0]["result"]["damage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["taken"].as_u64().unwrap())
        .sum();
    let halved = swings[0]["result"]["total_damage"].as_u64().unwrap();
    assert_eq!(halved, rolled / 2, "{report}");
    assert!(swings[1].get("reaction").is_none(), "{report}");
    let second = swings[1]["result"]["total_damage"].as_u64().unwrap();
    let wren = t.state.character("wren").unwrap();
    assert_eq!(
        u64::from(wren.hp.max - wren.hp.current),
        halved + second,
        "{report}"
    );
    assert!(!t.state.encounter.as_ref().unwrap().has_reaction("wren"));

    // The same dice at 3rd level: no Uncanny Dodge, the hit lands whole.
    let (t3, report3) = harpy_strikes_wren(seed, 3);
    assert!(hits(&report3)[0].get("reaction").is_none(), "{report3}");
    assert_eq!(
        hits(&report3)[0]["result"]["total_damage"]
            .as_u64()
            .unwrap(),
        rolled
    );
    assert!(t3.state.encounter.as_ref().unwrap().has_reaction("wren"));

    // Blinded, Wren cannot see the harpy: no dodge.
    let mut t = Table::fight(
        &["wren", "kraven"],
        &["frost-harpy", "wren", "kraven"],
        seed,
    );
    t.hero_mut("wren").level = 5;
    t.apply(&[Change::ConditionAdded {
        target: dnd_engine::state::Target::Character("wren".into()),
        condition: dnd_engine::rules::Condition::Blinded,
    }]);
    let blind = t.ok("roll_attack", attack("frost-harpy", "wren"));
    assert!(
        blind["attacks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("reaction").is_none()),
        "{blind}"
    );
}

/// A scripted model tries to spend Uncanny Dodge itself: too low a level, then (at 5th) a
/// feature the engine uses when the hit comes; nothing changes.
#[tokio::test]
async fn a_model_cannot_play_uncanny_dodge_itself() {
    let mut before = table::fight(&["wren", "kraven"], &["frost-harpy", "wren", "kraven"]);
    let dodge = json!({"character": "wren", "feature": "uncanny-dodge"});
    let calls = vec![ToolCall::new("a", "use_feature", dodge.clone())];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Wren", "I duck!").await;
    assert!(
        results[0].contains("comes at rogue level 5; Wren Ashdown is level 3"),
        "{}",
        results[0]
    );
    assert_eq!(after.encounter, before.encounter);
    table::hero_mut(&mut before, "wren").level = 5;
    let calls = vec![ToolCall::new("a", "use_feature", dodge)];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Wren", "I duck!").await;
    assert!(
        results[0].contains("Uncanny Dodge is not used through use_feature"),
        "{}",
        results[0]
    );
    assert!(after.encounter.as_ref().unwrap().has_reaction("wren"));
}

/// The offline game master plays Wren's attack with Kraven beside the harpy: the engine adds
/// Sneak Attack on the hit, and the narration tells it.
#[tokio::test]
async fn the_offline_game_master_lands_sneak_attacks_for_wren() {
    let state = table::fight(&["wren", "kraven"], &["wren", "kraven", "frost-harpy"]);
    let (gm, _, id) = table::offline(&state).await;
    let outcome = gm
        .turn(
            &id,
            dnd_engine::gm::PlayerInput::new("Wren", "I stab the harpy with my shortsword."),
        )
        .await
        .unwrap();
    let sneaked = outcome.changes.iter().any(|c| {
        matches!(
            c,
            Change::EffectStarted { effect }
                if effect.creature == "wren"
                    && matches!(effect.kind, dnd_engine::state::EffectKind::SneakAttacked { .. })
        )
    });
    assert!(sneaked, "{:#?}\n{}", outcome.changes, outcome.narration);
    assert!(
        outcome.narration.contains("(Sneak Attack)"),
        "{}",
        outcome.narration
    );
}

/// Alone with the harpy, the offline game master has Wren hide with her bonus action before
/// she strikes: unseen, her attack has advantage and sneaks.
#[tokio::test]
async fn the_offline_game_master_hides_wren_first_when_she_fights_alone() {
    let state = table::fight(&["wren"], &["wren", "frost-harpy"]);
    let (gm, _, id) = table::offline(&state).await;
    let outcome = gm
        .turn(
            &id,
            dnd_engine::gm::PlayerInput::new("Wren", "I attack the harpy."),
        )
        .await
        .unwrap();
    let hid = outcome.changes.iter().any(|c| {
        matches!(
            c,
            Change::EffectStarted { effect }
                if matches!(effect.kind, dnd_engine::state::EffectKind::Hidden { .. })
        )
    });
    assert!(hid, "{:#?}\n{}", outcome.changes, outcome.narration);
    let bonus = outcome.changes.iter().any(|c| {
        matches!(
            c,
            Change::Spent {
                spend: dnd_engine::rules::Spend::BonusAction,
                ..
            }
        )
    });
    assert!(bonus, "{:#?}", outcome.changes);
    assert!(
        outcome.narration.contains("(Sneak Attack)"),
        "{}",
        outcome.narration
    );
}
