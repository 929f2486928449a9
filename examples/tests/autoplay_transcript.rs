//! Drives the `autoplay` example's own code offline to the end of "The Wailing Glacier" and
//! checks the transcript it writes.

#[allow(dead_code)] // the example's `main` and argument parsing are not used here
#[path = "../autoplay.rs"]
mod autoplay;

#[test]
fn autoplay_reaches_the_end_and_writes_a_transcript() {
    let options = autoplay::parse_args(&["--seed".into(), "7".into()]).unwrap();
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
fn bad_arguments_are_refused() {
    assert!(autoplay::parse_args(&["--turns".into(), "many".into()]).is_err());
    assert!(autoplay::parse_args(&["--frobnicate".into()]).is_err());
    assert!(autoplay::parse_args(&["--out".into()]).is_err());
}
