//! Items as effects (`use_item` through `effects::resolve`): the four healing potions, +N
//! weapons and armour read where attacks and AC are computed, a spell scroll cast through
//! `cast_spell`'s path with no slot, and the Wailing Glacier's own Flask of Warmth and
//! Rimeheart Amulet. Each rule has a worked example with seeded dice, and a model that uses an
//! item the wrong way is refused with what is allowed, nothing changed.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::effects::Effect;
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{DamageType, HitPoints};
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, GameState, ItemStack};

#[path = "support/table.rs"]
mod table;

use table::Table;

fn use_item(who: &str, item: &str, target: Option<&str>, targets: &[&str]) -> Value {
    json!({"character": who, "item": item, "target": target, "targets": targets})
}

/// A stack of `name` with the SRD's data on it, as the adventure's builder leaves it.
fn srd_stack(name: &str) -> ItemStack {
    let mut stack = ItemStack::new(name, 1);
    stack.magic = Srd::bundled().magic_item(name);
    stack
}

fn give(state: &mut GameState, who: &str, stack: ItemStack) {
    Arc::make_mut(&mut table::hero_mut(state, who).inventory).push(stack);
}

/// The loot stack `name` the adventure places somewhere, with its data.
fn adventure_stack(state: &GameState, name: &str) -> ItemStack {
    state
        .locations
        .iter()
        .flat_map(|l| l.loot.iter().chain(l.features.iter().flat_map(|f| &f.loot)))
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("the adventure places {name}"))
        .clone()
}

#[test]
fn each_healing_potion_heals_its_srd_dice_and_is_drunk_once() {
    for (potion, low, high) in [
        ("Potion of Healing", 4, 10),
        ("Potion of Greater Healing", 8, 20),
        ("Potion of Superior Healing", 16, 40),
        ("Potion of Supreme Healing", 30, 60),
    ] {
        let mut t = Table::game(&["kraven"], 7);
        if t.state.character("kraven").unwrap().item_quantity(potion) == 0 {
            give(&mut t.state, "kraven", ItemStack::new(potion, 1));
        }
        let carried = t.state.character("kraven").unwrap().item_quantity(potion);
        t.hero_mut("kraven").hp = HitPoints {
            current: 1,
            max: 100,
            temporary: 0,
        };
        let r = t.ok("use_item", use_item("kraven", potion, None, &[]));
        let healed = r["healed_up_to"].as_u64().unwrap() as u32;
        assert!((low..=high).contains(&healed), "{potion}: {r}");
        let kraven = t.state.character("kraven").unwrap();
        assert_eq!(kraven.hp.current, 1 + healed, "{potion}");
        assert_eq!(
            kraven.item_quantity(potion),
            carried - 1,
            "{potion}: one drunk"
        );
        let roll = t.log.rolls.last().unwrap();
        assert_eq!(roll.total, i64::from(healed), "{potion}: the roll recorded");
        assert_eq!(r["hp"], format!("{}/100", 1 + healed));
    }
}

#[test]
fn a_potion_in_a_fight_is_an_action_on_the_drinkers_turn() {
    let mut t = Table::fight(
        &["kraven", "isolde"],
        &["isolde", "kraven", "frost-harpy"],
        3,
    );
    t.hero_mut("kraven").hp.current = 5;
    // Out of turn: refused, naming whose turn it is.
    let e = t.refused(
        "use_item",
        use_item("kraven", "Potion of Healing", None, &[]),
    );
    assert!(e.contains("isolde") || e.contains("Isolde"), "{e}");
    // On Isolde's turn she may feed her own potion to Kraven beside her (no positions kept).
    t.ok(
        "use_item",
        use_item("isolde", "Potion of Healing", Some("kraven"), &[]),
    );
    assert!(t.state.character("kraven").unwrap().hp.current > 5);
    assert_eq!(
        t.state
            .character("isolde")
            .unwrap()
            .item_quantity("Potion of Healing"),
        0
    );
    // Her action is spent: using anything else this turn is refused.
    let e = t.refused("use_item", use_item("isolde", "Spellbook", None, &[]));
    assert!(e.contains("action"), "{e}");
}

#[test]
fn a_potion_is_handed_only_to_a_creature_within_5_ft() {
    let state = table::placed_fight(
        &["kraven", "isolde"],
        table::order(&["isolde", "kraven", "frost-harpy"]),
        &[
            ("isolde", table::at(0, 0, 0)),
            ("kraven", table::at(30, 0, 0)),
        ],
    );
    let mut t = Table::new(state, 1);
    let e = t.refused(
        "use_item",
        use_item("isolde", "Potion of Healing", Some("kraven"), &[]),
    );
    assert!(e.contains("30 ft") && e.contains("within 5 ft"), "{e}");
}

