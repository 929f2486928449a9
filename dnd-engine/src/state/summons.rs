//! Summoned creatures (Conjure Animals' beasts, Animate Dead's undead): monsters on the party's
//! side, made by [`Change::Summoned`](super::Change::Summoned), kept while the spell's timed
//! effect on them ([`TimedKind::Summoned`](super::TimedKind::Summoned)) lasts, and gone when
//! it ends (concentration lost, the duration elapsed) or at 0 hit points: a gone summon keeps
//! its record at 0 hit points with [`Summoned::gone`] set, leaves no corpse to loot and gives
//! no XP.

use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use super::{GameState, InitiativeSlot, MonsterInstance, TimedEffect, TimedKind};

/// Whose a summoned creature is, and what its caster told it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summoned {
    /// The caster, by id.
    pub by: String,
    /// The spell that brought it.
    pub spell: String,
    /// Whether commanding it costs its caster a bonus action (Animate Dead); otherwise a
    /// word does (Conjure Animals).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bonus_action_command: bool,
    /// It cannot attack (a familiar): it takes no attack on its turns.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_attacks: bool,
    /// The foe its caster commanded it to attack on its next turn, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The spell ended or it dropped to 0 hit points: it is gone (no corpse).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gone: bool,
}

impl MonsterInstance {
    /// Whether it fights on the party's side: a summon of a character, not gone.
    pub fn is_summon(&self) -> bool {
        self.summoned.as_ref().is_some_and(|s| !s.gone)
    }
}

/// Applies `Summoned`: the creature joins the world where its caster is (refused for an id
/// in use, a caster who is not a living character, or a creature marked hostile) and, in a
/// fight, the order at `initiative` (after those with the same total; the current turn stays
/// whose it is).
pub(super) fn summoned(
    state: &mut GameState,
    monster: &MonsterInstance,
    initiative: Option<i32>,
    speed: u32,
) -> Result<(), ChangeError> {
    let Some(by) = monster.summoned.as_ref() else {
        return Err(ChangeError::Invalid(format!(
            "{} is not a summon: it needs its caster",
            monster.id
        )));
    };
    if state.character(&by.by).is_none_or(|c| c.dead) {
        return Err(ChangeError::Invalid(format!(
            "{:?} is not a living character: no creature is summoned for it",
            by.by
        )));
    }
    let taken = state.monster(&monster.id).is_some() || state.character(&monster.id).is_some();
    if taken || monster.hostile || !monster.is_alive() {
        return Err(ChangeError::Invalid(format!(
            "{} cannot be summoned: its id is in use, it is hostile, or it has no hit points",
            monster.id
        )));
    }
    if let (Some(encounter), Some(total)) = (state.encounter.as_mut(), initiative) {
        let at = encounter
            .order
            .iter()
            .position(|s| s.initiative < total)
            .unwrap_or(encounter.order.len());
        encounter.order.insert(
            at,
            InitiativeSlot {
                id: monster.id.clone(),
                initiative: total,
                speed,
            },
        );
        if at <= encounter.turn {
            encounter.turn += 1;
        }
    }
    std::sync::Arc::make_mut(&mut state.monsters).push(monster.clone());
    Ok(())
}

/// Applies `SummonCommanded`: a summon of `by` is told which foe to attack on its next turn.
pub(super) fn commanded(
    state: &mut GameState,
    monster: &str,
    target: Option<&str>,
) -> Result<(), ChangeError> {
    let m = super::lookup::monster_mut(state, monster)?;
    let Some(s) = m.summoned.as_mut().filter(|s| !s.gone) else {
        return Err(ChangeError::Invalid(format!(
            "{monster} is not a summoned creature"
        )));
    };
    s.command = target.map(str::to_owned);
    Ok(())
}

/// After a timed effect ended: when it held a summon ([`TimedKind::Summoned`]), the creature
/// is gone.
pub(super) fn spell_ended(state: &mut GameState, effect: &TimedEffect) {
    if matches!(effect.kind, TimedKind::Summoned)
        && let Ok(m) = super::lookup::monster_mut(state, &effect.target)
    {
        vanish(m);
    }
}

/// After the party went from `from` to `to`: the summons with it go along.
pub(super) fn party_moved(state: &mut GameState, from: &str, to: &str) {
    let along = |m: &MonsterInstance| m.is_summon() && m.is_alive() && m.location == from;
    if !state.monsters.iter().any(along) {
        return;
    }
    for m in std::sync::Arc::make_mut(&mut state.monsters) {
        if along(m) {
            m.location = to.to_owned();
        }
    }
}

/// After damage: a summon at 0 hit points is gone.
pub(super) fn damaged(state: &mut GameState, target: &str) {
    let down = state
        .monster(target)
        .is_some_and(|m| m.is_summon() && !m.is_alive());
    if down && let Ok(m) = super::lookup::monster_mut(state, target) {
        vanish(m);
    }
}

fn vanish(m: &mut MonsterInstance) {
    if let Some(s) = m.summoned.as_mut() {
        s.gone = true;
        s.command = None;
        m.hp.current = 0;
    }
}
