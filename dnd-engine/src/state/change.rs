//! [`Change`]: every way a campaign's state can move, each checked before it applies.

use serde::{Deserialize, Serialize};

use super::character::ItemStack;
use super::world::{Disposition, InitiativeSlot, Mode};
use crate::rules::{Condition, DeathSaves, SlotError, Spend};

/// Who a change to hit points or conditions is about: a character or a monster, by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Target {
    /// A player character.
    Character(String),
    /// A monster instance.
    Monster(String),
}

impl Target {
    /// The character's or monster's id.
    pub fn id(&self) -> &str {
        match self {
            Target::Character(id) | Target::Monster(id) => id,
        }
    }
}

/// One validated, serializable delta to a [`GameState`](super::GameState).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Change {
    /// Damage already through defenses: temporary HP first, then HP; dropping to 0, massive
    /// damage and damage at 0 (death save failures) by the rules.
    Damage {
        /// Who takes it.
        target: Target,
        /// How much.
        amount: u32,
        /// From a critical hit (two death save failures at 0).
        #[serde(default)]
        critical: bool,
    },
    /// Healing, up to the maximum; a character at 0 wakes and its death saves reset.
    Heal {
        /// Who is healed.
        target: Target,
        /// How much.
        amount: u32,
    },
    /// Temporary hit points (the larger of old and new stays).
    TemporaryHp {
        /// Who gains them.
        target: Target,
        /// How many.
        amount: u32,
    },
    /// A condition starts (for exhaustion: one more level).
    ConditionAdded {
        /// Who has it.
        target: Target,
        /// Which.
        condition: Condition,
    },
    /// A condition ends (for exhaustion: one level less).
    ConditionRemoved {
        /// Who loses it.
        target: Target,
        /// Which.
        condition: Condition,
    },
    /// A character's death saves after a roll (the rules in `rules::death` decide them).
    DeathSaves {
        /// The character.
        character: String,
        /// The tally now.
        saves: DeathSaves,
        /// A natural 20: back to 1 HP.
        #[serde(default)]
        regains_one_hp: bool,
    },
    /// A spell slot is spent.
    SlotSpent {
        /// The caster.
        character: String,
        /// The slot level.
        level: u8,
    },
    /// A character's standing reactions are replaced (empty: none).
    ReactionsDeclared {
        /// The character.
        character: String,
        /// What it will cast, and when.
        reactions: Vec<super::StandingReaction>,
    },
    /// Concentration starts on a spell, or ends (`None`).
    Concentration {
        /// The caster.
        character: String,
        /// The spell, or none.
        spell: Option<String>,
    },
    /// Hit dice spent on a short rest (the healing is a separate `Heal`).
    HitDiceSpent {
        /// The character.
        character: String,
        /// How many.
        count: u8,
    },
    /// One use of a class feature is spent (Second Wind, Action Surge): refused when all `of`
    /// are spent since the rest that `restores` them.
    FeatureUsed {
        /// The character.
        character: String,
        /// The feature's slug ("second-wind").
        feature: String,
        /// How many uses it has between rests.
        of: u8,
        /// The rest that restores them.
        restores: crate::srd::Rest,
        /// Uses spent at once: 1 for a feature used whole, more from a pool (ki points,
        /// Lay on Hands' hit points, sorcery points).
        #[serde(default = "one")]
        count: u8,
    },
    /// A rest gives back class features' uses: a short rest those of a short rest, a long
    /// rest all (the `LongRest` change does this too).
    FeatureUsesRestored {
        /// The character.
        character: String,
        /// The rest taken.
        rest: crate::srd::Rest,
    },
    /// Action Surge: the fighter's action comes back this turn; refused off its turn, outside
    /// a fight, or before its action is taken.
    ActionSurged {
        /// The fighter.
        character: String,
    },
    /// Pact slots come back (a warlock's short rest).
    PactSlotsRecovered {
        /// The warlock.
        character: String,
    },
    /// A long rest, by the rules in `rules::rest::long_rest`.
    LongRest {
        /// The character.
        character: String,
    },
    /// Items appear in an inventory (a purchase, a reward the story grants). Tools limit how
    /// much may appear from nowhere in one turn; taking loot that exists is `LootTaken`.
    ItemAdded {
        /// Who receives them.
        character: String,
        /// What.
        item: ItemStack,
    },
    /// Items leave an inventory (used, sold, dropped, given).
    ItemRemoved {
        /// Whose.
        character: String,
        /// The item's name.
        item: String,
        /// How many.
        quantity: u32,
    },
    /// One use of an item's daily power is spent (the Rimeheart Amulet's temporary hit points,
    /// once a dawn): refused past `effects::ItemData::per_day`; a long rest gives them back.
    ItemPowerUsed {
        /// Whose.
        character: String,
        /// The item's name.
        item: String,
    },
    /// Loot moves from a location (or one of its features) into an inventory.
    LootTaken {
        /// Who takes it.
        character: String,
        /// The feature it lies in, or `None` for the open floor of the character's location.
        feature: Option<String>,
        /// The item's name.
        item: String,
        /// How many.
        quantity: u32,
    },
    /// Gold gained (positive) or spent (negative).
    Gold {
        /// Whose purse.
        character: String,
        /// The change.
        delta: i64,
    },
    /// The whole party moves through an exit of its location.
    PartyMoved {
        /// The exit's direction or the id of the location it leads to.
        exit: String,
    },
    /// A hidden feature is found.
    FeatureFound {
        /// The location.
        location: String,
        /// The feature's id.
        feature: String,
    },
    /// A trap goes off or is disarmed.
    TrapSpent {
        /// The location.
        location: String,
        /// The feature's id.
        feature: String,
    },
    /// A hidden exit is found.
    ExitFound {
        /// The location.
        location: String,
        /// The exit's direction.
        direction: String,
    },
    /// A locked exit is opened.
    ExitUnlocked {
        /// The location.
        location: String,
        /// The exit's direction.
        direction: String,
    },
    /// A monster is seen: its stat block may reach the LLM.
    MonsterRevealed {
        /// The monster.
        monster: String,
    },
    /// An NPC moves on to the next step of its goal.
    NpcGoalAdvanced {
        /// The NPC.
        npc: String,
    },
    /// The party learns what an NPC wants.
    NpcGoalRevealed {
        /// The NPC.
        npc: String,
    },
    /// An NPC's attitude changes.
    NpcDisposition {
        /// The NPC.
        npc: String,
        /// The new attitude.
        disposition: Disposition,
    },
    /// A world flag is set.
    FlagSet {
        /// Its name.
        key: String,
        /// Its value.
        value: serde_json::Value,
    },
    /// A fight starts with this order.
    EncounterStarted {
        /// Turn order.
        order: Vec<InitiativeSlot>,
    },
    /// The next combatant's turn (and the next round after the last): its budget is fresh and
    /// its reaction comes back.
    TurnAdvanced,
    /// A combatant spends part of its turn (or its reaction, on any turn): refused when it is
    /// not its turn or what it spends is not left (`rules::economy`).
    Spent {
        /// The combatant's id.
        creature: String,
        /// What it spends.
        spend: Spend,
    },
    /// A lasting effect of a standard action begins (Dodge, Help, Hide, Ready, a grapple):
    /// refused outside a fight, on a creature that cannot act, or naming the dead.
    EffectStarted {
        /// The effect.
        effect: super::Effect,
    },
    /// A lasting effect ends before its time (a Help used, a hider found, a grapple escaped):
    /// refused when it is not there.
    EffectEnded {
        /// The effect, as it was started.
        effect: super::Effect,
    },
    /// A timed effect begins on a creature (Bless, Mage Armor, Hold Person's paralysis, with
    /// the condition it imposes): refused on the dead, from an unknown source, for 0 rounds,
    /// or for a concentration spell its source is not concentrating on (`state::TimedEffect`).
    TimedEffectStarted {
        /// The effect.
        effect: super::TimedEffect,
    },
    /// A timed effect ends before its time (a repeated save succeeded), lifting its condition
    /// unless something else imposes it: refused when it is not there.
    TimedEffectEnded {
        /// The effect, as it is now.
        effect: super::TimedEffect,
    },
    /// A combatant stands somewhere else in the fight's room (placed when the fight starts,
    /// then moved): refused outside a fight, for a creature not in it, in a room without
    /// areas, or at a point outside the room. The feet it costs are a separate
    /// [`Change::Spent`].
    Moved {
        /// The combatant's id.
        creature: String,
        /// Where it stands now.
        to: super::Position,
    },
    /// A monster flees, surrenders, or (attacked after surrendering) fights again: refused
    /// for the dead and for one that has fled.
    MoraleChanged {
        /// The monster.
        monster: String,
        /// Its morale now.
        morale: super::Morale,
    },
    /// A monster uses an action of limited use (a recharge action): refused when it is spent.
    ActionSpent {
        /// The monster.
        monster: String,
        /// The action, as its stat block names it.
        action: String,
    },
    /// A monster spends one use of a pool it has `of` of (an action's uses a day, "level 2
    /// slots", an innate spell's casts, "Legendary Resistance", "legendary actions"): refused
    /// when all `of` are spent. An hour of rest gives back its spent actions; eight hours its
    /// pools (`TimeAdvanced`); legendary actions come back at the start of its turn
    /// (`UsesRestored`).
    UseSpent {
        /// The monster.
        monster: String,
        /// The pool, by name.
        pool: String,
        /// How many uses the pool holds.
        of: u8,
    },
    /// A monster's pool comes back whole (its legendary actions at the start of its turn):
    /// refused when nothing of it is spent.
    UsesRestored {
        /// The monster.
        monster: String,
        /// The pool.
        pool: String,
    },
    /// A spent action comes back (its recharge roll was high enough): refused when not spent.
    ActionRecharged {
        /// The monster.
        monster: String,
        /// The action.
        action: String,
    },
    /// A monster's action starts holding a creature (the conditions it imposes are separate
    /// `ConditionAdded` changes): refused when the monster is not fighting.
    HoldStarted {
        /// The monster.
        monster: String,
        /// What it holds and how.
        hold: super::Hold,
    },
    /// A hold ends (a save, the monster stops or falls; the conditions lift with separate
    /// `ConditionRemoved` changes): refused when there is no such hold.
    HoldEnded {
        /// The monster.
        monster: String,
        /// Who it held, by id.
        target: String,
    },
    /// A character's hit point maximum is lowered until its next long rest (the specter's Life
    /// Drain); a maximum of 0 kills. Refused for the dead and for 0.
    MaxHpDrained {
        /// The character.
        character: String,
        /// By how much.
        amount: u32,
    },
    /// A character dead at most `within_rounds` rounds returns to life with 1 hit point
    /// (Revivify: 10, a minute): refused for the living and for one dead longer.
    Revived {
        /// The character.
        character: String,
        /// How long ago it may have died, in rounds.
        within_rounds: u32,
    },
    /// A character earns experience (its share of a won fight's XP): refused for the dead.
    XpGained {
        /// The character.
        character: String,
        /// How many points.
        amount: u32,
    },
    /// A milestone of the adventure is reached (milestone levelling): every living character
    /// may take one more level. Refused for an unknown milestone, one reached already, or in
    /// an adventure that levels by XP.
    MilestoneReached {
        /// The milestone's id.
        milestone: String,
    },
    /// A character gains a level (`character::levelling::level_up` builds it): refused unless
    /// it is the next level, earned (by XP, or a milestone in milestone levelling), with hit
    /// points in range, no score raised above 20 and no spell learned twice.
    LevelledUp(Box<super::LevelUp>),
    /// The fight ends.
    EncounterEnded,
    /// Exploration, combat or social.
    ModeSet {
        /// The mode.
        mode: Mode,
    },
    /// Time passes.
    TimeAdvanced {
        /// Minutes.
        minutes: u32,
    },
    /// A fact goes into the structured memory.
    Remembered {
        /// The fact.
        fact: super::MemoryFact,
    },
    /// The campaign summary is replaced (older turns folded in).
    SummaryUpdated {
        /// The new summary.
        summary: String,
    },
    /// A campaign that had no dice seed gets one (see [`GameState::dice_seed`]): refused when
    /// it already has one, so a seed once set never changes.
    ///
    /// [`GameState::dice_seed`]: super::GameState::dice_seed
    DiceSeeded {
        /// The new seed.
        seed: super::DiceSeed,
    },
    /// The campaign commits to a fair-dice seed ([`crate::dice::fair`]), in a record of its
    /// own before any turn rolls with it: refused while another seed is in force, or when the
    /// commitment is not the seed's SHA-256. The seed is secret (`Debug` prints `<secret>`).
    FairCommitted {
        /// The seed, its commitment, the client seed and the first turn it covers.
        commit: super::FairCommit,
    },
    /// The fair-dice seed in force is revealed and listed with the turns it covered (up to
    /// `last_turn`); fair dice stay off until another seed is committed.
    FairRevealed {
        /// The history number of the last turn the seed covered.
        last_turn: u64,
    },
    /// A creature summoned on the party's side joins the world where its caster is and, in a
    /// fight, the order at `initiative` (`state::summons`): refused for an id in use, a
    /// hostile creature, or a caster who is not a living character.
    Summoned {
        /// The creature, with [`MonsterInstance::summoned`](super::MonsterInstance::summoned)
        /// naming its caster.
        monster: Box<super::MonsterInstance>,
        /// Its initiative total in a running fight (`None` outside one).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        initiative: Option<i32>,
        /// Its speed in the fight, in feet.
        #[serde(default)]
        speed: u32,
    },
    /// A summoned creature is told which foe to attack on its next turn (`None`: no command):
    /// refused for a creature that is not a summon.
    SummonCommanded {
        /// The summon.
        monster: String,
        /// The foe, by id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// Magic locks an exit (Arcane Lock): it is locked, and `dc_bonus` is added to the DC to
    /// pick or force it (the higher of this and any earlier bonus counts: two do not add up).
    ExitWarded {
        /// The location.
        location: String,
        /// The exit's direction.
        direction: String,
        /// Added to the DC to pick or force the lock.
        dc_bonus: i32,
    },
    /// A preparing caster's new spell list after a long rest (`character::preparing`): the
    /// whole list (cantrips and always-prepared spells kept), and a wizard's spellbook with
    /// what it no longer prepares.
    SpellsPrepared {
        /// The character.
        character: String,
        /// Its spells now.
        spells: Vec<String>,
        /// Its spellbook now (empty for a class without one).
        spellbook: Vec<String>,
    },
    /// Expended spell slots come back outside a long rest (a wizard's Arcane Recovery, a Land
    /// druid's Natural Recovery): one slot of each level listed; refused when a listed level
    /// has no expended slot (`state::slot_recovery`).
    SlotsRecovered {
        /// The caster.
        character: String,
        /// The level of each slot recovered ([1, 1]: two 1st-level slots).
        levels: Vec<u8>,
    },
    /// A step of a monk's turn (`state::MonkStep`): Martial Arts' bonus strike opened by an
    /// Attack action with an unarmed strike or monk weapon, Stunning Strike readied or spent,
    /// Step of the Wind's Dash or Disengage. Refused off the monk's turn.
    MonkTurn {
        /// The monk.
        character: String,
        /// What happened.
        step: super::MonkStep,
    },
    /// Spent uses of a pool come back before a rest (sorcery points from a spell slot):
    /// refused past what is spent.
    FeatureUsesRegained {
        /// The character.
        character: String,
        /// The feature's slug ("font-of-magic").
        feature: String,
        /// How many come back.
        count: u8,
    },
    /// A spent spell slot is whole again (Flexible Casting's points into a slot): refused when
    /// no slot of that level is spent.
    SlotCreated {
        /// The caster.
        character: String,
        /// The slot level.
        level: u8,
    },
    /// A timed effect lasts longer (Extended Spell): `rounds` left from now, refused below what
    /// it has or for one that lasts until dispelled.
    TimedEffectExtended {
        /// The effect, as it is now.
        effect: super::TimedEffect,
        /// Its rounds left now.
        rounds: u32,
    },
    /// A warlock conjures its pact weapon (Pact of the Blade): its attack, named
    /// "`<weapon> (pact)`", magical and proficient, replaces any pact weapon on the sheet.
    PactWeaponConjured {
        /// The warlock.
        character: String,
        /// The weapon's attack.
        attack: super::CharacterAttack,
    },
    /// A raging character attacked a hostile creature: its rage lasts past the end of this
    /// turn (`state::rage`); refused for a character that is not raging.
    RageKeptUp {
        /// The character.
        character: String,
    },
    /// An NPC goes to another room (a story effect, `state::story`).
    NpcMoved {
        /// The NPC.
        npc: String,
        /// The room it goes to.
        location: String,
    },
    /// A monster turns on the party: hostile and seen (a story effect).
    MonsterProvoked {
        /// The monster.
        monster: String,
    },
    /// The adventure ends with one of its endings; refused for an ending the adventure does
    /// not have, or a second time.
    AdventureEnded {
        /// The ending's id.
        ending: String,
    },
    /// What a monster's defeat sets in motion has been played (it is not played again).
    DefeatPlayed {
        /// The monster.
        monster: String,
    },
    /// An answer to a puzzle was judged (`state::puzzle`): right (it is solved) or wrong (one
    /// attempt spent); refused for a puzzle solved or out of attempts.
    PuzzleAnswered {
        /// The puzzle's id.
        puzzle: String,
        /// Whether the answer was right.
        solved: bool,
    },
    /// The party notices a feature's trap (`state::traps`): it is avoided from now on.
    TrapNoticed {
        /// The location.
        location: String,
        /// The feature's id.
        feature: String,
    },
    /// An object takes damage (`state::traps`); at its hit points it breaks. Refused for a
    /// feature that is no object, or one already broken.
    ObjectDamaged {
        /// The location.
        location: String,
        /// The feature's id.
        feature: String,
        /// The damage, after its defenses.
        amount: u32,
    },
    /// Something happened between the party and an NPC: a topic told, a gift given, a request
    /// granted, an attempt failed, a lie believed (`state::social`).
    NpcSocial {
        /// The NPC.
        npc: String,
        /// What happened.
        event: super::SocialEvent,
    },
}

