//! Monsters casting from their spell lists through the effects engine, worked from the SRD's
//! stat blocks with seeded dice: the cult fanatic's Hold Person (DC 11 Wisdom, a 2nd-level
//! slot of its three, its concentration ended by damage like a character's), the acolyte's
//! Sacred Flame at will, the mage's Fireball with its 3rd-level slots, and a model that tries
//! to cast a monster's spell itself.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::combat::monster_plan::{self, Plan};
use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::srd::{MonsterSpellcasting, Srd};
use dnd_engine::state::{Change, Target};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Kraven and Isolde (200 HP each) against `template` in the harpy's place (60 HP), in the
/// order `order`.
fn against(template: &str, order: &[&str], seed: u64) -> Table {
    let mut t = Table::fight(&["kraven", "isolde"], order, seed);
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.template = template.into();
    m.hp = HitPoints::full(60);
    for hero in ["kraven", "isolde"] {
        t.hero_mut(hero).hp = HitPoints::full(200);
    }
    t
}

#[test]
fn the_casters_have_their_spells_as_data() {
    let srd = Srd::bundled();
    let mut missing = Vec::new();
    for slug in ["acolyte", "priest", "cult-fanatic", "mage", "ice-mephit"] {
        let m = srd.monster(slug).unwrap();
        let sc = m.spellcasting.as_ref().expect(slug);
        for spell in sc.spells() {
            if srd.spell(spell).is_err() {
                missing.push(spell.to_owned());
            }
        }
    }
    // The bundled SRD subset lacks three of the mage's spells; everything else is there.
    missing.sort();
    assert_eq!(
        missing,
        ["Cone of Cold", "Greater Invisibility", "Ice Storm"]
    );
    let fanatic = srd
        .monster("cult-fanatic")
        .unwrap()
        .spellcasting
        .clone()
        .unwrap();
    assert_eq!(
        (fanatic.save_dc, fanatic.attack_bonus, fanatic.caster_level),
        (11, 3, 4)
    );
    assert_eq!(fanatic.slots_of(2), 3);
    let mephit = srd
        .monster("ice-mephit")
        .unwrap()
        .spellcasting
        .clone()
        .unwrap();
    assert_eq!(mephit.innate[0].spell, "Fog Cloud");
    assert_eq!(mephit.innate[0].per_day, 1);
}

#[test]
fn the_cult_fanatic_holds_kraven_and_loses_it_to_damage() {
    let all = |_: &str| true;
    let t = against("cult-fanatic", &["isolde", "frost-harpy", "kraven"], 1);
    // Kraven's Wisdom save is +1: he fails DC 11 on 1-9, 45%, enough for the hold.
    let plan = monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all).unwrap();
    assert_eq!(
        plan,
        Plan::Cast {
            spell: "Hold Person".into(),
            slot_level: Some(2),
            targets: vec!["kraven".into()]
        }
    );
    let (mut held, mut kept, mut lost) = (0, 0, 0);
    for seed in 0..30 {
        let mut t = against("cult-fanatic", &["isolde", "frost-harpy", "kraven"], seed);
        let r = t.ok("next_turn", json!({}));
        assert_eq!(r["monster_turns"][0]["uses"], "Hold Person", "{r}");
        assert_eq!(r["monster_turns"][0]["slot_level"], 2);
        let fanatic = t.state.monster("frost-harpy").unwrap();
        let pool = MonsterSpellcasting::slot_pool(2).to_ascii_lowercase();
        assert_eq!(
            fanatic.uses_spent.get(&pool),
            Some(&1),
            "a slot of three spent"
        );
        assert_eq!(fanatic.concentration.as_deref(), Some("Hold Person"));
        // The snapshot tells the model what the fanatic keeps up and has spent.
        let shown = serde_json::to_value(t.state.snapshot())
            .unwrap()
            .to_string();
        assert!(
            shown.contains(r#""concentrating_on":"Hold Person""#),
            "{shown}"
        );
        assert!(shown.contains("level 2 slots: 1 used"), "{shown}");
        let kraven = t.state.character("kraven").unwrap();
        if !kraven.conditions.has(Condition::Paralyzed) {
            continue;
        }
        held += 1;
        let hold = &kraven.timed_effects[0];
        assert!(
            hold.concentration && hold.source == "frost-harpy",
            "{hold:?}"
        );
        // Kraven's turn passes (held, he repeats the save at its end); then Isolde's Fire Bolt.
        t.ok("next_turn", json!({}));
        if !t
            .state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Paralyzed)
        {
            continue; // he saved at the end of his turn
        }
        let r = t.ok(
            "cast_spell",
            json!({"caster": "isolde", "spell": "Fire Bolt", "slot_level": null, "targets": ["frost-harpy"]}),
        );
        let Some(save) = r.to_string().contains("concentration_save").then_some(r) else {
            continue; // a miss: no damage, no save
        };
        let keeps = t
            .state
            .monster("frost-harpy")
            .unwrap()
            .concentration
            .is_some();
        let paralyzed = t
            .state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Paralyzed);
        assert_eq!(
            keeps, paralyzed,
            "the hold lasts as long as the concentration: {save}"
        );
        if keeps {
            kept += 1;
        } else {
            lost += 1;
        }
    }
    assert!(held > 0, "some of 30 holds take");
    assert!(
        kept + lost > 0,
        "some Fire Bolts hit a concentrating fanatic"
    );
}

