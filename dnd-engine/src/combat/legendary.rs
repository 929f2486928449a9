//! Legendary actions, decided by code (the SRD: a legendary creature takes 3 legendary actions
//! a round, one at a time at the end of another creature's turn, and regains the spent ones at
//! the start of its own turn). The rule: at the end of each other creature's turn, a legendary
//! monster that still fights and can act, when enough of the round's three are left for the
//! cost, takes
//!
//! - its legendary action that forces a save ([`legendary_save`]: the adult dragon's Wing
//!   Attack, "each creature within 10 ft. of the dragon must succeed on a DC 22 Dexterity
//!   saving throw"), when its area ([`area_ft`]) holds at least [`AREA_AT_LEAST`] heroes: the
//!   effects engine resolves it like any monster's save action;
//! - else the cheapest of its legendary actions that makes one of its attacks (its
//!   description names the attack: "The dragon makes a tail attack", "The lich uses its
//!   Paralyzing Touch"), at the hero the target rule picks among those the attack reaches.
//!
//! The uses are counted as the pool [`LEGENDARY_ACTIONS`] through `Change::UseSpent` (one per
//! action of the cost) and given back with `Change::UsesRestored`. A legendary action that
//! neither attacks nor forces a save (the dragon's Detect, a check) is left to the narrator.

use crate::srd::{Monster, MonsterAction};
use crate::state::MonsterInstance;

/// Legendary actions a round.
pub const PER_ROUND: u8 = 3;

/// The pool the round's legendary actions are counted under.
pub const LEGENDARY_ACTIONS: &str = "legendary actions";

/// The legendary action that makes an attack, with that attack action, cheapest first (see
/// the module docs).
pub fn legendary_attack(template: &Monster) -> Option<(&MonsterAction, &MonsterAction)> {
    template
        .legendary_actions
        .iter()
        .filter_map(|l| {
            let said = l.description.to_ascii_lowercase();
            let attack = template
                .actions
                .iter()
                .find(|a| a.attack.is_some() && said.contains(&a.name.to_ascii_lowercase()))?;
            Some((l, attack))
        })
        .min_by_key(|(l, _)| l.cost.unwrap_or(1))
}

/// A save-based legendary action is taken only when its area holds this many heroes: on one,
/// the attack its cheaper sibling makes does as much for less.
pub const AREA_AT_LEAST: usize = 2;

/// The legendary action that forces a save (no attack roll; its effects, built from the
/// data's DC and damage by `srd::action_effects`, carry the save), cheapest first.
pub fn legendary_save(template: &Monster) -> Option<&MonsterAction> {
    template
        .legendary_actions
        .iter()
        .filter(|l| l.attack.is_none() && l.save.is_some() && !l.effects.is_empty())
        .min_by_key(|l| l.cost.unwrap_or(1))
}

/// The radius of the area a legendary action's description gives around the monster ("each
/// creature within 10 ft. of the dragon"): `None` when it names none, and then the action
/// is not played by code.
pub fn area_ft(action: &MonsterAction) -> Option<u32> {
    let lower = action.description.to_ascii_lowercase();
    let at = lower.find("within ")?;
    let rest = &lower[at + "within ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let unit = rest[digits.len()..].trim_start();
    let feet = unit.starts_with("ft") || unit.starts_with("feet");
    digits.parse().ok().filter(|_| feet)
}

/// The legendary actions `m` has spent this round.
pub fn spent(m: &MonsterInstance) -> u8 {
    m.uses_spent.get(LEGENDARY_ACTIONS).copied().unwrap_or(0)
}

/// Whether `m` may take a legendary action of `cost` now: it fights, can act, and has that
/// many of the round's left.
pub fn may_take(m: &MonsterInstance, cost: u8) -> bool {
    m.is_fighting() && m.conditions.can_act() && spent(m).saturating_add(cost) <= PER_ROUND
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srd::Srd;

    #[test]
    fn a_bundled_monster_has_no_legendary_attack() {
        let srd = Srd::bundled();
        assert!(srd.monsters.iter().all(|m| legendary_attack(m).is_none()));
        assert!(srd.monsters.iter().all(|m| legendary_save(m).is_none()));
    }

    #[test]
    fn the_area_is_read_from_the_description() {
        let mut wing = Srd::bundled().monster("goblin").unwrap().actions[0].clone();
        wing.description = "The dragon beats its wings. Each creature within 10 ft. of the dragon must succeed on a DC 22 Dexterity saving throw.".into();
        assert_eq!(area_ft(&wing), Some(10));
        wing.description = "Each creature within 15 feet of it.".into();
        assert_eq!(area_ft(&wing), Some(15));
        wing.description = "The dragon makes a Wisdom (Perception) check.".into();
        assert_eq!(area_ft(&wing), None);
    }
}
