//! Traps and breakable objects as data: what sets a trap off ([`TrapTrigger`]), how it is
//! disarmed ([`Disarm`]), an object's armor and hit points ([`FeatureObject`]), and the changes
//! only they make ([`Change::TrapNoticed`], [`Change::ObjectDamaged`]).
//!
//! What a trap does when it goes off and what breaking an object sets in motion are resolved
//! in `tools::traps`; here the state only records it, checked like any other change.
//!
//! [`Change::TrapNoticed`]: super::Change::TrapNoticed
//! [`Change::ObjectDamaged`]: super::Change::ObjectDamaged

use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use super::lookup::feature_mut;
use super::{Change, Feature, GameState, StoryEffect};
use crate::rules::{DamageType, Defenses, Skill};

/// What sets a trap off. In an adventure file: `"enter"`, `{"area": "ice-bridge"}`,
/// `{"exit": "north"}`, `"touch"`, `"open"` or `"failed_check"`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrapTrigger {
    /// The party entering the room (`move_to` into it).
    Enter,
    /// A hero moving into this area of the room in a fight (`move_in_fight`).
    Area(String),
    /// The party leaving the room by this exit (`move_to` through it): the way crosses the
    /// trap.
    Exit(String),
    /// Someone using the feature (`use_object` naming it) or taking its loot.
    #[default]
    Touch,
    /// Someone opening the feature: the same calls as `touch`, for a chest or a door.
    Open,
    /// A failed check to disarm it (any failure; other traps go off only on a failure by 5 or
    /// more).
    FailedCheck,
}

impl TrapTrigger {
    /// Whether using the feature or taking its loot sets it off.
    pub fn on_touch(&self) -> bool {
        matches!(self, TrapTrigger::Touch | TrapTrigger::Open)
    }
}

/// How a trap is disarmed: a check against `dc`, with a skill or with a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Disarm {
    /// The check's DC (1 to 30).
    pub dc: i32,
    /// The skill checked ("sleight_of_hand", "athletics"), when no tool is needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<Skill>,
    /// The tool needed ("Thieves' Tools": a Dexterity check, with the proficiency bonus for a
    /// rogue); the character must carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// A feature that can be attacked and broken: its Armor Class, hit points and defenses, and
/// what breaking it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeatureObject {
    /// Armor Class.
    pub armor_class: i32,
    /// Hit points when whole.
    pub hit_points: u32,
    /// Damage taken so far ([`Change::ObjectDamaged`]); broken at `hit_points`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage_taken: u32,
    /// Damage types that do nothing to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immune: Vec<DamageType>,
    /// Damage types that do half.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resistant: Vec<DamageType>,
    /// What happens once it breaks (story effects the engine plays once).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_broken: Vec<StoryEffect>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl FeatureObject {
    /// Hit points left.
    pub fn hp_left(&self) -> u32 {
        self.hit_points.saturating_sub(self.damage_taken)
    }

    /// Whether it is broken (no hit points left).
    pub fn is_broken(&self) -> bool {
        self.hp_left() == 0
    }

    /// Its immunities and resistances, as the damage rules read them.
    pub fn defenses(&self) -> Defenses {
        Defenses {
            immunities: self.immune.iter().copied().collect(),
            resistances: self.resistant.iter().copied().collect(),
            ..Defenses::default()
        }
    }
}

impl Feature {
    /// Whether the party knows the feature is trapped: the trap was noticed, or the feature is
    /// itself the hidden danger and has been found (thin ice found is thin ice avoided).
    pub fn trap_known(&self) -> bool {
        self.trap
            .as_ref()
            .is_some_and(|t| t.noticed || (self.hidden && self.found))
    }

    /// Whether it holds a trap that can still go off.
    pub fn trap_armed(&self) -> bool {
        self.trap.as_ref().is_some_and(|t| !t.spent)
    }

    /// The DC that notices its trap: the trap's own, else (for a hidden feature that is the
    /// trap) the feature's.
    pub fn trap_notice_dc(&self) -> Option<i32> {
        let trap = self.trap.as_ref()?;
        trap.notice_dc
            .or_else(|| self.hidden.then_some(self.find_dc).flatten())
    }
}

impl super::Location {
    /// The traps on its known features that a Perception of `total` (passive, or a search's
    /// roll) notices and the party has not: each change, with the feature's name. A hidden
    /// feature that is itself the trap is found as a feature instead (`find_dc`).
    pub fn traps_noticed_at(&self, total: i32) -> Vec<(Change, String)> {
        self.features
            .iter()
            .filter(|f| !f.hidden && f.trap_armed() && !f.trap_known())
            .filter(|f| f.trap_notice_dc().is_some_and(|dc| total >= dc))
            .map(|f| {
                (
                    Change::TrapNoticed {
                        location: self.id.clone(),
                        feature: f.id.clone(),
                    },
                    f.name.clone(),
                )
            })
            .collect()
    }
}

/// Applies the changes of traps and objects; any other change is left alone.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    match change {
        Change::TrapNoticed { location, feature } => {
            let f = feature_mut(state, location, feature)?;
            let trap = f
                .trap
                .as_mut()
                .ok_or_else(|| ChangeError::Invalid(format!("{feature} is not a trap")))?;
            trap.noticed = true;
        }
        Change::ObjectDamaged {
            location,
            feature,
            amount,
        } => {
            let f = feature_mut(state, location, feature)?;
            let object = f.object.as_mut().ok_or_else(|| {
                ChangeError::Invalid(format!("{feature} is not an object that can be damaged"))
            })?;
            if object.is_broken() {
                return Err(ChangeError::Invalid(format!(
                    "{} is already broken",
                    f.name
                )));
            }
            object.damage_taken = object
                .damage_taken
                .saturating_add(*amount)
                .min(object.hit_points);
        }
        _ => {}
    }
    Ok(())
}
