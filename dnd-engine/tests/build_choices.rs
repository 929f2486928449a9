//! Choices made when a character is built or gains a level, each worked from the SRD and each
//! refused with what is allowed when missing, duplicated or not offered: the College of Lore's
//! Bonus Proficiencies (three skills at 3rd level), Beguiling Influence (Deception and
//! Persuasion), Pact of the Tome's three cantrips of any class, the Book of Ancient Secrets'
//! two 1st-level rituals (only with the Tome, cast only as rituals), Druidic among a druid's
//! languages, a wizard's new spells written in its spellbook, and Draconic Resilience's hit
//! point on every sorcerer level; and a model that cheats at them, refused, changing nothing.

use serde_json::{Value, json};

use dnd_engine::character::{
    BuildErrors, CharacterChoices, Problem, first_legal_choices, level_up,
};
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Proficiency, Skill};
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, Character, GameState, Levelling};

#[path = "support/table.rs"]
mod table;
use table::{Table, cast};

/// A human warlock of the Fiend (Charisma 16) at `level`, skilled in Arcana and History (the
/// Acolyte adds Insight and Religion), with these feature picks.
fn warlock(name: &str, level: u8, features: Value) -> Value {
    let spells = [
        "Charm Person",
        "Hellish Rebuke",
        "Expeditious Retreat",
        "Hold Person",
        "Unseen Servant",
    ];
    let cantrips = ["Eldritch Blast", "Chill Touch", "Mage Hand"];
    json!({
        "name": name, "race": "Human", "class": "Warlock", "subclass": "Fiend", "level": level,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 15}},
        "skills": ["arcana", "history"],
        "features": features,
        "equipment": {"gold": 40},
        "cantrips": cantrips[..if level >= 4 { 3 } else { 2 }],
        "spells": spells[..usize::from(level) + 1],
    })
}

/// A human bard (Acolyte: Insight, Religion; Performance, Persuasion, Deception) at `level`
/// with these feature picks; College of Lore from 3rd level.
fn bard(level: u8, features: Value) -> Value {
    let spells = [
        "Healing Word",
        "Charm Person",
        "Sleep",
        "Thunderwave",
        "Cure Wounds",
        "Longstrider",
    ];
    json!({
        "name": "Vesna", "race": "Human", "class": "Bard", "level": level,
        "subclass": if level >= 3 { Some("Lore") } else { None },
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["performance", "persuasion", "deception"],
        "features": features,
        "equipment": {"gold": 50},
        "cantrips": ["Vicious Mockery", "Minor Illusion"],
        "spells": spells[..usize::from(level) + 3],
    })
}

fn build(choices: Value) -> Result<Character, BuildErrors> {
    serde_json::from_value::<CharacterChoices>(choices)
        .unwrap()
        .build(Srd::bundled())
}

/// `hero` beside Kraven, out of a fight, with `xp`.
fn at_rest(hero: Character, xp: u32) -> Table {
    let id = hero.id.clone();
    let mut state = table::fight_with(&["kraven"], vec![hero], &[id.as_str(), "kraven"]);
    state.apply(&Change::EncounterEnded).unwrap();
    table::hero_mut(&mut state, &id).xp = xp;
    Table::new(state, 3)
}

fn skill(c: &Character, s: Skill) -> Option<Proficiency> {
    c.skills.get(&s).copied()
}

fn tome_features(invocations: &[&str], cantrips: &[&str]) -> Value {
    json!({
        "eldritch-invocations": invocations,
        "pact-boon": ["Pact of the Tome"],
        "pact-of-the-tome": cantrips,
    })
}

