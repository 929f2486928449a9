//! Worked examples of the effects engine from the SRD's spell texts, each through `cast_spell`
//! as a model calls it, with seeded dice: Sleep's pool, Hold Person's paralysis and its
//! repeated save, Bless and Bane's d4, Mage Armor, Shield of Faith, Shield as a reaction,
//! Magic Missile's darts and Cure Wounds cast with a higher slot.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, GameState, Target, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// The party `party`, the Frost Harpy (seen, 200 HP, on its spire) and `foes` (id, SRD
/// template, hit points), seen, standing with the party.
fn with_foes(party: &[&str], foes: &[(&str, &str, u32)]) -> GameState {
    let mut state = table::seen_harpy(party);
    let harpy = state.monsters[0].clone();
    let list = Arc::make_mut(&mut state.monsters);
    for (id, template, hp) in foes {
        let mut m = harpy.clone();
        m.id = (*id).into();
        m.name = (*id).into();
        m.template = (*template).into();
        m.hp = HitPoints::full(*hp);
        m.armor_class = Srd::bundled().monster(template).unwrap().armor_class;
        m.area = None;
        list.push(m);
    }
    state
}

fn cast(caster: &str, spell: &str, slot: Option<u8>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets})
}

/// Teaches a hero a spell its sheet lacks.
fn learn(t: &mut Table, hero: &str, spell: &str) {
    Arc::make_mut(&mut t.hero_mut(hero).spells).push(spell.into());
}

fn outcomes<'a>(r: &'a Value, kind: &str) -> Vec<&'a Value> {
    r["lasting"]
        .as_array()
        .map(|a| a.iter().filter(|o| o["outcome"] == kind).collect())
        .unwrap_or_default()
}

fn has(state: &GameState, id: &str, condition: Condition) -> bool {
    state
        .monster(id)
        .map(|m| m.conditions)
        .or_else(|| state.character(id).map(|c| c.conditions))
        .unwrap()
        .has(condition)
}

#[test]
fn sleep_takes_the_lowest_hit_points_first_from_its_pool_and_spares_the_undead() {
    let foes = [
        ("goblin-a", "goblin", 3),
        ("goblin-b", "goblin", 7),
        ("ogre", "ogre", 30),
        ("skeleton", "skeleton", 5),
    ];
    for seed in 0..20 {
        let mut t = Table::new(with_foes(&["isolde"], &foes), seed);
        // Sleep names whoever stands in its sphere: the pool, not a count, decides.
        let r = t.ok(
            "cast_spell",
            cast(
                "isolde",
                "Sleep",
                None,
                &["ogre", "goblin-b", "skeleton", "goblin-a"],
            ),
        );
        let pool = outcomes(&r, "pool")[0]["rolled"].as_u64().unwrap() as u32;
        assert!((5..=40).contains(&pool), "5d8: {pool}");
        // The SRD's procedure: lowest current HP first, each using up its HP from the pool.
        let mut left = pool;
        let mut expected = Vec::new();
        for (id, hp) in [("goblin-a", 3), ("goblin-b", 7), ("ogre", 30)] {
            if hp <= left {
                left -= hp;
                expected.push(id);
            }
        }
        let slept: Vec<&str> = ["goblin-a", "goblin-b", "ogre"]
            .into_iter()
            .filter(|id| has(&t.state, id, Condition::Unconscious))
            .collect();
        assert_eq!(slept, expected, "seed {seed}, pool {pool}: {r}");
        assert!(!has(&t.state, "skeleton", Condition::Unconscious));
        let spared = outcomes(&r, "unaffected");
        assert!(
            spared
                .iter()
                .any(|o| o["target"] == "skeleton" && o["why"].as_str().unwrap().contains("undead")),
            "{r}"
        );
        // Damage wakes a sleeper.
        t.apply(&[Change::Damage {
            target: Target::Monster("goblin-a".into()),
            amount: 1,
            critical: false,
        }]);
        assert!(!has(&t.state, "goblin-a", Condition::Unconscious));
        assert!(
            t.state
                .monster("goblin-a")
                .unwrap()
                .timed_effects
                .is_empty()
        );
    }
}

