//! The gate every acting tool goes through: [`may_act`]. It answers, from the state alone,
//! whether a creature may spend something now (it can act at all; in a fight, it is its turn or
//! the spend is a reaction; what it spends is left) and gives back the [`Change`] that spends
//! it. Its errors say whose turn it is and what the creature has left, so a model told "no"
//! knows what it may do instead.

use crate::rules::{CastingTime, ConditionSet, Spend, TurnBudget};
use crate::srd::Spell;
use crate::state::{Change, Encounter, GameState, left_text};

/// Why a creature may not do what was asked. Each message says what is allowed instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CombatError {
    /// No character or monster by that name.
    #[error("no character or monster named {name:?}; valid: {}", .known.join(", "))]
    UnknownCreature {
        /// The name given.
        name: String,
        /// The ids that exist.
        known: Vec<String>,
    },
    /// Dead, at 0 HP, or incapacitated: no actions, bonus actions or reactions.
    #[error("{name} cannot act now: {why}")]
    CannotAct {
        /// The creature.
        name: String,
        /// "dead", "at 0 HP (dying)", "paralyzed (no actions or reactions)".
        why: String,
    },
    /// A fight runs and the creature is not in it.
    #[error("{name} is not in the fight; the combatants are: {}", .combatants.join(", "))]
    NotInFight {
        /// The creature.
        name: String,
        /// Who is.
        combatants: Vec<String>,
    },
    /// It is someone else's turn, and the spend is not a reaction.
    #[error(
        "it is {current}'s turn (round {round}); {name}'s turn comes after {between}: act for {current}, or end {current}'s turn with next_turn"
    )]
    NotYourTurn {
        /// Who tried.
        name: String,
        /// Whose turn it is.
        current: String,
        /// The round.
        round: u32,
        /// Who acts before the creature's turn comes, in order ("Aria and the Frost Harpy").
        between: String,
    },
    /// What was asked is spent already this turn (or this round, for a reaction).
    #[error("{name} {spent}; left this turn: {left}{}", end_hint(.left))]
    Spent {
        /// Who tried.
        name: String,
        /// What is gone ("has already used the action this turn").
        spent: String,
        /// What is left ("a bonus action and 30 ft of movement").
        left: String,
    },
    /// `end_encounter` while hostile monsters of the fight still stand where the party is.
    #[error(
        "the fight is not over: {} still stand{} here; end it once every foe is down, or after the party has left the place (move_to on a hero's turn)",
        .names.join(", "),
        if .names.len() == 1 { "s" } else { "" }
    )]
    FoesStanding {
        /// Who still stands.
        names: Vec<String>,
    },
    /// A spell whose casting time does not fit in a turn.
    #[error(
        "{spell} takes {casting_time} to cast: not within a turn of a fight; cast spells of 1 action, 1 bonus action or 1 reaction, or end the fight first"
    )]
    TooLongToCast {
        /// The spell.
        spell: String,
        /// Its casting time.
        casting_time: String,
    },
}

fn end_hint(left: &str) -> &'static str {
    if left == "nothing" {
        ": end the turn with next_turn"
    } else {
        " (or end the turn with next_turn)"
    }
}

/// Whether `creature` (an id or a name) may spend `spend` now, and the change that spends it.
///
/// Outside a fight nothing is spent (`Ok(None)`), but the dead, the dying and the
/// incapacitated still cannot act. In a fight the creature must be a combatant, it must be its
/// turn unless the spend is a reaction (one a round), and what it spends must be left.
pub fn may_act(
    state: &GameState,
    creature: &str,
    spend: Spend,
) -> Result<Option<Change>, CombatError> {
    let (id, name, conditions) = identify(state, creature)?;
    if let Some(why) = cannot_act(state, &id, &conditions) {
        return Err(CombatError::CannotAct { name, why });
    }
    // Gaseous Form: no attack, no spell, whatever the budget holds.
    if matches!(spend, Spend::Attack | Spend::Spell { .. })
        && let Some(e) = crate::state::bars_attacks(crate::state::timed_effects(state, &id))
    {
        return Err(CombatError::CannotAct {
            name,
            why: format!(
                "{}: it cannot attack or cast spells (it may still move, Dash, Dodge or Disengage)",
                e.spell
            ),
        });
    }
    // Turned (Turn Undead): it flees; no attack, spell, reaction or Disengage.
    if let Some(why) = super::turned::refusal(state, &id, spend) {
        return Err(CombatError::CannotAct { name, why });
    }
    // Rage: no spells while it lasts.
    if matches!(spend, Spend::Spell { .. })
        && crate::state::raging(crate::state::timed_effects(state, &id)).is_some()
    {
        return Err(CombatError::CannotAct {
            name,
            why: "raging: no spells while the rage lasts (a minute, or until a turn passes without attacking or being hurt)".into(),
        });
    }
    if crate::state::is_surprised(state, &id) {
        return Err(CombatError::CannotAct {
            name,
            why: "surprised: no movement, action or reaction on its first turn (end it with next_turn)"
                .into(),
        });
    }
    let Some(encounter) = &state.encounter else {
        return Ok(None);
    };
    let Some(slot) = encounter.slot(&id) else {
        return Err(CombatError::NotInFight {
            name,
            combatants: encounter
                .order
                .iter()
                .map(|s| state.name_of(&s.id))
                .collect(),
        });
    };
    let speed = crate::state::speed_now(state, &id, slot.speed);
    let reaction = matches!(
        spend,
        Spend::Reaction
            | Spend::Spell {
                casting: CastingTime::Reaction,
                ..
            }
    );
    if reaction {
        if let Some(e) = crate::state::timed_effects(state, &id)
            .iter()
            .find(|e| e.kind == crate::state::TimedKind::NoReactions)
        {
            return Err(CombatError::CannotAct {
                name,
                why: format!("{}: it can take no reactions for now", e.spell),
            });
        }
        if !encounter.has_reaction(&id) {
            let own = is_current(encounter, &id).then_some(&encounter.budget);
            return Err(CombatError::Spent {
                spent: "has already used the reaction this round (it comes back at the start of its turn)".into(),
                left: left_text(own, speed, false),
                name,
            });
        }
    } else if !is_current(encounter, &id) {
        let current = encounter.current().unwrap_or_default();
        return Err(CombatError::NotYourTurn {
            current: state.name_of(current),
            round: encounter.round,
            between: between(state, encounter, &id),
            name,
        });
    } else {
        let mut budget = encounter.budget;
        let attacks = crate::state::attacks_per_action(state, &id);
        if budget.spend(spend, speed, attacks).is_err() {
            return Err(CombatError::Spent {
                spent: spent_text(&encounter.budget, spend),
                left: left_text(Some(&encounter.budget), speed, encounter.has_reaction(&id)),
                name,
            });
        }
    }
    Ok(Some(Change::Spent {
        creature: id,
        spend,
    }))
}

