//! Dice notation: parse once, roll many times, and know the exact odds.
//!
//! Players and bots already have macros in one of two notations, so both are accepted, behind
//! one parser ([`Dialect`]):
//!
//! | | Roll20 (default) | Avrae (d20) |
//! |---|---|---|
//! | dice | `3d6`, `d20`, `d%` (1–100), `4dF` (−1/0/+1) | `3d6`, `d20`, `d%` (the tens die: 0, 10, …, 90) |
//! | keep / drop | `kh3`, `kl1`, `k3`, `dh1`, `dl1`, `d1` (a bare `kh` is `kh1`) | `k` and `p` with a selector: `kh3`, `pl1`, `k>4`, `p<3`, `k6` (by value) |
//! | reroll | `r1`, `r<3` (until it no longer matches), `ro<3` (once) | `rr1`, `rr<3`, `ro<3`, `ra6` (reroll and add) |
//! | explode | `!`, `!>5`, compounding `!!` | `e6`, `e>5` |
//! | clamp | `mi2`, `ma5` | `mi2`, `ma5` |
//! | compare points | `<3` means 3 **or less**, `>5` means 5 **or more** (as on Roll20); `<=`, `>=`, `=` also | `<3` means less than 3, `>5` more than 5 (strict, as in d20) |
//! | successes | `8d6>=5f1`: dice of 5+ count +1, dice of 1 count −1 | — |
//! | arithmetic | `+ - * /`; `/` rounds down (as 5e does) | `+ - * / // %` and `== != < <= > >=`; `/` is true division and the final total is truncated toward zero |
//! | sets | — | `(1d4, 2+2, 3d6kl1)kh1` |
//!
//! In both: `[labels]` after a term (`2d6 [slashing] + 1d6 [fire]`) are carried to the result
//! for damage types; text after a space or `#` is a comment; [`Advantage`] turns the leftmost
//! `1d20` into `2d20kh1` / `2d20kl1`; natural 20s and 1s are reported. Roll20 applies its dice
//! modifiers in a fixed order (rerolls, explosions, `mi`/`ma`, keep/drop, target number) while
//! Avrae applies them left to right, exactly as d20 does.
//!
//! Every limit is checked up front where it can be ([`Limits`]): an expression that could
//! never stop (`1d1!`, `1d6r<7`) is refused before a die is rolled, never silently clamped.
//!
//! The Avrae dialect gives the same totals as Avrae's `d20` library for the same faces (a test
//! compares them on thousands of random expressions). Where it departs from d20, on purpose:
//! - rerolls or explosions that can never stop are refused when parsing, where d20 raises
//!   `TooManyRolls` while rolling; the 1,000-dice budget is otherwise the same;
//! - a group holds at most 1,000 dice and a die at most 1,000,000 sides ([`Limits`]);
//! - a trailing comment is always accepted after a space or `#` (d20 needs `allow_comments`);
//! - `5.` is not a number (write `5` or `5.0`);
//! - plain parentheses are not kept in the tree, so `(1d20)` renders as `1d20 (7) = 7`.
//!
//! ```
//! use dnd_dice::{DiceExpr, seeded_rng};
//! let attack = DiceExpr::parse("1d20+5").unwrap();
//! let roll = attack.roll(&mut seeded_rng(7)).unwrap();
//! assert!((6..=25).contains(&roll.total()));
//! let odds = attack.distribution().unwrap();
//! assert!((odds.probability_at_least(15) - 0.55).abs() < 1e-12);
//! ```

mod ast;
mod distribution;
mod error;
mod eval;
#[cfg(feature = "fair")]
pub mod fair;
mod group;
mod parser;
mod plan;
mod roll;
mod source;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

pub use distribution::{Distribution, EXPLOSION_DEPTH};

/// A plain sum of dice groups, each `(sign, count, sides)`, and a constant: see
/// [`DiceExpr::simple_terms`].
pub type SimpleTerms = (Vec<(i8, u32, u32)>, i64);
pub use error::DiceError;
#[cfg(feature = "fair")]
pub use fair::{FairDice, TurnDice};
pub use roll::{Counted, Die, Fate, Natural, Roll, RollPart};
pub use source::{DieSource, FixedFaces, GameRng, game_rng, seeded_rng};

use ast::{DiceOp, Node, Selector, Spelling};
use eval::{Evaluator, Record};
use plan::Plan;

/// Which notation an expression is written in. See the [module docs](self) for the table of
/// differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Dialect {
    /// Roll20's notation, the default.
    #[default]
    Roll20,
    /// Avrae's notation, with the semantics of its `d20` library.
    Avrae,
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "roll20" => Ok(Dialect::Roll20),
            "avrae" | "d20" => Ok(Dialect::Avrae),
            other => Err(format!(
                "unknown dice dialect {other:?}: use roll20 or avrae"
            )),
        }
    }
}

