//! Turns and the action economy, worked through the tools as the rules give them: Extra Attack,
//! the bonus-action spell rule, one reaction a round, a budget fresh each turn, death saves at
//! the start of a downed hero's turn, an attack outside a fight starting one, and a fight that
//! cannot end while a foe stands. Each refusal says what is allowed and changes nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::{Condition, Spend};
use dnd_engine::state::{Change, Target};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// The dice of every table here.
const SEED: u64 = 3;

fn attack(attacker: &str) -> Value {
    table::attack(attacker, "frost-harpy")
}

fn cast(caster: &str, spell: &str, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets})
}

#[test]
fn a_level_5_fighter_makes_two_attacks_with_one_action_a_level_3_fighter_one() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], SEED);
    t.hero_mut("kraven").level = 5;
    t.ok("roll_attack", attack("kraven"));
    assert_eq!(t.state.encounter.as_ref().unwrap().budget.attacks_left, 1);
    t.ok("roll_attack", attack("kraven"));
    let error = t.refused("roll_attack", attack("kraven"));
    assert!(
        error.contains("Kraven has already used the action this turn"),
        "{error}"
    );
    assert!(
        error.contains("left this turn: a bonus action, 30 ft of movement and the reaction"),
        "{error}"
    );
    assert!(error.contains("next_turn"), "{error}");

    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], SEED);
    t.ok("roll_attack", attack("kraven"));
    let error = t.refused("roll_attack", attack("kraven"));
    assert!(error.contains("already used the action"), "{error}");
}

#[test]
fn a_bonus_action_spell_and_an_action_cantrip_in_one_turn_but_not_two_action_spells() {
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "frost-harpy"],
        SEED,
    );
    // Healing Word (1 bonus action), then Sacred Flame (a cantrip of 1 action): allowed.
    t.ok("cast_spell", cast("hedda", "Healing Word", &["kraven"]));
    t.ok(
        "cast_spell",
        cast("hedda", "Sacred Flame", &["frost-harpy"]),
    );
    let error = t.refused(
        "cast_spell",
        cast("hedda", "Sacred Flame", &["frost-harpy"]),
    );
    assert!(
        error.contains("Hedda Stonebrow has already used the action"),
        "{error}"
    );

    // After a bonus-action spell, a leveled spell of 1 action is refused (the SRD's rule).
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "frost-harpy"],
        SEED,
    );
    t.ok("cast_spell", cast("hedda", "Healing Word", &["kraven"]));
    let error = t.refused(
        "cast_spell",
        cast("hedda", "Guiding Bolt", &["frost-harpy"]),
    );
    assert!(
        error.contains("only a cantrip with a casting time of 1 action"),
        "{error}"
    );

    // Two action spells: the second is refused.
    let mut t = Table::fight(
        &["isolde", "kraven"],
        &["isolde", "kraven", "frost-harpy"],
        SEED,
    );
    t.ok(
        "cast_spell",
        cast("isolde", "Magic Missile", &["frost-harpy"]),
    );
    let error = t.refused("cast_spell", cast("isolde", "Fire Bolt", &["frost-harpy"]));
    assert!(error.contains("already used the action"), "{error}");
}

#[test]
fn a_reaction_once_a_round_and_back_at_the_start_of_the_creatures_turn() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        SEED,
    );
    let react = Change::Spent {
        creature: "isolde".into(),
        spend: Spend::Reaction,
    };
    // Off-turn: Isolde reacts on Kraven's turn, once.
    t.state.apply(&react).unwrap();
    let before = t.state.clone();
    let error = t.state.apply(&react).unwrap_err().to_string();
    assert!(error.contains("already used its reaction"), "{error}");
    assert_eq!(t.state, before);
    // Anything else off-turn is refused.
    assert!(
        t.state
            .apply(&Change::Spent {
                creature: "isolde".into(),
                spend: Spend::Action,
            })
            .is_err()
    );
    // Her turn: the reaction is back.
    t.ok("next_turn", json!({}));
    assert_eq!(t.turn_of(), "isolde");
    t.state.apply(&react).unwrap();
}

#[test]
fn the_budget_is_fresh_at_the_start_of_each_turn() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], SEED);
    // The harpy has sung already: a charmed Kraven's turns would pass (this is about budgets).
    t.state
        .apply(&Change::ActionSpent {
            monster: "frost-harpy".into(),
            action: "Luring Song".into(),
        })
        .unwrap();
    t.ok("roll_attack", attack("kraven"));
    t.refused("roll_attack", attack("kraven"));
    let next = t.ok("next_turn", json!({}));
    assert_eq!(next["now"]["turn_of"], "kraven", "{next}");
    assert_eq!(t.state.encounter.as_ref().unwrap().round, 2);
    t.ok("roll_attack", attack("kraven"));
}

