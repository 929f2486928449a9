//! How each [`Change`] applies to a [`GameState`]: checked first, so a change that cannot
//! apply leaves the state as it was and says why.
//!
//! Kept apart from the [`Change`] type itself so that the list of changes (what a turn can do,
//! and what the stores persist) reads on its own.

use std::sync::Arc;

use super::GameState;
use super::change::{Change, ChangeError, Target};
use super::character::ItemStack;
use super::lookup::{
    character_mut, character_ref, conditions_mut, creature_hp, exit_mut, feature_mut, location_mut,
    monster_mut, npc_mut,
};
use super::world::Mode;
use crate::rules::{Condition, apply_damage, heal};

pub(super) fn apply_change(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    if super::monster::apply(state, change)? || super::progress::apply(state, change)? {
        return Ok(());
    }
    match change {
        Change::Damage {
            target,
            amount,
            critical,
        } => {
            // A druid in a beast's shape: the beast's hit points first (`timed_shape`).
            let amount = &super::timed_shape::beast_takes(state, target, *amount)?;
            let (hp, at_zero, saves) = creature_hp(state, target)?;
            let mut outcome = apply_damage(hp, *amount, at_zero, *critical);
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
                let srd = state.srd.clone();
                let c = character_mut(state, id)?;
                if c.death_saves.is_dead() {
                    c.dead = true;
                }
                super::racial::relentless_endurance(&srd, c, &mut outcome);
                if outcome.dropped_to_zero {
                    c.conditions.add(Condition::Unconscious);
                }
            }
        }
        Change::Heal { target, amount } => {
            refuse_the_dead(state, target, "healing")?;
            // A creature that regains no hit points (Chill Touch) is healed by nothing.
            let blocked = super::blocks_healing(super::timed_effects(state, target.id()));
            let amount = if blocked { 0 } else { *amount };
            let (hp, _, saves) = creature_hp(state, target)?;
            let outcome = heal(hp, amount);
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
            refuse_the_dead(state, target, "temporary hit points")?;
            creature_hp(state, target)?.0.grant_temporary(*amount)
        }
        Change::ConditionAdded { target, condition } => {
            conditions_mut(state, target)?.add(*condition)
        }
        Change::ConditionRemoved { target, condition } => {
            conditions_mut(state, target)?.remove(*condition);
            super::timed::condition_removed(state, target.id(), *condition);
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
        Change::ReactionsDeclared {
            character,
            reactions,
        } => character_mut(state, character)?.reactions = reactions.clone(),
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
            // A character, or a monster casting its spells (a cult fanatic's Hold Person).
            if state.character(character).is_none() && state.monster(character).is_some() {
                super::timed::concentration_ends(state, character);
                super::lookup::monster_mut(state, character)?.concentration = spell.clone();
            } else {
                character_mut(state, character)?; // an unknown creature is refused first
                super::timed::concentration_ends(state, character); // the old spell's effects end
                character_mut(state, character)?.concentration = spell.clone()
            }
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
        Change::FeatureUsed { .. }
        | Change::FeatureUsesRestored { .. }
        | Change::ActionSurged { .. } => super::feature_uses::apply(state, change)?,
        Change::SpellsPrepared { .. } => super::prepared::apply(state, change)?,
        Change::MonkTurn { character, step } => super::monk_turn::apply(state, character, *step)?,
        Change::RageKeptUp { character } => super::rage::fed(state, character)?,
        Change::PactSlotsRecovered { character } => {
            character_mut(state, character)?.spell_slots.recover_pact()
        }
        Change::LongRest { character } => {
            let now = state.time;
            let c = character_mut(state, character)?;
            if c.dead {
                return Err(ChangeError::Invalid(format!(
                    "{character} is dead and cannot rest"
                )));
            }
            // One long rest in 24 hours: the next may begin a day after the last began.
            if let Some(last) = c.last_long_rest
                && now.total_minutes() < last.total_minutes() + 24 * 60
            {
                let mut next = last;
                next.advance(24 * 60);
                return Err(ChangeError::Invalid(format!(
                    "{} began a long rest at {}; only one long rest counts in 24 hours, so the next may begin at {} (a short rest is allowed now)",
                    c.name,
                    last.describe(),
                    next.describe()
                )));
            }
            c.last_long_rest = Some(now);
            super::timed_shape::revert(state, character); // the rest is taken in one's own body
            let c = character_mut(state, character)?;
            c.feature_uses.clear();
            super::monster::restore_drained(c);
            if c.inventory.iter().any(|s| s.used_today > 0) {
                for s in Arc::make_mut(&mut c.inventory) {
                    s.used_today = 0; // dawn comes during the rest
                }
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
        Change::ItemPowerUsed { character, item } => {
            let c = character_mut(state, character)?;
            let name = c.name.clone();
            let stack = Arc::make_mut(&mut c.inventory)
                .iter_mut()
                .find(|s| s.name.eq_ignore_ascii_case(item))
                .ok_or_else(|| ChangeError::Invalid(format!("{name} carries no {item:?}")))?;
            let Some(per_day) = stack.magic.as_ref().and_then(|m| m.per_day) else {
                return Err(ChangeError::Invalid(format!(
                    "{} has no power of limited uses a day",
                    stack.name
                )));
            };
            if stack.used_today >= per_day {
                return Err(ChangeError::Invalid(format!(
                    "{name}'s {} is spent ({per_day} use a day): it comes back at dawn, after a long rest",
                    stack.name
                )));
            }
            stack.used_today += 1;
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
            // The party moves if one of it can walk (carrying the fallen); the dead, the
            // dying and the held do not walk.
            let walks = |c: &super::Character| {
                !c.dead && c.hp.current > 0 && c.conditions.speed(c.speed) > 0
            };
            if !state.characters.iter().any(walks) {
                return Err(ChangeError::Invalid(
                    "no one in the party can move: each is dead, at 0 HP, or held (grappled, restrained, paralyzed, petrified, stunned, unconscious or exhausted to speed 0); someone must be on their feet and free to walk".into(),
                ));
            }
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
            let from = here.id.clone();
            location_mut(state, &to)?.visited = true;
            for c in Arc::make_mut(&mut state.characters) {
                c.location = to.clone();
            }
            super::summons::party_moved(state, &from, &to); // the party's summons go along
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
            let now = state.time.total_minutes();
            Arc::make_mut(&mut state.story)
                .step_reached_at
                .insert(npc.clone(), now);
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
                budget: crate::rules::TurnBudget::default(),
                reactions_used: Vec::new(),
                effects: Vec::new(),
                positions: Default::default(),
            });
            state.mode = Mode::Combat;
        }
        Change::TurnAdvanced => {
            // What lasts "until the end of your turn" ends before the next turn begins.
            super::timed::turn_ended(state);
            super::rage::turn_ended(state);
            let e = state
                .encounter
                .as_mut()
                .ok_or_else(|| ChangeError::Invalid("no encounter is running".into()))?;
            super::effects::turn_ended(e);
            e.turn += 1;
            if e.turn >= e.order.len() {
                e.turn = 0;
                e.round += 1;
            }
            // A creature's turn starts fresh, and its reaction comes back.
            e.budget = crate::rules::TurnBudget::default();
            let now = e.current().unwrap_or_default().to_owned();
            e.reactions_used.retain(|r| !r.eq_ignore_ascii_case(&now));
            super::effects::turn_started(e);
            super::timed::turn_started(state);
        }
        Change::Revived {
            character,
            within_rounds,
        } => super::revive::revive(state, character, *within_rounds)?,
        Change::Spent { creature, spend } => super::turn::spend(state, creature, *spend)?,
        Change::Moved { creature, to } => super::turn::place(state, creature, *to)?,
        Change::EffectStarted { effect } => super::effects::start(state, effect)?,
        Change::EffectEnded { effect } => super::effects::end(state, effect)?,
        Change::TimedEffectStarted { effect } => super::timed::start(state, effect)?,
        Change::TimedEffectEnded { effect } => super::timed::end(state, effect)?,
        Change::EncounterEnded => {
            if state.encounter.take().is_none() {
                return Err(ChangeError::Invalid("no encounter is running".into()));
            }
            state.mode = Mode::Exploration;
        }
        Change::ModeSet { mode } => state.mode = *mode,
        Change::TimeAdvanced { minutes } => {
            state.time.advance(*minutes);
            super::timed::time_passed(state, *minutes);
            super::monster::rested(state, *minutes);
        }
        Change::SummaryUpdated { summary } => state.summary = summary.as_str().into(),
        Change::FairCommitted { commit } => super::fair::committed(state, commit)?,
        Change::FairRevealed { last_turn } => super::fair::revealed(state, *last_turn)?,
        Change::DiceSeeded { seed } => {
            if state.dice_seed.is_set() || !seed.is_set() {
                return Err(ChangeError::Invalid(
                    "a campaign's dice seed is set once, to a value other than 0".into(),
                ));
            }
            state.dice_seed = *seed;
        }
        Change::Summoned {
            monster,
            initiative,
            speed,
        } => super::summons::summoned(state, monster, *initiative, *speed)?,
        Change::SummonCommanded { monster, target } => {
            super::summons::commanded(state, monster, target.as_deref())?
        }
        Change::Remembered { fact } => Arc::make_mut(&mut state.memory).remember(fact),
        Change::ExitWarded {
            location,
            direction,
            dc_bonus,
        } => {
            let exit = exit_mut(state, location, direction)?;
            exit.locked = true;
            exit.lock_bonus = exit.lock_bonus.max(*dc_bonus);
        }
        Change::SlotsRecovered { character, levels } => {
            super::slot_recovery::recover(state, character, levels)?
        }
        // Applied by `monster::apply` and `progress::apply` above.
        Change::MoraleChanged { .. }
        | Change::ActionSpent { .. }
        | Change::UseSpent { .. }
        | Change::UsesRestored { .. }
        | Change::ActionRecharged { .. }
        | Change::HoldStarted { .. }
        | Change::HoldEnded { .. }
        | Change::MaxHpDrained { .. }
        | Change::XpGained { .. }
        | Change::MilestoneReached { .. }
        | Change::LevelledUp(_) => {}
        Change::FeatureUsesRegained { .. }
        | Change::SlotCreated { .. }
        | Change::TimedEffectExtended { .. } => super::sorcery::apply(state, change)?,
        Change::PactWeaponConjured { .. } => super::pact::apply(state, change)?,
        Change::NpcMoved { .. }
        | Change::MonsterProvoked { .. }
        | Change::AdventureEnded { .. }
        | Change::DefeatPlayed { .. } => super::story::apply(state, change)?,
        Change::PuzzleAnswered { puzzle, solved } => {
            super::puzzle::answered(state, puzzle, *solved)?
        }
        Change::TrapNoticed { .. } | Change::ObjectDamaged { .. } => {
            super::traps::apply(state, change)?
        }
        Change::NpcSocial { npc, event } => super::social::apply(state, npc, event)?,
    }
    if let Change::Damage { target, amount, .. } = change
        && *amount > 0
    {
        super::timed::damaged(state, target.id()); // Sleep ends on damage
        super::rage::kept_up(state, target.id()); // hurt: the rage goes on
        super::summons::damaged(state, target.id()); // a summon at 0 HP is gone
    }
    if matches!(
        change,
        Change::Damage { .. }
            | Change::ConditionAdded { .. }
            | Change::ConditionRemoved { .. }
            | Change::TimedEffectStarted { .. }
            | Change::TimedEffectEnded { .. }
    ) {
        super::effects::prune(state); // no effect outlives its creature's ability to act
        super::effects::drop_lost_concentration(state);
        super::timed::orphans_end(state); // nor a spell its caster stopped concentrating on
    }
    super::rage::prune(state); // no rage outlives consciousness, its turn, or its marker
    Ok(())
}

/// The dead stay dead: a character marked dead, or a monster at 0 HP (monsters die at 0), gets
/// no healing or hit points of any kind. The one place this is checked, so a spell, a potion
/// and a tool all meet the same refusal.
fn refuse_the_dead(
    state: &GameState,
    target: &Target,
    what: &'static str,
) -> Result<(), ChangeError> {
    let dead = match target {
        Target::Character(id) => character_ref(state, id)?.dead,
        Target::Monster(id) => match state
            .monsters
            .iter()
            .find(|m| m.id.eq_ignore_ascii_case(id))
        {
            Some(m) => !m.is_alive(),
            None => {
                return Err(ChangeError::UnknownMonster {
                    id: id.clone(),
                    known: state.monsters.iter().map(|m| m.id.clone()).collect(),
                });
            }
        },
    };
    if dead {
        let id = match target {
            Target::Character(id) | Target::Monster(id) => id.clone(),
        };
        return Err(ChangeError::Dead { id, what });
    }
    Ok(())
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
