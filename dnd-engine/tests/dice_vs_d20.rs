//! Differential test of the Avrae dialect against Avrae's own `d20` library.
//!
//! About 2000 random Avrae expressions are rolled in Rust with a die source that records every
//! face it hands out; the expressions and their faces then go, in one batch, to
//! `tests/oracle/d20_oracle.py`, which replays the same faces through `d20.roll`. The totals
//! (and errors such as running out of the roll budget) must agree, and d20 must consume exactly
//! the faces Rust rolled.
//!
//! The Python is the first of: `$D20_PYTHON`, `target/d20-venv/bin/python` under the workspace
//! root (the CI script creates that venv), `python3`, that can import `d20`. When none can, the
//! test fails on CI (`CI` set, as `.ci/run` does) and elsewhere passes with a `skipped:` line
//! saying why and how to install it (`support/environment.rs`).
//!
//! To look further: `D20_CASES=30000` compares more expressions and `D20_SEED=n` draws other
//! ones, for example `D20_CASES=30000 cargo test -p dnd-engine --test dice_vs_d20 -- --nocapture`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use dnd_engine::dice::{Dialect, DiceError, DiceExpr, DieSource, GameRng, seeded_rng};
use rand::RngExt;
use serde_json::Value;

#[path = "support/environment.rs"]
mod environment;

/// How many expressions to compare, unless `D20_CASES` says otherwise.
const CASES: usize = 2000;

/// Confirmed differences from d20: a description and a test on the expression text; matching
/// expressions are skipped. Only differences the dice engine's owner has confirmed belong here.
const KNOWN_DIFFERENCES: &[Difference] = &[];

/// A difference from d20: what it is, and whether an expression runs into it.
type Difference = (&'static str, fn(&str) -> bool);

/// The description of the known difference `text` runs into, if any.
fn known_difference(text: &str) -> Option<&'static str> {
    KNOWN_DIFFERENCES
        .iter()
        .find(|(_, test)| test(text))
        .map(|(why, _)| *why)
}

/// Wraps a die source and records each face index it returns.
struct Recording<S> {
    inner: S,
    faces: Vec<u32>,
}

impl<S: DieSource> DieSource for Recording<S> {
    fn roll_die(&mut self, sides: u32) -> Option<u32> {
        let face = self.inner.roll_die(sides)?;
        self.faces.push(face);
        Some(face)
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate lives inside the workspace")
        .to_path_buf()
}

fn oracle_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/d20_oracle.py")
}

/// The first Python that can run the oracle, or why there is none.
fn find_python() -> Result<PathBuf, String> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("D20_PYTHON") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(workspace_root().join("target/d20-venv/bin/python"));
    candidates.push(PathBuf::from("python3"));
    let mut tried = Vec::new();
    for python in candidates {
        let outcome = Command::new(&python)
            .arg(oracle_script())
            .arg("--check")
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .output();
        match outcome {
            Ok(out) if out.status.success() => return Ok(python),
            Ok(out) => {
                let err = String::from_utf8_lossy(&out.stderr);
                let last = err.lines().last().unwrap_or("").trim().to_owned();
                tried.push(format!("{} ({last})", python.display()));
            }
            Err(e) => tried.push(format!("{} ({e})", python.display())),
        }
    }
    Err(format!(
        "no Python with the d20 package: tried {}; run `python3 -m venv target/d20-venv && \
         target/d20-venv/bin/pip install d20==1.1.2` (as .ci/run does) or set D20_PYTHON",
        tried.join(", ")
    ))
}

/// A seeded generator of random Avrae expressions.
struct Gen {
    rng: GameRng,
}

