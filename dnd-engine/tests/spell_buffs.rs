//! Worked examples of the buffs and debuffs modelled after the rest (issue 16), from the SRD's
//! spell texts, through `cast_spell` as a model calls it, with seeded dice: Magic Weapon's +1
//! (+2 with a 4th-level slot) on a nonmagical weapon and nothing on a magic one; True Strike's
//! advantage on the caster's first attack and no one else's; Protection from Evil and Good's
//! disadvantage on an undead's attacks and not on a harpy's; Aid's raised maximum, not adding up
//! when cast again and taken back after 8 hours; Protection from Energy and Enhance Ability with
//! Shillelagh's quarterstaff (the spellcasting modifier, a d8, magical) and
//! Flame Blade held in hand (no attack as cast; an action's melee spell attack for 3d6 fire at a
//! creature within 5 ft of the caster); and Bestow Curse (an ability's curse; disadvantage on attacks against the caster alone) with
//! the caster's choice named strictly (a missing, unknown or needless choice refused, no slot
//! spent, through a whole turn of a scripted model too); and the state refusing what the
//! data could never start (a +5 weapon, a caster-only advantage on a creature's own saves, a
//! ward against no one, a raise of nothing).

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::attack_situation;
use dnd_engine::dice::Advantage;
use dnd_engine::state::{Change, RollOn, TimedEffect, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn cast(caster: &str, spell: &str, slot: Option<u8>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets})
}

/// Isolde and Kraven with the harpy seen; Isolde knows `spell` and has a 7th-level caster's
/// slots (a 4th-level one among them).
fn table_with(spell: &str, seed: u64) -> Table {
    use dnd_engine::rules::{CasterProgression, SpellSlots};
    let mut t = Table::new(table::seen_harpy(&["isolde", "kraven"]), seed);
    let isolde = t.hero_mut("isolde");
    Arc::make_mut(&mut isolde.spells).push(spell.into());
    isolde.spell_slots = SpellSlots::for_class(CasterProgression::Full, 7);
    t
}

/// Kraven's first attack: (to hit, damage bonus) now.
fn kravens_swing(t: &Table) -> (i32, i32) {
    let kraven = t.state.character("kraven").unwrap();
    let attack = &kraven.attacks[0];
    (
        kraven.attack_bonus(attack),
        kraven.attack_damage(attack).bonus,
    )
}

#[test]
fn magic_weapon_adds_1_or_2_by_slot_to_a_nonmagical_weapons_attack_and_damage() {
    let mut t = table_with("Magic Weapon", 1);
    let (hit, damage) = kravens_swing(&t);
    assert!(!t.state.character("kraven").unwrap().attacks[0].magical);
    t.ok(
        "cast_spell",
        cast("isolde", "Magic Weapon", None, &["kraven"]),
    );
    assert_eq!(kravens_swing(&t), (hit + 1, damage + 1));
    assert!({
        let kraven = t.state.character("kraven").unwrap();
        kraven.attack_is_magical(&kraven.attacks[0])
    });
    // Cast again with a 4th-level slot (concentration ends the first): +2, not +3.
    t.ok(
        "cast_spell",
        cast("isolde", "Magic Weapon", Some(4), &["kraven"]),
    );
    assert_eq!(kravens_swing(&t), (hit + 2, damage + 2));
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!(kraven.timed_effects.len(), 1, "{:?}", kraven.timed_effects);
    // A weapon already magical gains nothing.
    Arc::make_mut(&mut t.hero_mut("kraven").attacks)[0].magic_bonus = 1;
    assert_eq!(kravens_swing(&t), (hit + 1, damage + 1));
}

#[test]
fn a_forged_weapon_bonus_beyond_3_is_refused_by_the_state() {
    let mut t = table_with("Magic Weapon", 1);
    let before = t.state.clone();
    let forged = TimedEffect {
        source: "isolde".into(),
        spell: "Magic Weapon".into(),
        target: "kraven".into(),
        concentration: true,
        rounds_left: Some(600),
        ends_on_damage: false,
        level: 9,
        at_turn_end: false,
        kind: TimedKind::WeaponPlus { bonus: 5 },
    };
    let err = t
        .state
        .apply(&Change::TimedEffectStarted { effect: forged })
        .unwrap_err();
    assert!(err.to_string().contains("+1 to +3"), "{err}");
    assert_eq!(t.state, before);
}

