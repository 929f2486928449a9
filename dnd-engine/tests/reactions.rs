//! The reaction window while monsters act, worked from the SRD with seeded dice: Isolde's
//! declared Shield re-checking a goblin's hit (cast only when it turns the hit, the +5 until
//! her next turn), her Counterspell stopping a cult fanatic's Hold Person and needing its
//! check against a mage's Fireball cast with a 4th-level slot, and a model that declares what
//! the character cannot cast; and Shield against a mage's Magic Missile.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::srd::{MonsterSpellcasting, Srd};
use dnd_engine::state::Change;

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Isolde and Kraven (200 HP each) against `template` in the harpy's place (60 HP).
fn against(template: &str, order: &[&str], seed: u64) -> Table {
    let mut t = Table::fight(&["isolde", "kraven"], order, seed);
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.template = template.into();
    m.hp = HitPoints::full(60);
    for hero in ["kraven", "isolde"] {
        t.hero_mut(hero).hp = HitPoints::full(200);
    }
    t
}

fn declare(t: &mut Table, spell: &str, when: &str) -> Value {
    t.ok(
        "declare_reactions",
        json!({"character": "isolde", "reactions": [{"spell": spell, "when": when}]}),
    )
}

/// Isolde as a 5th-level wizard who knows Counterspell, with two 3rd-level slots.
fn with_counterspell(t: &mut Table) {
    let isolde = t.hero_mut("isolde");
    Arc::make_mut(&mut isolde.spells).push("Counterspell".into());
    isolde.spell_slots.max[2] = 2;
}

#[test]
fn shield_turns_a_goblins_hit_into_a_miss_only_when_it_can() {
    let (mut turned, mut kept) = (0, 0);
    for seed in 0..80 {
        // Kraven's turn comes between the goblin's and Isolde's, so the +5 is seen lasting.
        let mut t = against("goblin", &["isolde", "frost-harpy", "kraven"], seed);
        declare(&mut t, "Shield", "hit");
        let r = t.ok("next_turn", json!({}));
        let turn = &r["monster_turns"][0];
        let Some(swing) = turn["attacks"].get(0) else {
            continue;
        };
        if turn["target"] != "isolde" {
            continue; // the goblin chose Kraven
        }
        let isolde = t.state.character("isolde").unwrap();
        let result = &swing["result"];
        let (total, natural) = (
            result["total"].as_i64().unwrap(),
            result["d20"]["natural"].as_i64().unwrap(),
        );
        if let Some(reaction) = swing.get("reaction") {
            // Goblin's Scimitar +4 against AC 13: a 13 to 17 hits, and Shield's AC 18 turns it.
            turned += 1;
            assert_eq!(reaction["reaction"], "Shield", "{r}");
            assert_eq!(reaction["slot_level"], 1);
            assert_eq!(result["hit"], false, "{r}");
            assert_eq!(result["target_ac"], 18);
            assert!((13..18).contains(&total) && natural != 20, "{r}");
            assert_eq!(isolde.hp.current, 200, "no damage");
            assert_eq!(isolde.spell_slots.available(1), 3, "one slot spent");
            assert_eq!(isolde.armor_class_now(), 18, "+5 until her next turn");
            let fight = t.state.encounter.as_ref().unwrap();
            assert!(!fight.has_reaction("isolde"), "the reaction is spent");
            // Kraven's turn ends and hers begins: the +5 ends.
            t.ok("next_turn", json!({}));
            assert_eq!(t.turn_of(), "isolde");
            assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 13);
        } else if result["hit"] == true {
            // 18 or more (or a natural 20): Shield would not turn it, so it is not cast.
            kept += 1;
            assert!(total >= 18 || natural == 20, "{r}");
            assert!(isolde.hp.current < 200, "the hit's damage lands");
            assert_eq!(isolde.spell_slots.available(1), 4, "no slot spent");
            assert_eq!(isolde.armor_class_now(), 13);
        } else {
            assert_eq!(isolde.spell_slots.available(1), 4, "a miss needs no Shield");
        }
    }
    assert!(turned > 0 && kept > 0, "turned {turned}, kept {kept}");
}

