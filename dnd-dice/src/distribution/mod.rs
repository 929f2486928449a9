//! Exact probability distributions of dice expressions (no Monte Carlo).
//!
//! A dice group is reduced to the distribution of one die's contribution (rerolls, clamps,
//! value-based keep/drop, successes and explosion chains folded in), then the dice are
//! combined: by convolution when they are independent, by an order-statistics dynamic
//! programme for keep/drop highest/lowest. Arithmetic between sub-expressions combines their
//! distributions exactly, using the same operator code the roller uses.
//!
//! Explosions can in principle go on forever; like AnyDice, a chain is cut after
//! [`EXPLOSION_DEPTH`] extra dice, the last die counting its face without exploding again. The
//! probability moved by the cut is at most `p^(depth+1)` for an explosion chance `p` (for a d6
//! exploding on 6, about 3.6e-5). Infinite rerolls need no cut: rerolling until a face
//! escapes is exactly a uniform choice among the escaping faces.

use super::ast::{BinaryOp, DiceOp, Node, Selector, SetOp, Spelling};
use super::error::DiceError;

mod dice;

use dice::of_dice;

/// How many extra dice an explosion chain may add before it is cut (see the module docs).
pub const EXPLOSION_DEPTH: u32 = 5;

/// Most distinct outcomes a distribution may hold.
const MAX_SUPPORT: usize = 1 << 22;
/// Most multiply-adds one computation may spend.
const MAX_WORK: u64 = 100_000_000;

/// The exact probability of every total an expression can produce.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    min: i64,
    /// `probs[i]` is the probability of `min + i`.
    probs: Vec<f64>,
}

impl Distribution {
    fn point(v: i64) -> Self {
        Distribution {
            min: v,
            probs: vec![1.0],
        }
    }

    fn from_pairs(pairs: impl IntoIterator<Item = (i64, f64)>) -> Result<Self, DiceError> {
        let pairs: Vec<(i64, f64)> = pairs.into_iter().filter(|(_, p)| *p > 0.0).collect();
        let lo = pairs.iter().map(|p| p.0).min().unwrap_or(0);
        let hi = pairs.iter().map(|p| p.0).max().unwrap_or(0);
        let width = check_width(lo, hi)?;
        let mut probs = vec![0.0; width];
        for (v, p) in pairs {
            probs[(v - lo) as usize] += p;
        }
        if probs.is_empty() {
            // No mass at all: a partial distribution that is empty, not a certain 0.
            probs.push(0.0);
        }
        Ok(Distribution { min: lo, probs })
    }

    /// The smallest possible total.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// The largest possible total.
    pub fn max(&self) -> i64 {
        self.min + self.probs.len() as i64 - 1
    }

    /// The expected total.
    pub fn mean(&self) -> f64 {
        self.iter().map(|(v, p)| v as f64 * p).sum()
    }

    /// The variance of the total.
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        self.iter()
            .map(|(v, p)| (v as f64 - mean).powi(2) * p)
            .sum()
    }

    /// The standard deviation of the total.
    pub fn std_dev(&self) -> f64 {
        self.variance().sqrt()
    }

    /// The probability that the total is exactly `n`.
    pub fn probability(&self, n: i64) -> f64 {
        n.checked_sub(self.min)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.probs.get(i).copied())
            .unwrap_or(0.0)
    }

    /// The probability that the total is `n` or more: the chance to meet a DC of `n`.
    pub fn probability_at_least(&self, n: i64) -> f64 {
        if n <= self.min {
            return 1.0;
        }
        let start = ((n - self.min) as usize).min(self.probs.len());
        self.probs[start..].iter().sum::<f64>().min(1.0)
    }

    /// The probability that the total is `n` or less.
    pub fn probability_at_most(&self, n: i64) -> f64 {
        1.0 - self.probability_at_least(n.saturating_add(1))
    }

    /// Every possible total with its probability, smallest first (totals of probability 0
    /// inside the range included).
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probs
            .iter()
            .enumerate()
            .map(move |(i, p)| (self.min + i as i64, *p))
    }

    fn trimmed(mut self) -> Self {
        let first = self.probs.iter().position(|p| *p > 0.0).unwrap_or(0);
        let last = self.probs.iter().rposition(|p| *p > 0.0).unwrap_or(0);
        if first > 0 || last + 1 < self.probs.len() {
            self.probs = self.probs[first..=last.max(first)].to_vec();
            self.min += first as i64;
        }
        self
    }

    fn negate(&self) -> Self {
        let mut probs = self.probs.clone();
        probs.reverse();
        Distribution {
            min: -self.max(),
            probs,
        }
    }

    fn shift_scaled(&self, by: i64, scale: f64) -> Self {
        let probs = if scale == 1.0 {
            self.probs.clone()
        } else {
            self.probs.iter().map(|p| p * scale).collect()
        };
        Distribution {
            min: self.min + by,
            probs,
        }
    }
}

