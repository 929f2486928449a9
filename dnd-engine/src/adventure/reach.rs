//! Unreachable content: what the party could never see, however well it played. Run once the
//! file is otherwise valid (ids real), it finds:
//!
//! - a room no route reaches from `start`. An exit is a route when the party can find it (not
//!   hidden; or a `find_dc`; or some `reveal_exit` effect names it) and open it (not locked; or
//!   an `unlock_dc`; or some `unlock_exit` effect; or its `key` lies somewhere the party can
//!   reach: loot in the open or in a feature it can find, a pregenerated character's pack, a
//!   `give_item` effect);
//! - a hidden feature or exit nothing finds: no `find_dc`, no effect revealing it, and (for a
//!   feature) no trap that goes off where the party walks and so shows itself;
//! - an ending no `end` effect names.
//!
//! An effect counts wherever it is written (a monster's `on_defeat`, a goal step, a puzzle, an
//! NPC's topic (told or, for a lie, seen through), gift or request, a trap, a broken object):
//! this finds content nothing could ever show, not whether the party will think of it.

use std::collections::BTreeSet;

use super::{Adventure, Problem};
use crate::state::{Exit, Feature, StoryEffect, TrapTrigger};

/// Every story effect the adventure holds, wherever it is written.
pub(super) fn all_effects(adventure: &Adventure) -> Vec<&StoryEffect> {
    let defeats = adventure
        .rooms
        .iter()
        .flat_map(|r| r.monsters.iter().flat_map(|m| m.on_defeat.iter()));
    let steps = adventure.npcs.iter().flat_map(|n| {
        let goal = n.goal_steps.iter().flat_map(|s| s.effects.iter());
        let topics = n
            .topics
            .iter()
            .flat_map(|t| t.effects.iter().chain(t.exposed.iter()));
        let gifts = n.wants.iter().flat_map(|w| w.effects.iter());
        let asked = n.requests.iter().flat_map(|r| r.effects.iter());
        goal.chain(topics).chain(gifts).chain(asked)
    });
    let puzzles = adventure
        .puzzles
        .iter()
        .flat_map(|p| p.on_success.iter().chain(p.on_failure.iter()));
    let features = adventure.rooms.iter().flat_map(|r| {
        r.features.iter().flat_map(|f| {
            let trap = f.trap.iter().flat_map(|t| t.effects.iter());
            let broken = f.object.iter().flat_map(|o| o.on_broken.iter());
            trap.chain(broken)
        })
    });
    defeats
        .chain(steps)
        .chain(puzzles)
        .chain(features)
        .collect()
}

/// What the story's effects can do, gathered once.
#[derive(Default)]
struct Story {
    /// (room, direction in lower case) of each `reveal_exit`.
    revealed_exits: BTreeSet<(String, String)>,
    /// (room, direction in lower case) of each `unlock_exit`.
    unlocked_exits: BTreeSet<(String, String)>,
    /// (room, feature) of each `reveal_feature`.
    revealed_features: BTreeSet<(String, String)>,
    /// Items (lower case) some `give_item` hands over.
    given: BTreeSet<String>,
    /// Endings some `end` reaches.
    endings: BTreeSet<String>,
}

impl Story {
    fn of(adventure: &Adventure) -> Story {
        let mut story = Story::default();
        for effect in all_effects(adventure) {
            match effect {
                StoryEffect::RevealExit { room, direction } => {
                    story
                        .revealed_exits
                        .insert((room.clone(), direction.to_lowercase()));
                }
                StoryEffect::UnlockExit { room, direction } => {
                    story
                        .unlocked_exits
                        .insert((room.clone(), direction.to_lowercase()));
                }
                StoryEffect::RevealFeature { room, feature } => {
                    story
                        .revealed_features
                        .insert((room.clone(), feature.clone()));
                }
                StoryEffect::GiveItem { item } => {
                    story.given.insert(item.name.to_lowercase());
                }
                StoryEffect::End { ending } => {
                    story.endings.insert(ending.clone());
                }
                _ => {}
            }
        }
        story
    }

    fn findable_exit(&self, room: &str, exit: &Exit) -> bool {
        !exit.hidden
            || exit.find_dc.is_some()
            || self
                .revealed_exits
                .contains(&(room.to_owned(), exit.direction.to_lowercase()))
    }

    fn findable_feature(&self, room: &str, feature: &Feature) -> bool {
        // A trap that goes off where the party walks shows itself (`tools::traps::spring`).
        let springs_unseen = feature.trap.as_ref().is_some_and(|t| {
            matches!(
                t.trigger,
                TrapTrigger::Enter | TrapTrigger::Area(_) | TrapTrigger::Exit(_)
            )
        });
        !feature.hidden
            || feature.find_dc.is_some()
            || springs_unseen
            || self
                .revealed_features
                .contains(&(room.to_owned(), feature.id.clone()))
    }

