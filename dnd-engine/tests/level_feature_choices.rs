//! Feature choices on a level gained, through `level_up`: the paladin's and the ranger's
//! Fighting Style at 2nd level, the Hunter's prey at 3rd, checked like the builder's choices
//! and kept in `Character::choices`; refused with the options when missing or wrong; Fast
//! Movement's speed and the Defense style's AC written with the level; and a model that
//! cheats with them.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::character::fighting_style::{Style, style};
use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Character, GameState};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn paladin() -> Character {
    table::built(json!({
        "name": "Aldric", "race": "Half-Orc", "class": "Paladin", "level": 1,
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 10, "con": 13, "int": 8, "wis": 12, "cha": 14}},
        "skills": ["medicine", "persuasion"],
        "equipment": {"gold": 100}
    }))
}

fn ranger(level: u8) -> Character {
    let mut choices = json!({
        "name": "Sira", "race": "Half-Orc", "class": "Ranger", "level": level,
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 12, "dex": 15, "con": 13, "int": 8, "wis": 14, "cha": 10}},
        "skills": ["perception", "stealth", "survival"],
        "features": {"favored-enemy-1-type": ["undead"], "natural-explorer-1-terrain-type": ["arctic"]},
        "equipment": {"gold": 100}
    });
    if level >= 2 {
        choices["features"]["ranger-fighting-style"] = json!(["Archery"]);
        choices["spells"] = json!(["Hunter's Mark", "Cure Wounds"]);
    }
    table::built(choices)
}

/// The adventure with Isolde and `hero` (with `xp`) in the party's room, no fight.
fn game(mut hero: Character, xp: u32) -> GameState {
    let mut state = table::seen_harpy(&["isolde"]);
    hero.location = state.characters[0].location.clone();
    hero.xp = xp;
    Arc::make_mut(&mut state.characters).push(hero);
    state
}

fn up(id: &str, features: Value) -> Value {
    json!({"character": id, "features": features})
}

#[test]
fn a_paladin_chooses_its_fighting_style_at_2nd_level() {
    let mut t = Table::new(game(paladin(), 300), 1);
    let missing = t.refused("level_up", json!({"character": "aldric"}));
    assert!(missing.contains("features"), "{missing}");
    assert!(
        missing.contains("paladin-fighting-style: Fighting Style: Dueling"),
        "the options are listed: {missing}"
    );
    let wrong = t.refused(
        "level_up",
        up(
            "aldric",
            json!([{"feature": "paladin-fighting-style", "picks": ["Archery"]}]),
        ),
    );
    assert!(
        wrong.contains("\"Archery\" is not a Fighting Style"),
        "{wrong}"
    );
    let done = t.ok(
        "level_up",
        up(
            "aldric",
            json!([{"feature": "paladin-fighting-style", "picks": ["Dueling"]}]),
        ),
    );
    assert_eq!(done["level"], 2);
    let a = t.state.character("aldric").unwrap();
    assert_eq!(
        a.choices["paladin-fighting-style"],
        ["fighting-style-dueling"]
    );
    assert_eq!(style(a), Some(Style::Dueling));
}

#[test]
fn defense_taken_at_a_level_in_armour_adds_1_ac() {
    let mut hero = paladin();
    Arc::make_mut(&mut hero.inventory).push(dnd_engine::state::ItemStack {
        name: "Chain Mail".into(),
        quantity: 1,
        note: String::new(),
        magic: None,
        used_today: 0,
    });
    let before = hero.armor_class;
    let mut t = Table::new(game(hero, 300), 1);
    t.ok(
        "level_up",
        up(
            "aldric",
            json!([{"feature": "paladin-fighting-style", "picks": ["Defense"]}]),
        ),
    );
    assert_eq!(t.state.character("aldric").unwrap().armor_class, before + 1);
}

#[test]
fn a_hunter_picks_its_prey_at_3rd_level_and_no_choice_is_taken_twice() {
    let mut t = Table::new(game(ranger(2), 900), 1);
    let base = json!({"character": "sira", "subclass": "Hunter", "spells": ["Goodberry"]});
    let missing = t.refused("level_up", base.clone());
    assert!(
        missing.contains("hunters-prey: Hunter's Prey: Colossus Slayer"),
        "{missing}"
    );
    // A choice made at an earlier level is not open again.
    let mut again = base.clone();
    again["features"] = json!([
        {"feature": "hunters-prey", "picks": ["Colossus Slayer"]},
        {"feature": "ranger-fighting-style", "picks": ["Dueling"]}
    ]);
    let twice = t.refused("level_up", again);
    assert!(twice.contains("features.ranger-fighting-style"), "{twice}");
    let mut good = base;
    good["features"] = json!([{"feature": "Hunter's Prey", "picks": ["Colossus Slayer"]}]);
    t.ok("level_up", good);
    let s = t.state.character("sira").unwrap();
    assert_eq!(s.choices["hunters-prey"], ["hunters-prey-colossus-slayer"]);
    assert_eq!(
        s.choices["ranger-fighting-style"],
        ["ranger-fighting-style-archery"]
    );
}

