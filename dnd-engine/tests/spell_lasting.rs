//! Worked examples of the lasting effects (issue 16) from the SRD's spell texts, through
//! `cast_spell` as a model calls it, with seeded dice: Ray of Frost's -10 ft, Longstrider,
//! Haste and Slow on speed and AC, Chill Touch's no healing, Vicious Mockery's disadvantage on
//! the next attack (spent by it), Faerie Fire and Blur on attacks against, Divine Favor and
//! Branding Smite on weapon hits, Protection from Poison's resistance, Barkskin's AC floor,
//! Grease's prone, Hypnotic Pattern ended by damage, Guidance on a check, Scorching Ray's three
//! rays at one foe, Heroism's temporary hit points, Lesser Restoration ending a paralysis, Spare
//! the Dying, and a narrative spell that spends its slot and says why it does nothing more.

use serde_json::{Value, json};

use dnd_engine::combat::attack_situation;
use dnd_engine::rules::{Condition, DamageType};
use dnd_engine::state::{Change, GameState, Target, TimedKind, speed_now};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn cast(caster: &str, spell: &str, slot: Option<u8>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets})
}

fn learn(t: &mut Table, hero: &str, spell: &str) {
    std::sync::Arc::make_mut(&mut t.hero_mut(hero).spells).push(spell.into());
}

/// A game with `party` and the harpy seen, seeded; `caster` knows `spell`.
fn table_with(party: &[&str], caster: &str, spell: &str, seed: u64) -> Table {
    let mut t = Table::new(table::seen_harpy(party), seed);
    learn(&mut t, caster, spell);
    t
}

/// A 5th-level full caster's slots (two of 3rd level).
fn fifth_level_slots() -> dnd_engine::rules::SpellSlots {
    use dnd_engine::rules::{CasterProgression, SpellSlots};
    SpellSlots::for_class(CasterProgression::Full, 5)
}

fn harpy_effects(state: &GameState) -> &[dnd_engine::state::TimedEffect] {
    &state.monster("frost-harpy").unwrap().timed_effects
}

/// The first table `attempt` keeps (a hit or a failed save), trying seeds 0 to 39.
fn until(mut attempt: impl FnMut(u64) -> Option<Table>) -> Table {
    (0..40)
        .find_map(&mut attempt)
        .expect("some seed in 40 lands the spell")
}

#[test]
fn ray_of_frost_takes_10_feet_of_speed_until_the_casters_next_turn() {
    let mut t = until(|seed| {
        let mut t = table_with(&["isolde"], "isolde", "Ray of Frost", seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Ray of Frost", None, &["frost-harpy"]),
        );
        (r["effects"][0]["attack"]["hit"] == true).then_some(t)
    });
    // The harpy walks 20 ft (40 flying is its own; the fight's speed is the walking one).
    assert_eq!(speed_now(&t.state, "frost-harpy", 20), 10);
    assert!(matches!(
        harpy_effects(&t.state)[0].kind,
        TimedKind::Speed { change } if change.feet == -10
    ));
    // "Until your next turn starts": one round, gone as the clock moves a minute.
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    assert_eq!(speed_now(&t.state, "frost-harpy", 20), 20);
}

#[test]
fn longstrider_haste_and_slow_change_speed_and_ac() {
    let mut t = table_with(&["isolde", "kraven"], "isolde", "Longstrider", 1);
    t.ok(
        "cast_spell",
        cast("isolde", "Longstrider", None, &["kraven"]),
    );
    assert_eq!(speed_now(&t.state, "kraven", 30), 40);
    learn(&mut t, "isolde", "Haste");
    t.hero_mut("isolde").spell_slots = fifth_level_slots();
    t.ok("cast_spell", cast("isolde", "Haste", Some(3), &["kraven"]));
    // (30 + 10) doubled; +2 AC on Kraven's 17.
    assert_eq!(speed_now(&t.state, "kraven", 30), 80);
    assert_eq!(t.state.character("kraven").unwrap().armor_class_now(), 19);
    // Slow on the harpy, seeds until it fails the Wisdom save: half speed, -2 AC.
    let t = until(|seed| {
        let mut t = table_with(&["isolde"], "isolde", "Slow", seed);
        t.hero_mut("isolde").spell_slots = fifth_level_slots();
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Slow", Some(3), &["frost-harpy"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    assert_eq!(speed_now(&t.state, "frost-harpy", 20), 10);
    let harpy = t.state.monster("frost-harpy").unwrap();
    assert_eq!(harpy.armor_class_now(), harpy.armor_class - 2);
}

#[test]
fn chill_touch_leaves_its_target_unable_to_regain_hit_points() {
    let mut t = until(|seed| {
        let mut t = table_with(
            &["isolde", "hedda", "kraven"],
            "isolde",
            "Chill Touch",
            seed,
        );
        t.apply(&[Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 10,
            critical: false,
        }]);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Chill Touch", None, &["kraven"]),
        );
        (r["effects"][0]["attack"]["hit"] == true).then_some(t)
    });
    let hp = t.state.character("kraven").unwrap().hp.current;
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Cure Wounds", None, &["kraven"]),
    );
    assert_eq!(t.state.character("kraven").unwrap().hp.current, hp, "{r}");
    let why = r["lasting"][0]["why"].as_str().unwrap_or_default();
    assert!(why.contains("Chill Touch"), "{r}");
    // A minute later the hand has let go: Cure Wounds heals again.
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    t.ok(
        "cast_spell",
        cast("hedda", "Cure Wounds", None, &["kraven"]),
    );
    assert!(t.state.character("kraven").unwrap().hp.current > hp);
}

