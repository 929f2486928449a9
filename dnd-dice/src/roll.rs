//! The result of rolling: the total, every die with its fate, and a readable rendering.

use std::fmt;
use std::sync::Arc;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::DiceExpr;
use super::ast::{DiceTerm, Node, Num, SetOp};
use super::eval::Record;
#[cfg(feature = "serde")]
use super::{Dialect, DiceError};

/// What happened to one die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Fate {
    /// Counts toward the total.
    Kept,
    /// Removed by a keep or drop operator; does not count.
    Dropped,
    /// Replaced by a reroll; does not count (the replacement follows it).
    Rerolled,
    /// Counts, and made another die be rolled.
    Exploded,
    /// Counts; its explosions were added into it (Roll20 `!!`).
    Compounded,
}

impl Fate {
    /// Whether a die with this fate counts toward the total.
    pub fn counts(self) -> bool {
        matches!(self, Fate::Kept | Fate::Exploded | Fate::Compounded)
    }
}

/// How a die scored under a Roll20 target number (`8d6>=5f1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Counted {
    /// Met the target: +1.
    Success,
    /// Met the failure condition: -1.
    Failure,
}

/// One die as rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Die {
    /// The value it shows (after `mi`/`ma`; for `!!`, the compounded sum).
    pub value: i64,
    /// What happened to it.
    pub fate: Fate,
    /// The face it first showed, when `mi`/`ma` changed it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub rolled: Option<i64>,
    /// Its score under a target number, when the group counts successes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub counted: Option<Counted>,
}

/// A natural 20 or natural 1 on a d20 test (the leftmost dice of the expression are d20s of
/// which exactly one is kept, as with `1d20+5` or `2d20kh1+5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Natural {
    /// The kept d20 shows 20.
    Twenty,
    /// The kept d20 shows 1.
    One,
}

/// One term of the top-level sum, with its label: `2d6 [slashing] + 1d6 [fire]` has two.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RollPart {
    /// The label written after the term (`slashing`), if any.
    pub label: Option<Arc<str>>,
    /// What the term contributed to the total (negative for a subtracted term).
    pub value: i64,
}

/// The outcome of [`DiceExpr::roll`]: the total and how it came about.
///
/// `Display` renders it as `4d6kh3 (6, 5, ~~2~~, 4) = 15`: dropped and rerolled dice struck
/// through, exploded dice marked `!`, a face changed by `mi`/`ma` shown as `1 -> 2`.
#[derive(Debug, Clone, PartialEq)]
pub struct Roll {
    expr: DiceExpr,
    total: i64,
    record: Record,
}

impl Roll {
    pub(crate) fn new(expr: DiceExpr, total: i64, record: Record) -> Self {
        Roll {
            expr,
            total,
            record,
        }
    }

    /// The total, truncated toward zero when Avrae's `/` made it fractional.
    pub fn total(&self) -> i64 {
        self.total
    }

    /// The expression that was rolled.
    pub fn expr(&self) -> &DiceExpr {
        &self.expr
    }

