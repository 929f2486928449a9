//! The distribution of one dice group: each die's operators folded into the distribution of
//! its contribution, then the dice combined by convolution or, for keep/drop by rank, by an
//! order-statistics dynamic programme.

use super::{Budget, Distribution, EXPLOSION_DEPTH, check_width};
use crate::DiceError;
use crate::ast::{DiceOp, DiceTerm, Faces, Selector};

/// One die while its operators are folded in: the probability of each value it may show while
/// kept, and the probability that it has been dropped.
#[derive(Clone, Debug)]
struct DieDist {
    kept: Vec<(i64, f64)>,
    dropped: f64,
}

impl DieDist {
    fn base(faces: Faces) -> Self {
        let p = 1.0 / f64::from(faces.count());
        DieDist {
            kept: faces.values().map(|v| (v, p)).collect(),
            dropped: 0.0,
        }
    }

    fn contribution(&self) -> Result<Distribution, DiceError> {
        let pairs = self
            .kept
            .iter()
            .copied()
            .chain(std::iter::once((0, self.dropped)));
        Distribution::from_pairs(pairs.collect::<Vec<_>>())
    }
}

fn value_selectors(sels: &[Selector]) -> Result<&[Selector], DiceError> {
    if sels.iter().all(Selector::is_by_value) {
        Ok(sels)
    } else {
        Err(DiceError::unsupported(
            "h/l selectors are supported for one keep or drop on a group of dice, not inside rerolls or explosions",
        ))
    }
}

fn matches(sels: &[Selector], v: i64) -> bool {
    sels.iter().any(|s| s.matches_value(v))
}

