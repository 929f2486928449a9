//! The encounter simulator playing monsters' special actions by the game's rule: a breath
//! with its recharge, save actions, and damaging spells from a monster's list with its slots.
//! Each is checked by what it changes over many seeded fights.

use dnd_engine::rules::{DamageDice, DamageType};
use dnd_engine::simulator::{Combatant, Side, SimAction, simulate};
use dnd_engine::srd::Srd;

fn fighter(name: &str) -> Combatant {
    Combatant::new(name, Side::Party, 60, 16)
        .with_initiative(1, 12)
        .with_saves([5, 1, 4, 0, 1, -1])
        .with_attack(
            "Longsword",
            5,
            &[DamageDice::new(1, 8, 3, DamageType::Slashing)],
        )
}

fn party() -> Vec<Combatant> {
    vec![fighter("Kraven"), fighter("Brom"), fighter("Tess")]
}

/// Hit points the party lost on average, summed.
fn party_losses(monster: &Combatant) -> f64 {
    let report = simulate(&party(), std::slice::from_ref(monster), 2000, 11).unwrap();
    report.characters.iter().map(|c| c.mean_hp_lost).sum()
}

#[test]
fn a_breath_with_its_recharge_hurts_more_than_the_bite_alone() {
    let srd = Srd::bundled();
    let wyrmling = Combatant::from_monster(srd.monster("white-dragon-wyrmling").unwrap()).unwrap();
    assert_eq!(wyrmling.specials.len(), 1);
    assert_eq!(wyrmling.specials[0].recharge, Some(5));
    assert!(wyrmling.specials[0].area);
    let mut bite_only = wyrmling.clone();
    bite_only.specials.clear();
    let mut every_turn = wyrmling.clone();
    every_turn.specials[0].recharge = None;
    let (bite, breath, unlimited) = (
        party_losses(&bite_only),
        party_losses(&wyrmling),
        party_losses(&every_turn),
    );
    assert!(breath > bite * 1.2, "breath {breath:.1} vs bite {bite:.1}");
    assert!(
        unlimited > breath,
        "a breath every turn {unlimited:.1} beats one that recharges {breath:.1}"
    );
}

#[test]
fn the_mage_casts_its_damaging_spells_with_its_slots() {
    let srd = Srd::bundled();
    let mage = Combatant::from_monster_in(srd.monster("mage").unwrap(), srd).unwrap();
    let names: Vec<&str> = mage
        .specials
        .iter()
        .map(|s| match &s.action {
            SimAction::Attack { name, .. } | SimAction::Save { name, .. } => name.as_str(),
        })
        .collect();
    assert_eq!(
        names,
        ["Fire Bolt", "Fireball"],
        "the damaging spells with effects data"
    );
    // Fire Bolt at will at caster level 9: 2d10; Fireball with a 3rd-level slot of three.
    let fire_bolt = &mage.specials[0];
    assert!(fire_bolt.pool.is_none());
    let SimAction::Attack { to_hit, damage, .. } = &fire_bolt.action else {
        panic!("{fire_bolt:?}");
    };
    assert_eq!((*to_hit, damage[0].count, damage[0].sides), (6, 2, 10));
    let fireball = &mage.specials[1];
    assert_eq!(mage.pools[usize::from(fireball.pool.unwrap())], 3);
    let SimAction::Save { dc, damage, .. } = &fireball.action else {
        panic!("{fireball:?}");
    };
    assert_eq!((*dc, damage[0].count, damage[0].sides), (14, 8, 6));
    let mut dagger_only = mage.clone();
    dagger_only.specials.clear();
    let mut one_fireball = mage.clone();
    let p = usize::from(one_fireball.specials[1].pool.unwrap());
    one_fireball.pools[p] = 1;
    let (dagger, one, three) = (
        party_losses(&dagger_only),
        party_losses(&one_fireball),
        party_losses(&mage),
    );
    assert!(one > dagger, "spells {one:.1} vs dagger {dagger:.1}");
    assert!(three > one, "three Fireballs {three:.1} vs one {one:.1}");
}

#[test]
fn a_monster_without_specials_plays_as_before() {
    let srd = Srd::bundled();
    let goblin = Combatant::from_monster(srd.monster("goblin").unwrap()).unwrap();
    assert!(goblin.specials.is_empty() && goblin.pools.is_empty());
    let same = Combatant::from_monster_in(srd.monster("goblin").unwrap(), srd).unwrap();
    assert_eq!(goblin, same);
}
