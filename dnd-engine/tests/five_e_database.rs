//! The 5e-database loader: every record of the real SRD files (when the reference folder is
//! there; without it those tests skip with a printed reason, or fail on CI), a fixture with a
//! malformed record, and inputs that must give errors, never panics.

use std::path::PathBuf;

use dnd_engine::rules::{Ability, ChallengeRating, Condition, DamageDice, DamageType, Skill};
use dnd_engine::srd::{
    ActionUsage, AttackKind, FiveEDatabase, FiveEDatabaseError, Monster, MonsterAction,
    MultiattackStep, OnSave, School, Size, load_dir, parse_monsters, parse_spells,
};
use proptest::prelude::*;

#[path = "support/environment.rs"]
mod environment;

fn reference_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/5e-database-2014"
    ))
}

/// The real files, or `None` when the reference folder is absent: then the test that asked
/// skips with the reason printed, or fails on CI, which must have it (`support/environment.rs`).
fn real() -> Option<FiveEDatabase> {
    let dir = reference_dir();
    if !dir.is_dir() {
        environment::missing(&format!(
            "{} is absent: the 5e-database reference files live beside the repository, not in \
             it; put the 2014 SRD JSON files of the 5e-database project there",
            dir.display()
        ));
        return None;
    }
    match load_dir(&dir) {
        Ok(db) => Some(db),
        Err(error) => panic!("the reference folder is there but did not load: {error}"),
    }
}

fn monster<'a>(db: &'a FiveEDatabase, name: &str) -> &'a Monster {
    db.monsters
        .loaded
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{name} did not load"))
}

fn action<'a>(m: &'a Monster, name: &str) -> &'a MonsterAction {
    m.actions
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("{} has no action {name}", m.name))
}

#[test]
fn every_real_record_loads() {
    let Some(db) = real() else { return };
    let failures: Vec<String> = db
        .failures()
        .map(|(file, f)| format!("{file}: {f}"))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(db.monsters.loaded.len(), 334);
    assert_eq!(db.spells.loaded.len(), 319);
    assert!(db.is_complete());
}

#[test]
fn goblin() {
    let Some(db) = real() else { return };
    let goblin = monster(&db, "Goblin");
    assert_eq!(goblin.slug, "goblin");
    assert_eq!(goblin.size, Size::Small);
    assert_eq!(goblin.kind, "humanoid (goblinoid)");
    assert_eq!(goblin.armor_class, 15);
    assert_eq!(goblin.armor_note.as_deref(), Some("leather armor, shield"));
    assert_eq!(goblin.hit_points, 7);
    assert_eq!(goblin.hit_dice, "2d6");
    assert_eq!(goblin.speed.walk, 30);
    assert_eq!(goblin.abilities.dexterity, 14);
    assert_eq!(goblin.skills.get(&Skill::Stealth), Some(&6));
    assert_eq!(goblin.senses, "darkvision 60 ft.");
    assert_eq!(goblin.passive_perception, 9);
    assert_eq!(
        goblin.challenge_rating,
        ChallengeRating::parse("1/4").unwrap()
    );
    assert_eq!(goblin.xp, 50);
    assert!(goblin.traits.iter().any(|t| t.name == "Nimble Escape"));

    let scimitar = action(goblin, "Scimitar");
    let attack = scimitar.attack.as_ref().expect("an attack");
    assert_eq!(attack.kind, AttackKind::MeleeWeapon);
    assert_eq!(attack.to_hit, 4);
    assert_eq!(attack.reach, Some(5));
    assert_eq!(attack.range, None);
    assert_eq!(
        scimitar.damage,
        vec![DamageDice::new(1, 6, 2, DamageType::Slashing)]
    );
    let shortbow = action(goblin, "Shortbow")
        .attack
        .as_ref()
        .expect("an attack");
    assert_eq!(shortbow.kind, AttackKind::RangedWeapon);
    assert_eq!(shortbow.range, Some((80, 320)));
    assert_eq!(shortbow.reach, None);
}