#[test]
fn true_strike_gives_its_caster_alone_advantage_on_the_first_attack_against_the_target() {
    let mut t = table_with("True Strike", 1);
    t.ok(
        "cast_spell",
        cast("isolde", "True Strike", None, &["frost-harpy"]),
    );
    let kravens = attack_situation(&t.state, "kraven", "frost-harpy");
    assert_eq!(kravens.sources.resolve(), Advantage::Normal, "{kravens:?}");
    assert!(kravens.ends.is_empty(), "Kraven's swing spends nothing");
    let isoldes = attack_situation(&t.state, "isolde", "frost-harpy");
    assert_eq!(
        isoldes.sources.resolve(),
        Advantage::Advantage,
        "{isoldes:?}"
    );
    // The first attack spends it: the second has none.
    t.apply(&isoldes.ends);
    let again = attack_situation(&t.state, "isolde", "frost-harpy");
    assert_eq!(again.sources.resolve(), Advantage::Normal, "{again:?}");
}

#[test]
fn a_forged_caster_only_advantage_on_saves_is_refused() {
    let mut t = table_with("True Strike", 1);
    let before = t.state.clone();
    let forged = TimedEffect {
        source: "isolde".into(),
        spell: "True Strike".into(),
        target: "kraven".into(),
        concentration: true,
        rounds_left: Some(2),
        ends_on_damage: false,
        level: 0,
        at_turn_end: true,
        kind: TimedKind::Advantage {
            on: RollOn::Saves,
            ability: None,
            disadvantage: false,
            next_only: true,
            source_only: true,
        },
    };
    let err = t
        .state
        .apply(&Change::TimedEffectStarted { effect: forged })
        .unwrap_err();
    assert!(err.to_string().contains("the source alone"), "{err}");
    assert_eq!(t.state, before);
}

#[test]
fn protection_from_evil_and_good_hinders_an_undeads_attacks_not_a_harpys() {
    let mut t = table_with("Protection from Evil and Good", 1);
    let mut zombie = t.state.monsters[0].clone();
    zombie.id = "zombie".into();
    zombie.name = "Zombie".into();
    zombie.template = "zombie".into();
    Arc::make_mut(&mut t.state.monsters).push(zombie);
    let before = attack_situation(&t.state, "zombie", "kraven");
    assert_eq!(before.sources.resolve(), Advantage::Normal, "{before:?}");
    t.ok(
        "cast_spell",
        cast("isolde", "Protection from Evil and Good", None, &["kraven"]),
    );
    let undead = attack_situation(&t.state, "zombie", "kraven");
    assert_eq!(
        undead.sources.resolve(),
        Advantage::Disadvantage,
        "{undead:?}"
    );
    // Not spent by the roll: the ward lasts its 10 minutes.
    assert!(undead.ends.is_empty());
    let harpy = attack_situation(&t.state, "frost-harpy", "kraven");
    assert_eq!(harpy.sources.resolve(), Advantage::Normal, "{harpy:?}");
    // Its 10 minutes pass: the ward ends.
    t.apply(&[Change::TimeAdvanced { minutes: 11 }]);
    let after = attack_situation(&t.state, "zombie", "kraven");
    assert_eq!(after.sources.resolve(), Advantage::Normal, "{after:?}");
}

#[test]
fn a_forged_ward_against_no_one_is_refused() {
    let mut t = table_with("Protection from Evil and Good", 1);
    let before = t.state.clone();
    let forged = TimedEffect {
        source: "isolde".into(),
        spell: "Protection from Evil and Good".into(),
        target: "kraven".into(),
        concentration: true,
        rounds_left: Some(100),
        ends_on_damage: false,
        level: 1,
        at_turn_end: false,
        kind: TimedKind::Ward {
            creature_types: Vec::new(),
        },
    };
    let err = t
        .state
        .apply(&Change::TimedEffectStarted { effect: forged })
        .unwrap_err();
    assert!(
        err.to_string().contains("at least one creature type"),
        "{err}"
    );
    assert_eq!(t.state, before);
}