    /// The dice of each dice group, in the order the groups appear in the expression.
    pub fn groups(&self) -> impl Iterator<Item = &[Die]> + '_ {
        (0..self.record.group_ends.len()).filter_map(|i| self.group(i))
    }

    /// The dice of group `i` (0 is the leftmost dice group).
    pub fn group(&self, i: usize) -> Option<&[Die]> {
        let end = *self.record.group_ends.get(i)? as usize;
        let start = if i == 0 {
            0
        } else {
            self.record.group_ends[i - 1] as usize
        };
        self.record.dice.get(start..end)
    }

    /// Every die of every group, in order.
    pub fn dice(&self) -> impl Iterator<Item = &Die> {
        self.record.dice.iter()
    }

    /// The terms of the top-level sum with their labels. Rolls of the fast path
    /// ([`DiceExpr::roll_total`]) do not record these.
    pub fn parts(&self) -> &[RollPart] {
        &self.record.parts
    }

    /// The total split by label, for damage types: each unlabelled term takes the label of the
    /// nearest labelled term to its right, else to its left (`1d8 + 3 [slashing]` is all
    /// slashing); with no label anywhere, one part labelled `None`.
    pub fn labelled_totals(&self) -> Vec<RollPart> {
        let parts = &self.record.parts;
        let label_at = |i: usize| -> Option<Arc<str>> {
            parts[i..]
                .iter()
                .chain(parts[..i].iter().rev())
                .find_map(|p| p.label.clone())
        };
        let mut out: Vec<RollPart> = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let label = label_at(i);
            match out.iter_mut().find(|o| o.label == label) {
                Some(o) => o.value = o.value.saturating_add(p.value),
                None => out.push(RollPart {
                    label,
                    value: p.value,
                }),
            }
        }
        out
    }

    /// A natural 20 or 1, when the leftmost dice are a d20 test (see [`Natural`]).
    pub fn natural(&self) -> Option<Natural> {
        let term = self.expr.root().leftmost_dice()?;
        if term.faces != super::ast::Faces::Sides(20) {
            return None;
        }
        let first = self.group(0)?;
        let mut kept = first.iter().filter(|d| d.fate.counts());
        let die = kept.next()?;
        if kept.next().is_some() {
            return None;
        }
        match die.value {
            20 => Some(Natural::Twenty),
            1 => Some(Natural::One),
            _ => None,
        }
    }

    /// Whether the roll is a natural 20 (see [`Natural`]).
    pub fn is_natural_20(&self) -> bool {
        self.natural() == Some(Natural::Twenty)
    }

    /// Whether the roll is a natural 1 (see [`Natural`]).
    pub fn is_natural_1(&self) -> bool {
        self.natural() == Some(Natural::One)
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut w = RollWriter {
            record: &self.record,
            group: 0,
            set: 0,
        };
        w.node(f, self.expr.root(), false)?;
        write!(f, " = {}", self.total)
    }
}

/// Walks the tree in evaluation order, consuming recorded groups and sets as it meets them.
struct RollWriter<'a> {
    record: &'a Record,
    group: usize,
    set: usize,
}

impl RollWriter<'_> {
    fn wrapped(
        &mut self,
        f: &mut dyn fmt::Write,
        node: &Node,
        parens: bool,
        struck: bool,
    ) -> fmt::Result {
        if parens {
            f.write_str("(")?;
        }
        self.node(f, node, struck)?;
        if parens {
            f.write_str(")")?;
        }
        Ok(())
    }

    fn node(&mut self, f: &mut dyn fmt::Write, node: &Node, struck: bool) -> fmt::Result {
        match node {
            Node::Number(v) => write!(f, "{}", Num(*v)),
            Node::Dice(term) => self.dice(f, term, struck),
            Node::Negate(x) | Node::Plus(x) => {
                f.write_str(if matches!(node, Node::Negate(_)) {
                    "-"
                } else {
                    "+"
                })?;
                self.wrapped(f, x, x.binds_loosely(), struck)
            }
            Node::Binary(op, pair) => {
                let [a, b] = &**pair;
                let (left, right) = op.operand_parens(a, b);
                self.wrapped(f, a, left, struck)?;
                write!(f, " {} ", op.symbol())?;
                self.wrapped(f, b, right, struck)
            }
            Node::Labelled(x, label) => {
                self.wrapped(f, x, x.binds_loosely(), struck)?;
                write!(f, " [{label}]")
            }
            Node::Paren(x, ops) => self.operated(f, x, ops, struck),
            Node::Set(items, ops) => self.set_items(f, items, ops, struck),
        }
    }

    fn operated(
        &mut self,
        f: &mut dyn fmt::Write,
        inner: &Node,
        ops: &[SetOp],
        struck: bool,
    ) -> fmt::Result {
        match inner {
            Node::Dice(term) => {
                f.write_str("(")?;
                self.dice(f, term, struck)?;
                f.write_str(")")?;
            }
            Node::Labelled(x, _) => return self.operated(f, x, ops, struck),
            Node::Set(items, own) => {
                let all: Vec<SetOp> = own.iter().chain(ops).cloned().collect();
                return self.set_items(f, items, &all, struck);
            }
            Node::Paren(x, own) => {
                let all: Vec<SetOp> = own.iter().chain(ops).cloned().collect();
                return self.operated(f, x, &all, struck);
            }
            other => {
                return self.set_items(f, std::slice::from_ref(other), ops, struck);
            }
        }
        for op in ops {
            write!(f, "{op}")?;
        }
        Ok(())
    }

    fn set_items(
        &mut self,
        f: &mut dyn fmt::Write,
        items: &[Node],
        ops: &[SetOp],
        struck: bool,
    ) -> fmt::Result {
        // Items are evaluated (and recorded) before the set's own kept flags.
        let mut texts = Vec::with_capacity(items.len());
        for item in items {
            let mut text = String::new();
            self.node(&mut text, item, false)?;
            texts.push(text);
        }
        let kept: Option<&Vec<bool>> = if ops.is_empty() {
            None
        } else {
            let k = self.record.sets.get(self.set);
            self.set += 1;
            k
        };
        f.write_str("(")?;
        for (i, text) in texts.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let dropped = kept.is_some_and(|k| !k.get(i).copied().unwrap_or(true));
            if dropped && !struck && !text.contains("~~") {
                write!(f, "~~{text}~~")?;
            } else {
                f.write_str(text)?;
            }
        }
        f.write_str(if items.len() == 1 && ops.is_empty() {
            ",)"
        } else {
            ")"
        })?;
        for op in ops {
            write!(f, "{op}")?;
        }
        Ok(())
    }

    fn dice(&mut self, f: &mut dyn fmt::Write, term: &DiceTerm, struck: bool) -> fmt::Result {
        write!(f, "{term}")?;
        let start = if self.group == 0 {
            0
        } else {
            self.record.group_ends[self.group - 1] as usize
        };
        let Some(dice) = self
            .record
            .group_ends
            .get(self.group)
            .and_then(|&end| self.record.dice.get(start..end as usize))
        else {
            return Ok(());
        };
        self.group += 1;
        f.write_str(" (")?;
        for (i, d) in dice.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let strike = !d.fate.counts() && !struck;
            if strike {
                f.write_str("~~")?;
            }
            if let Some(r) = d.rolled {
                write!(f, "{r} -> ")?;
            }
            write!(f, "{}", d.value)?;
            match d.fate {
                Fate::Exploded => f.write_str("!")?,
                Fate::Compounded => f.write_str("!!")?,
                _ => {}
            }
            if strike {
                f.write_str("~~")?;
            }
        }
        f.write_str(")")
    }
}

