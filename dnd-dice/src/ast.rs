//! The parsed form of a dice expression, shared by both dialects.
//!
//! The parser resolves every dialect difference into this tree (a Roll20 `r<3` and an Avrae
//! `rr<4` become the same [`Selector`]), so the roller and the distribution code never ask
//! which dialect they are running. What the dialect still decides at roll time is kept as
//! explicit data: the faces of `d%` ([`Faces`]) and how `/` divides ([`BinaryOp`]).

use std::fmt;

use smallvec::SmallVec;

/// The selectors of one operator: almost always one, so kept inline.
pub(crate) type Selectors = SmallVec<[Selector; 1]>;

/// The operators of one dice group (a `Vec`: no allocation when there are none, and a small
/// tree node, which keeps the parser's moves cheap).
pub(crate) type DiceOps = Vec<DiceOp>;

/// One node of a parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A number written in the expression.
    Number(f64),
    /// A group of dice such as `4d6kh3`.
    Dice(DiceTerm),
    /// `-x` or `+x`.
    Negate(Box<Node>),
    /// `+x`: the same value, but a single value to set operators, as in d20 (`(+2d4)kl1`).
    Plus(Box<Node>),
    /// `a op b` (both operands in one allocation).
    Binary(BinaryOp, Box<[Node; 2]>),
    /// `(x)` followed by keep/drop operators (Avrae); plain parentheses leave no node.
    Paren(Box<Node>, Vec<SetOp>),
    /// `(a, b, c)kh1` (Avrae).
    Set(Vec<Node>, Vec<SetOp>),
    /// `x [fire]`: a label carried to the result, used for damage types.
    Labelled(Box<Node>, std::sync::Arc<str>),
}

/// Binary operators. Which ones a dialect accepts is the parser's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Roll20 `/`: divides and rounds down, as 5e does.
    FloorDiv,
    /// Avrae `/`: true division; the final total is truncated toward zero.
    TrueDiv,
    /// Avrae `//`.
    AvraeFloorDiv,
    /// Avrae `%` (Python's: the sign follows the divisor).
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A node printed inside parentheses when `.1` says so.
struct Wrapped<'a>(&'a Node, bool);

impl fmt::Display for Wrapped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 {
            write!(f, "({})", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl BinaryOp {
    /// How tightly the operator binds: 0 comparisons, 1 `+ -`, 2 `* / // %`.
    pub(crate) fn precedence(self) -> u8 {
        match self {
            BinaryOp::Add | BinaryOp::Sub => 1,
            BinaryOp::Mul
            | BinaryOp::FloorDiv
            | BinaryOp::TrueDiv
            | BinaryOp::AvraeFloorDiv
            | BinaryOp::Mod => 2,
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => 0,
        }
    }

    /// Whether each operand must be printed in parentheses to parse back as the same tree.
    /// (The parser keeps no node for plain parentheses; printing puts back those needed.)
    pub(crate) fn operand_parens(self, left: &Node, right: &Node) -> (bool, bool) {
        let p = self.precedence();
        let binding = |n: &Node| match n {
            Node::Binary(op, _) => Some(op.precedence()),
            _ => None,
        };
        (
            binding(left).is_some_and(|q| q < p),
            binding(right).is_some_and(|q| q <= p),
        )
    }

    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::FloorDiv | BinaryOp::TrueDiv => "/",
            BinaryOp::AvraeFloorDiv => "//",
            BinaryOp::Mod => "%",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
        }
    }

    /// Applies the operator. `None` means division by zero.
    pub(crate) fn apply(self, a: f64, b: f64) -> Option<f64> {
        let bool_num = |x: bool| if x { 1.0 } else { 0.0 };
        Some(match self {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            BinaryOp::Mul => a * b,
            BinaryOp::FloorDiv => {
                if b == 0.0 {
                    return None;
                }
                (a / b).floor()
            }
            BinaryOp::TrueDiv => {
                if b == 0.0 {
                    return None;
                }
                a / b
            }
            BinaryOp::AvraeFloorDiv | BinaryOp::Mod => {
                if b == 0.0 {
                    return None;
                }
                let (quotient, remainder) = python_divmod(a, b);
                if self == BinaryOp::Mod {
                    remainder
                } else {
                    quotient
                }
            }
            BinaryOp::Eq => bool_num(a == b),
            BinaryOp::Ne => bool_num(a != b),
            BinaryOp::Lt => bool_num(a < b),
            BinaryOp::Le => bool_num(a <= b),
            BinaryOp::Gt => bool_num(a > b),
            BinaryOp::Ge => bool_num(a >= b),
        })
    }
}

