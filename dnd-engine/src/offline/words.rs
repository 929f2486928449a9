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

/// The significant, stemmed words of a name or phrase ("The Dire Wolf" → dire, wolf).
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

/// "great-hall" → "great hall"; "Gold pieces" → "gold-pieces" for ids.
pub(crate) fn slug(text: &str) -> String {
    words(text).join("-")
}

/// The text without the numbers the player should not see ("DC 12", "AC 15"): the game
/// master's own scrub ([`crate::gm::scrub`]), with no ids to watch (the request has none of
/// the state's secrets).
pub(crate) fn sanitize(text: &str) -> String {
    crate::gm::scrub(text, &crate::gm::Secrets::default())
        .text
        .trim()
        .to_owned()
}

/// A name as it reads mid-sentence: "A broken cart" → "a broken cart", "Old well" →
/// "old well"; proper names ("Dire Wolf", "Mira's Diary") stay as they are.
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

/// "the Iron Key", but "Mira's Diary" (a possessive name takes no article).
pub(crate) fn the(name: &str) -> String {
    if name.split(' ').next().is_some_and(|w| w.ends_with("'s")) {
        name.to_owned()
    } else {
        format!("the {name}")
    }
}

/// How a way is walked: "east", but "through the iron gate".
pub(crate) fn way(direction: &str) -> String {
    if is_direction(direction) {
        direction.to_owned()
    } else {
        format!("through the {direction}")
    }
}

/// An exit named in a sentence: "the way east" for a direction, "the iron gate" for a named
/// way (never "the way iron gate").
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
