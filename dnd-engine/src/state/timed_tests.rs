//! Unit tests of `timed.rs`: speed changes combined, and a timed effect that would do nothing refused.

use super::{RollOn, TimedEffect, TimedKind};
use crate::state::{Change, speed_with};

fn effect(kind: TimedKind) -> TimedEffect {
    TimedEffect {
        source: "isolde".into(),
        spell: "Test".into(),
        target: "kraven".into(),
        concentration: false,
        rounds_left: Some(10),
        ends_on_damage: false,
        level: 1,
        at_turn_end: false,
        kind,
    }
}

fn speed(feet: i32, halved: bool, doubled: bool, stopped: bool) -> TimedEffect {
    effect(TimedKind::Speed {
        change: crate::state::SpeedChange {
            feet,
            halved,
            doubled,
            stopped,
        },
    })
}

#[test]
fn speed_adds_feet_then_halves_or_doubles_and_stops_at_0() {
    assert_eq!(speed_with(&[speed(-10, false, false, false)], 30), 20);
    assert_eq!(speed_with(&[speed(-40, false, false, false)], 30), 0);
    // Longstrider and Haste: (30 + 10) doubled; Slow as well: halved and doubled.
    let both = [speed(10, false, false, false), speed(0, false, true, false)];
    assert_eq!(speed_with(&both, 30), 80);
    let slowed = [speed(0, true, false, false), speed(0, false, true, false)];
    assert_eq!(speed_with(&slowed, 30), 30);
    assert_eq!(speed_with(&[speed(10, false, true, true)], 30), 0);
}

#[test]
fn a_timed_effect_that_does_nothing_is_refused_and_changes_nothing() {
    let mut state = crate::adventure::Adventure::built_in()
        .new_game(&["isolde", "kraven"])
        .unwrap();
    let before = state.clone();
    for kind in [
        TimedKind::Resistance {
            damage_types: crate::rules::DamageTypes::EMPTY,
        },
        TimedKind::Speed {
            change: crate::state::SpeedChange::default(),
        },
        TimedKind::WeaponDamage {
            count: 0,
            sides: 4,
            damage_type: crate::rules::DamageType::Radiant,
            next_hit_only: false,
            weapon: None,
        },
        TimedKind::Advantage {
            on: RollOn::Attacks,
            ability: Some(crate::rules::Ability::Strength),
            disadvantage: false,
            next_only: false,
            source_only: false,
        },
    ] {
        let err = state
            .apply(&Change::TimedEffectStarted {
                effect: effect(kind),
            })
            .unwrap_err();
        assert!(err.to_string().contains("does nothing as given"), "{err}");
        assert_eq!(state, before);
    }
    state
        .apply(&Change::TimedEffectStarted {
            effect: speed(10, false, false, false),
        })
        .unwrap();
    assert_eq!(crate::state::speed_now(&state, "kraven", 30), 40);
}
