//! No number from the model: damage only from a cause the engine rolls, healing only from a
//! spell, an item or a rest, conditions only as a situation imposes them, spell targets from
//! the spell, items from the story only mundane and cheap, and a party that cannot walk does
//! not move. Worked examples from the rules, and each misuse refused with what is allowed.

use serde_json::json;

use super::Table;
use crate::state::{Change, Target};

fn fall(feet: u32) -> serde_json::Value {
    json!({"target": "kraven", "cause": "fall", "feet": feet, "severity": null, "damage_type": null, "reason": "the ice gives way"})
}

fn hazard(severity: &str) -> serde_json::Value {
    json!({"target": "kraven", "cause": "hazard", "feet": null, "severity": severity, "damage_type": "cold", "reason": "freezing water"})
}

/// The faces of the last roll recorded.
fn last_faces(t: &Table) -> usize {
    match t.log.rolls.last().unwrap().detail.as_ref() {
        crate::store::RollDetail::Damage(damage) => damage.faces.len(),
        other => panic!("the last roll is not damage: {other:?}"),
    }
}

#[test]
fn a_fall_rolls_1d6_per_10_feet_up_to_20d6() {
    let mut t = Table::new(&["kraven"]);
    // Kraven has 28 HP: let a fall of 30 feet roll without killing him.
    let r = t.ok("apply_hazard_damage", fall(30));
    assert_eq!(r["dice"], "3d6 bludgeoning");
    assert_eq!(last_faces(&t), 3);
    let rolled = r["rolled"].as_u64().unwrap();
    assert!((3..=18).contains(&rolled), "{r}");
    assert_eq!(
        t.state.character("kraven").unwrap().hp.current,
        28 - rolled as u32
    );
    t.state = super::Table::new(&["kraven"]).state;
    let r = t.ok("apply_hazard_damage", fall(250));
    assert_eq!(r["dice"], "20d6 bludgeoning", "capped at 20d6");
    assert_eq!(last_faces(&t), 20);
    let e = t.refused("apply_hazard_damage", fall(5));
    assert!(e.contains("1d6 per full 10 feet"), "{e}");
}

#[test]
fn a_hazard_rolls_the_improvised_damage_of_its_severity_at_the_partys_level() {
    // The heroes are 3rd level: 1d10, 2d10, 4d10.
    for (severity, dice) in [
        ("setback", "1d10 cold"),
        ("dangerous", "2d10 cold"),
        ("deadly", "4d10 cold"),
    ] {
        let mut t = Table::new(&["kraven"]);
        let r = t.ok("apply_hazard_damage", hazard(severity));
        assert_eq!(r["dice"], dice);
    }
    let mut t = Table::new(&["kraven"]);
    set_level(&mut t, 11);
    let r = t.ok("apply_hazard_damage", hazard("deadly"));
    assert_eq!(r["dice"], "18d10 cold", "levels 11-16, deadly");
    let e = t.refused(
        "apply_hazard_damage",
        json!({"target": "kraven", "cause": "hazard", "feet": null, "severity": null, "damage_type": null, "reason": null}),
    );
    assert!(e.contains("setback, dangerous or deadly"), "{e}");
}

fn set_level(t: &mut Table, level: u8) {
    std::sync::Arc::make_mut(&mut t.state.characters)[0].level = level;
}

#[test]
fn bare_numbers_and_healing_through_the_hp_tool_are_refused() {
    let mut t = Table::new(&["kraven"]);
    let e = t.refused(
        "update_hp",
        json!({"target": "kraven", "amount": -9999, "damage_type": null, "reason": null}),
    );
    assert!(e.contains("apply_hazard_damage"), "{e}");
    let e = t.refused(
        "apply_hazard_damage",
        json!({"target": "kraven", "cause": "fall", "feet": 30, "amount": -9999, "severity": null, "damage_type": null, "reason": null}),
    );
    assert!(e.contains("amount"), "{e}");
}

