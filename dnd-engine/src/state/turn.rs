//! How [`Change::Spent`](super::Change::Spent) applies: a combatant spends from its turn's
//! budget (the rules' arithmetic is `rules::economy`), or its reaction on any turn.
//!
//! Checked here, at the bottom, whoever builds the change: nothing spends out of turn or past
//! its budget, even a change that skipped the gate (`combat::may_act`), which checks the same
//! things first to say it in words a model can act on.

use super::GameState;
use super::change::ChangeError;
use crate::rules::{CastingTime, Spend, TurnBudget};

/// Applies one spend, or refuses and changes nothing.
pub(super) fn spend(state: &mut GameState, creature: &str, what: Spend) -> Result<(), ChangeError> {
    let Some(encounter) = state.encounter.as_ref() else {
        return Err(ChangeError::Invalid(
            "no fight is running: outside a fight nothing is spent".into(),
        ));
    };
    let Some(slot) = encounter.slot(creature) else {
        let known: Vec<&str> = encounter.order.iter().map(|s| s.id.as_str()).collect();
        return Err(ChangeError::Invalid(format!(
            "{creature:?} is not in the fight; the combatants are: {}",
            known.join(", ")
        )));
    };
    let id = slot.id.clone();
    let speed = speed_now(state, &id, slot.speed);
    let attacks = attacks_per_action(state, &id);
    let current = encounter.current().unwrap_or_default().to_owned();
    let Some(encounter) = state.encounter.as_mut() else {
        return Ok(()); // checked above
    };
    let reaction = matches!(
        what,
        Spend::Reaction
            | Spend::Spell {
                casting: CastingTime::Reaction,
                ..
            }
    );
    if reaction {
        if !encounter.has_reaction(&id) {
            return Err(ChangeError::Invalid(format!(
                "{id} has already used its reaction this round; it comes back at the start of its turn"
            )));
        }
        encounter.reactions_used.push(id);
        return Ok(());
    }
    if !current.eq_ignore_ascii_case(&id) {
        return Err(ChangeError::Invalid(format!(
            "it is {current}'s turn, not {id}'s: only a reaction is spent off-turn"
        )));
    }
    encounter
        .budget
        .spend(what, speed, attacks)
        .map_err(|e| ChangeError::Invalid(format!("{id}: {e}")))
}

/// A combatant's speed now: its speed when the fight started, after its timed effects (Ray
/// of Frost, Longstrider, Haste) and then its conditions.
pub fn speed_now(state: &GameState, id: &str, base: u32) -> u32 {
    let conditions = match state.character(id) {
        Some(c) => c.conditions,
        None => state.monster(id).map(|m| m.conditions).unwrap_or_default(),
    };
    // A druid in a beast's shape moves at the beast's speed, whatever the fight began with.
    let base = state
        .character(id)
        .and_then(super::timed_shape::shape_speed)
        .unwrap_or(base);
    let base = super::speed_with(super::timed_effects(state, id), base);
    conditions.speed(base)
}

/// How many attacks a combatant's Attack action makes: Extra Attack from a character's class
/// data at its level (`srd::Class::attacks_per_attack_action`); one for a monster (its
/// Multiattack is a single action of several swings), from the game's SRD.
pub fn attacks_per_action(state: &GameState, id: &str) -> u8 {
    state.character(id).map_or(1, |c| {
        // A druid in a beast's shape attacks as the beast does (its Multiattack).
        super::timed_shape::shape_attacks_per_action(c)
            .or_else(|| super::pact::pact_weapon_attacks(c)) // Thirsting Blade
            .unwrap_or_else(|| {
                state
                    .srd()
                    .class(&c.class)
                    .map_or(1, |class| class.attacks_per_attack_action(c.level))
            })
    })
}

/// Applies [`Change::Moved`](super::Change::Moved): a combatant of the running fight stands at
/// `to`, a point inside the party's room (its areas draw the room).
pub(super) fn place(
    state: &mut GameState,
    creature: &str,
    to: super::Position,
) -> Result<(), ChangeError> {
    let areas = state
        .party_location()
        .map(|l| l.areas.clone())
        .unwrap_or_default();
    let Some(encounter) = state.encounter.as_mut() else {
        return Err(ChangeError::Invalid(
            "no fight is running: positions are kept only in a fight".into(),
        ));
    };
    let Some(slot) = encounter.slot(creature) else {
        return Err(ChangeError::Invalid(format!(
            "{creature:?} is not in the fight"
        )));
    };
    if areas.is_empty() {
        return Err(ChangeError::Invalid(
            "this room has no areas: everyone in it stands within 5 ft of everyone else".into(),
        ));
    }
    if !super::inside(&areas, to) {
        return Err(ChangeError::Invalid(format!(
            "({}, {}, {}) is outside the room",
            to.x, to.y, to.z
        )));
    }
    let id = slot.id.clone();
    encounter.positions.insert(id, to);
    Ok(())
}

/// What the creature whose turn it is has left, in words ("a bonus action and 30 ft of
/// movement"), for the snapshot and for errors.
pub fn budget_left(state: &GameState) -> Option<String> {
    let encounter = state.encounter.as_ref()?;
    let id = encounter.current()?;
    let speed = speed_now(state, id, encounter.slot(id)?.speed);
    Some(left_text(
        Some(&encounter.budget),
        speed,
        encounter.has_reaction(id),
    ))
}

/// What is left, in words: "a bonus action, 30 ft of movement and the reaction", or "nothing";
/// the reaction is counted when `reaction` is true.
pub fn left_text(budget: Option<&TurnBudget>, speed: u32, reaction: bool) -> String {
    let mut left = Vec::new();
    if let Some(b) = budget {
        if !b.action_used {
            left.push("the action".to_owned());
        }
        if b.attacks_left > 0 {
            left.push(format!(
                "{} more attack{} of the Attack action",
                b.attacks_left,
                if b.attacks_left == 1 { "" } else { "s" }
            ));
        }
        if !b.bonus_action_used {
            left.push("a bonus action".to_owned());
        }
        let feet = b.movement_left(speed);
        if feet > 0 {
            left.push(format!("{feet} ft of movement"));
        }
    }
    if reaction {
        left.push("the reaction".to_owned());
    }
    match left.as_slice() {
        [] => "nothing".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
