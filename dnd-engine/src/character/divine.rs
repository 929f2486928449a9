//! The cleric's and the paladin's features as pure rules over a sheet and the class data:
//! Channel Divinity's pool (cleric 2, paladin 3) and the effects that spend it (Turn Undead,
//! Destroy Undead, Preserve Life, Sacred Weapon, Turn the Unholy), Disciple of Life's extra
//! healing, Divine Smite's dice, and Lay on Hands' pool. `tools::feature_divine` and
//! `tools::feature_paladin` play them through `use_feature`; `effects` adds Disciple of Life to
//! a healing spell.

use crate::rules::ChallengeRating;
use crate::srd::{Class, ClassFeature};
use crate::state::{Character, GameState};

/// What a turning does, by the feature that turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turning {
    /// Its name in the story ("Turn Undead").
    pub name: &'static str,
    /// The creature types it turns.
    pub kinds: &'static [&'static str],
    /// Whether it destroys the weak undead it turns (Destroy Undead: the cleric's alone).
    pub destroys: bool,
}

/// The turning a feature slug plays: the cleric's Turn Undead (undead; Destroy Undead from
/// cleric 5) or the Oath of Devotion's Turn the Unholy (fiends and undead).
pub fn turning(slug: &str) -> Option<Turning> {
    match slug {
        "channel-divinity-turn-undead" => Some(Turning {
            name: "Turn Undead",
            kinds: &["undead"],
            destroys: true,
        }),
        "channel-divinity-turn-the-unholy" => Some(Turning {
            name: "Turn the Unholy",
            kinds: &["fiend", "undead"],
            destroys: false,
        }),
        _ => None,
    }
}

/// The class's Channel Divinity pool: the feature whose uses its effects spend (the cleric's
/// "channel-divinity-1-rest", the paladin's "channel-divinity"). The first of them, so the
/// uses stay under one slug when a level raises their count.
pub fn channel_divinity_pool(class: &Class) -> Option<&ClassFeature> {
    class
        .features
        .iter()
        .filter(|f| f.slug.starts_with("channel-divinity") && f.uses.is_some())
        .min_by_key(|f| f.level)
}

/// Whether a feature is one of Channel Divinity's effects, spending its pool.
pub fn is_channel_divinity_effect(feature: &ClassFeature) -> bool {
    feature.slug.starts_with("channel-divinity-") && feature.uses.is_none()
}

/// The feature whose uses `feature` spends: the Channel Divinity pool for one of its effects,
/// else the feature itself.
pub fn counted_as<'a>(class: &'a Class, feature: &'a ClassFeature) -> &'a ClassFeature {
    if is_channel_divinity_effect(feature) {
        channel_divinity_pool(class).unwrap_or(feature)
    } else {
        feature
    }
}

/// Whether Destroy Undead destroys an undead of challenge `cr` that failed against `c`'s Turn
/// Undead: the highest challenge it destroys is the class table's at the cleric's level (1/2
/// at 5th); none before.
pub fn destroys(class: &Class, c: &Character, cr: ChallengeRating) -> bool {
    class
        .level(c.level)
        .and_then(|l| l.numbers.destroy_undead_cr)
        .is_some_and(|most| cr.as_f64() <= f64::from(most) + f64::EPSILON)
}

/// Disciple of Life (Life domain, cleric 1): the hit points a healing spell cast by `caster`
/// with a slot of `slot` level adds to each creature it heals: 2 + the slot's level (a spell
/// cast with a higher slot is of that level), or 0 for a cantrip, an item, a monster or
/// anyone else. Read from the sheet (class and subclass), which the builder checks against the
/// class data; the effects engine calls it where a spell heals.
pub fn disciple_of_life_bonus(state: &GameState, caster: &str, slot: u8) -> u32 {
    let Some(c) = state.character(caster) else {
        return 0;
    };
    let life = c.class.eq_ignore_ascii_case("cleric")
        && c.subclass
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("life"));
    if life && slot >= 1 {
        2 + u32::from(slot)
    } else {
        0
    }
}

