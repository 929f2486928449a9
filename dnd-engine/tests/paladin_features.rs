//! The paladin's features through the tools, worked as the SRD gives them: Divine Smite (a
//! readied smite rides the next melee weapon hit: 2d8 radiant + 1d8 a slot level above 1st,
//! 1d8 more against undead or fiends, doubled on a critical; the slot is spent only on a hit),
//! Lay on Hands (a pool of 5 × level hit points, or 5 to cure a poison), Divine Sense, and the
//! Oath of Devotion's Channel Divinity (Sacred Weapon, Turn the Unholy); and a model that
//! cheats with them, refused each time with what is allowed, changing nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{Condition, HitPoints};
use dnd_engine::state::{Change, Character, GameState, Target, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack, order};

/// Rowan, a human paladin of `level` sworn to Devotion (Charisma 15: +2), with a longsword
/// and javelins.
fn rowan(level: u8) -> Character {
    table::built(json!({
        "name": "Rowan", "race": "Human", "class": "Paladin", "level": level,
        "subclass": if level >= 3 { json!("Devotion") } else { Value::Null },
        "background": "Acolyte",
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 10, "con": 13, "int": 8, "wis": 12, "cha": 14}},
        "skills": ["athletics", "medicine"],
        "features": {"paladin-fighting-style": ["Defense"]},
        "equipment": {"kit": [{"option": 1, "picks": ["Longsword"]}, {"option": 1}, {"option": 1}, {"option": 1, "picks": ["Amulet"]}, {"option": 1, "picks": ["Emblem"]}, {"option": 1}]},
        "spells": ["Bless", "Cure Wounds"]
    }))
}

fn use_feature(
    who: &str,
    feature: &str,
    target: Option<&str>,
    amount: Option<u32>,
    option: Option<&str>,
) -> Value {
    json!({"character": who, "feature": feature, "target": target, "amount": amount, "option": option})
}

fn smite(who: &str, slot: Option<u32>) -> Value {
    use_feature(who, "divine-smite", None, slot, None)
}

/// Rowan (paladin `level`) and Kraven against a copy of the harpy with the SRD `template`, at
/// 200 HP, in a room without positions; Rowan's turn.
fn against(level: u8, template: &str, seed: u64) -> Table {
    let mut state: GameState = table::seen_harpy(&["kraven"]);
    let mut foe = state.monsters[0].clone();
    foe.id = "foe".into();
    foe.name = "Foe".into();
    foe.template = template.into();
    foe.hp = HitPoints::full(200);
    foe.area = None;
    Arc::make_mut(&mut state.monsters).push(foe);
    // The chasm's areas away: everyone within 5 ft.
    Arc::make_mut(&mut state.locations)[0].areas.clear();
    let mut hero = rowan(level);
    hero.location = state.characters[0].location.clone();
    Arc::make_mut(&mut state.characters).push(hero);
    state
        .apply(&Change::EncounterStarted {
            order: order(&["rowan", "foe", "kraven"]),
        })
        .unwrap();
    Table::new(state, seed)
}

