//! The Hunter's Prey techniques Horde Breaker and Giant Killer, and the warlock's Pact of the
//! Chain, through the tools as the SRD gives them: Horde Breaker's one more attack, once a
//! turn, with the same weapon at another creature within 5 feet of the first target (and
//! within the weapon's reach); Giant Killer's reaction attack at a Large or larger creature
//! within 5 feet that attacks the ranger; a chain warlock's familiar in the special forms
//! (imp, pseudodragon, quasit, sprite) that strikes with its reaction for one of the warlock's
//! attacks; and a scripted model that cheats with them.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;
use dnd_engine::srd::Srd;
use dnd_engine::state::{Change, Character, GameState, Position, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, at, cast};

/// Sira, a half-orc ranger of 3rd level, a Hunter with `technique` ("Horde Breaker"), two
/// shortswords and a longbow.
fn sira(technique: &str) -> Character {
    table::built(json!({
        "name": "Sira", "race": "Half-Orc", "class": "Ranger", "level": 3, "subclass": "Hunter",
        "background": {"name": "Soldier", "skills": ["athletics", "intimidation"]},
        "scores": {"method": "standard_array", "scores": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10}},
        "skills": ["perception", "stealth", "survival"],
        "features": {
            "favored-enemy-1-type": ["monstrosities"],
            "natural-explorer-1-terrain-type": ["arctic"],
            "ranger-fighting-style": ["Dueling"],
            "hunters-prey": [technique]
        },
        "spells": ["Hunter's Mark", "Cure Wounds", "Goodberry"],
        "equipment": {"kit": [{"option": 2}, {"option": 1}, {"option": 2}]}
    }))
}

/// Wren, a tiefling warlock of the Fiend of 3rd level with the pact `boon` ("Pact of the
/// Chain").
fn wren(boon: &str) -> Character {
    table::built(json!({
        "name": "Wren", "race": "Tiefling", "class": "Warlock", "subclass": "Fiend", "level": 3,
        "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 15}},
        "skills": ["deception", "arcana"],
        "equipment": {"gold": 40},
        "cantrips": ["Eldritch Blast", "Chill Touch"],
        "spells": ["Charm Person", "Burning Hands", "Hellish Rebuke", "Invisibility"],
        "features": {
            "eldritch-invocations": ["Agonizing Blast", "Fiendish Vigor"],
            "pact-boon": [boon]
        }
    }))
}

/// Isolde and `heroes` in the ice chasm with the Frost Harpy and copies of it under other stat
/// blocks (`extra`: id and template), every monster at 200 HP; no fight yet.
fn chasm(heroes: Vec<Character>, extra: &[(&str, &str)]) -> GameState {
    let mut state = table::seen_harpy(&["isolde"]);
    table::add_far_ledge(&mut state);
    let room = state.characters[0].location.clone();
    for mut hero in heroes {
        hero.location = room.clone();
        Arc::make_mut(&mut state.characters).push(hero);
    }
    for (id, template) in extra {
        let mut m = state.monsters[0].clone();
        m.id = (*id).into();
        m.name = Srd::bundled().monster(template).unwrap().name.clone() + " " + id;
        m.template = (*template).into();
        Arc::make_mut(&mut state.monsters).push(m);
    }
    state
}

/// Starts the fight in `order` with everyone at its place in `places`.
fn begin(state: &mut GameState, order: &[&str], places: &[(&str, Position)]) {
    let mut changes = vec![Change::EncounterStarted {
        order: table::order(order),
    }];
    changes.extend(places.iter().map(|(id, to)| Change::Moved {
        creature: (*id).into(),
        to: *to,
    }));
    state.apply_all(&changes).unwrap();
}

fn use_feature(who: &str, feature: &str, target: Option<&str>, option: Option<&str>) -> Value {
    json!({"character": who, "feature": feature, "target": target, "amount": null, "option": option})
}

