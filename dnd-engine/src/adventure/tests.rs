use std::collections::{BTreeSet, VecDeque};

use rand::RngExt;
use serde_json::{Value, json};

use super::*;
use crate::dice::seeded_rng;
use crate::rules::{Ability, CasterProgression, Proficiency, Skill, SpellSlots};
use crate::srd::Srd;

fn glacier() -> Adventure {
    Adventure::from_json(Adventure::built_in_json(), "wailing_glacier.json")
        .unwrap_or_else(|e| panic!("the built-in adventure must validate:\n{e}"))
}

#[test]
fn five_rooms_all_reachable_from_the_start() {
    let adventure = glacier();
    let ids: Vec<&str> = adventure.rooms.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "ice-chasm",
            "hall-of-echoes",
            "wisp-mere",
            "throne-of-rime",
            "glacier-heart"
        ]
    );
    assert_eq!(adventure.start, "ice-chasm");
    let mut seen = BTreeSet::from([adventure.start.as_str()]);
    let mut queue = VecDeque::from([adventure.start.as_str()]);
    while let Some(id) = queue.pop_front() {
        for exit in &adventure.room(id).unwrap().exits {
            if seen.insert(exit.to.as_str()) {
                queue.push_back(&exit.to);
            }
        }
    }
    assert_eq!(seen.len(), 5, "reached {seen:?}");
    for room in &adventure.rooms {
        let sentences = room.description.matches(". ").count() + 1;
        assert!((3..=5).contains(&sentences), "{}: {sentences}", room.id);
        assert!(!room.short_description.contains(". "), "{}", room.id);
    }
}

#[test]
fn the_rooms_hold_what_the_story_needs() {
    let adventure = glacier();
    let srd = Srd::bundled();
    let chasm = adventure.room("ice-chasm").unwrap();
    let harpy = &chasm.monsters[0];
    assert_eq!(srd.monster(&harpy.srd).unwrap().slug, "harpy");
    assert_eq!(harpy.name.as_deref(), Some("Frost Harpy"));
    let climber = chasm.features.iter().find(|f| f.hidden).unwrap();
    assert_eq!(climber.find_dc, Some(12));
    assert!(!climber.loot.is_empty());

    let hall = adventure.room("hall-of-echoes").unwrap();
    let spirits: Vec<_> = adventure
        .npcs
        .iter()
        .filter(|n| n.room == hall.id)
        .collect();
    assert!(spirits.len() >= 2);
    for spirit in spirits {
        assert!((2..=3).contains(&spirit.goal_steps.len()), "{}", spirit.id);
        assert!(matches!(
            spirit.disposition,
            Disposition::Indifferent | Disposition::Unfriendly
        ));
        for step in &spirit.goal_steps {
            let flag = step.trigger_flag.as_ref().unwrap();
            assert_eq!(adventure.flags.get(flag), Some(&json!(false)), "{flag}");
        }
    }
    let dc14 = hall.exits.iter().filter_map(|e| e.find_dc);
    let dc14 = dc14.chain(hall.features.iter().filter_map(|f| f.find_dc));
    assert!(dc14.into_iter().any(|dc| dc == 14));

    let mere = adventure.room("wisp-mere").unwrap();
    assert_eq!(
        srd.monster(&mere.monsters[0].srd).unwrap().slug,
        "will-o-wisp"
    );
    let thin_ice = mere.features.iter().find(|f| f.trap.is_some()).unwrap();
    let trap = thin_ice.trap.as_ref().unwrap();
    assert!(thin_ice.hidden);
    assert_eq!(thin_ice.find_dc, Some(13));
    assert_eq!((trap.save, trap.dc), (Ability::Dexterity, 13));
    assert_eq!(trap.damage.to_string(), "2d6 cold");

    let throne = adventure.room("throne-of-rime").unwrap();
    let jarl = srd.monster(&throne.monsters[0].srd).unwrap();
    assert_eq!(jarl.slug, "specter");
    assert!(jarl.challenge_rating.as_f64() <= 1.0);
    let door = throne.exits.iter().find(|e| e.locked).unwrap();
    assert_eq!(door.to, "glacier-heart");
    assert!(door.unlock_dc.is_some());
    let key = door.key.as_deref().unwrap();
    assert!(
        hall.features
            .iter()
            .any(|f| f.loot.iter().any(|i| i.name == key))
    );

    let heart = adventure.room("glacier-heart").unwrap();
    let treasure: Vec<&str> = heart
        .loot
        .iter()
        .chain(heart.features.iter().flat_map(|f| &f.loot))
        .map(|i| i.name.as_str())
        .collect();
    assert!(treasure.contains(&"Potion of Healing"));
    assert!(treasure.contains(&"Gold pieces"));
    assert!(heart.features.iter().any(|f| f.hidden), "the twist");

    let hidden_by_perception = adventure
        .rooms
        .iter()
        .flat_map(|r| &r.features)
        .filter(|f| f.hidden && f.find_dc.is_some())
        .count();
    assert!(hidden_by_perception >= 3);
    let with_loot = adventure
        .rooms
        .iter()
        .filter(|r| !r.loot.is_empty() || r.features.iter().any(|f| !f.loot.is_empty()))
        .count();
    assert!(with_loot >= 4);
}