/// Why a change could not apply. Messages name what was wrong and what would be valid, so a
/// tool can hand them to the LLM as they are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChangeError {
    /// No such character.
    #[error("no character {id:?}; the characters are: {}", .known.join(", "))]
    UnknownCharacter {
        /// The id given.
        id: String,
        /// The ids that exist.
        known: Vec<String>,
    },
    /// No such monster.
    #[error("no monster {id:?}; the monsters are: {}", .known.join(", "))]
    UnknownMonster {
        /// The id given.
        id: String,
        /// The ids that exist.
        known: Vec<String>,
    },
    /// No such location, feature, exit or NPC.
    #[error("no {what} {id:?}{}", hint(.known))]
    Unknown {
        /// "location", "feature", "exit", "NPC".
        what: &'static str,
        /// The id given.
        id: String,
        /// What exists there.
        known: Vec<String>,
    },
    /// Not enough of an item.
    #[error("{character} has {has} {item:?}, not the {asked} asked for")]
    NotEnough {
        /// Whose.
        character: String,
        /// The item.
        item: String,
        /// How many there are.
        has: u32,
        /// How many were asked for.
        asked: u32,
    },
    /// Not enough gold.
    #[error("{character} has {has} gp and cannot spend {asked}")]
    NotEnoughGold {
        /// Whose purse.
        character: String,
        /// What is in it.
        has: u32,
        /// What was asked.
        asked: u64,
    },
    /// The exit cannot be used now.
    #[error("the exit {direction:?} is {why}")]
    ExitBlocked {
        /// The exit.
        direction: String,
        /// "locked" or "not found yet".
        why: &'static str,
    },
    /// A spell slot problem.
    #[error("{character}: {source}")]
    Slot {
        /// The caster.
        character: String,
        /// What the rules said.
        #[source]
        source: SlotError,
    },
    /// Healing or hit points for a creature that is dead: the dead stay dead.
    #[error(
        "{id} is dead: {what} cannot bring back the dead; heal only the living (a character at 0 HP who is not dead can still be healed)"
    )]
    Dead {
        /// The dead creature.
        id: String,
        /// What was refused ("healing", "temporary hit points").
        what: &'static str,
    },
    /// An amount out of range or an action that makes no sense in the current state.
    #[error("{0}")]
    Invalid(String),
}

fn hint(known: &[String]) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!("; valid: {}", known.join(", "))
    }
}

/// A feature use spends one unless it says otherwise (older saves have no count).
fn one() -> u8 {
    1
}