    /// Why the exit cannot be opened with these items at hand, if it cannot.
    fn shut(&self, room: &str, exit: &Exit, items: &BTreeSet<String>) -> Option<String> {
        let opens = !exit.locked
            || exit.unlock_dc.is_some()
            || self
                .unlocked_exits
                .contains(&(room.to_owned(), exit.direction.to_lowercase()))
            || exit
                .key
                .as_ref()
                .is_some_and(|k| items.contains(&k.to_lowercase()));
        (!opens).then(|| match &exit.key {
            Some(key) => format!(
                "locked, with no unlock_dc and no unlock_exit effect, and its key {key:?} lies nowhere the party can reach"
            ),
            None => "locked, with no key, no unlock_dc and no unlock_exit effect".to_owned(),
        })
    }
}

/// Appends a problem for each room, hidden feature or exit, and ending the party could never
/// reach.
pub(super) fn check(adventure: &Adventure, problems: &mut Vec<Problem>) {
    let story = Story::of(adventure);
    let (reached, items) = reachable(adventure, &story);
    for room in &adventure.rooms {
        let path = format!("rooms[{}]", room.id);
        if !reached.contains(room.id.as_str()) {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "no route reaches it from the start room {:?}: {}",
                    adventure.start,
                    why_unreached(adventure, &story, &reached, &items, &room.id)
                ),
            ));
        }
        for f in room.features.iter() {
            if !story.findable_feature(&room.id, f) {
                problems.push(Problem::new(
                    format!("{path}.features[{}].find_dc", f.id),
                    "the feature is hidden with no find_dc, no reveal_feature effect names it and no trap of it goes off where the party walks, so the party can never find it; give it a find_dc or reveal it with an effect (a goal step, a puzzle, a defeat)",
                ));
            }
        }
        for e in room.exits.iter() {
            if !story.findable_exit(&room.id, e) {
                problems.push(Problem::new(
                    format!("{path}.exits[{}].find_dc", e.direction),
                    "the exit is hidden with no find_dc and no reveal_exit effect names it, so the party can never find it; give it a find_dc or reveal it with an effect",
                ));
            }
        }
    }
    for ending in &adventure.endings {
        if !story.endings.contains(&ending.id) {
            problems.push(Problem::new(
                format!("endings[{}]", ending.id),
                "no `end` effect reaches this ending; end the adventure with {\"end\": {\"ending\": ...}} in a goal step, a puzzle's on_success or a monster's on_defeat",
            ));
        }
    }
}

/// The rooms reachable from the start, and the items (lower case) the party can lay hands on
/// along the way.
fn reachable<'a>(adventure: &'a Adventure, story: &Story) -> (BTreeSet<&'a str>, BTreeSet<String>) {
    let mut items: BTreeSet<String> = story.given.clone();
    items.extend(
        adventure
            .characters
            .iter()
            .flat_map(|c| c.inventory.iter().map(|i| i.name.to_lowercase())),
    );
    let mut reached: BTreeSet<&str> = BTreeSet::new();
    if adventure.room(&adventure.start).is_some() {
        reached.insert(adventure.start.as_str());
    }
    // Each pass may reach a room whose loot holds a key that opens a door of an earlier room:
    // go on until a pass adds nothing (at most one pass per room).
    loop {
        let before = (reached.len(), items.len());
        for room in adventure
            .rooms
            .iter()
            .filter(|r| reached.contains(r.id.as_str()))
        {
            items.extend(room.loot.iter().map(|i| i.name.to_lowercase()));
            for f in room
                .features
                .iter()
                .filter(|f| story.findable_feature(&room.id, f))
            {
                items.extend(f.loot.iter().map(|i| i.name.to_lowercase()));
            }
        }
        let mut next = Vec::new();
        for room in adventure
            .rooms
            .iter()
            .filter(|r| reached.contains(r.id.as_str()))
        {
            for e in &room.exits {
                if story.findable_exit(&room.id, e) && story.shut(&room.id, e, &items).is_none() {
                    next.push(e.to.as_str());
                }
            }
        }
        reached.extend(next);
        if (reached.len(), items.len()) == before {
            return (reached, items);
        }
    }
}

/// Why no exit from a reachable room leads into `target`: each one that does, and what stops it.
fn why_unreached(
    adventure: &Adventure,
    story: &Story,
    reached: &BTreeSet<&str>,
    items: &BTreeSet<String>,
    target: &str,
) -> String {
    let mut reasons = Vec::new();
    for room in adventure
        .rooms
        .iter()
        .filter(|r| reached.contains(r.id.as_str()))
    {
        for e in room.exits.iter().filter(|e| e.to == target) {
            let at = format!("rooms[{}].exits[{}]", room.id, e.direction);
            if !story.findable_exit(&room.id, e) {
                reasons.push(format!(
                    "{at} is hidden with no find_dc and no reveal_exit effect"
                ));
            } else if let Some(why) = story.shut(&room.id, e, items) {
                reasons.push(format!("{at} is {why}"));
            }
        }
    }
    if reasons.is_empty() {
        "no exit of a room the party can reach leads here".to_owned()
    } else {
        reasons.join("; ")
    }
}
