//! [`Change`]: every way a campaign's state can move, each checked before it applies.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::GameState;
use super::character::{Coating, ItemStack};
use super::world::{Disposition, InitiativeSlot, Mode};
use crate::rules::{AtZero, Condition, DeathSaves, SlotError, apply_damage, heal};

/// Who a change to hit points or conditions is about: a character or a monster, by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Target {
    /// A player character.
    Character(String),
    /// A monster instance.
    Monster(String),
}

/// One validated, serializable delta to a [`GameState`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
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
    /// One of a character's weapons is coated (an oil) until the fight ends.
    WeaponCoated {
        /// Whose.
        character: String,
        /// The attack, as named on the sheet ("Greatsword").
        attack: String,
        /// The coating.
        coating: Coating,
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
    /// The next combatant's turn (and the next round after the last).
    TurnAdvanced,
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
}

/// Why a change could not apply. Messages name what was wrong and what would be valid, so a
/// tool can hand them to the LLM as they are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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

pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    match change {
        Change::Damage {
            target,
            amount,
            critical,
        } => {
            let (hp, at_zero, saves) = creature_hp(state, target)?;
            let outcome = apply_damage(hp, *amount, at_zero, *critical);
            if let Some(saves) = saves
                && outcome.death_save_failures > 0
            {
                saves.take_damage(outcome.death_save_failures);
            }
            if outcome.killed
                && let Target::Character(id) = target
            {
                character_mut(state, id)?.dead = true;
            }
            if let Target::Character(id) = target {
                let c = character_mut(state, id)?;
                if c.death_saves.is_dead() {
                    c.dead = true;
                }
                if outcome.dropped_to_zero {
                    c.conditions.add(Condition::Unconscious);
                }
            }
        }
        Change::Heal { target, amount } => {
            if let Target::Character(id) = target
                && character_mut(state, id)?.dead
            {
                return Err(ChangeError::Invalid(format!(
                    "{id} is dead: healing does not bring back the dead"
                )));
            }
            let (hp, _, saves) = creature_hp(state, target)?;
            let outcome = heal(hp, *amount);
            if outcome.revived {
                if let Some(saves) = saves {
                    saves.reset();
                }
                if let Target::Character(id) = target {
                    character_mut(state, id)?
                        .conditions
                        .remove(Condition::Unconscious);
                }
            }
        }
        Change::TemporaryHp { target, amount } => {
            creature_hp(state, target)?.0.grant_temporary(*amount)
        }
        Change::ConditionAdded { target, condition } => {
            conditions_mut(state, target)?.add(*condition)
        }
        Change::ConditionRemoved { target, condition } => {
            conditions_mut(state, target)?.remove(*condition)
        }
        Change::DeathSaves {
            character,
            saves,
            regains_one_hp,
        } => {
            let c = character_mut(state, character)?;
            if c.hp.current > 0 {
                return Err(ChangeError::Invalid(format!(
                    "{character} has {} HP: death saves are only rolled at 0",
                    c.hp.current
                )));
            }
            c.death_saves = *saves;
            c.dead = saves.is_dead();
            if *regains_one_hp {
                c.hp.current = 1;
                c.death_saves.reset();
                c.conditions.remove(Condition::Unconscious);
            }
        }
        Change::SlotSpent { character, level } => {
            let c = character_mut(state, character)?;
            c.spell_slots
                .spend(*level)
                .map_err(|source| ChangeError::Slot {
                    character: character.clone(),
                    source,
                })?;
        }
        Change::Concentration { character, spell } => {
            character_mut(state, character)?.concentration = spell.clone()
        }
        Change::HitDiceSpent { character, count } => {
            let c = character_mut(state, character)?;
            if *count > c.hit_dice.available() {
                return Err(ChangeError::Invalid(format!(
                    "{character} has {} hit dice left, not {count}",
                    c.hit_dice.available()
                )));
            }
            c.hit_dice.spent += count;
        }
        Change::PactSlotsRecovered { character } => {
            character_mut(state, character)?.spell_slots.recover_pact()
        }
        Change::LongRest { character } => {
            let c = character_mut(state, character)?;
            if c.dead {
                return Err(ChangeError::Invalid(format!(
                    "{character} is dead and cannot rest"
                )));
            }
            crate::rules::long_rest(
                &mut c.hp,
                &mut c.hit_dice,
                &mut c.spell_slots,
                &mut c.conditions,
                &mut c.death_saves,
            );
            c.conditions.remove(Condition::Unconscious);
        }
        Change::ItemAdded { character, item } => {
            if item.quantity == 0 || item.name.trim().is_empty() {
                return Err(ChangeError::Invalid(
                    "an added item needs a name and a quantity of at least 1".into(),
                ));
            }
            add_item(
                Arc::make_mut(&mut character_mut(state, character)?.inventory),
                item.clone(),
            );
        }
        Change::ItemRemoved {
            character,
            item,
            quantity,
        } => {
            let c = character_mut(state, character)?;
            take_item(Arc::make_mut(&mut c.inventory), item, *quantity).map_err(|has| {
                ChangeError::NotEnough {
                    character: character.clone(),
                    item: item.clone(),
                    has,
                    asked: *quantity,
                }
            })?;
        }
        Change::WeaponCoated {
            character,
            attack,
            coating,
        } => {
            let c = character_mut(state, character)?;
            let names: Vec<String> = c.attacks.iter().map(|a| a.name.clone()).collect();
            let name = c.name.clone();
            let target = Arc::make_mut(&mut c.attacks)
                .iter_mut()
                .find(|a| a.name.eq_ignore_ascii_case(attack))
                .ok_or_else(|| {
                    ChangeError::Invalid(format!(
                        "{name} has no attack {attack:?}; the attacks are: {}",
                        names.join(", ")
                    ))
                })?;
            target.coating = Some(coating.clone());
        }
        Change::LootTaken {
            character,
            feature,
            item,
            quantity,
        } => {
            let location_id = character_ref(state, character)?.location.clone();
            let location = location_mut(state, &location_id)?;
            let pile = match feature {
                None => &mut location.loot,
                Some(id) => {
                    let known = location
                        .features
                        .iter()
                        .filter(|f| f.is_known())
                        .map(|f| f.id.clone())
                        .collect();
                    let f = location
                        .features
                        .iter_mut()
                        .find(|f| f.id == *id && f.is_known())
                        .ok_or(ChangeError::Unknown {
                            what: "feature",
                            id: id.clone(),
                            known,
                        })?;
                    &mut f.loot
                }
            };
            let mut taken =
                take_item(pile, item, *quantity).map_err(|has| ChangeError::NotEnough {
                    character: location_id.clone(),
                    item: item.clone(),
                    has,
                    asked: *quantity,
                })?;
            taken.quantity = *quantity;
            add_item(
                Arc::make_mut(&mut character_mut(state, character)?.inventory),
                taken,
            );
        }
        Change::Gold { character, delta } => {
            let c = character_mut(state, character)?;
            let new = i64::from(c.gold) + delta;
            if new < 0 {
                return Err(ChangeError::NotEnoughGold {
                    character: character.clone(),
                    has: c.gold,
                    asked: delta.unsigned_abs(),
                });
            }
            c.gold =
                u32::try_from(new).map_err(|_| ChangeError::Invalid("too much gold".into()))?;
        }
        Change::PartyMoved { exit } => {
            let Some(here) = state.party_location() else {
                return Err(ChangeError::Invalid("the party has no location".into()));
            };
            let found = here
                .exits
                .iter()
                .find(|e| e.direction.eq_ignore_ascii_case(exit) || e.to == *exit);
            let Some(found) = found.filter(|e| !e.hidden) else {
                let known = here
                    .exits
                    .iter()
                    .filter(|e| !e.hidden)
                    .map(|e| format!("{} (to {})", e.direction, e.to))
                    .collect();
                return Err(ChangeError::Unknown {
                    what: "exit",
                    id: exit.clone(),
                    known,
                });
            };
            if found.locked {
                return Err(ChangeError::ExitBlocked {
                    direction: found.direction.clone(),
                    why: "locked",
                });
            }
            let to = found.to.clone();
            location_mut(state, &to)?.visited = true;
            for c in Arc::make_mut(&mut state.characters) {
                c.location = to.clone();
            }
        }
        Change::FeatureFound { location, feature } => {
            feature_mut(state, location, feature)?.found = true
        }
        Change::TrapSpent { location, feature } => {
            let f = feature_mut(state, location, feature)?;
            let trap = f
                .trap
                .as_mut()
                .ok_or_else(|| ChangeError::Invalid(format!("{feature} is not a trap")))?;
            trap.spent = true;
        }
        Change::ExitFound {
            location,
            direction,
        } => exit_mut(state, location, direction)?.hidden = false,
        Change::ExitUnlocked {
            location,
            direction,
        } => exit_mut(state, location, direction)?.locked = false,
        Change::MonsterRevealed { monster } => monster_mut(state, monster)?.revealed = true,
        Change::NpcGoalAdvanced { npc } => {
            let n = npc_mut(state, npc)?;
            if n.current_step >= n.goal_steps.len() {
                return Err(ChangeError::Invalid(format!(
                    "{} has no goal step left",
                    n.name
                )));
            }
            n.current_step += 1;
        }
        Change::NpcGoalRevealed { npc } => npc_mut(state, npc)?.goal_revealed = true,
        Change::NpcDisposition { npc, disposition } => {
            npc_mut(state, npc)?.disposition = *disposition
        }
        Change::FlagSet { key, value } => {
            if key.trim().is_empty() {
                return Err(ChangeError::Invalid("a flag needs a name".into()));
            }
            Arc::make_mut(&mut state.flags).insert(key.clone(), value.clone());
        }
        Change::EncounterStarted { order } => {
            if state.encounter.is_some() {
                return Err(ChangeError::Invalid(
                    "an encounter is already running; end it first".into(),
                ));
            }
            if order.is_empty() {
                return Err(ChangeError::Invalid(
                    "an encounter needs at least one combatant".into(),
                ));
            }
            for slot in order {
                if state.character(&slot.id).is_none() && state.monster(&slot.id).is_none() {
                    return Err(ChangeError::Invalid(format!(
                        "{:?} in the initiative order is neither a character nor a monster",
                        slot.id
                    )));
                }
            }
            state.encounter = Some(super::Encounter {
                order: order.clone(),
                round: 1,
                turn: 0,
            });
            state.mode = Mode::Combat;
        }
        Change::TurnAdvanced => {
            let e = state
                .encounter
                .as_mut()
                .ok_or_else(|| ChangeError::Invalid("no encounter is running".into()))?;
            e.turn += 1;
            if e.turn >= e.order.len() {
                e.turn = 0;
                e.round += 1;
            }
        }
        Change::EncounterEnded => {
            if state.encounter.take().is_none() {
                return Err(ChangeError::Invalid("no encounter is running".into()));
            }
            state.mode = Mode::Exploration;
            wear_off_coatings(state);
        }
        Change::ModeSet { mode } => state.mode = *mode,
        Change::TimeAdvanced { minutes } => state.time.advance(*minutes),
        Change::SummaryUpdated { summary } => state.summary = summary.clone(),
        Change::Remembered { fact } => state.memory.remember(fact),
    }
    Ok(())
}