/// Python's `divmod` on floats, which d20 uses for `//` and `%`: the remainder takes the sign
/// of the divisor, and the quotient is rounded the way CPython rounds it (for whole numbers
/// this is plain floor division).
fn python_divmod(a: f64, b: f64) -> (f64, f64) {
    let mut remainder = a % b;
    let mut quotient = (a - remainder) / b;
    if remainder != 0.0 {
        if (b < 0.0) != (remainder < 0.0) {
            remainder += b;
            quotient -= 1.0;
        }
    } else {
        remainder = 0.0_f64.copysign(b);
    }
    let floor = quotient.floor();
    let quotient = if quotient - floor > 0.5 {
        floor + 1.0
    } else {
        floor
    };
    (quotient, remainder)
}

/// `NdS` with its operators.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DiceTerm {
    pub count: u32,
    pub faces: Faces,
    /// Applied in order. Roll20 operators are put into their fixed order by the parser.
    pub ops: DiceOps,
    /// Byte offset in the source, for errors found after parsing.
    pub position: usize,
}

/// What the faces of one die are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Faces {
    /// 1..=n.
    Sides(u32),
    /// Roll20 `d%`: 1..=100.
    Percent,
    /// Avrae `d%`: the tens die, 0, 10, ..., 90.
    Tens,
    /// Fate/Fudge `dF`: -1, 0, +1.
    Fate,
}

impl Faces {
    /// How many faces the die has (the `sides` passed to a die source).
    pub(crate) fn count(self) -> u32 {
        match self {
            Faces::Sides(n) => n,
            Faces::Percent => 100,
            Faces::Tens => 10,
            Faces::Fate => 3,
        }
    }

    /// The value of face `index` in 1..=count.
    #[inline]
    pub(crate) fn value(self, index: u32) -> i64 {
        let (step, offset) = self.step_and_offset();
        i64::from(index) * step + offset
    }

    /// Every kind of die numbers its faces evenly: face `index` is worth
    /// `index * step + offset`. The fast path keeps these two numbers instead of matching on
    /// the kind of die for every die it rolls.
    #[inline]
    pub(crate) fn step_and_offset(self) -> (i64, i64) {
        match self {
            Faces::Sides(_) | Faces::Percent => (1, 0),
            Faces::Tens => (10, -10),
            Faces::Fate => (1, -2),
        }
    }

    pub(crate) fn values(self) -> impl Iterator<Item = i64> {
        (1..=self.count()).map(move |i| self.value(i))
    }

    pub(crate) fn max_value(self) -> i64 {
        self.value(self.count())
    }
}

impl fmt::Display for Faces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Faces::Sides(n) => write!(f, "{n}"),
            Faces::Percent | Faces::Tens => f.write_str("%"),
            Faces::Fate => f.write_str("F"),
        }
    }
}

/// Which dice an operator acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Selector {
    /// The n highest dice still kept (ties: the earlier die first).
    Highest(u32),
    /// The n lowest dice still kept (ties: the earlier die first).
    Lowest(u32),
    /// Every kept die whose value lies in `lo..=hi`. `written` keeps the source form for display.
    Range { lo: i64, hi: i64, written: Written },
}

/// How a value selector was written, so the expression prints back as the player typed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// `3` (Avrae) or `=3` (Roll20).
    Bare(i64),
    Equals(i64),
    Greater(i64),
    GreaterEq(i64),
    Less(i64),
    LessEq(i64),
}

impl Selector {
    #[inline]
    pub(crate) fn matches_value(&self, v: i64) -> bool {
        match *self {
            Selector::Range { lo, hi, .. } => lo <= v && v <= hi,
            _ => false,
        }
    }

