//! The monk's features through the tools, worked as the SRD gives them: Martial Arts
//! (Dexterity and the martial arts die for fists and monk weapons, a bonus-action unarmed
//! strike after the Attack action), Ki (points = monk level, back on a short rest), Flurry of
//! Blows, Patient Defense, Step of the Wind, Unarmored Movement, Deflect Missiles, the Open
//! Hand Technique, Stunning Strike and Extra Attack at 5; and a model that cheats with them,
//! refused each time with what is allowed, changing nothing.

use serde_json::{Value, json};

use dnd_engine::combat::may_act;
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Condition, Spend};
use dnd_engine::state::{Change, Character, EffectKind, GameState, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// A human monk made by the builder at `level` (Open Hand from 3): Dexterity 16, Wisdom 15,
/// Strength 9, a shortsword and ten darts.
fn monk(level: u8) -> Character {
    table::built(json!({
        "name": "Li", "race": "Human", "class": "Monk", "level": level,
        "subclass": if level >= 3 { Some("Open Hand") } else { None },
        "background": "Acolyte",
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 15, "con": 12, "int": 10, "wis": 14, "cha": 13}},
        "skills": ["acrobatics", "stealth"],
        "equipment": {"kit": [{"option": 1}, {"option": 2}, {"option": 1, "picks": ["Amulet"]}, {"option": 1}]}
    }))
}

/// Li of `level` and Kraven against the Frost Harpy (200 HP), on Li's turn.
fn li_fights(level: u8, seed: u64) -> Table {
    let state = table::fight_with(
        &["kraven"],
        vec![monk(level)],
        &["li", "frost-harpy", "kraven"],
    );
    Table::new(state, seed)
}

fn fist(at: &str) -> Value {
    json!({"attacker": "li", "target": at, "attack": "Unarmed Strike", "advantage": null})
}

fn feature(name: &str, target: Option<&str>, option: Option<&str>) -> Value {
    json!({"character": "li", "feature": name, "target": target, "option": option})
}

fn ki_spent(state: &GameState) -> u8 {
    state
        .character("li")
        .unwrap()
        .feature_uses
        .get("ki")
        .map_or(0, |u| u.spent)
}

fn budget(t: &Table) -> dnd_engine::rules::TurnBudget {
    t.state.encounter.as_ref().unwrap().budget
}

#[test]
fn martial_arts_strikes_with_dexterity_and_the_martial_arts_die_then_once_more_as_a_bonus_action() {
    // The sheet: Unarmed Strike +5 (proficiency 2 + Dexterity 3), 1d4+3 bludgeoning; the
    // shortsword keeps its d6 (larger than the d4) and takes Dexterity too.
    let mut t = li_fights(1, 3);
    let sheet = t.ok("get_character_stats", json!({"character": "li"}));
    let line = |name: &str| {
        sheet["attacks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {sheet}"))
    };
    assert_eq!(line("Unarmed Strike")["to_hit"], 5, "{sheet}");
    assert_eq!(line("Unarmed Strike")["damage"]["dice"], "1d4+3");
    assert_eq!(line("Shortsword")["damage"]["dice"], "1d6+3");
    assert_eq!(line("Shortsword")["to_hit"], 5);
    assert_eq!(sheet["speed"], 30, "Unarmored Movement comes at 2");

    // The bonus strike follows the Attack action, not before it.
    let early = t.refused(
        "use_feature",
        feature("martial-arts", Some("frost-harpy"), None),
    );
    assert!(early.contains("attack first"), "{early}");
    t.ok("roll_attack", fist("frost-harpy"));
    assert!(budget(&t).martial_arts);
    let report = t.ok(
        "use_feature",
        feature("martial-arts", Some("frost-harpy"), None),
    );
    assert_eq!(
        report["strikes"][0]["attacks"][0]["attack"],
        "Unarmed Strike"
    );
    let result = &report["strikes"][0]["attacks"][0]["result"];
    if result["hit"] == true && result["critical"] == false {
        let dealt = result["total_damage"].as_u64().unwrap();
        assert!((4..=7).contains(&dealt), "1d4+3: {result}");
    }
    assert!(budget(&t).bonus_action_used);
    let twice = t.refused(
        "use_feature",
        feature("martial-arts", Some("frost-harpy"), None),
    );
    assert!(twice.contains("bonus action"), "{twice}");
}

