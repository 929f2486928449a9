//! Criterion benches of the dice engine (`dnd_engine::dice`), against a peer crate and a
//! hand-written floor.
//!
//! For each expression of [`CASES`] (Roll20 dialect) one benchmark group, named after the
//! expression, measures:
//!
//! - `ours_parse_roll_total` / `ours_parse_roll`: [`DiceExpr::parse_with`] then
//!   [`DiceExpr::roll_total`] (fast path) or [`DiceExpr::roll`] (every die recorded);
//! - `ours_roll_total` / `ours_roll`: the same with the expression parsed once, outside the loop;
//! - `tyche_parse_roll`: the peer crate `tyche` parsing with its parser built once outside the
//!   loop (as tyche's own benches do), then `eval` + `calc`;
//! - `tyche_fromstr_roll`: the same through `str::parse::<tyche::Expr>()`, tyche's documented
//!   convenience path (it lowercases the input and builds the parser on every call);
//! - `tyche_roll`: `eval` + `calc` of a pre-parsed tyche expression (tyche always keeps the
//!   full record: it has no total-only path);
//! - `floor`: plain Rust rolling the same dice directly, the cost no engine can beat.
//!
//! The group `baseline` has the cost of one bare d20 (`die(rng, 20)`), and the group
//! `distribution` the exact distribution ([`DiceExpr::distribution`]) of `8d6`, `4d6kh3` and
//! `10d10!`.
//!
//! Every contestant draws its faces from the same generator, [`GameRng`] (ChaCha12) seeded
//! with [`seeded_rng`]`(42)`: tyche is given a [`Roller`](tyche::dice::Roller) over it instead
//! of its default wyrand-based `FastRand`, so the comparison measures the engines, not the
//! generators. Run with `cargo bench -p dnd-benches --bench dice`, then
//! `python3 benches/scripts/report.py` for the table of medians and ratios (set
//! `CRITERION_HOME` for both to keep a run apart from others sharing `target/criterion`).
//! Before measuring, each case checks that tyche's spelling and the floor roll the same thing
//! as our expression (their sample means against our exact mean).

use std::hint::black_box;
use std::time::Duration;

use chumsky::Parser as _;
use criterion::{Criterion, criterion_group, criterion_main};
use dnd_engine::dice::{Dialect, DiceExpr, GameRng, seeded_rng};
use rand::distr::uniform::{UniformInt, UniformSampler};
use tyche::dice::{DieRoll, Roller};

/// Seed of every generator in these benches.
const SEED: u64 = 42;

/// One expression as we write it, as tyche writes it, and rolled by hand.
struct Case {
    /// Roll20 notation, parsed by our engine.
    ours: &'static str,
    /// tyche's spelling of the same roll.
    tyche: &'static str,
    /// The same roll written directly against the generator.
    floor: fn(&mut GameRng) -> i64,
}

/// One die rolled by hand the way the engine's `DieSource` does it: rand's `u32` sampler
/// through its inlinable entry point (the same draws as `rng.random_range(1..=sides)`, without
/// its assertion and call).
#[inline(always)]
fn die(rng: &mut GameRng, sides: u32) -> i64 {
    i64::from(UniformInt::<u32>::sample_single_inclusive(1, sides, rng).unwrap_or(0))
}

/// The expressions measured. tyche 0.3 spells some modifiers differently (noted per case);
/// all seven are supported by it with the same meaning.
const CASES: &[Case] = &[
    Case {
        ours: "1d20+5",
        tyche: "1d20+5",
        floor: |rng| die(rng, 20) + 5,
    },
    Case {
        ours: "8d6",
        tyche: "8d6",
        floor: |rng| (0..8).map(|_| die(rng, 6)).sum(),
    },
    Case {
        ours: "4d6kh3",
        tyche: "4d6kh3",
        floor: |rng| {
            let d = [die(rng, 6), die(rng, 6), die(rng, 6), die(rng, 6)];
            d.iter().sum::<i64>() - d.iter().min().copied().unwrap_or(0)
        },
    },
    Case {
        ours: "2d20kh1+7",
        tyche: "2d20kh1+7",
        floor: |rng| die(rng, 20).max(die(rng, 20)) + 7,
    },
    // Roll20's `ro<3` rerolls once on 3 or less; tyche's reroll-once is `r` and its `<` is
    // strict, so the same roll is `r<=3`.
    Case {
        ours: "1d20ro<3+4",
        tyche: "1d20r<=3+4",
        floor: |rng| {
            let d = die(rng, 20);
            (if d <= 3 { die(rng, 20) } else { d }) + 4
        },
    },
    // Roll20's `!` explodes on the highest face, again and again; tyche's is `x` (recursive;
    // `xo` would explode once).
    Case {
        ours: "10d10!",
        tyche: "10d10x",
        floor: |rng| {
            let mut total = 0;
            for _ in 0..10 {
                loop {
                    let d = die(rng, 10);
                    total += d;
                    if d != 10 {
                        break;
                    }
                }
            }
            total
        },
    },
    Case {
        ours: "(1d4+1)*3",
        tyche: "(1d4+1)*3",
        floor: |rng| (die(rng, 4) + 1) * 3,
    },
];

/// Expressions whose exact distribution is measured.
const DISTRIBUTIONS: &[&str] = &["8d6", "4d6kh3", "10d10!"];

/// tyche's dice drawn from our generator, so both engines pay for the same random numbers.
struct TycheRoller(GameRng);