fn horde(target: &str, option: Option<&str>) -> Value {
    use_feature("sira", "hunters-prey-horde-breaker", Some(target), option)
}

fn swing(attacker: &str, target: &str, attack: &str) -> Value {
    json!({"attacker": attacker, "target": target, "attack": attack, "advantage": null})
}

/// Sira at (-5, 0) beside the harpy at (0, 0); goblin "near" at (0, 5), beside both; goblin
/// "past" at (5, 0), beside the harpy but 10 ft from Sira; goblin "far" 30 ft off.
fn horde_fight(seed: u64) -> Table {
    let extra = [("near", "goblin"), ("past", "goblin"), ("far", "goblin")];
    let mut state = chasm(vec![sira("Horde Breaker")], &extra);
    let order = ["sira", "frost-harpy", "near", "past", "far", "isolde"];
    let places = [
        ("sira", at(-5, 0, 0)),
        ("frost-harpy", at(0, 0, 0)),
        ("near", at(0, 5, 0)),
        ("past", at(5, 0, 0)),
        ("far", at(30, 0, 0)),
    ];
    begin(&mut state, &order, &places);
    Table::new(state, seed)
}

#[test]
fn horde_breaker_strikes_a_second_creature_beside_the_first_once_a_turn() {
    let mut t = horde_fight(3);
    // Nothing to follow yet.
    let e = t.refused("use_feature", horde("near", None));
    assert!(e.contains("has made none this turn"), "{e}");
    t.ok("roll_attack", swing("sira", "frost-harpy", "Shortsword"));
    let budget = t.state.encounter.as_ref().unwrap().budget;

    // Not the first target again, not one beside no one, not another weapon, not beyond the
    // shortsword's reach (beside the harpy but 10 ft from Sira): each refused with who may be.
    let e = t.refused("use_feature", horde("frost-harpy", None));
    assert!(e.contains("was the first target"), "{e}");
    assert!(e.contains("Goblin near"), "the allowed: {e}");
    assert!(!e.contains("Goblin far"), "{e}");
    let e = t.refused("use_feature", horde("far", None));
    assert!(e.contains("not beside it"), "{e}");
    let e = t.refused("use_feature", horde("near", Some("Longbow")));
    assert!(e.contains("same weapon"), "{e}");
    let e = t.refused("use_feature", horde("past", None));
    assert!(e.contains("reach"), "{e}");

    // The goblin beside both: one more Shortsword attack, free.
    let report = t.ok("use_feature", horde("near", None));
    let strike = &report["strikes"][0];
    assert_eq!(strike["target"], "near", "{report}");
    assert_eq!(strike["attacks"][0]["attack"], "Shortsword", "{report}");
    assert_eq!(t.state.encounter.as_ref().unwrap().budget, budget);
    let rolls = t.log.rolls.len();
    assert!(rolls >= 2, "two attack rolls: {:?}", t.log.rolls);

    // Once a turn.
    let e = t.refused("use_feature", horde("near", None));
    assert!(e.contains("once a turn"), "{e}");
    // The records end with Sira's turn.
    t.ok("next_turn", json!({}));
    let sira = t.state.character("sira").unwrap();
    assert!(
        sira.timed_effects
            .iter()
            .all(|e| !matches!(e.kind, TimedKind::Struck { .. } | TimedKind::UsedThisTurn)),
        "{:?}",
        sira.timed_effects
    );
}

#[test]
fn horde_breaker_is_the_hunters_who_chose_it_and_on_their_turn() {
    // A Colossus Slayer has no Horde Breaker.
    let mut state = chasm(vec![sira("Colossus Slayer")], &[("near", "goblin")]);
    begin(&mut state, &["sira", "frost-harpy", "near", "isolde"], &[]);
    let mut t = Table::new(state, 1);
    t.ok("roll_attack", swing("sira", "frost-harpy", "Shortsword"));
    let e = t.refused("use_feature", horde("near", None));
    assert!(e.contains("did not choose Horde Breaker"), "{e}");
    // Not on the harpy's turn.
    let mut t = horde_fight(2);
    t.ok("roll_attack", swing("sira", "frost-harpy", "Shortsword"));
    t.ok("next_turn", json!({}));
    let e = t.refused("use_feature", horde("near", None));
    assert!(e.contains("turn"), "{e}");
}

