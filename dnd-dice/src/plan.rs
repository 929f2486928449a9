//! Precompiled fast paths for the totals of the commonest expressions.
//!
//! Nearly every roll at a table is a sum of dice groups and whole numbers, each group with at
//! most a reroll and a keep/drop or an explosion: `1d20+5`, `2d20kh1+7`, `4d6kh3`,
//! `1d20ro<3+4`, `10d10!`, `(1d4+1)*3`. For those the parser also compiles a [`Plan`]: integer
//! coefficients times [`FastGroup`]s plus a constant, decided once, so `roll_total` runs a flat
//! loop instead of walking the tree. A [`FastGroup`] rolls the same dice in the same order as
//! the general [`Group`](super::group::Group) and gives the same total (tests and the fuzzer
//! compare the two paths on the same seeds).

use smallvec::SmallVec;

use super::MAX_EXACT;
use super::ast::{BinaryOp, DiceOp, DiceTerm, Faces, Node, Selector};
use super::error::Fault;
use super::source::DieSource;

/// Most dice a non-plain fast group holds (they are kept on the stack).
const MAX_FAST_DICE: usize = 16;

/// One die as drawing it needs it: how many faces, and how a face index maps to its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DieShape {
    sides: u32,
    step: i64,
    offset: i64,
}

impl From<Faces> for DieShape {
    #[inline]
    fn from(faces: Faces) -> Self {
        let (step, offset) = faces.step_and_offset();
        DieShape {
            sides: faces.count(),
            step,
            offset,
        }
    }
}

/// A dice group whose shape the fast path handles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FastGroup {
    count: u32,
    die: DieShape,
    /// A reroll by value first: once (`ro`) or until no die matches (`r`, `rr`).
    reroll: Option<(bool, i64, i64)>,
    last: Last,
}

/// What comes after the optional reroll.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Last {
    Sum,
    /// Keep (or drop) the `k` highest (or lowest).
    Rank {
        keep: bool,
        highest: bool,
        k: u32,
    },
    /// Explode every die whose value lies in `lo..=hi`.
    Explode {
        lo: i64,
        hi: i64,
    },
}

/// A single selector by value, as an inclusive range.
fn one_range(sels: &[Selector]) -> Option<(i64, i64)> {
    match sels {
        [Selector::Range { lo, hi, .. }] => Some((*lo, *hi)),
        _ => None,
    }
}

impl FastGroup {
    /// The fast shape of a dice group, if it has one.
    pub(crate) fn of(term: &DiceTerm) -> Option<FastGroup> {
        let mut ops = term.ops.as_slice();
        let reroll = match ops.first() {
            Some(DiceOp::Reroll(sels, _)) => Some((true, one_range(sels)?)),
            Some(DiceOp::RerollOnce(sels, _)) => Some((false, one_range(sels)?)),
            _ => None,
        }
        .map(|(until, (lo, hi))| {
            ops = &ops[1..];
            (until, lo, hi)
        });
        let last = match ops {
            [] => Last::Sum,
            [op @ (DiceOp::Keep(sels, _) | DiceOp::Drop(sels, _))] => match sels.as_slice() {
                [sel @ (Selector::Highest(k) | Selector::Lowest(k))] => Last::Rank {
                    keep: matches!(op, DiceOp::Keep(..)),
                    highest: matches!(sel, Selector::Highest(_)),
                    k: *k,
                },
                _ => return None,
            },
            [DiceOp::Explode(sels, _)] => {
                let (lo, hi) = one_range(sels)?;
                Last::Explode { lo, hi }
            }
            _ => return None,
        };
        let plain = reroll.is_none() && last == Last::Sum;
        if !plain && term.count as usize > MAX_FAST_DICE {
            return None;
        }
        Some(FastGroup {
            count: term.count,
            die: term.faces.into(),
            reroll,
            last,
        })
    }

