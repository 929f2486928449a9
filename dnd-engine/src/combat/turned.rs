//! Turning (the cleric's Turn Undead, the Oath of Devotion's Turn the Unholy), as the fight
//! reads it: which creatures a turning reaches ([`turnable`]), what a turned creature may not
//! spend ([`refusal`], asked by the gate [`may_act`](super::may_act)), and where it flees on
//! its turn ([`flight`], played by `tools::monster_turn`).
//!
//! The SRD: a turned creature spends its turns trying to move as far from its turner as it
//! can, never willingly comes within 30 ft of it, takes no reactions, and for its action only
//! Dashes or escapes what holds it; where it has nowhere to go, it may Dodge. The turning ends
//! after a minute, or when the creature takes damage (`TimedEffect::ends_on_damage`).

use super::positions::{self, Destination, Move};
use crate::rules::{CastingTime, Condition, Spend};
use crate::srd::Srd;
use crate::state::GameState;

/// How far a turning reaches: 30 ft.
pub const TURNING_RANGE_FT: u32 = 30;

/// Why a turned creature may not spend `spend` now (an attack, a spell cast as an action or a
/// reaction, a reaction, Disengage), or `None` when it may or is not turned. It may still move,
/// Dash, Dodge and escape a grapple.
pub fn refusal(state: &GameState, id: &str, spend: Spend) -> Option<String> {
    let barred = match spend {
        Spend::Attack | Spend::Reaction | Spend::Disengage | Spend::BonusDisengage => true,
        Spend::Spell { casting, .. } => casting != CastingTime::BonusAction,
        Spend::Action
        | Spend::BonusAction
        | Spend::Movement(_)
        | Spend::Dash
        | Spend::BonusDash => false,
    };
    let turned = crate::state::turned_by(crate::state::timed_effects(state, id))?;
    barred.then(|| {
        format!(
            "turned by {}'s {}: it must move away from its turner, takes no reactions, and may only Dash (or Dodge where it cannot get away) until it takes damage",
            state.name_of(&turned.source),
            turned.spell
        )
    })
}

/// Why a turned creature may not spend `spend` on an action of its own (a monster's attack or
/// Multiattack, a breath, a spell): the same refusal as [`refusal`], for a spend of the action
/// too. Asked where a tool spends a creature's own action; the standard actions (Dash, Dodge,
/// escaping a grapple) do not ask it.
pub fn action_refusal(state: &GameState, id: &str, spend: Spend) -> Option<String> {
    let id = state
        .monster(id)
        .map(|m| m.id.as_str())
        .or_else(|| state.character(id).map(|c| c.id.as_str()))?;
    let own = if spend == Spend::Action {
        Spend::Attack
    } else {
        spend
    };
    refusal(state, id, own)
}

/// The monsters a turning by `turner` reaches: of a creature type in `kinds` ("undead",
/// "fiend"), seen by the party, in the fight and standing, within 30 ft, and able to see or
/// hear the turner (not both blinded and deafened). Ids, in the order of the state. (One the
/// party has not seen is the story's to play: the tools roll for seen creatures only.)
pub fn turnable(state: &GameState, srd: &Srd, turner: &str, kinds: &[&str]) -> Vec<String> {
    let in_fight = |id: &str| {
        state
            .encounter
            .as_ref()
            .is_none_or(|e| e.slot(id).is_some())
    };
    let room = state
        .character(turner)
        .map(|c| c.location.clone())
        .unwrap_or_default();
    state
        .monsters
        .iter()
        .filter(|m| m.is_fighting() && m.revealed && m.location.eq_ignore_ascii_case(&room))
        .filter(|m| in_fight(&m.id))
        .filter(|m| {
            srd.monster(&m.template).is_ok_and(|t| {
                let kind = t.kind.to_ascii_lowercase();
                kinds.iter().any(|k| kind.starts_with(k))
            })
        })
        .filter(|m| positions::distance(state, turner, &m.id) <= TURNING_RANGE_FT)
        .filter(|m| {
            !(m.conditions.has(Condition::Blinded) && m.conditions.has(Condition::Deafened))
        })
        .map(|m| m.id.clone())
        .collect()
}

/// Where a turned creature flees on its turn: toward the area of the room farthest from its
/// turner (one it can stand in: on the floor, unless it flies), farther than it stands now, as
/// far as `movement_ft` allows (after a Dash). `None` where the room keeps no positions or no
/// area takes it farther away: then it Dodges.
pub fn flight(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    turner: &str,
    movement_ft: u32,
) -> Option<Move> {
    let from_turner = positions::position_of(state, turner)?;
    let now = positions::distance(state, creature, turner);
    let flies = positions::flies(state, srd, creature);
    let farthest = positions::room_areas(state)
        .iter()
        .filter(|a| a.z == 0 || flies)
        .map(|a| (a.position().distance(from_turner), a))
        .filter(|(d, _)| *d > now)
        .max_by_key(|(d, _)| *d)?
        .1;
    let mut planned = positions::plan_move(
        state,
        srd,
        creature,
        Destination::Area(&farthest.id),
        Some(movement_ft),
    )
    .ok()?;
    // Difficult terrain doubles the cost: half as far.
    if planned.cost_ft > movement_ft {
        let half = movement_ft / 2 / 5 * 5;
        planned = positions::plan_move(
            state,
            srd,
            creature,
            Destination::Area(&farthest.id),
            Some(half),
        )
        .ok()?;
    }
    (planned.feet > 0 && planned.cost_ft <= movement_ft).then_some(planned)
}