#[test]
fn vicious_mockery_gives_disadvantage_on_the_next_attack_only() {
    let mut t = until(|seed| {
        let mut t = table_with(&["isolde", "kraven"], "isolde", "Vicious Mockery", seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Vicious Mockery", None, &["frost-harpy"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    let first = attack_situation(&t.state, "frost-harpy", "kraven");
    assert_eq!(
        first.sources.resolve(),
        dnd_engine::dice::Advantage::Disadvantage,
        "{first:?}"
    );
    assert_eq!(first.ends.len(), 1, "the attack spends the mockery");
    t.apply(&first.ends);
    let second = attack_situation(&t.state, "frost-harpy", "kraven");
    assert_eq!(
        second.sources.resolve(),
        dnd_engine::dice::Advantage::Normal
    );
}

#[test]
fn faerie_fire_gives_advantage_against_and_blur_disadvantage_against() {
    let t = until(|seed| {
        let mut t = table_with(&["isolde", "kraven"], "isolde", "Faerie Fire", seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Faerie Fire", None, &["frost-harpy"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    let s = attack_situation(&t.state, "kraven", "frost-harpy");
    assert_eq!(s.sources.resolve(), dnd_engine::dice::Advantage::Advantage);
    assert!(s.ends.is_empty(), "Faerie Fire lasts: {s:?}");
    let mut t = table_with(&["isolde"], "isolde", "Blur", 1);
    t.ok("cast_spell", cast("isolde", "Blur", None, &[]));
    let s = attack_situation(&t.state, "frost-harpy", "isolde");
    assert_eq!(
        s.sources.resolve(),
        dnd_engine::dice::Advantage::Disadvantage
    );
    // Concentration ends it.
    t.apply(&[Change::Concentration {
        character: "isolde".into(),
        spell: None,
    }]);
    let s = attack_situation(&t.state, "frost-harpy", "isolde");
    assert_eq!(s.sources.resolve(), dnd_engine::dice::Advantage::Normal);
}

/// Hedda's first weapon attack on the harpy in a fight where it is her turn, until one hits;
/// with `spell` cast first as her bonus action. The table and the attack's report.
fn smite(spell: &str) -> (Table, Value) {
    (0..60)
        .find_map(|seed| {
            let mut t = Table::fight(&["hedda"], &["hedda", "frost-harpy"], seed);
            learn(&mut t, "hedda", spell);
            t.ok("cast_spell", cast("hedda", spell, None, &[]));
            let r = t.ok("roll_attack", table::attack("hedda", "frost-harpy"));
            (r["attacks"][0]["result"]["hit"] == true).then_some((t, r))
        })
        .expect("a hit in 60 seeds")
}

/// The radiant dice of the first swing's damage ("1d4").
fn radiant_dice(report: &Value) -> Vec<String> {
    report["attacks"][0]["result"]["damage"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["type"] == "radiant")
        .map(|d| d["dice"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn divine_favor_adds_1d4_radiant_to_each_weapon_hit() {
    let (t, r) = smite("Divine Favor");
    assert_eq!(radiant_dice(&r), ["1d4"], "{r}");
    // It lasts past the hit, for the minute of concentration.
    assert_eq!(t.state.character("hedda").unwrap().timed_effects.len(), 1);
}

#[test]
fn branding_smite_adds_2d6_radiant_to_the_next_hit_and_ends() {
    let (t, r) = smite("Branding Smite");
    assert_eq!(radiant_dice(&r), ["2d6"], "{r}");
    assert!(t.state.character("hedda").unwrap().timed_effects.is_empty());
}

#[test]
fn protection_from_poison_halves_poison_damage() {
    let t = until(|seed| {
        let mut t = table_with(
            &["isolde", "hedda", "kraven"],
            "hedda",
            "Protection from Poison",
            seed,
        );
        learn(&mut t, "isolde", "Poison Spray");
        t.ok(
            "cast_spell",
            cast("hedda", "Protection from Poison", None, &["kraven"]),
        );
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Poison Spray", None, &["kraven"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    let kraven = t.state.character("kraven").unwrap();
    assert!(matches!(
        &kraven.timed_effects[0].kind,
        TimedKind::Resistance { damage_types } if damage_types.iter().eq([DamageType::Poison])
    ));
    let taken = kraven.hp.max - kraven.hp.current;
    // 1d12 halved: at most 6.
    assert!((0..=6).contains(&taken), "took {taken}");
}

#[test]
fn barkskin_keeps_ac_at_least_16() {
    let mut t = table_with(&["hedda", "isolde"], "hedda", "Barkskin", 1);
    t.ok("cast_spell", cast("hedda", "Barkskin", None, &["isolde"]));
    assert_eq!(t.state.character("isolde").unwrap().armor_class_now(), 16);
    // Kraven's 17 is higher than the floor.
    let mut t = table_with(&["hedda", "kraven"], "hedda", "Barkskin", 1);
    t.ok("cast_spell", cast("hedda", "Barkskin", None, &["kraven"]));
    assert_eq!(t.state.character("kraven").unwrap().armor_class_now(), 17);
}

#[test]
fn grease_knocks_prone_and_prone_stays_until_the_creature_stands() {
    let mut t = until(|seed| {
        let mut t = table_with(&["isolde"], "isolde", "Grease", seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Grease", None, &["frost-harpy"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    let prone = |s: &GameState| {
        s.monster("frost-harpy")
            .unwrap()
            .conditions
            .has(Condition::Prone)
    };
    assert!(prone(&t.state));
    t.apply(&[Change::TimeAdvanced { minutes: 2 }]);
    assert!(prone(&t.state), "prone has no duration of its own");
}

#[test]
fn hypnotic_pattern_charms_and_incapacitates_until_damage() {
    let mut t = until(|seed| {
        let mut t = table_with(&["isolde"], "isolde", "Hypnotic Pattern", seed);
        t.hero_mut("isolde").spell_slots = fifth_level_slots();
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Hypnotic Pattern", Some(3), &["frost-harpy"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    let has = |s: &GameState, c| s.monster("frost-harpy").unwrap().conditions.has(c);
    assert!(has(&t.state, Condition::Charmed) && has(&t.state, Condition::Incapacitated));
    assert_eq!(speed_now(&t.state, "frost-harpy", 20), 0);
    t.apply(&[Change::Damage {
        target: Target::Monster("frost-harpy".into()),
        amount: 1,
        critical: false,
    }]);
    assert!(!has(&t.state, Condition::Charmed) && !has(&t.state, Condition::Incapacitated));
    assert_eq!(
        speed_now(&t.state, "frost-harpy", 20),
        20,
        "the daze ends whole"
    );
}

/// A DC 10 Athletics check by `creature`.
fn athletics(creature: &str) -> serde_json::Value {
    json!({"creature": creature, "skill": "athletics", "dc": 10, "advantage": null, "reason": null})
}

#[test]
fn guidance_adds_a_d4_to_an_ability_check() {
    let mut t = table_with(&["hedda", "kraven"], "hedda", "Guidance", 3);
    t.ok("cast_spell", cast("hedda", "Guidance", None, &["kraven"]));
    let r = t.ok("roll_skill_check", athletics("kraven"));
    let label = t.log.rolls.last().unwrap().label.clone();
    assert!(label.contains("Guidance (1d4)"), "{label} {r}");
    // One check of its choice, then the spell ends: the next check gets no d4.
    let kraven = t.state.character("kraven").unwrap();
    assert!(
        kraven.timed_effects.is_empty(),
        "{:?}",
        kraven.timed_effects
    );
    assert_eq!(t.state.character("hedda").unwrap().concentration, None);
    t.ok("roll_skill_check", athletics("kraven"));
    let label = t.log.rolls.last().unwrap().label.clone();
    assert!(!label.contains("Guidance"), "{label}");
}

#[test]
fn resistance_adds_a_d4_to_one_save_then_ends() {
    let mut t = table_with(&["hedda", "kraven"], "hedda", "Resistance", 4);
    t.ok("cast_spell", cast("hedda", "Resistance", None, &["kraven"]));
    let save = json!({"creature": "kraven", "ability": "constitution", "dc": 12, "advantage": null, "reason": null});
    // Not on an ability check: the d4 waits for a save.
    t.ok("roll_skill_check", athletics("kraven"));
    assert_eq!(t.state.character("kraven").unwrap().timed_effects.len(), 1);
    let r = t.ok("roll_saving_throw", save.clone());
    let reasons = r["modifier_reasons"].to_string();
    assert!(reasons.contains("Resistance (1d4)"), "{r}");
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!(kraven.timed_effects, vec![]);
    // Spent: the next save gets nothing, and its concentration went with it.
    let r = t.ok("roll_saving_throw", save);
    assert!(!r.to_string().contains("Resistance"), "{r}");
}

#[test]
fn scorching_ray_fires_three_rays_at_one_foe_named_once() {
    let mut t = table_with(&["isolde"], "isolde", "Scorching Ray", 5);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Scorching Ray", None, &["frost-harpy"]),
    );
    let rays = r["effects"].as_array().unwrap();
    assert_eq!(rays.len(), 3, "{r}");
    assert!(rays.iter().all(|o| o["outcome"] == "attack"));
    // With a 3rd-level slot, four.
    let mut t = table_with(&["isolde"], "isolde", "Scorching Ray", 5);
    t.hero_mut("isolde").spell_slots = fifth_level_slots();
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Scorching Ray", Some(3), &["frost-harpy"]),
    );
    assert_eq!(r["effects"].as_array().unwrap().len(), 4, "{r}");
}

#[test]
fn a_narrative_spell_spends_its_slot_and_says_what_is_left_to_the_narrator() {
    let mut t = table_with(&["isolde"], "isolde", "Comprehend Languages", 1);
    let before = t
        .state
        .character("isolde")
        .unwrap()
        .spell_slots
        .available(1);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Comprehend Languages", None, &[]),
    );
    assert_eq!(r["effects"], json!([]), "{r}");
    assert!(
        r["narrator"]
            .as_str()
            .unwrap()
            .contains("understand languages"),
        "{r}"
    );
    let after = t
        .state
        .character("isolde")
        .unwrap()
        .spell_slots
        .available(1);
    assert_eq!(after, before - 1);
    // A partly modelled spell says what its effects leave out.
    let mut t = table_with(&["isolde"], "isolde", "Chill Touch", 1);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Chill Touch", None, &["frost-harpy"]),
    );
    assert!(r["narrator"].as_str().unwrap().contains("undead"), "{r}");
}

#[test]
fn heroism_gives_temporary_hit_points_equal_to_the_casters_modifier() {
    let mut t = table_with(&["hedda", "kraven"], "hedda", "Heroism", 1);
    let r = t.ok("cast_spell", cast("hedda", "Heroism", None, &["kraven"]));
    // Hedda's Wisdom modifier is +3.
    assert_eq!(t.state.character("kraven").unwrap().hp.temporary, 3, "{r}");
}

#[test]
fn lesser_restoration_ends_a_paralysis_with_the_spell_that_imposed_it() {
    // Hold Person on Kraven (seeds until he fails), then Hedda's Lesser Restoration.
    let mut t = until(|seed| {
        let mut t = table_with(
            &["hedda", "kraven", "isolde"],
            "isolde",
            "Hold Person",
            seed,
        );
        learn(&mut t, "hedda", "Lesser Restoration");
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Hold Person", None, &["kraven"]),
        );
        (r["effects"][0]["save"]["success"] == false).then_some(t)
    });
    let held = |s: &GameState| {
        s.character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Paralyzed)
    };
    assert!(held(&t.state));
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Lesser Restoration", None, &["kraven"]),
    );
    assert_eq!(r["lasting"][0]["outcome"], "condition_ended", "{r}");
    assert!(!held(&t.state));
    assert!(
        t.state
            .character("kraven")
            .unwrap()
            .timed_effects
            .is_empty()
    );
    // Nothing left to end: it says so, and the slot is still spent.
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Lesser Restoration", None, &["kraven"]),
    );
    assert_eq!(r["lasting"][0]["outcome"], "unaffected", "{r}");
}

#[test]
fn spare_the_dying_stabilises_a_character_at_0_hit_points() {
    let mut t = table_with(&["hedda", "kraven"], "hedda", "Spare the Dying", 1);
    let hp = t.state.character("kraven").unwrap().hp.current;
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: hp,
        critical: false,
    }]);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Spare the Dying", None, &["kraven"]),
    );
    assert_eq!(r["lasting"][0]["outcome"], "stabilized", "{r}");
    assert!(t.state.character("kraven").unwrap().death_saves.stable);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Spare the Dying", None, &["kraven"]),
    );
    assert_eq!(r["lasting"][0]["why"], "already stable", "{r}");
}
