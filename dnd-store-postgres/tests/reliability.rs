//! What the PostgreSQL store must survive: a process killed in the middle of commits, its
//! connections killed by the server, several stores (several servers) on one database, several
//! processes migrating a new database at once, and a password that must never show.
//!
//! Each test makes a database of its own on the server `DATABASE_URL` names
//! (`scripts/pg-throwaway.sh` starts one); without it the tests skip, except on CI, where they
//! fail. The crash test runs this test binary again as a child process (`crash_child`, which
//! does nothing unless [`CHILD_URL`] is set) and kills it with SIGKILL.

use std::ffi::OsStr;
use std::sync::Arc;
use std::time::Duration;

use dnd_engine::store::{CampaignId, GameStore, StoreError};
use dnd_store_postgres::scratch::{self, Scratch};
use dnd_store_postgres::{Options, PostgresStore};

#[path = "../../dnd-engine/tests/support/environment.rs"]
mod environment;

/// The store suite's fixtures (one fighter, two rooms).
#[path = "../../tests/tests/store_suite/mod.rs"]
#[allow(dead_code)]
mod store_suite;

/// The kill -9 test's child, its runner and the checks after it, shared with the SQLite store's
/// test.
#[path = "../../tests/tests/store_suite/crash.rs"]
mod crash;

use crash::{
    check_after_kill, check_whole, commit_then_kill, commit_until_killed, crash_turn as turn,
};
use store_suite::sample_state;

/// Set in the child: the database to commit to.
const CHILD_URL: &str = "DND_STORE_POSTGRES_CRASH_CHILD_URL";
/// Set in the child: the campaign to commit to.
const CHILD_CAMPAIGN: &str = "DND_STORE_POSTGRES_CRASH_CHILD_CAMPAIGN";

/// A database of the test's own, or `None` (after saying why) when there is no server.
async fn database(test: &str) -> Option<Scratch> {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        environment::missing(
            "DATABASE_URL is not set; start a server with `eval \"$(scripts/pg-throwaway.sh start)\"`",
        );
        return None;
    };
    Some(
        scratch::create(&url, test)
            .await
            .expect("a database of the test's own"),
    )
}

/// Commits one turn on the newest head, loading again after each conflict; returns its number.
async fn commit_on_head(store: &dyn GameStore, id: &CampaignId, mark: u64) -> u64 {
    for _ in 0..1000 {
        let (_, head) = store.load_with_head(id).await.expect("loads");
        match store.commit_turn(id, turn(mark, Some(head))).await {
            Ok(number) => return number,
            Err(StoreError::Conflict { .. }) => continue,
            Err(other) => panic!("commit failed: {other}"),
        }
    }
    panic!("1000 conflicts in a row");
}

