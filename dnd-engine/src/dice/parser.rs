//! A hand-written recursive-descent parser for both dialects.
//!
//! Hand-written rather than generated because it is the hot half of "parse and roll" (the
//! target is well under 200 ns for both together) and because every error must say exactly
//! where it is and what would have been accepted there. Precedence, loosest first:
//! comparisons (Avrae), `+ -`, `* / // %`, unary `+ -`, then an atom (a number, dice, or a
//! parenthesis or set) with optional `[labels]`.

use super::ast::{BinaryOp, DiceOp, DiceTerm, Faces, Node, Selector, SetOp, Spelling, Written};
use super::error::DiceError;
use super::{Dialect, Limits};

/// What parsing produced: the tree and the trailing comment, if any.
pub(crate) struct Parsed {
    pub root: Node,
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
    let root = p.comparison()?;
    p.skip_ws();
    let comment = p.trailing_comment()?;
    Ok(Parsed { root, comment })
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

    fn comparison(&mut self) -> Result<Node, DiceError> {
        let mut left = self.additive()?;
        if self.dialect != Dialect::Avrae {
            return Ok(left);
        }
        loop {
            self.skip_ws();
            let op = if self.eat("==") {
                BinaryOp::Eq
            } else if self.eat("!=") {
                BinaryOp::Ne
            } else if self.eat("<=") {
                BinaryOp::Le
            } else if self.eat(">=") {
                BinaryOp::Ge
            } else if self.eat("<") {
                BinaryOp::Lt
            } else if self.eat(">") {
                BinaryOp::Gt
            } else {
                return Ok(left);
            };
            let right = self.additive()?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn additive(&mut self) -> Result<Node, DiceError> {
        let mut left = self.multiplicative()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some(b'+') => BinaryOp::Add,
                Some(b'-') => BinaryOp::Sub,
                _ => return Ok(left),
            };
            self.pos += 1;
            let right = self.multiplicative()?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn multiplicative(&mut self) -> Result<Node, DiceError> {
        let mut left = self.unary()?;
        loop {
            self.skip_ws();
            let op = match (self.peek(), self.dialect) {
                (Some(b'*'), _) => BinaryOp::Mul,
                (Some(b'/'), Dialect::Roll20) => BinaryOp::FloorDiv,
                (Some(b'/'), Dialect::Avrae) if self.peek_at(1) == Some(b'/') => {
                    self.pos += 1;
                    BinaryOp::AvraeFloorDiv
                }
                (Some(b'/'), Dialect::Avrae) => BinaryOp::TrueDiv,
                (Some(b'%'), Dialect::Avrae) => BinaryOp::Mod,
                _ => return Ok(left),
            };
            self.pos += 1;
            let right = self.unary()?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Node, DiceError> {
        self.skip_ws();
        match self.peek() {
            Some(sign @ (b'-' | b'+')) => {
                self.pos += 1;
                self.enter()?;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(if sign == b'-' {
                    Node::Negate(Box::new(inner))
                } else {
                    inner
                })
            }
            _ => self.labelled(),
        }
    }

    fn labelled(&mut self) -> Result<Node, DiceError> {
        let mut node = self.atom()?;
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
            node = Node::Labelled(Box::new(node), labels.join(", ").into());
        }
        Ok(node)
    }

    fn atom(&mut self) -> Result<Node, DiceError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                self.enter()?;
                let node = self.paren_or_set(start)?;
                self.depth -= 1;
                Ok(node)
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
                    return self.dice(value as u64, start);
                }
                Ok(Node::Number(value))
            }
            Some(b'd') => {
                self.pos += 1;
                self.dice(1, start)
            }
            _ => Err(self.error(EXPECT_OPERAND)),
        }
    }

    /// After `(`: a parenthesis `(x)`, or in Avrae a set `(a, b)` / `(a,)` / `()`.
    fn paren_or_set(&mut self, start: usize) -> Result<Node, DiceError> {
        self.skip_ws();
        let avrae = self.dialect == Dialect::Avrae;
        if avrae && self.peek() == Some(b')') {
            self.pos += 1;
            let ops = self.set_ops()?;
            return Ok(Node::Set(Vec::new(), ops));
        }
        let first = self.comparison()?;
        self.skip_ws();
        let mut items = Vec::new();
        let mut is_set = false;
        if avrae {
            items.push(first);
            while self.peek() == Some(b',') {
                is_set = true;
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b')') {
                    break;
                }
                items.push(self.comparison()?);
                self.skip_ws();
            }
        } else {
            items.push(first);
        }
        if self.peek() != Some(b')') {
            let expected = if avrae {
                "\",\" or \")\""
            } else {
                "\")\" to close the \"(\""
            };
            return Err(self.error(expected));
        }
        self.pos += 1;
        let _ = start;
        let ops = if avrae { self.set_ops()? } else { Vec::new() };
        if is_set {
            Ok(Node::Set(items, ops))
        } else {
            Ok(Node::Paren(Box::new(items.pop().expect("one item")), ops))
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
        let digits = text.bytes().filter(u8::is_ascii_digit).count();
        if digits > 15 {
            return Err(DiceError::invalid(
                start,
                format!("the number {text} is too long: at most 15 digits"),
            ));
        }
        let value: f64 = text
            .parse()
            .map_err(|_| DiceError::syntax(start, "a number", format!("{text:?}")))?;
        Ok((value, is_integer))
    }

    /// Parses an unsigned integer and returns it saturated to u64.
    fn integer(&mut self, expected: &str) -> Result<u64, DiceError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(b @ b'0'..=b'9') = self.peek() {
            value = value.saturating_mul(10).saturating_add(u64::from(b - b'0'));
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error(expected));
        }
        Ok(value)
    }

    /// After the `d` of `NdS`.
    fn dice(&mut self, count: u64, start: usize) -> Result<Node, DiceError> {
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
                let sides = self.integer(expected)?;
                if sides == 0 {
                    return Err(DiceError::invalid(
                        sides_at,
                        "a die needs at least 1 side (d0 was given)",
                    ));
                }
                if sides > u64::from(limits.max_sides) {
                    return Err(DiceError::Limit {
                        position: sides_at,
                        what: "the number of sides",
                        value: sides,
                        max: limits.max_sides.into(),
                    });
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
            ops: Vec::new(),
            position: start,
        };
        match self.dialect {
            Dialect::Avrae => self.avrae_dice_ops(&mut term)?,
            Dialect::Roll20 => self.roll20_dice_ops(&mut term)?,
        }
        check_terminates(&term)?;
        Ok(Node::Dice(term))
    }

    /// Avrae selector: `h3`, `l1`, `>4`, `<3`, or a bare number.
    fn avrae_selector(&mut self) -> Result<Selector, DiceError> {
        const EXPECTED: &str =
            "a selector: h3 (highest), l1 (lowest), >4, <3 or a number such as 6";
        let kind = self.peek();
        if matches!(kind, Some(b'h' | b'l' | b'<' | b'>')) {
            self.pos += 1;
        }
        let n = self.integer(EXPECTED)?.min(i64::MAX as u64 / 2) as i64;
        Ok(match kind {
            Some(b'h') => Selector::Highest(n.min(u32::MAX.into()) as u32),
            Some(b'l') => Selector::Lowest(n.min(u32::MAX.into()) as u32),
            Some(b'>') => Selector::Range {
                lo: n + 1,
                hi: i64::MAX,
                written: Written::Greater(n),
            },
            Some(b'<') => Selector::Range {
                lo: i64::MIN,
                hi: n - 1,
                written: Written::Less(n),
            },
            _ => Selector::Range {
                lo: n,
                hi: n,
                written: Written::Bare(n),
            },
        })
    }

    fn avrae_dice_ops(&mut self, term: &mut DiceTerm) -> Result<(), DiceError> {
        loop {
            let at = self.pos;
            let kind = if self.eat("rr") {
                "rr"
            } else if self.eat("ro") {
                "ro"
            } else if self.eat("ra") {
                "ra"
            } else if self.eat("mi") {
                "mi"
            } else if self.eat("ma") {
                "ma"
            } else if self.eat("k") {
                "k"
            } else if self.eat("p") {
                "p"
            } else if self.eat("e") {
                "e"
            } else {
                return Ok(());
            };
            let sel = self.avrae_selector()?;
            let op = match kind {
                "mi" | "ma" => {
                    let Selector::Range {
                        written: Written::Bare(n),
                        ..
                    } = sel
                    else {
                        return Err(DiceError::invalid(
                            at,
                            format!("{kind} takes a plain number ({kind}2), not {sel}"),
                        ));
                    };
                    if kind == "mi" {
                        DiceOp::Min(n)
                    } else {
                        DiceOp::Max(n)
                    }
                }
                "k" => DiceOp::Keep(vec![sel], Spelling::Avrae),
                "p" => DiceOp::Drop(vec![sel], Spelling::Avrae),
                "rr" => DiceOp::Reroll(vec![sel], Spelling::Avrae),
                "ro" => DiceOp::RerollOnce(vec![sel], Spelling::Avrae),
                "ra" => DiceOp::RerollAdd(vec![sel]),
                _ => DiceOp::Explode(vec![sel], Spelling::Avrae),
            };
            push_merged(&mut term.ops, op);
        }
    }

    /// Roll20 compare point: `<3` (3 or less), `>5` (5 or more), `<=`, `>=`, `=6` or `6`.
    fn roll20_compare(&mut self, expected: &str) -> Result<Selector, DiceError> {
        let op = [">=", "<=", ">", "<", "="]
            .into_iter()
            .find(|op| self.eat(op))
            .unwrap_or("");
        let n = self.integer(expected)?.min(i64::MAX as u64 / 2) as i64;
        let (lo, hi, written) = match op {
            ">=" => (n, i64::MAX, Written::GreaterEq(n)),
            ">" => (n, i64::MAX, Written::Greater(n)),
            "<=" => (i64::MIN, n, Written::LessEq(n)),
            "<" => (i64::MIN, n, Written::Less(n)),
            "=" => (n, n, Written::Equals(n)),
            _ => (n, n, Written::Bare(n)),
        };
        Ok(Selector::Range { lo, hi, written })
    }

    fn roll20_count(&mut self, expected: &str) -> Result<u32, DiceError> {
        Ok(self.integer(expected)?.min(u32::MAX.into()) as u32)
    }

    fn roll20_dice_ops(&mut self, term: &mut DiceTerm) -> Result<(), DiceError> {
        const CMP: &str = "a compare point such as 1, <3, >5 or =6";
        let max_face = term.faces.max_value();
        let on_max = Selector::Range {
            lo: max_face,
            hi: max_face,
            written: Written::Bare(max_face),
        };
        let starts_compare = |b: Option<u8>| matches!(b, Some(b'<' | b'>' | b'=' | b'0'..=b'9'));
        loop {
            let op = if self.eat("kh") {
                let n = if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.roll20_count("a number")?
                } else {
                    1
                };
                DiceOp::Keep(vec![Selector::Highest(n)], Spelling::Roll20)
            } else if self.eat("kl") {
                let n = if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.roll20_count("a number")?
                } else {
                    1
                };
                DiceOp::Keep(vec![Selector::Lowest(n)], Spelling::Roll20)
            } else if self.eat("k") {
                DiceOp::Keep(
                    vec![Selector::Highest(
                        self.roll20_count("kh, kl or a number of dice to keep")?,
                    )],
                    Spelling::Roll20,
                )
            } else if self.eat("dh") {
                let n = if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.roll20_count("a number")?
                } else {
                    1
                };
                DiceOp::Drop(vec![Selector::Highest(n)], Spelling::Roll20)
            } else if self.eat("dl") {
                let n = if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.roll20_count("a number")?
                } else {
                    1
                };
                DiceOp::Drop(vec![Selector::Lowest(n)], Spelling::Roll20)
            } else if self.peek() == Some(b'd')
                && self.peek_at(1).is_some_and(|b| b.is_ascii_digit())
            {
                self.pos += 1;
                DiceOp::Drop(
                    vec![Selector::Lowest(self.roll20_count("a number")?)],
                    Spelling::Roll20,
                )
            } else if self.eat("ro") {
                DiceOp::RerollOnce(vec![self.roll20_compare(CMP)?], Spelling::Roll20)
            } else if self.eat("r") {
                DiceOp::Reroll(vec![self.roll20_compare(CMP)?], Spelling::Roll20)
            } else if self.eat("!!") {
                let sel = if starts_compare(self.peek()) {
                    self.roll20_compare(CMP)?
                } else {
                    on_max
                };
                DiceOp::Compound(sel)
            } else if self.eat("!") {
                let sel = if starts_compare(self.peek()) {
                    self.roll20_compare(CMP)?
                } else {
                    on_max
                };
                DiceOp::Explode(vec![sel], Spelling::Roll20)
            } else if self.eat("mi") {
                DiceOp::Min(self.integer("a number after mi")?.min(i64::MAX as u64 / 2) as i64)
            } else if self.eat("ma") {
                DiceOp::Max(self.integer("a number after ma")?.min(i64::MAX as u64 / 2) as i64)
            } else if matches!(self.peek(), Some(b'<' | b'>' | b'=')) {
                let success = self.roll20_compare("a target number such as >=5")?;
                let failure = if self.eat("f") {
                    Some(self.roll20_compare(CMP)?)
                } else {
                    None
                };
                DiceOp::Count { success, failure }
            } else {
                break;
            };
            term.ops.push(op);
        }
        // Roll20 applies modifiers in a fixed order whatever order they were written in.
        term.ops.sort_by_key(|op| match op {
            DiceOp::Reroll(..) | DiceOp::RerollOnce(..) => 0,
            DiceOp::Explode(..) | DiceOp::Compound(_) | DiceOp::RerollAdd(_) => 1,
            DiceOp::Min(_) | DiceOp::Max(_) => 2,
            DiceOp::Keep(..) | DiceOp::Drop(..) => 3,
            DiceOp::Count { .. } => 4,
        });
        let counts = term
            .ops
            .iter()
            .filter(|op| matches!(op, DiceOp::Count { .. }))
            .count();
        if counts > 1 {
            return Err(DiceError::invalid(
                term.position,
                "a dice group takes one target number (such as >=5)",
            ));
        }
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
                    selectors: vec![sel],
                }),
            }
        }
    }
}

