//! The builder's rules, one worked example each, and the pregenerated heroes rebuilt.

use serde_json::json;

use super::*;
use crate::rules::{Ability, AbilityScores, Proficiency, Skill};
use crate::srd::Srd;
use crate::state::Character;

fn choices(value: serde_json::Value) -> CharacterChoices {
    serde_json::from_value(value).unwrap_or_else(|e| panic!("{e}"))
}

fn problems(value: serde_json::Value) -> BuildErrors {
    choices(value).build(Srd::bundled()).unwrap_err()
}

/// The choices that make the four heroes of `wailing_glacier.json`. Their Soldier, Sage and
/// Criminal backgrounds are not in the SRD: they are custom backgrounds of the same skills.
fn pregenerated() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        (
            "kraven",
            json!({
                "name": "Kraven", "race": "Human", "class": "Fighter", "level": 3,
                "subclass": "Champion",
                "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
                "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
                "skills": ["perception", "survival"],
                "features": {"fighter-fighting-style": ["Defense"]},
                "equipment": {"kit": [{"option": 1}, {"option": 2, "picks": ["Greatsword", "Longsword"]}, {"option": 2}, {"option": 2}]}
            }),
        ),
        (
            "isolde",
            json!({
                "name": "Isolde Vane", "race": "High Elf", "class": "Wizard", "level": 3,
                "subclass": "Evocation",
                "background": {"name": "Sage", "skills": ["arcana", "history"]},
                "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 15, "wis": 12, "cha": 10}},
                "skills": ["insight", "investigation"],
                "race_traits": {"high-elf-cantrip": ["Light"]},
                "equipment": {"kit": [{"option": 2}, {"option": 1}, {"option": 1}]},
                "cantrips": ["Fire Bolt", "Ray of Frost", "Mage Hand"],
                "spells": ["Mage Armor", "Magic Missile", "Shield", "Sleep", "Misty Step", "Scorching Ray"]
            }),
        ),
        (
            "hedda",
            json!({
                "name": "Hedda Stonebrow", "race": "Hill Dwarf", "class": "Cleric", "level": 3,
                "subclass": "Life", "background": "Acolyte",
                "scores": {"method": "standard_array", "scores": {"str": 14, "dex": 10, "con": 13, "int": 8, "wis": 15, "cha": 12}},
                "skills": ["medicine", "persuasion"],
                "race_traits": {"tool-proficiency": ["Smith's Tools"]},
                "equipment": {"kit": [{"option": 2}, {"option": 3}, {"option": 1}, {"option": 1},
                    {"option": 1, "picks": ["Amulet"]}, {"option": 1, "picks": ["Emblem"]}, {"option": 1}]},
                "cantrips": ["Sacred Flame", "Guidance", "Spare the Dying"],
                "spells": ["Healing Word", "Guiding Bolt", "Shield of Faith", "Sanctuary", "Aid", "Prayer of Healing"]
            }),
        ),
        (
            "wren",
            json!({
                "name": "Wren Ashdown", "race": "Lightfoot Halfling", "class": "Rogue", "level": 3,
                "subclass": "Thief",
                "background": {"name": "Criminal", "skills": ["deception", "stealth"]},
                "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 15, "con": 14, "int": 12, "wis": 13, "cha": 10}},
                "skills": ["acrobatics", "investigation", "perception", "sleight_of_hand"],
                "features": {"rogue-expertise-1": ["Perception", "Stealth"]},
                "equipment": {"kit": [{"option": 2}, {"option": 1}, {"option": 1}]}
            }),
        ),
    ]
}

