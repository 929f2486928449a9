//! Random sequences of tool calls, well-formed and not, never break the state's invariants: hit
//! points stay within 0 and the maximum, the dead stay dead, a fight has exactly one creature
//! whose turn it is, and a refused call changes nothing.
//!
//! Arguments are drawn from each tool's own JSON Schema, with names taken from the game (the
//! heroes, the monsters, the items, the exits, the spells) mixed with junk, so most calls parse
//! and many of them are legal: the rules are exercised, not only the parsers.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use rand::{Rng, RngExt, SeedableRng};
use serde_json::{Value, json};

use dnd_engine::adventure::Adventure;
use dnd_engine::dice::GameRng;
use dnd_engine::rules::Condition;
use dnd_engine::state::{
    Change, EffectKind, Encounter, GameState, Target, able, attacks_per_action, inside, speed_now,
};
use dnd_engine::tools::results::ToolOutput;
use dnd_engine::tools::{TurnLog, tool_specs};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Every name a call might use: what the game holds, plus some that it does not.
fn names(state: &GameState) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in state.characters.iter() {
        names.push(c.id.clone());
        names.extend(c.inventory.iter().map(|i| i.name.clone()));
        names.extend(c.spells.iter().cloned());
        names.extend(c.attacks.iter().map(|a| a.name.clone()));
    }
    for m in state.monsters.iter() {
        names.push(m.id.clone());
        names.push(m.name.clone());
    }
    for l in state.locations.iter() {
        names.extend(l.exits.iter().map(|e| e.direction.clone()));
        names.extend(l.features.iter().map(|f| f.id.clone()));
        names.extend(l.loot.iter().map(|i| i.name.clone()));
    }
    names.extend(state.npcs.iter().map(|n| n.id.clone()));
    names.extend(state.flags.keys().cloned());
    names.extend(
        [
            "",
            "floor",
            "perception",
            "athletics",
            "1d20+5",
            "4d6kh3",
            "9999d9999",
            "nobody",
            "Rime Key",
            "Potion of Healing",
            "Gold pieces",
            "fire",
            "north",
            // Words of the lists the schemas leave as plain strings (skills, abilities,
            // conditions), so that calls naming them parse.
            "stealth",
            "dexterity",
            "prone",
        ]
        .map(str::to_owned),
    );
    names
}

const NUMBERS: &[i64] = &[-9999, -5, 0, 1, 2, 3, 5, 10, 15, 30, 120, 4_294_967_295];

/// A value the schema describes, chosen at random; sometimes one of the wrong type.
fn random_value(schema: &Value, names: &[String], rng: &mut impl Rng, depth: u32) -> Value {
    if depth > 4 || rng.random_ratio(1, 25) {
        return match rng.random_range(0..3) {
            0 => Value::Null,
            1 => json!(NUMBERS[rng.random_range(0..NUMBERS.len())]),
            _ => json!(names[rng.random_range(0..names.len())]),
        };
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values[rng.random_range(0..values.len())].clone();
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(Value::Array(variants)) = schema.get("anyOf") {
        let pick = &variants[rng.random_range(0..variants.len())];
        return random_value(pick, names, rng, depth + 1);
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec!["null"],
    };
    match types[rng.random_range(0..types.len())] {
        "object" => Value::Object(
            schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, prop)| (name.clone(), random_value(prop, names, rng, depth + 1)))
                .collect(),
        ),
        "array" => (0..rng.random_range(0..4))
            .map(|_| random_value(&schema["items"], names, rng, depth + 1))
            .collect(),
        "string" => json!(names[rng.random_range(0..names.len())]),
        "integer" => json!(NUMBERS[rng.random_range(0..NUMBERS.len())]),
        "number" => json!(NUMBERS[rng.random_range(0..NUMBERS.len())] as f64 / 2.0),
        "boolean" => json!(rng.random_bool(0.5)),
        _ => Value::Null,
    }
}

