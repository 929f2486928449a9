//! The mechanics panel under the narration, printed: its lines come from
//! `dnd_table::panel` (the same data the server sends as JSON), each painted by its tone with
//! the dice dimmed after it.

use dnd_engine::gm::SuggestedAction;
use dnd_engine::state::{Change, GameState};
use dnd_engine::store::RollRecord;
use dnd_table::panel::{self, PanelLine};

use crate::screen::{Screen, Tone};

/// The terminal's colour for a panel line's tone.
fn tone(tone: panel::Tone) -> Tone {
    match tone {
        panel::Tone::Plain => Tone::Plain,
        panel::Tone::Good => Tone::Good,
        panel::Tone::Bad => Tone::Bad,
        panel::Tone::Place => Tone::Place,
        panel::Tone::Item => Tone::Item,
    }
}

/// Prints a line, indented; the details go on a line of their own when both do not fit.
pub fn print_line(screen: &Screen, line: &PanelLine) {
    let detail = format!("({})", line.detail);
    let length = 2 + line.text.chars().count() + 2 + detail.chars().count();
    if line.detail.is_empty() || length > screen.width() {
        screen.hanging("  ", "    ", tone(line.tone), &line.text);
        if !line.detail.is_empty() {
            screen.hanging("      ", "      ", Tone::Dim, &detail);
        }
    } else {
        screen.parts(&[
            (Tone::Plain, "  "),
            (tone(line.tone), &line.text),
            (Tone::Plain, "  "),
            (Tone::Dim, &detail),
        ]);
    }
}

/// Prints the panel of a turn: its rolls, then its changes. Nothing when the turn had neither.
pub fn print_panel(
    screen: &Screen,
    rolls: &[RollRecord],
    changes: &[Change],
    before: &GameState,
    after: &GameState,
) {
    let lines = panel::panel_lines(rolls, changes, before, after);
    if lines.is_empty() {
        return;
    }
    screen.say(Tone::Dim, "  ── mechanics ──");
    for line in &lines {
        print_line(screen, line);
    }
}

/// Prints the suggested actions, numbered from 1, with their odds.
pub fn print_suggestions(screen: &Screen, suggestions: &[SuggestedAction]) {
    if suggestions.is_empty() {
        return;
    }
    screen.say(Tone::Dim, "  ── what next? (type a number, or anything) ──");
    for (i, action) in suggestions.iter().enumerate() {
        screen.parts(&[
            (Tone::Plain, "  "),
            (Tone::Accent, &format!("{}.", i + 1)),
            (Tone::Plain, " "),
            (Tone::Plain, &action.label()),
        ]);
    }
}
