//! The standard actions decided by a roll: Hide (Stealth against passive Perception), Search
//! (Perception or Investigation against the hiders' Stealth), and the contests of Grapple, Shove
//! and escaping a grapple (Athletics against Athletics or Acrobatics, with the size limit).

use crate::dice::DieSource;

use super::{
    ActionError, ActionRoll, Outcome, ShoveEffect, StandardAction, Who, in_fight, other,
    passive_perception, refused, report, size_of, skill_of, spend, started, target_of, who,
    within_5_ft,
};
use crate::rules::check::roll_check_with;
use crate::rules::conditions::check_modifiers;
use crate::rules::{
    AdvantageSources, CheckResult, Condition, ConditionSet, ContestResult, Skill, Spend,
};
use crate::srd::{Size, Srd};
use crate::state::{Change, EffectKind, GameState};

/// A check by `w` with its conditions and any Help, rolled: the result, its sources and the
/// changes that spend the help.
pub(super) fn check(
    state: &GameState,
    w: &Who,
    modifier: i32,
    dc: i32,
    needs_sight: bool,
    rng: &mut (impl DieSource + ?Sized),
) -> (CheckResult, AdvantageSources, Vec<Change>) {
    let (mut sources, auto_fail) = check_modifiers(&w.conditions, needs_sight, false);
    let situation = crate::combat::check_situation(state, &w.id);
    sources.extend(situation.sources);
    let result = roll_check_with(modifier, dc, &sources, auto_fail, rng);
    (result, sources, situation.ends)
}

/// Hide: the action; a Stealth check against the passive Perception of every hostile
/// combatant that could see it (alive, able to act, not blinded). At or above the highest it
/// is hidden until it attacks or is found.
pub fn hide(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    hide_with(state, srd, creature, Spend::Action, rng)
}

/// Hide paid with `cost`: the action, or a rogue's bonus action (Cunning Action).
pub fn hide_with(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    cost: Spend,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    let round = in_fight(
        state,
        "Hide",
        "sneaking is a Stealth check with roll_skill_check",
    )?;
    let w = who(state, creature)?;
    let mut changes = spend(state, &w, cost)?;
    let watchers: Vec<(String, i32)> = watchers(state, &w)
        .into_iter()
        .map(|(id, name)| (name, passive_perception(state, srd, &id)))
        .collect();
    let best = watchers.iter().map(|(_, p)| *p).max().unwrap_or(0);
    let stealth = skill_of(state, srd, &w.id, Skill::Stealth);
    let (result, sources, ends) = check(state, &w, stealth, best.max(1), false, rng);
    changes.extend(ends);
    let hidden = result.success;
    if hidden {
        changes.push(started(
            round,
            &w.id,
            EffectKind::Hidden {
                stealth: result.total,
            },
        ));
    }
    let text = match (hidden, watchers.iter().max_by_key(|(_, p)| *p)) {
        (true, _) => format!(
            "{} hides (Stealth {}): attacks by it have advantage and against it disadvantage until it attacks or is found",
            w.name, result.total
        ),
        (false, Some((name, p))) => format!(
            "{} tries to hide (Stealth {}), but {name} notices (passive Perception {p})",
            w.name, result.total
        ),
        (false, None) => format!("{} fails to hide", w.name),
    };
    let mut r = report(&w, StandardAction::Hide, hidden, text);
    r.check = Some(result.clone());
    r.advantage_reasons = sources;
    Ok(Outcome {
        changes,
        rolls: vec![ActionRoll {
            label: format!("{} Stealth (hide)", w.name),
            roller: target_of(&w),
            result,
        }],
        report: r,
    })
}

/// The hostile combatants that could see `w` (ids and names).
fn watchers(state: &GameState, w: &Who) -> Vec<(String, String)> {
    let Some(e) = &state.encounter else {
        return Vec::new();
    };
    let can_see = |id: &str, conditions: ConditionSet| {
        e.slot(id).is_some() && crate::state::able(state, id) && !conditions.has(Condition::Blinded)
    };
    if w.character {
        state
            .monsters
            .iter()
            .filter(|m| can_see(&m.id, m.conditions))
            .map(|m| (m.id.clone(), m.name.clone()))
            .collect()
    } else {
        state
            .characters
            .iter()
            .filter(|c| can_see(&c.id, c.conditions))
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect()
    }
}

