//! The server says why it closes a WebSocket: a seat claimed again elsewhere closes its old
//! token's socket with 4001 and a reason (across two servers on PostgreSQL too), and a wrong
//! token in an `auth` message with 1008 and a reason.

mod common;

use futures_util::{SinkExt, StreamExt};
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

/// Long enough for any busy machine; the test waits for the event, not for this.
const PATIENCE: Duration = Duration::from_secs(30);

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn post(url: &str, path: &str, body: Value) -> Value {
    let r = reqwest::Client::new()
        .post(format!("{url}{path}"))
        .json(&body);
    let got = common::local::send(r).await;
    assert!(got.status < 300, "{}: {}", got.status, got.text);
    serde_json::from_str(&got.text).unwrap()
}

/// A socket on `url`'s game `id` as the seat `token` holds, once it has the first state.
async fn socket(url: &str, id: &str, token: Option<&str>) -> Socket {
    let ws = format!("{}/api/games/{id}/ws", url.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(ws).await.unwrap();
    if let Some(t) = token {
        let auth = json!({ "type": "auth", "token": t }).to_string();
        socket.send(Message::text(auth)).await.unwrap();
    }
    socket
}

/// The close frame the server sends, after whatever messages come first.
async fn closed(socket: &mut Socket) -> CloseFrame {
    tokio::time::timeout(PATIENCE, async {
        while let Some(m) = socket.next().await {
            if let Message::Close(frame) = m.expect("a message") {
                return frame.expect("a close frame with a code and a reason");
            }
        }
        panic!("the socket ended without a close frame");
    })
    .await
    .expect("the server closes the socket")
}

/// A seat claimed on `one` with its socket there, claimed again on `two` by its invite.
async fn claimed_again(one: &str, two: &str) {
    let seats = json!([{"kind": "human"}, {"kind": "human"}]);
    let made = post(one, "/api/games", json!({ "seats": seats })).await;
    let id = made["game"].as_str().unwrap();
    let invite = made["invites"][0]["code"].as_str().unwrap();
    let join = format!("/api/games/{id}/join");
    let first = post(one, &join, json!({ "invite": invite })).await;
    let mut old = socket(one, id, first["token"].as_str()).await;
    // The seat's own state first (`you`), so the socket speaks for the seat.
    tokio::time::timeout(PATIENCE, async {
        loop {
            let Some(Ok(Message::Text(t))) = old.next().await else {
                panic!("the socket closed early");
            };
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["state"]["you"] == 0 {
                return;
            }
        }
    })
    .await
    .expect("the seat's state");
    post(two, &join, json!({ "invite": invite })).await;
    let frame = closed(&mut old).await;
    assert_eq!(u16::from(frame.code), 4001);
    assert!(
        frame.reason.contains("claimed again elsewhere"),
        "{}",
        frame.reason
    );

    // A token that holds no seat here: an error message, then 1008 and why.
    let mut wrong = socket(one, id, Some("not-a-token")).await;
    let frame = closed(&mut wrong).await;
    assert_eq!(u16::from(frame.code), 1008);
    assert!(frame.reason.contains("holds no seat"), "{}", frame.reason);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_claimed_again_closes_its_socket_with_a_reason_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("w.db")).unwrap());
    let (url, _served) = common::serve_store(store, common::open_limits()).await;
    claimed_again(&url, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_claimed_again_on_another_server_closes_its_socket_on_postgres() {
    let Some(db) =
        TestDatabase::create("a_seat_claimed_again_on_another_server_closes_its_socket").await
    else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, _a) = common::serve_store(a, common::open_limits()).await;
    let (two, _b) = common::serve_store(b, common::open_limits()).await;
    claimed_again(&one, &two).await;
}