fn check_width(lo: i64, hi: i64) -> Result<usize, DiceError> {
    let width = (hi as i128 - lo as i128 + 1) as u128;
    if width > MAX_SUPPORT as u128 {
        return Err(DiceError::unsupported(format!(
            "the totals span {width} values, more than the {MAX_SUPPORT} an exact distribution may hold"
        )));
    }
    Ok(width as usize)
}

/// Counts the work spent so that a huge expression fails fast instead of running for minutes.
struct Budget {
    work: u64,
}

impl Budget {
    fn spend(&mut self, n: u64) -> Result<(), DiceError> {
        self.work = self.work.saturating_add(n);
        if self.work > MAX_WORK {
            return Err(DiceError::unsupported(
                "the expression is too large to compute exactly (try fewer dice or fewer sides)",
            ));
        }
        Ok(())
    }

    fn convolve(&mut self, a: &Distribution, b: &Distribution) -> Result<Distribution, DiceError> {
        // A single value shifts the other (scaled, for partial distributions).
        if a.probs.len() == 1 {
            return Ok(b.shift_scaled(a.min, a.probs[0]));
        }
        if b.probs.len() == 1 {
            return Ok(a.shift_scaled(b.min, b.probs[0]));
        }
        self.spend((a.probs.len() * b.probs.len()) as u64)?;
        check_width(a.min + b.min, a.max() + b.max())?;
        let mut probs = vec![0.0; a.probs.len() + b.probs.len() - 1];
        for (i, pa) in a.probs.iter().enumerate() {
            if *pa == 0.0 {
                continue;
            }
            for (out, pb) in probs[i..].iter_mut().zip(&b.probs) {
                *out += pa * pb;
            }
        }
        Ok(Distribution {
            min: a.min + b.min,
            probs,
        })
    }

    fn power(&mut self, one: &Distribution, n: u32) -> Result<Distribution, DiceError> {
        let mut acc = Distribution::point(0);
        for _ in 0..n {
            acc = self.convolve(&acc, one)?;
        }
        Ok(acc)
    }

    /// Combines two independent distributions with a binary operator.
    fn combine(
        &mut self,
        op: BinaryOp,
        a: &Distribution,
        b: &Distribution,
        truncate: bool,
    ) -> Result<Distribution, DiceError> {
        match op {
            BinaryOp::Add => return self.convolve(a, b),
            BinaryOp::Sub => return self.convolve(a, &b.negate()),
            _ => {}
        }
        self.spend((a.probs.len() * b.probs.len()) as u64)?;
        // Bound the result first, so a huge product fails before any memory is spent on it.
        let (lo, hi) = result_bounds(op, a, b);
        let width = check_width(lo, hi)?;
        let mut probs = vec![0.0; width];
        for (x, px) in a.iter().filter(|(_, p)| *p > 0.0) {
            for (y, py) in b.iter().filter(|(_, p)| *p > 0.0) {
                let v = op
                    .apply(x as f64, y as f64)
                    .ok_or(DiceError::DivisionByZero)?;
                let v = if truncate { v.trunc() } else { v };
                if v.fract() != 0.0 {
                    return Err(DiceError::unsupported(format!(
                        "{x} {} {y} is not a whole number; exact distributions need whole numbers \
                         (use // to divide and round down)",
                        op.symbol()
                    )));
                }
                probs[(v as i64 - lo) as usize] += px * py;
            }
        }
        Ok(Distribution { min: lo, probs }.trimmed())
    }
}

