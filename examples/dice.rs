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

use clap::Parser;
use dnd_engine::dice::{Advantage, Dialect, DiceExpr, Distribution, game_rng, seeded_rng};

/// The most rows `--dist` prints unless `--rows` says otherwise.
const DEFAULT_ROWS: usize = 40;

/// The fewest rows `--rows` accepts: a low tail, one range and a high tail.
const MIN_ROWS: usize = 3;

/// The probability at each end of a summarised distribution that is folded into one tail row,
/// so that the ranges cover where the totals actually fall.
const TAIL: f64 = 0.0005;

/// The command line.
#[derive(Debug, Parser)]
// A flag given twice: the last one wins, as before clap.
#[command(
    name = "dice",
    version,
    about = "Roll dice, or print their exact distribution",
    args_override_self = true
)]
struct Options {
    /// The dice expression (quote it if it has spaces), e.g. 4d6kh3 or "1d20 + 5".
    #[arg(allow_hyphen_values = true)]
    expression: String,
    /// Roll it this many times.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    times: u32,
    /// Seeds the dice: the same seed rolls the same faces.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The notation: roll20 or avrae.
    #[arg(long, value_name = "roll20|avrae", default_value = "roll20", value_parser = dialect)]
    dialect: Dialect,
    /// Roll the d20s with advantage.
    #[arg(long, visible_alias = "adv", conflicts_with = "disadvantage")]
    advantage: bool,
    /// Roll the d20s with disadvantage.
    #[arg(long, visible_alias = "dis")]
    disadvantage: bool,
    /// Print each roll as JSON.
    #[arg(long)]
    json: bool,
    /// Print the exact distribution of the totals instead of rolling.
    #[arg(long)]
    dist: bool,
    /// The most rows --dist prints (at least 3); past it, a summary.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ROWS, value_parser = rows,
          allow_negative_numbers = true)]
    rows: usize,
}

impl Options {
    /// `--advantage`, `--disadvantage` or neither.
    fn advantage(&self) -> Advantage {
        match (self.advantage, self.disadvantage) {
            (true, _) => Advantage::Advantage,
            (_, true) => Advantage::Disadvantage,
            _ => Advantage::Normal,
        }
    }
}

/// `--dialect`, by the dice module's own names.
fn dialect(value: &str) -> Result<Dialect, String> {
    value.parse()
}

/// `--rows`: a whole number of at least [`MIN_ROWS`].
fn rows(value: &str) -> Result<usize, String> {
    value
        .parse()
        .ok()
        .filter(|n| *n >= MIN_ROWS)
        .ok_or_else(|| format!("takes a whole number of at least {MIN_ROWS}, not {value:?}"))
}

fn main() -> ExitCode {
    // `--help` and `--version` exit 0; bad flags exit 2 with clap's message.
    let opts = Options::parse();
    let expr = match DiceExpr::parse_with(&opts.expression, opts.dialect) {
        Ok(e) => e.with_advantage(opts.advantage()),
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
        Options::try_parse_from(std::iter::once("dice").chain(list.iter().copied()))
            .map_err(|e| e.to_string())
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
    fn flags_follow_clap_and_keep_their_names() {
        use clap::CommandFactory;
        Options::command().debug_assert();
        let opts = args(&[
            "1d20+5",
            "--adv",
            "--times=3",
            "-n",
            "4",
            "--dialect",
            "avrae",
        ])
        .unwrap();
        assert_eq!((opts.times, opts.advantage()), (4, Advantage::Advantage));
        assert_eq!(opts.dialect, Dialect::Avrae);
        assert_eq!(
            args(&["1d20", "--dis"]).unwrap().advantage(),
            Advantage::Disadvantage
        );
        assert!(args(&["1d20", "--adv", "--dis"]).is_err());
        assert!(args(&["1d20", "--dance"]).unwrap_err().contains("--dance"));
        assert!(args(&["1d20", "2d6"]).is_err(), "one expression at a time");
        assert!(args(&[]).is_err(), "an expression is needed");
    }

    #[test]
    fn rows_default_and_refuse_too_few() {
        assert_eq!(args(&["1d20"]).unwrap().rows, DEFAULT_ROWS);
        assert_eq!(args(&["1d20", "--rows", "12"]).unwrap().rows, 12);
        for bad in ["2", "-1", "many"] {
            let err = args(&["1d20", "--rows", bad]).expect_err(bad);
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
