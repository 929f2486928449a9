//! Worked examples of spells cast as a bonus action that keep working on later attacks, each
//! through the tools as a model calls them, with seeded dice: Hunter's Mark (+1d6 on the
//! caster's weapon hits against its quarry, concentration), and models that try to stretch it.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::state::{GameState, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, cast};

/// Hedda (who has learned `spells`), Kraven and the harpy (200 HP) in a fight, Hedda first.
fn fight(spells: &[&str], seed: u64) -> Table {
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "frost-harpy"],
        seed,
    );
    let hedda = t.hero_mut("hedda");
    Arc::make_mut(&mut hedda.spells).extend(spells.iter().map(|s| (*s).to_owned()));
    t
}

fn marked(state: &GameState) -> bool {
    state
        .monster("frost-harpy")
        .unwrap()
        .timed_effects
        .iter()
        .any(|e| matches!(e.kind, TimedKind::Marked { count: 1, sides: 6 }))
}

fn swing(caster: &str, attack: &str) -> Value {
    json!({"attacker": caster, "target": "frost-harpy", "attack": attack, "advantage": null})
}

#[test]
fn hunters_mark_adds_1d6_of_the_weapons_type_to_the_casters_hits_only() {
    let mut hits = 0;
    for seed in 0..12 {
        let mut t = fight(&["Hunter's Mark"], seed);
        let r = t.ok(
            "cast_spell",
            cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
        );
        assert!(marked(&t.state), "{r}");
        assert_eq!(r["concentrating"], true);
        // A bonus action: Hedda's action is still there for her warhammer.
        let a = t.ok("roll_attack", swing("hedda", "Warhammer"));
        let result = &a["attacks"][0]["result"];
        if result["hit"] == true {
            hits += 1;
            let damage = result["damage"].as_array().unwrap();
            assert_eq!(damage.len(), 2, "warhammer and the mark: {a}");
            assert_eq!(damage[1]["dice"], "1d6", "{a}");
            assert_eq!(
                damage[1]["type"], damage[0]["type"],
                "the weapon's type: {a}"
            );
            let faces = if result["critical"] == true { 2 } else { 1 };
            assert_eq!(damage[1]["faces"].as_array().unwrap().len(), faces);
            let total = result["total_damage"].as_u64().unwrap() as u32;
            assert_eq!(
                t.state.monster("frost-harpy").unwrap().hp.current,
                200 - total
            );
        }
        // Kraven's hits are his own: the mark is Hedda's.
        t.ok("next_turn", json!({}));
        let k = t.ok("roll_attack", table::attack("kraven", "frost-harpy"));
        for s in k["attacks"].as_array().unwrap() {
            let dice = s["result"]["damage"].as_array().map_or(0, Vec::len);
            assert!(dice <= 1, "no mark dice on Kraven's hit: {k}");
        }
    }
    assert!(hits > 0, "some seed hit");
}

#[test]
fn hunters_mark_ends_with_the_casters_concentration() {
    let mut t = fight(&["Hunter's Mark"], 3);
    t.ok(
        "cast_spell",
        cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
    );
    assert!(marked(&t.state));
    // On Hedda's next turn, Bless needs concentration too: the mark ends.
    for _ in 0..3 {
        t.apply(&[dnd_engine::state::Change::TurnAdvanced]);
    }
    assert!(marked(&t.state), "an hour: it lasts the rounds");
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Bless", None, &["hedda", "kraven"]),
    );
    assert_eq!(r["concentration_dropped"], "Hunter's Mark", "{r}");
    assert!(!marked(&t.state));
}

