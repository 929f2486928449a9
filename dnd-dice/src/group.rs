//! Rolling one dice group and applying its operators, with Avrae's d20 semantics.
//!
//! The dice are kept as parallel arrays (values and flag bits) in small inline vectors, so a
//! group of up to 16 dice never allocates; the history a [`Roll`](super::Roll) shows (faces
//! replaced by rerolls, faces changed by `mi`/`ma`) is kept only when recording.
//!
//! Semantics, as d20 has them: selectors look only at dice still kept; a reroll replaces a
//! die's value; an explosion appends a new die, and each die explodes at most once per
//! explode operator; `mi`/`ma` change kept dice; keep/drop mark dice dropped.

use smallvec::SmallVec;

use super::ast::{DiceOp, Selector};
use super::error::Fault;
use super::roll::{Counted, Die, Fate};

const DROPPED: u8 = 1;
const EXPLODED: u8 = 2;
const COMPOUNDED: u8 = 4;
const SUCCESS: u8 = 8;
const FAILURE: u8 = 16;

type Mask = SmallVec<[bool; 16]>;

/// How many dice a group holds on the stack before moving to the heap.
const INLINE: usize = 16;

/// The dice of one group while it is being rolled.
pub(crate) struct Group {
    store: Store,
    history: Option<History>,
}

/// Values and flag bits of the dice, on the stack for small groups. (A plain enum rather than
/// a small-vector crate: this is the innermost loop of every roll, and the simple form is
/// several times faster here.)
enum Store {
    Inline {
        values: [i64; INLINE],
        flags: [u8; INLINE],
        len: usize,
    },
    Heap {
        values: Vec<i64>,
        flags: Vec<u8>,
    },
}

/// What only the full record needs.
#[derive(Default)]
struct History {
    /// (die, face) for every face a reroll replaced, in order.
    rerolled: Vec<(usize, i64)>,
    /// (die, face) for the first face of every die `mi`/`ma` changed.
    clamped: Vec<(usize, i64)>,
}

