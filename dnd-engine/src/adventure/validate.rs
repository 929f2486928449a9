//! The checks an adventure must pass beyond its shape: ids unique, exits and NPCs pointing at
//! rooms that exist, SRD monsters and spells that exist, DCs within 1..=30, character sheets
//! that make sense. Every problem is collected; nothing here stops early.

use std::collections::{BTreeMap, BTreeSet};

use super::{Adventure, Problem};
use crate::srd::Srd;

const DC_HELP: &str = "a DC is 1 to 30 (5 very easy, 10 easy, 15 medium, 20 hard, 25 very hard, 30 nearly impossible)";

/// Appends every problem of `adventure` to `problems`. `raw_room_ids` are the ids of rooms the
/// file holds but that failed to decode (already reported): references to them are not errors.
pub(super) fn check(
    adventure: &Adventure,
    srd: &Srd,
    raw_room_ids: &[String],
    problems: &mut Vec<Problem>,
) {
    let room_ids: Vec<&str> = adventure.rooms.iter().map(|r| r.id.as_str()).collect();
    let room_exists = |id: &str| room_ids.contains(&id) || raw_room_ids.iter().any(|raw| raw == id);
    let no_room = |id: &str| format!("no room {id:?}; the rooms are: {}", room_ids.join(", "));

    if adventure.title.trim().is_empty() {
        problems.push(Problem::new("title", "the adventure needs a title"));
    }
    if adventure.rooms.is_empty() && raw_room_ids.is_empty() {
        problems.push(Problem::new(
            "rooms",
            "an adventure needs at least one room",
        ));
    } else if adventure.start.is_empty() {
        problems.push(Problem::new(
            "start",
            format!(
                "no start room; name the room the party starts in, one of: {}",
                room_ids.join(", ")
            ),
        ));
    } else if !room_exists(&adventure.start) {
        problems.push(Problem::new("start", no_room(&adventure.start)));
    }

    duplicates(
        adventure.rooms.iter().map(|r| r.id.as_str()),
        "room id",
        |id| format!("rooms[{id}].id"),
        problems,
    );
    duplicates(
        adventure
            .rooms
            .iter()
            .flat_map(|r| r.monsters.iter().map(|m| m.id.as_str())),
        "monster id",
        |id| {
            let room = adventure
                .rooms
                .iter()
                .find(|r| r.monsters.iter().any(|m| m.id == id))
                .map_or("", |r| r.id.as_str());
            format!("rooms[{room}].monsters[{id}].id")
        },
        problems,
    );
    duplicates(
        adventure.npcs.iter().map(|n| n.id.as_str()),
        "NPC id",
        |id| format!("npcs[{id}].id"),
        problems,
    );
    duplicates(
        adventure.characters.iter().map(|c| c.id.as_str()),
        "character id",
        |id| format!("characters[{id}].id"),
        problems,
    );

    milestones(adventure, &room_exists, &no_room, problems);

    let items = item_names(adventure);
    for (i, room) in adventure.rooms.iter().enumerate() {
        let path = if room.id.is_empty() {
            problems.push(Problem::new(
                format!("rooms[{i}].id"),
                "a room id may not be empty",
            ));
            format!("rooms[{i}]")
        } else {
            format!("rooms[{}]", room.id)
        };
        duplicates(
            room.exits.iter().map(|e| e.direction.to_lowercase()),
            "exit direction",
            |d| format!("{path}.exits[{d}].direction"),
            problems,
        );
        for exit in &room.exits {
            let exit_path = format!("{path}.exits[{}]", exit.direction);
            if exit.direction.trim().is_empty() {
                problems.push(Problem::new(
                    format!("{exit_path}.direction"),
                    "an exit needs a direction the player can say (\"north\", \"ice bridge\")",
                ));
            }
            if !room_exists(&exit.to) {
                problems.push(Problem::new(format!("{exit_path}.to"), no_room(&exit.to)));
            }
            dc(exit.unlock_dc, &format!("{exit_path}.unlock_dc"), problems);
            dc(exit.find_dc, &format!("{exit_path}.find_dc"), problems);
            if let Some(key) = exit
                .key
                .as_ref()
                .filter(|k| !items.contains(&k.to_lowercase()))
            {
                problems.push(Problem::new(
                    format!("{exit_path}.key"),
                    format!(
                        "the key {key:?} lies nowhere in the adventure; put it in the loot of a \
                         room or a feature, or in a character's inventory"
                    ),
                ));
            }
        }
        duplicates(
            room.features.iter().map(|f| f.id.as_str()),
            "feature id",
            |id| format!("{path}.features[{id}].id"),
            problems,
        );
        for feature in &room.features {
            let feature_path = format!("{path}.features[{}]", feature.id);
            dc(
                feature.find_dc,
                &format!("{feature_path}.find_dc"),
                problems,
            );
            if let Some(trap) = &feature.trap {
                dc(Some(trap.dc), &format!("{feature_path}.trap.dc"), problems);
            }
        }
        for monster in &room.monsters {
            let monster_path = format!("{path}.monsters[{}]", monster.id);
            if monster.id.trim().is_empty() {
                problems.push(Problem::new(
                    format!("{monster_path}.id"),
                    "a monster needs an id (\"frost-harpy\")",
                ));
            }
            if let Err(e) = srd.monster(&monster.srd) {
                problems.push(Problem::new(
                    format!("{monster_path}.srd"),
                    format!("{e} (in the bundled SRD)"),
                ));
            }
            if monster.hit_points == Some(0) {
                problems.push(Problem::new(
                    format!("{monster_path}.hit_points"),
                    "a monster needs at least 1 hit point; leave the field out for the SRD's",
                ));
            }
            if let Some(ac) = monster.armor_class.filter(|ac| !(1..=30).contains(ac)) {
                problems.push(Problem::new(
                    format!("{monster_path}.armor_class"),
                    format!(
                        "Armor Class {ac} is outside 1..=30; leave the field out for the SRD's"
                    ),
                ));
            }
        }
        areas(room, &path, problems);
    }

    for npc in &adventure.npcs {
        let path = format!("npcs[{}]", npc.id);
        if !room_exists(&npc.room) {
            problems.push(Problem::new(format!("{path}.room"), no_room(&npc.room)));
        }
        if npc.current_step > npc.goal_steps.len() {
            problems.push(Problem::new(
                format!("{path}.current_step"),
                format!(
                    "step {} is past the {} goal steps (0 to {} allowed)",
                    npc.current_step,
                    npc.goal_steps.len(),
                    npc.goal_steps.len()
                ),
            ));
        }
    }

    for character in &adventure.characters {
        let path = format!("characters[{}]", character.id);
        if !(1..=20).contains(&character.level) {
            problems.push(Problem::new(
                format!("{path}.level"),
                format!("level {} is outside 1..=20", character.level),
            ));
        }
        if character.hp.max == 0 || character.hp.current == 0 {
            problems.push(Problem::new(
                format!("{path}.hp"),
                format!(
                    "HP {}/{}: a character starts with at least 1 hit point",
                    character.hp.current, character.hp.max
                ),
            ));
        } else if character.hp.current > character.hp.max {
            problems.push(Problem::new(
                format!("{path}.hp"),
                format!(
                    "current HP {} is above the maximum {}",
                    character.hp.current, character.hp.max
                ),
            ));
        }
        if character.hit_dice.total != character.level
            || !matches!(character.hit_dice.sides, 6 | 8 | 10 | 12)
        {
            problems.push(Problem::new(
                format!("{path}.hit_dice"),
                format!(
                    "{}d{}: a character has one hit die per level ({}), of 6, 8, 10 or 12 sides",
                    character.hit_dice.total, character.hit_dice.sides, character.level
                ),
            ));
        }
        for (i, spell) in character.spells.iter().enumerate() {
            if let Err(e) = srd.spell(spell) {
                problems.push(Problem::new(
                    format!("{path}.spells[{i}]"),
                    format!("{e} (in the bundled SRD)"),
                ));
            }
        }
    }
}

