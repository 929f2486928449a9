//! A fight as the players may see it: the initiative order (a hero's hit points, never a
//! monster's: those are the game master's secret), whose turn it is, and where everyone stands.

use dnd_engine::state::GameState;
use serde::Serialize;

use crate::panel::target_id_name;

/// The fight in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CombatView {
    /// The round, from 1.
    pub round: u32,
    /// Turn order, first to act first.
    pub order: Vec<Slot>,
    /// Where each combatant stands, in feet (a room without areas has none).
    pub positions: Vec<Spot>,
}

/// One place in the initiative order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Slot {
    /// The combatant's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its initiative total.
    pub initiative: i32,
    /// A hero's hit points (none for a monster).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// Whether a hero (else a monster or a summoned creature).
    pub hero: bool,
    /// Whether it acts now.
    pub current: bool,
}

/// Where a combatant stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spot {
    /// Its name.
    pub name: String,
    /// Feet west to east.
    pub x: i32,
    /// Feet south to north.
    pub y: i32,
}

impl CombatView {
    /// The fight of `state`, if there is one.
    pub fn of(state: &GameState) -> Option<CombatView> {
        let fight = state.encounter.as_ref()?;
        let current = fight.current();
        Some(CombatView {
            round: fight.round,
            order: fight
                .order
                .iter()
                .map(|slot| {
                    let hero = state.character(&slot.id);
                    Slot {
                        id: slot.id.clone(),
                        name: target_id_name(&slot.id, state),
                        initiative: slot.initiative,
                        hp: hero.map(|c| c.hp.current),
                        hero: hero.is_some(),
                        current: Some(slot.id.as_str()) == current,
                    }
                })
                .collect(),
            positions: fight
                .positions
                .iter()
                .map(|(id, at)| Spot {
                    name: target_id_name(id, state),
                    x: at.x,
                    y: at.y,
                })
                .collect(),
        })
    }

    /// The hero whose turn it is, when a hero's.
    pub fn hero_to_act(&self) -> Option<&Slot> {
        self.order.iter().find(|s| s.current && s.hero)
    }
}

#[cfg(test)]
mod tests {
    use dnd_engine::adventure::Adventure;
    use dnd_engine::state::{Change, InitiativeSlot};

    use super::*;

    #[test]
    fn the_order_shows_a_heros_hit_points_and_never_a_monsters() {
        let mut state = Adventure::built_in().new_game(&["kraven"]).unwrap();
        assert!(CombatView::of(&state).is_none(), "no fight, no view");
        let slot = |id: &str, initiative| InitiativeSlot {
            id: id.into(),
            initiative,
            speed: 30,
        };
        state
            .apply(&Change::EncounterStarted {
                order: vec![slot("frost-harpy", 19), slot("kraven", 4)],
            })
            .unwrap();
        let fight = CombatView::of(&state).unwrap();
        assert_eq!(fight.round, 1);
        let (harpy, kraven) = (&fight.order[0], &fight.order[1]);
        assert_eq!(harpy.name, "Frost Harpy");
        assert!(harpy.current && !harpy.hero);
        assert_eq!(
            harpy.hp, None,
            "a monster's hit points are the game master's secret"
        );
        assert_eq!(
            kraven.hp,
            Some(state.character("kraven").unwrap().hp.current)
        );
        // A monster acts now: no hero's turn to wait for.
        assert!(fight.hero_to_act().is_none());
    }
}
