//! Everything in a campaign that is not a player character: monsters, places, people, the
//! encounter, the clock and the story so far.

use serde::{Deserialize, Serialize};

use super::character::ItemStack;
use crate::rules::{Ability, ConditionSet, DamageDice, HitPoints, TurnBudget};

/// One monster in the world, made from an SRD template with its own hit points and conditions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterInstance {
    /// Stable id ("frost-harpy").
    pub id: String,
    /// Name as shown ("Frost Harpy").
    pub name: String,
    /// The SRD monster it is built on (slug, "harpy").
    pub template: String,
    /// Hit points.
    pub hp: HitPoints,
    /// Armor Class (the template's, unless overridden).
    pub armor_class: i32,
    /// Conditions.
    #[serde(default)]
    pub conditions: ConditionSet,
    /// Id of the location it is in.
    pub location: String,
    /// Whether it fights the party on sight.
    #[serde(default = "yes")]
    pub hostile: bool,
    /// Whether the party has seen it (its stat block reaches the LLM only then).
    #[serde(default)]
    pub revealed: bool,
    /// The area of its room it stands in when a fight starts (see [`super::Area`]); `None`
    /// for the room's first area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
    /// Fighting, fled or surrendered (`combat::monster_plan`'s morale rule decides).
    #[serde(default, skip_serializing_if = "super::Morale::is_fighting")]
    pub morale: super::Morale,
    /// Its actions of limited use that are spent: a recharge action until its d6 rolls high
    /// enough at the start of its turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent_actions: Vec<String>,
    /// Its uses of what it has a number of (an action's uses a day, a level's spell slots, an
    /// innate spell's casts, legendary resistance and legendary actions), spent so far, by
    /// pool name: counted by [`Change::UseSpent`](super::Change::UseSpent).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub uses_spent: std::collections::BTreeMap<String, u8>,
    /// Failed saves a day it may turn into successes (its stat block's Legendary Resistance,
    /// copied when the monster is made); the uses are counted in `uses_spent`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub legendary_resistance: u8,
    /// The spell it concentrates on, if any (a cult fanatic's Hold Person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<String>,
    /// The creatures one of its actions holds until they save (a harpy's song).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holds: Vec<super::Hold>,
    /// Timed effects on it (Bane, Hold Person): see `state::TimedEffect`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed_effects: Vec<super::TimedEffect>,
    /// Whose summon it is, when a spell brought it to fight on the party's side
    /// (`state::summons`); `None` for every other monster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoned: Option<super::Summoned>,
    /// Its creature type, as its stat block gives it ("undead", "humanoid (goblinoid)"): kept
    /// so the snapshot shows what anyone looking would know (what Turn Undead or a favored
    /// enemy reads); empty in a game saved before it was kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl MonsterInstance {
    /// Armor Class now, with its timed effects.
    pub fn armor_class_now(&self) -> i32 {
        super::armor_class_with(&self.timed_effects, self.armor_class)
    }

    /// Its defenses now: its stat block's (`template`) with the resistances its timed effects
    /// give.
    pub fn defenses_now(&self, template: crate::rules::Defenses) -> crate::rules::Defenses {
        crate::rules::Defenses {
            resistances: template
                .resistances
                .union(super::resistances_with(&self.timed_effects)),
            nonmagical_resistances: template
                .nonmagical_resistances
                .union(super::nonmagical_resistances_with(&self.timed_effects)),
            immunities: template
                .immunities
                .union(crate::effects::silence_immunities(&self.timed_effects)),
            ..template
        }
    }

    /// Whether it still has hit points.
    pub fn is_alive(&self) -> bool {
        self.hp.current > 0
    }

    /// Whether it is alive and still fights (not fled, not surrendered): a foe.
    pub fn is_fighting(&self) -> bool {
        self.is_alive() && self.morale == super::Morale::Fighting
    }
}

/// A way out of a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Exit {
    /// Direction or name, as players say it ("north", "down", "ice bridge").
    pub direction: String,
    /// Id of the location it leads to.
    pub to: String,
    /// Locked: no passage until unlocked.
    #[serde(default)]
    pub locked: bool,
    /// DC to pick or force the lock, if it can be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlock_dc: Option<i32>,
    /// The item that opens it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Hidden: unknown (and unusable) until found.
    #[serde(default)]
    pub hidden: bool,
    /// The Perception DC that finds it when hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find_dc: Option<i32>,
    /// Added to `unlock_dc` by magic on the lock (Arcane Lock: 10), set by
    /// [`super::Change::ExitWarded`].
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    #[schemars(skip)] // the engine's, not an author's
    pub lock_bonus: i32,
}