#[test]
fn counterspell_stops_the_cult_fanatics_hold_person() {
    let mut t = against("cult-fanatic", &["isolde", "frost-harpy", "kraven"], 1);
    with_counterspell(&mut t);
    declare(&mut t, "Counterspell", "spell_cast");
    // The snapshot tells the model what stands ready.
    let shown = serde_json::to_value(t.state.snapshot())
        .unwrap()
        .to_string();
    assert!(shown.contains("Counterspell when spell_cast"), "{shown}");
    let r = t.ok("next_turn", json!({}));
    let turn = &r["monster_turns"][0];
    assert_eq!(turn["uses"], "Hold Person", "{r}");
    let reaction = &turn["reactions"][0];
    assert_eq!(reaction["reaction"], "Counterspell", "{r}");
    // Hold Person is a 2nd-level spell: a 3rd-level Counterspell stops it without a check.
    assert_eq!(reaction["slot_level"], 3);
    assert_eq!(reaction["succeeded"], true);
    assert!(reaction.get("check").is_none(), "{r}");
    assert_eq!(turn["effects"], json!([]));
    let kraven = t.state.character("kraven").unwrap();
    assert!(!kraven.conditions.has(Condition::Paralyzed));
    // The fanatic's action and slot are spent all the same; it concentrates on nothing.
    let fanatic = t.state.monster("frost-harpy").unwrap();
    let pool = MonsterSpellcasting::slot_pool(2).to_ascii_lowercase();
    assert_eq!(fanatic.uses_spent.get(&pool), Some(&1));
    assert_eq!(fanatic.concentration, None);
    let isolde = t.state.character("isolde").unwrap();
    assert_eq!(isolde.spell_slots.available(3), 1);
    assert!(!t.state.encounter.as_ref().unwrap().has_reaction("isolde"));
}

#[test]
fn a_mages_fireball_from_a_4th_level_slot_needs_the_check() {
    let (mut stopped, mut went_on) = (0, 0);
    for seed in 0..40 {
        let mut t = against("mage", &["isolde", "frost-harpy", "kraven"], seed);
        with_counterspell(&mut t);
        // The mage's 3rd-level slots are gone: Fireball goes up to a 4th-level slot.
        let srd = Srd::bundled();
        let sc = srd.monster("mage").unwrap().spellcasting.clone().unwrap();
        let spend = Change::UseSpent {
            monster: "frost-harpy".into(),
            pool: MonsterSpellcasting::slot_pool(3),
            of: sc.slots_of(3),
        };
        t.apply(&[spend.clone(), spend.clone(), spend]);
        declare(&mut t, "Counterspell", "spell_cast");
        let r = t.ok("next_turn", json!({}));
        let turn = &r["monster_turns"][0];
        if turn["uses"] != "Fireball" {
            continue;
        }
        assert_eq!(turn["slot_level"], 4, "{r}");
        let reaction = &turn["reactions"][0];
        assert_eq!(reaction["slot_level"], 3, "{r}");
        // Intelligence 16: +3 against DC 10 + 4.
        let check = &reaction["check"];
        assert_eq!(check["dc"], 14, "{r}");
        assert_eq!(check["modifier"], 3);
        let success = check["total"].as_i64().unwrap() >= 14;
        assert_eq!(reaction["succeeded"], success, "{r}");
        let hurt = t.state.character("kraven").unwrap().hp.current < 200
            || t.state.character("isolde").unwrap().hp.current < 200;
        if success {
            stopped += 1;
            assert_eq!(turn["effects"], json!([]));
            assert!(!hurt, "a stopped Fireball burns no one");
        } else {
            went_on += 1;
            assert!(turn["effects"].as_array().is_some_and(|e| !e.is_empty()));
        }
        assert_eq!(
            t.state
                .character("isolde")
                .unwrap()
                .spell_slots
                .available(3),
            1
        );
    }
    assert!(
        stopped > 0 && went_on > 0,
        "stopped {stopped}, went on {went_on}"
    );
}

#[test]
fn a_4th_level_counterspell_stops_the_4th_level_fireball_outright() {
    for seed in 0..20 {
        let mut t = against("mage", &["isolde", "frost-harpy", "kraven"], seed);
        with_counterspell(&mut t);
        t.hero_mut("isolde").spell_slots.max[3] = 1;
        t.hero_mut("isolde").spell_slots.spent[2] = 2; // only the 4th-level slot left
        let sc = Srd::bundled()
            .monster("mage")
            .unwrap()
            .spellcasting
            .clone()
            .unwrap();
        let spend = Change::UseSpent {
            monster: "frost-harpy".into(),
            pool: MonsterSpellcasting::slot_pool(3),
            of: sc.slots_of(3),
        };
        t.apply(&[spend.clone(), spend.clone(), spend]);
        declare(&mut t, "Counterspell", "spell_cast");
        let r = t.ok("next_turn", json!({}));
        let turn = &r["monster_turns"][0];
        if turn["uses"] != "Fireball" {
            continue;
        }
        let reaction = &turn["reactions"][0];
        assert_eq!(reaction["slot_level"], 4, "{r}");
        assert_eq!(reaction["succeeded"], true);
        assert!(reaction.get("check").is_none());
        return;
    }
    panic!("the mage never cast Fireball in 20 seeds");
}

