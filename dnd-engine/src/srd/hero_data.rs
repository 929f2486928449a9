//! Loading the class, race and background files together, and what makes them invalid.
//!
//! Parsing alone catches a wrong type or an unknown or missing field (serde's message names
//! it); [`parse`] then checks the links between records, which serde cannot: every feature a
//! level names exists at that level, every trait a race names exists, levels 1 to 5 are all
//! there.

use super::backgrounds::Background;
use super::classes::{Class, Uses, UsesCount};
use super::races::RacesFile;

/// Why the class, race or background data is invalid, naming the record and the field.
#[derive(Debug, thiserror::Error)]
pub enum HeroDataError {
    /// The file is not the expected JSON (serde's message names the field and line).
    #[error("{file} does not parse: {source}")]
    Malformed {
        /// The file.
        file: &'static str,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// A class lacks one of the levels 1 to 5 (or has them out of order).
    #[error("class {class}: levels: level {level} is missing or out of order")]
    MissingLevel {
        /// The class slug.
        class: String,
        /// The level.
        level: u8,
    },
    /// A level, the subclass or a choice names a feature the class does not have.
    #[error("class {class}: {field} names {feature:?}, which is not among its features")]
    UnknownFeature {
        /// The class slug.
        class: String,
        /// Where the name is (`levels[2].features`).
        field: String,
        /// The slug named.
        feature: String,
    },
    /// A level names a feature of another level, or of the subclass (or the other way round).
    #[error("class {class}: {field} names {feature:?}, whose level or subclass differs")]
    MisplacedFeature {
        /// The class slug.
        class: String,
        /// Where the name is.
        field: String,
        /// The feature.
        feature: String,
    },
    /// A feature no level, subclass level or choice names: nobody could ever gain it.
    #[error("class {class}: {field} ({feature:?}) is named by no level and no choice")]
    UnplacedFeature {
        /// The class slug.
        class: String,
        /// Where the feature is (`features[7]`).
        field: String,
        /// The feature.
        feature: String,
    },
    /// A feature's uses come from a number its level's table does not have.
    #[error("class {class}: {field} names {number:?}, which its level's numbers lack")]
    UnknownNumber {
        /// The class slug.
        class: String,
        /// Where the name is (`features[0].uses.count.table`).
        field: String,
        /// The number named.
        number: String,
    },
    /// A race, subrace or trait names a trait that does not exist.
    #[error("race {race}: {field} names {trait_slug:?}, which is not among the traits")]
    UnknownTrait {
        /// The race (or trait) slug.
        race: String,
        /// Where the name is (`subraces[0].traits`).
        field: String,
        /// The slug named.
        trait_slug: String,
    },
}

/// The parsed and checked class, race and background data.
// Only the bundled files are read through it (feature `bundled-srd`).
#[cfg_attr(not(feature = "bundled-srd"), allow(dead_code))]
#[derive(Debug, Clone, Default)]
pub(crate) struct HeroData {
    pub(crate) classes: Vec<Class>,
    pub(crate) races: RacesFile,
    pub(crate) backgrounds: Vec<Background>,
}

/// Parses the three files (`classes.json`, `races.json`, `backgrounds.json`) and checks them.
// Only the bundled files are read through it (feature `bundled-srd`).
#[cfg_attr(not(feature = "bundled-srd"), allow(dead_code))]
pub(crate) fn parse(
    classes: &str,
    races: &str,
    backgrounds: &str,
) -> Result<HeroData, HeroDataError> {
    fn json<T: serde::de::DeserializeOwned>(
        file: &'static str,
        text: &str,
    ) -> Result<T, HeroDataError> {
        serde_json::from_str(text).map_err(|source| HeroDataError::Malformed { file, source })
    }
    let data = HeroData {
        classes: json("classes.json", classes)?,
        races: json("races.json", races)?,
        backgrounds: json("backgrounds.json", backgrounds)?,
    };
    for class in &data.classes {
        check_class(class)?;
    }
    check_races(&data.races)?;
    Ok(data)
}

/// Checks a class's links: levels 1 to 5 in order, every feature a level or the subclass
/// names exists at that level, every option belongs to its parent, every uses count read
/// from the level table names a number the table has.
// Only the bundled files are read through it (feature `bundled-srd`).
#[cfg_attr(not(feature = "bundled-srd"), allow(dead_code))]
fn check_class(class_data: &Class) -> Result<(), HeroDataError> {
    let class = || class_data.slug.clone();
    for n in 1..=5u8 {
        if class_data.levels.get(usize::from(n - 1)).map(|l| l.level) != Some(n) {
            return Err(HeroDataError::MissingLevel {
                class: class(),
                level: n,
            });
        }
    }
    let named = class_data
        .levels
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l.features
                .iter()
                .map(move |f| (format!("levels[{i}].features"), l.level, f, None))
        })
        .chain(
            class_data
                .subclass
                .levels
                .iter()
                .enumerate()
                .flat_map(|(i, l)| {
                    l.features.iter().map(move |f| {
                        let field = format!("subclass.levels[{i}].features");
                        (field, l.level, f, Some(class_data.subclass.slug.as_str()))
                    })
                }),
        );
    let mut placed: Vec<&str> = Vec::new();
    for (field, level, slug, subclass) in named {
        let Some(feature) = class_data.feature(slug) else {
            return Err(HeroDataError::UnknownFeature {
                class: class(),
                field,
                feature: slug.clone(),
            });
        };
        if feature.level != level || feature.subclass.as_deref() != subclass {
            return Err(HeroDataError::MisplacedFeature {
                class: class(),
                field,
                feature: slug.clone(),
            });
        }
        placed.push(slug);
    }
    for (i, feature) in class_data.features.iter().enumerate() {
        let listed_by_parent = feature.parent.as_deref().is_some_and(|parent| {
            class_data
                .feature(parent)
                .and_then(|p| p.options.as_ref())
                .is_some_and(|o| o.from.contains(&feature.slug))
        });
        if !listed_by_parent && !placed.contains(&feature.slug.as_str()) {
            return Err(HeroDataError::UnplacedFeature {
                class: class(),
                field: format!("features[{i}]"),
                feature: feature.slug.clone(),
            });
        }
        // A choice among features must name features of this class.
        let Some(options) = &feature.options else {
            continue;
        };
        let of_features = class_data
            .features
            .iter()
            .any(|f| f.parent.as_deref() == Some(&feature.slug));
        if let Some(missing) = options
            .from
            .iter()
            .find(|o| of_features && class_data.feature(o).is_none())
        {
            return Err(HeroDataError::UnknownFeature {
                class: class(),
                field: format!("features[{i}].options.from"),
                feature: missing.clone(),
            });
        }
    }
    for (i, feature) in class_data.features.iter().enumerate() {
        let Some(Uses {
            count: UsesCount::Table(name),
            ..
        }) = &feature.uses
        else {
            continue;
        };
        let level = class_data.level(feature.level).map(|l| &l.numbers);
        let numbers = serde_json::to_value(level).unwrap_or_default();
        if numbers.get(name).is_none() {
            return Err(HeroDataError::UnknownNumber {
                class: class(),
                field: format!("features[{i}].uses.count.table"),
                number: name.clone(),
            });
        }
    }
    Ok(())
}

