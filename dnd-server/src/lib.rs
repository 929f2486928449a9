//! The game in a browser: a JSON API with server-sent events over `dnd-table`, and the page
//! that plays it, served by one binary (`cargo run --release -p dnd-server`).
//!
//! [`app`] builds the whole server as an axum [`Router`] from a [`Config`], so that a test
//! serves it on `127.0.0.1:0` in its own process; `main.rs` only reads the flags and serves.
//! The API is described in `API.md` beside this crate and, as OpenAPI 3.1, at
//! `/api/openapi.json` (the file `openapi.json`, compiled in).
//!
//! # How a campaign is kept
//!
//! The game itself (state, turns, story) is in the store, as for `play`: a SQLite file by
//! default, or PostgreSQL ([`connect`] with [`Config::database_url`]), which several servers
//! may share. The server keeps beside it each campaign's table ([`seats::Table`]: its seats,
//! their tokens, its protocol): in a JSON file next to the SQLite file, or in the PostgreSQL
//! database as the tokens' SHA-256 ([`seats::SeatStore`]); and in memory what lives only while
//! it runs
//! (`live::Live`): the lock that serialises the campaign's turns, the last turn's suggested
//! actions, the rate limit's window, and the channel every seat's `/events` stream listens to.
//!
//! # Invariants
//!
//! - No request reads or changes a campaign without one of its seats' tokens.
//! - A campaign plays one turn at a time: a second gets 409 `turn_in_progress`, never an
//!   interleaving; different campaigns play in parallel.
//! - A failed turn writes nothing (the engine's guarantee: one commit at the end).
//! - Several servers on one PostgreSQL database never lose or double a turn: the per-campaign
//!   lock above is per process, so two servers may play the same campaign's turn at once; the
//!   store commits the first and refuses the second (`conflict`, nothing saved: see `API.md`).
//! - No provider key reaches a response, the page or a log: the server never formats the
//!   provider's configuration, only [`dnd_table::provider::Chosen::description`].

mod error;
mod fair;
mod live;
mod routes;
pub mod seats;
mod seats_pg;
mod turns;
mod view;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, Method, header};
use dnd_engine::gm::{GameMaster, Protocol};
use dnd_engine::store::GameStore;
use dnd_table::provider::{self, GmSettings, ProviderOptions};

pub use error::ApiError;

/// The largest request body accepted, in bytes (64 KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The longest turn text accepted, in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// The SQLite save file; none keeps campaigns in memory (gone when the server stops).
    pub db: Option<PathBuf>,
    /// A PostgreSQL database to keep campaigns and seats in instead of `db` (see [`connect`]).
    pub database_url: Option<DatabaseUrl>,
    /// Who plays the game master (offline unless the environment or `provider` says otherwise).
    pub provider: ProviderOptions,
    /// The one origin CORS allows (`--cors`); none sends no CORS headers at all.
    pub cors: Option<String>,
    /// Turns a campaign may start in a minute before 429 `rate_limited`.
    pub turns_per_minute: u32,
    /// Seeds every campaign's dice that its creator did not seed (tests).
    pub seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: None,
            database_url: None,
            provider: ProviderOptions {
                provider: provider::ProviderChoice::Offline,
                ..ProviderOptions::default()
            },
            cors: None,
            turns_per_minute: 30,
            seed: None,
        }
    }
}

/// Everything a request handler shares.
pub(crate) struct Server {
    pub store: Arc<dyn GameStore>,
    /// One game master per protocol, over the one store.
    pub masters: Vec<(Protocol, Arc<GameMaster>)>,
    pub tables: seats::SeatStore,
    pub live: Mutex<BTreeMap<String, Arc<live::Live>>>,
    pub turns_per_minute: u32,
    pub seed: Option<u64>,
}

