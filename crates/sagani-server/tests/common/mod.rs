//! A real server on 127.0.0.1 (an ephemeral port, a new database) and a small HTTP/WebSocket
//! client that keeps every payload it receives; its HTTP requests go to the router in this
//! process (`local`), its WebSockets over the socket.

#![allow(dead_code)]

pub mod browser;
pub mod clocked;
pub mod intercepted;
pub mod local;
pub mod smtp;

use futures_util::StreamExt;
use sagani_server::store::{SqliteStore, Store};
use sagani_server::{Config, Limits};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

pub struct TestServer {
    pub url: String,
    pub db: PathBuf,
    _dir: tempfile::TempDir,
    handle: JoinHandle<()>,
    /// Every body received by this client, in order.
    pub payloads: Arc<Mutex<Vec<String>>>,
    pub client: reqwest::Client,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.handle.abort();
    }
}

/// The default configuration with these limits (0: none).
pub fn limits(moves_per_token: u32, moves_per_ip: u32, open_games_per_ip: usize) -> Config {
    Config {
        limits: Limits {
            moves_per_token,
            moves_per_ip,
            open_games_per_ip,
            ..Limits::default()
        },
        ..Config::default()
    }
}

pub fn open_limits() -> Config {
    limits(0, 0, 0)
}

pub async fn start(config: Config) -> TestServer {
    start_with(config, |store| store).await
}

/// A server whose SQLite store is wrapped by `wrap` (to make it fail on purpose).
pub async fn start_with(
    config: Config,
    wrap: impl FnOnce(Arc<dyn Store>) -> Arc<dyn Store>,
) -> TestServer {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.db");
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).expect("store opens"));
    let (url, handle) = serve_store(wrap(store), config).await;
    TestServer {
        url,
        db,
        _dir: dir,
        handle,
        payloads: Arc::new(Mutex::new(Vec::new())),
        client: reqwest::Client::new(),
    }
}

/// A server on `store` in this process, reached without a socket (`local`): its URL.
pub async fn serve_local(store: Arc<dyn Store>, config: Config) -> String {
    let app = sagani_server::App::start(store, config)
        .await
        .expect("server opens");
    local::serve(app)
}

