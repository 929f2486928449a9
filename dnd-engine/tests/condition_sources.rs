//! Every condition on a character or a monster carries its cause, time left and what ends it,
//! in the snapshot the model sees (`state::condition_sources`, written by
//! `compact::condition`), and goes when what ends it comes: its duration, its source's
//! concentration, a save, damage.

use std::sync::Arc;

use dnd_engine::rules::{Ability, Condition, HitPoints};
use dnd_engine::state::{
    Change, GameState, Hold, RepeatSave, Target, TimedEffect, TimedKind, compact, condition_sources,
};

#[path = "support/table.rs"]
mod table;

fn effect(
    spell: &str,
    target: &str,
    condition: Condition,
    concentration: bool,
    ends_on_damage: bool,
) -> TimedEffect {
    TimedEffect {
        source: "hedda".into(),
        spell: spell.into(),
        target: target.into(),
        concentration,
        rounds_left: Some(10),
        ends_on_damage,
        level: 2,
        at_turn_end: false,
        kind: TimedKind::Condition {
            condition,
            repeat_save: concentration.then_some(RepeatSave {
                ability: Ability::Wisdom,
                dc: 13,
            }),
        },
    }
}

/// Hedda holds Kraven (Hold Person, concentration, a Wisdom save DC 13 each turn).
fn held() -> GameState {
    let mut state = table::seen_harpy(&["hedda", "kraven"]);
    state
        .apply_all(&[
            Change::Concentration {
                character: "hedda".into(),
                spell: Some("Hold Person".into()),
            },
            Change::TimedEffectStarted {
                effect: effect("Hold Person", "kraven", Condition::Paralyzed, true, false),
            },
        ])
        .unwrap();
    state
}

fn party_conditions(state: &GameState, id: &str) -> Vec<String> {
    state
        .snapshot()
        .party
        .into_iter()
        .find(|c| c.id == id)
        .unwrap()
        .conditions
}

fn monster_conditions(state: &GameState, id: &str) -> Vec<String> {
    state
        .snapshot()
        .monsters
        .into_iter()
        .find(|m| m.id == id)
        .unwrap()
        .conditions
}

#[test]
fn a_spells_condition_shows_its_spell_caster_rounds_and_what_ends_it() {
    let state = held();
    assert_eq!(
        party_conditions(&state, "kraven"),
        vec![
            "paralyzed (Hold Person, from Hedda Stonebrow; 10 rounds left; ends on a Wisdom save (DC 13) at the end of each of its turns, or Hedda Stonebrow's concentration ending)"
        ]
    );
    let sources = condition_sources(&state, "kraven");
    assert_eq!(sources.len(), 1);
    assert_eq!(sources[0].rounds_left, Some(10));
    // The text reads back to its condition, and the special texts read as none.
    assert_eq!(
        compact::read_condition(&compact::condition(&sources[0])),
        Some(Condition::Paralyzed)
    );
    assert_eq!(compact::read_condition("dying (saves 1✓ 0✗)"), None);
}

#[test]
fn a_monsters_hold_a_grapple_a_fall_and_0_hp_each_show_their_cause() {
    let mut state = table::fight(&["kraven", "wren"], &["kraven", "wren", "frost-harpy"]);
    state
        .apply_all(&[
            Change::HoldStarted {
                monster: "frost-harpy".into(),
                hold: Hold {
                    action: "Luring Song".into(),
                    target: "kraven".into(),
                    conditions: vec![Condition::Charmed],
                },
            },
            Change::ConditionAdded {
                target: Target::Character("kraven".into()),
                condition: Condition::Charmed,
            },
            Change::ConditionAdded {
                target: Target::Character("wren".into()),
                condition: Condition::Prone,
            },
            Change::ConditionAdded {
                target: Target::Monster("frost-harpy".into()),
                condition: Condition::Poisoned,
            },
        ])
        .unwrap();
    assert_eq!(
        party_conditions(&state, "kraven"),
        vec![
            "charmed (Luring Song, from Frost Harpy; ends on a save at the end of each of its turns, or Frost Harpy falling or leaving the fight)"
        ]
    );
    assert_eq!(
        party_conditions(&state, "wren"),
        vec!["prone (a situation; ends on standing up (half its movement))"]
    );
    assert_eq!(
        monster_conditions(&state, "frost-harpy"),
        vec!["poisoned (a situation)"]
    );
    // At 0 hit points: unconscious until healed, then dying.
    let hp = table::hero_mut(&mut state, "wren").hp.current;
    state
        .apply(&Change::Damage {
            target: Target::Character("wren".into()),
            amount: hp,
            critical: false,
        })
        .unwrap();
    let wren = party_conditions(&state, "wren");
    assert!(
        wren.contains(&"unconscious (0 hit points; ends on healing)".to_owned()),
        "{wren:?}"
    );
    assert!(wren.iter().any(|c| c.starts_with("dying")), "{wren:?}");
}

