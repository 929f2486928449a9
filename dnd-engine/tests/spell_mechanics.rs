//! Worked examples of the spell mechanics measured from the fight's positions, each through
//! `cast_spell` as a model calls it, with seeded dice: areas (Fireball's sphere at a creature,
//! Shatter's at an area of the room, Burning Hands' cone, Lightning Bolt's line), each
//! affecting whoever stands in it, allies included, and nobody outside; the named targets
//! where the fight keeps no positions.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::HitPoints;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, GameState, Position};

#[path = "support/table.rs"]
mod table;
use table::{Table, at};

/// The dice of every table here.
const SEED: u64 = 11;

/// `party` and goblins (`foes`: id and where it stands, 30 HP each so nobody drops), in a
/// fight in the ice chasm in the order party then goblins, everyone placed; the heroes
/// know `spells` and have a slot of each level up to 5th.
fn battle(party: &[(&str, Position)], foes: &[(&str, Position)], spells: &[&str]) -> GameState {
    let ids: Vec<&str> = party.iter().chain(foes).map(|(id, _)| *id).collect();
    let heroes: Vec<&str> = party.iter().map(|(id, _)| *id).collect();
    let mut state = table::seen_harpy(&heroes);
    let harpy = state.monsters[0].clone();
    for (id, _) in foes {
        let mut m = harpy.clone();
        m.id = (*id).into();
        m.name = (*id).into();
        m.template = "goblin".into();
        m.hp = HitPoints::full(30);
        m.armor_class = Srd::bundled().monster("goblin").unwrap().armor_class;
        m.area = None;
        Arc::make_mut(&mut state.monsters).push(m);
    }
    for hero in &heroes {
        let c = table::hero_mut(&mut state, hero);
        c.spell_slots.max = [4, 3, 3, 2, 1, 0, 0, 0, 0];
        Arc::make_mut(&mut c.spells).extend(spells.iter().map(|s| (*s).to_owned()));
    }
    // A far ledge 700 ft east: a point out of every spell's range.
    table::add_far_ledge(&mut state);
    let mut changes = vec![Change::EncounterStarted {
        order: table::order(&ids),
    }];
    for (id, to) in party.iter().chain(foes) {
        changes.push(Change::Moved {
            creature: (*id).into(),
            to: *to,
        });
    }
    state.apply_all(&changes).unwrap();
    state
}

fn cast(caster: &str, spell: &str, slot: Option<u8>, aim: Option<&str>, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": targets, "aim": aim})
}

/// The names of the creatures a casting's result says it affected at once.
fn affected(r: &Value) -> Vec<String> {
    r["effects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["target"].as_str().unwrap().to_owned())
        .collect()
}

fn hp(state: &GameState, id: &str) -> u32 {
    state
        .monster(id)
        .map(|m| m.hp.current)
        .or_else(|| state.character(id).map(|c| c.hp.current))
        .unwrap()
}

/// Each save in `r` took the whole damage rolled on a failure and half on a success, and the
/// creature's hit points fell by it.
fn saves_took_full_or_half(t: &Table, before: &GameState, r: &Value, rolled: u32) {
    for o in r["effects"].as_array().unwrap() {
        let name = o["target"].as_str().unwrap();
        let success = o["save"]["success"].as_bool().unwrap();
        let expected = if success { rolled / 2 } else { rolled };
        assert_eq!(o["damage"].as_u64().unwrap() as u32, expected, "{o}");
        let id = t
            .state
            .character(name)
            .map_or(name.to_owned(), |c| c.id.clone());
        // Hit points stop at 0.
        let left = hp(before, &id).saturating_sub(expected);
        assert_eq!(hp(&t.state, &id), left, "{name}");
    }
}

/// The total of the one damage roll a casting made.
fn damage_rolled(t: &Table, spell: &str) -> u32 {
    let label = format!("{spell} damage");
    let rolls: Vec<_> = t.log.rolls.iter().filter(|r| r.label == label).collect();
    assert_eq!(rolls.len(), 1, "one damage roll for the casting");
    rolls[0].total as u32
}

#[test]
fn fireball_covers_everyone_within_20_ft_of_its_point_the_wizards_ally_included() {
    // Isolde at the glacier's mouth; three goblins around the point, Kraven among them, a
    // fourth goblin 30 ft from the point.
    let state = battle(
        &[("isolde", at(0, 0, 0)), ("kraven", at(45, -5, 0))],
        &[
            ("goblin-a", at(40, 0, 0)),
            ("goblin-b", at(50, 5, 0)),
            ("goblin-c", at(60, 0, 0)),
            ("goblin-d", at(80, 0, 0)),
        ],
        &["Fireball"],
    );
    let mut t = Table::new(state, SEED);
    let before = t.state.clone();
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Fireball", None, Some("goblin-b"), &[]),
    );
    assert_eq!(
        affected(&r),
        ["Kraven", "goblin-a", "goblin-b", "goblin-c"],
        "{r}"
    );
    let rolled = damage_rolled(&t, "Fireball");
    assert!((8..=48).contains(&rolled), "8d6: {rolled}");
    saves_took_full_or_half(&t, &before, &r, rolled);
    assert_eq!(
        hp(&t.state, "goblin-d"),
        30,
        "30 ft from the point: outside"
    );
    assert_eq!(hp(&t.state, "isolde"), hp(&before, "isolde"));
}

