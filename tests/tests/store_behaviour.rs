//! The store behavioural suite (`store_suite`) run against every `GameStore` in the workspace.
//!
//! The PostgreSQL store runs it on a database of its own, made on the server `DATABASE_URL`
//! names (`scripts/pg-throwaway.sh` starts one); without it the test skips, except on CI, where
//! it fails.

mod store_suite;

#[path = "../../dnd-engine/tests/support/environment.rs"]
mod environment;

use std::sync::Arc;

use dnd_engine::store::MemoryStore;
use dnd_store_postgres::PostgresStore;
use dnd_store_sqlite::SqliteStore;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_store_passes_the_suite() {
    store_suite::run_all(Arc::new(MemoryStore::new())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_on_a_file_passes_the_suite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = SqliteStore::open(dir.path().join("campaigns.db")).expect("a new store opens");
    store_suite::run_all(Arc::new(store)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_in_memory_passes_the_suite() {
    let store = SqliteStore::open_in_memory().expect("an in-memory store opens");
    store_suite::run_all(Arc::new(store)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store_passes_the_suite() {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        return environment::missing(
            "DATABASE_URL is not set; start a server with `eval \"$(scripts/pg-throwaway.sh start)\"`",
        );
    };
    let scratch = dnd_store_postgres::scratch::create(&url, "suite")
        .await
        .expect("a database of the test's own");
    let store = PostgresStore::connect(&scratch.url)
        .await
        .expect("the store connects and migrates");
    store_suite::run_all(Arc::new(store)).await;
    scratch
        .drop_database()
        .await
        .expect("the database is dropped");
}