#[test]
fn sleep_cast_with_a_2nd_level_slot_rolls_7d8_and_ends_after_a_minute() {
    let (mut low, mut high) = (u32::MAX, 0);
    for seed in 0..40 {
        let mut t = Table::new(with_foes(&["isolde"], &[("goblin", "goblin", 7)]), seed);
        let r = t.ok("cast_spell", cast("isolde", "Sleep", Some(2), &["goblin"]));
        let pool = outcomes(&r, "pool")[0]["rolled"].as_u64().unwrap() as u32;
        low = low.min(pool);
        high = high.max(pool);
        assert!(has(&t.state, "goblin", Condition::Unconscious), "7d8 ≥ 7");
        // One minute: ten rounds. The clock moving a minute ends it.
        t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
        assert!(!has(&t.state, "goblin", Condition::Unconscious));
    }
    assert!(
        low >= 7 && high <= 56 && high > 40,
        "7d8 gave {low}..{high}"
    );
}

/// Hedda (save DC 13) and Kraven against a bandit, in the order Hedda, bandit, Kraven; Hedda
/// knows Hold Person.
fn hold_fight(seed: u64) -> Table {
    let mut state = with_foes(&["hedda", "kraven"], &[("bandit", "bandit", 11)]);
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["hedda", "bandit", "kraven"]),
        })
        .unwrap();
    let mut t = Table::new(state, seed);
    learn(&mut t, "hedda", "Hold Person");
    t
}

#[test]
fn hold_person_paralyses_until_a_save_at_the_end_of_the_targets_turn() {
    let (mut held, mut broke_free) = (0, 0);
    for seed in 0..40 {
        let mut t = hold_fight(seed);
        let r = t.ok(
            "cast_spell",
            cast("hedda", "Hold Person", None, &["bandit"]),
        );
        let save = &r["effects"][0]["save"];
        assert_eq!(save["dc"], 13, "{r}");
        let failed = save["success"] == false;
        assert_eq!(has(&t.state, "bandit", Condition::Paralyzed), failed, "{r}");
        if !failed {
            continue;
        }
        let effect = &t.state.monster("bandit").unwrap().timed_effects[0];
        assert!(effect.concentration);
        assert_eq!(effect.rounds_left, Some(10), "1 minute");
        // Hedda's turn ends; the bandit's passes held, and it saves as it ends.
        t.ok("next_turn", json!({}));
        assert_eq!(t.turn_of(), "kraven");
        let repeat = t
            .log
            .rolls
            .iter()
            .find(|r| r.label.contains("save to end Hold Person"))
            .expect("the repeated save");
        let freed = !has(&t.state, "bandit", Condition::Paralyzed);
        assert_eq!(
            freed,
            t.state.monster("bandit").unwrap().timed_effects.is_empty()
        );
        let dc_met = repeat.total >= 13;
        assert_eq!(freed, dc_met, "total {}", repeat.total);
        if freed { broke_free += 1 } else { held += 1 }
    }
    assert!(
        held > 0 && broke_free > 0,
        "{held} held, {broke_free} freed"
    );
}