impl Roller for TycheRoller {
    #[inline]
    fn roll_die(&mut self, sides: u8) -> DieRoll {
        // The same sampler as ours and the floor's; a die has at least one side.
        DieRoll::new(die(&mut self.0, u32::from(sides)) as u8)
    }
}

fn parse(text: &str) -> DiceExpr {
    DiceExpr::parse_with(text, Dialect::Roll20).expect("benchmark expression parses")
}

/// Checks, before measuring, that tyche's spelling and the hand-written floor roll the same
/// thing as our expression: the mean of many of their rolls must match the exact mean of our
/// distribution (tolerance 0.05 standard deviations, about 7 standard errors).
fn check_case(case: &Case, tyche_expr: &tyche::Expr) {
    const N: usize = 20_000;
    let exact = parse(case.ours)
        .distribution()
        .expect("benchmark expression has a distribution");
    let tolerance = 0.05 * exact.std_dev();
    let mut roller = TycheRoller(seeded_rng(SEED + 1));
    let tyche_mean = (0..N)
        .map(|_| f64::from(tyche_expr.eval(&mut roller).unwrap().calc().unwrap()))
        .sum::<f64>()
        / N as f64;
    let mut rng = seeded_rng(SEED + 2);
    let floor_mean = (0..N).map(|_| (case.floor)(&mut rng) as f64).sum::<f64>() / N as f64;
    for (who, mean) in [("tyche", tyche_mean), ("floor", floor_mean)] {
        assert!(
            (mean - exact.mean()).abs() < tolerance,
            "{who} does not roll {}: mean {mean:.3}, exact mean {:.3}",
            case.ours,
            exact.mean()
        );
    }
}

fn bench_expressions(c: &mut Criterion) {
    let tyche_parser = tyche::parser();
    for case in CASES {
        let mut group = c.benchmark_group(case.ours);

        group.bench_function("ours_parse_roll_total", |b| {
            let mut rng = seeded_rng(SEED);
            b.iter(|| {
                DiceExpr::parse_with(black_box(case.ours), Dialect::Roll20)
                    .unwrap()
                    .roll_total(&mut rng)
                    .unwrap()
            });
        });
        group.bench_function("ours_parse_roll", |b| {
            let mut rng = seeded_rng(SEED);
            b.iter(|| {
                DiceExpr::parse_with(black_box(case.ours), Dialect::Roll20)
                    .unwrap()
                    .roll(&mut rng)
                    .unwrap()
            });
        });

        let expr = parse(case.ours);
        group.bench_function("ours_roll_total", |b| {
            let mut rng = seeded_rng(SEED);
            b.iter(|| black_box(&expr).roll_total(&mut rng).unwrap());
        });
        group.bench_function("ours_roll", |b| {
            let mut rng = seeded_rng(SEED);
            b.iter(|| black_box(&expr).roll(&mut rng).unwrap());
        });

        let tyche_expr: tyche::Expr = case.tyche.parse().expect("tyche parses its spelling");
        check_case(case, &tyche_expr);
        group.bench_function("tyche_parse_roll", |b| {
            let mut roller = TycheRoller(seeded_rng(SEED));
            b.iter(|| {
                tyche_parser
                    .parse(black_box(case.tyche))
                    .into_result()
                    .unwrap()
                    .eval(&mut roller)
                    .unwrap()
                    .calc()
                    .unwrap()
            });
        });
        group.bench_function("tyche_fromstr_roll", |b| {
            let mut roller = TycheRoller(seeded_rng(SEED));
            b.iter(|| {
                black_box(case.tyche)
                    .parse::<tyche::Expr>()
                    .unwrap()
                    .eval(&mut roller)
                    .unwrap()
                    .calc()
                    .unwrap()
            });
        });
        group.bench_function("tyche_roll", |b| {
            let mut roller = TycheRoller(seeded_rng(SEED));
            b.iter(|| {
                black_box(&tyche_expr)
                    .eval(&mut roller)
                    .unwrap()
                    .calc()
                    .unwrap()
            });
        });

        group.bench_function("floor", |b| {
            let mut rng = seeded_rng(SEED);
            b.iter(|| (case.floor)(black_box(&mut rng)));
        });
        group.finish();
    }
}

fn bench_baseline(c: &mut Criterion) {
    let mut group = c.benchmark_group("baseline");
    group.bench_function("bare_d20", |b| {
        let mut rng = seeded_rng(SEED);
        b.iter(|| die(black_box(&mut rng), 20));
    });
    // A d20 from the provably fair stream (HMAC-SHA-256, eight dice a block; a new nonce
    // every five dice, as a tool call draws a few), beside ChaCha12's.
    group.bench_function("fair_d20", |b| {
        use dnd_engine::dice::DieSource;
        let seed = dnd_engine::dice::fair::ServerSeed::from_rng(&mut seeded_rng(SEED));
        let mut fair = dnd_engine::dice::FairDice::new(&seed, "bench", 1);
        let mut n = 0u32;
        b.iter(|| {
            n += 1;
            if n.is_multiple_of(5) {
                fair.take_call();
            }
            black_box(&mut fair).roll_die(20)
        });
    });
    group.finish();
}

fn bench_distributions(c: &mut Criterion) {
    let mut group = c.benchmark_group("distribution");
    for text in DISTRIBUTIONS {
        let expr = parse(text);
        group.bench_function(*text, |b| {
            b.iter(|| black_box(&expr).distribution().unwrap());
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_baseline, bench_expressions, bench_distributions
}
criterion_main!(benches);