/// Rolling a d20 test with advantage or disadvantage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub enum Advantage {
    /// Roll as written.
    #[default]
    Normal,
    /// Roll two d20s, keep the higher.
    Advantage,
    /// Roll two d20s, keep the lower.
    Disadvantage,
}

/// Bounds that stop abusive or runaway expressions. The defaults suit a game table and match
/// Avrae's roll budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest expression accepted, in bytes.
    pub max_length: usize,
    /// Deepest nesting of parentheses and signs.
    pub max_depth: usize,
    /// Most dice in one group (`1000d6`).
    pub max_dice: u32,
    /// Most sides on one die.
    pub max_sides: u32,
    /// Most dice rolled by one evaluation, rerolls and explosions included (also the most dice
    /// an expression may name).
    pub roll_budget: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_length: 1000,
            max_depth: 32,
            max_dice: 1000,
            max_sides: 1_000_000,
            roll_budget: 1000,
        }
    }
}

/// A parsed dice expression. Cheap to clone (the tree is shared) and safe to roll from many
/// threads at once.
#[derive(Clone)]
pub struct DiceExpr {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    root: Node,
    /// The flat fast path for `roll_total` (see [`plan`]), compiled on the second call so
    /// that an expression parsed to be rolled once does not pay for it.
    plan: OnceLock<Option<Plan>>,
    /// Whether `roll_total` has run once.
    rolled: AtomicBool,
    dialect: Dialect,
    comment: Option<Box<str>>,
    roll_budget: u32,
    /// How many dice the expression names: the record's starting capacity.
    dice: u32,
}