#[test]
fn hold_person_ends_with_hedda_s_concentration() {
    // Seeds where the bandit fails the first save.
    let failing = (0..40).filter_map(|seed| {
        let mut t = hold_fight(seed);
        t.ok(
            "cast_spell",
            cast("hedda", "Hold Person", None, &["bandit"]),
        );
        has(&t.state, "bandit", Condition::Paralyzed).then_some(t)
    });
    let mut checked = 0;
    for (i, mut t) in failing.take(4).enumerate() {
        if i % 2 == 0 {
            // Her concentration broken (damage, a failed save): the bandit is free.
            t.apply(&[Change::Concentration {
                character: "hedda".into(),
                spell: None,
            }]);
        } else {
            // She falls to 0 hit points: concentration, and the hold, end at once.
            t.apply(&[Change::Damage {
                target: Target::Character("hedda".into()),
                amount: 100,
                critical: false,
            }]);
        }
        assert!(!has(&t.state, "bandit", Condition::Paralyzed));
        assert!(t.state.monster("bandit").unwrap().timed_effects.is_empty());
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn bless_adds_a_d4_to_attack_rolls_and_saves_of_three_and_four_when_upcast() {
    let mut state = with_foes(
        &["hedda", "kraven", "isolde", "wren"],
        &[("goblin", "goblin", 50)],
    );
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["hedda", "kraven", "isolde", "wren", "goblin"]),
        })
        .unwrap();
    let mut t = Table::new(state, 3);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Bless", None, &["kraven", "isolde", "wren"]),
    );
    assert_eq!(outcomes(&r, "started").len(), 3, "{r}");
    assert_eq!(r["concentrating"], true);
    // Kraven's attack: his bonus plus 1d4.
    t.ok("next_turn", json!({}));
    let base = {
        let mut plain = Table::new(with_foes(&["kraven"], &[("goblin", "goblin", 50)]), 3);
        plain.ok("roll_attack", table::attack("kraven", "goblin"))["attacks"][0]["result"]
            ["attack_bonus"]
            .as_i64()
            .unwrap()
    };
    let a = t.ok("roll_attack", table::attack("kraven", "goblin"));
    let bonus = a["attacks"][0]["result"]["attack_bonus"].as_i64().unwrap();
    assert!(
        (base + 1..=base + 4).contains(&bonus),
        "{base} + 1d4: {bonus}"
    );
    assert!(t.log.rolls.iter().any(|r| r.label.contains("Bless (1d4)")));
    // A save: the same d4.
    let s = t.ok(
        "roll_saving_throw",
        json!({"creature": "wren", "ability": "dexterity", "dc": 10, "advantage": null, "reason": null}),
    );
    let reasons = s["modifier_reasons"][0].as_str().unwrap();
    assert!(reasons.contains("Bless (1d4)"), "{s}");
    // Hedda, not blessed, adds nothing.
    let s = t.ok(
        "roll_saving_throw",
        json!({"creature": "hedda", "ability": "wisdom", "dc": 10, "advantage": null, "reason": null}),
    );
    assert!(s.get("modifier_reasons").is_none(), "{s}");
    // Upcast: a 2nd-level slot blesses four (a new casting replaces the old).
    let mut t = Table::game(&["hedda", "kraven", "isolde", "wren"], 1);
    let e = t.refused(
        "cast_spell",
        cast(
            "hedda",
            "Bless",
            Some(1),
            &["hedda", "kraven", "isolde", "wren"],
        ),
    );
    assert!(e.contains("at most 3 targets"), "{e}");
    let r = t.ok(
        "cast_spell",
        cast(
            "hedda",
            "Bless",
            Some(2),
            &["hedda", "kraven", "isolde", "wren"],
        ),
    );
    assert_eq!(outcomes(&r, "started").len(), 4, "{r}");
}

#[test]
fn bane_takes_a_d4_from_those_who_fail_a_charisma_save() {
    let foes = [
        ("g1", "goblin", 7),
        ("g2", "goblin", 7),
        ("g3", "goblin", 7),
    ];
    let mut t = Table::new(with_foes(&["hedda"], &foes), 2);
    learn(&mut t, "hedda", "Bane");
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Bane", None, &["g1", "g2", "g3"]),
    );
    let saves = r["effects"].as_array().unwrap();
    assert_eq!(saves.len(), 3);
    for (i, id) in ["g1", "g2", "g3"].into_iter().enumerate() {
        let failed = saves[i]["save"]["success"] == false;
        let baned = !t.state.monster(id).unwrap().timed_effects.is_empty();
        assert_eq!(failed, baned, "{r}");
        let s = t.ok(
            "roll_saving_throw",
            json!({"creature": id, "ability": "wisdom", "dc": 10, "advantage": null, "reason": null}),
        );
        let modifier = s["result"]["modifier"].as_i64().unwrap();
        if baned {
            assert!((-5..=-2).contains(&modifier), "Wis -1 - 1d4: {s}");
            assert!(s["modifier_reasons"][0].as_str().unwrap().contains("Bane"));
        } else {
            assert_eq!(modifier, -1, "{s}");
        }
    }
}

