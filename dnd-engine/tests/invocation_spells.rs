//! Spells granted by invocations and by infernal blood, and the warlock's shadows and borrowed
//! senses, worked through the tools as the SRD gives them: Thief of Five Fates, Mire the Mind
//! and Sign of Ill Omen cast Bane, Slow and Bestow Curse once a long rest each with a warlock
//! slot (at the slots' level); a tiefling knows Thaumaturgy (at will, with Charisma), casts
//! Hellish Rebuke from 3rd level as a 2nd-level spell with no slot (the engine's reaction when
//! a monster hurts it) and Darkness from 5th, once a long rest each; One with Shadows makes a
//! warlock in dim light invisible until it acts or moves; Gaze of Two Minds leaves it blinded
//! and deafened until the end of its next turn. And a model that cheats with them, refused.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::state::{Change, Character, GameState, Light};

#[path = "support/table.rs"]
mod table;
use table::{Table, at, cast};

/// A tiefling warlock of the Fiend (Charisma 17: 15 + 2) of `level` with these invocations and,
/// from 3rd level, the Pact of the Blade. Its spells hold neither Hellish Rebuke nor Darkness,
/// so those are Infernal Legacy's.
fn warlock(name: &str, level: u8, invocations: &[&str]) -> Character {
    let spells = [
        "Charm Person",
        "Burning Hands",
        "Expeditious Retreat",
        "Invisibility",
        "Hold Person",
        "Fear",
    ];
    let mut c = json!({
        "name": name, "race": "Tiefling", "class": "Warlock", "subclass": "Fiend", "level": level,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 15}},
        "skills": ["deception", "arcana"],
        "equipment": {"gold": 40},
        "cantrips": ["Eldritch Blast", "Chill Touch"],
        "spells": spells[..usize::from(level) + 1],
        "features": {"eldritch-invocations": invocations}
    });
    if level >= 3 {
        c["features"]["pact-boon"] = json!(["Pact of the Blade"]);
    }
    if level >= 4 {
        c["cantrips"] = json!(["Eldritch Blast", "Chill Touch", "Mage Hand"]);
    }
    table::built(c)
}

/// Vesper, 5th level, with the three invocations that cast a spell once a long rest.
fn vesper() -> Character {
    warlock(
        "Vesper",
        5,
        &["Thief of Five Fates", "Mire the Mind", "Sign of Ill Omen"],
    )
}

/// Nyx, 5th level: One with Shadows, Gaze of Two Minds, Agonizing Blast.
fn nyx() -> Character {
    warlock(
        "Nyx",
        5,
        &["One with Shadows", "Gaze of Two Minds", "Agonizing Blast"],
    )
}

/// Azra, a tiefling fighter of 3rd level (Charisma 14: 12 + 2), no spellcaster by class.
fn azra() -> Character {
    table::built(json!({
        "name": "Azra", "race": "Tiefling", "class": "Fighter", "level": 3,
        "subclass": "Champion",
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 10, "cha": 12}},
        "skills": ["perception", "survival"],
        "features": {"fighter-fighting-style": ["Defense"]},
        "equipment": {"kit": [{"option": 1}, {"option": 2, "picks": ["Greatsword", "Longsword"]}, {"option": 2}, {"option": 2}]}
    }))
}

/// `hero` first, then Kraven, then the Frost Harpy.
fn fight(hero: Character) -> GameState {
    let id = hero.id.clone();
    table::fight_with(
        &["kraven"],
        vec![hero],
        &[id.as_str(), "kraven", "frost-harpy"],
    )
}

/// The current creature's turn budget afresh (its next round, without playing the others).
fn next_round(t: &mut Table) {
    t.state.encounter.as_mut().unwrap().budget = Default::default();
}

fn lit(t: &mut Table, light: Light) {
    let room = t.state.characters[0].location.clone();
    let locations = Arc::make_mut(&mut t.state.locations);
    locations.iter_mut().find(|l| l.id == room).unwrap().light = light;
}

