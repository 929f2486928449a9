//! Rolling a parsed expression.
//!
//! One evaluator serves both the fast path (`roll_total`: no record, no allocation for groups
//! of up to 16 dice) and the full path (`roll`: every die and its fate recorded). Operators on
//! a dice group follow Avrae's d20 semantics exactly, applied in order: selectors look at the
//! dice still kept; rerolls replace a die's value (the old face is kept in the record as
//! rerolled); explosions append new dice; `mi`/`ma` change kept values; keep/drop mark dice
//! dropped.

use smallvec::SmallVec;

use super::ast::{BinaryOp, DiceOp, DiceTerm, Node, Selector, SetOp, Written};
use super::error::DiceError;
use super::roll::{Counted, Die, Fate, RollPart};
use super::source::DieSource;

/// One die of a group while it is being rolled.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: i64,
    /// The face as rolled, before `mi`/`ma`.
    rolled: i64,
    dropped: bool,
    exploded: bool,
    compounded: bool,
    counted: Option<Counted>,
}

impl Entry {
    fn new(value: i64) -> Self {
        Entry {
            value,
            rolled: value,
            dropped: false,
            exploded: false,
            compounded: false,
            counted: None,
        }
    }
}

type Entries = SmallVec<[Entry; 16]>;
type Mask = SmallVec<[bool; 16]>;

/// What the full path records, in the order the evaluator meets it.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Record {
    pub groups: Vec<Vec<Die>>,
    /// For each set or parenthesis with keep/drop operators: which items were kept.
    pub sets: Vec<Vec<bool>>,
    pub parts: Vec<RollPart>,
}

pub(crate) struct Evaluator<'a, S: DieSource + ?Sized> {
    source: &'a mut S,
    rolls_left: u32,
    budget: u32,
    record: Option<&'a mut Record>,
}

impl<'a, S: DieSource + ?Sized> Evaluator<'a, S> {
    pub(crate) fn new(source: &'a mut S, budget: u32, record: Option<&'a mut Record>) -> Self {
        Evaluator {
            source,
            rolls_left: budget,
            budget,
            record,
        }
    }

    #[inline]
    fn roll_one(&mut self, term: &DiceTerm) -> Result<i64, DiceError> {
        if self.rolls_left == 0 {
            return Err(DiceError::TooManyRolls {
                budget: self.budget,
            });
        }
        self.rolls_left -= 1;
        let sides = term.faces.count();
        match self.source.roll_die(sides) {
            Some(index) if (1..=sides).contains(&index) => Ok(term.faces.value(index)),
            _ => Err(DiceError::SourceExhausted { sides }),
        }
    }

    /// Evaluates the root, splitting a top-level sum into labelled parts when recording.
    pub(crate) fn eval_root(&mut self, node: &Node) -> Result<f64, DiceError> {
        if self.record.is_some() {
            self.eval_parts(node, false)
        } else {
            self.eval(node)
        }
    }

    fn eval_parts(&mut self, node: &Node, negative: bool) -> Result<f64, DiceError> {
        let (value, label) = match node {
            Node::Binary(BinaryOp::Add, a, b) => {
                let x = self.eval_parts(a, negative)?;
                return Ok(x + self.eval_parts(b, negative)?);
            }
            Node::Binary(BinaryOp::Sub, a, b) => {
                let x = self.eval_parts(a, negative)?;
                return Ok(x - self.eval_parts(b, !negative)?);
            }
            Node::Labelled(inner, label) => (self.eval(inner)?, Some(label.to_string())),
            other => (self.eval(other)?, None),
        };
        let signed = if negative { -value } else { value };
        if let Some(rec) = self.record.as_deref_mut() {
            rec.parts.push(RollPart {
                label,
                value: signed as i64,
            });
        }
        Ok(value)
    }

    pub(crate) fn eval(&mut self, node: &Node) -> Result<f64, DiceError> {
        match node {
            Node::Number(v) => Ok(*v),
            Node::Dice(term) => self.dice(term, &[]),
            Node::Negate(x) => Ok(-self.eval(x)?),
            Node::Binary(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                op.apply(x, y).ok_or(DiceError::DivisionByZero)
            }
            Node::Labelled(x, _) => self.eval(x),
            Node::Paren(x, ops) if ops.is_empty() => self.eval(x),
            Node::Paren(x, ops) => self.operated(x, ops),
            Node::Set(items, ops) => self.set(items, ops),
        }
    }

    /// `(x)k..`: Avrae's parenthesis exposes what is inside as the set to operate on: the dice
    /// of a dice group, the items of a set, or else the single value.
    fn operated(&mut self, inner: &Node, ops: &[SetOp]) -> Result<f64, DiceError> {
        match inner {
            Node::Dice(term) => self.dice(term, ops),
            Node::Labelled(x, _) => self.operated(x, ops),
            Node::Set(items, own) => {
                let all: Vec<SetOp> = own.iter().chain(ops).cloned().collect();
                self.set(items, &all)
            }
            Node::Paren(x, own) => {
                let all: Vec<SetOp> = own.iter().chain(ops).cloned().collect();
                self.operated(x, &all)
            }
            other => self.set(std::slice::from_ref(other), ops),
        }
    }

