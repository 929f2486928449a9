//! The command line: `play [--provider ...] [--model ...] ...`.

use std::path::PathBuf;

use dnd_engine::gm::{Protocol, Suggestions};
pub use dnd_table::provider::ProviderChoice;
use dnd_table::provider::ProviderOptions;

/// What `--help` prints.
pub const USAGE: &str = "\
play: \"The Wailing Glacier\", \"Wendle Hollow\" or any adventure file, with a game master that never cheats

usage: play [OPTIONS]

  --provider offline|openai|openrouter
                      who plays the game master. Default: openai when OPENAI_API_KEY or
                      OPENAI_BASE_URL is set (OPENAI_BASE_URL: any OpenAI-compatible
                      server, such as Ollama, llama.cpp or vLLM), openrouter when
                      OPENROUTER_API_KEY is set, otherwise offline (no model, no network)
  --model NAME        the model (default: OPENAI_MODEL, or the provider's default)
  --protocol two-phase|tool-loop|strict-json
                      how the model is asked (default: two-phase, or strict-json for a
                      model that cannot call tools)
  --suggestions code|model
                      where two-phase suggested actions come from: code reads them off
                      the state (default, no extra call), model asks the game master in a
                      second call each turn
  --character NAME|FILE
                      a character of the adventure (the glacier's: kraven, the fighter and
                      default, isolde, hedda, wren; the Hollow's: bram, the fighter and
                      default, nessa, tamsin, lio), or a character file (a
                      sheet saved by --new-character, or choices written by hand: see
                      dnd_engine::character::file and examples/characters/)
  --new-character     make a new 1st-level character, one question at a time, save it
                      and play it
  --save FILE         where --new-character saves the sheet (default: characters/ID.json
                      in the save file's folder)
  --adventure NAME|FILE
                      a built-in adventure: wailing-glacier (the default: a dungeon under a
                      glacier) or wendle-hollow (a village mystery for four); or an
                      adventure file in the JSON format of dnd_engine::adventure
  --seed N            seeds the dice: the same seed and inputs replay the same game
  --db PATH           the save file (default: play.sqlite3 in the platform's data folder)
  --delay MS          waits MS milliseconds before each answer of the game master (to see
                      the spinner, or to try Ctrl-C on the offline game master)
  --help              this text

In the game, type what your character does, a number to take a suggested action, or a
command (/help lists them). Every turn is saved when it ends.";

/// The flags, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `--provider`.
    pub provider: ProviderChoice,
    /// `--model`.
    pub model: Option<String>,
    /// `--protocol`.
    pub protocol: Option<Protocol>,
    /// `--suggestions`.
    pub suggestions: Option<Suggestions>,
    /// `--character`, when given.
    pub character: Option<String>,
    /// `--adventure`: a built-in adventure's name or a file's path.
    pub adventure: Option<String>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--db`.
    pub db: Option<PathBuf>,
    /// `--delay`, in milliseconds.
    pub delay_ms: u64,
    /// `--new-character`.
    pub new_character: bool,
    /// `--save`.
    pub save: Option<PathBuf>,
}

/// What the command line asks for: to play, or to see the help.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Play with these options.
    Play(Box<Options>),
    /// Print [`USAGE`].
    Help,
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

/// Parses the arguments after the program's name. An error says what was wrong.
pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Command, String> {
    let mut opts = Options {
        provider: ProviderChoice::Auto,
        model: None,
        protocol: None,
        suggestions: None,
        character: None,
        adventure: None,
        seed: None,
        db: None,
        delay_ms: 0,
        new_character: false,
        save: None,
    };
    while let Some(arg) = args.next() {
        // `--flag=value` and `--flag value` both work.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--provider" => {
                opts.provider = match value("--provider")?.to_ascii_lowercase().as_str() {
                    "offline" => ProviderChoice::Offline,
                    "openai" => ProviderChoice::OpenAi,
                    "openrouter" => ProviderChoice::OpenRouter,
                    other => {
                        return Err(format!(
                            "--provider takes offline, openai or openrouter, not {other:?}"
                        ));
                    }
                }
            }
            "--model" => opts.model = Some(value("--model")?),
            "--protocol" => {
                opts.protocol = Some(match value("--protocol")?.to_ascii_lowercase().as_str() {
                    "two-phase" | "two_phase" => Protocol::TwoPhase,
                    "tool-loop" | "tool_loop" => Protocol::ToolLoop,
                    "strict-json" | "strict_json" => Protocol::StrictJson,
                    other => {
                        return Err(format!(
                            "--protocol takes two-phase, tool-loop or strict-json, not {other:?}"
                        ));
                    }
                })
            }
            "--suggestions" => {
                opts.suggestions = Some(
                    match value("--suggestions")?.to_ascii_lowercase().as_str() {
                        "code" => Suggestions::Code,
                        "model" => Suggestions::Model,
                        other => {
                            return Err(format!(
                                "--suggestions takes code or model, not {other:?}"
                            ));
                        }
                    },
                )
            }
            "--character" => {
                // A name is matched in lower case; a file's path is kept as typed.
                let v = value("--character")?;
                opts.character = Some(if is_character_file(&v) {
                    v
                } else {
                    v.to_ascii_lowercase()
                });
            }
            "--new-character" => opts.new_character = true,
            "--save" => opts.save = Some(PathBuf::from(value("--save")?)),
            "--adventure" => opts.adventure = Some(value("--adventure")?),
            "--seed" => {
                let v = value("--seed")?;
                opts.seed = Some(
                    v.parse()
                        .map_err(|_| format!("--seed takes a whole number, not {v:?}"))?,
                );
            }
            "--db" => opts.db = Some(PathBuf::from(value("--db")?)),
            "--delay" => {
                let v = value("--delay")?;
                opts.delay_ms = v
                    .parse()
                    .map_err(|_| format!("--delay takes milliseconds, not {v:?}"))?;
            }
            "--help" | "-h" => return Ok(Command::Help),
            other => return Err(format!("unknown argument {other}; try --help")),
        }
    }
    Ok(Command::Play(Box::new(opts)))
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
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        parse_args(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn flags_with_and_without_equals() {
        let Command::Play(opts) = parse(&[
            "--provider=offline",
            "--seed",
            "7",
            "--character",
            "Isolde",
            "--protocol",
            "strict-json",
            "--suggestions=model",
            "--db",
            "/tmp/x.db",
        ])
        .unwrap() else {
            panic!("expected options")
        };
        assert_eq!(opts.provider, ProviderChoice::Offline);
        assert_eq!(opts.seed, Some(7));
        assert_eq!(opts.character.as_deref(), Some("isolde"));
        assert_eq!(opts.protocol, Some(Protocol::StrictJson));
        assert_eq!(opts.suggestions, Some(Suggestions::Model));
        assert!(
            parse(&["--suggestions", "dice"])
                .unwrap_err()
                .contains("code or model")
        );
        assert_eq!(opts.db, Some(PathBuf::from("/tmp/x.db")));
        let Command::Play(opts) = parse(&[
            "--character",
            "Heroes/Tomas.json",
            "--new-character",
            "--save=a.json",
        ])
        .unwrap() else {
            panic!("expected options")
        };
        assert_eq!(
            opts.character.as_deref(),
            Some("Heroes/Tomas.json"),
            "a path keeps its case"
        );
        assert!(opts.new_character);
        assert_eq!(opts.save, Some(PathBuf::from("a.json")));
    }

    #[test]
    fn adventure_takes_a_built_in_name_or_a_file_and_the_help_lists_the_names() {
        let Command::Play(opts) = parse(&["--adventure", "wendle-hollow"]).unwrap() else {
            panic!("expected options")
        };
        assert_eq!(opts.adventure.as_deref(), Some("wendle-hollow"));
        let hollow = dnd_engine::adventure::Adventure::named_or_file("wendle-hollow").unwrap();
        assert_eq!(hollow.title, "The Quiet Nights of Wendle Hollow");
        assert_eq!(
            hollow.character_ids().first(),
            Some(&"bram"),
            "the default hero"
        );
        for name in dnd_engine::adventure::Adventure::BUILT_IN {
            assert!(USAGE.contains(name), "the help names {name}");
        }
        let Command::Play(opts) = parse(&["--adventure=maps/cellar.json"]).unwrap() else {
            panic!("expected options")
        };
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
    fn bad_flags_say_what_is_wrong() {
        assert_eq!(parse(&["--help"]).unwrap(), Command::Help);
        assert!(
            parse(&["--seed", "x"])
                .unwrap_err()
                .contains("whole number")
        );
        assert!(parse(&["--seed"]).unwrap_err().contains("needs a value"));
        assert!(
            parse(&["--provider", "claude"])
                .unwrap_err()
                .contains("offline")
        );
        assert!(parse(&["look"]).unwrap_err().contains("--help"));
    }
}
