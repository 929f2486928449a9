//! Narration scrubbed of what the player must not read, before the player reads it: a DC or
//! an AC ("DC 15", "(AC 17)") goes, an internal id the party knows ("frost-harpy") becomes its
//! name, and a sentence naming by id something the party has not found (a hidden feature, a
//! monster unseen, an NPC not met, a room never reached) is dropped whole.
//!
//! A sentence that says the answer of a puzzle not yet solved is dropped whole too, but only
//! for answers that could not be said by chance: a phrase of two words or more once articles
//! and filler are dropped ("the river of stars"), or any answer of a puzzle marked `secret`.
//! A one-word answer such as "ice" is a word narration needs (the glacier is made of it), so
//! it is kept unless its author marks the puzzle secret.
//!
//! The model's text streams to the player as it comes; [`Scrubber`] holds it back to the end of
//! each sentence and lets it through scrubbed, so what was streamed and the narration kept are
//! the same words.

use crate::state::GameState;

/// What the scrubber knows of the world: each internal id, with the name to put in its place
/// when the party knows the thing, `None` when it does not.
#[derive(Debug, Clone, Default)]
pub struct Secrets {
    ids: Vec<(String, Option<String>)>,
    /// The answers of unsolved puzzles narration must not say: (puzzle id, its words).
    answers: Vec<(String, Vec<String>)>,
}

impl Secrets {
    /// The ids of `state` and what the party knows of each.
    pub fn of(state: &GameState) -> Secrets {
        let here = state.party_location().map(|l| l.id.as_str());
        let met = &state.memory.names_met;
        let mut ids = Vec::new();
        for l in state.locations.iter() {
            let known = l.visited || Some(l.id.as_str()) == here;
            ids.push((l.id.clone(), known.then(|| l.title.clone())));
            for f in &l.features {
                ids.push((f.id.clone(), f.is_known().then(|| f.name.clone())));
            }
        }
        for m in state.monsters.iter() {
            ids.push((m.id.clone(), m.revealed.then(|| m.name.clone())));
        }
        for n in state.npcs.iter() {
            let known = Some(n.location.as_str()) == here || met.iter().any(|m| m == &n.name);
            ids.push((n.id.clone(), known.then(|| n.name.clone())));
        }
        // A puzzle's id is the party's once it has stood before the puzzle.
        let before: Vec<&str> = state.puzzles_here().iter().map(|p| p.id.as_str()).collect();
        for p in &state.story.puzzles {
            let tries = state.puzzle_tries(&p.id);
            let known = before.contains(&p.id.as_str()) || tries.solved || tries.failed > 0;
            ids.push((p.id.clone(), known.then(|| "the puzzle".to_owned())));
        }
        // Plain words ("throne") are fair narration: only ids that look internal are watched.
        ids.retain(|(id, _)| id.contains('-') || id.contains('_'));
        // The longest first, so "hall-of-echoes-stair" is not read as "hall-of-echoes".
        ids.sort_by_key(|(id, _)| std::cmp::Reverse(id.len()));
        let answers = state
            .story
            .puzzles
            .iter()
            .filter(|p| !state.puzzle_tries(&p.id).solved)
            .flat_map(|p| {
                p.answers
                    .iter()
                    .map(|a| (p.id.clone(), crate::state::answer_words(a)))
                    .filter(move |(_, words)| words.len() >= 2 || (p.secret && !words.is_empty()))
            })
            .collect();
        Secrets { ids, answers }
    }
}

/// A text with its leaks taken out, and what was taken.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scrubbed {
    /// The text the player may read.
    pub text: String,
    /// What was taken out or replaced ("DC 15", "frost-harpy").
    pub removed: Vec<String>,
}

/// Scrubs a whole text (see the module's rules).
pub fn scrub(text: &str, secrets: &Secrets) -> Scrubbed {
    let mut out = Scrubbed::default();
    for sentence in sentences(text) {
        let kept = scrub_sentence(sentence, secrets, &mut out.removed);
        out.text.push_str(&kept);
    }
    out
}

/// What slipped into narration that should not have: a DC or AC number, or an internal id.
#[cfg(test)]
pub(crate) fn leaks(narration: &str, state: &GameState) -> Vec<String> {
    scrub(narration, &Secrets::of(state)).removed
}

/// Streamed text held back to the end of each sentence, let through scrubbed.
#[derive(Debug, Default)]
pub struct Scrubber {
    secrets: Secrets,
    held: String,
    removed: Vec<String>,
}

impl Scrubber {
    /// A scrubber for a turn in this world.
    pub fn new(secrets: Secrets) -> Scrubber {
        Scrubber {
            secrets,
            held: String::new(),
            removed: Vec::new(),
        }
    }

