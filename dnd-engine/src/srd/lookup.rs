//! Lookup by forgiving name, and "did you mean" on a miss.
//!
//! Players and LLMs write names every which way ("Giant Spider", "giant_spider", "GIANT
//! SPIDER"), so names are compared by their slug. On a miss the closest names are offered, so a
//! tool result can steer the LLM to a name that exists instead of letting it invent a monster.

/// Why a lookup found nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct LookupError {
    /// What was looked for ("monster", "spell"...).
    pub kind: &'static str,
    /// The name given.
    pub query: String,
    /// The closest names that exist, best first (at most 5).
    pub suggestions: Vec<String>,
}

impl LookupError {
    fn message(&self) -> String {
        let mut text = format!("no {} named {:?}", self.kind, self.query);
        if self.suggestions.is_empty() {
            text.push_str(" and nothing with a similar name");
        } else {
            text.push_str("; did you mean ");
            text.push_str(&self.suggestions.join(", "));
            text.push('?');
        }
        text
    }
}

/// The lookup key of a name: lower case ASCII letters and digits, other runs of characters
/// turned into one `-` ("Giant Spider" and "giant_spider" both give "giant-spider"; an
/// apostrophe is dropped: "Will-o'-Wisp" gives "will-o-wisp").
pub fn slugify(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if c == '\'' || c == '\u{2019}' {
            continue;
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    slug
}

/// Whether `slugify(name) == wanted`, without building the slug: a lookup compares the query
/// with every record's name (hundreds of monsters), and an allocation per record was most of
/// the cost of a suggested attack's odds. Emits the same characters as [`slugify`]: a run of
/// separators becomes one `-` only once a letter or digit follows it.
fn slug_is(name: &str, wanted: &str) -> bool {
    let mut wanted = wanted.bytes();
    let mut started = false;
    let mut dash = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && wanted.next() != Some(b'-') {
                return false;
            }
            dash = false;
            started = true;
            if wanted.next() != Some(c.to_ascii_lowercase() as u8) {
                return false;
            }
        } else if c != '\'' && c != '\u{2019}' && started {
            dash = true;
        }
    }
    wanted.next().is_none()
}

/// Finds the record whose name, slug or alias has the slug of `query`.
/// The record `query` names (by name, slug or alias, as [`find`] matches), without the
/// suggestions a miss computes: for the checks a hot path makes ("is this attack a spell?").
pub(crate) fn find_only<'a, T>(
    records: &'a [T],
    query: &str,
    keys: impl Fn(&'a T) -> (&'a str, &'a str, &'a [String]),
) -> Option<&'a T> {
    let wanted = slugify(query);
    records.iter().find(|r| {
        let (name, slug, aliases) = keys(r);
        slug == wanted || slug_is(name, &wanted) || aliases.iter().any(|a| slug_is(a, &wanted))
    })
}

pub(crate) fn find<'a, T>(
    kind: &'static str,
    records: &'a [T],
    query: &str,
    keys: impl Fn(&'a T) -> (&'a str, &'a str, &'a [String]),
) -> Result<&'a T, LookupError> {
    if let Some(found) = find_only(records, query, &keys) {
        return Ok(found);
    }
    let wanted = slugify(query);
    let mut scored: Vec<(usize, &str)> = records
        .iter()
        .filter_map(|r| {
            let (name, _, aliases) = keys(r);
            let best = std::iter::once(name)
                .chain(aliases.iter().map(String::as_str))
                .filter_map(|candidate| similarity_cost(&wanted, &slugify(candidate)))
                .min()?;
            Some((best, name))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    Err(LookupError {
        kind,
        query: query.to_owned(),
        suggestions: scored
            .into_iter()
            .take(5)
            .map(|(_, n)| n.to_owned())
            .collect(),
    })
}

/// How far `candidate` is from `wanted`, or `None` when too far to suggest. A candidate that
/// contains the query (or the other way round) is close whatever its length.
fn similarity_cost(wanted: &str, candidate: &str) -> Option<usize> {
    if wanted.is_empty() {
        return None;
    }
    if candidate.contains(wanted) || (wanted.len() >= 4 && wanted.contains(candidate)) {
        return Some(candidate.len().abs_diff(wanted.len()) / 4);
    }
    let distance = levenshtein(wanted, candidate);
    let allowed = (wanted.len().max(candidate.len()) / 3).max(2);
    // A shared start of three letters is a strong hint even when the endings differ ("gobbo").
    let shared_start = wanted
        .bytes()
        .zip(candidate.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    (distance <= allowed || shared_start >= 3).then_some(distance + 1)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<u8> = b.bytes().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_is_agrees_with_slugify() {
        let names = [
            "Giant Spider",
            " giant_spider ",
            "Will-o'-Wisp",
            "Potion of Healing (Greater)",
            "--a--b--",
            "'",
            "",
            "Ab\u{2019}c d",
            "é x",
            "x é",
        ];
        for name in names {
            for other in names {
                let wanted = slugify(other);
                assert_eq!(
                    slug_is(name, &wanted),
                    slugify(name) == wanted,
                    "{name:?} vs {wanted:?}"
                );
            }
            assert!(!slug_is(name, &format!("{}-", slugify(name))), "{name:?}");
            assert!(!slug_is(name, &format!("{}x", slugify(name))), "{name:?}");
        }
    }

    #[test]
    fn slugs_forgive_spelling() {
        assert_eq!(slugify("Giant Spider"), "giant-spider");
        assert_eq!(slugify(" giant_spider "), "giant-spider");
        assert_eq!(slugify("Will-o'-Wisp"), "will-o-wisp");
        assert_eq!(
            slugify("Potion of Healing (Greater)"),
            "potion-of-healing-greater"
        );
    }

    #[test]
    fn misses_suggest_near_names() {
        let names = ["Goblin", "Hobgoblin", "Gnoll", "Ogre"].map(String::from);
        let found = find("monster", &names, "GOBLIN", |n| {
            (n.as_str(), n.as_str(), &[])
        });
        assert_eq!(found.unwrap(), "Goblin");
        let err = find("monster", &names, "gobbo", |n| {
            (n.as_str(), n.as_str(), &[])
        })
        .unwrap_err();
        assert!(err.suggestions.contains(&"Goblin".to_string()), "{err}");
        let err = find("monster", &names, "gobln", |n| {
            (n.as_str(), n.as_str(), &[])
        })
        .unwrap_err();
        assert_eq!(err.suggestions.first().map(String::as_str), Some("Goblin"));
        assert!(err.to_string().contains("did you mean Goblin"), "{err}");
        let err = find("monster", &names, "dragon", |n| {
            (n.as_str(), n.as_str(), &[])
        })
        .unwrap_err();
        assert!(err.suggestions.is_empty());
        assert!(err.to_string().contains("nothing with a similar name"));
    }
}
