//! Checks the bundled SRD reference data: conditions, weapons, armor and rules topics.
//!
//! These files are hand-written JSON compiled into the crate (`src/srd/data/`), so a typo
//! would only show up when a player asks about the wrong thing mid-game. The tests parse every
//! file, check that the records the rules engine and tools rely on are present, spot-check
//! numbers against the SRD 5.1 equipment tables, and check that lookups by name, slug and
//! alias (and "did you mean" on a miss) work. Every assertion names the record it is about.

use std::collections::HashSet;

use dnd_engine::rules::{Condition, DamageType};
use dnd_engine::srd::{ArmorCategory, Srd, WeaponCategory, slugify};

#[test]
fn bundled_data_parses() {
    if let Err(error) = Srd::parse_bundled() {
        panic!("{error}");
    }
}

#[test]
fn all_fifteen_conditions_with_effects() {
    let srd = Srd::bundled();
    assert_eq!(
        srd.conditions.len(),
        15,
        "conditions.json should hold exactly the 15 SRD conditions, found {:?}",
        srd.conditions.iter().map(|c| &c.name).collect::<Vec<_>>()
    );
    let distinct: HashSet<Condition> = srd.conditions.iter().map(|c| c.condition).collect();
    assert_eq!(
        distinct.len(),
        15,
        "a condition appears twice in conditions.json"
    );
    for condition in Condition::ALL {
        let info = srd
            .condition(condition.name())
            .unwrap_or_else(|e| panic!("condition {}: {e}", condition.name()));
        assert_eq!(info.condition, condition, "condition {}", condition.name());
        assert!(
            info.name.eq_ignore_ascii_case(condition.name())
                && info.name.starts_with(|c: char| c.is_ascii_uppercase()),
            "condition {}: name {:?} should be the capitalised condition name",
            condition.name(),
            info.name
        );
        assert!(
            !info.effects.is_empty(),
            "condition {} has no effects",
            info.name
        );
        for effect in &info.effects {
            assert!(
                effect.trim().len() > 10 && effect.ends_with('.'),
                "condition {}: effect {effect:?} should be a full sentence",
                info.name
            );
        }
    }
    let exhaustion = srd.condition("Exhaustion").expect("exhaustion");
    assert_eq!(
        exhaustion.effects.len(),
        6,
        "condition Exhaustion should have one effect per level 1-6: {:?}",
        exhaustion.effects
    );
    for (level, effect) in (1..=6).zip(&exhaustion.effects) {
        assert!(
            effect.starts_with(&format!("Level {level}")),
            "condition Exhaustion: entry {level} should describe level {level}: {effect:?}"
        );
    }
    assert!(
        exhaustion.effects[5].contains("dies"),
        "condition Exhaustion: level 6 is death"
    );
}

