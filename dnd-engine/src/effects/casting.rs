//! What the interpreter takes and gives: the caster and its casting, the creatures it
//! affects ([`Subject`]), and what comes back ([`Resolution`]: changes, rolls, [`Outcome`]s,
//! the reasons of each roll), or why it was refused.

use serde::{Deserialize, Serialize};

use crate::combat::targeting::SpellTarget;
use crate::rules::damage::DefenseApplied;
use crate::rules::{
    AdvantageSources, AttackResult, CheckResult, Condition, ConditionSet, DamageDealt, Defenses,
};
use crate::state::{Change, Target, TimedEffect};
use crate::store::RollRecord;

/// Who casts, with the numbers its spells use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caster {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its spell attack bonus.
    pub attack_bonus: i32,
    /// Its spell save DC.
    pub save_dc: i32,
    /// Its spellcasting ability modifier.
    pub modifier: i32,
    /// Its character level (a cantrip's dice).
    pub level: u8,
}

/// One casting: who, what, at which slot.
#[derive(Debug, Clone, Copy)]
pub struct Casting<'a> {
    /// The caster.
    pub caster: &'a Caster,
    /// What is cast ("Bless"): the source the timed effects name.
    pub source: &'a str,
    /// The spell's own level (0 for a cantrip).
    pub level: u8,
    /// The slot it is cast with (the spell's level for a cantrip).
    pub slot: u8,
    /// Whether it needs concentration: the caster's concentration moves to it (ending the
    /// old spell's effects) before its timed effects start, and they end with it.
    pub concentration: bool,
}

/// One creature a casting affects, as the rolls need it.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    /// The change target.
    pub target: Target,
    /// Its name.
    pub name: String,
    /// AC now (timed effects counted), before cover.
    pub armor_class: i32,
    /// Its defenses (conditions not yet counted).
    pub defenses: Defenses,
    /// Its conditions.
    pub conditions: ConditionSet,
    /// Its conditions immunities.
    pub condition_immunities: Vec<Condition>,
    /// Its saves, in [`Ability::ALL`](crate::rules::Ability::ALL) order.
    pub saves: [i32; 6],
    /// Its Dexterity modifier (Mage Armor).
    pub dexterity: i32,
    /// Current hit points.
    pub hp: u32,
    /// A monster's creature type ("humanoid (goblinoid)"); `None` for a character (a
    /// humanoid).
    pub creature_type: Option<String>,
    /// Where it stands from the caster: distance, an attack's range check, cover.
    pub at: SpellTarget,
    /// Spared by the caster's Sculpt Spells (Evocation wizard): it succeeds on the spell's
    /// saves automatically and takes no damage where a success would halve it.
    pub spared: bool,
    /// Chosen by the caster's Careful Spell (sorcerer): it succeeds on the spell's saves
    /// automatically, and takes what a success takes.
    pub careful: bool,
}

impl Subject {
    pub(super) fn is_type(&self, kind: &str) -> bool {
        self.creature_type
            .as_deref()
            .unwrap_or("humanoid")
            .to_ascii_lowercase()
            .starts_with(&kind.to_ascii_lowercase())
    }
}

