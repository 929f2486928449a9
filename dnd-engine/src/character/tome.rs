//! The warlock's Book of Shadows: the three cantrips of any class's list that Pact of the Tome
//! gives, and the two 1st-level rituals of any class's list that the Book of Ancient Secrets
//! invocation writes in it (an invocation only a Pact of the Tome warlock may take). Both are
//! chosen when the boon or invocation is (the builder, or `level_up`), kept in
//! `Character::choices` under the option's slug, and checked here: spells of the SRD on some
//! class's list, cantrips or 1st-level rituals, the right count, none twice, none known.
//!
//! In play the cantrips are known (`warlock::known_by_pact`) and the rituals are cast only as
//! rituals ([`ancient_ritual`], asked by `tools::spell_rituals`). The invocation also lets the
//! warlock copy into the book other ritual spells it finds (2 hours and 50 gp a spell level):
//! that is the story's, since the engine has no found scrolls to copy from.

use std::collections::BTreeMap;

use super::build_error::{Problem, Problems};
use crate::srd::{Spell, Srd, slugify};
use crate::state::Character;

/// The pact boon whose picks are three cantrips.
pub const TOME: &str = "pact-of-the-tome";

/// The invocation whose picks are two 1st-level rituals.
pub const ANCIENT_SECRETS: &str = "eldritch-invocation-book-of-ancient-secrets";

/// How many cantrips Pact of the Tome gives.
const TOME_CANTRIPS: usize = 3;

/// How many rituals the Book of Ancient Secrets starts with.
const ANCIENT_RITUALS: usize = 2;

/// The book's choice a pick's key names: the option's slug or name, the invocation's without
/// its "Eldritch Invocation" ("Book of Ancient Secrets").
fn book_key(key: &str) -> Option<&'static str> {
    let key = slugify(key);
    [TOME, ANCIENT_SECRETS]
        .into_iter()
        .find(|b| *b == key || *b == format!("eldritch-invocation-{key}"))
}

/// Whether a pick's key names one of the book's choices (checked here, not as a feature's
/// options).
pub(crate) fn is_book_key(key: &str) -> bool {
    book_key(key).is_some()
}

/// What the book `key` may hold: cantrips of any class's list (Pact of the Tome), or
/// 1st-level rituals of any class's list (Book of Ancient Secrets).
fn offer<'a>(srd: &'a Srd, key: &str) -> impl Iterator<Item = &'a Spell> + 'a {
    let rituals = key == ANCIENT_SECRETS;
    srd.spells
        .iter()
        .filter(|s| !s.classes.is_empty())
        .filter(move |s| {
            if rituals {
                s.level == 1 && s.ritual
            } else {
                s.level == 0
            }
        })
}

/// The spell names the book `key` may hold, for a refusal.
pub(crate) fn offer_names(srd: &Srd, key: &str) -> Vec<String> {
    offer(srd, key).map(|s| s.name.clone()).collect()
}

/// The book's picks, checked, by key (to add to `Character::choices`): `new` are the option
/// slugs chosen now, `had` those chosen before (a sheet's), `given` every pick by key (those
/// of other keys are ignored), `known` the spells on the sheet. The picks of a key are asked
/// only when its boon or invocation is chosen now, and the Book of Ancient Secrets only with
/// Pact of the Tome, now or before.
pub(crate) fn book_picks(
    srd: &Srd,
    new: &[String],
    had: &[String],
    given: &BTreeMap<String, Vec<String>>,
    known: &[String],
    problems: &mut Problems,
) -> BTreeMap<String, Vec<String>> {
    let chose = |slug: &str| new.iter().any(|o| o == slug);
    let tome = chose(TOME) || had.iter().any(|o| o == TOME);
    if chose(ANCIENT_SECRETS) && !tome {
        problems.add(
            "features.eldritch-invocations",
            Problem::Missing {
                what: "Pact of the Tome, which the Book of Ancient Secrets invocation needs \
                       (choose it as the pact boon, or another invocation)"
                    .into(),
            },
        );
    }
    let open: Vec<&str> = [TOME, ANCIENT_SECRETS]
        .into_iter()
        .filter(|k| chose(k) && (*k == TOME || tome))
        .collect();
    for key in given.keys().filter(|k| is_book_key(k)) {
        if !book_key(key).is_some_and(|k| open.contains(&k)) {
            let what = "Book of Shadows choice (asked with its pact boon or invocation)";
            problems.not_allowed(format!("features.{key}"), what, key, open.clone());
        }
    }
    let mut out = BTreeMap::new();
    for key in open {
        let picks = given
            .iter()
            .find(|(k, _)| book_key(k) == Some(key))
            .map_or(&[][..], |(_, v)| v.as_slice());
        let picked = spells(srd, key, picks, known, problems);
        out.insert(key.to_owned(), picked);
    }
    out
}

/// The spells of `picks` the book `key` may hold, by SRD name; a problem for each that it
/// may not, or is there twice, or known already, and for a wrong count.
fn spells(
    srd: &Srd,
    key: &str,
    picks: &[String],
    known: &[String],
    problems: &mut Problems,
) -> Vec<String> {
    let field = format!("features.{key}");
    let (count, what) = if key == TOME {
        (
            TOME_CANTRIPS,
            "Pact of the Tome: cantrips of any class's list",
        )
    } else {
        (
            ANCIENT_RITUALS,
            "Book of Ancient Secrets: 1st-level rituals of any class's list",
        )
    };
    if picks.len() != count {
        problems.add(
            &field,
            Problem::WrongCount {
                what: what.into(),
                given: picks.len(),
                expected: count,
            },
        );
    }
    let mut out: Vec<String> = Vec::new();
    for (i, name) in picks.iter().enumerate() {
        let field = format!("{field}[{i}]");
        let found = offer(srd, key).find(|s| s.slug == slugify(name));
        let Some(spell) = found else {
            problems.not_allowed(field, what, name, offer_names(srd, key));
            continue;
        };
        let by = if out.contains(&spell.name) {
            Some("another pick")
        } else if known.iter().any(|k| slugify(k) == spell.slug) {
            Some("the spells known")
        } else {
            None
        };
        match by {
            Some(by) => problems.add(
                field,
                Problem::Duplicate {
                    given: spell.name.clone(),
                    by: by.into(),
                },
            ),
            None => out.push(spell.name.clone()),
        }
    }
    out
}

/// Whether `c` may cast `spell` as a ritual from its Book of Ancient Secrets: a ritual it wrote
/// there with the invocation. Only as a ritual: the invocation gives no slot casting.
pub fn ancient_ritual(c: &Character, spell: &Spell) -> bool {
    spell.ritual
        && super::warlock::invoked(c, "book-of-ancient-secrets")
        && c.choices
            .get(ANCIENT_SECRETS)
            .is_some_and(|book| book.iter().any(|s| slugify(s) == spell.slug))
}
