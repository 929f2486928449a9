//! The warlock's Eldritch Invocations, Pact of the Blade and the Fiend's Dark One's Blessing
//! through the tools, worked as the SRD gives them: Agonizing Blast adds the Charisma modifier
//! to each Eldritch Blast beam, Repelling Blast pushes 10 ft on a hit, Armor of Shadows and
//! Fiendish Vigor cast Mage Armor (on oneself) and False Life at will with no slot; the pact
//! weapon is conjured with an action, magical and proficient, and Thirsting Blade makes it
//! strike twice an Attack action at 5th level; dropping a hostile creature to 0 gives
//! Charisma modifier + warlock level temporary hit points. The builder takes as many
//! invocations as the level knows. And a model that cheats with them, refused.

use serde_json::{Value, json};

use dnd_engine::character::CharacterChoices;
use dnd_engine::llm::ToolCall;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, Character, GameState};

#[path = "support/table.rs"]
mod table;
use table::{Table, at, cast};

/// A tiefling warlock of the Fiend (Charisma 17: 15 + 2) of `level` with these invocations
/// and, from 3rd level, the Pact of the Blade.
fn choices(name: &str, level: u8, invocations: &[&str]) -> Value {
    let mut c = json!({
        "name": name, "race": "Tiefling", "class": "Warlock", "subclass": "Fiend", "level": level,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 15}},
        "skills": ["deception", "arcana"],
        "equipment": {"gold": 40},
        "cantrips": ["Eldritch Blast", "Chill Touch"],
        "spells": ["Charm Person", "Burning Hands"]
    });
    if level >= 2 {
        c["features"] = json!({"eldritch-invocations": invocations});
        c["spells"] = json!(["Charm Person", "Burning Hands", "Hellish Rebuke"]);
    }
    if level >= 3 {
        c["features"]["pact-boon"] = json!(["Pact of the Blade"]);
        c["spells"] = json!([
            "Charm Person",
            "Burning Hands",
            "Hellish Rebuke",
            "Invisibility"
        ]);
    }
    if level >= 4 {
        c["cantrips"] = json!(["Eldritch Blast", "Chill Touch", "Mage Hand"]);
        c["spells"] = json!([
            "Charm Person",
            "Burning Hands",
            "Hellish Rebuke",
            "Invisibility",
            "Hold Person"
        ]);
    }
    if level >= 5 {
        c["spells"] = json!([
            "Charm Person",
            "Burning Hands",
            "Hellish Rebuke",
            "Invisibility",
            "Hold Person",
            "Fear"
        ]);
    }
    c
}

/// Morrow, 5th level: Agonizing Blast, Armor of Shadows, Thirsting Blade; Pact of the Blade.
fn morrow() -> Character {
    table::built(choices(
        "Morrow",
        5,
        &["Agonizing Blast", "Armor of Shadows", "Thirsting Blade"],
    ))
}

/// Ash, 2nd level: Repelling Blast and Fiendish Vigor.
fn ash() -> Character {
    table::built(choices("Ash", 2, &["Repelling Blast", "Fiendish Vigor"]))
}

fn fight(hero: Character) -> GameState {
    let id = hero.id.clone();
    table::fight_with(
        &["kraven"],
        vec![hero],
        &[id.as_str(), "kraven", "frost-harpy"],
    )
}

fn harpy_hp(t: &Table) -> u32 {
    t.state.monster("frost-harpy").unwrap().hp.current
}

#[test]
fn the_builder_takes_as_many_invocations_as_the_level_knows() {
    let morrow = morrow();
    assert_eq!(morrow.choices["eldritch-invocations"].len(), 3);
    assert_eq!(morrow.choices["pact-boon"], ["pact-of-the-blade"]);
    let build = |v: Value| {
        serde_json::from_value::<CharacterChoices>(v)
            .unwrap()
            .build(Srd::bundled())
    };
    // Two at 5th level is one short.
    let short = build(choices(
        "Morrow",
        5,
        &["Agonizing Blast", "Armor of Shadows"],
    ))
    .unwrap_err()
    .to_string();
    assert!(
        short.contains("eldritch-invocations") && short.contains('3'),
        "{short}"
    );
    // Thirsting Blade is a 5th-level invocation.
    let early = build(choices("Ash", 2, &["Agonizing Blast", "Thirsting Blade"]))
        .unwrap_err()
        .to_string();
    assert!(early.contains("Thirsting Blade"), "{early}");
}

