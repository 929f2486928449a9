//! A sorcerer's Metamagic as the interpreter applies it. Careful Spell is a flag on the
//! creature ([`Subject::careful`](super::Subject::careful), read by the save). Empowered Spell
//! rerolls damage dice: the casting's budget of rerolls (the sorcerer's Charisma modifier, at
//! least 1) is spent on the damage rolls in the order they are made, each on its dice that
//! fell under the die's average, lowest first; the new faces stand, and the roll's record keeps
//! what each die was ([`DamageDealt::rerolled`]).

use crate::dice::DieSource;

use super::casting::{Casting, Refused, Resolution, Subject};
use super::resolve::{Run, resolve_with};
use super::vocabulary::Effect;
use crate::rules::attack::{Reroll, damage_from_faces};
use crate::rules::{AttackResult, CheckResult, DamageDealt, Defenses};
use crate::state::GameState;

/// [`resolve`](super::resolve) with Empowered Spell: up to `rerolls` of the casting's damage
/// dice rolled again.
pub fn resolve_empowered<R: DieSource + ?Sized>(
    state: &GameState,
    casting: Casting<'_>,
    subjects: &[Subject],
    effects: &[Effect],
    rerolls: u8,
    rng: &mut R,
) -> Result<Resolution, Refused> {
    resolve_with(state, casting, subjects, effects, 0, rerolls, rng)
}

/// Whether a face is worth rolling again: under the die's average ((sides + 1) / 2), so a new
/// roll is more likely to raise it than to lower it.
fn low(face: u16, sides: u16) -> bool {
    2 * u32::from(face) < u32::from(sides) + 1
}

/// Rolls again the lowest of `faces` (dice of `sides`) that fell under the die's average, at
/// most `*left` of them (spent from it); the new faces stand. What each die rerolled was.
pub fn reroll_lowest<R: DieSource + ?Sized>(
    faces: &mut [u16],
    sides: u16,
    left: &mut u8,
    rng: &mut R,
) -> Vec<Reroll> {
    let mut order: Vec<usize> = (0..faces.len()).filter(|&i| low(faces[i], sides)).collect();
    order.sort_by_key(|&i| faces[i]); // stable: ties in the order rolled
    let mut out = Vec::new();
    for i in order.into_iter().take(usize::from(*left)) {
        let was = faces[i];
        let now = rng.die(u32::from(sides)) as u16;
        faces[i] = now;
        out.push(Reroll { was, now });
        *left -= 1;
    }
    out
}

/// "Empowered Spell: 1→5, 2→2", for a roll's label.
pub(super) fn describe(rerolled: &[Reroll]) -> String {
    let each: Vec<String> = rerolled
        .iter()
        .map(|r| format!("{}→{}", r.was, r.now))
        .collect();
    format!("Empowered Spell: {}", each.join(", "))
}

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// Careful Spell on `s`'s save against the casting: a chosen creature succeeds (a
    /// success's half damage stands); the roll stays for the record.
    pub(super) fn careful_save(
        &mut self,
        s: &Subject,
        result: &mut CheckResult,
        modifiers: &mut Vec<String>,
    ) {
        if s.careful {
            result.success = true;
            modifiers.push("Careful Spell: succeeds automatically".to_owned());
        }
    }

    /// Empowered Spell on one damage roll (while rerolls are left): its low dice rolled again
    /// and the damage counted again against `defenses`. What it says for the roll's label.
    pub(super) fn empower(
        &mut self,
        dealt: &mut DamageDealt,
        defenses: &Defenses,
    ) -> Option<String> {
        if self.rerolls == 0 {
            return None;
        }
        let mut faces = dealt.faces.clone();
        let rerolled = reroll_lowest(&mut faces, dealt.dice.sides, &mut self.rerolls, self.rng);
        if rerolled.is_empty() {
            return None;
        }
        let mut again = damage_from_faces(&dealt.dice, faces, defenses);
        again.rerolled = rerolled;
        *dealt = again;
        Some(describe(&dealt.rerolled))
    }

    /// Empowered Spell on a spell attack's hit: each damage entry in turn, the total counted
    /// again.
    pub(super) fn empower_hit(
        &mut self,
        result: &mut AttackResult,
        defenses: &Defenses,
    ) -> Option<String> {
        if !result.hit || self.rerolls == 0 {
            return None;
        }
        let mut said = Vec::new();
        for dealt in &mut result.damage {
            said.extend(self.empower(dealt, defenses));
        }
        result.total_damage = result.damage.iter().map(|d| d.taken).sum();
        (!said.is_empty()).then(|| said.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::seeded_rng;

    #[test]
    fn the_lowest_dice_under_the_average_are_rolled_again_up_to_the_budget() {
        let mut rng = seeded_rng(7);
        // 8d6: 1, 2 and 3 are under 3.5; the two lowest (1 then 2) go with a budget of 2.
        let mut faces = [4, 2, 6, 1, 3, 5, 2, 6];
        let mut left = 2;
        let rerolled = reroll_lowest(&mut faces, 6, &mut left, &mut rng);
        assert_eq!(left, 0);
        assert_eq!(rerolled.len(), 2);
        assert_eq!((rerolled[0].was, rerolled[1].was), (1, 2));
        assert_eq!(faces[3], rerolled[0].now, "the first 1, at index 3");
        assert_eq!(faces[1], rerolled[1].now, "the first 2, at index 1");
        assert_eq!(faces[6], 2, "the second 2 is kept: the budget is spent");
        // Nothing under the average: nothing rolled, nothing spent.
        let mut high = [4, 5, 6];
        let mut left = 3;
        assert!(reroll_lowest(&mut high, 6, &mut left, &mut rng).is_empty());
        assert_eq!(left, 3);
        // A d8's average is 4.5: a 4 is rolled again.
        let mut d8 = [4, 5];
        let mut left = 3;
        assert_eq!(reroll_lowest(&mut d8, 8, &mut left, &mut rng).len(), 1);
        assert_eq!(left, 2);
    }
}
