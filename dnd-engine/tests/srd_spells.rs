//! Checks the bundled SRD spell list (`src/srd/data/spells.json`) through the public API.
//!
//! - The bundled files parse, and the spell list is big enough: at least 60 spells, levels 0 to
//!   3 only, with at least 10 cantrips and 10 spells of each of levels 1 to 3.
//! - Every spell is well formed: its slug is unique and equal to `slugify(name)`; it has a
//!   description; a concentration spell's duration starts with "Up to"; cantrips scale by
//!   character level and leveled spells by slot level; every damage and healing dice string
//!   parses with the dice engine, and slot scaling has no key below the spell's level; the dice
//!   of a spell's first attack or save, read from its effects, parse at every slot.
//! - Known SRD facts hold for Fireball, Cure Wounds and Fire Bolt.
//! - Lookups forgive spelling: "magic-missile" finds Magic Missile, and "FIRE BALL" misses but
//!   suggests Fireball.
//!
//! Every failure message names the spell it is about.

use std::collections::HashSet;

use dnd_engine::dice::DiceExpr;
use dnd_engine::effects::Effect;
use dnd_engine::rules::{Ability, DamageType};
use dnd_engine::srd::{
    AttackKind, FirstRoll, OnSave, School, Spell, SpellRange, SpellReach, Srd, slugify,
};

fn spells() -> Vec<Spell> {
    Srd::parse_bundled()
        .expect("the bundled SRD files parse")
        .spells
}

fn spell<'a>(spells: &'a [Spell], name: &str) -> &'a Spell {
    spells
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} is missing from the bundled spells"))
}

#[test]
fn bundled_data_parses_with_enough_spells_of_each_level() {
    let spells = spells();
    assert!(
        spells.len() >= 60,
        "only {} bundled spells, expected at least 60",
        spells.len()
    );
    for s in &spells {
        assert!(
            s.level <= 3,
            "{}: level {} is outside 0..=3",
            s.name,
            s.level
        );
    }
    for level in 0..=3u8 {
        let count = spells.iter().filter(|s| s.level == level).count();
        assert!(
            count >= 10,
            "only {count} spells of level {level}, expected at least 10"
        );
    }
}

#[test]
fn slugs_are_unique_and_match_the_names() {
    let spells = spells();
    let mut seen = HashSet::new();
    for s in &spells {
        assert_eq!(
            s.slug,
            slugify(&s.name),
            "{}: slug {:?} is not slugify(name)",
            s.name,
            s.slug
        );
        assert!(
            seen.insert(s.slug.clone()),
            "{}: duplicate slug {:?}",
            s.name,
            s.slug
        );
    }
}

#[test]
fn every_spell_has_text_and_consistent_durations() {
    for s in &spells() {
        assert!(
            !s.description.trim().is_empty(),
            "{}: empty description",
            s.name
        );
        if let Some(higher) = &s.higher_levels {
            assert!(!higher.trim().is_empty(), "{}: empty higher_levels", s.name);
        }
        if s.concentration {
            assert!(
                s.duration.starts_with("Up to"),
                "{}: a concentration spell's duration {:?} should start with \"Up to\"",
                s.name,
                s.duration
            );
        }
        assert!(
            !s.casting_time.is_empty(),
            "{}: casting time missing",
            s.name
        );
        for class in &s.classes {
            assert_eq!(
                class,
                &class.to_lowercase(),
                "{}: class {class:?} is not lower case",
                s.name
            );
        }
    }
}

/// The dice of a spell's first attack, save or darts, at every slot it can use (every caster
/// level for a cantrip), read from its effects, parse with the dice engine.
#[test]
fn the_first_rolls_dice_parse_at_every_slot_and_level() {
    for s in &spells() {
        let Some(dice) = s.damage_dice(s.level, 1, 3) else {
            continue;
        };
        let levels: Vec<(u8, u8)> = if s.level == 0 {
            (1..=20).map(|l| (0, l)).collect()
        } else {
            (s.level..=9).map(|slot| (slot, 5)).collect()
        };
        for (slot, level) in levels {
            let d = s.damage_dice(slot, level, 3).expect("dice at every slot");
            assert!(
                d.count >= dice.count,
                "{}: fewer dice at slot {slot}",
                s.name
            );
            assert!(
                DiceExpr::parse(&d.dice_text()).is_ok(),
                "{}: {} does not parse",
                s.name,
                d.dice_text()
            );
        }
    }
}

