//! Worked examples of the spells that hide, shift or hush (issue 16), from the SRD's texts,
//! through the tools as a model calls them, with seeded dice: Pass without Trace (+10 to
//! Stealth for the caster and those it picks), Blink (a d20 of 11 or more at the end of the
//! caster's turn sends it to the Ethereal Plane until its next turn, beyond attacks and the
//! monster planner), Calm Emotions (a humanoid that fails its Charisma save stops fighting; an
//! ally's fear ended without a save), Alter Self (a magical 1d6 natural weapon with +1) and
//! Silence (deafened, immune to thunder, no verbal spells). The wards, size changes and copies
//! are in `spell_wards.rs`.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::monster_plan::{self, Plan};
use dnd_engine::rules::Ability;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, TimedKind};

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

#[test]
fn pass_without_trace_adds_10_to_the_stealth_of_the_caster_and_those_it_picks() {
    let mut t = fight_with("Pass without Trace", 2);
    let stealth = |t: &Table, id: &str| {
        t.state
            .character(id)
            .unwrap()
            .skill_modifier(dnd_engine::rules::Skill::Stealth)
    };
    let (isolde, kraven) = (stealth(&t, "isolde"), stealth(&t, "kraven"));
    let athletics = t
        .state
        .character("kraven")
        .unwrap()
        .skill_modifier(dnd_engine::rules::Skill::Athletics);
    t.ok(
        "cast_spell",
        cast("isolde", "Pass without Trace", &["isolde", "kraven"], None),
    );
    assert_eq!(stealth(&t, "isolde"), isolde + 10);
    assert_eq!(stealth(&t, "kraven"), kraven + 10);
    // Stealth alone.
    assert_eq!(
        t.state
            .character("kraven")
            .unwrap()
            .skill_modifier(dnd_engine::rules::Skill::Athletics),
        athletics
    );
    // A check through the tool counts it.
    let rolled = t.ok(
        "roll_skill_check",
        json!({"creature": "kraven", "skill": "stealth", "dc": 15, "advantage": null,
               "reason": "creeping past"}),
    );
    assert_eq!(rolled["result"]["modifier"], kraven + 10, "{rolled}");
    // Concentration ends it.
    t.apply(&[Change::Concentration {
        character: "isolde".into(),
        spell: None,
    }]);
    assert_eq!(stealth(&t, "kraven"), kraven);
}

#[test]
fn blink_sends_its_caster_away_on_11_or_more_until_its_next_turn() {
    let (mut away, mut stayed) = (0, 0);
    for seed in 1..30 {
        let mut t = fight_with("Blink", seed);
        // Kraven is out of the harpy's way, so only Isolde may be its target.
        t.hero_mut("kraven").hp.current = 0;
        t.hero_mut("kraven").death_saves.stable = true;
        t.ok("cast_spell", cast("isolde", "Blink", &[], None));
        let before = hp(&t, "isolde");
        t.ok("next_turn", json!({}));
        let d20 = t
            .log
            .rolls
            .iter()
            .find(|r| r.label.contains("Ethereal Plane (11 or more)"))
            .map(|r| r.total)
            .expect("the d20 at the end of Isolde's turn");
        // Back at the start of her next turn, whatever happened.
        assert_eq!(t.turn_of(), "isolde");
        assert!(!dnd_engine::effects::ethereal(&t.state, "isolde"));
        if d20 >= 11 {
            away += 1;
            // The harpy's turn passed with her beyond its reach.
            assert_eq!(hp(&t, "isolde"), before, "untouched while away");
        } else {
            stayed += 1;
        }
    }
    assert!(away > 0 && stayed > 0, "{away} away, {stayed} stayed");
}