#[test]
fn adult_red_dragon() {
    let Some(db) = real() else { return };
    let dragon = monster(&db, "Adult Red Dragon");
    assert_eq!(dragon.armor_note, None, "natural armor has no note");
    assert_eq!(dragon.speed.fly, 80);
    assert!(dragon.defenses.immunities.contains(DamageType::Fire));
    assert_eq!(dragon.saving_throws.get(&Ability::Dexterity), Some(&6));
    assert!(
        dragon
            .traits
            .iter()
            .any(|t| t.name == "Legendary Resistance (3/Day)")
    );
    let multiattack = action(dragon, "Multiattack");
    let step = |action: &str, count| MultiattackStep {
        action: action.into(),
        count,
    };
    assert_eq!(
        multiattack.multiattack,
        vec![vec![
            step("Frightful Presence", 1),
            step("Bite", 1),
            step("Claw", 2)
        ]]
    );
    let breath = action(dragon, "Fire Breath");
    assert_eq!(breath.usage, Some(ActionUsage::Recharge { min: 5 }));
    let save = breath.save.expect("a save");
    assert_eq!((save.ability, save.dc), (Ability::Dexterity, 21));
    // The file says "none"; the description says half as much damage on a success.
    assert_eq!(save.on_success, OnSave::Half);
    assert_eq!(
        breath.damage,
        vec![DamageDice::new(18, 6, 0, DamageType::Fire)]
    );

    let names: Vec<(&str, Option<u8>)> = dragon
        .legendary_actions
        .iter()
        .map(|a| (a.name.as_str(), a.cost))
        .collect();
    assert_eq!(
        names,
        [
            ("Detect", Some(1)),
            ("Tail Attack", Some(1)),
            ("Wing Attack", Some(2))
        ]
    );
    let wing = &dragon.legendary_actions[2];
    assert_eq!(wing.save.map(|s| s.dc), Some(22));
    assert_eq!(
        wing.damage,
        vec![DamageDice::new(2, 6, 8, DamageType::Bludgeoning)]
    );
}

#[test]
fn damage_choices_sub_effects_and_multiattack_options() {
    let Some(db) = real() else { return };
    // A choice of element added to a hit.
    let scimitar = action(monster(&db, "Djinni"), "Scimitar");
    assert_eq!(
        scimitar.damage,
        vec![DamageDice::new(2, 6, 5, DamageType::Slashing)]
    );
    assert_eq!(
        scimitar.damage_options,
        vec![
            DamageDice::new(1, 6, 0, DamageType::Lightning),
            DamageDice::new(1, 6, 0, DamageType::Thunder)
        ]
    );
    // A versatile weapon.
    let spear = action(monster(&db, "Gnoll"), "Spear");
    // The first option is the usual damage.
    assert_eq!(
        spear.damage,
        vec![DamageDice::new(1, 6, 2, DamageType::Piercing)]
    );
    assert_eq!(
        spear.damage_options,
        vec![
            DamageDice::new(1, 6, 2, DamageType::Piercing),
            DamageDice::new(1, 8, 2, DamageType::Piercing)
        ]
    );
    let attack = spear.attack.as_ref().expect("an attack");
    assert_eq!(attack.kind, AttackKind::MeleeOrRangedWeapon);
    assert_eq!((attack.reach, attack.range), (Some(5), Some((20, 60))));
    // A choice of breath weapons.
    let breath = action(monster(&db, "Adult Brass Dragon"), "Breath Weapons");
    assert_eq!(breath.save.map(|s| s.ability), Some(Ability::Dexterity));
    assert_eq!(
        breath.damage,
        vec![DamageDice::new(13, 6, 0, DamageType::Fire)]
    );
    assert_eq!(breath.damage_options, breath.damage);
    // A damage entry with its own save.
    let shortsword = action(monster(&db, "Assassin"), "Shortsword");
    assert_eq!(shortsword.damage.len(), 2);
    assert_eq!(
        shortsword.save.map(|s| (s.ability, s.dc, s.on_success)),
        Some((Ability::Constitution, 15, OnSave::Half))
    );
    // Multiattack as a choice of ways.
    let captain = action(monster(&db, "Bandit Captain"), "Multiattack");
    assert_eq!(captain.multiattack.len(), 2);
    assert_eq!(captain.multiattack[0].len(), 2);
    assert_eq!(captain.multiattack[1][0].action, "Dagger");
    assert_eq!(captain.multiattack[1][0].count, 2);
    // Counts written as dice or words.
    let fungus = action(monster(&db, "Violet Fungus"), "Multiattack");
    assert_eq!(fungus.multiattack[0][0].count, 2);
    let hydra = action(monster(&db, "Hydra"), "Multiattack");
    assert_eq!(hydra.multiattack[0][0].count, 1);
}

