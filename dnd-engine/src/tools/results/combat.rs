//! Results of the fight tools: `roll_attack` ([`AttackOutcome`]), `start_encounter`
//! ([`FightStarted`]), `next_turn` ([`TurnsPassed`]), `end_encounter` ([`FightEnded`]) and
//! `move_in_fight` ([`MoveOutcome`]), with what happens on the turns that pass between
//! ([`TurnEvent`]).
//!
//! The enums are untagged: each variant is told apart by a field only it has (`attacks`,
//! `recharge`, `moves`...), so the JSON the model reads names what happened without a tag.

use serde::{Deserialize, Serialize};

use crate::rules::conditions::ConditionSet;
use crate::rules::{AdvantageSources, AttackResult, CheckResult, DeathSaveRoll, RechargeRoll};
use crate::state::{Change, Morale};

/// What `roll_attack` did: the attack, or (when the attack started a fight) why it waits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AttackOutcome {
    /// The attack was made.
    Made(AttackReport),
    /// The attack started a fight in which it is not the attacker's turn yet.
    Waiting(AttackWaiting),
    /// A spell's repeated attack (Spiritual Weapon's, a bonus action), reported as a casting.
    Spell(Box<super::SpellCast>),
}

/// Every swing of one attack (all of a multiattack).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackReport {
    /// The attacker's name.
    pub attacker: String,
    /// The target, as the call named it.
    pub target: String,
    /// Each swing, in order.
    pub attacks: Vec<SwingReport>,
    /// The fight this attack started, if it started one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter_started: Option<Box<FightStarted>>,
    /// Made as an opportunity attack (a reaction to a creature leaving reach).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opportunity_attack: bool,
    /// The Wisdom save the attacker made against the target's Sanctuary; on a failure the
    /// attack was lost (no swings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanctuary: Option<WardSave>,
}

/// A save against a warded creature's Sanctuary, before an attack or a harmful spell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WardSave {
    /// Who saved (name).
    pub by: String,
    /// The warded creature (name).
    pub warded: String,
    /// The ward's spell ("Sanctuary").
    pub spell: String,
    /// The Wisdom save.
    pub save: CheckResult,
    /// Whether the attack or the spell on the warded creature was lost (a failed save).
    pub lost: bool,
}

/// One swing: the roll, and where it left the target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SwingReport {
    /// The attack's name ("Greataxe").
    pub attack: String,
    /// The roll and its damage.
    pub result: AttackResult,
    /// Every source of advantage and disadvantage the engine counted.
    #[serde(default, skip_serializing_if = "AdvantageSources::is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// How far apart the two stood.
    pub distance_ft: u32,
    /// The cover the target had, in words; `None` for none.
    pub cover: Option<String>,
    /// The target's hit points after the swing, "current/max".
    pub target_hp: String,
    /// Whether the swing dropped it.
    pub target_down: bool,
    /// The save the hit carried (a specter's Life Drain), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_hit_save: Option<OnHitSave>,
    /// The saves the target repeated against holds on it because the hit hurt it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hold_saves: Vec<HoldSave>,
    /// The target's save to keep its concentration, if the hit hurt a concentrating caster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration_save: Option<ConcentrationSave>,
    /// A standing reaction the target cast when hit (Shield, cast only when it turns the hit
    /// into a miss).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<super::ReactionCast>,
    /// Mirror Image: the swing went at one of the target's duplicates (the d20 met the
    /// duplicates' number), in words; a hit destroyed it and the target took nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<String>,
    /// Sneak Attack on a rogue's finesse or ranged attack: applied with its dice and why
    /// ("Sneak Attack: +2d6 piercing (advantage)"), or why not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sneak_attack: Option<String>,
}

/// A save a monster's hit forces, and what failing it did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OnHitSave {
    /// The save.
    pub save: CheckResult,
    /// The changes a failure made (a condition, a lowered maximum).
    pub effect: Vec<Change>,
}

/// An attack that started a fight and must wait for the attacker's turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackWaiting {
    /// Always false.
    pub attack_made: bool,
    /// Whose turn it is instead.
    pub why: String,
    /// The fight the attack started.
    pub encounter_started: FightStarted,
}

