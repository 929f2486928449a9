//! The timed effects the cleric's and paladin's features leave (`TimedKind::Turned`,
//! `SmiteReady`, `BlessedWeapon`), read here: who turned a creature, the smite a paladin has
//! readied, a blessed weapon's bonus. The rules that start them are `character::divine`'s.

use super::timed::{TimedEffect, TimedKind};

/// The Turn Undead (or Turn the Unholy) on a creature, among its timed effects: its `source`
/// is who turned it.
pub fn turned_by(effects: &[TimedEffect]) -> Option<&TimedEffect> {
    effects.iter().find(|e| e.kind == TimedKind::Turned)
}

/// The Divine Smite readied by a creature, among its timed effects, with the slot's level.
pub fn smite_ready(effects: &[TimedEffect]) -> Option<(&TimedEffect, u8)> {
    effects.iter().find_map(|e| match e.kind {
        TimedKind::SmiteReady { slot } => Some((e, slot)),
        _ => None,
    })
}

/// The bonus to attack rolls a blessed weapon (Sacred Weapon) gives to attacks with `weapon`
/// (by name, as on the sheet), or 0.
pub fn blessed_weapon_bonus(effects: &[TimedEffect], weapon: &str) -> i32 {
    effects
        .iter()
        .filter_map(|e| match &e.kind {
            TimedKind::BlessedWeapon { weapon: w, bonus } if w.eq_ignore_ascii_case(weapon) => {
                Some(*bonus)
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The effects of this file in words, for the snapshot.
pub(super) fn describe(kind: &TimedKind) -> String {
    match kind {
        TimedKind::Turned => {
            "turned: it flees its source, takes no reactions and only Dashes (or Dodges where it cannot get away), until it takes damage".to_owned()
        }
        TimedKind::SmiteReady { slot } => format!(
            "a Divine Smite readied: its next melee weapon hit spends a level-{slot} slot for radiant dice"
        ),
        TimedKind::BlessedWeapon { weapon, bonus } => {
            format!("{weapon} blessed: {bonus:+} to attack rolls with it, and it counts as magical")
        }
        _ => String::new(),
    }
}