fn adventure_sheet(id: &str) -> Character {
    let adventure: serde_json::Value =
        serde_json::from_str(include_str!("../adventure/wailing_glacier.json")).unwrap();
    let mut sheet = adventure["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()
        .clone();
    sheet["location"] = json!("");
    serde_json::from_value(sheet).unwrap()
}

#[test]
fn the_pregenerated_heroes_are_legal_and_match_their_sheets() {
    // Every rules number of the sheet (scores, skills, saves, hit points, AC, speed, hit
    // dice, slots, spells) is what the builder makes. The kit differs where the old sheet
    // broke the class's choices (Kraven's javelins), and attack cantrips are the spell
    // layer's, so for attacks only the weapons both have are compared.
    for (id, value) in pregenerated() {
        let built = choices(value)
            .build(Srd::bundled())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut sheet = adventure_sheet(id);
        for attack in built.attacks.iter() {
            if let Some(old) = sheet.attacks.iter().find(|a| a.name == attack.name) {
                assert_eq!(old, attack, "{id}: attack {}", attack.name);
            }
        }
        sheet.attacks = built.attacks.clone();
        sheet.inventory = built.inventory.clone();
        sheet.gold = built.gold;
        assert_eq!(built, sheet, "{id}");
    }
}

#[test]
fn racial_increases_and_the_half_elfs_choices_apply() {
    let elf = choices(json!({
        "name": "Sera", "race": "Half-Elf", "class": "Bard",
        "background": "Acolyte",
        "scores": {"method": "point_buy", "scores": {"str": 8, "dex": 14, "con": 14, "int": 10, "wis": 10, "cha": 15}},
        "ability_choices": ["dexterity", "constitution"],
        "skills": ["performance", "persuasion", "deception"],
        "race_traits": {"skill-versatility": ["Perception", "Stealth"]},
        "equipment": {"gold": 120},
        "cantrips": ["Vicious Mockery", "Minor Illusion"],
        "spells": ["Healing Word", "Charm Person", "Sleep", "Thunderwave"]
    }));
    let sera = elf.build(Srd::bundled()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sera.abilities, AbilityScores::new(8, 15, 15, 10, 10, 17));
    assert_eq!(sera.skills.len(), 7, "3 bard, 2 acolyte, 2 half-elf");
    assert_eq!(sera.gold, 120);
    assert!(sera.inventory.is_empty(), "gold instead of the kit");
    assert_eq!(sera.spell_slots.max[0], 2);
    let mut wrong = elf.clone();
    wrong.ability_choices = vec![Ability::Charisma, Ability::Charisma];
    let errors = wrong.build(Srd::bundled()).unwrap_err();
    assert!(
        matches!(
            errors.at("ability_choices[0]"),
            Some(Problem::NotAllowed { .. })
        ),
        "{errors}"
    );
    assert!(
        matches!(
            errors.at("ability_choices[1]"),
            Some(Problem::NotAllowed { .. })
        ),
        "{errors}"
    );
}

fn fighter() -> serde_json::Value {
    json!({
        "name": "Tamsin", "race": "Human", "class": "Fighter",
        "scores": {"method": "point_buy", "scores": {"str": 15, "dex": 14, "con": 14, "int": 8, "wis": 10, "cha": 8}},
        "skills": ["athletics", "perception"],
        "features": {"fighting style": ["Archery"]},
        "equipment": {"kit": [{"option": 2}, {"option": 1, "picks": ["Longsword"]}, {"option": 1}, {"option": 2},
            {"option": 1, "picks": ["Amulet"]}, {"option": 2}]}
    })
}

#[test]
fn a_level_one_fighter_gets_its_kit_armour_and_attacks() {
    let tamsin = choices(fighter())
        .build(Srd::bundled())
        .unwrap_or_else(|e| panic!("{e}"));
    // Leather armour 11 + Dex 2 (+1 human), and a shield's 2.
    assert_eq!(tamsin.abilities.dexterity, 15);
    assert_eq!(tamsin.armor_class, 15);
    assert_eq!(tamsin.hp.max, 12, "10 + Con 15's +2");
    assert_eq!(
        tamsin.item_quantity("Torch"),
        10,
        "the explorer's pack opened"
    );
    assert_eq!(tamsin.item_quantity("Arrows"), 20);
    assert_eq!(tamsin.item_quantity("Explorer's Pack"), 0);
    let bow = tamsin.attacks.iter().find(|a| a.name == "Longbow").unwrap();
    assert_eq!(
        (bow.ability, bow.range_ft, bow.proficient),
        (Ability::Dexterity, 150, true)
    );
    assert_eq!(tamsin.attack_bonus(bow), 2 + 2, "Dex +2, proficiency +2");
    assert_eq!(tamsin.gold, 15, "the acolyte's purse");
    assert!(tamsin.spells.is_empty() && tamsin.spellcasting_ability.is_none());
    assert_eq!(tamsin.id, "tamsin", "the first word of the name");
    let mut value = fighter();
    value["name"] = json!("Æsa of the Fjord");
    let named = choices(value).build(Srd::bundled()).unwrap();
    assert_eq!(named.id, "sa", "the ASCII letters of the first word");
    let mut value = fighter();
    value["name"] = json!("Ææ");
    assert_eq!(choices(value).build(Srd::bundled()).unwrap().id, "hero");
}

#[test]
fn point_buy_over_27_and_scores_out_of_range_are_named() {
    let mut value = fighter();
    value["scores"]["scores"] =
        json!({"str": 15, "dex": 15, "con": 15, "int": 10, "wis": 8, "cha": 7});
    let errors = problems(value);
    assert!(
        matches!(
            errors.at("scores.scores.cha"),
            Some(Problem::OutOfRange {
                given: 7,
                min: 8,
                max: 15
            })
        ),
        "{errors}"
    );
    assert!(
        matches!(
            errors.at("scores.scores"),
            Some(Problem::OverBudget {
                spent: 29,
                budget: 27
            })
        ),
        "{errors}"
    );
}

#[test]
fn skills_the_class_lacks_and_too_many_are_refused() {
    let mut value = fighter();
    value["skills"] = json!(["arcana", "insight", "religion"]);
    let errors = problems(value);
    assert!(
        matches!(
            errors.at("skills"),
            Some(Problem::WrongCount {
                given: 3,
                expected: 2,
                ..
            })
        ),
        "{errors}"
    );
    assert!(
        matches!(errors.at("skills[0]"), Some(Problem::NotAllowed { given, allowed, .. })
        if given == "Arcana" && allowed.contains(&"Athletics".to_owned())),
        "{errors}"
    );
    assert!(
        matches!(errors.at("skills[1]"), Some(Problem::Duplicate { by, .. }) if by == "Acolyte"),
        "{errors}"
    );
}

#[test]
fn unknown_race_class_and_background_list_the_choices() {
    let mut value = fighter();
    value["race"] = json!("Orc");
    value["class"] = json!("Gunslinger");
    let errors = problems(value);
    assert!(
        matches!(errors.at("race"), Some(Problem::NotAllowed { allowed, .. }) if allowed.len() == 13 && allowed.contains(&"Hill Dwarf".to_owned())),
        "{errors}"
    );
    assert!(
        matches!(errors.at("class"), Some(Problem::NotAllowed { allowed, .. }) if allowed.len() == 12),
        "{errors}"
    );
    let mut value = fighter();
    value["background"] = json!("Sailor");
    let errors = problems(value);
    assert!(
        matches!(errors.at("background"), Some(Problem::NotAllowed { allowed, .. }) if allowed == &["Acolyte"]),
        "{errors}"
    );
}

#[test]
fn a_subclass_before_its_level_and_a_later_feature_are_refused() {
    let mut value = fighter();
    value["subclass"] = json!("Champion");
    value["features"]["extra-attack"] = json!(["yes"]);
    let errors = problems(value);
    assert!(
        matches!(
            errors.at("subclass"),
            Some(Problem::TooEarly {
                needed: 3,
                level: 1,
                ..
            })
        ),
        "{errors}"
    );
    assert!(
        matches!(
            errors.at("features.extra-attack"),
            Some(Problem::TooEarly {
                needed: 5,
                level: 1,
                ..
            })
        ),
        "{errors}"
    );
    let mut value = fighter();
    value["level"] = json!(3);
    let errors = problems(value);
    assert!(
        matches!(errors.at("subclass"), Some(Problem::Missing { .. })),
        "{errors}"
    );
    let mut value = fighter();
    value["level"] = json!(6);
    assert!(matches!(
        problems(value).at("level"),
        Some(Problem::OutOfRange { max: 5, .. })
    ));
}

#[test]
fn spells_the_class_lacks_or_above_its_slots_are_refused() {
    let mut cleric = pregenerated().remove(2).1;
    cleric["spells"] = json!([
        "Fireball",
        "Magic Missile",
        "Bless",
        "Aid",
        "Healing Word",
        "Sanctuary",
        "Guiding Bolt"
    ]);
    let errors = problems(cleric.clone());
    assert!(
        matches!(
            errors.at("spells"),
            Some(Problem::TooMany {
                given: 7,
                most: 6,
                ..
            })
        ),
        "{errors}"
    );
    assert!(
        matches!(errors.at("spells[0]"), Some(Problem::NotAllowed { .. })),
        "Fireball is no cleric spell: {errors}"
    );
    assert!(
        matches!(errors.at("spells[1]"), Some(Problem::NotAllowed { .. })),
        "{errors}"
    );
    assert!(
        matches!(errors.at("spells[2]"), Some(Problem::Duplicate { .. })),
        "Bless is a Life domain spell: {errors}"
    );
    cleric["level"] = json!(1);
    cleric["spells"] = json!(["Aid"]);
    let errors = problems(cleric);
    assert!(
        matches!(
            errors.at("spells[0]"),
            Some(Problem::AboveSlots {
                spell_level: 2,
                highest: 1,
                ..
            })
        ),
        "{errors}"
    );
    let mut value = fighter();
    value["cantrips"] = json!(["Fire Bolt"]);
    assert!(problems(value).at("cantrips").is_some());
}

#[test]
fn expertise_needs_proficiency_and_the_count() {
    let mut wren = pregenerated().remove(3).1;
    wren["features"]["rogue-expertise-1"] = json!(["Arcana"]);
    let errors = problems(wren);
    assert!(
        matches!(
            errors.at("features.rogue-expertise-1"),
            Some(Problem::WrongCount { expected: 2, .. })
        ),
        "{errors}"
    );
    assert!(
        matches!(
            errors.at("features.rogue-expertise-1[0]"),
            Some(Problem::NotAllowed { .. })
        ),
        "{errors}"
    );
}

#[test]
fn levels_follow_the_class_table() {
    let mut wizard = pregenerated().remove(1).1;
    wizard["level"] = json!(5);
    wizard["cantrips"] = json!(["Fire Bolt", "Ray of Frost", "Mage Hand", "Prestidigitation"]);
    wizard["spells"] = json!(["Fireball", "Shield"]);
    let isolde = choices(wizard)
        .build(Srd::bundled())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(isolde.spell_slots.max[..3], [4, 3, 2]);
    assert_eq!(isolde.hp.max, 7 + 4 * 5, "6 + 1, then 4 + 1 a level");
    assert_eq!(isolde.hit_dice.total, 5);
    assert_eq!(
        isolde.skills.get(&Skill::Perception),
        Some(&Proficiency::Proficient)
    );
}

#[test]
fn starting_gold_must_be_a_roll_the_dice_can_make() {
    let class = Srd::bundled().class("fighter").unwrap();
    let gold = equipment::roll_starting_gold(class, &mut crate::dice::seeded_rng(3));
    assert!(
        (50..=200).contains(&gold) && gold.is_multiple_of(10),
        "{gold}"
    );
    let mut value = fighter();
    value["equipment"] = json!({"gold": gold});
    assert!(choices(value.clone()).build(Srd::bundled()).is_ok());
    value["equipment"] = json!({"gold": 205});
    assert!(problems(value).at("equipment.gold").is_some());
}

#[test]
fn a_draconic_sorcerer_and_a_warlock_at_first_level() {
    let sorcerer = choices(json!({
        "name": "Vex", "race": "Dragonborn", "class": "Sorcerer", "subclass": "Draconic",
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["arcana", "intimidation"],
        "features": {"dragon-ancestor": ["Red"]},
        "race_traits": {"draconic-ancestry": ["red"]},
        "equipment": {"gold": 30},
        "cantrips": ["Fire Bolt", "Light", "Mage Hand", "Prestidigitation"],
        "spells": ["Burning Hands", "Shield"]
    }));
    let vex = sorcerer
        .build(Srd::bundled())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(vex.armor_class, 13 + 2, "Draconic Resilience: 13 + Dex");
    assert_eq!(
        vex.hp.max,
        6 + 1 + 1,
        "d6 + Con +1 + Draconic Resilience's 1"
    );
    let mut ambiguous = sorcerer.clone();
    ambiguous
        .features
        .insert("dragon-ancestor".into(), vec!["Fire".into()]);
    let errors = ambiguous.build(Srd::bundled()).unwrap_err();
    assert!(
        errors.at("features.dragon-ancestor[0]").is_some(),
        "fire fits brass, gold and red: {errors}"
    );

    let warlock = choices(json!({
        "name": "Morrow", "race": "Tiefling", "class": "Warlock", "subclass": "Fiend",
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 15}},
        "skills": ["deception", "arcana"],
        "equipment": {"gold": 40},
        "cantrips": ["Eldritch Blast", "Chill Touch"],
        "spells": ["Charm Person", "Burning Hands"]
    }));
    let morrow = warlock
        .build(Srd::bundled())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (morrow.spell_slots.pact_max, morrow.spell_slots.pact_level),
        (1, 1)
    );
    assert_eq!(morrow.spell_slots.max, [0; 9]);
}

