//! The map of the rooms the party has found, as data: each room with grid coordinates laid out
//! from the exits' directions (north is `y - 1`, east is `x + 1`, ...), so the terminal lists
//! it and the page only draws it.

use std::collections::{BTreeMap, VecDeque};

use dnd_engine::state::GameState;
use serde::Serialize;

/// The rooms found and the known ways between them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MapView {
    /// The adventure's title.
    pub title: String,
    /// The rooms visited, in the adventure's order.
    pub rooms: Vec<Room>,
    /// The known exits between two visited rooms, once per pair.
    pub exits: Vec<Link>,
}

/// A room on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Room {
    /// The room's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Grid column (east is +1).
    pub x: i32,
    /// Grid row (north is −1, as on a page).
    pub y: i32,
    /// Whether the party is here.
    pub here: bool,
    /// Its known exits (hidden ones only once found).
    pub ways: Vec<Way>,
}

/// An exit as the room's list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Way {
    /// "north", "down", "through the crack".
    pub direction: String,
    /// The room it leads to, when the party has been there.
    pub to: Option<String>,
    /// Locked.
    pub locked: bool,
}

/// A line between two rooms on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The room it leaves.
    pub from: String,
    /// The room it reaches.
    pub to: String,
    /// The exit's direction from `from`.
    pub direction: String,
}

/// The grid step of a direction's name; an unusual one ("down", "through the crack") is none.
fn step(direction: &str) -> Option<(i32, i32)> {
    let d = direction.trim().to_ascii_lowercase();
    Some(match d.as_str() {
        "north" | "n" => (0, -1),
        "south" | "s" => (0, 1),
        "east" | "e" => (1, 0),
        "west" | "w" => (-1, 0),
        "northeast" | "ne" => (1, -1),
        "northwest" | "nw" => (-1, -1),
        "southeast" | "se" => (1, 1),
        "southwest" | "sw" => (-1, 1),
        "up" => (1, -1),
        "down" => (1, 1),
        _ => return None,
    })
}

impl MapView {
    /// The map of `state`'s visited rooms.
    pub fn of(state: &GameState) -> MapView {
        let here = state.party_location().map(|l| l.id.as_str());
        let visited: Vec<_> = state.locations.iter().filter(|l| l.visited).collect();
        let is_visited = |id: &str| visited.iter().any(|l| l.id == id);
        let mut exits: Vec<Link> = Vec::new();
        for room in &visited {
            for exit in room.exits.iter().filter(|e| !e.hidden && is_visited(&e.to)) {
                let seen = exits.iter().any(|l| {
                    l.from == exit.to && l.to == room.id || l.from == room.id && l.to == exit.to
                });
                if !seen {
                    exits.push(Link {
                        from: room.id.clone(),
                        to: exit.to.clone(),
                        direction: exit.direction.clone(),
                    });
                }
            }
        }
        let places = layout(
            &visited.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
            &exits,
        );
        let rooms = visited
            .iter()
            .map(|room| {
                let (x, y) = places.get(room.id.as_str()).copied().unwrap_or((0, 0));
                Room {
                    id: room.id.clone(),
                    title: room.title.clone(),
                    x,
                    y,
                    here: Some(room.id.as_str()) == here,
                    ways: room
                        .exits
                        .iter()
                        .filter(|e| !e.hidden)
                        .map(|e| Way {
                            direction: e.direction.clone(),
                            to: state
                                .location(&e.to)
                                .filter(|l| l.visited)
                                .map(|l| l.title.clone()),
                            locked: e.locked,
                        })
                        .collect(),
                }
            })
            .collect();
        MapView {
            title: state.title.clone(),
            rooms,
            exits,
        }
    }
}

/// Places rooms on a grid: the first at (0, 0), each next one a step from a placed neighbour in
/// its exit's direction (or the reverse, walking an exit backwards), moved on along the same
/// step while the cell is taken; a room no exit reaches goes in a new column to the right.
fn layout<'a>(rooms: &[&'a str], links: &[Link]) -> BTreeMap<&'a str, (i32, i32)> {
    let mut placed: BTreeMap<&'a str, (i32, i32)> = BTreeMap::new();
    let taken =
        |placed: &BTreeMap<&str, (i32, i32)>, cell: (i32, i32)| placed.values().any(|c| *c == cell);
    for &start in rooms {
        if placed.contains_key(start) {
            continue;
        }
        let column = placed.values().map(|c| c.0 + 2).max().unwrap_or(0);
        placed.insert(start, (column, 0));
        let mut queue = VecDeque::from([start]);
        while let Some(room) = queue.pop_front() {
            let at = placed[room];
            for link in links {
                let (other, (dx, dy)) = if link.from == room {
                    (link.to.as_str(), step(&link.direction).unwrap_or((1, 0)))
                } else if link.to == room {
                    let (dx, dy) = step(&link.direction).unwrap_or((1, 0));
                    (link.from.as_str(), (-dx, -dy))
                } else {
                    continue;
                };
                let Some(&other) = rooms.iter().find(|r| **r == other) else {
                    continue;
                };
                if placed.contains_key(other) {
                    continue;
                }
                let mut cell = (at.0 + dx, at.1 + dy);
                while taken(&placed, cell) {
                    cell = (cell.0 + dx, cell.1 + dy);
                }
                placed.insert(other, cell);
                queue.push_back(other);
            }
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(from: &str, to: &str, direction: &str) -> Link {
        Link {
            from: from.into(),
            to: to.into(),
            direction: direction.into(),
        }
    }

    #[test]
    fn rooms_are_laid_out_by_their_exits_directions() {
        let places = layout(
            &["hall", "north-room", "east-room", "cellar"],
            &[
                link("hall", "north-room", "north"),
                link("east-room", "hall", "west"),
                link("hall", "cellar", "through the trapdoor"),
            ],
        );
        assert_eq!(places["hall"], (0, 0));
        assert_eq!(places["north-room"], (0, -1));
        // Walked backwards: the hall is west of the east room.
        assert_eq!(places["east-room"], (1, 0));
        // An unusual direction steps east, past the taken cell.
        assert_eq!(places["cellar"], (2, 0));
    }

    #[test]
    fn the_built_in_adventure_starts_with_one_room_where_the_party_is() {
        let state = dnd_engine::adventure::Adventure::built_in()
            .new_game(&["kraven"])
            .unwrap();
        let map = MapView::of(&state);
        assert_eq!(map.rooms.len(), 1, "{map:?}");
        assert!(map.rooms[0].here);
        assert_eq!((map.rooms[0].x, map.rooms[0].y), (0, 0));
    }
}
