//! `dnd-server`: the game in a browser. See the crate docs and `API.md`.
//!
//! ```text
//! cargo run --release -p dnd-server                  # http://127.0.0.1:8080 (offline unless the
//!                                                    # environment names a provider, as for play)
//! cargo run --release -p dnd-server -- --help        # every flag
//! ```

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use dnd_server::{Config, DatabaseUrl};
use dnd_table::provider::ProviderChoice;

const USAGE: &str = "\
dnd-server: the game in a browser, for one to four players a campaign, many campaigns at once

usage: dnd-server [OPTIONS]

  --addr HOST:PORT    where to listen (default: DND_SERVER_ADDR, else 127.0.0.1:8080)
  --db PATH           the SQLite save file (default: server.sqlite3 in the platform's data
                      folder, beside play's); the seats' tokens are kept in PATH.seats.json
  --database-url URL  keep campaigns and seats in PostgreSQL instead
                      (postgres://USER:PASSWORD@HOST:PORT/DATABASE, no TLS): several
                      servers may share one database (default: DATABASE_URL when set and
                      --db is not given, else SQLite)
  --provider offline|openai|openrouter|auto
                      who plays the game master (default: auto, as play: OpenAI or the
                      compatible server at OPENAI_BASE_URL when OPENAI_API_KEY or
                      OPENAI_BASE_URL is set, else OpenRouter when OPENROUTER_API_KEY is
                      set, else offline)
  --model NAME        the model (default: OPENAI_MODEL or OPENROUTER_MODEL)
  --cors ORIGIN       allow this one origin to call the API from another page (default: no
                      CORS headers at all)
  --turns-per-minute N
                      turns one campaign may start in a minute (default 30)
  --help              this text

Traces (each model call: model, tokens, latency, outcome) go to stderr, filtered by
RUST_LOG (default: the game's crates at info, the rest at warn).";

/// The flags, parsed: where to listen and the server's config.
fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<(SocketAddr, Config)>, String> {
    let mut config = Config::default();
    // As `play` chooses: the environment decides, offline when it names no provider.
    config.provider.provider = ProviderChoice::Auto;
    let mut addr = std::env::var("DND_SERVER_ADDR")
        .ok()
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let mut db: Option<PathBuf> = None;
    let mut database_url: Option<String> = None;
    while let Some(flag) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value; --help lists the flags"))
        };
        match flag.as_str() {
            "--help" | "-h" => return Ok(None),
            "--addr" => addr = value("--addr")?,
            "--db" => db = Some(PathBuf::from(value("--db")?)),
            "--database-url" => database_url = Some(value("--database-url")?),
            "--cors" => config.cors = Some(value("--cors")?),
            "--model" => config.provider.model = Some(value("--model")?),
            "--provider" => {
                config.provider.provider = match value("--provider")?.as_str() {
                    "offline" => ProviderChoice::Offline,
                    "openai" => ProviderChoice::OpenAi,
                    "openrouter" => ProviderChoice::OpenRouter,
                    "auto" => ProviderChoice::Auto,
                    other => {
                        return Err(format!(
                            "--provider {other:?}: choose offline, openai, openrouter or auto"
                        ));
                    }
                }
            }
            "--turns-per-minute" => {
                let n = value("--turns-per-minute")?;
                config.turns_per_minute =
                    n.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                        format!("--turns-per-minute {n:?}: a whole number from 1")
                    })?;
            }
            other => return Err(format!("unknown flag {other:?}; --help lists the flags")),
        }
    }
    let addr: SocketAddr = addr
        .parse()
        .map_err(|_| format!("address {addr:?} is not HOST:PORT, such as 127.0.0.1:8080"))?;
    // The flags first; DATABASE_URL only when neither names a store, so that `--db` always
    // means SQLite.
    match (db, database_url) {
        (Some(_), Some(_)) => {
            return Err(
                "--db (SQLite) and --database-url (PostgreSQL) name two stores: give one".into(),
            );
        }
        (Some(db), None) => config.db = Some(db),
        (None, Some(url)) => config.database_url = Some(postgres_url(url, "--database-url")?),
        (None, None) => match database_url_from(std::env::var("DATABASE_URL").ok()) {
            Some(url) => config.database_url = Some(postgres_url(url, "DATABASE_URL")?),
            None => {
                config.db =
                    Some(dnd_table::storage::default_db_path()?.with_file_name("server.sqlite3"));
            }
        },
    }
    Ok(Some((addr, config)))
}