fn is_zero_i32(n: &i32) -> bool {
    *n == 0
}

impl Exit {
    /// Whether the party can go through it now.
    pub fn is_passable(&self) -> bool {
        !self.locked && !self.hidden
    }
}

/// A trap on a feature: what sets it off, how it is noticed and disarmed, and what it does to
/// whoever sets it off (`state::traps`, `tools::traps`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    /// The save it allows.
    pub save: Ability,
    /// Its DC.
    pub dc: i32,
    /// Damage on a failed save (half on a success).
    pub damage: DamageDice,
    /// Whether it has gone off or been disarmed.
    #[serde(default)]
    #[schemars(skip)] // the engine's, not an author's
    pub spent: bool,
    /// What sets it off (default: touching the feature).
    #[serde(default)]
    pub trigger: super::TrapTrigger,
    /// The DC a passive Perception (before narration) or a search must reach to notice it;
    /// for a hidden feature that is itself the trap, the feature's `find_dc` when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice_dc: Option<i32>,
    /// Whether the party has noticed it: a noticed trap is avoided, not walked into.
    #[serde(default)]
    pub noticed: bool,
    /// How it is disarmed, if it can be (`disarm_trap`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disarm: Option<super::Disarm>,
    /// A condition a failed save gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<crate::rules::Condition>,
    /// How far a failed save drops the creature, in feet (1d6 bludgeoning per 10 ft, landing
    /// prone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fall_ft: Option<u32>,
    /// Story effects played once each time it goes off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<super::StoryEffect>,
    /// Whether it re-arms after going off (otherwise it is spent).
    #[serde(default)]
    pub reset: bool,
}

/// Something in a location worth a look: an object, a secret, a trap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Feature {
    /// Stable id within the location ("cracked-ice").
    pub id: String,
    /// Name as shown once known.
    pub name: String,
    /// What the party learns when it finds or examines it.
    pub description: String,
    /// Hidden until found (by passive Perception at or above `find_dc`, or a search).
    #[serde(default)]
    pub hidden: bool,
    /// The DC that finds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find_dc: Option<i32>,
    /// Whether the party has found it (hidden features only reach the LLM once found).
    #[serde(default)]
    #[schemars(skip)] // the engine's, not an author's
    pub found: bool,
    /// A trap, if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trap: Option<Trap>,
    /// Items here, taken with a change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loot: Vec<ItemStack>,
    /// Its Armor Class and hit points, if it can be attacked and broken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<super::FeatureObject>,
}

impl Feature {
    /// Whether the party knows about it.
    pub fn is_known(&self) -> bool {
        !self.hidden || self.found
    }
}

/// A place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// Stable id ("ice-chasm").
    pub id: String,
    /// Title ("The Ice Chasm").
    pub title: String,
    /// One line, for the snapshot.
    pub short_description: String,
    /// The full description, for `get_room_details`.
    pub description: String,
    /// Exits.
    #[serde(default)]
    pub exits: Vec<Exit>,
    /// Features.
    #[serde(default)]
    pub features: Vec<Feature>,
    /// Items lying in the open.
    #[serde(default)]
    pub loot: Vec<ItemStack>,
    /// Whether the party has been here.
    #[serde(default)]
    pub visited: bool,
    /// Named places in it with coordinates, cover and terrain (empty: everyone here stands
    /// within 5 ft of everyone else).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<super::Area>,
    /// How lit it is (bright when the adventure says nothing).
    #[serde(default, skip_serializing_if = "super::racial::Light::is_bright")]
    pub light: super::racial::Light,
}

impl Location {
    /// The exit in `direction` (any case), hidden or not.
    pub fn exit(&self, direction: &str) -> Option<&Exit> {
        self.exits
            .iter()
            .find(|e| e.direction.eq_ignore_ascii_case(direction))
    }
}

/// How an NPC feels about the party.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // the names say it all
pub enum Disposition {
    Hostile,
    Unfriendly,
    Indifferent,
    Friendly,
    Helpful,
}

/// One step of an NPC's goal, advanced by code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GoalStep {
    /// What the NPC does at this step.
    pub description: String,
    /// A world flag that, once set, moves the NPC past this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_flag: Option<String>,
    /// Minutes of game time after which the NPC moves on from this step by itself, counted
    /// from when it reached the step (with a `trigger_flag` too, whichever comes first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_minutes: Option<u32>,
    /// What happens in the world when the NPC reaches this step (the crawlway shown, the key
    /// given, a flag set), resolved by the engine, never by the model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<super::StoryEffect>,
}