/// A DC, if there is one, must be 1..=30.
pub(super) fn dc(value: Option<i32>, path: &str, problems: &mut Vec<Problem>) {
    if let Some(dc) = value.filter(|dc| !(1..=30).contains(dc)) {
        problems.push(Problem::new(
            path,
            format!("DC {dc} is outside 1..=30; {DC_HELP}"),
        ));
    }
}

/// Reports each id used more than once (once per id), at the path `at` gives for it.
fn duplicates<S: AsRef<str>>(
    ids: impl Iterator<Item = S>,
    what: &str,
    at: impl Fn(&str) -> String,
    problems: &mut Vec<Problem>,
) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut order = Vec::new();
    for id in ids {
        let id = id.as_ref().to_owned();
        let count = counts.entry(id.clone()).or_insert(0);
        if *count == 0 {
            order.push(id);
        }
        *count += 1;
    }
    for id in order {
        let count = counts.get(&id).copied().unwrap_or(0);
        if count > 1 && !id.is_empty() {
            problems.push(Problem::new(
                at(&id),
                format!("the {what} {id:?} is used {count} times; each must be unique"),
            ));
        }
    }
}

/// Every item name (lower case) lying anywhere: room loot, feature loot, inventories.
fn item_names(adventure: &Adventure) -> BTreeSet<String> {
    let carried = adventure.characters.iter().flat_map(|c| c.inventory.iter());
    adventure
        .loot()
        .chain(carried)
        .map(|item| item.name.to_lowercase())
        .collect()
}

