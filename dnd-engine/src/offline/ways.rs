//! Ways: which exit a phrase means, the way back, moving through an exit (unlocking it first
//! with a key the hero carries), and opening a locked exit with a key or by force.

use serde_json::json;

use super::plan::{Next, done, finished, last_named, once, refuse};
use super::view::{Exit, Item, Step, Turn, World};
use super::words::{best, is_direction, keys, mentions, opposite, score};
use crate::tools::names as tool;
use crate::tools::results::{ItemUsed, ToolOutput};

/// An exit named by a phrase: its direction, where it leads, or that room's title.
pub(crate) fn exit_for<'a>(world: &'a World, phrase: &str) -> Option<&'a Exit> {
    best(
        phrase,
        world.room.exits.iter().map(|e| {
            let mut names = vec![e.direction.clone(), e.to.replace('-', " ")];
            if let Some(room) = world.rooms.get(&e.to) {
                names.push(room.title.clone());
            }
            (e, names)
        }),
    )
}

/// The way the party came in, if it can be told.
pub(crate) fn back_exit(world: &World) -> Option<&Exit> {
    let exits = &world.room.exits;
    let (from, direction) = world.came_from.as_ref()?;
    exits
        .iter()
        .find(|e| &e.to == from)
        .or_else(|| {
            let back = opposite(direction)?;
            exits.iter().find(|e| e.direction == back)
        })
        .or_else(|| exits.iter().find(|e| &e.direction == direction))
}

/// Key-like items a hero carries, best match for `phrase` first.
fn keys_for<'a>(world: &'a World, hero: &str, phrase: &str) -> Vec<&'a Item> {
    let mut found: Vec<&Item> = world
        .hero(hero)
        .map(|h| {
            h.items
                .iter()
                .filter(|i| mentions(&i.name, "key"))
                .collect()
        })
        .unwrap_or_default();
    found.sort_by_key(|i| std::cmp::Reverse(score(phrase, &i.name)));
    found
}

pub(crate) fn movement(turn: &Turn, hero: &str, phrase: Option<&str>, back: bool) -> Next {
    let start = &turn.start;
    let exit = if back || phrase.is_some_and(|p| mentions(p, "back")) {
        back_exit(start)
    } else {
        match phrase {
            Some(p) => exit_for(start, p),
            None if start.room.exits.len() == 1 => start.room.exits.first(),
            None => None,
        }
    };
    let Some(exit) = exit else {
        if let Some(p) = phrase
            && best(
                p,
                start
                    .room
                    .features
                    .iter()
                    .map(|f| (f, vec![f.name.clone()])),
            )
            .is_some()
        {
            return once(turn, || {
                vec![(tool::GET_ROOM_DETAILS, json!({"detail": "full"}))]
            });
        }
        let ways: Vec<&str> = start
            .room
            .exits
            .iter()
            .map(|e| e.direction.as_str())
            .collect();
        return refuse(if ways.is_empty() {
            "There is no way on from here that you know of.".to_owned()
        } else if phrase.is_some_and(|p| keys(p).iter().any(|w| is_direction(w))) {
            format!(
                "There is no way that direction. You can go: {}.",
                ways.join(", ")
            )
        } else {
            format!("Which way? You can go: {}.", ways.join(", "))
        });
    };
    if turn.rounds.is_empty() {
        if start.encounter.is_some() && !start.foes().is_empty() {
            return refuse("Enemies block your way: finish the fight, or try to flee.");
        }
        if exit.locked {
            return match keys_for(start, hero, &exit.direction).first() {
                Some(key) => Next::Calls(vec![(
                    tool::USE_ITEM,
                    json!({"character": hero, "item": key.name, "target": null, "targets": []}),
                )]),
                None => refuse(format!(
                    "The way {} is locked, and you carry nothing that opens it.",
                    exit.direction
                )),
            };
        }
        return Next::Calls(vec![(tool::MOVE_TO, json!({"exit": exit.direction}))]);
    }
    if let Some(step) = last_named(turn, tool::USE_ITEM) {
        let opened = matches!(
            step.output,
            Some(ToolOutput::ItemUsed(ItemUsed::Unlocked { .. }))
        );
        return if opened {
            Next::Calls(vec![(tool::MOVE_TO, json!({"exit": exit.direction}))])
        } else {
            done(format!("The way {} stays locked.", exit.direction))
        };
    }
    finished()
}

pub(crate) fn open(turn: &Turn, hero: &str, phrase: Option<&str>) -> Next {
    let start = &turn.start;
    let locked: Vec<&Exit> = start.room.exits.iter().filter(|e| e.locked).collect();
    let exit = match phrase {
        Some(p) => best(
            p,
            locked
                .iter()
                .map(|e| (*e, vec![e.direction.clone(), e.to.replace('-', " ")])),
        )
        .or_else(|| (locked.len() == 1).then(|| locked[0])),
        None => locked.first().copied(),
    };
    let Some(exit) = exit else {
        return refuse("Nothing here is locked: every way you know of stands open.");
    };
    let keys = keys_for(
        start,
        hero,
        &format!("{} {}", exit.direction, phrase.unwrap_or("")),
    );
    let tried: Vec<&Step> = turn
        .steps()
        .filter(|s| s.call.name == tool::USE_ITEM)
        .collect();
    if tried.iter().any(|s| {
        matches!(
            s.output,
            Some(ToolOutput::ItemUsed(ItemUsed::Unlocked { .. }))
        )
    }) || turn.ran(tool::OPEN_LOCK)
    {
        return finished();
    }
    if let Some(key) = keys.get(tried.len()).filter(|_| tried.len() < 2) {
        return Next::Calls(vec![(
            tool::USE_ITEM,
            json!({"character": hero, "item": key.name, "target": null, "targets": []}),
        )]);
    }
    let tools = start
        .hero(hero)
        .is_some_and(|h| h.items.iter().any(|i| mentions(&i.name, "tools")));
    // No key: pick the lock with tools, else force it (the engine knows the DC).
    Next::Calls(vec![(
        tool::OPEN_LOCK,
        json!({"character": hero, "exit": exit.direction,
               "method": if tools { "pick" } else { "force" }, "advantage": null}),
    )])
}