#[test]
fn a_monster_at_zero_hit_points_loses_its_concentration() {
    for seed in 0..30 {
        let mut t = against("cult-fanatic", &["isolde", "frost-harpy", "kraven"], seed);
        t.ok("next_turn", json!({}));
        if !t
            .state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Paralyzed)
        {
            continue;
        }
        t.apply(&[Change::Damage {
            target: Target::Monster("frost-harpy".into()),
            amount: 60,
            critical: false,
        }]);
        assert_eq!(t.state.monster("frost-harpy").unwrap().concentration, None);
        let kraven = t.state.character("kraven").unwrap();
        assert!(!kraven.conditions.has(Condition::Paralyzed));
        assert!(kraven.timed_effects.is_empty());
        return;
    }
    panic!("no hold took in 30 seeds");
}

#[test]
fn the_acolyte_casts_sacred_flame_at_will() {
    let mut t = against("acolyte", &["isolde", "frost-harpy", "kraven"], 2);
    let r = t.ok("next_turn", json!({}));
    let turn = &r["monster_turns"][0];
    assert_eq!(turn["uses"], "Sacred Flame", "{r}");
    assert!(turn.get("slot_level").is_none(), "a cantrip spends no slot");
    let save = &turn["effects"][0];
    assert_eq!(save["save"]["dc"], 12, "{save}");
    assert!(
        t.state
            .monster("frost-harpy")
            .unwrap()
            .uses_spent
            .is_empty()
    );
}

#[test]
fn the_mage_fireballs_the_party_until_its_slots_run_out() {
    let mut t = against("mage", &["isolde", "frost-harpy", "kraven"], 4);
    for cast in 1..=3 {
        let r = t.ok("next_turn", json!({})); // Isolde's turn ends: the mage's
        let turn = &r["monster_turns"][0];
        assert_eq!(turn["uses"], "Fireball", "{r}");
        assert_eq!(turn["slot_level"], 3);
        let pool = MonsterSpellcasting::slot_pool(3).to_ascii_lowercase();
        let spent = t.state.monster("frost-harpy").unwrap().uses_spent[&pool];
        assert_eq!(spent, cast);
        t.ok("next_turn", json!({})); // Kraven's turn ends, Isolde's begins
    }
    // Its 3rd-level slots spent, a 4th-level one casts it higher.
    let r = t.ok("next_turn", json!({}));
    assert_eq!(r["monster_turns"][0]["slot_level"], 4, "{r}");
    let pool = MonsterSpellcasting::slot_pool(3);
    let refused = t
        .state
        .apply(&Change::UseSpent {
            monster: "frost-harpy".into(),
            pool,
            of: 3,
        })
        .unwrap_err()
        .to_string();
    assert!(refused.contains("used all 3"), "{refused}");
}

