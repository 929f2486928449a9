//! Wild Shape on the sheet: a timed effect ([`TimedKind::WildShape`]) that swaps the druid's
//! body for a beast's while it lasts. Like a raised maximum (`timed_hp.rs`), it changes the
//! creature's own numbers rather than being read later: as it starts, the sheet's hit points,
//! AC, speed, Strength, Dexterity, Constitution, attacks and skills become the beast's and the
//! druid's are kept in the effect; as it ends, by any way (its hours, the druid's bonus action,
//! a long rest, the beast dropping to 0 hit points), they come back. So every roll, every
//! attack and every point of damage reads the sheet as it is, with no check of its own.
//!
//! The beast's hit points take damage first: when they reach 0 the druid reverts and the
//! damage left over carries to its own hit points ([`beast_takes`], called as `Change::Damage`
//! applies). The beast's form is built by `character::wild_shape` from the SRD's stat block.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::timed::{TimedEffect, TimedKind};
use super::{ChangeError, GameState, Target};
use crate::rules::{HitPoints, Proficiency, Skill};

/// A body's numbers that Wild Shape swaps: the beast's while shaped, the druid's kept aside.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeForm {
    /// Hit points.
    pub hp: HitPoints,
    /// Armor Class.
    pub armor_class: i32,
    /// Walking speed in feet.
    pub speed: u32,
    /// Strength, Dexterity and Constitution scores (the mind's scores stay the druid's).
    pub physical: [i32; 3],
    /// Attacks.
    pub attacks: Arc<Vec<super::CharacterAttack>>,
    /// Skill proficiencies.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skills: BTreeMap<Skill, Proficiency>,
    /// Attacks one Attack action makes in this body (a beast's Multiattack; the druid's 1).
    pub attacks_per_action: u8,
}

/// What [`TimedKind::WildShape`] keeps: the beast taken, its body, and (once started) the
/// druid's own body to give back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeKept {
    /// The beast's SRD name ("Wolf").
    pub beast: String,
    /// The beast's body, as it starts.
    pub form: ShapeForm,
    /// The druid's own body, kept while shaped; filled as the effect starts (a change that
    /// brings one is refused, so no one writes the body they return to).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<ShapeForm>,
}

fn shape_of(effect: &TimedEffect) -> Option<&ShapeKept> {
    match &effect.kind {
        TimedKind::WildShape(kept) => Some(kept),
        _ => None,
    }
}

/// The Wild Shape effect on a character, if it is in a beast's shape.
pub fn wild_shape_of(c: &super::Character) -> Option<&TimedEffect> {
    c.timed_effects.iter().find(|e| shape_of(e).is_some())
}

/// The beast a character is shaped into, by name.
pub fn beast_of(c: &super::Character) -> Option<&str> {
    wild_shape_of(c)
        .and_then(shape_of)
        .map(|k| k.beast.as_str())
}

/// The body a character's sheet shows now.
fn current_form(srd: &crate::srd::Srd, c: &super::Character) -> ShapeForm {
    ShapeForm {
        hp: c.hp,
        armor_class: c.armor_class,
        speed: c.speed,
        physical: [
            c.abilities.strength,
            c.abilities.dexterity,
            c.abilities.constitution,
        ],
        attacks: c.attacks.clone(),
        skills: c.skills.clone(),
        attacks_per_action: srd
            .class(&c.class)
            .map_or(1, |class| class.attacks_per_attack_action(c.level)),
    }
}

fn put_form(c: &mut super::Character, form: &ShapeForm) {
    c.hp = form.hp;
    c.armor_class = form.armor_class;
    c.speed = form.speed;
    [
        c.abilities.strength,
        c.abilities.dexterity,
        c.abilities.constitution,
    ] = form.physical;
    c.attacks = form.attacks.clone();
    c.skills = form.skills.clone();
}

