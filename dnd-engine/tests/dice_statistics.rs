//! Statistical tests of the dice engine, all seeded so they give the same verdict every run.
//!
//! - The dice are fair: chi-square goodness-of-fit of single dice (d20, d6, d%, dF and Avrae's
//!   tens die) against the uniform distribution, at the 0.001 level.
//! - The exact distributions are right: sampled frequencies of composite expressions fit
//!   [`Distribution`] by chi-square at the 0.001 level and by a bound on each probability.
//! - Some probabilities and means are known in closed form and must come out exactly.

use std::collections::BTreeMap;

use dnd_engine::dice::{Dialect, DiceExpr, Distribution, EXPLOSION_DEPTH, seeded_rng};

/// Upper 0.001 quantile of the chi-square distribution with `df` degrees of freedom: from the
/// table for the small counts used here, else the Wilson–Hilferty approximation (within 1% for
/// df >= 3 at this level).
fn chi_square_critical(df: usize) -> f64 {
    const TABLE: [f64; 11] = [
        0.0, 10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588,
    ];
    match df {
        19 => 43.820,
        99 => 148.230,
        d if d < TABLE.len() => TABLE[d],
        d => {
            let k = d as f64;
            let z = 3.090_232; // upper 0.001 quantile of the standard normal
            k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
        }
    }
}

/// Rolls `expr` `n` times from a seeded source and counts each total.
fn sample(expr: &DiceExpr, n: usize, seed: u64) -> BTreeMap<i64, u64> {
    let mut rng = seeded_rng(seed);
    let mut counts = BTreeMap::new();
    for _ in 0..n {
        let total = expr
            .roll_total(&mut rng)
            .unwrap_or_else(|e| panic!("{expr}: {e}"));
        *counts.entry(total).or_insert(0) += 1;
    }
    counts
}

/// Chi-square statistic of `counts` against `dist`, pooling neighbouring totals until each
/// bin expects at least 5 rolls (totals outside the distribution's range go to the edge
/// bins). Returns the statistic and the degrees of freedom.
fn chi_square(dist: &Distribution, counts: &BTreeMap<i64, u64>, n: usize) -> (f64, usize) {
    let n = n as f64;
    let mut bins: Vec<(f64, f64)> = Vec::new(); // (expected, observed)
    let (mut expected, mut observed) = (0.0, 0.0);
    for (value, p) in dist.iter() {
        expected += p * n;
        observed += *counts.get(&value).unwrap_or(&0) as f64;
        if expected >= 5.0 {
            bins.push((expected, observed));
            (expected, observed) = (0.0, 0.0);
        }
    }
    match bins.last_mut() {
        Some(last) => {
            last.0 += expected;
            last.1 += observed;
        }
        None => bins.push((expected, observed)),
    }
    let below: u64 = counts.range(..dist.min()).map(|(_, c)| c).sum();
    let above: u64 = counts.range(dist.max() + 1..).map(|(_, c)| c).sum();
    bins[0].1 += below as f64;
    let last = bins.len() - 1;
    bins[last].1 += above as f64;
    let stat = bins.iter().map(|(e, o)| (o - e).powi(2) / e).sum();
    (stat, bins.len().saturating_sub(1))
}

/// Largest difference between a sampled frequency and its exact probability, in units of the
/// sampling standard deviation (plus `slack`, for distributions that are cut on purpose).
fn worst_deviation(
    dist: &Distribution,
    counts: &BTreeMap<i64, u64>,
    n: usize,
    slack: f64,
) -> (i64, f64) {
    let n_f = n as f64;
    let lo = dist.min().min(*counts.keys().next().unwrap_or(&0));
    let hi = dist.max().max(*counts.keys().last().unwrap_or(&0));
    (lo..=hi)
        .map(|v| {
            let p = dist.probability(v);
            let freq = *counts.get(&v).unwrap_or(&0) as f64 / n_f;
            let sd = (p * (1.0 - p) / n_f).sqrt().max(1.0 / n_f);
            (v, ((freq - p).abs() - slack).max(0.0) / sd)
        })
        .fold((lo, 0.0), |a, b| if b.1 > a.1 { b } else { a })
}