#[test]
fn plus_weapons_add_to_attack_and_damage_and_count_as_magical() {
    let mut state = table::seen_harpy(&["kraven"]);
    let plain = state.character("kraven").unwrap().clone();
    let sword = plain
        .attacks
        .iter()
        .find(|a| a.name == "Greatsword")
        .unwrap();
    let (bonus, damage) = (plain.attack_bonus(sword), plain.attack_damage(sword));
    assert!(!plain.attack_is_magical(sword));
    give(&mut state, "kraven", srd_stack("+2 Greatsword"));
    let kraven = state.character("kraven").unwrap();
    assert_eq!(kraven.attack_bonus(sword), bonus + 2);
    assert_eq!(kraven.attack_damage(sword).bonus, damage.bonus + 2);
    assert!(kraven.attack_is_magical(sword));
    let javelin = kraven.attacks.iter().find(|a| a.name == "Javelin").unwrap();
    assert!(
        !kraven.attack_is_magical(javelin),
        "the greatsword is magic, not the javelin"
    );
}

/// Kraven's greatsword hits a gargoyle (resistant to slashing from nonmagical attacks): the
/// defense the hit met, over seeds until one hits.
fn greatsword_on_gargoyle(magic: bool) -> serde_json::Value {
    for seed in 0..40 {
        let mut state = table::seen_harpy(&["kraven"]);
        let m = &mut Arc::make_mut(&mut state.monsters)[0];
        m.template = "gargoyle".into();
        m.name = "Gargoyle".into();
        m.armor_class = 10;
        if magic {
            give(&mut state, "kraven", srd_stack("+1 Greatsword"));
        }
        let mut t = Table::new(state, seed);
        let r = t.ok(
            "roll_attack",
            json!({"attacker": "kraven", "target": "frost-harpy", "attack": "Greatsword", "advantage": null}),
        );
        let result = &r["attacks"][0]["result"];
        if result["hit"] == true {
            return result["damage"][0]["defense"].clone();
        }
    }
    panic!("no hit in 40 swings against AC 10");
}

#[test]
fn a_plus_one_weapon_is_magical_against_resistance_to_nonmagical_attacks() {
    assert_eq!(greatsword_on_gargoyle(false), "resisted");
    assert_eq!(greatsword_on_gargoyle(true), "none");
}

#[test]
fn plus_armour_and_shields_raise_ac_where_it_is_computed() {
    let mut state = table::seen_harpy(&["kraven", "hedda"]);
    let sheet = state.character("hedda").unwrap().armor_class;
    give(&mut state, "hedda", srd_stack("Chain Mail +1"));
    give(&mut state, "hedda", srd_stack("Shield, +2"));
    // A second, lesser armour is carried, not worn: only the best counts.
    give(&mut state, "hedda", srd_stack("+1 Leather"));
    assert_eq!(
        state.character("hedda").unwrap().armor_class_now(),
        sheet + 3
    );
    let view = state.snapshot();
    let hedda = view.party.iter().find(|c| c.id == "hedda").unwrap();
    assert_eq!(hedda.ac, sheet + 3, "the snapshot reads the same AC");
}

#[test]
fn a_scroll_casts_its_spell_with_no_slot_and_is_used_up() {
    let mut state = table::seen_harpy(&["kraven", "isolde"]);
    give(
        &mut state,
        "isolde",
        ItemStack::new("Spell Scroll (Magic Missile)", 1),
    );
    let slots = state.character("isolde").unwrap().spell_slots;
    let mut t = Table::new(state, 11);
    let r = t.ok(
        "use_item",
        use_item(
            "isolde",
            "Spell Scroll (Magic Missile)",
            None,
            &["frost-harpy"],
        ),
    );
    assert_eq!(r["spell"], "Magic Missile", "{r}");
    assert_eq!(r["lost"], false);
    let darts = r["cast"]["effects"].as_array().unwrap();
    assert_eq!(darts.len(), 3, "three darts at 1st level: {r}");
    let dealt: u64 = darts.iter().map(|d| d["damage"].as_u64().unwrap()).sum();
    let harpy = t.state.monster("frost-harpy").unwrap();
    assert_eq!(u64::from(harpy.hp.max - harpy.hp.current), dealt);
    let isolde = t.state.character("isolde").unwrap();
    assert_eq!(isolde.spell_slots, slots, "no slot spent");
    assert_eq!(isolde.item_quantity("Spell Scroll (Magic Missile)"), 0);
}

