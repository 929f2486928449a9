//! When a Bardic Inspiration die is used. The SRD lets its holder add it after seeing the d20,
//! before knowing the outcome, within 10 minutes; the engine decides for the holder: the die
//! waits through successes and through failures it could not turn, and goes on the first
//! attack roll, check or save that fails by no more than the die's largest face. Worked with
//! seeded dice: the same seed rolled once without the die shows the d20 the inspired roll sees.

use serde_json::{Value, json};

use dnd_engine::rules::AttackResult;
use dnd_engine::state::{Change, Character, GameState, TimedKind};
use dnd_engine::store::RollDetail;

#[path = "support/table.rs"]
mod table;
use table::{Table, attack};

/// Vesna, a 1st-level human bard of Charisma 16 (three inspirations).
fn bard() -> Character {
    table::built(json!({
        "name": "Vesna", "race": "Human", "class": "Bard", "level": 1,
        "background": "Acolyte",
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["performance", "persuasion", "deception"],
        "equipment": {"gold": 50},
        "cantrips": ["Vicious Mockery", "Minor Illusion"],
        "spells": ["Healing Word", "Charm Person", "Sleep", "Thunderwave"],
    }))
}

/// Vesna and Kraven against the Frost Harpy, on Vesna's turn, dice seeded with `seed`;
/// Kraven holds her d6 when `inspired`.
fn table(seed: u64, inspired: bool) -> Table {
    let state = table::fight_with(
        &["kraven"],
        vec![bard()],
        &["vesna", "kraven", "frost-harpy"],
    );
    let mut t = Table::new(state, seed);
    if inspired {
        t.ok(
            "use_feature",
            json!({"character": "vesna", "feature": "bardic-inspiration", "target": "kraven"}),
        );
    }
    t
}

fn die_on(state: &GameState, id: &str) -> Option<u16> {
    let c = state.character(id)?;
    c.timed_effects.iter().find_map(|e| match e.kind {
        TimedKind::Inspired { sides } => Some(sides),
        _ => None,
    })
}

fn save(dc: i32) -> Value {
    json!({"creature": "kraven", "ability": "strength", "dc": dc, "advantage": null, "reason": null, "against": []})
}

fn total(report: &Value) -> i64 {
    report["result"]["total"].as_i64().unwrap()
}

#[test]
fn the_die_waits_through_a_success_and_a_hopeless_failure_then_turns_a_near_miss() {
    // Without the die: three Strength saves, the third's total seen.
    let mut plain = table(11, false);
    plain.ok("roll_saving_throw", save(1));
    plain.ok("roll_saving_throw", save(30));
    let third = total(&plain.ok("roll_saving_throw", save(30)));

    let mut t = table(11, true);
    // A success needs no die.
    let easy = t.ok("roll_saving_throw", save(1));
    assert_eq!(easy["result"]["success"], true);
    assert_eq!(
        die_on(&t.state, "kraven"),
        Some(6),
        "kept through a success"
    );
    // DC 30 is out of a d6's reach from any total Kraven rolls (at most 20 + 3).
    let hopeless = t.ok("roll_saving_throw", save(30));
    assert_eq!(hopeless["result"]["success"], false);
    assert!(total(&hopeless) + 6 < 30, "{hopeless}");
    assert_eq!(
        die_on(&t.state, "kraven"),
        Some(6),
        "kept through a failure it cannot turn"
    );
    // The same d20 against a DC one above its total: the die goes on, and carries it.
    let dc = i32::try_from(third).unwrap() + 1;
    let near = t.ok("roll_saving_throw", save(dc));
    let added = total(&near) - third;
    assert!((1..=6).contains(&added), "{near}");
    assert_eq!(near["result"]["success"], true, "{near}");
    let reasons = near["modifier_reasons"].to_string();
    assert!(
        reasons.contains(&format!(
            "+{added}: Bardic Inspiration (1d6) on a {third} against {dc}"
        )),
        "{reasons}"
    );
    assert_eq!(die_on(&t.state, "kraven"), None, "spent");
}

/// The attack roll of `t`'s last swing.
fn last_attack(t: &Table) -> AttackResult {
    match &*t.log.rolls.last().unwrap().detail {
        RollDetail::Attack(a) => a.clone(),
        other => panic!("not an attack: {other:?}"),
    }
}

