//! Rolling a parsed expression.
//!
//! One evaluator serves both the fast path (`roll_total`: no record, no allocation for groups
//! of up to 16 dice) and the full path (`roll`: every die and its fate recorded). It walks the
//! tree; a dice group and its operators are rolled by [`Group`](super::group::Group).

use smallvec::SmallVec;

use super::ast::{BinaryOp, DiceTerm, Node, Selector, SetOp, Written};
use super::error::Fault;
use super::group::Group;
use super::plan::{FastGroup, roll_face};
use super::roll::{Die, Fate, RollPart};
use super::source::DieSource;

/// What the full path records, in the order the evaluator meets it.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Record {
    /// Every die of every group, in order; `group_ends[i]` is where group `i` ends.
    pub dice: Vec<Die>,
    pub group_ends: SmallVec<[u32; 4]>,
    /// For each set or parenthesis with keep/drop operators: which items were kept.
    pub sets: Vec<Vec<bool>>,
    pub parts: SmallVec<[RollPart; 2]>,
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
    fn roll_one(&mut self, term: &DiceTerm) -> Result<i64, Fault> {
        roll_face(
            &mut *self.source,
            &mut self.rolls_left,
            self.budget,
            term.faces.into(),
        )
    }

    /// Evaluates the root, splitting a top-level sum into labelled parts when recording.
    pub(crate) fn eval_root(&mut self, node: &Node) -> Result<f64, Fault> {
        if self.record.is_some() {
            self.eval_parts(node, false)
        } else {
            self.eval(node)
        }
    }

    fn eval_parts(&mut self, node: &Node, negative: bool) -> Result<f64, Fault> {
        let (value, label) = match node {
            Node::Binary(BinaryOp::Add, pair) => {
                let [a, b] = &**pair;
                let x = self.eval_parts(a, negative)?;
                return Ok(x + self.eval_parts(b, negative)?);
            }
            Node::Binary(BinaryOp::Sub, pair) => {
                let [a, b] = &**pair;
                let x = self.eval_parts(a, negative)?;
                return Ok(x - self.eval_parts(b, !negative)?);
            }
            Node::Labelled(inner, label) => (self.eval(inner)?, Some(label)),
            other => (self.eval(other)?, None),
        };
        let signed = if negative { -value } else { value };
        if let Some(rec) = self.record.as_deref_mut() {
            // The part goes in without its label, which (rarely there) is set in place: a part
            // built whole on the stack and copied in stalled on the copy.
            rec.parts.push(RollPart {
                label: None,
                value: signed as i64,
            });
            if let (Some(label), Some(part)) = (label, rec.parts.last_mut()) {
                part.label = Some(label.clone());
            }
        }
        Ok(value)
    }

    pub(crate) fn eval(&mut self, node: &Node) -> Result<f64, Fault> {
        match node {
            Node::Number(v) => Ok(*v),
            Node::Dice(term) => self.dice(term, &[]),
            Node::Negate(x) => Ok(-self.eval(x)?),
            Node::Plus(x) => self.eval(x),
            Node::Binary(op, pair) => {
                let [a, b] = &**pair;
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                op.apply(x, y).ok_or(Fault::DivisionByZero)
            }
            Node::Labelled(x, _) => self.eval(x),
            Node::Paren(x, ops) => self.operated(x, ops),
            Node::Set(items, ops) => self.set(items, ops),
        }
    }

    /// `(x)k..`: Avrae's parenthesis exposes what is inside as the set to operate on: the dice
    /// of a dice group, the items of a set, or else the single value.
    fn operated(&mut self, inner: &Node, ops: &[SetOp]) -> Result<f64, Fault> {
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

    fn set(&mut self, items: &[Node], ops: &[SetOp]) -> Result<f64, Fault> {
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

    fn dice(&mut self, term: &DiceTerm, extra: &[SetOp]) -> Result<f64, Fault> {
        if self.record.is_none()
            && extra.is_empty()
            && let Some(fast) = FastGroup::of(term)
        {
            let mut roll =
                |die| roll_face(&mut *self.source, &mut self.rolls_left, self.budget, die);
            return Ok(fast.total(&mut roll)? as f64);
        }
        if term.ops.is_empty()
            && extra.is_empty()
            && let Some(rec) = self.record.as_deref_mut()
        {
            // Plain dice (`1d20`, `8d6`) are recorded as they are rolled: every die is kept.
            let mut sum = 0;
            for _ in 0..term.count {
                let value = roll_face(
                    &mut *self.source,
                    &mut self.rolls_left,
                    self.budget,
                    term.faces.into(),
                )?;
                rec.dice.push(Die {
                    value,
                    fate: Fate::Kept,
                    rolled: None,
                    counted: None,
                });
                sum += value;
            }
            rec.group_ends.push(rec.dice.len() as u32);
            return Ok(sum as f64);
        }
        let mut group = Group::new(term.count, self.record.is_some());
        for _ in 0..term.count {
            group.push(self.roll_one(term)?);
        }
        let mut counted: Option<i64> = None;
        let mut roll = || self.roll_one(term);
        for op in &term.ops {
            counted = group.apply(op, &mut roll)?.or(counted);
        }
        for op in extra {
            group.keep_or_drop(op.keep, &op.selectors);
        }
        let value = counted.unwrap_or_else(|| group.total());
        if let Some(rec) = self.record.as_deref_mut() {
            group.append_record(&mut rec.dice);
            rec.group_ends.push(rec.dice.len() as u32);
        }
        Ok(value as f64)
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
