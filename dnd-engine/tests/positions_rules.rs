//! Spell range, cover on Dexterity saves and Shove's push, worked through the tools as the SRD
//! gives them: Ray of Frost reaches 60 ft, Guiding Bolt 120 ft, Cure Wounds a touch, Misty
//! Step only its caster; a Fire Bolt with the harpy adjacent has disadvantage and the spire's
//! cover adds to its AC; Burning Hands' Dexterity save gains +2 and +5 from cover (Sacred
//! Flame's none), as does a winter wolf's breath; a won push moves 5 ft straight away along the
//! floor and stays in the room. Then a cheating model through the whole turn: each refusal
//! says what is allowed and changes nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::monster_plan::{self, Plan};
use dnd_engine::combat::positions;
use dnd_engine::llm::ToolCall;
use dnd_engine::srd::{SpellReach, Srd};
use dnd_engine::state::{Change, Cover, GameState, Position};

#[path = "support/table.rs"]
mod table;

use table::Table;

const SEED: u64 = 11;

use table::at;

/// Isolde, Hedda and Kraven against the Frost Harpy (200 HP) in the ice chasm, with a far
/// ledge 700 ft east so the room is long enough for Guiding Bolt; `first` acts first, then
/// the others in that order, the harpy last. Everyone placed by hand.
fn fight(first: &str, places: [(&str, Position); 4]) -> GameState {
    let mut ids = vec![first];
    ids.extend(
        ["isolde", "hedda", "kraven"]
            .into_iter()
            .filter(|id| *id != first),
    );
    ids.push("frost-harpy");
    table::placed_fight(&["isolde", "hedda", "kraven"], table::order(&ids), &places)
}

/// Everyone at the glacier's mouth but the harpy, which stands at `harpy`.
fn harpy_at(first: &str, harpy: Position) -> GameState {
    fight(
        first,
        [
            ("isolde", at(0, 0, 0)),
            ("hedda", at(0, 0, 0)),
            ("kraven", at(0, 0, 0)),
            ("frost-harpy", harpy),
        ],
    )
}

fn cast(caster: &str, spell: &str, targets: &[&str]) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": null, "targets": targets})
}

fn set_cover(state: &mut GameState, area: &str, cover: Cover) {
    Arc::make_mut(&mut state.locations)[0]
        .areas
        .iter_mut()
        .find(|a| a.id == area)
        .unwrap()
        .cover = cover;
}

fn learn(state: &mut GameState, hero: &str, spell: &str) {
    Arc::make_mut(&mut table::hero_mut(state, hero).spells).push(spell.into());
}

#[test]
fn the_srd_ranges_give_each_spell_its_reach() {
    let srd = Srd::bundled();
    let reach = |name: &str| srd.spell(name).unwrap().reach();
    assert_eq!(reach("Ray of Frost"), SpellReach::Within(60));
    assert_eq!(reach("Cure Wounds"), SpellReach::Within(5));
    // Fireball's sphere may be centred at the edge of its 150 ft: 20 ft more.
    assert_eq!(reach("Fireball"), SpellReach::Within(170));
    assert_eq!(reach("Burning Hands"), SpellReach::Within(15));
    assert_eq!(reach("Produce Flame"), SpellReach::Within(30));
    assert_eq!(reach("Misty Step"), SpellReach::CasterOnly);
}