#[test]
fn usages_defenses_and_armor_notes() {
    let Some(db) = real() else { return };
    // A save only the description gives.
    let bite = action(monster(&db, "Wolf"), "Bite");
    assert_eq!(
        bite.save.map(|s| (s.ability, s.dc, s.on_success)),
        Some((Ability::Strength, 11, OnSave::None))
    );
    assert_eq!(monster(&db, "Wolf").languages, "\u{2014}");
    let ink = action(monster(&db, "Octopus"), "Ink Cloud");
    assert_eq!(ink.usage, Some(ActionUsage::AfterRest { short: true }));
    assert_eq!(ink.attack, None);
    let roar = action(monster(&db, "Androsphinx"), "Roar");
    assert_eq!(roar.usage, Some(ActionUsage::PerDay { times: 3 }));
    assert_eq!(
        roar.damage_options,
        vec![DamageDice::new(8, 10, 0, DamageType::Thunder)]
    );

    let werewolf = monster(&db, "Werewolf, Human Form");
    assert_eq!(
        werewolf.conditional_defenses,
        [
            "immunity to bludgeoning, piercing, and slashing from nonmagical weapons that aren't silvered"
        ]
    );
    assert!(werewolf.defenses.immunities.is_empty());
    // Read into the layer the rules apply against nonmagical attacks.
    for kind in [
        DamageType::Bludgeoning,
        DamageType::Piercing,
        DamageType::Slashing,
    ] {
        assert!(werewolf.defenses.nonmagical_immunities.contains(kind));
    }
    assert!(werewolf.defenses.nonmagical_resistances.is_empty());
    let balor = monster(&db, "Balor");
    assert!(balor.defenses.resistances.contains(DamageType::Cold));
    assert!(
        balor
            .conditional_defenses
            .contains(&"bludgeoning, piercing, and slashing from nonmagical weapons".to_owned())
    );
    assert!(
        balor
            .defenses
            .nonmagical_resistances
            .contains(DamageType::Slashing)
    );
    let archmage = monster(&db, "Archmage");
    assert!(
        archmage
            .conditional_defenses
            .contains(&"damage from spells".to_owned())
    );
    let golem = monster(&db, "Iron Golem");
    assert!(golem.defenses.immunities.contains(DamageType::Fire));
    assert!(golem.condition_immunities.contains(&Condition::Charmed));

    assert_eq!(
        monster(&db, "Mage").armor_note.as_deref(),
        Some("15 with mage armor")
    );
    assert_eq!(
        monster(&db, "Ankheg").armor_note.as_deref(),
        Some("11 while prone")
    );
    assert_eq!(
        monster(&db, "Skeleton").armor_note.as_deref(),
        Some("armor scraps")
    );
}

/// The save a spell's effects force first.
fn save_of(spell: &dnd_engine::srd::Spell) -> dnd_engine::srd::SpellSave {
    match spell.first_roll() {
        Some(dnd_engine::srd::FirstRoll::Save(save)) => save,
        other => panic!("{}: a save, not {other:?}", spell.name),
    }
}