#[test]
fn a_lore_bard_built_at_3_takes_three_skills_it_lacks() {
    let features = |bonus: &[&str]| json!({"bard-expertise-1": ["Arcana", "Performance"], "bonus-proficiencies": bonus});
    let vesna = build(bard(3, features(&["Arcana", "History", "Nature"]))).unwrap();
    assert_eq!(vesna.choices["bonus-proficiencies"].len(), 3);
    // Expertise may double a skill the same level's Bonus Proficiencies gives.
    assert_eq!(skill(&vesna, Skill::Arcana), Some(Proficiency::Expertise));
    assert_eq!(skill(&vesna, Skill::History), Some(Proficiency::Proficient));
    assert_eq!(skill(&vesna, Skill::Nature), Some(Proficiency::Proficient));
    assert_eq!(vesna.skills.len(), 8, "3 bard, 2 acolyte, 3 Lore");

    let missing = build(bard(3, features(&[]))).unwrap_err();
    assert!(
        matches!(
            missing.at("features.bonus-proficiencies"),
            Some(Problem::WrongCount {
                given: 0,
                expected: 3,
                ..
            })
        ),
        "{missing}"
    );
    let had = build(bard(3, features(&["Insight", "History", "Nature"]))).unwrap_err();
    match had.at("features.bonus-proficiencies[0]") {
        Some(Problem::NotAllowed { allowed, .. }) => {
            assert!(allowed.contains(&"Athletics".to_owned()), "{allowed:?}");
            assert!(!allowed.contains(&"Insight".to_owned()), "{allowed:?}");
        }
        other => panic!("{other:?}: {had}"),
    }
    let twice = build(bard(3, features(&["History", "History", "Nature"]))).unwrap_err();
    assert!(
        matches!(
            twice.at("features.bonus-proficiencies[1]"),
            Some(Problem::Duplicate { .. })
        ),
        "{twice}"
    );
    let early = build(bard(2, json!({"bonus-proficiencies": ["History"]}))).unwrap_err();
    assert!(
        matches!(
            early.at("features.bonus-proficiencies"),
            Some(Problem::TooEarly { needed: 3, .. })
        ),
        "{early}"
    );
}

#[test]
fn a_bard_levelling_to_3_in_the_college_of_lore_is_asked_for_the_skills() {
    let mut t = at_rest(build(bard(2, json!({}))).unwrap(), 900);
    let up = |bonus: &[&str]| {
        json!({"character": "vesna", "subclass": "Lore", "spells": ["Longstrider"], "features": [
            {"feature": "bard-expertise-1", "picks": ["Performance", "History"]},
            {"feature": "bonus-proficiencies", "picks": bonus},
        ]})
    };
    let error = t.refused("level_up", up(&[]));
    assert!(error.contains("Bonus Proficiencies"), "{error}");
    assert!(error.contains("takes 3"), "{error}");
    let error = t.refused("level_up", up(&["Religion", "History", "Nature"]));
    assert!(
        error.contains("\"Religion\" is not a new skill (one the character is not proficient in)"),
        "{error}"
    );
    let mut no_subclass = up(&["Arcana", "History", "Nature"]);
    no_subclass["subclass"] = Value::Null;
    let error = t.refused("level_up", no_subclass);
    assert!(error.starts_with("subclass:"), "{error}");

    let gained = t.ok("level_up", up(&["Arcana", "History", "Nature"]));
    assert_eq!(gained["level"], 3);
    let vesna = t.state.character("vesna").unwrap();
    assert_eq!(skill(vesna, Skill::Arcana), Some(Proficiency::Proficient));
    assert_eq!(skill(vesna, Skill::Nature), Some(Proficiency::Proficient));
    // Expertise in History, a skill the same level gave.
    assert_eq!(skill(vesna, Skill::History), Some(Proficiency::Expertise));
    assert_eq!(
        vesna.choices["bonus-proficiencies"],
        ["arcana", "history", "nature"]
    );
}

