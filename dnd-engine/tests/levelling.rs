//! Experience and levelling up, through the tools as a game master would call them: a won
//! fight's XP shared among the living who fought, and `level_up`'s worked examples (Kraven the
//! fighter from 1 to 2 with 300 XP; Isolde the wizard to 3 with new slots and two spells; an
//! Ability Score Improvement and the Grappler feat at 4; a warlock's pact slots) and refusals
//! (not enough XP, a spell not on the list or too high, a score above 20, level 6), each
//! changing nothing. Then milestone levelling, where a flag grants the level and XP never
//! gates.

use serde_json::json;

use dnd_engine::adventure::Adventure;
use dnd_engine::rules::{HitDice, HitPoints};
use dnd_engine::state::{Change, Levelling, Target, reached_milestones};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Kraven as a 1st-level fighter (12 HP, one hit die) with `xp`.
fn kraven_at_1(xp: u32) -> Table {
    let mut t = Table::game(&["kraven"], 3);
    let k = t.hero_mut("kraven");
    k.level = 1;
    k.subclass = None; // a 1st-level fighter has no archetype yet
    k.hp = HitPoints::full(12);
    k.hit_dice = HitDice {
        sides: 10,
        total: 1,
        spent: 0,
    };
    k.xp = xp;
    t
}

#[test]
fn a_won_fight_shares_its_xp_among_the_living_who_fought() {
    // Kraven, Isolde and Hedda fight the harpy (200 XP); Hedda dies; Wren is not in the fight.
    let mut t = Table::fight(
        &["kraven", "isolde", "hedda", "wren"],
        &["kraven", "isolde", "hedda", "frost-harpy"],
        1,
    );
    let harpy_hp = t.state.monster("frost-harpy").unwrap().hp.current;
    let hedda = t.state.character("hedda").unwrap().hp.max;
    t.apply(&[
        Change::Damage {
            target: Target::Monster("frost-harpy".into()),
            amount: harpy_hp,
            critical: false,
        },
        // Twice her maximum at once: massive damage kills outright.
        Change::Damage {
            target: Target::Character("hedda".into()),
            amount: hedda * 2,
            critical: false,
        },
    ]);
    assert!(t.state.character("hedda").unwrap().dead);
    let ended = t.ok("end_encounter", json!({}));
    assert_eq!(ended["xp_from_defeated"], 200);
    assert_eq!(ended["xp_each"], 100, "200 XP split between the two living");
    assert_eq!(ended["shared_by"], json!(["Kraven", "Isolde Vane"]));
    // Each began with 3rd level's 900.
    let xp = |id: &str| t.state.character(id).unwrap().xp;
    assert_eq!(
        (xp("kraven"), xp("isolde"), xp("hedda"), xp("wren")),
        (1_000, 1_000, 900, 900)
    );
    // The snapshot shows it with the next threshold.
    let view = t.state.snapshot();
    let kraven = view.party.iter().find(|c| c.id == "kraven").unwrap();
    assert_eq!(kraven.xp, "1000 XP (level 4 at 2700)");
}