fn hp(t: &Table, id: &str) -> (u32, u32) {
    let hp = t.state.character(id).unwrap().hp;
    (hp.current, hp.max)
}

#[test]
fn aid_raises_maximum_and_current_hit_points_by_5_per_slot_step_for_8_hours() {
    let mut t = table_with("Aid", 1);
    let (_, kraven_max) = hp(&t, "kraven");
    let (_, isolde_max) = hp(&t, "isolde");
    // Kraven is hurt by 4 first: Aid raises current hit points too, from where they are.
    t.apply(&[Change::Damage {
        target: dnd_engine::state::Target::Character("kraven".into()),
        amount: 4,
        critical: false,
    }]);
    t.ok(
        "cast_spell",
        cast("isolde", "Aid", Some(3), &["kraven", "isolde"]),
    );
    assert_eq!(hp(&t, "kraven"), (kraven_max - 4 + 10, kraven_max + 10));
    assert_eq!(hp(&t, "isolde"), (isolde_max + 10, isolde_max + 10));
    // Cast again with a 2nd-level slot: the same spell does not add up; the newest counts.
    t.ok("cast_spell", cast("isolde", "Aid", Some(2), &["kraven"]));
    assert_eq!(hp(&t, "kraven").1, kraven_max + 5);
    // Eight hours later the maxima drop back, current hit points with them where above.
    t.apply(&[Change::TimeAdvanced { minutes: 8 * 60 }]);
    assert_eq!(hp(&t, "kraven").1, kraven_max);
    assert_eq!(hp(&t, "isolde"), (isolde_max, isolde_max));
    assert!(
        t.state
            .character("kraven")
            .unwrap()
            .timed_effects
            .is_empty()
    );
}

#[test]
fn a_forged_raise_of_nothing_is_refused() {
    let mut t = table_with("Aid", 1);
    let before = t.state.clone();
    let forged = TimedEffect {
        source: "isolde".into(),
        spell: "Aid".into(),
        target: "kraven".into(),
        concentration: false,
        rounds_left: Some(4800),
        ends_on_damage: false,
        level: 2,
        at_turn_end: false,
        kind: TimedKind::MaxHpRaised { amount: 0 },
    };
    let err = t
        .state
        .apply(&Change::TimedEffectStarted { effect: forged })
        .unwrap_err();
    assert!(err.to_string().contains("at least 1"), "{err}");
    assert_eq!(t.state, before);
}

fn cast_choosing(spell: &str, slot: Option<u8>, targets: &[&str], choice: Option<&str>) -> Value {
    json!({"caster": "isolde", "spell": spell, "slot_level": slot, "targets": targets,
           "choice": choice})
}

#[test]
fn protection_from_energy_resists_the_type_named_and_refuses_any_other_choice() {
    use dnd_engine::rules::DamageType;
    let mut t = table_with("Protection from Energy", 1);
    for (choice, allowed) in [(None, "one of"), (Some("poison"), "\"thunder\"")] {
        let err = t.refused(
            "cast_spell",
            cast_choosing("Protection from Energy", None, &["kraven"], choice),
        );
        assert!(err.contains(allowed), "{err}");
    }
    t.ok(
        "cast_spell",
        cast_choosing("Protection from Energy", None, &["kraven"], Some("Fire")),
    );
    let defenses = t
        .state
        .character("kraven")
        .unwrap()
        .defenses_now(dnd_engine::srd::Srd::bundled());
    assert!(defenses.resistances.contains(DamageType::Fire));
    assert!(!defenses.resistances.contains(DamageType::Cold));
}

