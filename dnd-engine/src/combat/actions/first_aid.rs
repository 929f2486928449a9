//! First aid: the action that stabilises a dying creature with a DC 10 Wisdom (Medicine) check
//! (the SRD's "Stabilizing a Creature"). A stable creature makes no more death saves and
//! regains 1 hit point after 1d4 hours; any damage makes it dying again.

use crate::dice::DieSource;

use super::{
    ActionError, ActionRoll, Outcome, StandardAction, Who, refused, report, skill_of, spend,
    target_of, who, within_5_ft,
};
use crate::rules::death::STABILISE_DC;
use crate::rules::{Skill, Spend};
use crate::srd::Srd;
use crate::state::{GameState, NotStabilisable};

/// `creature` tends `patient`, a dying character within 5 ft: the action, and a Medicine check
/// against DC 10; on a success the patient is stable. Outside a fight it spends nothing.
pub fn first_aid(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    patient: &str,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    let w = who(state, creature)?;
    // The gate first: one who cannot act, or whose turn it is not, tends no one.
    let mut changes = spend(state, &w, Spend::Action)?;
    let p = who(state, patient)?;
    if p.id.eq_ignore_ascii_case(&w.id) {
        return Err(refused(format!(
            "{} cannot tend itself: another creature must stabilise it",
            w.name
        )));
    }
    let Some(dying) = state.character(&p.id) else {
        return Err(refused(format!(
            "{} is not a dying hero: first aid stabilises a character at 0 hit points",
            p.name
        )));
    };
    let stable = match dying.stabilised() {
        Ok(change) => change,
        Err(why) => {
            let hint = match why {
                NotStabilisable::Dead => ": no check brings the dead back",
                NotStabilisable::NotDying => " (not dying): heal it instead",
                NotStabilisable::AlreadyStable => "",
            };
            return Err(refused(format!("{} is {}{hint}", p.name, why.why())));
        }
    };
    within_5_ft(state, &w, &p, "first aid")?;
    let modifier = skill_of(state, srd, &w.id, Skill::Medicine);
    let (result, sources, ends) =
        super::rolled::check(state, &w, modifier, STABILISE_DC, false, rng);
    changes.extend(ends);
    if result.success {
        changes.push(stable);
    }
    let text = if result.success {
        format!(
            "{} binds {}'s wounds (Medicine {}): stable, no more death saves",
            w.name, p.name, result.total
        )
    } else {
        format!(
            "{} tries to stop {}'s bleeding (Medicine {}) and fails; the death saves go on",
            w.name, p.name, result.total
        )
    };
    let mut r = report(&w, StandardAction::FirstAid, result.success, text);
    r.check = Some(result.clone());
    r.advantage_reasons = sources;
    Ok(Outcome {
        changes,
        rolls: vec![first_aid_roll(&w, &p, result)],
        report: r,
    })
}

fn first_aid_roll(w: &Who, p: &Who, result: crate::rules::CheckResult) -> ActionRoll {
    ActionRoll {
        label: format!("{} Medicine (first aid on {})", w.name, p.name),
        roller: target_of(w),
        result,
    }
}
