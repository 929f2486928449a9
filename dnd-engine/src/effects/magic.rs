//! What ends or undoes magic: Dispel Magic ends the timed effects of spells on a creature
//! (those cast at the automatic level or lower at once, higher ones when the caster's
//! spellcasting ability check meets 10 + their level), and Revivify brings back a character
//! dead within its rounds (the state checks the time again when `Change::Revived` applies).

use crate::dice::DieSource;

use super::casting::{Outcome, Refused, Subject};
use crate::rules::check::roll_check_with;
use crate::rules::{AdvantageSources, CheckResult};
use crate::state::{Change, GameState, TimedEffect, rounds_now, timed_effects};

/// What dispelling one spell on a creature did: the changes that end its effects, what to
/// report, and the check (label and result) when one was rolled.
pub(super) type Dispelled = (Vec<Change>, Outcome, Option<(String, CheckResult)>);

/// Dispels every spell's timed effects on `s`, one decision per spell and source: at
/// `up_to` or lower it ends; higher, a check with `modifier` against 10 + its level.
pub(super) fn dispel<R: DieSource + ?Sized>(
    state: &GameState,
    s: &Subject,
    up_to: u8,
    modifier: i32,
    rng: &mut R,
) -> Vec<Dispelled> {
    let mut spells: Vec<(&str, &str, u8)> = Vec::new();
    for e in timed_effects(state, s.target.id()) {
        if !spells.iter().any(|(src, sp, _)| {
            src.eq_ignore_ascii_case(&e.source) && sp.eq_ignore_ascii_case(&e.spell)
        }) {
            spells.push((&e.source, &e.spell, e.level));
        }
    }
    let mut out = Vec::new();
    if spells.is_empty() {
        let why = "no spell's effect is on it".to_owned();
        let outcome = Outcome::Unaffected {
            target: s.name.clone(),
            why,
        };
        out.push((Vec::new(), outcome, None));
    }
    for (source, spell, level) in spells {
        let check = (level > up_to).then(|| {
            let dc = 10 + i32::from(level);
            let result = roll_check_with(modifier, dc, &AdvantageSources::default(), None, rng);
            (format!("dispel {spell} on {} (DC {dc})", s.name), result)
        });
        let ended = check.as_ref().is_none_or(|(_, r)| r.success);
        let changes = if ended {
            timed_effects(state, s.target.id())
                .iter()
                .filter(|e| {
                    e.source.eq_ignore_ascii_case(source) && e.spell.eq_ignore_ascii_case(spell)
                })
                .map(|e: &TimedEffect| Change::TimedEffectEnded { effect: e.clone() })
                .collect()
        } else {
            Vec::new()
        };
        let outcome = Outcome::Dispelled {
            target: s.name.clone(),
            spell: spell.to_owned(),
            level,
            check: check.as_ref().map(|(_, r)| r.clone()),
            ended,
        };
        out.push((changes, outcome, check));
    }
    out
}

/// Refuses a revival of anyone but a character dead at most `within_rounds` ago, before
/// anything is spent.
pub(super) fn may_revive(
    state: &GameState,
    source: &str,
    subjects: &[Subject],
    within_rounds: u32,
) -> Result<(), Refused> {
    let now = rounds_now(state);
    for s in subjects {
        let Some(c) = state.character(s.target.id()) else {
            return Err(Refused(format!(
                "{source} brings back a character who died within the last {within_rounds} rounds, and {} is not a character",
                s.name
            )));
        };
        if !c.dead {
            return Err(Refused(format!(
                "{} is not dead: {source} returns only the dead to life (heal the living)",
                c.name
            )));
        }
        let ago = c.died_at_round.map(|at| now.saturating_sub(at));
        if ago.is_none_or(|a| a > u64::from(within_rounds)) {
            return Err(Refused(format!(
                "{} died {}: {source} works only within {within_rounds} rounds of death",
                c.name,
                ago.map_or("at a time no one noted".to_owned(), |a| format!(
                    "{a} rounds ago"
                )),
            )));
        }
    }
    Ok(())
}
