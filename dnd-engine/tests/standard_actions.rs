//! The standard actions worked through the tools as the SRD's "Actions in Combat" gives them:
//! Dash, Disengage, Dodge, Help, Hide, Ready, Search, Use an Object, Grapple (and escaping it),
//! Shove and standing up from prone, and first aid on the dying; each spends what the rules say, its effect lasts as long
//! as they say, and the attacks, checks and saves that follow read it.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::state::{Change, Effect, EffectKind, Target};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack};

impl Table {
    fn effects(&self) -> Vec<Effect> {
        self.state.encounter.as_ref().unwrap().effects.clone()
    }

    fn has(&self, creature: &str, pick: fn(&EffectKind) -> bool) -> bool {
        self.effects()
            .iter()
            .any(|e| e.creature == creature && pick(&e.kind))
    }

    /// Ends turns with the change (no monster plays) until it is `id`'s.
    fn advance_to(&mut self, id: &str) {
        for _ in 0..10 {
            if self.state.encounter.as_ref().unwrap().current() == Some(id) {
                return;
            }
            self.apply(&[Change::TurnAdvanced]);
        }
        panic!("{id} never got a turn");
    }
}

/// Kraven and Isolde against the harpy, Isolde first, and she helps Kraven: against `foe`, or
/// with a check.
fn isolde_helps_kraven(foe: Option<&str>) -> Table {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["isolde", "kraven", "frost-harpy"],
        3,
    );
    t.ok(
        "help",
        json!({"helper": "isolde", "ally": "kraven", "target": foe}),
    );
    t
}

fn who(creature: &str) -> Value {
    json!({ "creature": creature })
}

fn reasons(result: &Value) -> String {
    result["attacks"][0]["advantage_reasons"].to_string()
}

fn dodging(k: &EffectKind) -> bool {
    *k == EffectKind::Dodging
}

fn hidden(k: &EffectKind) -> bool {
    matches!(k, EffectKind::Hidden { .. })
}

fn helped(k: &EffectKind) -> bool {
    matches!(k, EffectKind::Helped { .. })
}

#[test]
fn dash_gives_movement_equal_to_speed_and_takes_the_action() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
    t.ok("dash", who("kraven"));
    let budget = t.state.encounter.as_ref().unwrap().budget;
    assert!(budget.action_used);
    assert_eq!(budget.movement_left(30), 60);
    let error = t.refused("dash", who("kraven"));
    assert!(error.contains("already used the action"), "{error}");
    assert!(error.contains("60 ft of movement"), "{error}");
}

#[test]
fn disengage_marks_the_turn_for_opportunity_attacks() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
    t.ok("disengage", who("kraven"));
    assert!(t.state.encounter.as_ref().unwrap().budget.disengaged);
    t.apply(&[Change::TurnAdvanced, Change::TurnAdvanced]);
    assert!(
        !t.state.encounter.as_ref().unwrap().budget.disengaged,
        "a fresh turn"
    );
}

#[test]
fn dodge_imposes_disadvantage_and_grants_dex_save_advantage_until_its_next_turn() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 2);
    t.ok("dodge", who("kraven"));
    assert!(t.has("kraven", dodging));
    t.advance_to("frost-harpy");
    let swing = t.ok(
        "roll_attack",
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Claws", "advantage": null}),
    );
    assert!(reasons(&swing).contains("target is dodging"), "{swing}");
    let save = t.ok(
        "roll_saving_throw",
        json!({"creature": "kraven", "ability": "dexterity", "dc": 12, "advantage": null, "reason": null}),
    );
    assert!(save["advantage_reasons"].to_string().contains("dodging"));
    let wis = t.ok(
        "roll_saving_throw",
        json!({"creature": "kraven", "ability": "wisdom", "dc": 12, "advantage": null, "reason": null}),
    );
    assert!(!wis["advantage_reasons"].to_string().contains("dodging"));
    // The start of Kraven's next turn ends it.
    t.advance_to("kraven");
    assert!(!t.has("kraven", dodging));
}

#[test]
fn dodge_is_lost_when_incapacitated() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 2);
    t.ok("dodge", who("kraven"));
    t.apply(&[Change::ConditionAdded {
        target: Target::Character("kraven".into()),
        condition: Condition::Stunned,
    }]);
    assert!(t.effects().is_empty(), "{:?}", t.effects());
}

#[test]
fn help_gives_advantage_on_the_next_attack_against_the_foe_then_is_spent() {
    let mut t = isolde_helps_kraven(Some("frost-harpy"));
    assert!(t.has("kraven", helped));
    t.advance_to("kraven");
    let first = t.ok("roll_attack", attack("kraven", "frost-harpy"));
    assert!(reasons(&first).contains("helped by Isolde Vane"), "{first}");
    assert!(!t.has("kraven", helped), "the help is spent by the attack");
}