/// The serialized form of a [`Roll`], for mechanics panels and turn logs.
#[cfg(feature = "serde")]
#[derive(Serialize, Deserialize)]
struct RollWire {
    expression: String,
    dialect: Dialect,
    total: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    natural: Option<Natural>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
    /// The rendering, as `Display` gives it (ignored when reading).
    #[serde(default)]
    text: String,
    groups: Vec<GroupWire>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sets: Vec<Vec<bool>>,
    #[serde(default)]
    parts: Vec<RollPart>,
}

#[cfg(feature = "serde")]
#[derive(Serialize, Deserialize)]
struct GroupWire {
    /// The group as written, such as `4d6kh3`.
    notation: String,
    dice: Vec<Die>,
}

#[cfg(feature = "serde")]
impl Serialize for Roll {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut notations = Vec::new();
        self.expr
            .root()
            .for_each_dice(&mut |t| notations.push(t.to_string()));
        let wire = RollWire {
            expression: self.expr.to_string(),
            dialect: self.expr.dialect(),
            total: self.total,
            natural: self.natural(),
            comment: self.expr.comment().map(str::to_owned),
            text: self.to_string(),
            groups: self
                .groups()
                .zip(notations)
                .map(|(dice, notation)| GroupWire {
                    notation,
                    dice: dice.to_vec(),
                })
                .collect(),
            sets: self.record.sets.clone(),
            parts: self.record.parts.to_vec(),
        };
        wire.serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Roll {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = RollWire::deserialize(deserializer)?;
        let mut text = wire.expression.clone();
        if let Some(c) = &wire.comment {
            text.push_str(" # ");
            text.push_str(c);
        }
        let expr = DiceExpr::parse_with(&text, wire.dialect).map_err(|e: DiceError| {
            serde::de::Error::custom(format!(
                "the roll's expression {:?} does not parse: {e}",
                wire.expression
            ))
        })?;
        let mut terms = 0;
        expr.root().for_each_dice(&mut |_| terms += 1);
        if terms != wire.groups.len() {
            return Err(serde::de::Error::custom(format!(
                "the roll has {} dice groups but its expression {:?} has {terms}",
                wire.groups.len(),
                wire.expression
            )));
        }
        let mut record = Record {
            sets: wire.sets,
            parts: wire.parts.into(),
            ..Record::default()
        };
        for group in wire.groups {
            record.dice.extend(group.dice);
            record.group_ends.push(record.dice.len() as u32);
        }
        Ok(Roll {
            expr,
            total: wire.total,
            record,
        })
    }
}