#[test]
fn every_monster_and_prepared_spell_is_in_the_srd() {
    let adventure = glacier();
    let srd = Srd::bundled();
    for monster in adventure.rooms.iter().flat_map(|r| &r.monsters) {
        srd.monster(&monster.srd).unwrap();
    }
    for character in &adventure.characters {
        for spell in character.spells.iter() {
            let found = srd
                .spell(spell)
                .unwrap_or_else(|e| panic!("{}: {e}", character.id));
            assert!(found.classes.contains(&character.class), "{spell}");
            assert!(found.level <= 2, "{spell} is too high for level 3");
        }
    }
}

#[test]
fn the_pregenerated_sheets_follow_the_rules() {
    let adventure = glacier();
    assert_eq!(
        adventure.character_ids(),
        ["kraven", "isolde", "hedda", "wren"]
    );
    // (class, hit die, saves, expected AC, racial HP per level)
    let expected = [
        (
            "fighter",
            10,
            [Ability::Strength, Ability::Constitution],
            17,
            0,
        ),
        ("wizard", 6, [Ability::Intelligence, Ability::Wisdom], 13, 0),
        ("cleric", 8, [Ability::Wisdom, Ability::Charisma], 18, 1),
        (
            "rogue",
            8,
            [Ability::Dexterity, Ability::Intelligence],
            14,
            0,
        ),
    ];
    for (c, (class, die, saves, ac, racial)) in adventure.characters.iter().zip(expected) {
        assert_eq!(c.class, class);
        assert_eq!((c.level, c.proficiency_bonus()), (3, 2));
        assert_eq!((c.hit_dice.sides, c.hit_dice.total), (die, 3));
        assert_eq!(c.save_proficiencies, saves, "{}", c.id);
        assert_eq!(c.armor_class, ac, "{}", c.id);
        let con = c.abilities.modifier(Ability::Constitution);
        let average = i32::from(die) / 2 + 1;
        let hp = i32::from(die) + 2 * average + 3 * con + 3 * racial;
        assert_eq!(c.hp.max as i32, hp, "{}", c.id);
        assert_eq!(c.hp.current, c.hp.max);
        assert_eq!(
            c.spell_slots,
            SpellSlots::for_class(CasterProgression::of_class(&c.class), 3)
        );
        assert_eq!(c.spellcasting_ability.is_some(), !c.spells.is_empty());
        let total: i32 = [8, 10, 12, 13, 14, 15].iter().sum();
        let scores: i32 = Ability::ALL.iter().map(|&a| c.abilities.score(a)).sum();
        let bonus = if c.race == "human" { 6 } else { 3 };
        assert_eq!(scores, total + bonus, "{}: standard array + race", c.id);
        assert!(!c.attacks.is_empty() && !c.inventory.is_empty() && c.gold > 0);
    }
    let kraven = &adventure.characters[0];
    let greatsword = &kraven.attacks[0];
    assert_eq!(kraven.attack_bonus(greatsword), 5);
    assert_eq!(
        kraven.attack_damage(greatsword).to_string(),
        "2d6+3 slashing"
    );
    assert!(
        kraven
            .inventory
            .iter()
            .any(|i| i.note.contains("Second Wind"))
    );
    let isolde = &adventure.characters[1];
    assert_eq!(isolde.spellcasting(), Some((5, 13)));
    assert_eq!(
        isolde.attack_damage(&isolde.attacks[0]).to_string(),
        "1d10 fire"
    );
    let wren = &adventure.characters[3];
    let expertise = wren
        .skills
        .values()
        .filter(|p| **p == Proficiency::Expertise)
        .count();
    assert_eq!(expertise, 2);
    assert_eq!(wren.skill_modifier(Skill::Stealth), 7);
    assert_eq!(wren.passive_perception(), 15);
}

