//! The barbarian's features through the tools, worked as the SRD gives them: Rage (a bonus
//! action; rage damage on melee Strength hits; resistance to bludgeoning, piercing and
//! slashing; advantage on Strength checks and saves; no spells; a minute, ended early by
//! unconsciousness or a turn without attacking or being hurt), Reckless Attack, Danger Sense,
//! Frenzy (a Berserker's bonus-action attack, exhaustion after) and Fast Movement; and a model
//! that cheats with them, refused each time with what is allowed, changing nothing.

use serde_json::{Value, json};

use dnd_engine::character::barbarian::{RECKLESS, rage_effects};
use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, Character, RAGE, Target, TimedKind, raging};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Brannoc, a half-orc barbarian of `level` (Berserker from 3) with a greataxe, two handaxes
/// and four javelins.
fn brannoc(level: u8) -> Character {
    let mut choices = json!({
        "name": "Brannoc", "race": "Half-Orc", "class": "Barbarian", "level": level,
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "survival"],
        "equipment": {"kit": [{"option": 1}, {"option": 1}]}
    });
    if level >= 3 {
        choices["subclass"] = json!("Berserker");
    }
    table::built(choices)
}

/// Brannoc of `level` and Isolde against the Frost Harpy, Brannoc's turn first.
fn fight(level: u8, seed: u64) -> Table {
    let state = table::fight_with(
        &["isolde"],
        vec![brannoc(level)],
        &["brannoc", "frost-harpy", "isolde"],
    );
    Table::new(state, seed)
}

fn feature(who: &str, feature: &str) -> Value {
    json!({"character": who, "feature": feature})
}

fn rages(t: &Table) -> bool {
    raging(&t.state.character("brannoc").unwrap().timed_effects).is_some()
}

fn axe(target: &str) -> Value {
    json!({"attacker": "brannoc", "target": target, "attack": "Greataxe", "advantage": null})
}

#[test]
fn rage_is_a_bonus_action_and_adds_its_damage_to_a_greataxe_hit() {
    // The same dice with and without the rage: a hit deals exactly 2 more (rage damage +2 at
    // 3rd level); Rage rolls no die, so the attack's dice are the same.
    let seed = (0..200)
        .find(|s| {
            let mut t = fight(3, *s);
            t.ok("roll_attack", axe("frost-harpy"))["attacks"][0]["result"]["hit"] == true
        })
        .expect("a hit in 200 seeds");
    let mut calm = fight(3, seed);
    let plain = calm.ok("roll_attack", axe("frost-harpy"));
    let mut t = fight(3, seed);
    let report = t.ok("use_feature", feature("brannoc", "rage"));
    assert_eq!(report["uses_of"], 3, "three rages a day at 3rd level");
    assert_eq!(report["uses_left"], 2);
    let budget = t.state.encounter.as_ref().unwrap().budget;
    assert!(budget.bonus_action_used && !budget.action_used);
    let raged = t.ok("roll_attack", axe("frost-harpy"));
    let damage = |r: &Value| r["attacks"][0]["result"]["total_damage"].as_u64().unwrap();
    assert_eq!(damage(&raged), damage(&plain) + 2, "{raged}");
    // A thrown javelin is no melee attack: no rage damage (checked by the rules directly).
    let b = t.state.character("brannoc").unwrap();
    assert_eq!(
        dnd_engine::character::barbarian::rage_bonus(b, "Javelin", false),
        0
    );
    assert_eq!(
        dnd_engine::character::barbarian::rage_bonus(b, "Greataxe", true),
        2
    );
}

#[test]
fn rage_halves_bludgeoning_and_gives_advantage_on_strength_checks_and_saves() {
    let fall = json!({"target": "brannoc", "cause": "fall", "feet": 60, "severity": null, "damage_type": null, "reason": "a crevasse"});
    let mut calm = fight(1, 4);
    let plain = calm.ok("apply_hazard_damage", fall.clone());
    let mut t = fight(1, 4);
    t.ok("use_feature", feature("brannoc", "rage"));
    let raged = t.ok("apply_hazard_damage", fall);
    assert_eq!(raged["rolled"], plain["rolled"]);
    assert_eq!(
        raged["damage"].as_u64().unwrap(),
        plain["damage"].as_u64().unwrap() / 2,
        "{raged}"
    );
    let check = t.ok(
        "roll_skill_check",
        json!({"creature": "brannoc", "skill": "athletics", "dc": 15, "advantage": null, "reason": null}),
    );
    assert!(check.to_string().contains("Rage"), "{check}");
    let save = t.ok(
        "roll_saving_throw",
        json!({"creature": "brannoc", "ability": "strength", "dc": 15, "advantage": null, "reason": null}),
    );
    assert!(save.to_string().contains("Rage"), "{save}");
    // Not on a Dexterity save (at 1st level, before Danger Sense).
    let dex = t.ok(
        "roll_saving_throw",
        json!({"creature": "brannoc", "ability": "dexterity", "dc": 15, "advantage": null, "reason": null}),
    );
    assert!(!dex.to_string().contains("Rage"), "{dex}");
}

