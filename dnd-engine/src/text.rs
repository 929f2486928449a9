//! Untrusted text made safe for a terminal, and cut to a bound.
//!
//! Everything a model says, and every name read from an adventure file or a store, is untrusted:
//! a terminal obeys the control characters in it. An escape sequence in a narration can clear
//! the screen (`ESC [ 2 J`), retitle the window (`ESC ] 0 ; title BEL`), move the cursor over
//! what was printed, or on some terminals answer back into the input. [`terminal_safe`] removes
//! all of it before the text is printed; the words stay.
//!
//! ```
//! use dnd_engine::text::terminal_safe;
//!
//! assert_eq!(terminal_safe("The harpy\x1b[2J screams.\x07"), "The harpy screams.");
//! assert_eq!(terminal_safe("\x1b]0;pwned\x07You wake."), "You wake.");
//! // Ordinary text is borrowed, not copied.
//! assert!(matches!(terminal_safe("Ice, cold.\n\tDeep."), std::borrow::Cow::Borrowed(_)));
//! ```

use std::borrow::Cow;

/// ESC, which starts every 7-bit escape sequence.
const ESC: char = '\u{1b}';
/// BEL, which also ends an operating-system command (a window title).
const BEL: char = '\u{07}';
/// The 8-bit Control Sequence Introducer: what `ESC [` is in one character.
const CSI: char = '\u{9b}';
/// The 8-bit String Terminator: what `ESC \` is in one character.
const ST: char = '\u{9c}';

/// `text` with every terminal control removed: what is left prints as plain characters.
///
/// - Kept: newline (`\n`), tab (`\t`) and every printable character.
/// - A whole escape sequence goes, not only its `ESC`: a control sequence (`ESC [` or the 8-bit
///   CSI `U+009B`, its parameters and its final letter, as in `ESC [ 2 J`), a string sequence
///   (`ESC ]` operating-system command, `ESC P` device control, `ESC X`, `ESC ^`, `ESC _`, and
///   their 8-bit forms) up to its terminator (`BEL`, `ESC \` or `U+009C`), and any other
///   two-character escape (`ESC c` resets the terminal). A string sequence that has no
///   terminator before the next line or the end of the text loses only its introducer, so a
///   stray `ESC ]` cannot swallow the narration after it.
/// - Every other C0 control (BEL, backspace, carriage return, form feed, ...), DEL and every C1
///   control (`U+0080`–`U+009F`) is removed. A carriage return goes too: it would let the text
///   overwrite its own line.
///
/// Without its `ESC`, what is left of a sequence is inert text. So text that arrives in pieces
/// (a streamed narration) is safe when each piece is passed through this function, even when a
/// sequence is split between two pieces: the second piece may then show the sequence's tail
/// (`[2J`) as characters, never act on it.
///
/// Returns the text itself (borrowed, no copy) when it has nothing to remove, which is the
/// common case.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    let Some(first) = text.char_indices().find(|(_, c)| is_control(*c)) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first.0]);
    let mut rest = &text[first.0..];
    while let Some(c) = rest.chars().next() {
        if !is_control(c) {
            let end = rest.find(is_control).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        rest = &rest[c.len_utf8()..];
        rest = match c {
            ESC => after_escape(rest),
            CSI => after_control_sequence(rest),
            // DCS, SOS, OSC, PM, APC in their 8-bit forms.
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => after_string(rest),
            _ => rest,
        };
    }
    Cow::Owned(out)
}

/// Whether `c` is a control character that must not reach a terminal.
fn is_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// The text after an escape sequence whose `ESC` was just read.
fn after_escape(rest: &str) -> &str {
    let mut chars = rest.chars();
    match chars.next() {
        Some('[') => after_control_sequence(chars.as_str()),
        Some(']' | 'P' | 'X' | '^' | '_') => after_string(chars.as_str()),
        // Intermediate bytes, then a final byte: `ESC ( B`, `ESC # 8`. Not a space: `ESC SP F`
        // is rare, and a lone ESC before a space is not, so the words after it are kept.
        Some('!'..='/') => {
            let tail = chars.as_str();
            let end = tail
                .find(|c| !(' '..='/').contains(&c))
                .unwrap_or(tail.len());
            let tail = &tail[end..];
            match tail.chars().next() {
                Some(c @ '0'..='~') => &tail[c.len_utf8()..],
                _ => tail,
            }
        }
        // A two-character escape: `ESC c`, `ESC 7`, `ESC =`.
        Some('0'..='~') => chars.as_str(),
        // A lone ESC (at the end, or before something that cannot follow it): only it goes.
        _ => rest,
    }
}

/// The text after a control sequence whose introducer (`ESC [` or CSI) was just read:
/// parameter bytes (`0`–`?`), intermediate bytes (space–`/`), then one final byte (`@`–`~`).
/// A sequence broken off by anything else loses what was read of it.
fn after_control_sequence(rest: &str) -> &str {
    let end = rest
        .find(|c| !('0'..='?').contains(&c) && !(' '..='/').contains(&c))
        .unwrap_or(rest.len());
    let tail = &rest[end..];
    match tail.chars().next() {
        Some(c @ '@'..='~') => &tail[c.len_utf8()..],
        _ => tail,
    }
}

