//! The exported fair-dice log and its verification.
//!
//! The log is JSON (`GET /api/campaigns/{id}/fair/log` serves it):
//!
//! ```json
//! {
//!   "format": "dnd-fair-log/1",
//!   "seeds": [{"server_seed": "64 hex", "commitment": "64 hex", "client_seed": "abc",
//!              "first_turn": 2, "last_turn": 9}],
//!   "commits": [{"turn": 1, "commitment": "64 hex"}],
//!   "pending": {"commitment": "64 hex", "client_seed": "abc", "first_turn": 11},
//!   "rolls": [{"turn": 3, "undone": false, "label": "Kraven attacks the wolf", "total": 17,
//!              "nonce": 3000000, "dice": [{"sides": 20, "face": 12}, {"sides": 12, "face": 7}],
//!              "detail": {"kind": "attack", "result": {}}}]
//! }
//! ```
//!
//! `seeds` are the revealed ones; `commits` say in which history turn each commitment was
//! recorded; `pending` is the seed in force (its rolls cannot be checked until it is revealed);
//! `rolls` are the roll records made with fair dice, in history order, undone turns included.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dice::fair::{FairDie, ServerSeed, faces, nonce_turn};
use crate::state::{Change, GameState, RevealedSeed};
use crate::store::{HistoryEntry, RollDetail};

/// The format tag of [`FairLog`].
pub const FORMAT: &str = "dnd-fair-log/1";

/// A campaign's fair-dice log: see the [module docs](crate::fair).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairLog {
    /// Always [`FORMAT`].
    pub format: String,
    /// The revealed seeds, oldest first.
    pub seeds: Vec<RevealedSeed>,
    /// Where each commitment was recorded.
    pub commits: Vec<LoggedCommit>,
    /// The seed in force, not yet revealed: commitment, client seed, first turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingSeed>,
    /// Every roll made with fair dice.
    pub rolls: Vec<LoggedRoll>,
}

/// A commitment and the history turn whose record carried it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedCommit {
    /// The history number of the record.
    pub turn: u64,
    /// The commitment.
    pub commitment: String,
}

/// The public part of the seed in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSeed {
    /// Its commitment.
    pub commitment: String,
    /// Its client seed.
    pub client_seed: String,
    /// The first turn it covers.
    pub first_turn: u64,
}

/// One roll made with fair dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedRoll {
    /// The history number of its turn.
    pub turn: u64,
    /// Whether that turn was undone.
    pub undone: bool,
    /// What was rolled for.
    pub label: String,
    /// The total.
    pub total: i64,
    /// Its nonce.
    pub nonce: u64,
    /// The dice drawn under the nonce, in order.
    pub dice: Vec<FairDie>,
    /// The roll's full result, whose faces must be among `dice`.
    pub detail: RollDetail,
}

impl FairLog {
    /// The log of a campaign from its state (the seeds) and its whole history.
    pub fn from_history(state: &GameState, history: &[HistoryEntry]) -> FairLog {
        let mut commits = Vec::new();
        let mut rolls = Vec::new();
        for entry in history {
            for change in &entry.record.changes {
                if let Change::FairCommitted { commit } = change {
                    commits.push(LoggedCommit {
                        turn: entry.turn,
                        commitment: commit.commitment.clone(),
                    });
                }
            }
            for roll in &entry.record.rolls {
                if let Some(draw) = &roll.fair {
                    rolls.push(LoggedRoll {
                        turn: entry.turn,
                        undone: entry.undone,
                        label: roll.label.clone(),
                        total: roll.total,
                        nonce: draw.nonce,
                        dice: draw.dice.clone(),
                        detail: (*roll.detail).clone(),
                    });
                }
            }
        }
        FairLog {
            format: FORMAT.to_owned(),
            seeds: state.fair.revealed.clone(),
            commits,
            pending: state.fair.current.as_ref().map(|c| PendingSeed {
                commitment: c.commitment.clone(),
                client_seed: c.client_seed.clone(),
                first_turn: c.first_turn,
            }),
            rolls,
        }
    }
}

