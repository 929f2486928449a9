//! The Eldritch Invocations a warlock learns on a level after its second, when the class
//! table's "Invocations Known" grows (a third at 5th level): `level_up` asks for them under
//! the feature "eldritch-invocations", from those whose level is reached and that it does not
//! know, and appends them to the ones it knows (`state::LevelUp::added`). What they bring is
//! the same as in the builder: Beguiling Influence's skills (`granted`), the Book of Ancient
//! Secrets' rituals (`tome`, with Pact of the Tome only).

use std::collections::BTreeMap;

use super::build_error::Problems;
use super::levelling::{FeaturePick, GainedFeature, LevelUpError, choice};
use super::warlock::INVOCATIONS;
use crate::srd::{Class, Selection, slugify};
use crate::state::Character;

/// How many invocations `class` learns on reaching `level` beyond the feature that first
/// grants them (0 at the level it is gained, and for every other class).
pub(super) fn count(class: &Class, level: u8) -> usize {
    let known = |l: u8| {
        class
            .level(l)
            .and_then(|t| t.numbers.invocations_known)
            .unwrap_or(0)
    };
    let before = known(level.saturating_sub(1));
    if before == 0 {
        return 0;
    }
    usize::from(known(level).saturating_sub(before))
}

/// Whether a pick's key names the invocations feature.
pub(super) fn is_key(key: &str) -> bool {
    let key = slugify(key);
    key == INVOCATIONS || key == slugify("Eldritch Invocations")
}

/// The invocations `c` may learn at `level`: those of its level or lower it does not know.
fn offer(class: &Class, c: &Character, level: u8, n: usize) -> Option<Selection> {
    let feature = class.feature(INVOCATIONS)?;
    let known = c.choices.get(INVOCATIONS);
    let mut offer = super::warlock::offer_at(class, level, feature)?;
    offer.from.retain(|o| !known.is_some_and(|k| k.contains(o)));
    offer.choose = u8::try_from(n).unwrap_or(u8::MAX);
    Some(offer)
}

/// The invocations `c` learns at `level`, checked from `picks` (by feature key): as many as
/// the level adds, offered, none twice; empty when the level adds none.
pub(super) fn learned(
    class: &Class,
    c: &Character,
    level: u8,
    picks: &BTreeMap<String, Vec<String>>,
) -> Result<Vec<String>, LevelUpError> {
    let n = count(class, level);
    let Some(offer) = offer(class, c, level, n).filter(|_| n > 0) else {
        return Ok(Vec::new());
    };
    let given = picks
        .iter()
        .find(|(k, _)| is_key(k))
        .map_or(&[][..], |(_, v)| v.as_slice());
    let label = |o: &str| {
        class
            .feature(o)
            .map_or_else(|| o.to_owned(), |f| f.name.clone())
    };
    let mut problems = Problems::default();
    let what = format!("new invocation at level {level}");
    let field = format!("features.{INVOCATIONS}");
    let picked = super::choices::pick(&field, &what, given, &offer, label, &mut problems);
    match problems.0.first() {
        Some(first) => Err(choice(
            "features",
            first.to_string(),
            offer.from.iter().map(|o| label(o)).collect(),
        )),
        None => Ok(picked),
    }
}

/// The offline game master's pick: the first invocations offered, leaving out the Book of
/// Ancient Secrets (it asks for rituals besides); `None` when the level adds none.
pub(super) fn default_pick(class: &Class, c: &Character, level: u8) -> Option<FeaturePick> {
    let n = count(class, level);
    let offer = offer(class, c, level, n).filter(|_| n > 0)?;
    let picks = offer
        .from
        .into_iter()
        .filter(|o| o != super::tome::ANCIENT_SECRETS)
        .take(n)
        .collect();
    Some(FeaturePick {
        feature: INVOCATIONS.to_owned(),
        picks,
    })
}

/// The new invocations as a feature the level brings, for the narration: `None` when the level
/// adds none.
pub(super) fn gained(class: &Class, c: &Character, level: u8) -> Option<GainedFeature> {
    let n = count(class, level);
    let offer = offer(class, c, level, n).filter(|_| n > 0)?;
    let feature = class.feature(INVOCATIONS)?;
    let names: Vec<String> = offer
        .from
        .iter()
        .map(|o| {
            class
                .feature(o)
                .map_or_else(|| o.clone(), |f| f.name.clone())
        })
        .collect();
    Some(GainedFeature {
        name: feature.name.clone(),
        description: format!("{n} more invocation(s) known from level {level}."),
        choose: Some(format!("choose {n} of: {}", names.join(", "))),
    })
}
