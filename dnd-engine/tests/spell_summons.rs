//! Worked examples of summoning spells through the tools, as a model calls them, with seeded
//! dice: Conjure Animals' eight wolves (CR 1/4) fight a goblin on their own initiative and the
//! fight ends with them standing; dropping concentration sends them away; Animate Dead's zombie
//! only defends itself until its caster commands it (a bonus action), then goes for the foe
//! named. And models that cheat: a beast of the wrong challenge rating, more than the slot
//! brings, a creature not in the SRD, commanding another caster's summon: each refused with
//! what is allowed, changing nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::rules::HitPoints;
use dnd_engine::state::{Change, GameState, MonsterInstance};

#[path = "support/table.rs"]
mod table;
use table::Table;

/// Hedda (who knows the summoning spells, with 3rd- and 5th-level slots) and Kraven against a
/// goblin (7 HP, AC 15) where the harpy stood; outside a fight.
fn with_goblin() -> GameState {
    let mut state = table::seen_harpy(&["hedda", "kraven"]);
    let goblin = &mut Arc::make_mut(&mut state.monsters)[0];
    goblin.id = "goblin".into();
    goblin.name = "Goblin".into();
    goblin.template = "goblin".into();
    goblin.hp = HitPoints::full(7);
    goblin.armor_class = 15;
    goblin.area = None;
    let hedda = table::hero_mut(&mut state, "hedda");
    Arc::make_mut(&mut hedda.spells).extend(
        ["Conjure Animals", "Animate Dead", "Bless"]
            .iter()
            .map(|s| (*s).to_owned()),
    );
    hedda.spell_slots.max[2] = 2;
    hedda.spell_slots.max[4] = 1;
    state
}

fn summon(caster: &str, spell: &str, slot: Option<u8>, choice: Option<&str>) -> Value {
    json!({"caster": caster, "spell": spell, "slot_level": slot, "targets": [], "aim": null,
        "ritual": null, "choice": choice})
}

fn summons_of<'s>(state: &'s GameState, caster: &str) -> Vec<&'s MonsterInstance> {
    state
        .monsters
        .iter()
        .filter(|m| m.is_summon() && m.summoned.as_ref().is_some_and(|s| s.by == caster))
        .collect()
}

/// In a fight with Hedda first, the goblin next and Kraven last.
fn goblin_fight(seed: u64) -> Table {
    let mut state = with_goblin();
    state
        .apply(&Change::EncounterStarted {
            order: table::order(&["hedda", "goblin", "kraven"]),
        })
        .unwrap();
    Table::new(state, seed)
}

#[test]
fn conjured_wolves_fight_the_goblin_on_their_own_initiative_and_the_fight_ends() {
    let mut t = goblin_fight(7);
    let r = t.ok(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("wolf")),
    );
    let wolves = summons_of(&t.state, "hedda");
    // Eight beasts of CR 1/4 or lower; a wolf has 11 HP and AC 13 (the SRD).
    assert_eq!(wolves.len(), 8, "{r}");
    assert!(
        wolves
            .iter()
            .all(|w| !w.hostile && w.hp.max == 11 && w.armor_class == 13)
    );
    assert_eq!(r["concentrating"], true);
    let created = r["lasting"][0]["creatures"].as_array().unwrap().len();
    assert_eq!(created, 8, "{r}");
    // One initiative for the group, in the order.
    let order = &t.state.encounter.as_ref().unwrap().order;
    let totals: Vec<i32> = order
        .iter()
        .filter(|s| s.id.starts_with("wolf-hedda-"))
        .map(|s| s.initiative)
        .collect();
    assert_eq!(totals.len(), 8);
    assert!(totals.iter().all(|t| *t == totals[0]));
    assert_eq!(t.turn_of(), "hedda", "the turn stays Hedda's");
    // The turns pass: the goblin and the wolves are played by code; the heroes do nothing.
    let mut log = String::new();
    for _ in 0..6 {
        if t.state.monster("goblin").unwrap().hp.current == 0 {
            break;
        }
        log.push_str(&t.ok("next_turn", json!({})).to_string());
    }
    assert_eq!(t.state.monster("goblin").unwrap().hp.current, 0, "{log}");
    assert!(
        log.contains("\"attacker\":\"Wolf"),
        "a wolf attacked: {log}"
    );
    // The wolves still stand, yet the fight may end: they are on the party's side. Only the
    // goblin's XP counts.
    let ended = t.ok("end_encounter", json!({}));
    assert_eq!(ended["xp_from_defeated"], 50, "{ended}");
}

