//! The 5e-database loader's spells as effects: how many of the real file's 319 spells load with
//! full effects, partial or narrative only (the loader's typed report), and worked examples of
//! what the conversion builds. Without the reference folder these tests skip with a printed
//! reason (or fail on CI, which must have it).

use std::path::PathBuf;

use dnd_engine::effects::{Duration, Effect};
use dnd_engine::rules::{Ability, Condition, DamageType};
use dnd_engine::srd::{FiveEDatabase, OnSave, Spell, load_dir};

#[path = "support/environment.rs"]
mod environment;

fn real() -> Option<FiveEDatabase> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/5e-database-2014"
    ));
    if !dir.is_dir() {
        environment::missing(&format!(
            "{} is absent: the 5e-database reference files live beside the repository, not in \
             it; put the 2014 SRD JSON files of the 5e-database project there",
            dir.display()
        ));
        return None;
    }
    Some(load_dir(&dir).expect("the reference folder loads"))
}

fn spell<'a>(db: &'a FiveEDatabase, name: &str) -> &'a Spell {
    db.spells
        .loaded
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} did not load"))
}

#[test]
fn the_report_counts_full_partial_and_narrative_spells() {
    let Some(db) = real() else { return };
    let report = &db.spell_effects;
    println!("{report}");
    assert_eq!(report.total(), 319, "every spell that loaded is counted");
    assert_eq!(
        (
            report.full.len(),
            report.partial.len(),
            report.narrative.len()
        ),
        (79, 45, 195),
        "{report}"
    );
    assert_eq!(
        report.to_string(),
        "319 spells: 79 with full effects, 45 partial, 195 narrative only"
    );
    for name in [
        "Fireball",
        "Hold Person",
        "Cure Wounds",
        "Fire Bolt",
        "Sacred Flame",
    ] {
        assert!(report.full.iter().any(|n| n == name), "{name} is full");
    }
    let partial = |name: &str| {
        report
            .partial
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, why)| why.join("; "))
            .unwrap_or_else(|| panic!("{name} is partial"))
    };
    assert!(partial("Magic Missile").contains("neither an attack nor a save"));
    assert!(partial("Flame Strike").contains("second group of dice"));
    for name in ["Comprehend Languages", "Prestidigitation", "Sleep"] {
        assert!(
            report.narrative.iter().any(|n| n == name),
            "{name} is narrative"
        );
    }
    // The report and the spells agree: a narrative spell has no effects, the others some.
    for s in &db.spells.loaded {
        let narrative = report.narrative.contains(&s.name);
        assert_eq!(s.effects.is_empty(), narrative, "{}", s.name);
    }
}

#[test]
fn fireball_loads_as_a_dexterity_save_for_half_of_8d6_and_1d6_a_slot() {
    let Some(db) = real() else { return };
    let [
        Effect::Save {
            ability,
            dc: None,
            on_success,
            ignores_cover: false,
            on_fail,
        },
    ] = spell(&db, "Fireball").effects.as_slice()
    else {
        panic!("{:?}", spell(&db, "Fireball").effects)
    };
    assert_eq!((*ability, *on_success), (Ability::Dexterity, OnSave::Half));
    let [Effect::Damage { dice, damage_type }] = on_fail.as_slice() else {
        panic!("{on_fail:?}")
    };
    assert_eq!(*damage_type, DamageType::Fire);
    assert_eq!(dice.at(3, 3, 5, 3), (8, 6, 0));
    assert_eq!(dice.at(3, 9, 17, 3), (14, 6, 0), "14d6 at 9th level");
}

#[test]
fn cantrips_heals_and_holds_load_with_their_numbers() {
    let Some(db) = real() else { return };
    // Fire Bolt: a spell attack, 1d10 fire, 2d10 at character level 5, 4d10 at 17.
    let [Effect::SpellAttack { on_hit, .. }] = spell(&db, "Fire Bolt").effects.as_slice() else {
        panic!("Fire Bolt")
    };
    let [Effect::Damage { dice, .. }] = on_hit.as_slice() else {
        panic!("{on_hit:?}")
    };
    assert_eq!(dice.at(0, 0, 5, 3), (2, 10, 0));
    assert_eq!(dice.at(0, 0, 17, 3), (4, 10, 0));
    // Cure Wounds: 1d8 + the modifier, 1d8 more a slot.
    let [Effect::Heal { dice }] = spell(&db, "Cure Wounds").effects.as_slice() else {
        panic!("Cure Wounds")
    };
    assert_eq!(dice.at(1, 3, 5, 3), (3, 8, 3));
    // Sacred Flame ignores cover.
    assert!(matches!(
        spell(&db, "Sacred Flame").effects.as_slice(),
        [Effect::Save {
            ignores_cover: true,
            ..
        }]
    ));
    // Hold Person: paralyzed for up to a minute, the save repeated each turn.
    let [Effect::Save { on_fail, .. }] = spell(&db, "Hold Person").effects.as_slice() else {
        panic!("Hold Person")
    };
    assert_eq!(
        on_fail,
        &vec![Effect::Condition {
            condition: Condition::Paralyzed,
            duration: Duration::Minutes(1),
            repeat_save: true,
            ends_on_damage: false,
        }]
    );
}
