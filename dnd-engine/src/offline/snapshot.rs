//! Reading the state snapshot the engine puts in every request (`Current state (JSON): ...`)
//! into the present of the [`World`]: the room, the party, the monsters and NPCs in sight, the
//! fight and the flags. The snapshot is read as its own type (`state::Snapshot`), and its
//! compact texts (hit points, items, exits) by the readers written beside their writers
//! (`state::compact`).

use crate::state::Snapshot;
use crate::state::compact::{read_exit, read_hit_points, read_items, read_stack};

use super::view::{Exit, Feature, Hero, Item, Monster, Npc, Puzzle, Room, World};

/// "21/28" or "21/28 +5 temp" → (21, 28).
pub(crate) fn parse_hp(text: &str) -> Option<(u32, u32)> {
    read_hit_points(text)
}

fn item((name, quantity): (String, u32)) -> Item {
    Item { name, quantity }
}

impl World {
    /// Sets the present from the snapshot, keeping what tools taught about this room.
    pub(crate) fn overlay(&mut self, s: &Snapshot) {
        let location = &s.location;
        let memory = self.rooms.get(&location.id).cloned().unwrap_or_default();
        let exits = location
            .exits
            .iter()
            .filter_map(|line| read_exit(line))
            .map(|(direction, to, locked)| Exit {
                direction,
                to,
                locked,
            })
            .collect();
        let features = location
            .features
            .iter()
            .map(|name| {
                memory
                    .features
                    .iter()
                    .find(|f| f.name == *name)
                    .cloned()
                    .unwrap_or_else(|| Feature {
                        name: name.clone(),
                        ..Feature::default()
                    })
            })
            .collect();
        self.areas = !location.areas.is_empty();
        self.room = Room {
            id: location.id.clone(),
            title: location.title.clone(),
            description: if memory.description.is_empty() {
                location.description.clone()
            } else {
                memory.description
            },
            exits,
            features,
            floor: location.loot.iter().map(|l| item(read_stack(l))).collect(),
        };
        self.party = s
            .party
            .iter()
            .map(|c| {
                let hp = read_hit_points(&c.hp).unwrap_or((0, 0));
                let lost = |x: &String| x == "dead" || x.starts_with("dying") || x == "stable";
                Hero {
                    id: c.id.clone(),
                    name: c.who.split(',').next().unwrap_or_default().to_owned(),
                    class: c
                        .who
                        .rsplit(',')
                        .next()
                        .and_then(|t| t.split_whitespace().next())
                        .unwrap_or_default()
                        .to_ascii_lowercase(),
                    level: c
                        .who
                        .rsplit(',')
                        .next()
                        .and_then(|t| t.split_whitespace().nth(1))
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0),
                    down: hp.0 == 0 || c.conditions.iter().any(lost),
                    hp,
                    items: read_items(&c.items).into_iter().map(item).collect(),
                    gold: c.gold,
                    spent_features: c.spent_features.clone(),
                }
            })
            .collect();
        self.monsters = s
            .monsters
            .iter()
            .map(|m| {
                let hp = read_hit_points(&m.hp);
                Monster {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    // A fled or surrendered monster is no longer a foe, and a summon on the
                    // party's side never is one.
                    alive: hp.is_some_and(|(c, _)| c > 0)
                        && m.morale.is_none()
                        && m.summoned_by.is_none(),
                    hp,
                    kind: m.kind.to_ascii_lowercase(),
                }
            })
            .collect();
        self.npcs = s
            .npcs
            .iter()
            .map(|n| Npc {
                id: n.id.clone(),
                name: n.name.clone(),
                description: None,
                doing: n.doing.clone(),
            })
            .collect();
        self.turn_of = s.encounter.as_ref().map(|e| e.turn.clone());
        self.encounter = s.encounter.as_ref().map(|e| e.order.clone());
        self.flags = s
            .flags
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.puzzles = s
            .puzzles
            .iter()
            .map(|p| Puzzle {
                id: p.id.clone(),
                asked_by: p.asked_by.clone(),
            })
            .collect();
    }
}
