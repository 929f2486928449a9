//! The druid's Wild Shape through `use_feature`, worked as the SRD gives it: an action, two
//! uses a short rest; at 2nd level a beast of challenge 1/4 or lower that neither flies nor
//! swims, at 4th 1/2 and swimming allowed; the beast's hit points, AC, speed, physical scores
//! and attacks with the druid's mind; no spells while shaped; at 0 hit points the druid
//! reverts and the damage left over carries to its own hit points; reverting early is a bonus
//! action; the shape lasts half the druid level in hours. And a model that cheats with it,
//! refused each time with what is allowed, changing nothing.

use serde_json::json;

use dnd_engine::llm::ToolCall;
use dnd_engine::rules::Ability;
use dnd_engine::state::{Change, Character, Target, beast_of};

#[path = "support/table.rs"]
mod table;
use table::{Table, attack, cast};

/// Thorn, a human druid of `level` (Circle of the Land from 2nd): Wisdom 17, Con 14.
fn thorn(level: u8) -> Character {
    let mut choices = json!({
        "name": "Thorn", "race": "Human", "class": "Druid", "level": level,
        "background": {"name": "Hermit", "skills": ["medicine", "religion"]},
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 13, "con": 14, "int": 10, "wis": 15, "cha": 12}},
        "skills": ["nature", "perception"],
        "equipment": {"gold": 20},
        "cantrips": ["Shillelagh", "Produce Flame"],
        "spells": ["Cure Wounds", "Thunderwave"]
    });
    if level >= 2 {
        // The Land's Bonus Cantrip: one more.
        choices["subclass"] = json!("Land");
        choices["features"] = json!({"circle-of-the-land": ["Arctic"]});
        choices["cantrips"] = json!(["Shillelagh", "Produce Flame", "Guidance"]);
    }
    if level >= 4 {
        choices["cantrips"] = json!(["Shillelagh", "Produce Flame", "Guidance", "Druidcraft"]);
    }
    table::built(choices)
}

fn shape(who: &str, beast: &str) -> serde_json::Value {
    json!({"character": who, "feature": "wild-shape", "option": beast})
}

/// Thorn of `level` and Kraven against the harpy, on Thorn's turn.
fn thorns_turn(level: u8, seed: u64) -> Table {
    let state = table::fight_with(
        &["kraven"],
        vec![thorn(level)],
        &["thorn", "kraven", "frost-harpy"],
    );
    Table::new(state, seed)
}

#[test]
fn a_druid_becomes_a_wolf_with_its_body_and_keeps_its_mind() {
    let mut t = thorns_turn(2, 3);
    let own = t.state.character("thorn").unwrap().clone();
    let report = t.ok("use_feature", shape("thorn", "Wolf"));
    assert!(
        report["effect"].as_str().unwrap().contains("Wolf"),
        "{report}"
    );
    assert_eq!(
        (report["uses_left"].clone(), report["uses_of"].clone()),
        (json!(1), json!(2))
    );
    let wolf = t.state.character("thorn").unwrap().clone();
    assert_eq!(beast_of(&wolf), Some("Wolf"));
    // The wolf's block: 11 hit points, AC 13, speed 40, Str 12 Dex 15 Con 12.
    assert_eq!((wolf.hp.current, wolf.hp.max), (11, 11));
    assert_eq!(wolf.armor_class_now(), 13);
    assert_eq!(wolf.speed, 40);
    // In the fight, whose order kept the druid's 30 ft, it moves at the wolf's 40.
    assert_eq!(dnd_engine::state::speed_now(&t.state, "thorn", 30), 40);
    assert_eq!(
        (
            wolf.abilities.strength,
            wolf.abilities.dexterity,
            wolf.abilities.constitution
        ),
        (12, 15, 12)
    );
    // The druid's mind: Wisdom and Intelligence are its own.
    assert_eq!(wolf.abilities.wisdom, own.abilities.wisdom);
    assert_eq!(
        wolf.abilities.modifier(Ability::Intelligence),
        own.abilities.modifier(Ability::Intelligence)
    );
    // The bite as the block writes it: +4 to hit, 2d4 + 2 piercing.
    let bite = &wolf.attacks[0];
    assert_eq!(bite.name, "Bite");
    assert_eq!(wolf.attack_bonus(bite), 4);
    let damage = wolf.attack_damage(bite);
    assert_eq!((damage.count, damage.sides, damage.bonus), (2, 4, 2));
    // The wolf's Stealth and Perception, which the druid had not (Perception it had).
    assert!(wolf.skills.contains_key(&dnd_engine::rules::Skill::Stealth));
    // The action is spent.
    assert!(t.state.encounter.as_ref().unwrap().budget.action_used);

    // A spell is refused in a beast's shape.
    t.state.encounter.as_mut().unwrap().budget.action_used = false;
    let no = t.refused(
        "cast_spell",
        cast("thorn", "Thunderwave", None, &["frost-harpy"]),
    );
    assert!(
        no.contains("cannot cast spells") && no.contains("revert"),
        "{no}"
    );

    // The wolf bites with its own numbers.
    let bite = t.ok("roll_attack", attack("thorn", "frost-harpy"));
    let result = &bite["attacks"][0]["result"];
    assert_eq!(result["attack_bonus"], 4, "{bite}");
    if result["hit"] == true && result["critical"] == false {
        let dealt = result["damage"][0]["rolled"].as_u64().unwrap();
        assert!((4..=10).contains(&dealt), "2d4 + 2: {bite}");
    }

    // Reverting early is a bonus action: the druid's own body, hit points as they were.
    let back = t.ok(
        "use_feature",
        json!({"character": "thorn", "feature": "wild-shape", "option": "revert"}),
    );
    assert!(
        back["effect"].as_str().unwrap().contains("own shape"),
        "{back}"
    );
    let after = t.state.character("thorn").unwrap();
    assert_eq!(beast_of(after), None);
    assert_eq!(after.hp, own.hp);
    assert_eq!(after.armor_class, own.armor_class);
    assert_eq!(after.attacks, own.attacks);
    assert_eq!(after.abilities, own.abilities);
    assert!(t.state.encounter.as_ref().unwrap().budget.bonus_action_used);
}

