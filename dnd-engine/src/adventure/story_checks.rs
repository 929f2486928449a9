//! The checks on the story's data: endings, and every [`StoryEffect`] naming a room, exit,
//! feature, NPC, monster, flag or ending the adventure has. An effect that names nothing real
//! would fail in the middle of a game; here it fails when the file loads, with its path.

use std::collections::BTreeSet;

use super::{Adventure, Problem};
use crate::state::StoryEffect;

/// Appends the problems of the adventure's endings and of every story effect it holds.
pub(super) fn check(adventure: &Adventure, problems: &mut Vec<Problem>) {
    let mut seen = BTreeSet::new();
    for (i, ending) in adventure.endings.iter().enumerate() {
        let path = format!("endings[{i}]");
        if ending.id.trim().is_empty() {
            problems.push(Problem::new(format!("{path}.id"), "an ending needs an id"));
        } else if !seen.insert(ending.id.as_str()) {
            problems.push(Problem::new(
                format!("{path}.id"),
                format!(
                    "the ending id {:?} is used twice; ids are unique",
                    ending.id
                ),
            ));
        }
        if ending.title.trim().is_empty() {
            problems.push(Problem::new(
                format!("{path}.title"),
                "an ending needs a title",
            ));
        }
    }
    for room in &adventure.rooms {
        for m in &room.monsters {
            let path = format!("rooms[{}].monsters[{}].on_defeat", room.id, m.id);
            effects(adventure, &m.on_defeat, &path, problems);
        }
    }
    for npc in &adventure.npcs {
        for (i, step) in npc.goal_steps.iter().enumerate() {
            let path = format!("npcs[{}].goal_steps[{i}].effects", npc.id);
            if i <= npc.current_step && !step.effects.is_empty() {
                problems.push(Problem::new(
                    path.clone(),
                    format!(
                        "step {i} is where {} starts, so its effects would never happen; put them on a later step (effects happen when the NPC reaches the step)",
                        npc.id
                    ),
                ));
            }
            if step.after_minutes == Some(0) {
                problems.push(Problem::new(
                    format!("npcs[{}].goal_steps[{i}].after_minutes", npc.id),
                    "a step that moves on by the clock waits at least 1 minute; leave the field out for a step only its trigger moves",
                ));
            }
            effects(adventure, &step.effects, &path, problems);
        }
        social(adventure, npc, problems);
    }
}

/// An NPC's social data: an Insight DC of 1 to 30, topics and requests with unique ids and
/// keywords, wanted items that lie somewhere in the adventure, and every effect checked.
fn social(adventure: &Adventure, npc: &super::AdventureNpc, problems: &mut Vec<Problem>) {
    let at = format!("npcs[{}]", npc.id);
    if let Some(dc) = npc.insight_dc.filter(|dc| !(1..=30).contains(dc)) {
        problems.push(Problem::new(
            format!("{at}.insight_dc"),
            format!("DC {dc} is out of range: DCs run from 1 to 30"),
        ));
    }
    let keyed = npc
        .topics
        .iter()
        .map(|t| ("topics", &t.id, &t.keywords, &t.effects))
        .chain(
            npc.requests
                .iter()
                .map(|r| ("requests", &r.id, &r.keywords, &r.effects)),
        );
    for topic in &npc.topics {
        let path = format!("{at}.topics[{}].exposed", topic.id);
        if !topic.exposed.is_empty() && !topic.lie {
            problems.push(Problem::new(
                path.clone(),
                "only a lie can be seen through: mark the topic `\"lie\": true`, or move these effects to `effects`",
            ));
        }
        effects(adventure, &topic.exposed, &path, problems);
    }
    let mut seen = BTreeSet::new();
    for (list, id, keywords, list_effects) in keyed {
        let path = format!("{at}.{list}[{id}]");
        if id.trim().is_empty() {
            problems.push(Problem::new(format!("{path}.id"), "it needs an id"));
        } else if !seen.insert((list, id.as_str())) {
            problems.push(Problem::new(
                format!("{path}.id"),
                format!("the id {id:?} is used twice in {list}; ids are unique"),
            ));
        }
        if keywords.is_empty() || keywords.iter().any(|k| k.trim().is_empty()) {
            problems.push(Problem::new(
                format!("{path}.keywords"),
                "at least one keyword, none of them empty: the words that raise it",
            ));
        }
        effects(
            adventure,
            list_effects,
            &format!("{path}.effects"),
            problems,
        );
    }
    // An item the story hands over (a `give_item` anywhere) can be given on too.
    let carried = |name: &str| {
        adventure.loot().any(|s| s.name.eq_ignore_ascii_case(name))
            || adventure
                .characters
                .iter()
                .any(|c| c.item_quantity(name) > 0)
            || super::reach::all_effects(adventure).into_iter().any(|e| {
                matches!(e, crate::state::StoryEffect::GiveItem { item } if item.name.eq_ignore_ascii_case(name))
            })
    };
    for want in &npc.wants {
        let path = format!("{at}.wants[{}]", want.item);
        if !carried(&want.item) {
            problems.push(Problem::new(
                format!("{path}.item"),
                format!(
                    "no {:?} lies in the adventure's loot or a pregenerated pack, and no give_item hands it over, so it can never be given",
                    want.item
                ),
            ));
        }
        effects(
            adventure,
            &want.effects,
            &format!("{path}.effects"),
            problems,
        );
    }
}

