//! The rule for a test whose environment is missing (`support/environment.rs`): it fails on CI
//! and, elsewhere, passes with a `skipped:` line that `cargo test` shows.

use std::ffi::OsStr;
use std::process::{Command, Output, Stdio};

#[path = "support/environment.rs"]
mod environment;

/// Set in the environment of [`a_test_without_its_environment`] when a test here runs it.
const CHILD: &str = "DND_MISSING_ENVIRONMENT_CHILD";

/// What [`a_test_without_its_environment`] says is missing.
const REASON: &str = "the frobnicator is not installed; set FROBNICATOR";

/// Not a test on its own: the child of the tests below, a test whose environment is missing.
#[test]
#[ignore = "run by a_missing_environment_fails_on_ci and a_missing_environment_elsewhere_says_it_skipped"]
fn a_test_without_its_environment() {
    assert!(
        std::env::var_os(CHILD).is_some(),
        "run by the other tests of this file, not by hand"
    );
    environment::missing(REASON);
}

/// Runs [`a_test_without_its_environment`] in a new test process, with `CI` set to `ci` (or
/// unset), and the harness capturing output as in a plain `cargo test`.
fn run_child(ci: Option<&str>) -> Output {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut command = Command::new(exe);
    command
        .args(["--exact", "a_test_without_its_environment", "--ignored"])
        .env(CHILD, "1")
        .stdin(Stdio::null());
    match ci {
        Some(value) => command.env(environment::CI, value),
        None => command.env_remove(environment::CI),
    };
    command.output().expect("the child runs")
}

#[test]
fn a_missing_environment_fails_on_ci() {
    let out = run_child(Some("true"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "the child passed on CI:\n{stdout}");
    assert!(
        stdout.contains("cannot run, and CI is set, so it must: ") && stdout.contains(REASON),
        "{stdout}"
    );
}

#[test]
fn a_missing_environment_elsewhere_says_it_skipped() {
    for ci in [None, Some(""), Some("false"), Some("0")] {
        let out = run_child(ci);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "CI={ci:?}: the child failed:\n{stderr}"
        );
        // Printed past the harness's capture: a passing test's `eprintln!` would not be here.
        assert!(
            stderr.contains(&format!(
                "skipped: a_test_without_its_environment: {REASON}"
            )),
            "CI={ci:?}: {stderr}"
        );
    }
}

#[test]
fn only_a_set_value_other_than_false_or_0_means_ci() {
    assert!(environment::is_ci(Some(OsStr::new("true"))));
    assert!(environment::is_ci(Some(OsStr::new("1"))));
    assert!(!environment::is_ci(None));
    assert!(!environment::is_ci(Some(OsStr::new(""))));
    assert!(!environment::is_ci(Some(OsStr::new("false"))));
    assert!(!environment::is_ci(Some(OsStr::new("0"))));
}
