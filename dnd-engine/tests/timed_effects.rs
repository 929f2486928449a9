//! Timed effects in the state (`state::TimedEffect`), checked when they apply whoever builds
//! the change: no effect on the dead or for 0 rounds, no concentration effect without the
//! concentration, a spell cast again replaces its effect, a condition lifts only when nothing
//! else imposes it, and the snapshot shows each effect with its source and time left.

use serde_json::json;

use dnd_engine::rules::{Ability, Condition};
use dnd_engine::state::{Change, GameState, RepeatSave, Target, TimedEffect, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::Table;

fn hold(dc: i32) -> TimedEffect {
    TimedEffect {
        source: "hedda".into(),
        spell: "Hold Person".into(),
        target: "kraven".into(),
        concentration: true,
        rounds_left: Some(10),
        ends_on_damage: false,
        at_turn_end: false,
        level: 0,
        kind: TimedKind::Condition {
            condition: Condition::Paralyzed,
            repeat_save: Some(RepeatSave {
                ability: Ability::Wisdom,
                dc,
            }),
        },
    }
}

fn started(effect: &TimedEffect) -> Change {
    Change::TimedEffectStarted {
        effect: effect.clone(),
    }
}

fn concentrate(spell: Option<&str>) -> Change {
    Change::Concentration {
        character: "hedda".into(),
        spell: spell.map(str::to_owned),
    }
}

fn game() -> GameState {
    table::seen_harpy(&["hedda", "kraven"])
}

fn paralyzed(state: &GameState) -> bool {
    state
        .character("kraven")
        .unwrap()
        .conditions
        .has(Condition::Paralyzed)
}

#[test]
fn a_concentration_effect_needs_its_concentration_first() {
    let mut state = game();
    let error = state.apply(&started(&hold(13))).unwrap_err().to_string();
    assert!(
        error.contains("not concentrating on Hold Person"),
        "{error}"
    );
    assert!(!paralyzed(&state));
    state
        .apply_all(&[concentrate(Some("Hold Person")), started(&hold(13))])
        .unwrap();
    assert!(paralyzed(&state));
}

#[test]
fn no_effect_on_the_dead_from_nowhere_or_for_no_time() {
    let mut state = game();
    state.apply(&concentrate(Some("Hold Person"))).unwrap();
    let mut none = hold(13);
    none.rounds_left = Some(0);
    assert!(state.apply(&started(&none)).is_err());
    let mut stranger = hold(13);
    stranger.source = "nobody".into();
    assert!(state.apply(&started(&stranger)).is_err());
    state
        .apply(&Change::Damage {
            target: Target::Monster("frost-harpy".into()),
            amount: 500,
            critical: false,
        })
        .unwrap();
    let mut on_the_dead = hold(13);
    on_the_dead.target = "frost-harpy".into();
    let error = state.apply(&started(&on_the_dead)).unwrap_err().to_string();
    assert!(error.contains("not a living"), "{error}");
    // Ending an effect that is not there is refused too.
    let error = state
        .apply(&Change::TimedEffectEnded { effect: hold(13) })
        .unwrap_err()
        .to_string();
    assert!(error.contains("no such effect"), "{error}");
}

#[test]
fn cast_again_replaces_and_a_condition_lifts_only_when_nothing_imposes_it() {
    let mut state = game();
    state
        .apply_all(&[
            concentrate(Some("Hold Person")),
            started(&hold(13)),
            started(&hold(15)),
        ])
        .unwrap();
    let effects = &state.character("kraven").unwrap().timed_effects;
    assert_eq!(
        effects.len(),
        1,
        "the same spell from the same caster replaces"
    );
    assert_eq!(effects[0], hold(15));
    // What an effect added, its end lifts, unless another effect (or a monster's hold)
    // still imposes the same condition.
    let mut other = hold(12);
    other.source = "kraven".into();
    other.spell = "Trap of Rime".into();
    other.concentration = false;
    state.apply(&started(&other)).unwrap();
    state
        .apply(&Change::TimedEffectEnded { effect: hold(15) })
        .unwrap();
    assert!(paralyzed(&state), "the trap still holds him");
    state
        .apply(&Change::TimedEffectEnded { effect: other })
        .unwrap();
    assert!(!paralyzed(&state));
}

#[test]
fn sleep_never_lifts_the_unconsciousness_of_zero_hit_points() {
    let mut state = game();
    let sleep = TimedEffect {
        source: "hedda".into(),
        spell: "Sleep".into(),
        target: "kraven".into(),
        concentration: false,
        rounds_left: Some(10),
        ends_on_damage: true,
        at_turn_end: false,
        level: 0,
        kind: TimedKind::Condition {
            condition: Condition::Unconscious,
            repeat_save: None,
        },
    };
    state.apply(&started(&sleep)).unwrap();
    // Damage that drops him ends the slumber, but he stays unconscious: at 0 HP.
    state
        .apply(&Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 100,
            critical: false,
        })
        .unwrap();
    let kraven = state.character("kraven").unwrap();
    assert!(kraven.timed_effects.is_empty());
    assert!(kraven.conditions.has(Condition::Unconscious));
}

#[test]
fn the_snapshot_shows_each_effect_with_its_source_and_time_left() {
    let mut t = Table::new(game(), 1);
    t.apply(&[concentrate(Some("Hold Person")), started(&hold(13))]);
    let snapshot = t.state.snapshot().to_json();
    assert!(
        snapshot.contains(
            "paralyzed (Hold Person, from Hedda Stonebrow; 10 rounds left; ends on a Wisdom save (DC 13) at the end of each of its turns, or Hedda Stonebrow's concentration ending)"
        ),
        "{snapshot}"
    );
    t.ok(
        "cast_spell",
        json!({"caster": "hedda", "spell": "Bless", "slot_level": null, "targets": ["frost-harpy"]}),
    );
    let snapshot = t.state.snapshot().to_json();
    assert!(
        snapshot.contains("Bless: +1d4 to attack rolls and saves (from hedda, 10 rounds left)"),
        "{snapshot}"
    );
    // Bless took Hedda's concentration: the hold is gone from the sheet and the snapshot.
    assert!(!snapshot.contains("Hold Person"), "{snapshot}");
    assert!(!paralyzed(&t.state));
}