#[test]
fn beguiling_influence_makes_deception_and_persuasion_proficient_on_checks() {
    let beguiling = build(warlock(
        "Vale",
        2,
        json!({"eldritch-invocations": ["Beguiling Influence", "Agonizing Blast"]}),
    ))
    .unwrap();
    let plain = build(warlock(
        "Ash",
        2,
        json!({"eldritch-invocations": ["Devil's Sight", "Agonizing Blast"]}),
    ))
    .unwrap();
    for s in [Skill::Deception, Skill::Persuasion] {
        assert_eq!(skill(&beguiling, s), Some(Proficiency::Proficient));
        assert_eq!(skill(&plain, s), None);
    }
    let mut state = table::fight_with(
        &["kraven"],
        vec![beguiling, plain],
        &["vale", "ash", "kraven"],
    );
    state.apply(&Change::EncounterEnded).unwrap();
    let mut t = Table::new(state, 8);
    let check = |t: &mut Table, who: &str| {
        let rolled = t.ok(
            "roll_skill_check",
            json!({"creature": who, "skill": "persuasion", "dc": 12}),
        );
        rolled["result"]["modifier"].as_i64().unwrap()
    };
    // Charisma 16 (+3), and the proficiency bonus (+2) with the invocation.
    assert_eq!(check(&mut t, "vale"), 5);
    assert_eq!(check(&mut t, "ash"), 3);

    // Taken on a level gained: a warlock 1 reaching 2 picks it with its invocations.
    let mut t = at_rest(build(warlock("Wick", 1, json!({}))).unwrap(), 300);
    let gained = t.ok(
        "level_up",
        json!({"character": "wick", "spells": ["Expeditious Retreat"], "features": [
            {"feature": "eldritch-invocations", "picks": ["Beguiling Influence", "Agonizing Blast"]},
        ]}),
    );
    assert_eq!(gained["level"], 2);
    let wick = t.state.character("wick").unwrap();
    assert_eq!(skill(wick, Skill::Deception), Some(Proficiency::Proficient));
    assert_eq!(
        skill(wick, Skill::Persuasion),
        Some(Proficiency::Proficient)
    );

    // Proficient in Deception already, the invocation adds Persuasion only.
    let mut choices = warlock(
        "Sly",
        2,
        json!({"eldritch-invocations": ["Beguiling Influence", "Agonizing Blast"]}),
    );
    choices["skills"] = json!(["deception", "history"]);
    let sly = build(choices).unwrap();
    assert_eq!(skill(&sly, Skill::Deception), Some(Proficiency::Proficient));
    assert_eq!(
        skill(&sly, Skill::Persuasion),
        Some(Proficiency::Proficient)
    );
}

#[test]
fn pact_of_the_tome_takes_three_cantrips_of_any_class_in_the_builder() {
    let nyx = build(warlock(
        "Nyx",
        3,
        tome_features(
            &["Agonizing Blast", "Devil's Sight"],
            &["Guidance", "Sacred Flame", "Vicious Mockery"],
        ),
    ))
    .unwrap();
    assert_eq!(
        nyx.choices["pact-of-the-tome"],
        ["Guidance", "Sacred Flame", "Vicious Mockery"]
    );
    assert!(!nyx.spells.iter().any(|s| s == "Sacred Flame"));

    let refused = |cantrips: &[&str]| {
        build(warlock(
            "Nyx",
            3,
            tome_features(&["Agonizing Blast", "Devil's Sight"], cantrips),
        ))
        .unwrap_err()
    };
    let few = refused(&["Guidance", "Sacred Flame"]);
    assert!(
        matches!(
            few.at("features.pact-of-the-tome"),
            Some(Problem::WrongCount {
                given: 2,
                expected: 3,
                ..
            })
        ),
        "{few}"
    );
    let not_cantrip = refused(&["Guidance", "Cure Wounds", "Vicious Mockery"]);
    match not_cantrip.at("features.pact-of-the-tome[1]") {
        Some(Problem::NotAllowed { allowed, .. }) => {
            assert!(allowed.contains(&"Sacred Flame".to_owned()));
            assert!(allowed.contains(&"Druidcraft".to_owned()));
            assert!(!allowed.contains(&"Cure Wounds".to_owned()));
        }
        other => panic!("{other:?}: {not_cantrip}"),
    }
    let twice = refused(&["Guidance", "Guidance", "Vicious Mockery"]);
    assert!(matches!(
        twice.at("features.pact-of-the-tome[1]"),
        Some(Problem::Duplicate { .. })
    ));
    let known = refused(&["Guidance", "Eldritch Blast", "Vicious Mockery"]);
    assert!(
        matches!(
            known.at("features.pact-of-the-tome[1]"),
            Some(Problem::Duplicate { by, .. }) if by == "the spells known"
        ),
        "{known}"
    );
    // The cantrips come with the Tome only.
    let mut blade = tome_features(
        &["Agonizing Blast", "Devil's Sight"],
        &["Guidance", "Sacred Flame", "Vicious Mockery"],
    );
    blade["pact-boon"] = json!(["Pact of the Blade"]);
    let blade = build(warlock("Nyx", 3, blade)).unwrap_err();
    assert!(
        matches!(
            blade.at("features.pact-of-the-tome"),
            Some(Problem::NotAllowed { .. })
        ),
        "{blade}"
    );
}

