//! Experience points: the SRD's table of the XP each character level needs, and how a fight's
//! XP is shared.
//!
//! ```
//! use dnd_engine::rules::experience::{level_for_xp, share_xp, xp_for_next_level};
//!
//! // Four heroes beat a foe worth 1,100 XP: 275 each.
//! assert_eq!(share_xp(1_100, 4), 275);
//! // A 1st-level character needs 300 XP for 2nd level.
//! assert_eq!(xp_for_next_level(1), Some(300));
//! assert_eq!(level_for_xp(2_700), 4);
//! ```

/// The XP a character needs for each level, 1 to 20 (index 0 is level 1).
pub const XP_FOR_LEVEL: [u32; 20] = [
    0, 300, 900, 2_700, 6_500, 14_000, 23_000, 34_000, 48_000, 64_000, 85_000, 100_000, 120_000,
    140_000, 165_000, 195_000, 225_000, 265_000, 305_000, 355_000,
];

/// The highest character level.
pub const MAX_LEVEL: u8 = 20;

/// The XP level `level` needs (`None` outside 1 to 20).
pub fn xp_for_level(level: u8) -> Option<u32> {
    (1..=MAX_LEVEL)
        .contains(&level)
        .then(|| XP_FOR_LEVEL[usize::from(level) - 1])
}

/// The XP the level after `level` needs (`None` at 20, where there is none).
pub fn xp_for_next_level(level: u8) -> Option<u32> {
    xp_for_level(level.checked_add(1)?)
}

/// The level `xp` is enough for.
pub fn level_for_xp(xp: u32) -> u8 {
    XP_FOR_LEVEL.iter().take_while(|need| xp >= **need).count() as u8
}

/// Each share of `total` XP split evenly among `members` characters. The SRD divides a fight's
/// XP evenly among the party members who took part; what does not divide evenly is lost (a
/// share is whole points). No members, no shares: 0.
pub fn share_xp(total: u32, members: usize) -> u32 {
    match u32::try_from(members) {
        Ok(0) => 0,
        Ok(n) => total / n,
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_climbs_from_0_to_355_000() {
        assert_eq!(xp_for_level(1), Some(0));
        assert_eq!(xp_for_level(5), Some(6_500));
        assert_eq!(xp_for_level(20), Some(355_000));
        assert_eq!(xp_for_level(0), None);
        assert_eq!(xp_for_level(21), None);
        assert!(XP_FOR_LEVEL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(xp_for_next_level(20), None);
        assert_eq!(xp_for_next_level(3), Some(2_700));
    }

    #[test]
    fn levels_follow_thresholds() {
        assert_eq!(level_for_xp(0), 1);
        assert_eq!(level_for_xp(299), 1);
        assert_eq!(level_for_xp(300), 2);
        assert_eq!(level_for_xp(6_499), 4);
        assert_eq!(level_for_xp(u32::MAX), 20);
    }

    #[test]
    fn shares_are_even_and_whole() {
        assert_eq!(share_xp(200, 4), 50);
        assert_eq!(share_xp(100, 3), 33);
        assert_eq!(share_xp(100, 0), 0);
        assert_eq!(share_xp(450, 1), 450);
    }
}