/// Appends a problem for each effect in `list` (at `path`) that names something the adventure
/// does not have.
pub(super) fn effects(
    adventure: &Adventure,
    list: &[StoryEffect],
    path: &str,
    problems: &mut Vec<Problem>,
) {
    for (i, effect) in list.iter().enumerate() {
        let at = format!("{path}[{i}].{}", effect.name());
        if let Err(message) = effect_names_real_things(adventure, effect) {
            problems.push(Problem::new(at, message));
        }
    }
}

/// Whether what the effect names exists: `Err` says what does not, and what does.
fn effect_names_real_things(adventure: &Adventure, effect: &StoryEffect) -> Result<(), String> {
    let room = |id: &str| {
        adventure.rooms.iter().find(|r| r.id == id).ok_or_else(|| {
            let ids: Vec<&str> = adventure.rooms.iter().map(|r| r.id.as_str()).collect();
            format!("no room {id:?}; the rooms are: {}", ids.join(", "))
        })
    };
    let npc = |id: &str| {
        if adventure.npcs.iter().any(|n| n.id == id) {
            Ok(())
        } else {
            let ids: Vec<&str> = adventure.npcs.iter().map(|n| n.id.as_str()).collect();
            Err(format!("no NPC {id:?}; the NPCs are: {}", listed(&ids)))
        }
    };
    match effect {
        StoryEffect::RevealExit { room: r, direction } => {
            let exit = room(r)?
                .exits
                .iter()
                .find(|e| e.direction.eq_ignore_ascii_case(direction));
            match exit {
                Some(e) if e.hidden => Ok(()),
                Some(_) => Err(format!(
                    "the exit {direction:?} of {r:?} is not hidden; only a hidden exit can be revealed"
                )),
                None => Err(no_exit(room(r)?, direction)),
            }
        }
        StoryEffect::UnlockExit { room: r, direction } => {
            let exit = room(r)?
                .exits
                .iter()
                .find(|e| e.direction.eq_ignore_ascii_case(direction));
            match exit {
                Some(e) if e.locked => Ok(()),
                Some(_) => Err(format!(
                    "the exit {direction:?} of {r:?} is not locked; only a locked exit can be unlocked"
                )),
                None => Err(no_exit(room(r)?, direction)),
            }
        }
        StoryEffect::RevealFeature { room: r, feature } => {
            let here = room(r)?;
            match here.features.iter().find(|f| &f.id == feature) {
                Some(f) if f.hidden => Ok(()),
                Some(_) => Err(format!(
                    "the feature {feature:?} of {r:?} is not hidden; only a hidden feature can be revealed"
                )),
                None => {
                    let ids: Vec<&str> = here.features.iter().map(|f| f.id.as_str()).collect();
                    Err(format!(
                        "no feature {feature:?} in {r:?}; its features are: {}",
                        listed(&ids)
                    ))
                }
            }
        }
        StoryEffect::GiveItem { item } if item.name.trim().is_empty() || item.quantity == 0 => {
            Err("an item given needs a name and a quantity of at least 1".into())
        }
        StoryEffect::TakeItem { item, quantity } if item.trim().is_empty() || *quantity == 0 => {
            Err("an item taken needs a name and a quantity of at least 1".into())
        }
        StoryEffect::GiveItem { .. } | StoryEffect::TakeItem { .. } => Ok(()),
        StoryEffect::SetFlag { flag, .. } => {
            if adventure.flags.contains_key(flag) {
                Ok(())
            } else {
                let ids: Vec<&str> = adventure.flags.keys().map(String::as_str).collect();
                Err(format!(
                    "no flag {flag:?} in `flags`; declare it there (with its value at the start), or use one of: {}",
                    listed(&ids)
                ))
            }
        }
        StoryEffect::Attitude { npc: n, .. }
        | StoryEffect::RevealGoal { npc: n }
        | StoryEffect::AdvanceGoal { npc: n } => npc(n),
        StoryEffect::MoveNpc { npc: n, room: r } => {
            npc(n)?;
            room(r).map(|_| ())
        }
        StoryEffect::StartFight { monsters } => {
            let ids: Vec<&str> = adventure
                .rooms
                .iter()
                .flat_map(|r| r.monsters.iter().map(|m| m.id.as_str()))
                .collect();
            if monsters.is_empty() {
                return Err(format!(
                    "a fight needs at least one monster, from: {}",
                    listed(&ids)
                ));
            }
            match monsters.iter().find(|m| !ids.contains(&m.as_str())) {
                Some(m) => Err(format!(
                    "no monster {m:?}; the monsters are: {}",
                    listed(&ids)
                )),
                None => Ok(()),
            }
        }
        StoryEffect::End { ending } => {
            if adventure.endings.iter().any(|e| &e.id == ending) {
                Ok(())
            } else {
                let ids: Vec<&str> = adventure.endings.iter().map(|e| e.id.as_str()).collect();
                Err(format!(
                    "no ending {ending:?} in `endings`; declare it there, or use one of: {}",
                    listed(&ids)
                ))
            }
        }
    }
}

fn no_exit(room: &super::Room, direction: &str) -> String {
    let ids: Vec<&str> = room.exits.iter().map(|e| e.direction.as_str()).collect();
    format!(
        "no exit {direction:?} in {:?}; its exits are: {}",
        room.id,
        listed(&ids)
    )
}

fn listed(ids: &[&str]) -> String {
    if ids.is_empty() {
        "none".to_owned()
    } else {
        ids.join(", ")
    }
}
