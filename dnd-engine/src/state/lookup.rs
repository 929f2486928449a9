//! Finding what a [`Change`] names, to read or to change: a character, a monster, a location
//! and its features and exits, an NPC. A miss is the typed error that lists the valid ids, so
//! a change naming nothing known says what it could have named.
//!
//! [`Change`]: super::Change

use std::sync::Arc;

use super::GameState;
use super::change::{ChangeError, Target};
use crate::rules::{AtZero, DeathSaves};

pub(super) fn character_ref<'a>(
    state: &'a GameState,
    id: &str,
) -> Result<&'a super::Character, ChangeError> {
    state
        .character(id)
        .ok_or_else(|| ChangeError::UnknownCharacter {
            id: id.into(),
            known: state.character_ids(),
        })
}

pub(super) fn character_mut<'a>(
    state: &'a mut GameState,
    id: &str,
) -> Result<&'a mut super::Character, ChangeError> {
    // Find first, copy on write second, and list the valid ids only on a miss: this runs for
    // most changes of every turn.
    let index = state
        .characters
        .iter()
        .position(|c| c.id.eq_ignore_ascii_case(id) || c.name.eq_ignore_ascii_case(id));
    match index {
        Some(i) => Ok(&mut Arc::make_mut(&mut state.characters)[i]),
        None => Err(ChangeError::UnknownCharacter {
            id: id.into(),
            known: state.character_ids(),
        }),
    }
}

pub(super) fn monster_mut<'a>(
    state: &'a mut GameState,
    id: &str,
) -> Result<&'a mut super::MonsterInstance, ChangeError> {
    let index = state
        .monsters
        .iter()
        .position(|m| m.id.eq_ignore_ascii_case(id));
    match index {
        Some(i) => Ok(&mut Arc::make_mut(&mut state.monsters)[i]),
        None => Err(ChangeError::UnknownMonster {
            id: id.into(),
            known: state.monsters.iter().map(|m| m.id.clone()).collect(),
        }),
    }
}

/// A creature's hit points, what 0 HP means for it, and its death saves (a character's).
pub(super) type HpParts<'a> = (
    &'a mut crate::rules::HitPoints,
    AtZero,
    Option<&'a mut DeathSaves>,
);

/// The hit points of the creature `target` names.
pub(super) fn creature_hp<'a>(
    state: &'a mut GameState,
    target: &Target,
) -> Result<HpParts<'a>, ChangeError> {
    match target {
        Target::Character(id) => {
            let c = character_mut(state, id)?;
            Ok((&mut c.hp, AtZero::DeathSaves, Some(&mut c.death_saves)))
        }
        Target::Monster(id) => Ok((&mut monster_mut(state, id)?.hp, AtZero::Dies, None)),
    }
}

/// The conditions of the creature `target` names.
pub(super) fn conditions_mut<'a>(
    state: &'a mut GameState,
    target: &Target,
) -> Result<&'a mut crate::rules::ConditionSet, ChangeError> {
    match target {
        Target::Character(id) => Ok(&mut character_mut(state, id)?.conditions),
        Target::Monster(id) => Ok(&mut monster_mut(state, id)?.conditions),
    }
}

pub(super) fn location_mut<'a>(
    state: &'a mut GameState,
    id: &str,
) -> Result<&'a mut super::Location, ChangeError> {
    match state.locations.iter().position(|l| l.id == id) {
        Some(i) => Ok(&mut Arc::make_mut(&mut state.locations)[i]),
        None => Err(ChangeError::Unknown {
            what: "location",
            id: id.into(),
            known: state.locations.iter().map(|l| l.id.clone()).collect(),
        }),
    }
}

pub(super) fn feature_mut<'a>(
    state: &'a mut GameState,
    location: &str,
    id: &str,
) -> Result<&'a mut super::Feature, ChangeError> {
    let l = location_mut(state, location)?;
    let known = l.features.iter().map(|f| f.id.clone()).collect();
    l.features
        .iter_mut()
        .find(|f| f.id == id)
        .ok_or(ChangeError::Unknown {
            what: "feature",
            id: id.into(),
            known,
        })
}

pub(super) fn exit_mut<'a>(
    state: &'a mut GameState,
    location: &str,
    direction: &str,
) -> Result<&'a mut super::Exit, ChangeError> {
    let l = location_mut(state, location)?;
    let known = l.exits.iter().map(|e| e.direction.clone()).collect();
    l.exits
        .iter_mut()
        .find(|e| e.direction.eq_ignore_ascii_case(direction))
        .ok_or(ChangeError::Unknown {
            what: "exit",
            id: direction.into(),
            known,
        })
}

pub(super) fn npc_mut<'a>(
    state: &'a mut GameState,
    id: &str,
) -> Result<&'a mut super::Npc, ChangeError> {
    let index = state
        .npcs
        .iter()
        .position(|n| n.id.eq_ignore_ascii_case(id) || n.name.eq_ignore_ascii_case(id));
    match index {
        Some(i) => Ok(&mut Arc::make_mut(&mut state.npcs)[i]),
        None => Err(ChangeError::Unknown {
            what: "NPC",
            id: id.into(),
            known: state.npcs.iter().map(|n| n.id.clone()).collect(),
        }),
    }
}
