//! Careful Spell and Empowered Spell through `cast_spell`, worked as the SRD gives them: Careful
//! Spell (1 sorcery point) lets up to the sorcerer's Charisma modifier (at least 1) of the
//! creatures a spell's save catches succeed on it automatically (named in `careful`); Empowered
//! Spell (1 point, beside another option) rerolls up to that many of the spell's damage dice,
//! the new rolls standing: the engine chooses the lowest dice under the die's average. And a
//! model that cheats with them, refused each time with what is allowed, changing nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::DamageDealt;
use dnd_engine::state::{Change, Character, GameState};
use dnd_engine::store::RollDetail;

#[path = "support/table.rs"]
mod table;
use table::{Table, cast};

/// Vex, a 3rd-level red-dragon draconic sorcerer who knows Careful and Empowered Spell:
/// Charisma 16 (+3), so three creatures or three dice.
fn vex() -> Character {
    table::built(json!({
        "name": "Vex", "race": "Dragonborn", "class": "Sorcerer", "subclass": "Draconic", "level": 3,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
        "skills": ["arcana", "intimidation"],
        "features": {"dragon-ancestor": ["Red"], "metamagic-1": ["Careful Spell", "Empowered Spell"]},
        "race_traits": {"draconic-ancestry": ["red"]},
        "equipment": {"gold": 30},
        "cantrips": ["Fire Bolt", "Poison Spray", "Light", "Mage Hand"],
        "spells": ["Burning Hands", "Mage Armor", "Magic Missile", "Shield"]
    }))
}

/// Vex and Kraven against the harpy and a second harpy, on Vex's turn.
fn fight() -> GameState {
    let mut state = table::fight_with(&["kraven"], vec![vex()], &["vex", "kraven", "frost-harpy"]);
    let mut second = state.monsters[0].clone();
    second.id = "harpy-2".into();
    second.name = "Second Harpy".into();
    Arc::make_mut(&mut state.monsters).push(second);
    state
}

fn points_left(state: &GameState) -> u8 {
    let c = state.character("vex").unwrap();
    c.feature_uses
        .get("font-of-magic")
        .map_or(c.level, |u| u.left())
}

fn meta(mut args: Value, options: &[&str], careful: Option<&[&str]>) -> Value {
    args["metamagic"] = json!(options);
    args["careful"] = json!(careful);
    args
}

/// The outcome of the casting's save for `name`.
fn save_of<'v>(cast: &'v Value, name: &str) -> &'v Value {
    cast["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["outcome"] == "save" && e["target"] == name)
        .unwrap_or_else(|| panic!("no save for {name}: {cast}"))
}

#[test]
fn careful_spell_lets_kraven_succeed_on_burning_hands_for_half() {
    let mut t = Table::new(fight(), 3);
    let hands = cast("vex", "Burning Hands", None, &["frost-harpy", "kraven"]);
    let out = t.ok("cast_spell", meta(hands, &["Careful"], Some(&["Kraven"])));
    assert_eq!(points_left(&t.state), 2, "1 point");
    let kraven = save_of(&out, "Kraven");
    assert_eq!(kraven["save"]["success"], true, "{out}");
    // The damage roll is the casting's, one for all: Kraven takes half of it.
    let rolled = t
        .log
        .rolls
        .iter()
        .find_map(|r| match &*r.detail {
            RollDetail::Damage(d) if r.label.starts_with("Burning Hands damage") => Some(d.rolled),
            _ => None,
        })
        .unwrap();
    assert_eq!(kraven["damage"].as_u64().unwrap(), u64::from(rolled / 2));
    let label = t
        .log
        .rolls
        .iter()
        .find(|r| r.label.starts_with("Kraven Dexterity save"))
        .unwrap()
        .label
        .clone();
    assert!(
        label.contains("Careful Spell: succeeds automatically"),
        "{label}"
    );
    // The harpy was not chosen: its save is its own roll.
    let harpy = save_of(&out, "Frost Harpy");
    let d20 = harpy["save"]["total"].as_i64().unwrap();
    let dc = harpy["save"]["dc"].as_i64().unwrap();
    assert_eq!(harpy["save"]["success"], d20 >= dc, "{out}");
}