/// A range that holds every result of `a op b` for whole numbers `a` and `b`.
fn result_bounds(op: BinaryOp, a: &Distribution, b: &Distribution) -> (i64, i64) {
    let abs_max = |d: &Distribution| {
        d.min()
            .unsigned_abs()
            .max(d.max().unsigned_abs())
            .min(i64::MAX as u64) as i64
    };
    match op {
        BinaryOp::Mul => {
            let corners = [a.min(), a.max()]
                .into_iter()
                .flat_map(|x| [b.min(), b.max()].map(move |y| x.saturating_mul(y)));
            let (lo, hi) = corners.fold((i64::MAX, i64::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
            (lo, hi)
        }
        // |a / b| <= |a| for a whole divisor; floor division may add one more step.
        BinaryOp::FloorDiv | BinaryOp::TrueDiv | BinaryOp::AvraeFloorDiv => {
            let m = abs_max(a).saturating_add(1);
            (-m, m)
        }
        BinaryOp::Mod => {
            let m = abs_max(b);
            (-m, m)
        }
        BinaryOp::Add => (
            a.min().saturating_add(b.min()),
            a.max().saturating_add(b.max()),
        ),
        BinaryOp::Sub => (
            a.min().saturating_sub(b.max()),
            a.max().saturating_sub(b.min()),
        ),
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
            (0, 1)
        }
    }
}

/// The distribution of a whole expression.
pub(crate) fn of_expr(root: &Node) -> Result<Distribution, DiceError> {
    let mut budget = Budget { work: 0 };
    of_node(root, true, &mut budget)
}

/// `at_root`: Avrae truncates the final total toward zero, so a true division at the root
/// (seen through labels) yields whole numbers.
fn of_node(node: &Node, at_root: bool, budget: &mut Budget) -> Result<Distribution, DiceError> {
    match node {
        Node::Number(v) => {
            if v.fract() != 0.0 {
                return Err(DiceError::unsupported(format!(
                    "the number {v} is not whole; exact distributions need whole numbers"
                )));
            }
            Ok(Distribution::point(*v as i64))
        }
        Node::Dice(term) => of_dice(term, &term.ops, budget),
        Node::Negate(x) => Ok(of_node(x, false, budget)?.negate()),
        Node::Plus(x) => of_node(x, false, budget),
        Node::Labelled(x, _) => of_node(x, at_root, budget),
        Node::Paren(x, ops) => of_operated(x, ops, budget),
        Node::Set(items, ops) => of_set(items, ops, budget),
        Node::Binary(op, pair) => {
            let [a, b] = &**pair;
            let x = of_node(a, false, budget)?;
            let y = of_node(b, false, budget)?;
            budget.combine(*op, &x, &y, at_root && *op == BinaryOp::TrueDiv)
        }
    }
}

fn of_operated(
    inner: &Node,
    ops: &[SetOp],
    budget: &mut Budget,
) -> Result<Distribution, DiceError> {
    match inner {
        Node::Dice(term) => {
            let mut all = term.ops.clone();
            all.extend(ops.iter().map(|op| {
                if op.keep {
                    DiceOp::Keep(op.selectors.clone(), Spelling::Avrae)
                } else {
                    DiceOp::Drop(op.selectors.clone(), Spelling::Avrae)
                }
            }));
            of_dice(term, &all, budget)
        }
        Node::Labelled(x, _) => of_operated(x, ops, budget),
        Node::Set(items, own) => of_set(items, &[own.as_slice(), ops].concat(), budget),
        Node::Paren(x, own) => of_operated(x, &[own.as_slice(), ops].concat(), budget),
        other => of_set(std::slice::from_ref(other), ops, budget),
    }
}

fn of_set(items: &[Node], ops: &[SetOp], budget: &mut Budget) -> Result<Distribution, DiceError> {
    let dists: Vec<Distribution> = items
        .iter()
        .map(|n| of_node(n, false, budget))
        .collect::<Result<_, _>>()?;
    match ops {
        [] => dists
            .iter()
            .try_fold(Distribution::point(0), |acc, d| budget.convolve(&acc, d)),
        [
            SetOp {
                keep: true,
                selectors,
            },
        ] if matches!(
            selectors.as_slice(),
            [Selector::Highest(1) | Selector::Lowest(1)]
        ) =>
        {
            let highest = matches!(selectors[0], Selector::Highest(_));
            extreme_of(&dists, highest)
        }
        _ if items.len() == 1 => {
            // One value: each operator keeps or drops it as a whole.
            let pairs = dists[0].iter().map(|(v, p)| {
                let kept = ops.iter().all(|op| set_op_keeps_single(op, v));
                (if kept { v } else { 0 }, p)
            });
            Ok(Distribution::from_pairs(pairs.collect::<Vec<_>>())?.trimmed())
        }
        _ => Err(DiceError::unsupported(
            "keep/drop on a set is supported for kh1 and kl1 only; roll it instead of asking its distribution",
        )),
    }
}

fn set_op_keeps_single(op: &SetOp, v: i64) -> bool {
    let selected = op.selectors.iter().any(|s| match s {
        Selector::Highest(n) | Selector::Lowest(n) => *n >= 1,
        Selector::Range { .. } => s.matches_value(v),
    });
    selected == op.keep
}

/// The distribution of the largest (or smallest) of independent values.
fn extreme_of(dists: &[Distribution], highest: bool) -> Result<Distribution, DiceError> {
    if dists.is_empty() {
        return Ok(Distribution::point(0));
    }
    let lo = dists.iter().map(Distribution::min).min().unwrap_or(0);
    let hi = dists.iter().map(Distribution::max).max().unwrap_or(0);
    let width = check_width(lo, hi)?;
    // cdf[i] = P(max <= lo+i) = product of each P(X <= lo+i); for the minimum use survival.
    let mut out = vec![0.0; width];
    let mut prev = 0.0;
    for (i, slot) in out.iter_mut().enumerate() {
        let v = lo + i as i64;
        let c: f64 = if highest {
            dists.iter().map(|d| d.probability_at_most(v)).product()
        } else {
            1.0 - dists
                .iter()
                .map(|d| d.probability_at_least(v + 1))
                .product::<f64>()
        };
        *slot = (c - prev).max(0.0);
        prev = c;
    }
    Ok(Distribution {
        min: lo,
        probs: out,
    }
    .trimmed())
}
