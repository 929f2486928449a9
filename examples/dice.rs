//! Roll dice from the command line, or print their exact distribution.
//!
//! ```text
//! cargo run --release --example dice -- "4d6kh3" --times 6 --seed 7
//! cargo run --release --example dice -- "(1d4, 2+2, 3d6kl1)kh1" --dialect avrae
//! cargo run --release --example dice -- "1d20+5" --advantage --json
//! cargo run --release --example dice -- "4d6kh3" --dist
//! ```
//!
//! A bad expression prints the error on stderr and exits with status 1; bad flags exit 2.

use std::process::ExitCode;

use dnd_engine::dice::{Advantage, Dialect, DiceExpr, Distribution, game_rng, seeded_rng};

const USAGE: &str = "usage: dice EXPRESSION [--times N] [--seed N] [--dialect roll20|avrae] \
                     [--advantage | --disadvantage] [--json] [--dist]";

struct Options {
    expression: String,
    times: u32,
    seed: Option<u64>,
    dialect: Dialect,
    advantage: Advantage,
    json: bool,
    dist: bool,
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
                print_distribution(&expr, &d);
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

fn print_distribution(expr: &DiceExpr, d: &Distribution) {
    const BAR: f64 = 50.0;
    let peak = d.iter().map(|(_, p)| p).fold(0.0, f64::max);
    println!("{expr}");
    println!("{:>8}  {:>9}  {:>9}", "total", "p(=)", "p(>=)");
    for (v, p) in d.iter() {
        let bar = "#".repeat(((p / peak) * BAR).round() as usize);
        println!(
            "{v:>8}  {:>8.4}%  {:>8.4}%  {bar}",
            p * 100.0,
            d.probability_at_least(v) * 100.0
        );
    }
    println!("min: {}  max: {}", d.min(), d.max());
    println!("mean: {:.4}", d.mean());
    println!("std dev: {:.4}", d.std_dev());
}
