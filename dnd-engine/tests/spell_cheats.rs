//! A model that casts spells the wrong way, through the whole turn (`GameMaster` with a
//! scripted provider): Bless on four creatures with a 1st-level slot, Hold Person on a
//! monstrosity, Sleep on more creatures than it can fell (lawful: the pool decides), and a
//! second concentration spell, which ends the first; and Hold Person cast higher on two
//! creatures 40 ft apart; and the lasting effects misused (Charm Person on a monstrosity,
//! Divine Favor and Blur laid on another, a heal on a creature Chill Touch holds). Each is
//! refused with what is allowed, or resolved by the rules, and nothing is half-applied: a
//! refused casting spends no slot.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::state::GameState;

#[path = "support/table.rs"]
mod table;

fn cast(id: &str, caster: &str, spell: &str, targets: &[&str]) -> ToolCall {
    ToolCall::new(
        id,
        "cast_spell",
        json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets}),
    )
}

/// Kraven, Isolde, Hedda (who knows Hold Person) and Wren, the Frost Harpy (200 HP) and a
/// goblin (5 HP) beside the party.
fn before() -> GameState {
    let mut state = table::seen_harpy(&["kraven", "isolde", "hedda", "wren"]);
    let mut goblin = state.monsters[0].clone();
    goblin.id = "goblin".into();
    goblin.name = "Goblin".into();
    goblin.template = "goblin".into();
    goblin.hp = HitPoints::full(5);
    goblin.area = None;
    Arc::make_mut(&mut state.monsters).push(goblin);
    Arc::make_mut(&mut table::hero_mut(&mut state, "hedda").spells).push("Hold Person".into());
    state
}

#[tokio::test]
async fn wrong_castings_are_refused_or_resolved_by_the_rules() {
    let before = before();
    let calls = vec![
        cast(
            "a",
            "hedda",
            "Bless",
            &["kraven", "isolde", "wren", "hedda"],
        ),
        cast("b", "hedda", "Hold Person", &["frost-harpy"]),
        cast("c", "isolde", "Sleep", &["frost-harpy", "goblin", "kraven"]),
        cast("d", "hedda", "Shield of Faith", &["kraven"]),
        cast("e", "hedda", "Bless", &["kraven", "isolde", "wren"]),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Magic, everyone!").await;
    let results = played.results;
    assert_eq!(results.len(), 5, "{results:#?}");
    assert!(results[0].contains("at most 3 targets"), "{}", results[0]);
    assert!(
        results[1].contains("affects only a humanoid") && results[1].contains("monstrosity"),
        "{}",
        results[1]
    );
    assert!(
        results[2].contains("\"outcome\":\"pool\""),
        "{}",
        results[2]
    );
    assert!(
        results[4].contains("\"concentration_dropped\":\"Shield of Faith\""),
        "{}",
        results[4]
    );
    let after = played.after;
    // Sleep: the goblin (5 HP) always falls to 5d8; the harpy's 200 never fit the pool; the
    // pool takes Kraven (28 HP) only after the goblin, when it has 33 or more.
    assert!(
        after
            .monster("goblin")
            .unwrap()
            .conditions
            .has(Condition::Unconscious)
    );
    assert!(
        !after
            .monster("frost-harpy")
            .unwrap()
            .conditions
            .has(Condition::Unconscious)
    );
    // The refused castings spent nothing: two 1st-level slots for Shield of Faith and Bless,
    // none of the 2nd level Hold Person would have taken.
    let hedda = after.character("hedda").unwrap();
    let was = before.character("hedda").unwrap();
    assert_eq!(
        hedda.spell_slots.available(1),
        was.spell_slots.available(1) - 2
    );
    assert_eq!(hedda.spell_slots.available(2), was.spell_slots.available(2));
    assert_eq!(hedda.concentration.as_deref(), Some("Bless"));
    // Shield of Faith ended with the second concentration spell; Bless holds three.
    let kraven = after.character("kraven").unwrap();
    assert_eq!(kraven.armor_class_now(), kraven.armor_class);
    let blessed = ["kraven", "isolde", "wren", "hedda"]
        .into_iter()
        .filter(|id| {
            after
                .character(id)
                .unwrap()
                .timed_effects
                .iter()
                .any(|e| e.spell == "Bless")
        })
        .count();
    assert_eq!(blessed, 3);
    assert!(
        after
            .monster("frost-harpy")
            .unwrap()
            .timed_effects
            .is_empty()
    );
}

#[test]
fn hold_person_upcast_refuses_targets_more_than_30_ft_apart() {
    use dnd_engine::state::{Change, Position};
    let mut state = before();
    let mut second = state.monster("goblin").unwrap().clone();
    second.id = "bandit".into();
    second.name = "Bandit".into();
    second.template = "bandit".into();
    Arc::make_mut(&mut state.monsters).push(second);
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["hedda", "goblin", "bandit"]),
        })
        .unwrap();
    let place = |x| Position { x, y: 0, z: 0 };
    let mut t = table::Table::new(state, 1);
    for (who, x) in [("hedda", 0), ("goblin", 0), ("bandit", 40)] {
        t.apply(&[Change::Moved {
            creature: who.into(),
            to: place(x),
        }]);
    }
    let hold = json!({"caster": "hedda", "spell": "Hold Person", "slot_level": 3, "targets": ["goblin", "bandit"]});
    t.hero_mut("hedda").spell_slots.max[2] = 1;
    let e = t.refused("cast_spell", hold.clone());
    assert!(
        e.contains("within 30 ft of each other") && e.contains("40 ft apart"),
        "{e}"
    );
    // 25 ft apart (on the ice bridge's near edge) is close enough.
    t.apply(&[Change::Moved {
        creature: "bandit".into(),
        to: place(25),
    }]);
    let r = t.ok("cast_spell", hold);
    assert_eq!(r["effects"].as_array().unwrap().len(), 2, "{r}");
}