impl DiceExpr {
    /// Parses an expression in the default dialect (Roll20).
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        Self::parse_with(text, Dialect::Roll20)
    }

    /// Parses an expression in the given dialect with the default [`Limits`].
    pub fn parse_with(text: &str, dialect: Dialect) -> Result<Self, DiceError> {
        Self::parse_with_limits(text, dialect, &Limits::default())
    }

    /// Parses an expression with explicit limits.
    pub fn parse_with_limits(
        text: &str,
        dialect: Dialect,
        limits: &Limits,
    ) -> Result<Self, DiceError> {
        let parsed = parser::parse(text, dialect, limits)?;
        Ok(DiceExpr {
            inner: Arc::new(Inner {
                plan: OnceLock::new(),
                rolled: AtomicBool::new(false),
                root: parsed.root,
                dialect,
                comment: parsed.comment,
                roll_budget: limits.roll_budget,
                dice: parsed.dice,
            }),
        })
    }

    /// The dialect the expression was parsed in.
    pub fn dialect(&self) -> Dialect {
        self.inner.dialect
    }

    /// The trailing comment, if one was written (`1d20+5 stealth` has `stealth`).
    pub fn comment(&self) -> Option<&str> {
        self.inner.comment.as_deref()
    }

    pub(crate) fn root(&self) -> &Node {
        &self.inner.root
    }

    /// The expression as a plain sum of dice groups and a constant (`2d6+1d4-1` gives
    /// `[(1, 2, 6), (1, 1, 4)]` and `-1`, each group as `(sign, count, sides)`), or `None` when
    /// it uses anything else (operators on dice, products, fate dice). The rules use this for
    /// damage, whose dice a critical hit doubles.
    pub fn simple_terms(&self) -> Option<SimpleTerms> {
        fn walk(
            node: &Node,
            sign: i8,
            terms: &mut Vec<(i8, u32, u32)>,
            constant: &mut i64,
        ) -> bool {
            match node {
                Node::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
                    *constant += i64::from(sign) * (*n as i64);
                    true
                }
                Node::Dice(term) if term.ops.is_empty() => match term.faces {
                    ast::Faces::Sides(sides) => {
                        terms.push((sign, term.count, sides));
                        true
                    }
                    _ => false,
                },
                Node::Plus(inner) | Node::Labelled(inner, _) => walk(inner, sign, terms, constant),
                Node::Negate(inner) => walk(inner, -sign, terms, constant),
                Node::Binary(ast::BinaryOp::Add, pair) => {
                    walk(&pair[0], sign, terms, constant) && walk(&pair[1], sign, terms, constant)
                }
                Node::Binary(ast::BinaryOp::Sub, pair) => {
                    walk(&pair[0], sign, terms, constant) && walk(&pair[1], -sign, terms, constant)
                }
                _ => false,
            }
        }
        let mut terms = Vec::new();
        let mut constant = 0;
        walk(self.root(), 1, &mut terms, &mut constant).then_some((terms, constant))
    }

    /// The same expression rolled with advantage or disadvantage: when its leftmost term is a
    /// single d20 (`1d20+5`, `1d20ro1`), that die becomes `2d20kh1` (or `kl1`), as Avrae does.
    /// Otherwise the expression is returned unchanged.
    pub fn with_advantage(&self, advantage: Advantage) -> DiceExpr {
        let keep = match advantage {
            Advantage::Normal => return self.clone(),
            Advantage::Advantage => Selector::Highest(1),
            Advantage::Disadvantage => Selector::Lowest(1),
        };
        let is_single_d20 = |n: &Node| {
            n.leftmost_dice()
                .is_some_and(|d| d.count == 1 && d.faces == ast::Faces::Sides(20))
        };
        if !is_single_d20(&self.inner.root) {
            return self.clone();
        }
        let mut root = self.inner.root.clone();
        if let Some(term) = root.leftmost_dice_mut() {
            term.count = 2;
            let spelling = match self.inner.dialect {
                Dialect::Roll20 => Spelling::Roll20,
                Dialect::Avrae => Spelling::Avrae,
            };
            // Roll20 keeps its fixed order: keep/drop come after rerolls and explosions.
            let at = match self.inner.dialect {
                Dialect::Avrae => 0,
                Dialect::Roll20 => term
                    .ops
                    .iter()
                    .position(|op| {
                        matches!(
                            op,
                            DiceOp::Keep(..) | DiceOp::Drop(..) | DiceOp::Count { .. }
                        )
                    })
                    .unwrap_or(term.ops.len()),
            };
            term.ops
                .insert(at, DiceOp::Keep(smallvec::smallvec![keep], spelling));
        }
        let Inner {
            dialect,
            ref comment,
            roll_budget,
            dice,
            ..
        } = *self.inner;
        let comment = comment.clone();
        DiceExpr {
            inner: Arc::new(Inner {
                plan: OnceLock::new(),
                rolled: AtomicBool::new(false),
                root,
                dialect,
                comment,
                roll_budget,
                dice: dice + 1,
            }),
        }
    }

    /// Rolls the expression, recording every die.
    ///
    /// Errors only when the roll budget runs out (rerolls and explosions that went on too
    /// long), on a division by zero, on a result too large to represent, or when a
    /// [`FixedFaces`] replay runs out.
    pub fn roll<S: DieSource + ?Sized>(&self, source: &mut S) -> Result<Roll, DiceError> {
        let mut record = Record {
            dice: Vec::with_capacity(self.inner.dice as usize),
            ..Record::default()
        };
        let value = Evaluator::new(source, self.inner.roll_budget, Some(&mut record))
            .eval_root(&self.inner.root)?;
        Ok(Roll::new(self.clone(), to_total(value)?, record))
    }

    /// Rolls the expression and returns only the total: the fast path, with no record kept.
    /// Given the same source state it returns the same total as [`roll`](Self::roll).
    #[inline]
    pub fn roll_total<S: DieSource + ?Sized>(&self, source: &mut S) -> Result<i64, DiceError> {
        let inner = &*self.inner;
        let plan = match inner.plan.get() {
            Some(plan) => plan.as_ref(),
            None if inner.rolled.swap(true, Ordering::Relaxed) => inner
                .plan
                .get_or_init(|| Plan::compile(&inner.root))
                .as_ref(),
            None => None,
        };
        if let Some(plan) = plan {
            return plan
                .total(source, inner.roll_budget)?
                .ok_or(DiceError::OutOfRange);
        }
        let value = Evaluator::new(source, inner.roll_budget, None).eval_root(&inner.root)?;
        to_total(value)
    }

    /// The exact probability distribution of the total (see [`Distribution`]).
    pub fn distribution(&self) -> Result<Distribution, DiceError> {
        distribution::of_expr(&self.inner.root)
    }
}

/// The largest total kept exact (2^53: every integer up to it is exact in an `f64`); beyond it
/// a roll is [`DiceError::OutOfRange`].
pub(crate) const MAX_EXACT: i64 = 1 << 53;

/// Converts the evaluated value into the integer total, truncating toward zero as Avrae does.
fn to_total(value: f64) -> Result<i64, DiceError> {
    if !value.is_finite() || value.abs() > MAX_EXACT as f64 {
        return Err(DiceError::OutOfRange);
    }
    // `as` truncates toward zero, the same as Avrae's int().
    Ok(value as i64)
}

impl PartialEq for Inner {
    /// Two expressions are equal when they parsed to the same tree; the compiled plan is a cache.
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
            && self.dialect == other.dialect
            && self.comment == other.comment
            && self.roll_budget == other.roll_budget
    }
}

impl PartialEq for DiceExpr {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner) || self.inner == other.inner
    }
}

impl fmt::Debug for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiceExpr")
            .field("expression", &self.to_string())
            .field("dialect", &self.inner.dialect)
            .field("comment", &self.inner.comment)
            .finish()
    }
}

/// Prints the expression in canonical form: `1d20 + 5`, `4d6kh3`, `2d6 [fire]` (no comment).
impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.inner.root)
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

#[cfg(test)]
mod tests;