#[test]
fn kraven_goes_from_1_to_2_with_300_xp() {
    let mut t = kraven_at_1(300);
    let up = t.ok("level_up", json!({"character": "kraven"}));
    // The fighter's fixed 6, Constitution 15 (+2).
    assert_eq!(up["level"], 2);
    assert_eq!(up["hp_gained"], 8);
    assert_eq!(up["hp_max"], 20);
    assert_eq!(up["hit_dice"], 2);
    assert_eq!(up["proficiency_bonus"], 2);
    assert_eq!(up["features"][0]["name"], "Action Surge (1 use)");
    let k = t.state.character("kraven").unwrap();
    assert_eq!(
        (k.level, k.hp.max, k.hp.current, k.hit_dice.total),
        (2, 20, 20, 2)
    );
    assert!(matches!(
        t.log.changes.as_slice(),
        [Change::LevelledUp(up)] if up.level == 2
    ));
    // Stores keep changes as JSON: it reads back the same.
    let text = serde_json::to_string(&t.log.changes[0]).unwrap();
    assert!(
        text.starts_with(r#"{"change":"levelled_up","character":"kraven","level":2"#),
        "{text}"
    );
    assert_eq!(
        serde_json::from_str::<Change>(&text).unwrap(),
        t.log.changes[0]
    );
}

#[test]
fn rolled_hit_points_are_the_die_plus_constitution_and_recorded() {
    let mut t = kraven_at_1(300);
    let up = t.ok("level_up", json!({"character": "kraven", "hp": "roll"}));
    let gained = up["hp_gained"].as_u64().unwrap();
    assert!((3..=12).contains(&gained), "1d10 + 2: {gained}");
    assert_eq!(t.log.rolls.len(), 1, "the hit die is a recorded roll");
    assert_eq!(t.log.rolls[0].total + 2, gained as i64);
}

#[test]
fn not_enough_xp_is_refused_with_the_threshold() {
    let mut t = kraven_at_1(299);
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert_eq!(error, "Kraven has 299 XP; level 2 needs 300");
}

#[test]
fn the_fighter_names_the_champion_at_3() {
    let mut t = kraven_at_1(900);
    t.hero_mut("kraven").level = 2;
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert!(
        error.contains("a Fighter chooses a Martial Archetype at level 3; options: Champion"),
        "{error}"
    );
    let error = t.refused(
        "level_up",
        json!({"character": "kraven", "subclass": "Battle Master"}),
    );
    assert!(error.contains("options: Champion"), "{error}");
    let up = t.ok(
        "level_up",
        json!({"character": "kraven", "subclass": "champion"}),
    );
    assert_eq!(up["subclass"], "Champion");
    let names: Vec<&str> = up["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Martial Archetype", "Improved Critical"]);
    assert_eq!(
        t.state.character("kraven").unwrap().subclass.as_deref(),
        Some("Champion")
    );
}

/// Isolde as a 2nd-level wizard (3 first-level slots) with 900 XP.
fn isolde_at_2() -> Table {
    let mut t = Table::game(&["isolde"], 4);
    let i = t.hero_mut("isolde");
    i.level = 2;
    i.xp = 900;
    i.spell_slots.max = [3, 0, 0, 0, 0, 0, 0, 0, 0];
    i.hit_dice.total = 2;
    i.subclass = Some("Evocation".into());
    t
}

#[test]
fn isolde_reaches_3_with_second_level_slots_and_two_spells() {
    let mut t = isolde_at_2();
    let error = t.refused("level_up", json!({"character": "isolde"}));
    assert!(
        error.starts_with("spells: level 3 adds 2 spell(s) of level 1 to 2; 0 chosen; options: "),
        "{error}"
    );
    let error = t.refused(
        "level_up",
        json!({"character": "isolde", "spells": ["Cure Wounds", "Web"]}),
    );
    assert!(
        error.starts_with("spells: \"Cure Wounds\" is not on the Wizard spell list; options:"),
        "{error}"
    );
    let error = t.refused(
        "level_up",
        json!({"character": "isolde", "spells": ["Fireball", "Web"]}),
    );
    assert!(
        error.contains("Fireball is a level-3 spell; at level 3 a Wizard casts up to level 2"),
        "{error}"
    );
    let error = t.refused(
        "level_up",
        json!({"character": "isolde", "spells": ["Misty Step", "Web"]}),
    );
    assert!(
        error.contains("Isolde Vane knows Misty Step already"),
        "{error}"
    );

    let up = t.ok(
        "level_up",
        json!({"character": "isolde", "spells": ["Web", "Invisibility"]}),
    );
    // The wizard's fixed 4, Constitution 13 (+1).
    assert_eq!(up["hp_gained"], 5);
    assert_eq!(up["slots"], "1st: 4, 2nd: 2");
    assert_eq!(up["spells_learned"], json!(["Web", "Invisibility"]));
    let i = t.state.character("isolde").unwrap();
    assert_eq!(i.spell_slots.max[..2], [4, 2]);
    // Written in the spellbook, to prepare after a long rest; not prepared at once.
    assert!(i.spellbook.iter().any(|s| s == "Web"));
    assert!(!i.spells.iter().any(|s| s == "Web"));
}

/// Kraven at 3rd level with the XP for 4th, Strength `str`.
fn kraven_at_3(str: i32) -> Table {
    let mut t = Table::game(&["kraven"], 5);
    let k = t.hero_mut("kraven");
    k.xp = 2_700;
    k.abilities.strength = str;
    k.subclass = Some("Champion".into());
    t
}