#[test]
fn update_character_grants_no_free_hit_points_rest_or_benefit() {
    let mut t = Table::new(&["kraven"]);
    let update = |update: &str, condition: serde_json::Value, amount: serde_json::Value| json!({"character": "kraven", "update": update, "condition": condition, "amount": amount});
    let e = t.refused(
        "update_character",
        update("temporary_hp", json!(null), json!(4_294_967_295u32)),
    );
    assert!(e.contains("only from a spell or a feature"), "{e}");
    let e = t.refused(
        "update_character",
        update("add_condition", json!("invisible"), json!(null)),
    );
    assert!(e.contains("may impose only: prone, exhaustion"), "{e}");
    // A slip on the ice: prone, and standing up again.
    t.ok(
        "update_character",
        update("add_condition", json!("prone"), json!(null)),
    );
    t.ok(
        "update_character",
        update("remove_condition", json!("prone"), json!(null)),
    );
    t.state
        .apply(&Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: crate::rules::Condition::Paralyzed,
        })
        .unwrap();
    let e = t.refused(
        "update_character",
        update("remove_condition", json!("paralyzed"), json!(null)),
    );
    assert!(e.contains("may be ended here: blinded"), "{e}");
    // No rest in a fight.
    let started: Change = serde_json::from_value(
        json!({"change": "encounter_started", "order": [{"id": "kraven", "initiative": 12}]}),
    )
    .unwrap();
    t.state.apply(&started).unwrap();
    for rest in ["long_rest", "short_rest"] {
        let e = t.refused("update_character", update(rest, json!(null), json!(1)));
        assert!(e.contains("no rest during a fight"), "{e}");
    }
    let e = t.refused(
        "update_character",
        update("remove_condition", json!("poisoned"), json!(null)),
    );
    assert!(e.contains("invisible, prone"), "{e}");
}

#[test]
fn a_long_rest_needs_at_least_one_hit_point() {
    let mut t = Table::new(&["kraven"]);
    t.state
        .apply(&Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 28,
            critical: false,
        })
        .unwrap();
    let e = t.refused(
        "update_character",
        json!({"character": "kraven", "update": "long_rest", "condition": null, "amount": null}),
    );
    assert!(e.contains("at least 1 hit point"), "{e}");
}

/// The rules allow one long rest in 24 hours: a second right after the first is refused
/// (nothing changes), a short rest is still allowed, and a day after the first began the next
/// counts.
#[test]
fn only_one_long_rest_counts_in_24_hours() {
    let mut t = Table::new(&["kraven"]);
    let rest =
        json!({"character": "kraven", "update": "long_rest", "condition": null, "amount": null});
    t.ok("update_character", rest.clone());
    t.state
        .apply(&Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 10,
            critical: false,
        })
        .unwrap();
    let before = t.state.clone();
    let e = t.refused("update_character", rest.clone());
    assert!(e.contains("only one long rest counts in 24 hours"), "{e}");
    assert!(e.contains("day 2, 08:00"), "{e}");
    assert_eq!(t.state, before);
    t.ok(
        "update_character",
        json!({"character": "kraven", "update": "short_rest", "condition": null, "amount": 1}),
    );
    // 8 hours slept and 1 hour of short rest passed; 15 more make a day since the first began.
    t.state
        .apply(&Change::TimeAdvanced { minutes: 15 * 60 })
        .unwrap();
    t.ok("update_character", rest);
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!(kraven.hp.current, kraven.hp.max);
}

fn with_harpy(party: &[&str]) -> Table {
    let mut t = Table::new(party);
    t.state
        .apply(&Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    t
}

fn cast(caster: &str, spell: &str, slot: Option<u8>, targets: &[&str]) -> serde_json::Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets})
}

