//! Surprise as the SRD decides it when a fight starts: hiders roll Dexterity (Stealth) against
//! the other side's passive Perception; whoever notices no threat is surprised, loses its first
//! turn (no movement, action or bonus action) and takes no reaction until that turn ends. Unseen
//! monsters ambush; heroes surprise a foe only when all of them crept up.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::adventure::Adventure;
use dnd_engine::combat;
use dnd_engine::rules::{HitPoints, Spend};
use dnd_engine::state::{Change, Effect, EffectKind, GameState};
use dnd_engine::store::RollDetail;

#[path = "support/table.rs"]
mod table;
use table::Table;

/// A new game with these heroes and the Frost Harpy (200 HP) unseen in the ice chasm.
fn unseen_harpy(party: &[&str]) -> GameState {
    let mut state = Adventure::built_in().new_game(party).unwrap();
    let harpy = &mut Arc::make_mut(&mut state.monsters)[0];
    harpy.revealed = false;
    harpy.hp = HitPoints::full(200);
    state
}

/// `creature` surprised, in the fight's first round.
fn surprise(state: &mut GameState, creature: &str) {
    state
        .apply(&Change::EffectStarted {
            effect: Effect {
                creature: creature.into(),
                round: 1,
                kind: EffectKind::Surprised,
            },
        })
        .unwrap();
}

fn start(sneaking: Value) -> Value {
    json!({"monsters": null, "sneaking": sneaking})
}

/// The Stealth total rolled for surprise by `who`, from the turn's roll records.
fn stealth(t: &Table, who: &str) -> i32 {
    let record = t
        .log
        .rolls
        .iter()
        .find(|r| r.label == format!("{who} Stealth (surprise)"))
        .unwrap_or_else(|| panic!("no Stealth roll for {who}"));
    match record.detail.as_ref() {
        RollDetail::Check(check) => check.total,
        other => panic!("not a check: {other:?}"),
    }
}

#[test]
fn an_unseen_harpy_surprises_a_hero_whose_passive_perception_its_stealth_beats() {
    let (mut surprised, mut alert) = (0, 0);
    for seed in 0..40 {
        let mut t = Table::new(unseen_harpy(&["kraven"]), seed);
        let r = t.ok("start_encounter", start(Value::Null));
        let kraven_eye = t.state.character("kraven").unwrap().passive_perception();
        let caught = stealth(&t, "Frost Harpy") > kraven_eye;
        let named: Vec<&str> = r["surprised"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert_eq!(named == ["Kraven"], caught, "seed {seed}: {r}");
        if caught {
            surprised += 1;
            // His first turn passed with nothing done (surprised, or held by the song, which
            // incapacitates him as well); the surprise is over by his next.
            let text = r.to_string();
            assert!(
                text.contains(r#""surprised":"Kraven""#)
                    || text.contains(r#""cannot_act":"Kraven""#),
                "{r}"
            );
            assert!(!dnd_engine::state::is_surprised(&t.state, "kraven"));
        } else {
            alert += 1;
        }
    }
    assert!(
        surprised > 0 && alert > 0,
        "{surprised} surprised, {alert} alert"
    );
}

#[test]
fn a_seen_foe_gives_no_surprise_and_a_party_that_crept_up_may_surprise_it() {
    // In sight, openly: no one hides, no Stealth is rolled.
    let mut t = Table::new(table::seen_harpy(&["kraven"]), 1);
    let r = t.ok("start_encounter", start(Value::Null));
    assert!(r.get("surprised").is_none(), "{r}");
    assert!(t.log.rolls.iter().all(|r| !r.label.contains("Stealth")));
    // Kraven crept up: his Stealth against the harpy's passive Perception.
    let (mut caught, mut missed) = (0, 0);
    for seed in 0..40 {
        let mut t = Table::new(table::seen_harpy(&["kraven"]), seed);
        let r = t.ok("start_encounter", start(json!(["kraven"])));
        let harpy_eye = 10; // the SRD harpy's passive Perception
        let beaten = stealth(&t, "Kraven") > harpy_eye;
        assert_eq!(
            r["surprised"] == json!(["Frost Harpy"]),
            beaten,
            "seed {seed}: {r}"
        );
        if beaten { caught += 1 } else { missed += 1 }
    }
    assert!(caught > 0 && missed > 0, "{caught} caught, {missed} missed");
    // One hero sneaking while another walks in the open: the harpy sees a threat.
    let mut t = Table::new(table::seen_harpy(&["kraven", "wren"]), 2);
    let r = t.ok("start_encounter", start(json!(["wren"])));
    assert!(r.get("surprised").is_none(), "{r}");
    assert!(t.log.rolls.iter().all(|r| !r.label.contains("Stealth")));
}

#[test]
fn a_surprised_creature_cannot_act_or_react_until_its_first_turn_ends() {
    let mut state = table::fight(&["kraven", "wren"], &["kraven", "frost-harpy", "wren"]);
    surprise(&mut state, "frost-harpy");
    let refused = combat::may_act(&state, "frost-harpy", Spend::Reaction).unwrap_err();
    assert!(refused.to_string().contains("surprised"), "{refused}");
    // Kraven's turn ends, then the harpy's: the surprise ends with it, reaction and all.
    state.apply(&Change::TurnAdvanced).unwrap();
    assert!(combat::may_act(&state, "frost-harpy", Spend::Action).is_err());
    state.apply(&Change::TurnAdvanced).unwrap();
    assert!(!dnd_engine::state::is_surprised(&state, "frost-harpy"));
    assert!(combat::may_act(&state, "frost-harpy", Spend::Reaction).is_ok());
}

/// A cheating model cannot name a monster or a stranger as sneaking, and a surprised
/// monster's turn passes without its attack.
#[tokio::test]
async fn a_cheating_model_cannot_sneak_monsters_or_act_for_the_surprised() {
    let state = table::seen_harpy(&["kraven"]);
    let cheats = vec![
        dnd_engine::llm::ToolCall::new("a", "start_encounter", start(json!(["frost-harpy"]))),
        dnd_engine::llm::ToolCall::new("b", "start_encounter", start(json!(["gandalf"]))),
    ];
    let played = table::scripted_turn(&state, cheats, "Kraven", "We sneak up on it.").await;
    for result in &played.results {
        assert!(result.contains("not a living hero"), "{result}");
    }
    assert_eq!(played.after.encounter, None);
    assert_eq!(played.after.characters, state.characters);
    assert_eq!(played.after.monsters, state.monsters);
    // The harpy surprised on its own turn: the model's attack for it is refused.
    let mut fight = table::fight(&["kraven"], &["frost-harpy", "kraven"]);
    surprise(&mut fight, "frost-harpy");
    let attack =
        dnd_engine::llm::ToolCall::new("c", "roll_attack", table::attack("frost-harpy", "kraven"));
    let played = table::scripted_turn(&fight, vec![attack], "Kraven", "Go on.").await;
    assert!(
        played.results[0].contains("surprised"),
        "{}",
        played.results[0]
    );
    assert_eq!(played.after.characters, fight.characters);
}