fn parse(text: &str, dialect: Dialect) -> DiceExpr {
    DiceExpr::parse_with(text, dialect).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Checks that sampled totals of `text` fit its exact distribution.
fn fits_distribution(text: &str, dialect: Dialect, n: usize, seed: u64, slack: f64) {
    let expr = parse(text, dialect);
    let dist = expr
        .distribution()
        .unwrap_or_else(|e| panic!("distribution of {text}: {e}"));
    let total: f64 = dist.iter().map(|(_, p)| p).sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{text}: probabilities sum to {total}"
    );
    let counts = sample(&expr, n, seed);
    let (stat, df) = chi_square(&dist, &counts, n);
    let critical = chi_square_critical(df);
    assert!(
        stat < critical,
        "{text}: chi-square {stat:.2} with {df} degrees of freedom exceeds {critical:.2}\n\
         sampled: {counts:?}\nexact: {:?}",
        dist.iter().collect::<Vec<_>>()
    );
    let (at, sigmas) = worst_deviation(&dist, &counts, n, slack);
    assert!(
        sigmas < 5.0,
        "{text}: the frequency of {at} is {sigmas:.1} standard deviations from {}",
        dist.probability(at)
    );
    let mean = counts
        .iter()
        .map(|(v, c)| *v as f64 * *c as f64)
        .sum::<f64>()
        / n as f64;
    let se = dist.std_dev() / (n as f64).sqrt();
    assert!(
        (mean - dist.mean()).abs() < 5.0 * se + slack * (dist.max() - dist.min()) as f64,
        "{text}: sampled mean {mean} vs exact {}",
        dist.mean()
    );
}

/// Chi-square test of one die against the uniform distribution on `faces`.
fn uniform(text: &str, dialect: Dialect, faces: &[i64], n: usize, seed: u64) {
    let expr = parse(text, dialect);
    let counts = sample(&expr, n, seed);
    let unexpected: Vec<_> = counts.keys().filter(|v| !faces.contains(v)).collect();
    assert!(unexpected.is_empty(), "{text} rolled {unexpected:?}");
    let e = n as f64 / faces.len() as f64;
    let stat: f64 = faces
        .iter()
        .map(|f| (*counts.get(f).unwrap_or(&0) as f64 - e).powi(2) / e)
        .sum();
    let critical = chi_square_critical(faces.len() - 1);
    assert!(
        stat < critical,
        "{text}: chi-square {stat:.2} exceeds {critical} ({counts:?})"
    );
    // The exact distribution of one die is uniform too.
    let dist = expr.distribution().expect("one die has a distribution");
    for f in faces {
        let p = dist.probability(*f);
        assert!(
            (p - 1.0 / faces.len() as f64).abs() < 1e-12,
            "{text}: P({f}) = {p}"
        );
    }
}

#[test]
fn single_dice_are_uniform() {
    const N: usize = 200_000;
    let d20: Vec<i64> = (1..=20).collect();
    let d6: Vec<i64> = (1..=6).collect();
    let percent: Vec<i64> = (1..=100).collect();
    let tens: Vec<i64> = (0..10).map(|i| i * 10).collect();
    uniform("1d20", Dialect::Roll20, &d20, N, 1);
    uniform("d6", Dialect::Roll20, &d6, N, 2);
    uniform("1d%", Dialect::Roll20, &percent, N, 3);
    uniform("1dF", Dialect::Roll20, &[-1, 0, 1], N, 4);
    uniform("1d%", Dialect::Avrae, &tens, N, 5);
    uniform("1d20", Dialect::Avrae, &d20, N, 6);
}

#[test]
fn sampled_totals_fit_exact_distributions() {
    const N: usize = 40_000;
    let cases: &[(&str, Dialect)] = &[
        ("4d6kh3", Dialect::Roll20),
        ("2d20kh1+5", Dialect::Roll20),
        ("1d20ro<3+4", Dialect::Roll20),
        ("8d6>=5f1", Dialect::Roll20),
        ("4dF", Dialect::Roll20),
        ("3d8mi3ma7", Dialect::Roll20),
        ("(1d4, 2+2, 3d6kl1)kh1", Dialect::Avrae),
        ("4d6rr1kh3", Dialect::Avrae),
        ("2d20kl1 - 1d4", Dialect::Avrae),
        ("1d%+1d10", Dialect::Avrae),
    ];
    for (i, (text, dialect)) in cases.iter().enumerate() {
        fits_distribution(text, *dialect, N, 1000 + i as u64, 0.0);
    }
}

