//! The sorcerer's Font of Magic and Metamagic through the tools, worked as the SRD gives them:
//! sorcery points equal to the level, back on a long rest; Flexible Casting (a bonus action)
//! turns a slot into its level in points, or 2/3/5/6/7 points into a slot of 1st to 5th
//! level; Metamagic (3rd level, two options chosen) bends one spell for points through
//! `cast_spell`'s `metamagic`. And a model that cheats with them, refused each time with what
//! is allowed, changing nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, Character, GameState, TimedEffect, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, cast};

/// Vex, a red-dragon draconic sorcerer of `level` who knows Quickened and Twinned Spell from
/// 3rd level: Charisma 16 (standard array 15, dragonborn + 1).
fn vex(level: u8) -> Character {
    let mut choices = json!({
        "name": "Vex", "race": "Dragonborn", "class": "Sorcerer", "subclass": "Draconic", "level": level,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["arcana", "intimidation"],
        "features": {"dragon-ancestor": ["Red"]},
        "race_traits": {"draconic-ancestry": ["red"]},
        "equipment": {"gold": 30},
        "cantrips": ["Fire Bolt", "Poison Spray", "Light", "Mage Hand"],
        "spells": ["Burning Hands", "Mage Armor"]
    });
    if level >= 2 {
        choices["spells"] = json!(["Burning Hands", "Mage Armor", "Magic Missile"]);
    }
    if level >= 3 {
        choices["spells"] = json!(["Burning Hands", "Mage Armor", "Magic Missile", "Shield"]);
        choices["features"]["metamagic-1"] = json!(["Quickened Spell", "Twinned Spell"]);
    }
    table::built(choices)
}

fn with_options(mut c: Character, options: &[&str]) -> Character {
    c.choices.insert(
        "metamagic-1".into(),
        options
            .iter()
            .map(|o| format!("metamagic-{o}-spell"))
            .collect(),
    );
    c
}

/// Vex (and Kraven) against the harpy and a second harpy, on Vex's turn.
fn fight(vex: Character) -> GameState {
    let mut state = table::fight_with(&["kraven"], vec![vex], &["vex", "kraven", "frost-harpy"]);
    let mut second = state.monsters[0].clone();
    second.id = "harpy-2".into();
    second.name = "Second Harpy".into();
    Arc::make_mut(&mut state.monsters).push(second);
    state
}

fn points_left(t: &Table) -> u8 {
    let c = t.state.character("vex").unwrap();
    c.feature_uses
        .get("font-of-magic")
        .map_or(c.level, |u| u.left())
}

fn meta(mut args: Value, options: &[&str]) -> Value {
    args["metamagic"] = json!(options);
    args
}

fn flexible(kind: &str, level: u32) -> Value {
    json!({"character": "vex", "feature": format!("flexible-casting-{kind}"), "amount": level})
}

