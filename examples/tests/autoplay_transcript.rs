//! Drives the `autoplay` example's own code offline to the end of "The Wailing Glacier" and
//! checks the transcript it writes.

#[allow(dead_code)] // the example's `main` and argument parsing are not used here
#[path = "../autoplay.rs"]
mod autoplay;

#[test]
fn autoplay_reaches_the_end_and_writes_a_transcript() {
    let options = autoplay::parse_args(&["--seed".into(), "1".into()]).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let transcript = runtime.block_on(autoplay::run(&options)).unwrap();
    assert!(transcript.starts_with("# The Wailing Glacier — autoplay"));
    assert!(transcript.contains("## Turn 1\n"));
    assert!(transcript.contains("<summary>Mechanics</summary>"));
    assert!(
        transcript.contains("ended in The Heart of the Glacier"),
        "{transcript}"
    );
    assert!(
        transcript.contains("Defeated: Frost Harpy, The Hollow Jarl"),
        "{transcript}"
    );
    let turns = transcript.matches("## Turn ").count();
    assert!((5..200).contains(&turns), "{turns} turns");
    assert!(
        !transcript.contains("DC "),
        "a DC reached the transcript's narration"
    );
}

#[test]
fn autoplay_plays_the_village_adventure_by_name_with_its_first_hero() {
    let options = autoplay::parse_args(&[
        "--adventure".into(),
        "wendle-hollow".into(),
        "--turns".into(),
        "2".into(),
    ])
    .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let transcript = runtime.block_on(autoplay::run(&options)).unwrap();
    assert!(
        transcript.starts_with("# The Quiet Nights of Wendle Hollow — autoplay\n\nHero: bram"),
        "{transcript}"
    );
    assert!(transcript.contains("## Turn 1\n"), "{transcript}");
    let unknown = autoplay::parse_args(&["--adventure".into(), "atlantis".into()]).unwrap();
    let error = runtime.block_on(autoplay::run(&unknown)).unwrap_err();
    assert!(error.contains("wailing-glacier, wendle-hollow"), "{error}");
}

#[test]
fn bad_arguments_are_refused() {
    assert!(autoplay::parse_args(&["--turns".into(), "many".into()]).is_err());
    assert!(autoplay::parse_args(&["--frobnicate".into()]).is_err());
    assert!(autoplay::parse_args(&["--out".into()]).is_err());
}

/// The offline game master as a model that reports what each call used, counting its calls.
#[derive(Default)]
struct Priced {
    gm: dnd_engine::offline::OfflineGm,
    calls: std::sync::atomic::AtomicU32,
}

/// What each call to [`Priced`] reports.
const CALL: dnd_engine::llm::Usage = dnd_engine::llm::Usage {
    prompt_tokens: 10,
    completion_tokens: 2,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost: Some(0.5),
};

#[async_trait::async_trait]
impl dnd_engine::llm::LlmProvider for Priced {
    fn name(&self) -> &str {
        "priced-offline"
    }

    async fn complete(
        &self,
        req: &dnd_engine::llm::CompletionRequest,
    ) -> Result<dnd_engine::llm::CompletionResponse, dnd_engine::llm::LlmError> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut response = self.gm.answer(req);
        response.usage = CALL;
        Ok(response)
    }
}

