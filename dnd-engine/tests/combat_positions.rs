//! Positions and range worked through the tools as the rules give them: reach 5 ft and 10 ft, a
//! longbow's 150/600 ft, a melee swing at a harpy 30 ft up, a ranged attack with a foe
//! adjacent, half and three-quarters cover, difficult terrain doubling, an opportunity attack on
//! leaving reach and none after Disengage; then a cheating model through the whole turn. Each
//! refusal says what is allowed and changes nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::positions::{self, Reach};
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Ability, DamageDice, DamageType};
use dnd_engine::srd::{ActionAttack, AttackKind, Srd};
use dnd_engine::state::{Change, CharacterAttack, Cover, GameState, Position};
use dnd_engine::tools::ToolResult;

#[path = "support/table.rs"]
mod table;

use table::Table;

/// The dice of every table here.
const SEED: u64 = 7;

use table::at;

/// Kraven and Wren against the Frost Harpy (200 HP, seen, speed 40) in the ice chasm, Kraven's
/// turn, with a far ledge 700 ft east for the longbow; everyone placed by hand.
fn fight(kraven: Position, wren: Position, harpy: Position) -> GameState {
    let mut order = table::order(&["kraven", "wren", "frost-harpy"]);
    order[2].speed = 40;
    table::placed_fight(
        &["kraven", "wren"],
        order,
        &[("kraven", kraven), ("wren", wren), ("frost-harpy", harpy)],
    )
}

fn give(state: &mut GameState, hero: &str, name: &str, range_ft: u32) {
    Arc::make_mut(&mut table::hero_mut(state, hero).attacks).insert(
        0,
        CharacterAttack {
            name: name.into(),
            ability: Ability::Dexterity,
            proficient: true,
            damage: DamageDice::parse("1d8", DamageType::Piercing).unwrap(),
            add_modifier_to_damage: true,
            magic_bonus: 0,
            range_ft,
            magical: false,
        },
    );
}

impl Table {
    fn attack(&mut self, attacker: &str, attack: Option<&str>) -> ToolResult {
        self.call(
            "roll_attack",
            json!({"attacker": attacker, "target": "frost-harpy", "attack": attack, "advantage": null}),
        )
    }
}

fn first_swing(result: &Value) -> &Value {
    &result["attacks"][0]
}

#[test]
fn reach_is_5_ft_and_10_ft_with_a_reach_weapon() {
    let mut state = fight(at(0, 0, 0), at(0, 0, 0), at(10, 0, 0));
    give(&mut state, "kraven", "Glaive", 10);
    let mut t = Table::new(state, SEED);
    let error = t.refused(
        "roll_attack",
        json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Greatsword", "advantage": null}),
    );
    assert!(
        error.contains("Frost Harpy is 10 ft from Kraven")
            && error.contains("Greatsword reaches 5 ft"),
        "{error}"
    );
    assert!(error.contains("Glaive (reach 10 ft)"), "{error}");
    let r = t.attack("kraven", Some("Glaive"));
    assert!(r.ok, "{}", r.content);
    assert_eq!(first_swing(&r.content)["distance_ft"], 10);
    // A monster's reach comes from its stat block.
    let whip = ActionAttack {
        kind: AttackKind::MeleeWeapon,
        to_hit: 5,
        reach: Some(10),
        range: None,
    };
    assert_eq!(Reach::of_monster_attack(&whip).melee_ft, Some(10));
}

#[test]
fn a_longbow_shoots_150_ft_and_600_with_disadvantage_and_no_farther() {
    // 620 ft: beyond the long range.
    let mut state = fight(at(80, 0, 0), at(0, 0, 0), at(700, 0, 0));
    give(&mut state, "kraven", "Longbow", 150);
    let mut t = Table::new(state, SEED);
    let error = t.refused(
        "roll_attack",
        json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Longbow", "advantage": null}),
    );
    assert!(
        error.contains("620 ft from Kraven")
            && error.contains("Longbow shoots 150 ft (up to 600 ft with disadvantage)"),
        "{error}"
    );
    // 200 ft: long range, disadvantage.
    let mut state = fight(at(500, 0, 0), at(0, 0, 0), at(700, 0, 0));
    give(&mut state, "kraven", "Longbow", 150);
    let mut t = Table::new(state, SEED);
    let r = t.attack("kraven", Some("Longbow"));
    assert!(r.ok, "{}", r.content);
    let swing = first_swing(&r.content);
    assert_eq!(swing["distance_ft"], 200);
    assert_eq!(
        swing["result"]["d20"]["advantage"], "disadvantage",
        "{swing}"
    );
    assert!(
        swing["advantage_reasons"]
            .to_string()
            .contains("long range")
    );
}