    /// Takes a piece of streamed text; gives back what may be shown now (the whole sentences
    /// it completes, scrubbed), maybe nothing.
    pub fn push(&mut self, piece: &str) -> String {
        self.held.push_str(piece);
        let Some(end) = last_sentence_end(&self.held) else {
            return String::new();
        };
        let rest = self.held.split_off(end);
        let done = std::mem::replace(&mut self.held, rest);
        let mut shown = String::new();
        for sentence in sentences(&done) {
            shown.push_str(&scrub_sentence(sentence, &self.secrets, &mut self.removed));
        }
        shown
    }

    /// The rest, scrubbed, when the stream ends with an answer the output cap cut: only its
    /// full sentences, or, when nothing was shown before, what there is ended with an
    /// ellipsis, as the narration kept is (see [`OutputCaps`](super::OutputCaps)).
    pub fn finish_cut(&mut self, shown_before: bool) -> String {
        let held = std::mem::take(&mut self.held);
        let kept = if shown_before {
            let end = super::caps::last_full_sentence(&held).unwrap_or(0);
            held[..end].to_owned()
        } else {
            super::caps::end_at_sentence(&held)
        };
        let mut shown = String::new();
        for sentence in sentences(&kept) {
            shown.push_str(&scrub_sentence(sentence, &self.secrets, &mut self.removed));
        }
        shown
    }

    /// The rest, scrubbed, when the stream ends.
    pub fn finish(&mut self) -> String {
        let done = std::mem::take(&mut self.held);
        let mut shown = String::new();
        for sentence in sentences(&done) {
            shown.push_str(&scrub_sentence(sentence, &self.secrets, &mut self.removed));
        }
        shown
    }
}