#[test]
fn mage_armor_is_13_plus_dexterity_for_8_hours() {
    let mut t = Table::game(&["isolde"], 1);
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 13);
    t.ok(
        "cast_spell",
        cast("isolde", "Mage Armor", None, &["isolde"]),
    );
    // Dexterity 16: 13 + 3.
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 16);
    let sheet = t.ok("get_character_stats", json!({"character": "isolde"}));
    assert_eq!(sheet["armor_class"], 16, "{sheet}");
    t.apply(&[Change::TimeAdvanced { minutes: 479 }]);
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 16);
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 13);
}

#[test]
fn shield_of_faith_gives_2_while_hedda_concentrates() {
    let mut t = Table::game(&["hedda", "kraven"], 1);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Shield of Faith", None, &["kraven"]),
    );
    assert_eq!(r["concentrating"], true);
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!((kraven.armor_class, kraven.armor_class_now()), (17, 19));
    assert!(matches!(
        kraven.timed_effects[0].kind,
        TimedKind::ArmorBonus { bonus: 2 }
    ));
    t.apply(&[Change::Concentration {
        character: "hedda".into(),
        spell: None,
    }]);
    assert_eq!(t.state.character("kraven").unwrap().armor_class_now(), 17);
}

#[test]
fn shield_is_a_reaction_that_lasts_until_the_casters_next_turn() {
    let mut t = Table::fight(
        &["isolde", "kraven"],
        &["frost-harpy", "isolde", "kraven"],
        1,
    );
    assert_eq!(t.turn_of(), "frost-harpy");
    // Hit by the harpy on its turn: Isolde raises the barrier with her reaction.
    let r = t.ok("cast_spell", cast("isolde", "Shield", None, &[]));
    assert_eq!(outcomes(&r, "started").len(), 1, "{r}");
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 18);
    let e = t.refused("cast_spell", cast("isolde", "Shield", None, &[]));
    assert!(e.contains("reaction"), "{e}");
    // Still up on the harpy's turn; gone as Isolde's own turn starts.
    t.apply(&[Change::TurnAdvanced]);
    assert_eq!(t.turn_of(), "isolde");
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 13);
    // Shield, Mage Armor and Shield of Faith together: 13 + 3 as the base, then +5 and +2.
    let mut t = Table::game(&["isolde", "hedda"], 1);
    t.ok(
        "cast_spell",
        cast("isolde", "Mage Armor", None, &["isolde"]),
    );
    t.ok(
        "cast_spell",
        cast("hedda", "Shield of Faith", None, &["isolde"]),
    );
    t.ok("cast_spell", cast("isolde", "Shield", None, &[]));
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 23);
}

#[test]
fn magic_missile_with_a_2nd_level_slot_fires_four_darts() {
    for seed in 0..10 {
        let mut t = Table::new(table::seen_harpy(&["isolde"]), seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Magic Missile", Some(2), &["frost-harpy"]),
        );
        let darts = r["effects"].as_array().unwrap();
        assert_eq!(darts.len(), 4, "{r}");
        let total: u64 = darts.iter().map(|d| d["damage"].as_u64().unwrap()).sum();
        assert!(
            darts
                .iter()
                .all(|d| (2..=5).contains(&d["damage"].as_u64().unwrap()))
        );
        let hp = t.state.monster("frost-harpy").unwrap().hp.current;
        assert_eq!(u64::from(200 - hp), total);
    }
}

#[test]
fn cure_wounds_with_a_2nd_level_slot_heals_2d8_plus_wisdom() {
    // Hedda is a Life cleric: Disciple of Life adds 2 + the slot's level (4) to each healing.
    let mut best = 0;
    for seed in 0..30 {
        let mut t = Table::game(&["hedda", "kraven"], seed);
        t.apply(&[Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 25,
            critical: false,
        }]);
        let r = t.ok(
            "cast_spell",
            cast("hedda", "Cure Wounds", Some(2), &["kraven"]),
        );
        let healed = r["effects"][0]["healed"].as_u64().unwrap();
        assert!((9..=23).contains(&healed), "2d8+3 + 4: {healed}");
        assert_eq!(r["effects"][0]["rolled"], "2d8+3 + 4 (Disciple of Life)");
        assert_eq!(
            u64::from(t.state.character("kraven").unwrap().hp.current),
            3 + healed
        );
        best = best.max(healed);
    }
    assert!(best > 15, "more than 1d8+3 + 4 can give: {best}");
}