#[test]
fn weapons_match_the_equipment_tables() {
    let srd = Srd::bundled();
    assert!(
        srd.weapons.len() >= 35,
        "only {} weapons in weapons.json",
        srd.weapons.len()
    );
    let mut slugs = HashSet::new();
    for weapon in &srd.weapons {
        assert_eq!(weapon.slug, slugify(&weapon.name), "weapon {}", weapon.name);
        assert!(
            slugs.insert(weapon.slug.as_str()),
            "weapon {}: slug {} used twice",
            weapon.name,
            weapon.slug
        );
        let has = |p: &str| weapon.properties.iter().any(|q| q == p);
        assert_eq!(
            weapon.versatile.is_some(),
            has("versatile"),
            "weapon {}: versatile damage and the versatile property go together",
            weapon.name
        );
        assert_eq!(
            weapon.range.is_some(),
            weapon.ranged || has("thrown"),
            "weapon {}: ranged and thrown weapons (and only those) have a range",
            weapon.name
        );
        if let Some((normal, long)) = weapon.range {
            assert!(
                normal > 0 && normal < long,
                "weapon {}: range {normal}/{long}",
                weapon.name
            );
        }
        for property in &weapon.properties {
            assert!(
                [
                    "ammunition",
                    "finesse",
                    "heavy",
                    "light",
                    "loading",
                    "reach",
                    "special",
                    "thrown",
                    "two-handed",
                    "versatile",
                ]
                .contains(&property.as_str()),
                "weapon {}: unknown property {property:?}",
                weapon.name
            );
        }
        assert!(weapon.cost_cp > 0, "weapon {} has no cost", weapon.name);
    }

    let longsword = srd.weapon("Longsword").expect("weapon Longsword");
    assert_eq!(
        longsword.category,
        WeaponCategory::Martial,
        "weapon Longsword"
    );
    assert!(!longsword.ranged, "weapon Longsword is melee");
    assert_eq!(
        (
            longsword.damage.count,
            longsword.damage.sides,
            longsword.damage.kind
        ),
        (1, 8, DamageType::Slashing),
        "weapon Longsword damage"
    );
    let versatile = longsword.versatile.expect("weapon Longsword is versatile");
    assert_eq!(
        (versatile.count, versatile.sides, versatile.kind),
        (1, 10, DamageType::Slashing),
        "weapon Longsword two-handed damage"
    );
    assert_eq!(longsword.cost_cp, 1500, "weapon Longsword costs 15 gp");
    assert_eq!(longsword.weight_lb, 3.0, "weapon Longsword weight");

    let longbow = srd.weapon("longbow").expect("weapon Longbow");
    assert!(longbow.ranged, "weapon Longbow is ranged");
    assert_eq!(
        (
            longbow.damage.count,
            longbow.damage.sides,
            longbow.damage.kind
        ),
        (1, 8, DamageType::Piercing),
        "weapon Longbow damage"
    );
    assert_eq!(longbow.range, Some((150, 600)), "weapon Longbow range");
    for property in ["heavy", "two-handed", "ammunition"] {
        assert!(
            longbow.properties.iter().any(|p| p == property),
            "weapon Longbow should be {property}"
        );
    }

    let dagger = srd.weapon("DAGGER").expect("weapon Dagger");
    assert_eq!(dagger.category, WeaponCategory::Simple, "weapon Dagger");
    assert!(!dagger.ranged, "weapon Dagger is a melee weapon");
    for property in ["finesse", "light", "thrown"] {
        assert!(
            dagger.properties.iter().any(|p| p == property),
            "weapon Dagger should be {property}"
        );
    }
    assert_eq!(dagger.range, Some((20, 60)), "weapon Dagger thrown range");
    assert_eq!(dagger.cost_cp, 200, "weapon Dagger costs 2 gp");

    let dart = srd.weapon("dart").expect("weapon Dart");
    assert_eq!(dart.cost_cp, 5, "weapon Dart costs 5 cp");
    assert_eq!(dart.weight_lb, 0.25, "weapon Dart weight");

    let blowgun = srd.weapon("blowgun").expect("weapon Blowgun");
    assert_eq!(
        (blowgun.damage.count, blowgun.damage.bonus),
        (0, 1),
        "weapon Blowgun deals a flat 1 piercing"
    );
    let net = srd.weapon("net").expect("weapon Net");
    assert_eq!(net.damage.average(), 0, "weapon Net deals no damage");
    assert!(
        net.properties.iter().any(|p| p == "special"),
        "weapon Net has the special property"
    );
    assert!(
        srd.weapon("Heavy Crossbow").is_ok(),
        "weapon Heavy Crossbow should be found by name"
    );
}