#[test]
fn dropping_concentration_sends_the_beasts_away_and_a_beast_at_0_hp_is_gone() {
    let mut t = goblin_fight(3);
    t.ok(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("2 wolf")),
    );
    assert_eq!(summons_of(&t.state, "hedda").len(), 2);
    // A beast at 0 HP vanishes: no corpse, the other stays.
    t.apply(&[Change::Damage {
        target: dnd_engine::state::Target::Monster("wolf-hedda-1".into()),
        amount: 11,
        critical: false,
    }]);
    let gone = t.state.monster("wolf-hedda-1").unwrap();
    assert!(gone.summoned.as_ref().unwrap().gone && gone.hp.current == 0);
    assert_eq!(summons_of(&t.state, "hedda").len(), 1);
    // Hedda's next turn: she casts Bless, another concentration spell; the last wolf goes.
    t.ok("next_turn", json!({}));
    while t.turn_of() != "hedda" {
        t.ok("next_turn", json!({}));
    }
    t.ok(
        "cast_spell",
        json!({"caster": "hedda", "spell": "Bless", "slot_level": null,
            "targets": ["hedda", "kraven"], "aim": null, "ritual": null, "choice": null}),
    );
    assert!(summons_of(&t.state, "hedda").is_empty());
    let snapshot = t.state.snapshot().to_json();
    assert!(!snapshot.contains("wolf-hedda-2"), "{snapshot}");
}

/// Hedda animates a zombie outside a fight (a minute's casting), then the fight starts with
/// Hedda at the chasm's mouth, the zombie 5 ft from her and the harpy 15 ft past it.
fn zombie_fight(seed: u64) -> Table {
    let mut t = Table::new(table::seen_harpy(&["hedda", "kraven"]), seed);
    let hedda = t.hero_mut("hedda");
    Arc::make_mut(&mut hedda.spells).push("Animate Dead".into());
    hedda.spell_slots.max[2] = 1;
    let r = t.ok(
        "cast_spell",
        summon("hedda", "Animate Dead", None, Some("zombie")),
    );
    assert_eq!(r["lasting"][0]["creatures"][0], "zombie-hedda-1", "{r}");
    table::add_far_ledge(&mut t.state);
    t.apply(&[
        Change::EncounterStarted {
            order: table::order(&["hedda", "zombie-hedda-1", "frost-harpy", "kraven"]),
        },
        Change::Moved {
            creature: "hedda".into(),
            to: table::at(0, 0, 0),
        },
        Change::Moved {
            creature: "zombie-hedda-1".into(),
            to: table::at(5, 0, 0),
        },
        Change::Moved {
            creature: "frost-harpy".into(),
            to: table::at(20, 0, 0),
        },
        Change::Moved {
            creature: "kraven".into(),
            to: table::at(0, 0, 0),
        },
    ]);
    t
}

#[test]
fn animate_deads_zombie_defends_itself_until_commanded_then_goes_for_the_foe_named() {
    // Uncommanded, the harpy 15 ft away is out of its reach: it stays and does nothing.
    let mut idle = zombie_fight(5);
    let passed = idle.ok("next_turn", json!({}));
    let zombie_turn = &passed["monster_turns"][0];
    assert_eq!(zombie_turn["monster"], "zombie-hedda-1", "{passed}");
    assert!(zombie_turn["no_target"].is_string(), "{passed}");
    // Commanded (Hedda's bonus action), it closes in and attacks the harpy.
    let mut t = zombie_fight(5);
    let done = t.ok(
        "command_summon",
        json!({"caster": "hedda", "summon": "zombie-hedda-1", "target": "frost-harpy"}),
    );
    assert_eq!(done["action"], "command_summon", "{done}");
    assert!(t.state.encounter.as_ref().unwrap().budget.bonus_action_used);
    // A second command this turn needs a second bonus action: refused.
    let e = t.refused(
        "command_summon",
        json!({"caster": "hedda", "summon": "zombie-hedda-1", "target": "frost-harpy"}),
    );
    assert!(e.contains("bonus action"), "{e}");
    let passed = t.ok("next_turn", json!({})).to_string();
    assert!(
        passed.contains("\"monster\":\"zombie-hedda-1\",\"moves\""),
        "{passed}"
    );
    assert!(
        passed.contains("\"attacker\":\"Zombie 1 (Hedda Stonebrow)\""),
        "{passed}"
    );
    // The command was for that turn.
    let z = t.state.monster("zombie-hedda-1").unwrap();
    assert_eq!(z.summoned.as_ref().unwrap().command, None);
}

