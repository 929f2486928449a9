//! Areas of effect as pure functions over points: which creatures a spell's sphere, cylinder,
//! cube, cone or line covers, from where it is aimed.
//!
//! - **Aimed at a point** ([`Aim::Centred`]): a sphere, a cylinder or a cube cast at a point
//!   within range (Fireball, Shatter, Web). A sphere covers every point within its radius; a
//!   cylinder every point within its radius along the floor and within [`CYLINDER_HEIGHT_FT`]
//!   above or below the point; a cube every point within half its side of the point on each
//!   axis (the SRD puts the point on one face; centring it is the simplification the table
//!   uses when it only knows a creature or an area to aim at). Whoever stands in it, the
//!   caster and its allies included, is covered.
//! - **Aimed from the caster toward a point** ([`Aim::FromCaster`]): a cone, a line, a cube
//!   (Thunderwave) or a sphere with a range of Self. The cone's width at any distance equals
//!   that distance; the line is 5 ft wide; the cube has the caster on the middle of one face
//!   and reaches its side toward the aim, along the floor, half its side up and down; a sphere
//!   is centred on the caster. The caster is never covered (the point of origin is not part of
//!   the area).
//!
//! Distances along the aim are measured as the fight measures them (rounded to 5 ft:
//! `state::round_to_5`), so a creature 22 ft away stands in a 20-ft sphere as it stands 20 ft
//! away for a range check.

use crate::state::{Position, round_to_5};

/// How high a cylinder reaches above and below its point, in feet (the SRD's cylinders are 20 to
/// 40 ft high; the data gives only the radius).
pub const CYLINDER_HEIGHT_FT: i32 = 40;

/// The width of a line, in feet.
pub const LINE_WIDTH_FT: f64 = 5.0;

/// A shape of area (the SRD data's `area.shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A radius around a point.
    Sphere,
    /// A radius along the floor around a point, some height up and down.
    Cylinder,
    /// A cube of a side.
    Cube,
    /// A cone whose width at any distance is that distance.
    Cone,
    /// A line 5 ft wide.
    Line,
}

impl Shape {
    /// Reads the data's word ("sphere", "cone"...); `None` for anything else.
    pub fn parse(word: &str) -> Option<Shape> {
        match word.trim().to_ascii_lowercase().as_str() {
            "sphere" | "radius" => Some(Shape::Sphere),
            "cylinder" => Some(Shape::Cylinder),
            "cube" | "square" => Some(Shape::Cube),
            "cone" => Some(Shape::Cone),
            "line" => Some(Shape::Line),
            _ => None,
        }
    }

    /// Whether a spell of this shape is aimed from its caster toward a point, rather than
    /// centred on a point it names: a cone and a line always; a cube or a sphere when the
    /// spell's range is Self (`caster_range`: Thunderwave's cube).
    pub fn from_caster(self, caster_range: bool) -> bool {
        matches!(self, Shape::Cone | Shape::Line) || caster_range
    }
}

/// Where an area is aimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// Centred on a point.
    Centred(Position),
    /// From the caster toward a point (not the caster's own).
    FromCaster {
        /// Where the caster stands: the point of origin.
        caster: Position,
        /// The point it aims at, which sets the direction.
        toward: Position,
    },
}

/// Whether an area of `shape` and `size_ft` (radius, side or length) aimed as `aim` covers a
/// creature standing at `point`.
pub fn covers(shape: Shape, size_ft: u32, aim: Aim, point: Position) -> bool {
    let size = f64::from(size_ft);
    match aim {
        Aim::Centred(centre) => centred(shape, size_ft, centre, point),
        Aim::FromCaster { caster, toward } => {
            if point == caster {
                return false;
            }
            let Some(frame) = Frame::new(caster, toward, shape == Shape::Cube) else {
                return false;
            };
            let (along, across, up) = frame.measure(point);
            let reaches = along > 0.0 && round_to_5(along) <= size_ft;
            match shape {
                Shape::Sphere | Shape::Cylinder => centred(shape, size_ft, caster, point),
                Shape::Cone => reaches && across.hypot(up) <= along / 2.0 + EPSILON,
                Shape::Line => reaches && across.hypot(up) <= LINE_WIDTH_FT / 2.0 + EPSILON,
                Shape::Cube => {
                    reaches
                        && across.abs() <= size / 2.0 + EPSILON
                        && up.abs() <= size / 2.0 + EPSILON
                }
            }
        }
    }
}