/// Search: the action; a Perception or Investigation check. Its total finds hidden foes whose
/// Stealth it reaches (here) and, through the search rules of the tools, hidden features and
/// exits. Returns the outcome and the total.
pub fn search(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    skill: Skill,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    if !matches!(skill, Skill::Perception | Skill::Investigation) {
        return Err(refused(format!(
            "a search uses perception or investigation, not {}",
            skill.name()
        )));
    }
    in_fight(state, "Search", "search with roll_skill_check")?;
    let w = who(state, creature)?;
    let mut changes = spend(state, &w, Spend::Action)?;
    let modifier = skill_of(state, srd, &w.id, skill);
    let (result, sources, ends) = check(state, &w, modifier, 10, true, rng);
    changes.extend(ends);
    let mut found = Vec::new();
    if let Some(e) = &state.encounter
        && result.automatic_failure.is_none()
    {
        for effect in &e.effects {
            let foe = state.character(&effect.creature).is_some() != w.character;
            if let EffectKind::Hidden { stealth } = effect.kind
                && foe
                && result.total >= stealth
            {
                found.push(state.name_of(&effect.creature));
                changes.push(Change::EffectEnded {
                    effect: effect.clone(),
                });
            }
        }
    }
    let text = if found.is_empty() {
        format!("{} searches ({} {})", w.name, skill.name(), result.total)
    } else {
        format!("{} searches and finds {}", w.name, found.join(", "))
    };
    let mut r = report(&w, StandardAction::Search, !found.is_empty(), text);
    r.check = Some(result.clone());
    r.advantage_reasons = sources;
    Ok(Outcome {
        changes,
        rolls: vec![ActionRoll {
            label: format!("{} {} (search)", w.name, skill.name()),
            roller: target_of(&w),
            result,
        }],
        report: r,
    })
}

/// What a grapple or shove is checked for before the contest: a fight, a living other
/// creature within 5 ft, no more than one size larger; it replaces one attack of a
/// character's Attack action (a monster's action).
fn special_attack(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    target: &str,
    action: &'static str,
) -> Result<(Who, Who, Vec<Change>), ActionError> {
    in_fight(state, action, "attack with roll_attack to start a fight")?;
    let w = who(state, creature)?;
    let t = other(state, &w, target)?;
    let (size, target_size) = (size_of(state, srd, &w.id), size_of(state, srd, &t.id));
    let largest = larger(size);
    if target_size > largest {
        return Err(ActionError::TooLarge {
            creature: w.name,
            size,
            target: t.name,
            target_size,
            largest,
        });
    }
    within_5_ft(
        state,
        &w,
        &t,
        if action == "Grapple" {
            "a grapple"
        } else {
            "a shove"
        },
    )?;
    let what = if w.character {
        Spend::Attack
    } else {
        Spend::Action
    };
    let changes = spend(state, &w, what)?;
    Ok((w, t, changes))
}

fn larger(size: Size) -> Size {
    match size {
        Size::Tiny => Size::Small,
        Size::Small => Size::Medium,
        Size::Medium => Size::Large,
        Size::Large => Size::Huge,
        Size::Huge | Size::Gargantuan => Size::Gargantuan,
    }
}

/// The contest of a grapple, a shove or an escape: `attacker` rolls `attacker_skill` (with its
/// conditions and any Help), `defender` the better of Athletics and Acrobatics (it chooses).
fn contest(
    state: &GameState,
    srd: &Srd,
    attacker: &Who,
    attacker_skill: Skill,
    defender: &Who,
    defender_skills: &[Skill],
    rng: &mut (impl DieSource + ?Sized),
) -> (ContestResult, AdvantageSources, Vec<Change>) {
    let (mut a_sources, _) = check_modifiers(&attacker.conditions, false, false);
    let help = crate::combat::check_situation(state, &attacker.id);
    a_sources.extend(help.sources);
    let (d_sources, _) = check_modifiers(&defender.conditions, false, false);
    let best = defender_skills
        .iter()
        .map(|s| skill_of(state, srd, &defender.id, *s))
        .max()
        .unwrap_or(0);
    let result = crate::rules::roll_contest(
        skill_of(state, srd, &attacker.id, attacker_skill),
        a_sources.resolve(),
        best,
        d_sources.resolve(),
        rng,
    );
    (result, a_sources, help.ends)
}

