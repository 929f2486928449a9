//! Initiative: who acts in what order.
//!
//! Higher totals go first. The SRD leaves ties to the GM (between monsters) and the players
//! (between characters); code needs a rule that is fair and reproducible, so ties go to the
//! higher Dexterity score (the common table rule), and a remaining tie is settled by a roll-off
//! drawn from the same generator.

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};

use super::check::D20Roll;
use crate::dice::Advantage;

/// One combatant entering initiative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeEntry {
    /// Who it is (a character or monster id).
    pub id: String,
    /// The initiative bonus (Dexterity modifier plus anything else).
    pub bonus: i32,
    /// The Dexterity score, for ties.
    pub dexterity: i32,
    /// Advantage (a feral instinct, an invisible combatant) or disadvantage.
    #[serde(default)]
    pub advantage: Advantage,
}

/// One combatant's place in the order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRoll {
    /// Who it is.
    pub id: String,
    /// The d20.
    pub d20: D20Roll,
    /// d20 plus bonus.
    pub total: i32,
    /// The Dexterity score used for ties.
    pub dexterity: i32,
    /// The roll-off that settled a tie on both total and Dexterity (higher goes first).
    pub tie_breaker: u32,
}

/// Rolls initiative for everyone and sorts them into turn order, first to act first.
pub fn roll_initiative<R: DieSource + ?Sized>(
    entries: &[InitiativeEntry],
    rng: &mut R,
) -> Vec<InitiativeRoll> {
    let mut order: Vec<InitiativeRoll> = entries
        .iter()
        .map(|e| {
            let d20 = D20Roll::roll(e.advantage, rng);
            InitiativeRoll {
                id: e.id.clone(),
                d20,
                total: i32::from(d20.natural) + e.bonus,
                dexterity: e.dexterity,
                tie_breaker: rng.tie_breaker(),
            }
        })
        .collect();
    sort_initiative(&mut order);
    order
}

/// Sorts rolls into turn order: total, then Dexterity, then the roll-off, all descending.
pub fn sort_initiative(order: &mut [InitiativeRoll]) {
    order.sort_by(|a, b| {
        (b.total, b.dexterity, b.tie_breaker).cmp(&(a.total, a.dexterity, a.tie_breaker))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::seeded_rng;

    fn roll(id: &str, total: i32, dexterity: i32, tie_breaker: u32) -> InitiativeRoll {
        InitiativeRoll {
            id: id.into(),
            d20: D20Roll::from_faces(10, None, Advantage::Normal),
            total,
            dexterity,
            tie_breaker,
        }
    }

    #[test]
    fn ties_go_to_dexterity_then_the_roll_off() {
        let mut order = vec![
            roll("slow", 15, 10, 9),
            roll("quick", 15, 16, 1),
            roll("first", 18, 8, 0),
            roll("lucky", 15, 10, 50),
        ];
        sort_initiative(&mut order);
        let ids: Vec<&str> = order.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["first", "quick", "lucky", "slow"]);
    }

    #[test]
    fn seeded_initiative_replays() {
        let entries: Vec<InitiativeEntry> = (0..6)
            .map(|i| InitiativeEntry {
                id: format!("c{i}"),
                bonus: i % 3,
                dexterity: 10 + i,
                advantage: Advantage::Normal,
            })
            .collect();
        let a = roll_initiative(&entries, &mut seeded_rng(5));
        let b = roll_initiative(&entries, &mut seeded_rng(5));
        assert_eq!(a, b);
        assert!(a.windows(2).all(|w| w[0].total >= w[1].total));
        assert!(a.iter().all(|r| r.total
            == i32::from(r.d20.natural) + entries.iter().find(|e| e.id == r.id).unwrap().bonus));
    }
}