#[test]
fn declaring_what_cannot_be_cast_is_refused_and_changes_nothing() {
    let mut t = against("goblin", &["isolde", "frost-harpy", "kraven"], 3);
    // Counterspell is not one of Isolde's spells.
    let why = t.refused(
        "declare_reactions",
        json!({"character": "isolde", "reactions": [{"spell": "Counterspell", "when": "spell_cast"}]}),
    );
    assert!(why.contains("does not know Counterspell"), "{why}");
    assert!(why.contains("may declare: Shield when hit"), "{why}");
    // Shield answers a hit, not a spell.
    let why = t.refused(
        "declare_reactions",
        json!({"character": "isolde", "reactions": [{"spell": "Shield", "when": "spell_cast"}]}),
    );
    assert!(why.contains("Shield is cast when hit"), "{why}");
    // Not a reaction the engine casts.
    let why = t.refused(
        "declare_reactions",
        json!({"character": "isolde", "reactions": [{"spell": "Sleep", "when": "hit"}]}),
    );
    assert!(why.contains("not a reaction"), "{why}");
    // Kraven casts nothing.
    let why = t.refused(
        "declare_reactions",
        json!({"character": "kraven", "reactions": [{"spell": "Shield", "when": "hit"}]}),
    );
    assert!(why.contains("does not know Shield"), "{why}");
    // No slot left for Shield.
    t.hero_mut("isolde").spell_slots.spent = [4, 2, 0, 0, 0, 0, 0, 0, 0];
    let why = t.refused(
        "declare_reactions",
        json!({"character": "isolde", "reactions": [{"spell": "Shield", "when": "hit"}]}),
    );
    assert!(why.contains("no slot of level 1 or higher left"), "{why}");
    assert!(why.contains("may declare: nothing"), "{why}");
    // An unknown field is refused by the strict schema.
    let r = t.call(
        "declare_reactions",
        json!({"character": "isolde", "reactions": [{"spell": "Shield", "when": "hit", "slot": 2}]}),
    );
    assert!(!r.ok);
}

#[test]
fn counterspell_is_not_cast_outside_the_window() {
    let mut t = against("goblin", &["isolde", "frost-harpy", "kraven"], 4);
    with_counterspell(&mut t);
    let why = t.refused(
        "cast_spell",
        table::cast("isolde", "Counterspell", Some(3), &["frost-harpy"]),
    );
    assert!(why.contains("declare_reactions"), "{why}");
}

#[test]
fn a_declared_shield_with_its_slots_spent_since_is_not_cast() {
    for seed in 0..40 {
        let mut t = against("goblin", &["isolde", "frost-harpy", "kraven"], seed);
        declare(&mut t, "Shield", "hit");
        t.hero_mut("isolde").spell_slots.spent = [4, 2, 0, 0, 0, 0, 0, 0, 0];
        let r = t.ok("next_turn", json!({}));
        let turn = &r["monster_turns"][0];
        let swing = &turn["attacks"][0];
        if turn["target"] != "isolde" || swing["result"]["hit"] != true {
            continue;
        }
        // Hit, with Shield declared and nothing to cast it with: the damage lands.
        assert!(swing.get("reaction").is_none(), "{r}");
        assert!(t.state.character("isolde").unwrap().hp.current < 200);
        return;
    }
    panic!("the goblin never hit Isolde in 40 seeds");
}

#[test]
fn shield_against_a_mages_magic_missile_takes_no_damage() {
    let sc = Srd::bundled()
        .monster("mage")
        .unwrap()
        .spellcasting
        .clone()
        .unwrap();
    for seed in 0..20 {
        let mut t = against("mage", &["isolde", "frost-harpy", "kraven"], seed);
        // Only the 1st- and 2nd-level slots left: Magic Missile is its best spell.
        for level in 3..=5 {
            let spend = Change::UseSpent {
                monster: "frost-harpy".into(),
                pool: MonsterSpellcasting::slot_pool(level),
                of: sc.slots_of(level),
            };
            t.apply(&vec![spend; usize::from(sc.slots_of(level))]);
        }
        declare(&mut t, "Shield", "hit");
        let r = t.ok("next_turn", json!({}));
        let turn = &r["monster_turns"][0];
        if turn["uses"] != "Magic Missile" {
            continue;
        }
        let aimed_at_her = turn["reactions"].as_array().is_some_and(|a| !a.is_empty());
        if !aimed_at_her {
            continue;
        }
        assert_eq!(turn["reactions"][0]["reaction"], "Shield", "{r}");
        assert_eq!(turn["effects"][0]["outcome"], "unaffected", "{r}");
        let isolde = t.state.character("isolde").unwrap();
        assert_eq!(isolde.hp.current, 200, "the darts deal her no damage: {r}");
        assert_eq!(isolde.spell_slots.available(1), 3);
        assert_eq!(isolde.armor_class_now(), 18);
        return;
    }
    panic!("the mage never aimed Magic Missile at Isolde in 20 seeds");
}