/// Coatings last until the fight ends.
fn wear_off_coatings(state: &mut GameState) {
    let coated = |c: &super::Character| c.attacks.iter().any(|a| a.coating.is_some());
    if !state.characters.iter().any(coated) {
        return;
    }
    for character in Arc::make_mut(&mut state.characters) {
        if coated(character) {
            for attack in Arc::make_mut(&mut character.attacks) {
                attack.coating = None;
            }
        }
    }
}

fn add_item(inventory: &mut Vec<ItemStack>, item: ItemStack) {
    match inventory
        .iter_mut()
        .find(|s| s.name.eq_ignore_ascii_case(&item.name))
    {
        Some(stack) => stack.quantity = stack.quantity.saturating_add(item.quantity),
        None => inventory.push(item),
    }
}

/// Takes `quantity` of `name` out of a pile; on a shortfall returns how many there are and
/// changes nothing.
fn take_item(pile: &mut Vec<ItemStack>, name: &str, quantity: u32) -> Result<ItemStack, u32> {
    let Some(i) = pile.iter().position(|s| s.name.eq_ignore_ascii_case(name)) else {
        return Err(0);
    };
    if quantity == 0 || pile[i].quantity < quantity {
        return Err(pile[i].quantity);
    }
    pile[i].quantity -= quantity;
    let taken = ItemStack {
        quantity,
        ..pile[i].clone()
    };
    if pile[i].quantity == 0 {
        pile.remove(i);
    }
    Ok(taken)
}