#[test]
fn no_melee_swing_reaches_a_harpy_30_ft_up() {
    let mut t = Table::new(fight(at(40, 15, 0), at(0, 0, 0), at(40, 15, 30)), SEED);
    let error = t.refused(
        "roll_attack",
        json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Greatsword", "advantage": null}),
    );
    assert!(error.contains("30 ft from Kraven (30 ft up)"), "{error}");
    assert!(error.contains("Javelin"), "the javelin reaches: {error}");
    // With no attack named, the first that reaches is thrown: the javelin, 30 ft, normal range,
    // against the harpy's AC 11 + 2 for the spire's half cover.
    let r = t.attack("kraven", None);
    assert!(r.ok, "{}", r.content);
    let swing = first_swing(&r.content);
    assert_eq!(swing["attack"], "Javelin");
    assert_eq!(swing["result"]["target_ac"], 13);
    assert_eq!(swing["cover"], "half cover");
}

/// The odds shown beside a suggested attack come from the same setup as the roll: the
/// harpy's cover counts, and a swing that cannot reach has no odds.
#[test]
fn odds_count_cover_and_reach() {
    let state = fight(at(40, 15, 0), at(0, 0, 0), at(40, 15, 30));
    let srd = dnd_engine::srd::Srd::bundled();
    let greatsword = json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Greatsword", "advantage": null});
    assert_eq!(
        dnd_engine::tools::odds(&state, srd, "roll_attack", &greatsword),
        None
    );
    let odds = dnd_engine::tools::odds(
        &state,
        srd,
        "roll_attack",
        &table::attack("kraven", "frost-harpy"),
    )
    .expect("the javelin reaches");
    assert_eq!(odds.target, 13, "AC 11 and half cover");
    let bonus: i32 = odds.dice.trim_start_matches("1d20").parse().unwrap();
    let hits = (2..=19).filter(|f| f + bonus >= 13).count() + 1;
    assert_eq!(odds.chance, hits as f64 / 20.0);
}

#[test]
fn a_ranged_attack_with_a_foe_adjacent_has_disadvantage() {
    let mut state = fight(at(0, 0, 0), at(0, 0, 0), at(0, 0, 0));
    state.encounter.as_mut().unwrap().turn = 1; // Wren's turn
    let mut t = Table::new(state, SEED);
    let r = t.attack("wren", Some("Shortbow"));
    assert!(r.ok, "{}", r.content);
    let swing = first_swing(&r.content);
    assert_eq!(swing["result"]["d20"]["advantage"], "disadvantage");
    assert!(
        swing["advantage_reasons"]
            .to_string()
            .contains("Frost Harpy within 5 ft of a ranged attacker")
    );
}

#[test]
fn cover_adds_2_or_5_to_ac_and_total_cover_refuses() {
    for (cover, ac) in [
        (Cover::Half, Some(13)),
        (Cover::ThreeQuarters, Some(16)),
        (Cover::Total, None),
    ] {
        let mut state = fight(at(40, 0, 0), at(0, 0, 0), at(40, 15, 30));
        Arc::make_mut(&mut state.locations)[0]
            .areas
            .iter_mut()
            .find(|a| a.id == "rime-spire")
            .unwrap()
            .cover = cover;
        let mut t = Table::new(state, SEED);
        let args = json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Javelin", "advantage": null});
        match ac {
            Some(ac) => {
                let r = t.ok("roll_attack", args);
                assert_eq!(first_swing(&r)["result"]["target_ac"], ac, "{cover:?}");
            }
            None => {
                let error = t.refused("roll_attack", args);
                assert!(error.contains("behind total cover"), "{error}");
            }
        }
    }
}