impl Group {
    pub(crate) fn new(count: u32, recording: bool) -> Self {
        let store = if count as usize <= INLINE {
            Store::Inline {
                values: [0; INLINE],
                flags: [0; INLINE],
                len: 0,
            }
        } else {
            Store::Heap {
                values: Vec::with_capacity(count as usize),
                flags: Vec::with_capacity(count as usize),
            }
        };
        Group {
            store,
            history: recording.then(History::default),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, value: i64) {
        match &mut self.store {
            Store::Inline { values, flags, len } if *len < INLINE => {
                values[*len] = value;
                flags[*len] = 0;
                *len += 1;
            }
            Store::Inline { values, flags, len } => {
                let mut values = values[..*len].to_vec();
                let mut flags = flags[..*len].to_vec();
                values.push(value);
                flags.push(0);
                self.store = Store::Heap { values, flags };
            }
            Store::Heap { values, flags } => {
                values.push(value);
                flags.push(0);
            }
        }
    }

    #[inline]
    fn values(&self) -> &[i64] {
        match &self.store {
            Store::Inline { values, len, .. } => &values[..*len],
            Store::Heap { values, .. } => values,
        }
    }

    #[inline]
    fn flags(&self) -> &[u8] {
        match &self.store {
            Store::Inline { flags, len, .. } => &flags[..*len],
            Store::Heap { flags, .. } => flags,
        }
    }

    #[inline]
    fn parts_mut(&mut self) -> (&mut [i64], &mut [u8]) {
        match &mut self.store {
            Store::Inline { values, flags, len } => (&mut values[..*len], &mut flags[..*len]),
            Store::Heap { values, flags } => (values, flags),
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.values().len()
    }

    #[inline]
    fn value(&self, i: usize) -> i64 {
        self.values()[i]
    }

    #[inline]
    fn flag(&mut self, i: usize, bit: u8) {
        self.parts_mut().1[i] |= bit;
    }

    #[inline]
    fn kept(&self, i: usize) -> bool {
        self.flags()[i] & DROPPED == 0
    }

    /// The sum of the kept dice.
    pub(crate) fn total(&self) -> i64 {
        self.values()
            .iter()
            .zip(self.flags())
            .filter(|(_, f)| **f & DROPPED == 0)
            .map(|(v, _)| v)
            .sum()
    }

    /// Applies one operator, rolling new dice through `roll`. Returns the group's value when
    /// the operator decides it (a target number counts successes instead of summing).
    pub(crate) fn apply(
        &mut self,
        op: &DiceOp,
        roll: &mut impl FnMut() -> Result<i64, Fault>,
    ) -> Result<Option<i64>, Fault> {
        match op {
            DiceOp::Keep(sels, _) => self.keep_or_drop(true, sels),
            DiceOp::Drop(sels, _) => self.keep_or_drop(false, sels),
            DiceOp::Reroll(sels, _) => {
                // Rounds, as d20 does: every selected die is rerolled, then selection runs
                // again. Value selectors do not depend on other dice, so one pass is one round.
                loop {
                    let mut any = false;
                    for i in 0..self.len() {
                        if self.kept(i) && matches_any(sels, self.value(i)) {
                            self.reroll(i, roll()?);
                            any = true;
                        }
                    }
                    if !any {
                        break;
                    }
                }
            }
            DiceOp::RerollOnce(sels, _) => {
                let mask = self.select(sels);
                for (i, selected) in mask.into_iter().enumerate() {
                    if selected {
                        self.reroll(i, roll()?);
                    }
                }
            }
            DiceOp::RerollAdd(sels) => {
                if let Some(i) = self.first_selected(sels) {
                    self.flag(i, EXPLODED);
                    self.push(roll()?);
                }
            }
            DiceOp::Explode(sels, _) => self.explode(sels, roll)?,
            DiceOp::Compound(sel) => {
                for i in 0..self.len() {
                    if !self.kept(i) {
                        continue;
                    }
                    let mut last = self.value(i);
                    while sel.matches_value(last) {
                        last = roll()?;
                        self.parts_mut().0[i] += last;
                        self.flag(i, COMPOUNDED);
                    }
                }
            }
            DiceOp::Min(n) => self.clamp(|v| v < *n, *n),
            DiceOp::Max(n) => self.clamp(|v| v > *n, *n),
            DiceOp::Count { success, failure } => {
                let mut total = 0;
                for i in 0..self.len() {
                    if !self.kept(i) {
                        continue;
                    }
                    let v = self.value(i);
                    if success.matches_value(v) {
                        self.flag(i, SUCCESS);
                        total += 1;
                    } else if failure.is_some_and(|f| f.matches_value(v)) {
                        self.flag(i, FAILURE);
                        total -= 1;
                    }
                }
                return Ok(Some(total));
            }
        }
        Ok(None)
    }

    /// Keeps (or drops) the dice the selectors pick.
    pub(crate) fn keep_or_drop(&mut self, keep: bool, sels: &[Selector]) {
        // The common case, one rank selector (kh3, pl1), needs no mask.
        if let [sel @ (Selector::Highest(n) | Selector::Lowest(n))] = sels {
            let highest = matches!(sel, Selector::Highest(_));
            let kept = self.flags().iter().filter(|f| **f & DROPPED == 0).count();
            let n = (*n as usize).min(kept);
            // Dropping the tail of the ranking keeps its head. The ranking orders by value
            // (descending for h) with ties in die order.
            let (count, from_head, highest_first) = if keep {
                (kept - n, false, highest)
            } else {
                (n, true, highest)
            };
            if count <= 4 {
                // A few dice to drop: scan for each instead of sorting.
                for _ in 0..count {
                    if let Some(i) = self.extreme(highest_first == from_head, from_head) {
                        self.flag(i, DROPPED);
                    }
                }
            } else {
                let ranked = self.ranked(highest_first);
                let ranked = ranked.as_slice();
                let (head, tail) = ranked.split_at(n);
                for &(_, i) in if keep { tail } else { head } {
                    self.flag(i, DROPPED);
                }
            }
            return;
        }
        let mask = self.select(sels);
        for (i, selected) in mask.into_iter().enumerate() {
            if selected != keep {
                self.flag(i, DROPPED);
            }
        }
    }

    fn reroll(&mut self, i: usize, value: i64) {
        let old = self.value(i);
        if let Some(h) = &mut self.history {
            h.rerolled.push((i, old));
            h.clamped.retain(|(die, _)| *die != i);
        }
        self.parts_mut().0[i] = value;
    }

    fn clamp(&mut self, out_of_bounds: impl Fn(i64) -> bool, to: i64) {
        for i in 0..self.len() {
            let v = self.value(i);
            if self.kept(i) && out_of_bounds(v) {
                if let Some(h) = &mut self.history
                    && !h.clamped.iter().any(|(die, _)| *die == i)
                {
                    h.clamped.push((i, v));
                }
                self.parts_mut().0[i] = to;
            }
        }
    }

    fn explode(
        &mut self,
        sels: &[Selector],
        roll: &mut impl FnMut() -> Result<i64, Fault>,
    ) -> Result<(), Fault> {
        if sels.iter().all(Selector::is_by_value) {
            // d20 explodes in rounds, appending new dice; scanning once in order, new dice
            // included, visits them in exactly that order.
            let mut i = 0;
            while i < self.len() {
                if self.kept(i) && matches_any(sels, self.value(i)) {
                    self.flag(i, EXPLODED);
                    self.push(roll()?);
                }
                i += 1;
            }
            return Ok(());
        }
        // Rank selectors: each round explodes the selected dice not yet exploded by this
        // operator, until a round selects none.
        let mut done: Mask = SmallVec::from_elem(false, self.len());
        loop {
            let mask = self.select(sels);
            let fresh: SmallVec<[usize; 16]> =
                (0..mask.len()).filter(|&i| mask[i] && !done[i]).collect();
            if fresh.is_empty() {
                return Ok(());
            }
            for i in fresh {
                done[i] = true;
                self.flag(i, EXPLODED);
                self.push(roll()?);
                done.push(false);
            }
        }
    }

    /// Which kept dice the selectors pick (their union).
    fn select(&self, sels: &[Selector]) -> Mask {
        let mut mask: Mask = SmallVec::from_elem(false, self.len());
        for sel in sels {
            match *sel {
                Selector::Range { lo, hi, .. } => {
                    for (i, m) in mask.iter_mut().enumerate() {
                        *m |= self.kept(i) && lo <= self.value(i) && self.value(i) <= hi;
                    }
                }
                Selector::Highest(n) | Selector::Lowest(n) => {
                    let ranked = self.ranked(matches!(sel, Selector::Highest(_)));
                    for &(_, i) in ranked.as_slice().iter().take(n as usize) {
                        mask[i] = true;
                    }
                }
            }
        }
        mask
    }

    /// The kept die with the highest (or lowest) value; among equal values the first die, or
    /// the last when `first_on_ties` is false.
    fn extreme(&self, highest: bool, first_on_ties: bool) -> Option<usize> {
        // The slices once, not an accessor (and its match on the store) per die.
        let (values, flags) = (self.values(), self.flags());
        let mut best: Option<(usize, i64)> = None;
        for (i, (&v, &f)) in values.iter().zip(flags).enumerate() {
            if f & DROPPED != 0 {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, bv)) => {
                    let strictly = if highest { v > bv } else { v < bv };
                    strictly || (v == bv && !first_on_ties)
                }
            };
            if better {
                best = Some((i, v));
            }
        }
        best.map(|(i, _)| i)
    }