/// A model that cheats with summonings: each refused with what is allowed, changing nothing
/// (no slot spent, no creature made).
#[test]
fn a_cheating_model_cannot_summon_or_command_outside_the_rules() {
    let mut t = goblin_fight(1);
    // A beast of challenge rating 4 (an elephant) is not among the options.
    let e = t.refused(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("elephant")),
    );
    assert!(e.contains("Allowed: 1 beast of CR 2 or lower"), "{e}");
    // Not a beast.
    let e = t.refused(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("goblin")),
    );
    assert!(e.contains("type beast") && e.contains("humanoid"), "{e}");
    // Nine wolves: a 3rd-level slot brings eight.
    let e = t.refused(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("9 wolf")),
    );
    assert!(e.contains("at most 8 Wolf"), "{e}");
    // Not in the SRD.
    let e = t.refused(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("dire owlbear")),
    );
    assert!(e.contains("not a creature of the SRD"), "{e}");
    // Animate Dead (a minute's casting, outside the fight) raises a skeleton or a zombie,
    // nothing else.
    let mut calm = Table::new(with_goblin(), 1);
    let e = calm.refused(
        "cast_spell",
        summon("hedda", "Animate Dead", None, Some("ghoul")),
    );
    assert!(e.contains("1 skeleton or zombie"), "{e}");
    // A 5th-level slot brings sixteen wolves (twice as many).
    let r = t.ok(
        "cast_spell",
        summon("hedda", "Conjure Animals", Some(5), Some("wolf")),
    );
    assert_eq!(r["lasting"][0]["creatures"].as_array().unwrap().len(), 16);
    // Kraven commands Hedda's wolf: it is not his.
    let e = t.refused(
        "command_summon",
        json!({"caster": "kraven", "summon": "wolf-hedda-1", "target": "goblin"}),
    );
    assert!(
        e.contains("not a summoned creature of Kraven") && e.contains("none"),
        "{e}"
    );
    // Hedda commands it at her own ally.
    let e = t.refused(
        "command_summon",
        json!({"caster": "hedda", "summon": "wolf-hedda-1", "target": "kraven"}),
    );
    assert!(e.contains("foes: goblin"), "{e}");
}

#[test]
fn beasts_conjured_before_a_fight_join_it_as_one_group_in_the_order() {
    let mut t = Table::new(with_goblin(), 11);
    t.ok(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("2 wolf")),
    );
    let started = t.ok(
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    let order = &t.state.encounter.as_ref().unwrap().order;
    let at = |id: &str| order.iter().position(|s| s.id == id).unwrap();
    assert_eq!(at("wolf-hedda-2"), at("wolf-hedda-1") + 1, "{started}");
    assert_eq!(
        order[at("wolf-hedda-1")].initiative,
        order[at("wolf-hedda-2")].initiative
    );
    assert!(order.iter().any(|s| s.id == "goblin"));
    let snapshot = t.state.snapshot().to_json();
    assert!(
        snapshot.contains("\"summoned_by\":\"hedda (Conjure Animals)\""),
        "{snapshot}"
    );
}