#[test]
fn a_miss_by_one_becomes_a_hit_and_its_damage_is_rolled() {
    // A seed whose first swing misses the harpy by exactly 1 (not a natural 1).
    let seed = (1..400)
        .find(|&seed| {
            let mut plain = table(seed, false);
            plain.ok("next_turn", json!({})); // Kraven's turn
            plain.ok("roll_attack", attack("kraven", "frost-harpy"));
            let a = last_attack(&plain);
            a.d20.natural != 1 && a.total == a.target_ac - 1
        })
        .expect("a seed that misses by one");
    let mut t = table(seed, true);
    t.ok("next_turn", json!({}));
    let hp = t.state.monsters[0].hp.current;
    let swing = t.ok("roll_attack", attack("kraven", "frost-harpy"));
    let a = last_attack(&t);
    assert!(a.hit && a.total > a.target_ac - 1, "{swing}");
    assert!(a.total_damage > 0 && !a.damage.is_empty(), "{swing}");
    assert_eq!(t.state.monsters[0].hp.current, hp - a.total_damage);
    let label = &t.log.rolls.last().unwrap().label;
    assert!(label.contains("Bardic Inspiration (1d6)"), "{label}");
    assert_eq!(die_on(&t.state, "kraven"), None);
}

#[test]
fn a_natural_one_keeps_the_die() {
    let seed = (1..400)
        .find(|&seed| {
            let mut plain = table(seed, false);
            plain.ok("next_turn", json!({}));
            plain.ok("roll_attack", attack("kraven", "frost-harpy"));
            last_attack(&plain).d20.natural == 1
        })
        .expect("a seed that rolls a natural 1");
    let mut t = table(seed, true);
    t.ok("next_turn", json!({}));
    t.ok("roll_attack", attack("kraven", "frost-harpy"));
    assert!(!last_attack(&t).hit);
    assert_eq!(
        die_on(&t.state, "kraven"),
        Some(6),
        "a natural 1 misses whatever is added"
    );
}

#[test]
fn the_die_is_gone_after_ten_minutes() {
    let mut t = table(2, true);
    t.apply(&[Change::EncounterEnded, Change::TimeAdvanced { minutes: 9 }]);
    assert_eq!(
        die_on(&t.state, "kraven"),
        Some(6),
        "nine minutes: still held"
    );
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    assert_eq!(die_on(&t.state, "kraven"), None, "ten minutes: gone unused");
}

/// Kraven's Constitution save in the last casting's outcomes: (total, DC, success).
fn kraven_save(cast: &Value) -> (i64, i64, bool) {
    let save = cast["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["outcome"] == "save" && e["target"] == "Kraven")
        .unwrap_or_else(|| panic!("no save: {cast}"));
    let s = &save["save"];
    (
        s["total"].as_i64().unwrap(),
        s["dc"].as_i64().unwrap(),
        s["success"].as_bool().unwrap(),
    )
}

#[test]
fn a_spells_save_takes_the_die_inside_the_effects_engine() {
    // Vesna's Thunderwave catches Kraven: a seed where his save falls one short without the
    // die, and one where it succeeds.
    let thunder = || table::cast("vesna", "Thunderwave", None, &["kraven"]);
    let plain = |seed: u64| {
        let mut t = table(seed, false);
        kraven_save(&t.ok("cast_spell", thunder()))
    };
    let short = (1..400)
        .find(|&s| {
            let (total, dc, _) = plain(s);
            total == dc - 1
        })
        .expect("a save one short");
    let mut t = table(short, true);
    let out = t.ok("cast_spell", thunder());
    let (total, dc, success) = kraven_save(&out);
    assert!(success && total >= dc, "{out}");
    assert_eq!(die_on(&t.state, "kraven"), None, "spent on the save");
    let label = t
        .log
        .rolls
        .iter()
        .find(|r| r.label.starts_with("Kraven Constitution save"))
        .unwrap()
        .label
        .clone();
    assert!(label.contains("Bardic Inspiration (1d6)"), "{label}");

    let made = (1..400).find(|&s| plain(s).2).expect("a save made");
    let mut t = table(made, true);
    let out = t.ok("cast_spell", thunder());
    assert!(kraven_save(&out).2, "{out}");
    assert_eq!(
        die_on(&t.state, "kraven"),
        Some(6),
        "kept through a save made"
    );
}
