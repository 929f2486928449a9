//! From an intent and what the tools have said so far this turn, the next round of tool calls,
//! or the decision that the turn is done and can be narrated.
//!
//! Each intent is a short chain of rounds. The planner is a pure function of the request: it
//! looks at the last round's results to choose the next one (start the fight, then swing, then
//! let the monsters act or end the fight), so replaying a request gives the same answer.
//! Every argument object carries every field of the tool's schema, `null` where optional.

use serde_json::{Value, json};

use super::fight::{combat, flee, only_waited, wait_for_turn};
use super::intent::{Intent, Sway};
use super::story;
use super::view::{Item, Step, Turn};
use super::ways::{movement, open};
use super::words::{best, mentions, score};
use crate::tools::names as tool;

/// How hard a search is (the snapshot gives no room difficulty).
pub(crate) const SEARCH_DC: i32 = 12;

/// What to do next.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Next {
    /// Call these tools (name, arguments).
    Calls(Vec<(&'static str, Value)>),
    /// Narrate: `lead` goes before what the tools did, `tail` after.
    Done {
        lead: Vec<String>,
        tail: Vec<String>,
    },
    /// The words ask for something the world does not allow (nothing by that name, no way that
    /// direction): narrate this sentence. Kept apart from `Done` so that tests can tell a
    /// refusal from a turn that happened.
    Refused(String),
}

/// Refuse the request, saying why.
pub(crate) fn refuse(why: impl Into<String>) -> Next {
    Next::Refused(why.into())
}

/// Narrate now, opening with this sentence.
pub(crate) fn done(lead: impl Into<String>) -> Next {
    Next::Done {
        lead: vec![lead.into()],
        tail: Vec::new(),
    }
}

/// Narrate now, from what the tools did.
pub(crate) fn finished() -> Next {
    Next::Done {
        lead: Vec::new(),
        tail: Vec::new(),
    }
}

/// The next step of the turn.
pub(crate) fn plan(turn: &Turn) -> Next {
    let Some(hero) = turn.hero.clone() else {
        return refuse("There is no one in the party to act.");
    };
    let next = match &turn.intent {
        // A thing, not a creature ("smash the idol"): the object, when no monster here answers
        // to the words, standing or fallen (a fallen foe's fight still ends through `combat`).
        Intent::Attack { target: Some(t) }
            if !turn.now.monsters.iter().any(|m| score(t, &m.name) > 0)
                && let Some(next) = story::break_object(turn, &hero, t) =>
        {
            next
        }
        Intent::Attack { target } => combat(turn, &hero, target.as_deref(), None),
        Intent::Cast { spell, target } => combat(turn, &hero, target.as_deref(), Some(spell)),
        Intent::Search { investigate } => once(turn, || {
            vec![
                (
                    tool::ROLL_SKILL_CHECK,
                    json!({"creature": hero, "skill": if *investigate { "investigation" } else { "perception" },
                           "dc": SEARCH_DC, "advantage": null, "reason": "searching the area", "subject": null}),
                ),
                (tool::GET_ROOM_DETAILS, json!({"detail": "full"})),
            ]
        }),
        // Studying someone here reads it: an Insight check.
        Intent::Look { subject: Some(s) }
            if turn.now.npcs.iter().any(|n| score(s, &n.name) > 0) =>
        {
            story::social(turn, &hero, Sway::Insight, s)
        }
        Intent::Look { .. } => once(turn, || vec![(tool::GET_ROOM_DETAILS, json!({"detail": "full"}))]),
        Intent::Move { destination, back } => movement(turn, &hero, destination.as_deref(), *back),
        Intent::Open { exit } => open(turn, &hero, exit.as_deref()),
        Intent::Take { item } => take(turn, &hero, item.as_deref()),
        Intent::Use { item, drink } => use_item(turn, &hero, item.as_deref(), *drink),
        Intent::Talk { words } => story::talk(turn, &hero, words),
        Intent::Give { words } => story::give(turn, &hero, words),
        Intent::Social { skill, words } => story::social(turn, &hero, *skill, words),
        Intent::Disarm { target } => story::disarm(turn, &hero, target.as_deref()),
        Intent::Rest { long } => rest(turn, &hero, *long),
        Intent::Inventory => once(turn, || {
            vec![(tool::CHECK_INVENTORY, json!({"character": hero}))]
        }),
        Intent::Flee => flee(turn, &hero),
        Intent::LevelUp => super::fight::level_up_asked(turn, &hero),
        Intent::React { spell, when } => once(turn, || {
            vec![(
                tool::DECLARE_REACTIONS,
                json!({"character": hero, "reactions": [{"spell": spell, "when": when.name()}]}),
            )]
        }),
        Intent::Unknown => match once(turn, || {
            vec![(tool::GET_ROOM_DETAILS, json!({"detail": "overview"}))]
        }) {
            Next::Done { tail, .. } => Next::Done {
                lead: vec![
                    "Nothing answers that. Try plain words: look, search, go <direction>, take <item>, attack <foe>, talk to <someone>, persuade <someone>, disarm <trap>, drink a potion, rest."
                        .into(),
                ],
                tail,
            },
            calls => calls,
        },
    };
    // A turn that won a fight ends with the levels its XP earned.
    let next = match next {
        Next::Done { .. } => super::fight::level_ups(turn).unwrap_or(next),
        other => other,
    };
    // Read the hero's sheet once in a while, so suggestions can show real odds (when the
    // moment offers the sheet: a crowded one may not).
    match next {
        Next::Calls(mut calls)
            if turn.rounds.is_empty()
                && !turn.now.to_hit.contains_key(&hero)
                && turn.offers(tool::GET_CHARACTER_STATS)
                && !calls.iter().any(|(t, _)| *t == tool::GET_CHARACTER_STATS) =>
        {
            calls.push((tool::GET_CHARACTER_STATS, json!({"character": hero})));
            Next::Calls(calls)
        }
        other => other,
    }
}

/// One round of these calls, then narrate.
pub(crate) fn once(turn: &Turn, calls: impl FnOnce() -> Vec<(&'static str, Value)>) -> Next {
    if turn.rounds.is_empty() {
        Next::Calls(calls())
    } else {
        finished()
    }
}

pub(crate) fn last_named<'a>(turn: &'a Turn, tool: &str) -> Option<&'a Step> {
    turn.last().iter().find(|s| s.call.name == tool)
}