/// The farthest an area may lie from the room's origin, in feet along each axis (a mile): past
/// it a fight's distances stop meaning anything at the table.
const AREA_MAX_FT: i32 = 5280;

/// A room's areas: ids unique and not empty, coordinates within a mile, heights not below the
/// floor, a radius of 5 to 100 ft, and every monster's `area` one of them.
fn areas(room: &super::Room, path: &str, problems: &mut Vec<Problem>) {
    duplicates(
        room.areas.iter().map(|a| a.id.as_str()),
        "area id",
        |id| format!("{path}.areas[{id}].id"),
        problems,
    );
    for area in &room.areas {
        let area_path = format!("{path}.areas[{}]", area.id);
        if area.id.trim().is_empty() {
            problems.push(Problem::new(
                format!("{area_path}.id"),
                "an area needs an id (\"ice-bridge\")",
            ));
        }
        for (axis, value) in [("x", area.x), ("y", area.y), ("z", area.z)] {
            if value.abs() > AREA_MAX_FT {
                problems.push(Problem::new(
                    format!("{area_path}.{axis}"),
                    format!(
                        "{value} ft is more than {AREA_MAX_FT} ft (a mile) from the room's origin"
                    ),
                ));
            }
        }
        if area.z < 0 {
            problems.push(Problem::new(
                format!("{area_path}.z"),
                format!(
                    "a height of {} ft is below the floor; z is 0 (the floor) or more",
                    area.z
                ),
            ));
        }
        if !(5..=100).contains(&area.radius_ft) {
            problems.push(Problem::new(
                format!("{area_path}.radius_ft"),
                format!(
                    "a radius of {} ft is outside 5..=100 ft (default 10)",
                    area.radius_ft
                ),
            ));
        }
    }
    let ids: Vec<&str> = room.areas.iter().map(|a| a.id.as_str()).collect();
    for monster in &room.monsters {
        let Some(area) = &monster.area else { continue };
        if !ids.contains(&area.as_str()) {
            let valid = if ids.is_empty() {
                "the room has no areas; add `areas` to the room or leave the monster's `area` out"
                    .to_owned()
            } else {
                format!("the room's areas are: {}", ids.join(", "))
            };
            problems.push(Problem::new(
                format!("{path}.monsters[{}].area", monster.id),
                format!("no area {area:?}; {valid}"),
            ));
        }
    }
}

/// Milestones only with milestone levelling, and then at least one; each with a unique id and
/// exactly one of a declared flag or an existing room.
fn milestones(
    adventure: &Adventure,
    room_exists: &dyn Fn(&str) -> bool,
    no_room: &dyn Fn(&str) -> String,
    problems: &mut Vec<Problem>,
) {
    match adventure.levelling {
        super::LevellingMode::Xp if !adventure.milestones.is_empty() => problems.push(Problem::new(
            "milestones",
            "milestones grant levels only with \"levelling\": \"milestone\"; set it, or remove the milestones",
        )),
        super::LevellingMode::Milestone if adventure.milestones.is_empty() => {
            problems.push(Problem::new(
                "milestones",
                "milestone levelling needs at least one milestone: {\"id\": ..., \"flag\": ...} or {\"id\": ..., \"room\": ...}",
            ))
        }
        _ => {}
    }
    duplicates(
        adventure.milestones.iter().map(|m| m.id.as_str()),
        "milestone id",
        |id| format!("milestones[{id}].id"),
        problems,
    );
    for m in &adventure.milestones {
        let path = format!("milestones[{}]", m.id);
        if m.id.trim().is_empty() {
            problems.push(Problem::new(
                format!("{path}.id"),
                "a milestone id may not be empty",
            ));
        }
        match (&m.flag, &m.room) {
            (Some(flag), None) if !adventure.flags.contains_key(flag) => {
                let declared: Vec<&str> = adventure.flags.keys().map(String::as_str).collect();
                problems.push(Problem::new(
                    format!("{path}.flag"),
                    format!(
                        "no flag {flag:?} in `flags`; declare it there (false at the start), or use one of: {}",
                        declared.join(", ")
                    ),
                ));
            }
            (None, Some(room)) if !room_exists(room) => {
                problems.push(Problem::new(format!("{path}.room"), no_room(room)))
            }
            (Some(_), None) | (None, Some(_)) => {}
            _ => problems.push(Problem::new(
                path,
                "a milestone has exactly one of `flag` (reached when the story sets it) or `room` (reached when the party enters it)",
            )),
        }
    }
}