#[test]
fn exploding_dice_fit_their_cut_distribution() {
    // The distribution cuts each explosion chain after EXPLOSION_DEPTH extra dice; what the cut
    // moves is at most (1/6)^(depth+1) per die, so allow that much on every probability.
    let slack = 3.0 * (1.0f64 / 6.0).powi(EXPLOSION_DEPTH as i32 + 1);
    fits_distribution("3d6!", Dialect::Roll20, 40_000, 200, slack);
    fits_distribution("2d6!!", Dialect::Roll20, 40_000, 201, slack);
    fits_distribution("2d6e6", Dialect::Avrae, 40_000, 202, slack);
    // Rerolling 1s and 2s first leaves a 1 in 4 chance to explode.
    let slack_reroll = 3.0 * 0.25f64.powi(EXPLOSION_DEPTH as i32 + 1);
    fits_distribution("2d6r<2!", Dialect::Roll20, 40_000, 203, slack_reroll);
    // The uncut mean of a d6 exploding on 6 is 3.5 / (1 - 1/6) = 4.2.
    let dist = parse("3d6!", Dialect::Roll20).distribution().unwrap();
    assert!((dist.mean() - 12.6).abs() < 1e-3, "{}", dist.mean());
}

#[test]
fn closed_form_values() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    let dist = |text: &str, dialect| parse(text, dialect).distribution().unwrap();

    let attack = dist("1d20+5", Dialect::Roll20);
    assert!(close(attack.probability_at_least(15), 0.55));
    assert_eq!((attack.min(), attack.max()), (6, 25));

    let stats = dist("4d6kh3", Dialect::Roll20);
    assert!(close(stats.probability(18), 21.0 / 1296.0));
    assert!(close(stats.probability(3), 1.0 / 1296.0));
    assert!(close(stats.mean(), 15869.0 / 1296.0), "{}", stats.mean());
    assert_eq!(stats, dist("4d6kh3", Dialect::Avrae));
    assert_eq!(stats, dist("4d6dl1", Dialect::Roll20));

    let advantage = dist("2d20kh1", Dialect::Roll20);
    assert!(close(advantage.probability(20), 39.0 / 400.0));
    assert!(close(advantage.mean(), 13.825));
    let disadvantage = dist("2d20kl1", Dialect::Roll20);
    assert!(close(disadvantage.mean(), 7.175));

    // Roll20's `<3` means 3 or less: 15% of rolls are rerolled once.
    let reroll = dist("1d20ro<3", Dialect::Roll20);
    assert!(close(reroll.mean(), 0.15 * 10.5 + 204.0 / 20.0));
    // Avrae's `<3` means less than 3; rerolling until it escapes is uniform on 3..=20.
    let until = dist("1d20rr<3", Dialect::Avrae);
    assert!(close(until.probability(2), 0.0));
    assert!(close(until.probability(3), 1.0 / 18.0));

    let successes = dist("8d6>=5f1", Dialect::Roll20);
    assert!(close(successes.mean(), 8.0 * (1.0 / 3.0 - 1.0 / 6.0)));
    assert_eq!((successes.min(), successes.max()), (-8, 8));

    let fate = dist("4dF", Dialect::Roll20);
    assert!(close(fate.mean(), 0.0));
    assert!(close(fate.variance(), 8.0 / 3.0));
    assert!(close(fate.probability(4), 1.0 / 81.0));

    let tens = dist("1d%", Dialect::Avrae);
    assert_eq!((tens.min(), tens.max()), (0, 90));
    assert!(close(tens.probability(50), 0.1));
    assert!(close(tens.probability(55), 0.0));

    // The best of 1d4, 4 and the lowest of 3d6: 4 unless the lowest d6 beats it.
    let best = dist("(1d4, 2+2, 3d6kl1)kh1", Dialect::Avrae);
    let p_low_5_plus = (2.0f64 / 6.0).powi(3);
    assert!(close(best.probability(6), (1.0f64 / 6.0).powi(3)));
    assert!(close(
        best.probability(5),
        p_low_5_plus - (1.0f64 / 6.0).powi(3)
    ));
    assert!(close(best.probability(4), 1.0 - p_low_5_plus));
}

#[test]
fn the_fit_test_rejects_a_wrong_distribution() {
    // 4d6kh3 and 4d6kl3 are close to 3d6 shifted by a point; the test must tell them apart.
    let n = 20_000;
    let wrong = parse("3d6", Dialect::Roll20).distribution().unwrap();
    for text in ["4d6kh3", "4d6kl3", "3d6ro1"] {
        let counts = sample(&parse(text, Dialect::Roll20), n, 7);
        let (stat, df) = chi_square(&wrong, &counts, n);
        assert!(
            stat > chi_square_critical(df),
            "{text} passes for 3d6: chi-square {stat:.2} with {df} degrees of freedom"
        );
    }
}