/// The worked example: a wolf of 11 hit points takes 15; it drops, the druid reverts,
/// and the 4 left over come off the druid's own hit points.
#[test]
fn at_0_hp_the_beast_reverts_and_the_excess_damage_carries_over() {
    let mut t = thorns_turn(2, 5);
    let own = t.state.character("thorn").unwrap().hp;
    t.ok("use_feature", shape("thorn", "Wolf"));
    // A blow the wolf survives stays on the wolf.
    t.apply(&[Change::Damage {
        target: Target::Character("thorn".into()),
        amount: 6,
        critical: false,
    }]);
    let wolf = t.state.character("thorn").unwrap();
    assert_eq!((wolf.hp.current, beast_of(wolf)), (5, Some("Wolf")));
    // 15 more: 5 drop the wolf, 10 carry to the druid.
    t.apply(&[Change::Damage {
        target: Target::Character("thorn".into()),
        amount: 15,
        critical: false,
    }]);
    let druid = t.state.character("thorn").unwrap();
    assert_eq!(beast_of(druid), None, "reverted at 0");
    assert_eq!(druid.hp.max, own.max);
    assert_eq!(druid.hp.current, own.current - 10);
    assert!(
        !druid
            .conditions
            .has(dnd_engine::rules::Condition::Unconscious)
    );
    assert!(druid.timed_effects.is_empty());

    // Exactly 0 carries nothing: the second shape drops to 0 and the druid is whole.
    t.state.encounter.as_mut().unwrap().budget.action_used = false;
    t.ok("use_feature", shape("thorn", "Wolf"));
    t.apply(&[Change::Damage {
        target: Target::Character("thorn".into()),
        amount: 11,
        critical: false,
    }]);
    let druid = t.state.character("thorn").unwrap();
    assert_eq!(
        (beast_of(druid), druid.hp.current),
        (None, own.current - 10)
    );
}

#[test]
fn the_beast_allowed_grows_with_the_druid_level() {
    let mut t = thorns_turn(2, 1);
    let before = t.state.clone();
    // Challenge 1/2 is beyond a 2nd-level druid.
    let bear = t.refused("use_feature", shape("thorn", "Black Bear"));
    assert!(
        bear.contains("challenge 1/2") && bear.contains("challenge 1/4 or lower"),
        "{bear}"
    );
    // A flier never, at these levels.
    let bat = t.refused("use_feature", shape("thorn", "Giant Bat"));
    assert!(
        bat.contains("flies") && bat.contains("without a flying speed"),
        "{bat}"
    );
    // Only beasts.
    let goblin = t.refused("use_feature", shape("thorn", "Goblin"));
    assert!(goblin.contains("not a beast"), "{goblin}");
    assert_eq!(t.state, before, "nothing spent by a refusal");

    // At 4th level a black bear, whose Multiattack is two attacks of one Attack action.
    let mut t = thorns_turn(4, 2);
    t.ok("use_feature", shape("thorn", "Black Bear"));
    let bear = t.state.character("thorn").unwrap();
    assert_eq!((bear.hp.max, bear.armor_class, bear.speed), (19, 11, 40));
    t.state.encounter.as_mut().unwrap().budget.action_used = false;
    t.ok(
        "roll_attack",
        json!({"attacker": "thorn", "target": "frost-harpy", "attack": "Bite", "advantage": null}),
    );
    t.ok(
        "roll_attack",
        json!({"attacker": "thorn", "target": "frost-harpy", "attack": "Claws", "advantage": null}),
    );
    let third = t.refused("roll_attack", attack("thorn", "frost-harpy"));
    assert!(third.contains("already used the action"), "{third}");
}