/// Not a test on its own: the child of `a_killed_process_loses_no_committed_turn`. Commits turns
/// until it is killed, printing each one after `commit_turn` returned `Ok`.
#[test]
fn crash_child() {
    let (Ok(url), Ok(campaign)) = (std::env::var(CHILD_URL), std::env::var(CHILD_CAMPAIGN)) else {
        return;
    };
    let id = CampaignId(campaign);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let store = PostgresStore::connect(&url)
            .await
            .expect("the child connects");
        commit_until_killed(&store, &id).await;
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_process_loses_no_committed_turn() {
    if std::env::var_os(CHILD_URL).is_some() {
        return;
    }
    let Some(db) = database("crash").await else {
        return;
    };
    let store = PostgresStore::connect(&db.url).await.expect("connects");
    let initial = sample_state("Crash");
    let id = store
        .create_campaign("Crash", &initial)
        .await
        .expect("created");
    let mut reported = Vec::new();
    for round in 0..3 {
        let (url, campaign) = (db.url.clone(), id.clone());
        let new = tokio::task::spawn_blocking(move || {
            let env = [
                (CHILD_URL, OsStr::new(&url)),
                (CHILD_CAMPAIGN, OsStr::new(&campaign.0)),
            ];
            commit_then_kill(&env, 15)
        })
        .await
        .expect("the child's runner");
        reported.extend(new);
        check_after_kill(&store, &id, &initial, &reported, round).await;
    }
    drop(store);
    db.drop_database().await.expect("dropped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_killed_by_the_server_are_replaced() {
    let Some(db) = database("terminate").await else {
        return;
    };
    let options = Options {
        max_connections: 3,
        ..Options::default()
    };
    let store = PostgresStore::connect_with(&db.url, options)
        .await
        .expect("connects");
    let admin = PostgresStore::connect(&db.url).await.expect("connects");
    let initial = sample_state("Cut");
    let id = store.create_campaign("Cut", &initial).await.expect("made");
    let mut committed = 0;
    for round in 0..3 {
        // Fill the pool with open connections, then kill every one but the admin's.
        let (a, b, c) = tokio::join!(store.load(&id), store.load(&id), store.load(&id));
        a.and(b).and(c).expect("loads");
        let client = admin.client().await.expect("the admin's connection");
        let killed: i64 = client
            .query_one(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
                &[],
            )
            .await
            .expect("terminates")
            .get(0);
        drop(client);
        assert!(
            killed >= 1,
            "round {round}: no connection of the store was killed"
        );
        // Each operation either works or fails with a typed error, quickly; within a few
        // tries the store works again.
        let mut errors = 0;
        let recovered = loop {
            let attempt = tokio::time::timeout(
                Duration::from_secs(15),
                store.commit_turn(&id, turn(committed + 1, Some(committed))),
            )
            .await
            .expect("an operation after the kill answers, it does not hang");
            match attempt {
                Ok(number) => break number,
                Err(StoreError::Backend(message)) => {
                    errors += 1;
                    assert!(errors <= 3, "round {round}: still failing: {message}");
                }
                Err(other) => panic!("round {round}: unexpected error {other}"),
            }
        };
        committed += 1;
        assert_eq!(recovered, committed);
    }
    check_whole(&store, &id, &initial, committed).await;
    drop((store, admin));
    db.drop_database().await.expect("dropped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_on_one_database_never_lose_or_double_a_turn() {
    let Some(db) = database("two_stores").await else {
        return;
    };
    let a = Arc::new(PostgresStore::connect(&db.url).await.expect("a connects"));
    let b = Arc::new(PostgresStore::connect(&db.url).await.expect("b connects"));
    let initial = sample_state("Race");
    let id = a.create_campaign("Race", &initial).await.expect("made");

    // The same head, committed by both at once: one wins, the other is a conflict.
    for round in 0..20u64 {
        let (_, head_a) = a.load_with_head(&id).await.expect("a loads");
        let (_, head_b) = b.load_with_head(&id).await.expect("b loads");
        assert_eq!(head_a, head_b);
        let (ra, rb) = tokio::join!(
            a.commit_turn(&id, turn(round + 1, Some(head_a))),
            b.commit_turn(&id, turn(round + 1, Some(head_b))),
        );
        let wins = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
        let conflicts = [&ra, &rb]
            .iter()
            .filter(|r| matches!(r, Err(StoreError::Conflict { .. })))
            .count();
        assert_eq!((wins, conflicts), (1, 1), "round {round}: {ra:?} {rb:?}");
    }
    check_whole(a.as_ref(), &id, &initial, 20).await;

    // Many writers on one campaign, half through each store, retrying on conflict.
    let hot = a.create_campaign("Hot", &initial).await.expect("made");
    let mut tasks = Vec::new();
    for writer in 0..8u64 {
        let store = if writer % 2 == 0 { &a } else { &b };
        let (store, hot) = (Arc::clone(store), hot.clone());
        tasks.push(tokio::spawn(async move {
            for k in 0..5 {
                commit_on_head(store.as_ref(), &hot, writer * 100 + k).await;
            }
        }));
    }
    // Many campaigns at once, each through both stores in turn: they stay separate.
    let mut campaigns = Vec::new();
    for n in 0..12 {
        let id = a
            .create_campaign(&format!("C{n}"), &initial)
            .await
            .expect("made");
        campaigns.push(id.clone());
        let (a, b) = (Arc::clone(&a), Arc::clone(&b));
        tasks.push(tokio::spawn(async move {
            for k in 0..6u64 {
                let store = if k % 2 == 0 { &a } else { &b };
                commit_on_head(store.as_ref(), &id, k + 1).await;
            }
        }));
    }
    for task in tasks {
        task.await.expect("a writer finished");
    }
    check_whole(b.as_ref(), &hot, &initial, 40).await;
    for id in &campaigns {
        check_whole(a.as_ref(), id, &initial, 6).await;
    }
    let listed = b.list_campaigns().await.expect("lists");
    assert_eq!(listed.len(), 2 + campaigns.len());
    drop((a, b));
    db.drop_database().await.expect("dropped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_starting_together_migrate_once_and_a_newer_schema_is_refused() {
    let Some(db) = database("migrate").await else {
        return;
    };
    let url = db.url.as_str();
    let (a, b, c, d) = tokio::join!(
        PostgresStore::connect(url),
        PostgresStore::connect(url),
        PostgresStore::connect(url),
        PostgresStore::connect(url),
    );
    let stores = [a, b, c, d].map(|s| s.expect("every one connects"));
    let client = stores[0].client().await.expect("a connection");
    let version: i32 = client
        .query_one(
            "SELECT version FROM schema_version WHERE component = 'store'",
            &[],
        )
        .await
        .expect("one row")
        .get(0);
    assert_eq!(i64::from(version), PostgresStore::SCHEMA_VERSION);
    client
        .execute(
            "UPDATE schema_version SET version = 99 WHERE component = 'store'",
            &[],
        )
        .await
        .expect("updated");
    drop(client);
    match PostgresStore::connect(url).await {
        Err(StoreError::SchemaTooNew { found, supported }) => {
            assert_eq!((found, supported), (99, PostgresStore::SCHEMA_VERSION));
        }
        other => panic!("a newer schema must be refused, got {other:?}"),
    }
    drop(stores);
    db.drop_database().await.expect("dropped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_password_never_shows() {
    let Some(db) = database("secret").await else {
        return;
    };
    let secret = "Sw0rdf1sh-never-shown";
    // The right server and user with a wrong password; then nobody listening; then not a URL.
    let (head, rest) = db.url.split_once("://").expect("a URL");
    let (userinfo, host) = rest.rsplit_once('@').expect("a user");
    let user = userinfo.split(':').next().unwrap_or(userinfo);
    let wrong = format!("{head}://{user}:{secret}@{host}");
    let nobody = format!("postgres://{user}:{secret}@127.0.0.1:1/{}", db.name);
    let broken = format!("postgres://{user}:{secret}@127.0.0.1:notaport/x");
    for url in [&wrong, &nobody, &broken] {
        let options = Options {
            connect_timeout: Duration::from_secs(5),
            ..Options::default()
        };
        let error = PostgresStore::connect_with(url, options)
            .await
            .expect_err("no connection with a wrong password, no server or a bad URL");
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains(secret), "the password is in {shown}");
        assert!(matches!(error, StoreError::Backend(_)), "{shown}");
    }
    // The real password, in a working store's Debug print and place.
    let password = userinfo.split_once(':').map(|(_, p)| p).unwrap_or("");
    let store = PostgresStore::connect(&db.url).await.expect("connects");
    let shown = format!("{store:?} {}", store.place());
    assert!(
        password.len() < 3 || !shown.contains(password),
        "the password is in {shown}"
    );
    assert!(format!("{db:?}").contains(&db.name));
    drop(store);
    db.drop_database().await.expect("dropped");
}
