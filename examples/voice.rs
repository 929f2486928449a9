//! The voice flow: recorded speech in, narration as speech out.
//!
//! ```sh
//! cargo run --example voice -- recordings/ --out narration/
//! cargo run --example voice -- turn1.wav turn2.wav --character kraven
//! ```
//!
//! Each WAV file (or each file of a folder, in name order) is transcribed; the game listens for
//! the wake word, the character's name ("Kraven, I attack the harpy"), and runs a turn for the
//! words that follow it. Files without the wake word are table talk and are skipped. Each turn's
//! narration is spoken into `--out/turn-N.wav`.
//!
//! With `OPENAI_API_KEY` (or `OPENAI_BASE_URL`) set, OpenAI's transcription and speech endpoints
//! do the listening and speaking. Offline, a recording's transcript is read from a text file
//! beside it (`turn1.wav` → `turn1.txt`, as a speech-to-text service would have returned it),
//! and narration is spoken by `espeak-ng` when it is installed, or written as a short silent WAV
//! with the text printed when it is not.
//!
//! What a transcript or the model says is printed through [`terminal_safe`]: escape sequences
//! and control characters never reach the terminal.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use async_trait::async_trait;
use clap::Parser;
use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, PlayerInput};
use dnd_engine::llm::{Audio, AudioFormat, LlmError, Speaker, Transcriber};
use dnd_engine::offline::OfflineGm;
use dnd_engine::store::{GameStore, MemoryStore};
use dnd_engine::text::terminal_safe;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "voice",
    version,
    about = "Transcribes each recording, runs a turn for what follows the wake word (the \
             character's name), and writes each narration as DIR/turn-N.wav",
    args_override_self = true
)]
pub(crate) struct Options {
    /// The recordings: WAV files, or folders of them (played in name order).
    #[arg(required = true, value_name = "FILE.wav|FOLDER")]
    pub inputs: Vec<PathBuf>,
    /// Where the narration is written.
    #[arg(long, value_name = "DIR", default_value = "voice-out")]
    pub out: PathBuf,
    /// The character, whose name is the wake word.
    #[arg(long, value_name = "ID", default_value = "kraven")]
    pub character: String,
    /// The dice seed.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

/// Parses the arguments after the program's name (for the tests; `main` lets clap print help
/// and errors and exit). An error is clap's message.
#[allow(dead_code)] // read by the tests (tests/voice_flow.rs)
pub(crate) fn parse_args(args: &[String]) -> Result<Options, String> {
    Options::try_parse_from(std::iter::once("voice").chain(args.iter().map(String::as_str)))
        .map_err(|e| e.to_string())
}

/// The recordings to play, in order: files as given, folders' `.wav` files by name.
pub(crate) fn recordings(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut in_folder: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wav")))
                .collect();
            in_folder.sort();
            files.extend(in_folder);
        } else if input.is_file() {
            files.push(input.clone());
        } else {
            return Err(format!(
                "{} is neither a file nor a folder",
                input.display()
            ));
        }
    }
    Ok(files)
}

/// The words after the wake word, if it was said ("Kraven, I attack" → "I attack").
pub(crate) fn after_wake_word<'a>(transcript: &'a str, wake_word: &str) -> Option<&'a str> {
    let lower = transcript.to_lowercase();
    let at = lower.find(&wake_word.to_lowercase())?;
    // Lower-casing keeps byte offsets for the ASCII names of the pregenerated heroes; for any
    // other name, fall back to the whole transcript rather than cut a character in half.
    let start = at + wake_word.len();
    let rest = transcript.get(start..).unwrap_or(transcript);
    let rest =
        rest.trim_start_matches(|c: char| c == ',' || c == ':' || c == '!' || c.is_whitespace());
    (!rest.trim().is_empty()).then_some(rest.trim())
}

/// Offline transcription: the text file beside the recording.
pub(crate) struct SidecarTranscriber {
    pub current: std::sync::Mutex<PathBuf>,
}

#[async_trait]
impl Transcriber for SidecarTranscriber {
    async fn transcribe(&self, _audio: &Audio) -> Result<String, LlmError> {
        let wav = self.current.lock().map(|p| p.clone()).unwrap_or_default();
        let text = wav.with_extension("txt");
        std::fs::read_to_string(&text).map_err(|e| {
            LlmError::other(format!(
                "offline, a recording's words come from a text file beside it: {} ({e}); \
                 write one, or set OPENAI_API_KEY to transcribe the audio",
                text.display()
            ))
        })
    }
}

/// Offline speech: `espeak-ng` when installed, else a short silent WAV (the text is printed).
pub(crate) struct OfflineSpeaker;

#[async_trait]
impl Speaker for OfflineSpeaker {
    async fn speak(&self, text: &str) -> Result<Audio, LlmError> {
        let spoken = std::process::Command::new("espeak-ng")
            .arg("--stdout")
            .arg(text)
            .output();
        match spoken {
            Ok(out) if out.status.success() && !out.stdout.is_empty() => {
                Ok(Audio::new(out.stdout, AudioFormat::Wav))
            }
            _ => Ok(Audio::new(silent_wav(0.25), AudioFormat::Wav)),
        }
    }
}