#[test]
fn a_scroll_above_the_readers_levels_needs_a_dc_13_check_for_fireball() {
    // Isolde casts up to 2nd level: Fireball (3rd) needs an Intelligence check, DC 13. Across
    // seeds both outcomes come; each is what the rules say.
    let (mut lost, mut cast) = (0, 0);
    for seed in 0..12 {
        let mut state = table::seen_harpy(&["kraven", "isolde"]);
        give(
            &mut state,
            "isolde",
            ItemStack::new("Scroll of Fireball", 1),
        );
        let mut t = Table::new(state, seed);
        let r = t.ok(
            "use_item",
            use_item("isolde", "Scroll of Fireball", None, &["frost-harpy"]),
        );
        assert_eq!(r["check"]["dc"], 13, "{r}");
        let harpy = t.state.monster("frost-harpy").unwrap();
        if r["lost"] == true {
            lost += 1;
            assert_eq!(r["check"]["success"], false);
            assert!(r.get("cast").is_none());
            assert_eq!(harpy.hp.current, 200, "nothing else happens");
        } else {
            cast += 1;
            assert_eq!(r["check"]["success"], true);
            // The scroll's own DC for a 3rd-level spell, not Isolde's.
            assert_eq!(r["cast"]["save_dc"], 15, "{r}");
        }
        assert_eq!(
            t.state
                .character("isolde")
                .unwrap()
                .item_quantity("Scroll of Fireball"),
            0,
            "used up either way"
        );
    }
    assert!(lost > 0 && cast > 0, "lost {lost}, cast {cast}");
}

#[test]
fn a_scroll_off_the_readers_class_list_is_refused() {
    let mut state = table::seen_harpy(&["kraven"]);
    give(
        &mut state,
        "kraven",
        ItemStack::new("Spell Scroll (Magic Missile)", 1),
    );
    let mut t = Table::new(state, 1);
    let e = t.refused(
        "use_item",
        use_item(
            "kraven",
            "Spell Scroll (Magic Missile)",
            None,
            &["frost-harpy"],
        ),
    );
    assert!(
        e.contains("not on the fighter spell list") && e.contains("wizard"),
        "{e}"
    );
}

#[test]
fn the_flask_of_warmth_gives_cold_and_necrotic_resistance_for_a_minute() {
    let mut state = table::seen_harpy(&["kraven"]);
    let flask = adventure_stack(&state, "Flask of Warmth");
    give(&mut state, "kraven", flask);
    let mut t = Table::new(state, 2);
    let r = t.ok("use_item", use_item("kraven", "Flask of Warmth", None, &[]));
    assert_eq!(r["lasting"][0]["outcome"], "started", "{r}");
    let kraven = t.state.character("kraven").unwrap();
    let resists = kraven
        .defenses_now(dnd_engine::srd::Srd::bundled())
        .resistances;
    assert!(resists.contains(DamageType::Cold) && resists.contains(DamageType::Necrotic));
    assert!(!resists.contains(DamageType::Fire));
    assert_eq!(kraven.item_quantity("Flask of Warmth"), 0);
    let view = t.state.snapshot();
    let conditions = &view.party[0].conditions;
    assert!(
        conditions
            .iter()
            .any(|c| c
                == "Flask of Warmth: resistance to cold, necrotic (from kraven, 10 rounds left)"),
        "{conditions:?}"
    );
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    let kraven = t.state.character("kraven").unwrap();
    assert!(
        kraven
            .defenses_now(dnd_engine::srd::Srd::bundled())
            .resistances
            .is_empty(),
        "a minute later"
    );
}

#[test]
fn the_rimeheart_amulet_resists_cold_while_carried_and_gives_5_temporary_hp_once_a_dawn() {
    let mut state = table::seen_harpy(&["kraven"]);
    let amulet = adventure_stack(&state, "Rimeheart Amulet");
    assert!(matches!(
        amulet.magic.as_ref().unwrap().carried.as_slice(),
        [Effect::Resistance { duration: None, .. }]
    ));
    give(&mut state, "kraven", amulet);
    let mut t = Table::new(state, 4);
    let kraven = t.state.character("kraven").unwrap();
    assert!(
        kraven
            .defenses_now(dnd_engine::srd::Srd::bundled())
            .resistances
            .contains(DamageType::Cold)
    );
    t.ok(
        "use_item",
        use_item("kraven", "Rimeheart Amulet", None, &[]),
    );
    let kraven = t.state.character("kraven").unwrap();
    assert_eq!(kraven.hp.temporary, 5);
    assert_eq!(kraven.item_quantity("Rimeheart Amulet"), 1, "kept");
    let e = t.refused(
        "use_item",
        use_item("kraven", "Rimeheart Amulet", None, &[]),
    );
    assert!(e.contains("spent") && e.contains("dawn"), "{e}");
    let e = t.refused(
        "use_item",
        use_item("kraven", "Rimeheart Amulet", Some("frost-harpy"), &[]),
    );
    assert!(e.contains("works on its user only"), "{e}");
    t.apply(&[Change::LongRest {
        character: "kraven".into(),
    }]);
    t.ok(
        "use_item",
        use_item("kraven", "Rimeheart Amulet", None, &[]),
    );
}

