//! Worked examples of spells that end or undo magic and death, through `cast_spell` as a model
//! calls it, with seeded dice: Dispel Magic (3rd level and below at once, higher with a check
//! against 10 + the level; all of them with a slot that high), and Revivify (a character dead
//! within the last minute back at 1 hit point, its 300 gp of diamonds used up); and models that
//! try to revive the long dead or cast without the diamonds.

use std::sync::Arc;

use serde_json::Value;

use dnd_engine::rules::Condition;
use dnd_engine::state::{Change, GameState, ItemStack, Target, TimedEffect, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, cast};

/// Hedda (who has learned `spells`, with slots up to 5th) and Kraven against the harpy, Hedda
/// first.
fn fight(spells: &[&str], seed: u64) -> Table {
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "frost-harpy"],
        seed,
    );
    let hedda = t.hero_mut("hedda");
    hedda.spell_slots.max = [4, 3, 3, 2, 2, 0, 0, 0, 0];
    Arc::make_mut(&mut hedda.spells).extend(spells.iter().map(|s| (*s).to_owned()));
    t
}

/// A spell of `level` holding the harpy with `condition`, cast by Kraven (a stand-in caster).
fn hold(spell: &str, level: u8, condition: Condition) -> Change {
    Change::TimedEffectStarted {
        effect: TimedEffect {
            source: "kraven".into(),
            spell: spell.into(),
            target: "frost-harpy".into(),
            concentration: false,
            rounds_left: Some(10),
            ends_on_damage: false,
            level,
            at_turn_end: false,
            kind: TimedKind::Condition {
                condition,
                repeat_save: None,
            },
        },
    }
}

fn harpy_has(state: &GameState, condition: Condition) -> bool {
    state
        .monster("frost-harpy")
        .unwrap()
        .conditions
        .has(condition)
}

#[test]
fn dispel_magic_ends_3rd_level_spells_at_once_and_higher_ones_on_a_check_of_10_plus_the_level() {
    let (mut ended, mut kept) = (0, 0);
    for seed in 0..16 {
        let mut t = fight(&["Dispel Magic"], seed);
        t.apply(&[
            hold("Web", 2, Condition::Restrained),
            hold("Hold Monster", 5, Condition::Paralyzed),
        ]);
        let r = t.ok(
            "cast_spell",
            cast("hedda", "Dispel Magic", None, &["frost-harpy"]),
        );
        let outcomes: Vec<&Value> = r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .chain(r["lasting"].as_array().into_iter().flatten())
            .filter(|o| o["outcome"] == "dispelled")
            .collect();
        assert_eq!(outcomes.len(), 2, "{r}");
        let web = outcomes.iter().find(|o| o["spell"] == "Web").unwrap();
        assert_eq!(web["ended"], true);
        assert!(web.get("check").is_none(), "2nd level: no check");
        assert!(!harpy_has(&t.state, Condition::Restrained));
        let monster = outcomes
            .iter()
            .find(|o| o["spell"] == "Hold Monster")
            .unwrap();
        let check = &monster["check"];
        assert_eq!(check["dc"], 15, "10 + 5: {r}");
        assert_eq!(check["modifier"], 3, "Hedda's Wisdom: {r}");
        let success = check["success"].as_bool().unwrap();
        assert_eq!(monster["ended"], success);
        assert_eq!(harpy_has(&t.state, Condition::Paralyzed), !success, "{r}");
        if success { ended += 1 } else { kept += 1 }
    }
    assert!(ended > 0 && kept > 0, "{ended} ended, {kept} kept");
    // With a 5th-level slot, Hold Monster ends without a check.
    let mut t = fight(&["Dispel Magic"], 1);
    t.apply(&[hold("Hold Monster", 5, Condition::Paralyzed)]);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Dispel Magic", Some(5), &["frost-harpy"]),
    );
    assert!(!harpy_has(&t.state, Condition::Paralyzed), "{r}");
    assert!(!r.to_string().contains("\"check\""), "{r}");
}

/// Kraven dies outright (60 damage on 28 HP) in the fight's first round.
fn kraven_dies(t: &mut Table) {
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 60,
        critical: false,
    }]);
    assert!(t.state.character("kraven").unwrap().dead);
}

fn diamonds(gp: u32) -> Change {
    Change::ItemAdded {
        character: "hedda".into(),
        item: ItemStack {
            name: format!("Diamonds ({gp} gp)"),
            quantity: 1,
            note: String::new(),
            magic: None,
            used_today: 0,
        },
    }
}

#[test]
fn revivify_brings_back_the_dead_of_the_last_minute_at_1_hp_and_uses_up_the_diamonds() {
    let mut t = fight(&["Revivify"], 2);
    kraven_dies(&mut t);
    // No diamonds: refused with what is needed, nothing spent.
    let e = t.refused("cast_spell", cast("hedda", "Revivify", None, &["kraven"]));
    assert!(
        e.contains("diamonds worth 300 gp") && e.contains("carries none"),
        "{e}"
    );
    // Diamonds worth too little will not do.
    t.apply(&[diamonds(100)]);
    let e = t.refused("cast_spell", cast("hedda", "Revivify", None, &["kraven"]));
    assert!(e.contains("300 gp"), "{e}");
    t.apply(&[diamonds(300)]);
    let r = t.ok("cast_spell", cast("hedda", "Revivify", None, &["kraven"]));
    let kraven = t.state.character("kraven").unwrap();
    assert!(!kraven.dead, "{r}");
    assert_eq!(kraven.hp.current, 1);
    assert!(!kraven.conditions.has(Condition::Unconscious));
    let hedda = t.state.character("hedda").unwrap();
    let left: Vec<&str> = hedda.inventory.iter().map(|i| i.name.as_str()).collect();
    assert!(!left.contains(&"Diamonds (300 gp)"), "used up: {left:?}");
    assert!(
        left.contains(&"Diamonds (100 gp)"),
        "the cheap ones stay: {left:?}"
    );
}

/// A model that revives a living hero, and one dead for two minutes: refused with what is
/// allowed, no slot and no diamond spent.
#[tokio::test]
async fn a_cheating_model_cannot_revive_the_living_or_the_long_dead() {
    let mut t = fight(&["Revivify"], 3);
    t.apply(&[diamonds(300)]);
    let living = t.state.clone();
    kraven_dies(&mut t);
    t.apply(&[Change::TimeAdvanced { minutes: 2 }]);
    let long_dead = t.state.clone();
    for (before, target, says) in [
        (living, "kraven", "is not dead"),
        (long_dead, "kraven", "works only within 10 rounds"),
    ] {
        let calls = vec![dnd_engine::llm::ToolCall::new(
            "a",
            "cast_spell",
            cast("hedda", "Revivify", None, &[target]),
        )];
        let played = table::scripted_turn(&before, calls, "Hedda", "Come back to us!").await;
        assert!(played.results[0].contains(says), "{}", played.results[0]);
        let hedda = |s: &GameState| s.character("hedda").unwrap().clone();
        assert_eq!(hedda(&played.after).spell_slots, hedda(&before).spell_slots);
        assert_eq!(hedda(&played.after).inventory, hedda(&before).inventory);
    }
}
