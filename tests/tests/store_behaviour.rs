//! The store behavioural suite (`store_suite`) run against every `GameStore` in the workspace.

mod store_suite;

use std::sync::Arc;

use dnd_engine::store::MemoryStore;
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
