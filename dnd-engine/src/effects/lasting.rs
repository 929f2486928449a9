//! The lasting effects beyond AC, dice and conditions: advantage and disadvantage, speed,
//! no healing, resistance, extra weapon damage, and a condition kept until what ends it by the
//! rules (prone), ending a condition, stabilising the dying. Each lasting one is a `state::TimedEffect` of its own kind, so the state ends it with
//! its duration or the caster's concentration like any other; what it does to later rolls is
//! read in one place each:
//!
//! | kind | read by |
//! |---|---|
//! | `Advantage` | `combat::effects` (attack, check and save situations), which also spends a `next_only` one |
//! | `Speed` | `state::speed_now` through `state::speed_with` |
//! | `NoHealing` | `Change::Heal` as the state applies it, and `heals_nothing` here for the report |
//! | `Resistance` | `tools::creature::find` (every tool's view of a creature's defenses) |
//! | `WeaponDamage` | `tools::combat` on each weapon hit, which ends a `next_hit_only` one |
//!
//! Two effects end something instead: `end_condition` (Lesser Restoration) and
//! `stabilize` (Spare the Dying).

use super::casting::{Outcome, Subject};
use super::vocabulary::{Dice, Effect};
use crate::dice::Advantage;
use crate::rules::{AdvantageSources, Condition};
use crate::state::{
    Change, GameState, RollOn, TimedEffect, TimedKind, blocks_healing, timed_effects,
};

/// The timed kind a lasting effect starts, its dice fixed by `dice_at` (count, sides, bonus
/// for the casting); `None` for the effects that are not one of these.
pub(super) fn timed_kind(
    effect: &Effect,
    dice_at: impl Fn(&Dice) -> (u16, u16, i32),
) -> Option<TimedKind> {
    Some(match effect {
        Effect::Advantage {
            on,
            ability,
            disadvantage,
            next_only,
            source_only,
            ..
        } => TimedKind::Advantage {
            on: *on,
            ability: *ability,
            disadvantage: *disadvantage,
            next_only: *next_only,
            source_only: *source_only,
        },
        Effect::Speed { change, .. } => TimedKind::Speed { change: *change },
        Effect::NoHealing { .. } => TimedKind::NoHealing,
        Effect::Resistance { damage_types, .. } => TimedKind::Resistance {
            damage_types: *damage_types,
        },
        Effect::WeaponDamage {
            dice,
            damage_type,
            next_hit_only,
            weapon,
            ..
        } => {
            let (count, sides, _) = dice_at(dice);
            TimedKind::WeaponDamage {
                count,
                sides,
                damage_type: *damage_type,
                next_hit_only: *next_hit_only,
                weapon: weapon.clone(),
            }
        }
        _ => return None,
    })
}

/// Why `s` regains nothing from a heal now (Chill Touch), as an outcome; `None` when it heals.
pub(super) fn heals_nothing(state: &GameState, s: &Subject) -> Option<Outcome> {
    let effects = timed_effects(state, s.target.id());
    blocks_healing(effects).then(|| {
        let by = effects
            .iter()
            .find(|e| e.kind == TimedKind::NoHealing)
            .map_or("a spell", |e| e.spell.as_str());
        Outcome::Unaffected {
            target: s.name.clone(),
            why: format!("{by}: it can regain no hit points now"),
        }
    })
}

/// A condition kept until what ends it by the rules (prone: standing up), unless `s` is immune
/// or already has it: the timed kind that imposes it and records its cause (the monster and
/// its action, the spell and its caster: `state::condition_sources`), and what happened.
pub(super) fn add_condition(s: &Subject, condition: Condition) -> (Option<TimedKind>, Outcome) {
    let why = if s.condition_immunities.contains(&condition) {
        Some(format!("immune to being {condition}"))
    } else if s.conditions.has(condition) {
        Some(format!("already {condition}"))
    } else {
        None
    };
    match why {
        Some(why) => (
            None,
            Outcome::Unaffected {
                target: s.name.clone(),
                why,
            },
        ),
        None => (
            Some(TimedKind::ConditionUntil {
                condition,
                escape: None,
                ends_on_acting: false,
            }),
            Outcome::Condition {
                target: s.name.clone(),
                condition,
            },
        ),
    }
}

/// Ends the first of `conditions` that `s` has: the timed effects imposing it end (and the
/// state lifts it with them), or, when none does, the condition is removed. Nothing to end:
/// unaffected, with why.
pub(super) fn end_condition(
    state: &GameState,
    s: &Subject,
    conditions: &[Condition],
) -> (Vec<Change>, Outcome) {
    let Some(&condition) = conditions.iter().find(|c| s.conditions.has(**c)) else {
        let names: Vec<String> = conditions.iter().map(ToString::to_string).collect();
        let why = format!("none of {} to end", names.join(", "));
        return (Vec::new(), unaffected(s, why));
    };
    let imposing: Vec<Change> = timed_effects(state, s.target.id())
        .iter()
        .filter(|e| e.condition() == Some(condition))
        .map(|e| Change::TimedEffectEnded { effect: e.clone() })
        .collect();
    let changes = if imposing.is_empty() {
        vec![Change::ConditionRemoved {
            target: s.target.clone(),
            condition,
        }]
    } else {
        imposing
    };
    let outcome = Outcome::ConditionEnded {
        target: s.name.clone(),
        condition,
    };
    (changes, outcome)
}