#[test]
fn armor_matches_the_equipment_tables() {
    let srd = Srd::bundled();
    assert_eq!(
        srd.armor.len(),
        13,
        "armor.json should hold the 12 armors and the shield, found {:?}",
        srd.armor.iter().map(|a| &a.name).collect::<Vec<_>>()
    );
    for name in [
        "padded",
        "leather",
        "studded leather",
        "hide",
        "chain shirt",
        "scale mail",
        "breastplate",
        "half plate",
        "ring mail",
        "chain mail",
        "splint",
        "plate",
        "shield",
    ] {
        let armor = srd
            .armor(name)
            .unwrap_or_else(|e| panic!("armor {name}: {e}"));
        assert_eq!(armor.slug, slugify(&armor.name), "armor {}", armor.name);
        match armor.category {
            ArmorCategory::Light => assert!(
                armor.dex_bonus && armor.max_dex_bonus.is_none(),
                "armor {}: light armor adds all of Dexterity",
                armor.name
            ),
            ArmorCategory::Medium => assert!(
                armor.dex_bonus && armor.max_dex_bonus == Some(2),
                "armor {}: medium armor adds Dexterity up to 2",
                armor.name
            ),
            ArmorCategory::Heavy | ArmorCategory::Shield => {
                assert!(!armor.dex_bonus, "armor {}: no Dexterity bonus", armor.name)
            }
        }
    }

    let chain_mail = srd.armor("chain mail").expect("armor Chain Mail");
    assert_eq!(
        chain_mail.category,
        ArmorCategory::Heavy,
        "armor Chain Mail"
    );
    assert_eq!(chain_mail.base_ac, 16, "armor Chain Mail AC");
    assert!(!chain_mail.dex_bonus, "armor Chain Mail adds no Dexterity");
    assert_eq!(
        chain_mail.strength_minimum,
        Some(13),
        "armor Chain Mail Str"
    );
    assert!(
        chain_mail.stealth_disadvantage,
        "armor Chain Mail gives Stealth disadvantage"
    );
    assert_eq!(chain_mail.cost_cp, 7500, "armor Chain Mail costs 75 gp");
    assert_eq!(chain_mail.weight_lb, 55.0, "armor Chain Mail weight");

    let studded = srd.armor("studded leather").expect("armor Studded Leather");
    assert_eq!(
        studded.category,
        ArmorCategory::Light,
        "armor Studded Leather"
    );
    assert_eq!(studded.base_ac, 12, "armor Studded Leather AC");
    assert!(studded.dex_bonus, "armor Studded Leather adds Dexterity");
    assert!(
        !studded.stealth_disadvantage,
        "armor Studded Leather is quiet"
    );

    let breastplate = srd.armor("breastplate").expect("armor Breastplate");
    assert_eq!(breastplate.base_ac, 14, "armor Breastplate AC");
    assert_eq!(
        breastplate.max_dex_bonus,
        Some(2),
        "armor Breastplate Dexterity cap"
    );
    assert!(
        !breastplate.stealth_disadvantage,
        "armor Breastplate is quiet"
    );

    let shield = srd.armor("shield").expect("armor Shield");
    assert_eq!(shield.category, ArmorCategory::Shield, "armor Shield");
    assert_eq!(shield.base_ac, 2, "armor Shield adds +2");

    let plate = srd.armor("plate").expect("armor Plate");
    assert_eq!(
        (plate.base_ac, plate.strength_minimum),
        (18, Some(15)),
        "armor Plate"
    );
}

#[test]
fn rules_topics_are_complete_and_well_formed() {
    let srd = Srd::bundled();
    assert!(
        srd.rules.len() >= 40,
        "only {} rules topics in rules.json",
        srd.rules.len()
    );
    let mut slugs = HashSet::new();
    for topic in &srd.rules {
        assert_eq!(
            topic.slug,
            slugify(&topic.name),
            "rules topic {}",
            topic.name
        );
        assert!(
            slugs.insert(topic.slug.as_str()),
            "rules topic {}: slug {} used twice",
            topic.name,
            topic.slug
        );
        assert!(
            topic.summary.len() > 40,
            "rules topic {} needs a summary",
            topic.name
        );
        assert!(
            topic.mechanics.len() >= 2,
            "rules topic {} needs at least two mechanics, has {:?}",
            topic.name,
            topic.mechanics.keys().collect::<Vec<_>>()
        );
        for alias in &topic.aliases {
            let found = srd
                .rule(alias)
                .unwrap_or_else(|e| panic!("rules topic {}: alias {alias:?}: {e}", topic.name));
            assert_eq!(
                found.name, topic.name,
                "rules topic {}: alias {alias:?} finds {} instead",
                topic.name, found.name
            );
        }
    }
    for wanted in [
        "ability checks",
        "contests",
        "passive checks",
        "advantage and disadvantage",
        "saving throws",
        "attack rolls",
        "critical hits",
        "cover",
        "grappling",
        "shoving",
        "opportunity attacks",
        "two-weapon fighting",
        "unseen attackers and targets",
        "obscured areas",
        "light and vision",
        "falling",
        "suffocating",
        "jumping",
        "difficult terrain",
        "climbing, swimming and crawling",
        "hiding",
        "surprise",
        "initiative",
        "actions in combat",
        "bonus actions",
        "reactions",
        "movement and position",
        "damage resistance and vulnerability",
        "temporary hit points",
        "dropping to 0 hit points",
        "death saving throws",
        "massive damage",
        "stabilizing a creature",
        "healing",
        "short rest",
        "long rest",
        "hit dice",
        "concentration",
        "spell slots",
        "casting at higher levels",
        "spell attack rolls and save dcs",
        "ritual casting",
        "exhaustion",
        "mounted combat",
        "underwater combat",
        "travel pace",
        "food and water",
        "encounter difficulty",
        "inspiration",
        "carrying capacity",
        "encumbrance (variant)",
        "squeezing into a smaller space",
        "flanking (optional rule)",
    ] {
        assert!(
            srd.rule(wanted).is_ok(),
            "rules topic {wanted:?} is missing: {}",
            srd.rule(wanted).unwrap_err()
        );
    }
}