#[test]
fn flexible_casting_trades_slots_and_sorcery_points() {
    let mut state = fight(vex(3));
    state.apply(&Change::EncounterEnded).unwrap();
    let mut t = Table::new(state, 1);
    assert_eq!(points_left(&t), 3);
    // Full points: a slot would overflow them.
    let full = t.refused("use_feature", flexible("converting-spell-slot", 1));
    assert!(full.contains("past the maximum"), "{full}");
    // Full slots: nothing to make whole.
    let whole = t.refused("use_feature", flexible("creating-spell-slots", 1));
    assert!(whole.contains("all there"), "{whole}");

    // A 1st-level slot spent, then made again for 2 points.
    t.ok("cast_spell", cast("vex", "Mage Armor", None, &["vex"]));
    assert_eq!(
        t.state.character("vex").unwrap().spell_slots.available(1),
        3
    );
    let made = t.ok("use_feature", flexible("creating-spell-slots", 1));
    assert!(
        made["effect"]
            .as_str()
            .unwrap()
            .contains("2 sorcery points"),
        "{made}"
    );
    assert_eq!(points_left(&t), 1);
    assert_eq!(
        t.state.character("vex").unwrap().spell_slots.available(1),
        4
    );
    // A 2nd-level slot costs 3: only 1 left.
    t.apply(&[Change::SlotSpent {
        character: "vex".into(),
        level: 2,
    }]);
    let poor = t.refused("use_feature", flexible("creating-spell-slots", 2));
    assert!(poor.contains("1 use(s) of Font of Magic left"), "{poor}");
    // Above 5th: never.
    let high = t.refused("use_feature", flexible("creating-spell-slots", 6));
    assert!(high.contains("from 1 to 5"), "{high}");

    // A 1st-level slot back into 1 point, a 2nd-level one would be past the maximum of 3.
    let back = t.ok("use_feature", flexible("converting-spell-slot", 1));
    assert!(
        back["effect"].as_str().unwrap().contains("(2 of 3)"),
        "{back}"
    );
    assert_eq!(
        t.state.character("vex").unwrap().spell_slots.available(1),
        3
    );
    assert_eq!(points_left(&t), 2);
    t.ok("use_feature", flexible("converting-spell-slot", 1));
    assert_eq!(points_left(&t), 3);

    // A long rest gives the points back, and the slots.
    t.apply(&[Change::FeatureUsed {
        character: "vex".into(),
        feature: "font-of-magic".into(),
        of: 3,
        restores: dnd_engine::srd::Rest::LongRest,
        count: 3,
    }]);
    t.ok(
        "update_character",
        json!({"character": "vex", "update": "long_rest", "condition": null, "amount": null}),
    );
    assert_eq!(points_left(&t), 3);
}

#[test]
fn flexible_casting_is_a_bonus_action_in_a_fight() {
    let mut t = Table::new(fight(vex(3)), 2);
    t.apply(&[Change::SlotSpent {
        character: "vex".into(),
        level: 1,
    }]);
    t.ok("use_feature", flexible("creating-spell-slots", 1));
    assert!(t.state.encounter.as_ref().unwrap().budget.bonus_action_used);
    let again = t.refused("use_feature", flexible("converting-spell-slot", 1));
    assert!(again.contains("bonus action"), "{again}");
}

#[test]
fn quickened_spell_casts_an_action_spell_as_a_bonus_action() {
    let mut t = Table::new(fight(vex(3)), 3);
    let quick = t.ok(
        "cast_spell",
        meta(
            cast("vex", "Fire Bolt", None, &["frost-harpy"]),
            &["Quickened"],
        ),
    );
    assert!(quick.to_string().contains("Fire Bolt"), "{quick}");
    let budget = t.state.encounter.as_ref().unwrap().budget;
    assert!(budget.bonus_action_used && !budget.action_used);
    assert_eq!(points_left(&t), 1, "2 points");
    // The action is still there for a cantrip.
    t.ok(
        "cast_spell",
        cast("vex", "Fire Bolt", None, &["frost-harpy"]),
    );
    // Shield is a reaction: nothing to quicken.
    let mut t = Table::new(fight(vex(3)), 3);
    let shield = t.refused(
        "cast_spell",
        meta(cast("vex", "Shield", None, &[]), &["Quickened"]),
    );
    assert!(shield.contains("casting time of 1 action"), "{shield}");
}

#[test]
fn twinned_spell_names_a_second_creature_for_a_spell_of_one() {
    let mut t = Table::new(fight(vex(3)), 4);
    let before = t.state.clone();
    // Without Twinned, Fire Bolt names one creature.
    let one = t.refused(
        "cast_spell",
        cast("vex", "Fire Bolt", None, &["frost-harpy", "harpy-2"]),
    );
    assert!(one.contains("at most 1 target"), "{one}");
    // Burning Hands has an area; Acid Splash names two already; Twinned needs two names.
    for (spell, targets, want) in [
        (
            "Burning Hands",
            vec!["frost-harpy", "harpy-2"],
            "does not qualify",
        ),
        (
            "Acid Splash",
            vec!["frost-harpy", "harpy-2"],
            "does not qualify",
        ),
        ("Fire Bolt", vec!["frost-harpy"], "exactly two creatures"),
    ] {
        let no = t.refused(
            "cast_spell",
            meta(cast("vex", spell, None, &targets), &["Twinned"]),
        );
        assert!(no.contains(want), "{spell}: {no}");
    }
    assert_eq!(t.state, before);
    // A cantrip twinned costs 1 point and attacks both.
    let twin = t.ok(
        "cast_spell",
        meta(
            cast("vex", "Fire Bolt", None, &["frost-harpy", "harpy-2"]),
            &["Twinned"],
        ),
    );
    let text = twin.to_string();
    assert!(
        text.contains("Frost Harpy") && text.contains("Second Harpy"),
        "{twin}"
    );
    assert_eq!(points_left(&t), 2);
    // Magic Missile at 1st level would cost 1 too, but its darts already name three.
    t.state.encounter.as_mut().unwrap().budget = Default::default();
    let darts = t.refused(
        "cast_spell",
        meta(
            cast("vex", "Magic Missile", None, &["frost-harpy", "harpy-2"]),
            &["Twinned"],
        ),
    );
    assert!(darts.contains("does not qualify"), "{darts}");
}

