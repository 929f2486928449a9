//! The fighter's limited features through `use_feature`, worked as the SRD gives them: Second
//! Wind (a bonus action, 1d10 + fighter level hit points, once per short rest) and Action
//! Surge (one more action this turn, once per short rest), their uses kept on the sheet and
//! given back by a rest; and a model that cheats with them, refused each time with what is
//! allowed, changing nothing.

use serde_json::json;

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::HitPoints;
use dnd_engine::srd::Rest;
use dnd_engine::state::{Change, FeatureUses, Target};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack};

fn wind(who: &str) -> serde_json::Value {
    json!({"character": who, "feature": "second-wind"})
}

fn surge(who: &str) -> serde_json::Value {
    json!({"character": who, "feature": "action-surge"})
}

/// Kraven (fighter 3) hurt by 20, in a fight against the harpy on his turn.
fn hurt_kraven() -> Table {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        7,
    );
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 20,
        critical: false,
    }]);
    t
}

#[test]
fn second_wind_heals_1d10_plus_level_spends_the_bonus_action_and_the_use() {
    let mut t = hurt_kraven();
    let before = t.state.character("kraven").unwrap().hp;
    let report = t.ok("use_feature", wind("kraven"));
    let healed = report["healed"].as_u64().unwrap() as u32;
    // 1d10 + 3: from 4 to 13.
    assert!((4..=13).contains(&healed), "{report}");
    let after = t.state.character("kraven").unwrap();
    assert_eq!(after.hp.current, before.current + healed);
    assert_eq!(report["uses_left"], 0);
    assert_eq!(report["uses_of"], 1);
    assert_eq!(
        after.feature_uses["second-wind"],
        FeatureUses {
            spent: 1,
            of: 1,
            restores: Rest::ShortRest
        }
    );
    let budget = &t.state.encounter.as_ref().unwrap().budget;
    assert!(budget.bonus_action_used);
    assert!(!budget.action_used, "Second Wind costs no action");

    // The use is gone until a rest, whatever the turn.
    let no = t.refused("use_feature", wind("kraven"));
    assert!(no.contains("comes back after a short or long rest"), "{no}");

    // A short rest gives it back.
    t.apply(&[Change::EncounterEnded]);
    t.ok(
        "update_character",
        json!({"character": "kraven", "update": "short_rest", "condition": null, "amount": 0}),
    );
    assert!(t.state.character("kraven").unwrap().feature_uses.is_empty());
    let again = t.ok("use_feature", wind("kraven"));
    assert_eq!(again["uses_left"], 0);
}

#[test]
fn a_long_rest_restores_every_feature_use() {
    let mut t = Table::game(&["kraven"], 3);
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 5,
        critical: false,
    }]);
    t.ok("use_feature", wind("kraven"));
    assert!(!t.state.character("kraven").unwrap().feature_uses.is_empty());
    t.ok(
        "update_character",
        json!({"character": "kraven", "update": "long_rest", "condition": null, "amount": null}),
    );
    assert!(t.state.character("kraven").unwrap().feature_uses.is_empty());
}

#[test]
fn action_surge_gives_a_second_action_after_the_first() {
    let mut t = hurt_kraven();
    // Not before the action is taken: nothing spent.
    let early = t.refused("use_feature", surge("kraven"));
    assert!(early.contains("take it first"), "{early}");
    assert!(t.state.character("kraven").unwrap().feature_uses.is_empty());

    // Kraven's Attack action: one attack at level 3.
    t.ok("roll_attack", attack("kraven", "frost-harpy"));
    let spent = t.refused("roll_attack", attack("kraven", "frost-harpy"));
    assert!(spent.contains("already used the action"), "{spent}");

    let report = t.ok("use_feature", surge("kraven"));
    assert_eq!(report["feature"], "Action Surge (1 use)");
    assert_eq!(report["uses_left"], 0);
    assert!(!t.state.encounter.as_ref().unwrap().budget.action_used);
    t.ok("roll_attack", attack("kraven", "frost-harpy"));
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);

    let twice = t.refused("use_feature", surge("kraven"));
    assert!(
        twice.contains("comes back after a short or long rest"),
        "{twice}"
    );
}

#[test]
fn a_feature_not_the_characters_or_not_its_level_is_refused_with_what_it_has() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["isolde", "kraven", "frost-harpy"],
        5,
    );
    let before = t.state.characters.clone();
    // Isolde is no fighter.
    let not_hers = t.refused("use_feature", wind("isolde"));
    assert!(not_hers.contains("has no feature"), "{not_hers}");
    // Kraven at level 1 has no Action Surge yet.
    t.hero_mut("kraven").level = 1;
    let low = t.refused("use_feature", surge("kraven"));
    assert!(low.contains("comes at fighter level 2"), "{low}");
    assert!(low.contains("second-wind (1 of 1 left)"), "{low}");
    t.hero_mut("kraven").level = 3;
    // Out of turn: Isolde's turn, Kraven's bonus action is not his to spend.
    let off_turn = t.refused("use_feature", wind("kraven"));
    assert!(off_turn.contains("it is Isolde Vane's turn"), "{off_turn}");
    // A feature use_feature does not play.
    let other = t.refused(
        "use_feature",
        json!({"character": "kraven", "feature": "fighter-fighting-style"}),
    );
    assert!(
        other.contains("this tool plays: second-wind, action-surge"),
        "{other}"
    );
    // Second Wind heals its user only: a target is refused, not ignored.
    let aimed = t.refused(
        "use_feature",
        json!({"character": "kraven", "feature": "second-wind", "target": "isolde"}),
    );
    assert!(aimed.contains("Second Wind takes no target"), "{aimed}");
    assert_eq!(t.state.characters, before);
}