#[test]
fn with_an_ai_player_each_narration_is_logged_once_and_both_seats_are_paid_for() {
    let model = std::sync::Arc::new(Priced::default());
    let mut options = autoplay::parse_args(&["--turns".into(), "3".into()]).unwrap();
    options.model = Some(model.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let run = runtime.block_on(autoplay::play(&options)).unwrap();
    assert_eq!(run.totals.turns, 3);
    // One entry per narration: the AI player reads it into the log, autoplay does not again.
    let narrations: Vec<&str> = run
        .log
        .entries
        .iter()
        .filter_map(|e| match e {
            dnd_engine::agents::LogEntry::Said { from, text } if from == "gm" => {
                Some(text.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(narrations.len(), 3, "{narrations:#?}");
    // Every call was paid for, the player's as well as the game master's.
    let calls = model.calls.load(std::sync::atomic::Ordering::SeqCst);
    let usage = run.totals.usage();
    assert!(
        run.totals.player_usage.prompt_tokens >= 30,
        "three turns, three player calls"
    );
    assert_eq!(usage.prompt_tokens, calls * CALL.prompt_tokens);
    let cost = f64::from(calls) * 0.5;
    assert_eq!(usage.cost, Some(cost));
    assert!(
        run.transcript.contains(&format!("cost: ${cost:.4}")),
        "{}",
        run.transcript
    );
}

#[test]
fn conditions_and_doors_read_as_english_in_the_mechanics() {
    use dnd_engine::rules::Condition;
    use dnd_engine::state::{Change, Target};
    let state = dnd_engine::adventure::Adventure::built_in()
        .new_game(&["kraven"])
        .unwrap();
    let line = |change: Change| autoplay::describe(&change, &state).unwrap();
    assert_eq!(
        line(Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: Condition::Exhaustion,
        }),
        "⚠ Kraven has 1 level of exhaustion"
    );
    assert_eq!(
        line(Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: Condition::Poisoned,
        }),
        "⚠ Kraven is poisoned"
    );
    assert_eq!(
        line(Change::ExitUnlocked {
            location: "throne-of-rime".into(),
            direction: "rime door".into(),
        }),
        "🔓 unlocked the rime door"
    );
}

/// Escape sequences a hostile model writes: retitle the window, clear the screen, and an 8-bit
/// control sequence introducer.
const ESCAPES: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m";

/// The offline game master as a model that wraps every plain text it writes (its narration,
/// the AI player's words) in [`ESCAPES`]. JSON answers (suggestions) stay as they are: the
/// engine refuses control characters in them, which is another test's business.
#[derive(Default)]
struct Hostile {
    gm: dnd_engine::offline::OfflineGm,
}

#[async_trait::async_trait]
impl dnd_engine::llm::LlmProvider for Hostile {
    fn name(&self) -> &str {
        "hostile-offline"
    }

    async fn complete(
        &self,
        req: &dnd_engine::llm::CompletionRequest,
    ) -> Result<dnd_engine::llm::CompletionResponse, dnd_engine::llm::LlmError> {
        let mut response = self.gm.answer(req);
        if let dnd_engine::llm::Message::Assistant {
            content: Some(text),
            ..
        } = &mut response.message
            && serde_json::from_str::<serde_json::Value>(text).is_err()
        {
            *text = format!("{ESCAPES}{text}{ESCAPES}");
        }
        Ok(response)
    }
}

#[test]
fn escape_sequences_from_the_model_never_reach_the_transcript() {
    let mut options = autoplay::parse_args(&["--turns".into(), "3".into()]).unwrap();
    options.model = Some(std::sync::Arc::new(Hostile::default()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let run = runtime.block_on(autoplay::play(&options)).unwrap();
    assert_eq!(run.totals.turns, 3);
    // The model's text did carry the escapes (the log keeps what was said as it was said)...
    let logged = run.log.entries.iter().any(|e| match e {
        dnd_engine::agents::LogEntry::Said { text, .. } => text.contains('\u{1b}'),
        _ => false,
    });
    assert!(logged, "the hostile model's escapes did not reach the game");
    // ...and none of it is in the transcript, printed or written to a file.
    let controls: Vec<char> = run
        .transcript
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(controls.is_empty(), "{controls:?} in\n{}", run.transcript);
    assert!(!run.transcript.contains("[2J"), "{}", run.transcript);
    assert!(run.transcript.contains("## Turn 3\n"), "{}", run.transcript);
}

/// The offline game master as a model whose server goes away at its `fails_at`-th call: that
/// call reads the `--out` file as it is at that moment (the game still running), then fails
/// with an error that is not retried.
struct Vanishing {
    gm: dnd_engine::offline::OfflineGm,
    calls: std::sync::atomic::AtomicU32,
    fails_at: u32,
    out: std::path::PathBuf,
    /// The file as the failing call found it.
    seen: std::sync::Mutex<Option<String>>,
}

#[async_trait::async_trait]
impl dnd_engine::llm::LlmProvider for Vanishing {
    fn name(&self) -> &str {
        "vanishing-offline"
    }

    async fn complete(
        &self,
        req: &dnd_engine::llm::CompletionRequest,
    ) -> Result<dnd_engine::llm::CompletionResponse, dnd_engine::llm::LlmError> {
        let call = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if call < self.fails_at {
            return Ok(self.gm.answer(req));
        }
        *self.seen.lock().unwrap() = Some(std::fs::read_to_string(&self.out).unwrap());
        Err(dnd_engine::llm::LlmError::auth("the key was revoked"))
    }
}

#[test]
fn a_run_that_fails_keeps_the_turns_it_played_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run.md");
    let model = std::sync::Arc::new(Vanishing {
        gm: dnd_engine::offline::OfflineGm::default(),
        calls: Default::default(),
        // Several turns in: a turn takes a few calls (the player's, the game master's rounds
        // and its suggestions).
        fails_at: 12,
        out: out.clone(),
        seen: Default::default(),
    });
    let mut options = autoplay::parse_args(&[
        "--turns".into(),
        "50".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ])
    .unwrap();
    options.model = Some(model.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let error = runtime.block_on(autoplay::play(&options)).err().unwrap();
    assert!(error.contains("the key was revoked"), "{error}");
    // While the game was still running, the turns already played were on disk, whole.
    let seen = model.seen.lock().unwrap().clone().unwrap();
    assert!(
        seen.starts_with("# The Wailing Glacier — autoplay\n\nHero: kraven"),
        "{seen}"
    );
    let played = seen.matches("## Turn ").count();
    assert!(played >= 1, "no turn on disk before the failure:\n{seen}");
    assert!(seen.ends_with("\n\n"), "a turn was cut short:\n{seen}");
    assert!(!seen.contains("## Summary"), "{seen}");
    // After the failure: the same turns, then why it stopped, and no summary.
    let file = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        file,
        format!("{seen}## Stopped\n\n{error}\n"),
        "the file after the failure"
    );
}

#[test]
fn a_finished_run_writes_to_the_file_what_it_returns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run.md");
    let options = autoplay::parse_args(&[
        "--turns".into(),
        "3".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ])
    .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let run = runtime.block_on(autoplay::play(&options)).unwrap();
    let file = std::fs::read_to_string(&out).unwrap();
    assert_eq!(file, run.transcript);
    assert!(file.contains("## Turn 3\n"), "{file}");
    assert!(file.contains("## Summary\n\n- Turns: 3\n"), "{file}");
    assert!(!file.contains("## Stopped"), "{file}");
}
