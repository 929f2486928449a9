//! Where things stand in a room: named [`Area`]s at coordinates in feet, the [`Cover`] and
//! difficult terrain they give, and a creature's [`Position`] in a fight.
//!
//! The model is deliberately small. A room may list areas (points with a height); a fight
//! places each combatant at a point (at the start: a monster at its area, the party at the
//! room's first area). The distance between two creatures is the straight line between their
//! points, height included, rounded to the nearest 5 ft, and never less than 5 ft between two
//! creatures (creatures in one area stand next to each other). A point belongs to the nearest
//! area within that area's `radius_ft`, which gives it that area's cover and terrain; a point in
//! no area is open ground. A room without areas keeps no positions: everyone in it is within
//! 5 ft of everyone else, as before positions existed.

use serde::{Deserialize, Serialize};

/// A point in a room, in feet: `x` and `y` along the floor, `z` the height above it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// Feet along the floor (west to east, by convention).
    pub x: i32,
    /// Feet along the floor (south to north, by convention).
    pub y: i32,
    /// Feet above the floor.
    #[serde(default)]
    pub z: i32,
}

impl Position {
    /// The point's coordinates in feet, for geometry.
    pub fn coords(self) -> [f64; 3] {
        [f64::from(self.x), f64::from(self.y), f64::from(self.z)]
    }

    /// The straight-line distance in feet, unrounded.
    pub fn exact_distance(self, other: Position) -> f64 {
        let d = |a: i32, b: i32| f64::from(a) - f64::from(b);
        (d(self.x, other.x).powi(2) + d(self.y, other.y).powi(2) + d(self.z, other.z).powi(2))
            .sqrt()
    }

    /// The distance between two creatures standing here, in feet: the straight line, height
    /// included, rounded to the nearest 5 ft and never less than 5 ft (two creatures never
    /// share a square).
    pub fn distance(self, other: Position) -> u32 {
        round_to_5(self.exact_distance(other)).max(5)
    }
}

/// Feet rounded to the nearest multiple of 5 (halves up).
pub fn round_to_5(feet: f64) -> u32 {
    if !feet.is_finite() || feet <= 0.0 {
        return 0;
    }
    ((feet / 5.0 + 0.5).floor() as u32).saturating_mul(5)
}

/// How much an area shields whoever stands in it from attacks made from outside it.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// None.
    #[default]
    None,
    /// Half cover: +2 to AC (and Dexterity saves).
    Half,
    /// Three-quarters cover: +5 to AC (and Dexterity saves).
    ThreeQuarters,
    /// Total cover: cannot be targeted directly.
    Total,
}

impl Cover {
    /// The bonus to AC it gives (`None` for total cover: no attack can target it).
    pub fn armor_bonus(self) -> Option<i32> {
        match self {
            Cover::None => Some(0),
            Cover::Half => Some(2),
            Cover::ThreeQuarters => Some(5),
            Cover::Total => None,
        }
    }

    /// "half cover", for messages and the snapshot.
    pub fn describe(self) -> &'static str {
        match self {
            Cover::None => "no cover",
            Cover::Half => "half cover",
            Cover::ThreeQuarters => "three-quarters cover",
            Cover::Total => "total cover",
        }
    }
}

/// A named place in a room ("the ice bridge", "the spire of rime").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Stable id, unique in its room ("ice-bridge").
    pub id: String,
    /// Name as shown ("the ice bridge").
    pub name: String,
    /// Feet along the floor.
    pub x: i32,
    /// Feet along the floor.
    pub y: i32,
    /// Height above the floor, in feet. An area above the floor is reached only by a creature
    /// that flies.
    #[serde(default)]
    pub z: i32,
    /// How far from its point the area reaches, in feet (default 10).
    #[serde(default = "default_radius")]
    pub radius_ft: u32,
    /// Cover it gives against attacks from outside it.
    #[serde(default, skip_serializing_if = "is_no_cover")]
    pub cover: Cover,
    /// Difficult terrain: every foot of a move that starts or ends in it costs 2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub difficult_terrain: bool,
}

fn default_radius() -> u32 {
    10
}

fn is_no_cover(cover: &Cover) -> bool {
    *cover == Cover::None
}

impl Area {
    /// Its point.
    pub fn position(&self) -> Position {
        Position {
            x: self.x,
            y: self.y,
            z: self.z,
        }
    }
}

/// The area a point belongs to: the nearest whose radius holds it, if any.
pub fn area_at(areas: &[Area], at: Position) -> Option<&Area> {
    areas
        .iter()
        .map(|a| (a, a.position().exact_distance(at)))
        .filter(|(a, d)| *d <= f64::from(a.radius_ft))
        .min_by(|(_, x), (_, y)| x.total_cmp(y))
        .map(|(a, _)| a)
}

