//! The lasting effects of the standard actions in a fight (Dodge, Help, Hide, Ready, a grapple),
//! kept on the [`Encounter`](super::Encounter) until they end, and how
//! [`Change::EffectStarted`](super::Change::EffectStarted) and
//! [`Change::EffectEnded`](super::Change::EffectEnded) apply.
//!
//! Each effect ends by the rules, here, whoever builds the changes:
//!
//! - at the start of a turn ([`turn_started`]): a Dodge and a readied action at the start of
//!   their creature's next turn, a Help at the start of the helper's next turn;
//! - when their creature can no longer use them ([`prune`], after damage and conditions gained or lost): no
//!   effect stays on the dead, the dying or the incapacitated; a Dodge ends at speed 0; a
//!   grapple ends when the grappler is incapacitated (the target is no longer grappled);
//! - with the fight, since they live in it;
//! - when used (a Help by the roll it helps, Hidden by an attack or being found): the rules in
//!   `combat` end those with `EffectEnded`.

use serde::{Deserialize, Serialize};

use super::GameState;
use super::change::ChangeError;
use crate::rules::Condition;

/// One lasting effect on a combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// Who has it, by id: the one dodging, helped, hidden, readied or grappling.
    pub creature: String,
    /// The round it began (an effect that ends at the start of a turn began before it).
    pub round: u32,
    /// What it is.
    pub kind: EffectKind,
}

/// What a lasting effect does; the rules that read it are `combat::effects`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum EffectKind {
    /// The Dodge action: attacks against it have disadvantage if it can see the attacker, and
    /// it has advantage on Dexterity saves, until the start of its next turn.
    Dodging,
    /// The Help action: advantage on its next ability check, or on its next attack roll
    /// against `against`, before the start of the helper's next turn.
    Helped {
        /// Who helps.
        helper: String,
        /// The foe the help is against (an attack), or `None` (an ability check).
        against: Option<String>,
    },
    /// The Hide action succeeded: attacks by it have advantage, attacks against it
    /// disadvantage, until it attacks or is found.
    Hidden {
        /// Its Stealth total, which a searching creature's Perception must reach to find it.
        stealth: i32,
    },
    /// The Ready action: when the trigger happens, it attacks with its reaction. Until the
    /// start of its next turn.
    Readied {
        /// What it waits for, in the model's words.
        trigger: String,
        /// The attack it readied (a weapon or action by name), or the first on its sheet.
        attack: Option<String>,
        /// Whom it will attack, or whoever triggers it.
        target: Option<String>,
    },
    /// It grapples `target` (which has the grappled condition) until the target escapes or
    /// the grappler is incapacitated.
    Grappling {
        /// The one held.
        target: String,
    },
    /// Caught unaware as the fight began: no movement, action or bonus action on its first
    /// turn, and no reaction until that turn ends (when this ends).
    Surprised,
    /// It dealt Sneak Attack in the turn at `turn` (the index into the order) of the effect's
    /// round: once a turn, whoever's turn it is. A later one replaces it; the fight's end
    /// clears it (`character::rogue`, `tools::feature_rogue`).
    SneakAttacked {
        /// The turn's index into the order, in the effect's round.
        turn: usize,
    },
}

impl EffectKind {
    /// Whose turn's start ends it, if a turn's start does: a Dodge and a readied action its
    /// own creature's, a Help the helper's.
    pub fn ends_at_turn_of<'a>(&'a self, creature: &'a str) -> Option<&'a str> {
        match self {
            EffectKind::Dodging | EffectKind::Readied { .. } => Some(creature),
            EffectKind::Helped { helper, .. } => Some(helper),
            EffectKind::Hidden { .. }
            | EffectKind::Grappling { .. }
            | EffectKind::Surprised
            | EffectKind::SneakAttacked { .. } => None,
        }
    }

    /// Every other creature it names (the helper and the foe, the grappled target).
    fn others(&self) -> Vec<&str> {
        match self {
            EffectKind::Helped { helper, against } => std::iter::once(helper.as_str())
                .chain(against.as_deref())
                .collect(),
            EffectKind::Readied { target, .. } => target.as_deref().into_iter().collect(),
            EffectKind::Grappling { target } => vec![target],
            EffectKind::Dodging
            | EffectKind::Hidden { .. }
            | EffectKind::Surprised
            | EffectKind::SneakAttacked { .. } => Vec::new(),
        }
    }

