//! Reading the state snapshot the engine puts in every request (`Current state (JSON): ...`)
//! into the present of the [`World`]: the room, the party, the monsters and NPCs in sight, the
//! fight and the flags. Item summaries and hit points come as short texts; they are parsed
//! here.

use serde_json::Value;

use super::view::{Exit, Feature, Hero, Item, Monster, Npc, Room, World};

pub(crate) fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

pub(crate) fn number(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

/// "21/28" or "21/28 +5 temp" → (21, 28).
pub(crate) fn parse_hp(s: &str) -> Option<(u32, u32)> {
    let first = s.split_whitespace().next()?;
    let (a, b) = first.split_once('/')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// "Rope ×1" → Rope, 1.
fn parse_stack(s: &str) -> Item {
    match s.rsplit_once(" ×") {
        Some((name, n)) if n.parse::<u32>().is_ok() => Item {
            name: name.to_owned(),
            quantity: n.parse().unwrap_or(1),
        },
        _ => Item {
            name: s.to_owned(),
            quantity: 1,
        },
    }
}

/// The snapshot's item summary ("Javelin ×4, Rope, hempen (50 feet), Torch") → stacks. A comma
/// followed by a lower-case word belongs to the name before it.
pub(crate) fn parse_items(summary: &str) -> Vec<Item> {
    let mut names: Vec<String> = Vec::new();
    for piece in summary.split(", ") {
        let starts_lower = piece.chars().next().is_some_and(char::is_lowercase);
        match names.last_mut() {
            Some(last) if starts_lower => {
                last.push_str(", ");
                last.push_str(piece);
            }
            _ if piece.trim().is_empty() => {}
            _ => names.push(piece.to_owned()),
        }
    }
    names.iter().map(|n| parse_stack(n)).collect()
}

impl World {
    /// Sets the present from the snapshot, keeping what tools taught about this room.
    pub(crate) fn overlay(&mut self, s: &Value) {
        let location = &s["location"];
        let id = text(location, "id");
        let memory = self.rooms.get(&id).cloned().unwrap_or_default();
        let exits = location["exits"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter_map(|line| {
                let (direction, to) = line.split_once(" → ")?;
                let locked = to.ends_with(" (locked)");
                Some(Exit {
                    direction: direction.to_owned(),
                    to: to.trim_end_matches(" (locked)").to_owned(),
                    locked,
                })
            })
            .collect();
        let features = location["features"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|name| {
                memory
                    .features
                    .iter()
                    .find(|f| f.name == name)
                    .cloned()
                    .unwrap_or_else(|| Feature {
                        name: name.to_owned(),
                        ..Feature::default()
                    })
            })
            .collect();
        self.areas = location["areas"].as_array().is_some_and(|a| !a.is_empty());
        let short = text(location, "description");
        self.room = Room {
            title: text(location, "title"),
            description: if memory.description.is_empty() {
                short
            } else {
                memory.description
            },
            exits,
            features,
            floor: location["loot"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(parse_stack)
                .collect(),
            id,
        };
        self.party = s["party"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let conditions: Vec<&str> = c["conditions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let hp = parse_hp(&text(c, "hp")).unwrap_or((0, 0));
                Hero {
                    id: text(c, "id"),
                    name: text(c, "who")
                        .split(',')
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                    down: hp.0 == 0
                        || conditions
                            .iter()
                            .any(|x| *x == "dead" || x.starts_with("dying") || *x == "stable"),
                    hp,
                    items: parse_items(&text(c, "items")),
                    gold: number(c, "gold").unwrap_or(0).max(0) as u32,
                }
            })
            .collect();
        self.monsters = s["monsters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                let hp = parse_hp(&text(m, "hp"));
                Monster {
                    id: text(m, "id"),
                    name: text(m, "name"),
                    // A fled or surrendered monster is no longer a foe.
                    alive: hp.is_some_and(|(c, _)| c > 0) && m.get("morale").is_none(),
                    hp,
                }
            })
            .collect();
        self.npcs = s["npcs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| Npc {
                id: text(n, "id"),
                name: text(n, "name"),
                description: None,
                doing: n.get("doing").and_then(Value::as_str).map(str::to_owned),
            })
            .collect();
        self.turn_of = s
            .get("encounter")
            .and_then(|e| e.get("turn"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.encounter = s.get("encounter").map(|e| {
            e["order"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        });
        self.flags = s["flags"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
    }
}
