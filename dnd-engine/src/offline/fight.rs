//! Fights: start the encounter if none runs, wait for the hero's turn (the offline game master
//! plays no other seat, so other heroes' turns pass with `next_turn`), strike once (a weapon or
//! a spell: one attack, the Attack action of a level-3 hero), then let the monsters act through
//! `next_turn`, or end the fight and log the victory; Dodge
//! instead of a strike when the hero is alone, badly hurt and without healing
//! ([`should_dodge`]); and flight: Disengage on the hero's turn, then the party leaves the way
//! it came and the fight ends.

use serde_json::{Value, json};

use super::plan::{Next, finished, last_named, refuse};
use super::view::{Monster, Turn, World};
use super::ways::{back_exit, movement};
use super::words::best;
use crate::tools::names as tool;
use crate::tools::results::{AttackOutcome, LevelReady, ToolOutput};

/// Which monster an attack or spell is aimed at.
fn aim<'a>(world: &'a World, phrase: Option<&str>) -> Option<&'a Monster> {
    match phrase {
        Some(p) => best(
            p,
            world
                .monsters
                .iter()
                .filter(|m| m.alive)
                .map(|m| (m, vec![m.name.clone(), m.id.clone()])),
        ),
        None => world.foes().into_iter().next(),
    }
}

/// In a fight on another's turn, with foes standing and the hero able to act: pass that turn
/// with `next_turn` (the tools refuse acting out of turn). `None` when the hero may act now.
pub(crate) fn wait_for_turn(turn: &Turn, hero: &str) -> Option<Next> {
    let now = &turn.now;
    now.encounter.as_ref()?;
    let current = now.turn_of.as_deref()?;
    if current.eq_ignore_ascii_case(hero) || now.foes().is_empty() {
        return None;
    }
    if now.hero(hero).is_none_or(|h| h.down) {
        return None;
    }
    if turn
        .last()
        .iter()
        .any(|s| s.call.name == tool::NEXT_TURN && !s.ok)
    {
        return None;
    }
    Some(Next::Calls(vec![(tool::NEXT_TURN, json!({}))]))
}

/// Whether this turn has only passed other combatants' turns so far (or done nothing).
pub(crate) fn only_waited(turn: &Turn) -> bool {
    turn.steps().all(|s| {
        matches!(
            s.call.name.as_str(),
            tool::NEXT_TURN | tool::GET_CHARACTER_STATS
        )
    })
}

