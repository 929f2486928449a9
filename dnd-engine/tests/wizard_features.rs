//! The wizard's and the Land druid's features through the tools, worked as the SRD gives them:
//! Arcane Recovery and Natural Recovery (one rule: expended slots back as a short rest ends,
//! levels adding up to half the caster's level rounded up, none of 6th level or higher, once
//! per long rest), and the Evocation wizard's Sculpt Spells; and a model that cheats with them,
//! refused each time with what is allowed, changing nothing.

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::state::Character;

#[path = "support/table.rs"]
mod table;
use table::Table;

fn rest(who: &str, recover: Value) -> Value {
    json!({"character": who, "update": "short_rest", "condition": null, "amount": 0, "recover_slots": recover})
}

fn druid() -> Character {
    table::built(json!({
        "name": "Moss", "race": "Human", "class": "Druid", "level": 3,
        "subclass": "Land",
        "background": "Acolyte",
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 15, "cha": 12}},
        "skills": ["nature", "survival"],
        "features": {"circle-of-the-land": ["Arctic"]},
        "equipment": {"kit": [{"option": 1}, {"option": 1}, {"option": 1, "picks": ["Sprig of Mistletoe"]}, {"option": 1, "picks": ["Amulet"]}, {"option": 1}]},
        "cantrips": ["Shillelagh", "Produce Flame", "Guidance"],
        "spells": ["Cure Wounds", "Entangle", "Faerie Fire", "Moonbeam", "Barkskin"]
    }))
}

/// Isolde (wizard 3) out of a fight, with two 1st-level slots and her two 2nd-level slots
/// spent.
fn tired_isolde(seed: u64) -> Table {
    let mut t = Table::game(&["isolde", "kraven"], seed);
    let slots = &mut t.hero_mut("isolde").spell_slots;
    slots.spent[0] = 2;
    slots.spent[1] = 2;
    t
}

#[test]
fn arcane_recovery_brings_back_two_slot_levels_once_a_day() {
    // Half of 3, rounded up: 2 levels. One 2nd-level slot.
    let mut t = tired_isolde(1);
    let report = t.ok("update_character", rest("isolde", json!("2")));
    let isolde = t.state.character("isolde").unwrap();
    assert_eq!(isolde.spell_slots.spent[..2], [2, 1]);
    assert_eq!(isolde.feature_uses["arcane-recovery"].spent, 1);
    assert!(
        report["slots_left"].as_str().unwrap().contains("2"),
        "{report}"
    );

    // Once a day: the next short rest recovers nothing, the rest itself is refused whole.
    let again = t.refused("update_character", rest("isolde", json!("1")));
    assert!(again.contains("comes back after a long rest"), "{again}");
    // A short rest gives it not back; a long rest does (and every slot).
    t.ok("update_character", rest("isolde", Value::Null));
    assert_eq!(
        t.state.character("isolde").unwrap().feature_uses["arcane-recovery"].spent,
        1
    );
    t.ok(
        "update_character",
        json!({"character": "isolde", "update": "long_rest", "condition": null, "amount": null}),
    );
    assert!(t.state.character("isolde").unwrap().feature_uses.is_empty());

    // Or two 1st-level slots.
    let mut t = tired_isolde(1);
    t.ok("update_character", rest("isolde", json!("1,1")));
    assert_eq!(
        t.state.character("isolde").unwrap().spell_slots.spent[..2],
        [0, 2]
    );
}

#[test]
fn arcane_recovery_refuses_more_than_it_allows() {
    let mut t = tired_isolde(1);
    let before = t.state.clone();
    let over = t.refused("update_character", rest("isolde", json!("1,2")));
    assert!(
        over.contains("add up to 3 levels, more than 2; up to 2 slot levels in all, none of 6th level or higher (expended: level 1: 2, level 2: 2)"),
        "{over}"
    );
    let high = t.refused("update_character", rest("isolde", json!("6")));
    assert!(high.contains("only levels 1 to 5"), "{high}");
    let words = t.refused("update_character", rest("isolde", json!("a lot")));
    assert!(words.contains("give them as \"1,1\" or \"2\""), "{words}");
    t.hero_mut("isolde").spell_slots.spent[0] = 0;
    let none = t.refused("update_character", rest("isolde", json!("1")));
    assert!(none.contains("0 expended slot(s) of level 1"), "{none}");
    t.hero_mut("isolde").spell_slots.spent[0] = 2;
    let fighter = t.refused("update_character", rest("kraven", json!("1")));
    assert!(
        fighter.contains("recovers no slots on a short rest"),
        "{fighter}"
    );
    let long = t.refused(
        "update_character",
        json!({"character": "isolde", "update": "long_rest", "condition": null, "amount": null, "recover_slots": "1"}),
    );
    assert!(long.contains("short_rest only"), "{long}");
    assert_eq!(t.state, before);
}