/// A model that marks two quarries, or follows the mark with a leveled spell in the same turn
/// (a bonus-action spell leaves only a cantrip for the action): refused with what is allowed.
#[tokio::test]
async fn a_cheating_model_cannot_mark_two_quarries_or_cast_a_leveled_spell_beside_it() {
    let before = fight(&["Hunter's Mark"], 1).state;
    let calls = vec![
        dnd_engine::llm::ToolCall::new(
            "a",
            "cast_spell",
            cast("hedda", "Hunter's Mark", None, &["frost-harpy", "kraven"]),
        ),
        dnd_engine::llm::ToolCall::new(
            "b",
            "cast_spell",
            cast("hedda", "Hunter's Mark", None, &["frost-harpy"]),
        ),
        dnd_engine::llm::ToolCall::new(
            "c",
            "cast_spell",
            cast("hedda", "Guiding Bolt", None, &["frost-harpy"]),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Mark it, then smite it!").await;
    let r = &played.results;
    assert!(r[0].contains("at most 1 target"), "{}", r[0]);
    assert!(r[1].contains("\"concentrating\":true"), "{}", r[1]);
    assert!(r[2].contains("cantrip"), "{}", r[2]);
    let slots = |s: &GameState| s.character("hedda").unwrap().spell_slots;
    let mut expected = slots(&before);
    expected.spent[0] += 1; // the mark's slot only
    assert_eq!(slots(&played.after), expected);
}

fn weapon_swing(caster: &str, target: &str) -> Value {
    json!({"attacker": caster, "target": target, "attack": "Spiritual Weapon", "advantage": null})
}

fn keeps_weapon(state: &GameState) -> bool {
    state
        .character("hedda")
        .unwrap()
        .timed_effects
        .iter()
        .any(|e| matches!(e.kind, TimedKind::SpellWeapon { .. }))
}

#[test]
fn spiritual_weapons_damage_is_1d8_plus_the_modifier_and_a_d8_for_every_two_slots_above_2nd() {
    let spell = dnd_engine::srd::Srd::bundled()
        .spell("Spiritual Weapon")
        .unwrap();
    let dnd_engine::effects::Effect::SpellAttack { on_hit, .. } = &spell.effects[0] else {
        panic!("a melee spell attack first: {:?}", spell.effects);
    };
    let dnd_engine::effects::Effect::Damage { dice, damage_type } = &on_hit[0] else {
        panic!("force damage on a hit");
    };
    assert_eq!(damage_type.to_string(), "force");
    // Hedda's Wisdom modifier is +3.
    for (slot, count) in [(2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (9, 4)] {
        assert_eq!(dice.at(2, slot, 3, 3), (count, 8, 3), "slot {slot}");
    }
}

#[test]
fn spiritual_weapon_strikes_as_cast_then_again_with_a_bonus_action_on_later_turns_for_a_minute() {
    let mut t = fight(&[], 4);
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Spiritual Weapon", None, &["frost-harpy"]),
    );
    let attack = &r["effects"][0]["attack"];
    assert!(attack.is_object(), "the casting attacks: {r}");
    assert_eq!(attack["attack_bonus"], 5, "Hedda's spell attack: {r}");
    assert!(keeps_weapon(&t.state), "{r}");
    // The casting took the bonus action: no second swing this turn, but the action is left.
    let e = t.refused("roll_attack", weapon_swing("hedda", "frost-harpy"));
    assert!(e.contains("bonus action"), "{e}");
    t.ok("roll_attack", swing("hedda", "Warhammer"));
    // Hedda's next turn: the weapon attacks again, with the bonus action, at no slot.
    let slots = t.state.character("hedda").unwrap().spell_slots;
    for _ in 0..3 {
        t.apply(&[dnd_engine::state::Change::TurnAdvanced]);
    }
    let before = t.state.monster("frost-harpy").unwrap().hp.current;
    let again = t.ok("roll_attack", weapon_swing("hedda", "frost-harpy"));
    assert_eq!(again["spell"], "Spiritual Weapon", "{again}");
    let hit = &again["effects"][0]["attack"];
    let damage = hit["total_damage"].as_u64().unwrap() as u32;
    if hit["hit"] == true {
        let most = if hit["critical"] == true { 19 } else { 11 };
        assert!((4..=most).contains(&damage), "1d8+3: {again}");
    }
    assert_eq!(
        t.state.monster("frost-harpy").unwrap().hp.current,
        before - damage
    );
    assert_eq!(t.state.character("hedda").unwrap().spell_slots, slots);
    // Still the action for the warhammer.
    t.ok("roll_attack", swing("hedda", "Warhammer"));
    // A minute is ten rounds: gone as Hedda's eleventh turn begins.
    for round in 3..=11 {
        for _ in 0..3 {
            t.apply(&[dnd_engine::state::Change::TurnAdvanced]);
        }
        assert_eq!(keeps_weapon(&t.state), round <= 10, "round {round}");
    }
}

#[test]
fn the_weapon_moves_20_ft_and_strikes_within_5_ft_of_itself() {
    use dnd_engine::state::{Change, Position};
    let at = |x| Position { x, y: 0, z: 0 };
    let state = table::placed_fight(
        &["hedda", "kraven"],
        table::order(&["hedda", "kraven", "frost-harpy"]),
        &[("hedda", at(0)), ("kraven", at(0)), ("frost-harpy", at(10))],
    );
    let mut t = Table::new(state, 2);
    Arc::make_mut(&mut t.hero_mut("hedda").spells).push("Spiritual Weapon".into());
    t.ok(
        "cast_spell",
        cast("hedda", "Spiritual Weapon", None, &["frost-harpy"]),
    );
    // The harpy flies off 40 ft from where the weapon struck it.
    t.apply(&[
        Change::Moved {
            creature: "frost-harpy".into(),
            to: at(50),
        },
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    let e = t.refused("roll_attack", weapon_swing("hedda", "frost-harpy"));
    assert!(
        e.contains("hovers 40 ft from Frost Harpy") && e.contains("within 25 ft"),
        "{e}"
    );
    t.apply(&[Change::Moved {
        creature: "frost-harpy".into(),
        to: at(30),
    }]);
    t.ok("roll_attack", weapon_swing("hedda", "frost-harpy"));
    // It now hovers by the harpy, at (30, 0).
    let weapon = t.state.character("hedda").unwrap().timed_effects[0].clone();
    assert_eq!(
        weapon.kind,
        TimedKind::SpellWeapon {
            slot: 2,
            at: Some(at(30))
        }
    );
}

/// A model that swings a spiritual weapon no one cast, twice in a turn, or for the wrong
/// creature: refused with what is allowed, nothing changed.
#[tokio::test]
async fn a_cheating_model_cannot_swing_a_weapon_no_one_keeps_or_swing_it_twice() {
    let before = fight(&[], 1).state;
    let call = |id: &str, who: &str| {
        dnd_engine::llm::ToolCall::new(id, "roll_attack", weapon_swing(who, "frost-harpy"))
    };
    let calls = vec![
        call("a", "hedda"),
        dnd_engine::llm::ToolCall::new(
            "b",
            "cast_spell",
            cast("hedda", "Spiritual Weapon", None, &["frost-harpy"]),
        ),
        call("c", "hedda"),
        call("d", "kraven"),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Smite it, hammer of light!").await;
    let r = &played.results;
    assert!(
        r[0].contains("has no Spiritual Weapon in play") && r[0].contains("cast_spell"),
        "{}",
        r[0]
    );
    assert!(r[1].contains("\"spell\":\"Spiritual Weapon\""), "{}", r[1]);
    assert!(r[2].contains("bonus action"), "{}", r[2]);
    assert!(
        r[3].contains("Kraven has no Spiritual Weapon in play"),
        "{}",
        r[3]
    );
}