/// `DATABASE_URL`'s value, unless it is empty.
fn database_url_from(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

/// A PostgreSQL URL, or an error that says what is accepted (without the value: it may hold a
/// password).
fn postgres_url(url: String, from: &str) -> Result<DatabaseUrl, String> {
    let url = url.trim().to_owned();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(DatabaseUrl(url))
    } else {
        Err(format!(
            "{from} is not a PostgreSQL URL: it must start with postgres:// \
             (postgres://USER:PASSWORD@HOST:PORT/DATABASE)"
        ))
    }
}

fn main() -> ExitCode {
    let (addr, config) = match parse(std::env::args().skip(1)) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    if let Err(message) = dnd_table::logging::to_stderr() {
        eprintln!("error: {message}");
        return ExitCode::FAILURE;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(addr, config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(addr: SocketAddr, config: Config) -> Result<(), String> {
    let (app, place) = dnd_server::connect(config).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("dnd-server: http://{local}/");
    println!("campaigns in: {place}");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> impl Iterator<Item = String> {
        words
            .iter()
            .map(|w| (*w).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn flags_set_the_address_the_file_and_the_provider() {
        let (addr, config) = parse(args(&[
            "--addr",
            "127.0.0.1:9000",
            "--db",
            "/tmp/x.sqlite3",
            "--cors",
            "http://localhost:3000",
            "--turns-per-minute",
            "5",
            "--provider",
            "offline",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(addr.to_string(), "127.0.0.1:9000");
        assert_eq!(config.db, Some(PathBuf::from("/tmp/x.sqlite3")));
        assert_eq!(config.cors.as_deref(), Some("http://localhost:3000"));
        assert_eq!(config.turns_per_minute, 5);
        assert_eq!(config.provider.provider, ProviderChoice::Offline);
        // With no --provider, the environment decides, as for play.
        let (_, config) = parse(args(&["--db", "/tmp/x.sqlite3"])).unwrap().unwrap();
        assert_eq!(config.provider.provider, ProviderChoice::Auto);
        assert!(parse(args(&["--help"])).unwrap().is_none());
    }

    #[test]
    fn bad_flags_say_what_is_accepted() {
        let bad = |words: &[&str]| parse(args(words)).err().unwrap();
        assert!(bad(&["--provider", "skynet"]).contains("offline, openai"));
        assert!(bad(&["--addr", "here"]).contains("HOST:PORT"));
        assert!(bad(&["--turns-per-minute", "0"]).contains("from 1"));
        assert!(bad(&["--db"]).contains("needs a value"));
        assert!(bad(&["--frobnicate"]).contains("--help"));
        assert!(bad(&["--db", "x", "--database-url", "postgres://h/d"]).contains("give one"));
        let secret = "mysql://u:hunter2@h/d";
        let refused = bad(&["--database-url", secret]);
        assert!(refused.contains("postgres://") && !refused.contains("hunter2"));
    }

    #[test]
    fn database_url_selects_postgres_and_hides_its_password() {
        let (_, config) = parse(args(&["--database-url", "postgres://u:hunter2@h:5432/d"]))
            .unwrap()
            .unwrap();
        let url = config.database_url.clone().unwrap();
        assert_eq!(url.0, "postgres://u:hunter2@h:5432/d");
        assert_eq!(config.db, None);
        assert!(!format!("{config:?}").contains("hunter2"));
        assert_eq!(database_url_from(Some("  ".into())), None);
    }
}