/// A mono 16-bit 16 kHz WAV of silence.
pub(crate) fn silent_wav(seconds: f32) -> Vec<u8> {
    let rate: u32 = 16_000;
    let samples = (rate as f32 * seconds) as u32;
    let data_len = samples * 2;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&rate.to_le_bytes());
    wav.extend_from_slice(&(rate * 2).to_le_bytes());
    wav.extend_from_slice(&2u16.to_le_bytes());
    wav.extend_from_slice(&16u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.resize(44 + data_len as usize, 0);
    wav
}

/// What happened to one recording.
pub(crate) enum Heard {
    /// A turn ran; its narration is in this file.
    Turn {
        input: String,
        narration: String,
        file: PathBuf,
    },
    /// No wake word: table talk.
    Skipped { transcript: String },
}

/// Runs the voice flow offline over `files`, writing narration into `out`.
pub(crate) async fn run_offline(
    options: &Options,
    files: &[PathBuf],
) -> Result<Vec<Heard>, String> {
    let sidecar = Arc::new(SidecarTranscriber {
        current: std::sync::Mutex::new(PathBuf::new()),
    });
    let note_file = {
        let sidecar = sidecar.clone();
        move |file: &Path| {
            if let Ok(mut current) = sidecar.current.lock() {
                *current = file.to_path_buf();
            }
        }
    };
    run(options, files, None, &*sidecar, &note_file, &OfflineSpeaker).await
}

/// Runs the voice flow over `files`: `model` narrates (the offline game master when `None`),
/// `transcriber` listens (told each file first, for transcripts kept beside the recordings),
/// and `speaker` speaks.
pub(crate) async fn run(
    options: &Options,
    files: &[PathBuf],
    model: Option<Arc<dyn dnd_engine::llm::LlmProvider>>,
    transcriber: &dyn Transcriber,
    note_file: &dyn Fn(&Path),
    speaker: &dyn Speaker,
) -> Result<Vec<Heard>, String> {
    let adventure = Adventure::built_in();
    let state = adventure
        .new_game(&[options.character.as_str()])
        .map_err(|e| e.to_string())?;
    let name = state
        .characters
        .first()
        .map(|c| c.name.clone())
        .unwrap_or_default();
    let store: Arc<dyn GameStore> = Arc::new(MemoryStore::new());
    let campaign = store
        .create_campaign(&adventure.title, &state)
        .await
        .map_err(|e| e.to_string())?;
    let gm: GameMaster = match model {
        Some(model) => GameMaster::builder(model, store).seed(options.seed).build(),
        None => OfflineGm::game_master(store).seed(options.seed).build(),
    };
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create {}: {e}", options.out.display()))?;
    let mut heard = Vec::new();
    for file in files {
        note_file(file);
        let audio = Audio::new(read(file)?, AudioFormat::Wav);
        let transcript = transcriber
            .transcribe(&audio)
            .await
            .map_err(|e| e.to_string())?;
        let Some(words) = after_wake_word(&transcript, &name) else {
            heard.push(Heard::Skipped { transcript });
            continue;
        };
        let outcome = gm
            .turn(&campaign, PlayerInput::new(name.clone(), words))
            .await
            .map_err(|e| e.to_string())?;
        let speech = speaker
            .speak(&outcome.narration)
            .await
            .map_err(|e| e.to_string())?;
        let path = options.out.join(format!(
            "turn-{}.{}",
            outcome.turn,
            speech.format.extension()
        ));
        std::fs::write(&path, &speech.bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        heard.push(Heard::Turn {
            input: words.to_owned(),
            narration: outcome.narration,
            file: path,
        });
    }
    Ok(heard)
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    // `--help` and `--version` exit 0; bad flags exit 2 with clap's message.
    let options = Options::parse();
    let openai = if dnd_table::provider::openai_configured() {
        match dnd_llm_openai::OpenAiProvider::from_env() {
            Ok(p) => Some(Arc::new(p)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let files = match recordings(&options.inputs) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match openai {
        // OpenAI listens, narrates and speaks.
        Some(p) => {
            let model: Arc<dyn dnd_engine::llm::LlmProvider> = p.clone();
            run(&options, &files, Some(model), &*p, &|_: &Path| {}, &*p).await
        }
        None => run_offline(&options, &files).await,
    };
    match result {
        Ok(heard) => {
            print!("{}", report(&heard));
            ExitCode::SUCCESS
        }
        Err(e) => {
            // The error may quote the model's server or a transcript.
            eprintln!("error: {}", terminal_safe(&e));
            ExitCode::FAILURE
        }
    }
}

/// What was heard and said, as printed: each turn's words, narration and file, and the table
/// talk skipped. The transcripts and the narration come from outside (a speech service, a file,
/// the model), so all of it is safe for a terminal.
pub(crate) fn report(heard: &[Heard]) -> String {
    let mut text = String::new();
    for h in heard {
        match h {
            Heard::Turn {
                input,
                narration,
                file,
            } => text += &format!("> {input}\n{narration}\n[spoken: {}]\n\n", file.display()),
            Heard::Skipped { transcript } => {
                text += &format!("(no wake word, skipped: {transcript:?})\n\n")
            }
        }
    }
    terminal_safe(&text).into_owned()
}
