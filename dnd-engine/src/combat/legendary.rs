//! Legendary actions, decided by code (the SRD: a legendary creature takes 3 legendary actions
//! a round, one at a time at the end of another creature's turn, and regains the spent ones at
//! the start of its own turn). The rule: at the end of each other creature's turn, a legendary
//! monster that still fights and can act takes the cheapest of its legendary actions that
//! makes one of its attacks (its description names the attack: "The dragon makes a tail
//! attack", "The lich uses its Paralyzing Touch"), when enough of the round's three are left, at the hero the target rule picks
//! among those the attack reaches. The uses are counted as the pool [`LEGENDARY_ACTIONS`]
//! through `Change::UseSpent` and given back with `Change::UsesRestored`.

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
    }
}