#[test]
fn a_condition_on_a_monster_from_a_spell_shows_in_its_view() {
    let mut state = table::seen_harpy(&["hedda"]);
    Arc::make_mut(&mut state.monsters)[0].hp = HitPoints::full(10);
    state
        .apply(&Change::TimedEffectStarted {
            effect: effect("Sleep", "frost-harpy", Condition::Unconscious, false, true),
        })
        .unwrap();
    assert_eq!(
        monster_conditions(&state, "frost-harpy"),
        vec!["unconscious (Sleep, from Hedda Stonebrow; 10 rounds left; ends on damage)"]
    );
    // Damage ends it, and the view with it.
    state
        .apply(&Change::Damage {
            target: Target::Monster("frost-harpy".into()),
            amount: 1,
            critical: false,
        })
        .unwrap();
    assert!(monster_conditions(&state, "frost-harpy").is_empty());
}

#[test]
fn what_ends_a_condition_removes_it_and_its_text() {
    // Its source's concentration.
    let mut state = held();
    state
        .apply(&Change::Concentration {
            character: "hedda".into(),
            spell: None,
        })
        .unwrap();
    assert!(party_conditions(&state, "kraven").is_empty());
    // Its duration: ten rounds are a minute.
    let mut state = held();
    state.apply(&Change::TimeAdvanced { minutes: 1 }).unwrap();
    assert!(party_conditions(&state, "kraven").is_empty());
    assert!(
        !state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Paralyzed)
    );
    // A save (the repeated save's success ends the effect).
    let mut state = held();
    let now = state.character("kraven").unwrap().timed_effects[0].clone();
    state
        .apply(&Change::TimedEffectEnded { effect: now })
        .unwrap();
    assert!(party_conditions(&state, "kraven").is_empty());
    // A hold's end lifts what it imposed.
    let mut state = table::seen_harpy(&["kraven"]);
    state
        .apply_all(&[
            Change::HoldStarted {
                monster: "frost-harpy".into(),
                hold: Hold {
                    action: "Luring Song".into(),
                    target: "kraven".into(),
                    conditions: vec![Condition::Charmed],
                },
            },
            Change::ConditionAdded {
                target: Target::Character("kraven".into()),
                condition: Condition::Charmed,
            },
            Change::HoldEnded {
                monster: "frost-harpy".into(),
                target: "kraven".into(),
            },
            Change::ConditionRemoved {
                target: Target::Character("kraven".into()),
                condition: Condition::Charmed,
            },
        ])
        .unwrap();
    assert!(party_conditions(&state, "kraven").is_empty());
}

/// The wolf's bite (DC 11 Strength or prone) on Kraven: the prone shows the monster and its
/// action, as a spell's condition shows its caster and spell, and standing up (the change
/// `stand_up` makes) takes the condition and its record together.
#[test]
fn a_wolf_bites_prone_shows_the_wolf_and_the_bite_until_its_target_stands() {
    for seed in 0..40 {
        let mut t = table::Table::fight(&["kraven", "isolde"], &["frost-harpy", "kraven"], seed);
        let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
        m.template = "wolf".into();
        m.hp = HitPoints::full(200);
        t.hero_mut("kraven").hp = HitPoints::full(200);
        let r = t.ok("roll_attack", table::attack("frost-harpy", "kraven"));
        if r["attacks"][0]["on_hit_save"]["save"]["success"] != false {
            continue;
        }
        assert_eq!(
            party_conditions(&t.state, "kraven"),
            vec!["prone (Bite, from Frost Harpy; ends on standing up (half its movement))"]
        );
        let sources = condition_sources(&t.state, "kraven");
        assert_eq!(sources[0].source, "Bite, from Frost Harpy");
        t.apply(&[Change::ConditionRemoved {
            target: Target::Character("kraven".into()),
            condition: Condition::Prone,
        }]);
        let kraven = t.state.character("kraven").unwrap();
        assert!(!kraven.conditions.has(Condition::Prone));
        assert!(
            kraven.timed_effects.is_empty(),
            "{:?}",
            kraven.timed_effects
        );
        assert!(party_conditions(&t.state, "kraven").is_empty());
        return;
    }
    panic!("no failed save against the bite in 40 seeds");
}