/// What the effects did to one creature, for the tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// A spell attack and the damage of a hit.
    Attack {
        /// The target's name.
        target: String,
        /// The roll.
        attack: AttackResult,
    },
    /// A saving throw, with the damage taken after it.
    Save {
        /// The target's name.
        target: String,
        /// The save.
        save: CheckResult,
        /// Damage taken (0 for none).
        damage: u32,
        /// Which defense changed the damage.
        defense: DefenseApplied,
    },
    /// Damage that needed no roll to land (a dart).
    Damage {
        /// The target's name.
        target: String,
        /// Damage taken.
        damage: u32,
        /// The dice.
        rolled: DamageDealt,
    },
    /// Hit points restored.
    Healed {
        /// The target's name.
        target: String,
        /// How many.
        healed: u32,
        /// The dice, as text.
        rolled: String,
    },
    /// Temporary hit points granted.
    TemporaryHp {
        /// The target's name.
        target: String,
        /// How many.
        amount: u32,
    },
    /// A pool of hit points rolled (Sleep), and what was left of it.
    Pool {
        /// The total rolled.
        rolled: u32,
        /// What the creatures it covered left.
        left: u32,
    },
    /// A timed effect began (a condition, an AC change, dice on rolls).
    Started {
        /// The target's name.
        target: String,
        /// The effect.
        effect: TimedEffect,
    },
    /// A condition with no duration of its own began (knocked prone).
    Condition {
        /// Who.
        target: String,
        /// The condition, kept until what ends it by the rules (prone: standing up).
        condition: Condition,
    },
    /// A hit point maximum lowered until a long rest (Life Drain).
    Drained {
        /// The target's name.
        target: String,
        /// By how much.
        amount: u32,
    },
    /// Held by a monster's action while it keeps it up (a harpy's song).
    Held {
        /// The target's name.
        target: String,
        /// The conditions the hold imposed.
        conditions: Vec<Condition>,
    },
    /// A condition ended (Lesser Restoration).
    ConditionEnded {
        /// Who.
        target: String,
        /// The condition.
        condition: Condition,
    },
    /// A dying character became stable (Spare the Dying).
    Stabilized {
        /// Who.
        target: String,
    },
    /// A creature pushed (Thunderwave).
    Pushed {
        /// The target's name.
        target: String,
        /// How far it went.
        feet: u32,
        /// Where it stands now.
        to: crate::state::Position,
    },
    /// A spell's effects on a creature dispelled, or not (the check failed).
    Dispelled {
        /// The target's name.
        target: String,
        /// The spell.
        spell: String,
        /// The level it was cast at.
        level: u8,
        /// The ability check a higher level needed, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        check: Option<CheckResult>,
        /// Whether it ended.
        ended: bool,
    },
    /// A dead character brought back to life with 1 hit point.
    Revived {
        /// The target's name.
        target: String,
    },
    /// A creature the effect passed over, and why.
    Unaffected {
        /// The target's name.
        target: String,
        /// Why ("undead", "more hit points than the pool has left").
        why: String,
    },
    /// Creatures summoned to fight on the caster's side (Conjure Animals, Animate Dead).
    Summoned {
        /// Their ids, to command them by.
        creatures: Vec<String>,
        /// Their initiative in a running fight (they act as a group).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        initiative: Option<i32>,
        /// How they are commanded.
        command: String,
    },
    /// A creature moved by magic other than a push: teleported (Misty Step) or lifted
    /// (Levitate).
    Moved {
        /// Who.
        target: String,
        /// How far it went.
        feet: u32,
        /// Where it stands now.
        to: crate::state::Position,
    },
    /// An exit locked by magic (Arcane Lock).
    ExitLocked {
        /// The exit's direction.
        exit: String,
        /// The DC to pick or force it now; `None`: only its key opens it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dc: Option<i32>,
    },
    /// A monster made indifferent (Calm Emotions): it stops fighting until it is attacked.
    Calmed {
        /// The target's name.
        target: String,
    },
}

/// Why one roll was made as it was: the advantage sources and the bonuses added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// Index of the subject.
    pub subject: usize,
    /// Advantage and disadvantage, with reasons.
    pub sources: AdvantageSources,
    /// Bonuses, in words ("+2: half cover in the ice bridge", "+3: Bless (1d4)").
    pub modifiers: Vec<String>,
}

/// What resolving an effect list gives back. Commit `changes` in order; record `rolls`.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    /// The changes, in order (the concentration first).
    pub changes: Vec<Change>,
    /// The rolls made.
    pub rolls: Vec<RollRecord>,
    /// What happened to each creature.
    pub outcomes: Vec<Outcome>,
    /// Why each roll with a reason was made as it was.
    pub reasons: Vec<Why>,
}

impl Resolution {
    /// Empty, with room for about `subjects` creatures' worth of each (one change, one outcome
    /// and one reason each; one roll each and the casting's own), so a casting on a crowd does
    /// not regrow them.
    pub(super) fn for_subjects(subjects: usize) -> Resolution {
        Resolution {
            changes: Vec::with_capacity(subjects),
            rolls: Vec::with_capacity(subjects + 1),
            outcomes: Vec::with_capacity(subjects),
            reasons: Vec::with_capacity(subjects),
        }
    }
}

/// Why a casting was refused: nothing was rolled or changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);