/// A non-player character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Npc {
    /// Stable id.
    pub id: String,
    /// Name.
    pub name: String,
    /// What the party sees.
    pub description: String,
    /// Attitude towards the party.
    pub disposition: Disposition,
    /// Where it is.
    pub location: String,
    /// What it wants (kept from the LLM until revealed).
    #[serde(default)]
    pub goal: String,
    /// Whether the party has learned the goal.
    #[serde(default)]
    pub goal_revealed: bool,
    /// The steps towards its goal.
    #[serde(default)]
    pub goal_steps: Vec<GoalStep>,
    /// Index of the current step (`goal_steps.len()` when done).
    #[serde(default)]
    pub current_step: usize,
}

/// One slot of the initiative order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeSlot {
    /// A character id or a monster id.
    pub id: String,
    /// Its initiative total.
    pub initiative: i32,
    /// Its walking speed in feet when the fight started (the sheet's, or the stat block's):
    /// its movement each turn, before conditions.
    #[serde(default = "default_speed")]
    pub speed: u32,
}

/// The speed of a slot saved before slots had one.
fn default_speed() -> u32 {
    30
}

/// The fight in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    /// Turn order, first to act first.
    pub order: Vec<InitiativeSlot>,
    /// The round, from 1.
    pub round: u32,
    /// Index into `order` of whose turn it is.
    pub turn: usize,
    /// What the creature whose turn it is has spent of it (fresh when its turn starts).
    #[serde(default)]
    pub budget: TurnBudget,
    /// Who has spent their reaction since their last turn started (ids).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions_used: Vec<String>,
    /// The lasting effects of the standard actions (Dodge, Help, Hide, Ready, grapples), which
    /// end with the fight if not before (`state::effects`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<super::Effect>,
    /// Where each combatant stands, by id, in a room with areas (empty otherwise: everyone
    /// within 5 ft). Moved only by [`super::Change::Moved`].
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub positions: std::collections::BTreeMap<String, super::Position>,
}

impl Encounter {
    /// The id of whoever acts now.
    pub fn current(&self) -> Option<&str> {
        self.order.get(self.turn).map(|s| s.id.as_str())
    }

    /// The slot of a combatant, by id (any case).
    pub fn slot(&self, id: &str) -> Option<&InitiativeSlot> {
        self.order.iter().find(|s| s.id.eq_ignore_ascii_case(id))
    }

    /// The effects a combatant has (by id, any case).
    pub fn effects_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a super::Effect> + 'a {
        self.effects
            .iter()
            .filter(move |e| e.creature.eq_ignore_ascii_case(id))
    }

    /// Where a combatant stands (any case), if the room keeps positions.
    pub fn position(&self, id: &str) -> Option<super::Position> {
        let slot = self.slot(id)?;
        self.positions.get(&slot.id).copied()
    }

    /// Whether a combatant still has its reaction this round.
    pub fn has_reaction(&self, id: &str) -> bool {
        !self
            .reactions_used
            .iter()
            .any(|r| r.eq_ignore_ascii_case(id))
    }
}

/// What kind of scene is being played.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Mode {
    #[default]
    Exploration,
    Combat,
    Social,
}

/// The in-game clock.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct GameTime {
    /// Day, from 1.
    pub day: u32,
    /// Minutes since midnight (0 to 1439).
    pub minute: u32,
}

impl GameTime {
    /// Moves the clock forward.
    pub fn advance(&mut self, minutes: u32) {
        let total = u64::from(self.minute) + u64::from(minutes);
        self.day = self.day.saturating_add((total / 1440) as u32);
        self.minute = (total % 1440) as u32;
    }

    /// Minutes since the start of day 1.
    pub fn total_minutes(&self) -> u64 {
        u64::from(self.day.saturating_sub(1)) * 1440 + u64::from(self.minute)
    }

    /// "day 2, 14:05".
    pub fn describe(&self) -> String {
        format!(
            "day {}, {:02}:{:02}",
            self.day,
            self.minute / 60,
            self.minute % 60
        )
    }
}

/// What kind of thing a story event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum StoryKind {
    Discovery,
    Combat,
    Death,
    Social,
    Promise,
    Quest,
    Loot,
    Other,
}

/// One entry of the story log, which code keeps and memory is built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryEvent {
    /// The turn it happened on.
    pub turn: u64,
    /// What kind of event.
    pub kind: StoryKind,
    /// What happened, in a sentence.
    pub text: String,
}