fn feature(who: &str, feature: &str, target: Option<&str>) -> Value {
    json!({"character": who, "feature": feature, "target": target, "amount": null, "option": null})
}

fn uses_left(t: &Table, who: &str, key: &str) -> Option<u8> {
    let c = t.state.character(who).unwrap();
    c.feature_uses.get(key).map(|u| u.left())
}

#[test]
fn thief_of_five_fates_casts_bane_once_a_long_rest_with_a_warlock_slot() {
    // 2nd level: one pact slot level, 1st; Charisma +3 and proficiency +2 make DC 13.
    let vesper = warlock("Vesper", 2, &["Thief of Five Fates", "Agonizing Blast"]);
    assert!(!vesper.spells.iter().any(|s| s == "Bane"));
    let mut t = Table::new(fight(vesper), 1);
    let bane = t.ok("cast_spell", cast("vesper", "Bane", None, &["frost-harpy"]));
    assert_eq!(bane["slot_level"], 1, "{bane}");
    assert_eq!(bane["save_dc"], 13, "{bane}");
    let note = bane["narrator"].as_str().unwrap();
    assert!(
        note.contains("Thief of Five Fates") && note.contains("warlock slot"),
        "{note}"
    );
    let v = t.state.character("vesper").unwrap();
    assert_eq!(v.spell_slots.pact_spent, 1, "a warlock slot spent");
    assert_eq!(v.concentration.as_deref(), Some("Bane"));
    let key = "eldritch-invocation-thief-of-five-fates";
    assert_eq!(uses_left(&t, "vesper", key), Some(0));

    // Once a long rest: refused the next round with a slot left, changing nothing.
    next_round(&mut t);
    let before = t.state.character("vesper").unwrap().clone();
    let again = t.refused("cast_spell", cast("vesper", "Bane", None, &["frost-harpy"]));
    assert!(again.contains("once a long rest"), "{again}");
    assert_eq!(t.state.character("vesper").unwrap(), &before);

    // A long rest gives it back.
    t.apply(&[
        Change::EncounterEnded,
        Change::LongRest {
            character: "vesper".into(),
        },
    ]);
    assert_eq!(uses_left(&t, "vesper", key), None);
    t.ok("cast_spell", cast("vesper", "Bane", None, &["frost-harpy"]));
}

#[test]
fn mire_the_mind_and_sign_of_ill_omen_take_the_warlocks_3rd_level_slots() {
    let mut t = Table::new(fight(vesper()), 2);
    // A slot below the warlock's is refused: its slots are 3rd level.
    let low = t.refused(
        "cast_spell",
        cast("vesper", "Slow", Some(4), &["frost-harpy"]),
    );
    assert!(low.contains("of level 3"), "{low}");
    let slow = t.ok("cast_spell", cast("vesper", "Slow", None, &["frost-harpy"]));
    // Charisma +3 and proficiency +3: DC 14.
    assert_eq!(
        (slow["slot_level"].clone(), slow["save_dc"].clone()),
        (json!(3), json!(14))
    );
    assert_eq!(
        t.state.character("vesper").unwrap().spell_slots.pact_spent,
        1
    );

    next_round(&mut t);
    let mut curse = cast("vesper", "Bestow Curse", Some(3), &["frost-harpy"]);
    curse["choice"] = json!("strength");
    let cursed = t.ok("cast_spell", curse);
    assert_eq!(cursed["slot_level"], 3, "{cursed}");
    let v = t.state.character("vesper").unwrap();
    assert_eq!(v.spell_slots.pact_spent, 2, "both warlock slots spent");
    for key in ["mire-the-mind", "sign-of-ill-omen"] {
        let key = format!("eldritch-invocation-{key}");
        assert_eq!(uses_left(&t, "vesper", &key), Some(0), "{key}");
    }

    // No warlock slot left: Bane is refused, and its daily casting kept.
    next_round(&mut t);
    let none = t.refused("cast_spell", cast("vesper", "Bane", None, &["frost-harpy"]));
    assert!(none.contains("none left"), "{none}");
    assert_eq!(
        uses_left(&t, "vesper", "eldritch-invocation-thief-of-five-fates"),
        None
    );
}