/// What a grapple or a shove is resisted with: the better of these (the defender chooses).
const RESIST: [Skill; 2] = [Skill::Athletics, Skill::Acrobatics];

/// The outcome of a contest `rolled` between `a` and `d` (the result and `a`'s advantage
/// sources): `a`'s report of `action`, a success when `a` won, with both rolls labelled `what`.
fn contested(
    a: &Who,
    d: &Who,
    action: StandardAction,
    what: &str,
    rolled: (ContestResult, AdvantageSources),
    changes: Vec<Change>,
    text: String,
) -> Outcome {
    let (c, sources) = rolled;
    let mut r = report(a, action, c.initiator_wins, text);
    r.advantage_reasons = sources;
    let rolls = vec![
        ActionRoll {
            label: format!("{} {what}", a.name),
            roller: target_of(a),
            result: c.initiator.clone(),
        },
        ActionRoll {
            label: format!("{} resists ({what})", d.name),
            roller: target_of(d),
            result: c.defender.clone(),
        },
    ];
    r.contest = Some(c);
    Outcome {
        changes,
        rolls,
        report: r,
    }
}

/// Grapple: one attack of the Attack action; Athletics against the target's Athletics or
/// Acrobatics. On a win the target is grappled (speed 0) until it escapes or the grappler is
/// incapacitated.
pub fn grapple(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    target: &str,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    let (w, t, mut changes) = special_attack(state, srd, creature, target, "Grapple")?;
    let holding = state.encounter.as_ref().is_some_and(|e| {
        e.effects_of(&w.id)
            .any(|e| matches!(&e.kind, EffectKind::Grappling { target } if target.eq_ignore_ascii_case(&t.id)))
    });
    if holding {
        return Err(refused(format!(
            "{} already grapples {}: attack it, shove it, or let go by moving on",
            w.name, t.name
        )));
    }
    let (c, sources, ends) = contest(state, srd, &w, Skill::Athletics, &t, &RESIST, rng);
    changes.extend(ends);
    let round = state.encounter.as_ref().map_or(1, |e| e.round);
    if c.initiator_wins {
        changes.push(Change::ConditionAdded {
            target: target_of(&t),
            condition: Condition::Grappled,
        });
        changes.push(started(
            round,
            &w.id,
            EffectKind::Grappling {
                target: t.id.clone(),
            },
        ));
    }
    let text = if c.initiator_wins {
        format!(
            "{} grapples {} (Athletics {} against {}): its speed is 0 until it escapes",
            w.name, t.name, c.initiator.total, c.defender.total
        )
    } else {
        format!(
            "{} tries to grapple {} and fails ({} against {})",
            w.name, t.name, c.initiator.total, c.defender.total
        )
    };
    Ok(contested(
        &w,
        &t,
        StandardAction::Grapple,
        "grapple",
        (c, sources),
        changes,
        text,
    ))
}

