//! The bard's rules, read from the sheet and the class data (`srd/data/classes.json`): the
//! Bardic Inspiration die and its uses (Charisma modifier, at least one; back on a short rest
//! from 5th level with Font of Inspiration), Jack of All Trades, Song of Rest's die, Cutting
//! Words. Pure functions of the sheet; `tools::feature_bard` plays them.

use super::uses::{self, FeatureError};
use crate::rules::Proficiency;
use crate::srd::{LevelNumbers, Rest, Srd};
use crate::state::{Change, Character};

/// The feature whose uses every Bardic Inspiration spends, whatever the die's size: the
/// 1st-level feature carries the count (the 5th-level d8 only grows the die).
pub const INSPIRATION: &str = "bardic-inspiration-d6";

/// What a Bardic Inspiration die is called on its holder (a timed effect).
pub const INSPIRATION_EFFECT: &str = "Bardic Inspiration";

/// The bard level Jack of All Trades comes at (the class data's; a test checks it).
pub const JACK_OF_ALL_TRADES_LEVEL: u8 = 2;

/// Whether `c` is a bard.
pub fn is_bard(c: &Character) -> bool {
    c.class.eq_ignore_ascii_case("bard")
}

/// The bard table's numbers at `c`'s level (the highest level the data has, above it).
fn numbers<'a>(srd: &'a Srd, c: &Character) -> Option<&'a LevelNumbers> {
    if !is_bard(c) {
        return None;
    }
    srd.class("bard")
        .ok()?
        .levels
        .iter()
        .filter(|l| l.level <= c.level)
        .max_by_key(|l| l.level)
        .map(|l| &l.numbers)
}

/// The sides of `c`'s Bardic Inspiration die (6, then 8 at 5th level); `None` for a non-bard.
pub fn inspiration_die(srd: &Srd, c: &Character) -> Option<u16> {
    numbers(srd, c)?.bardic_inspiration_die.map(u16::from)
}

/// The sides of `c`'s Song of Rest die, from 2nd level; `None` before or for a non-bard.
pub fn song_of_rest_die(srd: &Srd, c: &Character) -> Option<u16> {
    numbers(srd, c)?.song_of_rest_die.map(u16::from)
}

/// The change that spends one Bardic Inspiration use of `c`, or why it may not: with Font of
/// Inspiration (5th level) the use comes back on a short rest as well.
pub fn spend_inspiration(srd: &Srd, c: &Character) -> Result<Change, FeatureError> {
    let (class, feature) = uses::feature_of(srd, c, INSPIRATION)?;
    let mut change = uses::spend(class, feature, c)?;
    if uses::feature_of(srd, c, "font-of-inspiration").is_ok()
        && let Change::FeatureUsed { restores, .. } = &mut change
    {
        *restores = Rest::ShortRest;
    }
    Ok(change)
}

/// Bardic Inspiration uses `c` has left, and of how many.
pub fn inspiration_left(srd: &Srd, c: &Character) -> Option<(u8, u8)> {
    let (class, feature) = uses::feature_of(srd, c, INSPIRATION).ok()?;
    let (of, _) = uses::uses_of(class, feature, c)?;
    Some((uses::uses_left(c, INSPIRATION, of), of))
}

/// A skill's proficiency with Jack of All Trades: half the bonus (rounded down) where a bard of
/// 2nd level or more has none.
pub fn with_jack_of_all_trades(c: &Character, proficiency: Proficiency) -> Proficiency {
    if proficiency == Proficiency::None && is_bard(c) && c.level >= JACK_OF_ALL_TRADES_LEVEL {
        Proficiency::Half
    } else {
        proficiency
    }
}

/// What Jack of All Trades adds to an ability check `c` has no proficiency in (initiative):
/// half the proficiency bonus, rounded down; 0 for others.
pub fn jack_of_all_trades(c: &Character) -> i32 {
    with_jack_of_all_trades(c, Proficiency::None).bonus(c.proficiency_bonus())
}

/// Whether `c` has Cutting Words (College of Lore, 3rd level).
pub fn has_cutting_words(srd: &Srd, c: &Character) -> bool {
    is_bard(c) && uses::feature_of(srd, c, "cutting-words").is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A human bard of `level` by the builder (Charisma 16).
    fn bard(level: u8) -> Character {
        let spells = [
            "Healing Word",
            "Charm Person",
            "Sleep",
            "Thunderwave",
            "Bane",
        ];
        let known = &spells[..usize::from(level) + 3];
        let choices: crate::character::CharacterChoices =
            serde_json::from_value(serde_json::json!({
                "name": "Vesna", "race": "Human", "class": "Bard", "level": level,
                "background": "Acolyte",
                "scores": {"method": "standard_array", "scores": {"str": 8, "dex": 14, "con": 13, "int": 10, "wis": 12, "cha": 15}},
                "skills": ["performance", "persuasion", "deception"],
                "equipment": {"gold": 50},
                "cantrips": ["Vicious Mockery", "Minor Illusion"],
                "spells": known
            }))
            .expect("bard choices");
        choices.build(Srd::bundled()).expect("a legal bard")
    }

    #[test]
    fn jack_of_all_trades_comes_at_the_level_the_class_data_gives() {
        let srd = Srd::bundled();
        let feature = srd
            .class("bard")
            .unwrap()
            .feature("jack-of-all-trades")
            .unwrap();
        assert_eq!(feature.level, JACK_OF_ALL_TRADES_LEVEL);
        // Initiative: half of +2 at 2nd level.
        assert_eq!(jack_of_all_trades(&bard(1)), 0);
        assert_eq!(jack_of_all_trades(&bard(2)), 1);
        assert_eq!(inspiration_left(srd, &bard(1)), Some((3, 3)));
        assert_eq!(song_of_rest_die(srd, &bard(1)), None);
        assert_eq!(song_of_rest_die(srd, &bard(2)), Some(6));
    }
}
