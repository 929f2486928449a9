//! The load generator: many campaigns played at once against the server on 127.0.0.1, with the
//! offline game master on a SQLite file or on PostgreSQL; it reports turns per second and the
//! p50 and p99 of a turn's latency (request sent to `outcome` received), then counts every
//! campaign's turns in the store: none may be lost or doubled.
//!
//! On PostgreSQL (`--postgres`) it plays on a fresh database made on the server `DATABASE_URL`
//! names (dropped at the end), with one server or two (`--servers 2`): two server instances in
//! this process, each with its own connection pool, seats and turn locks, sharing only the
//! database, as two processes behind a load balancer would; each campaign's turns alternate
//! between them. With `--processes` they are real `dnd-server` processes instead (the release
//! binary beside this example: build it first with `cargo build --release -p dnd-server`).
//!
//! ```text
//! cargo run --release -p dnd-server --example load                 # 200 campaigns × 20 turns
//! cargo run --release -p dnd-server --example load -- --campaigns 20 --turns 5 --db /tmp/load.sqlite3
//! DATABASE_URL=postgres://... cargo run --release -p dnd-server --example load -- --postgres --servers 2
//! DATABASE_URL=postgres://... cargo run --release -p dnd-server --example load -- --postgres --servers 2 --processes
//! ```

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dnd_engine::store::{CampaignId, GameStore, Page};
use dnd_server::{Config, DatabaseUrl};
use dnd_store_sqlite::SqliteStore;
use serde_json::{Value, json};

/// What the player says, turn after turn (the offline game master answers each).
const WORDS: [&str; 5] = [
    "I look around.",
    "I search the room.",
    "I listen at the walls.",
    "I check my gear.",
    "I move on carefully.",
];

