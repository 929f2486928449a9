//! Legendary actions and Legendary Resistance on 5e-database monsters (the bundled ones have
//! none), read by the loader and played by the engine: the adult red dragon's Tail Attack at
//! the end of another creature's turn, three a round, back at the start of its turn; the
//! lich turning a failed save against Bane into a success, three times a day. These tests read
//! `/work/shared/reference` and skip with a printed reason when it is absent.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::legendary::{self, LEGENDARY_ACTIONS, PER_ROUND};
use dnd_engine::dice::{TurnDice, seeded_rng};
use dnd_engine::effects::LEGENDARY_RESISTANCE;
use dnd_engine::rules::HitPoints;
use dnd_engine::srd::{Srd, load_dir};
use dnd_engine::state::{Change, GameState};
use dnd_engine::tools::{ToolContext, ToolLimits, TurnLog, call_tool};

#[path = "support/environment.rs"]
mod environment;
#[path = "support/table.rs"]
mod table;

/// The 5e-database monsters with the bundled spells (which carry effects data), or `None`
/// when the reference folder is absent.
fn srd() -> Option<Srd> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/5e-database-2014"
    ));
    if !dir.is_dir() {
        environment::missing(&format!(
            "{} is absent: the 5e-database reference files live beside the repository",
            dir.display()
        ));
        return None;
    }
    let db = load_dir(&dir).expect("the reference folder loads");
    let mut srd = Srd::bundled().clone();
    srd.monsters = db.monsters.loaded;
    Some(srd)
}

struct Game {
    state: GameState,
    srd: Srd,
    rng: TurnDice,
    log: TurnLog,
}

impl Game {
    /// Kraven, Isolde and Hedda (500 HP each) against `template` in the harpy's place, with
    /// the Legendary Resistance its stat block gives (as a new game copies it), in `order`.
    fn new(srd: Srd, template: &str, order: &[&str], seed: u64) -> Game {
        let mut state = table::seen_harpy(&["kraven", "isolde", "hedda"]);
        let block = srd.monster(template).unwrap().clone();
        let m = &mut Arc::make_mut(&mut state.monsters)[0];
        m.template = block.slug.clone();
        m.hp = HitPoints::full(block.hit_points);
        m.armor_class = block.armor_class;
        m.legendary_resistance = block.legendary_resistance.unwrap_or(0);
        for hero in ["kraven", "isolde", "hedda"] {
            table::hero_mut(&mut state, hero).hp = HitPoints::full(500);
        }
        state
            .apply(&Change::EncounterStarted {
                order: table::order(order),
            })
            .unwrap();
        Game {
            state,
            srd,
            rng: TurnDice::Game(seeded_rng(seed)),
            log: TurnLog::default(),
        }
    }

    fn ok(&mut self, name: &str, args: Value) -> Value {
        let limits = ToolLimits::default();
        let mut ctx = ToolContext {
            state: &mut self.state,
            srd: &self.srd,
            rng: &mut self.rng,
            limits: &limits,
            log: &mut self.log,
        };
        let r = call_tool(name, &args.to_string(), &mut ctx);
        assert!(r.ok, "{name}: {}", r.content);
        r.content
    }

    fn spent(&self, pool: &str) -> u8 {
        let m = self.state.monster("frost-harpy").unwrap();
        m.uses_spent
            .get(&pool.to_ascii_lowercase())
            .copied()
            .unwrap_or(0)
    }
}

#[test]
fn the_loader_reads_legendary_actions_and_resistance() {
    let Some(srd) = srd() else { return };
    let dragon = srd.monster("adult-red-dragon").unwrap();
    assert_eq!(dragon.legendary_resistance, Some(3));
    let (action, attack) = legendary::legendary_attack(dragon).unwrap();
    assert_eq!(
        (action.name.as_str(), attack.name.as_str()),
        ("Tail Attack", "Tail")
    );
    let wing = dragon
        .legendary_actions
        .iter()
        .find(|a| a.name.starts_with("Wing Attack"))
        .unwrap();
    assert_eq!(wing.cost, Some(2));
    let lich = srd.monster("lich").unwrap();
    let (touch, _) = legendary::legendary_attack(lich).unwrap();
    assert_eq!(
        (touch.name.as_str(), touch.cost),
        ("Paralyzing Touch", Some(2))
    );
}