/// What must hold of any state a tool call leaves.
fn check(state: &GameState, dead_before: &[String]) -> Result<(), String> {
    for c in state.characters.iter() {
        if c.hp.current > c.hp.max {
            return Err(format!("{} has {}/{} HP", c.id, c.hp.current, c.hp.max));
        }
        if dead_before.contains(&c.id) && !c.dead {
            return Err(format!("{} came back from the dead", c.id));
        }
    }
    for m in state.monsters.iter() {
        if m.hp.current > m.hp.max {
            return Err(format!("{} has {}/{} HP", m.id, m.hp.current, m.hp.max));
        }
        if dead_before.contains(&m.id) && m.is_alive() {
            return Err(format!("{} came back from the dead", m.id));
        }
    }
    if let Some(encounter) = &state.encounter
        && encounter.current().is_none()
    {
        return Err(format!(
            "a fight with nobody's turn: turn {} of {}",
            encounter.turn,
            encounter.order.len()
        ));
    }
    if let Some(encounter) = &state.encounter {
        check_effects(state, encounter)?;
        check_positions_and_budget(state, encounter)?;
    }
    Ok(())
}

/// Positions inside the room (kept only where the party's room has areas, for combatants of
/// the fight), and the budget within bounds: no more feet than the speed (and Dash) give, no
/// more attacks left than the Attack action makes.
fn check_positions_and_budget(state: &GameState, encounter: &Encounter) -> Result<(), String> {
    let areas = state
        .party_location()
        .map(|l| l.areas.as_slice())
        .unwrap_or_default();
    for (id, at) in &encounter.positions {
        if encounter.slot(id).is_none() || !inside(areas, *at) {
            return Err(format!(
                "{id} stands at {at:?}, outside the room or the fight"
            ));
        }
    }
    if let Some(current) = encounter.current() {
        let base = encounter.slot(current).map_or(0, |s| s.speed);
        let b = &encounter.budget;
        if b.movement_used_ft > speed_now(state, current, base) + b.extra_movement_ft {
            return Err(format!(
                "{current} moved {} ft, past its speed",
                b.movement_used_ft
            ));
        }
        if b.attacks_left >= attacks_per_action(state, current).max(1) {
            return Err(format!("{current} has {} attacks left", b.attacks_left));
        }
    }
    Ok(())
}

/// The lasting effects of the standard actions: only on combatants able to act, naming only
/// the living; none that should have ended at the start of the current turn (a Dodge or a
/// readied action of the creature whose turn it is, a Help by it, from an earlier round); a
/// grapple's target grappled.
fn check_effects(state: &GameState, encounter: &Encounter) -> Result<(), String> {
    let current = encounter.current().unwrap_or_default();
    for e in &encounter.effects {
        if encounter.slot(&e.creature).is_none() || !able(state, &e.creature) {
            return Err(format!(
                "{e:?} on a creature not in the fight or unable to act"
            ));
        }
        let living = |id: &str| {
            state.character(id).is_some_and(|c| !c.dead)
                || state.monster(id).is_some_and(|m| m.is_alive())
        };
        let others: Vec<&str> = match &e.kind {
            EffectKind::Helped { helper, against } => std::iter::once(helper.as_str())
                .chain(against.as_deref())
                .collect(),
            EffectKind::Readied { target, .. } => target.as_deref().into_iter().collect(),
            EffectKind::Grappling { target } => vec![target.as_str()],
            _ => Vec::new(),
        };
        if let Some(dead) = others.iter().find(|id| !living(id)) {
            return Err(format!("{e:?} names {dead}, who is dead"));
        }
        if let Some(ender) = e.kind.ends_at_turn_of(&e.creature)
            && ender.eq_ignore_ascii_case(current)
            && e.round < encounter.round
        {
            return Err(format!(
                "{e:?} outlived the start of {current}'s turn in round {}",
                encounter.round
            ));
        }
        if let EffectKind::Grappling { target } = &e.kind {
            let held = state
                .character(target)
                .map(|c| c.conditions)
                .or_else(|| state.monster(target).map(|m| m.conditions))
                .is_some_and(|c| c.has(Condition::Grappled));
            if !held {
                return Err(format!("{e:?}: its target is not grappled"));
            }
        }
    }
    Ok(())
}