#[test]
fn an_ability_score_improvement_at_4() {
    let mut t = kraven_at_3(16);
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert!(
        error.starts_with("improvement: this level grants an Ability Score Improvement"),
        "{error}"
    );
    assert!(
        error.contains("strength (now 16)") && error.contains("Grappler"),
        "{error}"
    );
    let error = t.refused(
        "level_up",
        json!({"character": "kraven", "improvement": {"plus_one": ["strength", "strength"]}}),
    );
    assert!(
        error.contains("plus_one names two different scores"),
        "{error}"
    );
    // +1 Strength, +1 Constitution (15 to 16: the modifier rises to +3 for all four levels).
    let up = t.ok(
        "level_up",
        json!({"character": "kraven", "improvement": {"plus_one": ["strength", "constitution"]}}),
    );
    assert_eq!(
        up["hp_gained"],
        6 + 2 + 4,
        "6 + the old +2, and +1 for each of 4 levels"
    );
    let k = t.state.character("kraven").unwrap();
    assert_eq!((k.abilities.strength, k.abilities.constitution), (17, 16));
    assert_eq!((k.level, k.hp.max), (4, 28 + 12));
}

#[test]
fn no_score_rises_above_20_and_the_feat_replaces_the_improvement() {
    let mut t = kraven_at_3(19);
    let error = t.refused(
        "level_up",
        json!({"character": "kraven", "improvement": {"plus_two": "strength"}}),
    );
    assert!(
        error.contains("Strength would be 21: no score rises above 20"),
        "{error}"
    );
    let error = t.refused(
        "level_up",
        json!({"character": "kraven", "improvement": {"feat": "Great Weapon Master"}}),
    );
    assert!(
        error.contains("not a feat of the SRD; options: Grappler"),
        "{error}"
    );
    t.ok(
        "level_up",
        json!({"character": "kraven", "improvement": {"feat": "grappler"}}),
    );
    let k = t.state.character("kraven").unwrap();
    assert_eq!(k.feats, ["Grappler"]);
    assert_eq!(k.abilities.strength, 19);
}

#[test]
fn grappler_needs_strength_13() {
    let mut t = kraven_at_3(12);
    let error = t.refused(
        "level_up",
        json!({"character": "kraven", "improvement": {"feat": "Grappler"}}),
    );
    assert!(
        error.contains("Grappler needs Strength 13; Kraven has 12"),
        "{error}"
    );
}

#[test]
fn level_6_is_beyond_the_class_data() {
    let mut t = kraven_at_3(16);
    let k = t.hero_mut("kraven");
    k.level = 5;
    k.xp = 20_000;
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert_eq!(
        error,
        "Kraven is a level-5 Fighter: the class data covers levels 1 to 5, so no higher level can be taken"
    );
    t.hero_mut("kraven").class = "artificer".into();
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert!(
        error.starts_with("Kraven is a \"artificer\", a class with no data to level from; the classes are: barbarian, bard,"),
        "{error}"
    );
}