/// What verifying a log found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// Rolls recomputed and matched.
    pub verified: usize,
    /// Rolls under the seed in force, not revealed yet: not checked.
    pub unrevealed: usize,
    /// Every roll (or seed) that did not check out, with why.
    pub failures: Vec<VerifyFailure>,
}

impl VerifyReport {
    /// Whether everything checked out.
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

/// One thing that did not check out: which roll (turn, label, nonce) and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyFailure {
    /// The history turn of the roll (or of the seed's first turn).
    pub turn: u64,
    /// The roll's label (empty for a seed).
    pub label: String,
    /// The roll's nonce (`None` for a seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<u64>,
    /// What was wrong.
    pub reason: String,
}

/// Verifies a log: each revealed seed hashes to its commitment, recorded before its first
/// turn; each roll's nonce belongs to its turn and is used for one tool call only; its dice
/// are what the seed gives; the faces in its detail are among the dice of its nonce.
pub fn verify(log: &FairLog) -> VerifyReport {
    let mut report = VerifyReport::default();
    let mut seeds = Vec::new();
    for revealed in &log.seeds {
        let fail = |reason: String| VerifyFailure {
            turn: revealed.first_turn,
            label: String::new(),
            nonce: None,
            reason,
        };
        let seed = match ServerSeed::from_hex(&revealed.server_seed) {
            Ok(seed) => seed,
            Err(reason) => {
                report.failures.push(fail(reason));
                continue;
            }
        };
        if seed.commitment() != revealed.commitment {
            report.failures.push(fail(format!(
                "the seed revealed for turns {}..={} does not hash to its commitment {}",
                revealed.first_turn, revealed.last_turn, revealed.commitment
            )));
            continue;
        }
        let recorded = log
            .commits
            .iter()
            .any(|c| c.commitment == revealed.commitment && c.turn < revealed.first_turn);
        if !recorded {
            report.failures.push(fail(format!(
                "the commitment {} was not recorded before turn {}",
                revealed.commitment, revealed.first_turn
            )));
            continue;
        }
        seeds.push((revealed, seed));
    }
    // Each roll against its seed; then the rolls of one nonce together: the same dice, and
    // the faces their details show among them.
    let mut checked = vec![false; log.rolls.len()];
    let mut failed = vec![false; log.rolls.len()];
    let mut by_nonce: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (i, roll) in log.rolls.iter().enumerate() {
        let mut fail = |reason: String| {
            failed[i] = true;
            report.failures.push(failure(roll, reason));
        };
        if nonce_turn(roll.nonce) != roll.turn {
            fail(format!(
                "nonce {} belongs to turn {}, not to turn {}",
                roll.nonce,
                nonce_turn(roll.nonce),
                roll.turn
            ));
            continue;
        }
        by_nonce.entry(roll.nonce).or_default().push(i);
        let Some((revealed, seed)) = seeds
            .iter()
            .find(|(s, _)| (s.first_turn..=s.last_turn).contains(&roll.turn))
        else {
            let pending = log
                .pending
                .as_ref()
                .is_some_and(|p| roll.turn >= p.first_turn);
            if pending {
                report.unrevealed += 1;
            } else {
                fail(format!(
                    "no revealed or pending seed covers turn {}",
                    roll.turn
                ));
            }
            continue;
        };
        checked[i] = true;
        let sides: Vec<u32> = roll.dice.iter().map(|d| d.sides).collect();
        let expected = faces(seed, &revealed.client_seed, roll.nonce, &sides);
        let recorded: Vec<u32> = roll.dice.iter().map(|d| d.face).collect();
        if let Some(d) = (0..sides.len()).find(|&d| expected[d] != recorded[d]) {
            fail(format!(
                "die {} (d{}) shows {} but the seed gives {}",
                d + 1,
                sides[d],
                recorded[d],
                expected[d]
            ));
        }
    }
    for rolls in by_nonce.values() {
        let first = &log.rolls[rolls[0]];
        // The dice not yet matched to a face a record shows, taken record by record in order.
        let mut left: Vec<Option<FairDie>> = first.dice.iter().copied().map(Some).collect();
        for &i in rolls {
            let roll = &log.rolls[i];
            if roll.dice != first.dice || roll.turn != first.turn {
                failed[i] = true;
                report.failures.push(failure(
                    roll,
                    format!(
                        "nonce {} is used again for different dice than \"{}\"",
                        roll.nonce, first.label
                    ),
                ));
                continue;
            }
            if let Err(reason) = take_faces(&detail_faces(&roll.detail), &mut left) {
                for &j in rolls {
                    failed[j] = true;
                }
                report.failures.push(failure(roll, reason));
                break;
            }
        }
    }
    report.verified = (0..log.rolls.len())
        .filter(|&i| checked[i] && !failed[i])
        .count();
    report
}