/// Shove: one attack of the Attack action; Athletics against the target's Athletics or
/// Acrobatics. On a win the target is knocked prone, or pushed 5 ft directly away from the
/// shover: a [`Change::Moved`] where the fight keeps positions (along the floor, and no farther
/// than the room's areas reach: `geometry::push_away`); in a room without positions the push
/// moves no one and is narrated.
pub fn shove(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    target: &str,
    effect: ShoveEffect,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    let (w, t, mut changes) = special_attack(state, srd, creature, target, "Shove")?;
    let (c, sources, ends) = contest(state, srd, &w, Skill::Athletics, &t, &RESIST, rng);
    changes.extend(ends);
    let won = c.initiator_wins;
    if won && effect == ShoveEffect::Prone && !t.conditions.has(Condition::Prone) {
        changes.push(Change::ConditionAdded {
            target: target_of(&t),
            condition: Condition::Prone,
        });
    }
    let pushed = (won && effect == ShoveEffect::Push)
        .then(|| pushed_to(state, &w.id, &t.id))
        .flatten();
    if let Some((_, to, Some(_))) = pushed {
        changes.push(Change::Moved {
            creature: t.id.clone(),
            to,
        });
    }
    let text = match (won, effect, pushed) {
        (true, ShoveEffect::Prone, _) => format!("{} shoves {} prone", w.name, t.name),
        (true, ShoveEffect::Push, Some((_, _, None))) => format!(
            "{} shoves {}, but the edge of the room stops it where it stands",
            w.name, t.name
        ),
        (true, ShoveEffect::Push, Some((from, to, Some(full)))) => {
            let now = from.distance(to);
            let place = crate::state::area_at(crate::combat::positions::room_areas(state), to)
                .map_or_else(|| "open ground".to_owned(), |a| a.name.clone());
            let how_far = if full {
                "5 ft away"
            } else {
                "back to the edge of the room"
            };
            format!(
                "{} shoves {} {how_far}, onto {place} ({now} ft from {})",
                w.name, t.name, w.name
            )
        }
        (true, ShoveEffect::Push, None) => format!(
            "{} shoves {} 5 ft away (this room keeps no positions: narrate where it stumbles)",
            w.name, t.name
        ),
        (false, _, _) => format!("{} tries to shove {} and fails", w.name, t.name),
    };
    Ok(contested(
        &w,
        &t,
        StandardAction::Shove,
        "shove",
        (c, sources),
        changes,
        text,
    ))
}

/// Where a push of 5 ft leaves `target`, shoved by `shover`: the shover's point, the target's
/// new point, and whether it moved the whole 5 ft (`Some(false)`: the room's edge cut it
/// short; `None`: the edge stopped it). `None` where the fight keeps no positions.
fn pushed_to(
    state: &GameState,
    shover: &str,
    target: &str,
) -> Option<(crate::state::Position, crate::state::Position, Option<bool>)> {
    use crate::combat::positions::{position_of, room_areas};
    let (from, at) = (position_of(state, shover)?, position_of(state, target)?);
    let areas = room_areas(state);
    if areas.is_empty() {
        return None;
    }
    let to = crate::combat::geometry::push_away(from, at, 5, |p| crate::state::inside(areas, p));
    // A diagonal step of 5 ft lands on whole feet a little short of 5 (3.5 and 3.5 round to 4
    // and 4): 4.5 ft or more counts as the whole push.
    let moved = (to != at).then(|| at.exact_distance(to) >= 4.5);
    Some((from, to, moved))
}

/// Escaping a grapple: the action; the better of Athletics and Acrobatics against the
/// grappler's Athletics. On a win it is free.
pub fn escape_grapple(
    state: &GameState,
    srd: &Srd,
    creature: &str,
    rng: &mut (impl DieSource + ?Sized),
) -> Result<Outcome, ActionError> {
    in_fight(state, "Escaping a grapple", "no one holds it in a fight")?;
    let w = who(state, creature)?;
    let hold = state.encounter.as_ref().and_then(|e| {
        e.effects
            .iter()
            .find(|e| matches!(&e.kind, EffectKind::Grappling { target } if target.eq_ignore_ascii_case(&w.id)))
            .cloned()
    });
    let Some(hold) = hold else {
        return Err(refused(format!(
            "no one in the fight grapples {}: there is nothing to escape",
            w.name
        )));
    };
    let grappler = who(state, &hold.creature)?;
    let mut changes = spend(state, &w, Spend::Action)?;
    let skill = [Skill::Athletics, Skill::Acrobatics]
        .into_iter()
        .max_by_key(|s| skill_of(state, srd, &w.id, *s))
        .unwrap_or(Skill::Athletics);
    let (c, sources, ends) = contest(state, srd, &w, skill, &grappler, &[Skill::Athletics], rng);
    changes.extend(ends);
    if c.initiator_wins {
        changes.push(Change::EffectEnded { effect: hold });
        changes.push(Change::ConditionRemoved {
            target: target_of(&w),
            condition: Condition::Grappled,
        });
    }
    let text = if c.initiator_wins {
        format!("{} breaks free of {}", w.name, grappler.name)
    } else {
        format!(
            "{} strains against {}'s grip and stays held",
            w.name, grappler.name
        )
    };
    Ok(contested(
        &w,
        &grappler,
        StandardAction::EscapeGrapple,
        "escape",
        (c, sources),
        changes,
        text,
    ))
}
