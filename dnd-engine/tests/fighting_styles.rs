//! Fighting styles in play, worked through `roll_attack` with heroes made by the builder:
//! Archery (+2 to hit with a ranged weapon), Dueling (+2 damage with a one-handed melee weapon),
//! Great Weapon Fighting (1s and 2s of a two-handed weapon's dice rolled again, once),
//! Protection (a reaction with a shield spoils a monster's attack on an ally beside), Defense
//! (the builder's +1 AC); and a model that tries to use a style as a feature, refused.

use serde_json::{Value, json};

use dnd_engine::character::fighting_style::{Style, style};
use dnd_engine::llm::ToolCall;
use dnd_engine::state::Character;

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Brakka, a half-orc fighter of 1st level with `style`, and the kit: chain mail or leather
/// and a longbow (`kit_one`), a shield and a longsword or a greatsword and a longsword.
fn brakka(style: &str, kit_one: u8, shield: bool) -> Character {
    let second = if shield {
        json!({"option": 1, "picks": ["Longsword"]})
    } else {
        json!({"option": 2, "picks": ["Greatsword", "Longsword"]})
    };
    table::built(json!({
        "name": "Brakka", "race": "Half-Orc", "class": "Fighter", "level": 1,
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 14, "con": 13, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "survival"],
        "features": {"fighter-fighting-style": [style]},
        "equipment": {"kit": [{"option": kit_one}, second, {"option": 2}, {"option": 2}]}
    }))
}

fn fight(hero: Character, order: &[&str], seed: u64) -> Table {
    Table::new(table::fight_with(&["isolde"], vec![hero], order), seed)
}

fn swing(attacker: &str, target: &str, weapon: &str) -> Value {
    json!({"attacker": attacker, "target": target, "attack": weapon, "advantage": null})
}

/// The first swing's result of Brakka's attack with `weapon` at the harpy.
fn strike(hero: Character, weapon: &str, seed: u64) -> Value {
    let mut t = fight(hero, &["brakka", "frost-harpy", "isolde"], seed);
    let report = t.ok("roll_attack", swing("brakka", "frost-harpy", weapon));
    report["attacks"][0]["result"].clone()
}

#[test]
fn archery_adds_2_to_a_ranged_weapon_attack_only() {
    let archer = brakka("Archery", 2, true);
    assert_eq!(style(&archer), Some(Style::Archery));
    let bow = archer.attacks.iter().find(|a| a.name == "Longbow").unwrap();
    let plain = archer.attack_bonus(bow);
    assert_eq!(
        strike(archer.clone(), "Longbow", 1)["attack_bonus"],
        plain + 2
    );
    let sword = archer
        .attacks
        .iter()
        .find(|a| a.name == "Longsword")
        .unwrap();
    let melee = archer.attack_bonus(sword);
    assert_eq!(strike(archer, "Longsword", 1)["attack_bonus"], melee);
}

#[test]
fn dueling_adds_2_damage_to_a_longsword_in_one_hand() {
    // The same dice: the same hit, 2 more damage with Dueling than with Defense.
    let seed = (0..200)
        .find(|s| strike(brakka("Defense", 1, true), "Longsword", *s)["hit"] == true)
        .unwrap();
    let defense = strike(brakka("Defense", 1, true), "Longsword", seed);
    let dueling = strike(brakka("Dueling", 1, true), "Longsword", seed);
    let dealt = |r: &Value| r["total_damage"].as_u64().unwrap();
    assert_eq!(dealt(&dueling), dealt(&defense) + 2, "{dueling}");
    // Without a shield the longsword is taken as held in two hands: no Dueling.
    let two_hands = strike(brakka("Dueling", 2, false), "Longsword", seed);
    let no_shield = strike(brakka("Defense", 2, false), "Longsword", seed);
    assert_eq!(dealt(&two_hands), dealt(&no_shield));
}

#[test]
fn great_weapon_fighting_rerolls_a_greatswords_ones_and_twos_once() {
    let faces = |r: &Value| -> Vec<u64> {
        r["damage"][0]["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_u64().unwrap())
            .collect()
    };
    // A hit whose 2d6 show a 1 or a 2 without the style.
    let seed = (0..500)
        .find(|s| {
            let r = strike(brakka("Defense", 1, false), "Greatsword", *s);
            r["hit"] == true && faces(&r).iter().any(|f| *f <= 2)
        })
        .expect("a low die in 500 seeds");
    let plain = strike(brakka("Defense", 1, false), "Greatsword", seed);
    let great = strike(
        brakka("Great Weapon Fighting", 1, false),
        "Greatsword",
        seed,
    );
    let (before, after) = (faces(&plain), faces(&great));
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        if *b > 2 {
            assert_eq!(a, b, "a 3 or more stands");
        }
    }
    assert_ne!(before, after, "a low die was rolled again: {great}");
    let bonus = great["damage"][0]["rolled"].as_u64().unwrap() - after.iter().sum::<u64>();
    assert_eq!(bonus, 3, "Strength 17 (15 and the half-orc's +2): +3");
    assert_eq!(great["total_damage"], great["damage"][0]["taken"]);
}

#[test]
fn protection_spends_a_reaction_to_give_the_harpys_attack_disadvantage() {
    let mut t = fight(
        brakka("Protection", 1, true),
        &["frost-harpy", "brakka", "isolde"],
        4,
    );
    let report = t.ok("roll_attack", swing("frost-harpy", "isolde", "Claws"));
    let reasons = report["attacks"][0]["advantage_reasons"].to_string();
    assert!(reasons.contains("Brakka interposes a shield"), "{report}");
    let encounter = t.state.encounter.as_ref().unwrap();
    assert!(!encounter.has_reaction("brakka"), "the reaction is spent");
    // No shield, no Protection.
    let mut t = fight(
        brakka("Protection", 2, false),
        &["frost-harpy", "brakka", "isolde"],
        4,
    );
    let report = t.ok("roll_attack", swing("frost-harpy", "isolde", "Claws"));
    assert!(!report.to_string().contains("interposes"), "{report}");
}

#[test]
fn defense_is_the_builders_plus_1_in_armour() {
    let chain = brakka("Defense", 1, false);
    let dueling = brakka("Dueling", 1, false);
    assert_eq!(chain.armor_class, dueling.armor_class + 1);
}

/// A scripted model calls the fighting style as a feature to use and attacks with a weapon the
/// hero does not carry: both refused with what is allowed, nothing changed.
#[tokio::test]
async fn a_model_using_a_fighting_style_as_an_action_is_refused() {
    let before = table::fight_with(
        &["isolde"],
        vec![brakka("Archery", 2, true)],
        &["brakka", "isolde", "frost-harpy"],
    );
    let cheats = vec![
        ToolCall::new(
            "a",
            "use_feature",
            json!({"character": "brakka", "feature": "fighter-fighting-style"}),
        ),
        ToolCall::new(
            "b",
            "roll_attack",
            swing("brakka", "frost-harpy", "Heavy Crossbow"),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Brakka", "I loose an arrow!").await;
    assert!(
        results[0].contains("is not used through use_feature"),
        "{}",
        results[0]
    );
    assert!(results[1].contains("valid: Longbow"), "{}", results[1]);
    assert_eq!(after.characters, before.characters);
}