    /// Whether a creature keeps only one of these at a time (a new one replaces the old).
    fn one_at_a_time(&self, other: &EffectKind) -> bool {
        matches!(
            (self, other),
            (EffectKind::Dodging, EffectKind::Dodging)
                | (EffectKind::Hidden { .. }, EffectKind::Hidden { .. })
                | (EffectKind::Readied { .. }, EffectKind::Readied { .. })
                | (
                    EffectKind::SneakAttacked { .. },
                    EffectKind::SneakAttacked { .. }
                )
        )
    }
}

/// Whether a creature is alive, above 0 HP and not incapacitated: the only ones an effect
/// stays on.
pub fn able(state: &GameState, id: &str) -> bool {
    if let Some(c) = state.character(id) {
        return !c.dead && c.hp.current > 0 && c.conditions.can_act();
    }
    state
        .monster(id)
        .is_some_and(|m| m.is_alive() && m.conditions.can_act())
}

/// Applies `EffectStarted`: in a fight, this round, on a combatant able to act, naming only
/// living combatants. A Dodge, Hidden or a readied action replaces the creature's earlier one.
pub(super) fn start(state: &mut GameState, effect: &Effect) -> Result<(), ChangeError> {
    let Some(encounter) = state.encounter.as_ref() else {
        return Err(ChangeError::Invalid(
            "no fight is running: the effects of the standard actions last only in a fight".into(),
        ));
    };
    if effect.round != encounter.round {
        return Err(ChangeError::Invalid(format!(
            "an effect begins in the current round ({}), not round {}",
            encounter.round, effect.round
        )));
    }
    for id in std::iter::once(effect.creature.as_str()).chain(effect.kind.others()) {
        if encounter.slot(id).is_none() {
            let known: Vec<&str> = encounter.order.iter().map(|s| s.id.as_str()).collect();
            return Err(ChangeError::Invalid(format!(
                "{id:?} is not in the fight; the combatants are: {}",
                known.join(", ")
            )));
        }
    }
    if !able(state, &effect.creature) {
        return Err(ChangeError::Invalid(format!(
            "{} cannot act (dead, at 0 HP or incapacitated): no effect starts on it",
            effect.creature
        )));
    }
    for id in effect.kind.others() {
        let alive = state.character(id).is_some_and(|c| !c.dead)
            || state.monster(id).is_some_and(|m| m.is_alive());
        if !alive || id.eq_ignore_ascii_case(&effect.creature) {
            return Err(ChangeError::Invalid(format!(
                "{id} is dead or is {} itself: an effect names living others",
                effect.creature
            )));
        }
    }
    let Some(encounter) = state.encounter.as_mut() else {
        return Ok(()); // checked above
    };
    encounter.effects.retain(|e| {
        !(e.creature.eq_ignore_ascii_case(&effect.creature) && e.kind.one_at_a_time(&effect.kind))
    });
    if !encounter.effects.contains(effect) {
        encounter.effects.push(effect.clone());
    }
    Ok(())
}

/// Applies `EffectEnded`: the effect must be there.
pub(super) fn end(state: &mut GameState, effect: &Effect) -> Result<(), ChangeError> {
    let Some(encounter) = state.encounter.as_mut() else {
        return Err(ChangeError::Invalid("no fight is running".into()));
    };
    let Some(i) = encounter.effects.iter().position(|e| e == effect) else {
        return Err(ChangeError::Invalid(format!(
            "{} has no such effect to end ({:?})",
            effect.creature, effect.kind
        )));
    };
    encounter.effects.remove(i);
    Ok(())
}

/// At the end of `encounter`'s current turn: surprise wears off the creature whose turn it was.
pub(super) fn turn_ended(encounter: &mut super::Encounter) {
    let Some(now) = encounter.current().map(str::to_owned) else {
        return;
    };
    encounter
        .effects
        .retain(|e| !(e.kind == EffectKind::Surprised && e.creature.eq_ignore_ascii_case(&now)));
}