/// A scripted model heals Kraven twice with Second Wind and surges before acting: the first
/// wind is lawful, the rest refused, and only it changes the sheet.
#[tokio::test]
async fn a_model_cheating_with_fighter_features_is_refused() {
    let mut before = table::fight(&["kraven", "isolde"], &["kraven", "isolde", "frost-harpy"]);
    before
        .apply_all(&[Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 20,
            critical: false,
        }])
        .unwrap();
    let cheats = vec![
        ToolCall::new("a", "use_feature", wind("kraven")),
        ToolCall::new("b", "use_feature", wind("kraven")),
        ToolCall::new("c", "use_feature", surge("kraven")),
        ToolCall::new("d", "use_feature", wind("isolde")),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Kraven", "I catch my breath!").await;
    assert_eq!(results.len(), 4, "{results:#?}");
    assert!(results[0].contains("\"healed\""), "{}", results[0]);
    for (i, want) in [
        (1, "comes back after a short or long rest"),
        (2, "take it first"),
        (3, "has no feature"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    let k = after.character("kraven").unwrap();
    let hp_before: HitPoints = before.character("kraven").unwrap().hp;
    assert!(k.hp.current > hp_before.current);
    assert_eq!(k.feature_uses["second-wind"].spent, 1);
    assert!(!k.feature_uses.contains_key("action-surge-1-use"));
    assert_eq!(
        after.character("isolde").unwrap(),
        before.character("isolde").unwrap()
    );
}

/// Kraven's natural d20 and whether it was a critical, on his first attack with dice `seed`.
fn kraven_swing(seed: u64, level: u8) -> (u64, bool) {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], seed);
    t.hero_mut("kraven").level = level;
    let report = t.ok("roll_attack", attack("kraven", "frost-harpy"));
    let result = &report["attacks"][0]["result"];
    (
        result["d20"]["natural"].as_u64().unwrap(),
        result["critical"].as_bool().unwrap(),
    )
}

#[test]
fn improved_critical_makes_a_champions_natural_19_a_critical_hit() {
    // Kraven is a fighter of 3rd level whose sheet names the Champion: his weapons crit on 19-20.
    let seed = (0..500)
        .find(|s| kraven_swing(*s, 3).0 == 19)
        .expect("a natural 19 in 500 seeds");
    assert_eq!(kraven_swing(seed, 3), (19, true));
    // The same roll at 2nd level, before the archetype: a 19 is no critical.
    assert!(!kraven_swing(seed, 2).1);
    // An 18 is never one.
    let eighteen = (0..500).find(|s| kraven_swing(*s, 3).0 == 18).unwrap();
    assert!(!kraven_swing(eighteen, 3).1);
}

/// The offline game master catches Kraven's second wind when he is below half his hit points
/// on his turn, then strikes; above half it only strikes.
#[tokio::test]
async fn the_offline_game_master_uses_second_wind_below_half_hp() {
    for (damage, expect_wind) in [(20u32, true), (5, false)] {
        let mut state = table::fight(&["kraven", "isolde"], &["kraven", "isolde", "frost-harpy"]);
        state
            .apply(&Change::Damage {
                target: Target::Character("kraven".into()),
                amount: damage,
                critical: false,
            })
            .unwrap();
        let (gm, _, id) = table::offline(&state).await;
        let outcome = gm
            .turn(
                &id,
                dnd_engine::gm::PlayerInput::new("Kraven", "I attack the harpy."),
            )
            .await
            .unwrap();
        let wind = outcome
            .changes
            .iter()
            .any(|c| matches!(c, Change::FeatureUsed { feature, .. } if feature == "second-wind"));
        assert_eq!(wind, expect_wind, "damage {damage}: {:?}", outcome.changes);
        assert!(
            outcome.changes.iter().any(|c| matches!(
                c,
                Change::Spent {
                    spend: dnd_engine::rules::Spend::Attack,
                    ..
                }
            )),
            "damage {damage}: the strike still comes: {:?}",
            outcome.changes
        );
    }
}

/// A fighter made with the builder at level 5 heals 1d10 + 5 with Second Wind: the level is
/// the sheet's, not the pregenerated hero's.
#[test]
fn a_built_fighter_of_level_5_heals_by_its_own_level() {
    let fighter = table::built(json!({
        "name": "Brakka", "race": "Half-Orc", "class": "Fighter", "level": 5,
        "subclass": "Champion",
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "survival"],
        "features": {"fighter-fighting-style": ["Great Weapon Fighting"]},
        "equipment": {"kit": [{"option": 1}, {"option": 2, "picks": ["Greatsword", "Longsword"]}, {"option": 2}, {"option": 2}]}
    }));
    assert_eq!(
        fighter.choices["fighter-fighting-style"],
        ["fighter-fighting-style-great-weapon-fighting"]
    );
    let state = table::fight_with(&["kraven"], vec![fighter], &["brakka", "frost-harpy"]);
    let mut t = Table::new(state, 11);
    t.hero_mut("brakka").hp.current = 1;
    let report = t.ok("use_feature", wind("brakka"));
    let rolled = report["rolled"].as_str().unwrap();
    assert!(rolled.contains(" + 5 = "), "{rolled}");
    let healed = report["healed"].as_u64().unwrap();
    assert!((6..=15).contains(&healed), "{healed}");
    assert_eq!(t.hero_mut("brakka").hp.current, 1 + healed as u32);
}
