//! The `voice` example's flow, offline: recordings with their transcripts beside them, the wake
//! word, a turn per utterance, narration written as WAV files.

#[allow(dead_code)] // the example's `main` is not used here
#[path = "../voice.rs"]
mod voice;

#[test]
fn wake_word_starts_a_turn_and_narration_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for (name, text) in [
        ("01.txt", "Is everyone ready? Pass the snacks."),
        ("02.txt", "Kraven, I look around the chasm."),
        ("03.txt", "kraven: I search the area carefully"),
    ] {
        std::fs::write(input.join(name), text).unwrap();
        std::fs::write(
            input.join(name).with_extension("wav"),
            voice::silent_wav(0.1),
        )
        .unwrap();
    }
    let out = dir.path().join("out");
    let options = voice::parse_args(&[
        input.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ])
    .unwrap();
    let files = voice::recordings(&options.inputs).unwrap();
    assert_eq!(files.len(), 3);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let heard = runtime
        .block_on(voice::run_offline(&options, &files))
        .unwrap();
    assert!(matches!(&heard[0], voice::Heard::Skipped { .. }));
    let mut turns = 0;
    for h in &heard[1..] {
        let voice::Heard::Turn {
            input,
            narration,
            file,
        } = h
        else {
            panic!("a turn was expected")
        };
        assert!(!input.to_lowercase().contains("kraven"), "{input}");
        assert!(!narration.is_empty());
        let wav = std::fs::read(file).unwrap();
        assert_eq!(&wav[..4], b"RIFF");
        turns += 1;
    }
    assert_eq!(turns, 2);
}

#[test]
fn wake_word_and_arguments() {
    assert_eq!(
        voice::after_wake_word("Kraven, I attack!", "Kraven"),
        Some("I attack!")
    );
    assert_eq!(voice::after_wake_word("kraven", "Kraven"), None);
    assert_eq!(voice::after_wake_word("hello there", "Kraven"), None);
    assert!(voice::parse_args(&[]).is_err());
    assert!(voice::parse_args(&["--seed".into(), "x".into(), "a.wav".into()]).is_err());
    assert!(voice::recordings(&["/no/such/path".into()]).is_err());
}

#[test]
fn the_report_holds_no_escape_sequence_from_a_transcript_or_the_model() {
    const ESC: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m";
    let heard = [
        voice::Heard::Skipped {
            transcript: format!("snacks{ESC}"),
        },
        voice::Heard::Turn {
            input: format!("I look{ESC}"),
            narration: format!("{ESC}The wind howls.{ESC}"),
            file: "out/turn-1.wav".into(),
        },
    ];
    let report = voice::report(&heard);
    assert!(
        !report
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\t')),
        "{report:?}"
    );
    assert!(
        report.contains("> I look\nThe wind howls.\n[spoken: out/turn-1.wav]"),
        "{report:?}"
    );
}