#[test]
fn difficult_terrain_costs_double() {
    // From the ice bridge (difficult) to the glacier's mouth, 40 ft: 80 ft of movement.
    let mut t = Table::new(fight(at(40, 0, 0), at(0, 0, 0), at(40, 15, 30)), SEED);
    let error = t.refused(
        "move_in_fight",
        json!({"creature": "kraven", "to": "glacier-mouth", "feet": null}),
    );
    assert!(
        error.contains("costs 80 ft of movement (difficult terrain doubles it)")
            && error.contains("30 ft of movement"),
        "{error}"
    );
    let r = t.ok(
        "move_in_fight",
        json!({"creature": "kraven", "to": "glacier-mouth", "feet": 15}),
    );
    assert_eq!(r["movement_spent_ft"], 30);
    assert_eq!(r["difficult_terrain"], true);
    assert_eq!(
        t.state.encounter.as_ref().unwrap().budget.movement_used_ft,
        30
    );
    assert_eq!(
        positions::position_of(&t.state, "kraven"),
        Some(at(25, 0, 0))
    );
    // Spent: not one foot more.
    t.refused(
        "move_in_fight",
        json!({"creature": "kraven", "to": "glacier-mouth", "feet": 5}),
    );
}

#[test]
fn leaving_reach_provokes_an_opportunity_attack_and_disengage_prevents_it() {
    let mut t = Table::new(fight(at(0, 0, 0), at(0, 0, 0), at(0, 0, 0)), SEED);
    let r = t.ok(
        "move_in_fight",
        json!({"creature": "kraven", "to": "ice-bridge", "feet": 10}),
    );
    let attacks = r["opportunity_attacks"].as_array().unwrap();
    assert_eq!(attacks.len(), 1, "{r}");
    assert_eq!(attacks[0]["attacker"], "Frost Harpy");
    assert_eq!(attacks[0]["attacks"][0]["attack"], "Claws");
    let encounter = t.state.encounter.as_ref().unwrap();
    assert!(
        !encounter.has_reaction("frost-harpy"),
        "the reaction is spent"
    );
    assert_eq!(encounter.budget.movement_used_ft, 10);
    // Wren leaves the harpy's reach too: its reaction is gone this round, so no attack.
    t.ok("next_turn", json!({}));
    let r = t.ok(
        "move_in_fight",
        json!({"creature": "wren", "to": "ice-bridge", "feet": 10}),
    );
    assert_eq!(r["opportunity_attacks"], json!([]));

    // After Disengage: none, though the harpy has its reaction.
    let mut t = Table::new(fight(at(0, 0, 0), at(0, 0, 0), at(0, 0, 0)), SEED);
    t.state.encounter.as_mut().unwrap().budget.disengaged = true;
    let r = t.ok(
        "move_in_fight",
        json!({"creature": "kraven", "to": "ice-bridge", "feet": 10}),
    );
    assert_eq!(r["opportunity_attacks"], json!([]));
    assert!(
        t.state
            .encounter
            .as_ref()
            .unwrap()
            .has_reaction("frost-harpy")
    );
}

#[test]
fn a_walker_cannot_climb_into_the_air_and_approach_stops_within_reach() {
    let mut t = Table::new(fight(at(0, 0, 0), at(0, 0, 0), at(40, 15, 30)), SEED);
    let error = t.refused(
        "move_in_fight",
        json!({"creature": "kraven", "to": "rime-spire", "feet": null}),
    );
    assert!(error.contains("cannot fly"), "{error}");
    // The harpy (flying 40 ft) comes down toward Kraven on its turn, 50 ft away: 40 ft of it.
    t.state.encounter.as_mut().unwrap().turn = 2;
    let srd = Srd::bundled();
    let planned = positions::approach(&t.state, srd, "frost-harpy", "kraven", 5).unwrap();
    assert_eq!(planned.cost_ft, 40);
    assert!(planned.to.z < 30 && planned.to.z > 0, "{planned:?}");
    assert_eq!(positions::distance(&t.state, "frost-harpy", "kraven"), 50);
}