/// Checks that every trait a race, subrace or trait's options name exists.
// Only the bundled files are read through it (feature `bundled-srd`).
#[cfg_attr(not(feature = "bundled-srd"), allow(dead_code))]
fn check_races(races: &RacesFile) -> Result<(), HeroDataError> {
    let exists = |slug: &String| races.traits.iter().any(|t| &t.slug == slug);
    for race in &races.races {
        let lists = std::iter::once(("traits".to_owned(), &race.traits)).chain(
            race.subraces
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("subraces[{i}].traits"), &s.traits)),
        );
        for (field, list) in lists {
            if let Some(missing) = list.iter().find(|t| !exists(t)) {
                return Err(HeroDataError::UnknownTrait {
                    race: race.slug.clone(),
                    field,
                    trait_slug: missing.clone(),
                });
            }
        }
    }
    for (i, t) in races.traits.iter().enumerate() {
        let options = t.options.iter().flat_map(|o| &o.from);
        if let Some(missing) = options.chain(&t.parent).find(|o| !exists(o)) {
            return Err(HeroDataError::UnknownTrait {
                race: t.slug.clone(),
                field: format!("traits[{i}]"),
                trait_slug: missing.clone(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSES: &str = include_str!("data/classes.json");
    const RACES: &str = include_str!("data/races.json");
    const BACKGROUNDS: &str = include_str!("data/backgrounds.json");

    fn edited(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "{from:?} is not in the file");
        text.replacen(from, to, 1)
    }

    #[test]
    fn the_bundled_files_are_valid() {
        let data = parse(CLASSES, RACES, BACKGROUNDS).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(data.classes.len(), 12);
        assert_eq!(data.races.races.len(), 9);
        assert_eq!(data.backgrounds.len(), 1);
    }

    #[test]
    fn the_bundled_files_keep_one_key_order() {
        // Writing the parsed data back gives the file byte for byte: one key order, 2-space
        // indentation, so a regenerated or hand-edited file diffs line by line.
        let data = parse(CLASSES, RACES, BACKGROUNDS).unwrap();
        fn pretty<T: serde::Serialize>(value: &T) -> String {
            serde_json::to_string_pretty(value).unwrap() + "\n"
        }
        assert!(pretty(&data.classes) == CLASSES, "classes.json");
        assert!(pretty(&data.races) == RACES, "races.json");
        assert!(pretty(&data.backgrounds) == BACKGROUNDS, "backgrounds.json");
    }

    #[test]
    fn a_missing_field_is_named() {
        let broken = edited(CLASSES, "\"hit_die\": 12,", "");
        let error = parse(&broken, RACES, BACKGROUNDS).unwrap_err();
        assert!(matches!(
            error,
            HeroDataError::Malformed {
                file: "classes.json",
                ..
            }
        ));
        assert!(error.to_string().contains("hit_die"), "{error}");
        let broken = edited(RACES, "\"speed\": 25,", "\"speeed\": 25,");
        let error = parse(CLASSES, &broken, BACKGROUNDS).unwrap_err();
        assert!(error.to_string().contains("speeed"), "{error}");
    }

    #[test]
    fn a_level_naming_an_unknown_feature_is_refused() {
        let broken = edited(CLASSES, "\"reckless-attack\",", "\"reckless-atack\",");
        let error = parse(&broken, RACES, BACKGROUNDS).unwrap_err();
        match &error {
            HeroDataError::UnknownFeature {
                class,
                field,
                feature,
            } => {
                assert_eq!(class, "barbarian");
                assert_eq!(field, "levels[1].features");
                assert_eq!(feature, "reckless-atack");
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_missing_level_is_refused() {
        let mut data = parse(CLASSES, RACES, BACKGROUNDS).unwrap();
        data.classes[3].levels.remove(2);
        let error = check_class(&data.classes[3]).unwrap_err();
        assert!(
            matches!(&error, HeroDataError::MissingLevel { class, level: 3 } if class == "druid"),
            "{error}"
        );
    }

    #[test]
    fn a_feature_at_the_wrong_level_is_refused() {
        let mut data = parse(CLASSES, RACES, BACKGROUNDS).unwrap();
        let fighter = &mut data.classes[4];
        let surge = fighter.levels[1].features.remove(0);
        fighter.levels[2].features.push(surge);
        let error = check_class(fighter).unwrap_err();
        assert!(
            matches!(error, HeroDataError::MisplacedFeature { .. }),
            "{error}"
        );
    }

    #[test]
    fn uses_from_a_number_the_level_lacks_are_refused() {
        let broken = edited(
            CLASSES,
            "\"table\": \"rage_count\"",
            "\"table\": \"rage_cont\"",
        );
        let error = parse(&broken, RACES, BACKGROUNDS).unwrap_err();
        assert!(
            matches!(&error, HeroDataError::UnknownNumber { field, number, .. }
                if field == "features[0].uses.count.table" && number == "rage_cont"),
            "{error}"
        );
    }

    #[test]
    fn a_race_naming_an_unknown_trait_is_refused() {
        let broken = edited(RACES, "\"dwarven-toughness\"\n", "\"dwarven-toughnes\"\n");
        let error = parse(CLASSES, &broken, BACKGROUNDS).unwrap_err();
        assert!(
            matches!(&error, HeroDataError::UnknownTrait { race, field, .. }
                if race == "dwarf" && field == "subraces[0].traits"),
            "{error}"
        );
    }
}