    /// Rolls the group and returns its total.
    ///
    /// Without a reroll the dice are summed as they are rolled, with no buffer: writing dice
    /// to a buffer and reading them back at once (as a vectorised sum does) stalls on store
    /// forwarding, which cost more than the dice themselves.
    #[inline(always)]
    pub(crate) fn total(
        &self,
        roll: &mut impl FnMut(DieShape) -> Result<i64, Fault>,
    ) -> Result<i64, Fault> {
        let die = self.die;
        let n = self.count as usize;
        if self.reroll.is_some() {
            return self.total_with_reroll(roll);
        }
        match self.last {
            Last::Sum => {
                let mut sum = 0;
                for _ in 0..n {
                    sum += roll(die)?;
                }
                Ok(sum)
            }
            Last::Explode { lo, hi } => {
                let mut total = 0;
                let mut pending = 0;
                for _ in 0..n {
                    let v = roll(die)?;
                    total += v;
                    pending += usize::from(lo <= v && v <= hi);
                }
                explode(roll, die, (lo, hi), total, pending)
            }
            Last::Rank { keep, highest, k } => {
                let (dropped, from_low) = dropped_end(keep, highest, k, n);
                if dropped != 1 {
                    return self.total_with_reroll(roll);
                }
                // One die goes (4d6kh3, 2d20kh1): track the extremes while rolling.
                let (mut total, mut min, mut max) = (0, i64::MAX, i64::MIN);
                for _ in 0..n {
                    let v = roll(die)?;
                    total += v;
                    min = min.min(v);
                    max = max.max(v);
                }
                Ok(total - if from_low { min } else { max })
            }
        }
    }

    /// The general fast shape: the dice in a stack buffer, an optional reroll, then the last
    /// step. Keeps the running total up to date rather than summing the buffer afterwards.
    fn total_with_reroll(
        &self,
        roll: &mut impl FnMut(DieShape) -> Result<i64, Fault>,
    ) -> Result<i64, Fault> {
        let die = self.die;
        let n = self.count as usize;
        let mut buf = [0i64; MAX_FAST_DICE];
        let dice = &mut buf[..n];
        let mut total = 0;
        for d in dice.iter_mut() {
            *d = roll(die)?;
            total += *d;
        }
        if let Some((until, lo, hi)) = self.reroll {
            // Rounds, as d20 does: every matching die is rerolled, then the dice are looked at
            // again (once, for `ro`).
            loop {
                let mut any = false;
                for d in dice.iter_mut() {
                    if lo <= *d && *d <= hi {
                        let v = roll(die)?;
                        total += v - *d;
                        *d = v;
                        any = true;
                    }
                }
                if !until || !any {
                    break;
                }
            }
        }
        match self.last {
            Last::Sum => Ok(total),
            Last::Explode { lo, hi } => {
                // d20 scans the dice in order, each match rolling a die onto the end, then the
                // new dice the same way; counting pending matches draws the same rolls.
                let pending = dice.iter().filter(|d| lo <= **d && **d <= hi).count();
                explode(roll, die, (lo, hi), total, pending)
            }
            Last::Rank { keep, highest, k } => {
                let (dropped, from_low) = dropped_end(keep, highest, k, n);
                // Ties do not change a total, so an unstable sort will do.
                dice.sort_unstable();
                let gone = if from_low {
                    &dice[..dropped]
                } else {
                    &dice[n - dropped..]
                };
                Ok(total - gone.iter().sum::<i64>())
            }
        }
    }
}

/// For a keep/drop of `k` dice out of `n`: how many dice go, and whether from the low end.
fn dropped_end(keep: bool, highest: bool, k: u32, n: usize) -> (usize, bool) {
    let k = (k as usize).min(n);
    match (keep, highest) {
        (true, true) => (n - k, true),
        (true, false) => (n - k, false),
        (false, true) => (k, false),
        (false, false) => (k, true),
    }
}

