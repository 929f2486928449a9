//! Robustness of the dice engine against hostile and random input.
//!
//! - Arbitrary text (any Unicode, and strings built from the dice alphabet) never makes the
//!   parser, the roller or the distribution code panic, and each of them returns in bounded
//!   time.
//! - Random valid expressions of both dialects roll to a total their exact distribution allows,
//!   and print back to text that parses to the same expression.
//! - A list of known-bad inputs is refused with the right error, position and message.
//!
//! The property tests use a fixed seed, so every run checks the same cases.

use std::time::{Duration, Instant};

use dnd_engine::dice::{Dialect, DiceError, DiceExpr, Roll, seeded_rng};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

const DIALECTS: [Dialect; 2] = [Dialect::Roll20, Dialect::Avrae];

/// The longest one input may take to parse, roll twice and analyse. The engine bounds its work
/// (1000 dice per roll, a fixed budget for exact distributions); an unoptimised build needs a
/// few seconds for the largest distributions it still attempts.
fn time_limit() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(30)
    } else {
        Duration::from_secs(3)
    }
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Parses, rolls and analyses `text` in one dialect, checking what must hold for any input.
fn exercise(text: &str, dialect: Dialect) -> Result<(), TestCaseError> {
    let started = Instant::now();
    let expr = match DiceExpr::parse_with(text, dialect) {
        Ok(expr) => expr,
        Err(err) => {
            if let Some(position) = err.position() {
                prop_assert!(
                    position <= text.len(),
                    "{err:?} points past the end of {text:?}"
                );
            }
            prop_assert!(!err.to_string().is_empty());
            return Ok(());
        }
    };

    // The full path and the fast path agree, given the same seed.
    let full = expr.roll(&mut seeded_rng(11));
    let fast = expr.roll_total(&mut seeded_rng(11));
    match (&full, &fast) {
        (Ok(roll), Ok(total)) => {
            prop_assert_eq!(roll.total(), *total, "roll and roll_total of {}", text);
            let shown = roll.to_string();
            prop_assert!(shown.ends_with(&format!("= {total}")), "{}", shown);
            let json = serde_json::to_string(roll).expect("a roll serializes");
            let back: Roll = serde_json::from_str(&json)
                .map_err(|e| TestCaseError::fail(format!("{json} does not deserialize: {e}")))?;
            prop_assert_eq!(back.total(), roll.total());
            prop_assert_eq!(
                back.groups().collect::<Vec<_>>(),
                roll.groups().collect::<Vec<_>>()
            );
        }
        (Err(a), Err(b)) => prop_assert_eq!(a, b, "roll and roll_total of {}", text),
        _ => prop_assert!(
            false,
            "roll gave {:?} but roll_total {:?} for {:?}",
            full,
            fast,
            text
        ),
    }

    if let Ok(dist) = expr.distribution() {
        prop_assert!(dist.min() <= dist.max());
        let sum: f64 = dist.iter().map(|(_, p)| p).sum();
        prop_assert!((sum - 1.0).abs() < 1e-6, "{} sums to {}", text, sum);
        prop_assert!(dist.iter().all(|(_, p)| (0.0..=1.0 + 1e-9).contains(&p)));
    }

    // What the expression prints parses back to the same expression.
    let shown = expr.to_string();
    let again = DiceExpr::parse_with(&shown, dialect)
        .map_err(|e| TestCaseError::fail(format!("{text:?} prints as {shown:?}: {e}")))?;
    prop_assert_eq!(again.to_string(), shown);

    let took = started.elapsed();
    prop_assert!(took < time_limit(), "{:?} took {:?}", text, took);
    Ok(())
}

/// Pieces of dice notation, single characters and the multi-character operators, so random
/// strings often come close to valid expressions.
const TOKENS: &[&str] = &[
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "1", "2", "3", "6", "d", "d", "%", "F", "k",
    "h", "l", "r", "o", "a", "e", "!", "m", "i", "p", "<", ">", "=", "f", "+", "-", "*", "/", "(",
    ")", ",", "[", "]", "#", " ", " ", "d6", "d20", "4d6", "1d20", "kh", "kl", "ro", "rr", "ra",
    "mi", "ma", "!!", ">=", "<=", "==", "!=", "//", "dF", "d%", "(", ")", "+", ".",
];

fn dice_alphabet() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..32).prop_map(|t| t.concat())
}

fn any_unicode() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..48).prop_map(String::from_iter)
}

proptest! {
    #![proptest_config(config(400, 0x5eed_0001))]

    #[test]
    fn arbitrary_unicode_never_panics(text in any_unicode()) {
        for dialect in DIALECTS {
            exercise(&text, dialect)?;
        }
    }
}