    /// (value, die) of the kept dice, highest (or lowest) first; ties in die order, as d20's
    /// stable sort has them.
    fn ranked(&self, highest_first: bool) -> Ranked {
        let kept = (0..self.len())
            .filter(|&i| self.kept(i))
            .map(|i| (self.value(i), i));
        let mut ranked = if self.len() <= RANK_INLINE {
            let mut buf = [(0i64, 0usize); RANK_INLINE];
            let mut n = 0;
            for pair in kept {
                buf[n] = pair;
                n += 1;
            }
            Ranked::Inline(buf, n)
        } else {
            Ranked::Heap(kept.collect())
        };
        let slice = ranked.as_mut_slice();
        if highest_first {
            slice.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        } else {
            slice.sort_unstable();
        }
        ranked
    }

    /// The first die the selectors pick, in selection order: the first selector that picks
    /// any die decides (`ra` explodes only that one), as in d20.
    fn first_selected(&self, sels: &[Selector]) -> Option<usize> {
        sels.iter().find_map(|sel| match *sel {
            Selector::Range { lo, hi, .. } => (0..self.len())
                .find(|&i| self.kept(i) && lo <= self.value(i) && self.value(i) <= hi),
            Selector::Highest(0) | Selector::Lowest(0) => None,
            Selector::Highest(_) | Selector::Lowest(_) => self
                .ranked(matches!(sel, Selector::Highest(_)))
                .as_slice()
                .first()
                .map(|&(_, i)| i),
        })
    }

    /// The dice as the record shows them: each die preceded by the faces rerolls replaced.
    pub(crate) fn append_record(&mut self, out: &mut Vec<Die>) {
        let history = self.history.take().unwrap_or_default();
        out.reserve(self.len() + history.rerolled.len());
        for (i, (&value, &flags)) in self.values().iter().zip(self.flags()).enumerate() {
            for &(_, face) in history.rerolled.iter().filter(|(die, _)| *die == i) {
                out.push(Die {
                    value: face,
                    fate: Fate::Rerolled,
                    rolled: None,
                    counted: None,
                });
            }
            let fate = if flags & DROPPED != 0 {
                Fate::Dropped
            } else if flags & COMPOUNDED != 0 {
                Fate::Compounded
            } else if flags & EXPLODED != 0 {
                Fate::Exploded
            } else {
                Fate::Kept
            };
            let counted = if flags & SUCCESS != 0 {
                Some(Counted::Success)
            } else if flags & FAILURE != 0 {
                Some(Counted::Failure)
            } else {
                None
            };
            let rolled = history
                .clamped
                .iter()
                .find(|(die, _)| *die == i)
                .map(|&(_, face)| face);
            out.push(Die {
                value,
                fate,
                rolled,
                counted,
            });
        }
    }
}

/// How many dice are ranked on the stack before a heap buffer is used.
const RANK_INLINE: usize = 16;

/// Ranked dice: on the stack for small groups.
// The large inline variant is the point: it lives on the stack for one call, never boxed.
#[allow(clippy::large_enum_variant)]
enum Ranked {
    Inline([(i64, usize); RANK_INLINE], usize),
    Heap(Vec<(i64, usize)>),
}

impl Ranked {
    fn as_slice(&self) -> &[(i64, usize)] {
        match self {
            Ranked::Inline(buf, n) => &buf[..*n],
            Ranked::Heap(v) => v,
        }
    }

    fn as_mut_slice(&mut self) -> &mut [(i64, usize)] {
        match self {
            Ranked::Inline(buf, n) => &mut buf[..*n],
            Ranked::Heap(v) => v,
        }
    }
}

#[inline]
fn matches_any(sels: &[Selector], v: i64) -> bool {
    sels.iter().any(|s| s.matches_value(v))
}