/// Whether `creature` is still surprised (see [`EffectKind::Surprised`]).
pub fn is_surprised(state: &GameState, creature: &str) -> bool {
    state.encounter.as_ref().is_some_and(|e| {
        e.effects
            .iter()
            .any(|x| x.kind == EffectKind::Surprised && x.creature.eq_ignore_ascii_case(creature))
    })
}

/// At the start of `encounter`'s current turn: the effects that end then are gone.
pub(super) fn turn_started(encounter: &mut super::Encounter) {
    if encounter.effects.is_empty() {
        return;
    }
    let now = encounter.current().unwrap_or_default().to_owned();
    encounter.effects.retain(|e| {
        e.kind
            .ends_at_turn_of(&e.creature)
            .is_none_or(|who| !who.eq_ignore_ascii_case(&now))
    });
}

/// After damage or a condition: a character (or monster) at 0 hit points, dead or incapacitated loses its
/// concentration (the SRD's rule; damage it survives calls for a save, which the tools roll).
pub(super) fn drop_lost_concentration(state: &mut GameState) {
    let lost = |c: &super::Character| {
        c.concentration.is_some() && (c.dead || c.hp.current == 0 || !c.conditions.can_act())
    };
    let lost_monster = |m: &super::MonsterInstance| {
        m.concentration.is_some() && (m.hp.current == 0 || !m.conditions.can_act())
    };
    if state.characters.iter().any(lost) {
        for c in std::sync::Arc::make_mut(&mut state.characters) {
            if lost(c) {
                c.concentration = None;
            }
        }
    }
    // A monster casts as a character does, and loses its concentration the same way.
    if state.monsters.iter().any(lost_monster) {
        for m in std::sync::Arc::make_mut(&mut state.monsters) {
            if lost_monster(m) {
                m.concentration = None;
            }
        }
    }
}

/// After damage or a condition gained or lost: effects on creatures that can no longer use
/// them end (see the module docs); a grapple that ends this way frees its target, and one
/// whose target is no longer grappled ends.
pub(super) fn prune(state: &mut GameState) {
    let Some(encounter) = state.encounter.as_ref() else {
        return;
    };
    if encounter.effects.is_empty() {
        return;
    }
    let living = |id: &str| {
        state.character(id).is_some_and(|c| !c.dead)
            || state.monster(id).is_some_and(|m| m.is_alive())
    };
    let speed_zero = |id: &str| {
        let conditions = state
            .character(id)
            .map(|c| c.conditions)
            .or_else(|| state.monster(id).map(|m| m.conditions))
            .unwrap_or_default();
        conditions.speed(30) == 0
    };
    let grappled = |id: &str| {
        state
            .character(id)
            .map(|c| c.conditions)
            .or_else(|| state.monster(id).map(|m| m.conditions))
            .is_some_and(|c| c.has(Condition::Grappled))
    };
    let keep: Vec<bool> = encounter
        .effects
        .iter()
        .map(|e| {
            able(state, &e.creature)
                && e.kind.others().iter().all(|id| living(id))
                && !(e.kind == EffectKind::Dodging && speed_zero(&e.creature))
                && !matches!(&e.kind, EffectKind::Grappling { target } if !grappled(target))
        })
        .collect();
    if keep.iter().all(|k| *k) {
        return;
    }
    let mut freed = Vec::new();
    if let Some(encounter) = state.encounter.as_mut() {
        let mut k = keep.iter();
        encounter.effects.retain(|e| {
            let kept = *k.next().unwrap_or(&true);
            if !kept && let EffectKind::Grappling { target } = &e.kind {
                freed.push(target.clone());
            }
            kept
        });
        let still_held = |t: &str| {
            encounter.effects.iter().any(
                |e| matches!(&e.kind, EffectKind::Grappling { target } if target.eq_ignore_ascii_case(t)),
            )
        };
        freed.retain(|t| !still_held(t));
    }
    for target in freed {
        let character = std::sync::Arc::make_mut(&mut state.characters)
            .iter_mut()
            .find(|c| c.id.eq_ignore_ascii_case(&target));
        if let Some(c) = character {
            c.conditions.remove(Condition::Grappled);
        } else if let Some(m) = std::sync::Arc::make_mut(&mut state.monsters)
            .iter_mut()
            .find(|m| m.id.eq_ignore_ascii_case(&target))
        {
            m.conditions.remove(Condition::Grappled);
        }
    }
}
