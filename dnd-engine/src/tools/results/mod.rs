//! What each tool gives back, as types: the handler builds one, the registry turns it into the
//! JSON the model reads, and the offline game master and the front ends read that JSON back
//! into the same type. A field's name here is the contract, not a string in two places.

mod checks;
mod combat;
mod items;
mod levelling;
mod output;
mod preparing;
mod puzzles;
mod reactions;
mod sheet;
mod social;
mod spells;
mod traps;
mod world;

pub use crate::combat::actions::ActionReport;
pub use checks::{CheckRolled, DiceRolled, SaveRolled};
pub use combat::{
    AttackOutcome, AttackReport, AttackWaiting, ConcentrationSave, EffectsReport, FightEnded,
    FightStarted, HoldSave, InitiativePlace, LevelReady, MoveDropped, MoveOutcome, Moved,
    OnHitSave, ReadiedAttack, SaveActionReport, SwingReport, TargetSave, TurnEvent, TurnNow,
    TurnsPassed, WardSave,
};
pub use items::{Inventory, InventoryChanged, ItemRemoved, ItemTaken, ItemUsed, LockAttempt};
pub use levelling::LevelGained;
pub use output::{OutputError, STORY, ToolOutput, story_lines};
pub use preparing::SpellsPrepared;
pub use puzzles::PuzzleAnswered;
pub use reactions::{ReactionCast, ReactionsDeclared};
pub use sheet::{
    AbilityLine, AttackLine, CharacterSheet, CharacterUpdated, FeatureReport, HazardDamage,
    Spellcasting,
};
pub use social::{SocialChecked, Talked};
pub use spells::{RollReasons, SpellCast, ZoneReport};
pub use traps::{ObjectAttacked, TrapDisarmAttempt};
pub use world::{
    ExitSeen, FeatureSeen, FlagSet, Flags, GoalAdvanced, GoalsAdvanced, MonsterSeen, MonsterStats,
    NpcSeen, RoomDetails, RulesEntry, StoryLogged,
};
