//! Numbers too large for their place in a dice expression are refused with a typed error that
//! says what the number was for and the largest accepted, never clamped to something the player
//! did not write (`1d20kh99999999999999999999` once rolled as `1d20kh4294967295`).

use dnd_engine::dice::{Dialect, DiceError, DiceExpr};

/// Twenty nines: more than fits in 64 bits.
const HUGE: &str = "99999999999999999999";

/// Parses `text`, expects it refused, and checks the error's position and message.
fn refused(text: &str, dialect: Dialect) -> DiceError {
    let err = match DiceExpr::parse_with(text, dialect) {
        Ok(expr) => panic!("{text:?} parsed as {expr} in {dialect:?}"),
        Err(err) => err,
    };
    let position = err.position().expect("a number's error points at it");
    assert!(
        text[position..].starts_with(|c: char| c.is_ascii_digit()),
        "{text:?}: {err:?} does not point at a number"
    );
    err
}

#[test]
fn numbers_beyond_64_bits_are_refused_with_their_maximum() {
    let max_constant = 999_999_999_999_999;
    let max_exact = 1u64 << 53;
    let cases: Vec<(String, Dialect, &str, u64)> = vec![
        // The count after a keep or drop.
        (
            format!("1d20kh{HUGE}"),
            Dialect::Roll20,
            "the count after kh",
            u32::MAX.into(),
        ),
        (
            format!("4d6kl{HUGE}"),
            Dialect::Roll20,
            "the count after kl",
            u32::MAX.into(),
        ),
        (
            format!("4d6dh{HUGE}"),
            Dialect::Roll20,
            "the count after dh",
            u32::MAX.into(),
        ),
        (
            format!("4d6k{HUGE}"),
            Dialect::Roll20,
            "the count after k",
            u32::MAX.into(),
        ),
        (
            format!("4d6d{HUGE}"),
            Dialect::Roll20,
            "the count after d",
            u32::MAX.into(),
        ),
        (
            format!("1d20kh{HUGE}"),
            Dialect::Avrae,
            "the count after h",
            u32::MAX.into(),
        ),
        (
            format!("(1, 2)pl{HUGE}"),
            Dialect::Avrae,
            "the count after l",
            u32::MAX.into(),
        ),
        // Dice counts, sides and constants.
        (
            format!("{HUGE}d6"),
            Dialect::Roll20,
            "the number of dice",
            1000,
        ),
        (
            format!("1d{HUGE}"),
            Dialect::Avrae,
            "the number of sides",
            1_000_000,
        ),
        (
            format!("1+{HUGE}"),
            Dialect::Roll20,
            "the number",
            max_constant,
        ),
        // Reroll targets, compare points, value selectors, clamps.
        (
            format!("1d6r<{HUGE}"),
            Dialect::Roll20,
            "the compare point",
            max_exact,
        ),
        (
            format!("3d6>={HUGE}"),
            Dialect::Roll20,
            "the compare point",
            max_exact,
        ),
        (
            format!("1d6rr>{HUGE}"),
            Dialect::Avrae,
            "the number in a selector",
            max_exact,
        ),
        (
            format!("(1, 2)k{HUGE}"),
            Dialect::Avrae,
            "the number in a selector",
            max_exact,
        ),
        (
            format!("1d6mi{HUGE}"),
            Dialect::Roll20,
            "the value after mi",
            1_000_000,
        ),
    ];
    for (text, dialect, what, max) in cases {
        let err = refused(&text, dialect);
        let message = err.to_string();
        assert!(
            message.contains("too large") && message.contains(&max.to_string()),
            "{text:?}: {message:?} does not say the number is too large and the maximum"
        );
        match err {
            DiceError::NumberTooLarge {
                what: w,
                digits,
                max: m,
                ..
            } => assert_eq!((w, digits, m), (what, 20, max), "{text:?}"),
            other => panic!("{text:?} in {dialect:?}: {other:?}"),
        }
    }
}

#[test]
fn numbers_over_their_limit_but_within_64_bits_are_echoed() {
    let cases = [
        (
            "1d20kh4294967296",
            "the count after kh",
            4_294_967_296,
            u64::from(u32::MAX),
        ),
        (
            "1+1000000000000000",
            "the number",
            1_000_000_000_000_000,
            999_999_999_999_999,
        ),
        ("1d6mi1000001", "the value after mi", 1_000_001, 1_000_000),
    ];
    for (text, what, value, max) in cases {
        match refused(text, Dialect::Roll20) {
            DiceError::Limit {
                what: w,
                value: v,
                max: m,
                ..
            } => assert_eq!((w, v, m), (what, value, max), "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn the_largest_accepted_numbers_still_parse_as_written() {
    for (text, dialect) in [
        ("1d20kh4294967295", Dialect::Roll20),
        ("1d20kh4294967295", Dialect::Avrae),
        ("1+999999999999999", Dialect::Roll20),
        ("1d6r<0", Dialect::Roll20),
        ("(1, 2)k>9007199254740992", Dialect::Avrae),
    ] {
        let expr = DiceExpr::parse_with(text, dialect).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = expr.to_string().replace(' ', "");
        assert_eq!(
            printed,
            text.replace(' ', ""),
            "{text:?} was not kept as written"
        );
    }
}
