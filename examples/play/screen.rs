//! The screen: colours (or none), word wrapping of streamed text, and a spinner.
//!
//! Colour is used only when stdout is a terminal and `NO_COLOR` is not set
//! (<https://no-color.org>); piped output is plain text, with no escape code at all.
//!
//! Every piece of text printed here goes through [`terminal_safe`] first: narration,
//! suggestions, names, notes and whatever a store or an adventure file holds are untrusted, and
//! an escape sequence in them must not reach the terminal (clear the screen, retitle the window,
//! move the cursor). The only escape codes written are this module's own colours, added after
//! the text was made safe; that is why there is no way to print a string painted elsewhere
//! ([`Screen::parts`] takes the pieces and their tones instead).

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use dnd_engine::text::terminal_safe;

/// The widest the narration is wrapped to, however wide the terminal: long lines are hard to read.
const MAX_WIDTH: usize = 100;
/// The width when stdout is not a terminal (and `COLUMNS` does not say).
const PIPE_WIDTH: usize = 80;

/// How a piece of text is painted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Nothing special.
    Plain,
    /// Less important: dice faces, hints.
    Dim,
    /// Headings, the character's name.
    Bold,
    /// Successes, healing, things gained.
    Good,
    /// Failures, damage, things lost.
    Bad,
    /// Places and discoveries.
    Place,
    /// Items and gold.
    Item,
    /// Numbers of suggested actions, commands.
    Accent,
}

impl Tone {
    fn code(self) -> Option<&'static str> {
        match self {
            Tone::Plain => None,
            Tone::Dim => Some("2"),
            Tone::Bold => Some("1"),
            Tone::Good => Some("32"),
            Tone::Bad => Some("31"),
            Tone::Place => Some("36"),
            Tone::Item => Some("33"),
            Tone::Accent => Some("1;35"),
        }
    }
}

/// Where the game writes: stdout, with or without colour, at a known width.
#[derive(Debug, Clone, Copy)]
pub struct Screen {
    /// Whether stdout is a terminal (spinner, colours).
    pub terminal: bool,
    /// Whether to paint with ANSI colours.
    pub color: bool,
}

impl Screen {
    /// The screen as this process sees it.
    pub fn detect() -> Screen {
        let terminal = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Screen {
            terminal,
            color: terminal && !no_color,
        }
    }

    /// The width to wrap text to: the terminal's (at most [`MAX_WIDTH`]), else `COLUMNS`, else 80.
    pub fn width(&self) -> usize {
        let from_terminal = if self.terminal {
            terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))
        } else {
            None
        };
        let from_env = || {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse().ok())
        };
        let width = from_terminal
            .filter(|w| *w > 0)
            .or_else(from_env)
            .unwrap_or(PIPE_WIDTH);
        width.clamp(20, MAX_WIDTH)
    }

    /// `text`, made safe, in `tone` (no escape code at all without colour). Private: a painted
    /// string holds escape codes, so it is only ever written by this module, never passed back
    /// in as text.
    fn paint(&self, tone: Tone, text: &str) -> String {
        let text = terminal_safe(text);
        match tone.code() {
            Some(code) if self.color && !text.is_empty() => format!("\x1b[{code}m{text}\x1b[0m"),
            _ => text.into_owned(),
        }
    }

    /// Prints a line (made safe).
    pub fn line(&self, text: &str) {
        self.say(Tone::Plain, text);
    }

    /// Prints a line in `tone`.
    pub fn say(&self, tone: Tone, text: &str) {
        let mut line = self.paint(tone, text);
        line.push('\n');
        write_out(&line);
    }

    /// Prints one line made of pieces, each in its own tone.
    pub fn parts(&self, pieces: &[(Tone, &str)]) {
        let mut line: String = pieces
            .iter()
            .map(|(tone, text)| self.paint(*tone, text))
            .collect();
        line.push('\n');
        write_out(&line);
    }

    /// Prints `text` word-wrapped to the screen's width, every line starting with `indent`.
    pub fn wrapped(&self, indent: &str, tone: Tone, text: &str) {
        self.hanging(indent, indent, tone, text);
    }

    /// Prints `text` word-wrapped, the first line starting with `first`, the others with `rest`.
    pub fn hanging(&self, first: &str, rest: &str, tone: Tone, text: &str) {
        let width = self
            .width()
            .saturating_sub(first.chars().count().max(rest.chars().count()))
            .max(10);
        // Made safe before wrapping, so that a control character is not counted as a letter.
        for (i, line) in wrap(&terminal_safe(text), width).iter().enumerate() {
            let indent = if i == 0 { first } else { rest };
            self.parts(&[(Tone::Plain, indent), (tone, line)]);
        }
    }

    /// Prints text (made safe) without a newline, and flushes.
    pub fn print(&self, text: &str) {
        write_out(&terminal_safe(text));
    }

    /// A spinner with `message`, on a terminal only; it stops (and clears its line) when dropped
    /// or stopped.
    pub fn spinner(&self, message: &str) -> Spinner {
        if !self.terminal {
            return Spinner { running: None };
        }
        let stop = Arc::new(AtomicBool::new(false));
        let message = self.paint(Tone::Dim, message);
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
            let mut frame = 0;
            // A short grace period: a turn that answers at once shows no spinner at all.
            std::thread::sleep(Duration::from_millis(150));
            while !flag.load(Ordering::Relaxed) {
                let mut out = std::io::stdout().lock();
                let _ = write!(out, "\r{} {message}", FRAMES[frame % FRAMES.len()]);
                let _ = out.flush();
                drop(out);
                frame += 1;
                std::thread::sleep(Duration::from_millis(80));
            }
            if frame > 0 {
                let mut out = std::io::stdout().lock();
                // Back to the start of the line and clear it.
                let _ = write!(out, "\r\x1b[2K");
                let _ = out.flush();
            }
        });
        Spinner {
            running: Some((stop, handle)),
        }
    }
}