#[test]
fn enhance_ability_gives_bears_endurance_its_temporary_hit_points_and_advantage() {
    use dnd_engine::combat::ability_check_situation;
    use dnd_engine::rules::Ability;
    let mut t = table_with("Enhance Ability", 3);
    t.ok(
        "cast_spell",
        cast_choosing(
            "Enhance Ability",
            None,
            &["kraven"],
            Some("bear's endurance"),
        ),
    );
    let kraven = t.state.character("kraven").unwrap();
    assert!((2..=12).contains(&kraven.hp.temporary), "{:?}", kraven.hp);
    let con = ability_check_situation(&t.state, "kraven", Some(Ability::Constitution));
    assert_eq!(con.sources.resolve(), Advantage::Advantage, "{con:?}");
    let str_check = ability_check_situation(&t.state, "kraven", Some(Ability::Strength));
    assert_eq!(str_check.sources.resolve(), Advantage::Normal);
    // A choice named for a spell without one is refused, and spends nothing.
    let mut t = table_with("Magic Weapon", 1);
    let err = t.refused(
        "cast_spell",
        cast_choosing("Magic Weapon", None, &["kraven"], Some("fire")),
    );
    assert!(err.contains("no choice to make"), "{err}");
}

/// Isolde's Bestow Curse on the harpy with `choice`, on the first seed whose Wisdom save fails.
fn cursed(choice: &str) -> Table {
    (0..40)
        .find_map(|seed| {
            let mut t = table_with("Bestow Curse", seed);
            let r = t.ok(
                "cast_spell",
                cast_choosing("Bestow Curse", None, &["frost-harpy"], Some(choice)),
            );
            (r["effects"][0]["save"]["success"] == false).then_some(t)
        })
        .expect("some seed in 40 fails the save")
}

#[test]
fn bestow_curse_hinders_one_abilitys_checks_and_saves_or_attacks_on_the_caster_alone() {
    use dnd_engine::combat::save_situation;
    use dnd_engine::rules::Ability;
    let t = cursed("dexterity");
    let dex = save_situation(&t.state, "frost-harpy", Ability::Dexterity);
    assert_eq!(dex.resolve(), Advantage::Disadvantage, "{dex:?}");
    let wis = save_situation(&t.state, "frost-harpy", Ability::Wisdom);
    assert_eq!(wis.resolve(), Advantage::Normal);
    let t = cursed("attacks against the caster");
    let on_isolde = attack_situation(&t.state, "frost-harpy", "isolde");
    assert_eq!(on_isolde.sources.resolve(), Advantage::Disadvantage);
    let on_kraven = attack_situation(&t.state, "frost-harpy", "kraven");
    assert_eq!(on_kraven.sources.resolve(), Advantage::Normal);
}

#[tokio::test]
async fn a_model_naming_no_choice_a_wrong_one_or_a_needless_one_is_refused_and_spends_nothing() {
    use dnd_engine::llm::ToolCall;
    let mut before = table::seen_harpy(&["isolde", "kraven"]);
    {
        use dnd_engine::rules::{CasterProgression, SpellSlots};
        let isolde = table::hero_mut(&mut before, "isolde");
        let spells = Arc::make_mut(&mut isolde.spells);
        spells.push("Protection from Energy".into());
        spells.push("Magic Weapon".into());
        isolde.spell_slots = SpellSlots::for_class(CasterProgression::Full, 7);
    }
    let call = |id: &str, spell: &str, choice: Option<&str>| {
        ToolCall::new(
            id,
            "cast_spell",
            json!({"caster": "isolde", "spell": spell, "slot_level": null, "targets": ["kraven"],
                   "aim": null, "ritual": null, "choice": choice}),
        )
    };
    let calls = vec![
        call("a", "Protection from Energy", None),
        call("b", "Protection from Energy", Some("poison")),
        call("c", "Magic Weapon", Some("fire")),
        call("d", "Protection from Energy", Some("cold")),
    ];
    let played = table::scripted_turn(&before, calls, "Isolde", "Warding Kraven!").await;
    let results = played.results;
    assert_eq!(results.len(), 4, "{results:#?}");
    assert!(results[0].contains("needs a choice"), "{}", results[0]);
    assert!(results[1].contains("given: \\\"poison"), "{}", results[1]);
    assert!(results[2].contains("no choice to make"), "{}", results[2]);
    let after = played.after;
    let kraven = after.character("kraven").unwrap();
    assert!(
        kraven
            .defenses_now(dnd_engine::srd::Srd::bundled())
            .resistances
            .contains(dnd_engine::rules::DamageType::Cold)
    );
    // One 3rd-level slot for the lawful casting; no 2nd-level one for Magic Weapon.
    let (was, now) = (
        before.character("isolde").unwrap(),
        after.character("isolde").unwrap(),
    );
    assert_eq!(
        now.spell_slots.available(3),
        was.spell_slots.available(3) - 1
    );
    assert_eq!(now.spell_slots.available(2), was.spell_slots.available(2));
}