/// What casting `spell` spends, from its casting time. In a fight a spell that takes longer
/// than a reaction, an action or a bonus action is refused; outside one it costs nothing.
pub fn spell_spend(state: &GameState, spell: &Spell) -> Result<Spend, CombatError> {
    match CastingTime::parse(&spell.casting_time) {
        Some(casting) => Ok(Spend::Spell {
            casting,
            cantrip: spell.level == 0,
        }),
        None if state.encounter.is_some() => Err(CombatError::TooLongToCast {
            spell: spell.name.clone(),
            casting_time: spell.casting_time.clone(),
        }),
        None => Ok(Spend::Action),
    }
}

/// The creature's id, name and conditions.
fn identify(state: &GameState, who: &str) -> Result<(String, String, ConditionSet), CombatError> {
    if let Some(c) = state.character(who) {
        return Ok((c.id.clone(), c.name.clone(), c.conditions));
    }
    if let Some(m) = state.monster(who) {
        return Ok((m.id.clone(), m.name.clone(), m.conditions));
    }
    Err(CombatError::UnknownCreature {
        name: who.to_owned(),
        known: state
            .characters
            .iter()
            .map(|c| c.id.clone())
            .chain(state.monsters.iter().map(|m| m.id.clone()))
            .collect(),
    })
}

/// Why a creature cannot act at all, if it cannot: dead, at 0 HP, or an incapacitating
/// condition (the list is `Condition::incapacitates`, read through `ConditionSet::can_act`).
fn cannot_act(state: &GameState, id: &str, conditions: &ConditionSet) -> Option<String> {
    if let Some(c) = state.character(id) {
        if c.dead {
            return Some("dead".into());
        }
        if c.hp.current == 0 {
            return Some("at 0 HP (dying or stable)".into());
        }
    } else if state.monster(id).is_some_and(|m| !m.is_alive()) {
        return Some("dead".into());
    }
    if conditions.can_act() {
        return None;
    }
    let why: Vec<&str> = conditions
        .iter()
        .filter(|c| c.incapacitates())
        .map(|c| c.name())
        .collect();
    Some(if why.is_empty() {
        "exhausted beyond acting".into()
    } else {
        format!("{} (no actions or reactions)", why.join(" and "))
    })
}

fn is_current(encounter: &Encounter, id: &str) -> bool {
    encounter
        .current()
        .is_some_and(|c| c.eq_ignore_ascii_case(id))
}

/// Who acts from the current turn up to `id`'s, in order: "Aria and the Frost Harpy".
fn between(state: &GameState, encounter: &Encounter, id: &str) -> String {
    let n = encounter.order.len();
    let names: Vec<String> = (0..n)
        .map(|k| &encounter.order[(encounter.turn + k) % n].id)
        .take_while(|slot| !slot.eq_ignore_ascii_case(id))
        .map(|slot| state.name_of(slot))
        .collect();
    match names.as_slice() {
        [] => "it".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What is gone, for the error: "has already used the action this turn".
fn spent_text(budget: &TurnBudget, spend: Spend) -> String {
    match spend {
        Spend::Movement(feet) => format!("cannot move {feet} ft more this turn"),
        Spend::BonusAction
        | Spend::Spell {
            casting: CastingTime::BonusAction,
            ..
        } if !budget.bonus_action_used => {
            "has cast a spell other than a cantrip this turn: the rules allow no bonus-action spell after it".into()
        }
        Spend::Spell { cantrip, .. } if budget.spell_rule_forbids(CastingTime::Action, cantrip) && !budget.action_used => {
            "has cast a spell with the bonus action this turn: only a cantrip with a casting time of 1 action may follow".into()
        }
        Spend::BonusAction
        | Spend::BonusDash
        | Spend::BonusDisengage
        | Spend::Spell {
            casting: CastingTime::BonusAction,
            ..
        } => "has already used the bonus action this turn".into(),
        Spend::Attack if budget.action_used && budget.attacks_left == 0 => {
            "has already used the action this turn (an Attack action's attacks are all made)".into()
        }
        _ => "has already used the action this turn".into(),
    }
}