struct Options {
    campaigns: usize,
    turns: usize,
    db: Option<std::path::PathBuf>,
    postgres: bool,
    servers: usize,
    processes: bool,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        campaigns: 200,
        turns: 20,
        db: None,
        postgres: false,
        servers: 1,
        processes: false,
    };
    while let Some(flag) = args.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{name} takes a whole number from 1"))
        };
        match flag.as_str() {
            "--campaigns" => options.campaigns = number("--campaigns")?,
            "--turns" => options.turns = number("--turns")?,
            "--db" => options.db = Some(args.next().ok_or("--db takes a path")?.into()),
            "--postgres" => options.postgres = true,
            "--servers" => options.servers = number("--servers")?,
            "--processes" => options.processes = true,
            other => {
                return Err(format!(
                    "unknown flag {other:?}; the flags are --campaigns N, --turns N, --db PATH, \
                     --postgres, --servers N, --processes"
                ));
            }
        }
    }
    if options.servers > 1 && !options.postgres {
        return Err("--servers 2 needs --postgres: a SQLite file has one server".into());
    }
    if options.processes && !options.postgres {
        return Err("--processes needs --postgres: the processes share its database".into());
    }
    if options.postgres && options.db.is_some() {
        return Err("--db is SQLite's; --postgres uses DATABASE_URL".into());
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
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
    match runtime.block_on(run(options)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Plays one turn: its latency, or why it failed.
async fn turn(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    text: &str,
) -> Result<Duration, String> {
    let started = Instant::now();
    let response = http
        .post(url)
        .bearer_auth(token)
        .json(&json!({"text": text}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!(
            "{}: {}",
            response.status(),
            response.text().await.unwrap_or_default()
        ));
    }
    let body = response.text().await.map_err(|e| e.to_string())?;
    if body.contains("event: outcome") {
        Ok(started.elapsed())
    } else {
        Err(format!(
            "no outcome: {}",
            body.chars().take(300).collect::<String>()
        ))
    }
}

async fn run(options: Options) -> Result<bool, String> {
    dnd_llm_openai::http::install_crypto_provider();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let config = Config {
        turns_per_minute: u32::MAX,
        seed: Some(20),
        ..Config::default()
    };
    let mut apps = Vec::new();
    let mut bases = Vec::new();
    let mut processes = Vec::new();
    let mut scratch = None;
    let (store, place): (Arc<dyn GameStore>, String) = if options.postgres {
        let url = std::env::var("DATABASE_URL")
            .map_err(|_| "--postgres needs DATABASE_URL (scripts/pg-throwaway.sh starts one)")?;
        let db = dnd_store_postgres::scratch::create(&url, "load")
            .await
            .map_err(|e| e.to_string())?;
        for _ in 0..options.servers {
            if options.processes {
                let server = Process::start(&db.url)?;
                bases.push(server.base.clone());
                processes.push(server);
                continue;
            }
            let config = Config {
                database_url: Some(DatabaseUrl(db.url.clone())),
                ..config.clone()
            };
            apps.push(dnd_server::connect(config).await?.0);
        }
        let store = dnd_store_postgres::PostgresStore::connect(&db.url)
            .await
            .map_err(|e| e.to_string())?;
        let place = format!(
            "PostgreSQL ({} server {}) at {}",
            options.servers,
            if options.processes {
                "processes"
            } else {
                "instances in this process"
            },
            store.place()
        );
        scratch = Some(db);
        (Arc::new(store), place)
    } else {
        let db = options
            .db
            .clone()
            .unwrap_or_else(|| dir.path().join("load.sqlite3"));
        let store = Arc::new(SqliteStore::open(&db).map_err(|e| e.to_string())?);
        let config = Config {
            db: Some(db.clone()),
            ..config
        };
        let shared: Arc<dyn GameStore> = store.clone();
        apps.push(dnd_server::app_on(config, shared)?);
        (store, format!("SQLite at {}", db.display()))
    };
    for app in apps {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| e.to_string())?;
        bases.push(format!(
            "http://{}",
            listener.local_addr().map_err(|e| e.to_string())?
        ));
        tokio::spawn(async move { axum::serve(listener, app).await });
    }
    let base = bases[0].clone();
    let http = reqwest::Client::new();

    let mut campaigns = Vec::with_capacity(options.campaigns);
    for _ in 0..options.campaigns {
        let created: Value = http
            .post(format!("{base}/api/campaigns"))
            .json(&json!({"heroes": ["kraven"], "seed": 20}))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        let id = created["id"].as_str().ok_or("no campaign id")?.to_owned();
        let token = created["seats"][0]["token"]
            .as_str()
            .ok_or("no token")?
            .to_owned();
        campaigns.push((id, token));
    }
    println!(
        "{} campaigns × {} turns, offline game master, {place}",
        options.campaigns, options.turns,
    );
    let started = Instant::now();
    let plays = campaigns
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, (id, token))| {
            let http = http.clone();
            // Each campaign's turns go round the servers, starting at a different one.
            let urls: Vec<String> = (0..bases.len())
                .map(|k| format!("{}/api/campaigns/{id}/turns", bases[(i + k) % bases.len()]))
                .collect();
            let turns = options.turns;
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(turns);
                let mut failures = Vec::new();
                for n in 0..turns {
                    let url = &urls[n % urls.len()];
                    match turn(&http, url, &token, WORDS[n % WORDS.len()]).await {
                        Ok(latency) => latencies.push(latency),
                        Err(why) => failures.push(why),
                    }
                }
                (latencies, failures)
            })
        });
    let mut latencies = Vec::new();
    let mut failures = Vec::new();
    for result in futures::future::join_all(plays).await {
        let (mut l, mut f) = result.map_err(|e| e.to_string())?;
        latencies.append(&mut l);
        failures.append(&mut f);
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{} turns in {:.1} s: {:.0} turns/s; latency p50 {:.1} ms, p99 {:.1} ms; {} failed",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        at(0.50),
        at(0.99),
        failures.len()
    );
    for why in failures.iter().take(5) {
        println!("  failed: {why}");
    }
    // Counted from the store: every campaign holds exactly its turns, none undone.
    let (mut lost, mut doubled) = (0usize, 0usize);
    for (id, _) in &campaigns {
        let campaign = CampaignId(id.clone());
        let state = store.load(&campaign).await.map_err(|e| e.to_string())?;
        let history = store
            .history(&campaign, Page::first(usize::MAX / 2))
            .await
            .map_err(|e| e.to_string())?;
        let kept = history.iter().filter(|h| !h.undone).count();
        let played = options.turns;
        lost += played.saturating_sub(kept);
        doubled += kept.saturating_sub(played);
        if state.turn as usize != kept {
            println!(
                "campaign {id}: state says {} turns, history holds {kept}",
                state.turn
            );
            doubled += 1;
        }
    }
    println!("from the store: {lost} turns lost, {doubled} doubled");
    drop(processes);
    drop(store);
    if let Some(db) = scratch {
        db.drop_database().await.map_err(|e| e.to_string())?;
    }
    Ok(failures.is_empty() && lost == 0 && doubled == 0)
}

/// A `dnd-server` process of this build (`--processes`), killed when dropped.
struct Process {
    child: std::process::Child,
    base: String,
}

impl Process {
    /// The release binary beside this example, on a free port of 127.0.0.1 and the database
    /// `url`, with the offline game master; its first line says where it listens.
    fn start(url: &str) -> Result<Process, String> {
        use std::io::BufRead;
        let binary = std::env::current_exe()
            .ok()
            .and_then(|exe| Some(exe.parent()?.parent()?.join("dnd-server")))
            .filter(|path| path.exists())
            .ok_or("no dnd-server binary beside this example: run `cargo build --release -p dnd-server` first")?;
        let mut child = std::process::Command::new(&binary)
            .args(["--addr", "127.0.0.1:0", "--provider", "offline"])
            .args(["--turns-per-minute", "1000000", "--database-url", url])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let mut stdout = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut first = String::new();
        stdout.read_line(&mut first).map_err(|e| e.to_string())?;
        let Some(base) = first.trim().strip_prefix("dnd-server: ") else {
            let _ = child.kill();
            return Err(format!(
                "the server did not say where it listens: {first:?}"
            ));
        };
        let base = base.trim_end_matches('/').to_owned();
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in stdout.lines() {});
        Ok(Process { child, base })
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