#[test]
fn a_warlock_gains_pact_slots_of_second_level_at_3() {
    // Kraven made a pact: a 2nd-level warlock (two 1st-level pact slots, three spells known).
    let mut t = kraven_at_1(900);
    let k = t.hero_mut("kraven");
    k.class = "warlock".into();
    k.level = 2;
    k.spell_slots.pact_max = 2;
    k.spell_slots.pact_level = 1;
    k.subclass = Some("Fiend".into());
    let up = t.ok(
        "level_up",
        // The Pact Boon's pick is asked for with the level (`character::level_features`).
        json!({"character": "kraven", "spells": ["Hold Person"],
               "features": [{"feature": "pact-boon", "picks": ["Pact of the Tome"]},
                            {"feature": "pact-of-the-tome", "picks": ["Guidance", "Light", "Mending"]}]}),
    );
    let k = t.state.character("kraven").unwrap();
    assert_eq!((k.spell_slots.pact_max, k.spell_slots.pact_level), (2, 2));
    assert_eq!(k.choices["pact-boon"], ["pact-of-the-tome"]);
    let pact = up["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "Pact Boon")
        .unwrap();
    assert!(
        pact["choose"]
            .as_str()
            .unwrap()
            .starts_with("choose 1 of: Pact of the Chain"),
        "{pact}"
    );
}

#[test]
fn with_milestones_a_flag_grants_the_level_and_xp_never_gates() {
    let text = Adventure::built_in_json().replacen(
        "\"characters\"",
        r#""levelling": "milestone",
  "milestones": [{"id": "harpy-slain", "flag": "harpy_defeated"}],
  "characters""#,
        1,
    );
    let adventure = Adventure::from_json(&text, "glacier.json").unwrap();
    let state = adventure.new_game(&["kraven"]).unwrap();
    assert!(
        matches!(&state.levelling, Levelling::Milestone { milestones } if milestones.len() == 1)
    );
    let mut t = Table::new(state, 6);
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert!(error.contains("levels come at milestones"), "{error}");
    assert!(reached_milestones(&t.state).is_empty());
    t.story_flag("harpy_defeated", serde_json::json!(true));
    let reached = reached_milestones(&t.state);
    assert_eq!(
        reached,
        [Change::MilestoneReached {
            milestone: "harpy-slain".into()
        }]
    );
    t.apply(&reached);
    assert_eq!(t.state.character("kraven").unwrap().milestone_levels, 1);
    assert!(
        t.state.apply(&reached[0]).is_err(),
        "a milestone grants its level once"
    );
    // 900 XP, short of 4th level's 2700, and still the level.
    let up = t.ok(
        "level_up",
        json!({"character": "kraven", "improvement": {"plus_two": "strength"}}),
    );
    assert_eq!(up["level"], 4);
    let k = t.state.character("kraven").unwrap();
    assert_eq!((k.milestone_levels, k.xp), (0, 900));
    let error = t.refused("level_up", json!({"character": "kraven"}));
    assert!(
        error.contains("none has been reached since the last"),
        "{error}"
    );
    // Shared XP is still recorded.
    t.apply(&[Change::XpGained {
        character: "kraven".into(),
        amount: 50,
    }]);
    assert_eq!(
        t.state.snapshot().party[0].xp,
        "950 XP; levels come at milestones"
    );
}

#[test]
fn the_adventure_format_validates_levelling_and_milestones() {
    let with = |fields: &str| {
        let text = Adventure::built_in_json().replacen(
            "\"characters\"",
            &format!("{fields},\n  \"characters\""),
            1,
        );
        Adventure::from_json(&text, "glacier.json")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(
        with(r#""levelling": "levels""#)
            .contains("levelling: unknown variant `levels`, expected `xp` or `milestone`"),
        "{}",
        with(r#""levelling": "levels""#)
    );
    assert!(
        with(r#""levelling": "milestone""#)
            .contains("milestone levelling needs at least one milestone")
    );
    assert!(
        with(r#""milestones": [{"id": "a", "room": "entrance"}]"#)
            .contains("milestones: milestones grant levels only with \"levelling\": \"milestone\"")
    );
    let broken = with(
        r#""levelling": "milestone", "milestones": [
        {"id": "a", "flag": "harpy_slain"}, {"id": "b", "room": "nowhere"},
        {"id": "c", "flag": "harpy_defeated", "room": "nowhere"}]"#,
    );
    assert!(
        broken.contains("milestones[a].flag: no flag \"harpy_slain\" in `flags`"),
        "{broken}"
    );
    assert!(
        broken.contains("milestones[b].room: no room \"nowhere\""),
        "{broken}"
    );
    assert!(
        broken.contains("milestones[c]: a milestone has exactly one of `flag`"),
        "{broken}"
    );
    let room = Adventure::built_in().start.clone();
    assert_eq!(
        with(&format!(
            r#""levelling": "milestone", "milestones": [{{"id": "in", "room": "{room}"}}]"#
        )),
        ""
    );
}

#[tokio::test]
async fn the_offline_game_master_levels_the_party_after_a_won_fight() {
    use dnd_engine::gm::PlayerInput;
    // Kraven, 100 XP short of 4th level, against a harpy at 1 HP (200 XP).
    let mut state = table::fight(&["kraven"], &["kraven", "frost-harpy"]);
    std::sync::Arc::make_mut(&mut state.monsters)[0].hp = HitPoints::full(1);
    let k = table::hero_mut(&mut state, "kraven");
    k.xp = 2_600;
    k.subclass = Some("Champion".into());
    let (gm, store, id) = table::offline(&state).await;
    let mut levelled = None;
    for _ in 0..8 {
        let outcome = gm
            .turn(&id, PlayerInput::new("Kraven", "I attack the harpy."))
            .await
            .unwrap();
        if let Some(up) = outcome.changes.iter().find_map(|c| match c {
            Change::LevelledUp(up) => Some(up.clone()),
            _ => None,
        }) {
            assert!(
                outcome.narration.contains("level 4"),
                "{}",
                outcome.narration
            );
            levelled = Some(up);
            break;
        }
    }
    let up = levelled.expect("the fight was won and the level taken");
    let after = dnd_engine::store::GameStore::load(store.as_ref(), &id)
        .await
        .unwrap();
    let k = after.character("kraven").unwrap();
    assert_eq!(k.xp, 2_800);
    // Fixed hit points (6 + 2), and +2 to the highest score, Strength 16.
    assert_eq!((k.level, k.hp.max, k.abilities.strength), (4, 36, 18));
    assert_eq!(up.hp_gained, 8);
}

#[test]
fn the_first_legal_choices_are_legal_for_every_class_at_every_level() {
    use dnd_engine::character::{first_legal_choices, level_up};
    use dnd_engine::srd::Srd;
    let srd = Srd::bundled();
    let base = Adventure::built_in().characters[0].clone();
    let mut dice = dnd_engine::dice::seeded_rng(9);
    for class in &srd.classes {
        let mut c = base.clone();
        c.class = class.slug.clone();
        c.level = 1;
        c.spells = Default::default();
        for level in 2..=5u8 {
            c.xp = dnd_engine::rules::experience::xp_for_level(level).unwrap();
            let choices = first_legal_choices(&c, srd, &Levelling::Xp)
                .unwrap_or_else(|| panic!("{} to {level}", class.slug));
            let up = level_up(&c, srd, &Levelling::Xp, &choices, &mut dice)
                .unwrap_or_else(|e| panic!("{} to {level}: {e}", class.slug));
            let mut state = Adventure::built_in().new_game(&["kraven"]).unwrap();
            *table::hero_mut(&mut state, "kraven") = c.clone();
            state.apply_all(&up.changes).unwrap();
            c = state.character("kraven").unwrap().clone();
            assert_eq!(c.level, level);
        }
        assert!(
            first_legal_choices(&c, srd, &Levelling::Xp).is_none(),
            "5 is the last"
        );
    }
}

#[test]
fn a_room_milestone_is_reached_where_the_party_stands_once() {
    let start = Adventure::built_in().start.clone();
    let text = Adventure::built_in_json().replacen(
        "\"characters\"",
        &format!(
            r#""levelling": "milestone", "milestones": [{{"id": "way-in", "room": "{start}"}}],
  "characters""#
        ),
        1,
    );
    let mut state = Adventure::from_json(&text, "glacier.json")
        .unwrap()
        .new_game(&["kraven", "isolde"])
        .unwrap();
    let reached = reached_milestones(&state);
    assert_eq!(
        reached,
        [Change::MilestoneReached {
            milestone: "way-in".into()
        }]
    );
    state.apply_all(&reached).unwrap();
    assert!(reached_milestones(&state).is_empty(), "granted once");
    assert!(state.characters.iter().all(|c| c.milestone_levels == 1));
}

#[tokio::test]
async fn a_player_asks_the_offline_game_master_for_a_level() {
    use dnd_engine::gm::PlayerInput;
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let (gm, store, id) = table::offline(&state).await;
    let ask = || PlayerInput::new("Kraven", "I level up.");
    let refused = gm.turn(&id, ask()).await.unwrap();
    assert!(
        refused
            .narration
            .contains("Not yet: you have 900 XP (level 4 at 2700)."),
        "{}",
        refused.narration
    );
    assert!(
        !refused
            .changes
            .iter()
            .any(|c| matches!(c, Change::LevelledUp(_)))
    );
    // 1800 XP later (the story's rewards, given by hand here).
    let mut earned = dnd_engine::store::GameStore::load(store.as_ref(), &id)
        .await
        .unwrap();
    table::hero_mut(&mut earned, "kraven").xp = 2_700;
    let id = dnd_engine::store::GameStore::create_campaign(store.as_ref(), "Glacier", &earned)
        .await
        .unwrap();
    let taken = gm.turn(&id, ask()).await.unwrap();
    assert!(
        taken
            .changes
            .iter()
            .any(|c| matches!(c, Change::LevelledUp(up) if up.level == 4)),
        "{}",
        taken.narration
    );
    assert!(taken.narration.contains("level 4"), "{}", taken.narration);
}
