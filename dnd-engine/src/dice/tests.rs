//! Unit tests of parsing, rolling and distributions with fixed faces and seeds.

use super::*;

fn roll_fixed(expr: &str, dialect: Dialect, faces: &[u32]) -> Roll {
    let e = DiceExpr::parse_with(expr, dialect).unwrap_or_else(|err| panic!("{expr}: {err}"));
    e.roll(&mut FixedFaces::new(faces.iter().copied()))
        .unwrap_or_else(|err| panic!("{expr}: {err}"))
}

#[test]
fn keep_highest_renders_dropped_dice() {
    let r = roll_fixed("4d6kh3", Dialect::Roll20, &[6, 5, 2, 4]);
    assert_eq!(r.total(), 15);
    assert_eq!(r.to_string(), "4d6kh3 (6, 5, ~~2~~, 4) = 15");
}