#[test]
fn help_with_a_check_is_spent_by_the_check_or_ends_at_the_helpers_next_turn() {
    let mut t = isolde_helps_kraven(None);
    let check = t.ok(
        "roll_skill_check",
        json!({"creature": "kraven", "skill": "athletics", "dc": 10, "advantage": null, "reason": null}),
    );
    assert!(
        check["advantage_reasons"]
            .to_string()
            .contains("helped by Isolde Vane")
    );
    assert!(!t.has("kraven", helped));
    // Unused, it ends when Isolde's next turn starts.
    let mut t = isolde_helps_kraven(None);
    t.advance_to("kraven");
    assert!(t.has("kraven", helped));
    t.advance_to("frost-harpy");
    t.advance_to("isolde");
    assert!(!t.has("kraven", helped));
}

#[test]
fn hide_against_passive_perception_then_the_attack_has_advantage_and_reveals() {
    // Over several seeds: hidden exactly when Stealth reaches the harpy's passive Perception
    // (10); a hidden attacker has advantage, and its attack reveals it.
    let mut hid = 0;
    for seed in 0..12 {
        let mut t = Table::fight(&["wren"], &["wren", "frost-harpy"], seed);
        let r = t.ok("hide", who("wren"));
        let total = r["check"]["total"].as_i64().unwrap();
        assert_eq!(r["success"].as_bool().unwrap(), total >= 10, "{r}");
        assert_eq!(t.has("wren", hidden), total >= 10);
        if total < 10 {
            continue;
        }
        hid += 1;
        t.advance_to("frost-harpy");
        let against = t.ok(
            "roll_attack",
            json!({"attacker": "frost-harpy", "target": "wren", "attack": "Claws", "advantage": null}),
        );
        assert!(reasons(&against).contains("target is hidden"), "{against}");
        t.advance_to("wren");
        let by = t.ok("roll_attack", attack("wren", "frost-harpy"));
        assert!(reasons(&by).contains("attacker is hidden"), "{by}");
        assert!(!t.has("wren", hidden), "the attack reveals her");
    }
    assert!(
        hid > 0,
        "Stealth +7 against 10 should hide at least once in 12"
    );
}

#[test]
fn search_finds_a_hidden_foe_whose_stealth_it_reaches() {
    let mut t = Table::fight(&["isolde"], &["isolde", "frost-harpy"], 4);
    t.apply(&[Change::EffectStarted {
        effect: Effect {
            creature: "frost-harpy".into(),
            round: 1,
            kind: EffectKind::Hidden { stealth: 1 },
        },
    }]);
    let r = t.ok(
        "search",
        json!({"creature": "isolde", "skill": "perception"}),
    );
    assert_eq!(r["success"], true, "{r}");
    assert!(!t.has("frost-harpy", hidden));
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
}

#[test]
fn ready_then_trigger_spends_the_reaction_off_turn() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        5,
    );
    t.ok(
        "ready_action",
        json!({"creature": "kraven", "trigger": "the harpy swoops low", "attack": null, "target": "frost-harpy"}),
    );
    t.advance_to("isolde");
    let r = t.ok(
        "trigger_readied",
        json!({"creature": "kraven", "triggered_by": "frost-harpy"}),
    );
    assert!(r["attack"]["attacks"][0]["result"].is_object(), "{r}");
    let e = t.state.encounter.as_ref().unwrap();
    assert!(!e.has_reaction("kraven"), "the reaction is spent");
    assert!(e.effects.is_empty());
    let error = t.refused(
        "trigger_readied",
        json!({"creature": "kraven", "triggered_by": "frost-harpy"}),
    );
    assert!(error.contains("no readied action"), "{error}");
}

#[test]
fn use_an_object_takes_the_action() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
    t.ok(
        "use_object",
        json!({"creature": "kraven", "object": "the rusted lever"}),
    );
    let error = t.refused(
        "use_object",
        json!({"creature": "kraven", "object": "the lever"}),
    );
    assert!(error.contains("already used the action"), "{error}");
}

