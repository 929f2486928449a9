//! The ranger's features through the tools, worked as the SRD gives them: Favored Enemy
//! (advantage on Survival to track and Intelligence to recall lore about the chosen type),
//! Natural Explorer (proficiency doubled on Intelligence and Wisdom checks about the favored
//! terrain), Hunter's Prey: Colossus Slayer (1d8 more, once a turn, on a hurt creature) and
//! Primeval Awareness (an action and a slot); and a model that cheats with them.

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, Character, Target};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Sira, a half-orc ranger (Hunter with Colossus Slayer from 3rd level) who hunts
/// monstrosities in the arctic, with two shortswords and a longbow.
fn sira(level: u8) -> Character {
    let mut choices = json!({
        "name": "Sira", "race": "Half-Orc", "class": "Ranger", "level": level,
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "stealth", "survival"],
        "features": {"favored-enemy-1-type": ["monstrosities"], "natural-explorer-1-terrain-type": ["arctic"]},
        "equipment": {"kit": [{"option": 2}, {"option": 1}, {"option": 2}]}
    });
    let spells = ["Hunter's Mark", "Cure Wounds", "Goodberry", "Longstrider"];
    if level >= 2 {
        choices["features"]["ranger-fighting-style"] = json!(["Dueling"]);
        let known = [0, 0, 2, 3, 3, 4][usize::from(level)];
        choices["spells"] = json!(spells[..known]);
    }
    if level >= 3 {
        choices["subclass"] = json!("Hunter");
        choices["features"]["hunters-prey"] = json!(["Colossus Slayer"]);
    }
    table::built(choices)
}

fn fight(level: u8, seed: u64) -> Table {
    let state = table::fight_with(
        &["isolde"],
        vec![sira(level)],
        &["sira", "frost-harpy", "isolde"],
    );
    Table::new(state, seed)
}

fn check(skill: &str, subject: Value) -> Value {
    json!({"creature": "sira", "skill": skill, "dc": 12, "advantage": null, "reason": null, "subject": subject})
}

#[test]
fn favored_enemy_gives_advantage_to_track_and_recall_its_type_only() {
    let mut t = fight(1, 2);
    // The Frost Harpy is a monstrosity: tracking it and recalling its lore.
    for skill in ["survival", "nature"] {
        let report = t.ok("roll_skill_check", check(skill, json!("frost-harpy")));
        let reasons = report["advantage_reasons"].to_string();
        assert!(reasons.contains("Favored Enemy"), "{skill}: {report}");
    }
    // Not for a Wisdom check other than Survival, nor for another type.
    let spot = t.ok(
        "roll_skill_check",
        check("perception", json!("frost-harpy")),
    );
    assert!(!spot.to_string().contains("Favored Enemy"), "{spot}");
    let undead = t.ok("roll_skill_check", check("survival", json!("undead")));
    assert!(!undead.to_string().contains("Favored Enemy"), "{undead}");
    let type_named = t.ok("roll_skill_check", check("survival", json!("monstrosity")));
    assert!(type_named.to_string().contains("Favored Enemy"));
}

#[test]
fn natural_explorer_doubles_proficiency_on_checks_about_the_arctic() {
    let mut t = fight(1, 2);
    let modifier = |r: &Value| r["result"]["modifier"].as_i64().unwrap();
    let plain = t.ok("roll_skill_check", check("survival", json!(null)));
    let arctic = t.ok("roll_skill_check", check("survival", json!("arctic")));
    assert_eq!(modifier(&arctic), modifier(&plain) + 2, "{arctic}");
    let desert = t.ok("roll_skill_check", check("survival", json!("desert")));
    assert_eq!(modifier(&desert), modifier(&plain));
    // Athletics is Strength: no double.
    let climb = t.ok("roll_skill_check", check("athletics", json!("arctic")));
    let climb_plain = t.ok("roll_skill_check", check("athletics", json!(null)));
    assert_eq!(modifier(&climb), modifier(&climb_plain));
}

fn shortsword() -> Value {
    json!({"attacker": "sira", "target": "frost-harpy", "attack": "Shortsword", "advantage": null})
}