fn character_ref<'a>(state: &'a GameState, id: &str) -> Result<&'a super::Character, ChangeError> {
    state
        .character(id)
        .ok_or_else(|| ChangeError::UnknownCharacter {
            id: id.into(),
            known: state.character_ids(),
        })
}

fn character_mut<'a>(
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

fn monster_mut<'a>(
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

type HpParts<'a> = (
    &'a mut crate::rules::HitPoints,
    AtZero,
    Option<&'a mut DeathSaves>,
);

fn creature_hp<'a>(state: &'a mut GameState, target: &Target) -> Result<HpParts<'a>, ChangeError> {
    match target {
        Target::Character(id) => {
            let c = character_mut(state, id)?;
            Ok((&mut c.hp, AtZero::DeathSaves, Some(&mut c.death_saves)))
        }
        Target::Monster(id) => Ok((&mut monster_mut(state, id)?.hp, AtZero::Dies, None)),
    }
}

fn conditions_mut<'a>(
    state: &'a mut GameState,
    target: &Target,
) -> Result<&'a mut crate::rules::ConditionSet, ChangeError> {
    match target {
        Target::Character(id) => Ok(&mut character_mut(state, id)?.conditions),
        Target::Monster(id) => Ok(&mut monster_mut(state, id)?.conditions),
    }
}

fn location_mut<'a>(
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

fn feature_mut<'a>(
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

fn exit_mut<'a>(
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

fn npc_mut<'a>(state: &'a mut GameState, id: &str) -> Result<&'a mut super::Npc, ChangeError> {
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