/// Rowan's first swing at the foe with a smite readied: (hit, critical, radiant dice rolled,
/// as "2d8" (doubled on a critical: "4d8")).
fn smite_swing(template: &str, slot: u32, seed: u64) -> (bool, bool, Option<String>, Table) {
    let mut t = against(3, template, seed);
    t.ok("use_feature", smite("rowan", Some(slot)));
    let report = t.ok("roll_attack", attack("rowan", "foe"));
    let result = &report["attacks"][0]["result"];
    let radiant = result["damage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["type"] == "radiant")
        .map(|d| format!("{}d8", d["faces"].as_array().unwrap().len()));
    (
        result["hit"].as_bool().unwrap(),
        result["critical"].as_bool().unwrap(),
        radiant,
        t,
    )
}

#[test]
fn divine_smite_adds_radiant_dice_on_a_melee_hit_and_spends_the_slot_only_then() {
    let mut checked = [false; 3];
    for seed in 0..60 {
        let (hit, critical, radiant, t) = smite_swing("ogre", 1, seed);
        let rowan = t.state.character("rowan").unwrap();
        if hit {
            // 2d8 with a 1st-level slot against a giant; doubled on a critical.
            let want = if critical { "4d8" } else { "2d8" };
            assert_eq!(radiant.as_deref(), Some(want), "seed {seed}");
            assert_eq!(rowan.spell_slots.available(1), 2, "the slot is spent");
            assert!(dnd_engine::state::smite_ready(&rowan.timed_effects).is_none());
            checked[usize::from(critical)] = true;
        } else {
            // A miss spends nothing; the smite stays readied.
            assert_eq!(rowan.spell_slots.available(1), 3, "seed {seed}");
            assert!(dnd_engine::state::smite_ready(&rowan.timed_effects).is_some());
            checked[2] = true;
        }
    }
    assert_eq!(
        checked,
        [true, true, true],
        "a hit, a critical and a miss among the seeds"
    );
}

#[test]
fn divine_smite_does_one_more_d8_against_undead_and_fiends() {
    // The bundled SRD monsters have no fiend: the rule reads the creature type, so an undead
    // shows it.
    for template in ["zombie", "skeleton"] {
        let seed = (0..40)
            .find(|s| {
                let (hit, critical, ..) = smite_swing(template, 1, *s);
                hit && !critical
            })
            .unwrap();
        let (_, _, radiant, _) = smite_swing(template, 1, seed);
        assert_eq!(radiant.as_deref(), Some("3d8"), "{template}");
    }
}

#[test]
fn divine_smite_is_refused_without_a_slot_with_a_ranged_weapon_or_for_a_non_paladin() {
    let mut t = against(3, "ogre", 1);
    // A paladin of 3rd level has three 1st-level slots and none of 2nd.
    let no_slot = t.refused("use_feature", smite("rowan", Some(2)));
    assert!(no_slot.contains("no spell slot of level 2"), "{no_slot}");
    assert!(no_slot.contains("slots left"), "{no_slot}");
    t.hero_mut("rowan").spell_slots.spent[0] = 3;
    let spent = t.refused("use_feature", smite("rowan", None));
    assert!(spent.contains("no spell slot of level 1"), "{spent}");
    t.hero_mut("rowan").spell_slots.spent[0] = 0;
    let mut crossbow = t.state.character("rowan").unwrap().attacks[0].clone();
    crossbow.name = "Light Crossbow".into();
    crossbow.range_ft = 80;
    Arc::make_mut(&mut t.hero_mut("rowan").attacks).push(crossbow);
    let ranged = t.refused(
        "use_feature",
        use_feature(
            "rowan",
            "divine-smite",
            None,
            Some(1),
            Some("Light Crossbow"),
        ),
    );
    assert!(
        ranged.contains("not one of Rowan's melee weapons: Longsword"),
        "{ranged}"
    );
    let fighter = t.refused("use_feature", smite("kraven", Some(1)));
    assert!(fighter.contains("has no feature"), "{fighter}");
    // Paladin 1: not yet.
    t.hero_mut("rowan").level = 1;
    let low = t.refused("use_feature", smite("rowan", Some(1)));
    assert!(low.contains("comes at paladin level 2"), "{low}");
}

#[test]
fn a_smite_readied_does_not_ride_a_ranged_attack() {
    for seed in 0..10 {
        let mut t = against(3, "ogre", seed);
        let mut crossbow = t.state.character("rowan").unwrap().attacks[0].clone();
        crossbow.name = "Light Crossbow".into();
        crossbow.range_ft = 80;
        Arc::make_mut(&mut t.hero_mut("rowan").attacks).push(crossbow);
        t.ok("use_feature", smite("rowan", Some(1)));
        let shot = json!({"attacker": "rowan", "target": "foe", "attack": "Light Crossbow", "advantage": null});
        let report = t.ok("roll_attack", shot);
        let damage = report["attacks"][0]["result"]["damage"].to_string();
        assert!(!damage.contains("radiant"), "{damage}");
        let rowan = t.state.character("rowan").unwrap();
        assert_eq!(rowan.spell_slots.available(1), 3);
        assert!(dnd_engine::state::smite_ready(&rowan.timed_effects).is_some());
    }
}

#[test]
fn lay_on_hands_heals_from_a_pool_of_5_per_level_and_cures_a_poison_for_5() {
    let mut t = against(3, "ogre", 2);
    t.apply(&[
        Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 20,
            critical: false,
        },
        Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: Condition::Poisoned,
        },
    ]);
    let hp = t.state.character("kraven").unwrap().hp.current;
    let report = t.ok(
        "use_feature",
        use_feature("rowan", "lay-on-hands", Some("kraven"), Some(8), None),
    );
    assert_eq!(report["healed"], 8);
    assert_eq!(
        (report["uses_left"].as_u64(), report["uses_of"].as_u64()),
        (Some(7), Some(15))
    );
    assert_eq!(t.state.character("kraven").unwrap().hp.current, hp + 8);
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
    // The action is spent: the cure waits for the next turn.
    let busy = t.refused(
        "use_feature",
        use_feature(
            "rowan",
            "lay-on-hands",
            Some("kraven"),
            None,
            Some("poison"),
        ),
    );
    assert!(busy.contains("already used the action"), "{busy}");
    t.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    assert_eq!(t.turn_of(), "rowan");
    let cured = t.ok(
        "use_feature",
        use_feature(
            "rowan",
            "lay-on-hands",
            Some("kraven"),
            None,
            Some("poison"),
        ),
    );
    assert_eq!(cured["uses_left"], 2);
    assert!(
        !t.state
            .character("kraven")
            .unwrap()
            .conditions
            .has(Condition::Poisoned)
    );
    // Two points left: not enough for another cure, and no more than that to heal.
    t.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    let much = t.refused(
        "use_feature",
        use_feature("rowan", "lay-on-hands", Some("kraven"), Some(5), None),
    );
    assert!(much.contains("2 use(s) of Lay on Hands left"), "{much}");
    // A long rest fills the pool again.
    t.apply(&[Change::EncounterEnded]);
    t.ok(
        "update_character",
        json!({"character": "rowan", "update": "long_rest", "condition": null, "amount": null}),
    );
    assert!(t.state.character("rowan").unwrap().feature_uses.is_empty());
}