/// Sira with `technique` beside an ogre (Large) and the harpy (Medium), the `first` to act.
fn giant_fight(technique: &str, first: &str, seed: u64) -> Table {
    let mut state = chasm(vec![sira(technique)], &[("ogre", "ogre")]);
    let mut order = vec![first];
    order.extend(
        ["sira", "frost-harpy", "ogre", "isolde"]
            .into_iter()
            .filter(|id| *id != first),
    );
    begin(&mut state, &order, &[]);
    Table::new(state, seed)
}

fn reaction_of(report: &Value) -> Value {
    report["attacks"][0]["reaction"].clone()
}

#[test]
fn giant_killer_strikes_back_at_a_large_attacker_with_the_reaction() {
    let mut t = giant_fight("Giant Killer", "ogre", 4);
    let ogre_hp = t.state.monster("ogre").unwrap().hp.current;
    let report = t.ok("roll_attack", swing("ogre", "sira", "Greatclub"));
    let reaction = reaction_of(&report);
    assert_eq!(reaction["reaction"], "Giant Killer", "{report}");
    assert!(
        reaction["outcome"]
            .as_str()
            .unwrap()
            .contains("strikes back"),
        "{reaction}"
    );
    let encounter = t.state.encounter.as_ref().unwrap();
    assert!(!encounter.has_reaction("sira"), "the reaction is spent");
    let hit = reaction["succeeded"] == true;
    let after = t.state.monster("ogre").unwrap().hp.current;
    assert_eq!(hit, after < ogre_hp, "{reaction}");
    let sira_rolls: Vec<_> = t
        .log
        .rolls
        .iter()
        .filter(|r| r.label.starts_with("Sira attacks"))
        .collect();
    assert_eq!(sira_rolls.len(), 1, "{:?}", t.log.rolls);

    // Its reaction spent, the next attack of the round brings none.
    let mut t = giant_fight("Giant Killer", "ogre", 4);
    t.apply(&[Change::Spent {
        creature: "sira".into(),
        spend: dnd_engine::rules::Spend::Reaction,
    }]);
    let report = t.ok("roll_attack", swing("ogre", "sira", "Greatclub"));
    assert!(reaction_of(&report).is_null(), "{report}");
}

#[test]
fn giant_killer_waits_for_a_big_creature_beside_the_ranger() {
    // The harpy is Medium: no Giant Killer.
    let mut t = giant_fight("Giant Killer", "frost-harpy", 4);
    let report = t.ok("roll_attack", swing("frost-harpy", "sira", "Claws"));
    assert!(!report.to_string().contains("Giant Killer"), "{report}");
    assert!(t.state.encounter.as_ref().unwrap().has_reaction("sira"));
    // A Colossus Slayer does not strike back at the ogre.
    let mut t = giant_fight("Colossus Slayer", "ogre", 4);
    let report = t.ok("roll_attack", swing("ogre", "sira", "Greatclub"));
    assert!(!report.to_string().contains("Giant Killer"), "{report}");
    // An ogre throwing a javelin from 30 ft away is not beside Sira.
    let mut state = chasm(vec![sira("Giant Killer")], &[("ogre", "ogre")]);
    let places = [("sira", at(0, 0, 0)), ("ogre", at(30, 0, 0))];
    begin(
        &mut state,
        &["ogre", "sira", "frost-harpy", "isolde"],
        &places,
    );
    let mut t = Table::new(state, 4);
    let report = t.ok("roll_attack", swing("ogre", "sira", "Javelin"));
    assert!(!report.to_string().contains("Giant Killer"), "{report}");
}