#[test]
fn rules_topics_hold_the_right_numbers() {
    let srd = Srd::bundled();
    let mechanic = |topic: &str, key: &str| {
        let found = srd
            .rule(topic)
            .unwrap_or_else(|e| panic!("rules topic {topic}: {e}"));
        found
            .mechanics
            .get(key)
            .unwrap_or_else(|| panic!("rules topic {}: no mechanic {key:?}", found.name))
            .clone()
    };
    assert_eq!(
        mechanic("cover", "half_cover_bonus"),
        2,
        "rules topic Cover"
    );
    assert_eq!(
        mechanic("cover", "three_quarters_cover_bonus"),
        5,
        "rules topic Cover"
    );
    assert_eq!(
        mechanic("falling", "max_damage_dice"),
        20,
        "rules topic Falling"
    );
    assert_eq!(
        mechanic("death saves", "dc"),
        10,
        "rules topic Death Saving Throws"
    );
    assert_eq!(
        mechanic("concentration", "dc_minimum"),
        10,
        "rules topic Concentration"
    );
    assert_eq!(
        mechanic("ritual", "extra_time_minutes"),
        10,
        "rules topic Ritual Casting"
    );
    let paces = mechanic("travel pace", "paces");
    for (pace, feet, mph, miles) in [
        ("fast", 400, 4, 30),
        ("normal", 300, 3, 24),
        ("slow", 200, 2, 18),
    ] {
        assert_eq!(
            paces[pace]["feet_per_minute"], feet,
            "rules topic Travel Pace: {pace}"
        );
        assert_eq!(
            paces[pace]["miles_per_hour"], mph,
            "rules topic Travel Pace: {pace}"
        );
        assert_eq!(
            paces[pace]["miles_per_day"], miles,
            "rules topic Travel Pace: {pace}"
        );
    }
    let thresholds = mechanic("encounter difficulty", "thresholds_by_level");
    assert_eq!(
        thresholds["1"],
        serde_json::json!([25, 50, 75, 100]),
        "rules topic Encounter Difficulty: level 1"
    );
    assert_eq!(
        thresholds["20"],
        serde_json::json!([2800, 5700, 8500, 12700]),
        "rules topic Encounter Difficulty: level 20"
    );
    let actions = mechanic("actions in combat", "list");
    for action in [
        "Attack",
        "Cast a Spell",
        "Dash",
        "Disengage",
        "Dodge",
        "Help",
        "Hide",
        "Ready",
        "Search",
        "Use an Object",
    ] {
        assert!(
            actions
                .as_array()
                .is_some_and(|list| list.iter().any(|a| a == action)),
            "rules topic Actions in Combat should list {action}"
        );
    }
    assert_eq!(
        mechanic("flanking", "optional"),
        true,
        "rules topic Flanking is an optional rule"
    );
}

#[test]
fn rules_lookups_by_alias_and_misses() {
    let srd = Srd::bundled();
    for (query, expected) in [
        ("grapple", "grappling"),
        ("escape grapple", "grappling"),
        ("opportunity attack", "opportunity-attacks"),
        ("Attack of Opportunity", "opportunity-attacks"),
        ("cover", "cover"),
        ("half cover", "cover"),
        ("falling", "falling"),
        ("fall damage", "falling"),
        ("suffocation", "suffocating"),
        ("holding breath", "suffocating"),
        ("darkvision", "light-and-vision"),
        ("long jump", "jumping"),
        ("death save", "death-saving-throws"),
        ("instant death", "massive-damage"),
        ("temp hp", "temporary-hit-points"),
        ("spell save DC", "spell-attack-rolls-and-save-dcs"),
        ("upcasting", "casting-at-higher-levels"),
        ("encumbered", "encumbrance-variant"),
        ("flanking", "flanking-optional-rule"),
        ("xp thresholds", "encounter-difficulty"),
        ("dual wielding", "two-weapon-fighting"),
        ("advantage", "advantage-and-disadvantage"),
    ] {
        let found = srd
            .rule(query)
            .unwrap_or_else(|e| panic!("rules lookup {query:?}: {e}"));
        assert_eq!(found.slug, expected, "rules lookup {query:?}");
    }
    let miss = srd.rule("grapling").expect_err("rules lookup \"grapling\"");
    assert!(
        miss.suggestions.iter().any(|s| s == "Grappling"),
        "rules lookup \"grapling\" should suggest Grappling: {miss}"
    );
    assert_eq!(
        miss.suggestions.first().map(String::as_str),
        Some("Grappling"),
        "rules lookup \"grapling\": {miss}"
    );
}