proptest! {
    #![proptest_config(config(1500, 0x5eed_0002))]

    #[test]
    fn dice_alphabet_never_panics(text in dice_alphabet()) {
        for dialect in DIALECTS {
            exercise(&text, dialect)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random valid expressions.

fn number(max: u32) -> impl Strategy<Value = String> {
    (0..=max).prop_map(|n| n.to_string())
}

/// A Roll20 compare point: `3`, `<3`, `>3`, `<=3`, `>=3`, `=3`.
fn roll20_compare() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["", "<", ">", "<=", ">=", "="][..]),
        0..=21u32,
    )
        .prop_map(|(op, n)| format!("{op}{n}"))
}

fn roll20_op() -> impl Strategy<Value = String> {
    prop_oneof![
        number(21).prop_map(|n| format!("kh{n}")),
        number(21).prop_map(|n| format!("kl{n}")),
        number(21).prop_map(|n| format!("k{n}")),
        number(21).prop_map(|n| format!("dh{n}")),
        number(21).prop_map(|n| format!("dl{n}")),
        number(21).prop_map(|n| format!("d{n}")),
        roll20_compare().prop_map(|c| format!("r{c}")),
        roll20_compare().prop_map(|c| format!("ro{c}")),
        Just("!".to_owned()),
        roll20_compare().prop_map(|c| format!("!{c}")),
        Just("!!".to_owned()),
        number(21).prop_map(|n| format!("mi{n}")),
        number(21).prop_map(|n| format!("ma{n}")),
    ]
}

fn roll20_dice() -> impl Strategy<Value = String> {
    let sides = prop_oneof![
        8 => (1..=20u32).prop_map(|s| s.to_string()),
        1 => Just("%".to_owned()),
        1 => Just("F".to_owned()),
    ];
    let target = prop_oneof![
        3 => Just(String::new()),
        1 => (prop::sample::select(&[">=", "<=", "=", ">", "<"][..]), 0..=20u32)
            .prop_map(|(op, n)| format!("{op}{n}")),
        1 => (0..=20u32, 0..=3u32).prop_map(|(n, f)| format!(">={n}f{f}")),
    ];
    (
        0..=20u32,
        sides,
        prop::collection::vec(roll20_op(), 0..3),
        target,
    )
        .prop_map(|(count, sides, ops, target)| {
            let ops = ops.concat();
            // After a bare `!` or `!!` a comparison is the explosion's own compare point.
            let target = if ops.ends_with('!') { "" } else { &target };
            format!("{count}d{sides}{ops}{target}")
        })
}

/// An Avrae selector: `h2`, `l2`, `<3`, `>3` or `3`.
fn avrae_selector() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["h", "l", "<", ">", ""][..]),
        0..=21u32,
    )
        .prop_map(|(kind, n)| format!("{kind}{n}"))
}

/// A selector by value, as rerolls and explosions take.
fn avrae_value_selector() -> impl Strategy<Value = String> {
    (prop::sample::select(&["<", ">", ""][..]), 0..=21u32)
        .prop_map(|(kind, n)| format!("{kind}{n}"))
}

fn avrae_op() -> impl Strategy<Value = String> {
    prop_oneof![
        avrae_selector().prop_map(|s| format!("k{s}")),
        avrae_selector().prop_map(|s| format!("p{s}")),
        avrae_value_selector().prop_map(|s| format!("rr{s}")),
        avrae_selector().prop_map(|s| format!("ro{s}")),
        avrae_selector().prop_map(|s| format!("ra{s}")),
        avrae_value_selector().prop_map(|s| format!("e{s}")),
        number(21).prop_map(|n| format!("mi{n}")),
        number(21).prop_map(|n| format!("ma{n}")),
    ]
}

fn avrae_dice() -> impl Strategy<Value = String> {
    let sides = prop_oneof![
        9 => (1..=20u32).prop_map(|s| s.to_string()),
        1 => Just("%".to_owned()),
    ];
    (0..=20u32, sides, prop::collection::vec(avrae_op(), 0..3))
        .prop_map(|(count, sides, ops)| format!("{count}d{sides}{}", ops.concat()))
}