/// A character at 0 hit points, neither dead nor already stable, becomes stable.
pub(super) fn stabilize(state: &GameState, s: &Subject) -> (Option<Change>, Outcome) {
    let Some(c) = state.character(s.target.id()) else {
        return (None, unaffected(s, "not a dying character".to_owned()));
    };
    let change = match c.stabilised() {
        Ok(change) => change,
        Err(why) => return (None, unaffected(s, why.why().to_owned())),
    };
    let outcome = Outcome::Stabilized {
        target: s.name.clone(),
    };
    (Some(change), outcome)
}

fn unaffected(s: &Subject, why: String) -> Outcome {
    Outcome::Unaffected {
        target: s.name.clone(),
        why,
    }
}

/// Advantage and disadvantage the timed effects give one roll, with reasons, and the effects
/// the roll spends (`next_only`): asked by `combat::effects` for every attack, check and save.
#[derive(Debug, Clone, Default)]
pub struct Lasting {
    /// The sources, with reasons ("Faerie Fire on the target").
    pub sources: AdvantageSources,
    /// The effects this roll uses up, to end with it.
    pub spent: Vec<TimedEffect>,
}

impl Lasting {
    fn add(&mut self, e: &TimedEffect, why: String) {
        let TimedKind::Advantage {
            disadvantage,
            next_only,
            ..
        } = e.kind
        else {
            return;
        };
        if disadvantage {
            self.sources.disadvantage(why);
        } else {
            self.sources.advantage(why);
        }
        if next_only {
            self.spent.push(e.clone());
        }
    }

    /// `TimedEffectEnded` for each effect the roll spent.
    pub fn ends(&self) -> Vec<Change> {
        self.spent
            .iter()
            .map(|e| Change::TimedEffectEnded { effect: e.clone() })
            .collect()
    }

    /// The resolved advantage.
    pub fn resolve(&self) -> Advantage {
        self.sources.resolve()
    }
}

/// An advantage that counts only between the creature and the effect's source (True Strike,
/// Bestow Curse).
fn source_only(e: &TimedEffect) -> bool {
    matches!(
        e.kind,
        TimedKind::Advantage {
            source_only: true,
            ..
        }
    )
}

fn advantage_of(e: &TimedEffect) -> Option<(RollOn, Option<crate::rules::Ability>)> {
    match e.kind {
        TimedKind::Advantage { on, ability, .. } => Some((on, ability)),
        _ => None,
    }
}

/// The timed effects on an attack roll by `attacker` against `target` (ids): the attacker's
/// own (Vicious Mockery's disadvantage; Bestow Curse's only against its caster) and those on the target (Faerie Fire, Blur; True
/// Strike's only when the attacker is its caster; Protection from Evil and Good's against the
/// attacker's type, `effects/ward.rs`).
pub fn attack_advantage(state: &GameState, attacker: &str, target: &str) -> Lasting {
    let mut out = Lasting::default();
    for e in timed_effects(state, attacker) {
        // Bestow Curse's disadvantage counts only on attacks against the curse's caster.
        if source_only(e) && !e.source.eq_ignore_ascii_case(target) {
            continue;
        }
        if let Some((RollOn::Attacks, _)) = advantage_of(e) {
            out.add(e, format!("{} on the attacker", e.spell));
        }
    }
    for e in timed_effects(state, target) {
        if source_only(e) && !e.source.eq_ignore_ascii_case(attacker) {
            continue;
        }
        if let Some((RollOn::AttacksAgainst, _)) = advantage_of(e) {
            out.add(e, format!("{} on the target", e.spell));
        }
    }
    super::ward::ward_against(state, attacker, target, &mut out);
    out
}

/// The timed effects on a save (`check: false`) or an ability check (`check: true`) of
/// `ability` by `creature`: Haste's advantage on Dexterity saves, Beacon of Hope's on Wisdom.
pub fn roll_advantage(
    state: &GameState,
    creature: &str,
    ability: Option<crate::rules::Ability>,
    check: bool,
) -> Lasting {
    let want = if check { RollOn::Checks } else { RollOn::Saves };
    let mut out = Lasting::default();
    for e in timed_effects(state, creature) {
        if let Some((on, only)) = advantage_of(e)
            && on == want
            && (only.is_none() || only == ability)
        {
            out.add(e, e.spell.clone());
        }
    }
    out
}

/// Refuses a coating ([`Effect::WeaponDamage`] with `coating`) that names no weapon, or a
/// weapon one of the `subjects` does not carry, with the weapons it could coat.
pub(super) fn may_coat(
    state: &GameState,
    source: &str,
    subjects: &[Subject],
    weapon: Option<&str>,
) -> Result<(), super::casting::Refused> {
    for s in subjects {
        let attacks: Vec<&str> = state
            .character(s.target.id())
            .map(|c| c.attacks.iter().map(|a| a.name.as_str()).collect())
            .unwrap_or_default();
        if !weapon.is_some_and(|w| attacks.iter().any(|a| a.eq_ignore_ascii_case(w))) {
            return Err(super::casting::Refused(format!(
                "{source} coats one weapon {} carries, and {}; name one of: {}",
                s.name,
                weapon.map_or("none was named".to_owned(), |w| format!("{w:?} is not one")),
                if attacks.is_empty() {
                    "(none)".to_owned()
                } else {
                    attacks.join(", ")
                }
            )));
        }
    }
    Ok(())
}