#[test]
fn the_offline_choices_take_colossus_slayer() {
    let mut hero = ranger(2);
    hero.xp = 900;
    let choices = dnd_engine::character::first_legal_choices(
        &hero,
        dnd_engine::srd::Srd::bundled(),
        &dnd_engine::state::Levelling::Xp,
    )
    .unwrap();
    let prey = choices
        .features
        .iter()
        .find(|p| p.feature == "hunters-prey")
        .unwrap();
    assert_eq!(prey.picks, ["hunters-prey-colossus-slayer"]);
}

#[test]
fn a_barbarian_reaching_5th_level_moves_10_ft_faster() {
    let hero = table::built(json!({
        "name": "Brannoc", "race": "Half-Orc", "class": "Barbarian", "level": 4,
        "subclass": "Berserker",
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "survival"],
        "equipment": {"gold": 50}
    }));
    assert_eq!(hero.speed, 30);
    let mut t = Table::new(game(hero, 6_500), 1);
    t.ok("level_up", json!({"character": "brannoc"}));
    assert_eq!(t.state.character("brannoc").unwrap().speed, 40);
}

/// A scripted model levels the paladin with a style of another class and with a pick for a
/// feature the level does not bring: both refused with the options, the sheet unchanged.
#[tokio::test]
async fn a_model_levelling_with_wrong_feature_picks_is_refused() {
    let before = game(paladin(), 300);
    let cheats = vec![
        ToolCall::new(
            "a",
            "level_up",
            up(
                "aldric",
                json!([{"feature": "paladin-fighting-style", "picks": ["Two-Weapon Fighting"]}]),
            ),
        ),
        ToolCall::new(
            "b",
            "level_up",
            up(
                "aldric",
                json!([{"feature": "divine-smite", "picks": ["radiant"]}]),
            ),
        ),
        ToolCall::new(
            "c",
            "level_up",
            up(
                "aldric",
                json!([{"feature": "paladin-fighting-style", "picks": ["Defense", "Dueling"]}]),
            ),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Aldric", "I train my sword arm.").await;
    for (i, want) in [
        (0, "is not a Fighting Style"),
        (1, "features.divine-smite"),
        (2, "2 chosen"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert_eq!(
        after.character("aldric").unwrap(),
        before.character("aldric").unwrap()
    );
}

/// The Circle of the Land's Bonus Cantrip: the level that brings the circle (druid 2) teaches
/// one cantrip beyond the class table's (which adds none at 2nd); the builder counts it too.
#[test]
fn a_land_druid_learns_its_bonus_cantrip_with_the_circle() {
    let thorn = table::built(json!({
        "name": "Thorn", "race": "Human", "class": "Druid", "level": 1,
        "background": {"name": "Hermit", "skills": ["medicine", "religion"]},
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 13, "con": 14, "int": 10, "wis": 15, "cha": 12}},
        "skills": ["nature", "perception"],
        "equipment": {"gold": 20},
        "cantrips": ["Shillelagh", "Produce Flame"],
        "spells": ["Cure Wounds", "Thunderwave"]
    }));
    let mut t = Table::new(game(thorn, 300), 2);
    let circle = json!([{"feature": "circle-of-the-land", "picks": ["Arctic"]}]);
    let args = |spells: Value| json!({"character": "thorn", "subclass": "Land", "features": circle, "spells": spells});
    let none = t.refused("level_up", args(json!([])));
    assert!(
        none.contains("Guidance"),
        "the cantrips are offered: {none}"
    );
    t.ok("level_up", args(json!(["Guidance"])));
    let spells = &t.state.character("thorn").unwrap().spells;
    assert!(spells.iter().any(|s| s == "Guidance"), "{spells:?}");
    // Made at 2nd level, a Land druid picks three cantrips, not the table's two.
    let made: dnd_engine::character::CharacterChoices = serde_json::from_value(json!({
        "name": "Fern", "race": "Human", "class": "Druid", "level": 2, "subclass": "Land",
        "background": {"name": "Hermit", "skills": ["medicine", "religion"]},
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 13, "con": 14, "int": 10, "wis": 15, "cha": 12}},
        "skills": ["nature", "perception"],
        "features": {"circle-of-the-land": ["Arctic"]},
        "equipment": {"gold": 20},
        "cantrips": ["Shillelagh", "Produce Flame"],
        "spells": ["Cure Wounds"]
    }))
    .unwrap();
    let e = made
        .build(dnd_engine::srd::Srd::bundled())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("2 chosen; a level-2 Druid's cantrips takes 3"),
        "{e}"
    );
}