fn ritual(caster: &str, form: &str) -> Value {
    let mut call = cast(caster, "Find Familiar", None, &[]);
    call["ritual"] = json!(true);
    call["choice"] = json!(form);
    call
}

/// Wren (the Chain) with an imp called before the fight, then the fight with Wren first.
fn chained_fight(seed: u64) -> (Table, String) {
    let mut t = Table::new(chasm(vec![wren("Pact of the Chain")], &[]), seed);
    t.ok("cast_spell", ritual("wren", "imp"));
    let imp = t
        .state
        .monsters
        .iter()
        .find(|m| m.template == "imp")
        .unwrap()
        .id
        .clone();
    begin(
        &mut t.state,
        &["wren", imp.as_str(), "frost-harpy", "isolde"],
        &[],
    );
    (t, imp)
}

#[test]
fn a_chain_warlock_calls_the_special_forms_that_others_cannot() {
    for form in ["imp", "pseudodragon", "quasit", "sprite"] {
        let mut t = Table::new(chasm(vec![wren("Pact of the Chain")], &[]), 1);
        let r = t.ok("cast_spell", ritual("wren", form));
        let familiar = t.state.monsters.iter().find(|m| m.template == form);
        assert!(familiar.is_some_and(|m| m.is_summon()), "{form}: {r}");
    }
    // Isolde, a wizard who knows Find Familiar, has no pact: an owl, not an imp.
    let mut t = Table::new(chasm(Vec::new(), &[]), 1);
    Arc::make_mut(&mut t.hero_mut("isolde").spells).push("Find Familiar".into());
    let e = t.refused("cast_spell", ritual("isolde", "imp"));
    assert!(e.contains("Pact of the Chain"), "{e}");
    assert!(e.contains("bat or owl or rat"), "what is allowed: {e}");
    t.ok("cast_spell", ritual("isolde", "owl"));
}

#[test]
fn the_familiar_strikes_with_its_reaction_for_one_of_the_warlocks_attacks() {
    let (mut t, imp) = chained_fight(6);
    let harpy = t.state.monster("frost-harpy").unwrap().hp.current;
    let report = t.ok(
        "use_feature",
        use_feature("wren", "pact-of-the-chain", Some("frost-harpy"), None),
    );
    let strike = &report["strikes"][0];
    assert!(
        strike["attacker"].as_str().unwrap().starts_with("Imp"),
        "{report}"
    );
    assert_eq!(strike["attacks"][0]["attack"], "Sting", "{report}");
    let encounter = t.state.encounter.as_ref().unwrap();
    assert!(
        encounter.budget.action_used,
        "Wren's Attack action is taken"
    );
    assert!(!encounter.has_reaction(&imp), "the imp's reaction is spent");
    let hit = strike["attacks"][0]["result"]["hit"] == true;
    let after = t.state.monster("frost-harpy").unwrap().hp.current;
    assert_eq!(hit, after < harpy, "{report}");

    // Wren's one attack is spent: no second strike, and Wren cannot attack herself.
    let e = t.refused(
        "use_feature",
        use_feature("wren", "pact-of-the-chain", Some("frost-harpy"), None),
    );
    assert!(e.contains("already used the action"), "{e}");
    let e = t.refused("roll_attack", swing("wren", "frost-harpy", "Dagger"));
    assert!(e.contains("already used the action"), "{e}");
}

