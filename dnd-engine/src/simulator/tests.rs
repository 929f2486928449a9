use super::*;
use crate::rules::DamageType;

fn fighter(name: &str) -> Combatant {
    Combatant::new(name, Side::Party, 28, 18)
        .with_initiative(1, 12)
        .with_saves([5, 1, 4, 0, 1, -1])
        .with_attack(
            "Longsword",
            5,
            &[DamageDice::new(1, 8, 3, DamageType::Slashing)],
        )
}

fn goblin(i: usize) -> Combatant {
    Combatant::new(format!("Goblin {i}"), Side::Monsters, 7, 15)
        .with_initiative(2, 14)
        .with_attack(
            "Scimitar",
            4,
            &[DamageDice::new(1, 6, 2, DamageType::Slashing)],
        )
}

#[test]
fn same_seed_same_report() {
    let party = vec![fighter("A"), fighter("B")];
    let monsters: Vec<_> = (0..3).map(goblin).collect();
    let a = simulate(&party, &monsters, 300, 42).unwrap();
    let b = simulate(&party, &monsters, 300, 42).unwrap();
    assert_eq!(a, b);
    let c = simulate(&party, &monsters, 300, 43).unwrap();
    assert_ne!(a, c, "a different seed should give different fights");
}

#[test]
fn overwhelming_odds_decide_the_outcome() {
    let party: Vec<_> = (0..4).map(|i| fighter(&format!("F{i}"))).collect();
    let one_goblin = [goblin(0)];
    let easy = simulate(&party, &one_goblin, 500, 1).unwrap();
    assert!(easy.party_win_probability > 0.99, "{easy:?}");
    assert!(easy.mean_rounds <= 2.0, "{easy:?}");

    let lone = [Combatant::new("Commoner", Side::Party, 4, 10).with_attack(
        "Club",
        2,
        &[DamageDice::new(1, 4, 0, DamageType::Bludgeoning)],
    )];
    let horde: Vec<_> = (0..8).map(goblin).collect();
    let hard = simulate(&lone, &horde, 500, 1).unwrap();
    assert!(hard.party_win_probability < 0.01, "{hard:?}");
    assert!(hard.characters[0].downed_probability > 0.99);
}

#[test]
fn even_fights_land_in_between_and_cost_hit_points() {
    let party = vec![fighter("A")];
    let monsters: Vec<_> = (0..4).map(goblin).collect();
    let r = simulate(&party, &monsters, 2000, 7).unwrap();
    assert!((0.05..0.95).contains(&r.party_win_probability), "{r:?}");
    assert!(r.characters[0].mean_hp_lost > 5.0, "{r:?}");
    assert!(r.characters[0].death_probability <= r.characters[0].downed_probability);
}

#[test]
fn save_actions_and_resistance() {
    // A breath that always lands for 10 fire: a fire-immune target never loses a hit point.
    let breath = SimAction::Save {
        name: "Breath".into(),
        ability: Ability::Dexterity,
        dc: 40,
        damage: [DamageDice::new(0, 0, 10, DamageType::Fire)]
            .into_iter()
            .collect(),
        half_on_success: true,
        reach: Reach::ranged(30, 30),
    };
    let mut dragon = Combatant::new("Wyrmling", Side::Monsters, 1000, 30);
    dragon.actions.push(breath);
    let mut immune = fighter("Salamander-kin");
    immune.defenses.immunities.insert(DamageType::Fire);
    let r = simulate(&[immune], &[dragon.clone()], 20, 3).unwrap();
    assert_eq!(r.characters[0].mean_hp_lost, 0.0);
    let r = simulate(&[fighter("Plain")], &[dragon], 20, 3).unwrap();
    assert_eq!(r.characters[0].mean_hp_lost, 28.0);
    assert_eq!(r.party_win_probability, 0.0);
}

#[test]
fn bad_setups_are_errors() {
    assert!(matches!(
        simulate(&[], &[goblin(0)], 10, 0),
        Err(SimulationError::EmptySide { .. })
    ));
    assert_eq!(
        simulate(&[fighter("A")], &[goblin(0)], 0, 0),
        Err(SimulationError::NoRuns)
    );
    let idle = Combatant::new("Statue", Side::Monsters, 10, 10);
    let err = simulate(&[fighter("A")], &[idle], 10, 0).unwrap_err();
    assert!(err.to_string().contains("Statue"), "{err}");
}