#[test]
fn armour_ends_martial_arts() {
    let mut t = li_fights(1, 3);
    std::sync::Arc::make_mut(&mut t.hero_mut("li").inventory)
        .push(dnd_engine::state::ItemStack::new("Leather Armor", 1));
    let sheet = t.ok("get_character_stats", json!({"character": "li"}));
    let fist_line = sheet["attacks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Unarmed Strike")
        .cloned()
        .unwrap();
    // Strength 9 (-1) now: +1 to hit, and 1 + Strength, as anyone's fist.
    assert_eq!(fist_line["to_hit"], 1, "{sheet}");
    assert_eq!(fist_line["damage"]["dice"], "0", "{sheet}");
    t.ok("roll_attack", fist("frost-harpy"));
    let armoured = t.refused(
        "use_feature",
        feature("martial-arts", Some("frost-harpy"), None),
    );
    assert!(armoured.contains("without them"), "{armoured}");
}

#[test]
fn flurry_of_blows_spends_one_ki_after_the_attack_action_for_two_strikes() {
    let mut t = li_fights(2, 8);
    // Ki: two points at 2nd level.
    let early = t.refused(
        "use_feature",
        feature("flurry-of-blows", Some("frost-harpy"), None),
    );
    assert!(early.contains("attack first"), "{early}");
    t.ok("roll_attack", fist("frost-harpy"));
    let report = t.ok(
        "use_feature",
        feature("flurry-of-blows", Some("frost-harpy"), None),
    );
    assert_eq!(report["strikes"].as_array().unwrap().len(), 2, "{report}");
    assert_eq!(
        (report["uses_left"].as_u64(), report["uses_of"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(ki_spent(&t.state), 1);
    assert!(budget(&t).bonus_action_used);
    // Without the Open Hand (a 2nd-level monk), no technique to choose.
    let mut u = li_fights(2, 8);
    u.ok("roll_attack", fist("frost-harpy"));
    let no = u.refused(
        "use_feature",
        feature("flurry-of-blows", Some("frost-harpy"), Some("prone")),
    );
    assert!(no.contains("has no Open Hand Technique"), "{no}");
}

#[test]
fn patient_defense_dodges_and_step_of_the_wind_dashes_as_bonus_actions() {
    let mut t = li_fights(2, 1);
    t.ok("use_feature", feature("patient-defense", None, None));
    let dodging = t
        .state
        .encounter
        .as_ref()
        .unwrap()
        .effects
        .iter()
        .any(|e| e.creature == "li" && e.kind == EffectKind::Dodging);
    assert!(dodging);
    assert!(budget(&t).bonus_action_used && !budget(&t).action_used);
    assert_eq!(ki_spent(&t.state), 1);

    let mut t = li_fights(2, 1);
    let which = t.refused("use_feature", feature("step-of-the-wind", None, None));
    assert!(which.contains("\"dash\" or \"disengage\""), "{which}");
    t.ok(
        "use_feature",
        feature("step-of-the-wind", None, Some("dash")),
    );
    // The test's fight gives everyone 30 ft: Dash as a bonus action adds 30 more.
    assert_eq!(budget(&t).extra_movement_ft, 30);
    assert!(!budget(&t).action_used);
    // One bonus action a turn: no Disengage after the Dash.
    let again = t.refused(
        "use_feature",
        feature("step-of-the-wind", None, Some("disengage")),
    );
    assert!(again.contains("bonus action"), "{again}");
    let mut t = li_fights(2, 1);
    t.ok(
        "use_feature",
        feature("step-of-the-wind", None, Some("disengage")),
    );
    assert!(budget(&t).disengaged && !budget(&t).action_used);
}

#[test]
fn unarmored_movement_adds_10_ft_to_a_monk_of_2nd_level_in_a_fight_it_starts() {
    let mut t = Table::new(table::seen_harpy(&["kraven"]), 2);
    let mut li = monk(2);
    li.location = t.state.characters[0].location.clone();
    std::sync::Arc::make_mut(&mut t.state.characters).push(li);
    let sheet = t.ok("get_character_stats", json!({"character": "li"}));
    assert_eq!(sheet["speed"], 40);
    t.ok(
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    let slot = t
        .state
        .encounter
        .as_ref()
        .unwrap()
        .slot("li")
        .unwrap()
        .clone();
    assert_eq!(slot.speed, 40);
}

/// Li (monk 5) readies Stunning Strike and attacks the harpy with dice `seed`: the state after.
fn stunning(seed: u64) -> Table {
    let mut t = li_fights(5, seed);
    t.ok("use_feature", feature("stunning-strike", None, None));
    assert!(budget(&t).stunning_strike);
    t.ok("roll_attack", fist("frost-harpy"));
    t
}

#[test]
fn stunning_strike_spends_a_ki_on_a_hit_and_stuns_until_the_end_of_the_monks_next_turn() {
    // DC 8 + 3 + 2 = 13 against the harpy's Constitution save.
    let stunned = (0..300)
        .map(stunning)
        .find(|t| {
            t.state
                .monster("frost-harpy")
                .unwrap()
                .conditions
                .has(Condition::Stunned)
        })
        .expect("a stun in 300 seeds");
    let harpy = stunned.state.monster("frost-harpy").unwrap();
    let effect = harpy
        .timed_effects
        .iter()
        .find(|e| e.spell == "Stunning Strike")
        .unwrap();
    assert_eq!((effect.rounds_left, effect.at_turn_end), (Some(2), true));
    assert_eq!(effect.source, "li");
    assert_eq!(ki_spent(&stunned.state), 1);
    assert!(!budget(&stunned).stunning_strike);
    // A miss spends nothing and keeps it ready for the second attack (Extra Attack at 5).
    let mut missed = (0..300)
        .map(stunning)
        .find(|t| ki_spent(&t.state) == 0)
        .expect("a miss in 300 seeds");
    assert!(budget(&missed).stunning_strike);
    missed.ok("roll_attack", fist("frost-harpy"));
    let third = missed.refused("roll_attack", fist("frost-harpy"));
    assert!(third.contains("already used the action"), "{third}");
}

#[test]
fn open_hand_technique_knocks_prone_or_takes_the_reactions() {
    let flurried = |seed: u64, option: &str| {
        let mut t = li_fights(3, seed);
        t.ok("roll_attack", fist("frost-harpy"));
        let report = t.ok(
            "use_feature",
            feature("flurry-of-blows", Some("frost-harpy"), Some(option)),
        );
        (t, report)
    };
    let (t, report) = (0..200)
        .map(|s| flurried(s, "prone"))
        .find(|(t, _)| {
            t.state
                .monster("frost-harpy")
                .unwrap()
                .conditions
                .has(Condition::Prone)
        })
        .expect("a harpy knocked down in 200 seeds");
    let saves: Vec<&Value> = report["strikes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["attacks"][0].get("on_hit_save"))
        .collect();
    assert!(
        saves.iter().any(|s| s["save"]["success"] == false),
        "{report}"
    );
    assert_eq!(saves[0]["save"]["dc"], 12, "8 + 2 + Wisdom 2");
    drop(t);

    let (t, _) = (0..200)
        .map(|s| flurried(s, "no-reactions"))
        .find(|(_, r)| r["effect"].as_str().unwrap().contains("no reactions"))
        .expect("a hit in 200 seeds");
    let harpy = t.state.monster("frost-harpy").unwrap();
    assert!(
        harpy
            .timed_effects
            .iter()
            .any(|e| e.kind == TimedKind::NoReactions)
    );
    let no = may_act(&t.state, "frost-harpy", Spend::Reaction).unwrap_err();
    assert!(no.to_string().contains("no reactions"), "{no}");

    let mut t = li_fights(3, 1);
    t.ok("roll_attack", fist("frost-harpy"));
    let bad = t.refused(
        "use_feature",
        feature("flurry-of-blows", Some("frost-harpy"), Some("fly")),
    );
    assert!(bad.contains("\"prone\""), "{bad}");
}

#[test]
fn deflect_missiles_cuts_a_ranged_weapon_hit_with_the_reaction() {
    let deflected = |seed: u64| {
        let mut state = table::seen_harpy(&["kraven"]);
        let mut goblin = state.monsters[0].clone();
        goblin.id = "goblin".into();
        goblin.name = "Goblin".into();
        goblin.template = "goblin".into();
        std::sync::Arc::make_mut(&mut state.monsters).push(goblin);
        let mut li = monk(3);
        li.location = state.characters[0].location.clone();
        std::sync::Arc::make_mut(&mut state.characters).push(li);
        state
            .apply(&Change::EncounterStarted {
                order: table::order(&["goblin", "li", "kraven", "frost-harpy"]),
            })
            .unwrap();
        let mut t = Table::new(state, seed);
        let report = t.ok(
            "roll_attack",
            json!({"attacker": "goblin", "target": "li", "attack": "Shortbow", "advantage": null}),
        );
        (t, report)
    };
    let (t, report) = (0..100)
        .map(deflected)
        .find(|(_, r)| r["attacks"][0]["result"]["hit"] == true)
        .expect("a hit in 100 seeds");
    let swing = &report["attacks"][0];
    assert_eq!(
        swing["reaction"]["reaction"], "Deflect Missiles",
        "{report}"
    );
    // 1d10 + 3 + 3 cuts a shortbow's 1d6+2 (at most 8 unless critical) to 0 on most rolls.
    let li = t.state.character("li").unwrap();
    assert_eq!(
        li.hp.max - li.hp.current,
        swing["result"]["total_damage"].as_u64().unwrap() as u32
    );
    assert!(!t.state.encounter.as_ref().unwrap().has_reaction("li"));
}

/// A scripted model plays Li's ki as it likes: a flurry before attacking, Isolde's flurry, a
/// Stunning Strike at 3rd level, a flurry at Li herself, a flurry with no ki left, and Li's
/// Patient Defense on the harpy's turn. Each is refused with what is allowed; only the lawful
/// attack and flurry change the sheet.
#[tokio::test]
async fn a_model_cheating_with_ki_is_refused() {
    let mut before =
        table::fight_with(&["isolde"], vec![monk(3)], &["li", "isolde", "frost-harpy"]);
    // One ki point of three left.
    before
        .apply(&Change::FeatureUsed {
            character: "li".into(),
            feature: "ki".into(),
            of: 3,
            restores: dnd_engine::srd::Rest::ShortRest,
            count: 2,
        })
        .unwrap();
    let call = |id: &str, args: Value| ToolCall::new(id, "use_feature", args);
    let cheats = vec![
        call("a", feature("flurry-of-blows", Some("frost-harpy"), None)),
        call(
            "b",
            json!({"character": "isolde", "feature": "flurry-of-blows", "target": "frost-harpy"}),
        ),
        call("c", feature("stunning-strike", None, None)),
        ToolCall::new("d", "roll_attack", fist("frost-harpy")),
        call("e", feature("flurry-of-blows", Some("li"), None)),
        call("f", feature("flurry-of-blows", Some("frost-harpy"), None)),
        call("g", feature("patient-defense", None, None)),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Li", "Fists of wind!").await;
    assert_eq!(results.len(), 7, "{results:#?}");
    for (i, want) in [
        (0, "attack first"),
        (1, "has no feature"),
        (2, "comes at monk level 5"),
        (4, "cannot strike itself"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(!results[3].contains("\"error\""), "{}", results[3]);
    assert!(results[5].contains("\"strikes\""), "{}", results[5]);
    // No ki left, and the bonus action gone.
    assert!(results[6].contains("\"error\""), "{}", results[6]);
    assert!(
        results[6].contains("used Ki 3 time(s) of 3"),
        "{}",
        results[6]
    );
    assert_eq!(ki_spent(&after), 3);
    assert_eq!(after.character("isolde"), before.character("isolde"));
}

/// Off her turn, Li's bonus action is not hers to spend: refused, naming whose turn it is.
#[test]
fn a_ki_feature_off_the_monks_turn_is_refused() {
    let state = table::fight_with(&["kraven"], vec![monk(2)], &["kraven", "li", "frost-harpy"]);
    let mut t = Table::new(state, 4);
    let off = t.refused("use_feature", feature("patient-defense", None, None));
    assert!(off.contains("Kraven"), "{off}");
    let off = t.refused(
        "use_feature",
        feature("step-of-the-wind", None, Some("dash")),
    );
    assert!(off.contains("turn"), "{off}");
}

/// Li falls 60 ft with dice `seed` at `level`: the damage the tool reports, and Li's HP lost.
fn fall(level: u8, seed: u64) -> (u64, u32) {
    let mut t = Table::new(table::seen_harpy(&["kraven"]), seed);
    let mut li = monk(level);
    li.location = t.state.characters[0].location.clone();
    li.hp = dnd_engine::rules::HitPoints::full(200);
    std::sync::Arc::make_mut(&mut t.state.characters).push(li);
    let report = t.ok(
        "apply_hazard_damage",
        json!({"target": "li", "cause": "fall", "feet": 60, "severity": null, "damage_type": null, "reason": null}),
    );
    let li = t.state.character("li").unwrap();
    (
        report["damage"].as_u64().unwrap(),
        li.hp.max - li.hp.current,
    )
}

#[test]
fn slow_fall_takes_five_times_the_monk_level_off_a_fall_from_4th_level() {
    for seed in 0..5 {
        // The same 6d6 at 3rd and at 4th level.
        let (at3, lost3) = fall(3, seed);
        let (at4, lost4) = fall(4, seed);
        assert_eq!(at3 as u32, lost3);
        assert_eq!(at4 as u32, lost4);
        assert_eq!(at4, at3.saturating_sub(20), "seed {seed}: 6d6 = {at3}");
    }
}
