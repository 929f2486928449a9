//! Class features' uses per rest: how many a character has of a feature (the class data's
//! `uses`: a fixed count, a number of its level's table, an ability modifier), what is left on
//! its sheet, and the [`Change::FeatureUsed`] that spends one, refused with a typed
//! [`FeatureError`] that says what is allowed. Every limited feature (Second Wind, Action
//! Surge, ...) is spent through here; rests give the uses back (`Change::LongRest`,
//! `Change::FeatureUsesRestored` on a short rest).

use crate::srd::{Class, ClassFeature, Rest, Srd, UsesCount};
use crate::state::{Change, Character, rest_name};

/// Why a character may not use a class feature. Each message says what is allowed instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeatureError {
    /// No feature by that slug or name in the character's class.
    #[error("{class} has no feature {feature:?}; {name}'s limited features: {}", list(.usable))]
    Unknown {
        /// The character.
        name: String,
        /// Its class.
        class: String,
        /// What was asked.
        feature: String,
        /// The limited features it has at its level, with uses left.
        usable: Vec<String>,
    },
    /// The feature comes at a higher level.
    #[error("{feature} comes at {class} level {needs}; {name} is level {has}; usable now: {}", list(.usable))]
    TooLowLevel {
        /// The character.
        name: String,
        /// Its class.
        class: String,
        /// The feature.
        feature: String,
        /// The level it comes at.
        needs: u8,
        /// The character's level.
        has: u8,
        /// The limited features it has now.
        usable: Vec<String>,
    },
    /// The feature is the subclass's, which this character has not taken.
    #[error("{feature} belongs to the {subclass} subclass, which {name} does not have")]
    NotSubclass {
        /// The character.
        name: String,
        /// The feature.
        feature: String,
        /// Its subclass.
        subclass: String,
    },
    /// The feature has no limited uses to spend.
    #[error("{feature} has no uses to spend: it works without being used up")]
    NotLimited {
        /// The feature.
        feature: String,
    },
    /// Every use is spent.
    #[error("{name} has used {feature} {of} time(s) of {of}; it comes back after a {rest}")]
    NoUsesLeft {
        /// The character.
        name: String,
        /// The feature.
        feature: String,
        /// Its uses between rests.
        of: u8,
        /// The rest that restores them.
        rest: &'static str,
    },
    /// More uses asked at once than are left (or none).
    #[error("{name} has {left} use(s) of {feature} left; spend from 1 to {left}, not {asked}")]
    TooFewLeft {
        /// The character.
        name: String,
        /// The feature.
        feature: String,
        /// How many were asked.
        asked: u8,
        /// How many are left.
        left: u8,
    },
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

/// How many uses `feature` has for `c` between rests, or `None` when it is not limited.
pub fn uses_of(class: &Class, feature: &ClassFeature, c: &Character) -> Option<(u8, Rest)> {
    let uses = feature.uses.as_ref()?;
    let count = match &uses.count {
        UsesCount::Fixed(n) => *n,
        UsesCount::Table(key) => table_number(class, c.level, key)?,
        UsesCount::AbilityModifier(a) => c.abilities.modifier(*a).max(1) as u8,
        UsesCount::AbilityModifierPlusOne(a) => (1 + c.abilities.modifier(*a)).max(1) as u8,
        UsesCount::LevelTimes(n) => n.saturating_mul(c.level),
    };
    Some((count, uses.restores))
}

/// A number of the level's table by its field name ("action_surges").
fn table_number(class: &Class, level: u8, key: &str) -> Option<u8> {
    let numbers = serde_json::to_value(&class.level(level)?.numbers).ok()?;
    numbers
        .get(key)?
        .as_u64()
        .and_then(|n| u8::try_from(n).ok())
}

/// Uses left of a feature on the sheet, given its count.
pub fn uses_left(c: &Character, slug: &str, of: u8) -> u8 {
    c.feature_uses
        .get(slug)
        .map_or(of, |u| of.saturating_sub(u.spent))
}