#[test]
fn a_wizards_spellbook_holds_six_spells_and_two_a_level() {
    let isolde = || {
        pregenerated()
            .into_iter()
            .find(|(id, _)| *id == "isolde")
            .unwrap()
            .1
    };
    // Level 3: a book of 10, six of them prepared; four more may be written in.
    let mut value = isolde();
    value["spellbook"] = json!([
        "Detect Magic",
        "Burning Hands",
        "Find Familiar",
        "Hold Person"
    ]);
    let built = choices(value).build(Srd::bundled()).unwrap();
    assert_eq!(built.spellbook.len(), 4);
    assert!(built.spellbook.contains(&"Find Familiar".to_owned()));
    assert!(!built.spells.contains(&"Find Familiar".to_owned()));
    // A fifth is one too many; a cleric spell, a 3rd-level one and a prepared one are refused.
    let mut value = isolde();
    value["spellbook"] = json!([
        "Detect Magic",
        "Burning Hands",
        "Cure Wounds",
        "Fireball",
        "Shield"
    ]);
    let text = problems(value).to_string();
    for want in [
        "spellbook: 5",
        "spellbook[2]",
        "spellbook[3]: Fireball is a level-3 spell",
        "spellbook[4]",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    // Only a wizard keeps a spellbook.
    let mut value = pregenerated()
        .into_iter()
        .find(|(id, _)| *id == "hedda")
        .unwrap()
        .1;
    value["spellbook"] = json!(["Bless"]);
    let text = problems(value).to_string();
    assert!(text.contains("only a wizard keeps one"), "{text}");
}
