//! The `play` example as a person uses it: the real binary, offline, typed at in a
//! pseudo-terminal (Unix), and fed a script through a pipe (everywhere).
//!
//! Cargo gives integration tests the path of the package's binaries, not of its examples, so
//! [`play_binary`] builds the example once (a no-op when `cargo test` already built it) and
//! reads its path from Cargo's JSON messages.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `play` example, built with the profile this test was built with.
fn play_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build.args([
            "build",
            "--quiet",
            "-p",
            "dnd-examples",
            "--example",
            "play",
            "--message-format=json",
        ]);
        // This test runs from target/<profile>/deps/: build the example with the same profile.
        let profile = std::env::current_exe()
            .ok()
            .and_then(|exe| Some(exe.parent()?.parent()?.file_name()?.to_owned()));
        if profile.as_deref() == Some("release".as_ref()) {
            build.arg("--release");
        }
        let output = build
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stderr(Stdio::inherit())
            .output()
            .expect("cargo runs");
        assert!(output.status.success(), "cargo build --example play failed");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "play")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the play executable")
    })
}

/// `play` offline (no provider variables), on the save file `db`, with seeded dice.
fn play_command(db: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(play_binary());
    command
        .arg("--db")
        .arg(db)
        .args(["--seed", "7"])
        .args(extra)
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENROUTER_API_KEY")
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS");
    command
}

/// Runs `play` with these flags on a fresh save file, the script piped in; its exit status,
/// what it printed, and what it said on stderr.
fn run_piped(extra: &[&str], script: &str) -> (std::process::ExitStatus, String, String) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let started = Instant::now();
    let mut child = play_command(&dir.path().join("game.sqlite3"), extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("play starts");
    // A `play` that refuses its flags exits before reading anything: its closed input is
    // no failure of the script (a race that made this test flaky).
    match child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            panic!("the script is written: {error}")
        }
        _ => {}
    }
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        // A guard against a hang, not a speed check: a loaded CI machine may be slow.
        if started.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!("play did not quit within 300 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let screen = reader.join().expect("stdout read");
    let mut errors = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut errors);
    println!("{screen}");
    (status, screen, errors)
}

/// Piped input: the game plays, picks a suggestion by number, shows the sheet, refuses a bad
/// command with the list, ignores an empty line, quits cleanly, and prints no escape code.
#[test]
fn plays_from_a_pipe_in_plain_text() {
    let script = "look around\n1\n\n   \nsearch\n/sheet\n/dance\n/quit\nnever read\n";
    let (status, screen, errors) = run_piped(&[], script);
    assert!(status.success(), "play failed: {errors}");
    assert!(errors.is_empty(), "nothing on stderr: {errors}");
    for expected in [
        "The Wailing Glacier",
        "game master: offline",
        "A new game",
        "Kraven (HP 28/28)> look around",
        "── mechanics ──",
        "1. ",
        "Kraven (HP ",
        "> 1\n→ ",
        "Kraven — human fighter 3",
        "passive Perception",
        "There is no command /dance.",
        "/save NAME",
        "Farewell",
    ] {
        assert!(screen.contains(expected), "{expected:?} is on the screen");
    }
    assert!(!screen.contains('\x1b'), "no escape codes in piped output");
    assert!(
        !screen.contains("never read"),
        "nothing is read after /quit"
    );
}