/// The text after a string sequence whose introducer was just read: everything up to and
/// including its terminator (BEL, `ESC \` or ST). Without a terminator before a newline or the
/// end, the string is kept (its introducer is already gone, so it is inert text).
fn after_string(rest: &str) -> &str {
    for (i, c) in rest.char_indices() {
        match c {
            BEL | ST => return &rest[i + c.len_utf8()..],
            ESC if rest[i + 1..].starts_with('\\') => return &rest[i + 2..],
            '\n' => return rest,
            _ => {}
        }
    }
    rest
}

/// `text` cut to at most `max` bytes, on a character boundary, with a note saying how much
/// was cut; borrowed unchanged when it fits. For what a model sends that is kept or echoed (a
/// runaway narration, an error quoting a huge argument): the reader sees that it was cut.
///
/// ```
/// use dnd_engine::text::truncate_with_note;
///
/// assert_eq!(truncate_with_note("The ice holds.", 100), "The ice holds.");
/// assert_eq!(truncate_with_note("The ice cracks.", 7), "The ice… (8 more bytes cut)");
/// // Never inside a character: "é" is two bytes.
/// assert_eq!(truncate_with_note("café", 4), "caf… (2 more bytes cut)");
/// ```
pub fn truncate_with_note(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let end = floor_char_boundary(text, max);
    Cow::Owned(format!(
        "{}… ({} more bytes cut)",
        &text[..end],
        text.len() - end
    ))
}

/// The largest character boundary of `text` at or below `index` (`str::floor_char_boundary`,
/// which is newer than the workspace's Rust).
pub fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    fn safe(text: &str) -> String {
        terminal_safe(text).into_owned()
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for text in [
            "",
            "The wind howls.",
            "Line one\n\tline two",
            "ünïcode 🐉 — ×",
        ] {
            assert!(matches!(terminal_safe(text), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn control_sequences_go_whole() {
        assert_eq!(safe("a\x1b[2Jb"), "ab", "clear screen");
        assert_eq!(safe("a\x1b[1;31mred\x1b[0m"), "ared", "colours");
        assert_eq!(safe("\x1b[?1049hx"), "x", "alternate screen");
        assert_eq!(
            safe("x\x1b[6n"),
            "x",
            "a cursor report that would answer into the input"
        );
        assert_eq!(safe("a\u{9b}2Jb"), "ab", "the 8-bit CSI");
        assert_eq!(safe("a\u{9b}31mb"), "ab");
    }

    #[test]
    fn operating_system_commands_go_whole() {
        assert_eq!(
            safe("\x1b]0;pwned\x07Hello"),
            "Hello",
            "title, ended by BEL"
        );
        assert_eq!(
            safe("\x1b]2;pwned\x1b\\Hello"),
            "Hello",
            "title, ended by ESC \\"
        );
        assert_eq!(
            safe("\u{9d}0;pwned\u{9c}Hello"),
            "Hello",
            "8-bit OSC and ST"
        );
        assert_eq!(
            safe("\x1b]8;;http://127.0.0.1/\x1b\\link\x1b]8;;\x1b\\"),
            "link",
            "a hyperlink keeps its text"
        );
        assert_eq!(safe("\x1bPq#0;2;0;0;0\x1b\\ok"), "ok", "device control");
    }

    #[test]
    fn an_unterminated_string_keeps_the_text_after_it() {
        assert_eq!(safe("\x1b]0;title\nThe hall."), "0;title\nThe hall.");
        assert_eq!(safe("a\x1b]0;title"), "a0;title");
    }

    #[test]
    fn lone_escapes_and_other_controls_go() {
        assert_eq!(safe("end\x1b"), "end", "a lone ESC at the end");
        assert_eq!(safe("a\x1b\x1b[2Jb"), "ab", "ESC before another sequence");
        assert_eq!(safe("a\x1bcb"), "ab", "reset");
        assert_eq!(safe("a\x1b(Bb"), "ab", "character set");
        assert_eq!(
            safe("end\x1b of it"),
            "end of it",
            "a lone ESC before a space"
        );
        assert_eq!(
            safe("ding\x07 back\x08\x08ed"),
            "ding backed",
            "BEL and backspace"
        );
        assert_eq!(safe("over\rwrite"), "overwrite", "carriage return");
        assert_eq!(
            safe("a\x7fb\x0cc\x00d\u{85}e"),
            "abcde",
            "DEL, form feed, NUL, NEL"
        );
        assert_eq!(safe("keep\n\tthese"), "keep\n\tthese");
    }

    #[test]
    fn a_sequence_split_between_pieces_is_inert() {
        let pieces = ["The ice\x1b", "[2J cracks.\x1b]0;ti", "tle\x07 Run!"];
        let joined: String = pieces.iter().map(|p| safe(p)).collect();
        assert!(!joined.contains(['\x1b', '\x07', '\u{9b}']), "{joined:?}");
        assert!(joined.starts_with("The ice[2J cracks."), "{joined:?}");
        assert!(joined.ends_with("Run!"), "{joined:?}");
    }

    #[test]
    fn no_control_survives_any_mix() {
        let nasty = "\x1b[2J\x1b]0;t\x07\u{9b}2J\x1b\x07\x08\r\x7f\u{90}x\u{9c}\x1b]";
        for i in 0..nasty.len() {
            if let (Some(a), Some(b)) = (nasty.get(..i), nasty.get(i..)) {
                let out = format!("{}{}", safe(a), safe(b));
                assert!(!out.chars().any(is_control), "{i}: {out:?}");
            }
        }
    }
}
