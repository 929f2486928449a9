//! Worked examples of the spells that ward, change size or copy (issue 16), from the SRD's
//! texts, through the tools as a model calls them, with seeded dice: Sanctuary (the
//! attacker's Wisdom save before the attack, the attack lost on a failure, the ward ended by
//! the warded creature's own attack, the monster planner turning to an unwarded hero, a harmful
//! spell lost on the warded creature), Mirror Image (the d20 against 6 with three duplicates, a
//! hit on a duplicate destroying it and hurting no one), Enlarge/Reduce (an ally enlarged
//! without a save: advantage on Strength saves and 1d4 more on its weapon hits; a foe reduced
//! after a Constitution save; the choice named strictly) and Warding Bond (+1 AC and saves,
//! resistance to all damage, the caster taking the same damage; never on the caster itself).
//! Pass without Trace, Blink, Calm Emotions, Alter Self and Silence are in `spell_shifts.rs`.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::monster_plan::{self, Plan};
use dnd_engine::dice::Advantage;
use dnd_engine::effects::roll_advantage;
use dnd_engine::rules::Ability;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, ItemStack, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn cast(caster: &str, spell: &str, targets: &[&str], choice: Option<&str>) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets,
           "choice": choice})
}

/// Isolde, Kraven and the harpy in a fight, Isolde first, then the harpy, then Kraven; Isolde
/// knows `spell` with a 7th-level caster's slots.
fn fight_with(spell: &str, seed: u64) -> Table {
    use dnd_engine::rules::{CasterProgression, SpellSlots};
    let mut t = Table::fight(
        &["isolde", "kraven"],
        &["isolde", "frost-harpy", "kraven"],
        seed,
    );
    let isolde = t.hero_mut("isolde");
    Arc::make_mut(&mut isolde.spells).push(spell.into());
    isolde.spell_slots = SpellSlots::for_class(CasterProgression::Full, 7);
    t
}

fn hp(t: &Table, id: &str) -> u32 {
    t.state
        .character(id)
        .map(|c| c.hp.current)
        .or_else(|| t.state.monster(id).map(|m| m.hp.current))
        .unwrap()
}

fn kinds(t: &Table, id: &str) -> Vec<TimedKind> {
    dnd_engine::state::timed_effects(&t.state, id)
        .iter()
        .map(|e| e.kind.clone())
        .collect()
}

#[test]
fn sanctuary_makes_an_attacker_save_first_and_a_failure_loses_the_attack() {
    let (mut lost, mut made) = (0, 0);
    for seed in 1..40 {
        let mut t = fight_with("Sanctuary", seed);
        t.ok("cast_spell", cast("isolde", "Sanctuary", &["kraven"], None));
        let dc = t
            .state
            .character("isolde")
            .unwrap()
            .spellcasting()
            .unwrap()
            .1;
        assert_eq!(kinds(&t, "kraven"), vec![TimedKind::Sanctuary { dc }]);
        t.apply(&[Change::TurnAdvanced]);
        let before = hp(&t, "kraven");
        let report = t.ok("roll_attack", table::attack("frost-harpy", "kraven"));
        let ward = &report["sanctuary"];
        assert_eq!(ward["save"]["dc"], dc, "{report}");
        // The harpy's Wisdom save: +0 (Wisdom 10), no proficiency.
        assert_eq!(ward["save"]["modifier"], 0, "{report}");
        let swings = report["attacks"].as_array().unwrap();
        if ward["lost"] == true {
            lost += 1;
            assert!(
                swings.is_empty(),
                "a lost attack swings at no one: {report}"
            );
            assert_eq!(hp(&t, "kraven"), before);
            assert!(!ward["save"]["success"].as_bool().unwrap());
        } else {
            made += 1;
            assert!(!swings.is_empty(), "{report}");
        }
        // The ward lasts until Kraven attacks; his attack ends it.
        assert_eq!(kinds(&t, "kraven").len(), 1);
        t.apply(&[Change::TurnAdvanced]);
        t.ok("roll_attack", table::attack("kraven", "frost-harpy"));
        assert!(kinds(&t, "kraven").is_empty(), "his own attack ends it");
    }
    assert!(lost > 0 && made > 0, "{lost} lost, {made} made");
}