impl Server {
    /// The game master of a protocol.
    pub fn master(&self, protocol: Protocol) -> Arc<GameMaster> {
        self.masters
            .iter()
            .find(|(p, _)| *p == protocol)
            .map_or_else(|| Arc::clone(&self.masters[0].1), |(_, gm)| Arc::clone(gm))
    }
}

/// The protocols a campaign may be played with.
const PROTOCOLS: [Protocol; 3] = [Protocol::TwoPhase, Protocol::ToolLoop, Protocol::StrictJson];

/// A PostgreSQL connection URL. It holds a password: `Debug` shows none of it.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl(pub String);

impl std::fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseUrl(..)")
    }
}

/// The server on the store `config.db` names (SQLite; in memory when none). With
/// [`Config::database_url`] set, use [`connect`] instead (connecting is asynchronous).
pub fn app(config: Config) -> Result<Router, String> {
    if config.database_url.is_some() {
        return Err("a PostgreSQL database_url needs dnd_server::connect".to_owned());
    }
    let store: Arc<dyn GameStore> = match &config.db {
        Some(path) => Arc::new(dnd_table::storage::open_store(path)?),
        None => Arc::new(dnd_engine::store::MemoryStore::new()),
    };
    app_on(config, store)
}

/// The server on the store the config names: PostgreSQL when [`Config::database_url`] is set
/// (campaigns and seats in that database, shared with every server on it), else as [`app`].
/// Returns the router and where campaigns are kept (a path, or the database without its
/// password).
pub async fn connect(config: Config) -> Result<(Router, String), String> {
    let Some(url) = &config.database_url else {
        let place = config
            .db
            .as_ref()
            .map_or_else(|| "memory".to_owned(), |db| db.display().to_string());
        return Ok((app(config)?, place));
    };
    let store = dnd_store_postgres::PostgresStore::connect(&url.0)
        .await
        .map_err(|e| e.to_string())?;
    let place = store.place().to_owned();
    let tables = seats::SeatStore::Postgres(seats_pg::PgSeats::open(store.clone()).await?);
    Ok((build(config, Arc::new(store), tables)?, place))
}

/// The server on `store` (the seats file goes beside `config.db` when there is one).
pub fn app_on(config: Config, store: Arc<dyn GameStore>) -> Result<Router, String> {
    let seats_file = config
        .db
        .as_deref()
        .map(|db| dnd_table::storage::beside(db, "seats.json"));
    let tables = seats::SeatStore::File(Mutex::new(seats::Tables::open(seats_file)?));
    build(config, store, tables)
}

fn build(
    config: Config,
    store: Arc<dyn GameStore>,
    tables: seats::SeatStore,
) -> Result<Router, String> {
    let chosen = provider::choose(&config.provider)?;
    tracing::info!(game_master = %chosen.description, "dnd-server starting");
    let masters = PROTOCOLS
        .iter()
        .map(|protocol| {
            let gm = provider::game_master(
                &chosen,
                Arc::clone(&store),
                GmSettings {
                    protocol: Some(*protocol),
                    ..GmSettings::default()
                },
            )
            .build();
            (*protocol, Arc::new(gm))
        })
        .collect();
    let server = Arc::new(Server {
        store,
        masters,
        tables,
        live: Mutex::new(BTreeMap::new()),
        turns_per_minute: config.turns_per_minute.max(1),
        seed: config.seed,
    });
    let mut router = routes::router()
        .with_state(server)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    if let Some(origin) = &config.cors {
        let origin = HeaderValue::from_str(origin).map_err(|_| {
            format!("--cors {origin:?} is not an origin such as http://localhost:3000")
        })?;
        router = router.layer(
            tower_http::cors::CorsLayer::new()
                .allow_origin(origin)
                .allow_methods([Method::GET, Method::POST, Method::DELETE])
                .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE]),
        );
    }
    Ok(router)
}

/// At most 64 characters of untrusted text, for an error message.
pub(crate) fn short(text: &str) -> String {
    if text.chars().count() <= 64 {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(64).collect::<String>())
    }
}