/// Whether a point lies inside the room the areas draw: within the box around every area
/// (each widened by its radius), and not below the floor.
pub fn inside(areas: &[Area], at: Position) -> bool {
    if areas.is_empty() || at.z < 0 {
        return false;
    }
    let r = |a: &Area| i32::try_from(a.radius_ft).unwrap_or(i32::MAX);
    let min = |f: fn(&Area) -> i32| areas.iter().map(|a| f(a).saturating_sub(r(a))).min();
    let max = |f: fn(&Area) -> i32| areas.iter().map(|a| f(a).saturating_add(r(a))).max();
    let within = |v: i32, lo: Option<i32>, hi: Option<i32>| {
        lo.is_some_and(|lo| v >= lo) && hi.is_some_and(|hi| v <= hi)
    };
    within(at.x, min(|a| a.x), max(|a| a.x))
        && within(at.y, min(|a| a.y), max(|a| a.y))
        && within(at.z, Some(0), max(|a| a.z))
}

/// An area for the snapshot: "rime-spire: the spire of rime (30 ft up, half cover)".
pub(super) fn describe_area(area: &Area) -> String {
    let mut notes = Vec::new();
    if area.z > 0 {
        notes.push(format!("{} ft up", area.z));
    }
    if area.cover != Cover::None {
        notes.push(area.cover.describe().to_owned());
    }
    if area.difficult_terrain {
        notes.push("difficult terrain".to_owned());
    }
    if notes.is_empty() {
        format!("{}: {}", area.id, area.name)
    } else {
        format!("{}: {} ({})", area.id, area.name, notes.join(", "))
    }
}

/// Each combatant's place for the snapshot: "Frost Harpy: the spire of rime, 30 ft up, half
/// cover; Kraven 50 ft" (its foes, characters for a monster and monsters for a character, with
/// their distance). Empty when the fight keeps no positions.
pub(super) fn describe_positions(state: &super::GameState, e: &super::Encounter) -> Vec<String> {
    let areas = state
        .party_location()
        .map(|l| l.areas.as_slice())
        .unwrap_or_default();
    let name = |id: &str| state.name_of(id);
    let alive = |id: &str| match state.character(id) {
        Some(c) => !c.dead,
        None => state.monster(id).is_some_and(|m| m.is_alive()),
    };
    e.order
        .iter()
        .filter(|s| alive(&s.id))
        .filter_map(|s| {
            let at = *e.positions.get(&s.id)?;
            let mut line = format!("{}: ", name(&s.id));
            match area_at(areas, at) {
                Some(area) => line.push_str(&area.name),
                None => line.push_str(&format!("open ground ({}, {})", at.x, at.y)),
            }
            if at.z > 0 {
                line.push_str(&format!(", {} ft up", at.z));
            }
            if let Some(area) = area_at(areas, at).filter(|a| a.cover != Cover::None) {
                line.push_str(&format!(", {}", area.cover.describe()));
            }
            let is_character = state.character(&s.id).is_some();
            let foes: Vec<String> = e
                .order
                .iter()
                .filter(|o| alive(&o.id) && state.character(&o.id).is_some() != is_character)
                .filter_map(|o| {
                    let there = e.positions.get(&o.id)?;
                    Some(format!("{} {} ft", name(&o.id), at.distance(*there)))
                })
                .collect();
            if !foes.is_empty() {
                line.push_str("; ");
                line.push_str(&foes.join(", "));
            }
            Some(line)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32, z: i32) -> Position {
        Position { x, y, z }
    }

    #[test]
    fn distances_round_to_5_ft_and_count_height() {
        assert_eq!(p(0, 0, 0).distance(p(30, 40, 0)), 50);
        // Thirty feet straight up is thirty feet away.
        assert_eq!(p(40, 0, 0).distance(p(40, 0, 30)), 30);
        // A diagonal neighbour (7.07 ft) is 5 ft away, as on the grid.
        assert_eq!(p(0, 0, 0).distance(p(5, 5, 0)), 5);
        // Two creatures in one spot are still 5 ft apart.
        assert_eq!(p(3, 3, 0).distance(p(3, 3, 0)), 5);
        assert_eq!(round_to_5(12.4), 10);
        assert_eq!(round_to_5(12.5), 15);
    }

    #[test]
    fn cover_bonuses_are_the_srd_s() {
        assert_eq!(Cover::Half.armor_bonus(), Some(2));
        assert_eq!(Cover::ThreeQuarters.armor_bonus(), Some(5));
        assert_eq!(Cover::Total.armor_bonus(), None);
    }

    #[test]
    fn a_point_belongs_to_the_nearest_area_that_holds_it() {
        let area = |id: &str, x: i32| Area {
            id: id.into(),
            name: id.into(),
            x,
            y: 0,
            z: 0,
            radius_ft: 10,
            cover: Cover::None,
            difficult_terrain: false,
        };
        let areas = [area("west", 0), area("east", 15)];
        assert_eq!(
            area_at(&areas, p(9, 0, 0)).map(|a| a.id.as_str()),
            Some("east")
        );
        assert_eq!(
            area_at(&areas, p(-5, 0, 0)).map(|a| a.id.as_str()),
            Some("west")
        );
        assert!(area_at(&areas, p(0, 30, 0)).is_none());
        assert!(inside(&areas, p(20, 5, 0)));
        assert!(!inside(&areas, p(40, 0, 0)));
        assert!(!inside(&areas, p(0, 0, -5)));
        assert!(!inside(&[], p(0, 0, 0)));
    }
}