/// `play --adventure wendle-hollow`: the second built-in adventure by name, with its first
/// hero, Bram, as the default.
/// Fair dice from a pipe: `/fair on` publishes a commitment before the fight's rolls, `/verify`
/// checks nothing until `/reveal` shows the seed (never printed before), then every roll.
#[test]
fn fair_dice_commit_reveal_and_verify_from_a_pipe() {
    let script = "/fair on my-table\nlook around\n1\n/verify\n/reveal\n/verify\n/fair off\n/quit\n";
    let (status, screen, errors) = run_piped(&[], script);
    assert!(status.success(), "play failed: {errors}");
    assert!(screen.contains("Fair dice on. Commitment (SHA-256 of the secret seed): "));
    assert!(screen.contains("Client seed: my-table."));
    assert!(
        screen.contains("Fair dice verified: 0 rolls match their revealed seeds ("),
        "nothing checks before the reveal"
    );
    let revealed = screen
        .find("Revealed seed ")
        .expect("/reveal shows the seed");
    let seed: String = screen[revealed + "Revealed seed ".len()..]
        .chars()
        .take(64)
        .collect();
    assert!(
        seed.chars().all(|c| c.is_ascii_hexdigit()) && seed.len() == 64,
        "{seed}"
    );
    assert!(
        !screen[..revealed].contains(&seed),
        "the seed showed before its reveal"
    );
    let after = &screen[revealed..];
    let verified = after
        .split("Fair dice verified: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u32>().ok())
        .expect("/verify after the reveal");
    assert!(verified > 0, "the fight's rolls verify: {after}");
    assert!(screen.contains("Fair dice off: the ordinary game dice."));
    assert!(!screen.contains("FAILED"));
}

#[test]
fn plays_the_village_adventure_by_name() {
    let (status, screen, errors) =
        run_piped(&["--adventure", "wendle-hollow"], "look around\n/quit\n");
    assert!(status.success(), "play failed: {errors}");
    assert!(errors.is_empty(), "nothing on stderr: {errors}");
    for expected in [
        "The Quiet Nights of Wendle Hollow",
        "(HP 20/20)> look around",
        "Village Green",
        "Farewell",
    ] {
        assert!(screen.contains(expected), "{expected:?} is on the screen");
    }
    let (status, _, errors) = run_piped(&["--adventure", "atlantis"], "/quit\n");
    assert!(!status.success());
    assert!(
        errors.contains("wailing-glacier, wendle-hollow"),
        "{errors}"
    );
}

#[cfg(unix)]
mod pty {
    use super::*;
    use rexpect::reader::Options;
    use rexpect::session::{PtySession, spawn_with_options};

    /// The prompt after any turn: the name and hit points.
    const PROMPT: &str = r"Kraven \(HP \d+/\d+\)> ";

    fn spawn(db: &Path, extra: &[&str]) -> PtySession {
        let mut command = play_command(db, extra);
        command.env("TERM", "xterm-256color");
        spawn_with_options(
            command,
            Options::new()
                .timeout_ms(Some(20_000))
                .strip_ansi_escape_codes(true),
        )
        .expect("play starts in a pseudo-terminal")
    }

    /// Types a line and waits for the next prompt; returns what the screen showed meanwhile.
    fn turn(p: &mut PtySession, line: &str) -> String {
        p.send_line(line).expect("typed");
        let (shown, _) = p.exp_regex(PROMPT).expect("the prompt comes back");
        shown
    }

    /// The words of suggestion `n` in a turn's output ("  2. Take everything (60%)"), without
    /// its odds.
    fn suggestion(shown: &str, n: usize) -> String {
        let line = shown
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{n}. ")))
            .unwrap_or_else(|| panic!("no suggestion {n} in {shown}"));
        match line.rsplit_once(" (") {
            Some((words, odds)) if odds.ends_with("%)") => words.to_owned(),
            _ => line.to_owned(),
        }
    }

    /// Bytes that are not UTF-8 typed at the prompt: the line editor cannot take them, so the
    /// line is dropped with a word to the player, the rest of it does not run as a line of its
    /// own, and the game goes on.
    #[test]
    fn bytes_that_are_not_text_do_not_end_the_game() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let mut p = spawn(&dir.path().join("game.sqlite3"), &[]);
        p.exp_string("A new game").expect("a new game starts");
        p.exp_regex(PROMPT).expect("the first prompt");
        let mut terminal = p.process().get_file_handle().expect("the terminal");
        // Longer than the line editor reads at once (1 KiB), so that part of the line is still
        // waiting in the terminal when the editor gives up on it.
        let mut line = b"look \xff\xfe around".to_vec();
        line.extend([b'a'; 2000]);
        line.push(b'\r');
        terminal.write_all(&line).expect("typed");
        terminal.flush().expect("sent");
        p.exp_string("it was dropped. Type it again.")
            .expect("the line is refused, not the game");
        let (shown, _) = p.exp_regex(PROMPT).expect("the prompt comes back");
        assert!(!shown.contains("mechanics"), "no turn ran: {shown}");
        let log = turn(&mut p, "/log");
        assert!(log.contains("The story has not started yet"), "{log}");
        let played = turn(&mut p, "look around");
        assert!(played.contains("mechanics"), "{played}");
        p.send_line("/quit").expect("typed");
        p.exp_string("Farewell").expect("a clean goodbye");
        p.exp_eof().expect("play exits");
    }

    /// Five turns typed at a terminal, `/sheet`, `/save`, `/quit`; then a second start resumes
    /// with a recap, `/load` shows it again, and `/sheet` the character; a third start with a
    /// slow game master cancels a turn with Ctrl-C (nothing written) and quits with Ctrl-C at
    /// the prompt.
    #[test]
    fn a_person_plays_saves_quits_and_comes_back() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let db = dir.path().join("game.sqlite3");

        let mut p = spawn(&db, &[]);
        p.exp_string("A new game").expect("a new game starts");
        p.exp_regex(PROMPT).expect("the first prompt");
        // The pseudo-terminal is read byte by byte as Latin-1: the assertions stay in ASCII.
        let looked = turn(&mut p, "look around");
        assert!(looked.contains("mechanics"), "{looked}");
        let second = suggestion(&looked, 2);
        let picked = turn(&mut p, "2");
        assert!(
            picked.contains(&second),
            "typing 2 takes {second:?}: {picked}"
        );
        turn(&mut p, "search");
        turn(&mut p, "");
        turn(&mut p, "1");
        turn(&mut p, "look around");
        let sheet = turn(&mut p, "/sheet");
        assert!(sheet.contains("human fighter 3"), "{sheet}");
        assert!(sheet.contains("passive Perception"), "{sheet}");
        let saved = turn(&mut p, "/save run1");
        assert!(saved.contains("Saved as run1"), "{saved}");
        p.send_line("/quit").expect("typed");
        p.exp_string("Farewell").expect("a clean goodbye");
        p.exp_eof().expect("play exits");

        let mut p = spawn(&db, &[]);
        p.exp_string("Recap of \"run1\" (5 turns played)")
            .expect("the recap on starting again");
        p.exp_regex(PROMPT).expect("the prompt");
        let loaded = turn(&mut p, "/load run1");
        assert!(loaded.contains("Recap of \"run1\""), "{loaded}");
        assert!(loaded.contains("Lately:"), "{loaded}");
        // Seed 7: the second turn takes everything in reach (the last story event so far).
        assert!(loaded.contains("turn 2: Kraven took"), "{loaded}");
        let sheet = turn(&mut p, "/sheet");
        assert!(sheet.contains("human fighter 3"), "{sheet}");
        p.send_control('d').expect("Ctrl-D");
        p.exp_string("Farewell").expect("Ctrl-D quits");
        p.exp_eof().expect("play exits");

        let mut p = spawn(&db, &["--delay", "3000"]);
        p.exp_regex(PROMPT).expect("the prompt");
        p.send_line("search").expect("typed");
        p.exp_string("thinking").expect("the spinner");
        p.send_control('c').expect("Ctrl-C");
        p.exp_string("Turn cancelled: nothing was written")
            .expect("the turn is cancelled");
        p.exp_regex(PROMPT).expect("the prompt comes back");
        let saves = turn(&mut p, "/load");
        assert!(saves.contains("run1 (5 turns)"), "{saves}");
        p.send_control('c').expect("Ctrl-C");
        p.exp_string("Farewell")
            .expect("Ctrl-C at the prompt quits");
        p.exp_eof().expect("play exits");
    }
}