#[test]
fn the_familiar_needs_its_reaction_and_the_pact() {
    // The imp's reaction already spent this round.
    let (mut t, imp) = chained_fight(6);
    t.apply(&[Change::Spent {
        creature: imp.clone(),
        spend: dnd_engine::rules::Spend::Reaction,
    }]);
    let e = t.refused(
        "use_feature",
        use_feature("wren", "pact-of-the-chain", Some("frost-harpy"), None),
    );
    assert!(e.contains("reaction"), "{e}");
    // No familiar called.
    let mut state = chasm(vec![wren("Pact of the Chain")], &[]);
    begin(&mut state, &["wren", "frost-harpy", "isolde"], &[]);
    let mut t = Table::new(state, 1);
    let e = t.refused(
        "use_feature",
        use_feature("wren", "pact-of-the-chain", Some("frost-harpy"), None),
    );
    assert!(e.contains("has no familiar"), "{e}");
}

/// A scripted model plays Horde Breaker, Giant Killer's feature and the chain's familiar where
/// the rules do not allow: Isolde has none of them, Sira has not attacked, the Blade warlock
/// has no familiar to send, Giant Killer is no feature to use, and the chain warlock's turn
/// has not come. Nothing changes.
#[tokio::test]
async fn a_model_cheating_with_hunters_prey_and_the_chain_is_refused() {
    let mut before = chasm(
        vec![sira("Horde Breaker"), wren("Pact of the Blade"), {
            let mut w = wren("Pact of the Chain");
            w.id = "vesh".into();
            w.name = "Vesh".into();
            w
        }],
        &[("near", "goblin")],
    );
    begin(
        &mut before,
        &["sira", "wren", "frost-harpy", "near", "vesh", "isolde"],
        &[],
    );
    let call = |id: &str, args: Value| ToolCall::new(id, "use_feature", args);
    let cheats = vec![
        call(
            "a",
            use_feature("isolde", "hunters-prey-horde-breaker", Some("near"), None),
        ),
        call("b", horde("near", None)),
        call(
            "c",
            use_feature("wren", "pact-of-the-chain", Some("frost-harpy"), None),
        ),
        call(
            "d",
            use_feature(
                "sira",
                "hunters-prey-giant-killer",
                Some("frost-harpy"),
                None,
            ),
        ),
        call(
            "e",
            use_feature("vesh", "pact-of-the-chain", Some("frost-harpy"), None),
        ),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Sira", "Through the horde!").await;
    assert_eq!(results.len(), 5, "{results:#?}");
    for (i, want) in [
        (0, "has no feature"),
        (1, "has made none this turn"),
        (2, "not the Pact of the Chain"),
        (3, "not used through use_feature"),
        (4, "has no familiar"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert_eq!(after.characters, before.characters);
    assert_eq!(after.monsters, before.monsters);
    assert_eq!(after.encounter, before.encounter);
}

/// The special forms' stat blocks carry the SRD's numbers (checked against the 5e-database
/// files when they are beside the repository).
#[test]
fn the_special_forms_match_the_reference_numbers() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/5e-database-2014/5e-SRD-Monsters.json"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} is absent");
        return;
    };
    let reference: Vec<Value> = serde_json::from_str(&text).unwrap();
    for form in ["imp", "pseudodragon", "quasit", "sprite"] {
        let r = reference.iter().find(|m| m["index"] == form).unwrap();
        let m = Srd::bundled().monster(form).unwrap();
        assert_eq!(i64::from(m.hit_points), r["hit_points"].as_i64().unwrap());
        assert_eq!(m.hit_dice, r["hit_dice"].as_str().unwrap());
        assert_eq!(
            i64::from(m.armor_class),
            r["armor_class"][0]["value"].as_i64().unwrap()
        );
        let scores = [
            (m.abilities.strength, "strength"),
            (m.abilities.dexterity, "dexterity"),
            (m.abilities.constitution, "constitution"),
            (m.abilities.intelligence, "intelligence"),
            (m.abilities.wisdom, "wisdom"),
            (m.abilities.charisma, "charisma"),
        ];
        for (ours, key) in scores {
            assert_eq!(i64::from(ours), r[key].as_i64().unwrap(), "{form} {key}");
        }
        assert_eq!(i64::from(m.xp), r["xp"].as_i64().unwrap(), "{form}");
        let attacks: Vec<(i64, String)> = r["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| {
                let bonus = a["attack_bonus"].as_i64()?;
                Some((
                    bonus,
                    a["damage"][0]["damage_dice"].as_str()?.replace(' ', ""),
                ))
            })
            .collect();
        let ours: Vec<(i64, String)> = m
            .actions
            .iter()
            .filter_map(|a| {
                let attack = a.attack.as_ref()?;
                let dice = a.damage[0].to_string();
                let dice = dice.split(' ').next().unwrap_or_default().to_owned();
                Some((i64::from(attack.to_hit), dice))
            })
            .collect();
        assert_eq!(ours, attacks, "{form}");
    }
}