/// Writes to stdout and flushes (in unit tests, to the test's capture when one is on).
fn write_out(text: &str) {
    #[cfg(test)]
    if capture::take_write(text) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// In unit tests: what the screen printed, kept per thread instead of written to stdout.
#[cfg(test)]
pub mod capture {
    use std::cell::RefCell;

    thread_local! {
        static CAPTURED: RefCell<Option<String>> = const { RefCell::new(None) };
    }

    /// Keeps `text` if this thread is capturing; false otherwise.
    pub(super) fn take_write(text: &str) -> bool {
        CAPTURED.with(|c| match c.borrow_mut().as_mut() {
            Some(captured) => {
                captured.push_str(text);
                true
            }
            None => false,
        })
    }

    /// Runs `f` and returns what it printed on this thread, with its result.
    pub fn printed<T>(f: impl FnOnce() -> T) -> (T, String) {
        let outer = CAPTURED.with(|c| c.borrow_mut().replace(String::new()));
        let result = f();
        let printed = CAPTURED.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer));
        (result, printed.unwrap_or_default())
    }
}

/// A spinner drawn by a thread until stopped; see [`Screen::spinner`].
pub struct Spinner {
    running: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

impl Spinner {
    /// Stops the spinner and waits until its line is cleared. Stopping twice does nothing.
    pub fn stop(&mut self) {
        if let Some((stop, handle)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Word-wraps text that arrives in pieces (a word may be split between two pieces): what to
/// print is returned as soon as it is known, and a word is held back until it is complete.
#[derive(Debug)]
pub struct Wrapper {
    width: usize,
    /// Characters on the current output line.
    column: usize,
    /// The word being read.
    word: String,
    /// Whether a space (or more) came before `word`.
    space_before: bool,
    /// Line breaks seen and not yet written (kept so that trailing ones are dropped).
    breaks: usize,
    /// Whether anything has been written (leading whitespace is dropped).
    started: bool,
}

impl Wrapper {
    /// A wrapper for lines of at most `width` characters (a longer word gets a line of its own).
    pub fn new(width: usize) -> Wrapper {
        Wrapper {
            width: width.max(10),
            column: 0,
            word: String::new(),
            space_before: false,
            breaks: 0,
            started: false,
        }
    }

    /// Takes the next piece of text; returns what can be printed now.
    pub fn push(&mut self, text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if c == '\n' {
                self.flush_word(&mut out);
                self.breaks += 1;
                self.space_before = false;
            } else if c.is_whitespace() {
                self.flush_word(&mut out);
                self.space_before = true;
            } else {
                self.word.push(c);
            }
        }
        out
    }

    /// The end of the text: the last word and a final newline (if anything was written).
    pub fn finish(&mut self) -> String {
        let mut out = String::new();
        self.flush_word(&mut out);
        if self.started {
            out.push('\n');
        }
        *self = Wrapper::new(self.width);
        out
    }

    fn flush_word(&mut self, out: &mut String) {
        if self.word.is_empty() {
            return;
        }
        let len = self.word.chars().count();
        if self.started && self.breaks > 0 {
            // Keep paragraph breaks, at most one empty line.
            out.push_str(if self.breaks > 1 { "\n\n" } else { "\n" });
            self.column = 0;
        } else if self.column > 0 && self.column + 1 + len > self.width {
            out.push('\n');
            self.column = 0;
        } else if self.column > 0 && self.space_before {
            out.push(' ');
            self.column += 1;
        }
        out.push_str(&self.word);
        self.column += len;
        self.word.clear();
        self.breaks = 0;
        self.space_before = false;
        self.started = true;
    }
}

/// `text` wrapped to lines of at most `width` characters.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut wrapper = Wrapper::new(width);
    let mut all = wrapper.push(text);
    all.push_str(&wrapper.finish());
    let trimmed = all.strip_suffix('\n').unwrap_or(&all);
    if trimmed.is_empty() {
        return Vec::new();
    }
    trimmed.split('\n').map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_the_width_and_keeps_paragraphs() {
        let text =
            "The wind howls through the chasm.\n\nA harpy screams above you, and ice cracks.";
        let lines = wrap(text, 20);
        assert_eq!(
            lines,
            [
                "The wind howls",
                "through the chasm.",
                "",
                "A harpy screams",
                "above you, and ice",
                "cracks."
            ]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 20));
    }

    #[test]
    fn a_word_split_between_pieces_is_joined() {
        let mut w = Wrapper::new(12);
        let mut out = w.push("  The fro");
        out += &w.push("zen hall ");
        out += &w.push("glitters.\n\n\n");
        out += &w.finish();
        assert_eq!(out, "The frozen\nhall\nglitters.\n");
    }

    #[test]
    fn plain_without_colour() {
        let screen = Screen {
            terminal: false,
            color: false,
        };
        assert_eq!(screen.paint(Tone::Good, "ok"), "ok");
        let screen = Screen {
            terminal: true,
            color: true,
        };
        assert_eq!(screen.paint(Tone::Good, "ok"), "\x1b[32mok\x1b[0m");
    }

    #[test]
    fn empty_text_wraps_to_nothing() {
        assert!(wrap("   \n ", 40).is_empty());
        assert_eq!(
            wrap("averyveryverylongword ok", 10),
            ["averyveryverylongword", "ok"]
        );
    }
}