#[test]
fn shatter_is_centred_on_an_area_of_the_room_within_its_60_ft() {
    let state = battle(
        &[("isolde", at(0, 0, 0))],
        &[
            ("goblin-a", at(35, 0, 0)),
            ("goblin-b", at(45, 5, 0)),
            ("goblin-c", at(55, 0, 0)),
        ],
        &["Shatter"],
    );
    let mut t = Table::new(state, SEED);
    let before = t.state.clone();
    // The ice bridge is at (40, 0): a 10-ft sphere there.
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Shatter", None, Some("the ice bridge"), &[]),
    );
    assert_eq!(affected(&r), ["goblin-a", "goblin-b"], "{r}");
    assert_eq!(hp(&t.state, "goblin-c"), 30);
    let rolled = damage_rolled(&t, "Shatter");
    assert!((3..=24).contains(&rolled), "3d8: {rolled}");
    saves_took_full_or_half(&t, &before, &r, rolled);
}

#[test]
fn burning_hands_fans_out_15_ft_toward_its_aim_and_spares_the_side_and_the_back() {
    let state = battle(
        &[("isolde", at(0, 0, 0)), ("kraven", at(15, 5, 0))],
        &[
            ("goblin-a", at(10, 0, 0)),
            ("goblin-b", at(5, 5, 0)),
            ("goblin-c", at(-10, 0, 0)),
            ("goblin-d", at(20, 0, 0)),
        ],
        &["Burning Hands"],
    );
    let mut t = Table::new(state, SEED);
    let before = t.state.clone();
    // No aim: the first creature named gives the direction.
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Burning Hands", None, None, &["goblin-a"]),
    );
    assert_eq!(affected(&r), ["Kraven", "goblin-a"], "{r}");
    for spared in ["goblin-b", "goblin-c", "goblin-d"] {
        assert_eq!(hp(&t.state, spared), 30, "{spared}");
    }
    // Burning Hands goes through the effects engine: its damage roll is labelled as such.
    let rolled = damage_rolled(&t, "Burning Hands");
    saves_took_full_or_half(&t, &before, &r, rolled);
}

#[test]
fn lightning_bolt_strikes_everyone_on_its_100_ft_line_and_no_one_beside_it() {
    let state = battle(
        &[("isolde", at(0, 0, 0))],
        &[
            ("goblin-a", at(30, 0, 0)),
            ("goblin-b", at(60, 0, 0)),
            ("goblin-c", at(30, 10, 0)),
        ],
        &["Lightning Bolt"],
    );
    let mut t = Table::new(state, SEED);
    let before = t.state.clone();
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Lightning Bolt", None, Some("goblin-a"), &[]),
    );
    assert_eq!(affected(&r), ["goblin-a", "goblin-b"], "{r}");
    assert_eq!(hp(&t.state, "goblin-c"), 30, "10 ft beside the line");
    let rolled = damage_rolled(&t, "Lightning Bolt");
    saves_took_full_or_half(&t, &before, &r, rolled);
}

#[test]
fn without_positions_an_area_spell_affects_the_creatures_named() {
    let mut state = battle(
        &[("isolde", at(0, 0, 0))],
        &[("goblin-a", at(40, 0, 0)), ("goblin-b", at(80, 0, 0))],
        &["Fireball"],
    );
    state.encounter.as_mut().unwrap().positions.clear();
    let mut t = Table::new(state, SEED);
    let r = t.ok(
        "cast_spell",
        cast("isolde", "Fireball", None, None, &["goblin-b"]),
    );
    assert_eq!(affected(&r), ["goblin-b"], "{r}");
    assert_eq!(hp(&t.state, "goblin-a"), 30);
}

