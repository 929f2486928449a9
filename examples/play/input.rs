//! Reading the player's lines: a line editor with history on a terminal, plain lines otherwise.
//!
//! Bytes that are not UTF-8 never end the game. From a pipe they become U+FFFD; at a terminal
//! the line editor refuses the whole line (it cannot hold them), so the line is dropped, the
//! player is told, and the prompt comes back. The prompt (it holds the character's name, read
//! from a save) and every line read are made safe for the terminal: no control character in
//! either.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use dnd_engine::text::terminal_safe;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

/// What one read gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line (without its newline).
    Text(String),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// Ctrl-D, or the end of piped input.
    End,
}

/// The source of lines.
pub struct Input {
    /// The line editor, when stdin and stdout are both terminals.
    editor: Option<DefaultEditor>,
    /// Where the editor's history is kept between sessions.
    history: PathBuf,
}

impl Input {
    /// A line editor with the history in `history` when a person is at a terminal; plain
    /// reading of stdin otherwise (a pipe, a file, a test).
    pub fn new(history: PathBuf) -> Input {
        let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        let editor = terminal
            .then(|| {
                let config = rustyline::Config::builder()
                    .max_history_size(1_000)
                    .ok()?
                    .auto_add_history(false)
                    .build();
                DefaultEditor::with_config(config).ok()
            })
            .flatten()
            .map(|mut editor| {
                // No history yet is fine.
                let _ = editor.load_history(&history);
                editor
            });
        Input { editor, history }
    }

    /// Whether a person is typing at a terminal (Ctrl-C then cancels a turn).
    pub fn interactive(&self) -> bool {
        self.editor.is_some()
    }

    /// Reads one line after `prompt`. The line has no control characters (see
    /// [`terminal_safe`]).
    pub fn read(&mut self, prompt: &str) -> Line {
        let prompt = terminal_safe(prompt);
        let Some(editor) = &mut self.editor else {
            let line = read_plain(&mut std::io::stdin().lock());
            if let Line::Text(text) = &line {
                println!("{prompt}{text}");
            }
            return line;
        };
        loop {
            match editor.readline(prompt.as_ref()) {
                Ok(line) => {
                    let line = terminal_safe(&line).into_owned();
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                        let _ = editor.save_history(&self.history);
                    }
                    return Line::Text(line);
                }
                Err(ReadlineError::Interrupted) => return Line::Interrupted,
                Err(ReadlineError::Eof) => return Line::End,
                Err(ReadlineError::Io(error))
                    if error.kind() == std::io::ErrorKind::InvalidData =>
                {
                    // The editor stopped at the first byte that is not UTF-8, and what it had
                    // read of the line (up to 1 KiB) went with it; the rest of a longer line or
                    // a paste is still waiting in the terminal and would arrive as a line of
                    // its own. Drop it too, so that part of a line never runs as a command.
                    discard_typed_ahead();
                    println!(
                        "\nThat line had bytes that are not text (UTF-8, as the terminal should \
                         send); it was dropped. Type it again."
                    );
                }
                Err(error) => {
                    eprintln!("cannot read the terminal: {error}");
                    return Line::End;
                }
            }
        }
    }
}

/// Drops whatever was typed and not read yet at the terminal on stdin.
#[cfg(unix)]
fn discard_typed_ahead() {
    use nix::sys::termios::{FlushArg, tcflush};
    // Best effort: if it fails, the rest of the line arrives as a line of its own.
    let _ = tcflush(std::io::stdin(), FlushArg::TCIFLUSH);
}

/// Drops whatever was typed and not read yet (on Windows the console gives whole lines, and
/// rustyline reads them as UTF-16: nothing to drop).
#[cfg(not(unix))]
fn discard_typed_ahead() {}

/// A line from a pipe or a file. Bytes that are not UTF-8 become U+FFFD rather than ending the
/// game, and control characters are removed.
fn read_plain(input: &mut impl BufRead) -> Line {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => Line::End,
        Ok(_) => {
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches(['\n', '\r']);
            Line::Text(terminal_safe(line).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piped_lines_survive_bytes_that_are_not_text() {
        let mut input: &[u8] = b"look \xff\xfe around\r\n/sheet\n\x1b]0;title\x07shout\nlast";
        assert_eq!(
            read_plain(&mut input),
            Line::Text("look \u{fffd}\u{fffd} around".into())
        );
        assert_eq!(read_plain(&mut input), Line::Text("/sheet".into()));
        assert_eq!(read_plain(&mut input), Line::Text("shout".into()));
        assert_eq!(read_plain(&mut input), Line::Text("last".into()));
        assert_eq!(read_plain(&mut input), Line::End);
    }
}