#[test]
fn the_shape_lasts_half_the_druid_level_in_hours_and_a_long_rest_is_taken_in_ones_own_body() {
    let mut t = thorns_turn(2, 4);
    t.ok("use_feature", shape("thorn", "Wolf"));
    t.apply(&[Change::EncounterEnded]);
    // A long rest is taken in one's own body, and gives the uses back.
    let rest =
        json!({"character": "thorn", "update": "long_rest", "condition": null, "amount": null});
    t.ok("update_character", rest);
    let rested = t.state.character("thorn").unwrap();
    assert_eq!(beast_of(rested), None);
    assert_eq!(
        (rested.hp.current, rested.armor_class),
        (rested.hp.max, 12),
        "leather, Dex +1"
    );
    assert!(rested.feature_uses.is_empty());

    // Outside a fight it costs no action. One hour at 2nd level.
    t.ok("use_feature", shape("thorn", "Wolf"));
    t.apply(&[Change::TimeAdvanced { minutes: 59 }]);
    assert_eq!(beast_of(t.state.character("thorn").unwrap()), Some("Wolf"));
    t.apply(&[Change::TimeAdvanced { minutes: 1 }]);
    assert_eq!(
        beast_of(t.state.character("thorn").unwrap()),
        None,
        "one hour at 2nd level"
    );

    // The second use, then none until a rest.
    t.ok("use_feature", shape("thorn", "Wolf"));
    let twice = t.refused("use_feature", shape("thorn", "Wolf"));
    assert!(twice.contains("already in the shape"), "{twice}");
    t.ok(
        "use_feature",
        json!({"character": "thorn", "feature": "wild-shape", "option": "revert"}),
    );
    let none = t.refused("use_feature", shape("thorn", "Wolf"));
    assert!(
        none.contains("comes back after a short or long rest"),
        "{none}"
    );
    let nothing = t.refused(
        "use_feature",
        json!({"character": "thorn", "feature": "wild-shape", "option": "revert"}),
    );
    assert!(nothing.contains("in its own shape"), "{nothing}");
}

/// A scripted model shapes the wrong hero, shapes Thorn twice, names a bear at 2nd level, and
/// reverts out of turn: only the first lawful shape changes anything.
#[tokio::test]
async fn a_model_cheating_with_wild_shape_is_refused() {
    let mut before = table::fight_with(
        &["kraven"],
        vec![thorn(2), {
            let mut low = thorn(1);
            low.id = "sprout".into();
            low.name = "Sprout".into();
            low
        }],
        &["thorn", "kraven", "sprout", "frost-harpy"],
    );
    before.apply_all(&[]).unwrap();
    let cheats = vec![
        ToolCall::new("a", "use_feature", shape("kraven", "Wolf")),
        ToolCall::new("b", "use_feature", shape("sprout", "Wolf")),
        ToolCall::new("c", "use_feature", shape("thorn", "Black Bear")),
        ToolCall::new(
            "d",
            "use_feature",
            json!({"character": "thorn", "feature": "wild-shape", "option": "Wolf", "target": "kraven"}),
        ),
        ToolCall::new("e", "use_feature", shape("thorn", "Wolf")),
        ToolCall::new("f", "use_feature", shape("thorn", "Wolf")),
        ToolCall::new(
            "g",
            "cast_spell",
            cast("thorn", "Cure Wounds", None, &["kraven"]),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Thorn", "I become a wolf!").await;
    assert_eq!(results.len(), 7, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "comes at druid level 2"),
        (2, "challenge 1/4 or lower"),
        (3, "takes no target"),
        (5, "already in the shape of a Wolf"),
        (6, "cannot cast spells"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert!(!results[4].contains("\"error\""), "{}", results[4]);
    assert_eq!(beast_of(after.character("thorn").unwrap()), Some("Wolf"));
    assert_eq!(after.character("thorn").unwrap().feature_uses.len(), 1);
    assert_eq!(after.character("kraven"), before.character("kraven"));
    assert_eq!(after.character("sprout"), before.character("sprout"));
}

/// Out of turn, the shape (an action) is refused with whose turn it is.
#[test]
fn wild_shape_out_of_turn_is_refused() {
    let state = table::fight_with(
        &["kraven"],
        vec![thorn(2)],
        &["kraven", "thorn", "frost-harpy"],
    );
    let mut t = Table::new(state, 9);
    let before = t.state.clone();
    let no = t.refused("use_feature", shape("thorn", "Wolf"));
    assert!(no.contains("it is Kraven"), "{no}");
    assert_eq!(t.state, before);
}