/// Applies an operator that acts on each die on its own; `false` when it is not such an operator.
fn per_die(faces: Faces, die: &mut DieDist, op: &DiceOp) -> Result<bool, DiceError> {
    match op {
        DiceOp::Reroll(sels, _) | DiceOp::RerollOnce(sels, _) => {
            let sels = value_selectors(sels)?;
            let moved: f64 = die
                .kept
                .iter()
                .filter(|(v, _)| matches(sels, *v))
                .map(|(_, p)| p)
                .sum();
            let until = matches!(op, DiceOp::Reroll(..));
            let fresh = 1.0 / f64::from(faces.count());
            let escape = faces.values().filter(|v| !matches(sels, *v)).count() as f64 * fresh;
            let mut kept: Vec<(i64, f64)> = die
                .kept
                .iter()
                .copied()
                .filter(|(v, _)| !matches(sels, *v))
                .collect();
            // The replacement is a fresh die: uniform, or uniform over the escaping faces.
            for v in faces.values() {
                if !until {
                    kept.push((v, moved * fresh));
                } else if !matches(sels, v) {
                    kept.push((v, moved * fresh / escape));
                }
            }
            die.kept = kept;
        }
        DiceOp::Min(n) => die.kept.iter_mut().for_each(|(v, _)| *v = (*v).max(*n)),
        DiceOp::Max(n) => die.kept.iter_mut().for_each(|(v, _)| *v = (*v).min(*n)),
        DiceOp::Keep(sels, _) | DiceOp::Drop(sels, _) if sels.iter().all(Selector::is_by_value) => {
            let keep = matches!(op, DiceOp::Keep(..));
            let mut kept = Vec::with_capacity(die.kept.len());
            for (v, p) in die.kept.drain(..) {
                if matches(sels, v) == keep {
                    kept.push((v, p));
                } else {
                    die.dropped += p;
                }
            }
            die.kept = kept;
        }
        DiceOp::Count { success, failure } => {
            let kept = die.kept.drain(..).map(|(v, p)| {
                let score = if success.matches_value(v) {
                    1
                } else if failure.is_some_and(|f| f.matches_value(v)) {
                    -1
                } else {
                    0
                };
                (score, p)
            });
            die.kept = kept.collect();
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// What one die ends up contributing after `post`, given the value it shows. The operators
/// allowed after an explosion are deterministic for a known value, so this is one number.
fn after_post(faces: Faces, post: &[DiceOp], value: i64) -> Result<i64, DiceError> {
    let mut die = DieDist {
        kept: vec![(value, 1.0)],
        dropped: 0.0,
    };
    for op in post {
        if matches!(op, DiceOp::Reroll(..) | DiceOp::RerollOnce(..))
            || !per_die(faces, &mut die, op)?
        {
            return Err(DiceError::unsupported(
                "after an explosion only mi, ma, keep/drop by value and target numbers are supported",
            ));
        }
    }
    Ok(die.kept.first().map_or(0, |&(v, _)| v))
}

/// Splits a die's faces into those that stop (with their contribution) and those that go on
/// to another die, each as a (possibly partial) distribution.
fn split_faces(
    die: &DieDist,
    goes_on: impl Fn(i64) -> bool,
    contribution: &impl Fn(i64) -> Result<i64, DiceError>,
    budget: &mut Budget,
) -> Result<(Distribution, Option<Distribution>), DiceError> {
    budget.spend(die.kept.len() as u64 + 1)?;
    let mut stop: Vec<(i64, f64)> = Vec::with_capacity(die.kept.len() + 1);
    let mut go: Vec<(i64, f64)> = Vec::new();
    if die.dropped > 0.0 {
        stop.push((0, die.dropped));
    }
    for &(v, p) in &die.kept {
        let c = contribution(v)?;
        if goes_on(v) {
            go.push((c, p))
        } else {
            stop.push((c, p))
        }
    }
    let go = if go.is_empty() {
        None
    } else {
        Some(Distribution::from_pairs(go)?)
    };
    Ok((Distribution::from_pairs(stop)?, go))
}

/// The sum of two partial distributions (probability masses add).
fn mix(a: &Distribution, b: &Distribution) -> Result<Distribution, DiceError> {
    Distribution::from_pairs(
        a.iter()
            .chain(b.iter())
            .filter(|(_, p)| *p > 0.0)
            .collect::<Vec<_>>(),
    )
}

pub(super) fn of_dice(
    term: &DiceTerm,
    ops: &[DiceOp],
    budget: &mut Budget,
) -> Result<Distribution, DiceError> {
    let faces = term.faces;
    let explode_at = ops
        .iter()
        .position(|op| op.adds_dice() || matches!(op, DiceOp::Compound(_)));
    let (pre, rest) = ops.split_at(explode_at.unwrap_or(ops.len()));
    let mut first = DieDist::base(faces);
    let mut rank: Option<(&DiceOp, usize)> = None;
    for (i, op) in pre.iter().enumerate() {
        if rank.is_some() {
            // After a rank keep/drop only clamps are allowed: they commute with it.
            if !matches!(op, DiceOp::Min(_) | DiceOp::Max(_)) {
                return Err(DiceError::unsupported(
                    "after a keep/drop by rank only mi and ma are supported in an exact distribution",
                ));
            }
        } else if matches!(op, DiceOp::Keep(..) | DiceOp::Drop(..))
            && !per_die(faces, &mut first.clone(), op)?
        {
            if first.dropped > 0.0 {
                return Err(DiceError::unsupported(
                    "a keep/drop by rank after a keep/drop by value",
                ));
            }
            rank = Some((op, i));
            continue;
        }
        if !per_die(faces, &mut first, op)? {
            return Err(DiceError::unsupported("this combination of dice operators"));
        }
    }
    if let Some((op, _)) = rank {
        if explode_at.is_some() {
            return Err(DiceError::unsupported(
                "keep/drop by rank together with explosions",
            ));
        }
        return keep_by_rank(term.count, &first, op, budget);
    }
    let Some((explode, post)) = rest.split_first() else {
        return budget.power(&first.contribution()?, term.count);
    };
    let one = match explode {
        DiceOp::Explode(sels, _) => explosion_chain(
            faces,
            &first,
            value_selectors(sels)?,
            post,
            EXPLOSION_DEPTH,
            budget,
        )?,
        DiceOp::RerollAdd(sels) => {
            if term.count > 1 {
                return Err(DiceError::unsupported(
                    "ra on more than one die (only one die of the group explodes)",
                ));
            }
            explosion_chain(faces, &first, value_selectors(sels)?, post, 1, budget)?
        }
        DiceOp::Compound(sel) => compound_chain(faces, &first, *sel, post, budget)?,
        _ => return Err(DiceError::unsupported("this combination of dice operators")),
    };
    budget.power(&one, term.count)
}

/// One die that explodes: its contribution plus, when it matches, a fresh die's chain. The
/// faces that go on are gathered into one distribution and convolved with the chain once.
fn explosion_chain(
    faces: Faces,
    first: &DieDist,
    sels: &[Selector],
    post: &[DiceOp],
    depth: u32,
    budget: &mut Budget,
) -> Result<Distribution, DiceError> {
    let contribution = |v| after_post(faces, post, v);
    Ok(chain(
        faces,
        first,
        depth,
        |v| matches(sels, v),
        contribution,
        budget,
    )?
    .trimmed())
}

/// A chain of dice cut after `depth` extra dice: each die adds its contribution and, when
/// `goes_on` says so for its face, a fresh die's chain.
fn chain(
    faces: Faces,
    first: &DieDist,
    depth: u32,
    goes_on: impl Fn(i64) -> bool,
    contribution: impl Fn(i64) -> Result<i64, DiceError>,
    budget: &mut Budget,
) -> Result<Distribution, DiceError> {
    let base = DieDist::base(faces);
    let mut step = |die: &DieDist, next: Option<&Distribution>| {
        let (stop, go) = split_faces(die, |v| next.is_some() && goes_on(v), &contribution, budget)?;
        match (go, next) {
            (Some(go), Some(next)) => mix(&stop, &budget.convolve(&go, next)?),
            _ => Ok(stop),
        }
    };
    let mut tail = step(&base, None)?;
    for _ in 1..depth {
        tail = step(&base, Some(&tail))?;
    }
    step(first, Some(&tail))
}

/// Roll20 `!!`: the explosions add into one die, then `post` applies to that die.
fn compound_chain(
    faces: Faces,
    first: &DieDist,
    sel: Selector,
    post: &[DiceOp],
    budget: &mut Budget,
) -> Result<Distribution, DiceError> {
    // Roll20 orders keep/drop after explosions, so the first die is never dropped here.
    let sums = chain(
        faces,
        first,
        EXPLOSION_DEPTH,
        |v| sel.matches_value(v),
        Ok,
        budget,
    )?;
    budget.spend(sums.iter().count() as u64)?;
    let mut pairs = Vec::new();
    for (v, p) in sums.iter().filter(|(_, p)| *p > 0.0) {
        pairs.push((after_post(faces, post, v)?, p));
    }
    Ok(Distribution::from_pairs(pairs)?.trimmed())
}

/// Keep or drop the `k` highest or lowest of `n` independent dice, by dynamic programming over
/// the die's values from the favoured end: choosing how many dice show each value (with the
/// binomial count of ways) and summing the first `keep` of them.
fn keep_by_rank(
    n: u32,
    die: &DieDist,
    op: &DiceOp,
    budget: &mut Budget,
) -> Result<Distribution, DiceError> {
    let (sels, keep) = match op {
        DiceOp::Keep(s, _) => (s, true),
        DiceOp::Drop(s, _) => (s, false),
        _ => return Err(DiceError::unsupported("this combination of dice operators")),
    };
    let (k, highest) = match sels.as_slice() {
        [Selector::Highest(k)] => (*k, true),
        [Selector::Lowest(k)] => (*k, false),
        _ => {
            return Err(DiceError::unsupported(
                "several selectors in one keep/drop by rank",
            ));
        }
    };
    let k = k.min(n);
    // Dropping the k highest keeps the n-k lowest, and so on.
    let (keep_count, from_high) = if keep {
        (k, highest)
    } else {
        (n - k, !highest)
    };
    let mut values: Vec<(i64, f64)> = die.kept.iter().copied().filter(|(_, p)| *p > 0.0).collect();
    values.sort_by_key(|(v, _)| *v);
    // Merge equal values (a clamp can make several faces show the same value).
    values.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    if from_high {
        values.reverse();
    }
    let (n, keep_count) = (n as usize, keep_count as usize);
    if values.is_empty() || keep_count == 0 {
        return Ok(Distribution::point(0));
    }
    let vmin = values.iter().map(|v| v.0).min().unwrap_or(0);
    let vmax = values.iter().map(|v| v.0).max().unwrap_or(0);
    // Partial sums start at 0, so the table spans 0 as well as the final range.
    let lo = (vmin * keep_count as i64).min(0);
    let width = check_width(lo, (vmax * keep_count as i64).max(0))?;
    budget.spend((values.len() * (n + 1) * width * (n + 1)) as u64 / 2)?;
    let binom = binomials(n);
    // state[a][s]: probability that `a` dice are assigned so far with kept sum lo+s.
    let mut state = vec![vec![0.0; width]; n + 1];
    state[0][(-lo) as usize] = 1.0;
    for &(v, q) in &values {
        let mut next = vec![vec![0.0; width]; n + 1];
        let powers: Vec<f64> = (0..=n)
            .scan(1.0, |acc, _| {
                let out = *acc;
                *acc *= q;
                Some(out)
            })
            .collect();
        for a in 0..=n {
            for (s, &p) in state[a].iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                for c in 0..=(n - a) {
                    let kept_here = c.min(keep_count.saturating_sub(a)) as i64;
                    let s2 = s as i64 + kept_here * v;
                    next[a + c][s2 as usize] += p * binom[n - a][c] * powers[c];
                }
            }
        }
        state = next;
    }
    Ok(Distribution {
        min: lo,
        probs: state.swap_remove(n),
    }
    .trimmed())
}

/// Pascal's triangle up to `n`, as floats (exact up to n = 1000 well within f64's range).
fn binomials(n: usize) -> Vec<Vec<f64>> {
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(n + 1);
    for i in 0..=n {
        let mut row = vec![1.0; i + 1];
        for j in 1..i {
            row[j] = rows[i - 1][j - 1] + rows[i - 1][j];
        }
        rows.push(row);
    }
    rows
}