#[test]
fn infernal_legacy_gives_thaumaturgy_at_will_and_darkness_once_a_day_at_5th_level() {
    // Azra, a fighter of 3rd level, casts Thaumaturgy with Charisma, again and again.
    let mut t = Table::new(fight(azra()), 3);
    for _ in 0..2 {
        next_round(&mut t);
        let wonder = t.ok("cast_spell", cast("azra", "Thaumaturgy", None, &[]));
        assert!(
            wonder["narrator"].as_str().unwrap().contains("at will"),
            "{wonder}"
        );
        // Charisma +2 and proficiency +2.
        assert_eq!(wonder["save_dc"], 12, "{wonder}");
    }
    // Darkness waits for 5th level.
    next_round(&mut t);
    let dark = t.refused("cast_spell", cast("azra", "Darkness", None, &[]));
    assert!(
        dark.contains("from level 5") && dark.contains("level 3"),
        "{dark}"
    );

    // Vesper, 5th level: Darkness as a 2nd-level spell, no slot, once a long rest; her sheet
    // lists what her blood and her invocations grant.
    let mut t = Table::new(fight(vesper()), 4);
    let sheet = t.ok("get_character_stats", json!({"character": "vesper"}));
    let granted = sheet["granted_spells"].to_string();
    for line in [
        "Thaumaturgy (Infernal Legacy: at will)",
        "Darkness (Infernal Legacy: once a long rest as level 2, no slot; 1 left)",
        "Bane (Eldritch Invocation: Thief of Five Fates: once a long rest with a warlock slot; 1 left)",
        "Slow (",
        "Bestow Curse (",
    ] {
        assert!(granted.contains(line), "{line}: {granted}");
    }
    let darkness = t.ok("cast_spell", cast("vesper", "Darkness", None, &[]));
    assert_eq!(darkness["slot_level"], 2, "{darkness}");
    let v = t.state.character("vesper").unwrap();
    assert_eq!(v.spell_slots.pact_spent, 0, "no slot");
    assert_eq!(v.concentration.as_deref(), Some("Darkness"));
    assert_eq!(uses_left(&t, "vesper", "infernal-legacy-darkness"), Some(0));
    next_round(&mut t);
    let twice = t.refused("cast_spell", cast("vesper", "Darkness", None, &[]));
    assert!(twice.contains("once a long rest"), "{twice}");
    // Nor with a slot: Darkness is not among Vesper's own spells.
    let slotted = t.refused("cast_spell", cast("vesper", "Darkness", Some(3), &[]));
    assert!(slotted.contains("once a long rest"), "{slotted}");
}

/// A goblin (60 HP) in the harpy's place.
fn goblin(t: &mut Table) {
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.template = "goblin".into();
    m.hp = HitPoints::full(60);
}

/// Azra (200 HP) alone against a goblin, Azra first; Kraven gone on ahead.
fn against_goblin(seed: u64) -> Table {
    let state = table::fight_with(&["kraven"], vec![azra()], &["azra", "frost-harpy"]);
    let mut t = Table::new(state, seed);
    goblin(&mut t);
    t.hero_mut("azra").hp = HitPoints::full(200);
    Arc::make_mut(&mut t.state.characters).retain(|c| c.id != "kraven");
    t
}