/// Splits after each ".", "!", "?" or newline that ends a sentence (followed by whitespace or
/// the end), keeping every byte: the pieces joined are the text.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(end) = next_sentence_end(text, start) {
        out.push(&text[start..end]);
        start = end;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The byte after the first sentence end at or after `from` (its trailing whitespace
/// included), if the text holds one.
fn next_sentence_end(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        let ends = b == b'\n'
            || (matches!(b, b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_some_and(|n| n.is_ascii_whitespace()));
        if ends {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            // The whitespace after a sentence end might go on in the next piece: only whole
            // runs count, so a sentence end needs a byte after its spaces.
            if j < bytes.len() {
                return Some(j);
            }
            return None;
        }
        i += 1;
    }
    None
}

fn last_sentence_end(text: &str) -> Option<usize> {
    let mut last = None;
    let mut from = 0;
    while let Some(end) = next_sentence_end(text, from) {
        last = Some(end);
        from = end;
    }
    last
}

/// One sentence with its DCs and ACs taken out and its ids named, or nothing when it names
/// by id what the party has not found.
fn scrub_sentence(sentence: &str, secrets: &Secrets, removed: &mut Vec<String>) -> String {
    let named: Vec<&(String, Option<String>)> = secrets
        .ids
        .iter()
        .filter(|(id, _)| find_word(sentence, id).is_some())
        .collect();
    let (mut text, numbers) = without_numbers(sentence);
    for (id, _) in &named {
        note(removed, id);
    }
    for n in &numbers {
        note(removed, n);
    }
    let words = crate::state::answer_words(sentence);
    let says_answer = secrets.answers.iter().find(|(_, answer)| {
        words.windows(answer.len()).any(|w| {
            w.iter()
                .zip(answer)
                .all(|(g, a)| crate::state::puzzle_word_matches(g, a))
        })
    });
    if let Some((puzzle, _)) = says_answer {
        note(removed, &format!("the answer to {puzzle}"));
        return String::new();
    }
    if named.iter().any(|(_, name)| name.is_none()) {
        // The sentence before kept its own trailing space: the text around still reads.
        return String::new();
    }
    for (id, name) in named {
        let name = name.as_deref().unwrap_or_default();
        while let Some(at) = find_word(&text, id) {
            text.replace_range(at..at + id.len(), name);
        }
    }
    text
}

fn note(removed: &mut Vec<String>, what: &str) {
    if !removed.iter().any(|r| r == what) {
        removed.push(what.to_owned());
    }
}

/// Where `word` stands in `text` as a whole word (not inside a longer id or word).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let part_of_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut from = 0;
    while let Some(pos) = text[from..].find(word) {
        let at = from + pos;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(part_of_word) && !after.is_some_and(part_of_word) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The text without "DC 15", "AC 17" (a space or colon between, any parentheses left empty
/// taken too), and the pieces taken ("DC 15").
fn without_numbers(text: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut taken = Vec::new();
    let mut rest = text;
    while let Some((at, len, label)) = number_at(rest) {
        out.push_str(&rest[..at]);
        taken.push(label);
        rest = &rest[at + len..];
        // "a DC 15 Dexterity save" → "a Dexterity save": one space goes with the number.
        if out.ends_with(' ') && rest.starts_with(' ') {
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    if taken.is_empty() {
        return (out, taken);
    }
    for empty in ["()", "( )", "[]"] {
        out = out.replace(empty, "");
    }
    while out.contains("  ") {
        out = out.replace("  ", " ");
    }
    for (loose, tight) in [
        (" ,", ","),
        (" .", "."),
        (" ;", ";"),
        (" :", ":"),
        (" )", ")"),
        // "(AC 15, 30 hit points)" → "(30 hit points)": the separator goes with the number.
        ("(, ", "("),
        ("(; ", "("),
        ("[, ", "["),
        (", )", ")"),
        (",)", ")"),
        (", ]", "]"),
        (",]", "]"),
    ] {
        out = out.replace(loose, tight);
    }
    (out, taken)
}

/// The first "DC n" or "AC n" in `text`: its start, its length, and how it reads ("DC 15").
fn number_at(text: &str) -> Option<(usize, usize, String)> {
    let mut from = 0;
    loop {
        let dc = text[from..].find("DC").map(|p| p + from);
        let ac = text[from..].find("AC").map(|p| p + from);
        let at = match (dc, ac) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return None,
        };
        let before = text[..at].chars().next_back();
        let tail = &text[at + 2..];
        let gap = tail.len() - tail.trim_start_matches([' ', ':']).len();
        let digits = tail[gap..].chars().take_while(char::is_ascii_digit).count();
        let after = tail[gap + digits..].chars().next();
        let whole = !before.is_some_and(char::is_alphanumeric)
            && digits > 0
            && !after.is_some_and(char::is_alphanumeric);
        if whole {
            let label = format!("{} {}", &text[at..at + 2], &tail[gap..gap + digits]);
            return Some((at, 2 + gap + digits, label));
        }
        from = at + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glacier() -> GameState {
        crate::adventure::Adventure::built_in()
            .new_game(&["kraven"])
            .unwrap()
    }

    #[test]
    fn numbers_go_and_the_sentence_still_reads() {
        let s = Secrets::of(&glacier());
        let out = scrub(
            "Make a DC 15 Dexterity saving throw (DC 15). The harpy (AC 13) circles.",
            &s,
        );
        assert_eq!(
            out.text,
            "Make a Dexterity saving throw. The harpy circles."
        );
        assert_eq!(out.removed, vec!["DC 15", "AC 13"]);
        let out = scrub(
            "The heart (AC 15, 30 hit points) hums; the lock (20 ft up, DC 18) holds.",
            &Secrets::default(),
        );
        assert_eq!(
            out.text,
            "The heart (30 hit points) hums; the lock (20 ft up) holds."
        );
        let plain = scrub("Your blade is a DC comic; ACME sells rope.", &s);
        assert!(plain.removed.is_empty());
        assert_eq!(plain.text, "Your blade is a DC comic; ACME sells rope.");
    }

    #[test]
    fn known_ids_become_names_and_unknown_ones_take_their_sentence() {
        let mut state = glacier();
        // The harpy is seen on arrival; the climber is hidden.
        state
            .apply(&crate::state::Change::MonsterRevealed {
                monster: "frost-harpy".into(),
            })
            .unwrap();
        let s = Secrets::of(&state);
        let out = scrub(
            "The frost-harpy dives at you. Behind you lies the frozen-climber. The wind howls.",
            &s,
        );
        assert_eq!(out.text, "The Frost Harpy dives at you. The wind howls.");
        assert_eq!(out.removed, vec!["frost-harpy", "frozen-climber"]);
        assert_eq!(
            leaks("You stand in the ice-chasm.", &state),
            vec!["ice-chasm"]
        );
        assert_eq!(
            leaks(
                "You need DC 15 to see the frost-harpy near the hall-of-echoes.",
                &state
            ),
            vec!["hall-of-echoes", "frost-harpy", "DC 15"]
        );
    }

    #[test]
    fn streamed_pieces_come_out_as_the_whole_text_does() {
        let state = glacier();
        let text =
            "You feel watched. Somewhere below, the hall-of-echoes waits. A DC 12 climb! Done";
        let whole = scrub(text, &Secrets::of(&state)).text;
        for size in [1, 3, 7, 64] {
            let mut scrubber = Scrubber::new(Secrets::of(&state));
            let mut shown = String::new();
            let chars: Vec<char> = text.chars().collect();
            for piece in chars.chunks(size) {
                shown.push_str(&scrubber.push(&piece.iter().collect::<String>()));
            }
            shown.push_str(&scrubber.finish());
            assert_eq!(shown, whole, "pieces of {size}");
        }
        assert_eq!(whole, "You feel watched. A climb! Done");
    }
}