fn failure(roll: &LoggedRoll, reason: String) -> VerifyFailure {
    VerifyFailure {
        turn: roll.turn,
        label: roll.label.clone(),
        nonce: Some(roll.nonce),
        reason,
    }
}

/// The dice a roll's detail shows, as (sides when the detail says them, face).
fn detail_faces(detail: &RollDetail) -> Vec<(Option<u32>, u32)> {
    use crate::rules::D20Roll;
    let d20 = |roll: &D20Roll| -> Vec<(Option<u32>, u32)> {
        let count = usize::from(roll.count).min(2);
        roll.rolls[..count]
            .iter()
            .map(|&f| (Some(20), u32::from(f)))
            .collect()
    };
    let damage = |dealt: &crate::rules::DamageDealt| -> Vec<(Option<u32>, u32)> {
        let sides = u32::from(dealt.dice.sides);
        let mut out: Vec<(Option<u32>, u32)> = dealt
            .faces
            .iter()
            .map(|&f| (Some(sides), u32::from(f)))
            .collect();
        // A rerolled die's first face was drawn too.
        out.extend(
            dealt
                .rerolled
                .iter()
                .map(|r| (Some(sides), u32::from(r.was))),
        );
        out
    };
    match detail {
        RollDetail::Check(check) | RollDetail::Save(check) => d20(&check.d20),
        RollDetail::Attack(attack) => {
            let mut out = d20(&attack.d20);
            for dealt in &attack.damage {
                out.extend(damage(dealt));
            }
            out
        }
        RollDetail::Initiative(roll) => d20(&roll.d20),
        RollDetail::DeathSave(roll) => vec![(Some(20), u32::from(roll.natural))],
        RollDetail::Recharge(roll) => vec![(Some(6), u32::from(roll.roll))],
        RollDetail::Damage(dealt) => damage(dealt),
        RollDetail::ShortRest(rest) => rest
            .rolls
            .iter()
            .map(|r| (None, u32::from(r.face)))
            .collect(),
        // A dice expression's dice show values after its operators (minimums, compounding),
        // not always faces: these are checked against the record's dice alone.
        RollDetail::Dice(_)
        | RollDetail::Healing(_)
        | RollDetail::LongRest(_)
        | RollDetail::Legacy(_) => Vec::new(),
    }
}

/// Matches every shown face to a distinct die still in `left` (with its sides, when known),
/// taking the dice it matched.
fn take_faces(shown: &[(Option<u32>, u32)], left: &mut [Option<FairDie>]) -> Result<(), String> {
    // Faces with their sides first, so a face without sides never takes the die they need.
    let mut ordered: Vec<&(Option<u32>, u32)> = shown.iter().collect();
    ordered.sort_by_key(|(sides, _)| sides.is_none());
    for (sides, face) in ordered {
        let slot = left
            .iter_mut()
            .find(|d| d.is_some_and(|d| d.face == *face && sides.is_none_or(|s| s == d.sides)));
        match slot {
            Some(slot) => *slot = None,
            None => {
                let die = sides.map_or("a die".to_owned(), |s| format!("a d{s}"));
                return Err(format!(
                    "the roll shows {die} of {face}, which is not among the dice drawn for its \
                     nonce (or another roll of the nonce already showed it)"
                ));
            }
        }
    }
    Ok(())
}
