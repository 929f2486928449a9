//! What the player types: a `/command`, a number (a suggested action), or words for the game
//! master. [`parse`] sorts a line; [`run`] carries a command out.

use crate::game::Game;
use dnd_table::panel::roll_line;

use crate::panel::print_line;
use crate::screen::Tone;
use crate::views;
use dnd_table::story::list;

/// The commands and what they do, for `/help` and for a mistyped command.
const HELP: &[(&str, &str)] = &[
    ("/sheet", "your character sheet"),
    ("/inventory", "what you carry"),
    ("/map", "the rooms you have seen and their exits"),
    ("/log", "the story so far"),
    ("/rolls", "every roll of this session"),
    ("/cost", "tokens and money spent this session"),
    (
        "/save NAME",
        "save the game under a new name (you play on under it)",
    ),
    (
        "/load NAME",
        "go back to a saved game (/load alone lists them)",
    ),
    ("/new", "start a new game (this one stays saved)"),
    ("/retry", "send the last failed or cancelled turn again"),
    (
        "/fair on",
        "provably fair dice: commit a seed (/fair off, /fair seed S)",
    ),
    ("/reveal", "reveal the fair-dice seed and commit a new one"),
    ("/verify", "check every fair roll against its revealed seed"),
    ("/help", "this list"),
    ("/quit", "leave (every turn is already saved); Ctrl-D too"),
];

/// One line of input, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Nothing: prompt again.
    Empty,
    /// Words for the game master.
    Say(String),
    /// A number: the suggested action with that number.
    Pick(usize),
    /// A command.
    Command(Command),
}

/// A command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `/sheet`.
    Sheet,
    /// `/inventory`.
    Inventory,
    /// `/map`.
    Map,
    /// `/log`.
    Log,
    /// `/rolls`.
    Rolls,
    /// `/cost`.
    Cost,
    /// `/save NAME` (empty: confirm the current save).
    Save(String),
    /// `/load NAME` (empty: list the saves).
    Load(String),
    /// `/new`.
    New,
    /// `/retry`.
    Retry,
    /// `/fair ...` (the words after it).
    Fair(String),
    /// `/reveal`.
    Reveal,
    /// `/verify`.
    Verify,
    /// `/help`.
    Help,
    /// `/quit`.
    Quit,
    /// Anything else that starts with `/`.
    Unknown(String),
}

/// Sorts a line of input.
pub fn parse(line: &str) -> Input {
    let line = line.trim();
    if line.is_empty() {
        return Input::Empty;
    }
    if let Ok(n) = line.parse::<usize>() {
        return Input::Pick(n);
    }
    let Some(command) = line.strip_prefix('/') else {
        return Input::Say(line.to_owned());
    };
    let (word, rest) = command
        .split_once(char::is_whitespace)
        .unwrap_or((command, ""));
    let rest = rest.trim().to_owned();
    Input::Command(match word.to_ascii_lowercase().as_str() {
        "sheet" | "character" => Command::Sheet,
        "inventory" | "inv" | "i" => Command::Inventory,
        "map" => Command::Map,
        "log" | "story" => Command::Log,
        "rolls" => Command::Rolls,
        "cost" => Command::Cost,
        "save" => Command::Save(rest),
        "load" | "saves" => Command::Load(rest),
        "new" => Command::New,
        "retry" => Command::Retry,
        "fair" => Command::Fair(rest),
        "reveal" => Command::Reveal,
        "verify" => Command::Verify,
        "help" | "?" => Command::Help,
        "quit" | "exit" | "q" => Command::Quit,
        _ => Command::Unknown(word.to_owned()),
    })
}

/// What the loop does after a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Prompt again.
    Prompt,
    /// Play a turn with these words.
    Play(String),
    /// Leave.
    Quit,
}