#[test]
fn the_tomes_cantrips_are_cast_as_known() {
    let nyx = build(warlock(
        "Nyx",
        3,
        tome_features(
            &["Agonizing Blast", "Devil's Sight"],
            &["Guidance", "Sacred Flame", "Vicious Mockery"],
        ),
    ))
    .unwrap();
    let mut t = Table::new(
        table::fight_with(&["kraven"], vec![nyx], &["nyx", "kraven", "frost-harpy"]),
        11,
    );
    let flame = t.ok(
        "cast_spell",
        cast("nyx", "Sacred Flame", None, &["frost-harpy"]),
    );
    assert!(flame.to_string().contains("Sacred Flame"), "{flame}");
    // A cantrip of another list it did not put in its book stays another class's.
    t.apply(&[Change::EncounterEnded]);
    let no = t.refused(
        "cast_spell",
        cast("nyx", "Fire Bolt", None, &["frost-harpy"]),
    );
    assert!(no.contains("Nyx does not know Fire Bolt"), "{no}");
}

#[test]
fn a_warlock_levelling_to_3_with_the_tome_is_asked_for_its_cantrips() {
    let mut t = at_rest(
        build(warlock(
            "Vale",
            2,
            json!({"eldritch-invocations": ["Agonizing Blast", "Devil's Sight"]}),
        ))
        .unwrap(),
        900,
    );
    let up = |boon: &str, cantrips: Option<&[&str]>| {
        let mut features = vec![json!({"feature": "pact-boon", "picks": [boon]})];
        if let Some(cantrips) = cantrips {
            features.push(json!({"feature": "pact-of-the-tome", "picks": cantrips}));
        }
        json!({"character": "vale", "spells": ["Hold Person"], "features": features})
    };
    let error = t.refused("level_up", up("Pact of the Tome", None));
    assert!(
        error.contains("0 chosen; Pact of the Tome: cantrips of any class's list takes 3"),
        "{error}"
    );
    assert!(error.contains("options: Acid Splash"), "{error}");
    let error = t.refused(
        "level_up",
        up("Pact of the Tome", Some(&["Guidance", "Fireball", "Light"])),
    );
    assert!(error.contains("\"Fireball\""), "{error}");
    let error = t.refused(
        "level_up",
        up("Pact of the Blade", Some(&["Guidance", "Mending", "Light"])),
    );
    assert!(error.contains("Book of Shadows choice"), "{error}");
    assert_eq!(
        t.state.character("vale").unwrap().level,
        2,
        "nothing changed"
    );

    t.ok(
        "level_up",
        up("Pact of the Tome", Some(&["Guidance", "Mending", "Light"])),
    );
    let vale = t.state.character("vale").unwrap();
    assert_eq!(vale.level, 3);
    assert_eq!(vale.choices["pact-boon"], ["pact-of-the-tome"]);
    assert_eq!(
        vale.choices["pact-of-the-tome"],
        ["Guidance", "Mending", "Light"]
    );
    t.ok("cast_spell", cast("vale", "Guidance", None, &["kraven"]));
}

