//! The command line: `play [--provider ...] [--model ...] ...`, parsed by clap (`--help`,
//! `--version`, `--flag=value` or `--flag value`; a wrong flag exits with status 2).

use std::path::PathBuf;

use clap::Parser;
use dnd_engine::gm::{Protocol, Suggestions};
pub use dnd_table::provider::ProviderChoice;
use dnd_table::provider::ProviderOptions;

/// The flags, parsed.
#[derive(Debug, Clone, PartialEq, Parser)]
// A flag given twice: the last one wins, as before clap.
#[command(
    name = "play",
    version,
    args_override_self = true,
    about = "\"The Wailing Glacier\", \"Wendle Hollow\" or any adventure file, with a game \
             master that never cheats",
    after_help = "In the game, type what your character does, a number to take a suggested \
                  action, or a command (/help lists them). Every turn is saved when it ends."
)]
pub struct Options {
    /// Who plays the game master: offline, openai or openrouter. Default: openai when
    /// OPENAI_API_KEY or OPENAI_BASE_URL is set (OPENAI_BASE_URL: any OpenAI-compatible
    /// server, such as Ollama, llama.cpp or vLLM), openrouter when OPENROUTER_API_KEY is set,
    /// otherwise offline (no model, no network).
    #[arg(long, value_name = "offline|openai|openrouter", value_parser = provider_choice,
          default_value = "auto", hide_default_value = true)]
    pub provider: ProviderChoice,
    /// The model (default: OPENAI_MODEL, or the provider's default).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// How the model is asked: two-phase, tool-loop or strict-json (default: two-phase, or
    /// strict-json for a model that cannot call tools).
    #[arg(long, value_name = "two-phase|tool-loop|strict-json", value_parser = protocol)]
    pub protocol: Option<Protocol>,
    /// Where two-phase suggested actions come from: code reads them off the state (default,
    /// no extra call), model asks the game master in a second call each turn.
    #[arg(long, value_name = "code|model", value_parser = suggestions)]
    pub suggestions: Option<Suggestions>,
    /// A character of the adventure (the glacier's: kraven, the fighter and default, isolde,
    /// hedda, wren; the Hollow's: bram, the fighter and default, nessa, tamsin, lio), or a
    /// character file (a sheet saved by --new-character, or choices written by hand: see
    /// dnd_engine::character::file and examples/characters/).
    #[arg(long, value_name = "NAME|FILE", value_parser = character)]
    pub character: Option<String>,
    /// A built-in adventure: wailing-glacier (the default: a dungeon under a glacier) or
    /// wendle-hollow (a village mystery for four); or an adventure file in the JSON format of
    /// dnd_engine::adventure.
    #[arg(long, value_name = "NAME|FILE")]
    pub adventure: Option<String>,
    /// Seeds the dice: the same seed and inputs replay the same game.
    #[arg(long, value_name = "N", value_parser = whole_number)]
    pub seed: Option<u64>,
    /// The save file (default: play.sqlite3 in the platform's data folder).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Waits MS milliseconds before each answer of the game master (to see the spinner, or to
    /// try Ctrl-C on the offline game master).
    #[arg(long = "delay", value_name = "MS", default_value_t = 0, value_parser = whole_number)]
    pub delay_ms: u64,
    /// Make a new 1st-level character, one question at a time, save it and play it.
    #[arg(long)]
    pub new_character: bool,
    /// Where --new-character saves the sheet (default: characters/ID.json in the save file's
    /// folder).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Writes the traces (each model call: model, tokens, latency, outcome) to FILE, filtered
    /// by RUST_LOG (default: the game's crates at info); never to the screen.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

impl Options {
    /// What `dnd_table::provider::choose` needs of the flags.
    pub fn provider_options(&self) -> ProviderOptions {
        ProviderOptions {
            provider: self.provider,
            model: self.model.clone(),
            delay_ms: self.delay_ms,
        }
    }
}

/// Parses the arguments after the program's name (what `main` does with the real ones
/// through [`Parser::parse`], which prints help or an error and exits).
///
/// # Errors
///
/// Clap's error: an unknown flag, a value that is not accepted (saying which are), or the
/// request for `--help` or `--version`.
#[cfg(test)]
pub fn parse_args<'a>(args: impl IntoIterator<Item = &'a str>) -> Result<Options, clap::Error> {
    Options::try_parse_from(std::iter::once("play").chain(args))
}

/// `--provider`: offline, openai, openrouter (any case); `auto`, the default, decides from the
/// environment.
fn provider_choice(value: &str) -> Result<ProviderChoice, String> {
    match value.to_ascii_lowercase().as_str() {
        "auto" => Ok(ProviderChoice::Auto),
        "offline" => Ok(ProviderChoice::Offline),
        "openai" => Ok(ProviderChoice::OpenAi),
        "openrouter" => Ok(ProviderChoice::OpenRouter),
        other => Err(format!(
            "takes offline, openai or openrouter, not {other:?}"
        )),
    }
}

