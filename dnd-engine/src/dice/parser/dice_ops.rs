//! The operators after a dice group (`kh3`, `r<2`, `!`, `rr1`, `e6`, `mi2`, `>=5f1`...), one
//! parser per dialect, and the check that refuses rerolls and explosions that never stop.

use super::Parser;
use crate::dice::DiceError;
use crate::dice::ast::{DiceOp, DiceTerm, Selector, Spelling, Written};

impl Parser<'_> {
    /// Avrae selector: `h3`, `l1`, `>4`, `<3`, or a bare number.
    pub(super) fn avrae_selector(&mut self) -> Result<Selector, DiceError> {
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

    pub(super) fn avrae_dice_ops(&mut self, term: &mut DiceTerm) -> Result<(), DiceError> {
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

    pub(super) fn roll20_dice_ops(&mut self, term: &mut DiceTerm) -> Result<(), DiceError> {
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
pub(super) fn check_terminates(term: &DiceTerm) -> Result<(), DiceError> {
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