/// A small valid adventure to break in tests.
fn base() -> Value {
    json!({
        "title": "Test",
        "start": "a",
        "rooms": [
            {"id": "a", "title": "A", "short_description": "a", "description": "A.",
             "exits": [{"direction": "north", "to": "b"}],
             "features": [{"id": "f", "name": "F", "description": "f", "hidden": true,
                           "find_dc": 10}],
             "monsters": [{"id": "wolf", "srd": "Wolf"}]},
            {"id": "b", "title": "B", "short_description": "b", "description": "B.",
             "exits": [{"direction": "south", "to": "a"}]}
        ],
        "npcs": [{"id": "n", "name": "N", "description": "n", "disposition": "friendly",
                  "room": "a"}],
        "characters": [{"id": "hero", "name": "Hero", "class": "fighter", "level": 1,
            "abilities": {"str": 15, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 8},
            "skills": {"athletics": "proficient"},
            "hp": {"current": 11, "max": 11}, "armor_class": 16, "speed": 30,
            "hit_dice": {"sides": 10, "total": 1, "spent": 0}}]
    })
}

fn problems(value: &Value) -> Vec<String> {
    match Adventure::from_json(&value.to_string(), "test.json") {
        Ok(_) => Vec::new(),
        Err(e) => {
            assert_eq!(e.source_name, "test.json");
            assert_eq!(e.to_string().lines().count(), e.problems.len());
            e.to_string().lines().map(str::to_owned).collect()
        }
    }
}

fn one_problem(value: &Value) -> String {
    let found = problems(value);
    assert_eq!(found.len(), 1, "{found:#?}");
    found.into_iter().next().unwrap_or_default()
}

#[test]
fn the_base_file_is_valid() {
    assert_eq!(problems(&base()), Vec::<String>::new());
}

#[test]
fn syntax_errors_give_line_and_column() {
    let error = Adventure::from_json("{\n  \"title\": \"x\",\n  oops\n}", "broken.json")
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("broken.json: invalid JSON: "), "{error}");
    assert!(error.contains("line 3 column 3"), "{error}");
    let error = Adventure::from_json("[1, 2]", "list.json").unwrap_err();
    assert!(error.to_string().contains("a JSON object"), "{error}");
}

#[test]
fn duplicate_ids_are_named() {
    let mut v = base();
    v["rooms"][1]["id"] = json!("a");
    v["rooms"][0]["exits"][0]["to"] = json!("a");
    assert_eq!(
        one_problem(&v),
        "test.json: rooms[a].id: the room id \"a\" is used 2 times; each must be unique"
    );

    let mut v = base();
    let feature = v["rooms"][0]["features"][0].clone();
    v["rooms"][0]["features"]
        .as_array_mut()
        .unwrap()
        .push(feature);
    assert!(one_problem(&v).contains("rooms[a].features[f].id: the feature id \"f\""));

    let mut v = base();
    v["rooms"][1]["monsters"] = json!([{"id": "wolf", "srd": "Wolf"}]);
    assert!(one_problem(&v).contains("monsters[wolf].id: the monster id \"wolf\" is used 2"));

    let mut v = base();
    let npc = v["npcs"][0].clone();
    v["npcs"].as_array_mut().unwrap().push(npc);
    assert!(one_problem(&v).contains("npcs[n].id: the NPC id \"n\""));
}

#[test]
fn an_exit_to_nowhere_lists_the_rooms() {
    let mut v = base();
    v["rooms"][0]["exits"][0]["to"] = json!("c");
    assert_eq!(
        one_problem(&v),
        "test.json: rooms[a].exits[north].to: no room \"c\"; the rooms are: a, b"
    );
}

#[test]
fn an_unknown_monster_suggests_names() {
    let mut v = base();
    v["rooms"][0]["monsters"][0]["srd"] = json!("Wolff");
    let problem = one_problem(&v);
    assert!(
        problem.starts_with("test.json: rooms[a].monsters[wolf].srd: no monster named \"Wolff\"")
    );
    assert!(problem.contains("did you mean Wolf"), "{problem}");
}