#[test]
fn spell_targets_come_from_the_spell() {
    let mut t = with_harpy(&["isolde", "hedda"]);
    // A cantrip at twenty copies of one target: one target, once.
    let e = t.refused(
        "cast_spell",
        cast("isolde", "Fire Bolt", None, &["frost-harpy"; 20]),
    );
    assert!(e.contains("at most 1 target"), "{e}");
    let e = t.refused(
        "cast_spell",
        cast("hedda", "Bless", None, &["isolde", "hedda", "isolde"]),
    );
    assert!(e.contains("named twice"), "{e}");
    // Bless: three creatures at 1st level, four with a 2nd-level slot.
    let four = ["isolde", "hedda", "frost-harpy", "isolde"];
    let e = t.refused("cast_spell", cast("hedda", "Bless", None, &four));
    assert!(e.contains("at most 3 targets"), "{e}");
    t.ok(
        "cast_spell",
        cast("hedda", "Bless", None, &["isolde", "hedda"]),
    );
    // Magic Missile: three darts, all at one creature if the caster likes; not four.
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Magic Missile", None, &["frost-harpy"; 3]),
    );
    assert_eq!(r["effects"].as_array().unwrap().len(), 3);
    let e = t.refused(
        "cast_spell",
        cast("isolde", "Magic Missile", None, &["frost-harpy"; 4]),
    );
    assert!(e.contains("one per dart, ray or beam"), "{e}");
    // Scorching Ray at 2nd level: three rays, each its own attack.
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Scorching Ray", None, &["frost-harpy"]),
    );
    assert_eq!(r["effects"].as_array().unwrap().len(), 3, "{r}");
}

#[test]
fn spell_target_limits_by_slot_and_character_level() {
    let srd = crate::srd::Srd::bundled();
    let limit =
        |name: &str, slot: u8, level: u8| srd.spell(name).unwrap().target_limit(slot, level);
    assert_eq!(limit("Bless", 1, 3).max, Some(3));
    assert_eq!(limit("Bless", 3, 5).max, Some(5));
    assert_eq!(limit("Magic Missile", 1, 1).max, Some(3));
    assert_eq!(limit("Magic Missile", 4, 7).max, Some(6));
    assert_eq!(limit("Eldritch Blast", 0, 4).max, Some(1));
    assert_eq!(limit("Eldritch Blast", 0, 5).max, Some(2));
    assert_eq!(limit("Eldritch Blast", 0, 17).max, Some(4));
    assert!(limit("Eldritch Blast", 0, 17).repeat);
    assert_eq!(limit("Fire Bolt", 0, 20).max, Some(1));
    assert_eq!(limit("Hold Person", 4, 7).max, Some(3));
    let fireball = limit("Fireball", 3, 5);
    assert_eq!((fireball.max, fireball.repeat), (None, false));
}

#[test]
fn the_dead_harpy_is_not_healed_by_a_spell() {
    let mut t = with_harpy(&["hedda"]);
    t.state
        .apply(&Change::Damage {
            target: Target::Monster("frost-harpy".into()),
            amount: 100,
            critical: false,
        })
        .unwrap();
    let e = t.refused(
        "cast_spell",
        cast("hedda", "Cure Wounds", None, &["frost-harpy"]),
    );
    assert!(
        e.contains("is dead") && e.contains("heal only the living"),
        "{e}"
    );
}

fn give(item: &str, quantity: u32) -> serde_json::Value {
    json!({"character": "kraven", "item": item, "quantity": quantity, "from": null})
}

#[test]
fn the_story_gives_only_cheap_mundane_gear_never_the_adventures_items() {
    let mut t = Table::new(&["kraven"]);
    let e = t.refused("add_inventory", give("Rime Key", 1));
    assert!(e.contains("item of this adventure"), "{e}");
    // The climber's potion, not found yet, is still the adventure's.
    let e = t.refused("add_inventory", give("Potion of Healing", 1));
    assert!(e.contains("placed as loot"), "{e}");
    let e = t.refused("add_inventory", give("Bag of Holding", 1));
    assert!(e.contains("not mundane gear"), "{e}");
    let e = t.refused("add_inventory", give("Longsword", 1));
    assert!(e.contains("worth at most 500 cp"), "{e}");
    let e = t.refused("add_inventory", give("Crowbar", 3));
    assert!(e.contains("worth at most 500 cp"), "{e}");
    let r = t.ok("add_inventory", give("Rope", 1));
    assert_eq!(r["from"], "the story");
}

#[test]
fn a_party_that_cannot_walk_does_not_move() {
    let mut t = Table::new(&["kraven"]);
    t.state
        .apply(&Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 100,
            critical: false,
        })
        .unwrap();
    assert!(t.state.character("kraven").unwrap().dead);
    let e = t.refused("move_to", json!({"exit": "east"}));
    assert!(e.contains("no one in the party can move"), "{e}");
}
