//! A hand-written recursive-descent parser for both dialects.
//!
//! Hand-written rather than generated because it is the hot half of "parse and roll" (the
//! target is well under 200 ns for both together) and because every error must say exactly
//! where it is and what would have been accepted there. Precedence, loosest first:
//! comparisons (Avrae), `+ -`, `* / // %`, unary `+ -`, then an atom (a number, dice, or a
//! parenthesis or set) with optional `[labels]`.

use super::ast::{BinaryOp, DiceTerm, Faces, Node, SetOp};
use super::error::DiceError;
use super::{Dialect, Limits};

mod dice_ops;

use dice_ops::check_terminates;

/// What parsing produced: the tree and the trailing comment, if any.
pub(crate) struct Parsed {
    pub root: Node,
    /// How many dice the expression names (before rerolls and explosions).
    pub dice: u32,
    pub comment: Option<Box<str>>,
}

pub(crate) fn parse(src: &str, dialect: Dialect, limits: &Limits) -> Result<Parsed, DiceError> {
    if src.len() > limits.max_length {
        return Err(DiceError::Limit {
            position: limits.max_length,
            what: "the length of the expression in bytes",
            value: src.len() as u64,
            max: limits.max_length as u64,
        });
    }
    let mut p = Parser {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        dialect,
        limits,
        depth: 0,
        dice_total: 0,
    };
    p.skip_ws();
    if p.pos == p.bytes.len() {
        return Err(DiceError::syntax(
            0,
            "a dice expression such as 1d20+5",
            "an empty expression".into(),
        ));
    }
    let mut root = PLACEHOLDER;
    p.binary(0, &mut root)?;
    p.skip_ws();
    let comment = p.trailing_comment()?;
    Ok(Parsed {
        root,
        comment,
        dice: p.dice_total as u32,
    })
}

/// What a node slot holds until the parser writes into it.
///
/// The parser writes each node straight into the slot that will hold it (an out-parameter)
/// rather than returning it: a returned `Result<Node, _>` is moved through memory at every
/// level of the recursion, and those moves were the larger part of parsing time.
const PLACEHOLDER: Node = Node::Number(0.0);

/// The largest constant: 15 digits, so every one is exact in an `f64`.
const MAX_CONSTANT: u64 = 999_999_999_999_999;

/// The whole number written with `digits` (ASCII digits) at `start`, if it is at most `max`.
///
/// Larger is an error, never a clamp: [`DiceError::Limit`] when the number fits in 64 bits (it
/// is echoed), [`DiceError::NumberTooLarge`] when it does not.
fn whole_number(
    digits: &[u8],
    start: usize,
    what: &'static str,
    max: u64,
) -> Result<u64, DiceError> {
    let value = digits.iter().try_fold(0u64, |acc, b| {
        acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
    });
    match value {
        Some(value) if value <= max => Ok(value),
        Some(value) => Err(DiceError::Limit {
            position: start,
            what,
            value,
            max,
        }),
        None => Err(DiceError::NumberTooLarge {
            position: start,
            what,
            digits: digits.len(),
            max,
        }),
    }
}

const EXPECT_OPERAND: &str = "a number, a die such as 1d20, or \"(\"";

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    dialect: Dialect,
    limits: &'a Limits,
    depth: usize,
    /// Dice named so far, checked against the roll budget up front.
    dice_total: u64,
}

