//! Mirror Image ([`Effect::MirrorImage`]): illusory duplicates of the caster for a while
//! (`TimedKind::MirrorImages`, their number and AC 10 + the caster's Dexterity modifier fixed as
//! cast). When a creature attacks the caster, a d20 decides whether the attack strikes a
//! duplicate instead ([`image_threshold`]: 6 or more with three left, 8 with two, 11 with one);
//! a struck duplicate is attacked at its own AC and a hit destroys it ([`image_destroyed`]),
//! the caster taking nothing. [`images_of`] is the one read, asked by `roll_attack` before each
//! swing.

use super::vocabulary::Effect;
use crate::state::{Change, GameState, TimedEffect, TimedKind, timed_effects};

/// The timed kind a [`Effect::MirrorImage`] starts on a creature of this Dexterity modifier.
pub(super) fn timed_kind(effect: &Effect, dexterity: i32) -> Option<TimedKind> {
    match effect {
        Effect::MirrorImage { images, .. } => Some(TimedKind::MirrorImages {
            left: *images,
            armor_class: 10 + dexterity,
        }),
        _ => None,
    }
}

/// The duplicates on `target` (id or name), with how many are left and their AC.
pub fn images_of<'a>(state: &'a GameState, target: &str) -> Option<(&'a TimedEffect, u8, i32)> {
    timed_effects(state, target)
        .iter()
        .find_map(|e| match e.kind {
            TimedKind::MirrorImages { left, armor_class } if left > 0 => {
                Some((e, left, armor_class))
            }
            _ => None,
        })
}

/// The d20 an attack needs to strike a duplicate instead of the creature, with `left` of them.
pub fn image_threshold(left: u8) -> u8 {
    match left {
        3.. => 6,
        2 => 8,
        _ => 11,
    }
}

/// The change a hit on one of `images` makes: one fewer, or the spell ended with the last.
pub fn image_destroyed(images: &TimedEffect) -> Change {
    match images.kind {
        TimedKind::MirrorImages { left, armor_class } if left > 1 => Change::TimedEffectStarted {
            effect: TimedEffect {
                kind: TimedKind::MirrorImages {
                    left: left - 1,
                    armor_class,
                },
                ..images.clone()
            },
        },
        _ => Change::TimedEffectEnded {
            effect: images.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_duplicates_need_a_higher_d20() {
        assert_eq!(
            [3, 2, 1].map(image_threshold),
            [6, 8, 11],
            "the SRD's 6, 8 and 11"
        );
    }
}