#[test]
fn heightened_spell_gives_the_target_disadvantage_on_its_save() {
    let mut t = Table::new(fight(with_options(vex(3), &["heightened", "subtle"])), 5);
    let poison = t.ok(
        "cast_spell",
        meta(
            cast("vex", "Poison Spray", None, &["frost-harpy"]),
            &["Heightened"],
        ),
    );
    assert!(poison.to_string().contains("disadvantage"), "{poison}");
    assert_eq!(points_left(&t), 0, "3 points");
    // The disadvantage was for that one save: nothing is left on the harpy.
    let left = &t.state.monster("frost-harpy").unwrap().timed_effects;
    assert!(left.is_empty(), "{left:?} {poison}");
    // Fire Bolt asks for no save.
    let mut t = Table::new(fight(with_options(vex(3), &["heightened", "subtle"])), 5);
    let bolt = t.refused(
        "cast_spell",
        meta(
            cast("vex", "Fire Bolt", None, &["frost-harpy"]),
            &["Heightened"],
        ),
    );
    assert!(bolt.contains("asks for no save"), "{bolt}");
}

#[test]
fn subtle_spell_casts_inside_a_silence() {
    let mut t = Table::new(fight(with_options(vex(3), &["heightened", "subtle"])), 6);
    t.apply(&[Change::TimedEffectStarted {
        effect: TimedEffect {
            source: "vex".into(),
            spell: "Silence".into(),
            target: "vex".into(),
            concentration: false,
            rounds_left: Some(10),
            ends_on_damage: false,
            level: 2,
            at_turn_end: false,
            kind: TimedKind::Silenced,
        },
    }]);
    let hushed = t.refused(
        "cast_spell",
        cast("vex", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(hushed.to_lowercase().contains("silence"), "{hushed}");
    t.ok(
        "cast_spell",
        meta(
            cast("vex", "Fire Bolt", None, &["frost-harpy"]),
            &["Subtle"],
        ),
    );
    assert_eq!(points_left(&t), 2);
}

#[test]
fn extended_spell_doubles_mage_armors_eight_hours() {
    let mut t = Table::new(fight(with_options(vex(3), &["extended", "empowered"])), 7);
    t.ok(
        "cast_spell",
        meta(cast("vex", "Mage Armor", None, &["vex"]), &["Extended"]),
    );
    let armor = &t.state.character("vex").unwrap().timed_effects[0];
    assert_eq!(armor.rounds_left, Some(2 * 8 * 600));
    // Fire Bolt is instantaneous.
    t.state.encounter.as_mut().unwrap().budget = Default::default();
    let bolt = t.refused(
        "cast_spell",
        meta(
            cast("vex", "Fire Bolt", None, &["frost-harpy"]),
            &["Extended"],
        ),
    );
    assert!(bolt.contains("Instantaneous"), "{bolt}");
}

/// A scripted model spends Metamagic it does not have: Isolde is no sorcerer, Vex at 2nd level
/// has no Metamagic yet, and Vex at 3rd level names an option he lacks, two at once, and
/// more points than he has. Only the lawful quickened bolt spends anything.
#[tokio::test]
async fn a_model_cheating_with_metamagic_is_refused() {
    let mut young = vex(2);
    young.id = "vex-young".into();
    young.name = "Young Vex".into();
    let mut before = table::fight_with(
        &["isolde"],
        vec![vex(3), young],
        &["vex", "isolde", "vex-young", "frost-harpy"],
    );
    before.apply_all(&[]).unwrap();
    let bolt =
        |who: &str, options: &[&str]| meta(cast(who, "Fire Bolt", None, &["frost-harpy"]), options);
    let cheats = vec![
        ToolCall::new("a", "cast_spell", bolt("isolde", &["Quickened"])),
        ToolCall::new("b", "cast_spell", bolt("vex-young", &["Quickened"])),
        ToolCall::new("c", "cast_spell", bolt("vex", &["Subtle"])),
        ToolCall::new("d", "cast_spell", bolt("vex", &["Quickened", "Twinned"])),
        ToolCall::new("e", "cast_spell", bolt("vex", &["Quickened"])),
        ToolCall::new(
            "f",
            "cast_spell",
            meta(
                cast("vex", "Fire Bolt", None, &["frost-harpy", "frost-harpy"]),
                &["Twinned"],
            ),
        ),
        ToolCall::new(
            "g",
            "use_feature",
            json!({"character": "vex", "feature": "flexible-casting-converting-spell-slot", "amount": 1}),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Vex", "Fire, twice over!").await;
    assert_eq!(results.len(), 7, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "comes at sorcerer level 3"),
        (
            2,
            "does not know Subtle Spell; it knows: Quickened, Twinned",
        ),
        (3, "one Metamagic option per spell"),
        (5, "each creature once"),
        (6, "bonus action"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(!results[4].contains("\"error\""), "{}", results[4]);
    let v = after.character("vex").unwrap();
    assert_eq!(v.feature_uses["font-of-magic"].spent, 2);
    assert_eq!(after.character("vex-young"), before.character("vex-young"));
    assert_eq!(after.character("isolde"), before.character("isolde"));
}

/// Draconic Resilience is the builder's: a 3rd-level draconic sorcerer of Constitution 14 has
/// 6 + 1, then 4 + 1 twice, plus 1 a level (20), and AC 13 + Dexterity unarmoured.
#[test]
fn draconic_resilience_is_on_the_built_sheet() {
    let v = vex(3);
    assert_eq!(v.hp.max, (6 + 1) + 2 * (4 + 1) + 3);
    assert_eq!(v.armor_class, 13 + 2);
}

/// Distant Spell: Fire Bolt's 120 feet become 240, so a harpy 200 feet off is in reach.
#[test]
fn distant_spell_doubles_the_range() {
    let mut state = table::placed_fight(
        &["kraven"],
        table::order(&["kraven", "frost-harpy"]),
        &[
            ("kraven", table::at(0, 0, 0)),
            ("frost-harpy", table::at(200, 0, 0)),
        ],
    );
    let mut hero = with_options(vex(3), &["distant", "subtle"]);
    hero.location = state.characters[0].location.clone();
    Arc::make_mut(&mut state.characters).push(hero);
    state
        .apply_all(&[
            Change::EncounterEnded,
            Change::EncounterStarted {
                order: table::order(&["vex", "kraven", "frost-harpy"]),
            },
            Change::Moved {
                creature: "vex".into(),
                to: table::at(0, 0, 0),
            },
            Change::Moved {
                creature: "kraven".into(),
                to: table::at(0, 10, 0),
            },
            Change::Moved {
                creature: "frost-harpy".into(),
                to: table::at(200, 0, 0),
            },
        ])
        .unwrap();
    let mut t = Table::new(state, 8);
    let far = t.refused(
        "cast_spell",
        cast("vex", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(far.contains("120"), "{far}");
    t.ok(
        "cast_spell",
        meta(
            cast("vex", "Fire Bolt", None, &["frost-harpy"]),
            &["Distant"],
        ),
    );
    assert_eq!(points_left(&t), 2);
    // A spell of range Self (Shield) has no range to double.
    t.state.encounter.as_mut().unwrap().budget = Default::default();
    let shield = t.refused(
        "cast_spell",
        meta(cast("vex", "Shield", None, &[]), &["Distant"]),
    );
    assert!(shield.contains("Distant Spell doubles"), "{shield}");
}