/// Expressions over `leaf` with `+ - *`, parentheses and, in Avrae, sets with keep/drop.
fn expression(leaf: BoxedStrategy<String>, dialect: Dialect) -> impl Strategy<Value = String> {
    leaf.prop_recursive(3, 12, 3, move |inner| {
        let arithmetic = (
            inner.clone(),
            prop::sample::select(&[" + ", " - ", " * ", "+", "-"][..]),
            inner.clone(),
        )
            .prop_map(|(a, op, b)| format!("{a}{op}{b}"));
        let paren = inner.clone().prop_map(|a| format!("({a})"));
        match dialect {
            Dialect::Roll20 => prop_oneof![3 => arithmetic, 1 => paren].boxed(),
            _ => {
                let set = (
                    prop::collection::vec(inner, 0..4),
                    prop::collection::vec(
                        (prop::sample::select(&["k", "p"][..]), avrae_selector()),
                        0..2,
                    ),
                )
                    .prop_map(|(items, ops)| {
                        let body = if items.len() == 1 {
                            format!("({},)", items[0])
                        } else {
                            format!("({})", items.join(", "))
                        };
                        let ops: String = ops.into_iter().map(|(o, s)| format!("{o}{s}")).collect();
                        format!("{body}{ops}")
                    });
                prop_oneof![3 => arithmetic, 1 => paren, 1 => set].boxed()
            }
        }
    })
}

fn roll20_expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![3 => roll20_dice(), 1 => number(20)].boxed();
    expression(leaf, Dialect::Roll20)
}

fn avrae_expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![3 => avrae_dice(), 1 => number(20)].boxed();
    expression(leaf, Dialect::Avrae)
}

/// Checks a generated expression: it parses (or is refused as impossible, never as bad
/// syntax), its roll lies within its exact distribution, and it prints back to itself.
fn valid_expression_holds(
    text: &str,
    dialect: Dialect,
    explodes: bool,
    seed: u64,
) -> Result<(), TestCaseError> {
    let expr = match DiceExpr::parse_with(text, dialect) {
        Ok(expr) => expr,
        // An explosion or reroll that can never stop, or too many dice: refused by design.
        Err(DiceError::Invalid { .. } | DiceError::Limit { .. }) => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("{text:?}: {e}"))),
    };
    let roll = match expr.roll(&mut seeded_rng(seed)) {
        Ok(roll) => roll,
        Err(DiceError::TooManyRolls { .. }) => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("rolling {text:?}: {e}"))),
    };
    match expr.distribution() {
        // Explosion chains are cut at EXPLOSION_DEPTH dice, so a long chain may roll past
        // the distribution's maximum.
        Ok(dist) if !explodes => {
            let total = roll.total();
            prop_assert!(
                (dist.min()..=dist.max()).contains(&total),
                "{} rolled {} outside [{}, {}]: {}",
                text,
                total,
                dist.min(),
                dist.max(),
                roll
            );
            prop_assert!(
                dist.probability(total) > 0.0,
                "{} rolled {}, which its distribution says is impossible: {}",
                text,
                total,
                roll
            );
        }
        Ok(_) | Err(DiceError::Unsupported { .. }) => {}
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "distribution of {text:?}: {e}"
            )));
        }
    }
    let shown = expr.to_string();
    let again = DiceExpr::parse_with(&shown, dialect)
        .map_err(|e| TestCaseError::fail(format!("{text:?} prints as {shown:?}: {e}")))?;
    prop_assert_eq!(again.to_string(), shown, "printing {} twice", text);
    Ok(())
}

