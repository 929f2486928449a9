//! "Can my party beat this?": plays a fight between heroes and SRD monsters many times through
//! the encounter simulator and prints the odds.
//!
//! ```text
//! cargo run --example simulate -- goblin x4
//! cargo run --example simulate -- --character examples/characters/dwarf_cleric.json \
//!     --character my_rogue.json ogre x2 goblin --runs 2000 --seed 7
//! ```
//!
//! `--character FILE` (repeatable) puts a hero in the party: a hand-written character file
//! (built by the rules, every problem named) or a saved sheet. Without one, the built-in
//! adventure's four pregenerated heroes fight. Each monster is one argument (quote a name of
//! several words: "giant rat"), optionally followed by `xN` for N of them. Bad usage prints the usage and exits 2; a file or monster that is not
//! found prints why and exits 1.

use std::process::ExitCode;

use clap::Parser;
use dnd_engine::adventure::Adventure;
use dnd_engine::character::load_character_file;
use dnd_engine::simulator::{Combatant, simulate};
use dnd_engine::srd::Srd;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "simulate",
    version,
    about = "Can my party beat this? Plays a fight many times and prints the odds",
    args_override_self = true
)]
struct Cli {
    /// A hero of the party, from a character file (repeat for more); default: the built-in
    /// adventure's four heroes.
    #[arg(long = "character", value_name = "FILE")]
    characters: Vec<String>,
    /// How many fights to play.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    runs: u32,
    /// Seeds the dice.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The monsters, each optionally followed by xN for N of them (quote a name of several
    /// words: "giant rat").
    #[arg(required = true, value_name = "MONSTER [xN]")]
    monsters: Vec<String>,
}

/// What the command line asked for.
#[derive(Debug, PartialEq)]
struct Options {
    characters: Vec<String>,
    monsters: Vec<(String, usize)>,
    runs: u32,
    seed: u64,
}

impl From<Cli> for Options {
    fn from(cli: Cli) -> Self {
        let mut monsters: Vec<(String, usize)> = Vec::new();
        for word in cli.monsters {
            match (
                word.strip_prefix('x').map(str::parse::<usize>),
                monsters.last_mut(),
            ) {
                // "x3" after a monster: three of it.
                (Some(Ok(n)), Some(last)) => last.1 = n,
                _ => monsters.push((word, 1)),
            }
        }
        Options {
            characters: cli.characters,
            monsters,
            runs: cli.runs,
            seed: cli.seed,
        }
    }
}

/// Parses the arguments after the program's name.
#[cfg(test)]
fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    Cli::try_parse_from(std::iter::once("simulate".to_owned()).chain(args))
        .map(Options::from)
        .map_err(|e| e.to_string())
}

fn run(opts: &Options) -> Result<(), String> {
    let srd = Srd::bundled();
    let sheets = if opts.characters.is_empty() {
        Adventure::built_in().characters.clone()
    } else {
        opts.characters
            .iter()
            .map(|path| load_character_file(path, srd).map_err(|e| format!("{path}: {e}")))
            .collect::<Result<Vec<_>, _>>()?
    };
    let party = sheets
        .iter()
        .map(|c| Combatant::from_character(c, srd).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut monsters = Vec::new();
    for (name, n) in &opts.monsters {
        let template = srd.monster(name).map_err(|e| e.to_string())?;
        let foe = Combatant::from_monster_in(template, srd).map_err(|e| e.to_string())?;
        monsters.extend(std::iter::repeat_n(foe, *n));
    }
    let report = simulate(&party, &monsters, opts.runs, opts.seed).map_err(|e| e.to_string())?;
    println!(
        "{} runs: the party wins {:.1}% of fights, in {:.1} rounds on average",
        report.runs,
        report.party_win_probability * 100.0,
        report.mean_rounds
    );
    for c in &report.characters {
        println!(
            "  {}: loses {:.1} HP on average, down in {:.1}%, dead in {:.1}%",
            dnd_engine::text::terminal_safe(&c.name),
            c.mean_hp_lost,
            c.downed_probability * 100.0,
            c.death_probability * 100.0
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    // `--help` and `--version` exit 0; bad usage exits 2 with clap's message.
    let opts = Options::from(Cli::parse());
    match run(&opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", dnd_engine::text::terminal_safe(&e));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Options, String> {
        parse_args(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn characters_repeat_and_monsters_take_counts() {
        let mut words: Vec<String> = [
            "--character",
            "a.json",
            "ogre",
            "x2",
            "--character",
            "b.json",
        ]
        .map(str::to_owned)
        .to_vec();
        words.extend(["giant rat".to_owned(), "--runs".to_owned(), "50".to_owned()]);
        let opts = parse_args(words.into_iter()).unwrap();
        assert_eq!(opts.characters, ["a.json", "b.json"]);
        assert_eq!(
            opts.monsters,
            [("ogre".to_owned(), 2), ("giant rat".to_owned(), 1)]
        );
        assert_eq!(opts.runs, 50);
    }

    #[test]
    fn bad_usage_says_what_is_wrong() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
        assert!(
            parse("--character")
                .unwrap_err()
                .contains("a value is required")
        );
        assert!(
            parse("--runs many goblin")
                .unwrap_err()
                .contains("invalid digit")
        );
        assert!(parse("--character a.json").unwrap_err().contains("MONSTER"));
        assert!(
            parse("--fast goblin")
                .unwrap_err()
                .contains("unexpected argument '--fast'")
        );
    }

    #[test]
    fn the_example_cleric_fights_goblins() {
        let opts = parse("--runs 200 goblin x2").unwrap();
        let mut opts = opts;
        opts.characters =
            vec![concat!(env!("CARGO_MANIFEST_DIR"), "/characters/dwarf_cleric.json").into()];
        assert_eq!(run(&opts), Ok(()));
    }
}