/// The character's limited features at its level, as "Second Wind (1 of 1 left)".
pub fn usable(class: &Class, c: &Character) -> Vec<String> {
    class
        .features
        .iter()
        .filter(|f| f.level <= c.level && f.subclass.is_none())
        // An option (an invocation with a daily spell) only when chosen.
        .filter(|f| f.parent.is_none() || super::features::chose(c, &f.slug))
        .filter_map(|f| {
            let (of, _) = uses_of(class, f, c)?;
            Some(format!(
                "{} ({} of {of} left)",
                f.slug,
                uses_left(c, &f.slug, of)
            ))
        })
        .collect()
}

/// The class feature `wanted` (slug or name) of `c`, checked to be its and at its level.
pub fn feature_of<'a>(
    srd: &'a Srd,
    c: &Character,
    wanted: &str,
) -> Result<(&'a Class, &'a ClassFeature), FeatureError> {
    let class = srd.class(&c.class).map_err(|_| FeatureError::Unknown {
        name: c.name.clone(),
        class: c.class.clone(),
        feature: wanted.to_owned(),
        usable: Vec::new(),
    })?;
    let wanted_slug = wanted.trim().to_ascii_lowercase().replace(' ', "-");
    // An invocation by its own name ("one-with-shadows").
    let invocation = format!("eldritch-invocation-{wanted_slug}");
    let feature = class
        .features
        .iter()
        .find(|f| {
            f.slug == wanted_slug
                || f.name.eq_ignore_ascii_case(wanted.trim())
                || (f.parent.is_some() && f.slug == invocation)
        })
        // "action-surge" names the feature whatever its count ("action-surge-1-use").
        // The count at the character's level, or the first one (refused below as too high).
        .or_else(|| {
            let counts = || {
                class
                    .features
                    .iter()
                    .filter(|f| f.slug.starts_with(&format!("{wanted_slug}-")))
            };
            counts()
                .filter(|f| f.level <= c.level)
                .max_by_key(|f| f.level)
                .or_else(|| counts().min_by_key(|f| f.level))
        })
        .ok_or_else(|| FeatureError::Unknown {
            name: c.name.clone(),
            class: class.slug.clone(),
            feature: wanted.to_owned(),
            usable: usable(class, c),
        })?;
    if feature.level > c.level {
        return Err(FeatureError::TooLowLevel {
            name: c.name.clone(),
            class: class.slug.clone(),
            feature: feature.name.clone(),
            needs: feature.level,
            has: c.level,
            usable: usable(class, c),
        });
    }
    if let Some(sub) = &feature.subclass {
        // The subclass the sheet names (by name or slug), once its level is reached.
        let follows = c.subclass.as_deref().is_some_and(|chosen| {
            chosen.eq_ignore_ascii_case(&class.subclass.name)
                || crate::srd::slugify(chosen) == class.subclass.slug
        });
        if c.level < class.subclass.chosen_at || *sub != class.subclass.slug || !follows {
            return Err(FeatureError::NotSubclass {
                name: c.name.clone(),
                feature: feature.name.clone(),
                subclass: sub.clone(),
            });
        }
    }
    Ok((class, feature))
}

/// The change that spends one use of `feature` for `c`, or why it may not.
pub fn spend(class: &Class, feature: &ClassFeature, c: &Character) -> Result<Change, FeatureError> {
    spend_many(class, feature, c, 1)
}

/// The change that spends `count` uses of `feature` at once (points from a pool: ki, Lay on
/// Hands, sorcery points), or why it may not: fewer left than asked, or a count of 0.
pub fn spend_many(
    class: &Class,
    feature: &ClassFeature,
    c: &Character,
    count: u8,
) -> Result<Change, FeatureError> {
    let (of, restores) = uses_of(class, feature, c).ok_or_else(|| FeatureError::NotLimited {
        feature: feature.name.clone(),
    })?;
    let left = uses_left(c, &feature.slug, of);
    if left == 0 {
        return Err(FeatureError::NoUsesLeft {
            name: c.name.clone(),
            feature: feature.name.clone(),
            of,
            rest: rest_name(restores),
        });
    }
    if count == 0 || count > left {
        return Err(FeatureError::TooFewLeft {
            name: c.name.clone(),
            feature: feature.name.clone(),
            asked: count,
            left,
        });
    }
    Ok(Change::FeatureUsed {
        character: c.id.clone(),
        feature: feature.slug.clone(),
        of,
        restores,
        count,
    })
}
