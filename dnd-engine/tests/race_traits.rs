//! The races' traits at the table, each through the tools as a model would call them and worked
//! as the SRD gives them: the resistances (Dwarven Resilience, Hellish Resistance, a
//! dragonborn's ancestry), advantage on saves against poison, fear, charm and magic, Lucky's
//! reroll of a natural 1, Relentless Endurance, Savage Attacks, Breath Weapon, a Small hero's
//! heavy weapon, Fey Ancestry against Sleep and darkvision in a dark room; and a model that
//! cheats with the one trait used on purpose, refused with what is allowed, changing nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, Light, Target};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack};

fn save(who: &str, ability: &str, against: &[&str]) -> Value {
    json!({"creature": who, "ability": ability, "dc": 30, "advantage": null, "reason": null, "against": against})
}

fn reasons(report: &Value) -> String {
    report["advantage_reasons"].to_string()
}

fn fire(who: &str) -> Value {
    json!({"target": who, "cause": "hazard", "feet": null, "severity": "dangerous", "damage_type": "fire", "reason": "a gout of flame"})
}

fn poison(who: &str) -> Value {
    json!({"target": who, "cause": "hazard", "feet": null, "severity": "setback", "damage_type": "poison", "reason": "venom"})
}

/// A level-3 hero of `race` and `class` made by the builder, with the usual scores.
fn hero(name: &str, race: &str, extra: Value) -> dnd_engine::state::Character {
    let mut choices = json!({
        "name": name, "race": race, "class": "Fighter", "level": 3, "subclass": "Champion",
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "survival"],
        "features": {"fighter-fighting-style": ["Great Weapon Fighting"]},
        "equipment": {"kit": [{"option": 1}, {"option": 1, "picks": ["Greataxe"]}, {"option": 2}, {"option": 2}]}
    });
    if let (Value::Object(c), Value::Object(e)) = (&mut choices, extra) {
        c.extend(e);
    }
    table::built(choices)
}

fn at_table(hero: dnd_engine::state::Character, seed: u64) -> Table {
    let id = hero.id.clone();
    let state = table::fight_with(&["kraven"], vec![hero], &[&id, "kraven", "frost-harpy"]);
    Table::new(state, seed)
}

#[test]
fn a_dwarf_resists_poison_and_saves_against_it_with_advantage() {
    let mut t = Table::game(&["hedda", "kraven"], 3);
    let dwarf = t.ok("apply_hazard_damage", poison("hedda"));
    assert_eq!(dwarf["defense"], "resisted", "{dwarf}");
    assert_eq!(
        dwarf["damage"].as_u64().unwrap(),
        dwarf["rolled"].as_u64().unwrap() / 2
    );
    let human = t.ok("apply_hazard_damage", poison("kraven"));
    assert_eq!(human["damage"], human["rolled"], "{human}");

    let against_poison = t.ok(
        "roll_saving_throw",
        save("hedda", "constitution", &["poison"]),
    );
    assert!(reasons(&against_poison).contains("Dwarven Resilience"));
    assert_eq!(against_poison["result"]["d20"]["count"], 2);
    // Against anything else, or for a human, no advantage.
    let plain = t.ok(
        "roll_saving_throw",
        save("hedda", "constitution", &["fear"]),
    );
    assert_eq!(plain["result"]["d20"]["count"], 1, "{plain}");
    let kraven = t.ok(
        "roll_saving_throw",
        save("kraven", "constitution", &["poison"]),
    );
    assert_eq!(kraven["result"]["d20"]["count"], 1, "{kraven}");
}

#[test]
fn brave_fey_ancestry_and_gnome_cunning_give_advantage_against_their_threat() {
    let gnome = hero("Fizz", "Rock Gnome", json!({}));
    let state = table::fight_with(
        &["wren", "isolde"],
        vec![gnome],
        &["wren", "isolde", "fizz", "frost-harpy"],
    );
    let mut t = Table::new(state, 4);
    for (who, ability, against, trait_name) in [
        ("wren", "wisdom", "fear", "Brave"),
        ("isolde", "wisdom", "charm", "Fey Ancestry"),
        ("fizz", "wisdom", "magic", "Gnome Cunning"),
        ("fizz", "charisma", "magic", "Gnome Cunning"),
    ] {
        let r = t.ok("roll_saving_throw", save(who, ability, &[against]));
        assert!(reasons(&r).contains(trait_name), "{who}: {r}");
    }
    // Gnome Cunning is for the mind's saves only; Brave is not against charm.
    for (who, ability, against) in [
        ("fizz", "dexterity", "magic"),
        ("wren", "wisdom", "charm"),
        ("isolde", "wisdom", "fear"),
    ] {
        let r = t.ok("roll_saving_throw", save(who, ability, &[against]));
        assert!(
            r["advantage_reasons"].get("advantage").is_none(),
            "{who} {against}: {r}"
        );
    }
}