#[test]
fn a_creature_on_the_ethereal_plane_can_neither_be_attacked_nor_attack() {
    let mut t = fight_with("Blink", 4);
    t.ok("cast_spell", cast("isolde", "Blink", &[], None));
    let blink = dnd_engine::state::timed_effects(&t.state, "isolde")[0].clone();
    t.apply(&[
        dnd_engine::effects::blinked(&blink, 11).unwrap(),
        Change::TurnAdvanced,
    ]);
    assert!(dnd_engine::effects::ethereal(&t.state, "isolde"));
    // The d20 must reach 11.
    assert!(dnd_engine::effects::blinked(&blink, 10).is_none());
    let e = t.refused("roll_attack", table::attack("frost-harpy", "isolde"));
    assert!(e.contains("Ethereal Plane"), "{e}");
    // The harpy's planner looks past her to Kraven.
    let all = |_: &str| true;
    match monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all) {
        Some(Plan::Attack { target, .. }) => assert_eq!(target, "kraven"),
        Some(Plan::Save { targets, .. }) => assert_eq!(targets, vec!["kraven".to_owned()]),
        other => panic!("{other:?}"),
    }
}

/// Isolde (knowing `spell`), Kraven, the harpy and a bandit, seen, out of a fight.
fn with_bandit(spell: &str, seed: u64) -> Table {
    use dnd_engine::rules::{CasterProgression, SpellSlots};
    let mut t = Table::new(table::seen_harpy(&["isolde", "kraven"]), seed);
    let isolde = t.hero_mut("isolde");
    Arc::make_mut(&mut isolde.spells).push(spell.into());
    isolde.spell_slots = SpellSlots::for_class(CasterProgression::Full, 7);
    let mut bandit = t.state.monsters[0].clone();
    bandit.id = "bandit".into();
    bandit.name = "Bandit".into();
    bandit.template = "bandit".into();
    Arc::make_mut(&mut t.state.monsters).push(bandit);
    t
}

#[test]
fn calm_emotions_makes_a_humanoid_that_fails_its_charisma_save_stop_fighting() {
    let (mut calmed, mut resisted) = (0, 0);
    for seed in 1..30 {
        let mut t = with_bandit("Calm Emotions", seed);
        let calm = t.ok(
            "cast_spell",
            cast(
                "isolde",
                "Calm Emotions",
                &["bandit", "frost-harpy"],
                Some("indifferent"),
            ),
        );
        let said = calm.to_string();
        // The harpy is no humanoid: passed over without a roll.
        assert!(said.contains("not a humanoid"), "{said}");
        let saves = t
            .log
            .rolls
            .iter()
            .filter(|r| r.label.contains("Charisma save"))
            .count();
        assert_eq!(saves, 1, "the bandit alone saves: {said}");
        let morale = t.state.monster("bandit").unwrap().morale;
        if said.contains("\"calmed\"") {
            calmed += 1;
            assert_eq!(morale, dnd_engine::state::Morale::Surrendered);
        } else {
            resisted += 1;
            assert_eq!(morale, dnd_engine::state::Morale::Fighting);
        }
    }
    assert!(
        calmed > 0 && resisted > 0,
        "{calmed} calmed, {resisted} resisted"
    );
}

#[test]
fn calm_emotions_ends_an_allys_fear_without_a_save() {
    let mut t = with_bandit("Calm Emotions", 3);
    let fear = dnd_engine::state::TimedEffect {
        source: "frost-harpy".into(),
        spell: "Cause Fear".into(),
        target: "kraven".into(),
        concentration: false,
        rounds_left: Some(10),
        ends_on_damage: false,
        level: 1,
        at_turn_end: false,
        kind: TimedKind::Condition {
            condition: dnd_engine::rules::Condition::Frightened,
            repeat_save: None,
        },
    };
    t.apply(&[Change::TimedEffectStarted { effect: fear }]);
    let calm = t.ok(
        "cast_spell",
        cast("isolde", "Calm Emotions", &["kraven"], Some("suppress")),
    );
    assert!(
        !t.log.rolls.iter().any(|r| r.label.contains("Charisma")),
        "{calm}"
    );
    let kraven = t.state.character("kraven").unwrap();
    assert!(
        !kraven
            .conditions
            .has(dnd_engine::rules::Condition::Frightened)
    );
    assert!(kraven.timed_effects.is_empty());
    // A choice it does not have is refused, changing nothing.
    let e = t.refused(
        "cast_spell",
        cast("isolde", "Calm Emotions", &["kraven"], Some("charm")),
    );
    assert!(e.contains("\"suppress\", \"indifferent\""), "{e}");
}