/// The dead, by id.
fn dead(state: &GameState) -> Vec<String> {
    let heroes = state
        .characters
        .iter()
        .filter(|c| c.dead)
        .map(|c| c.id.clone());
    let monsters = state
        .monsters
        .iter()
        .filter(|m| !m.is_alive())
        .map(|m| m.id.clone());
    heroes.chain(monsters).collect()
}

/// Plays `calls` random calls from a seed, checking the invariants after each.
fn play(seed: u64, calls: usize, party: &[&str]) -> Result<(), String> {
    let specs = tool_specs();
    let mut state = Adventure::built_in()
        .new_game(party)
        .map_err(|e| e.to_string())?;
    // Some of the dead from the start, so calls on the dead are common: the first monster,
    // and in a party of several, the last hero (massive damage).
    let mut slain = vec![Change::Damage {
        target: Target::Monster(state.monsters[0].id.clone()),
        amount: 1_000,
        critical: false,
    }];
    if let [_, .., last] = &state.characters[..] {
        slain.push(Change::Damage {
            target: Target::Character(last.id.clone()),
            amount: 1_000,
            critical: false,
        });
    }
    // Every monster in sight, so tools may name them.
    slain.extend(state.monsters.iter().map(|m| Change::MonsterRevealed {
        monster: m.id.clone(),
    }));
    state.apply_all(&slain).map_err(|(_, e)| e.to_string())?;
    let names = names(&state);
    let mut picker = GameRng::seed_from_u64(seed);
    let mut t = Table::new(state, seed ^ 0xd1ce);
    for step in 0..calls {
        let spec = &specs[picker.random_range(0..specs.len())];
        let args = random_value(&spec.parameters, &names, &mut picker, 0);
        let before = t.state.clone();
        let dead_before = dead(&t.state);
        let context = || format!("step {step}: {}({args})", spec.name);
        let result = t.call(&spec.name, args.clone());
        if !result.ok && t.state != before {
            return Err(format!("{}: refused, yet the state changed", context()));
        }
        // Every result reads back as its tool's type: the contract readers rely on.
        if result.ok
            && let Err(e) = ToolOutput::parse(&spec.name, &result.content)
        {
            return Err(format!("{}: {e}\n{}", context(), result.content));
        }
        check(&t.state, &dead_before).map_err(|why| format!("{}: {why}", context()))?;
    }
    Ok(())
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(96, 0x7001_5eed))]

    #[test]
    fn random_tool_calls_never_break_the_invariants(seed in any::<u64>(), party in 0usize..3) {
        let party: &[&str] = match party {
            0 => &["kraven"],
            1 => &["isolde", "hedda"],
            _ => &["kraven", "isolde", "hedda", "wren"],
        };
        if let Err(why) = play(seed, 60, party) {
            prop_assert!(false, "{}", why);
        }
    }
}

/// The generator reaches the rules, not only the parsers: over a fixed run, a good share of
/// calls succeed and several different tools succeed.
#[test]
fn the_random_calls_are_mostly_well_formed() {
    let specs = tool_specs();
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let names = names(&state);
    let mut tools_ok = std::collections::BTreeSet::new();
    // Three fixed runs: which tools one run reaches shifts whenever a schema gains a field (the
    // draws move along the stream), so the spread of tools is counted over all of them.
    for seed in [7, 8, 9] {
        let mut picker = GameRng::seed_from_u64(seed);
        let mut t = Table::new(state.clone(), seed);
        let mut ok = 0;
        // Twenty tries per tool (at least 400), so each new tool does not thin out the others.
        let tries = (specs.len() * 20).max(400);
        for _ in 0..tries {
            // Each try from the new game, the dice running on.
            t.state = state.clone();
            t.log = TurnLog::default();
            let spec = &specs[picker.random_range(0..specs.len())];
            let args = random_value(&spec.parameters, &names, &mut picker, 0);
            if t.call(&spec.name, args).ok {
                ok += 1;
                tools_ok.insert(spec.name.clone());
            }
        }
        assert!(
            ok >= 40,
            "seed {seed}: only {ok} of {tries} random calls succeeded"
        );
    }
    assert!(
        tools_ok.len() >= 8,
        "only these tools ever succeeded: {tools_ok:?}"
    );
}
