//! The operators after a dice group (`kh3`, `r<2`, `!`, `rr1`, `e6`, `mi2`, `>=5f1`...), one
//! parser per dialect, and the check that refuses rerolls and explosions that never stop.

use smallvec::SmallVec;

use super::Parser;
use crate::ast::{DiceOp, DiceOps, DiceTerm, Faces, Selector, Selectors, Spelling, Written};
use crate::{DiceError, MAX_EXACT};

impl Parser<'_> {
    /// Avrae selector: `h3`, `l1`, `>4`, `<3`, or a bare number.
    pub(super) fn avrae_selector(&mut self) -> Result<Selector, DiceError> {
        const EXPECTED: &str =
            "a selector: h3 (highest), l1 (lowest), >4, <3 or a number such as 6";
        let kind = self.peek();
        if matches!(kind, Some(b'h' | b'l' | b'<' | b'>')) {
            self.pos += 1;
        }
        if let Some(end @ (b'h' | b'l')) = kind {
            let what = if end == b'h' {
                "the count after h"
            } else {
                "the count after l"
            };
            let n = self.integer(EXPECTED, what, u32::MAX.into())? as u32;
            return Ok(if end == b'h' {
                Selector::Highest(n)
            } else {
                Selector::Lowest(n)
            });
        }
        let n = self.integer(EXPECTED, "the number in a selector", MAX_EXACT as u64)? as i64;
        Ok(match kind {
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
        if !matches!(self.peek(), Some(b'r' | b'm' | b'k' | b'p' | b'e')) {
            return Ok(());
        }
        term.ops = Vec::with_capacity(2);
        loop {
            let at = self.pos;
            // Two-letter operators first, so `rr` is not read as something shorter.
            const OPERATORS: [&str; 8] = ["rr", "ro", "ra", "mi", "ma", "k", "p", "e"];
            let Some(kind) = OPERATORS.into_iter().find(|op| self.eat(op)) else {
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
                    let n = self.clamp_bound(n, at)?;
                    if kind == "mi" {
                        DiceOp::Min(n)
                    } else {
                        DiceOp::Max(n)
                    }
                }
                "k" => DiceOp::Keep(smallvec::smallvec![sel], Spelling::Avrae),
                "p" => DiceOp::Drop(smallvec::smallvec![sel], Spelling::Avrae),
                "rr" => DiceOp::Reroll(smallvec::smallvec![sel], Spelling::Avrae),
                "ro" => DiceOp::RerollOnce(smallvec::smallvec![sel], Spelling::Avrae),
                "ra" => DiceOp::RerollAdd(smallvec::smallvec![sel]),
                _ => DiceOp::Explode(smallvec::smallvec![sel], Spelling::Avrae),
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
        let n = self.integer(expected, "the compare point", MAX_EXACT as u64)? as i64;
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

    /// A count of dice to keep or drop; `what` names it if it is over `u32::MAX`.
    fn roll20_count(&mut self, expected: &str, what: &'static str) -> Result<u32, DiceError> {
        Ok(self.integer(expected, what, u32::MAX.into())? as u32)
    }

    /// The number after `mi`/`ma` becomes a die's value, so it is held to the same limit as a
    /// die's sides (sums of such dice then stay far inside exact integer range).
    fn clamp_bound(&self, n: i64, at: usize) -> Result<i64, DiceError> {
        let max = i64::from(self.limits.max_sides);
        if n > max {
            return Err(DiceError::Limit {
                position: at,
                what: "the value after mi or ma",
                value: n as u64,
                max: max as u64,
            });
        }
        Ok(n)
    }

    /// `kh` takes an optional count: a bare `kh` means `kh1`.
    fn roll20_optional_count(&mut self, what: &'static str) -> Result<u32, DiceError> {
        if self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.roll20_count("a number", what)
        } else {
            Ok(1)
        }
    }

    pub(super) fn roll20_dice_ops(&mut self, term: &mut DiceTerm) -> Result<(), DiceError> {
        const CMP: &str = "a compare point such as 1, <3, >5 or =6";
        // Most groups have no operator: leave before doing any work.
        if !matches!(
            self.peek(),
            Some(b'k' | b'd' | b'r' | b'!' | b'm' | b'<' | b'>' | b'=')
        ) {
            return Ok(());
        }
        let max_face = term.faces.max_value();
        let on_max = Selector::Range {
            lo: max_face,
            hi: max_face,
            written: Written::Bare(max_face),
        };
        let starts_compare = |b: Option<u8>| matches!(b, Some(b'<' | b'>' | b'=' | b'0'..=b'9'));
        let one = |sel: Selector| -> Selectors { smallvec::smallvec![sel] };
        term.ops = Vec::with_capacity(2);
        loop {
            let (first, second) = (self.peek(), self.peek_at(1));
            let op = match (first, second) {
                (Some(which @ (b'k' | b'd')), Some(end @ (b'h' | b'l'))) => {
                    self.pos += 2;
                    let what = match (which, end) {
                        (b'k', b'h') => "the count after kh",
                        (b'k', _) => "the count after kl",
                        (_, b'h') => "the count after dh",
                        _ => "the count after dl",
                    };
                    let n = self.roll20_optional_count(what)?;
                    let sel = if end == b'h' {
                        Selector::Highest(n)
                    } else {
                        Selector::Lowest(n)
                    };
                    if which == b'k' {
                        DiceOp::Keep(one(sel), Spelling::Roll20)
                    } else {
                        DiceOp::Drop(one(sel), Spelling::Roll20)
                    }
                }
                (Some(b'k'), _) => {
                    self.pos += 1;
                    let n = self
                        .roll20_count("kh, kl or a number of dice to keep", "the count after k")?;
                    DiceOp::Keep(one(Selector::Highest(n)), Spelling::Roll20)
                }
                (Some(b'd'), Some(b'0'..=b'9')) => {
                    self.pos += 1;
                    DiceOp::Drop(
                        one(Selector::Lowest(
                            self.roll20_count("a number", "the count after d")?,
                        )),
                        Spelling::Roll20,
                    )
                }
                (Some(b'r'), Some(b'o')) => {
                    self.pos += 2;
                    DiceOp::RerollOnce(one(self.roll20_compare(CMP)?), Spelling::Roll20)
                }
                (Some(b'r'), _) => {
                    self.pos += 1;
                    DiceOp::Reroll(one(self.roll20_compare(CMP)?), Spelling::Roll20)
                }
                (Some(b'!'), _) => {
                    let compound = second == Some(b'!');
                    self.pos += if compound { 2 } else { 1 };
                    let sel = if starts_compare(self.peek()) {
                        self.roll20_compare(CMP)?
                    } else {
                        on_max
                    };
                    if compound {
                        DiceOp::Compound(sel)
                    } else {
                        DiceOp::Explode(one(sel), Spelling::Roll20)
                    }
                }
                (Some(b'm'), Some(b'i')) | (Some(b'm'), Some(b'a')) => {
                    self.pos += 2;
                    let what = if second == Some(b'i') {
                        "the value after mi"
                    } else {
                        "the value after ma"
                    };
                    let max = self.limits.max_sides.into();
                    let n = self.integer("a number after mi or ma", what, max)? as i64;
                    if second == Some(b'i') {
                        DiceOp::Min(n)
                    } else {
                        DiceOp::Max(n)
                    }
                }
                (Some(b'<' | b'>' | b'='), _) => {
                    let success = self.roll20_compare("a target number such as >=5")?;
                    let failure = if self.eat("f") {
                        Some(self.roll20_compare(CMP)?)
                    } else {
                        None
                    };
                    DiceOp::Count { success, failure }
                }
                _ => break,
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
fn push_merged(ops: &mut DiceOps, op: DiceOp) {
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
    let covers_every_face = |sels: &[Selector]| match term.faces {
        // Faces 1..=n are contiguous: sweep the selectors' ranges instead of every face.
        Faces::Sides(n) => {
            let mut ranges: SmallVec<[(i64, i64); 2]> = sels
                .iter()
                .filter_map(|s| match *s {
                    Selector::Range { lo, hi, .. } => Some((lo, hi)),
                    _ => None,
                })
                .collect();
            ranges.sort_unstable();
            let mut next = 1i64;
            for (lo, hi) in ranges {
                if lo <= next && hi >= next {
                    next = hi.saturating_add(1);
                }
            }
            next > i64::from(n)
        }
        faces => faces
            .values()
            .all(|v| sels.iter().any(|s| s.matches_value(v))),
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