/// Slack for points exactly on an edge.
const EPSILON: f64 = 1e-6;

fn centred(shape: Shape, size_ft: u32, centre: Position, point: Position) -> bool {
    let half = f64::from(size_ft) / 2.0;
    match shape {
        Shape::Cylinder => {
            let flat = Position {
                z: centre.z,
                ..point
            };
            round_to_5(centre.exact_distance(flat)) <= size_ft
                && (point.z - centre.z).abs() <= CYLINDER_HEIGHT_FT
        }
        Shape::Cube => {
            let d = |a: i32, b: i32| (f64::from(a) - f64::from(b)).abs();
            d(point.x, centre.x) <= half + EPSILON
                && d(point.y, centre.y) <= half + EPSILON
                && d(point.z, centre.z) <= half + EPSILON
        }
        // A cone or a line has no centre: measured as a sphere if ever asked so.
        Shape::Sphere | Shape::Cone | Shape::Line => {
            round_to_5(centre.exact_distance(point)) <= size_ft
        }
    }
}

/// Axes from the caster toward its aim: along the aim, across it along the floor, and the
/// rest (up and down, tilted with the aim).
struct Frame {
    origin: [f64; 3],
    along: [f64; 3],
    across: [f64; 3],
    up: [f64; 3],
}

impl Frame {
    /// `None` when the aim is the caster's own point (no direction). `flat`: along the floor
    /// only (a cube keeps its faces upright).
    fn new(caster: Position, toward: Position, flat: bool) -> Option<Frame> {
        let (o, t) = (caster.coords(), toward.coords());
        let mut along = [
            t[0] - o[0],
            t[1] - o[1],
            if flat { 0.0 } else { t[2] - o[2] },
        ];
        let length = norm(along);
        if length <= EPSILON {
            return None;
        }
        along = along.map(|v| v / length);
        // Across: horizontal and square to the aim; straight up or down, east is across.
        let flat_len = along[0].hypot(along[1]);
        let across = if flat_len <= EPSILON {
            [1.0, 0.0, 0.0]
        } else {
            [-along[1] / flat_len, along[0] / flat_len, 0.0]
        };
        let up = cross(along, across);
        Some(Frame {
            origin: o,
            along,
            across,
            up,
        })
    }