impl Parser<'_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, text: &str) -> bool {
        if self.bytes[self.pos..].starts_with(text.as_bytes()) {
            self.pos += text.len();
            true
        } else {
            false
        }
    }

    /// Describes what stands at `pos`, for error messages.
    fn found(&self) -> String {
        match self.src[self.pos..].chars().next() {
            None => "the end of the expression".into(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn error(&self, expected: impl Into<String>) -> DiceError {
        DiceError::syntax(self.pos, expected, self.found())
    }

    fn enter(&mut self) -> Result<(), DiceError> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(DiceError::Limit {
                position: self.pos,
                what: "the nesting depth",
                value: self.depth as u64,
                max: self.limits.max_depth as u64,
            });
        }
        Ok(())
    }

    /// After the expression: the end, or a comment (`# ...`, or words after a space).
    fn trailing_comment(&mut self) -> Result<Option<Box<str>>, DiceError> {
        let Some(b) = self.peek() else {
            return Ok(None);
        };
        let after_space = self.pos > 0 && self.bytes[self.pos - 1].is_ascii_whitespace();
        let text = if b == b'#' {
            &self.src[self.pos + 1..]
        } else if after_space && b.is_ascii_alphabetic() {
            &self.src[self.pos..]
        } else {
            let expected = match self.dialect {
                Dialect::Roll20 => {
                    "an operator (+ - * /) or the end; a comment goes after a space or #"
                }
                Dialect::Avrae => {
                    "an operator (+ - * / // % == != < <= > >=) or the end; a comment goes after a space or #"
                }
            };
            return Err(self.error(expected));
        };
        let text = text.trim();
        Ok((!text.is_empty()).then(|| text.into()))
    }

    /// Binary operators by precedence climbing; `min` is the loosest level still taken here
    /// (0: comparisons, 1: `+ -`, 2: `* / // %`). All are left-associative.
    fn binary(&mut self, min: u8, out: &mut Node) -> Result<(), DiceError> {
        self.unary(out)?;
        loop {
            self.skip_ws();
            let Some((op, len)) = self.peek_binary_op() else {
                return Ok(());
            };
            let precedence = op.precedence();
            if precedence < min {
                return Ok(());
            }
            self.pos += len;
            let left = std::mem::replace(out, PLACEHOLDER);
            let mut pair = Box::new([left, PLACEHOLDER]);
            self.binary(precedence + 1, &mut pair[1])?;
            *out = Node::Binary(op, pair);
        }
    }

    /// The binary operator at the cursor and its length, if the dialect has it.
    fn peek_binary_op(&self) -> Option<(BinaryOp, usize)> {
        let avrae = self.dialect == Dialect::Avrae;
        Some(match (self.peek()?, self.peek_at(1)) {
            (b'+', _) => (BinaryOp::Add, 1),
            (b'-', _) => (BinaryOp::Sub, 1),
            (b'*', _) => (BinaryOp::Mul, 1),
            (b'/', Some(b'/')) if avrae => (BinaryOp::AvraeFloorDiv, 2),
            (b'/', _) if avrae => (BinaryOp::TrueDiv, 1),
            (b'/', _) => (BinaryOp::FloorDiv, 1),
            (b'%', _) if avrae => (BinaryOp::Mod, 1),
            (b'=', Some(b'=')) if avrae => (BinaryOp::Eq, 2),
            (b'!', Some(b'=')) if avrae => (BinaryOp::Ne, 2),
            (b'<', Some(b'=')) if avrae => (BinaryOp::Le, 2),
            (b'>', Some(b'=')) if avrae => (BinaryOp::Ge, 2),
            (b'<', _) if avrae => (BinaryOp::Lt, 1),
            (b'>', _) if avrae => (BinaryOp::Gt, 1),
            _ => return None,
        })
    }

    fn unary(&mut self, out: &mut Node) -> Result<(), DiceError> {
        self.skip_ws();
        match self.peek() {
            Some(sign @ (b'-' | b'+')) => {
                self.pos += 1;
                self.enter()?;
                let mut inner = Box::new(PLACEHOLDER);
                self.unary(&mut inner)?;
                self.depth -= 1;
                *out = if sign == b'-' {
                    Node::Negate(inner)
                } else {
                    Node::Plus(inner)
                };
                Ok(())
            }
            _ => self.labelled(out),
        }
    }

    fn labelled(&mut self, out: &mut Node) -> Result<(), DiceError> {
        self.atom(out)?;
        let mut labels: Vec<&str> = Vec::new();
        loop {
            let save = self.pos;
            self.skip_ws();
            if self.peek() != Some(b'[') {
                self.pos = save;
                break;
            }
            let start = self.pos + 1;
            let Some(len) = self.src[start..].find(']') else {
                return Err(DiceError::syntax(
                    self.pos,
                    "a label closed by \"]\", such as [fire]",
                    "a \"[\" that is never closed".into(),
                ));
            };
            labels.push(self.src[start..start + len].trim());
            self.pos = start + len + 1;
        }
        if !labels.is_empty() {
            let node = std::mem::replace(out, PLACEHOLDER);
            *out = Node::Labelled(Box::new(node), labels.join(", ").into());
        }
        Ok(())
    }

    fn atom(&mut self, out: &mut Node) -> Result<(), DiceError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                self.enter()?;
                self.paren_or_set(start, out)?;
                self.depth -= 1;
                Ok(())
            }
            Some(b'0'..=b'9' | b'.') => {
                let (value, is_integer) = self.number()?;
                if self.peek() == Some(b'd') {
                    if !is_integer {
                        return Err(DiceError::invalid(
                            start,
                            "the number of dice must be a whole number",
                        ));
                    }
                    self.pos += 1;
                    return self.dice(value as u64, start, out);
                }
                *out = Node::Number(value);
                Ok(())
            }
            Some(b'd') => {
                self.pos += 1;
                self.dice(1, start, out)
            }
            _ => Err(self.error(EXPECT_OPERAND)),
        }
    }

    /// After `(`: a parenthesis `(x)`, or in Avrae a set `(a, b)` / `(a,)` / `()`.
    fn paren_or_set(&mut self, start: usize, out: &mut Node) -> Result<(), DiceError> {
        self.skip_ws();
        let avrae = self.dialect == Dialect::Avrae;
        if avrae && self.peek() == Some(b')') {
            self.pos += 1;
            let ops = self.set_ops()?;
            *out = Node::Set(Vec::new(), ops);
            return Ok(());
        }
        self.binary(0, out)?;
        self.skip_ws();
        // A set only when a comma follows; a plain parenthesis allocates no list.
        if avrae && self.peek() == Some(b',') {
            let mut list = vec![std::mem::replace(out, PLACEHOLDER)];
            while self.peek() == Some(b',') {
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b')') {
                    break;
                }
                list.push(PLACEHOLDER);
                let last = list.len() - 1;
                self.binary(0, &mut list[last])?;
                self.skip_ws();
            }
            let ops = self.close_paren(start)?;
            *out = Node::Set(list, ops);
            return Ok(());
        }
        // Plain parentheses need no node: the tree's shape already says what they grouped.
        let ops = self.close_paren(start)?;
        if !ops.is_empty() {
            let first = std::mem::replace(out, PLACEHOLDER);
            *out = Node::Paren(Box::new(first), ops);
        }
        Ok(())
    }

    /// After the contents of `(`: the `)`, then (Avrae) any keep/drop operators.
    fn close_paren(&mut self, start: usize) -> Result<Vec<SetOp>, DiceError> {
        if self.peek() != Some(b')') {
            let expected = match self.dialect {
                Dialect::Avrae => "\",\" or \")\"",
                Dialect::Roll20 => "\")\" to close the \"(\" at column ",
            };
            let expected = if self.dialect == Dialect::Roll20 {
                format!("{expected}{}", start + 1)
            } else {
                expected.to_owned()
            };
            return Err(self.error(expected));
        }
        self.pos += 1;
        if self.dialect == Dialect::Avrae {
            self.set_ops()
        } else {
            Ok(Vec::new())
        }
    }

    /// A number literal; returns its value and whether it was written as a whole number.
    fn number(&mut self) -> Result<(f64, bool), DiceError> {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        let mut is_integer = true;
        if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            is_integer = false;
            self.pos += 1;
            while let Some(b'0'..=b'9') = self.peek() {
                self.pos += 1;
            }
        } else if self.pos == start {
            return Err(self.error(EXPECT_OPERAND));
        }
        let text = &self.src[start..self.pos];
        if is_integer {
            // Before `d` it is a count of dice, held to that limit; anywhere else a constant,
            // held to 15 digits so that it is exact in an `f64`.
            let (what, max) = if self.peek() == Some(b'd') {
                ("the number of dice", u64::from(self.limits.max_dice))
            } else {
                ("the number", MAX_CONSTANT)
            };
            let value = whole_number(text.as_bytes(), start, what, max)?;
            return Ok((value as f64, true));
        }
        let digits = text.bytes().filter(u8::is_ascii_digit).count();
        if digits > 15 {
            return Err(DiceError::invalid(
                start,
                format!("the number {text} is too long: at most 15 digits"),
            ));
        }
        let value = text
            .parse()
            .map_err(|_| DiceError::syntax(start, "a number", format!("{text:?}")))?;
        Ok((value, false))
    }

    /// Parses a whole number of at most `max`; `what` names it in the error when it is larger.
    fn integer(&mut self, expected: &str, what: &'static str, max: u64) -> Result<u64, DiceError> {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error(expected));
        }
        whole_number(&self.bytes[start..self.pos], start, what, max)
    }

    /// After the `d` of `NdS`.
    fn dice(&mut self, count: u64, start: usize, out: &mut Node) -> Result<(), DiceError> {
        let limits = self.limits;
        if count > u64::from(limits.max_dice) {
            return Err(DiceError::Limit {
                position: start,
                what: "the number of dice",
                value: count,
                max: limits.max_dice.into(),
            });
        }
        let faces = match (self.peek(), self.dialect) {
            (Some(b'%'), Dialect::Roll20) => {
                self.pos += 1;
                Faces::Percent
            }
            (Some(b'%'), Dialect::Avrae) => {
                self.pos += 1;
                Faces::Tens
            }
            (Some(b'F'), Dialect::Roll20) => {
                self.pos += 1;
                Faces::Fate
            }
            _ => {
                let expected = match self.dialect {
                    Dialect::Roll20 => "the number of sides after \"d\" (d6, d20), % or F",
                    Dialect::Avrae => "the number of sides after \"d\" (d6, d20) or %",
                };
                let sides_at = self.pos;
                let sides =
                    self.integer(expected, "the number of sides", limits.max_sides.into())?;
                if sides == 0 {
                    return Err(DiceError::invalid(
                        sides_at,
                        "a die needs at least 1 side (d0 was given)",
                    ));
                }
                Faces::Sides(sides as u32)
            }
        };
        self.dice_total += count;
        if self.dice_total > u64::from(limits.roll_budget) {
            return Err(DiceError::Limit {
                position: start,
                what: "the number of dice in the expression",
                value: self.dice_total,
                max: limits.roll_budget.into(),
            });
        }
        let mut term = DiceTerm {
            count: count as u32,
            faces,
            ops: Default::default(),
            position: start,
        };
        match self.dialect {
            Dialect::Avrae => self.avrae_dice_ops(&mut term)?,
            Dialect::Roll20 => self.roll20_dice_ops(&mut term)?,
        }
        check_terminates(&term)?;
        *out = Node::Dice(term);
        Ok(())
    }

    /// Avrae `k`/`p` operators after a set or parenthesis.
    fn set_ops(&mut self) -> Result<Vec<SetOp>, DiceError> {
        let mut ops: Vec<SetOp> = Vec::new();
        loop {
            let keep = match self.peek() {
                Some(b'k') => true,
                Some(b'p') => false,
                _ => return Ok(ops),
            };
            self.pos += 1;
            let sel = self.avrae_selector()?;
            match ops.last_mut() {
                Some(last) if last.keep == keep => last.selectors.push(sel),
                _ => ops.push(SetOp {
                    keep,
                    selectors: smallvec::smallvec![sel],
                }),
            }
        }
    }
}