fn call(id: &str, args: Value) -> ToolCall {
    ToolCall::new(id, "use_item", args)
}

/// A model that uses items the wrong way, through a whole turn: a fighter reading a wizard's
/// scroll, a potion drunk out of turn, a potion fed across the room; then the amulet, lawfully.
/// Each is refused with what is allowed; only the lawful first use of the amulet happens.
#[tokio::test]
async fn a_cheating_model_is_refused_each_wrong_item_use_and_nothing_changes() {
    let mut before = table::placed_fight(
        &["kraven", "isolde"],
        table::order(&["kraven", "isolde", "frost-harpy"]),
        &[
            ("kraven", table::at(0, 0, 0)),
            ("isolde", table::at(40, 0, 0)),
        ],
    );
    give(
        &mut before,
        "kraven",
        ItemStack::new("Spell Scroll (Magic Missile)", 1),
    );
    let amulet = adventure_stack(&before, "Rimeheart Amulet");
    give(&mut before, "isolde", amulet.clone());
    give(&mut before, "kraven", amulet);
    let calls = vec![
        call(
            "a",
            use_item(
                "kraven",
                "Spell Scroll (Magic Missile)",
                None,
                &["frost-harpy"],
            ),
        ),
        call("b", use_item("isolde", "Potion of Healing", None, &[])),
        call(
            "c",
            use_item("kraven", "Potion of Healing", Some("isolde"), &[]),
        ),
        call("d", use_item("kraven", "Rimeheart Amulet", None, &[])),
    ];
    let played = table::scripted_turn(&before, calls, "Kraven", "Everything at once!").await;
    let results = &played.results;
    assert_eq!(results.len(), 4, "{results:#?}");
    assert!(
        results[0].contains("not on the fighter spell list"),
        "{}",
        results[0]
    );
    assert!(results[1].contains("turn"), "{}", results[1]);
    assert!(results[2].contains("within 5 ft"), "{}", results[2]);
    assert!(
        results[3].contains("\"used\":\"Rimeheart Amulet\""),
        "{}",
        results[3]
    );
    let after = played.after;
    let kraven = after.character("kraven").unwrap();
    let was = before.character("kraven").unwrap();
    assert_eq!(kraven.hp.temporary, 5, "the one lawful use");
    assert_eq!(
        kraven.item_quantity("Spell Scroll (Magic Missile)"),
        1,
        "the refused scroll is kept"
    );
    assert_eq!(
        kraven.item_quantity("Potion of Healing"),
        was.item_quantity("Potion of Healing")
    );
    let isolde = after.character("isolde").unwrap();
    assert_eq!(
        isolde,
        before.character("isolde").unwrap(),
        "Isolde untouched"
    );
    assert_eq!(after.monster("frost-harpy").unwrap().hp.current, 200);
}

/// Outside a fight, a model that uses the amulet's once-a-dawn power twice, and conjures a +1
/// longsword and a scroll "from the story": the second use and both gifts are refused with what
/// is allowed; only the first use happens.
#[tokio::test]
async fn a_cheating_model_cannot_reuse_a_daily_power_or_conjure_magic_items() {
    let mut before = table::seen_harpy(&["kraven"]);
    let amulet = adventure_stack(&before, "Rimeheart Amulet");
    give(&mut before, "kraven", amulet);
    let gift = |id: &str, item: &str| {
        ToolCall::new(
            id,
            "add_inventory",
            json!({"character": "kraven", "item": item, "quantity": 1, "from": null}),
        )
    };
    let calls = vec![
        call("a", use_item("kraven", "Rimeheart Amulet", None, &[])),
        call("b", use_item("kraven", "Rimeheart Amulet", None, &[])),
        gift("c", "+1 Longsword"),
        gift("d", "Spell Scroll (Fireball)"),
    ];
    let played = table::scripted_turn(&before, calls, "Kraven", "Again, and again!").await;
    let results = &played.results;
    assert_eq!(results.len(), 4, "{results:#?}");
    assert!(
        results[0].contains("\"used\":\"Rimeheart Amulet\""),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("spent") && results[1].contains("dawn"),
        "{}",
        results[1]
    );
    for refused in &results[2..] {
        assert!(refused.contains("not mundane gear"), "{refused}");
    }
    let kraven = played.after.character("kraven").unwrap();
    assert_eq!(kraven.hp.temporary, 5, "once");
    assert_eq!(kraven.item_quantity("+1 Longsword"), 0);
    assert_eq!(kraven.item_quantity("Spell Scroll (Fireball)"), 0);
}