#[test]
fn hellish_resistance_and_a_red_dragonborn_halve_fire() {
    let tiefling = hero("Vex", "Tiefling", json!({}));
    let dragonborn = hero(
        "Rhogar",
        "Dragonborn",
        json!({"race_traits": {"draconic-ancestry": ["draconic-ancestry-red"]}}),
    );
    let state = table::fight_with(
        &["kraven"],
        vec![tiefling, dragonborn],
        &["vex", "rhogar", "kraven", "frost-harpy"],
    );
    let mut t = Table::new(state, 5);
    for who in ["vex", "rhogar"] {
        let r = t.ok("apply_hazard_damage", fire(who));
        assert_eq!(r["defense"], "resisted", "{who}: {r}");
    }
    let kraven = t.ok("apply_hazard_damage", fire("kraven"));
    assert_eq!(kraven["defense"], "none", "{kraven}");
}

#[test]
fn lucky_rerolls_a_halflings_natural_one() {
    // Over many seeds, Wren's saves never stand on a first natural 1: each 1 was rolled again.
    let mut rerolled = 0;
    for seed in 0..300 {
        let mut t = Table::game(&["wren", "kraven"], seed);
        let wren = t.ok("roll_saving_throw", save("wren", "dexterity", &[]));
        let d20 = &wren["result"]["d20"];
        if d20["lucky_reroll"] == true {
            rerolled += 1;
        } else {
            assert_ne!(d20["natural"], 1, "seed {seed}: {wren}");
        }
        // Kraven (human) keeps his 1s.
        let kraven = t.ok("roll_saving_throw", save("kraven", "dexterity", &[]));
        assert!(kraven["result"]["d20"].get("lucky_reroll").is_none());
    }
    assert!(rerolled > 5, "about 1 in 20 of 300 saves: {rerolled}");
    // Her attack rolls too.
    let seed = (0..400)
        .find(|&s| {
            let mut t = Table::fight(&["wren"], &["wren", "frost-harpy"], s);
            t.ok("roll_attack", attack("wren", "frost-harpy"))["attacks"][0]["result"]["d20"]
                ["lucky_reroll"]
                == true
        })
        .expect("a rerolled 1 in 400 attacks");
    let mut t = Table::fight(&["wren"], &["wren", "frost-harpy"], seed);
    let r = t.ok("roll_attack", attack("wren", "frost-harpy"));
    assert_eq!(r["attacks"][0]["result"]["d20"]["lucky_reroll"], true);
}

#[test]
fn relentless_endurance_leaves_a_half_orc_at_1_hp_once_per_long_rest() {
    let orc = hero("Brakka", "Half-Orc", json!({}));
    let mut t = at_table(orc, 6);
    let hp = t.state.character("brakka").unwrap().hp;
    let hit = |amount| Change::Damage {
        target: Target::Character("brakka".into()),
        amount,
        critical: false,
    };
    // Enough to drop him, not enough to kill him outright.
    t.apply(&[hit(hp.current + 3)]);
    let b = t.state.character("brakka").unwrap();
    assert_eq!(b.hp.current, 1, "Relentless Endurance");
    assert!(!b.conditions.has(dnd_engine::rules::Condition::Unconscious));
    assert_eq!(b.feature_uses["relentless-endurance"].left(), 0);
    // The second time in the day he falls.
    t.apply(&[hit(5)]);
    let b = t.state.character("brakka").unwrap();
    assert_eq!(b.hp.current, 0);
    assert!(b.conditions.has(dnd_engine::rules::Condition::Unconscious));
    // Massive damage kills outright: the trait does not hold then.
    let orc = hero("Grom", "Half-Orc", json!({}));
    let mut t = at_table(orc, 6);
    let max = t.state.character("grom").unwrap().hp.max;
    t.apply(&[Change::Damage {
        target: Target::Character("grom".into()),
        amount: max * 2,
        critical: false,
    }]);
    assert!(t.state.character("grom").unwrap().dead);
}