#[test]
fn the_book_of_ancient_secrets_needs_the_tome_and_casts_its_rituals_only_as_rituals() {
    let secrets = |rituals: &[&str]| {
        let mut f = tome_features(
            &["Agonizing Blast", "Book of Ancient Secrets"],
            &["Guidance", "Sacred Flame", "Vicious Mockery"],
        );
        f["eldritch-invocation-book-of-ancient-secrets"] = json!(rituals);
        warlock("Nyx", 3, f)
    };
    let nyx = build(secrets(&["Detect Magic", "Identify"])).unwrap();
    assert_eq!(
        nyx.choices["eldritch-invocation-book-of-ancient-secrets"],
        ["Detect Magic", "Identify"]
    );

    for (rituals, field) in [
        (&["Detect Magic", "Magic Missile"][..], "[1]"), // not a ritual
        (&["Augury", "Identify"][..], "[0]"),            // a 2nd-level ritual
    ] {
        let error = build(secrets(rituals)).unwrap_err();
        let at = format!("features.eldritch-invocation-book-of-ancient-secrets{field}");
        match error.at(&at) {
            Some(Problem::NotAllowed { allowed, .. }) => {
                assert!(allowed.contains(&"Alarm".to_owned()), "{allowed:?}");
                assert!(!allowed.contains(&"Magic Missile".to_owned()));
            }
            other => panic!("{other:?}: {error}"),
        }
    }
    let one = build(secrets(&["Detect Magic"])).unwrap_err();
    assert!(matches!(
        one.at("features.eldritch-invocation-book-of-ancient-secrets"),
        Some(Problem::WrongCount { expected: 2, .. })
    ));
    // Without the Tome the invocation is refused.
    let mut blade = secrets(&["Detect Magic", "Identify"]);
    blade["features"]["pact-boon"] = json!(["Pact of the Blade"]);
    blade["features"]
        .as_object_mut()
        .unwrap()
        .remove("pact-of-the-tome");
    let error = build(blade).unwrap_err();
    match error.at("features.eldritch-invocations") {
        Some(Problem::Missing { what }) => assert!(what.contains("Pact of the Tome"), "{what}"),
        other => panic!("{other:?}: {error}"),
    }

    // In play: Detect Magic as a ritual, no slot spent; never with a slot, never in a fight.
    let mut t = Table::new(
        table::fight_with(&["kraven"], vec![nyx], &["nyx", "kraven", "frost-harpy"]),
        12,
    );
    let mut ritual = cast("nyx", "Detect Magic", None, &[]);
    ritual["ritual"] = json!(true);
    let no = t.refused("cast_spell", ritual.clone());
    assert!(no.contains("never in a fight"), "{no}");
    t.apply(&[Change::EncounterEnded]);
    let slots = t.state.character("nyx").unwrap().spell_slots;
    let minutes = |t: &Table| t.state.time.day * 24 * 60 + t.state.time.minute;
    let began = minutes(&t);
    t.ok("cast_spell", ritual);
    assert_eq!(t.state.character("nyx").unwrap().spell_slots, slots);
    assert!(minutes(&t) >= began + 10, "a ritual's 10 minutes");
    let no = t.refused("cast_spell", cast("nyx", "Detect Magic", Some(1), &[]));
    assert!(no.contains("Nyx does not know Detect Magic"), "{no}");
}