fn take(turn: &Turn, hero: &str, phrase: Option<&str>) -> Next {
    match turn.rounds.len() {
        0 => return Next::Calls(vec![(tool::GET_ROOM_DETAILS, json!({"detail": "full"}))]),
        1 => {}
        2 => {
            let took: Vec<String> = turn
                .steps()
                .filter(|s| s.call.name == tool::ADD_INVENTORY && s.ok)
                .map(|s| {
                    s.call.arguments["item"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned()
                })
                .filter(|i| !i.eq_ignore_ascii_case("gold pieces"))
                .collect();
            if took.is_empty() {
                return finished();
            }
            let who = turn.now.hero(hero).map_or(hero, |h| h.name.as_str());
            return Next::Calls(vec![(
                tool::LOG_STORY_EVENT,
                json!({"kind": "loot", "text": format!("{who} took {}.", took.join(", "))}),
            )]);
        }
        _ => return finished(),
    }
    let loot = turn.now.loot();
    if loot.is_empty() {
        return refuse("There is nothing here to take.");
    }
    let chosen: Vec<_> = match phrase {
        None => loot.clone(),
        Some(p) => {
            let by_item = loot
                .iter()
                .map(|(_, i)| score(p, &i.name))
                .max()
                .unwrap_or(0);
            let by_place = loot
                .iter()
                .map(|(f, _)| f.map_or(0, |f| score(p, &f.name)))
                .max()
                .unwrap_or(0);
            if by_item == 0 && by_place == 0 {
                return refuse("You look for it, but it is not here to take.");
            }
            loot.iter()
                .filter(|(f, i)| {
                    if by_place > by_item {
                        f.is_some_and(|f| score(p, &f.name) == by_place)
                    } else {
                        score(p, &i.name) == by_item
                    }
                })
                .cloned()
                .collect()
        }
    };
    let calls = chosen
        .iter()
        .map(|(f, item)| {
            let places = loot
                .iter()
                .filter(|(_, i)| i.name.eq_ignore_ascii_case(&item.name))
                .count();
            let from = match (places > 1, f) {
                (false, _) => Value::Null,
                (true, Some(f)) => json!(f.id),
                (true, None) => json!("floor"),
            };
            (
                tool::ADD_INVENTORY,
                json!({"character": hero, "item": item.name, "quantity": item.quantity, "from": from}),
            )
        })
        .collect();
    Next::Calls(calls)
}

fn use_item(turn: &Turn, hero: &str, phrase: Option<&str>, drink: bool) -> Next {
    let now = &turn.now;
    // In a fight an item is used on the hero's own turn: other turns pass first.
    if only_waited(turn)
        && let Some(wait) = wait_for_turn(turn, hero)
    {
        return wait;
    }
    if !only_waited(turn) {
        let used = last_named(turn, tool::USE_ITEM).is_some_and(|s| s.ok);
        return if used && now.encounter.is_some() && !now.foes().is_empty() {
            Next::Calls(vec![(tool::NEXT_TURN, json!({}))])
        } else {
            finished()
        };
    }
    let items: Vec<&Item> = now
        .hero(hero)
        .map(|h| h.items.iter().collect())
        .unwrap_or_default();
    let item = match phrase {
        Some(p) => best(p, items.iter().map(|i| (*i, vec![i.name.clone()]))),
        None if drink => items.iter().copied().find(|i| mentions(&i.name, "potion")),
        None => None,
    };
    match item {
        Some(item) => Next::Calls(vec![(
            tool::USE_ITEM,
            json!({"character": hero, "item": item.name, "target": null, "targets": []}),
        )]),
        None if drink => refuse("You have nothing to drink."),
        None => refuse("You search your pack, but you carry nothing like that."),
    }
}

fn rest(turn: &Turn, hero: &str, long: bool) -> Next {
    let now = &turn.now;
    if now.encounter.is_some() && !now.foes().is_empty() {
        return refuse("There is no resting with enemies this close.");
    }
    let update = |amount: Value| {
        json!({"character": hero, "update": if long { "long_rest" } else { "short_rest" },
               "condition": null, "amount": amount, "recover_slots": null})
    };
    match turn.rounds.len() {
        // No rest during a fight, even one whose foes are all down: end it first.
        0 if now.encounter.is_some() => Next::Calls(vec![
            (tool::END_ENCOUNTER, json!({})),
            (
                tool::UPDATE_CHARACTER,
                update(if long { Value::Null } else { json!(1) }),
            ),
        ]),
        0 => Next::Calls(vec![(
            tool::UPDATE_CHARACTER,
            update(if long { Value::Null } else { json!(1) }),
        )]),
        1 if !long && turn.last().iter().any(|s| !s.ok) => {
            Next::Calls(vec![(tool::UPDATE_CHARACTER, update(json!(0)))])
        }
        _ => finished(),
    }
}
