//! Concentration as the SRD keeps it: damage calls for a Constitution save (DC 10 or half the
//! damage, whichever is higher) and a failure ends the spell; dropping to 0 hit points or being
//! incapacitated ends it at once.

use serde_json::json;

use dnd_engine::rules::{Condition, spellcasting::concentration_dc};
use dnd_engine::state::{Change, Target};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn concentrating(seed: u64) -> Table {
    let mut t = Table::game(&["isolde"], seed);
    t.apply(&[Change::Concentration {
        character: "isolde".into(),
        spell: Some("Hold Person".into()),
    }]);
    t
}

fn fall(feet: u32) -> serde_json::Value {
    json!({"target": "isolde", "cause": "fall", "feet": feet, "severity": null, "damage_type": null, "reason": "a crevasse"})
}

#[test]
fn damage_calls_for_a_constitution_save_and_a_failure_ends_the_spell() {
    assert_eq!(concentration_dc(7), 10);
    assert_eq!(concentration_dc(30), 15);
    let (mut kept, mut lost) = (0, 0);
    for seed in 0..40 {
        let mut t = concentrating(seed);
        let r = t.ok("apply_hazard_damage", fall(10));
        let damage = r["damage"].as_u64().unwrap();
        let save = &r["concentration_save"];
        assert_eq!(save["spell"], "Hold Person", "{r}");
        assert_eq!(save["result"]["dc"], 10, "{r}");
        let holds = t.state.character("isolde").unwrap().concentration.is_some();
        assert_eq!(holds, save["kept"] == true, "{r}");
        assert_eq!(save["kept"], save["result"]["success"]);
        assert!(damage > 0);
        if holds { kept += 1 } else { lost += 1 }
    }
    assert!(kept > 0 && lost > 0, "{kept} kept, {lost} lost");
    // No concentration, no save.
    let mut t = Table::game(&["isolde"], 1);
    let r = t.ok("apply_hazard_damage", fall(10));
    assert!(r.get("concentration_save").is_none(), "{r}");
}

#[test]
fn zero_hit_points_or_incapacitation_ends_concentration_at_once() {
    let mut t = concentrating(1);
    t.apply(&[Change::Damage {
        target: Target::Character("isolde".into()),
        amount: 100,
        critical: false,
    }]);
    assert_eq!(t.state.character("isolde").unwrap().concentration, None);
    let mut t = concentrating(1);
    t.apply(&[Change::ConditionAdded {
        target: Target::Character("isolde".into()),
        condition: Condition::Stunned,
    }]);
    assert_eq!(t.state.character("isolde").unwrap().concentration, None);
    // A condition that leaves her able to act does not.
    let mut t = concentrating(1);
    t.apply(&[Change::ConditionAdded {
        target: Target::Character("isolde".into()),
        condition: Condition::Prone,
    }]);
    assert!(t.state.character("isolde").unwrap().concentration.is_some());
}

/// Bless adds its d4 to every saving throw, the concentration save included.
#[test]
fn a_blessed_casters_concentration_save_gets_the_d4() {
    let mut t = Table::game(&["isolde", "hedda"], 3);
    t.ok(
        "cast_spell",
        json!({"caster": "hedda", "spell": "Bless", "slot_level": null, "targets": ["isolde"]}),
    );
    t.apply(&[Change::Concentration {
        character: "isolde".into(),
        spell: Some("Mage Hand".into()),
    }]);
    let base = t
        .state
        .character("isolde")
        .unwrap()
        .save_modifier(dnd_engine::rules::Ability::Constitution);
    let r = t.ok("apply_hazard_damage", fall(10));
    let modifier = r["concentration_save"]["result"]["modifier"]
        .as_i64()
        .unwrap() as i32;
    assert!((base + 1..=base + 4).contains(&modifier), "{r}");
}
