//! The store behavioural suite (`store_suite`) run against every `GameStore` in the workspace.

mod store_suite;

use std::sync::Arc;

use dnd_engine::store::MemoryStore;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_store_passes_the_suite() {
    store_suite::run_all(Arc::new(MemoryStore::new())).await;
}
