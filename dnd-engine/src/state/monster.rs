//! What a monster carries through a fight besides its hit points and conditions: its morale
//! (fighting, fled, surrendered), its spent actions of limited use (a recharge action until its
//! d6 rolls high enough) and the creatures it holds with an action until they save (a harpy's
//! song), and a character's hit point maximum drained by a monster (the specter's Life Drain),
//! with how the changes that move them apply. The rules that decide them are
//! `combat::monster_plan`.

use serde::{Deserialize, Serialize};

use super::GameState;
use super::change::{Change, ChangeError};
use super::lookup::{character_mut, monster_mut};
use crate::rules::Condition;

/// Whether a monster still fights.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Morale {
    /// It fights.
    #[default]
    Fighting,
    /// It ran from the fight: no longer a combatant, a target or a foe that holds a fight open.
    Fled,
    /// It gave up: no longer a foe that holds a fight open, and it takes no turns. Attacking it
    /// ends the surrender (it fights again).
    Surrendered,
}

impl Morale {
    /// Whether it is [`Morale::Fighting`] (for serde's `skip_serializing_if`).
    pub fn is_fighting(&self) -> bool {
        *self == Morale::Fighting
    }

    /// "fled", "surrendered", or `None` while it fights.
    pub fn describe(self) -> Option<&'static str> {
        match self {
            Morale::Fighting => None,
            Morale::Fled => Some("fled"),
            Morale::Surrendered => Some("surrendered"),
        }
    }
}

/// A creature held by one of a monster's actions until it saves: a harpy's Luring Song keeps a
/// hero charmed (and incapacitated) while the harpy keeps singing; the hero repeats the save at
/// the end of each of its turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    /// The action ("Luring Song").
    pub action: String,
    /// Who is held, by id.
    pub target: String,
    /// The conditions the hold imposed, lifted when it ends.
    pub conditions: Vec<Condition>,
}

/// Applies the changes of this module; `Ok(false)` for any other change.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<bool, ChangeError> {
    match change {
        Change::MoraleChanged { monster, morale } => {
            let m = monster_mut(state, monster)?;
            if !m.is_alive() {
                return Err(ChangeError::Invalid(format!(
                    "{} is dead: only the living flee or surrender",
                    m.name
                )));
            }
            if m.morale == Morale::Fled {
                return Err(ChangeError::Invalid(format!(
                    "{} has fled: it is gone from the fight",
                    m.name
                )));
            }
            m.morale = *morale;
            if *morale != Morale::Fighting {
                m.holds.clear(); // who flees or gives up holds no one (the conditions end with HoldEnded)
            }
        }
        Change::ActionSpent { monster, action } => {
            let m = monster_mut(state, monster)?;
            if m.spent_actions
                .iter()
                .any(|a| a.eq_ignore_ascii_case(action))
            {
                return Err(ChangeError::Invalid(format!(
                    "{}'s {action} is spent: it comes back when it recharges",
                    m.name
                )));
            }
            m.spent_actions.push(action.clone());
        }
        Change::UseSpent { monster, pool, of } => {
            let m = monster_mut(state, monster)?;
            let key = pool.to_ascii_lowercase();
            let spent = m.uses_spent.get(&key).copied().unwrap_or(0);
            if spent >= *of {
                return Err(ChangeError::Invalid(format!(
                    "{} has used all {of} of its {pool}: they come back with rest",
                    m.name
                )));
            }
            m.uses_spent.insert(key, spent + 1);
        }
        Change::UsesRestored { monster, pool } => {
            let m = monster_mut(state, monster)?;
            if m.uses_spent.remove(&pool.to_ascii_lowercase()).is_none() {
                return Err(ChangeError::Invalid(format!(
                    "{} has spent nothing of its {pool}",
                    m.name
                )));
            }
        }
        Change::ActionRecharged { monster, action } => {
            let m = monster_mut(state, monster)?;
            let before = m.spent_actions.len();
            m.spent_actions.retain(|a| !a.eq_ignore_ascii_case(action));
            if m.spent_actions.len() == before {
                return Err(ChangeError::Invalid(format!(
                    "{}'s {action} is not spent; spent: {}",
                    m.name,
                    list(&m.spent_actions)
                )));
            }
        }
        Change::HoldStarted { monster, hold } => {
            if state.character(&hold.target).is_none() && state.monster(&hold.target).is_none() {
                return Err(ChangeError::Invalid(format!(
                    "{:?} is neither a character nor a monster",
                    hold.target
                )));
            }
            let m = monster_mut(state, monster)?;
            if !m.is_alive() || m.morale != Morale::Fighting {
                return Err(ChangeError::Invalid(format!(
                    "{} is not fighting and holds no one",
                    m.name
                )));
            }
            m.holds
                .retain(|h| !h.target.eq_ignore_ascii_case(&hold.target));
            m.holds.push(hold.clone());
        }
        Change::HoldEnded { monster, target } => {
            let m = monster_mut(state, monster)?;
            let before = m.holds.len();
            m.holds.retain(|h| !h.target.eq_ignore_ascii_case(target));
            if m.holds.len() == before {
                let held: Vec<String> = m.holds.iter().map(|h| h.target.clone()).collect();
                return Err(ChangeError::Invalid(format!(
                    "{} does not hold {target:?}; it holds: {}",
                    m.name,
                    list(&held)
                )));
            }
        }
        Change::MaxHpDrained { character, amount } => {
            let c = character_mut(state, character)?;
            if c.dead {
                return Err(ChangeError::Dead {
                    id: c.id.clone(),
                    what: "draining",
                });
            }
            if *amount == 0 {
                return Err(ChangeError::Invalid(
                    "a drain lowers the maximum by at least 1".into(),
                ));
            }
            let drained = (*amount).min(c.hp.max);
            c.hp.max -= drained;
            c.hp.current = c.hp.current.min(c.hp.max);
            c.hp_drained += drained;
            if c.hp.max == 0 {
                c.dead = true; // the SRD: a maximum lowered to 0 kills
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Monsters rest while time passes: an hour gives back their spent actions (a short rest's
/// worth, and long past any recharge), eight hours their pools of uses a day and spell slots
/// (a long rest's worth).
pub(super) fn rested(state: &mut GameState, minutes: u32) {
    let tired = |m: &super::MonsterInstance| {
        (minutes >= 60 && !m.spent_actions.is_empty())
            || (minutes >= 8 * 60 && !m.uses_spent.is_empty())
    };
    if !state.monsters.iter().any(tired) {
        return;
    }
    for m in std::sync::Arc::make_mut(&mut state.monsters) {
        if minutes >= 60 {
            m.spent_actions.clear();
        }
        if minutes >= 8 * 60 {
            m.uses_spent.clear();
        }
    }
}

/// A long rest gives back the hit point maximum a drain took (before the rest heals).
pub(super) fn restore_drained(c: &mut super::Character) {
    c.hp.max += c.hp_drained;
    c.hp_drained = 0;
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}