#[test]
fn a_rage_ends_after_a_turn_without_attacking_and_lasts_past_one_with_an_attack() {
    // Raged and did nothing: the rage ends as Brannoc's turn ends.
    let mut t = fight(1, 3);
    t.ok("use_feature", feature("brannoc", "rage"));
    t.ok("next_turn", json!({}));
    assert!(!rages(&t), "no attack, no damage: the rage is over");
    let left = &t.state.character("brannoc").unwrap().timed_effects;
    assert!(left.iter().all(|e| e.spell != RAGE), "{left:?}");

    // Raged and attacked: it goes on into the next round.
    let mut t = fight(1, 3);
    t.ok("use_feature", feature("brannoc", "rage"));
    t.ok("roll_attack", axe("frost-harpy"));
    t.ok("next_turn", json!({}));
    assert!(rages(&t));
}

#[test]
fn a_rage_ends_when_the_barbarian_drops_and_forbids_spells() {
    let mut t = fight(1, 3);
    t.ok("use_feature", feature("brannoc", "rage"));
    knock_out(&mut t);
    assert!(!rages(&t), "knocked unconscious: the rage ends");
    assert!(
        t.state
            .character("brannoc")
            .unwrap()
            .timed_effects
            .is_empty(),
        "every part of it"
    );

    // No spell while raging (a rage put on Isolde by hand: the gate is the same for all).
    let mut t = Table::fight(&["isolde"], &["isolde", "frost-harpy"], 2);
    let isolde = t.state.character("isolde").unwrap().clone();
    let changes: Vec<Change> = rage_effects(&isolde, 2, false)
        .into_iter()
        .map(|effect| Change::TimedEffectStarted { effect })
        .collect();
    t.apply(&changes);
    let no = t.refused(
        "cast_spell",
        table::cast("isolde", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(no.contains("raging: no spells"), "{no}");
}

#[test]
fn reckless_attack_gives_advantage_both_ways() {
    let mut t = fight(2, 8);
    t.ok("use_feature", feature("brannoc", "reckless-attack"));
    let report = t.ok("roll_attack", axe("frost-harpy"));
    let reasons = report["attacks"][0]["advantage_reasons"].to_string();
    assert!(reasons.contains("attacking recklessly"), "{report}");
    let effects = &t.state.character("brannoc").unwrap().timed_effects;
    assert!(effects.iter().any(|e| matches!(
        e.kind,
        TimedKind::Advantage {
            on: dnd_engine::state::RollOn::AttacksAgainst,
            ..
        }
    ) && e.spell == RECKLESS));
    // After the attack, too late for this turn.
    let late = t.refused("use_feature", feature("brannoc", "reckless-attack"));
    assert!(late.contains("already attacks recklessly"), "{late}");
    // Its own advantage ends with its turn; the advantage against it at the start of the next.
    t.ok("next_turn", json!({}));
    let effects = &t.state.character("brannoc").unwrap().timed_effects;
    assert!(effects.iter().all(|e| e.kind != TimedKind::Reckless));
}

#[test]
fn danger_sense_gives_advantage_on_dexterity_saves_unless_blinded() {
    let save = json!({"creature": "brannoc", "ability": "dexterity", "dc": 15, "advantage": null, "reason": "a falling icicle"});
    let mut t = fight(2, 5);
    let seen = t.ok("roll_saving_throw", save.clone());
    assert!(seen.to_string().contains("Danger Sense"), "{seen}");
    t.hero_mut("brannoc")
        .conditions
        .add(dnd_engine::rules::Condition::Blinded);
    let blind = t.ok("roll_saving_throw", save.clone());
    assert!(!blind.to_string().contains("Danger Sense"), "{blind}");
    // At 1st level, not yet.
    let mut t = fight(1, 5);
    let low = t.ok("roll_saving_throw", save);
    assert!(!low.to_string().contains("Danger Sense"), "{low}");
}

#[test]
fn a_frenzied_rage_grants_a_bonus_attack_and_exhaustion_after() {
    let mut t = fight(3, 12);
    let frenzy_no = t.refused(
        "use_feature",
        json!({"character": "brannoc", "feature": "frenzy", "target": "frost-harpy"}),
    );
    assert!(frenzy_no.contains("not in a frenzy"), "{frenzy_no}");
    t.ok(
        "use_feature",
        json!({"character": "brannoc", "feature": "rage", "option": "frenzy"}),
    );
    t.ok("roll_attack", axe("frost-harpy"));
    // The rage took the bonus action this turn: no frenzied swing until the next.
    let spent = t.refused(
        "use_feature",
        json!({"character": "brannoc", "feature": "frenzy", "target": "frost-harpy"}),
    );
    assert!(spent.contains("bonus action"), "{spent}");
    t.ok("next_turn", json!({})); // the harpy's turn, then Isolde's
    t.ok("next_turn", json!({}));
    assert_eq!(t.turn_of(), "brannoc", "these dice leave him free to act");
    assert!(rages(&t), "he attacked: the rage goes on");
    let report = t.ok(
        "use_feature",
        json!({"character": "brannoc", "feature": "frenzy", "target": "frost-harpy", "option": "Greataxe"}),
    );
    assert!(
        report["effect"].as_str().unwrap().contains("frenzy"),
        "{report}"
    );
    let budget = t.state.encounter.as_ref().unwrap().budget;
    assert!(budget.bonus_action_used && !budget.action_used);
    // The rage ends (knocked out): a level of exhaustion.
    knock_out(&mut t);
    assert_eq!(
        t.state.character("brannoc").unwrap().conditions.exhaustion,
        1
    );
}

#[test]
fn extra_attack_at_5th_level_is_two_attacks_of_one_action() {
    let mut t = fight(5, 6);
    t.ok("roll_attack", axe("frost-harpy"));
    assert_eq!(t.state.encounter.as_ref().unwrap().budget.attacks_left, 1);
    t.ok("roll_attack", axe("frost-harpy"));
    let third = t.refused("roll_attack", axe("frost-harpy"));
    assert!(third.contains("already used the action"), "{third}");
    // At 4th level, one.
    let mut t = fight(4, 6);
    t.ok("roll_attack", axe("frost-harpy"));
    let second = t.refused("roll_attack", axe("frost-harpy"));
    assert!(second.contains("already used the action"), "{second}");
}

#[test]
fn fast_movement_and_unarmored_defense_are_on_the_built_sheet() {
    let five = brannoc(5);
    assert_eq!(five.speed, 40, "a half-orc's 30 ft and Fast Movement's 10");
    assert_eq!(brannoc(4).speed, 30);
    // 10 + Dex +1 + Con +2, no armour carried.
    assert_eq!(five.armor_class, 13);
}

/// A scripted model rages with the wizard, rages twice, is reckless with a 1st-level
/// barbarian's sheet, and frenzies without a frenzy: only the first rage stands.
#[tokio::test]
async fn a_model_cheating_with_barbarian_features_is_refused() {
    let before = table::fight_with(
        &["isolde"],
        vec![brannoc(1)],
        &["brannoc", "isolde", "frost-harpy"],
    );
    let cheats = vec![
        ToolCall::new("a", "use_feature", feature("isolde", "rage")),
        ToolCall::new(
            "b",
            "use_feature",
            json!({"character": "brannoc", "feature": "rage", "target": "isolde"}),
        ),
        ToolCall::new("c", "use_feature", feature("brannoc", "rage")),
        ToolCall::new("d", "use_feature", feature("brannoc", "rage")),
        ToolCall::new("e", "use_feature", feature("brannoc", "reckless-attack")),
        ToolCall::new(
            "f",
            "use_feature",
            json!({"character": "brannoc", "feature": "rage", "option": "frenzy"}),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Brannoc", "I rage!").await;
    assert_eq!(results.len(), 6, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "takes no target"),
        (3, "raging already"),
        (4, "comes at barbarian level 2"),
        (5, "comes at barbarian level 3"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(!results[2].contains("\"error\""), "{}", results[2]);
    let b = after.character("brannoc").unwrap();
    assert_eq!(b.feature_uses["rage"].spent, 1, "one rage spent");
    assert!(raging(&b.timed_effects).is_some());
    assert_eq!(
        after.character("isolde").unwrap(),
        before.character("isolde").unwrap()
    );
}

/// A scripted model swings three times with one Attack action of a 5th-level barbarian: the
/// class table's Extra Attack allows two, the third is refused.
#[tokio::test]
async fn a_model_taking_a_third_attack_with_extra_attack_is_refused() {
    let before = table::fight_with(
        &["isolde"],
        vec![brannoc(5)],
        &["brannoc", "isolde", "frost-harpy"],
    );
    let cheats = (0..3)
        .map(|i| ToolCall::new(format!("s{i}"), "roll_attack", axe("frost-harpy")))
        .collect();
    let table::Played { results, .. } =
        table::scripted_turn(&before, cheats, "Brannoc", "I swing and swing again!").await;
    assert!(!results[0].contains("\"error\""), "{}", results[0]);
    assert!(!results[1].contains("\"error\""), "{}", results[1]);
    assert!(
        results[2].contains("already used the action"),
        "{}",
        results[2]
    );
}

/// Drops Brannoc to 0 HP: the first blow to 0 leaves the half-orc at 1 (Relentless
/// Endurance, and he keeps raging), the second knocks him out.
fn knock_out(t: &mut Table) {
    let hp = t.state.character("brannoc").unwrap().hp.current;
    let blow = |amount| Change::Damage {
        target: Target::Character("brannoc".into()),
        amount,
        critical: false,
    };
    t.apply(&[blow(hp)]);
    assert_eq!(t.state.character("brannoc").unwrap().hp.current, 1);
    assert!(rages(t), "Relentless Endurance: still up, still raging");
    t.apply(&[blow(1)]);
    assert_eq!(t.state.character("brannoc").unwrap().hp.current, 0);
}
