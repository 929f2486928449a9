//! A model that misuses the wards, size changes and copies (issue 16), through a whole turn
//! (`GameMaster` with a scripted provider): Warding Bond on its own caster, Enlarge/Reduce
//! without its choice, a spell named at a creature on the Ethereal Plane (Blink), a spell with a
//! verbal component cast inside a Silence, and an attack at a Sanctuary's ward lost to a failed
//! save. Each is refused with what is allowed (or, for the ward, resolved by the rules: the
//! action spent, no swing), and the refused ones spend nothing.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::llm::ToolCall;
use dnd_engine::state::{Change, GameState, TimedEffect, TimedKind};

#[path = "support/table.rs"]
mod table;

fn cast(id: &str, caster: &str, spell: &str, targets: &[&str], choice: Option<&str>) -> ToolCall {
    ToolCall::new(
        id,
        "cast_spell",
        json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets,
               "choice": choice}),
    )
}

fn timed(target: &str, spell: &str, kind: TimedKind) -> Change {
    Change::TimedEffectStarted {
        effect: TimedEffect {
            source: target.into(),
            spell: spell.into(),
            target: target.into(),
            concentration: false,
            rounds_left: Some(10),
            ends_on_damage: false,
            level: 2,
            at_turn_end: false,
            kind,
        },
    }
}

/// Hedda (who knows Warding Bond and Enlarge/Reduce, and carries the rings), Kraven, the harpy
/// gone to the Ethereal Plane, and Isolde inside a Silence.
fn before() -> GameState {
    let mut state = table::seen_harpy(&["kraven", "isolde", "hedda"]);
    let hedda = table::hero_mut(&mut state, "hedda");
    let spells = Arc::make_mut(&mut hedda.spells);
    spells.push("Warding Bond".into());
    spells.push("Enlarge/Reduce".into());
    state
        .apply_all(&[
            Change::ItemAdded {
                character: "hedda".into(),
                item: dnd_engine::state::ItemStack {
                    name: "Platinum rings (50 gp)".into(),
                    quantity: 1,
                    note: String::new(),
                    magic: None,
                    used_today: 0,
                },
            },
            timed(
                "frost-harpy",
                "Blink",
                TimedKind::Blinking { ethereal: true },
            ),
            timed("isolde", "Silence", TimedKind::Silenced),
        ])
        .unwrap();
    state
}

#[tokio::test]
async fn misused_wards_are_refused_with_what_is_allowed_and_spend_nothing() {
    let before = before();
    let isoldes = before.character("isolde").unwrap().spells.clone();
    let calls = vec![
        cast("a", "hedda", "Warding Bond", &["hedda"], None),
        cast("b", "hedda", "Enlarge/Reduce", &["kraven"], None),
        cast("c", "hedda", "Sacred Flame", &["frost-harpy"], None),
        cast("d", "isolde", &isoldes[0], &["frost-harpy"], None),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Wards up!").await;
    let r = played.results;
    assert_eq!(r.len(), 4, "{r:#?}");
    assert!(r[0].contains("another creature"), "{}", r[0]);
    assert!(
        r[1].contains("needs a choice") && r[1].contains("enlarge") && r[1].contains("reduce"),
        "{}",
        r[1]
    );
    assert!(r[2].contains("Ethereal Plane"), "{}", r[2]);
    assert!(r[3].contains("verbal component"), "{}", r[3]);
    // Nothing spent, nothing started.
    for id in ["hedda", "isolde", "kraven"] {
        let (now, was) = (
            played.after.character(id).unwrap(),
            before.character(id).unwrap(),
        );
        assert_eq!(now.spell_slots, was.spell_slots, "{id}");
        assert_eq!(now.timed_effects, was.timed_effects, "{id}");
        assert_eq!(now.inventory, was.inventory, "{id}");
    }
}

#[tokio::test]
async fn an_attack_at_a_sanctuary_lost_to_a_failed_save_harms_no_one() {
    // DC 30: the harpy's Wisdom save (+0) cannot reach it (a save has no automatic success on
    // a natural 20). Its turn comes first.
    let mut before = table::fight(
        &["kraven", "isolde", "hedda"],
        &["frost-harpy", "kraven", "isolde", "hedda"],
    );
    before
        .apply(&timed(
            "kraven",
            "Sanctuary",
            TimedKind::Sanctuary { dc: 30 },
        ))
        .unwrap();
    let calls = vec![ToolCall::new(
        "a",
        "roll_attack",
        table::attack("frost-harpy", "kraven"),
    )];
    let played = table::scripted_turn(&before, calls, "Kraven", "Let it come.").await;
    let r = &played.results[0];
    assert!(r.contains("\"sanctuary\""), "{r}");
    let kraven = played.after.character("kraven").unwrap();
    assert!(r.contains("\"lost\":true"), "{r}");
    assert!(r.contains("\"attacks\":[]"), "{r}");
    assert_eq!(kraven.hp, before.character("kraven").unwrap().hp);
}