impl Gen {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.random_range(lo..=hi)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.random_range(0..items.len())]
    }

    /// An expression: sometimes a comparison of two sums.
    fn expr(&mut self, depth: u32) -> String {
        let left = self.sum(depth);
        if self.chance(0.1) {
            let op = self.pick(&["==", "!=", "<", "<=", ">", ">="]);
            format!("{left} {op} {}", self.sum(depth))
        } else {
            left
        }
    }

    fn sum(&mut self, depth: u32) -> String {
        let mut out = self.product(depth);
        for _ in 0..self.int(0, 2) {
            let op = self.pick(&["+", "-"]);
            out = format!("{out} {op} {}", self.product(depth));
        }
        out
    }

    fn product(&mut self, depth: u32) -> String {
        let mut out = self.factor(depth);
        if self.chance(0.3) {
            let op = self.pick(&["*", "*", "/", "//", "%"]);
            // Usually a divisor that is not zero; sometimes whatever comes.
            let right = if op != "*" && self.chance(0.7) {
                self.int(1, 6).to_string()
            } else {
                self.factor(depth)
            };
            out = format!("{out} {op} {right}");
        }
        out
    }

    fn factor(&mut self, depth: u32) -> String {
        if self.chance(0.05) {
            let sign = self.pick(&["-", "+"]);
            return format!("{sign}{}", self.factor(depth));
        }
        let atom = self.atom(depth);
        if self.chance(0.03) {
            format!("{atom} [fire]")
        } else {
            atom
        }
    }

    fn atom(&mut self, depth: u32) -> String {
        let roll = self.int(0, 99);
        match roll {
            0..=54 => self.dice(),
            55..=79 => self.number(),
            80..=89 if depth > 0 => {
                let inner = self.expr(depth - 1);
                if self.chance(0.4) {
                    let ops = self.set_ops(3);
                    format!("({inner}){ops}")
                } else {
                    format!("({inner})")
                }
            }
            90..=99 if depth > 0 => self.set(depth - 1),
            _ => self.dice(),
        }
    }

    fn number(&mut self) -> String {
        if self.chance(0.03) {
            format!("{}.{}", self.int(0, 9), self.int(1, 9))
        } else {
            self.int(0, 20).to_string()
        }
    }

    fn set(&mut self, depth: u32) -> String {
        let n = self.pick(&[0usize, 1, 2, 2, 3, 3, 4]);
        let items: Vec<String> = (0..n).map(|_| self.expr(depth)).collect();
        let body = match n {
            1 => format!("({},)", items[0]),
            _ => format!("({})", items.join(", ")),
        };
        let ops = if self.chance(0.8) {
            self.set_ops(n as i64)
        } else {
            String::new()
        };
        format!("{body}{ops}")
    }

    /// `k`/`p` operators for a set of about `n` items.
    fn set_ops(&mut self, n: i64) -> String {
        let mut out = String::new();
        for _ in 0..self.int(1, 2) {
            let op = self.pick(&["k", "k", "p"]);
            let sel = match self.int(0, 4) {
                0 => format!("h{}", self.int(0, n.max(1))),
                1 => format!("l{}", self.int(0, n.max(1))),
                2 => format!(">{}", self.int(0, 15)),
                3 => format!("<{}", self.int(0, 15)),
                _ => self.int(0, 10).to_string(),
            };
            out.push_str(op);
            out.push_str(&sel);
        }
        out
    }

    fn dice(&mut self) -> String {
        let count = self.int(1, 8);
        let size = self.pick(&["4", "6", "8", "10", "12", "20", "100", "%"]);
        let faces: Vec<i64> = match size {
            "%" => (0..10).map(|i| i * 10).collect(),
            s => (1..=s.parse::<i64>().expect("a number")).collect(),
        };
        let mut out = if count == 1 && self.chance(0.2) {
            format!("d{size}")
        } else {
            format!("{count}d{size}")
        };
        for _ in 0..self.pick(&[0, 1, 1, 1, 2, 2, 3]) {
            let op = self.pick(&["k", "k", "p", "rr", "ro", "ra", "e", "mi", "ma"]);
            let sel = match op {
                "k" | "p" => self.any_selector(count, &faces),
                "ro" | "ra" if self.chance(0.15) => self.rank_selector(count),
                "ro" | "ra" => self.value_selector(&faces),
                "rr" => self.escaping_selector(&faces, false),
                "e" => self.escaping_selector(&faces, true),
                _ => {
                    let v = self.pick(&faces);
                    (v + self.int(-1, 1)).max(0).to_string()
                }
            };
            out.push_str(op);
            out.push_str(&sel);
        }
        out
    }

    fn rank_selector(&mut self, count: i64) -> String {
        let kind = self.pick(&["h", "l"]);
        format!("{kind}{}", self.int(0, count + 1))
    }

    fn value_selector(&mut self, faces: &[i64]) -> String {
        let v = self.pick(faces);
        match self.int(0, 2) {
            0 => format!("<{v}"),
            1 => format!(">{v}"),
            _ => v.to_string(),
        }
    }

    fn any_selector(&mut self, count: i64, faces: &[i64]) -> String {
        if self.chance(0.5) {
            self.rank_selector(count)
        } else {
            self.value_selector(faces)
        }
    }

    /// A value selector that leaves at least one face unselected, so rerolling or exploding
    /// stops. Explosions favour the high faces so that chains stay short.
    fn escaping_selector(&mut self, faces: &[i64], high: bool) -> String {
        let (lo, hi) = (faces[0], faces[faces.len() - 1]);
        let v = if high {
            faces[self.rng.random_range(faces.len() / 2..faces.len())]
        } else {
            self.pick(faces)
        };
        match self.int(0, 2) {
            // `<v` with v <= the top face leaves the top face out.
            0 if !high => format!("<{}", v.min(hi)),
            // `>v` with v >= the lowest face leaves the lowest face out.
            1 => format!(">{}", v.max(lo)),
            _ => v.to_string(),
        }
    }
}

/// What the engine did with one expression.
enum Outcome {
    Total(i64),
    Failed(DiceError),
}

struct Case {
    expr: String,
    faces: Vec<u32>,
    outcome: Outcome,
    rendering: String,
}