#[test]
fn natural_recovery_is_the_same_rule_for_a_land_druid() {
    let mut moss = druid();
    moss.spell_slots.spent[0] = 3;
    let mut state = dnd_engine::adventure::Adventure::built_in()
        .new_game(&["kraven"])
        .unwrap();
    moss.location = state.characters[0].location.clone();
    std::sync::Arc::make_mut(&mut state.characters).push(moss);
    let mut t = Table::new(state, 2);
    t.ok("update_character", rest("moss", json!("1,1")));
    let moss = t.state.character("moss").unwrap();
    assert_eq!(moss.spell_slots.spent[0], 1);
    assert_eq!(moss.feature_uses["natural-recovery"].spent, 1);
    // At 1st level, before the circle: refused with when it comes.
    t.hero_mut("moss").level = 1;
    t.hero_mut("moss").feature_uses.clear();
    let low = t.refused("update_character", rest("moss", json!("1")));
    assert!(low.contains("comes at druid level 2"), "{low}");
}

/// A scripted model recovers slots for the fighter, too many levels for Isolde, then the
/// lawful two levels, then again: only the lawful rest changes anything.
#[tokio::test]
async fn a_model_cheating_with_arcane_recovery_is_refused() {
    let mut before = dnd_engine::adventure::Adventure::built_in()
        .new_game(&["isolde", "kraven"])
        .unwrap();
    table::hero_mut(&mut before, "isolde").spell_slots.spent[1] = 2;
    let calls = vec![
        ToolCall::new("a", "update_character", rest("kraven", json!("2"))),
        ToolCall::new("b", "update_character", rest("isolde", json!("2,2"))),
        ToolCall::new("c", "update_character", rest("isolde", json!("2"))),
        ToolCall::new("d", "update_character", rest("isolde", json!("2"))),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Isolde", "I study my spellbook as we rest.").await;
    assert!(results[0].contains("recovers no slots"), "{}", results[0]);
    assert!(results[1].contains("more than 2"), "{}", results[1]);
    assert!(results[2].contains("slots_left"), "{}", results[2]);
    assert!(
        results[3].contains("comes back after a long rest"),
        "{}",
        results[3]
    );
    let isolde = after.character("isolde").unwrap();
    assert_eq!(isolde.spell_slots.spent[1], 1);
    assert_eq!(
        after.character("kraven").unwrap().feature_uses,
        before.character("kraven").unwrap().feature_uses
    );
}

/// Isolde (wizard 3, Evocation) knowing Shatter, with Kraven and Wren beside the harpy, on
/// her turn.
fn shatter_table(seed: u64) -> Table {
    let mut t = Table::fight(
        &["isolde", "kraven", "wren"],
        &["isolde", "kraven", "wren", "frost-harpy"],
        seed,
    );
    std::sync::Arc::make_mut(&mut t.hero_mut("isolde").spells).push("Shatter".into());
    t
}

fn shatter(sculpt: Value) -> Value {
    json!({"caster": "isolde", "spell": "Shatter", "slot_level": 2,
        "targets": ["frost-harpy", "kraven", "wren"], "aim": null, "ritual": null, "sculpt": sculpt})
}

/// The save outcome of `name` in a casting's report.
fn save_of<'a>(cast: &'a Value, name: &str) -> &'a Value {
    cast["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["target"] == name)
        .unwrap_or_else(|| panic!("no outcome for {name}: {cast}"))
}

