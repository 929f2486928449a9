//! Where the traces go: a file for the terminal game (`play --log FILE`), stderr for the
//! server. One setup for every front end, filtered by `RUST_LOG`.
//!
//! The filter is `RUST_LOG` when set (`dnd_llm_openai=debug`, `info`, the `env_logger`
//! syntax), else [`DEFAULT_FILTER`]: this workspace's crates at `info`, everything else at
//! `warn`. What is written are the spans and events of the crates: each model call
//! (`model_call`: model, tokens, latency, outcome), never a key, a header or a body.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::Mutex;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

/// The filter when `RUST_LOG` is not set: the workspace's crates at `info`, the rest at `warn`.
pub const DEFAULT_FILTER: &str = "warn,dnd_engine=info,dnd_llm_openai=info,\
dnd_llm_openrouter=info,dnd_table=info,dnd_server=info,dnd_store_sqlite=info,\
dnd_store_postgres=info";

/// `RUST_LOG`, else [`DEFAULT_FILTER`].
fn filter() -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER))
}

/// Sends the traces of this process to `path` (appended, created if missing), never to the
/// terminal, so the game's screen stays the game's. Each span is written when it closes,
/// with its fields.
///
/// # Errors
///
/// The file cannot be opened (said with its path), or a subscriber is already installed.
pub fn to_file(path: &Path) -> Result<(), String> {
    let file: File = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .with_span_events(FmtSpan::CLOSE)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}

/// Sends the traces of this process to stderr (the server's log), filtered by `RUST_LOG`.
///
/// # Errors
///
/// A subscriber is already installed.
pub fn to_stderr() -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_writer(std::io::stderr)
        .with_span_events(FmtSpan::CLOSE)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_filter_parses_and_a_file_receives_the_traces() {
        assert!(EnvFilter::try_new(DEFAULT_FILTER).is_ok());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("play.log");
        to_file(&path).unwrap();
        tracing::info!(target: "dnd_table", turn = 3, "a turn ended");
        tracing::debug!(target: "dnd_table", "below the default level");
        let log = std::fs::read_to_string(&path).unwrap();
        assert!(
            log.contains("a turn ended") && log.contains("turn=3"),
            "{log}"
        );
        assert!(!log.contains("below the default level"), "{log}");
        assert!(to_stderr().is_err(), "one subscriber a process");
    }
}