#[test]
fn spells() {
    let Some(db) = real() else { return };
    let spell = |name: &str| {
        db.spells
            .loaded
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name} did not load"))
    };
    let fireball = spell("Fireball");
    assert_eq!((fireball.level, fireball.school), (3, School::Evocation));
    assert_eq!(fireball.range, dnd_engine::srd::SpellRange::Feet(150));
    assert_eq!(fireball.reach(), dnd_engine::srd::SpellReach::Within(170));
    // "The target gains no benefit from cover for this saving throw."
    let flame = save_of(spell("Sacred Flame"));
    assert!(flame.ignores_cover && !save_of(spell("Fireball")).ignores_cover);
    assert_eq!(
        spell("Sending").range,
        dnd_engine::srd::SpellRange::Unlimited
    );
    assert!(fireball.components.verbal && fireball.components.somatic);
    assert!(fireball.components.material.is_some());
    assert_eq!(fireball.classes, ["sorcerer", "wizard"]);
    // What it does comes from its effects (`five_e_database_effects.rs` has the details).
    let at = |slot| fireball.damage_dice(slot, 5, 3).map(|d| d.to_string());
    assert_eq!(at(3).as_deref(), Some("8d6 fire"));
    assert_eq!(at(9).as_deref(), Some("14d6 fire"));
    let save = save_of(fireball);
    assert_eq!(
        (save.ability, save.on_success),
        (Ability::Dexterity, OnSave::Half)
    );
    let area = fireball.area.as_ref().expect("an area");
    assert_eq!((area.shape.as_str(), area.size), ("sphere", 20));
    assert!(fireball.higher_levels.is_some());

    let bolt = spell("Fire Bolt");
    assert_eq!(bolt.attack_kind(), Some(AttackKind::RangedSpell));
    assert_eq!(
        bolt.damage_dice(0, 5, 3).map(|d| d.to_string()).as_deref(),
        Some("2d10 fire")
    );

    // Every spell's first dice, at its own level, are dice the dice engine reads.
    for spell in &db.spells.loaded {
        if let Some(dice) = spell.damage_dice(spell.level, 5, 3) {
            assert!(
                dnd_engine::dice::DiceExpr::parse(&dice.dice_text()).is_ok(),
                "{}: {dice}",
                spell.name
            );
        }
    }
}

#[test]
fn the_srd_made_from_the_files_looks_up_by_name() {
    let Some(db) = real() else { return };
    let srd = db.into_srd();
    assert_eq!(
        srd.monster("adult red dragon").map(|m| m.hit_points),
        Ok(256)
    );
    assert_eq!(srd.spell("FIREBALL").map(|s| s.level), Ok(3));
    let miss = srd.monster("goblim").expect_err("no such monster");
    assert!(miss.suggestions.iter().any(|s| s == "Goblin"), "{miss}");
}

const FIXTURE: &str = r#"[
  {"index": "test-wolf", "name": "Test Wolf", "size": "Medium", "type": "beast",
   "alignment": "unaligned", "armor_class": [{"type": "natural", "value": 13}],
   "hit_points": 11, "hit_dice": "2d8", "speed": {"walk": "40 ft."},
   "strength": 12, "dexterity": 15, "constitution": 12, "intelligence": 3, "wisdom": 12,
   "charisma": 6,
   "proficiencies": [{"value": 3, "proficiency": {"index": "skill-perception", "name": "Skill: Perception"}}],
   "damage_vulnerabilities": [], "damage_resistances": ["cold", "piercing from magic weapons"],
   "damage_immunities": [], "condition_immunities": [{"index": "prone", "name": "Prone"}],
   "senses": {"passive_perception": 13}, "languages": "", "challenge_rating": 0.25,
   "some_future_field": {"ignored": true},
   "actions": [{"name": "Bite", "attack_bonus": 4,
     "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 7 (2d4 + 2) piercing damage.",
     "damage": [{"damage_type": {"index": "piercing"}, "damage_dice": "2d4 + 2 + 1d6"}]}]},
  {"index": "bad-ogre", "name": "Bad Ogre", "size": "Large", "type": "giant",
   "alignment": "chaotic evil", "armor_class": [{"type": "armor", "value": 11}],
   "hit_points": 59, "hit_dice": "7d10", "speed": {"walk": "40 ft."},
   "strength": "strong", "dexterity": 8, "constitution": 16, "intelligence": 5, "wisdom": 7,
   "charisma": 7, "challenge_rating": 2},
  {"name": "Test Mote", "size": "Tiny", "type": "elemental", "armor_class": 12,
   "hit_points": 1, "hit_dice": "1d4", "strength": 1, "dexterity": 14, "constitution": 10,
   "intelligence": 1, "wisdom": 10, "charisma": 1, "challenge_rating": 0,
   "actions": [{"name": "Flare", "desc": "Each creature within 5 feet must make a DC 10 Dexterity saving throw.",
     "dc": {"dc_type": {"index": "dex"}, "dc_value": 10, "success_type": "none"},
     "usage": {"type": "per day", "times": 1}}]}
]"#;