#[test]
fn acting_out_of_turn_is_refused_saying_whose_turn_it_is() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        SEED,
    );
    let error = t.refused("roll_attack", attack("isolde"));
    assert!(error.contains("it is Kraven's turn (round 1)"), "{error}");
    assert!(
        error.contains("Isolde Vane's turn comes after Kraven:"),
        "{error}"
    );
    assert!(error.contains("next_turn"), "{error}");
    let error = t.refused(
        "use_item",
        json!({"character": "isolde", "item": "Potion of Healing", "target": null}),
    );
    assert!(error.contains("it is Kraven's turn"), "{error}");
    // The monster cannot be made to attack on a hero's turn either.
    let error = t.refused(
        "roll_attack",
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": null, "advantage": null}),
    );
    assert!(error.contains("it is Kraven's turn"), "{error}");
}

#[test]
fn the_dying_the_dead_and_the_incapacitated_cannot_act() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        SEED,
    );
    t.state
        .apply(&Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: Condition::Paralyzed,
        })
        .unwrap();
    let error = t.refused("roll_attack", attack("kraven"));
    assert!(
        error.contains("Kraven cannot act now: paralyzed"),
        "{error}"
    );
    t.hero_mut("isolde").hp.current = 0;
    let error = t.refused("cast_spell", cast("isolde", "Fire Bolt", &["frost-harpy"]));
    assert!(
        error.contains("Isolde Vane cannot act now: at 0 HP"),
        "{error}"
    );
    // Outside a fight too.
    let mut t = Table::game(&["isolde"], SEED);
    t.hero_mut("isolde").dead = true;
    let error = t.refused(
        "use_item",
        json!({"character": "isolde", "item": "Potion of Healing", "target": null}),
    );
    assert!(error.contains("cannot act now: dead"), "{error}");
}

#[test]
fn a_downed_hero_rolls_a_death_save_at_the_start_of_its_turn() {
    let mut t = Table::fight(
        &["isolde", "kraven"],
        &["isolde", "kraven", "frost-harpy"],
        SEED,
    );
    let hp = t.state.character("kraven").unwrap().hp.current;
    t.state
        .apply(&Change::Damage {
            target: Target::Character("kraven".into()),
            amount: hp,
            critical: false,
        })
        .unwrap();
    let next = t.ok("next_turn", json!({}));
    let saves = next["monster_turns"][0]["death_save"].clone();
    assert_eq!(saves, "Kraven", "{next}");
    assert!(t.log.rolls.iter().any(|r| r.label == "Kraven death save"));
}

#[test]
fn an_attack_outside_a_fight_starts_it_and_is_made_only_on_the_attackers_turn() {
    let mut t = Table::new(table::seen_harpy(&["kraven", "isolde"]), SEED);
    let result = t.ok("roll_attack", attack("isolde"));
    assert!(result["encounter_started"]["order"].is_array(), "{result}");
    let encounter = t.state.encounter.clone().expect("the fight started");
    if result["attack_made"] == false {
        let why = result["why"].as_str().unwrap();
        assert!(why.contains("Isolde Vane's turn comes after"), "{why}");
        assert_ne!(encounter.current(), Some("isolde"));
    } else {
        assert_eq!(encounter.current(), Some("isolde"));
        assert!(encounter.budget.action_used);
        assert!(result["attacks"].is_array());
    }
}

#[test]
fn a_fight_does_not_end_while_a_foe_stands_unless_the_party_has_left() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], SEED);
    let error = t.refused("end_encounter", json!({}));
    assert!(error.contains("Frost Harpy still stands"), "{error}");
    // The party breaks away east on Kraven's turn; then the fight may end.
    t.ok("move_to", json!({"exit": "east"}));
    t.ok("end_encounter", json!({}));

    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], SEED);
    Arc::make_mut(&mut t.state.monsters)[0].hp.current = 0;
    t.ok("end_encounter", json!({}));
}

/// Picking a lock in a fight is the picker's action on its turn: refused on another's turn,
/// and a second try in the same turn finds the action spent.
#[test]
fn forcing_a_lock_in_a_fight_is_the_action_on_the_characters_turn() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["kraven", "isolde", "frost-harpy"],
        SEED,
    );
    let here = t.state.party_location().unwrap().id.clone();
    let locations = Arc::make_mut(&mut t.state.locations);
    let room = locations.iter_mut().find(|l| l.id == here).unwrap();
    let exit = &mut room.exits[0];
    exit.locked = true;
    exit.unlock_dc = Some(30);
    let direction = exit.direction.clone();
    let force = |who: &str| json!({"character": who, "exit": direction, "method": "force", "advantage": null});
    let before = t.state.clone();
    let error = t.refused("open_lock", force("isolde"));
    assert!(error.contains("it is Kraven's turn"), "{error}");
    assert_eq!(t.state, before);
    t.ok("open_lock", force("kraven"));
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
    let error = t.refused("open_lock", force("kraven"));
    assert!(error.contains("already used the action"), "{error}");
}
