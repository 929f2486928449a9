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

fn archer(name: &str) -> Combatant {
    Combatant::new(name, Side::Party, 20, 14)
        .with_initiative(3, 16)
        .with_attack(
            "Longbow",
            5,
            &[DamageDice::new(1, 8, 3, DamageType::Piercing)],
        )
        .with_reach(Reach::ranged(150, 600))
}

fn brute(i: usize) -> Combatant {
    Combatant::new(format!("Brute {i}"), Side::Monsters, 30, 12).with_attack(
        "Club",
        6,
        &[DamageDice::new(2, 6, 4, DamageType::Bludgeoning)],
    )
}

/// Both sides in one list, as `simulate_on` builds it.
fn everyone(party: &[Combatant], monsters: &[Combatant]) -> Vec<Combatant> {
    party.iter().chain(monsters).cloned().collect()
}

/// Whether anyone of the party lost hit points in the first round, per seed.
fn hit_in_round_one(field: &Battlefield, seeds: std::ops::Range<u64>) -> Vec<bool> {
    let all = everyone(&[archer("A"), archer("B")], &[brute(1), brute(2), brute(3)]);
    let mut arena = arena::Arena::new(&all, field);
    seeds
        .map(|seed| {
            let mut rng = seeded_rng(seed);
            arena.start(&mut rng);
            arena.round(1, &mut rng);
            arena.fighters[..2].iter().any(|f| f.hp.current < f.hp.max)
        })
        .collect()
}

#[test]
fn a_melee_monster_must_close_first() {
    // 60 ft apart, with the archers' backs to the wall (they cannot give ground): a brute
    // walks 30 ft, so the first round has no melee hit, whoever goes first.
    let wall = Battlefield {
        start_distance_ft: 60,
        retreat_ft: 0,
    };
    assert!(hit_in_round_one(&wall, 0..40).iter().all(|hit| !hit));
    let all = everyone(&[archer("A")], &[brute(1)]);
    let mut arena = arena::Arena::new(&all, &wall);
    let mut rng = seeded_rng(1);
    arena.start(&mut rng);
    arena.round(1, &mut rng);
    assert_eq!(arena.fighters[1].at, Position { x: 30, y: 0, z: 0 });
    // 30 ft apart, a brute reaches its archer in its first turn and hits in some fights.
    let near = Battlefield {
        start_distance_ft: 30,
        retreat_ft: 0,
    };
    assert!(hit_in_round_one(&near, 0..40).iter().any(|hit| *hit));
}

#[test]
fn a_ranged_hero_keeps_a_slow_monster_at_bay_until_the_wall() {
    let wizard = Combatant::new("Wizard", Side::Party, 17, 12)
        .with_initiative(2, 14)
        .with_magic_attack(
            "Fire Bolt",
            5,
            &[DamageDice::new(1, 10, 0, DamageType::Fire)],
        )
        .with_reach(Reach::ranged(120, 120));
    let mut zombie = Combatant::new("Zombie", Side::Monsters, 60, 8)
        .with_speed(20)
        .with_attack(
            "Slam",
            3,
            &[DamageDice::new(1, 6, 1, DamageType::Bludgeoning)],
        );
    zombie.nerve.fearless = true;
    // Open ground: it steps back 30 ft a turn, the zombie walks 20, and never lands a blow.
    let open = Battlefield {
        start_distance_ft: 30,
        retreat_ft: 100_000,
    };
    let r = simulate_on(
        &open,
        std::slice::from_ref(&wizard),
        std::slice::from_ref(&zombie),
        500,
        5,
    )
    .unwrap();
    assert_eq!(r.characters[0].mean_hp_lost, 0.0, "{r:?}");
    assert_eq!(r.party_win_probability, 1.0, "{r:?}");
    // Backs to a wall 30 ft behind: the zombie catches up and the wizard bleeds.
    let room = Battlefield::default();
    let r = simulate_on(&room, &[wizard], &[zombie], 500, 5).unwrap();
    assert!(r.characters[0].mean_hp_lost > 1.0, "{r:?}");
}

#[test]
fn leaving_reach_provokes_an_opportunity_attack() {
    // The hero stands next to a wall of a monster and goes for the runt 25 ft away (the
    // fewest hit points): leaving the wall's reach provokes its club, once, in every fight.
    let hero = fighter("Hero").at(Position { x: 0, y: 0, z: 0 });
    let wall = brute(1).at(Position { x: 5, y: 0, z: 0 });
    let runt = |at| {
        Combatant::new("Runt", Side::Monsters, 1, 10)
            .with_speed(0)
            .with_attack(
                "Sling",
                0,
                &[DamageDice::new(1, 4, 0, DamageType::Bludgeoning)],
            )
            .with_reach(Reach::ranged(30, 120))
            .at(at)
    };
    let field = Battlefield::default();
    let far = runt(Position { x: 25, y: 0, z: 0 });
    let r = simulate_on(
        &field,
        std::slice::from_ref(&hero),
        &[wall.clone(), far],
        300,
        9,
    )
    .unwrap();
    assert!(r.mean_opportunity_attacks >= 1.0, "{r:?}");
    // With the runt beside it too, the hero never leaves anyone's reach: no such attack.
    let near = runt(Position { x: 5, y: 5, z: 0 });
    let r = simulate_on(&field, &[hero], &[wall, near], 300, 9).unwrap();
    assert_eq!(r.mean_opportunity_attacks, 0.0, "{r:?}");
}

#[test]
fn same_seed_same_report_with_positions() {
    let party = vec![archer("A"), fighter("B")];
    let monsters: Vec<_> = (0..3).map(brute).collect();
    let field = Battlefield {
        start_distance_ft: 45,
        retreat_ft: 15,
    };
    let a = simulate_on(&field, &party, &monsters, 300, 42).unwrap();
    let b = simulate_on(&field, &party, &monsters, 300, 42).unwrap();
    assert_eq!(a, b);
    assert!(a.mean_opportunity_attacks > 0.0 || a.mean_monsters_broken > 0.0);
    let c = simulate_on(&field, &party, &monsters, 300, 43).unwrap();
    assert_ne!(a, c, "a different seed should give different fights");
}

#[test]
fn a_combatant_saved_before_positions_still_loads() {
    // The fields positions added (speed, nerve, reach, start) all have defaults.
    let old = serde_json::json!({
        "name": "Goblin", "side": "monsters", "hit_points": 7, "armor_class": 15,
        "initiative_bonus": 2, "dexterity": 14, "saving_throws": [0, 0, 0, 0, 0, 0],
        "defenses": Defenses::default(), "at_zero": AtZero::Dies,
        "actions": [{"kind": "attack", "name": "Scimitar", "to_hit": 4,
                     "damage": [DamageDice::new(1, 6, 2, DamageType::Slashing)]}]
    });
    let goblin: Combatant = serde_json::from_value(old).unwrap();
    assert_eq!(goblin.speed, 30);
    assert_eq!(goblin.nerve, Nerve::default());
    assert_eq!(goblin.actions[0].reach(), Reach::melee(5));
    assert_eq!(goblin.start, None);
    let back: Combatant = serde_json::from_value(serde_json::to_value(&goblin).unwrap()).unwrap();
    assert_eq!(back, goblin);
}