/// The imp's Sting carries its DC 11 Constitution save against 3d6 poison on a hit, as its
/// stat block's effects say.
#[test]
fn the_imps_sting_carries_its_poison_save() {
    let strike = |seed| {
        let (mut t, _) = chained_fight(seed);
        let args = use_feature("wren", "pact-of-the-chain", Some("frost-harpy"), None);
        t.ok("use_feature", args)["strikes"][0]["attacks"][0].clone()
    };
    let hit = (0..100)
        .map(strike)
        .find(|s| s["result"]["hit"] == true)
        .expect("a hit in 100 seeds");
    let save = &hit["on_hit_save"];
    assert_eq!(save["save"]["dc"], 11, "{hit}");
    // The 3d6 (half of it on a success) lands on the harpy besides the sting's own damage.
    let poison = &save["effect"][0];
    assert_eq!(poison["change"], "damage", "{hit}");
    assert_eq!(poison["target"]["id"], "frost-harpy", "{hit}");
    let most = if save["save"]["success"] == true {
        9
    } else {
        18
    };
    assert!(
        (1..=most).contains(&poison["amount"].as_i64().unwrap()),
        "{hit}"
    );
}

/// A brown bear (Large) whose first swing of its multiattack Sira's Giant Killer fells makes
/// no second swing.
#[test]
fn a_giant_felled_by_giant_killer_swings_no_more() {
    let bear_at = |seed| {
        let mut state = chasm(vec![sira("Giant Killer")], &[("bear", "brown-bear")]);
        begin(&mut state, &["bear", "sira", "frost-harpy", "isolde"], &[]);
        let mut t = Table::new(state, seed);
        Arc::make_mut(&mut t.state.monsters)
            .iter_mut()
            .find(|m| m.id == "bear")
            .unwrap()
            .hp = dnd_engine::rules::HitPoints::full(1);
        let report = t.ok(
            "roll_attack",
            json!({"attacker": "bear", "target": "sira", "attack": null, "advantage": null}),
        );
        (report, t)
    };
    let (report, t) = (0..100)
        .map(bear_at)
        .find(|(r, _)| r["attacks"][0]["reaction"]["succeeded"] == true)
        .expect("a Giant Killer hit in 100 seeds");
    assert_eq!(report["attacks"].as_array().unwrap().len(), 1, "{report}");
    assert!(!t.state.monster("bear").unwrap().is_alive());
    // Unhurt, the bear makes both swings (bite and claws), Giant Killer after the first.
    let mut state = chasm(vec![sira("Giant Killer")], &[("bear", "brown-bear")]);
    begin(&mut state, &["bear", "sira", "frost-harpy", "isolde"], &[]);
    let mut t = Table::new(state, 1);
    let report = t.ok(
        "roll_attack",
        json!({"attacker": "bear", "target": "sira", "attack": null, "advantage": null}),
    );
    let swings = report["attacks"].as_array().unwrap();
    assert_eq!(swings.len(), 2, "{report}");
    assert_eq!(
        swings[0]["reaction"]["reaction"], "Giant Killer",
        "{report}"
    );
    assert!(
        swings[1]["reaction"].is_null(),
        "one reaction a round: {report}"
    );
}