/// A model that aims areas the wrong way, through a whole scripted turn: each call refused with
/// what is allowed, no slot spent, no one hurt.
#[tokio::test]
async fn a_cheating_model_cannot_aim_an_area_out_of_range_or_pick_who_it_hits() {
    let before = battle(
        &[("isolde", at(0, 0, 0))],
        &[("goblin-a", at(40, 0, 0)), ("goblin-b", at(80, 0, 0))],
        &["Fireball", "Burning Hands", "Thunderwave"],
    );
    let call = |id: &str, args: Value| ToolCall::new(id, "cast_spell", args);
    let calls = vec![
        call(
            "a",
            cast("isolde", "Fireball", None, Some("far-ledge"), &[]),
        ),
        call(
            "b",
            cast("isolde", "Fireball", None, Some("goblin-a"), &["goblin-b"]),
        ),
        call("c", cast("isolde", "Fireball", None, Some("the moon"), &[])),
        call("d", cast("isolde", "Fireball", None, None, &[])),
        call(
            "e",
            cast(
                "isolde",
                "Magic Missile",
                None,
                Some("goblin-a"),
                &["goblin-a"],
            ),
        ),
        call(
            "f",
            cast("isolde", "Burning Hands", None, Some("isolde"), &[]),
        ),
        // Thunderwave's cube reaches 15 ft from Isolde; goblin-b stands 80 ft away: the range
        // rule refuses it, with what is allowed.
        call(
            "g",
            cast("isolde", "Thunderwave", None, None, &["goblin-b"]),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Isolde", "Burn them all!").await;
    let r = &played.results;
    assert_eq!(r.len(), 7, "{r:#?}");
    assert!(
        r[6].contains("goblin-b is 80 ft from Isolde Vane; Thunderwave reaches 15 ft"),
        "{}",
        r[6]
    );
    assert!(
        r[0].contains("700 ft from Isolde") && r[0].contains("within 150 ft"),
        "{}",
        r[0]
    );
    assert!(
        r[1].contains("goblin-b stands outside Fireball's 20-ft sphere centred on goblin-a")
            && r[1].contains("which covers goblin-a"),
        "{}",
        r[1]
    );
    assert!(
        r[2].contains("the moon") && r[2].contains("is neither") && r[2].contains("far-ledge"),
        "{}",
        r[2]
    );
    assert!(r[3].contains("name where it is aimed in aim"), "{}", r[3]);
    assert!(
        r[4].contains("Magic Missile has no area") && r[4].contains("leave aim null"),
        "{}",
        r[4]
    );
    assert!(
        r[5].contains("aim at a creature or an area elsewhere"),
        "{}",
        r[5]
    );
    let after = played.after;
    let isolde = after.character("isolde").unwrap();
    assert_eq!(
        isolde.spell_slots,
        before.character("isolde").unwrap().spell_slots
    );
    for goblin in ["goblin-a", "goblin-b"] {
        assert_eq!(hp(&after, goblin), 30);
    }
}

fn position(state: &GameState, id: &str) -> Position {
    state.encounter.as_ref().unwrap().position(id).unwrap()
}

#[test]
fn thunderwave_hurts_everyone_in_its_cube_and_pushes_those_who_fail_10_ft_away() {
    let (mut pushed, mut stayed) = (0, 0);
    for seed in 0..8 {
        let state = battle(
            &[("isolde", at(0, 0, 0)), ("kraven", at(-5, 0, 0))],
            &[
                ("goblin-a", at(5, 0, 0)),
                ("goblin-b", at(15, 0, 0)),
                ("goblin-c", at(5, 10, 0)),
            ],
            &["Thunderwave"],
        );
        let mut t = Table::new(state, seed);
        let before = t.state.clone();
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Thunderwave", None, Some("goblin-a"), &[]),
        );
        let saves: Vec<&Value> = r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["outcome"] == "save")
            .collect();
        let names: Vec<&str> = saves
            .iter()
            .map(|o| o["target"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["goblin-a", "goblin-b"],
            "the cube, not beside or behind: {r}"
        );
        let rolled = damage_rolled(&t, "Thunderwave");
        assert!((2..=16).contains(&rolled), "2d8: {rolled}");
        for (o, from, away) in [
            (saves[0], at(5, 0, 0), at(15, 0, 0)),
            (saves[1], at(15, 0, 0), at(25, 0, 0)),
        ] {
            let id = o["target"].as_str().unwrap();
            let expected = if o["save"]["success"].as_bool().unwrap() {
                assert_eq!(o["damage"].as_u64().unwrap() as u32, rolled / 2);
                stayed += 1;
                from
            } else {
                assert_eq!(o["damage"].as_u64().unwrap() as u32, rolled);
                pushed += 1;
                away
            };
            assert_eq!(position(&t.state, id), expected, "seed {seed}: {r}");
            assert_eq!(
                hp(&before, id) - hp(&t.state, id),
                o["damage"].as_u64().unwrap() as u32
            );
        }
        for still in ["kraven", "goblin-c", "isolde"] {
            assert_eq!(position(&t.state, still), position(&before, still));
        }
    }
    assert!(pushed > 0 && stayed > 0, "{pushed} pushed, {stayed} stayed");
}

#[test]
fn a_thunderwave_push_stops_at_the_rooms_edge() {
    // The chasm ends 20 ft north of the mouth: a goblin 5 ft from it goes 5 ft, not 10.
    for seed in 0..8 {
        let state = battle(
            &[("isolde", at(0, 10, 0))],
            &[("goblin-a", at(0, 15, 0))],
            &["Thunderwave"],
        );
        let mut t = Table::new(state, seed);
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Thunderwave", None, Some("goblin-a"), &[]),
        );
        let of = |kind: &str| {
            r["effects"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["outcome"] == kind)
                .cloned()
        };
        let failed = !of("save").unwrap()["save"]["success"].as_bool().unwrap();
        let expected = if failed { at(0, 20, 0) } else { at(0, 15, 0) };
        assert_eq!(position(&t.state, "goblin-a"), expected, "{r}");
        if failed {
            let push = of("pushed").unwrap();
            assert_eq!(push["outcome"], "pushed", "{r}");
            assert_eq!(push["feet"], 5, "{r}");
            return;
        }
    }
    panic!("no seed failed the save");
}