/// A fight begun (`start_encounter`, or an attack outside a fight): the order, the turns of
/// the monsters that came first, and whose turn it is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FightStarted {
    /// The initiative order.
    pub order: Vec<InitiativePlace>,
    /// Who was caught unaware (names): each loses its first turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surprised: Vec<String>,
    /// What the monsters before the first hero did.
    pub monster_turns: Vec<TurnEvent>,
    /// Whose turn it is now.
    pub now: TurnNow,
}

/// One place in the initiative order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativePlace {
    /// The creature's id.
    pub id: String,
    /// Its initiative.
    pub initiative: i32,
}

/// The turns `next_turn` passed: the end of the current one, then every turn until a hero who
/// can act.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnsPassed {
    /// What happened, in order.
    pub monster_turns: Vec<TurnEvent>,
    /// Whose turn it is now.
    pub now: TurnNow,
}

/// Whose turn it is in a fight, what they have left, and whether it is decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnNow {
    /// The id of the creature whose turn it is; `None` with no fight.
    pub turn_of: Option<String>,
    /// The round.
    pub round: Option<u32>,
    /// What that creature has left of its turn, in words.
    pub left: Option<String>,
    /// Whether no hostile foe still fights here.
    pub all_foes_down: bool,
    /// Whether no hero stands.
    pub party_down: bool,
}

/// A fight ended (`end_encounter`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightEnded {
    /// How many rounds it lasted.
    pub ended_after_rounds: u32,
    /// The experience the slain, routed or captured foes give.
    pub xp_from_defeated: u32,
    /// Each share, stored on every living character who took part (even shares, whole
    /// points).
    #[serde(default)]
    pub xp_each: u32,
    /// Who shared it, by name.
    #[serde(default)]
    pub shared_by: Vec<String>,
    /// Who may now take a level (`level_up`), each with the first legal choices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub may_level_up: Vec<LevelReady>,
}

/// A character who may take its next level, with the first legal choices (fixed hit points,
/// the SRD subclass, the first improvement and spells): `level_up`'s arguments as they are, or
/// a starting point for the player's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelReady {
    /// The character's id.
    pub character: String,
    /// The level it would reach.
    pub level: u8,
    /// The first legal choices.
    pub first_choices: crate::character::LevelChoices,
}

/// One thing that happened while turns passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TurnEvent {
    /// A monster attacked.
    Attack(AttackReport),
    /// A monster used an action its targets save against.
    SaveAction(SaveActionReport),
    /// A monster used an action (or cast a spell) the effects engine resolved, with no save of
    /// its own to report (the knight's Leadership).
    Effects(EffectsReport),
    /// A legendary monster's attack at the end of another creature's turn.
    Legendary {
        /// Its id.
        monster: String,
        /// The legendary action ("Tail Attack").
        legendary: String,
        /// The attack it made.
        attack: AttackReport,
    },
    /// A monster rolled to recharge an action.
    Recharge {
        /// Its id.
        monster: String,
        /// The d6.
        recharge: RechargeRoll,
    },
    /// A monster broke: it flees or surrenders.
    Morale {
        /// Its id.
        monster: String,
        /// Fled or surrendered.
        morale: Morale,
    },
    /// A monster moved before it acted.
    Moves {
        /// Its id.
        monster: String,
        /// The move.
        moves: MoveOutcome,
    },
    /// A monster had no one to act against.
    NoTarget {
        /// Its id.
        monster: String,
        /// Why.
        no_target: String,
    },
    /// The rules refused a monster's plan; its turn is spent.
    Refused {
        /// Its id.
        monster: String,
        /// The refusal.
        refused: String,
    },
    /// A monster spent its bonus action keeping a hold (a song) going.
    KeepsUp {
        /// Its id.
        monster: String,
        /// What it keeps up.
        keeps_up: String,
    },
    /// A monster could not keep its hold going.
    HoldEnded {
        /// Its id.
        monster: String,
        /// Why.
        hold_ended: String,
    },
    /// Holds nobody keeps up any more ended; these creatures are free.
    HoldsEnded {
        /// The freed creatures' ids.
        holds_ended: Vec<String>,
    },
    /// A held creature repeated its save at the end of its turn.
    RepeatSave(HoldSave),
    /// A dying hero's death saving throw.
    DeathSave {
        /// The hero's name.
        death_save: String,
        /// The roll.
        roll: DeathSaveRoll,
    },
    /// A combatant caught unaware lost its first turn.
    Surprised {
        /// Its name.
        surprised: String,
    },
    /// A hero who cannot act (charmed, paralysed) lost the turn.
    CannotAct {
        /// The hero's name.
        cannot_act: String,
        /// The conditions that hold it.
        conditions: ConditionSet,
    },
    /// An area that lasts caught a creature starting or ending its turn in it (Moonbeam).
    Zone(super::ZoneReport),
    /// A turned monster (Turn Undead) fled its turner, or Dodged where it could not.
    Turned {
        /// Its id.
        monster: String,
        /// What it did, in a sentence.
        turned: String,
    },
}