const SPELL_FIXTURE: &str = r#"[
  {"index": "test-spark", "name": "Test Spark", "level": 0, "school": {"index": "evocation"},
   "casting_time": "1 action", "range": "60 feet", "components": ["V", "S"],
   "duration": "Instantaneous", "concentration": false, "ritual": false,
   "classes": [{"index": "wizard", "name": "Wizard"}], "attack_type": "ranged",
   "damage": {"damage_type": {"index": "lightning"},
              "damage_at_character_level": {"1": "1d8", "5": "2d8"}},
   "desc": ["A spark.", "It hurts."]},
  {"index": "bad-spell", "name": "Bad Spell", "level": 12, "school": {"index": "evocation"},
   "casting_time": "1 action", "range": "Self", "components": ["V"],
   "duration": "Instantaneous", "concentration": false, "desc": ["Nothing."]}
]"#;

#[test]
fn a_malformed_record_is_reported_and_the_others_load() {
    let report = parse_monsters(FIXTURE).expect("an array");
    let names: Vec<&str> = report.loaded.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Test Wolf", "Test Mote"]);
    assert_eq!(report.failures.len(), 1);
    let failure = &report.failures[0];
    assert_eq!(failure.index, 1);
    assert_eq!(failure.name.as_deref(), Some("Bad Ogre"));
    assert!(failure.message.contains("`strength`"), "{failure}");
    assert!(failure.message.contains("whole number"), "{failure}");
    assert!(failure.to_string().contains("Bad Ogre"), "{failure}");

    let wolf = &report.loaded[0];
    assert_eq!(wolf.slug, "test-wolf");
    assert_eq!(wolf.skills.get(&Skill::Perception), Some(&3));
    assert!(wolf.defenses.resistances.contains(DamageType::Cold));
    assert_eq!(wolf.conditional_defenses, ["piercing from magic weapons"]);
    assert_eq!(wolf.condition_immunities, [Condition::Prone]);
    assert_eq!(
        wolf.actions[0].damage,
        vec![
            DamageDice::new(2, 4, 2, DamageType::Piercing),
            DamageDice::new(1, 6, 0, DamageType::Piercing)
        ]
    );
    let mote = &report.loaded[1];
    assert_eq!(mote.slug, "test-mote");
    assert_eq!(mote.armor_class, 12);
    assert_eq!(mote.passive_perception, 10);
    assert_eq!(mote.xp, 10);
    assert_eq!(
        mote.actions[0].usage,
        Some(ActionUsage::PerDay { times: 1 })
    );
    assert_eq!(mote.actions[0].save.map(|s| s.dc), Some(10));

    let spells = parse_spells(SPELL_FIXTURE).expect("an array");
    assert_eq!(spells.loaded.len(), 1);
    assert_eq!(spells.loaded[0].description, "A spark.\n\nIt hurts.");
    assert_eq!(spells.failures.len(), 1);
    assert_eq!(spells.failures[0].index, 1);
    assert_eq!(spells.failures[0].name.as_deref(), Some("Bad Spell"));
    assert!(
        spells.failures[0].message.contains("`level`"),
        "{}",
        spells.failures[0]
    );
}