/// A server on `store` at 127.0.0.1 (an ephemeral port): its URL, and the task serving it.
pub async fn serve_store(store: Arc<dyn Store>, config: Config) -> (String, JoinHandle<()>) {
    let app = sagani_server::App::start(store, config)
        .await
        .expect("server opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    // The client's requests need no socket (`local`); WebSockets and raw requests use this one.
    local::answer_at(&url, app.clone());
    let handle = tokio::spawn(async move {
        sagani_server::serve(app, listener, std::future::pending())
            .await
            .expect("serve");
    });
    (url, handle)
}

/// A server whose router has `extra` routes too, served by `serve_router` until `stop`.
pub struct Stoppable {
    pub url: String,
    pub app: Arc<sagani_server::App>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    /// The serve future, running.
    pub served: JoinHandle<std::io::Result<()>>,
    _dir: tempfile::TempDir,
}

pub async fn start_stoppable(config: Config, extra: axum::Router) -> Stoppable {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> =
        Arc::new(SqliteStore::open(&dir.path().join("test.db")).expect("store opens"));
    let app = sagani_server::App::start(store, config)
        .await
        .expect("server opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let router = sagani_server::router(app.clone()).merge(extra);
    let served = tokio::spawn(sagani_server::serve_router(
        router,
        listener,
        async move {
            let _ = stopped.await;
        },
        app.config.http.clone(),
        app.metrics.clone(),
    ));
    Stoppable {
        url,
        app,
        stop: Some(stop),
        served,
        _dir: dir,
    }
}

impl Stoppable {
    /// Begins the shutdown.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl Drop for Stoppable {
    fn drop(&mut self) {
        self.served.abort();
    }
}

/// An answer: its status and JSON body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl TestServer {
    async fn finish(&self, r: reqwest::RequestBuilder) -> Answer {
        let request = r.build().expect("a request");
        let (method, path) = (request.method().clone(), request.url().path().to_string());
        let local::Received {
            status,
            headers,
            text,
        } = local::execute(&self.client, request).await;
        self.payloads.lock().unwrap().push(text.clone());
        let body: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("status {status}: body is not JSON ({e}): {text}"));
        assert_documented(method.as_str(), &path, status, &body);
        Answer {
            status,
            body,
            headers,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let mut r = self.client.get(format!("{}{path}", self.url));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.finish(r).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        let mut r = self.client.post(format!("{}{path}", self.url)).json(&body);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.finish(r).await
    }

    pub async fn post_raw(&self, path: &str, body: Vec<u8>) -> Answer {
        let r = self
            .client
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .body(body);
        self.finish(r).await
    }

    /// Creates a game; gives its id and the invite codes.
    pub async fn create(&self, seats: Value) -> (String, Vec<String>) {
        let a = self
            .post("/api/games", None, json!({ "seats": seats }))
            .await;
        assert_eq!(a.status, 201, "{:?}", a.body);
        let id = a.body["game"].as_str().unwrap().to_string();
        let invites = a.body["invites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["code"].as_str().unwrap().to_string())
            .collect();
        (id, invites)
    }

    pub async fn join(&self, game: &str, invite: &str) -> String {
        let a = self
            .post(
                &format!("/api/games/{game}/join"),
                None,
                json!({ "invite": invite }),
            )
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
        a.body["token"].as_str().unwrap().to_string()
    }

    pub async fn state(&self, game: &str, token: Option<&str>) -> Value {
        let a = self.get(&format!("/api/games/{game}"), token).await;
        assert_eq!(a.status, 200, "{:?}", a.body);
        a.body
    }

    pub async fn play(&self, game: &str, token: &str, version: u64, mv: &Value) -> Answer {
        self.post(
            &format!("/api/games/{game}/moves"),
            Some(token),
            json!({ "version": version, "move": mv }),
        )
        .await
    }

    /// Waits until the game reaches `version` or more (bots play on their own).
    pub async fn wait_for(
        &self,
        game: &str,
        token: Option<&str>,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..600 {
            let s = self.state(game, token).await;
            if pred(&s) {
                return s;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the game did not get there in 30 s");
    }

    pub fn ws_url(&self, game: &str, token: Option<&str>) -> String {
        let base = self.url.replace("http://", "ws://");
        match token {
            Some(t) => format!("{base}/api/games/{game}/ws?token={t}"),
            None => format!("{base}/api/games/{game}/ws"),
        }
    }
}

/// A WebSocket watcher that keeps every message it receives.
pub struct Watcher {
    pub messages: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl Watcher {
    pub async fn connect(url: &str) -> Watcher {
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        let messages = Arc::new(Mutex::new(Vec::new()));
        let keep = messages.clone();
        let task = tokio::spawn(async move {
            let (_, mut rx) = socket.split();
            while let Some(Ok(m)) = rx.next().await {
                if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
                    keep.lock().unwrap().push(t.to_string());
                }
            }
        });
        Watcher { messages, task }
    }

    /// Every message, whole.
    pub fn updates(&self) -> Vec<Value> {
        self.messages
            .lock()
            .unwrap()
            .iter()
            .map(|m| {
                let v: Value = serde_json::from_str(m).expect("ws JSON");
                assert_eq!(v["type"], "state");
                v
            })
            .collect()
    }

    pub fn states(&self) -> Vec<Value> {
        self.updates()
            .into_iter()
            .map(|u| u["state"].clone())
            .collect()
    }

    /// Waits until a message satisfies `pred`.
    pub async fn wait_for(&self, pred: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..600 {
            if let Some(s) = self.states().into_iter().find(|s| pred(s)) {
                return s;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no such WebSocket message in 30 s");
    }
}

impl Watcher {
    /// Waits until the server closes the socket.
    pub async fn wait_closed(&self) {
        for _ in 0..600 {
            if self.task.is_finished() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the WebSocket stayed open for 30 s");
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The stored deck of `game` (read from the database, as only the server can).
pub fn stored_deck(db: &std::path::Path, game: &str) -> Vec<u8> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let deck: String = conn
        .query_row("SELECT deck FROM games WHERE id = ?1", [game], |r| r.get(0))
        .unwrap();
    serde_json::from_str(&deck).unwrap()
}

/// The number of moves stored for `game` (read from the database, beside the server).
pub fn count_moves(db: &std::path::Path, game: &str) -> u64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT COUNT(*) FROM moves WHERE game_id = ?1",
        [game],
        |r| r.get::<_, i64>(0),
    )
    .unwrap() as u64
}

/// Every answer a test sees must be one the OpenAPI document lists: its status under the
/// route's operation, and its error code among the document's codes.
pub fn assert_documented(method: &str, path: &str, status: u16, body: &Value) {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let doc = DOC.get_or_init(|| serde_json::to_value(sagani_server::openapi_document()).unwrap());
    let parts: Vec<&str> = path.split('/').collect();
    let route = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(template, _)| {
            let t: Vec<&str> = template.split('/').collect();
            t.len() == parts.len()
                && t.iter()
                    .zip(&parts)
                    .all(|(t, p)| t == p || (t.starts_with('{') && t.ends_with('}')))
        });
    // The page's routes and unknown paths are not the API's.
    let Some((template, item)) = route else {
        return;
    };
    let op = &item[method.to_lowercase()];
    if op.is_null() {
        assert_eq!(status, 405, "{method} {template} is not documented");
        return;
    }
    assert!(
        op["responses"][status.to_string()].is_object(),
        "{method} {template} answered {status}, which the OpenAPI document does not list: {body}"
    );
    if status >= 400 {
        let codes = doc["components"]["schemas"]["ErrorCode"]["enum"]
            .as_array()
            .unwrap();
        assert!(
            codes.contains(&body["error"]),
            "{method} {template}: error {} is not in the OpenAPI document",
            body["error"]
        );
    }
}
