//! The encounter simulator with the heroes people make: sheets built by the character builder
//! (and read from character files) fight SRD monsters, so "can my party beat this?" is asked of
//! any party.

use serde_json::{Value, json};

use dnd_engine::character::{CharacterChoices, read_character_file};
use dnd_engine::rules::DamageType;
use dnd_engine::simulator::{CharacterConversionError, Combatant, SimAction, simulate};
use dnd_engine::srd::Srd;
use dnd_engine::state::Character;

fn built(choices: Value) -> Character {
    let choices: CharacterChoices = serde_json::from_value(choices).unwrap();
    choices.build(Srd::bundled()).unwrap()
}

fn fighter(level: u8) -> Character {
    built(json!({
        "name": "Brakka", "race": "Half-Orc", "class": "Fighter", "level": level,
        "subclass": "Champion",
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "survival"],
        "features": {"fighter-fighting-style": ["Great Weapon Fighting"]},
        "equipment": {"kit": [{"option": 1}, {"option": 2, "picks": ["Greatsword", "Longsword"]}, {"option": 2}, {"option": 2}]}
    }))
}

fn cleric() -> Character {
    read_character_file(
        include_str!("../../examples/characters/dwarf_cleric.json"),
        Srd::bundled(),
    )
    .unwrap()
}

fn rogue() -> Character {
    built(json!({
        "name": "Wren Ashdown", "race": "Lightfoot Halfling", "class": "Rogue", "level": 3,
        "subclass": "Thief",
        "background": {"name": "Criminal", "skills": ["deception", "stealth"]},
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 15, "con": 14, "int": 12, "wis": 13, "cha": 10}},
        "skills": ["acrobatics", "investigation", "perception", "sleight_of_hand"],
        "features": {"rogue-expertise-1": ["Perception", "Stealth"]},
        "equipment": {"kit": [{"option": 2}, {"option": 1}, {"option": 1}]}
    }))
}

fn party(level: u8) -> Vec<Combatant> {
    [fighter(level), cleric(), rogue()]
        .iter()
        .map(|c| Combatant::from_character(c, Srd::bundled()).unwrap())
        .collect()
}

fn monsters(name: &str, n: usize) -> Vec<Combatant> {
    let template = Srd::bundled().monster(name).unwrap();
    (0..n)
        .map(|_| Combatant::from_monster(template).unwrap())
        .collect()
}

#[test]
fn a_built_sheet_becomes_a_combatant_with_its_numbers() {
    let sheet = fighter(5);
    let c = Combatant::from_character(&sheet, Srd::bundled()).unwrap();
    assert_eq!(c.hit_points, sheet.hp.max);
    assert_eq!(c.armor_class, sheet.armor_class);
    assert_eq!(c.speed, 30);
    // Extra Attack at 5th level: the greatsword twice; once at 3rd.
    assert_eq!(c.actions.len(), 2);
    let SimAction::Attack { name, to_hit, .. } = &c.actions[0] else {
        panic!("{:?}", c.actions[0]);
    };
    assert_eq!(name, "Greatsword");
    // Strength 17 (15 and the half-orc's +2): +3; proficiency at 5th level: +3.
    assert_eq!(*to_hit, 3 + 3);
    let third = Combatant::from_character(&fighter(3), Srd::bundled()).unwrap();
    assert_eq!(third.actions.len(), 1);
    // The race's resistances fight too (the hill dwarf's poison), and its speed.
    let dwarf = Combatant::from_character(&cleric(), Srd::bundled()).unwrap();
    assert!(dwarf.defenses.resistances.contains(DamageType::Poison));
    assert_eq!(dwarf.speed, 25);
}

#[test]
fn a_sheet_without_an_attack_is_refused_by_name() {
    let mut sheet = rogue();
    sheet.attacks = Default::default();
    assert_eq!(
        Combatant::from_character(&sheet, Srd::bundled()),
        Err(CharacterConversionError::NoAttack("Wren Ashdown".into()))
    );
}

#[test]
fn a_built_party_of_three_classes_against_srd_monsters() {
    // Fighter, cleric and rogue of 3rd level against four goblins: an easy fight for them.
    let goblins = simulate(&party(3), &monsters("Goblin", 4), 500, 21).unwrap();
    assert!(goblins.party_win_probability > 0.9, "{goblins:?}");
    assert_eq!(goblins.characters.len(), 3);
    assert_eq!(goblins.characters[0].name, "Brakka");
    // Against two ogres they are outmatched more often; a 5th-level fighter (Extra Attack)
    // helps.
    let ogres = simulate(&party(3), &monsters("Ogre", 2), 500, 21).unwrap();
    let stronger = simulate(&party(5), &monsters("Ogre", 2), 500, 21).unwrap();
    assert!(
        ogres.party_win_probability < goblins.party_win_probability,
        "{ogres:?}"
    );
    assert!(
        stronger.party_win_probability > ogres.party_win_probability,
        "{} vs {}",
        stronger.party_win_probability,
        ogres.party_win_probability
    );
}