#[test]
fn alter_self_grows_a_magical_natural_weapon_of_1d6_plus_1() {
    let mut t = fight_with("Alter Self", 6);
    t.ok(
        "cast_spell",
        cast("isolde", "Alter Self", &[], Some("natural weapons")),
    );
    let isolde = t.state.character("isolde").unwrap();
    let strength = isolde.abilities.modifier(Ability::Strength);
    let to_hit = strength + isolde.proficiency_bonus() + 1;
    // Alter Self took her action: the claws strike on her next turn.
    t.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    assert_eq!(t.turn_of(), "isolde");
    let report = t.ok(
        "roll_attack",
        json!({"attacker": "isolde", "target": "frost-harpy", "attack": "Natural Weapon",
               "advantage": null}),
    );
    let swing = &report["attacks"][0]["result"];
    assert_eq!(swing["attack_bonus"], to_hit, "{report}");
    if swing["hit"] == true {
        let dice = swing["damage"][0]["dice"].as_str().unwrap();
        assert_eq!(dice, format!("1d6{:+}", strength + 1), "{report}");
        assert_eq!(swing["damage"][0]["type"], "slashing");
    }
    // Another option leaves no weapon; without one the attack is refused with what is valid.
    let mut u = fight_with("Alter Self", 6);
    u.ok(
        "cast_spell",
        cast("isolde", "Alter Self", &[], Some("aquatic adaptation")),
    );
    u.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    let e = u.refused(
        "roll_attack",
        json!({"attacker": "isolde", "target": "frost-harpy", "attack": "Natural Weapon",
               "advantage": null}),
    );
    assert!(e.contains("valid"), "{e}");
}

#[test]
fn silence_deafens_those_inside_makes_them_immune_to_thunder_and_stops_verbal_spells() {
    let mut t = with_bandit("Silence", 8);
    Arc::make_mut(&mut t.hero_mut("isolde").spells).push("Thunderwave".into());
    t.ok(
        "cast_spell",
        cast("isolde", "Silence", &["frost-harpy", "kraven"], None),
    );
    let kraven = t.state.character("kraven").unwrap();
    assert!(
        kraven
            .conditions
            .has(dnd_engine::rules::Condition::Deafened)
    );
    assert!(
        kraven
            .defenses_now(dnd_engine::srd::Srd::bundled())
            .immunities
            .contains(dnd_engine::rules::DamageType::Thunder)
    );
    // Isolde stands outside: her Thunderwave does the harpy no harm.
    let before = hp(&t, "frost-harpy");
    let wave = t.ok(
        "cast_spell",
        cast("isolde", "Thunderwave", &["frost-harpy"], None),
    );
    assert_eq!(hp(&t, "frost-harpy"), before, "immune to thunder: {wave}");
    // Kraven inside cannot cast a spell with a verbal component, and nothing changes.
    Arc::make_mut(&mut t.hero_mut("kraven").spells).push("Thunderwave".into());
    t.hero_mut("kraven").spellcasting_ability = Some(Ability::Charisma);
    t.hero_mut("kraven").spell_slots =
        dnd_engine::rules::SpellSlots::for_class(dnd_engine::rules::CasterProgression::Full, 3);
    let e = t.refused(
        "cast_spell",
        cast("kraven", "Thunderwave", &["frost-harpy"], None),
    );
    assert!(e.contains("verbal component"), "{e}");
}