    /// The point's coordinates along the three axes.
    fn measure(&self, point: Position) -> (f64, f64, f64) {
        let p = point.coords();
        let d = [
            p[0] - self.origin[0],
            p[1] - self.origin[1],
            p[2] - self.origin[2],
        ];
        (dot(d, self.along), dot(d, self.across), dot(d, self.up))
    }
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: i32, y: i32) -> Position {
        Position { x, y, z: 0 }
    }

    #[test]
    fn a_sphere_covers_its_radius_as_the_fight_measures_it() {
        let fireball = Aim::Centred(at(0, 0));
        assert!(covers(Shape::Sphere, 20, fireball, at(0, 0)));
        assert!(covers(Shape::Sphere, 20, fireball, at(20, 0)));
        // 21.2 ft rounds to 20 ft: inside, as a range check would count it.
        assert!(covers(Shape::Sphere, 20, fireball, at(15, 15)));
        assert!(!covers(Shape::Sphere, 20, fireball, at(25, 0)));
        // Height counts: a harpy 30 ft up is outside a 20-ft sphere on the floor.
        let up = Position { x: 0, y: 0, z: 30 };
        assert!(!covers(Shape::Sphere, 20, fireball, up));
    }

    #[test]
    fn a_cylinder_ignores_height_within_its_reach_and_a_cube_is_square() {
        let c = Aim::Centred(at(0, 0));
        let up = Position { x: 5, y: 0, z: 30 };
        assert!(covers(Shape::Cylinder, 10, c, up));
        assert!(!covers(Shape::Cylinder, 10, c, at(15, 0)));
        // A 20-ft cube around a point: 10 ft each way, corners included.
        assert!(covers(Shape::Cube, 20, c, at(10, 10)));
        assert!(!covers(Shape::Cube, 20, c, at(15, 0)));
    }

    #[test]
    fn a_cone_widens_as_it_goes_and_never_covers_its_caster() {
        let cone = Aim::FromCaster {
            caster: at(0, 0),
            toward: at(10, 0),
        };
        assert!(!covers(Shape::Cone, 15, cone, at(0, 0)));
        assert!(covers(Shape::Cone, 15, cone, at(5, 0)));
        assert!(covers(Shape::Cone, 15, cone, at(15, 5)));
        assert!(covers(Shape::Cone, 15, cone, at(10, 5)));
        assert!(
            !covers(Shape::Cone, 15, cone, at(5, 5)),
            "wider than the cone at 5 ft"
        );
        assert!(!covers(Shape::Cone, 15, cone, at(20, 0)), "beyond 15 ft");
        assert!(
            !covers(Shape::Cone, 15, cone, at(-5, 0)),
            "behind the caster"
        );
    }

    #[test]
    fn a_line_is_five_feet_wide_in_any_direction() {
        let bolt = Aim::FromCaster {
            caster: at(0, 0),
            toward: at(30, 30),
        };
        assert!(covers(Shape::Line, 100, bolt, at(50, 50)));
        assert!(covers(Shape::Line, 100, bolt, at(70, 70)));
        assert!(!covers(Shape::Line, 100, bolt, at(75, 75)), "past 100 ft");
        assert!(
            !covers(Shape::Line, 100, bolt, at(30, 35)),
            "3.5 ft off the line"
        );
        let east = Aim::FromCaster {
            caster: at(0, 0),
            toward: at(5, 0),
        };
        assert!(covers(Shape::Line, 100, east, at(100, 0)));
        assert!(covers(Shape::Line, 100, east, at(60, 2)));
        assert!(!covers(Shape::Line, 100, east, at(60, 5)));
    }

    #[test]
    fn thunderwaves_cube_starts_at_the_caster_and_goes_toward_the_aim() {
        let wave = Aim::FromCaster {
            caster: at(0, 0),
            toward: at(5, 0),
        };
        assert!(covers(Shape::Cube, 15, wave, at(5, 0)));
        assert!(covers(Shape::Cube, 15, wave, at(15, 5)));
        assert!(covers(Shape::Cube, 15, wave, at(10, -5)));
        assert!(
            !covers(Shape::Cube, 15, wave, at(5, 10)),
            "beyond half its side"
        );
        assert!(
            !covers(Shape::Cube, 15, wave, at(-5, 0)),
            "behind the caster"
        );
        assert!(!covers(Shape::Cube, 15, wave, at(0, 0)), "the caster");
        // Aimed at a creature above: the cube stays upright along the floor.
        let high = Aim::FromCaster {
            caster: at(0, 0),
            toward: Position { x: 5, y: 0, z: 30 },
        };
        assert!(covers(Shape::Cube, 15, high, at(10, 0)));
        assert!(!covers(
            Shape::Cube,
            15,
            high,
            Position { x: 5, y: 0, z: 30 }
        ));
    }

    #[test]
    fn shapes_read_from_the_data_and_know_where_they_start() {
        assert_eq!(Shape::parse("Sphere"), Some(Shape::Sphere));
        assert_eq!(Shape::parse("line"), Some(Shape::Line));
        assert_eq!(Shape::parse("blob"), None);
        assert!(Shape::Cone.from_caster(false));
        assert!(Shape::Cube.from_caster(true));
        assert!(!Shape::Cube.from_caster(false));
        assert!(!Shape::Sphere.from_caster(false));
    }
}