#[test]
fn hellish_rebuke_answers_a_goblins_blow_once_a_day_as_a_2nd_level_spell() {
    let mut rebuked = 0;
    for seed in 0..60 {
        let mut t = against_goblin(seed);
        // Cast only as the reaction the engine takes when Azra is hurt.
        let direct = t.refused(
            "cast_spell",
            cast("azra", "Hellish Rebuke", None, &["frost-harpy"]),
        );
        assert!(
            direct.contains("declare_reactions") && direct.contains("damaged"),
            "{direct}"
        );
        t.ok(
            "declare_reactions",
            json!({"character": "azra", "reactions": [{"spell": "Hellish Rebuke", "when": "damaged"}]}),
        );
        let r = t.ok("next_turn", json!({}));
        let turn = &r["monster_turns"][0];
        let Some(swing) = turn["attacks"].get(0) else {
            continue;
        };
        assert_eq!(turn["target"], "azra", "{r}");
        if swing["result"]["hit"] != true {
            assert!(swing.get("reaction").is_none(), "{r}");
            continue;
        }
        rebuked += 1;
        // 3d10 as a 2nd-level spell, rolled by Azra.
        let rolls = serde_json::to_value(&t.log.rolls).unwrap();
        let fire = rolls
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["label"] == "Hellish Rebuke damage")
            .unwrap_or_else(|| panic!("{rolls}"));
        assert_eq!(fire["detail"]["result"]["dice"], "3d10", "{fire}");
        assert_eq!(fire["roller"]["id"], "azra", "{fire}");
        let reaction = &swing["reaction"];
        assert_eq!(reaction["reaction"], "Hellish Rebuke", "{r}");
        assert!(reaction["slot_level"].is_null(), "no slot: {r}");
        let outcome = reaction["outcome"].as_str().unwrap();
        // Charisma +2 and proficiency +2: DC 12; 3d10 fire as a 2nd-level spell.
        assert!(
            outcome.contains("DC 12") && outcome.contains("as level 2"),
            "{outcome}"
        );
        let goblin = t.state.monster("frost-harpy").unwrap();
        assert!((1..=30).contains(&(60 - goblin.hp.current)), "{r}");
        assert_eq!(
            uses_left(&t, "azra", "infernal-legacy-hellish-rebuke"),
            Some(0)
        );
        // Azra's turn gives her reaction back; through the goblin's next turns, no second
        // rebuke: once a long rest.
        let hp = t.state.monster("frost-harpy").unwrap().hp.current;
        for _ in 0..6 {
            let r = t.ok("next_turn", json!({}));
            for swing in r["monster_turns"][0]["attacks"].as_array().unwrap() {
                assert!(swing.get("reaction").is_none(), "{r}");
            }
        }
        assert_eq!(t.state.monster("frost-harpy").unwrap().hp.current, hp);
    }
    assert!(rebuked > 0, "no goblin hit Azra in 60 seeds");
}

#[test]
fn one_with_shadows_hides_a_warlock_in_dim_light_until_it_acts_or_moves() {
    let mut t = Table::new(fight(nyx()), 5);
    let bright = t.refused("use_feature", feature("nyx", "one-with-shadows", None));
    assert!(bright.contains("bright light"), "{bright}");
    lit(&mut t, Light::Dim);
    t.ok("use_feature", feature("nyx", "one-with-shadows", None));
    let invisible = |t: &Table| {
        t.state
            .character("nyx")
            .unwrap()
            .conditions
            .has(Condition::Invisible)
    };
    assert!(invisible(&t));
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
    // The next round's action (the Dodge) ends it.
    next_round(&mut t);
    t.ok("dodge", json!({"creature": "nyx"}));
    assert!(!invisible(&t));

    // In darkness, then moving ends it, in a fight that keeps positions.
    let mut state = table::placed_fight(
        &["kraven"],
        table::order(&["kraven", "frost-harpy"]),
        &[("kraven", at(0, 0, 0)), ("frost-harpy", at(60, 0, 0))],
    );
    let mut hero = nyx();
    hero.location = state.characters[0].location.clone();
    Arc::make_mut(&mut state.characters).push(hero);
    let mut t = Table::new(state, 6);
    t.apply(&[
        Change::EncounterEnded,
        Change::EncounterStarted {
            order: table::order(&["nyx", "kraven", "frost-harpy"]),
        },
        Change::Moved {
            creature: "nyx".into(),
            to: at(0, 10, 0),
        },
        Change::Moved {
            creature: "frost-harpy".into(),
            to: at(60, 10, 0),
        },
    ]);
    lit(&mut t, Light::Dark);
    t.ok("use_feature", feature("nyx", "One with Shadows", None));
    assert!(invisible(&t));
    t.ok(
        "move_in_fight",
        json!({"creature": "nyx", "to": "frost-harpy", "feet": 10}),
    );
    assert!(!invisible(&t));
}