#[test]
fn a_spell_reaches_its_range_and_no_farther() {
    // Ray of Frost, 60 ft, at a harpy 65 ft off over open ice: refused; Fire Bolt's 120 ft reach it.
    let mut t = Table::new(harpy_at("isolde", at(65, 0, 0)), SEED);
    let error = t.refused(
        "cast_spell",
        cast("isolde", "Ray of Frost", &["frost-harpy"]),
    );
    assert!(
        error.contains("Frost Harpy is 65 ft from Isolde")
            && error.contains("Ray of Frost reaches 60 ft (range 60 feet)"),
        "{error}"
    );
    let r = t.ok("cast_spell", cast("isolde", "Fire Bolt", &["frost-harpy"]));
    assert_eq!(r["reasons"][0]["distance_ft"], 65, "{r}");

    // Guiding Bolt, 120 ft, at 130 ft: refused, and the slot is not spent (`refused` checks
    // that nothing changed).
    let mut t = Table::new(harpy_at("hedda", at(130, 0, 0)), SEED);
    let error = t.refused(
        "cast_spell",
        cast("hedda", "Guiding Bolt", &["frost-harpy"]),
    );
    assert!(
        error.contains("130 ft") && error.contains("reaches 120 ft"),
        "{error}"
    );

    // Cure Wounds is a touch: Kraven 10 ft away is out of reach, 5 ft away is not.
    let mut state = harpy_at("hedda", at(130, 0, 0));
    state
        .apply(&Change::Moved {
            creature: "kraven".into(),
            to: at(10, 0, 0),
        })
        .unwrap();
    let mut t = Table::new(state, SEED);
    let error = t.refused("cast_spell", cast("hedda", "Cure Wounds", &["kraven"]));
    assert!(error.contains("reaches 5 ft (range Touch)"), "{error}");
    t.apply(&[Change::Moved {
        creature: "kraven".into(),
        to: at(5, 0, 0),
    }]);
    t.ok("cast_spell", cast("hedda", "Cure Wounds", &["kraven"]));
}

#[test]
fn a_self_spell_affects_only_its_caster() {
    let mut t = Table::new(harpy_at("isolde", at(65, 0, 0)), SEED);
    let error = t.refused("cast_spell", cast("isolde", "Misty Step", &["kraven"]));
    assert!(
        error.contains("Misty Step has a range of Self: it affects only Isolde"),
        "{error}"
    );
    // Where the fight keeps positions, Misty Step names where it goes.
    let mut args = cast("isolde", "Misty Step", &[]);
    args["point"] = json!({"x": 20, "y": 0});
    t.ok("cast_spell", args);
}

#[test]
fn outside_a_fight_or_without_positions_range_is_not_checked() {
    // No fight: no positions, any creature is in reach.
    let mut t = Table::game(&["hedda", "kraven"], SEED);
    t.ok("cast_spell", cast("hedda", "Cure Wounds", &["kraven"]));
    // A fight in a room without areas: everyone within 5 ft of everyone.
    let mut state = table::seen_harpy(&["hedda", "kraven"]);
    Arc::make_mut(&mut state.locations)[0].areas.clear();
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["hedda", "kraven", "frost-harpy"]),
        })
        .unwrap();
    assert_eq!(positions::position_of(&state, "frost-harpy"), None);
    let mut t = Table::new(state, SEED);
    t.ok(
        "cast_spell",
        cast("hedda", "Guiding Bolt", &["frost-harpy"]),
    );
}

#[test]
fn a_spell_attack_meets_the_weapons_rules_crowding_and_cover() {
    // The harpy beside Isolde: her Fire Bolt is a ranged attack with a foe within 5 ft.
    let mut t = Table::new(harpy_at("isolde", at(0, 0, 0)), SEED);
    let r = t.ok("cast_spell", cast("isolde", "Fire Bolt", &["frost-harpy"]));
    assert_eq!(
        r["effects"][0]["attack"]["d20"]["advantage"],
        "disadvantage"
    );
    assert!(
        r["reasons"][0]["advantage_reasons"]
            .to_string()
            .contains("Frost Harpy within 5 ft of a ranged attacker"),
        "{r}"
    );
    // On the spire of rime (half cover), 30 ft up: AC 11 + 2.
    let mut t = Table::new(
        fight(
            "isolde",
            [
                ("isolde", at(40, 0, 0)),
                ("hedda", at(0, 0, 0)),
                ("kraven", at(0, 0, 0)),
                ("frost-harpy", at(40, 15, 30)),
            ],
        ),
        SEED,
    );
    let r = t.ok("cast_spell", cast("isolde", "Fire Bolt", &["frost-harpy"]));
    assert_eq!(r["effects"][0]["attack"]["target_ac"], 13, "{r}");
    assert_eq!(r["reasons"][0]["cover"], "half cover");
    assert_eq!(
        r["reasons"][0]["modifier_reasons"][0],
        "+2 AC: half cover in the spire of rime"
    );
}