/// `--protocol`, with `_` for `-` accepted.
fn protocol(value: &str) -> Result<Protocol, String> {
    match value.to_ascii_lowercase().replace('_', "-").as_str() {
        "two-phase" => Ok(Protocol::TwoPhase),
        "tool-loop" => Ok(Protocol::ToolLoop),
        "strict-json" => Ok(Protocol::StrictJson),
        other => Err(format!(
            "takes two-phase, tool-loop or strict-json, not {other:?}"
        )),
    }
}

/// `--suggestions`.
fn suggestions(value: &str) -> Result<Suggestions, String> {
    match value.to_ascii_lowercase().as_str() {
        "code" => Ok(Suggestions::Code),
        "model" => Ok(Suggestions::Model),
        other => Err(format!("takes code or model, not {other:?}")),
    }
}

/// `--character`: a name is matched in lower case; a file's path is kept as typed.
fn character(value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err("needs a name or a file".to_owned());
    }
    Ok(if is_character_file(value) {
        value.to_owned()
    } else {
        value.to_ascii_lowercase()
    })
}

/// `--seed` and `--delay`: a whole number.
fn whole_number(value: &str) -> Result<u64, String> {
    value
        .parse()
        .map_err(|_| format!("takes a whole number, not {value:?}"))
}

/// Whether a `--character` value names a file rather than a pregenerated character.
pub fn is_character_file(value: &str) -> bool {
    value.ends_with(".json") || value.contains('/') || value.contains('\\')
}

/// A protocol's name as the flag spells it.
pub fn protocol_name(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::TwoPhase => "two-phase",
        Protocol::ToolLoop => "tool-loop",
        Protocol::StrictJson => "strict-json",
        // `Protocol` may grow; a protocol this example does not know has no flag name.
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        parse_args(args.iter().copied()).map_err(|e| e.to_string())
    }

    #[test]
    fn flags_with_and_without_equals() {
        let opts = parse(&[
            "--provider=offline",
            "--seed",
            "7",
            "--character",
            "Isolde",
            "--protocol",
            "strict_json",
            "--suggestions=model",
            "--db",
            "/tmp/x.db",
            "--log=play.log",
        ])
        .unwrap();
        assert_eq!(opts.provider, ProviderChoice::Offline);
        assert_eq!(opts.seed, Some(7));
        assert_eq!(opts.character.as_deref(), Some("isolde"));
        assert_eq!(opts.protocol, Some(Protocol::StrictJson));
        assert_eq!(opts.suggestions, Some(Suggestions::Model));
        assert_eq!(opts.log, Some(PathBuf::from("play.log")));
        assert!(
            parse(&["--suggestions", "dice"])
                .unwrap_err()
                .contains("code or model")
        );
        assert_eq!(opts.db, Some(PathBuf::from("/tmp/x.db")));
        let opts = parse(&[
            "--character",
            "Heroes/Tomas.json",
            "--new-character",
            "--save=a.json",
        ])
        .unwrap();
        assert_eq!(
            opts.character.as_deref(),
            Some("Heroes/Tomas.json"),
            "a path keeps its case"
        );
        assert!(opts.new_character);
        assert_eq!(opts.save, Some(PathBuf::from("a.json")));
        assert_eq!(parse(&[]).unwrap().provider, ProviderChoice::Auto);
    }

    #[test]
    fn adventure_takes_a_built_in_name_or_a_file_and_the_help_lists_the_names() {
        let opts = parse(&["--adventure", "wendle-hollow"]).unwrap();
        assert_eq!(opts.adventure.as_deref(), Some("wendle-hollow"));
        let hollow = dnd_engine::adventure::Adventure::named_or_file("wendle-hollow").unwrap();
        assert_eq!(hollow.title, "The Quiet Nights of Wendle Hollow");
        assert_eq!(
            hollow.character_ids().first(),
            Some(&"bram"),
            "the default hero"
        );
        let help = Options::command().render_long_help().to_string();
        for name in dnd_engine::adventure::Adventure::BUILT_IN {
            assert!(help.contains(name), "the help names {name}");
        }
        let opts = parse(&["--adventure=maps/cellar.json"]).unwrap();
        assert_eq!(opts.adventure.as_deref(), Some("maps/cellar.json"));
        let error = dnd_engine::adventure::Adventure::named_or_file("wendle")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("wailing-glacier, wendle-hollow"),
            "a wrong name lists the built-in ones: {error}"
        );
    }

    #[test]
    fn help_version_and_bad_flags_follow_clap() {
        Options::command().debug_assert();
        let kind = |args: &[&str]| parse_args(args.iter().copied()).unwrap_err().kind();
        assert_eq!(kind(&["--help"]), ErrorKind::DisplayHelp);
        assert_eq!(kind(&["--version"]), ErrorKind::DisplayVersion);
        assert_eq!(kind(&["--dance"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["look"]), ErrorKind::UnknownArgument);
        assert!(
            parse(&["--seed", "x"])
                .unwrap_err()
                .contains("whole number")
        );
        assert_eq!(kind(&["--seed"]), ErrorKind::InvalidValue);
        assert!(
            parse(&["--provider", "claude"])
                .unwrap_err()
                .contains("offline")
        );
    }
}
