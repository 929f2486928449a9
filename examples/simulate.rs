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

use dnd_engine::adventure::Adventure;
use dnd_engine::character::load_character_file;
use dnd_engine::simulator::{Combatant, simulate};
use dnd_engine::srd::Srd;

const USAGE: &str = "usage: simulate [--character FILE]... [--runs N] [--seed S] MONSTER [xN] ...";

/// What the command line asked for.
#[derive(Debug, PartialEq)]
struct Options {
    characters: Vec<String>,
    monsters: Vec<(String, usize)>,
    runs: u32,
    seed: u64,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut opts = Options {
        characters: Vec::new(),
        monsters: Vec::new(),
        runs: 1000,
        seed: 1,
    };
    let mut args = args;
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "--character" => opts.characters.push(value("--character")?),
            "--runs" => {
                let v = value("--runs")?;
                opts.runs = v.parse().map_err(|_| format!("--runs {v}: not a number"))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                opts.seed = v.parse().map_err(|_| format!("--seed {v}: not a number"))?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            word => match (
                word.strip_prefix('x').map(str::parse::<usize>),
                opts.monsters.last_mut(),
            ) {
                // "x3" after a monster: three of it.
                (Some(Ok(n)), Some(last)) => last.1 = n,
                _ => opts.monsters.push((word.to_owned(), 1)),
            },
        }
    }
    if opts.monsters.is_empty() {
        return Err("name at least one monster".into());
    }
    Ok(opts)
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
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
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
        assert!(parse("--character").unwrap_err().contains("needs a value"));
        assert!(
            parse("--runs many goblin")
                .unwrap_err()
                .contains("not a number")
        );
        assert!(parse("--character a.json").unwrap_err().contains("monster"));
        assert!(
            parse("--fast goblin")
                .unwrap_err()
                .contains("unknown option")
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
