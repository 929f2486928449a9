//! What the lasting effects of the standard actions (`state::Effect`) and spells' timed
//! advantage (`effects::attack_advantage`, `effects::roll_advantage`) do to a roll: the ONE
//! place an attack, a check or a save asks for them. Each answer is the advantage sources the
//! effects give, with reasons, and the changes that end the effects the roll uses up (a Help is
//! spent by the roll it helps; a hidden attacker is revealed by its attack).
//!
//! Conditions are not here (they are `rules::conditions`): the tools add both.

use crate::rules::{Ability, AdvantageSources, Condition};
use crate::state::{Change, Effect, EffectKind, GameState};

/// The advantage the effects give one roll, and the changes that end what it uses up. Commit
/// `ends` with the roll's own changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Situation {
    /// Sources of advantage and disadvantage, with reasons.
    pub sources: AdvantageSources,
    /// `EffectEnded` for each effect the roll uses up.
    pub ends: Vec<Change>,
}

impl Situation {
    fn end(&mut self, effect: &Effect) {
        self.ends.push(Change::EffectEnded {
            effect: effect.clone(),
        });
    }
}

/// The effects on an attack roll by `attacker` against `target` (ids):
///
/// - the attacker hidden: advantage, and the attack reveals it;
/// - the target hidden: disadvantage;
/// - the target dodging, able to act, not at speed 0, and able to see the attacker (not
///   blinded, the attacker neither invisible nor hidden): disadvantage;
/// - the attacker helped against this target: advantage, and the help is spent;
/// - spells' timed advantage on the attacker's rolls or on attacks against the target
///   (`effects::attack_advantage`), a next-roll-only one spent.
pub fn attack_situation(state: &GameState, attacker: &str, target: &str) -> Situation {
    // Spells' advantage and disadvantage (Faerie Fire, Blur, Vicious Mockery), in or out of
    // a fight; a `next_only` one is spent by this roll.
    let lasting = crate::effects::attack_advantage(state, attacker, target);
    let mut s = Situation {
        ends: lasting.ends(),
        sources: lasting.sources,
    };
    // Darkness (a room's light against darkvision) and Lucky (`character::race`).
    s.sources.extend(crate::character::race::attack_in_the_dark(
        state, attacker, target,
    ));
    s.sources.lucky = crate::character::race::lucky(state, attacker);
    // The attacker's own attack ends what lasts until it acts (Invisibility): this roll still
    // counts it.
    s.ends.extend(crate::effects::acting_ends(state, attacker));
    // ... and its Sanctuary.
    s.ends
        .extend(crate::effects::sanctuary_ends(state, attacker));
    let Some(encounter) = state.encounter.as_ref().filter(|e| !e.effects.is_empty()) else {
        return s;
    };
    let mut attacker_unseen = conditions(state, attacker).has(Condition::Invisible);
    for e in encounter.effects_of(attacker) {
        match &e.kind {
            EffectKind::Hidden { .. } => {
                s.sources
                    .advantage("attacker is hidden (the attack reveals it)");
                s.end(e);
                attacker_unseen = true;
            }
            EffectKind::Helped {
                helper,
                against: Some(foe),
            } if foe.eq_ignore_ascii_case(target) && !s.ends.iter().any(is_help) => {
                s.sources
                    .advantage(format!("helped by {}", state.name_of(helper)));
                s.end(e);
            }
            _ => {}
        }
    }
    for e in encounter.effects_of(target) {
        match &e.kind {
            EffectKind::Hidden { .. } => s.sources.disadvantage("target is hidden"),
            EffectKind::Dodging => {
                let c = conditions(state, target);
                let sees = !c.has(Condition::Blinded) && !attacker_unseen;
                if sees && crate::state::able(state, target) && c.speed(30) > 0 {
                    s.sources.disadvantage("target is dodging");
                }
            }
            _ => {}
        }
    }
    s
}

/// The effects on an ability check by `creature`: a Help for a check gives advantage and is
/// spent; spells' advantage on checks counts (those on one ability's checks only through
/// [`ability_check_situation`]).
pub fn check_situation(state: &GameState, creature: &str) -> Situation {
    ability_check_situation(state, creature, None)
}

/// [`check_situation`] for a check of `ability` (a skill's): spells' advantage on that
/// ability's checks counts too (Enhance Ability's bear's endurance on Constitution).
pub fn ability_check_situation(
    state: &GameState,
    creature: &str,
    ability: Option<Ability>,
) -> Situation {
    let lasting = crate::effects::roll_advantage(state, creature, ability, true);
    let mut s = Situation {
        ends: lasting.ends(),
        sources: lasting.sources,
    };
    s.sources.lucky = crate::character::race::lucky(state, creature); // Lucky (halflings)
    let Some(encounter) = state.encounter.as_ref().filter(|e| !e.effects.is_empty()) else {
        return s;
    };
    if let Some(e) = encounter
        .effects_of(creature)
        .find(|e| matches!(e.kind, EffectKind::Helped { against: None, .. }))
    {
        if let EffectKind::Helped { helper, .. } = &e.kind {
            s.sources
                .advantage(format!("helped by {}", state.name_of(helper)));
        }
        s.end(e);
    }
    s
}

/// The effects on a saving throw: a creature dodging (and able to act, not at speed 0) has
/// advantage on Dexterity saves, and spells give theirs (Haste, Beacon of Hope). Nothing is used
/// up.
pub fn save_situation(state: &GameState, creature: &str, ability: Ability) -> AdvantageSources {
    // Spells' advantage on saves (Haste on Dexterity, Beacon of Hope on Wisdom); a save spends
    // none of them (no spell here gives one for the next save only).
    let mut sources = crate::effects::roll_advantage(state, creature, Some(ability), false).sources;
    sources.lucky = crate::character::race::lucky(state, creature);
    // Danger Sense reads the class data: the game's SRD.
    if crate::character::barbarian::danger_sense(state.srd(), state, creature, ability) {
        sources.advantage("Danger Sense");
    }
    let Some(encounter) = state.encounter.as_ref().filter(|e| !e.effects.is_empty()) else {
        return sources;
    };
    let dodging = encounter
        .effects_of(creature)
        .any(|e| e.kind == EffectKind::Dodging);
    if ability == Ability::Dexterity
        && dodging
        && crate::state::able(state, creature)
        && conditions(state, creature).speed(30) > 0
    {
        sources.advantage("dodging");
    }
    sources
}

/// Whether the creature is hidden now.
pub fn is_hidden(state: &GameState, creature: &str) -> bool {
    state.encounter.as_ref().is_some_and(|e| {
        e.effects_of(creature)
            .any(|e| matches!(e.kind, EffectKind::Hidden { .. }))
    })
}

fn is_help(change: &Change) -> bool {
    matches!(change, Change::EffectEnded { effect } if matches!(effect.kind, EffectKind::Helped { .. }))
}

fn conditions(state: &GameState, id: &str) -> crate::rules::ConditionSet {
    state
        .character(id)
        .map(|c| c.conditions)
        .or_else(|| state.monster(id).map(|m| m.conditions))
        .unwrap_or_default()
}