/// Attacks and spells: start the fight if needed, strike, then monsters act or the fight ends.
pub(crate) fn combat(
    turn: &Turn,
    hero: &str,
    phrase: Option<&str>,
    spell: Option<&String>,
) -> Next {
    let now = &turn.now;
    let target = aim(now, phrase);
    let ally = phrase.and_then(|p| {
        best(
            p,
            now.party
                .iter()
                .map(|h| (h, vec![h.name.clone(), h.id.clone()])),
        )
    });
    let strike = |target: Option<&str>| -> (&'static str, Value) {
        match spell {
            None => (
                tool::ROLL_ATTACK,
                json!({"attacker": hero, "target": target, "attack": null, "advantage": null}),
            ),
            Some(spell) => (
                tool::CAST_SPELL,
                json!({"caster": hero, "spell": spell, "slot_level": null,
                       "targets": target.map_or_else(Vec::new, |t| vec![t]), "aim": null, "ritual": null, "choice": null, "again": null, "point": null, "sculpt": null, "metamagic": null, "careful": null}),
            ),
        }
    };
    // On the hero's turn, a weapon strike gives way to Dodge when trading blows is lost, and
    // comes after closing in when the foe may stand beyond reach.
    let act = |target: &str| -> Vec<(&'static str, Value)> {
        // A cleric's Channel Divinity takes the action in place of the strike.
        if spell.is_none()
            && let Some(call) = super::divine::channel_divinity(turn, hero)
        {
            return vec![call];
        }
        let mut calls = Vec::new();
        if should_catch_breath(turn, hero) {
            calls.push((
                tool::USE_FEATURE,
                json!({"character": hero, "feature": "second-wind", "target": null, "amount": null, "option": null}),
            ));
        }
        if spell.is_none() && should_hide_first(turn, hero) {
            calls.push((
                tool::USE_FEATURE,
                json!({"character": hero, "feature": "cunning-action", "target": null, "amount": null, "option": "hide"}),
            ));
        }
        calls.extend(if spell.is_none() && should_dodge(now, hero) {
            vec![(tool::DODGE, json!({"creature": hero}))]
        } else if spell.is_none() && should_close_in(turn, hero, target) {
            vec![
                (
                    tool::MOVE_IN_FIGHT,
                    json!({"creature": hero, "to": target, "feet": null}),
                ),
                strike(Some(target)),
            ]
        } else {
            vec![strike(Some(target))]
        });
        calls
    };
    if only_waited(turn) {
        if now.encounter.is_some() && !now.foes().is_empty() {
            if turn.ran(tool::NEXT_TURN) && now.hero(hero).is_some_and(|h| h.down) {
                return finished(); // the monsters' turns felled the hero: tell what happened
            }
            if let Some(wait) = wait_for_turn(turn, hero) {
                return wait;
            }
        }
        if now.hero(hero).is_some_and(|h| h.down) {
            return refuse("You are in no state to do anything but cling to life.");
        }
        if now.encounter.is_some() && now.foes().is_empty() {
            return Next::Calls(victory(turn, hero));
        }
        if let (Some(_), None, Some(ally)) = (spell, target, ally) {
            return Next::Calls(vec![strike(Some(&ally.id))]);
        }
        return match (target, now.encounter.is_some()) {
            (Some(t), true) => Next::Calls(act(&t.id)),
            // Every enemy here joins the fight; a monster not known to be hostile fights alone.
            (Some(t), false) => Next::Calls(vec![(
                tool::START_ENCOUNTER,
                json!({"monsters": (!now.is_hostile(t)).then(|| vec![t.id.clone()]), "sneaking": null}),
            )]),
            (None, _) if spell.is_some() => Next::Calls(vec![strike(None)]),
            (None, _) if phrase.is_some() => {
                refuse("You look for that foe, but it is not here to strike.")
            }
            (None, _) if now.monsters.iter().any(|m| m.alive) => Next::Calls(vec![(
                tool::START_ENCOUNTER,
                json!({"monsters": null, "sneaking": null}),
            )]),
            (None, _) => refuse("There is nothing here to fight."),
        };
    }
    // Waited after starting the fight: strike now that it is the hero's turn.
    if turn.ran(tool::START_ENCOUNTER)
        && !turn.ran(tool::ROLL_ATTACK)
        && !turn.ran(tool::CAST_SPELL)
        && last_named(turn, tool::NEXT_TURN).is_some()
    {
        if let Some(wait) = wait_for_turn(turn, hero) {
            return wait;
        }
        if now.hero(hero).is_some_and(|h| h.down) || now.encounter.is_none() {
            return finished();
        }
        return match target.or(now.foes().into_iter().next()) {
            Some(t) => Next::Calls(act(&t.id)),
            None => Next::Calls(victory(turn, hero)),
        };
    }
    if let Some(start) = last_named(turn, tool::START_ENCOUNTER) {
        if !start.ok {
            return refuse("Nothing here wants a fight; you lower your weapon.");
        }
        if let Some(ToolOutput::FightStarted(started)) = &start.output
            && started.now.party_down
        {
            return finished();
        }
        if let Some(wait) = wait_for_turn(turn, hero) {
            return wait;
        }
        let first_foe = now.foes().into_iter().next();
        return match target.or(first_foe) {
            Some(t) => Next::Calls(act(&t.id)),
            None => finished(),
        };
    }
    if let Some(step) = last_named(turn, tool::CAST_SPELL)
        && !step.ok
        && turn.rounds.len() == 1
    {
        // A spell refused in the first round (no target for it, no slot left): swing at the
        // foe instead, never the spell again at anyone else.
        let foe = target.or(now.foes().into_iter().next());
        return match foe {
            Some(t) => Next::Calls(vec![(
                tool::ROLL_ATTACK,
                json!({"attacker": hero, "target": t.id, "attack": null, "advantage": null}),
            )]),
            None => finished(),
        };
    }
    if let Some(step) = last_named(turn, tool::DODGE) {
        return if step.ok && now.encounter.is_some() && !now.foes().is_empty() {
            Next::Calls(vec![(tool::NEXT_TURN, json!({}))])
        } else {
            finished()
        };
    }
    if let Some(next) = super::divine::after_channel(turn, hero, target.map(|t| t.id.as_str())) {
        return next;
    }
    let struck = last_named(turn, tool::ROLL_ATTACK).or_else(|| last_named(turn, tool::CAST_SPELL));
    if let Some(step) = struck {
        if !step.ok || now.encounter.is_none() {
            return finished();
        }
        if matches!(
            step.output,
            Some(ToolOutput::Attack(AttackOutcome::Waiting(_)))
        ) {
            return finished(); // the fight started, and it is not the hero's turn yet
        }
        return if now.foes().is_empty() {
            Next::Calls(victory(turn, hero))
        } else {
            Next::Calls(vec![(tool::NEXT_TURN, json!({}))])
        };
    }
    finished()
}

