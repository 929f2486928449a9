//! AI against AI: a player agent plays "The Wailing Glacier" against the game master until the
//! adventure ends (or for `--turns N`), and the run is written as a Markdown transcript with the
//! mechanics of every turn and a final summary.
//!
//! ```sh
//! cargo run --release --example autoplay -- --out autoplay.md
//! cargo run --release --example autoplay -- --character isolde --seed 3 --turns 40
//! ```
//!
//! Offline (the default), the game master is [`OfflineGm`](dnd_engine::offline::OfflineGm) and
//! the player the [`OfflinePlayer`](dnd_engine::offline::OfflinePlayer) policy. With
//! a provider in the environment, picked as `play` picks it (`dnd_table::provider::choose`:
//! `OPENAI_API_KEY`, `OPENAI_BASE_URL` for a local server, or `OPENROUTER_API_KEY`), one model
//! plays both seats:
//! the game master, and an [`AiPlayer`] agent that reads its own view of the [`SharedLog`]
//! both sides share.
//!
//! The transcript holds what the model wrote (narration, suggestions, the AI player's words),
//! so it goes through [`terminal_safe`] before it is printed *or* written to `--out`: a
//! Markdown file is read with `cat` and `less` too, and escape sequences have no place in
//! Markdown. Control characters and escape sequences are removed; lines and tabs stay.
//!
//! With `--out`, the file is written as the game goes: opened (and emptied) before the first
//! turn, each turn appended and flushed as soon as it is played, the summary last. A run that
//! fails, or is stopped with Ctrl-C, or is killed, keeps every turn it played; one that fails
//! ends with a `## Stopped` section saying why, in place of the summary.