#[test]
fn known_facts_hold() {
    let spells = spells();

    let fireball = spell(&spells, "Fireball");
    assert_eq!(fireball.level, 3, "Fireball: level");
    assert_eq!(fireball.school, School::Evocation, "Fireball: school");
    let Some(FirstRoll::Save(save)) = fireball.first_roll() else {
        panic!("Fireball: has a save");
    };
    assert_eq!(save.ability, Ability::Dexterity, "Fireball: save ability");
    assert_eq!(save.on_success, OnSave::Half, "Fireball: half on a success");
    let at = |slot| {
        fireball
            .damage_dice(slot, 5, 3)
            .expect("Fireball: has damage")
    };
    assert_eq!(at(3).kind, DamageType::Fire, "Fireball: damage type");
    assert_eq!(at(3).dice_text(), "8d6", "Fireball: damage at slot 3");
    assert_eq!(at(4).dice_text(), "9d6", "Fireball: damage at slot 4");
    let area = fireball.area.as_ref().expect("Fireball: has an area");
    assert_eq!(
        (area.shape.as_str(), area.size),
        ("sphere", 20),
        "Fireball: area"
    );

    let cure = spell(&spells, "Cure Wounds");
    let Some(Effect::Heal { dice }) = cure.effects.first() else {
        panic!("Cure Wounds: heals");
    };
    assert!(dice.add_modifier, "Cure Wounds: adds the modifier");
    assert_eq!(
        dice.at(1, 1, 1, 3),
        (1, 8, 3),
        "Cure Wounds: 1d8 + 3 at slot 1"
    );
    assert_eq!(
        dice.at(1, 2, 1, 3),
        (2, 8, 3),
        "Cure Wounds: 2d8 + 3 at slot 2"
    );

    let bolt = spell(&spells, "Fire Bolt");
    assert_eq!(bolt.level, 0, "Fire Bolt: a cantrip");
    assert_eq!(
        bolt.attack_kind(),
        Some(AttackKind::RangedSpell),
        "Fire Bolt: ranged spell attack"
    );
    let at = |level| {
        bolt.damage_dice(0, level, 3)
            .expect("Fire Bolt: has damage")
    };
    assert_eq!(at(1).dice_text(), "1d10", "Fire Bolt: damage at level 1");
    assert_eq!(at(4).dice_text(), "1d10", "Fire Bolt: damage at level 4");
    assert_eq!(at(5).dice_text(), "2d10", "Fire Bolt: damage at level 5");
    assert_eq!(
        spell(&spells, "Shocking Grasp").attack_kind(),
        Some(AttackKind::MeleeSpell),
        "Shocking Grasp: melee spell attack"
    );
}

#[test]
fn every_range_is_read_and_says_what_it_reaches() {
    for s in spells() {
        // The text comes back as the data wrote it: nothing was lost in the parse.
        let text = s.range.to_string();
        assert_eq!(
            SpellRange::parse(&text).as_ref(),
            Some(&s.range),
            "{}",
            s.name
        );
        match (&s.range, s.reach()) {
            (SpellRange::Feet(n), SpellReach::Within(r)) => assert!(r >= *n, "{}", s.name),
            (SpellRange::Touch, reach) => assert_eq!(reach, SpellReach::Within(5), "{}", s.name),
            (SpellRange::Caster { .. }, SpellReach::CasterOnly) => assert!(
                s.area.is_none() && s.attack_kind().is_none() && !s.deals_or_heals(),
                "{}: a Self spell that reaches no one else has no area, attack or damage",
                s.name
            ),
            _ => {}
        }
        // Sacred Flame's rule, read from the data, never from the words.
        assert_eq!(
            matches!(s.first_roll(), Some(FirstRoll::Save(save)) if save.ignores_cover),
            s.description.contains("cover does not help"),
            "{}",
            s.name
        );
    }
}

#[test]
fn lookups_forgive_spelling_and_suggest_near_names() {
    let srd = Srd::bundled();
    let missile = srd
        .spell("magic-missile")
        .expect("magic-missile finds Magic Missile");
    assert_eq!(missile.name, "Magic Missile");

    let miss = srd
        .spell("FIRE BALL")
        .expect_err("FIRE BALL is not a spell's name");
    assert!(
        miss.suggestions.iter().any(|s| s == "Fireball"),
        "Fireball: not suggested for \"FIRE BALL\": {miss}"
    );
}