#[test]
fn flame_blade_strikes_nothing_as_cast_then_with_the_action_at_a_creature_within_5_ft() {
    use dnd_engine::state::Position;
    let at = |x| Position { x, y: 0, z: 0 };
    let state = table::placed_fight(
        &["isolde", "kraven"],
        table::order(&["isolde", "kraven", "frost-harpy"]),
        &[
            ("isolde", at(0)),
            ("kraven", at(0)),
            ("frost-harpy", at(10)),
        ],
    );
    let mut t = Table::new(state, 5);
    Arc::make_mut(&mut t.hero_mut("isolde").spells).push("Flame Blade".into());
    let r = t.ok("cast_spell", cast("isolde", "Flame Blade", None, &[]));
    assert!(
        !r.to_string().contains("\"attack\""),
        "the casting attacks no one: {r}"
    );
    let blade = json!({"attacker": "isolde", "target": "frost-harpy", "attack": "Flame Blade",
                       "advantage": null});
    let e = t.refused("roll_attack", blade.clone());
    assert!(e.contains("10 ft from Frost Harpy"), "{e}");
    t.apply(&[Change::Moved {
        creature: "frost-harpy".into(),
        to: at(5),
    }]);
    let before = t.state.monster("frost-harpy").unwrap().hp.current;
    let hit = t.ok("roll_attack", blade.clone());
    let attack = &hit["effects"][0]["attack"];
    let damage = attack["total_damage"].as_u64().unwrap_or(0) as u32;
    if attack["hit"] == true {
        let most = if attack["critical"] == true { 36 } else { 18 };
        assert!((3..=most).contains(&damage), "3d6 fire: {hit}");
    }
    assert_eq!(
        t.state.monster("frost-harpy").unwrap().hp.current,
        before - damage
    );
    // That took the action: no second strike this turn.
    let e = t.refused("roll_attack", blade);
    assert!(e.contains("action"), "{e}");
}

#[test]
fn shillelagh_makes_a_quarterstaff_magical_with_a_d8_and_the_spellcasting_modifier() {
    use dnd_engine::rules::{Ability, DamageType};
    let mut t = table_with("Shillelagh", 1);
    {
        let isolde = t.hero_mut("isolde");
        let mut staff = isolde.attacks[0].clone();
        staff.name = "Quarterstaff".into();
        staff.ability = Ability::Strength;
        staff.damage = dnd_engine::rules::DamageDice::new(1, 6, 0, DamageType::Bludgeoning);
        staff.add_modifier_to_damage = true;
        staff.magic_bonus = 0;
        staff.magical = false;
        Arc::make_mut(&mut isolde.attacks).push(staff);
    }
    let staff = |t: &Table| {
        let isolde = t.state.character("isolde").unwrap();
        let a = isolde.attacks.last().unwrap();
        (
            isolde.attack_bonus(a),
            isolde.attack_damage(a),
            isolde.attack_is_magical(a),
        )
    };
    let (hit, damage, magical) = staff(&t);
    assert_eq!((damage.count, damage.sides), (1, 6));
    assert!(!magical);
    t.ok(
        "cast_spell",
        cast("isolde", "Shillelagh", None, &["isolde"]),
    );
    let isolde = t.state.character("isolde").unwrap();
    let strength = isolde.abilities.modifier(Ability::Strength);
    let spell = isolde
        .abilities
        .modifier(isolde.spellcasting_ability.unwrap());
    assert!(spell > strength, "Isolde's spellcasting beats her Strength");
    let (hit_now, damage_now, magical_now) = staff(&t);
    assert_eq!(hit_now, hit - strength + spell);
    assert_eq!((damage_now.count, damage_now.sides), (1, 8));
    assert_eq!(damage_now.bonus, damage.bonus - strength + spell);
    assert!(magical_now);
    // A minute later the staff is wood again.
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    assert_eq!(staff(&t), (hit, damage, false));
}