#[test]
fn gaze_of_two_minds_blinds_and_deafens_the_warlock_until_the_end_of_its_next_turn() {
    let mut t = Table::new(fight(nyx()), 7);
    goblin(&mut t); // no song to skip Nyx's turns
    for hero in ["kraven", "nyx"] {
        t.hero_mut(hero).hp = HitPoints::full(200);
    }
    let gaze = t.ok(
        "use_feature",
        feature("nyx", "gaze-of-two-minds", Some("kraven")),
    );
    assert!(
        gaze["effect"].as_str().unwrap().contains("narrator"),
        "{gaze}"
    );
    let senses = |t: &Table| {
        let c = t.state.character("nyx").unwrap().conditions;
        (c.has(Condition::Blinded), c.has(Condition::Deafened))
    };
    assert_eq!(senses(&t), (true, true));
    // Nyx's turn ends, Kraven's and the harpy's: still borrowing on its next turn.
    for _ in 0..2 {
        t.ok("next_turn", json!({}));
    }
    assert_eq!(t.turn_of(), "nyx");
    assert_eq!(senses(&t), (true, true));
    // An action on that turn keeps the link to the end of the next.
    t.ok(
        "use_feature",
        feature("nyx", "gaze-of-two-minds", Some("kraven")),
    );
    for _ in 0..2 {
        t.ok("next_turn", json!({}));
        assert_eq!(senses(&t), (true, true));
    }
    assert_eq!(t.turn_of(), "nyx");
    // The end of that turn ends it.
    t.ok("next_turn", json!({}));
    assert_eq!(senses(&t), (false, false));
}

