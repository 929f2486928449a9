//! Roll dice from the command line, or print their exact distribution.
//!
//! ```text
//! cargo run --release --example dice -- "4d6kh3" --times 6 --seed 7
//! cargo run --release --example dice -- "(1d4, 2+2, 3d6kl1)kh1" --dialect avrae
//! cargo run --release --example dice -- "1d20+5" --advantage --json
//! cargo run --release --example dice -- "4d6kh3" --dist
//! cargo run --release --example dice -- "(100d20)*(100d20)" --dist --rows 20
//! ```
//!
//! `--dist` lists every possible total when there are at most `--rows` of them (default
//! [`DEFAULT_ROWS`]); with more it says so and prints a summary instead: mean, standard
//! deviation, percentiles and a histogram of at most `--rows` ranges, so the output stays
//! short whatever the expression (`(100d20)*(100d20)` has four million totals).
//!
//! A bad expression prints the error on stderr and exits with status 1; bad flags exit 2.

use std::fmt::Write as _;
use std::process::ExitCode;

use dnd_engine::dice::{Advantage, Dialect, DiceExpr, Distribution, game_rng, seeded_rng};

const USAGE: &str = "usage: dice EXPRESSION [--times N] [--seed N] [--dialect roll20|avrae] \
                     [--advantage | --disadvantage] [--json] [--dist [--rows N]]";

/// The most rows `--dist` prints unless `--rows` says otherwise.
const DEFAULT_ROWS: usize = 40;

/// The fewest rows `--rows` accepts: a low tail, one range and a high tail.
const MIN_ROWS: usize = 3;

/// The probability at each end of a summarised distribution that is folded into one tail row,
/// so that the ranges cover where the totals actually fall.
const TAIL: f64 = 0.0005;

struct Options {
    expression: String,
    times: u32,
    seed: Option<u64>,
    dialect: Dialect,
    advantage: Advantage,
    json: bool,
    dist: bool,
    /// The most rows `--dist` prints.
    rows: usize,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut expression = None;
    let mut opts = Options {
        expression: String::new(),
        times: 1,
        seed: None,
        dialect: Dialect::Roll20,
        advantage: Advantage::Normal,
        json: false,
        dist: false,
        rows: DEFAULT_ROWS,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--times" | "-n" => {
                let v = value("--times")?;
                opts.times = v
                    .parse()
                    .map_err(|_| format!("--times takes a whole number, not {v:?}"))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                opts.seed = Some(
                    v.parse()
                        .map_err(|_| format!("--seed takes a whole number, not {v:?}"))?,
                );
            }
            "--dialect" => opts.dialect = value("--dialect")?.parse()?,
            "--advantage" | "--adv" => opts.advantage = Advantage::Advantage,
            "--disadvantage" | "--dis" => opts.advantage = Advantage::Disadvantage,
            "--json" => opts.json = true,
            "--dist" => opts.dist = true,
            "--rows" => {
                let v = value("--rows")?;
                opts.rows = v.parse().ok().filter(|n| *n >= MIN_ROWS).ok_or_else(|| {
                    format!("--rows takes a whole number of at least {MIN_ROWS}, not {v:?}")
                })?;
            }
            "--help" | "-h" => return Err(USAGE.to_string()),
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}\n{USAGE}")),
            _ if expression.is_none() => expression = Some(arg),
            _ => {
                return Err(format!(
                    "one expression at a time (quote it if it has spaces)\n{USAGE}"
                ));
            }
        }
    }
    opts.expression = expression.ok_or_else(|| USAGE.to_string())?;
    Ok(opts)
}