/// Agonizing Blast: the same dice with and without it, 3 more damage on each beam that hits.
#[test]
fn agonizing_blast_adds_charisma_to_each_beam() {
    for seed in 0..40 {
        let blast = |agonizing: bool| {
            let mut hero = morrow();
            if !agonizing {
                hero.choices.remove("eldritch-invocations");
            }
            let mut t = Table::new(fight(hero), seed);
            let harpy = &mut std::sync::Arc::make_mut(&mut t.state.monsters)[0];
            harpy.hp.current = 200;
            harpy.hp.max = 200;
            let report = t.ok(
                "cast_spell",
                cast(
                    "morrow",
                    "Eldritch Blast",
                    None,
                    &["frost-harpy", "frost-harpy"],
                ),
            );
            (200 - harpy_hp(&t), report)
        };
        let (plain, _) = blast(false);
        let (agonizing, report) = blast(true);
        if plain == 0 {
            continue; // both beams missed: try other dice
        }
        let hits = (agonizing - plain) / 3;
        assert!((1..=2).contains(&hits), "{plain} {agonizing}: {report}");
        assert_eq!(agonizing, plain + 3 * hits);
        return;
    }
    panic!("no beam hit in 40 seeds");
}

#[test]
fn repelling_blast_pushes_a_creature_hit_10_feet_away() {
    for seed in 0..40 {
        let state = table::placed_fight(
            &["kraven"],
            table::order(&["kraven", "frost-harpy"]),
            &[("kraven", at(0, 0, 0)), ("frost-harpy", at(30, 0, 0))],
        );
        let mut state = state;
        let mut hero = ash();
        hero.location = state.characters[0].location.clone();
        std::sync::Arc::make_mut(&mut state.characters).push(hero);
        let mut t = Table::new(state, seed);
        t.apply(&[
            Change::EncounterEnded,
            Change::EncounterStarted {
                order: table::order(&["ash", "kraven", "frost-harpy"]),
            },
            Change::Moved {
                creature: "ash".into(),
                to: at(0, 10, 0),
            },
            Change::Moved {
                creature: "kraven".into(),
                to: at(0, 0, 0),
            },
            Change::Moved {
                creature: "frost-harpy".into(),
                to: at(30, 10, 0),
            },
        ]);
        let before = harpy_hp(&t);
        t.ok(
            "cast_spell",
            cast("ash", "Eldritch Blast", None, &["frost-harpy"]),
        );
        if harpy_hp(&t) == before {
            continue;
        }
        let e = t.state.encounter.as_ref().unwrap();
        assert_eq!(e.positions.get("frost-harpy").copied(), Some(at(40, 10, 0)));
        return;
    }
    panic!("no beam hit in 40 seeds");
}

#[test]
fn armor_of_shadows_and_fiendish_vigor_cast_at_will() {
    let mut t = Table::new(fight(morrow()), 1);
    let slots = t.state.character("morrow").unwrap().spell_slots;
    t.ok(
        "cast_spell",
        cast("morrow", "Mage Armor", None, &["morrow"]),
    );
    let m = t.state.character("morrow").unwrap();
    assert_eq!(m.armor_class_now(), 13 + 2, "Mage Armor: 13 + Dex");
    assert_eq!(m.spell_slots, slots, "no slot spent");
    // On Morrow only, and with no slot.
    t.state.encounter.as_mut().unwrap().budget = Default::default();
    let other = t.refused(
        "cast_spell",
        cast("morrow", "Mage Armor", None, &["kraven"]),
    );
    assert!(other.contains("on Morrow only"), "{other}");
    let slotted = t.refused(
        "cast_spell",
        cast("morrow", "Mage Armor", Some(3), &["morrow"]),
    );
    assert!(slotted.contains("leave slot_level null"), "{slotted}");

    let mut t = Table::new(fight(ash()), 2);
    t.ok("cast_spell", cast("ash", "False Life", None, &[]));
    let a = t.state.character("ash").unwrap();
    assert!(
        (5..=8).contains(&a.hp.temporary),
        "1d4 + 4: {}",
        a.hp.temporary
    );
    assert_eq!(a.spell_slots.pact_spent, 0);
    // Without Armor of Shadows, Mage Armor is not Ash's.
    t.state.encounter.as_mut().unwrap().budget = Default::default();
    let unknown = t.refused("cast_spell", cast("ash", "Mage Armor", None, &["ash"]));
    assert!(unknown.contains("does not know"), "{unknown}");
}

