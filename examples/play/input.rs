//! Reading the player's lines: a line editor with history on a terminal, plain lines otherwise.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

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

    /// Reads one line after `prompt`.
    pub fn read(&mut self, prompt: &str) -> Line {
        let Some(editor) = &mut self.editor else {
            return read_plain(prompt);
        };
        match editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                    let _ = editor.save_history(&self.history);
                }
                Line::Text(line)
            }
            Err(ReadlineError::Interrupted) => Line::Interrupted,
            Err(ReadlineError::Eof) => Line::End,
            Err(error) => {
                eprintln!("cannot read the terminal: {error}");
                Line::End
            }
        }
    }
}

/// A line from a pipe or a file: the prompt and the line are echoed, so the output reads as a
/// transcript.
fn read_plain(prompt: &str) -> Line {
    let mut bytes = Vec::new();
    match std::io::stdin().lock().read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => Line::End,
        Ok(_) => {
            // Bytes that are not UTF-8 become U+FFFD rather than ending the game.
            let line = String::from_utf8_lossy(&bytes)
                .trim_end_matches(['\n', '\r'])
                .to_owned();
            println!("{prompt}{line}");
            Line::Text(line)
        }
    }
}