fn dice_of(swing: &Value) -> usize {
    swing["result"]["damage"].as_array().map_or(0, Vec::len)
}

#[test]
fn colossus_slayer_adds_1d8_once_a_turn_to_a_hurt_creature() {
    // Two hits in one turn (Extra Attack at 5th level) on a hurt harpy: the first deals 1d8
    // more, the second not.
    let seed = (0..300)
        .find(|s| {
            let mut t = fight(5, *s);
            hurt_harpy(&mut t);
            let a = t.ok("roll_attack", shortsword());
            let b = t.ok("roll_attack", shortsword());
            a["attacks"][0]["result"]["hit"] == true
                && b["attacks"][0]["result"]["hit"] == true
                && b["attacks"][0]["target_down"] == false
        })
        .expect("two hits in 300 seeds");
    let mut t = fight(5, seed);
    hurt_harpy(&mut t);
    let first = t.ok("roll_attack", shortsword());
    let second = t.ok("roll_attack", shortsword());
    assert_eq!(dice_of(&first["attacks"][0]), 2, "{first}");
    let extra = first["attacks"][0]["result"]["damage"][1].to_string();
    assert!(extra.contains("1d8"), "{extra}");
    assert_eq!(dice_of(&second["attacks"][0]), 1, "{second}");

    // At full hit points, no extra die.
    let mut t = fight(5, seed);
    let whole = t.ok("roll_attack", shortsword());
    assert_eq!(dice_of(&whole["attacks"][0]), 1, "{whole}");
    // At 2nd level, before the archetype, none either.
    let mut t = fight(2, seed);
    hurt_harpy(&mut t);
    let early = t.ok("roll_attack", shortsword());
    assert_eq!(dice_of(&early["attacks"][0]), 1, "{early}");
}

fn hurt_harpy(t: &mut Table) {
    let id = t.state.monsters[0].id.clone();
    t.apply(&[Change::Damage {
        target: Target::Monster(id),
        amount: 1,
        critical: false,
    }]);
}

#[test]
fn primeval_awareness_spends_the_action_and_a_slot() {
    let mut t = fight(3, 1);
    let report = t.ok(
        "use_feature",
        json!({"character": "sira", "feature": "primeval-awareness"}),
    );
    assert!(
        report["effect"].as_str().unwrap().contains("senses"),
        "{report}"
    );
    let s = t.state.character("sira").unwrap();
    assert_eq!(
        s.spell_slots.available(1),
        2,
        "one of three 1st-level slots"
    );
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
}

/// A scripted model uses Primeval Awareness at 2nd level, uses it with a slot of a level the
/// ranger lacks, and "uses" Favored Enemy as an action: all refused, nothing changed.
#[tokio::test]
async fn a_model_cheating_with_ranger_features_is_refused() {
    let low = table::fight_with(
        &["isolde"],
        vec![sira(2)],
        &["sira", "isolde", "frost-harpy"],
    );
    let cheats = vec![
        ToolCall::new(
            "a",
            "use_feature",
            json!({"character": "sira", "feature": "primeval-awareness"}),
        ),
        ToolCall::new(
            "b",
            "use_feature",
            json!({"character": "sira", "feature": "favored-enemy"}),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&low, cheats, "Sira", "I sense the land.").await;
    assert!(
        results[0].contains("comes at ranger level 3"),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("is not used through use_feature"),
        "{}",
        results[1]
    );
    assert_eq!(after.characters, low.characters);

    let third = table::fight_with(
        &["isolde"],
        vec![sira(3)],
        &["sira", "isolde", "frost-harpy"],
    );
    let cheats = vec![ToolCall::new(
        "c",
        "use_feature",
        json!({"character": "sira", "feature": "primeval-awareness", "amount": 3}),
    )];
    let table::Played { results, after, .. } =
        table::scripted_turn(&third, cheats, "Sira", "I sense the land.").await;
    assert!(
        results[0].contains("slots of level 1 left"),
        "{}",
        results[0]
    );
    assert_eq!(after.characters, third.characters);
}