#[test]
fn a_warlock_reaching_5_learns_a_third_invocation_such_as_the_book_of_ancient_secrets() {
    let tome = tome_features(
        &["Agonizing Blast", "Devil's Sight"],
        &["Guidance", "Sacred Flame", "Vicious Mockery"],
    );
    let mut t = at_rest(build(warlock("Nyx", 4, tome)).unwrap(), 6_500);
    let up = |invocations: &[&str], rituals: Option<&[&str]>| {
        let mut features = vec![json!({"feature": "eldritch-invocations", "picks": invocations})];
        if let Some(rituals) = rituals {
            features.push(json!({"feature": "Book of Ancient Secrets", "picks": rituals}));
        }
        json!({"character": "nyx", "spells": ["Counterspell"], "features": features})
    };
    let error = t.refused("level_up", up(&[], None));
    assert!(
        error.contains("0 chosen; new invocation at level 5 takes 1; options: "),
        "{error}"
    );
    assert!(error.contains("Mire the Mind"), "{error}");
    assert!(!error.contains("Devil's Sight"), "known already: {error}");
    let error = t.refused("level_up", up(&["Devil's Sight"], None));
    assert!(
        error.contains("\"Devil's Sight\" is not a new invocation"),
        "{error}"
    );
    let error = t.refused("level_up", up(&["Book of Ancient Secrets"], None));
    assert!(error.contains("takes 2; options: Alarm"), "{error}");
    assert_eq!(
        t.state.character("nyx").unwrap().level,
        4,
        "nothing changed"
    );

    let gained = t.ok(
        "level_up",
        up(&["Book of Ancient Secrets"], Some(&["Identify", "Alarm"])),
    );
    let listed = gained["features"].to_string();
    assert!(
        listed.contains("choose 1 of: Eldritch Invocation: Armor of Shadows"),
        "{gained}"
    );
    assert!(!listed.contains("Agonizing"), "known already: {gained}");
    let nyx = t.state.character("nyx").unwrap();
    assert_eq!(nyx.choices["eldritch-invocations"].len(), 3);
    assert_eq!(
        nyx.choices["eldritch-invocation-book-of-ancient-secrets"],
        ["Identify", "Alarm"]
    );
    let mut ritual = cast("nyx", "Alarm", None, &[]);
    ritual["ritual"] = json!(true);
    t.ok("cast_spell", ritual);

    // A Blade warlock may not take it; Beguiling Influence at 5th gives its skills.
    let blade = json!({"eldritch-invocations": ["Agonizing Blast", "Devil's Sight"], "pact-boon": ["Pact of the Blade"]});
    let mut t = at_rest(build(warlock("Ash", 4, blade)).unwrap(), 6_500);
    let mut secrets = up(&["Book of Ancient Secrets"], Some(&["Identify", "Alarm"]));
    secrets["character"] = json!("ash");
    let error = t.refused("level_up", secrets);
    assert!(error.contains("missing: Pact of the Tome"), "{error}");
    let mut beguiling = up(&["Beguiling Influence"], None);
    beguiling["character"] = json!("ash");
    t.ok("level_up", beguiling);
    let ash = t.state.character("ash").unwrap();
    assert_eq!(skill(ash, Skill::Persuasion), Some(Proficiency::Proficient));

    // The offline game master's choices pick the third invocation too.
    let wick = build(warlock(
        "Wick",
        4,
        json!({"eldritch-invocations": ["Agonizing Blast", "Armor of Shadows"], "pact-boon": ["Pact of the Chain"]}),
    ))
    .unwrap();
    let mut t = at_rest(wick, 6_500);
    let wick = t.state.character("wick").unwrap().clone();
    let first = first_legal_choices(&wick, Srd::bundled(), &Levelling::Xp).unwrap();
    let up = level_up(&wick, Srd::bundled(), &Levelling::Xp, &first, &mut t.rng).unwrap();
    t.apply(&up.changes);
    let wick = t.state.character("wick").unwrap();
    assert_eq!(wick.level, 5);
    assert_eq!(wick.choices["eldritch-invocations"].len(), 3);
}