#[test]
fn lay_on_hands_refuses_undead_the_unhurt_diseases_and_a_missing_target() {
    let mut t = against(3, "zombie", 2);
    let undead = t.refused(
        "use_feature",
        use_feature("rowan", "lay-on-hands", Some("foe"), Some(3), None),
    );
    assert!(undead.contains("no effect on undead"), "{undead}");
    let unhurt = t.refused(
        "use_feature",
        use_feature("rowan", "lay-on-hands", Some("kraven"), Some(3), None),
    );
    assert!(unhurt.contains("missing 0 hit points"), "{unhurt}");
    let disease = t.refused(
        "use_feature",
        use_feature(
            "rowan",
            "lay-on-hands",
            Some("kraven"),
            None,
            Some("disease"),
        ),
    );
    assert!(disease.contains("no disease is kept"), "{disease}");
    let nobody = t.refused(
        "use_feature",
        use_feature("rowan", "lay-on-hands", None, Some(3), None),
    );
    assert!(nobody.contains("name the creature touched"), "{nobody}");
}

#[test]
fn divine_sense_names_the_undead_and_fiends_near() {
    let mut t = against(3, "zombie", 2);
    let report = t.ok(
        "use_feature",
        use_feature("rowan", "divine-sense", None, None, None),
    );
    let effect = report["effect"].as_str().unwrap();
    assert!(effect.contains("Foe (undead), 5 ft away"), "{effect}");
    assert!(!effect.contains("Frost Harpy"), "{effect}");
    // 1 + Charisma modifier (+2) uses a long rest.
    assert_eq!(
        (report["uses_left"].as_u64(), report["uses_of"].as_u64()),
        (Some(2), Some(3))
    );
}