/// Preserve Life's pool: five times the cleric's level.
pub fn preserve_life_pool(c: &Character) -> u32 {
    5 * u32::from(c.level)
}

/// How many hit points Preserve Life may restore to a creature at `current` of `max`: up to
/// half its maximum (rounded down), none once it is there.
pub fn preserve_life_room(current: u32, max: u32) -> u32 {
    (max / 2).saturating_sub(current)
}

/// Reads Preserve Life's split, "kraven:10, wren:5" (a name or id, a colon or a space, a
/// number; separated by commas or semicolons), or says what is wrong with it.
pub fn parse_split(option: &str) -> Result<Vec<(String, u32)>, String> {
    let mut out = Vec::new();
    for part in option
        .split([',', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (who, amount) = part
            .split_once([':', '='])
            .or_else(|| part.rsplit_once(' '))
            .ok_or_else(|| format!("{part:?} is not \"name: hit points\""))?;
        let amount: u32 = amount.trim().parse().map_err(|_| {
            format!(
                "{part:?}: {:?} is not a number of hit points",
                amount.trim()
            )
        })?;
        let who = who.trim();
        if who.is_empty() || amount == 0 {
            return Err(format!("{part:?} names no one, or restores nothing"));
        }
        out.push((who.to_owned(), amount));
    }
    if out.is_empty() {
        return Err("the split names no one".to_owned());
    }
    Ok(out)
}

/// Divine Smite's dice (d8s) with a slot of `slot` level: 2 for a 1st-level slot, one more per
/// level above, at most 5; one more against an undead or a fiend. A critical hit doubles them
/// as it doubles every die of the hit.
pub fn smite_dice(slot: u8, undead_or_fiend: bool) -> u16 {
    (u16::from(slot) + 1).min(5) + u16::from(undead_or_fiend)
}

/// What curing a disease or a poison costs from the Lay on Hands pool.
pub const LAY_ON_HANDS_CURE: u8 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smite_is_2d8_plus_1d8_a_slot_level_at_most_5d8_and_one_more_against_undead() {
        assert_eq!(smite_dice(1, false), 2);
        assert_eq!(smite_dice(2, false), 3);
        assert_eq!(smite_dice(4, false), 5);
        assert_eq!(smite_dice(5, false), 5);
        assert_eq!(smite_dice(1, true), 3);
        assert_eq!(smite_dice(5, true), 6);
    }

    #[test]
    fn preserve_life_raises_no_one_above_half() {
        assert_eq!(preserve_life_room(3, 30), 12);
        assert_eq!(preserve_life_room(15, 30), 0);
        assert_eq!(preserve_life_room(20, 30), 0);
        assert_eq!(preserve_life_room(0, 25), 12);
    }

    #[test]
    fn a_split_reads_names_and_hit_points() {
        assert_eq!(
            parse_split("kraven:10, wren: 5").unwrap(),
            vec![("kraven".to_owned(), 10), ("wren".to_owned(), 5)]
        );
        assert_eq!(
            parse_split("Isolde Vane 4").unwrap(),
            vec![("Isolde Vane".to_owned(), 4)]
        );
        assert!(parse_split("kraven").is_err());
        assert!(parse_split("kraven: lots").is_err());
        assert!(parse_split("kraven: 0").is_err());
        assert!(parse_split(" , ").is_err());
    }

    #[test]
    fn destroy_undead_takes_challenge_half_or_lower_at_cleric_5() {
        let srd = crate::srd::Srd::bundled();
        let cleric = srd.class("cleric").unwrap();
        let mut c = crate::adventure::Adventure::built_in()
            .new_game(&["hedda"])
            .unwrap()
            .characters[0]
            .clone();
        let half = ChallengeRating::from_f64(0.5).unwrap();
        let one = ChallengeRating::whole(1).unwrap();
        assert!(!destroys(cleric, &c, half), "not at 3rd level");
        c.level = 5;
        assert!(destroys(cleric, &c, half));
        assert!(destroys(
            cleric,
            &c,
            ChallengeRating::from_f64(0.25).unwrap()
        ));
        assert!(!destroys(cleric, &c, one));
    }
}