    /// Whether the selector picks dice by their value alone (not by rank among the others).
    pub(crate) fn is_by_value(&self) -> bool {
        matches!(self, Selector::Range { .. })
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::Highest(n) => write!(f, "h{n}"),
            Selector::Lowest(n) => write!(f, "l{n}"),
            Selector::Range { written, .. } => match written {
                Written::Bare(n) => write!(f, "{n}"),
                Written::Equals(n) => write!(f, "={n}"),
                Written::Greater(n) => write!(f, ">{n}"),
                Written::GreaterEq(n) => write!(f, ">={n}"),
                Written::Less(n) => write!(f, "<{n}"),
                Written::LessEq(n) => write!(f, "<={n}"),
            },
        }
    }
}

/// An operator on a group of dice.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DiceOp {
    /// Keep the selected dice, drop the rest (selectors are a union).
    Keep(Selectors, Spelling),
    /// Drop the selected dice.
    Drop(Selectors, Spelling),
    /// Reroll the selected dice until none is selected.
    Reroll(Selectors, Spelling),
    /// Reroll the selected dice once.
    RerollOnce(Selectors, Spelling),
    /// Avrae `ra`: one selected die explodes once.
    RerollAdd(Selectors),
    /// Each selected die adds another die, which may explode in turn.
    Explode(Selectors, Spelling),
    /// Roll20 `!!`: explosions add into the die that exploded.
    Compound(Selector),
    /// Raise every kept die below n to n.
    Min(i64),
    /// Lower every kept die above n to n.
    Max(i64),
    /// Roll20 target number: the group is worth (dice selected by `success`) minus (dice
    /// selected by `failure`).
    Count {
        success: Selector,
        failure: Option<Selector>,
    },
}

/// How an operator was spelled, so a parsed expression prints back in its own dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    Avrae,
    Roll20,
}

impl DiceOp {
    /// Whether this operator can add dice to the group.
    pub(crate) fn adds_dice(&self) -> bool {
        matches!(self, DiceOp::Explode(..) | DiceOp::RerollAdd(_))
    }
}

fn write_sels(f: &mut fmt::Formatter<'_>, op: &str, sels: &[Selector]) -> fmt::Result {
    for s in sels {
        write!(f, "{op}{s}")?;
    }
    Ok(())
}

/// Roll20 writes a comparison after `r`, `!` and `f` (`r<3`); a bare number means "equal".
fn write_roll20(
    f: &mut fmt::Formatter<'_>,
    op: &str,
    sels: &[Selector],
    implicit: Option<i64>,
) -> fmt::Result {
    for s in sels {
        match (s, implicit) {
            (
                Selector::Range {
                    written: Written::Bare(n),
                    ..
                },
                Some(max),
            ) if *n == max && op.starts_with('!') => f.write_str(op)?,
            _ => write!(f, "{op}{s}")?,
        }
    }
    Ok(())
}