#[test]
fn the_monster_planner_turns_to_an_unwarded_hero_and_spells_are_lost_on_the_warded() {
    let mut t = fight_with("Sanctuary", 3);
    let all = |_: &str| true;
    let target = |t: &Table| match monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all)
    {
        Some(Plan::Attack { target, .. }) => Some(target),
        _ => None,
    };
    // The song spent, so the harpy attacks.
    t.apply(&[Change::ActionSpent {
        monster: "frost-harpy".into(),
        action: "Luring Song".into(),
    }]);
    let first = target(&t).expect("an attack");
    let other = if first == "kraven" {
        "isolde"
    } else {
        "kraven"
    };
    t.ok("cast_spell", cast("isolde", "Sanctuary", &[&first], None));
    assert_eq!(target(&t).as_deref(), Some(other), "the unwarded hero");
    // With both warded, it attacks all the same (and must save).
    let both = dnd_engine::state::timed_effects(&t.state, &first)[0].clone();
    let mut second = both.clone();
    second.target = other.into();
    t.apply(&[Change::TimedEffectStarted { effect: second }]);
    assert!(target(&t).is_some());
}

#[test]
fn a_harmful_spell_named_at_a_warded_creature_is_lost_on_a_failed_save() {
    // The harpy warded (a Sanctuary from its own side, DC 30); Isolde's Sacred Flame at it.
    for seed in 1..10 {
        let mut t = fight_with("Sacred Flame", seed);
        let ward = dnd_engine::state::TimedEffect {
            source: "frost-harpy".into(),
            spell: "Sanctuary".into(),
            target: "frost-harpy".into(),
            concentration: false,
            rounds_left: Some(10),
            ends_on_damage: false,
            level: 1,
            at_turn_end: false,
            kind: TimedKind::Sanctuary { dc: 30 },
        };
        t.apply(&[Change::TimedEffectStarted { effect: ward }]);
        let before = hp(&t, "frost-harpy");
        let slots = t.state.character("isolde").unwrap().spell_slots;
        let flame = t.ok(
            "cast_spell",
            cast("isolde", "Sacred Flame", &["frost-harpy"], None),
        );
        // Isolde's Wisdom save cannot reach DC 30: the flame is lost on the harpy.
        assert!(
            flame["effects"]
                .to_string()
                .contains("the spell is lost on it"),
            "{flame}"
        );
        assert_eq!(hp(&t, "frost-harpy"), before, "{flame}");
        assert!(
            !t.log
                .rolls
                .iter()
                .any(|r| r.label.contains("Dexterity save")),
            "no save by the harpy: {flame}"
        );
        // A cantrip: no slot either way.
        assert_eq!(t.state.character("isolde").unwrap().spell_slots, slots);
    }
}

