//! Criterion benches of the rules core (`dnd_engine::rules`) and the encounter simulator.
//!
//! - `attack/resolve`: one attack resolved end to end with [`roll_attack`]: to-hit against AC
//!   (natural 20 and 1 included), critical dice, damage of two types, and a resistance;
//! - `check/skill`: one skill check with [`roll_skill_check`] (ability modifier, expertise, DC);
//! - `check/skill_advantage`: the same with advantage (two d20s);
//! - `simulate/one_combat`: one whole fight of four 3rd-level characters against six goblins
//!   from the bundled SRD, with positions: the sides start 30 ft apart, the goblins walk in
//!   (their SRD speed and reach), the wizard shoots Fire Bolt from up to 120 ft and keeps her
//!   distance, opportunity attacks and the morale rule as in the game, initiative to the last
//!   goblin (the median, times 10,000, is the cost of a 10,000-run report);
//! - `simulate/10000_combats`: a whole 10,000-run report, to check that product directly;
//! - `cast/fireball_six`: `cast_spell` of Fireball by a 5th-level wizard at six goblins through
//!   the tools, from the arguments' text to the changes applied (the slot, one damage roll, six
//!   Dexterity saves, half damage on a success), on a fresh copy of the state each time;
//! - `cast/fireball_resolve`: the same Fireball through the effects interpreter alone
//!   (`effects::resolve`: the damage roll, six saves, the changes and outcomes built), the
//!   creatures already read from the state.
//!
//! Every generator is [`seeded_rng`]`(42)` ([`dnd_engine::dice::GameRng`], ChaCha12). Run with
//! `cargo bench -p dnd-benches --bench rules`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dnd_engine::adventure::Adventure;
use dnd_engine::combat::targeting::SpellTarget;
use dnd_engine::dice::{Advantage, seeded_rng};
use dnd_engine::effects::{Caster, Casting, Subject, resolve};
use dnd_engine::rules::{
    AbilityScores, AttackProfile, AttackTarget, DamageDice, DamageType, Defenses, HitPoints,
    Proficiency, Skill, roll_attack, roll_skill_check,
};
use dnd_engine::simulator::{Combatant, Reach, Side, simulate};
use dnd_engine::srd::Srd;
use dnd_engine::state::Target;
use dnd_engine::tools::{ToolContext, ToolLimits, TurnLog, call_tool};

const SEED: u64 = 42;

/// Four 3rd-level characters: a fighter, a rogue, a wizard and a cleric, with the numbers of a
/// typical point-buy build; all move 30 ft, the three with weapons fight in melee.
fn level_three_party() -> Vec<Combatant> {
    let slashing = |c, s, b| DamageDice::new(c, s, b, DamageType::Slashing);
    vec![
        Combatant::new("Fighter", Side::Party, 28, 18)
            .with_initiative(1, 12)
            .with_saves([5, 1, 4, 0, 1, -1])
            .with_attack("Longsword", 5, &[slashing(1, 8, 3)]),
        Combatant::new("Rogue", Side::Party, 21, 14)
            .with_initiative(3, 16)
            .with_saves([-1, 5, 1, 3, 1, 0])
            .with_attack(
                "Shortsword with Sneak Attack",
                5,
                &[
                    DamageDice::new(1, 6, 3, DamageType::Piercing),
                    DamageDice::new(2, 6, 0, DamageType::Piercing),
                ],
            ),
        Combatant::new("Wizard", Side::Party, 17, 12)
            .with_initiative(2, 14)
            .with_saves([-1, 2, 1, 5, 3, 0])
            .with_magic_attack(
                "Fire Bolt",
                5,
                &[DamageDice::new(1, 10, 0, DamageType::Fire)],
            )
            .with_reach(Reach::ranged(120, 120)),
        Combatant::new("Cleric", Side::Party, 24, 18)
            .with_initiative(0, 10)
            .with_saves([1, 0, 2, 0, 5, 3])
            .with_attack(
                "Mace",
                4,
                &[DamageDice::new(1, 6, 2, DamageType::Bludgeoning)],
            ),
    ]
}

fn six_goblins() -> Vec<Combatant> {
    let goblin = Srd::bundled()
        .monster("goblin")
        .expect("the bundled SRD has the goblin");
    let goblin = Combatant::from_monster(goblin).expect("the goblin can fight");
    (1..=6)
        .map(|i| Combatant {
            name: format!("Goblin {i}"),
            ..goblin.clone()
        })
        .collect()
}