#[tokio::test]
async fn a_cheating_model_cannot_strike_out_of_reach_shoot_past_range_or_outrun_its_speed() {
    let mut before = fight(at(40, 15, 0), at(0, 0, 0), at(40, 15, 30));
    give(&mut before, "kraven", "Longbow", 150);
    // The harpy over the far ledge for the longbow is too far: move the spire's harpy instead
    // by asking for the ledge, 660 ft from Kraven.
    let cheats = vec![
        ToolCall::new(
            "a",
            "roll_attack",
            json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Greatsword", "advantage": null}),
        ),
        ToolCall::new(
            "b",
            "move_in_fight",
            json!({"creature": "kraven", "to": "far-ledge", "feet": null}),
        ),
        ToolCall::new(
            "c",
            "move_in_fight",
            json!({"creature": "kraven", "to": "far-archway", "feet": 60}),
        ),
    ];
    let played = table::scripted_turn(&before, cheats, "Kraven", "I cut the harpy down!").await;
    let results = played.results;
    assert_eq!(results.len(), 3, "{results:#?}");
    assert!(
        results[0].contains("30 ft up") && results[0].contains("Javelin"),
        "{}",
        results[0]
    );
    assert!(results[1].contains("30 ft of movement"), "{}", results[1]);
    assert!(
        results[2].contains("move less with `feet`"),
        "{}",
        results[2]
    );
    let after = played.after;
    assert_eq!(
        after.encounter, before.encounter,
        "nothing moved or was spent"
    );
    assert_eq!(after.monsters, before.monsters);
}

#[tokio::test]
async fn a_cheating_model_cannot_shoot_past_long_range() {
    let mut before = fight(at(40, 0, 0), at(0, 0, 0), at(700, 0, 0));
    give(&mut before, "kraven", "Longbow", 150);
    let shot = vec![ToolCall::new(
        "a",
        "roll_attack",
        json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Longbow", "advantage": null}),
    )];
    let played = table::scripted_turn(&before, shot, "Kraven", "I shoot the harpy!").await;
    let result = &played.results[0];
    assert!(
        result.contains("660 ft from Kraven") && result.contains("up to 600 ft with disadvantage"),
        "{result}"
    );
    let after = played.after;
    assert_eq!(after.encounter, before.encounter);
    assert_eq!(after.monsters, before.monsters);
}

/// One offline turn: "I attack the harpy." from Kraven.
async fn kraven_attacks(state: GameState) -> dnd_engine::gm::TurnOutcome {
    let (gm, _, id) = table::offline(&state).await;
    gm.turn(
        &id,
        dnd_engine::gm::PlayerInput::new("Kraven", "I attack the harpy."),
    )
    .await
    .unwrap()
}

/// The offline game master closes in before a weapon strike when the foe stands beyond reach
/// (a move toward a creature with no distance given goes as far as the movement left allows),
/// and strikes from where it stands when the foe is already within reach.
#[tokio::test]
async fn the_offline_game_master_closes_in_to_swing_and_stays_when_in_reach() {
    let swings = |outcome: &dnd_engine::gm::TurnOutcome| -> Vec<String> {
        outcome
            .rolls
            .iter()
            .filter(|r| r.label.starts_with("Kraven attacks"))
            .map(|r| r.label.clone())
            .collect()
    };
    let moved = |outcome: &dnd_engine::gm::TurnOutcome| {
        outcome
            .changes
            .iter()
            .any(|c| matches!(c, Change::Moved { creature, .. } if creature == "kraven"))
    };
    // The harpy on the ground 20 ft away, over open ice: Kraven walks 15 ft and swings.
    let outcome = kraven_attacks(fight(at(0, 0, 0), at(0, 10, 0), at(20, 0, 0))).await;
    assert!(moved(&outcome), "{}", outcome.narration);
    assert_eq!(
        swings(&outcome),
        vec!["Kraven attacks Frost Harpy (Greatsword)".to_owned()],
        "{}",
        outcome.narration
    );
    assert!(
        outcome.narration.contains("You close in, 15 ft"),
        "{}",
        outcome.narration
    );
    // Already within 5 ft: no move, the same swing.
    let outcome = kraven_attacks(fight(at(0, 0, 0), at(0, 10, 0), at(5, 0, 0))).await;
    assert!(!moved(&outcome), "{}", outcome.narration);
    assert_eq!(
        swings(&outcome),
        vec!["Kraven attacks Frost Harpy (Greatsword)".to_owned()]
    );
}