proptest! {
    #![proptest_config(config(600, 0x5eed_0003))]

    #[test]
    fn roll20_rolls_within_distribution_and_round_trips(
        text in roll20_expression(),
        seed in any::<u64>(),
    ) {
        valid_expression_holds(&text, Dialect::Roll20, text.contains('!'), seed)?;
    }

    #[test]
    fn avrae_rolls_within_distribution_and_round_trips(
        text in avrae_expression(),
        seed in any::<u64>(),
    ) {
        // In these expressions `e` only ever stands for the explode operator.
        valid_expression_holds(&text, Dialect::Avrae, text.contains('e'), seed)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Known-bad inputs.

/// Parses `text` expecting an error at `position` whose message mentions every one of `facts`.
fn refused(text: &str, dialect: Dialect, position: usize, facts: &[&str]) -> DiceError {
    let err = match DiceExpr::parse_with(text, dialect) {
        Ok(expr) => panic!("{text:?} parsed as {expr} in {dialect:?}"),
        Err(err) => err,
    };
    assert_eq!(
        err.position(),
        Some(position),
        "position of {err:?} for {text:?}"
    );
    let message = err.to_string();
    assert!(
        message.contains(&format!("column {}", position + 1)),
        "{text:?}: {message:?} gives no column"
    );
    for fact in facts {
        assert!(
            message.contains(fact),
            "{text:?}: {message:?} does not mention {fact:?}"
        );
    }
    err
}

#[test]
fn syntax_errors_say_where_and_what() {
    for dialect in DIALECTS {
        let cases: &[(&str, usize, &[&str])] = &[
            ("1d", 2, &["number of sides", "the end of the expression"]),
            ("d", 1, &["number of sides", "the end of the expression"]),
            ("1d20++", 6, &["a number", "the end of the expression"]),
            ("", 0, &["empty"]),
            ("   ", 0, &["empty"]),
            ("☃", 0, &["'☃'"]),
            ("1d☃", 2, &["number of sides", "'☃'"]),
            ("1d20 5", 5, &["operator", "'5'"]),
            ("(1d20", 5, &["\")\"", "the end of the expression"]),
            ("1d20 [fire", 5, &["never closed"]),
        ];
        for (text, position, facts) in cases {
            let err = refused(text, dialect, *position, facts);
            assert!(
                matches!(err, DiceError::Syntax { .. }),
                "{text:?} in {dialect:?}: {err:?}"
            );
        }
    }
}

#[test]
fn zero_sided_dice_are_refused() {
    for dialect in DIALECTS {
        let err = refused("1d0", dialect, 2, &["at least 1 side", "d0"]);
        assert!(matches!(err, DiceError::Invalid { .. }), "{err:?}");
    }
}

#[test]
fn limits_are_named_with_their_numbers() {
    let deep = format!("{}1d6{}", "(".repeat(33), ")".repeat(33));
    let deepest = format!("{}1d6{}", "(".repeat(32), ")".repeat(32));
    for dialect in DIALECTS {
        DiceExpr::parse_with(&deepest, dialect).expect("32 levels of nesting are allowed");
    }
    let long = format!("{}1", "1+".repeat(999)) + "0";
    assert_eq!(long.len(), 2000);
    for dialect in DIALECTS {
        let cases: Vec<(&str, usize, &str, u64, u64)> = vec![
            ("99999999d6", 0, "the number of dice", 99_999_999, 1000),
            ("1001d6", 0, "the number of dice", 1001, 1000),
            ("1d1000001", 2, "the number of sides", 1_000_001, 1_000_000),
            (
                "600d6+401d6",
                6,
                "the number of dice in the expression",
                1001,
                1000,
            ),
            // The error points just after the 33rd parenthesis.
            (&deep, 33, "the nesting depth", 33, 32),
            (
                &long,
                1000,
                "the length of the expression in bytes",
                2000,
                1000,
            ),
        ];
        for (text, position, what, value, max) in cases {
            let err = refused(
                text,
                dialect,
                position,
                &[what, &value.to_string(), &max.to_string()],
            );
            match err {
                DiceError::Limit {
                    what: w,
                    value: v,
                    max: m,
                    ..
                } => assert_eq!((w, v, m), (what, value, max), "{text:?}"),
                other => panic!("{text:?} in {dialect:?}: {other:?}"),
            }
        }
    }
}

#[test]
fn endless_rerolls_and_explosions_are_refused_up_front() {
    let cases: &[(&str, Dialect, &str)] = &[
        ("1d1!", Dialect::Roll20, "1d1! can never stop"),
        ("3d6!>1", Dialect::Roll20, "can never stop"),
        ("2d4!!<=4", Dialect::Roll20, "can never stop"),
        // Roll20's `<` means "or less": r<7 and r<6 both match every face of a d6.
        ("1d6r<7", Dialect::Roll20, "can never stop"),
        ("1d6r<6", Dialect::Roll20, "can never stop"),
        ("4dFr<1", Dialect::Roll20, "can never stop"),
        ("1d6rr<7", Dialect::Avrae, "can never stop"),
        ("1d6rr>0", Dialect::Avrae, "can never stop"),
        ("1d1e1", Dialect::Avrae, "can never stop"),
        ("4d6rr<4rr>3", Dialect::Avrae, "can never stop"),
        ("4d6rrh1", Dialect::Avrae, "reroll forever"),
    ];
    for (text, dialect, fact) in cases {
        let err = refused(text, *dialect, 0, &[fact]);
        assert!(
            matches!(err, DiceError::Invalid { .. }),
            "{text:?}: {err:?}"
        );
    }
    // The same conditions are fine when some face escapes them.
    for (text, dialect) in [
        ("1d6r<5", Dialect::Roll20),
        ("1d6!>2", Dialect::Roll20),
        ("1d6rr<6", Dialect::Avrae),
        ("1d2e2", Dialect::Avrae),
    ] {
        let expr = DiceExpr::parse_with(text, dialect).expect(text);
        expr.roll(&mut seeded_rng(3)).expect(text);
    }
}

#[test]
fn roll_budget_stops_long_chains() {
    // 999 dice that explode on 2+ of a d100 cannot stay within 1000 dice.
    let expr = DiceExpr::parse_with("999d100e>1", Dialect::Avrae).expect("parses");
    assert_eq!(
        expr.roll(&mut seeded_rng(5)).unwrap_err(),
        DiceError::TooManyRolls { budget: 1000 }
    );
    let err = expr.roll_total(&mut seeded_rng(5)).unwrap_err();
    assert!(err.to_string().contains("1000"), "{err}");
}