fn main() -> ExitCode {
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let expr = match DiceExpr::parse_with(&opts.expression, opts.dialect) {
        Ok(e) => e.with_advantage(opts.advantage),
        Err(err) => {
            eprintln!("error: {err}");
            eprintln!("  {}", opts.expression);
            if let Some(pos) = err.position() {
                let column = opts
                    .expression
                    .get(..pos)
                    .map_or(pos, |s| s.chars().count());
                eprintln!("  {}^", " ".repeat(column));
            }
            return ExitCode::from(1);
        }
    };
    if opts.dist {
        return match expr.distribution() {
            Ok(d) => {
                print!("{}", render_distribution(&expr.to_string(), &d, opts.rows));
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("error: {err}");
                ExitCode::from(1)
            }
        };
    }
    let mut rng = match opts.seed {
        Some(seed) => seeded_rng(seed),
        None => game_rng(),
    };
    for _ in 0..opts.times {
        match expr.roll(&mut rng) {
            Ok(roll) if opts.json => match serde_json::to_string(&roll) {
                Ok(json) => println!("{json}"),
                Err(err) => {
                    eprintln!("error: cannot serialize the roll: {err}");
                    return ExitCode::from(1);
                }
            },
            Ok(roll) => {
                let natural = match roll.natural() {
                    Some(dnd_engine::dice::Natural::Twenty) => "  (natural 20)",
                    Some(dnd_engine::dice::Natural::One) => "  (natural 1)",
                    None => "",
                };
                println!("{roll}{natural}");
            }
            Err(err) => {
                eprintln!("error: {err}");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

/// The `--dist` table: every total when there are at most `rows` of them, else a summary with
/// a histogram of at most `rows` ranges. Linear in the number of totals.
fn render_distribution(expr: &str, d: &Distribution, rows: usize) -> String {
    let totals: Vec<(i64, f64)> = d.iter().collect();
    // p(>= total) for every total, summed once from the top rather than once per row.
    let mut at_least = vec![0.0; totals.len() + 1];
    for i in (0..totals.len()).rev() {
        at_least[i] = (at_least[i + 1] + totals[i].1).min(1.0);
    }
    let mut out = format!("{expr}\n");
    if totals.len() <= rows {
        let table: Vec<Row> = totals
            .iter()
            .zip(&at_least)
            .map(|(&(v, p), &ge)| Row {
                label: v.to_string(),
                p,
                at_least: ge,
            })
            .collect();
        write_table(&mut out, "total", "p(=)", &table);
    } else {
        write_summary(&mut out, &totals, &at_least, rows);
    }
    let _ = writeln!(out, "min: {}  max: {}", d.min(), d.max());
    let _ = writeln!(out, "mean: {:.4}", d.mean());
    let _ = writeln!(out, "std dev: {:.4}", d.std_dev());
    out
}

/// One printed row: a total or a range of totals, its probability, and p(>= its first total).
struct Row {
    label: String,
    p: f64,
    at_least: f64,
}

/// Writes `rows` under the headings `first` (the totals) and `p` (their probability).
fn write_table(out: &mut String, first: &str, p: &str, rows: &[Row]) {
    const BAR: f64 = 50.0;
    let peak = rows.iter().map(|r| r.p).fold(0.0, f64::max);
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(0).max(8);
    let _ = writeln!(out, "{first:>width$}  {p:>9}  {:>9}", "p(>=)");
    for row in rows {
        let bar = if peak > 0.0 {
            "#".repeat(((row.p / peak) * BAR).round() as usize)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{:>width$}  {:>8.4}%  {:>8.4}%  {bar}",
            row.label,
            row.p * 100.0,
            row.at_least * 100.0
        );
    }
}

/// Too many totals to list: say so, then percentiles and a histogram of at most `rows` ranges
/// over the middle of the distribution, its rare ends folded into one row each.
fn write_summary(out: &mut String, totals: &[(i64, f64)], at_least: &[f64], rows: usize) {
    // The index of the first total at which p(<= total) reaches q.
    let quantile = |q: f64| {
        (0..totals.len())
            .find(|&i| 1.0 - at_least[i + 1] >= q - 1e-12)
            .unwrap_or(totals.len() - 1)
    };
    let (lo, hi) = (quantile(TAIL), quantile(1.0 - TAIL));
    let tails = usize::from(lo > 0) + usize::from(hi + 1 < totals.len());
    let ranges = rows - tails;
    let step = (hi - lo + 1).div_ceil(ranges);
    let _ = writeln!(
        out,
        "{} possible totals, more than --rows {rows}: a summary instead of the full list",
        totals.len()
    );
    let percentiles: Vec<String> = [1, 5, 25, 50, 75, 95, 99]
        .iter()
        .map(|&q| format!("{q}%: {}", totals[quantile(f64::from(q) / 100.0)].0))
        .collect();
    let _ = writeln!(out, "percentiles: {}", percentiles.join("  "));
    let _ = write!(out, "in ranges of {step} totals");
    if tails > 0 {
        let _ = write!(out, "; the rarest {}% at an end in one row", TAIL * 100.0);
    }
    out.push('\n');
    let range = |from: usize, to: usize| Row {
        label: if from == to {
            totals[from].0.to_string()
        } else {
            format!("{}..{}", totals[from].0, totals[to].0)
        },
        p: at_least[from] - at_least[to + 1],
        at_least: at_least[from],
    };
    let mut table = Vec::with_capacity(rows);
    if lo > 0 {
        table.push(range(0, lo - 1));
    }
    for from in (lo..=hi).step_by(step) {
        table.push(range(from, (from + step - 1).min(hi)));
    }
    if hi + 1 < totals.len() {
        table.push(range(hi + 1, totals.len() - 1));
    }
    write_table(out, "totals", "p(in)", &table);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Options, String> {
        parse_args(list.iter().map(|s| s.to_string()))
    }

    fn render(text: &str, rows: usize) -> String {
        let expr = DiceExpr::parse(text).expect("a valid expression");
        let d = expr.distribution().expect("a distribution");
        render_distribution(&expr.to_string(), &d, rows)
    }

    /// The table's rows: the lines between the heading and the `min:` line.
    fn table(out: &str) -> Vec<&str> {
        let lines: Vec<&str> = out.lines().collect();
        let head = lines
            .iter()
            .position(|l| l.contains("p(>=)"))
            .expect("a heading");
        let end = lines
            .iter()
            .position(|l| l.starts_with("min:"))
            .expect("a min line");
        lines[head + 1..end].to_vec()
    }

    /// The probability column of a row, in percent.
    fn percent(row: &str) -> f64 {
        let field = row.split_whitespace().nth(1).expect("a p column");
        field.trim_end_matches('%').parse().expect("a percentage")
    }

    #[test]
    fn rows_default_and_refuse_too_few() {
        assert_eq!(args(&["1d20"]).unwrap().rows, DEFAULT_ROWS);
        assert_eq!(args(&["1d20", "--rows", "12"]).unwrap().rows, 12);
        for bad in ["2", "-1", "many"] {
            let err = args(&["1d20", "--rows", bad]).err().expect(bad);
            assert!(err.contains("at least 3"), "{err}");
        }
    }

    #[test]
    fn few_totals_are_listed_one_a_row() {
        let out = render("4d6kh3", DEFAULT_ROWS);
        let rows = table(&out);
        let totals: Vec<&str> = rows
            .iter()
            .map(|r| r.split_whitespace().next().unwrap())
            .collect();
        let expected: Vec<String> = (3..=18).map(|n| n.to_string()).collect();
        assert_eq!(totals, expected);
        assert!(!out.contains("summary"), "{out}");
        let sum: f64 = rows.iter().map(|r| percent(r)).sum();
        assert!((sum - 100.0).abs() < 0.01, "{sum}");
    }

    #[test]
    fn many_totals_are_summarised_within_the_rows() {
        // 5001 possible totals: once printed one a line, each with a sum over all the others.
        for rows in [3, 10, DEFAULT_ROWS] {
            let out = render("1000d6", rows);
            assert!(
                out.contains("5001 possible totals, more than --rows") && out.contains("summary"),
                "{out}"
            );
            let table = table(&out);
            assert!(
                table.len() <= rows,
                "{} rows over {rows}:\n{out}",
                table.len()
            );
            assert!(
                table.len() >= rows - 2,
                "{} rows for {rows}:\n{out}",
                table.len()
            );
            // The ranges cover every total: the first starts at 1000, the last ends at 6000.
            assert!(table[0].trim_start().starts_with("1000.."), "{out}");
            assert!(table[table.len() - 1].contains("..6000 "), "{out}");
            let sum: f64 = table.iter().map(|r| percent(r)).sum();
            assert!((sum - 100.0).abs() < 0.01, "{sum}:\n{out}");
            assert!(out.contains("50%: 3500 "), "{out}");
            assert!(out.contains("mean: 3500.0000"), "{out}");
        }
    }

    #[test]
    fn a_product_of_big_groups_prints_a_short_summary() {
        // The expression that once printed for minutes: four million possible totals.
        let out = render("(100d20)*(100d20)", DEFAULT_ROWS);
        assert!(out.contains("3990001 possible totals"), "{out}");
        assert!(out.lines().count() <= DEFAULT_ROWS + 10, "{out}");
        assert!(out.contains("mean: 1102500.0000"), "{out}");
    }
}