use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use dnd_engine::adventure::Adventure;
use dnd_engine::agents::{AiPlayer, LogEntry, SharedLog};
use dnd_engine::gm::GameMaster;
use dnd_engine::gm::TurnOutcome;
use dnd_engine::llm::{LlmProvider, Usage};
use dnd_engine::offline::{OfflineGm, OfflinePlayer, exit_name};
use dnd_engine::state::{Change, GameState, Target};
use dnd_engine::store::{GameStore, MemoryStore};
use dnd_engine::text::terminal_safe;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "autoplay",
    version,
    about = "AI against AI: a player agent plays the adventure with the game master, to a transcript",
    args_override_self = true
)]
struct Cli {
    /// A built-in adventure, wailing-glacier (the default) or wendle-hollow, or an adventure
    /// file.
    #[arg(long, value_name = "NAME|FILE")]
    adventure: Option<String>,
    /// Stop after N turns (the adventure usually ends sooner).
    #[arg(long, value_name = "N", default_value_t = 200)]
    turns: u32,
    /// The dice seed.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// A character of the adventure (default its first: kraven in the glacier, bram in the
    /// Hollow).
    #[arg(long, value_name = "ID")]
    character: Option<String>,
    /// The Markdown transcript (default: printed to stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

pub(crate) struct Options {
    /// `--adventure`: a built-in adventure's name or a file's path; `None` for the glacier.
    adventure: Option<String>,
    turns: u32,
    seed: u64,
    /// `--character`; `None` for the adventure's first.
    character: Option<String>,
    out: Option<String>,
    /// A model for both seats; `None` plays offline.
    pub(crate) model: Option<Arc<dyn LlmProvider>>,
}

impl From<Cli> for Options {
    fn from(cli: Cli) -> Self {
        Options {
            adventure: cli.adventure,
            turns: cli.turns,
            seed: cli.seed,
            character: cli.character,
            out: cli.out,
            model: None,
        }
    }
}

/// Parses the arguments after the program's name (for the tests; `main` lets clap print help
/// and errors and exit). An error is clap's message.
#[allow(dead_code)] // read by the tests (tests/autoplay_transcript.rs)
pub(crate) fn parse_args(args: &[String]) -> Result<Options, String> {
    Cli::try_parse_from(std::iter::once("autoplay").chain(args.iter().map(String::as_str)))
        .map(Options::from)
        .map_err(|e| e.to_string())
}

/// Who plays the hero: the offline policy, or an AI player agent on a model.
enum Seat {
    Offline(OfflinePlayer),
    Ai(Box<AiPlayer>),
}

/// The totals of a run, for the summary.
#[derive(Default)]
pub(crate) struct Totals {
    pub(crate) turns: u32,
    rolls: usize,
    dealt: u32,
    taken: u32,
    /// What the game master's calls used.
    pub(crate) gm_usage: Usage,
    /// What the AI player's own calls used (nothing offline).
    pub(crate) player_usage: Usage,
}

impl Totals {
    /// Both seats together: the cost of the run.
    pub(crate) fn usage(&self) -> Usage {
        self.gm_usage + self.player_usage
    }
}

/// What a run leaves: the transcript, the log both seats shared, and the totals.
#[allow(dead_code)] // `log` and `totals` are read by the tests (tests/autoplay_transcript.rs)
pub(crate) struct Run {
    pub(crate) transcript: String,
    pub(crate) log: SharedLog,
    pub(crate) totals: Totals,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    // `--help` and `--version` exit 0; bad flags exit 2 with clap's message.
    let mut options = Options::from(Cli::parse());
    // With a provider in the environment (as `play` picks it: OPENAI_API_KEY, OPENAI_BASE_URL
    // for a local server, or OPENROUTER_API_KEY), a model plays both seats.
    match dnd_table::provider::choose(&dnd_table::provider::ProviderOptions::default()) {
        Ok(chosen) if !chosen.offline => options.model = Some(chosen.provider),
        Ok(_) => {}
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    match run(&options).await {
        Ok(transcript) => {
            // With `--out` the file was written turn by turn as the game went.
            match &options.out {
                Some(path) => eprintln!("transcript written to {path}"),
                None => print!("{transcript}"),
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            // An error may quote the model or its server.
            eprintln!("error: {}", terminal_safe(&message));
            if let Some(path) = &options.out {
                eprintln!("the turns played so far are in {path}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Plays the adventure and returns the Markdown transcript.
pub(crate) async fn run(options: &Options) -> Result<String, String> {
    play(options).await.map(|r| r.transcript)
}

/// The Markdown transcript as it grows: kept whole for the caller, and, with `--out`, in the
/// file too, each piece written and flushed as it is added.
struct Transcript {
    md: String,
    file: Option<(File, String)>,
}

impl Transcript {
    /// A transcript that writes to `out` (created, or emptied when it exists) as well.
    fn create(out: Option<&str>) -> Result<Transcript, String> {
        let file = match out {
            Some(path) => Some((
                File::create(path).map_err(|e| format!("could not write {path}: {e}"))?,
                path.to_owned(),
            )),
            None => None,
        };
        Ok(Transcript {
            md: String::new(),
            file,
        })
    }

    /// Appends one piece (the heading, a whole turn, the summary), made safe for a terminal
    /// ([`terminal_safe`] is safe piece by piece). Each piece ends in a line written here, and
    /// a string sequence never runs past a line, so the result is the same as cleaning the
    /// whole transcript at the end.
    fn push(&mut self, piece: &str) -> Result<(), String> {
        let safe = terminal_safe(piece);
        self.md.push_str(&safe);
        if let Some((file, path)) = &mut self.file {
            file.write_all(safe.as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| format!("could not write {path}: {e}"))?;
        }
        Ok(())
    }
}

/// Plays the adventure: the transcript (safe for a terminal), the shared log (as said) and the
/// totals. With `--out`, the transcript goes to the file turn by turn; when a turn fails, the
/// file keeps the turns before it and ends with a `## Stopped` section giving the error.
pub(crate) async fn play(options: &Options) -> Result<Run, String> {
    let mut transcript = Transcript::create(options.out.as_deref())?;
    match play_into(options, &mut transcript).await {
        Ok((log, totals)) => Ok(Run {
            transcript: transcript.md,
            log,
            totals,
        }),
        Err(message) => {
            // Best effort: the error is what the caller must hear, even if this write fails.
            let _ = transcript.push(&format!("## Stopped\n\n{message}\n"));
            Err(message)
        }
    }
}

/// Plays the adventure into `transcript`, turn by turn: the shared log and the totals.
async fn play_into(
    options: &Options,
    transcript: &mut Transcript,
) -> Result<(SharedLog, Totals), String> {
    let adventure = match &options.adventure {
        Some(name_or_path) => Adventure::named_or_file(name_or_path).map_err(|e| e.to_string())?,
        None => Adventure::built_in(),
    };
    let character = match &options.character {
        Some(id) => id.clone(),
        None => adventure
            .character_ids()
            .first()
            .map(|id| (*id).to_owned())
            .ok_or_else(|| format!("{} has no pregenerated characters", adventure.title))?,
    };
    let initial = adventure
        .new_game(&[character.as_str()])
        .map_err(|e| e.to_string())?;
    let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
    let campaign = store
        .create_campaign(&adventure.title, &initial)
        .await
        .map_err(|e| e.to_string())?;
    let (gm, mut seat) = match &options.model {
        Some(model) => {
            let name = initial
                .characters
                .first()
                .map(|c| c.name.clone())
                .unwrap_or_default();
            let gm = GameMaster::builder(model.clone(), store.clone())
                .seed(options.seed)
                .build();
            (gm, Seat::Ai(Box::new(AiPlayer::new(name, model.clone()))))
        }
        None => {
            let gm = OfflineGm::game_master(store.clone())
                .seed(options.seed)
                .build();
            // It plays to an ending, wherever it is: no room of any adventure by name.
            let player = OfflinePlayer::new(character.clone());
            (gm, Seat::Offline(player))
        }
    };
    let mut log = SharedLog::default();
    let mut md = String::new();
    let mut totals = Totals::default();
    let _ = writeln!(
        md,
        "# {} — autoplay\n\nHero: {} · seed {} · {}\n",
        adventure.title,
        character,
        options.seed,
        match &options.model {
            Some(m) => format!("game master and player on {}", m.name()),
            None => "offline game master and player".to_owned(),
        }
    );
    transcript.push(&std::mem::take(&mut md))?;
    let mut last: Option<TurnOutcome> = None;
    let mut state: GameState = initial;
    while totals.turns < options.turns {
        let (input, outcome) = match &mut seat {
            Seat::Offline(player) => {
                let Some(input) = player.next_input(last.as_ref(), &state) else {
                    break;
                };
                log.push(LogEntry::Said {
                    from: input.speaker.clone(),
                    text: input.text.clone(),
                });
                let outcome = gm
                    .turn(&campaign, input.clone())
                    .await
                    .map_err(|e| e.to_string())?;
                (input, outcome)
            }
            // The AI player reads its view of the shared log, answers, and retries refusals.
            Seat::Ai(player) => {
                let outcome = player
                    .play_turn(&mut log, &gm, &campaign, last.as_ref())
                    .await
                    .map_err(|e| e.to_string())?;
                let said = log.entries.iter().rev().find_map(|e| match e {
                    LogEntry::Said { from, text } if *from == player.character => {
                        Some(text.clone())
                    }
                    _ => None,
                });
                let input = dnd_engine::gm::PlayerInput::new(
                    player.character.clone(),
                    said.unwrap_or_default(),
                );
                if state.characters.iter().all(|c| c.dead) {
                    break;
                }
                (input, outcome)
            }
        };
        // The AI player writes the narration into the log itself when it reads it, at the
        // start of its next turn (and the last one after the loop): written here too, it
        // would be there twice.
        if let Seat::Offline(_) = seat {
            log.push(LogEntry::Said {
                from: "gm".into(),
                text: outcome.narration.clone(),
            });
        }
        totals.turns += 1;
        totals.rolls += outcome.rolls.len();
        totals.gm_usage += outcome.usage;
        for change in &outcome.changes {
            if let Change::Damage { target, amount, .. } = change {
                match target {
                    Target::Monster(_) => totals.dealt += amount,
                    Target::Character(_) => totals.taken += amount,
                }
            }
        }
        state = store.load(&campaign).await.map_err(|e| e.to_string())?;
        write_turn(
            &mut md,
            totals.turns,
            (&input.speaker, &input.text),
            &outcome,
            &state,
        );
        // On disk before the next turn starts: a run stopped there keeps this one.
        transcript.push(&std::mem::take(&mut md))?;
        last = Some(outcome);
    }
    if let Seat::Ai(player) = &seat {
        if let Some(outcome) = &last {
            // The last narration, which no next turn of the player's will read into the log.
            log.push(LogEntry::Said {
                from: "gm".into(),
                text: outcome.narration.clone(),
            });
        }
        totals.player_usage = player.agent.usage();
    }
    write_summary(&mut md, &state, &totals, &log);
    transcript.push(&md)?;
    Ok((log, totals))
}

/// One turn of the transcript: what was said, the narration, the mechanics (named from `after`,
/// the state the turn left), the suggestions.
fn write_turn(
    md: &mut String,
    n: u32,
    (speaker, input): (&str, &str),
    outcome: &TurnOutcome,
    after: &GameState,
) {
    let _ = writeln!(
        md,
        "## Turn {n}\n\n**{speaker}:** {input}\n\n{}\n",
        outcome.narration
    );
    if !outcome.rolls.is_empty() || !outcome.changes.is_empty() {
        let _ = writeln!(md, "<details><summary>Mechanics</summary>\n");
        for roll in &outcome.rolls {
            let _ = writeln!(md, "- 🎲 {}: **{}**", roll.label, roll.total);
        }
        for change in &outcome.changes {
            if let Some(line) = describe(change, after) {
                let _ = writeln!(md, "- {line}");
            }
        }
        let _ = writeln!(md, "\n</details>\n");
    }
    if !outcome.suggested_actions.is_empty() {
        let labels: Vec<String> = outcome
            .suggested_actions
            .iter()
            .map(|a| a.label())
            .collect();
        let _ = writeln!(md, "*Next:* {}\n", labels.join(" · "));
    }
}

/// One line for the changes a reader cares about; bookkeeping (turn order, flags) is left out.
pub(crate) fn describe(change: &Change, after: &GameState) -> Option<String> {
    Some(match change {
        Change::Damage {
            target,
            amount,
            critical,
        } => format!(
            "💥 {} takes {amount}{}",
            who(target, after),
            if *critical { " (critical)" } else { "" }
        ),
        Change::Heal { target, amount } => format!("💚 {} heals {amount}", who(target, after)),
        Change::SlotSpent { character, level } => {
            format!("✨ {character} spends a level-{level} slot")
        }
        Change::ItemAdded { character, item } => {
            format!("🎒 {character} gains {} ×{}", item.name, item.quantity)
        }
        Change::LootTaken {
            character,
            item,
            quantity,
            ..
        } => format!("🎒 {character} takes {item} ×{quantity}"),
        Change::ItemRemoved {
            character,
            item,
            quantity,
        } => format!("🎒 {character} uses up {item} ×{quantity}"),
        Change::Gold { character, delta } => format!("💰 {character} {delta:+} gp"),
        Change::PartyMoved { exit } => format!("🚶 the party goes {exit}"),
        Change::FeatureFound { feature, .. } => format!("🔎 found {feature}"),
        Change::ExitFound { direction, .. } => format!("🔎 found a way {direction}"),
        Change::ExitUnlocked { direction, .. } => format!("🔓 unlocked {}", exit_name(direction)),
        Change::ConditionAdded { target, condition } => format!(
            "⚠ {}",
            condition.gained(&who(target, after), exhaustion(target, after))
        ),
        Change::ConditionRemoved { target, condition } => format!(
            "✔ {}",
            condition.lost(&who(target, after), exhaustion(target, after))
        ),
        _ => return None,
    })
}

/// The exhaustion level of a character or monster after the turn (0 when it is not found).
fn exhaustion(target: &Target, after: &GameState) -> u8 {
    match target {
        Target::Character(id) => after.character(id).map_or(0, |c| c.conditions.exhaustion),
        Target::Monster(id) => after.monster(id).map_or(0, |m| m.conditions.exhaustion),
    }
}

/// A character's or monster's name (its id when it is not found).
fn who(target: &Target, after: &GameState) -> String {
    match target {
        Target::Character(id) => after.character(id).map(|c| c.name.clone()),
        Target::Monster(id) => after.monster(id).map(|m| m.name.clone()),
    }
    .unwrap_or_else(|| match target {
        Target::Character(id) | Target::Monster(id) => id.clone(),
    })
}

fn write_summary(md: &mut String, state: &GameState, totals: &Totals, log: &SharedLog) {
    let hero = state.characters.first();
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(md, "- Turns: {}", totals.turns);
    let _ = writeln!(md, "- Rolls: {}", totals.rolls);
    let _ = writeln!(
        md,
        "- Damage dealt: {} · taken: {}",
        totals.dealt, totals.taken
    );
    if let Some(h) = hero {
        let status = if h.dead {
            "dead".to_owned()
        } else {
            format!("{}/{} HP", h.hp.current, h.hp.max)
        };
        let _ = writeln!(
            md,
            "- {}: {status}, {} gp, ended in {}",
            h.name,
            h.gold,
            state
                .party_location()
                .map_or("nowhere", |l| l.title.as_str())
        );
    }
    let defeated: Vec<&str> = state
        .monsters
        .iter()
        .filter(|m| !m.is_fighting()) // slain, fled or surrendered
        .map(|m| m.name.as_str())
        .collect();
    let _ = writeln!(
        md,
        "- Defeated: {}",
        if defeated.is_empty() {
            "none".to_owned()
        } else {
            defeated.join(", ")
        }
    );
    let usage = totals.usage();
    let _ = writeln!(
        md,
        "- Tokens: {} prompt, {} completion · cost: ${:.4} (game master ${:.4}, player ${:.4})",
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.cost.unwrap_or(0.0),
        totals.gm_usage.cost.unwrap_or(0.0),
        totals.player_usage.cost.unwrap_or(0.0)
    );
    let _ = writeln!(
        md,
        "- Shared log: {} entries; the player's view holds {} messages, the GM's {}",
        log.entries.len(),
        log.view_for(hero.map_or("", |h| h.name.as_str())).len(),
        log.view_for("gm").len()
    );
}