#[test]
fn a_top_level_that_is_not_an_array_is_an_error() {
    let error = parse_monsters(r#"{"results": []}"#).expect_err("not an array");
    assert!(matches!(
        error,
        FiveEDatabaseError::NotAnArray { found: "an object" }
    ));
    assert!(
        error.to_string().contains("must be a JSON array"),
        "{error}"
    );
    for garbage in ["", "   ", "not json", "[1, 2", "\u{0}\u{ffff}", "]["] {
        assert!(
            matches!(parse_spells(garbage), Err(FiveEDatabaseError::Json(_))),
            "{garbage:?}"
        );
    }
    // An array of things that are not records: each is a failure, not a panic.
    let report = parse_monsters(r#"[1, "two", null, [], {}]"#).expect("an array");
    assert_eq!(report.failures.len(), 5);
    assert!(report.loaded.is_empty());
}

#[test]
fn a_missing_folder_or_file_names_what_is_expected() {
    let error = load_dir(&reference_dir().join("no-such-folder")).expect_err("no folder");
    assert!(
        error.to_string().contains("5e-SRD-Monsters.json"),
        "{error}"
    );
    let empty = std::env::temp_dir().join(format!("five-e-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("a temporary folder");
    let error = load_dir(&empty).expect_err("no files");
    let _ = std::fs::remove_dir(&empty);
    match &error {
        FiveEDatabaseError::MissingFile { path, expected } => {
            assert_eq!(*expected, "5e-SRD-Monsters.json");
            assert!(path.ends_with("5e-SRD-Monsters.json"));
        }
        other => panic!("expected MissingFile, got {other:?}"),
    }
}

/// One record of a real file, by its `index`.
fn real_record(file: &str, index: &str) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(reference_dir().join(file)).ok()?;
    let records: Vec<serde_json::Value> = serde_json::from_str(&text).ok()?;
    records
        .into_iter()
        .find(|r| r.get("index").and_then(|i| i.as_str()) == Some(index))
}

/// Every JSON pointer inside a value.
fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                pointers(inner, format!("{at}/{key}"), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                pointers(inner, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

#[test]
fn every_truncated_prefix_of_a_record_is_an_error_not_a_panic() {
    let mut texts = vec![FIXTURE.to_owned(), SPELL_FIXTURE.to_owned()];
    if real().is_some() {
        for (file, index) in [
            ("5e-SRD-Monsters.json", "adult-brass-dragon"),
            ("5e-SRD-Spells.json", "cure-wounds"),
        ] {
            let record = real_record(file, index).expect("the record");
            texts.push(format!("[{record:#}]"));
        }
    }
    for text in &texts {
        for end in 0..text.len() {
            if let Some(prefix) = text.get(..end) {
                assert!(parse_monsters(prefix).is_err(), "{prefix:?} parsed");
                assert!(parse_spells(prefix).is_err(), "{prefix:?} parsed");
            }
        }
    }
}

#[test]
fn every_field_of_a_real_record_replaced_or_removed_is_handled() {
    if real().is_none() {
        return;
    }
    let wrong = [
        serde_json::Value::Null,
        serde_json::json!("strong"),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(1e300),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!(true),
    ];
    for (file, index) in [
        ("5e-SRD-Monsters.json", "adult-brass-dragon"),
        ("5e-SRD-Monsters.json", "bandit-captain"),
        ("5e-SRD-Monsters.json", "djinni"),
        ("5e-SRD-Spells.json", "fireball"),
        ("5e-SRD-Spells.json", "cure-wounds"),
    ] {
        let record = real_record(file, index).expect("the record");
        let mut paths = Vec::new();
        pointers(&record, String::new(), &mut paths);
        for path in paths.iter().filter(|p| !p.is_empty()) {
            for value in &wrong {
                let mut changed = record.clone();
                if let Some(slot) = changed.pointer_mut(path) {
                    *slot = value.clone();
                }
                let text = serde_json::Value::from(vec![changed]).to_string();
                let report = parse_monsters(&text).expect("an array");
                let spells = parse_spells(&text).expect("an array");
                // A failure names the record it came from.
                for failure in report.failures.iter().chain(&spells.failures) {
                    assert_eq!(failure.index, 0);
                    assert!(failure.message.starts_with("field `"), "{failure}");
                }
            }
        }
    }
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        "[a-z0-9 +.]{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_owned()),
                    Just("armor_class".to_owned()),
                    Just("damage".to_owned()),
                    Just("damage_dice".to_owned()),
                    Just("actions".to_owned()),
                    Just("usage".to_owned()),
                    Just("dc".to_owned()),
                    Just("from".to_owned()),
                    Just("options".to_owned()),
                    "[a-z_]{1,8}",
                ],
                inner,
                0..6
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn random_records_never_panic(records in prop::collection::vec(json_value(), 0..4)) {
        let text = serde_json::Value::from(records).to_string();
        let _ = parse_monsters(&text);
        let _ = parse_spells(&text);
    }

    #[test]
    fn mutated_real_shapes_never_panic(cut in 0usize..2000, byte in any::<u8>()) {
        let mut bytes = FIXTURE.as_bytes().to_vec();
        if let Some(b) = bytes.get_mut(cut % FIXTURE.len()) {
            *b = byte;
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_monsters(&text);
    }
}