/// A model that has the cult fanatic cast Hold Person through `cast_spell`, through a whole
/// scripted turn: a monster's spells are cast on its own turn by the engine, so the call is
/// refused, and neither a slot nor the hold happens.
#[tokio::test]
async fn a_model_casting_a_monsters_spell_is_refused() {
    let before = against("cult-fanatic", &["frost-harpy", "kraven", "isolde"], 1).state;
    let calls = vec![dnd_engine::llm::ToolCall::new(
        "a",
        "cast_spell",
        json!({"caster": "frost-harpy", "spell": "Hold Person", "slot_level": 2, "targets": ["kraven"]}),
    )];
    let played = table::scripted_turn(&before, calls, "Kraven", "The fanatic chants!").await;
    assert!(played.results[0].contains("error"), "{}", played.results[0]);
    let fanatic = played.after.monster("frost-harpy").unwrap();
    assert!(fanatic.uses_spent.is_empty() && fanatic.concentration.is_none());
    let kraven = played.after.character("kraven").unwrap();
    assert!(!kraven.conditions.has(Condition::Paralyzed));
}

/// A Fireball planned at the whole party where one hero stands on a ledge 700 ft away: the
/// mage casts it on those within its reach (150 ft and the 20-ft sphere), leaving her out.
#[test]
fn an_area_spell_leaves_out_the_hero_beyond_its_reach() {
    let order = table::order(&["isolde", "frost-harpy", "kraven"]);
    let places = [
        ("frost-harpy", table::at(0, 0, 0)),
        ("kraven", table::at(10, 0, 0)),
        ("isolde", table::at(700, 0, 0)),
    ];
    let mut t = Table::new(
        table::placed_fight(&["kraven", "isolde"], order, &places),
        4,
    );
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.template = "mage".into();
    m.hp = HitPoints::full(60);
    t.hero_mut("kraven").hp = HitPoints::full(200);
    t.hero_mut("kraven").armor_class = 30; // its dagger hardly hits: a spell is the better choice
    let r = t.ok("next_turn", json!({}));
    let turn = &r["monster_turns"][0];
    assert_eq!(turn["uses"], "Fireball", "{r}");
    let named: Vec<&str> = turn["effects"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| o["target"].as_str())
        .collect();
    assert_eq!(named, ["Kraven"], "{r}");
}

/// The acolyte below half its hit points heals itself with Cure Wounds (1d8 + its Wisdom
/// modifier, +2) from one of its three 1st-level slots; above half, it fights.
#[test]
fn a_hurt_acolyte_heals_itself() {
    let mut t = against("acolyte", &["isolde", "frost-harpy", "kraven"], 6);
    let m = &mut Arc::make_mut(&mut t.state.monsters)[0];
    m.hp = HitPoints {
        current: 4,
        max: 9,
        temporary: 0,
    };
    let r = t.ok("next_turn", json!({}));
    let turn = &r["monster_turns"][0];
    assert_eq!(turn["uses"], "Cure Wounds", "{r}");
    assert_eq!(turn["slot_level"], 1);
    let healed = turn["effects"][0]["healed"].as_u64().unwrap() as u32;
    assert!((3..=10).contains(&healed), "1d8+2: {healed}");
    let acolyte = t.state.monster("frost-harpy").unwrap();
    assert_eq!(acolyte.hp.current, (4 + healed).min(9));
    // At 5 of 9 (not below half) it does not heal.
    let mut t = against("acolyte", &["isolde", "frost-harpy", "kraven"], 6);
    Arc::make_mut(&mut t.state.monsters)[0].hp = HitPoints {
        current: 5,
        max: 9,
        temporary: 0,
    };
    let all = |_: &str| true;
    let plan = monster_plan::plan(&t.state, Srd::bundled(), "frost-harpy", &all).unwrap();
    assert!(
        !matches!(plan, Plan::Cast { ref spell, .. } if spell == "Cure Wounds"),
        "{plan:?}"
    );
}
