//! Loading the class, race and background files together, and what makes them invalid.
//!
//! Parsing alone catches a wrong type or an unknown or missing field (serde's message names
//! it); [`parse`] then checks the links between records, which serde cannot: every feature a
//! level names exists at that level, every trait a race names exists, levels 1 to 5 are all
//! there.

use super::backgrounds::Background;
use super::classes::Class;
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
        /// Where the name is ("levels[2].features").
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
        /// Where the feature is ("features[7]").
        field: String,
        /// The feature.
        feature: String,
    },
    /// A race, subrace or trait names a trait that does not exist.
    #[error("race {race}: {field} names {trait_slug:?}, which is not among the traits")]
    UnknownTrait {
        /// The race (or trait) slug.
        race: String,
        /// Where the name is ("subraces[0].traits").
        field: String,
        /// The slug named.
        trait_slug: String,
    },
}

/// The parsed and checked class, race and background data.
#[derive(Debug, Clone, Default)]
pub(crate) struct HeroData {
    pub(crate) classes: Vec<Class>,
    pub(crate) races: RacesFile,
    pub(crate) backgrounds: Vec<Background>,
}

/// Parses the three files (`classes.json`, `races.json`, `backgrounds.json`) and checks them.
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
        class.validate()?;
    }
    data.races.validate()?;
    Ok(data)
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
        let error = data.classes[3].validate().unwrap_err();
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
        let error = fighter.validate().unwrap_err();
        assert!(
            matches!(error, HeroDataError::MisplacedFeature { .. }),
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