#[test]
fn the_dragon_lashes_its_tail_at_the_end_of_other_turns_three_a_round() {
    let Some(srd) = srd() else { return };
    let mut g = Game::new(
        srd,
        "adult-red-dragon",
        &["kraven", "frost-harpy", "isolde"],
        5,
    );
    // One hero in reach: its wings would buffet no more than its tail strikes.
    for hero in ["isolde", "hedda"] {
        table::hero_mut(&mut g.state, hero).location = "elsewhere".into();
    }
    let r = g.ok("next_turn", json!({})); // Kraven's turn ends; the dragon's; Isolde's begins
    let events = r["monster_turns"].as_array().unwrap();
    assert_eq!(events[0]["legendary"], "Tail Attack", "{r}");
    assert_eq!(events[0]["attack"]["attacks"][0]["attack"], "Tail");
    // Its own turn gave back the one it spent.
    assert_eq!(g.spent(LEGENDARY_ACTIONS), 0, "{r}");
    // Isolde's turn ends: another; Kraven's ends: a third... then none until its turn.
    g.ok("next_turn", json!({}));
    assert_eq!(g.spent(LEGENDARY_ACTIONS), 1);
    let spend = Change::UseSpent {
        monster: "frost-harpy".into(),
        pool: LEGENDARY_ACTIONS.into(),
        of: PER_ROUND,
    };
    g.state.apply_all(&[spend.clone(), spend.clone()]).unwrap();
    assert!(g.state.apply(&spend).is_err(), "three a round");
    let r = g.ok("next_turn", json!({})); // Kraven's turn ends: all three spent
    let events = r["monster_turns"].as_array().unwrap();
    assert!(events[0].get("legendary").is_none(), "none left: {r}");
    assert_eq!(
        g.spent(LEGENDARY_ACTIONS),
        0,
        "back at the start of its turn"
    );
}

/// The adult red dragon's Wing Attack (Costs 2 Actions): "Each creature within 10 ft. of the
/// dragon must succeed on a DC 22 Dexterity saving throw or take 15 (2d6 + 8) bludgeoning
/// damage and be knocked prone." With the three heroes beside it (no positions: 5 ft), it
/// beats its wings at the end of Kraven's turn, two of the round's three spent; at the end of
/// the next turn only one is left, for its tail.
#[test]
fn the_dragon_beats_its_wings_at_the_heroes_beside_it_for_two_actions() {
    let Some(srd) = srd() else { return };
    let wing = srd
        .monster("adult-red-dragon")
        .unwrap()
        .legendary_actions
        .iter()
        .find(|a| a.name == "Wing Attack")
        .unwrap()
        .clone();
    assert_eq!(legendary::area_ft(&wing), Some(10));
    let mut g = Game::new(
        srd,
        "adult-red-dragon",
        &["kraven", "isolde", "frost-harpy"],
        7,
    );
    let before: Vec<u32> = ["kraven", "isolde", "hedda"]
        .iter()
        .map(|h| g.state.character(h).unwrap().hp.current)
        .collect();
    let r = g.ok("next_turn", json!({})); // Kraven's turn ends
    let events = r["monster_turns"].as_array().unwrap();
    let wings = &events[0];
    assert_eq!(wings["action"], "Wing Attack", "{r}");
    assert_eq!(wings["legendary"], true, "{r}");
    let saves = wings["saves"].as_array().unwrap();
    assert_eq!(saves.len(), 3, "{r}");
    assert_eq!(g.spent(LEGENDARY_ACTIONS), 2);
    for (s, hp) in saves.iter().zip(&before) {
        assert_eq!(s["save"]["dc"], 22, "{s}");
        let id = s["target"].as_str().unwrap().to_ascii_lowercase();
        let hero = g.state.character(&id).unwrap();
        let failed = s["save"]["success"] == false;
        // A failure: 2d6+8 bludgeoning (10 to 20) and prone; a success: nothing at all.
        let lost = hp - hero.hp.current;
        if failed {
            assert!((10..=20).contains(&lost), "{s}");
            assert!(
                hero.conditions.has(dnd_engine::rules::Condition::Prone),
                "{s}"
            );
        } else {
            assert_eq!(lost, 0, "{s}");
        }
    }
    // Isolde's turn ends: one left, too few for the wings: the tail; then the dragon's own
    // turn gives all three back.
    let r = g.ok("next_turn", json!({}));
    let events = r["monster_turns"].as_array().unwrap();
    assert_eq!(events[0]["legendary"], "Tail Attack", "{r}");
    assert_eq!(g.spent(LEGENDARY_ACTIONS), 0);
}