#[test]
fn the_pact_weapon_strikes_twice_with_thirsting_blade() {
    let mut t = Table::new(fight(morrow()), 3);
    let conjured = t.ok(
        "use_feature",
        json!({"character": "morrow", "feature": "pact-of-the-blade", "option": "Longsword"}),
    );
    assert!(
        conjured["effect"]
            .as_str()
            .unwrap()
            .contains("Longsword (pact)"),
        "{conjured}"
    );
    let m = t.state.character("morrow").unwrap();
    let blade = &m.attacks[0];
    assert_eq!(blade.name, "Longsword (pact)");
    assert!(blade.magical && blade.proficient);
    assert_eq!(m.attack_bonus(blade), -1 + 3, "Str 8, proficiency +3");
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
    // A ranged form is refused.
    t.state.encounter.as_mut().unwrap().budget = Default::default();
    let bow = t.refused(
        "use_feature",
        json!({"character": "morrow", "feature": "pact-of-the-blade", "option": "Longbow"}),
    );
    assert!(bow.contains("melee weapon"), "{bow}");
    // Two swings with one Attack action (Thirsting Blade), then no third.
    let swing = json!({"attacker": "morrow", "target": "frost-harpy", "attack": "Longsword (pact)", "advantage": null});
    t.ok("roll_attack", swing.clone());
    t.ok("roll_attack", swing.clone());
    let third = t.refused("roll_attack", swing);
    assert!(third.contains("already used the action"), "{third}");
}

#[test]
fn dark_ones_blessing_gives_temporary_hp_for_a_foe_dropped() {
    for seed in 0..40 {
        let mut t = Table::new(fight(morrow()), seed);
        std::sync::Arc::make_mut(&mut t.state.monsters)[0]
            .hp
            .current = 1;
        t.ok(
            "cast_spell",
            cast("morrow", "Eldritch Blast", None, &["frost-harpy"]),
        );
        if harpy_hp(&t) > 0 {
            continue;
        }
        // Charisma +3 and warlock level 5.
        assert_eq!(t.state.character("morrow").unwrap().hp.temporary, 8);
        return;
    }
    panic!("no beam hit in 40 seeds");
}