#[test]
fn mirror_image_turns_attacks_to_duplicates_that_a_hit_destroys() {
    let (mut struck, mut through) = (0, 0);
    for seed in 1..40 {
        let mut t = fight_with("Mirror Image", seed);
        t.ok("cast_spell", cast("isolde", "Mirror Image", &[], None));
        let ac = 10
            + t.state
                .character("isolde")
                .unwrap()
                .abilities
                .modifier(Ability::Dexterity);
        assert_eq!(
            kinds(&t, "isolde"),
            vec![TimedKind::MirrorImages {
                left: 3,
                armor_class: ac
            }]
        );
        t.apply(&[Change::TurnAdvanced]);
        let before = hp(&t, "isolde");
        let report = t.ok("roll_attack", table::attack("frost-harpy", "isolde"));
        let d20 = t
            .log
            .rolls
            .iter()
            .find(|r| r.label.contains("duplicates (6 or more)"))
            .map(|r| r.total)
            .expect("the d20 for the duplicates");
        let first = &report["attacks"][0];
        if d20 >= 6 {
            struck += 1;
            assert!(first["duplicate"].is_string(), "{report}");
            assert_eq!(first["result"]["target_ac"], ac, "{report}");
        } else {
            through += 1;
            assert!(first["duplicate"].is_null(), "{report}");
        }
        // Each hit on a duplicate destroyed one: three, less those.
        let destroyed = report["attacks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["duplicate"].is_string() && s["result"]["hit"] == true)
            .count();
        let left = kinds(&t, "isolde")
            .iter()
            .find_map(|k| match k {
                TimedKind::MirrorImages { left, .. } => Some(usize::from(*left)),
                _ => None,
            })
            .unwrap_or(0);
        assert_eq!(left, 3 - destroyed, "{report}");
        let hurt: u64 = report["attacks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["duplicate"].is_null() && s["result"]["hit"] == true)
            .map(|s| s["result"]["total_damage"].as_u64().unwrap())
            .sum();
        assert_eq!(u64::from(before - hp(&t, "isolde")), hurt, "{report}");
    }
    assert!(
        struck > 0 && through > 0,
        "{struck} struck, {through} through"
    );
}

#[test]
fn enlarge_needs_no_save_from_an_ally_and_reduce_a_constitution_save_from_a_foe() {
    let mut t = fight_with("Enlarge/Reduce", 5);
    let cast_on =
        |target: &str, choice: &str| cast("isolde", "Enlarge/Reduce", &[target], Some(choice));
    let enlarged = t.ok("cast_spell", cast_on("kraven", "enlarge"));
    assert_eq!(
        enlarged["effects"],
        json!([]),
        "no save for an ally: {enlarged}"
    );
    let strength = roll_advantage(&t.state, "kraven", Some(Ability::Strength), false);
    assert_eq!(strength.resolve(), Advantage::Advantage);
    assert_eq!(
        dnd_engine::effects::size_damage(&t.state, "kraven").map(|s| s.0),
        Some(true)
    );
    // Isolde's next turn: Reduce on the harpy, a Constitution save (cast again, her
    // concentration moves to it and Kraven shrinks back).
    t.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    let reduced = t.ok("cast_spell", cast_on("frost-harpy", "reduce"));
    assert_eq!(dnd_engine::effects::size_damage(&t.state, "kraven"), None);
    let save = &reduced["effects"][0]["save"];
    assert!(save.is_object(), "{reduced}");
    let failed = save["success"] == false;
    assert_eq!(
        dnd_engine::effects::size_damage(&t.state, "frost-harpy").map(|s| s.0),
        failed.then_some(false)
    );
    let harpy = roll_advantage(&t.state, "frost-harpy", Some(Ability::Strength), true);
    let want = if failed {
        Advantage::Disadvantage
    } else {
        Advantage::Normal
    };
    assert_eq!(harpy.resolve(), want);
}

#[test]
fn enlarge_reduce_without_a_choice_or_with_a_wrong_one_is_refused() {
    let mut t = fight_with("Enlarge/Reduce", 5);
    let none = t.refused(
        "cast_spell",
        cast("isolde", "Enlarge/Reduce", &["kraven"], None),
    );
    assert!(none.contains("\"enlarge\", \"reduce\""), "{none}");
    let wrong = t.refused(
        "cast_spell",
        cast("isolde", "Enlarge/Reduce", &["kraven"], Some("embiggen")),
    );
    assert!(wrong.contains("embiggen"), "{wrong}");
}

fn rings() -> Change {
    Change::ItemAdded {
        character: "isolde".into(),
        item: ItemStack {
            name: "Platinum rings (50 gp)".into(),
            quantity: 1,
            note: String::new(),
            magic: None,
            used_today: 0,
        },
    }
}

#[test]
fn warding_bond_shares_the_damage_its_ward_resists() {
    let mut hits = 0;
    for seed in 1..20 {
        let mut t = fight_with("Warding Bond", seed);
        t.apply(&[rings()]);
        let ac = t.state.character("kraven").unwrap().armor_class_now();
        t.ok(
            "cast_spell",
            cast("isolde", "Warding Bond", &["kraven"], None),
        );
        assert_eq!(
            t.state.character("kraven").unwrap().armor_class_now(),
            ac + 1
        );
        let bonus = dnd_engine::effects::roll_bonus(
            &t.state,
            "kraven",
            dnd_engine::state::RollKind::Save,
            &mut dnd_engine::dice::seeded_rng(1),
        );
        assert_eq!(bonus.total, 1, "+1 on saves: {bonus:?}");
        t.apply(&[Change::TurnAdvanced]);
        let (k0, i0) = (hp(&t, "kraven"), hp(&t, "isolde"));
        let report = t.ok("roll_attack", table::attack("frost-harpy", "kraven"));
        let mut taken_total = 0;
        for swing in report["attacks"].as_array().unwrap() {
            for d in swing["result"]["damage"].as_array().unwrap() {
                hits += 1;
                // Resistance to all damage: half, rounded down.
                assert_eq!(d["defense"], "resisted", "{report}");
                let rolled = d["rolled"].as_u64().unwrap();
                assert_eq!(d["taken"].as_u64().unwrap(), rolled / 2, "{report}");
                taken_total += rolled / 2;
            }
        }
        let taken = u64::from(k0 - hp(&t, "kraven"));
        assert_eq!(taken, taken_total, "{report}");
        // The caster takes the same.
        assert_eq!(u64::from(i0 - hp(&t, "isolde")), taken, "{report}");
    }
    assert!(hits > 0, "some hit landed");
}

#[test]
fn warding_bond_on_its_own_caster_is_refused() {
    let mut t = fight_with("Warding Bond", 7);
    t.apply(&[rings()]);
    let e = t.refused(
        "cast_spell",
        cast("isolde", "Warding Bond", &["isolde"], None),
    );
    assert!(e.contains("another creature"), "{e}");
}

#[test]
fn forged_duplicates_beyond_three_are_refused_by_the_state() {
    let mut t = fight_with("Mirror Image", 1);
    let before = t.state.clone();
    let forged = dnd_engine::state::TimedEffect {
        source: "isolde".into(),
        spell: "Mirror Image".into(),
        target: "isolde".into(),
        concentration: false,
        rounds_left: Some(10),
        ends_on_damage: false,
        level: 2,
        at_turn_end: false,
        kind: TimedKind::MirrorImages {
            left: 5,
            armor_class: 12,
        },
    };
    let err = t
        .state
        .apply(&Change::TimedEffectStarted { effect: forged })
        .unwrap_err();
    assert!(err.to_string().contains("1 to 3"), "{err}");
    assert_eq!(t.state, before);
}

#[test]
fn a_concentration_spell_lost_on_its_only_target_spends_the_slot_and_holds_nothing() {
    let mut t = fight_with("Hold Person", 2);
    let mut bandit = t.state.monsters[0].clone();
    bandit.id = "bandit".into();
    bandit.name = "Bandit".into();
    bandit.template = "bandit".into();
    bandit.timed_effects = vec![dnd_engine::state::TimedEffect {
        source: "bandit".into(),
        spell: "Sanctuary".into(),
        target: "bandit".into(),
        concentration: false,
        rounds_left: Some(10),
        ends_on_damage: false,
        level: 1,
        at_turn_end: false,
        kind: TimedKind::Sanctuary { dc: 30 },
    }];
    Arc::make_mut(&mut t.state.monsters).push(bandit);
    let slots = t
        .state
        .character("isolde")
        .unwrap()
        .spell_slots
        .available(2);
    let held = t.ok(
        "cast_spell",
        cast("isolde", "Hold Person", &["bandit"], None),
    );
    assert!(
        held.to_string().contains("the spell is lost on it"),
        "{held}"
    );
    let isolde = t.state.character("isolde").unwrap();
    assert_eq!(
        isolde.spell_slots.available(2),
        slots - 1,
        "the slot is spent"
    );
    assert_eq!(isolde.concentration, None, "{held}");
    assert!(
        !t.state
            .monster("bandit")
            .unwrap()
            .conditions
            .has(dnd_engine::rules::Condition::Paralyzed)
    );
}

#[test]
fn an_enlarged_creatures_weapon_hits_deal_1d4_more_and_a_reduced_ones_1d4_less() {
    let (mut enlarged, mut reduced) = (0, 0);
    for seed in 1..25 {
        let choice = if seed % 2 == 0 { "enlarge" } else { "reduce" };
        let mut t = fight_with("Enlarge/Reduce", seed);
        t.ok(
            "cast_spell",
            cast("isolde", "Enlarge/Reduce", &["kraven"], Some(choice)),
        );
        t.apply(&[Change::TurnAdvanced, Change::TurnAdvanced]);
        let harpy = hp(&t, "frost-harpy");
        let report = t.ok("roll_attack", table::attack("kraven", "frost-harpy"));
        let swing = &report["attacks"][0]["result"];
        if swing["hit"] != true {
            continue;
        }
        let damage = swing["damage"].as_array().unwrap();
        let dealt = swing["total_damage"].as_u64().unwrap();
        assert_eq!(u64::from(harpy - hp(&t, "frost-harpy")), dealt, "{report}");
        if choice == "enlarge" {
            enlarged += 1;
            // A die of its own, of the weapon's type.
            let extra = damage.last().unwrap();
            assert_eq!(extra["dice"], "1d4", "{report}");
            assert_eq!(extra["type"], damage[0]["type"], "{report}");
            let sum: u64 = damage.iter().map(|d| d["taken"].as_u64().unwrap()).sum();
            assert_eq!(dealt, sum, "{report}");
        } else {
            reduced += 1;
            assert_eq!(damage.len(), 1, "{report}");
            let less = t
                .log
                .rolls
                .iter()
                .find(|r| r.label.contains("1d4 less damage"))
                .map(|r| r.total as u64)
                .expect("the d4 taken off");
            let weapon = damage[0]["taken"].as_u64().unwrap();
            assert_eq!(dealt, weapon.saturating_sub(less).max(1), "{report}");
        }
    }
    assert!(
        enlarged > 0 && reduced > 0,
        "{enlarged} enlarged, {reduced} reduced hits"
    );
}