fn describe(case: &Case, answer: &Value) -> String {
    let rust = match &case.outcome {
        Outcome::Total(t) => format!("total {t}: {}", case.rendering),
        Outcome::Failed(e) => format!("error {e:?}"),
    };
    format!(
        "expression: {}\nfaces ({}): {:?}\nrust: {rust}\nd20:  {answer}",
        case.expr,
        case.faces.len(),
        case.faces
    )
}

/// Whether d20's answer agrees with the engine's outcome; `Err` says how it does not.
fn agrees(case: &Case, answer: &Value) -> Result<(), String> {
    let used = answer["used"].as_u64().unwrap_or(u64::MAX) as usize;
    let error = answer["error"].as_str();
    match (&case.outcome, error) {
        (Outcome::Total(total), None) => {
            let theirs = answer["total"].as_i64();
            if theirs != Some(*total) {
                return Err("totals differ".into());
            }
            if used != case.faces.len() {
                return Err(format!(
                    "same total, but d20 used {used} faces where the engine rolled {}",
                    case.faces.len()
                ));
            }
            Ok(())
        }
        (Outcome::Failed(DiceError::TooManyRolls { .. }), Some("TooManyRolls")) => Ok(()),
        // The engine stops at the division; d20 rolls every die first and divides when it
        // totals, so it may run out of the recorded faces before it gets there.
        (Outcome::Failed(DiceError::DivisionByZero), Some("RollValueError" | "OutOfFaces")) => {
            Ok(())
        }
        _ => Err("outcomes differ".into()),
    }
}

#[test]
fn avrae_dialect_matches_d20() {
    let python = match find_python() {
        Ok(p) => p,
        Err(reason) => return environment::missing(&reason),
    };

    let mut generator = Gen {
        rng: seeded_rng(
            std::env::var("D20_SEED")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0x00d2_0d20),
        ),
    };
    let wanted: usize = std::env::var("D20_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    let mut cases: Vec<Case> = Vec::with_capacity(wanted);
    let mut refused = Vec::new();
    let mut out_of_range = 0usize;
    let mut known = Vec::new();
    let mut attempts = 0usize;
    while cases.len() < wanted {
        attempts += 1;
        assert!(
            attempts < wanted * 10,
            "the generator makes too few valid cases"
        );
        let text = generator.expr(2);
        if let Some(why) = known_difference(&text) {
            known.push(format!("{text}: {why}"));
            continue;
        }
        let expr = match DiceExpr::parse_with(&text, Dialect::Avrae) {
            Ok(e) => e,
            Err(e) => {
                // Refused up front (an explosion or reroll that can never stop, ...): d20
                // would run into its roll limit instead.
                refused.push(format!("{text}: {e}"));
                continue;
            }
        };
        let seed = 1000 + cases.len() as u64;
        let mut source = Recording {
            inner: seeded_rng(seed),
            faces: Vec::new(),
        };
        let (outcome, rendering) = match expr.roll(&mut source) {
            Ok(roll) => (Outcome::Total(roll.total()), roll.to_string()),
            Err(DiceError::OutOfRange) => {
                out_of_range += 1;
                continue;
            }
            Err(e) => (Outcome::Failed(e), String::new()),
        };
        cases.push(Case {
            expr: text,
            faces: source.faces,
            outcome,
            rendering,
        });
    }

    let mut input = String::new();
    for case in &cases {
        let line = serde_json::json!({"expr": case.expr, "faces": case.faces});
        input.push_str(&line.to_string());
        input.push('\n');
    }
    let mut child = Command::new(&python)
        .arg(oracle_script())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the d20 oracle");
    let mut stdin = child.stdin.take().expect("the oracle's stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("run the d20 oracle");
    writer
        .join()
        .expect("the writer thread")
        .expect("write the cases to the oracle");
    assert!(
        output.status.success(),
        "the d20 oracle failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("the oracle prints JSON lines"))
        .collect();
    assert_eq!(answers.len(), cases.len(), "one answer per case");

    let mut mismatches = Vec::new();
    let mut errors = 0usize;
    for (case, answer) in cases.iter().zip(&answers) {
        if matches!(case.outcome, Outcome::Failed(_)) {
            errors += 1;
        }
        if let Err(why) = agrees(case, answer) {
            mismatches.push(format!("{why}\n{}", describe(case, answer)));
        }
    }
    eprintln!(
        "compared {} expressions with d20 ({} python: {}): {errors} ended in an error on both \
         sides; skipped {} refused up front, {out_of_range} out of range, {} known \
         differences",
        cases.len(),
        python.display(),
        oracle_script().display(),
        refused.len(),
        known.len(),
    );
    for r in refused.iter().take(5) {
        eprintln!("  refused: {r}");
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} expressions differ from d20; the first ones:\n\n{}",
        mismatches.len(),
        cases.len(),
        mismatches
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