#[test]
fn sculpt_spells_spares_chosen_allies_from_an_evocation() {
    let mut t = shatter_table(5);
    let hp = |t: &Table, id: &str| t.state.character(id).unwrap().hp.current;
    let (kraven, wren) = (hp(&t, "kraven"), hp(&t, "wren"));
    let harpy = t.state.monster("frost-harpy").unwrap().hp.current;
    let cast = t.ok("cast_spell", shatter(json!(["kraven", "Wren Ashdown"])));
    // Kraven and Wren succeed automatically and take nothing, not even half.
    for name in ["Kraven", "Wren Ashdown"] {
        let o = save_of(&cast, name);
        assert_eq!(o["save"]["success"], true, "{cast}");
        assert_eq!(o["damage"], 0, "{cast}");
    }
    assert_eq!((hp(&t, "kraven"), hp(&t, "wren")), (kraven, wren));
    // The harpy takes the spell as usual: 3d8 thunder, half on a success.
    let o = save_of(&cast, "Frost Harpy");
    assert!(o["damage"].as_u64().unwrap() > 0, "{cast}");
    assert!(t.state.monster("frost-harpy").unwrap().hp.current < harpy);

    // Without sculpting, the same dice hurt the allies too.
    let mut t = shatter_table(5);
    let cast = t.ok("cast_spell", shatter(Value::Null));
    assert!(
        save_of(&cast, "Kraven")["damage"].as_u64().unwrap() > 0,
        "{cast}"
    );
}

#[test]
fn sculpt_spells_is_refused_beyond_its_rule() {
    let mut t = shatter_table(5);
    let before = t.state.clone();
    // 1 + 2 = 3 creatures at most from a 2nd-level spell.
    let many = t.refused(
        "cast_spell",
        shatter(json!(["kraven", "wren", "isolde", "frost-harpy"])),
    );
    assert!(
        many.contains("spares up to 3 creatures from Shatter (1 + its level), not 4"),
        "{many}"
    );
    // Sleep is an enchantment.
    let sleep = t.refused(
        "cast_spell",
        json!({"caster": "isolde", "spell": "Sleep", "slot_level": null, "targets": ["frost-harpy"], "aim": null, "ritual": null, "sculpt": ["kraven"]}),
    );
    assert!(
        sleep.contains("evocation spells only; Sleep is enchantment"),
        "{sleep}"
    );
    // A 1st-level wizard has no arcane tradition yet.
    t.hero_mut("isolde").level = 1;
    let low = t.refused("cast_spell", shatter(json!(["kraven"])));
    assert!(low.contains("comes at wizard level 2"), "{low}");
    t.hero_mut("isolde").level = 3;
    let nobody = t.refused("cast_spell", shatter(json!(["the king"])));
    assert!(nobody.contains("the king"), "{nobody}");
    assert_eq!(t.state, before);
}

/// A scripted model sculpts with a wizard of no Evocation, then too many creatures, then
/// lawfully: only the lawful casting spends a slot.
#[tokio::test]
async fn a_model_cheating_with_sculpt_spells_is_refused() {
    let mut before = table::fight(
        &["isolde", "kraven", "wren"],
        &["isolde", "kraven", "wren", "frost-harpy"],
    );
    std::sync::Arc::make_mut(&mut table::hero_mut(&mut before, "isolde").spells)
        .push("Shatter".into());
    let mut diviner = before.clone();
    table::hero_mut(&mut diviner, "isolde").subclass = Some("Divination".into());
    let calls = vec![ToolCall::new("a", "cast_spell", shatter(json!(["kraven"])))];
    let table::Played { results, after, .. } =
        table::scripted_turn(&diviner, calls, "Isolde", "Shatter, sparing Kraven!").await;
    assert!(
        results[0].contains("belongs to the evocation subclass"),
        "{}",
        results[0]
    );
    assert_eq!(after.characters, diviner.characters);

    let calls = vec![
        ToolCall::new(
            "a",
            "cast_spell",
            shatter(json!(["kraven", "wren", "isolde", "frost-harpy"])),
        ),
        ToolCall::new("b", "cast_spell", shatter(json!(["kraven", "wren"]))),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, calls, "Isolde", "Shatter!").await;
    assert!(results[0].contains("not 4"), "{}", results[0]);
    assert!(results[1].contains("Sculpt Spells"), "{}", results[1]);
    let isolde = after.character("isolde").unwrap();
    assert_eq!(isolde.spell_slots.spent[1], 1);
    for id in ["kraven", "wren"] {
        assert_eq!(
            after.character(id).unwrap().hp,
            before.character(id).unwrap().hp
        );
    }
}