#[test]
fn dcs_must_be_between_1_and_30() {
    let mut v = base();
    v["rooms"][0]["features"][0]["find_dc"] = json!(31);
    assert!(one_problem(&v).contains("rooms[a].features[f].find_dc: DC 31 is outside 1..=30"));
    let mut v = base();
    v["rooms"][0]["features"][0]["trap"] =
        json!({"save": "dexterity", "dc": 0, "damage": {"dice": "1d6", "type": "cold"}});
    assert!(one_problem(&v).contains("features[f].trap.dc: DC 0 is outside"));
    let mut v = base();
    v["rooms"][0]["exits"][0]["unlock_dc"] = json!(40);
    assert!(one_problem(&v).contains("exits[north].unlock_dc: DC 40"));
}

#[test]
fn the_start_room_must_exist() {
    let mut v = base();
    v["start"] = json!("z");
    assert_eq!(
        one_problem(&v),
        "test.json: start: no room \"z\"; the rooms are: a, b"
    );
    let mut v = base();
    v.as_object_mut().unwrap().remove("start");
    assert_eq!(
        one_problem(&v),
        "test.json: start: no start room; name the room the party starts in, one of: a, b"
    );
}

#[test]
fn an_npc_must_stand_in_a_room() {
    let mut v = base();
    v["npcs"][0]["room"] = json!("attic");
    assert_eq!(
        one_problem(&v),
        "test.json: npcs[n].room: no room \"attic\"; the rooms are: a, b"
    );
}

#[test]
fn character_sheets_are_checked() {
    let mut v = base();
    v["characters"][0]["level"] = json!(21);
    v["characters"][0]["hit_dice"]["total"] = json!(21);
    assert!(one_problem(&v).contains("characters[hero].level: level 21 is outside 1..=20"));
    let mut v = base();
    v["characters"][0]["hp"] = json!({"current": 0, "max": 0});
    assert!(one_problem(&v).contains("characters[hero].hp: HP 0/0"));
    let mut v = base();
    v["characters"][0]["skills"]["Sleight of Hand"] = json!("proficient");
    let problem = one_problem(&v);
    assert!(
        problem.starts_with(
            "test.json: characters[hero].skills.Sleight of Hand: unknown skill \"Sleight of Hand\"; \
             did you mean sleight_of_hand?"
        ),
        "{problem}"
    );
    assert!(problem.contains("the skills are: acrobatics, animal_handling"));
    let mut v = base();
    v["characters"][0]["spells"] = json!(["Magic Misile"]);
    assert!(one_problem(&v).contains("spells[0]: no spell named \"Magic Misile\"; did you mean"));
}

#[test]
fn every_problem_is_reported_at_once() {
    let mut v = base();
    v["start"] = json!("nowhere");
    v["rooms"][0]["exits"][0]["to"] = json!("void");
    v["rooms"][0]["monsters"][0]["srd"] = json!("Dragonn");
    v["rooms"][0]["features"][0]["find_dc"] = json!(99);
    v["rooms"][1]["exits"][0]["direction"] = json!(7);
    v["rooms"][1]["colour"] = json!("blue");
    v["npcs"][0]["room"] = json!("cellar");
    v["characters"][0]["level"] = json!(0);
    v["characters"][0]["skills"]["sneaking"] = json!("expertise");
    let found = problems(&v);
    let paths = [
        "start:",
        "rooms[a].exits[north].to:",
        "rooms[a].monsters[wolf].srd:",
        "rooms[a].features[f].find_dc:",
        "rooms[b].exits[0]:",
        "rooms[b].colour: unknown field",
        "npcs[n].room:",
        "characters[hero].level:",
        "characters[hero].skills.sneaking:",
    ];
    for path in paths {
        assert!(
            found
                .iter()
                .any(|p| p.starts_with(&format!("test.json: {path}"))),
            "{path} missing from {found:#?}"
        );
    }
    // One more: the hit dice disagree with level 0.
    assert!(found.len() > paths.len(), "{found:#?}");
}