/// Isolde (who has learnt Burning Hands) 15 ft from the harpy, which stands in the dark
/// archway with `cover`; Hedda beside her.
fn archway(cover: Cover, isolde_x: i32) -> Table {
    let mut state = fight(
        "isolde",
        [
            ("isolde", at(isolde_x, 0, 0)),
            ("hedda", at(65, 0, 0)),
            ("kraven", at(0, 0, 0)),
            ("frost-harpy", at(80, 0, 0)),
        ],
    );
    set_cover(&mut state, "far-archway", cover);
    learn(&mut state, "isolde", "Burning Hands");
    Table::new(state, SEED)
}

fn save_modifier(r: &Value) -> i64 {
    r["effects"][0]["save"]["modifier"].as_i64().unwrap()
}

#[test]
fn cover_adds_2_or_5_to_a_dexterity_save_and_total_cover_refuses() {
    let burning = cast("isolde", "Burning Hands", &["frost-harpy"]);
    let bare = save_modifier(&archway(Cover::None, 65).ok("cast_spell", burning.clone()));
    let mut t = archway(Cover::Half, 65);
    let r = t.ok("cast_spell", burning.clone());
    assert_eq!(save_modifier(&r), bare + 2, "{r}");
    assert_eq!(
        r["reasons"][0]["modifier_reasons"][0],
        "+2: half cover in the dark archway"
    );
    // The panel's roll line says it too.
    assert!(
        t.log
            .rolls
            .iter()
            .any(|roll| roll.label.contains("(+2: half cover in the dark archway)")),
        "{:?}",
        t.log.rolls
    );
    let r = archway(Cover::ThreeQuarters, 65).ok("cast_spell", burning.clone());
    assert_eq!(save_modifier(&r), bare + 5, "{r}");
    let error = archway(Cover::Total, 65).refused("cast_spell", burning.clone());
    assert!(
        error.contains("behind total cover in the dark archway"),
        "{error}"
    );
    // From inside the archway the cover shields nothing.
    let r = archway(Cover::Half, 75).ok("cast_spell", burning.clone());
    assert_eq!(save_modifier(&r), bare, "{r}");
    // Burning Hands' cone is 15 ft: 20 ft away is out of it.
    let error = archway(Cover::Half, 60).refused("cast_spell", burning);
    assert!(
        error.contains("Burning Hands reaches 15 ft (range Self)"),
        "{error}"
    );
}

#[test]
fn sacred_flame_gains_nothing_from_cover() {
    let flame = json!({"caster": "hedda", "spell": "Sacred Flame", "slot_level": null, "targets": ["frost-harpy"]});
    let mut open = archway(Cover::None, 65);
    open.state.encounter.as_mut().unwrap().turn = 1; // Hedda's turn
    let bare = save_modifier(&open.ok("cast_spell", flame.clone()));
    let mut covered = archway(Cover::ThreeQuarters, 65);
    covered.state.encounter.as_mut().unwrap().turn = 1;
    let r = covered.ok("cast_spell", flame);
    assert_eq!(save_modifier(&r), bare, "{r}");
}

/// Kraven in the dark archway with `cover`, the harpy turned winter wolf 15 ft off on open
/// ice; Kraven's turn ends and the wolf breathes.
fn wolf_breathes(cover: Cover) -> (Table, Value) {
    let mut state = table::seen_harpy(&["kraven"]);
    Arc::make_mut(&mut state.monsters)[0].template = "winter-wolf".into();
    set_cover(&mut state, "far-archway", cover);
    let mut changes = vec![Change::EncounterStarted {
        order: table::order(&["kraven", "frost-harpy"]),
    }];
    for (id, to) in [("kraven", at(80, 0, 0)), ("frost-harpy", at(65, 0, 0))] {
        changes.push(Change::Moved {
            creature: id.into(),
            to,
        });
    }
    state.apply_all(&changes).unwrap();
    let all = |_: &str| true;
    let plan = monster_plan::plan(&state, Srd::bundled(), "frost-harpy", &all);
    assert!(
        matches!(&plan, Some(Plan::Save { action, .. }) if action == "Cold Breath"),
        "{plan:?}"
    );
    let mut t = Table::new(state, SEED);
    let r = t.ok("next_turn", json!({}));
    (t, r)
}