    fn set(&mut self, items: &[Node], ops: &[SetOp]) -> Result<f64, DiceError> {
        let mut values: SmallVec<[f64; 8]> = SmallVec::with_capacity(items.len());
        for item in items {
            values.push(self.eval(item)?);
        }
        let mut kept: SmallVec<[bool; 8]> = SmallVec::from_elem(true, values.len());
        for op in ops {
            let selected = select_values(&values, &kept, &op.selectors);
            for (k, s) in kept.iter_mut().zip(&selected) {
                if *k && (*s != op.keep) {
                    *k = false;
                }
            }
        }
        if !ops.is_empty()
            && let Some(rec) = self.record.as_deref_mut()
        {
            rec.sets.push(kept.to_vec());
        }
        Ok(values
            .iter()
            .zip(&kept)
            .filter(|(_, k)| **k)
            .map(|(v, _)| v)
            .sum())
    }

    fn dice(&mut self, term: &DiceTerm, extra: &[SetOp]) -> Result<f64, DiceError> {
        if term.ops.is_empty() && extra.is_empty() && self.record.is_none() {
            let mut sum = 0i64;
            for _ in 0..term.count {
                sum += self.roll_one(term)?;
            }
            return Ok(sum as f64);
        }
        let mut dice: Entries = SmallVec::with_capacity(term.count as usize);
        for _ in 0..term.count {
            let v = self.roll_one(term)?;
            dice.push(Entry::new(v));
        }
        // (slot, face) of every face replaced by a reroll, for the record.
        let mut rerolled: SmallVec<[(usize, i64); 8]> = SmallVec::new();
        let mut counted: Option<i64> = None;
        for op in &term.ops {
            counted = self.apply(term, op, &mut dice, &mut rerolled)?.or(counted);
        }
        for op in extra {
            let sels = op.selectors.clone();
            let as_dice = if op.keep {
                DiceOp::Keep(sels, super::ast::Spelling::Avrae)
            } else {
                DiceOp::Drop(sels, super::ast::Spelling::Avrae)
            };
            self.apply(term, &as_dice, &mut dice, &mut rerolled)?;
        }
        let value =
            counted.unwrap_or_else(|| dice.iter().filter(|d| !d.dropped).map(|d| d.value).sum());
        if let Some(rec) = self.record.as_deref_mut() {
            rec.groups.push(record_group(&dice, &rerolled));
        }
        Ok(value as f64)
    }

    /// Applies one operator; returns the group's value when the operator decides it (counting).
    fn apply(
        &mut self,
        term: &DiceTerm,
        op: &DiceOp,
        dice: &mut Entries,
        rerolled: &mut SmallVec<[(usize, i64); 8]>,
    ) -> Result<Option<i64>, DiceError> {
        match op {
            DiceOp::Keep(sels, _) => {
                let mask = select(dice, sels);
                for (d, keep) in dice.iter_mut().zip(mask) {
                    if !keep {
                        d.dropped = true;
                    }
                }
            }
            DiceOp::Drop(sels, _) => {
                let mask = select(dice, sels);
                for (d, drop) in dice.iter_mut().zip(mask) {
                    if drop {
                        d.dropped = true;
                    }
                }
            }
            DiceOp::Reroll(sels, _) => loop {
                let mask = select(dice, sels);
                if !mask.contains(&true) {
                    break;
                }
                self.reroll_selected(term, dice, &mask, rerolled)?;
            },
            DiceOp::RerollOnce(sels, _) => {
                let mask = select(dice, sels);
                self.reroll_selected(term, dice, &mask, rerolled)?;
            }
            DiceOp::RerollAdd(sels) => {
                if let Some(i) = first_selected(dice, sels) {
                    dice[i].exploded = true;
                    let v = self.roll_one(term)?;
                    dice.push(Entry::new(v));
                }
            }
            DiceOp::Explode(sels, _) => loop {
                let mask = select(dice, sels);
                let mut any = false;
                for (i, selected) in mask.iter().enumerate() {
                    if *selected && !dice[i].exploded {
                        any = true;
                        dice[i].exploded = true;
                        let v = self.roll_one(term)?;
                        dice.push(Entry::new(v));
                    }
                }
                if !any {
                    break;
                }
            },
            DiceOp::Compound(sel) => {
                for i in 0..dice.len() {
                    if dice[i].dropped {
                        continue;
                    }
                    let mut last = dice[i].value;
                    while sel.matches_value(last) {
                        last = self.roll_one(term)?;
                        dice[i].value += last;
                        dice[i].compounded = true;
                    }
                    dice[i].rolled = dice[i].value;
                }
            }
            DiceOp::Min(n) => {
                for d in dice.iter_mut().filter(|d| !d.dropped && d.value < *n) {
                    d.value = *n;
                }
            }
            DiceOp::Max(n) => {
                for d in dice.iter_mut().filter(|d| !d.dropped && d.value > *n) {
                    d.value = *n;
                }
            }
            DiceOp::Count { success, failure } => {
                let mut total = 0;
                for d in dice.iter_mut().filter(|d| !d.dropped) {
                    if success.matches_value(d.value) {
                        d.counted = Some(Counted::Success);
                        total += 1;
                    } else if failure.is_some_and(|f| f.matches_value(d.value)) {
                        d.counted = Some(Counted::Failure);
                        total -= 1;
                    }
                }
                return Ok(Some(total));
            }
        }
        Ok(None)
    }