#[test]
fn the_lich_shrugs_off_bane_three_times_a_day() {
    let Some(srd) = srd() else { return };
    let (mut resisted, mut stood) = (0, 0);
    for seed in 0..40 {
        let mut g = Game::new(
            srd.clone(),
            "lich",
            &["hedda", "frost-harpy", "kraven"],
            seed,
        );
        Arc::make_mut(&mut table::hero_mut(&mut g.state, "hedda").spells).push("Bane".into());
        // On half the seeds the lich has used its three already.
        let used = seed % 2 == 1;
        if used {
            let spend = Change::UseSpent {
                monster: "frost-harpy".into(),
                pool: LEGENDARY_RESISTANCE.into(),
                of: 3,
            };
            g.state
                .apply_all(&[spend.clone(), spend.clone(), spend])
                .unwrap();
        }
        let r = g.ok(
            "cast_spell",
            json!({"caster": "hedda", "spell": "Bane", "slot_level": null, "targets": ["frost-harpy"]}),
        );
        let save = &r["effects"][0]["save"];
        let failed_by_dice = save["total"].as_i64().unwrap() < save["dc"].as_i64().unwrap();
        if !failed_by_dice {
            continue;
        }
        let baned = !g
            .state
            .monster("frost-harpy")
            .unwrap()
            .timed_effects
            .is_empty();
        if used {
            assert!(baned, "no use left: the failure stands: {r}");
            stood += 1;
        } else {
            assert_eq!(save["success"], true, "it chooses to succeed: {r}");
            assert!(!baned, "{r}");
            assert_eq!(g.spent(LEGENDARY_RESISTANCE), 1);
            resisted += 1;
        }
    }
    assert!(
        resisted > 0 && stood > 0,
        "{resisted} resisted, {stood} stood"
    );
}

/// A model that makes the dragon lash its tail on Kraven's turn itself, as if it were a
/// legendary action: refused (legendary actions are the engine's, at the end of a turn), and
/// nothing is spent or dealt.
#[test]
fn a_legendary_attack_named_by_a_model_is_refused() {
    let Some(srd) = srd() else { return };
    let mut g = Game::new(
        srd,
        "adult-red-dragon",
        &["kraven", "frost-harpy", "isolde"],
        5,
    );
    let before = g.state.clone();
    let limits = ToolLimits::default();
    let mut ctx = ToolContext {
        state: &mut g.state,
        srd: &g.srd,
        rng: &mut g.rng,
        limits: &limits,
        log: &mut g.log,
    };
    let args =
        json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Tail", "advantage": null});
    let r = call_tool("roll_attack", &args.to_string(), &mut ctx);
    assert!(!r.ok, "{}", r.content);
    assert!(r.content.to_string().contains("turn"), "{}", r.content);
    assert_eq!(*ctx.state, before);
    // Nor can a model play the Wing Attack as an attack of its own: it is no attack, and the
    // engine takes it at the end of a turn for its cost.
    let args = json!({"attacker": "frost-harpy", "target": "kraven", "attack": "Wing Attack", "advantage": null});
    let r = call_tool("roll_attack", &args.to_string(), &mut ctx);
    assert!(!r.ok, "{}", r.content);
    assert_eq!(g.state, before);
}