fn restrained(state: &GameState, id: &str) -> bool {
    state
        .monster(id)
        .unwrap()
        .conditions
        .has(dnd_engine::rules::Condition::Restrained)
}

#[test]
fn web_restrains_who_fails_in_its_cube_until_a_strength_check_or_the_concentration_ends() {
    let (mut held, mut freed, mut stuck) = (0, 0, 0);
    for seed in 0..10 {
        let state = battle(
            &[("isolde", at(0, 0, 0))],
            &[
                ("goblin-a", at(40, 0, 0)),
                ("goblin-b", at(45, 5, 0)),
                ("goblin-c", at(50, -5, 0)),
                ("goblin-d", at(60, 0, 0)),
            ],
            &["Web"],
        );
        let mut t = Table::new(state, seed);
        // A 20-ft cube around goblin-b: 10 ft each way.
        let r = t.ok(
            "cast_spell",
            cast("isolde", "Web", None, Some("goblin-b"), &[]),
        );
        assert_eq!(affected(&r), ["goblin-a", "goblin-b", "goblin-c"], "{r}");
        assert_eq!(r["concentrating"], true);
        assert!(!restrained(&t.state, "goblin-d"));
        for o in r["effects"].as_array().unwrap() {
            let id = o["target"].as_str().unwrap();
            let failed = !o["save"]["success"].as_bool().unwrap();
            assert_eq!(restrained(&t.state, id), failed, "seed {seed}: {r}");
        }
        // goblin-a's turn: if held, its action and a Strength check against DC 13.
        t.apply(&[Change::TurnAdvanced]);
        if restrained(&t.state, "goblin-a") {
            held += 1;
            let e = t.ok("escape_grapple", json!({"creature": "goblin-a"}));
            let check = &e["check"];
            assert_eq!(check["dc"], 13, "{e}");
            assert_eq!(check["modifier"], -1, "a goblin's Strength: {e}");
            let out = check["success"].as_bool().unwrap();
            assert_eq!(restrained(&t.state, "goblin-a"), !out, "{e}");
            if out { freed += 1 } else { stuck += 1 }
        }
        // Isolde's concentration ends: every strand falls away.
        t.apply(&[Change::Concentration {
            character: "isolde".into(),
            spell: None,
        }]);
        for id in ["goblin-a", "goblin-b", "goblin-c"] {
            assert!(!restrained(&t.state, id), "seed {seed}: {id}");
        }
    }
    assert!(held > 0 && freed + stuck == held, "{held} held");
}
