//! Fuzz target: arbitrary bytes, read as UTF-8 (lossily), parsed in both dice dialects; what
//! parses is rolled with a seeded generator, on the full path and twice on the fast path (tree,
//! then compiled plan), and its exact
//! distribution is computed. Nothing may panic, hang or run out of memory, and the two roll
//! paths must agree.

#![no_main]

use dnd_dice::{Dialect, DiceExpr, seeded_rng};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for dialect in [Dialect::Roll20, Dialect::Avrae] {
        let Ok(expr) = DiceExpr::parse_with(&text, dialect) else {
            continue;
        };
        let full = expr.roll(&mut seeded_rng(7));
        // The first roll_total walks the tree; the second runs the compiled plan, if any.
        for _ in 0..2 {
            let fast = expr.roll_total(&mut seeded_rng(7));
            match (&full, &fast) {
                (Ok(roll), Ok(total)) => {
                    assert_eq!(roll.total(), *total, "{text:?}");
                    let _ = roll.to_string();
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{text:?}"),
                _ => panic!("roll {full:?} but roll_total {fast:?} for {text:?}"),
            }
        }
        let _ = expr.to_string();
        let _ = expr.distribution();
    }
});