#[test]
fn grapple_holds_until_escape_or_the_grappler_is_incapacitated() {
    for seed in 0..8 {
        let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], seed);
        let r = t.ok(
            "grapple",
            json!({"attacker": "kraven", "target": "frost-harpy"}),
        );
        let won = r["success"].as_bool().unwrap();
        let c = &r["contest"];
        assert_eq!(
            won,
            c["initiator"]["total"].as_i64() > c["defender"]["total"].as_i64()
        );
        let harpy = t.state.monster("frost-harpy").unwrap();
        assert_eq!(harpy.conditions.has(Condition::Grappled), won);
        if !won {
            continue;
        }
        // Escaping on its turn: the harpy's action, Athletics or Acrobatics against Kraven's
        // Athletics.
        t.advance_to("frost-harpy");
        let escape = t.ok("escape_grapple", who("frost-harpy"));
        let free = escape["success"].as_bool().unwrap();
        let harpy = t.state.monster("frost-harpy").unwrap();
        assert_eq!(harpy.conditions.has(Condition::Grappled), !free);
        if !free {
            // Kraven stunned: the grapple ends and the harpy is free.
            t.apply(&[Change::ConditionAdded {
                target: Target::Character("kraven".into()),
                condition: Condition::Stunned,
            }]);
            let harpy = t.state.monster("frost-harpy").unwrap();
            assert!(!harpy.conditions.has(Condition::Grappled));
            assert!(t.effects().is_empty());
        }
    }
}

#[test]
fn grapple_and_shove_reach_one_size_larger_and_no_more() {
    // Kraven (Medium) may grapple the ogre (Large); Wren (Small halfling) may not.
    let mut t = Table::fight(&["kraven", "wren"], &["kraven", "wren", "ogre"], 6);
    Arc::make_mut(&mut t.state.monsters)[1].revealed = true;
    t.ok("grapple", json!({"attacker": "kraven", "target": "ogre"}));
    t.advance_to("wren");
    let error = t.refused("grapple", json!({"attacker": "wren", "target": "ogre"}));
    assert!(error.contains("no larger than Medium"), "{error}");
    let error = t.refused(
        "shove",
        json!({"attacker": "wren", "target": "ogre", "effect": "prone"}),
    );
    assert!(error.contains("more than one size larger"), "{error}");
}

#[test]
fn a_shove_knocks_prone_and_standing_costs_half_the_speed() {
    let mut knocked = false;
    for seed in 0..10 {
        let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], seed);
        let r = t.ok(
            "shove",
            json!({"attacker": "kraven", "target": "frost-harpy", "effect": "prone"}),
        );
        let prone = t
            .state
            .monster("frost-harpy")
            .unwrap()
            .conditions
            .has(Condition::Prone);
        assert_eq!(prone, r["success"].as_bool().unwrap(), "{r}");
        knocked |= prone;
    }
    assert!(
        knocked,
        "Athletics +5 against the harpy should win once in ten"
    );
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
    t.apply(&[Change::ConditionAdded {
        target: Target::Character("kraven".into()),
        condition: Condition::Prone,
    }]);
    t.ok("stand_up", who("kraven"));
    let e = t.state.encounter.as_ref().unwrap();
    assert_eq!(e.budget.movement_used_ft, 15);
    assert!(
        !t.state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Prone)
    );
    let error = t.refused("stand_up", who("kraven"));
    assert!(error.contains("not prone"), "{error}");
}

#[test]
fn the_standard_actions_are_for_a_fight_and_no_effect_outlives_it() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
    t.ok("dodge", who("kraven"));
    Arc::make_mut(&mut t.state.monsters)[0].hp = HitPoints::full(1);
    t.apply(&[Change::Damage {
        target: Target::Monster("frost-harpy".into()),
        amount: 1,
        critical: false,
    }]);
    t.ok("end_encounter", json!({}));
    assert!(t.state.encounter.is_none());
    let error = t.refused("dodge", who("kraven"));
    assert!(error.contains("start_encounter"), "{error}");
}

/// The offline game master plays Dodge and Disengage when they are the better choice: Kraven,
/// alone against a fresh harpy at a quarter of his hit points with no potion, dodges rather than
/// trade blows; fleeing, he disengages before he leaves.
#[tokio::test]
async fn the_offline_game_master_dodges_when_losing_and_disengages_to_flee() {
    use dnd_engine::gm::PlayerInput;
    use dnd_engine::rules::Spend;
    use dnd_engine::store::GameStore;

    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1);
    let kraven = t.hero_mut("kraven");
    kraven.hp.current = kraven.hp.max / 4;
    Arc::make_mut(&mut kraven.inventory).retain(|i| !i.name.contains("Healing"));
    let (gm, store, id) = table::offline(&t.state).await;
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I attack the harpy."))
        .await
        .unwrap();
    assert!(
        outcome.changes.contains(&Change::EffectStarted {
            effect: Effect {
                creature: "kraven".into(),
                round: 1,
                kind: EffectKind::Dodging
            }
        }),
        "{:?}",
        outcome.changes
    );
    assert!(
        !outcome.changes.iter().any(|c| matches!(
            c,
            Change::Spent {
                spend: Spend::Attack,
                ..
            }
        )),
        "no swing: {:?}",
        outcome.changes
    );
    // Fleeing (at full health, on his turn), he disengages first.
    let fresh = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 1).state;
    let id = store.create_campaign("Glacier 2", &fresh).await.unwrap();
    {
        let outcome = gm
            .turn(&id, PlayerInput::new("Kraven", "I flee!"))
            .await
            .unwrap();
        let disengaged = outcome
            .changes
            .iter()
            .position(|c| {
                matches!(
                    c,
                    Change::Spent {
                        spend: Spend::Disengage,
                        ..
                    }
                )
            })
            .expect("Disengage before leaving");
        let ended = outcome
            .changes
            .iter()
            .position(|c| *c == Change::EncounterEnded)
            .expect("the fight ends behind him");
        assert!(disengaged < ended);
        let after = store.load(&id).await.unwrap();
        assert_ne!(after.character("kraven").unwrap().location, "ice-chasm");
    }
}