#[test]
fn summons_go_along_when_the_party_moves() {
    let mut t = Table::new(with_goblin(), 2);
    t.ok(
        "cast_spell",
        summon("hedda", "Conjure Animals", None, Some("2 wolf")),
    );
    t.apply(&[Change::PartyMoved {
        exit: "east".into(),
    }]);
    let wolves = summons_of(&t.state, "hedda");
    assert_eq!(wolves.len(), 2);
    assert!(wolves.iter().all(|w| w.location == "hall-of-echoes"));
    assert_eq!(t.state.monster("goblin").unwrap().location, "ice-chasm");
}

/// The same cheats from a model through a whole turn (`GameMaster` with a scripted provider):
/// the wrong beasts and too many are refused with what is allowed and spend nothing; the
/// lawful casting that follows spends one 3rd-level slot and brings eight wolves; commanding
/// them as Kraven is refused.
#[tokio::test]
async fn a_cheating_provider_cannot_summon_or_command_outside_the_rules() {
    let before = goblin_fight(1).state;
    let call = |id: &str, tool: &str, args: Value| dnd_engine::llm::ToolCall::new(id, tool, args);
    let calls = vec![
        call(
            "a",
            "cast_spell",
            summon("hedda", "Conjure Animals", None, Some("elephant")),
        ),
        call(
            "b",
            "cast_spell",
            summon("hedda", "Conjure Animals", None, Some("12 wolf")),
        ),
        call(
            "c",
            "cast_spell",
            summon("hedda", "Conjure Animals", None, Some("wolf")),
        ),
        call(
            "d",
            "command_summon",
            json!({"caster": "kraven", "summon": "wolf-hedda-1", "target": "goblin"}),
        ),
    ];
    let played = table::scripted_turn(&before, calls, "Hedda", "Wolves, to me!").await;
    let r = &played.results;
    assert_eq!(r.len(), 4, "{r:#?}");
    assert!(r[0].contains("8 beast of CR 1/4 or lower"), "{}", r[0]);
    assert!(r[1].contains("at most 8 Wolf"), "{}", r[1]);
    assert!(r[2].contains("wolf-hedda-8"), "{}", r[2]);
    assert!(
        r[3].contains("not a summoned creature of Kraven"),
        "{}",
        r[3]
    );
    let slots = |s: &GameState| s.character("hedda").unwrap().spell_slots;
    let mut expected = slots(&before);
    expected.spent[2] += 1;
    assert_eq!(slots(&played.after), expected);
    assert_eq!(summons_of(&played.after, "hedda").len(), 8);
}

#[test]
fn a_familiar_comes_one_at_a_time_fights_no_one_and_cannot_be_commanded_to() {
    let mut t = Table::new(with_goblin(), 4);
    Arc::make_mut(&mut t.hero_mut("hedda").spells).push("Find Familiar".into());
    let e = t.refused(
        "cast_spell",
        summon("hedda", "Find Familiar", None, Some("wolf")),
    );
    assert!(e.contains("1 bat or owl or rat"), "{e}");
    t.ok(
        "cast_spell",
        summon("hedda", "Find Familiar", None, Some("owl")),
    );
    // A second casting sends the owl away: a rat now, and only one familiar.
    let r = t.ok(
        "cast_spell",
        summon("hedda", "Find Familiar", None, Some("rat")),
    );
    let familiars = summons_of(&t.state, "hedda");
    assert_eq!(familiars.len(), 1, "{r}");
    let rat = familiars[0].id.clone();
    assert_eq!(familiars[0].template, "rat");
    assert!(
        t.state
            .monster("owl-hedda-1")
            .unwrap()
            .summoned
            .as_ref()
            .unwrap()
            .gone
    );
    // In a fight it has its own turn and takes no attack; it cannot be commanded at a foe.
    t.ok(
        "start_encounter",
        json!({"monsters": null, "sneaking": null}),
    );
    let e = t.refused(
        "command_summon",
        json!({"caster": "hedda", "summon": rat, "target": "goblin"}),
    );
    assert!(e.contains("cannot attack"), "{e}");
    let mut log = String::new();
    for _ in 0..4 {
        log.push_str(&t.ok("next_turn", json!({})).to_string());
    }
    assert!(
        log.contains(&format!("\"monster\":\"{rat}\",\"no_target\"")),
        "{log}"
    );
    assert!(!log.contains("\"attacker\":\"Rat"), "{log}");
}
