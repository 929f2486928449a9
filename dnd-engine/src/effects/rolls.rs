//! What timed effects do to later rolls and turns: the dice Bless adds and Bane takes away
//! ([`roll_bonus`], asked by every attack roll and saving throw the tools make), and the save a
//! held creature repeats at the end of each of its turns ([`end_of_turn_saves`]).

use crate::dice::DieSource;

use super::casting::Casting;

use crate::rules::check::roll_check_with;
use crate::rules::conditions::save_modifiers;
use crate::rules::{Ability, CheckResult, ConditionSet};
use crate::state::{
    Change, GameState, RollKind, Target, TimedKind, concentration_of, roll_dice_on, timed_effects,
};
use crate::store::{RollDetail, RollRecord};

/// The dice a creature's timed effects add to one roll, rolled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bonus {
    /// Added to the roll (negative for a penalty).
    pub total: i32,
    /// Each, in words: "+3: Bless (1d4)", "-2: Bane (1d4)".
    pub reasons: Vec<String>,
    /// The effects this roll spent (Guidance, Resistance: one roll, then the spell ends), as
    /// the changes that end them: the caller commits them with the roll.
    pub spent: Vec<Change>,
}

/// Rolls the dice `creature`'s timed effects add to (or take from) a roll of `kind` (Bless,
/// Bane: 1d4 on attack rolls and saves; the same spell twice counts once). No dice rolled when
/// it has none. Dice good for one roll (Guidance, Resistance) are spent by this one: their
/// ending changes come back in [`Bonus::spent`].
pub fn roll_bonus<R: DieSource + ?Sized>(
    state: &GameState,
    creature: &str,
    kind: RollKind,
    rng: &mut R,
) -> Bonus {
    let mut bonus = Bonus::default();
    // Warding Bond's +1 on saves, flat (`bond.rs`).
    if kind == RollKind::Save
        && let Some(spell) = super::bond::bond_save_bonus(timed_effects(state, creature))
    {
        bonus.total += 1;
        bonus.reasons.push(format!("+1: {spell}"));
    }
    for (spell, count, sides, penalty) in roll_dice_on(timed_effects(state, creature), kind) {
        let rolled: i32 = (0..count)
            .map(|_| i32::from(rng.die(u32::from(sides)) as u16))
            .sum();
        let signed = if penalty { -rolled } else { rolled };
        bonus.total += signed;
        bonus
            .reasons
            .push(format!("{signed:+}: {spell} ({count}d{sides})"));
        let once = timed_effects(state, creature).iter().find(|e| {
            e.spell.eq_ignore_ascii_case(spell)
                && matches!(
                    e.kind,
                    TimedKind::RollDice {
                        next_only: true,
                        ..
                    }
                )
        });
        if let Some(effect) = once {
            // The spell ends: held by concentration, the caster's concentration ends with it
            // (which ends the effect), else the effect alone.
            let held = effect.concentration
                && concentration_of(state, &effect.source)
                    .is_some_and(|on| on.eq_ignore_ascii_case(&effect.spell));
            bonus.spent.push(if held {
                Change::Concentration {
                    character: effect.source.clone(),
                    spell: None,
                }
            } else {
                Change::TimedEffectEnded {
                    effect: effect.clone(),
                }
            });
        }
    }
    bonus
}

/// Adds what a roll's `bonus` spent (Resistance's one d4) to a resolution's `changes`, once: a
/// second roll in the same casting sees the state before it and would spend it again. A
/// casting that starts its caster's concentration has already ended the spell the caster held:
/// its spending is not repeated (it would end the new one).
pub(super) fn keep_spent(changes: &mut Vec<Change>, casting: Casting<'_>, bonus: &mut Bonus) {
    let caster = &casting.caster.id;
    for change in bonus.spent.drain(..) {
        let moved = casting.concentration
            && matches!(&change, Change::Concentration { character, .. } if character == caster);
        if !moved && !changes.contains(&change) {
            changes.push(change);
        }
    }
}

/// A save repeated at the end of a turn against a timed effect.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RepeatedSave {
    /// Who saved (id).
    pub by: String,
    /// Against what ("Hold Person").
    pub against: String,
    /// The save.
    pub result: CheckResult,
    /// Whether it ended the effect.
    pub ended: bool,
}

/// At the end of `creature`'s turn: a save against each of its timed effects that allows one
/// (Hold Person), `saves` its save modifiers in [`Ability::ALL`] order; a success ends the
/// effect (and lifts its condition). The changes to commit, the rolls and the saves.
pub fn end_of_turn_saves<R: DieSource + ?Sized>(
    state: &GameState,
    creature: &str,
    saves: [i32; 6],
    conditions: ConditionSet,
    rng: &mut R,
) -> (Vec<Change>, Vec<RollRecord>, Vec<RepeatedSave>) {
    let (mut changes, mut rolls, mut made) = (Vec::new(), Vec::new(), Vec::new());
    let target = match state.character(creature) {
        Some(c) => Target::Character(c.id.clone()),
        None => Target::Monster(creature.to_owned()),
    };
    for effect in timed_effects(state, creature) {
        let TimedKind::Condition {
            repeat_save: Some(save),
            ..
        } = effect.kind
        else {
            continue;
        };
        let ability: Ability = save.ability;
        let (mut sources, auto_fail) = save_modifiers(&conditions, ability);
        sources.extend(crate::combat::save_situation(state, creature, ability));
        let bonus = roll_bonus(state, creature, RollKind::Save, rng);
        for spent in bonus.spent {
            if !changes.contains(&spent) {
                changes.push(spent);
            }
        }
        let modifier = saves[ability as usize] + bonus.total;
        let mut result = roll_check_with(modifier, save.dc, &sources, auto_fail, rng);
        // Bardic Inspiration, where the die could turn the failure.
        let inspired = super::inspire_check(state, creature, &mut result, &changes, rng);
        let note = inspired.map_or_else(String::new, |i| {
            changes.push(i.spent);
            format!(" ({})", i.reason)
        });
        rolls.push(RollRecord::new(
            format!(
                "{} {ability} save to end {}{note}",
                state.name_of(creature),
                effect.spell
            ),
            i64::from(result.total),
            Some(target.clone()),
            RollDetail::Save(result.clone()),
        ));
        if result.success {
            changes.push(Change::TimedEffectEnded {
                effect: effect.clone(),
            });
        }
        made.push(RepeatedSave {
            by: creature.to_owned(),
            against: effect.spell.clone(),
            ended: result.success,
            result,
        });
    }
    (changes, rolls, made)
}