impl DiceTerm {
    pub(crate) fn write_ops(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A bare `!` is "explode on the maximum"; written before a target number (`!>=5`) it
        // would read as the explosion's own condition, so then the face is spelled out (`!6>=5`).
        let target_follows = self.ops.iter().any(|op| matches!(op, DiceOp::Count { .. }));
        let max = (!target_follows).then(|| self.faces.max_value());
        for op in &self.ops {
            match op {
                DiceOp::Keep(s, Spelling::Avrae) => write_sels(f, "k", s)?,
                DiceOp::Drop(s, Spelling::Avrae) => write_sels(f, "p", s)?,
                DiceOp::Keep(s, Spelling::Roll20) => write_sels(f, "k", s)?,
                DiceOp::Drop(s, Spelling::Roll20) => write_sels(f, "d", s)?,
                DiceOp::Reroll(s, Spelling::Avrae) => write_sels(f, "rr", s)?,
                DiceOp::Reroll(s, Spelling::Roll20) => write_roll20(f, "r", s, None)?,
                DiceOp::RerollOnce(s, _) => write_sels(f, "ro", s)?,
                DiceOp::RerollAdd(s) => write_sels(f, "ra", s)?,
                DiceOp::Explode(s, Spelling::Avrae) => write_sels(f, "e", s)?,
                DiceOp::Explode(s, Spelling::Roll20) => write_roll20(f, "!", s, max)?,
                DiceOp::Compound(s) => write_roll20(f, "!!", std::slice::from_ref(s), max)?,
                DiceOp::Min(n) => write!(f, "mi{n}")?,
                DiceOp::Max(n) => write!(f, "ma{n}")?,
                DiceOp::Count { success, failure } => {
                    match success {
                        Selector::Range {
                            written: Written::Bare(n),
                            ..
                        } => write!(f, "={n}")?,
                        s => write!(f, "{s}")?,
                    }
                    if let Some(fail) = failure {
                        write!(f, "f{fail}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.faces)?;
        self.write_ops(f)
    }
}

/// A number printed the way an expression writes it: integers without a decimal point.
pub(crate) struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.fract() == 0.0 && v.abs() < 1e15 {
            write!(f, "{}", v as i64)
        } else {
            write!(f, "{v}")
        }
    }
}

fn write_set_ops(f: &mut fmt::Formatter<'_>, ops: &[SetOp]) -> fmt::Result {
    for op in ops {
        write!(f, "{op}")?;
    }
    Ok(())
}

/// A keep (`k`) or drop (`p`) operator on a set or parenthesis (Avrae).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SetOp {
    pub keep: bool,
    pub selectors: Selectors,
}

impl fmt::Display for SetOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_sels(f, if self.keep { "k" } else { "p" }, &self.selectors)
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Number(v) => write!(f, "{}", Num(*v)),
            Node::Dice(d) => write!(f, "{d}"),
            Node::Negate(x) => write!(f, "-{}", Wrapped(x, x.binds_loosely())),
            Node::Plus(x) => write!(f, "+{}", Wrapped(x, x.binds_loosely())),
            Node::Binary(op, pair) => {
                let [a, b] = &**pair;
                let (left, right) = op.operand_parens(a, b);
                write!(
                    f,
                    "{} {} {}",
                    Wrapped(a, left),
                    op.symbol(),
                    Wrapped(b, right)
                )
            }
            Node::Paren(x, ops) => {
                write!(f, "({x})")?;
                write_set_ops(f, ops)
            }
            Node::Set(items, ops) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(if items.len() == 1 { ",)" } else { ")" })?;
                write_set_ops(f, ops)
            }
            Node::Labelled(x, label) => write!(f, "{} [{label}]", Wrapped(x, x.binds_loosely())),
        }
    }
}

impl Node {
    /// Whether a unary sign or a label around this node needs parentheses.
    pub(crate) fn binds_loosely(&self) -> bool {
        matches!(self, Node::Binary(..))
    }

    /// The leftmost dice term, if the leftmost leaf of the tree is one (used for advantage and
    /// for reporting natural 20s and 1s, as Avrae does).
    pub(crate) fn leftmost_dice(&self) -> Option<&DiceTerm> {
        match self {
            Node::Dice(d) => Some(d),
            Node::Number(_) => None,
            Node::Negate(x) | Node::Plus(x) | Node::Paren(x, _) | Node::Labelled(x, _) => {
                x.leftmost_dice()
            }
            Node::Binary(_, pair) => pair[0].leftmost_dice(),
            Node::Set(items, _) => items.first().and_then(Node::leftmost_dice),
        }
    }

    pub(crate) fn leftmost_dice_mut(&mut self) -> Option<&mut DiceTerm> {
        match self {
            Node::Dice(d) => Some(d),
            Node::Number(_) => None,
            Node::Negate(x) | Node::Plus(x) | Node::Paren(x, _) | Node::Labelled(x, _) => {
                x.leftmost_dice_mut()
            }
            Node::Binary(_, pair) => pair[0].leftmost_dice_mut(),
            Node::Set(items, _) => items.first_mut().and_then(Node::leftmost_dice_mut),
        }
    }

    /// Calls `f` on every dice term, left to right. Only a roll's serialized form (one entry
    /// per group, with its notation) walks the terms this way.
    #[cfg(feature = "serde")]
    pub(crate) fn for_each_dice(&self, f: &mut impl FnMut(&DiceTerm)) {
        match self {
            Node::Dice(d) => f(d),
            Node::Number(_) => {}
            Node::Negate(x) | Node::Plus(x) | Node::Paren(x, _) | Node::Labelled(x, _) => {
                x.for_each_dice(f)
            }
            Node::Binary(_, pair) => {
                pair[0].for_each_dice(f);
                pair[1].for_each_dice(f);
            }
            Node::Set(items, _) => items.iter().for_each(|i| i.for_each_dice(f)),
        }
    }
}