/// Avrae merges consecutive uses of the same operator into one with several selectors
/// (`kh1kl1` keeps the highest and the lowest); `mi` and `ma` are never merged.
fn push_merged(ops: &mut Vec<DiceOp>, op: DiceOp) {
    if let Some(last) = ops.last_mut() {
        let merged = match (last, &op) {
            (DiceOp::Keep(a, _), DiceOp::Keep(b, _))
            | (DiceOp::Drop(a, _), DiceOp::Drop(b, _))
            | (DiceOp::Reroll(a, _), DiceOp::Reroll(b, _))
            | (DiceOp::RerollOnce(a, _), DiceOp::RerollOnce(b, _))
            | (DiceOp::RerollAdd(a), DiceOp::RerollAdd(b))
            | (DiceOp::Explode(a, _), DiceOp::Explode(b, _)) => {
                a.extend_from_slice(b);
                true
            }
            _ => false,
        };
        if merged {
            return;
        }
    }
    ops.push(op);
}

/// Refuses rerolls and explosions that could never stop, before a single die is rolled.
fn check_terminates(term: &DiceTerm) -> Result<(), DiceError> {
    if term.count == 0 {
        return Ok(());
    }
    let covers_every_face = |sels: &[Selector]| {
        term.faces
            .values()
            .all(|v| sels.iter().any(|s| s.matches_value(v)))
    };
    for op in &term.ops {
        let (sels, what): (&[Selector], &str) = match op {
            DiceOp::Reroll(s, _) => (s, "reroll"),
            DiceOp::Explode(s, _) => (s, "explosion"),
            DiceOp::Compound(s) => (std::slice::from_ref(s), "explosion"),
            _ => continue,
        };
        if matches!(op, DiceOp::Reroll(..)) && sels.iter().any(|s| !s.is_by_value()) {
            return Err(DiceError::invalid(
                term.position,
                format!(
                    "{term} would reroll forever: h and l always pick a die; reroll by value instead (rr1, rr<3)"
                ),
            ));
        }
        if covers_every_face(sels) {
            return Err(DiceError::invalid(
                term.position,
                format!(
                    "{term} can never stop: its {what} condition matches every face of the die; \
                     use a condition that some face escapes"
                ),
            ));
        }
    }
    Ok(())
}