/// Brakka's (half-orc) or Kraven's (human) first swing with dice `seed`: critical?, and the
/// number of damage rolls.
fn greataxe_swing(race: &str, seed: u64) -> (bool, usize) {
    let orc = hero("Brakka", race, json!({}));
    let mut t = at_table(orc, seed);
    let report = t.ok(
        "roll_attack",
        json!({"attacker": "brakka", "target": "frost-harpy", "attack": "Greataxe", "advantage": null}),
    );
    let result = &report["attacks"][0]["result"];
    (
        result["critical"] == true,
        result["damage"].as_array().map_or(0, Vec::len),
    )
}

#[test]
fn savage_attacks_adds_a_weapon_die_to_a_half_orcs_melee_critical() {
    let seed = (0..600)
        .find(|&s| greataxe_swing("Half-Orc", s).0)
        .expect("a critical in 600 swings");
    assert_eq!(
        greataxe_swing("Half-Orc", seed),
        (true, 2),
        "greataxe + savage die"
    );
    // The same critical by a human: the weapon's damage alone.
    assert_eq!(greataxe_swing("Human", seed), (true, 1));
    // A plain hit by the half-orc: no extra die.
    let hit = (0..600)
        .find(|&s| {
            let (crit, rolls) = greataxe_swing("Half-Orc", s);
            !crit && rolls > 0
        })
        .unwrap();
    assert_eq!(greataxe_swing("Half-Orc", hit), (false, 1));
}

#[test]
fn a_small_hero_swings_a_heavy_weapon_at_disadvantage() {
    let gnome = hero("Fizz", "Rock Gnome", json!({}));
    let mut t = at_table(gnome, 8);
    let r = t.ok(
        "roll_attack",
        json!({"attacker": "fizz", "target": "frost-harpy", "attack": "Greataxe", "advantage": null}),
    );
    let why = r["attacks"][0]["advantage_reasons"].to_string();
    assert!(why.contains("Small creature with a heavy weapon"), "{r}");
    let orc = hero("Brakka", "Half-Orc", json!({}));
    let mut t = at_table(orc, 8);
    let r = t.ok(
        "roll_attack",
        json!({"attacker": "brakka", "target": "frost-harpy", "attack": "Greataxe", "advantage": null}),
    );
    assert!(
        !r["attacks"][0]["advantage_reasons"]
            .to_string()
            .contains("heavy")
    );
}

fn breathe(who: &str, target: Option<&str>) -> Value {
    json!({"character": who, "feature": "breath-weapon", "target": target})
}

fn red_dragonborn(seed: u64) -> Table {
    let dragonborn = hero(
        "Rhogar",
        "Dragonborn",
        json!({"race_traits": {"draconic-ancestry": ["draconic-ancestry-red"]}}),
    );
    at_table(dragonborn, seed)
}

#[test]
fn breath_weapon_burns_for_2d6_against_a_con_dc_once_per_short_rest() {
    let mut t = red_dragonborn(9);
    let harpy_before = t.state.monster("frost-harpy").unwrap().hp.current;
    let r = t.ok("use_feature", breathe("rhogar", Some("frost-harpy")));
    // DC 8 + Con 2 (14 +0 racial... the dragonborn's +2 is Strength) + proficiency 2 = 12.
    let rhogar = t.state.character("rhogar").unwrap();
    let dc = 8
        + rhogar
            .abilities
            .modifier(dnd_engine::rules::Ability::Constitution)
        + 2;
    let effect = r["effect"].as_str().unwrap();
    assert!(effect.contains("breathes fire in a 15-ft cone"), "{r}");
    assert!(effect.contains(&format!("vs DC {dc}")), "{r}");
    assert_eq!(r["rolled"], "2d6 fire");
    assert_eq!(r["uses_left"], 0);
    let taken = harpy_before - t.state.monster("frost-harpy").unwrap().hp.current;
    assert!((1..=12).contains(&taken), "2d6, halved on a save: {taken}");
    let budget = &t.state.encounter.as_ref().unwrap().budget;
    assert!(budget.action_used, "the breath is an action");
    // Used: refused until a rest.
    let again = t.refused("use_feature", breathe("rhogar", Some("frost-harpy")));
    assert!(
        again.contains("comes back after a short or long rest"),
        "{again}"
    );
    t.apply(&[Change::EncounterEnded]);
    t.ok(
        "update_character",
        json!({"character": "rhogar", "update": "short_rest", "condition": null, "amount": 0}),
    );
    assert!(t.state.character("rhogar").unwrap().feature_uses.is_empty());
}

