//! Words: splitting and matching what the player says against names in the world, and the
//! small rules of English the narration needs (articles, capitals, sentences without numbers).

/// Words that carry no meaning for matching ("the", "my", "to").
pub(crate) fn is_filler(word: &str) -> bool {
    matches!(
        word,
        "the"
            | "a"
            | "an"
            | "my"
            | "your"
            | "his"
            | "her"
            | "its"
            | "their"
            | "i"
            | "me"
            | "to"
            | "at"
            | "of"
            | "with"
            | "and"
            | "some"
            | "this"
            | "that"
            | "it"
            | "s"
            | "into"
            | "from"
            | "towards"
            | "toward"
            | "through"
            | "over"
            | "please"
            | "carefully"
            | "quickly"
            | "slowly"
            | "again"
            | "then"
            | "way"
    )
}

/// Compass and vertical directions.
pub(crate) fn is_direction(word: &str) -> bool {
    matches!(
        word,
        "north"
            | "south"
            | "east"
            | "west"
            | "northeast"
            | "northwest"
            | "southeast"
            | "southwest"
            | "up"
            | "down"
    )
}

/// The opposite of a direction, if it has one.
pub(crate) fn opposite(direction: &str) -> Option<&'static str> {
    Some(match direction {
        "north" => "south",
        "south" => "north",
        "east" => "west",
        "west" => "east",
        "northeast" => "southwest",
        "southwest" => "northeast",
        "northwest" => "southeast",
        "southeast" => "northwest",
        "up" => "down",
        "down" => "up",
        _ => return None,
    })
}

/// Lower-case words: letters and digits of any script, split on everything else.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A word reduced for matching: a plural "s" dropped.
fn stem(word: &str) -> &str {
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        &word[..word.len() - 1]
    } else {
        word
    }
}

/// The significant, stemmed words of a name or phrase ("The Frost Harpy" → frost, harpy).
pub(crate) fn keys(text: &str) -> Vec<String> {
    words(text)
        .iter()
        .filter(|w| !is_filler(w))
        .map(|w| stem(w).to_owned())
        .collect()
}

/// How well `phrase` names `name`: shared significant words, with a bonus when every word of
/// the name is in the phrase.
pub(crate) fn score(phrase: &str, name: &str) -> usize {
    let said = keys(phrase);
    let named = keys(name);
    let shared = named.iter().filter(|n| said.contains(n)).count();
    if shared > 0 && shared == named.len() {
        shared + 1
    } else {
        shared
    }
}

/// The candidate whose names `phrase` matches best (first wins a tie); `None` if none shares a
/// word with it.
pub(crate) fn best<'a, T>(
    phrase: &str,
    candidates: impl IntoIterator<Item = (&'a T, Vec<String>)>,
) -> Option<&'a T> {
    let mut found: Option<(&T, usize)> = None;
    for (candidate, names) in candidates {
        let s = names.iter().map(|n| score(phrase, n)).max().unwrap_or(0);
        if s > 0 && found.is_none_or(|(_, b)| s > b) {
            found = Some((candidate, s));
        }
    }
    found.map(|(c, _)| c)
}

/// Whether the words include `word` (whole word, case-insensitive).
pub(crate) fn mentions(text: &str, word: &str) -> bool {
    words(text).iter().any(|w| w == word)
}

/// "hall-of-echoes" → "hall of echoes"; "Gold pieces" → "gold-pieces" for ids.
pub(crate) fn slug(text: &str) -> String {
    words(text).join("-")
}

/// Drops the sentences that give away numbers the player should not see ("DC 12", "AC 15").
pub(crate) fn sanitize(text: &str) -> String {
    let mut kept: Vec<String> = Vec::new();
    for sentence in text.split_inclusive(['.', '!', '?']) {
        let w: Vec<&str> = sentence
            .split(|c: char| !c.is_alphanumeric())
            .filter(|s| !s.is_empty())
            .collect();
        let leaks = w
            .windows(2)
            .any(|p| matches!(p[0], "DC" | "AC") && p[1].chars().all(|c| c.is_ascii_digit()));
        match kept.last_mut() {
            // A closing quote or bracket after the full stop belongs to the sentence before.
            Some(last) if w.is_empty() => last.push_str(sentence.trim()),
            _ if leaks || w.is_empty() => {}
            _ => kept.push(sentence.trim().to_owned()),
        }
    }
    kept.join(" ")
}

/// A name as it reads mid-sentence: "A frozen climber" → "a frozen climber", "Thin ice" →
/// "thin ice"; proper names ("Frost Harpy", "Hjalmar's Journal") stay as they are.
pub(crate) fn lower_article(name: &str) -> String {
    let words: Vec<&str> = name.split(' ').collect();
    let first = words.first().copied().unwrap_or_default();
    let common = matches!(first, "A" | "An" | "The")
        || (!first.ends_with("'s")
            && words.len() > 1
            && words[1..]
                .iter()
                .all(|w| !w.starts_with(char::is_uppercase)));
    if common {
        lower_first(name)
    } else {
        name.to_owned()
    }
}

/// "the Rime Key", but "Hjalmar's Journal" (a possessive name takes no article).
pub(crate) fn the(name: &str) -> String {
    if name.split(' ').next().is_some_and(|w| w.ends_with("'s")) {
        name.to_owned()
    } else {
        format!("the {name}")
    }
}

/// How a way is walked: "east", but "through the rime door".
pub(crate) fn way(direction: &str) -> String {
    if is_direction(direction) {
        direction.to_owned()
    } else {
        format!("through the {direction}")
    }
}

/// An exit named in a sentence: "the way east" for a direction, "the rime door" for a named
/// way (never "the way rime door").
pub fn exit_name(direction: &str) -> String {
    if is_direction(direction) {
        format!("the way {direction}")
    } else {
        format!("the {direction}")
    }
}

/// "Stands aside, offers ..." → "stands aside, offers ...".
pub(crate) fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "stands" → "Stands".
pub(crate) fn capital(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