#[test]
fn a_winter_wolfs_breath_meets_the_same_cover() {
    let (t, r) = wolf_breathes(Cover::Half);
    let text = r.to_string();
    assert!(
        text.contains("+2: half cover in the dark archway"),
        "{text}"
    );
    assert!(
        t.log.rolls.iter().any(|roll| roll
            .label
            .contains("Dexterity save against Cold Breath (+2: half cover in the dark archway)")),
        "{:?}",
        t.log.rolls
    );
    // Behind total cover the breath cannot reach him: no save, no damage.
    let (t, r) = wolf_breathes(Cover::Total);
    assert!(r.to_string().contains("behind_total_cover"), "{r}");
    assert!(
        !t.log.rolls.iter().any(|roll| roll.label.contains("save")),
        "{:?}",
        t.log.rolls
    );
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!(kraven.hp.current, kraven.hp.max);
}

/// `shover` shoves `target` to push it, first with the seed that wins the contest; the table
/// after it and the tool's report.
fn won_push(state: &GameState, shover: &str, target: &str) -> (Table, Value) {
    for seed in 0..40 {
        let mut t = Table::new(state.clone(), seed);
        let r = t.ok(
            "shove",
            json!({"attacker": shover, "target": target, "effect": "push"}),
        );
        if r["success"] == true {
            return (t, r);
        }
        assert_eq!(
            t.state.encounter.as_ref().unwrap().positions,
            state.encounter.as_ref().unwrap().positions,
            "a lost shove moves no one"
        );
    }
    panic!("{shover} never won a shove in 40 seeds");
}

/// Kraven's turn against the harpy, in the ice chasm as the adventure draws it (without the
/// far ledge: the room ends 10 ft past the dark archway, at x = 90).
fn kraven_shoves_harpy(kraven: Position, harpy: Position) -> GameState {
    let mut state = fight(
        "kraven",
        [
            ("isolde", at(0, 0, 0)),
            ("hedda", at(0, 0, 0)),
            ("kraven", kraven),
            ("frost-harpy", harpy),
        ],
    );
    Arc::make_mut(&mut state.locations)[0]
        .areas
        .retain(|a| a.id != "far-ledge");
    state
}

/// Kraven at `kraven` wins a push against the harpy at `harpy`: the table after it, where the
/// harpy ends and what the report says.
fn kraven_pushes(kraven: Position, harpy: Position) -> (Table, Option<Position>, String) {
    let (t, r) = won_push(&kraven_shoves_harpy(kraven, harpy), "kraven", "frost-harpy");
    let now = positions::position_of(&t.state, "frost-harpy");
    (t, now, r["text"].as_str().unwrap().to_owned())
}

#[test]
fn a_won_push_moves_the_target_5_ft_straight_away() {
    // Kraven at 10 ft, the harpy at 15 ft east of the glacier's mouth: it ends at 20 ft.
    let (t, now, text) = kraven_pushes(at(10, 0, 0), at(15, 0, 0));
    assert_eq!(now, Some(at(20, 0, 0)));
    assert!(
        text.contains("shoves Frost Harpy 5 ft away, onto open ground (10 ft from Kraven)"),
        "{text}"
    );
    assert!(t.log.changes.iter().any(|c| matches!(
        c,
        Change::Moved { creature, to } if creature == "frost-harpy" && *to == at(20, 0, 0)
    )));
    // Forced movement costs the target nothing and provokes nothing.
    let encounter = t.state.encounter.as_ref().unwrap();
    assert_eq!(encounter.budget.movement_used_ft, 0);
    assert!(encounter.has_reaction("frost-harpy") && encounter.has_reaction("kraven"));
}

#[test]
fn a_push_stays_on_the_floor_and_inside_the_room() {
    // The harpy hovering 5 ft up shoves Kraven: he slides along the ice, never up.
    let mut state = kraven_shoves_harpy(at(5, 0, 0), at(0, 0, 5));
    state.encounter.as_mut().unwrap().turn = 3; // the harpy's turn
    let (t, _) = won_push(&state, "frost-harpy", "kraven");
    assert_eq!(
        positions::position_of(&t.state, "kraven"),
        Some(at(10, 0, 0))
    );
    // A push from 88 ft goes 2 ft, to the room's edge.
    let (_, now, text) = kraven_pushes(at(83, 0, 0), at(88, 0, 0));
    assert_eq!(now, Some(at(90, 0, 0)));
    assert!(text.contains("back to the edge of the room"), "{text}");
    // At the edge already: it stays, and the report says why.
    let (_, now, text) = kraven_pushes(at(85, 0, 0), at(90, 0, 0));
    assert_eq!(now, Some(at(90, 0, 0)));
    assert!(text.contains("the edge of the room stops it"), "{text}");
}

