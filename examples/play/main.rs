//! The terminal game: "The Wailing Glacier" (or any adventure file) with a game master that
//! never cheats.
//!
//! ```text
//! cargo run --release --example play                       # offline: no key, no network
//! OPENAI_API_KEY=... cargo run --release --example play    # OpenAI
//! OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=llama3.2 \
//!     cargo run --release --example play                   # any OpenAI-compatible server
//! cargo run --release --example play -- --help             # every flag
//! ```
//!
//! # How it fits together
//!
//! `main` reads the flags ([`options`]), opens the save file ([`storage`]: a SQLite file in the
//! platform's data folder), picks the game master ([`provider`]: offline unless a key says
//! otherwise) and builds a `GameMaster` over the store. Then it resumes the game played last,
//! or starts one, and loops: read a line ([`input`]: a line editor on a terminal, plain lines
//! from a pipe), and either run a command ([`commands`], which show [`views`] of the state) or
//! play a turn ([`game`]). A turn streams its narration onto the [`screen`], word-wrapped, and
//! ends with the mechanics [`panel`] (every roll and every change, straight from the engine) and
//! the suggested actions, numbered.
//!
//! The engine does all the game: this example only reads what the player types and shows what
//! comes back. Every turn is committed to the store when it ends, and a turn that fails or is
//! cancelled (Ctrl-C) writes nothing, so there is no "save before quitting".

mod commands;
mod creator;
#[cfg(test)]
mod creator_tests;
mod fair;
mod game;
mod input;
mod options;
mod panel;
mod screen;
#[cfg(test)]
mod tests;
mod views;

use std::process::ExitCode;
use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::character::{load_character_file, write_sheet};
use dnd_engine::srd::Srd;
use dnd_engine::store::GameStore;
use dnd_engine::text::terminal_safe;
use dnd_table::provider::{self, GmSettings};
use dnd_table::storage;

use crate::commands::{Input as Typed, Next};
use crate::game::{Game, Setup};
use crate::input::{Input, Line};
use clap::Parser;

use crate::options::{Options, protocol_name};
use crate::screen::{Screen, Tone};

fn main() -> ExitCode {
    // `--help` and `--version` print and exit 0; a wrong flag prints why and exits 2.
    let options = Options::parse();
    if let Some(path) = &options.log {
        // Traces go to the file only: the screen is the game's.
        if let Err(message) = dnd_table::logging::to_file(path) {
            eprintln!("{}", terminal_safe(&message));
            return ExitCode::from(2);
        }
    }
    // One thread is plenty for one player; the store's disk work goes to tokio's blocking pool.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(setup(&options)) {
        Ok((game, input)) => {
            play(&runtime, game, input);
            ExitCode::SUCCESS
        }
        Err(message) => {
            // The message may quote an adventure file or a save: untrusted text.
            eprintln!("error: {}", terminal_safe(&message));
            ExitCode::FAILURE
        }
    }
}

/// Everything before the first prompt: the adventure, the game master, the save file, and the
/// game to resume or start.
async fn setup(options: &Options) -> Result<(Game, Input), String> {
    let screen = Screen::detect();
    let mut adventure = match &options.adventure {
        Some(name_or_path) => Adventure::named_or_file(name_or_path).map_err(|e| e.to_string())?,
        None => Adventure::built_in(),
    };
    let chosen = provider::choose(&options.provider_options())?;

    let db = match &options.db {
        Some(path) => path.clone(),
        None => storage::default_db_path()?,
    };
    let store: Arc<dyn GameStore> = Arc::new(storage::open_store(&db)?);
    let gm = provider::game_master(
        &chosen,
        Arc::clone(&store),
        GmSettings {
            protocol: options.protocol,
            suggestions: options.suggestions,
            seed: options.seed,
        },
    )
    .build();

    screen.say(Tone::Bold, &adventure.title);
    screen.say(
        Tone::Dim,
        &format!(
            "game master: {} · protocol {}",
            chosen.description,
            protocol_name(gm.protocol())
        ),
    );
    screen.say(Tone::Dim, &format!("save file: {}", db.display()));
    screen.line("");

    let mut input = Input::new(storage::beside(&db, "history"));
    let own = if options.new_character {
        Some(new_character(options, &db, screen, &mut input)?)
    } else {
        match options.character.as_deref() {
            Some(path) if options::is_character_file(path) => Some(
                load_character_file(path, Srd::bundled()).map_err(|e| format!("{path}: {e}"))?,
            ),
            _ => None,
        }
    };
    let character = match own {
        // The player's own character joins the adventure's pregenerated ones (replacing one
        // of the same id), so the game starts with it as with them.
        Some(sheet) => {
            let id = sheet.id.clone();
            adventure.characters.retain(|c| c.id != id);
            adventure.characters.push(sheet);
            id
        }
        None => pick_character(&adventure, options.character.as_deref())?,
    };
    let game = Game::start(
        Setup {
            screen,
            store,
            gm,
            db,
            adventure,
            character,
            offline: chosen.offline,
            interactive: input.interactive(),
        },
        options.character.is_some() || options.adventure.is_some() || options.new_character,
    )
    .await?;
    Ok((game, input))
}