/// A save a held creature repeats against the hold (a harpy's song): at the end of its turn,
/// or when something other than the holder hurts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HoldSave {
    /// The hold's action.
    pub repeat_save: String,
    /// Who saved (an id).
    pub by: String,
    /// The save; a success ends the hold.
    pub result: CheckResult,
}

/// The Constitution save a concentrating character made on taking damage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConcentrationSave {
    /// Who saved (an id).
    pub by: String,
    /// The spell it concentrates on.
    pub spell: String,
    /// The save (DC 10 or half the damage, whichever is higher).
    pub result: CheckResult,
    /// Whether it keeps the spell.
    pub kept: bool,
}

/// A monster's save-based action (a song, a breath) and each target's save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveActionReport {
    /// The monster's name.
    pub monster: String,
    /// The action.
    pub action: String,
    /// Each target, in order.
    pub saves: Vec<TargetSave>,
    /// The targets total cover shields from the monster: the action cannot reach them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub behind_total_cover: Vec<String>,
    /// A legendary action, taken at the end of another creature's turn for its cost in the
    /// round's legendary actions (the dragon's Wing Attack).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legendary: bool,
}

/// What a monster's action or spell did through the effects engine, creature by creature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EffectsReport {
    /// The monster's name.
    pub monster: String,
    /// The action or spell it used.
    pub uses: String,
    /// The slot level, for a spell cast with a slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot_level: Option<u8>,
    /// What it did to each creature.
    pub effects: Vec<crate::effects::Outcome>,
    /// Standing reactions cast against it (Counterspell; Shield against Magic Missile).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<super::ReactionCast>,
}

/// One target's save against a monster's action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetSave {
    /// The target's name.
    pub target: String,
    /// The save.
    pub save: CheckResult,
    /// The damage it took.
    pub damage: u32,
    /// The saves it repeated against other monsters' holds because it was hurt.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hold_saves: Vec<HoldSave>,
    /// Its save to keep its concentration, if it was hurt while concentrating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration_save: Option<ConcentrationSave>,
    /// Every bonus added to the save, with its reason ("+2: half cover in the ice bridge").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifier_reasons: Vec<String>,
    /// What the failure did besides the damage (held, drained, a condition), or why not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<crate::effects::Outcome>,
}

/// What `move_in_fight` (or a monster's approach) did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoveOutcome {
    /// The move was made (possibly 0 ft).
    Moved(Moved),
    /// An opportunity attack dropped the mover before it got away.
    Dropped(MoveDropped),
}

/// A move made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    /// Whether it went anywhere.
    pub moved: bool,
    /// Who moved (an id).
    pub creature: String,
    /// Where from, in words.
    pub from: String,
    /// Where to, in words.
    pub to: String,
    /// The distance covered.
    pub feet: u32,
    /// The movement it cost (difficult terrain doubles).
    pub movement_spent_ft: u32,
    /// Whether it crossed difficult terrain.
    pub difficult_terrain: bool,
    /// The opportunity attacks it provoked.
    pub opportunity_attacks: Vec<AttackReport>,
    /// Whose turn it is now and what is left.
    pub now: TurnNow,
    /// What the areas that last did as it entered or crossed them (Spike Growth, Moonbeam).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<super::ZoneReport>,
    /// What the glyphs it set off did (Glyph of Warding's burst: each save and its damage).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub glyphs: Vec<crate::effects::Outcome>,
}

/// A move an opportunity attack cut short.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveDropped {
    /// Always false.
    pub moved: bool,
    /// What happened.
    pub why: String,
    /// The opportunity attacks, the last of which dropped it.
    pub opportunity_attacks: Vec<AttackReport>,
}

/// A readied attack set off by its trigger (`trigger_readied`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadiedAttack {
    /// What the reaction was ("readied attack").
    pub reaction: String,
    /// The creature whose act set it off, as the call named it.
    pub triggered_by: String,
    /// The attack.
    pub attack: AttackReport,
}