/// Before `effect` starts: a Wild Shape only on a character not already shaped, from itself,
/// bringing no body to return to.
pub(super) fn before_start(state: &GameState, effect: &TimedEffect) -> Result<(), ChangeError> {
    let Some(kept) = shape_of(effect) else {
        return Ok(());
    };
    let c = super::lookup::character_ref(state, &effect.target)?;
    if !effect.source.eq_ignore_ascii_case(&c.id) {
        return Err(ChangeError::Invalid(format!(
            "Wild Shape is a druid's own change: {} cannot shape {}",
            effect.source, c.name
        )));
    }
    if let Some(beast) = beast_of(c) {
        return Err(ChangeError::Invalid(format!(
            "{} is already in the shape of a {beast}: revert first (a bonus action)",
            c.name
        )));
    }
    if kept.own.is_some() || kept.form.hp.current == 0 {
        return Err(ChangeError::Invalid(
            "a Wild Shape starts with the beast's hit points and no body kept: the druid's own is kept as it starts".into(),
        ));
    }
    Ok(())
}

/// As `effect` starts (already on the list): the druid's body is kept in it and the beast's
/// takes its place on the sheet.
pub(super) fn started(state: &mut GameState, effect: &TimedEffect) -> Result<(), ChangeError> {
    if shape_of(effect).is_none() {
        return Ok(());
    }
    let srd = state.srd.clone();
    let c = super::lookup::character_mut(state, &effect.target)?;
    let own = current_form(&srd, c);
    let Some(kept) = c
        .timed_effects
        .iter_mut()
        .rev()
        .find_map(|e| match &mut e.kind {
            TimedKind::WildShape(kept) => Some(kept),
            _ => None,
        })
    else {
        return Ok(());
    };
    kept.own = Some(own);
    let form = kept.form.clone();
    put_form(c, &form);
    Ok(())
}

/// As `effect` ends, whatever ends it: the druid's own body comes back.
pub(super) fn ended(state: &mut GameState, effect: &TimedEffect) {
    let Some(own) = shape_of(effect).and_then(|k| k.own.as_ref()) else {
        return;
    };
    if let Ok(c) = super::lookup::character_mut(state, &effect.target) {
        put_form(c, own);
    }
}

/// Ends a character's Wild Shape, if it has one, giving its body back (a long rest, the beast
/// at 0 hit points). Its conditions stay: they are the druid's.
pub(super) fn revert(state: &mut GameState, id: &str) {
    let Some(effect) = state.character(id).and_then(wild_shape_of).cloned() else {
        return;
    };
    if let Ok(c) = super::lookup::character_mut(state, id) {
        c.timed_effects.retain(|e| *e != effect);
    }
    ended(state, &effect);
}

/// As `Change::Damage` of `amount` applies to `target`: a character in a beast's shape takes
/// it on the beast's hit points (temporary ones first). If they reach 0 it reverts, and what
/// the beast could not take is returned, to fall on the druid's own hit points; otherwise 0.
/// Anyone else takes the whole `amount`.
pub(super) fn beast_takes(
    state: &mut GameState,
    target: &Target,
    amount: u32,
) -> Result<u32, ChangeError> {
    let Target::Character(id) = target else {
        return Ok(amount);
    };
    let Some(c) = state.character(id).filter(|c| beast_of(c).is_some()) else {
        return Ok(amount);
    };
    let id = c.id.clone();
    let c = super::lookup::character_mut(state, &id)?;
    let from_temporary = amount.min(c.hp.temporary);
    c.hp.temporary -= from_temporary;
    let rest = amount - from_temporary;
    if rest < c.hp.current {
        c.hp.current -= rest;
        return Ok(0);
    }
    let overflow = rest - c.hp.current;
    c.hp.current = 0;
    revert(state, &id);
    Ok(overflow)
}

/// The walking speed of a character in a beast's shape, or `None` in its own body.
pub fn shape_speed(c: &super::Character) -> Option<u32> {
    wild_shape_of(c).and_then(shape_of).map(|k| k.form.speed)
}

/// Attacks one Attack action makes for a character in a beast's shape (its Multiattack), or
/// `None` in its own body.
pub fn shape_attacks_per_action(c: &super::Character) -> Option<u8> {
    wild_shape_of(c)
        .and_then(shape_of)
        .map(|k| k.form.attacks_per_action.max(1))
}