/// Runs the character wizard at the terminal and saves the sheet (`--save`, or
/// `characters/ID.json` beside the save file), saying where.
fn new_character(
    options: &Options,
    db: &std::path::Path,
    screen: Screen,
    input: &mut Input,
) -> Result<dnd_engine::state::Character, String> {
    struct Terminal<'a> {
        screen: Screen,
        input: &'a mut Input,
    }
    impl creator::Dialogue for Terminal<'_> {
        fn ask(&mut self, question: &str) -> Option<String> {
            match self.input.read(question) {
                Line::Text(text) => Some(text),
                Line::Interrupted | Line::End => None,
            }
        }
        fn tell(&mut self, text: &str) {
            self.screen.line(text);
        }
    }
    let mut rng = match options.seed {
        Some(seed) => dnd_engine::dice::seeded_rng(seed),
        None => dnd_engine::dice::game_rng(),
    };
    let mut terminal = Terminal { screen, input };
    let sheet = creator::create(&mut terminal, Srd::bundled(), &mut rng)?;
    let path = match &options.save {
        Some(path) => path.clone(),
        None => db
            .with_file_name("characters")
            .join(format!("{}.json", sheet.id)),
    };
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("cannot create the folder {}: {e}", folder.display()))?;
    }
    std::fs::write(&path, write_sheet(&sheet))
        .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
    screen.say(
        Tone::Dim,
        &format!(
            "saved {}; play it again with --character {}",
            path.display(),
            path.display()
        ),
    );
    screen.line("");
    Ok(sheet)
}

/// The character new games use: `--character`, else the adventure's first (its default hero).
fn pick_character(adventure: &Adventure, wanted: Option<&str>) -> Result<String, String> {
    let ids = adventure.character_ids();
    match wanted {
        Some(id) if ids.contains(&id) => Ok(id.to_owned()),
        Some(id) => Err(format!(
            "no character {id:?} in {}; choose one of: {}",
            adventure.title,
            ids.join(", ")
        )),
        // The adventure's first character is its default hero.
        None => ids
            .first()
            .map(|id| (*id).to_owned())
            .ok_or_else(|| format!("{} has no pregenerated characters to play", adventure.title)),
    }
}

/// The game loop: prompt, read, act, until `/quit`, Ctrl-D, or Ctrl-C at the prompt.
fn play(runtime: &tokio::runtime::Runtime, mut game: Game, mut input: Input) {
    loop {
        let screen = game.screen;
        screen.line("");
        let prompt = runtime.block_on(game.prompt());
        let line = match input.read(&prompt) {
            Line::Text(line) => line,
            Line::Interrupted | Line::End => break,
        };
        let words = match commands::parse(&line) {
            Typed::Empty => continue,
            Typed::Say(words) => words,
            Typed::Pick(n) => match game.suggestion(n) {
                Ok(words) => {
                    screen.say(Tone::Dim, &format!("→ {words}"));
                    words
                }
                Err(why) => {
                    screen.line(&why);
                    continue;
                }
            },
            Typed::Command(command) => match runtime.block_on(commands::run(&mut game, command)) {
                Next::Prompt => continue,
                Next::Quit => break,
                Next::Play(words) => words,
            },
        };
        runtime.block_on(game.play(&words));
    }
    game.screen.line("");
    let (tone, farewell) = game.farewell();
    game.screen.wrapped("", tone, &farewell);
}