/// A scripted model casts the granted spells and plays the invocations where the rules say
/// no: Vesper's Bane a second time today, her Slow with both warlock slots spent, Ash's Mire
/// the Mind written on a 2nd-level sheet, Azra's Darkness at 3rd level, Nyx's One with
/// Shadows in bright light and Gaze of Two Minds on the hostile harpy, Kraven's Hellish
/// Rebuke. Each is refused with what is allowed, and no sheet changes.
#[tokio::test]
async fn a_model_cheating_with_granted_spells_and_invocations_is_refused() {
    let mut vesper = vesper();
    vesper.spell_slots.pact_spent = 2;
    let mut ash = warlock("Ash", 2, &["Agonizing Blast", "Fiendish Vigor"]);
    // Mire the Mind is a 5th-level invocation the builder would refuse: written in by hand.
    ash.choices
        .get_mut("eldritch-invocations")
        .unwrap()
        .push("eldritch-invocation-mire-the-mind".into());
    let mut before = table::fight_with(
        &["kraven"],
        vec![vesper, ash, nyx(), azra()],
        &["vesper", "ash", "nyx", "azra", "kraven", "frost-harpy"],
    );
    before
        .apply(&Change::FeatureUsed {
            character: "vesper".into(),
            feature: "eldritch-invocation-thief-of-five-fates".into(),
            of: 1,
            restores: dnd_engine::srd::Rest::LongRest,
            count: 1,
        })
        .unwrap();
    let cheats = vec![
        ToolCall::new(
            "a",
            "cast_spell",
            cast("vesper", "Bane", None, &["frost-harpy"]),
        ),
        ToolCall::new(
            "b",
            "cast_spell",
            cast("vesper", "Slow", None, &["frost-harpy"]),
        ),
        ToolCall::new("e", "use_feature", feature("nyx", "one-with-shadows", None)),
        ToolCall::new(
            "f",
            "use_feature",
            feature("nyx", "gaze-of-two-minds", Some("frost-harpy")),
        ),
        ToolCall::new(
            "g",
            "declare_reactions",
            json!({"character": "kraven", "reactions": [{"spell": "Hellish Rebuke", "when": "damaged"}]}),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Vesper", "Curse them all!").await;
    assert_eq!(results.len(), 5, "{results:#?}");
    refused_as(
        &results,
        &[
            "once a long rest",
            "none left",
            "bright light",
            "not an ally humanoid",
            "does not know Hellish Rebuke",
        ],
    );
    for id in ["vesper", "ash", "nyx", "azra", "kraven"] {
        assert_eq!(after.character(id), before.character(id), "{id}");
    }

    // On their own turns: Ash's Mire the Mind and Azra's Darkness wait for 5th level.
    for (who, spell) in [("ash", "Slow"), ("azra", "Darkness")] {
        let mut before = before.clone();
        before
            .apply_all(&[
                Change::EncounterEnded,
                Change::EncounterStarted {
                    order: table::order(&[who, "frost-harpy"]),
                },
            ])
            .unwrap();
        let targets: &[&str] = if who == "ash" { &["frost-harpy"] } else { &[] };
        let call = ToolCall::new("c", "cast_spell", cast(who, spell, None, targets));
        let table::Played { results, after, .. } =
            table::scripted_turn(&before, vec![call], who, "Now!").await;
        refused_as(&results, &["from level 5"]);
        assert_eq!(after.character(who), before.character(who));
    }
}

/// Each result is a refusal that says what it should.
fn refused_as(results: &[String], wants: &[&str]) {
    for (i, want) in wants.iter().enumerate() {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
}

/// A tiefling warlock who also knows Hellish Rebuke answers first with Infernal Legacy's free
/// casting, then, that spent, with a warlock slot (3rd level: 4d10).
#[test]
fn a_tiefling_warlock_rebukes_first_for_free_then_with_a_slot() {
    let mut answers: Vec<Value> = Vec::new();
    for seed in 0..40 {
        let mut hero = vesper();
        Arc::make_mut(&mut hero.spells).push("Hellish Rebuke".into());
        let state = table::fight_with(&["kraven"], vec![hero], &["vesper", "frost-harpy"]);
        let mut t = Table::new(state, seed);
        goblin(&mut t);
        Arc::make_mut(&mut t.state.characters).retain(|c| c.id != "kraven");
        t.hero_mut("vesper").hp = HitPoints::full(200);
        t.ok(
            "declare_reactions",
            json!({"character": "vesper", "reactions": [{"spell": "Hellish Rebuke", "when": "damaged"}]}),
        );
        answers.clear();
        for _ in 0..12 {
            let r = t.ok("next_turn", json!({}));
            let swings = r["monster_turns"][0]["attacks"].as_array().cloned();
            answers.extend(
                swings
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s.get("reaction").cloned()),
            );
            if answers.len() == 2 {
                break;
            }
        }
        if answers.len() < 2 {
            continue;
        }
        assert!(answers[0]["slot_level"].is_null(), "{answers:?}");
        assert!(
            answers[0]["outcome"]
                .to_string()
                .contains("Infernal Legacy")
        );
        assert_eq!(answers[1]["slot_level"], 3, "{answers:?}");
        let v = t.state.character("vesper").unwrap();
        assert_eq!(v.spell_slots.pact_spent, 1);
        assert_eq!(
            uses_left(&t, "vesper", "infernal-legacy-hellish-rebuke"),
            Some(0)
        );
        return;
    }
    panic!("the goblin did not hurt Vesper twice in 40 seeds: {answers:?}");
}