#[test]
fn sacred_weapon_adds_the_charisma_modifier_to_attack_rolls_for_a_minute() {
    let mut t = against(3, "ogre", 2);
    let before = t.state.character("rowan").unwrap().clone();
    let sword = before
        .attacks
        .iter()
        .find(|a| a.name == "Longsword")
        .unwrap();
    let to_hit = before.attack_bonus(sword);
    let report = t.ok(
        "use_feature",
        use_feature(
            "rowan",
            "channel-divinity-sacred-weapon",
            None,
            None,
            Some("Longsword"),
        ),
    );
    assert_eq!(report["uses_left"], 0);
    let after = t.state.character("rowan").unwrap();
    assert_eq!(after.attack_bonus(sword), to_hit + 2);
    assert!(after.attack_is_magical(sword));
    assert!(after.timed_effects.iter().any(|e| matches!(e.kind, TimedKind::BlessedWeapon { .. }) && e.rounds_left == Some(10)));
    // The one Channel Divinity is spent: Turn the Unholy waits for a rest.
    t.apply(&[
        Change::TurnAdvanced,
        Change::TurnAdvanced,
        Change::TurnAdvanced,
    ]);
    let again = t.refused(
        "use_feature",
        use_feature(
            "rowan",
            "channel-divinity-turn-the-unholy",
            None,
            None,
            None,
        ),
    );
    assert!(
        again.contains("comes back after a short or long rest"),
        "{again}"
    );
}

#[test]
fn turn_the_unholy_turns_undead_as_the_clerics_turning_does() {
    // The bundled SRD monsters have no fiend; the turning reads the creature type.
    let mut seen = false;
    for seed in 0..20 {
        let mut t = against(3, "ghoul", seed);
        let effect = t.ok(
            "use_feature",
            use_feature(
                "rowan",
                "channel-divinity-turn-the-unholy",
                None,
                None,
                None,
            ),
        )["effect"]
            .as_str()
            .unwrap()
            .to_owned();
        // Rowan's spell save DC: 8 + 2 + 2.
        assert!(
            effect.contains("Turn the Unholy, Wisdom save DC 12"),
            "{effect}"
        );
        let turned = t
            .state
            .monster("foe")
            .unwrap()
            .timed_effects
            .iter()
            .any(|e| e.kind == TimedKind::Turned);
        assert_eq!(turned, effect.contains("Foe fails"), "{effect}");
        seen |= turned;
    }
    assert!(seen);
    // The ogre is neither fiend nor undead: nothing to turn, nothing spent.
    let mut t = against(3, "ogre", 1);
    let none = t.refused(
        "use_feature",
        use_feature(
            "rowan",
            "channel-divinity-turn-the-unholy",
            None,
            None,
            None,
        ),
    );
    assert!(none.contains("no fiend or undead within 30 ft"), "{none}");
}

/// A scripted model smites with no slot, lays on hands from an empty pool, and senses for the
/// fighter: each refused, the sheets unchanged.
#[tokio::test]
async fn a_model_cheating_with_paladin_features_is_refused() {
    let mut before = against(3, "zombie", 1).state;
    table::hero_mut(&mut before, "rowan").spell_slots.spent[0] = 3;
    let of = table::hero_mut(&mut before, "rowan");
    of.feature_uses.insert(
        "lay-on-hands".into(),
        dnd_engine::state::FeatureUses {
            spent: 15,
            of: 15,
            restores: dnd_engine::srd::Rest::LongRest,
        },
    );
    let cheats = vec![
        ToolCall::new("a", "use_feature", smite("rowan", Some(1))),
        ToolCall::new(
            "b",
            "use_feature",
            use_feature("rowan", "lay-on-hands", Some("kraven"), Some(1), None),
        ),
        ToolCall::new(
            "c",
            "use_feature",
            use_feature("kraven", "divine-sense", None, None, None),
        ),
        ToolCall::new(
            "d",
            "use_feature",
            use_feature("rowan", "lay-on-hands", Some("foe"), Some(1), None),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Rowan", "By my oath!").await;
    assert_eq!(results.len(), 4, "{results:#?}");
    for (i, want) in [
        (0, "no spell slot of level 1"),
        (1, "missing 0 hit points"),
        (2, "has no feature"),
        (3, "no effect on undead"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert_eq!(after.characters, before.characters);
}
