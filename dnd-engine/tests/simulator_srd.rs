//! The encounter simulator on bundled SRD monsters: every monster that has a damaging action
//! becomes a combatant, and known match-ups come out the way the tables say they should.

use dnd_engine::rules::{
    ChallengeRating, DamageDice, DamageType, Difficulty, encounter_difficulty,
};
use dnd_engine::simulator::{Combatant, MonsterConversionError, Side, simulate};
use dnd_engine::srd::Srd;

fn monster(name: &str) -> Combatant {
    Combatant::from_monster(Srd::bundled().monster(name).unwrap()).unwrap()
}

fn level_three_fighter(name: &str) -> Combatant {
    Combatant::new(name, Side::Party, 28, 18)
        .with_initiative(1, 12)
        .with_saves([5, 1, 4, 0, 1, -1])
        .with_attack(
            "Longsword",
            5,
            &[DamageDice::new(1, 8, 3, DamageType::Slashing)],
        )
}

#[test]
fn every_bundled_monster_converts_or_says_why() {
    for m in &Srd::bundled().monsters {
        match Combatant::from_monster(m) {
            Ok(c) => {
                assert!(!c.actions.is_empty(), "{}", m.name);
                assert_eq!(c.hit_points, m.hit_points);
                assert_eq!(c.armor_class, m.armor_class);
            }
            Err(MonsterConversionError::NoDamagingAction(name)) => assert_eq!(name, m.name),
            Err(other) => panic!("{}: {other}", m.name),
        }
    }
}

#[test]
fn multiattack_expands_into_its_attacks() {
    // The ogre has no multiattack (one greatclub); the bugbear neither; the veteran and the
    // owlbear make several attacks a turn.
    assert_eq!(monster("Ogre").actions.len(), 1);
    assert!(monster("Owlbear").actions.len() >= 2);
    assert!(monster("Veteran").actions.len() >= 2);
}

#[test]
fn four_fighters_beat_six_goblins_and_a_lone_commoner_does_not() {
    let party: Vec<_> = (0..4)
        .map(|i| level_three_fighter(&format!("F{i}")))
        .collect();
    let goblins: Vec<_> = (0..6).map(|_| monster("Goblin")).collect();
    let report = simulate(&party, &goblins, 2_000, 42).unwrap();
    assert!(report.party_win_probability > 0.95, "{report:?}");
    let xp = encounter_difficulty(&[3; 4], &[ChallengeRating::parse("1/4").unwrap(); 6]);
    assert_eq!(xp.difficulty, Difficulty::Medium);

    let commoner = [monster("Commoner")];
    let lone = Combatant {
        side: Side::Party,
        ..commoner[0].clone()
    };
    let report = simulate(&[lone], &[monster("Ogre")], 500, 42).unwrap();
    assert!(report.party_win_probability < 0.05, "{report:?}");
}

#[test]
fn one_hero_against_the_frost_harpy_is_a_real_fight() {
    let report = simulate(
        &[level_three_fighter("Kraven")],
        &[monster("Harpy")],
        2_000,
        7,
    )
    .unwrap();
    assert!(
        (0.6..1.0).contains(&report.party_win_probability),
        "{report:?}"
    );
    assert!(report.characters[0].mean_hp_lost > 1.0, "{report:?}");
}