fn bench_attack(c: &mut Criterion) {
    let mut group = c.benchmark_group("attack");
    let damage = [
        DamageDice::new(1, 8, 3, DamageType::Slashing),
        DamageDice::new(1, 6, 0, DamageType::Fire),
    ];
    let attack = AttackProfile {
        attack_bonus: 5,
        damage: &damage,
        critical_range: 20,
    };
    let target = AttackTarget {
        armor_class: 13,
        defenses: Defenses {
            resistances: [DamageType::Fire].into_iter().collect(),
            ..Defenses::default()
        },
        hits_are_critical: false,
    };
    let mut rng = seeded_rng(SEED);
    group.bench_function("resolve", |b| {
        b.iter(|| {
            roll_attack(
                black_box(&attack),
                black_box(&target),
                Advantage::Normal,
                &mut rng,
            )
        });
    });
    group.finish();
}

fn bench_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    let scores = AbilityScores::new(8, 16, 12, 10, 14, 10);
    let mut rng = seeded_rng(SEED);
    group.bench_function("skill", |b| {
        b.iter(|| {
            roll_skill_check(
                black_box(&scores),
                Skill::Stealth,
                Proficiency::Expertise,
                2,
                black_box(15),
                Advantage::Normal,
                &mut rng,
            )
        });
    });
    group.bench_function("skill_advantage", |b| {
        b.iter(|| {
            roll_skill_check(
                black_box(&scores),
                Skill::Perception,
                Proficiency::Proficient,
                2,
                black_box(15),
                Advantage::Advantage,
                &mut rng,
            )
        });
    });
    group.finish();
}

fn bench_simulate(c: &mut Criterion) {
    let party = level_three_party();
    let goblins = six_goblins();
    let mut group = c.benchmark_group("simulate");
    let mut seed = 0u64;
    group.bench_function("one_combat", |b| {
        b.iter(|| {
            seed += 1;
            simulate(black_box(&party), black_box(&goblins), 1, seed).expect("valid fight")
        });
    });
    group.sample_size(10);
    group.bench_function("10000_combats", |b| {
        b.iter(|| {
            simulate(black_box(&party), black_box(&goblins), 10_000, SEED).expect("valid fight")
        });
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

fn bench_fireball(c: &mut Criterion) {
    let srd = Srd::bundled();
    let mut state = Adventure::built_in().new_game(&["isolde"]).unwrap();
    {
        let isolde = &mut Arc::make_mut(&mut state.characters)[0];
        isolde.level = 5;
        isolde.spell_slots.max[2] = 2;
        Arc::make_mut(&mut isolde.spells).push("Fireball".into());
    }
    let mut goblins = Vec::new();
    for i in 0..6 {
        let mut goblin = state.monsters[0].clone();
        goblin.id = format!("goblin-{i}");
        goblin.name = format!("Goblin {i}");
        goblin.template = "goblin".into();
        goblin.hp = HitPoints::full(100);
        goblin.revealed = true;
        goblins.push(goblin);
    }
    let targets: Vec<String> = goblins.iter().map(|g| g.id.clone()).collect();
    Arc::make_mut(&mut state.monsters).extend(goblins);
    let args = serde_json::json!({"caster": "isolde", "spell": "Fireball", "slot_level": null, "targets": targets})
        .to_string();
    let limits = ToolLimits::default();
    let mut rng = dnd_engine::dice::TurnDice::Game(seeded_rng(SEED));
    let mut group = c.benchmark_group("cast");
    let fireball = srd.spell("Fireball").unwrap();
    let caster = Caster {
        id: "isolde".into(),
        name: "Isolde Vane".into(),
        attack_bonus: 7,
        save_dc: 15,
        modifier: 4,
        level: 5,
    };
    let subjects: Vec<Subject> = state
        .monsters
        .iter()
        .filter(|m| m.id.starts_with("goblin"))
        .map(|m| Subject {
            target: Target::Monster(m.id.clone()),
            name: m.name.clone(),
            armor_class: 15,
            defenses: Defenses::default(),
            conditions: Default::default(),
            condition_immunities: Vec::new(),
            saves: [-1, 2, 0, 0, -1, -1],
            dexterity: 2,
            hp: m.hp.current,
            creature_type: Some("humanoid (goblinoid)".into()),
            at: SpellTarget {
                distance_ft: 30,
                attack: None,
                cover: None,
            },
            spared: false,
            careful: false,
        })
        .collect();
    group.bench_function("fireball_resolve", |b| {
        b.iter(|| {
            let casting = Casting {
                caster: &caster,
                source: &fireball.name,
                level: 3,
                slot: 3,
                concentration: false,
            };
            black_box(resolve(&state, casting, &subjects, &fireball.effects, &mut rng).unwrap())
        })
    });
    group.bench_function("fireball_six", |b| {
        b.iter(|| {
            let mut working = state.clone();
            let mut log = TurnLog::default();
            let mut ctx = ToolContext {
                state: &mut working,
                srd,
                rng: &mut rng,
                limits: &limits,
                log: &mut log,
            };
            let result = call_tool("cast_spell", black_box(&args), &mut ctx);
            assert!(result.ok, "{}", result.content);
            black_box(result)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_attack, bench_check, bench_simulate, bench_fireball
}
criterion_main!(benches);