/// Carries out a command. Errors are shown, never fatal.
pub async fn run(game: &mut Game, command: Command) -> Next {
    let screen = game.screen;
    let result = match command {
        Command::Quit => {
            crate::fair::end_session(game).await;
            return Next::Quit;
        }
        Command::Fair(rest) => crate::fair::command(game, &rest).await,
        Command::Reveal => crate::fair::reveal(game).await,
        Command::Verify => crate::fair::verify(game).await,
        Command::Retry => {
            return match game.retry_input() {
                Some(text) => Next::Play(text),
                None => {
                    screen.line("Nothing to retry: the last turn went through.");
                    Next::Prompt
                }
            };
        }
        Command::Help => {
            print_help(game);
            Ok(())
        }
        Command::Unknown(word) => {
            screen.say(Tone::Bad, &format!("There is no command /{word}."));
            print_help(game);
            Ok(())
        }
        Command::Sheet => game.state().await.map(|state| {
            for c in state.characters.iter() {
                views::print_sheet(&screen, &state, c);
            }
        }),
        Command::Inventory => game.state().await.map(|state| {
            for c in state.characters.iter() {
                views::print_inventory(&screen, &state, c);
            }
        }),
        Command::Map => game
            .state()
            .await
            .map(|state| views::print_map(&screen, &state)),
        Command::Log => game.story(usize::MAX).await.map(|lines| {
            if lines.is_empty() {
                screen.line("The story has not started yet: say what you do.");
            } else {
                screen.say(
                    Tone::Bold,
                    &format!("The story of \"{}\" so far", game.name()),
                );
                views::print_story(&screen, &lines);
            }
        }),
        Command::Rolls => game.state().await.map(|state| {
            let rolls = game.session_rolls();
            if rolls.is_empty() {
                screen.line("No rolls yet this session.");
            } else {
                screen.say(Tone::Bold, &format!("{} rolls this session", rolls.len()));
                for roll in rolls {
                    print_line(&screen, &roll_line(roll, &state));
                }
            }
        }),
        Command::Cost => {
            game.print_cost();
            Ok(())
        }
        Command::Save(name) if name.is_empty() => {
            let name = game.name().to_owned();
            game.save_as(&name).await
        }
        Command::Save(name) => game.save_as(&name).await,
        Command::Load(name) if name.is_empty() => game.campaigns().await.map(|campaigns| {
            screen.line(&format!("Saves: {}", list(&campaigns)));
            screen.line("Type /load NAME to go back to one.");
        }),
        Command::Load(name) => game.load(&name).await,
        Command::New => {
            let old = game.name().to_owned();
            let result = game.new_game().await;
            if result.is_ok() {
                screen.say(
                    Tone::Dim,
                    &format!("(The previous game stays saved: /load {old})"),
                );
            }
            result
        }
    };
    if let Err(error) = result {
        screen.say(Tone::Bad, &format!("error: {error}"));
    }
    Next::Prompt
}

fn print_help(game: &Game) {
    let screen = game.screen;
    screen.line("Type what your character does, or a number to take a suggested action.");
    screen.line("Commands:");
    for (command, what) in HELP {
        screen.parts(&[
            (Tone::Plain, "  "),
            (Tone::Accent, &format!("{command:<11}")),
            (Tone::Plain, &format!(" {what}")),
        ]);
    }
    screen.line("Ctrl-C during a turn cancels it (nothing is written); at the prompt, it quits.");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_sorted() {
        assert_eq!(parse("   "), Input::Empty);
        assert_eq!(parse(" 2 "), Input::Pick(2));
        assert_eq!(parse("look around"), Input::Say("look around".into()));
        assert_eq!(
            parse("/save  my run "),
            Input::Command(Command::Save("my run".into()))
        );
        assert_eq!(parse("/LOAD"), Input::Command(Command::Load(String::new())));
        assert_eq!(
            parse("/dance now"),
            Input::Command(Command::Unknown("dance".into()))
        );
        assert_eq!(parse("/"), Input::Command(Command::Unknown(String::new())));
        assert_eq!(
            parse("/fair on my-seed"),
            Input::Command(Command::Fair("on my-seed".into()))
        );
        assert_eq!(parse("/Verify"), Input::Command(Command::Verify));
    }
}