    fn reroll_selected(
        &mut self,
        term: &DiceTerm,
        dice: &mut Entries,
        mask: &[bool],
        rerolled: &mut SmallVec<[(usize, i64); 8]>,
    ) -> Result<(), DiceError> {
        for (i, selected) in mask.iter().enumerate() {
            if *selected {
                if self.record.is_some() {
                    rerolled.push((i, dice[i].value));
                }
                let v = self.roll_one(term)?;
                let exploded = dice[i].exploded;
                dice[i] = Entry {
                    exploded,
                    ..Entry::new(v)
                };
            }
        }
        Ok(())
    }
}

/// Which kept dice the selectors pick (their union).
fn select(dice: &[Entry], sels: &[Selector]) -> Mask {
    let mut mask: Mask = SmallVec::from_elem(false, dice.len());
    for sel in sels {
        match *sel {
            Selector::Range { lo, hi, .. } => {
                for (m, d) in mask.iter_mut().zip(dice) {
                    if !d.dropped && lo <= d.value && d.value <= hi {
                        *m = true;
                    }
                }
            }
            Selector::Highest(n) | Selector::Lowest(n) => {
                for i in ranked(dice, matches!(sel, Selector::Highest(_)))
                    .into_iter()
                    .take(n as usize)
                {
                    mask[i] = true;
                }
            }
        }
    }
    mask
}

/// Indices of the kept dice from highest to lowest (or lowest to highest), ties in order.
fn ranked(dice: &[Entry], highest_first: bool) -> SmallVec<[usize; 16]> {
    let mut idx: SmallVec<[usize; 16]> = (0..dice.len()).filter(|&i| !dice[i].dropped).collect();
    if highest_first {
        idx.sort_by(|&a, &b| dice[b].value.cmp(&dice[a].value));
    } else {
        idx.sort_by(|&a, &b| dice[a].value.cmp(&dice[b].value));
    }
    idx
}

/// The first die the selectors pick, in selection order (Avrae's `ra` explodes only that one).
fn first_selected(dice: &[Entry], sels: &[Selector]) -> Option<usize> {
    let sel = sels.first()?;
    match *sel {
        Selector::Range { lo, hi, .. } => dice
            .iter()
            .position(|d| !d.dropped && lo <= d.value && d.value <= hi),
        Selector::Highest(n) | Selector::Lowest(n) => {
            if n == 0 {
                return None;
            }
            ranked(dice, matches!(sel, Selector::Highest(_)))
                .first()
                .copied()
        }
    }
}

/// Set selection works on arbitrary numbers (a set item may be 2.5), so comparisons use the
/// operator as written rather than the integer range.
fn select_values(values: &[f64], kept: &[bool], sels: &[Selector]) -> SmallVec<[bool; 8]> {
    let mut mask: SmallVec<[bool; 8]> = SmallVec::from_elem(false, values.len());
    for sel in sels {
        match *sel {
            Selector::Range { written, .. } => {
                for i in (0..values.len()).filter(|&i| kept[i]) {
                    let v = values[i];
                    mask[i] |= match written {
                        Written::Bare(n) | Written::Equals(n) => v == n as f64,
                        Written::Greater(n) => v > n as f64,
                        Written::GreaterEq(n) => v >= n as f64,
                        Written::Less(n) => v < n as f64,
                        Written::LessEq(n) => v <= n as f64,
                    };
                }
            }
            Selector::Highest(n) | Selector::Lowest(n) => {
                let mut idx: SmallVec<[usize; 8]> =
                    (0..values.len()).filter(|&i| kept[i]).collect();
                if matches!(sel, Selector::Highest(_)) {
                    idx.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
                } else {
                    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
                }
                for &i in idx.iter().take(n as usize) {
                    mask[i] = true;
                }
            }
        }
    }
    mask
}

fn record_group(dice: &[Entry], rerolled: &[(usize, i64)]) -> Vec<Die> {
    let mut out = Vec::with_capacity(dice.len() + rerolled.len());
    for (slot, d) in dice.iter().enumerate() {
        for &(_, face) in rerolled.iter().filter(|(s, _)| *s == slot) {
            out.push(Die {
                value: face,
                fate: Fate::Rerolled,
                rolled: None,
                counted: None,
            });
        }
        let fate = if d.dropped {
            Fate::Dropped
        } else if d.compounded {
            Fate::Compounded
        } else if d.exploded {
            Fate::Exploded
        } else {
            Fate::Kept
        };
        let rolled = (d.rolled != d.value).then_some(d.rolled);
        out.push(Die {
            value: d.value,
            fate,
            rolled,
            counted: d.counted,
        });
    }
    out
}