/// Ends a won fight: `end_encounter` and a line in the story log. What a defeat sets in motion
/// (a flag, a door) is the adventure's, played by the engine (`on_defeat`).
pub(crate) fn victory(turn: &Turn, hero: &str) -> Vec<(&'static str, Value)> {
    let now = &turn.now;
    let mut calls = vec![(tool::END_ENCOUNTER, json!({}))];
    let who = now.hero(hero).map_or(hero, |h| h.name.as_str());
    let order = now.encounter.clone().unwrap_or_default();
    for m in now
        .monsters
        .iter()
        .filter(|m| !m.alive && order.contains(&m.id))
    {
        calls.push((
            tool::LOG_STORY_EVENT,
            json!({"kind": "combat", "text": format!("{who} defeated {}.", m.name)}),
        ));
    }
    calls
}

/// Whether the hero should take the Dodge action rather than strike: the only one of the party
/// on its feet, at a quarter of its hit points or less, with no potion of healing, against a
/// foe that still has more than half of its own. Trading blows then loses; Dodge gives every
/// attack on it disadvantage until its next turn, and the player may still flee.
pub(crate) fn should_dodge(now: &World, hero: &str) -> bool {
    let Some(h) = now.hero(hero) else {
        return false;
    };
    let alone = now.party.iter().filter(|p| !p.down).count() == 1;
    let badly_hurt = h.hp.0 * 4 <= h.hp.1;
    let no_healing = !h
        .items
        .iter()
        .any(|i| i.name.to_ascii_lowercase().contains("healing"));
    let foe_strong = now
        .foes()
        .iter()
        .any(|m| m.hp.is_some_and(|(hp, max)| hp * 2 > max));
    now.encounter.is_some() && alone && badly_hurt && no_healing && foe_strong
}

/// Whether the hero catches a second wind (a bonus action) before its action: a fighter in a
/// fight below half its hit points with a use left (the snapshot lists spent features), not
/// yet tried this turn.
pub(crate) fn should_catch_breath(turn: &Turn, hero: &str) -> bool {
    let now = &turn.now;
    now.encounter.is_some()
        && !turn.ran(tool::USE_FEATURE)
        && now.hero(hero).is_some_and(|h| {
            h.class == "fighter"
                && !h.down
                && h.hp.0 * 2 < h.hp.1
                && !h.spent_features.iter().any(|f| f == "second-wind")
        })
}

/// Whether a rogue hides with its bonus action (Cunning Action) before a weapon strike: in a
/// fight with no other hero standing, so no ally beside the foe opens a Sneak Attack and only
/// the advantage of striking unseen does; not yet tried this turn.
pub(crate) fn should_hide_first(turn: &Turn, hero: &str) -> bool {
    let now = &turn.now;
    let alone = now.party.iter().all(|h| h.id == hero || h.down);
    now.encounter.is_some()
        && alone
        && !turn.ran(tool::USE_FEATURE)
        && now
            .hero(hero)
            .is_some_and(|h| h.class == "rogue" && !h.down)
}