#[test]
fn a_druid_speaks_druidic() {
    let thorn = table::built(json!({
        "name": "Thorn", "race": "Human", "class": "Druid",
        "background": {"name": "Hermit", "skills": ["medicine", "religion"]},
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 13, "con": 14, "int": 10, "wis": 15, "cha": 12}},
        "skills": ["nature", "perception"],
        "equipment": {"gold": 20},
        "cantrips": ["Shillelagh", "Produce Flame"],
        "spells": ["Cure Wounds", "Thunderwave"]
    }));
    let mut t = Table::new(
        table::fight_with(&["isolde"], vec![thorn], &["thorn", "isolde"]),
        2,
    );
    let sheet = t.ok("get_character_stats", json!({"character": "thorn"}));
    assert_eq!(sheet["languages"], json!(["Common", "Druidic"]), "{sheet}");
    let sheet = t.ok("get_character_stats", json!({"character": "isolde"}));
    let isolde = sheet["languages"].as_array().unwrap();
    assert!(isolde.contains(&json!("Elvish")), "{sheet}");
    assert!(!isolde.contains(&json!("Druidic")), "{sheet}");
}

#[test]
fn a_wizards_new_spells_are_written_in_its_spellbook_to_prepare() {
    let mut t = Table::game(&["isolde"], 4);
    let i = t.hero_mut("isolde");
    i.level = 2;
    i.xp = 900;
    i.spell_slots.max = [3, 0, 0, 0, 0, 0, 0, 0, 0];
    i.hit_dice.total = 2;
    i.subclass = Some("Evocation".into());
    let prepared_before = i.spells.clone();
    t.ok(
        "level_up",
        json!({"character": "isolde", "spells": ["Web", "Invisibility"]}),
    );
    let i = t.state.character("isolde").unwrap();
    assert_eq!(i.spells, prepared_before, "nothing prepared by levelling");
    assert!(i.spellbook.iter().any(|s| s == "Web"));
    assert!(i.spellbook.iter().any(|s| s == "Invisibility"));
    // The spellbook's spells are what it may prepare.
    let listed = t.ok(
        "prepare_spells",
        json!({"character": "isolde", "spells": null}),
    );
    let options = listed["options"].as_array().unwrap();
    assert!(options.contains(&json!("Web")), "{listed}");
    let mut chosen: Vec<String> = listed["prepared"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    chosen.truncate(listed["most"].as_u64().unwrap() as usize - 1);
    chosen.push("Web".into());
    t.ok(
        "prepare_spells",
        json!({"character": "isolde", "spells": chosen}),
    );
    assert!(
        t.state
            .character("isolde")
            .unwrap()
            .spells
            .iter()
            .any(|s| s == "Web")
    );
    // A spell in the book is not learned twice.
    let i = t.hero_mut("isolde");
    i.xp = 2_700;
    let error = t.refused(
        "level_up",
        json!({"character": "isolde", "improvement": {"plus_two": "intelligence"}, "spells": ["Invisibility", "Misty Step", "Light"]}),
    );
    assert!(error.contains("knows Invisibility already"), "{error}");
}

#[test]
fn draconic_resilience_adds_a_hit_point_on_each_sorcerer_level() {
    let vex = table::built(json!({
        "name": "Vex", "race": "Dragonborn", "class": "Sorcerer", "subclass": "Draconic", "level": 3,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["arcana", "intimidation"],
        "features": {"dragon-ancestor": ["Red"], "metamagic-1": ["Quickened Spell", "Twinned Spell"]},
        "race_traits": {"draconic-ancestry": ["red"]},
        "equipment": {"gold": 30},
        "cantrips": ["Fire Bolt", "Poison Spray", "Light", "Mage Hand"],
        "spells": ["Burning Hands", "Mage Armor", "Magic Missile", "Shield"]
    }));
    // 6 + 4 + 4 from the die, Constitution 13's +1 a level, Draconic Resilience's 1 a level.
    assert_eq!(vex.hp.max, 14 + 3 + 3);
    let mut t = at_rest(vex, 2_700);
    let gained = t.ok(
        "level_up",
        json!({"character": "vex", "improvement": {"plus_two": "charisma"}, "spells": ["Scorching Ray", "Ray of Frost"]}),
    );
    // The sorcerer's fixed 4, Constitution +1, Draconic Resilience +1.
    assert_eq!(gained["hp_gained"], 6);
    assert_eq!(t.state.character("vex").unwrap().hp.max, 26);
}

/// Vale (warlock 2) and Vesna (bard 2), each with the XP for 3rd level.
fn two_at_2() -> GameState {
    let vale = build(warlock(
        "Vale",
        2,
        json!({"eldritch-invocations": ["Agonizing Blast", "Devil's Sight"]}),
    ))
    .unwrap();
    let vesna = build(bard(2, json!({}))).unwrap();
    let mut state = table::fight_with(&["kraven"], vec![vale, vesna], &["vale", "vesna"]);
    state.apply(&Change::EncounterEnded).unwrap();
    for id in ["vale", "vesna"] {
        table::hero_mut(&mut state, id).xp = 900;
    }
    state
}

#[tokio::test]
async fn a_model_cheating_at_these_choices_is_refused_and_changes_nothing() {
    let call = |id: &str, args: Value| ToolCall::new(id, "level_up", args);
    let tome = |cantrips: Value| {
        json!({"character": "vale", "spells": ["Hold Person"], "features": [
            {"feature": "pact-boon", "picks": ["Pact of the Tome"]},
            {"feature": "pact-of-the-tome", "picks": cantrips},
        ]})
    };
    let lore = |bonus: Value| {
        json!({"character": "vesna", "subclass": "Lore", "spells": ["Longstrider"], "features": [
            {"feature": "bard-expertise-1", "picks": ["Performance", "Persuasion"]},
            {"feature": "bonus-proficiencies", "picks": bonus},
        ]})
    };
    let mut secrets = tome(json!(["Guidance", "Mending", "Light"]));
    secrets["features"]
        .as_array_mut()
        .unwrap()
        .push(json!({"feature": "Book of Ancient Secrets", "picks": ["Identify", "Alarm"]}));
    let cheats = vec![
        // The Tome's cantrips left out, a 3rd-level spell among them, one twice.
        call("a", tome(json!([]))),
        call("b", tome(json!(["Guidance", "Fireball", "Light"]))),
        call("c", tome(json!(["Guidance", "Guidance", "Light"]))),
        // Rituals for an invocation not taken (no invocation is learned at 3rd level).
        call("d", secrets),
        // A skill the bard has, four skills, Lore's skills with no college.
        call("e", lore(json!(["Insight", "Arcana", "Nature"]))),
        call(
            "f",
            lore(json!(["History", "Arcana", "Nature", "Medicine"])),
        ),
        call(
            "g",
            json!({"character": "vesna", "spells": ["Longstrider"], "features": [
                {"feature": "bonus-proficiencies", "picks": ["History", "Arcana", "Nature"]},
            ]}),
        ),
        // The lawful one.
        call("h", tome(json!(["Guidance", "Mending", "Light"]))),
    ];
    let before = two_at_2();
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Vale", "We grow!").await;
    assert_eq!(results.len(), 8, "{results:#?}");
    let expect = [
        "takes 3; options: Acid Splash",
        "\\\"Fireball\\\" is not a Pact of the Tome",
        "\\\"Guidance\\\" is chosen twice",
        "Book of Shadows choice",
        "\\\"Insight\\\" is not a new skill (one the character is not proficient in)",
        "4 chosen; Bonus Proficiencies takes 3",
        "subclass: a Bard chooses a Bard College at level 3",
        "\"level\":3",
    ];
    for (i, (result, want)) in results.iter().zip(expect).enumerate() {
        assert!(result.contains(want), "call {i}: {result}");
        assert_eq!(result.contains("\"error\""), i != 7, "call {i}: {result}");
    }
    let vale = after.character("vale").unwrap();
    assert_eq!(vale.level, 3);
    assert_eq!(
        vale.choices["pact-of-the-tome"],
        ["Guidance", "Mending", "Light"]
    );
    assert_eq!(after.character("vesna"), before.character("vesna"));
}