#[test]
fn fireball_rolls_once_and_halves_for_each_success() {
    let foes: Vec<(String, u32)> = (1..=6).map(|i| (format!("g{i}"), 60)).collect();
    let foes: Vec<(&str, &str, u32)> = foes
        .iter()
        .map(|(id, hp)| (id.as_str(), "goblin", *hp))
        .collect();
    let ids: Vec<&str> = foes.iter().map(|f| f.0).collect();
    let (mut halved, mut full) = (0, 0);
    for seed in 0..10 {
        let mut t = Table::new(with_foes(&["isolde"], &foes), seed);
        learn(&mut t, "isolde", "Fireball");
        t.hero_mut("isolde").spell_slots.max[2] = 1;
        let r = t.ok("cast_spell", cast("isolde", "Fireball", None, &ids));
        let damage_rolls: Vec<_> = t
            .log
            .rolls
            .iter()
            .filter(|r| r.label == "Fireball damage")
            .collect();
        assert_eq!(
            damage_rolls.len(),
            1,
            "one roll for every creature in the sphere"
        );
        let rolled = damage_rolls[0].total as u64;
        assert!((8..=48).contains(&rolled), "8d6: {rolled}");
        for (i, id) in ids.iter().enumerate() {
            let effect = &r["effects"][i];
            let want = if effect["save"]["success"] == true {
                halved += 1;
                rolled / 2
            } else {
                full += 1;
                rolled
            };
            assert_eq!(effect["damage"], want, "{r}");
            let hp = t.state.monster(id).unwrap().hp.current;
            assert_eq!(u64::from(60 - hp), want);
        }
    }
    assert!(halved > 0 && full > 0, "{halved} halved, {full} full");
}

#[test]
fn healing_word_is_a_bonus_action_leaving_only_a_cantrip_for_the_action() {
    let mut state = with_foes(&["hedda", "kraven"], &[("goblin", "goblin", 30)]);
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["hedda", "kraven", "goblin"]),
        })
        .unwrap();
    let mut t = Table::new(state, 4);
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 20,
        critical: false,
    }]);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Healing Word", None, &["kraven"]),
    );
    let healed = r["effects"][0]["healed"].as_u64().unwrap();
    // 1d4 + 3, and 2 + 1 from Hedda's Disciple of Life.
    assert!((7..=10).contains(&healed), "1d4+3 + 3: {healed}");
    let e = t.refused(
        "cast_spell",
        cast("hedda", "Cure Wounds", None, &["kraven"]),
    );
    assert!(e.contains("cantrip"), "{e}");
    t.ok(
        "cast_spell",
        cast("hedda", "Sacred Flame", None, &["goblin"]),
    );
}

#[test]
fn fire_bolt_grows_a_die_at_5th_level_and_misses_or_hits_by_the_roll() {
    for (level, dice) in [(3, 1), (5, 2), (11, 3)] {
        let mut t = Table::new(table::seen_harpy(&["isolde"]), 7);
        t.hero_mut("isolde").level = level;
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Fire Bolt", None, &["frost-harpy"]),
        );
        let attack = &r["effects"][0]["attack"];
        assert_eq!(
            attack["damage"][0]["dice"],
            format!("{dice}d10"),
            "level {level}: {r}"
        );
        let lost = 200 - t.state.monster("frost-harpy").unwrap().hp.current;
        assert_eq!(u64::from(lost), attack["total_damage"].as_u64().unwrap());
        assert_eq!(attack["hit"] == true, lost > 0, "{r}");
    }
}

#[test]
fn false_life_gives_1d4_plus_4_temporary_hit_points_and_5_more_a_slot() {
    for (slot, low) in [(1, 5), (2, 10)] {
        let mut t = Table::game(&["isolde"], u64::from(slot));
        learn(&mut t, "isolde", "False Life");
        let r = t.ok("cast_spell", cast("isolde", "False Life", Some(slot), &[]));
        let amount = outcomes(&r, "temporary_hp")[0]["amount"].as_u64().unwrap();
        assert!((low..=low + 3).contains(&amount), "slot {slot}: {amount}");
        let hp = t.state.character("isolde").unwrap().hp;
        assert_eq!(u64::from(hp.temporary), amount);
    }
}