#[test]
fn without_positions_a_push_is_narrated() {
    let mut state = table::seen_harpy(&["kraven"]);
    Arc::make_mut(&mut state.locations)[0].areas.clear();
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["kraven", "frost-harpy"]),
        })
        .unwrap();
    let (t, r) = won_push(&state, "kraven", "frost-harpy");
    assert!(
        r["text"].as_str().unwrap().contains("keeps no positions"),
        "{r}"
    );
    assert!(
        !t.log
            .changes
            .iter()
            .any(|c| matches!(c, Change::Moved { .. }))
    );
}

#[tokio::test]
async fn a_cheating_model_cannot_cast_past_range_at_others_with_self_or_push_from_afar() {
    let mut before = fight(
        "isolde",
        [
            ("isolde", at(0, 0, 0)),
            ("hedda", at(0, 0, 0)),
            ("kraven", at(20, 0, 0)),
            ("frost-harpy", at(80, 0, 0)),
        ],
    );
    set_cover(&mut before, "far-archway", Cover::Total);
    learn(&mut before, "isolde", "Burning Hands");
    let call = |id: &str, name: &str, args: Value| ToolCall::new(id, name, args);
    let cheats = vec![
        call(
            "a",
            "cast_spell",
            cast("isolde", "Ray of Frost", &["frost-harpy"]),
        ),
        call("b", "cast_spell", cast("isolde", "Misty Step", &["kraven"])),
        call(
            "c",
            "cast_spell",
            cast("isolde", "Magic Missile", &["frost-harpy"]),
        ),
        call(
            "d",
            "shove",
            json!({"attacker": "isolde", "target": "kraven", "effect": "push"}),
        ),
        call(
            "e",
            "shove",
            json!({"attacker": "isolde", "target": "frost-harpy", "effect": "push 30 ft"}),
        ),
    ];
    let played = table::scripted_turn(&before, cheats, "Isolde", "Magic flies!").await;
    let results = played.results;
    assert_eq!(results.len(), 5, "{results:#?}");
    assert!(
        results[0].contains("80 ft from Isolde") && results[0].contains("reaches 60 ft"),
        "{}",
        results[0]
    );
    assert!(results[1].contains("range of Self"), "{}", results[1]);
    assert!(results[2].contains("behind total cover"), "{}", results[2]);
    assert!(
        results[3].contains("20 ft from Isolde") && results[3].contains("move closer"),
        "{}",
        results[3]
    );
    assert!(
        results[4].contains("prone") && results[4].contains("push"),
        "{}",
        results[4]
    );
    let after = played.after;
    assert_eq!(
        after.encounter, before.encounter,
        "nothing moved or was spent"
    );
    assert_eq!(after.monsters, before.monsters);
    assert_eq!(after.characters, before.characters, "no slot spent");
}

/// Dodge gives advantage on Dexterity saves against a monster's action too (its save goes
/// through the same `combat::save_situation` as any other).
#[test]
fn a_dodging_hero_saves_against_a_breath_with_advantage() {
    let mut state = table::seen_harpy(&["kraven"]);
    Arc::make_mut(&mut state.monsters)[0].template = "winter-wolf".into();
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["kraven", "frost-harpy"]),
        })
        .unwrap();
    let mut t = Table::new(state, SEED);
    t.ok("dodge", json!({"creature": "kraven"}));
    t.ok("next_turn", json!({}));
    let save = t
        .log
        .rolls
        .iter()
        .find(|r| r.label.contains("Dexterity save against Cold Breath"))
        .expect("the wolf breathed");
    match save.detail.as_ref() {
        dnd_engine::store::RollDetail::Save(check) => {
            assert_eq!(
                check.d20.advantage,
                dnd_engine::dice::Advantage::Advantage,
                "{check:?}"
            );
        }
        other => panic!("not a save: {other:?}"),
    }
}