/// Every damage roll the turn recorded, with its label.
fn damage_rolls(t: &Table) -> Vec<(String, DamageDealt)> {
    t.log
        .rolls
        .iter()
        .filter_map(|r| match &*r.detail {
            RollDetail::Damage(d) => Some((r.label.clone(), d.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn empowered_spell_rerolls_the_lowest_dice_of_burning_hands() {
    // Seed 4 without Empowered: Burning Hands' 3d6 fall 4, 1, 4.
    let mut plain = Table::new(fight(), 4);
    plain.ok(
        "cast_spell",
        cast("vex", "Burning Hands", None, &["frost-harpy"]),
    );
    let (_, first) = damage_rolls(&plain).remove(0);
    assert_eq!(first.faces.to_vec(), vec![4, 1, 4]);
    let low: Vec<u16> = first.faces.iter().copied().filter(|f| *f <= 3).collect();

    let mut t = Table::new(fight(), 4);
    let hands = cast("vex", "Burning Hands", None, &["frost-harpy"]);
    let out = t.ok("cast_spell", meta(hands, &["Empowered"], None));
    assert_eq!(points_left(&t.state), 2, "1 point");
    let (label, dealt) = damage_rolls(&t).remove(0);
    assert_eq!(label, "Burning Hands damage (Empowered Spell: 1→5)");
    // The same first faces; the ones under 3.5 (at most three, the lowest first) rolled again.
    let mut was: Vec<u16> = dealt.rerolled.iter().map(|r| r.was).collect();
    let mut expected = low.clone();
    expected.sort_unstable();
    expected.truncate(3);
    was.sort_unstable();
    assert_eq!(was, expected, "{label}");
    assert!(label.contains("Empowered Spell: "), "{label}");
    for r in &dealt.rerolled {
        assert!(label.contains(&format!("{}→{}", r.was, r.now)), "{label}");
    }
    // The faces that stand: the kept ones and the new ones; the damage is their sum.
    let mut kept: Vec<u16> = first.faces.iter().copied().filter(|f| *f > 3).collect();
    kept.extend(dealt.rerolled.iter().map(|r| r.now));
    kept.sort_unstable();
    let mut faces = dealt.faces.to_vec();
    faces.sort_unstable();
    assert_eq!(faces, kept);
    assert_eq!(
        dealt.rolled,
        faces.iter().map(|f| u32::from(*f)).sum::<u32>()
    );
    let harpy = save_of(&out, "Frost Harpy");
    let full = if harpy["save"]["success"] == true {
        dealt.rolled / 2
    } else {
        dealt.rolled
    };
    assert_eq!(harpy["damage"].as_u64().unwrap(), u64::from(full), "{out}");
}

#[test]
fn empowered_spell_goes_beside_careful_and_shares_three_dice_among_darts() {
    let mut t = Table::new(fight(), 6);
    let hands = cast("vex", "Burning Hands", None, &["frost-harpy", "kraven"]);
    t.ok(
        "cast_spell",
        meta(hands, &["Careful", "Empowered"], Some(&["kraven"])),
    );
    assert_eq!(points_left(&t.state), 1, "1 + 1 points");

    // Magic Missile's three darts of 1d4 + 1: three rerolls in all, darts in turn.
    let mut t = Table::new(fight(), 7);
    let darts = cast(
        "vex",
        "Magic Missile",
        None,
        &["frost-harpy", "frost-harpy", "frost-harpy"],
    );
    t.ok("cast_spell", meta(darts, &["Empowered"], None));
    let rolls = damage_rolls(&t);
    assert_eq!(rolls.len(), 3);
    let rerolled: usize = rolls.iter().map(|(_, d)| d.rerolled.len()).sum();
    let low = rolls
        .iter()
        .filter(|(_, d)| d.rerolled.first().map_or(d.faces[0], |r| r.was) <= 2)
        .count();
    assert_eq!(rerolled, low.min(3), "{rolls:?}");
    for (label, d) in &rolls {
        assert_eq!(
            d.rerolled.is_empty(),
            !label.contains("Empowered Spell"),
            "{label}"
        );
        assert_eq!(d.rolled, u32::from(d.faces[0]) + 1);
    }
}

#[test]
fn careful_and_empowered_are_refused_where_they_do_not_fit() {
    let mut t = Table::new(fight(), 8);
    let before = t.state.clone();
    let bolt = cast("vex", "Fire Bolt", None, &["frost-harpy"]);
    let hands = |targets: &[&str]| cast("vex", "Burning Hands", None, targets);
    for (args, want) in [
        (
            meta(bolt.clone(), &["Careful"], Some(&["kraven"])),
            "Fire Bolt asks for no save",
        ),
        (
            meta(hands(&["frost-harpy"]), &["Careful"], Some(&["kraven"])),
            "Kraven is not among those Burning Hands affects here (Frost Harpy)",
        ),
        (
            meta(
                hands(&["frost-harpy", "harpy-2", "kraven", "vex"]),
                &["Careful"],
                Some(&["kraven", "vex", "frost-harpy", "harpy-2"]),
            ),
            "up to 3 creature(s)",
        ),
        (
            meta(hands(&["frost-harpy"]), &["Careful"], None),
            "Careful Spell needs careful",
        ),
        (
            meta(hands(&["frost-harpy", "kraven"]), &[], Some(&["kraven"])),
            "add \"Careful\" to metamagic",
        ),
        (
            meta(
                cast("vex", "Mage Armor", None, &["vex"]),
                &["Empowered"],
                None,
            ),
            "Mage Armor rolls no damage",
        ),
        (
            meta(
                hands(&["frost-harpy", "kraven"]),
                &["Careful"],
                Some(&["kraven", "Kraven"]),
            ),
            "named twice in careful",
        ),
    ] {
        let no = t.refused("cast_spell", args);
        assert!(no.contains(want), "{want}: {no}");
    }
    assert_eq!(t.state, before, "nothing spent");
    // No points left: refused with the cost.
    t.apply(&[Change::FeatureUsed {
        character: "vex".into(),
        feature: "font-of-magic".into(),
        of: 3,
        restores: dnd_engine::srd::Rest::LongRest,
        count: 3,
    }]);
    let poor = t.refused(
        "cast_spell",
        meta(
            hands(&["frost-harpy", "kraven"]),
            &["Careful"],
            Some(&["kraven"]),
        ),
    );
    assert!(poor.contains("Careful costs 1 sorcery point(s)"), "{poor}");
}

/// A scripted model plays Careful and Empowered against the rules: Kraven is no sorcerer, Vex
/// protects a creature the spell does not reach, too many creatures, a spell without a save,
/// then spends his last points lawfully and asks for more. Only the lawful casting spends.
#[tokio::test]
async fn a_model_cheating_with_careful_and_empowered_is_refused() {
    let before = fight();
    let hands = |targets: &[&str]| cast("vex", "Burning Hands", None, targets);
    let mut kraven_casts = hands(&["frost-harpy"]);
    kraven_casts["caster"] = json!("kraven");
    let call = |id: &str, args: Value| ToolCall::new(id, "cast_spell", args);
    let cheats = vec![
        call("a", meta(kraven_casts, &["Careful"], Some(&["vex"]))),
        call(
            "b",
            meta(hands(&["frost-harpy"]), &["Careful"], Some(&["harpy-2"])),
        ),
        call(
            "c",
            meta(
                hands(&["frost-harpy", "harpy-2", "kraven", "vex"]),
                &["Careful"],
                Some(&["kraven", "vex", "frost-harpy", "harpy-2"]),
            ),
        ),
        call(
            "d",
            meta(
                cast("vex", "Fire Bolt", None, &["frost-harpy"]),
                &["Empowered", "Careful"],
                Some(&["kraven"]),
            ),
        ),
        call(
            "e",
            meta(
                hands(&["frost-harpy", "kraven"]),
                &["Careful", "Empowered"],
                Some(&["kraven"]),
            ),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Vex", "Burn them, spare Kraven!").await;
    assert_eq!(results.len(), 5, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "not among those Burning Hands affects"),
        (2, "up to 3 creature(s)"),
        (3, "asks for no save"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(!results[4].contains("\"error\""), "{}", results[4]);
    assert_eq!(points_left(&after), 1, "only the lawful casting's 2 points");
    assert_eq!(after.character("vex").unwrap().spell_slots.available(1), 3);
    assert_eq!(
        after.character("kraven").unwrap().feature_uses,
        before.character("kraven").unwrap().feature_uses
    );
}

/// The worked example: Burning Hands from a 2nd-level slot (4d6) at seed 55 falls 2, 1, 3, 1.
/// Empowered Spell with Charisma +3 rolls again the three lowest under 3.5: the two 1s (to 6
/// and 5) and the 2 (to 5); the 3 is under the average too but the three rerolls are spent.
/// 5 + 6 + 3 + 5 = 19 fire, where the plain roll made 7.
#[test]
fn empowered_spell_worked_example_rerolls_three_of_four_low_dice() {
    let hands = || cast("vex", "Burning Hands", Some(2), &["frost-harpy"]);
    let mut plain = Table::new(fight(), 55);
    plain.ok("cast_spell", hands());
    let (_, first) = damage_rolls(&plain).remove(0);
    assert_eq!(first.faces.to_vec(), vec![2, 1, 3, 1]);
    assert_eq!(first.rolled, 7);

    let mut t = Table::new(fight(), 55);
    let out = t.ok("cast_spell", meta(hands(), &["Empowered"], None));
    let (label, dealt) = damage_rolls(&t).remove(0);
    assert_eq!(
        label,
        "Burning Hands damage (Empowered Spell: 1→6, 1→5, 2→5)"
    );
    let was_now: Vec<(u16, u16)> = dealt.rerolled.iter().map(|r| (r.was, r.now)).collect();
    assert_eq!(was_now, vec![(1, 6), (1, 5), (2, 5)]);
    assert_eq!(dealt.faces.to_vec(), vec![5, 6, 3, 5]);
    assert_eq!(dealt.rolled, 19);
    // The record serializes both: the faces that stand and what the rerolled ones were.
    let record = serde_json::to_value(&dealt).unwrap();
    assert_eq!(
        record["rerolled"][0],
        json!({"was": 1, "now": 6}),
        "{record}"
    );
    let harpy = save_of(&out, "Frost Harpy");
    let taken = if harpy["save"]["success"] == true {
        9
    } else {
        19
    };
    assert_eq!(harpy["damage"], taken, "{out}");
}
