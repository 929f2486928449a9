//! Turns and the action economy, worked through the tools as the rules give them: Extra Attack,
//! the bonus-action spell rule, one reaction a round, a budget fresh each turn, death saves at
//! the start of a downed hero's turn, an attack outside a fight starting one, and a fight that
//! cannot end while a foe stands. Each refusal says what is allowed and changes nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::adventure::Adventure;
use dnd_engine::dice::{GameRng, seeded_rng};
use dnd_engine::rules::{Condition, HitPoints, Spend};
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, GameState, InitiativeSlot, Target};
use dnd_engine::tools::{ToolContext, ToolLimits, ToolResult, TurnLog, call_tool};

struct Table {
    state: GameState,
    rng: GameRng,
    limits: ToolLimits,
    log: TurnLog,
}

impl Table {
    /// These heroes and the Frost Harpy (seen, 200 HP so no swing ends the test), in a fight
    /// with this order (ids, first to act first).
    fn fight(party: &[&str], order: &[&str]) -> Table {
        let mut t = Table::new(party);
        t.state
            .apply(&Change::MonsterRevealed {
                monster: "frost-harpy".into(),
            })
            .unwrap();
        Arc::make_mut(&mut t.state.monsters)[0].hp = HitPoints::full(200);
        let order = order
            .iter()
            .enumerate()
            .map(|(i, id)| InitiativeSlot {
                id: (*id).into(),
                initiative: 20 - i as i32,
                speed: 30,
            })
            .collect();
        t.state.apply(&Change::EncounterStarted { order }).unwrap();
        t
    }

    fn new(party: &[&str]) -> Table {
        Table {
            state: Adventure::built_in().new_game(party).unwrap(),
            rng: seeded_rng(3),
            limits: ToolLimits::default(),
            log: TurnLog::default(),
        }
    }

    fn call(&mut self, name: &str, args: Value) -> ToolResult {
        let mut ctx = ToolContext {
            state: &mut self.state,
            srd: Srd::bundled(),
            rng: &mut self.rng,
            limits: &self.limits,
            log: &mut self.log,
        };
        call_tool(name, &args.to_string(), &mut ctx)
    }

    fn ok(&mut self, name: &str, args: Value) -> Value {
        let r = self.call(name, args);
        assert!(r.ok, "{name} failed: {}", r.content);
        r.content
    }

    /// A call that must be refused, changing nothing; its message.
    fn refused(&mut self, name: &str, args: Value) -> String {
        let before = (self.state.clone(), self.log.clone());
        let r = self.call(name, args);
        assert!(!r.ok, "{name} should have been refused: {}", r.content);
        assert_eq!(
            (self.state.clone(), self.log.clone()),
            before,
            "{name} changed something while refused"
        );
        r.content["error"].as_str().unwrap().to_owned()
    }

    fn hero_mut(&mut self, id: &str) -> &mut dnd_engine::state::Character {
        Arc::make_mut(&mut self.state.characters)
            .iter_mut()
            .find(|c| c.id == id)
            .unwrap()
    }

    fn turn_of(&self) -> String {
        self.state
            .encounter
            .as_ref()
            .and_then(|e| e.current())
            .unwrap_or_default()
            .to_owned()
    }
}

fn attack(attacker: &str) -> Value {
    json!({"attacker": attacker, "target": "frost-harpy", "attack": null, "advantage": null})
}

fn cast(caster: &str, spell: &str, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets})
}

#[test]
fn a_level_5_fighter_makes_two_attacks_with_one_action_a_level_3_fighter_one() {
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"]);
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

    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"]);
    t.ok("roll_attack", attack("kraven"));
    let error = t.refused("roll_attack", attack("kraven"));
    assert!(error.contains("already used the action"), "{error}");
}

#[test]
fn a_bonus_action_spell_and_an_action_cantrip_in_one_turn_but_not_two_action_spells() {
    let mut t = Table::fight(&["hedda", "kraven"], &["hedda", "kraven", "frost-harpy"]);
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
    let mut t = Table::fight(&["hedda", "kraven"], &["hedda", "kraven", "frost-harpy"]);
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
    let mut t = Table::fight(&["isolde", "kraven"], &["isolde", "kraven", "frost-harpy"]);
    t.ok(
        "cast_spell",
        cast("isolde", "Magic Missile", &["frost-harpy"]),
    );
    let error = t.refused("cast_spell", cast("isolde", "Fire Bolt", &["frost-harpy"]));
    assert!(error.contains("already used the action"), "{error}");
}

#[test]
fn a_reaction_once_a_round_and_back_at_the_start_of_the_creatures_turn() {
    let mut t = Table::fight(&["kraven", "isolde"], &["kraven", "isolde", "frost-harpy"]);
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
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"]);
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
    let mut t = Table::fight(&["kraven", "isolde"], &["kraven", "isolde", "frost-harpy"]);
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
    let mut t = Table::fight(&["kraven", "isolde"], &["kraven", "isolde", "frost-harpy"]);
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
    let mut t = Table::new(&["isolde"]);
    t.hero_mut("isolde").dead = true;
    let error = t.refused(
        "use_item",
        json!({"character": "isolde", "item": "Potion of Healing", "target": null}),
    );
    assert!(error.contains("cannot act now: dead"), "{error}");
}

#[test]
fn a_downed_hero_rolls_a_death_save_at_the_start_of_its_turn() {
    let mut t = Table::fight(&["isolde", "kraven"], &["isolde", "kraven", "frost-harpy"]);
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
    let mut t = Table::new(&["kraven", "isolde"]);
    t.state
        .apply(&Change::MonsterRevealed {
            monster: "frost-harpy".into(),
        })
        .unwrap();
    Arc::make_mut(&mut t.state.monsters)[0].hp = HitPoints::full(200);
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
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"]);
    let error = t.refused("end_encounter", json!({}));
    assert!(error.contains("Frost Harpy still stands"), "{error}");
    // The party breaks away east on Kraven's turn; then the fight may end.
    t.ok("move_to", json!({"exit": "east"}));
    t.ok("end_encounter", json!({}));

    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"]);
    Arc::make_mut(&mut t.state.monsters)[0].hp.current = 0;
    t.ok("end_encounter", json!({}));
}