#[test]
fn a_key_must_lie_somewhere() {
    let mut v = base();
    v["rooms"][0]["exits"][0]["locked"] = json!(true);
    v["rooms"][0]["exits"][0]["key"] = json!("Bone Key");
    assert!(one_problem(&v).contains("exits[north].key: the key \"Bone Key\" lies nowhere"));
    // On this side of the door: a key locked behind its own door is unreachable content
    // (`tests/puzzles_reach.rs`).
    v["rooms"][0]["loot"] = json!([{"name": "bone key", "quantity": 1}]);
    assert!(problems(&v).is_empty());
}

#[test]
fn junk_never_panics() {
    let text = Adventure::built_in_json();
    let mut cut = 0;
    while cut < text.len() {
        // A cut that leaves only the trailing newline out is the whole file.
        if text.is_char_boundary(cut) && !text[cut..].trim().is_empty() {
            assert!(Adventure::from_json(&text[..cut], "cut.json").is_err());
        }
        cut += if cut < 600 { 1 } else { 17 };
    }
    for junk in [
        "",
        "null",
        "0",
        "\"x\"",
        "[]",
        "{}",
        "{\"rooms\": 5}",
        "{\"rooms\": [null, 1, \"x\", []]}",
        "{\"rooms\": [{\"id\": 3, \"exits\": {}}], \"characters\": [{\"skills\": 1}]}",
        "{\"title\": \"t\", \"start\": \"a\", \"rooms\": [{\"id\": \"a\", \"title\": \"\", \
         \"short_description\": \"\", \"description\": \"\", \"exits\": [{\"direction\": \
         \"\", \"to\": \"\"}]}], \"characters\": [{\"id\": \"\", \"skills\": {\"\": 1}}]}",
    ] {
        assert!(Adventure::from_json(junk, "junk.json").is_err(), "{junk}");
    }
    let deep = "[".repeat(100_000);
    assert!(Adventure::from_json(&deep, "deep.json").is_err());

    let mut rng = seeded_rng(7);
    let alphabet: Vec<char> = "{}[]\":,0123456789-.eEtrufalsn abcxyz\\\n"
        .chars()
        .collect();
    for _ in 0..2_000 {
        let len = rng.random_range(0..80);
        let junk: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        let _ = Adventure::from_json(&junk, "junk.json");
    }
    // Mutations of the real file: many still parse and reach validation.
    let bytes = text.as_bytes();
    let replacements = b"{}[]\":,0123456789-az ";
    for _ in 0..300 {
        let mut mutated = bytes.to_vec();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..mutated.len());
            if mutated[at].is_ascii() {
                mutated[at] = replacements[rng.random_range(0..replacements.len())];
            }
        }
        if let Ok(mutated) = String::from_utf8(mutated)
            && let Ok(adventure) = Adventure::from_json(&mutated, "mutated.json")
        {
            let _ = adventure.new_game(&[]);
        }
    }
}

#[test]
fn an_adventure_over_the_bound_is_refused_before_it_is_parsed() {
    let huge = format!(
        "{{\"title\": \"{}\"}}",
        "x".repeat(super::ADVENTURE_MAX_BYTES)
    );
    let error = Adventure::from_json(&huge, "huge.json").unwrap_err();
    let text = error.to_string();
    assert!(text.starts_with("huge.json: the adventure is "), "{text}");
    assert!(text.contains("at most 4194304 are read"), "{text}");
    assert_eq!(error.problems.len(), 1);
}

// Every Unix has /dev/zero; elsewhere the test is listed as ignored, with the reason.
#[test]
#[cfg_attr(
    not(unix),
    ignore = "needs /dev/zero, a file that never ends (Unix only)"
)]
fn a_file_that_never_ends_is_refused_at_the_bound() {
    let path = std::path::Path::new("/dev/zero");
    let error = Adventure::load_with_limit(path, 1 << 20).unwrap_err();
    assert!(
        error.to_string().contains("more than 1048576 bytes"),
        "{error}"
    );
}

#[test]
fn the_built_in_adventure_loads_from_a_file_within_the_bound() {
    let dir = std::env::temp_dir().join(format!("dnd-adventure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("glacier.json");
    std::fs::write(&path, Adventure::built_in_json()).unwrap();
    assert!(Adventure::load(&path).is_ok());
    let error = Adventure::load_with_limit(&path, 1_000).unwrap_err();
    assert!(
        error.to_string().contains("more than 1000 bytes"),
        "{error}"
    );
}
