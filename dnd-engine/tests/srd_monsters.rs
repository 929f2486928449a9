//! Checks the bundled SRD monster data (`src/srd/data/monsters.json`) through the public API.
//!
//! - the bundled files parse, and there are at least 60 monsters;
//! - every challenge rating from 0 to 5 (1/8, 1/4 and 1/2 included) has at least one monster;
//! - every creature the built-in adventure "The Wailing Glacier" uses is found by name;
//! - slugs are unique and equal to `slugify(name)`;
//! - XP matches the challenge rating;
//! - every multiattack step names another action of the same monster;
//! - every attack has damage (or a description saying why not), melee attacks a reach, ranged
//!   attacks a range, and the usual damage is one of the damage options when there are options;
//! - passive Perception is 10 + the Perception bonus (the Wisdom modifier without the skill);
//! - hit points are positive and AC is between 5 and 25;
//! - every trait, action and reaction has a description;
//! - a misspelled lookup ("gobln") suggests Goblin.
//!
//! Every failure message names the monster.

use std::collections::{BTreeMap, HashSet};

use dnd_engine::rules::{Ability, ChallengeRating, DamageType, Skill};
use dnd_engine::srd::{AttackKind, Srd, slugify};

/// The creatures "The Wailing Glacier" needs.
const ADVENTURE_CREATURES: &[&str] = &[
    "Harpy",
    "Will-o'-Wisp",
    "Specter",
    "Shadow",
    "Ghost",
    "Wight",
    "Ice Mephit",
    "Winter Wolf",
    "Wolf",
    "Goblin",
    "Hobgoblin",
    "Bugbear",
    "Kobold",
    "Skeleton",
    "Zombie",
    "Ghoul",
    "Orc",
    "Ogre",
    "Giant Spider",
    "Dire Wolf",
    "Brown Bear",
    "Polar Bear",
    "Commoner",
    "Bandit",
    "Bandit Captain",
    "Guard",
    "Cultist",
    "Acolyte",
    "Priest",
    "Veteran",
    "Knight",
    "Mage",
];

fn srd() -> Srd {
    Srd::parse_bundled().unwrap_or_else(|error| panic!("{error}"))
}

fn cr(text: &str) -> ChallengeRating {
    ChallengeRating::parse(text).unwrap_or_else(|| panic!("{text} is not a challenge rating"))
}

#[test]
fn bundled_data_parses_with_enough_monsters() {
    let srd = srd();
    assert!(
        srd.monsters.len() >= 60,
        "only {} bundled monsters",
        srd.monsters.len()
    );
    // The lazily parsed copy must be the same data, not the empty fallback.
    assert_eq!(Srd::bundled().monsters.len(), srd.monsters.len());
}

#[test]
fn every_challenge_rating_up_to_5_has_monsters() {
    let srd = srd();
    let mut counts: BTreeMap<ChallengeRating, usize> = BTreeMap::new();
    for monster in &srd.monsters {
        *counts.entry(monster.challenge_rating).or_default() += 1;
    }
    for text in ["0", "1/8", "1/4", "1/2", "1", "2", "3", "4", "5"] {
        let count = counts.get(&cr(text)).copied().unwrap_or(0);
        assert!(count >= 1, "no bundled monster of CR {text}");
    }
}

#[test]
fn adventure_creatures_are_found_by_name() {
    let srd = Srd::bundled();
    for name in ADVENTURE_CREATURES {
        match srd.monster(name) {
            Ok(monster) => assert_eq!(monster.name, *name, "{name}: found another monster"),
            Err(error) => panic!("{name}: {error}"),
        }
    }
}

#[test]
fn slugs_are_unique_and_match_names() {
    let srd = srd();
    let mut seen = HashSet::new();
    for monster in &srd.monsters {
        assert_eq!(
            monster.slug,
            slugify(&monster.name),
            "{}: slug does not match the name",
            monster.name
        );
        assert!(
            seen.insert(monster.slug.as_str()),
            "{}: slug {:?} is used twice",
            monster.name,
            monster.slug
        );
    }
}

#[test]
fn xp_matches_challenge_rating() {
    for monster in &srd().monsters {
        assert_eq!(
            monster.xp,
            monster.challenge_rating.xp(),
            "{}: XP does not match CR {}",
            monster.name,
            monster.challenge_rating
        );
    }
}

#[test]
fn multiattack_steps_name_existing_actions() {
    for monster in &srd().monsters {
        let names: HashSet<&str> = monster.actions.iter().map(|a| a.name.as_str()).collect();
        for action in monster
            .actions
            .iter()
            .chain(&monster.legendary_actions)
            .filter(|a| !a.multiattack.is_empty())
        {
            for option in &action.multiattack {
                assert!(
                    !option.is_empty(),
                    "{}: {} has an empty multiattack option",
                    monster.name,
                    action.name
                );
                for step in option {
                    assert!(
                        step.action != action.name && names.contains(step.action.as_str()),
                        "{}: {} uses {:?}, which is not another of its actions",
                        monster.name,
                        action.name,
                        step.action
                    );
                    assert!(
                        step.count >= 1,
                        "{}: {} uses {} zero times",
                        monster.name,
                        action.name,
                        step.action
                    );
                }
            }
        }
        let multiattacks = monster
            .actions
            .iter()
            .filter(|a| a.name == "Multiattack")
            .count();
        assert!(
            multiattacks <= 1,
            "{}: more than one Multiattack",
            monster.name
        );
        if let Some(action) = monster.actions.iter().find(|a| a.name == "Multiattack") {
            assert!(
                !action.multiattack.is_empty(),
                "{}: Multiattack lists no attacks",
                monster.name
            );
        }
    }
}

