//! The odds shown for a spell are the odds rolled: for a spell attack (Fire Bolt) and a save
//! (Sacred Flame), the engine's exact chance and expected damage match what thousands of real
//! castings through `cast_spell` give; a casting that cannot be made has no odds.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::effects::Outcome;
use dnd_engine::rules::HitPoints;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, GameState, Position};
use dnd_engine::tools::odds;
use dnd_engine::tools::results::SpellCast;

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Isolde and Hedda with the harpy in sight, at 1,000 HP so no casting ends the test.
fn casters() -> GameState {
    let mut state = table::seen_harpy(&["isolde", "hedda"]);
    Arc::make_mut(&mut state.monsters)[0].hp = HitPoints::full(1_000);
    state
}

fn cast(caster: &str, spell: &str) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": ["frost-harpy"]})
}

/// Casts `args` `n` times from `state`, each with its own seed: how often it succeeded (a hit,
/// or a failed save) and the mean damage dealt.
fn cast_many(state: &GameState, args: &Value, n: u64) -> (f64, f64) {
    let (mut successes, mut damage) = (0u64, 0u64);
    for seed in 0..n {
        let mut t = Table::new(state.clone(), seed);
        let result: SpellCast = serde_json::from_value(t.ok("cast_spell", args.clone())).unwrap();
        for effect in &result.effects {
            match effect {
                Outcome::Attack { attack, .. } => {
                    successes += u64::from(attack.hit);
                    damage += u64::from(attack.total_damage);
                }
                Outcome::Save {
                    save, damage: d, ..
                } => {
                    successes += u64::from(!save.success);
                    damage += u64::from(*d);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    (successes as f64 / n as f64, damage as f64 / n as f64)
}

/// Within four standard errors of a proportion over `n` tries.
fn close(seen: f64, expected: f64, n: u64) {
    let sd = (expected * (1.0 - expected) / n as f64).sqrt().max(0.005);
    assert!(
        (seen - expected).abs() < 4.0 * sd,
        "seen {seen}, expected {expected}"
    );
}

#[test]
fn a_spell_attacks_odds_are_the_odds_rolled() {
    let state = casters();
    let args = cast("isolde", "Fire Bolt");
    let shown = odds(&state, Srd::bundled(), "cast_spell", &args).expect("odds for Fire Bolt");
    assert_eq!(shown.target, 11, "the harpy's AC");
    let expected = shown.expected_damage.expect("a damaging spell");
    let n = 3_000;
    let (hits, damage) = cast_many(&state, &args, n);
    close(hits, shown.chance, n);
    // 1d10 a hit (5.5), 2d10 a critical: the mean within a few tenths.
    assert!(
        (damage - expected).abs() < 0.35,
        "seen {damage}, expected {expected}"
    );
}

#[test]
fn a_saving_throw_spells_odds_are_the_odds_rolled() {
    let state = casters();
    let args = cast("hedda", "Sacred Flame");
    let shown = odds(&state, Srd::bundled(), "cast_spell", &args).expect("odds for Sacred Flame");
    let dc = state.character("hedda").unwrap().spellcasting().unwrap().1;
    assert_eq!(shown.target, dc);
    let expected = shown.expected_damage.expect("a damaging spell");
    let n = 3_000;
    let (failed, damage) = cast_many(&state, &args, n);
    close(failed, shown.chance, n);
    assert!(
        (damage - expected).abs() < 0.3,
        "seen {damage}, expected {expected}"
    );
}

#[test]
fn magic_missile_always_hits_with_three_darts_of_1d4_plus_1() {
    let state = casters();
    let args = cast("isolde", "Magic Missile");
    let shown = odds(&state, Srd::bundled(), "cast_spell", &args).expect("odds");
    assert_eq!(shown.chance, 1.0);
    assert_eq!(shown.expected_damage, Some(3.0 * 3.5));
    let upcast = json!({"caster": "isolde", "spell": "Magic Missile", "slot_level": 2, "targets": ["frost-harpy"]});
    let shown = odds(&state, Srd::bundled(), "cast_spell", &upcast).unwrap();
    assert_eq!(
        shown.expected_damage,
        Some(4.0 * 3.5),
        "a dart more per slot level"
    );
}

#[test]
fn a_casting_that_cannot_be_made_has_no_odds() {
    let state = casters();
    // A spell not known, a target not there.
    let srd = Srd::bundled();
    assert!(odds(&state, srd, "cast_spell", &cast("kraven", "Fire Bolt")).is_none());
    let nobody = json!({"caster": "isolde", "spell": "Fire Bolt", "slot_level": null, "targets": ["nobody"]});
    assert!(odds(&state, srd, "cast_spell", &nobody).is_none());
    // In a fight with positions, Ray of Frost (60 ft) at the harpy 65 ft off: out of range.
    let mut fight = casters();
    let mut changes = vec![Change::EncounterStarted {
        order: table::order(&["isolde", "hedda", "frost-harpy"]),
    }];
    for (id, x) in [("isolde", 0), ("hedda", 0), ("frost-harpy", 65)] {
        changes.push(Change::Moved {
            creature: id.into(),
            to: Position { x, y: 0, z: 0 },
        });
    }
    fight.apply_all(&changes).unwrap();
    assert!(odds(&fight, srd, "cast_spell", &cast("isolde", "Ray of Frost")).is_none());
    assert!(odds(&fight, srd, "cast_spell", &cast("isolde", "Fire Bolt")).is_some());
}

#[test]
fn blesss_d4_counts_in_the_odds_exactly_as_rolled() {
    // Hedda blesses Isolde: her Fire Bolt at the harpy (AC 11, +5) hits on 6+ unblessed
    // (0.75); with a d4 added, on 6 - d4: (0.80 + 0.85 + 0.90 + 0.95) / 4 = 0.875.
    let mut t = Table::new(casters(), 1);
    t.ok(
        "cast_spell",
        json!({"caster": "hedda", "spell": "Bless", "slot_level": null, "targets": ["isolde"]}),
    );
    let state = t.state;
    let args = cast("isolde", "Fire Bolt");
    let shown = odds(&state, Srd::bundled(), "cast_spell", &args).expect("odds for Fire Bolt");
    assert_eq!(shown.dice, "1d20+5+1d4");
    assert!((shown.chance - 0.875).abs() < 1e-9, "{shown:?}");
    let n = 3_000;
    let (hits, _) = cast_many(&state, &args, n);
    close(hits, shown.chance, n);
    let plain = odds(&casters(), Srd::bundled(), "cast_spell", &args).unwrap();
    assert!((plain.chance - 0.75).abs() < 1e-9, "{plain:?}");
}

#[test]
fn divine_favors_d4_counts_in_a_weapon_attacks_expected_damage() {
    let mut t = Table::fight(&["hedda"], &["hedda", "frost-harpy"], 1);
    let args = table::attack("hedda", "frost-harpy");
    let plain = odds(&t.state, Srd::bundled(), "roll_attack", &args).expect("attack odds");
    Arc::make_mut(&mut t.hero_mut("hedda").spells).push("Divine Favor".into());
    t.ok(
        "cast_spell",
        json!({"caster": "hedda", "spell": "Divine Favor", "slot_level": null, "targets": []}),
    );
    let favored = odds(&t.state, Srd::bundled(), "roll_attack", &args).expect("attack odds");
    assert_eq!(favored.chance, plain.chance, "the d4 is damage, not to hit");
    // 1d4 (2.5) on a hit, 2d4 (5) on a critical (a natural 20: 0.05).
    let more = favored.expected_damage.unwrap() - plain.expected_damage.unwrap();
    let want = 2.5 * (plain.chance - 0.05) + 5.0 * 0.05;
    assert!((more - want).abs() < 1e-9, "{more} vs {want}");
}