/// The lasting effects, misused by a model: Charm Person on the harpy (a monstrosity: refused,
/// humanoids only), Divine Favor laid on Kraven (refused: it is the caster's own), Blur cast
/// naming the harpy (refused), then Chill Touch on Kraven and a Cure Wounds that, by the rule,
/// heals nothing while the hand holds. No refused casting spends a slot or starts an effect.
#[tokio::test]
async fn lasting_effects_misused_are_refused_or_resolved_by_the_rules() {
    let mut before = before();
    for (hero, spells) in [
        ("isolde", &["Charm Person", "Chill Touch", "Blur"][..]),
        ("hedda", &["Divine Favor"][..]),
    ] {
        let known = Arc::make_mut(&mut table::hero_mut(&mut before, hero).spells);
        known.extend(spells.iter().map(|s| (*s).to_owned()));
    }
    // Kraven is hurt: a heal would show.
    table::hero_mut(&mut before, "kraven").hp.current = 10;
    let calls = vec![
        cast("a", "isolde", "Charm Person", &["frost-harpy"]),
        cast("b", "hedda", "Divine Favor", &["kraven"]),
        cast("c", "isolde", "Blur", &["frost-harpy"]),
        cast("d", "isolde", "Chill Touch", &["kraven"]),
        cast("e", "hedda", "Cure Wounds", &["kraven"]),
    ];
    let played = table::scripted_turn(&before, calls, "Isolde", "Hold still, Kraven!").await;
    let r = &played.results;
    assert!(
        r[0].contains("affects only a humanoid") && r[0].contains("monstrosity"),
        "{}",
        r[0]
    );
    assert!(r[1].contains("error"), "Divine Favor on another: {}", r[1]);
    assert!(r[2].contains("error"), "Blur on another: {}", r[2]);
    let after = &played.after;
    let (hedda, was) = (
        after.character("hedda").unwrap(),
        before.character("hedda").unwrap(),
    );
    let isolde = after.character("isolde").unwrap();
    assert_eq!(hedda.concentration, None, "no refused casting concentrates");
    assert_eq!(isolde.concentration, None);
    assert!(
        after
            .monster("frost-harpy")
            .unwrap()
            .timed_effects
            .is_empty()
    );
    // The campaign's seeded dice: Chill Touch hits Kraven (a natural 18 against AC 17).
    assert!(r[3].contains("\"hit\":true"), "{}", r[3]);
    assert!(
        r[4].contains("Chill Touch: it can regain no hit points"),
        "{}",
        r[4]
    );
    let kraven = after.character("kraven").unwrap();
    assert!(
        kraven.hp.current < 10,
        "hurt by the touch, healed by nothing"
    );
    // Cure Wounds spent its slot; the refused Divine Favor spent none.
    assert_eq!(
        hedda.spell_slots.available(1),
        was.spell_slots.available(1) - 1
    );
}