/// The SRD's "Stabilizing a Creature": the action and a DC 10 Wisdom (Medicine) check on a
/// dying creature; a success makes it stable (no more death saves), a failure changes only the
/// turn. Refused for one not dying, for the dead, and off-turn, changing nothing.
#[test]
fn first_aid_stabilises_a_dying_hero_on_a_dc_10_medicine_check() {
    let dying = |seed: u64| {
        let mut t = Table::fight(
            &["kraven", "isolde"],
            &["isolde", "kraven", "frost-harpy"],
            seed,
        );
        t.apply(&[Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 28,
            critical: false,
        }]);
        t
    };
    let aid = json!({"creature": "isolde", "patient": "kraven"});
    let (mut stable, mut failed) = (0, 0);
    for seed in 0..30 {
        let mut t = dying(seed);
        let r = t.ok("first_aid", aid.clone());
        let check = &r["check"];
        assert_eq!(check["dc"], 10, "{r}");
        let kraven = t.state.character("kraven").unwrap();
        assert_eq!(kraven.death_saves.stable, check["success"] == true, "{r}");
        assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
        if kraven.death_saves.stable {
            stable += 1;
            // A stable hero needs no more: a second try (her action is spent anyway) is refused.
            let again = t.refused("first_aid", aid.clone());
            assert!(
                again.contains("already stable") || again.contains("action"),
                "{again}"
            );
        } else {
            failed += 1;
        }
    }
    assert!(stable > 0 && failed > 0, "{stable} stable, {failed} failed");

    let mut t = dying(1);
    let before = t.state.clone();
    let e = t.refused(
        "first_aid",
        json!({"creature": "kraven", "patient": "isolde"}),
    );
    assert!(e.contains("Kraven") && e.contains("cannot act"), "{e}");
    let e = t.refused(
        "first_aid",
        json!({"creature": "isolde", "patient": "isolde"}),
    );
    assert!(e.contains("cannot tend itself"), "{e}");
    t.apply(&[Change::Heal {
        target: Target::Character("kraven".into()),
        amount: 5,
    }]);
    let e = t.refused("first_aid", aid.clone());
    assert!(e.contains("not dying"), "{e}");
    t.state = before;
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 100,
        critical: false,
    }]);
    let before = t.state.clone();
    let e = t.refused("first_aid", aid);
    assert!(e.contains("dead"), "{e}");
    assert_eq!(t.state, before);
}

/// A cheating model cannot have the dying tend anyone, nor a monster tend a hero off its turn.
#[tokio::test]
async fn a_cheating_model_cannot_use_first_aid_while_dying_or_off_turn() {
    let mut state = table::fight(&["kraven", "isolde"], &["isolde", "kraven", "frost-harpy"]);
    state
        .apply(&Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 28,
            critical: false,
        })
        .unwrap();
    let cheats = vec![
        dnd_engine::llm::ToolCall::new(
            "a",
            "first_aid",
            json!({"creature": "kraven", "patient": "isolde"}),
        ),
        dnd_engine::llm::ToolCall::new(
            "b",
            "first_aid",
            json!({"creature": "frost-harpy", "patient": "kraven"}),
        ),
    ];
    let played = table::scripted_turn(&state, cheats, "Isolde", "I keep him alive!").await;
    assert_eq!(played.results.len(), 2, "{:#?}", played.results);
    assert!(
        played.results[0].contains("cannot act"),
        "{}",
        played.results[0]
    );
    assert!(
        played.results[1].contains("it is Isolde"),
        "{}",
        played.results[1]
    );
    assert_eq!(played.after.characters, state.characters);
}