/// Rolls the `pending` explosions (and the explosions they cause) onto `total`.
#[inline]
fn explode(
    roll: &mut impl FnMut(DieShape) -> Result<i64, Fault>,
    die: DieShape,
    (lo, hi): (i64, i64),
    mut total: i64,
    mut pending: usize,
) -> Result<i64, Fault> {
    while pending > 0 {
        pending -= 1;
        let v = roll(die)?;
        total += v;
        pending += usize::from(lo <= v && v <= hi);
    }
    Ok(total)
}

/// `constant + Σ coefficient × group`, for expressions that are sums of fast groups and whole
/// numbers (multiplied by whole numbers).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    constant: i64,
    groups: SmallVec<[(i64, FastGroup); 2]>,
}

impl Plan {
    /// Compiles the tree rooted at `root`, if it has the plan's shape.
    pub(crate) fn compile(root: &Node) -> Option<Plan> {
        let mut plan = Plan {
            constant: 0,
            groups: SmallVec::new(),
        };
        plan.add(root, 1)?;
        Some(plan)
    }

    /// Adds `coefficient × node`, visiting dice groups in the order the tree rolls them.
    fn add(&mut self, node: &Node, coefficient: i64) -> Option<()> {
        let whole = |n: &Node| match n {
            Node::Number(v) if v.fract() == 0.0 && v.abs() < MAX_EXACT as f64 => Some(*v as i64),
            _ => None,
        };
        match node {
            Node::Number(_) => {
                let term = coefficient.checked_mul(whole(node)?)?;
                self.constant = self.constant.checked_add(term)?;
            }
            Node::Dice(term) => self.groups.push((coefficient, FastGroup::of(term)?)),
            Node::Negate(x) => self.add(x, coefficient.checked_neg()?)?,
            Node::Plus(x) | Node::Labelled(x, _) => self.add(x, coefficient)?,
            Node::Binary(op, pair) => {
                let [a, b] = &**pair;
                match op {
                    BinaryOp::Add => {
                        self.add(a, coefficient)?;
                        self.add(b, coefficient)?;
                    }
                    BinaryOp::Sub => {
                        self.add(a, coefficient)?;
                        self.add(b, coefficient.checked_neg()?)?;
                    }
                    BinaryOp::Mul => match (whole(a), whole(b)) {
                        (_, Some(k)) => self.add(a, coefficient.checked_mul(k)?)?,
                        (Some(k), _) => self.add(b, coefficient.checked_mul(k)?)?,
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            _ => return None,
        }
        (self.constant.abs() < MAX_EXACT && coefficient.abs() < MAX_EXACT).then_some(())
    }

    /// Rolls every group in order and returns the total (`None`: beyond ±2^53).
    pub(crate) fn total<S: DieSource + ?Sized>(
        &self,
        source: &mut S,
        budget: u32,
    ) -> Result<Option<i64>, Fault> {
        let mut rolls_left = budget;
        let mut roll = |die: DieShape| roll_face(source, &mut rolls_left, budget, die);
        let mut total = Some(self.constant);
        for (coefficient, group) in &self.groups {
            let term = coefficient.checked_mul(group.total(&mut roll)?);
            total = total.zip(term).and_then(|(t, x)| t.checked_add(x));
        }
        Ok(total.filter(|t| t.abs() <= MAX_EXACT))
    }
}

/// Rolls one die from `source`, charging the roll budget. The one place a face is drawn.
#[inline]
pub(crate) fn roll_face<S: DieSource + ?Sized>(
    source: &mut S,
    rolls_left: &mut u32,
    budget: u32,
    die: DieShape,
) -> Result<i64, Fault> {
    if *rolls_left == 0 {
        return Err(Fault::TooManyRolls(budget));
    }
    *rolls_left -= 1;
    let sides = die.sides;
    match source.roll_die(sides) {
        Some(index) if (1..=sides).contains(&index) => Ok(i64::from(index) * die.step + die.offset),
        _ => Err(Fault::SourceExhausted(sides)),
    }
}