/// Whether the hero should move toward its target before a weapon strike: in a fight in a room
/// with positions, when it has not moved this turn, no foe was last seen within 5 ft of it (so
/// leaving provokes nothing), and the target was not last seen within its reach. Closing in
/// turns a javelin at long range into a swing of the main weapon, or brings a foe up high to
/// within a throw's normal range; a move that gains nothing costs nothing.
pub(crate) fn should_close_in(turn: &Turn, hero: &str, target: &str) -> bool {
    let now = &turn.now;
    let engaged = now
        .foes()
        .iter()
        .any(|m| now.distance(hero, &m.id).is_some_and(|d| d <= 5));
    now.encounter.is_some()
        && now.areas
        && !turn.ran(tool::MOVE_IN_FIGHT)
        && !engaged
        && now.distance(hero, target).is_none_or(|d| d > 5)
}

/// Flight: out of a fight, a walk back the way the party came. In a fight, on the hero's turn
/// (other heroes' turns pass first), Disengage so leaving provokes no opportunity attack, then
/// away through the way it came, and the fight ends behind the party.
pub(crate) fn flee(turn: &Turn, hero: &str) -> Next {
    let start = &turn.start;
    if start.encounter.is_none() {
        return movement(turn, hero, None, true);
    }
    if turn.ran(tool::DISENGAGE) || turn.ran(tool::MOVE_TO) {
        return finished();
    }
    if let Some(wait) = wait_for_turn(turn, hero) {
        return wait;
    }
    let now = &turn.now;
    if now.hero(hero).is_none_or(|h| h.down) || now.encounter.is_none() {
        return finished();
    }
    let mut calls = vec![(tool::DISENGAGE, json!({"creature": hero}))];
    if let Some(exit) = back_exit(start).or_else(|| start.room.exits.iter().find(|e| !e.locked)) {
        calls.push((tool::MOVE_TO, json!({"exit": exit.direction})));
    }
    calls.push((tool::END_ENCOUNTER, json!({})));
    Next::Calls(calls)
}

/// After a won fight, the levels its XP earned: one `level_up` per hero the fight's end says may
/// take one, with its first legal choices (fixed hit points, the SRD subclass, the first
/// improvement and spells), once a turn. `None` when there is none to take.
pub(crate) fn level_ups(turn: &Turn) -> Option<Next> {
    if turn.ran(tool::LEVEL_UP) {
        return None;
    }
    let ready: Vec<LevelReady> = turn
        .steps()
        .filter_map(|s| match &s.output {
            Some(ToolOutput::FightEnded(ended)) => Some(ended.may_level_up.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    level_ups_for(&ready)
}

/// One `level_up` call per character ready, with its first legal choices.
fn level_ups_for(ready: &[LevelReady]) -> Option<Next> {
    let calls: Vec<(&'static str, Value)> = ready
        .iter()
        .filter_map(|ready| {
            let mut args = serde_json::to_value(&ready.first_choices).ok()?;
            args.as_object_mut()?
                .insert("character".into(), json!(ready.character));
            Some((tool::LEVEL_UP, args))
        })
        .collect();
    (!calls.is_empty()).then_some(Next::Calls(calls))
}

/// The player asks for the next level: read the sheet (which says whether it may be taken, with
/// the first legal choices), then take it with those choices, or say what is missing.
pub(crate) fn level_up_asked(turn: &Turn, hero: &str) -> Next {
    match turn.rounds.len() {
        0 => Next::Calls(vec![(
            tool::GET_CHARACTER_STATS,
            json!({"character": hero}),
        )]),
        1 => {
            let sheet = turn.last().iter().find_map(|s| match &s.output {
                Some(ToolOutput::Sheet(sheet)) => Some(sheet),
                _ => None,
            });
            match sheet {
                Some(sheet) => match &sheet.level_up {
                    Some(ready) => {
                        level_ups_for(std::slice::from_ref(ready)).unwrap_or_else(finished)
                    }
                    None => refuse(format!("Not yet: you have {}.", sheet.xp)),
                },
                None => finished(),
            }
        }
        _ => finished(),
    }
}