/// Pact of the Chain: Find Familiar is the warlock's, cast as a ritual (no slot, ten minutes
/// more); the Tome's cantrips are cast from the picks kept under "pact-of-the-tome".
#[test]
fn the_chain_and_the_tome_grant_their_spells() {
    let mut chained = choices("Wren", 3, &["Agonizing Blast", "Fiendish Vigor"]);
    chained["features"]["pact-boon"] = json!(["Pact of the Chain"]);
    let wren = table::built(chained);
    let mut state = fight(wren);
    state.apply(&Change::EncounterEnded).unwrap();
    let mut t = Table::new(state, 4);
    let slots = t.state.character("wren").unwrap().spell_slots;
    let mut ritual = cast("wren", "Find Familiar", None, &[]);
    ritual["ritual"] = json!(true);
    ritual["choice"] = json!("owl");
    let familiar = t.ok("cast_spell", ritual);
    assert!(
        familiar.to_string().to_lowercase().contains("owl"),
        "{familiar}"
    );
    assert_eq!(t.state.character("wren").unwrap().spell_slots, slots);

    // Without the Chain, Find Familiar is no warlock's.
    let mut morrow = morrow();
    morrow
        .choices
        .insert("pact-of-the-tome".into(), vec!["Fire Bolt".into()]);
    let mut calm = fight(morrow.clone());
    calm.apply(&Change::EncounterEnded).unwrap();
    let mut t = Table::new(calm, 5);
    let mut ritual = cast("morrow", "Find Familiar", None, &[]);
    ritual["ritual"] = json!(true);
    let no = t.refused("cast_spell", ritual);
    assert!(no.contains("does not know"), "{no}");
    let mut t = Table::new(fight(morrow), 5);
    // A Tome's cantrip is known only with the Tome.
    let bolt = t.refused(
        "cast_spell",
        cast("morrow", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(bolt.contains("does not know"), "{bolt}");
    t.hero_mut("morrow")
        .choices
        .insert("pact-boon".into(), vec!["pact-of-the-tome".into()]);
    t.ok(
        "cast_spell",
        cast("morrow", "Fire Bolt", None, &["frost-harpy"]),
    );
}

/// A scripted model conjures pact weapons and casts at-will spells it has not earned: Isolde
/// is no warlock, Ash (2nd level) has no pact yet and no Armor of Shadows, and Morrow's turn
/// has not come. Only the lawful False Life changes anything.
#[tokio::test]
async fn a_model_cheating_with_warlock_features_is_refused() {
    let mut before = table::fight_with(
        &["isolde"],
        vec![ash(), morrow()],
        &["ash", "isolde", "morrow", "frost-harpy"],
    );
    before.apply_all(&[]).unwrap();
    let blade = |who: &str| json!({"character": who, "feature": "pact-of-the-blade", "option": "Longsword"});
    let cheats = vec![
        ToolCall::new("a", "use_feature", blade("isolde")),
        ToolCall::new("b", "use_feature", blade("ash")),
        ToolCall::new("c", "use_feature", blade("morrow")),
        ToolCall::new("d", "cast_spell", cast("ash", "Mage Armor", None, &["ash"])),
        ToolCall::new("e", "cast_spell", cast("ash", "False Life", Some(1), &[])),
        ToolCall::new("f", "cast_spell", cast("ash", "False Life", None, &[])),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Ash", "Shadows, take me!").await;
    assert_eq!(results.len(), 6, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "comes at warlock level 3"),
        (2, "it is Ash's turn"),
        (3, "does not know"),
        (4, "leave slot_level null"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(!results[5].contains("\"error\""), "{}", results[5]);
    assert!(after.character("ash").unwrap().hp.temporary > 0);
    assert_eq!(after.character("morrow"), before.character("morrow"));
    assert_eq!(after.character("isolde"), before.character("isolde"));
}

/// Eldritch Spear: Eldritch Blast reaches 300 feet, so a harpy 200 feet off is in range.
#[test]
fn eldritch_spear_makes_the_blast_reach_300_feet() {
    let mut state = table::placed_fight(
        &["kraven"],
        table::order(&["kraven", "frost-harpy"]),
        &[("kraven", at(0, 0, 0)), ("frost-harpy", at(200, 0, 0))],
    );
    let mut hero = ash();
    hero.location = state.characters[0].location.clone();
    std::sync::Arc::make_mut(&mut state.characters).push(hero);
    state
        .apply_all(&[
            Change::EncounterEnded,
            Change::EncounterStarted {
                order: table::order(&["ash", "kraven", "frost-harpy"]),
            },
            Change::Moved {
                creature: "ash".into(),
                to: at(0, 0, 0),
            },
            Change::Moved {
                creature: "kraven".into(),
                to: at(0, 10, 0),
            },
            Change::Moved {
                creature: "frost-harpy".into(),
                to: at(200, 0, 0),
            },
        ])
        .unwrap();
    let mut t = Table::new(state, 8);
    let far = t.refused(
        "cast_spell",
        cast("ash", "Eldritch Blast", None, &["frost-harpy"]),
    );
    assert!(far.contains("120"), "{far}");
    t.hero_mut("ash").choices.insert(
        "eldritch-invocations".into(),
        vec!["eldritch-invocation-eldritch-spear".into()],
    );
    t.ok(
        "cast_spell",
        cast("ash", "Eldritch Blast", None, &["frost-harpy"]),
    );
}

/// Devil's Sight: a human warlock sees normally in a dark room (no failed Perception, no dim
/// light), where one without it sees nothing.
#[test]
fn devils_sight_sees_normally_in_darkness() {
    let human = |name: &str, invocations: &[&str]| {
        let mut c = choices(name, 2, invocations);
        c["race"] = json!("Human");
        table::built(c)
    };
    let seer = human("Vex", &["Devil's Sight", "Agonizing Blast"]);
    let blind = human("Quill", &["Repelling Blast", "Agonizing Blast"]);
    let mut state = table::seen_harpy(&["kraven"]);
    let room = state.characters[0].location.clone();
    for mut hero in [seer, blind] {
        hero.location = room.clone();
        std::sync::Arc::make_mut(&mut state.characters).push(hero);
    }
    std::sync::Arc::make_mut(&mut state.locations)
        .iter_mut()
        .find(|l| l.id == room)
        .unwrap()
        .light = dnd_engine::state::Light::Dark;
    let mut t = Table::new(state, 5);
    let look = |who: &str| json!({"creature": who, "skill": "perception", "dc": 10, "advantage": null, "reason": null});
    let vex = t.ok("roll_skill_check", look("vex"));
    assert!(vex["result"].get("automatic_failure").is_none(), "{vex}");
    assert!(
        !vex["advantage_reasons"].to_string().contains("dim"),
        "{vex}"
    );
    let quill = t.ok("roll_skill_check", look("quill"));
    assert!(
        quill["result"]["automatic_failure"]
            .as_str()
            .unwrap()
            .contains("darkness"),
        "{quill}"
    );
}