#[test]
fn breath_weapon_misuse_is_refused_with_what_is_allowed() {
    let mut t = red_dragonborn(10);
    let none = t.refused("use_feature", breathe("rhogar", None));
    assert!(none.contains("needs a target"), "{none}");
    let amount = t.refused(
        "use_feature",
        json!({"character": "rhogar", "feature": "breath-weapon", "target": "frost-harpy", "amount": 3}),
    );
    assert!(amount.contains("no amount or option"), "{amount}");
    let kraven = t.refused("use_feature", breathe("kraven", Some("frost-harpy")));
    assert!(kraven.contains("is not a trait of Kraven"), "{kraven}");
    let passive = t.refused(
        "use_feature",
        json!({"character": "rhogar", "feature": "damage-resistance"}),
    );
    assert!(passive.contains("works by itself"), "{passive}");
    // Out of turn: it is Rhogar's turn first; after it passes, the breath waits.
    t.ok("next_turn", json!({}));
    let late = t.refused("use_feature", breathe("rhogar", Some("frost-harpy")));
    assert!(late.contains("turn"), "{late}");
}

/// A scripted model breathes twice, breathes with a human, and breathes at nobody: only the
/// first breath is lawful and changes anything.
#[tokio::test]
async fn a_model_cheating_with_breath_weapon_is_refused() {
    let before = red_dragonborn(11).state;
    let cheats = vec![
        ToolCall::new("a", "use_feature", breathe("rhogar", Some("frost-harpy"))),
        ToolCall::new("b", "use_feature", breathe("rhogar", Some("frost-harpy"))),
        ToolCall::new("c", "use_feature", breathe("kraven", Some("frost-harpy"))),
        ToolCall::new("d", "use_feature", breathe("rhogar", None)),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Rhogar", "I breathe fire!").await;
    assert_eq!(results.len(), 4, "{results:#?}");
    assert!(results[0].contains("breathes fire"), "{}", results[0]);
    for (i, want) in [
        (1, "comes back after a short or long rest"),
        (2, "not a trait of Kraven"),
        (3, "needs a target"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert_eq!(
        after.character("rhogar").unwrap().feature_uses["breath-weapon"].spent,
        1
    );
    assert_eq!(
        after.character("kraven").unwrap(),
        before.character("kraven").unwrap()
    );
}

#[test]
fn sleep_passes_over_an_elf() {
    // Isolde casts Sleep on two heroes at 1 hit point: Wren (a halfling) falls asleep, the
    // elf cannot be put to sleep by magic.
    let elf = hero(
        "Sylvar",
        "High Elf",
        json!({"race_traits": {"high-elf-cantrip": ["Light"]}, "skills": ["survival", "history"]}),
    );
    let state = table::fight_with(
        &["isolde", "wren"],
        vec![elf],
        &["isolde", "wren", "sylvar", "frost-harpy"],
    );
    let mut t = Table::new(state, 12);
    t.hero_mut("wren").hp.current = 1;
    t.hero_mut("sylvar").hp.current = 1;
    let r = t.ok(
        "cast_spell",
        table::cast("isolde", "Sleep", Some(1), &["sylvar", "wren"]),
    );
    let text = r.to_string();
    assert!(text.contains("Fey Ancestry"), "{r}");
    let c = |id| t.state.character(id).unwrap().conditions;
    assert!(!c("sylvar").has(dnd_engine::rules::Condition::Unconscious));
    assert!(c("wren").has(dnd_engine::rules::Condition::Unconscious));
}

fn lit(t: &mut Table, light: Light) {
    let room = t.state.characters[0].location.clone();
    let locations = Arc::make_mut(&mut t.state.locations);
    locations.iter_mut().find(|l| l.id == room).unwrap().light = light;
}

fn perceive(who: &str) -> Value {
    json!({"creature": who, "skill": "perception", "dc": 10, "advantage": null, "reason": null})
}

#[test]
fn darkvision_sees_in_a_dark_room_where_a_human_is_blinded() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        13,
    );
    lit(&mut t, Light::Dark);
    // Kraven (human) sees nothing: his attack is at disadvantage, and the harpy (no
    // darkvision) cannot see him either: the two cancel.
    let k = t.ok("roll_attack", attack("kraven", "frost-harpy"));
    let why = k["attacks"][0]["advantage_reasons"].to_string();
    assert!(why.contains("attacker cannot see"), "{k}");
    assert!(why.contains("target cannot see"), "{k}");
    assert_eq!(
        k["attacks"][0]["result"]["d20"]["count"], 1,
        "they cancel: one die"
    );
    // A Perception check in darkness fails for him; Isolde's darkvision sees it as dim light.
    let kp = t.ok("roll_skill_check", perceive("kraven"));
    assert_eq!(kp["result"]["success"], false);
    assert!(
        kp["result"]["automatic_failure"]
            .as_str()
            .unwrap()
            .contains("darkness")
    );
    let ip = t.ok("roll_skill_check", perceive("isolde"));
    assert!(ip["result"].get("automatic_failure").is_none(), "{ip}");
    assert!(
        ip["advantage_reasons"].to_string().contains("dim light"),
        "{ip}"
    );
    // In dim light the human has disadvantage on Perception; the elf sees as in bright light.
    lit(&mut t, Light::Dim);
    let kp = t.ok("roll_skill_check", perceive("kraven"));
    assert!(
        kp["advantage_reasons"].to_string().contains("dim light"),
        "{kp}"
    );
    let ip = t.ok("roll_skill_check", perceive("isolde"));
    assert!(!ip["advantage_reasons"].to_string().contains("dim"), "{ip}");
    // And in dim light no attack changes.
    t.ok("next_turn", json!({}));
    let i = t.ok("roll_attack", attack("isolde", "frost-harpy"));
    assert!(
        !i["attacks"][0]["advantage_reasons"]
            .to_string()
            .contains("dark")
    );
}

#[test]
fn a_room_states_its_light_in_the_adventure_format() {
    let mut adventure: Value =
        serde_json::from_str(include_str!("../src/adventure/wailing_glacier.json")).unwrap();
    adventure["rooms"][0]["light"] = json!("dark");
    let parsed =
        dnd_engine::adventure::Adventure::from_json(&adventure.to_string(), "test.json").unwrap();
    assert_eq!(parsed.rooms[0].light, Light::Dark);
    adventure["rooms"][0]["light"] = json!("pitch black");
    let problems = dnd_engine::adventure::Adventure::from_json(&adventure.to_string(), "test.json")
        .unwrap_err()
        .to_string();
    assert!(
        problems.contains("rooms[0].light") || problems.contains("light"),
        "{problems}"
    );
}

#[test]
fn darkvision_reaches_60_feet_and_no_farther() {
    use table::{at, order, placed_fight};
    let fire_bolt = json!({"attacker": "isolde", "target": "frost-harpy", "attack": "Fire Bolt", "advantage": null});
    for (feet, sees) in [(50, true), (70, false)] {
        let state = placed_fight(
            &["isolde"],
            order(&["isolde", "frost-harpy"]),
            &[("isolde", at(0, 0, 0)), ("frost-harpy", at(feet, 0, 0))],
        );
        let mut t = Table::new(state, 14);
        lit(&mut t, Light::Dark);
        let r = t.ok("roll_attack", fire_bolt.clone());
        let why = r["attacks"][0]["advantage_reasons"].to_string();
        assert_eq!(!why.contains("attacker cannot see"), sees, "{feet} ft: {r}");
        // The harpy has no darkvision: it never sees Isolde in the dark.
        assert!(why.contains("target cannot see"), "{feet} ft: {r}");
    }
}
