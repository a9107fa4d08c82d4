//! A server whose time the test moves: the pieces every such test needs (a store in a temp
//! directory, a clock at a fixed start, the server on 127.0.0.1, an answer that must be fine).

use super::browser::Answer;
use sagani_server::clock::ManualClock;
use sagani_server::store::{SqliteStore, Store};
use sagani_server::{App, Config};
use serde_json::Value;
use std::sync::Arc;

/// A new SQLite store in a directory of its own (kept while the directory is).
pub fn sqlite() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(&dir.path().join("games.db")).unwrap());
    (dir, store)
}

/// A clock at a fixed moment, moved by the test.
pub fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(1_900_000_000_000))
}

/// A server on `store` with `config`, at 127.0.0.1 (an ephemeral port): its URL and its state.
pub async fn serve(store: Arc<dyn Store>, config: Config) -> (String, Arc<App>) {
    let app = App::start(store, config).await.expect("server opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let served = app.clone();
    tokio::spawn(async move {
        sagani_server::serve(served, listener, std::future::pending())
            .await
            .expect("serve");
    });
    (url, app)
}

/// The body of an answer that must be a success.
pub fn ok(a: Answer) -> Value {
    assert!(a.status < 300, "{}: {}", a.status, a.body);
    a.body
}