#[test]
fn attacks_have_damage_reach_and_range() {
    for monster in &srd().monsters {
        for action in monster.actions.iter().chain(&monster.legendary_actions) {
            let Some(attack) = &action.attack else {
                continue;
            };
            assert!(
                !action.damage.is_empty() || action.description.contains("damage"),
                "{}: {} is an attack with no damage and no word on why",
                monster.name,
                action.name
            );
            let melee = matches!(
                attack.kind,
                AttackKind::MeleeWeapon | AttackKind::MeleeSpell | AttackKind::MeleeOrRangedWeapon
            );
            let ranged = matches!(
                attack.kind,
                AttackKind::RangedWeapon
                    | AttackKind::RangedSpell
                    | AttackKind::MeleeOrRangedWeapon
            );
            assert_eq!(
                attack.reach.is_some(),
                melee,
                "{}: {} has a reach exactly when it is a melee attack",
                monster.name,
                action.name
            );
            assert_eq!(
                attack.range.is_some(),
                ranged,
                "{}: {} has a range exactly when it is a ranged attack",
                monster.name,
                action.name
            );
            if let Some((normal, long)) = attack.range {
                assert!(
                    normal > 0 && normal <= long,
                    "{}: {} has range {normal}/{long}",
                    monster.name,
                    action.name
                );
            }
        }
        for action in &monster.actions {
            if !action.damage_options.is_empty() {
                assert!(
                    action
                        .damage
                        .first()
                        .is_some_and(|usual| action.damage_options.contains(usual)),
                    "{}: the usual damage of {} is not one of its options",
                    monster.name,
                    action.name
                );
            }
            if let Some(save) = &action.save {
                assert!(
                    (5..=30).contains(&save.dc),
                    "{}: {} has save DC {}",
                    monster.name,
                    action.name,
                    save.dc
                );
            }
        }
    }
}

#[test]
fn passive_perception_matches_wisdom_and_skill() {
    for monster in &srd().monsters {
        let bonus = monster
            .skills
            .get(&Skill::Perception)
            .copied()
            .unwrap_or_else(|| monster.abilities.modifier(Ability::Wisdom));
        assert_eq!(
            monster.passive_perception,
            10 + bonus,
            "{}: passive Perception should be 10 + {bonus}",
            monster.name
        );
    }
}

#[test]
fn hit_points_and_armor_class_are_sane() {
    for monster in &srd().monsters {
        assert!(monster.hit_points > 0, "{}: no hit points", monster.name);
        assert!(
            (5..=25).contains(&monster.armor_class),
            "{}: AC {} is out of range",
            monster.name,
            monster.armor_class
        );
    }
}

#[test]
fn every_feature_has_a_description() {
    for monster in &srd().monsters {
        let features = monster
            .traits
            .iter()
            .map(|f| (&f.name, &f.description))
            .chain(monster.reactions.iter().map(|r| (&r.name, &r.description)));
        let actions = monster
            .actions
            .iter()
            .chain(&monster.legendary_actions)
            .map(|a| (&a.name, &a.description));
        for (name, description) in features.chain(actions) {
            assert!(
                !description.trim().is_empty(),
                "{}: {name} has no description",
                monster.name
            );
        }
    }
}

#[test]
fn a_misspelled_name_suggests_the_monster() {
    let error = Srd::bundled().monster("gobln").unwrap_err();
    assert_eq!(
        error.suggestions.first().map(String::as_str),
        Some("Goblin"),
        "{error}"
    );
}

#[test]
fn resistances_to_nonmagical_attacks_are_read_from_the_text() {
    let srd = srd();
    let physical = [
        DamageType::Bludgeoning,
        DamageType::Piercing,
        DamageType::Slashing,
    ];
    let specter = srd.monster("Specter").unwrap();
    let golem = srd.monster("Flesh Golem").unwrap();
    for kind in physical {
        assert!(specter.defenses.nonmagical_resistances.contains(kind));
        assert!(!specter.defenses.resistances.contains(kind));
        assert!(golem.defenses.nonmagical_immunities.contains(kind));
    }
    // Every bundled conditional defense is one the rules apply.
    for monster in &srd.monsters {
        if !monster.conditional_defenses.is_empty() {
            let d = monster.defenses;
            assert!(
                !(d.nonmagical_resistances.is_empty() && d.nonmagical_immunities.is_empty()),
                "{}: {:?}",
                monster.name,
                monster.conditional_defenses
            );
        }
    }
}

#[test]
fn spell_attacks_and_magic_weapons_are_magical() {
    let srd = srd();
    let magical = |monster: &str, action: &str| {
        let m = srd.monster(monster).unwrap();
        let attack = m
            .actions
            .iter()
            .find(|a| a.name == action)
            .and_then(|a| a.attack.as_ref())
            .unwrap();
        m.attack_is_magical(attack)
    };
    assert!(magical("Specter", "Life Drain"), "a melee spell attack");
    assert!(magical("Flesh Golem", "Slam"), "the Magic Weapons trait");
    assert!(!magical("Goblin", "Scimitar"));
    assert!(!magical("Goblin", "Shortbow"));
}
