//! Monsters' own reactions during a hero's turn, worked from the SRD with seeded dice: a
//! knight's Parry (+2 AC against a melee hit, only when that turns it, once a round, never
//! against a ranged attack or unseen), a mage's Shield from its spell list, and a mage's
//! Counterspell stopping Isolde's Magic Missile while a cantrip goes through; and a model
//! that tries to declare a monster's reaction.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::srd::{MonsterSpellcasting, Srd};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack, cast};

/// Kraven and Isolde against `template` in the harpy's place (200 HP, its own AC), Kraven
/// first.
fn against(template: &str, seed: u64) -> Table {
    against_by("kraven", template, seed)
}

/// `first` and Isolde against `template`, `first` acting first.
fn against_by(first: &str, template: &str, seed: u64) -> Table {
    let mut t = Table::fight(&[first, "isolde"], &[first, "isolde", "frost-harpy"], seed);
    let ac = Srd::bundled().monster(template).unwrap().armor_class;
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.template = template.into();
    m.armor_class = ac;
    m.hp = HitPoints::full(200);
    t
}

fn hp(t: &Table) -> u32 {
    t.state.monster("frost-harpy").unwrap().hp.current
}

fn reaction_left(t: &Table) -> bool {
    t.state
        .encounter
        .as_ref()
        .unwrap()
        .has_reaction("frost-harpy")
}

#[test]
fn a_knight_parries_a_melee_hit_only_when_two_more_ac_turns_it() {
    let (mut parried, mut landed) = (0, 0);
    for seed in 0..60 {
        let mut t = against("knight", seed);
        let r = t.ok("roll_attack", attack("kraven", "frost-harpy"));
        let swing = &r["attacks"][0];
        let result = &swing["result"];
        let (total, natural) = (
            result["total"].as_i64().unwrap(),
            result["d20"]["natural"].as_i64().unwrap(),
        );
        if let Some(reaction) = swing.get("reaction") {
            // Knight AC 18: an 18 or 19 would hit, and Parry's 20 turns it.
            parried += 1;
            assert_eq!(reaction["by"], "Frost Harpy", "{r}");
            assert_eq!(reaction["reaction"], "Parry");
            assert!(reaction.get("slot_level").unwrap().is_null());
            assert!((18..20).contains(&total) && natural != 20, "{r}");
            assert_eq!(result["hit"], false);
            assert_eq!(result["target_ac"], 20);
            assert_eq!(hp(&t), 200, "no damage");
            assert!(!reaction_left(&t), "the reaction is spent");
        } else if result["hit"] == true {
            landed += 1;
            assert!(total >= 20 || natural == 20, "{r}");
            assert!(hp(&t) < 200);
            assert!(
                reaction_left(&t),
                "a hit it could not turn leaves the reaction"
            );
        } else {
            assert!(total < 18 && reaction_left(&t), "{r}");
        }
    }
    assert!(
        parried > 0 && landed > 0,
        "parried {parried}, landed {landed}"
    );
}

#[test]
fn parry_is_never_against_a_ranged_attack_or_an_attacker_it_cannot_see() {
    for seed in 0..60 {
        let mut blind = against("knight", seed);
        let m = &mut Arc::make_mut(&mut blind.state.monsters)[0];
        m.conditions.add(Condition::Blinded);
        let r = blind.ok("roll_attack", attack("kraven", "frost-harpy"));
        assert!(r["attacks"][0].get("reaction").is_none(), "blinded: {r}");
        // Hedda's light crossbow: a ranged attack is never parried.
        let mut t = against_by("hedda", "knight", seed);
        let r = t.ok(
            "roll_attack",
            json!({"attacker": "hedda", "target": "frost-harpy", "attack": "Light Crossbow", "advantage": null}),
        );
        assert!(r["attacks"][0].get("reaction").is_none(), "ranged: {r}");
    }
}

#[test]
fn a_mage_casts_shield_from_its_list_when_it_turns_a_hit() {
    let mut shielded = 0;
    for seed in 0..60 {
        let mut t = against("mage", seed);
        let r = t.ok("roll_attack", attack("kraven", "frost-harpy"));
        let swing = &r["attacks"][0];
        let Some(reaction) = swing.get("reaction") else {
            continue;
        };
        shielded += 1;
        // Mage AC 12: a 12 to 16 would hit, and Shield's 17 turns it.
        let total = swing["result"]["total"].as_i64().unwrap();
        assert!((12..17).contains(&total), "{r}");
        assert_eq!(reaction["reaction"], "Shield");
        assert_eq!(reaction["slot_level"], 1);
        assert_eq!(swing["result"]["hit"], false);
        assert_eq!(hp(&t), 200);
        let mage = t.state.monster("frost-harpy").unwrap();
        assert_eq!(mage.armor_class_now(), 17, "+5 until its next turn");
        let pool = MonsterSpellcasting::slot_pool(1);
        assert_eq!(mage.uses_spent.get(&pool), Some(&1), "one 1st-level slot");
        assert!(!reaction_left(&t));
        // Isolde's turn: the +5 lasts; then the mage's turn (played by code) begins and
        // ends it.
        t.ok("next_turn", json!({}));
        assert_eq!(t.turn_of(), "isolde");
        let mage = t.state.monster("frost-harpy").unwrap();
        assert_eq!(mage.armor_class_now(), 17);
        t.ok("next_turn", json!({}));
        assert_eq!(t.turn_of(), "kraven", "the mage's turn was played");
        let mage = t.state.monster("frost-harpy").unwrap();
        assert_eq!(mage.armor_class_now(), 12);
        break;
    }
    assert!(shielded > 0, "the mage never needed Shield in 60 seeds");
}

#[test]
fn a_mage_counters_a_leveled_spell_but_lets_a_cantrip_through() {
    let mut t = against("mage", 3);
    t.ok("next_turn", json!({})); // Isolde's turn
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Magic Missile", None, &["frost-harpy"]),
    );
    let reaction = &r["reactions"][0];
    assert_eq!(reaction["reaction"], "Counterspell", "{r}");
    // Magic Missile is 1st level: the mage's 3rd-level slot stops it without a check.
    assert_eq!(reaction["slot_level"], 3);
    assert_eq!(reaction["succeeded"], true);
    assert!(reaction.get("check").is_none());
    assert_eq!(r["effects"], json!([]), "{r}");
    assert_eq!(hp(&t), 200);
    let isolde = t.state.character("isolde").unwrap();
    assert_eq!(
        isolde.spell_slots.available(1),
        3,
        "her slot is spent all the same"
    );
    let mage = t.state.monster("frost-harpy").unwrap();
    let pool = MonsterSpellcasting::slot_pool(3);
    assert_eq!(mage.uses_spent.get(&pool), Some(&1));
    assert!(!reaction_left(&t));

    // A cantrip next round: no Counterspell is spent on it.
    let mut t = against("mage", 4);
    t.ok("next_turn", json!({}));
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(r.get("reactions").is_none(), "{r}");
    assert!(reaction_left(&t));
}

#[test]
fn a_model_cannot_declare_a_monsters_reaction() {
    let mut t = against("knight", 1);
    let why = t.refused(
        "declare_reactions",
        json!({"character": "frost-harpy", "reactions": [{"spell": "Shield", "when": "hit"}]}),
    );
    assert!(why.contains("only characters declare reactions"), "{why}");
}
