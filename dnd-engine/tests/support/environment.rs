//! What a test does when something it needs from outside the repository is missing (Python's
//! `d20` package, the shared reference folder beside the repository): on CI, which must have
//! everything, the test fails; elsewhere it says, where `cargo test` shows it, that it skipped.
//!
//! One file, included with `#[path]` by every test binary that needs it (test crates share no
//! code otherwise), so the rule is written once:
//!
//! ```ignore
//! #[path = "support/environment.rs"]
//! mod environment;
//!
//! let Some(python) = find_python() else {
//!     return environment::missing("no Python with d20; run .ci/run or set D20_PYTHON");
//! };
//! ```

use std::ffi::OsStr;
use std::io::Write;

/// The variable that marks a CI run: `.ci/run` sets it to `true`, as most CI services do.
pub const CI: &str = "CI";

/// Whether a value of [`CI`] marks a CI run: set, not empty, and neither `false` nor `0`.
pub fn is_ci(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Called by a test that cannot run because `reason` is missing, just before it returns
/// without checking anything. `reason` says what is missing and how to provide it.
///
/// On CI (see [`is_ci`]) this panics, so the test fails: a missing environment there is a
/// broken CI, not a pass. Elsewhere it writes `skipped: <test>: <reason>` to the process's
/// standard error itself rather than through `eprintln!`, whose output the test harness
/// captures and throws away when the test passes: that way a plain `cargo test` shows the
/// skip beside the test's `ok`.
#[track_caller]
pub fn missing(reason: &str) {
    // The test harness runs each test on a thread named after it.
    let current = std::thread::current();
    let test = current.name().unwrap_or("a test");
    if is_ci(std::env::var_os(CI).as_deref()) {
        panic!("{test} cannot run, and {CI} is set, so it must: {reason}");
    }
    // Nothing to do if standard error is gone: the test still passes.
    let _ = writeln!(std::io::stderr().lock(), "skipped: {test}: {reason}");
}
