//! The games to watch over HTTP: only games between people; the spectators counted from the
//! sockets without a seat (a socket that says whose seat it is stops being one), on one server
//! and added up over two on PostgreSQL (each server's count stops counting once stale by the
//! App's clock, or once the server stops); a game leaving the list when it is no longer
//! between people.

mod common;

use common::browser::Browser;
use common::clocked::{clock, ok};
use common::Watcher;
use futures_util::SinkExt;
use sagani_server::clock::ManualClock;
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{App, Config, Limits};
use serde_json::{json, Value};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

struct Server {
    url: String,
    app: Arc<App>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: tokio::task::JoinHandle<()>,
}

/// A server on `store` whose time is `clock`, served until `stop`.
async fn serve(store: Arc<dyn Store>, clock: Arc<ManualClock>) -> Server {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: 0,
            ..Limits::default()
        },
        clock,
        ..Config::default()
    };
    let app = App::start(store, config).await.expect("server opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(sagani_server::serve(app.clone(), listener, async move {
        let _ = stopped.await;
    }));
    let served = tokio::spawn(async move {
        served.await.unwrap().expect("serve");
    });
    Server {
        url,
        app,
        stop: Some(stop),
        served,
    }
}

impl Server {
    /// Stops the server and waits until it has.
    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        (&mut self.served).await.unwrap();
    }
}

/// A public game of `seats`, its people's seats claimed by guests: its id and their tokens.
async fn game_between(url: &str, seats: Value) -> (String, Vec<String>) {
    let mut host = Browser::new(url);
    let a = ok(host
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": seats, "public": true, "name": "Host" })),
        )
        .await);
    let game = a["game"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, invite) in a["invites"].as_array().unwrap().iter().enumerate() {
        let mut guest = Browser::new(url);
        let body = json!({ "invite": invite["code"], "name": format!("Guest {i}") });
        let joined = ok(guest
            .send("POST", &format!("/api/games/{game}/join"), Some(body))
            .await);
        tokens.push(joined["token"].as_str().unwrap().to_string());
    }
    (game, tokens)
}

async fn live(url: &str) -> Value {
    let a = Browser::new(url).send("GET", "/api/live", None).await;
    common::assert_documented("get", "/api/live", a.status, &a.body);
    ok(a)
}

/// The spectators of `game` in `url`'s list (`None`: not listed).
async fn watching(url: &str, game: &str) -> Option<u64> {
    live(url).await["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game)
        .map(|g| g["spectators"].as_u64().unwrap())
}

/// Waits (30 s at most) until `what` gives `want`: the counts are written a moment after a
/// socket opens or closes.
async fn until<T: PartialEq + std::fmt::Debug, F: Future<Output = T>>(
    want: T,
    mut what: impl FnMut() -> F,
) {
    let mut got = what().await;
    for _ in 0..600 {
        if got == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        got = what().await;
    }
    panic!("still {got:?} after 30 s, not {want:?}");
}

fn ws(url: &str, game: &str, token: Option<&str>) -> String {
    let base = url.replace("http://", "ws://");
    match token {
        Some(t) => format!("{base}/api/games/{game}/ws?token={t}"),
        None => format!("{base}/api/games/{game}/ws"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_games_with_their_spectators() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("g.db")).unwrap());
    let server = serve(store, clock()).await;
    let url = server.url.clone();
    assert_eq!(live(&url).await["games"], json!([]));
    let humans = json!([{"kind":"human"}, {"kind":"human"}, {"kind":"bot","bot":"greedy"}]);
    let (game, tokens) = game_between(&url, humans).await;
    // A person and a bot: not a game between people.
    let (_alone, _) = game_between(
        &url,
        json!([{"kind":"human"}, {"kind":"bot","bot":"greedy"}]),
    )
    .await;
    let listed = live(&url).await;
    let games = listed["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{listed}");
    let g = &games[0];
    assert_eq!(g["game"], game.as_str());
    assert_eq!(g["url"], format!("/games/{game}"));
    assert_eq!(g["strength"], 1000);
    assert_eq!(g["spectators"], 0);
    assert_eq!(g["clock"]["kind"], "realtime");
    let players = g["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(
        (&players[0]["kind"], &players[0]["name"]),
        (&json!("human"), &json!("Guest 0"))
    );
    assert_eq!(players[2]["kind"], "bot");
    // A seat's socket is no spectator's; a socket without a seat is.
    let seat = Watcher::connect(&ws(&url, &game, Some(&tokens[0]))).await;
    seat.wait_for(|s| s["game"] == game.as_str()).await;
    let spectator = Watcher::connect(&ws(&url, &game, None)).await;
    spectator.wait_for(|s| s["game"] == game.as_str()).await;
    until(Some(1), || watching(&url, &game)).await;
    let other = Watcher::connect(&ws(&url, &game, None)).await;
    until(Some(2), || watching(&url, &game)).await;
    drop(other);
    // A socket that says whose seat it is stops being a spectator's.
    let (mut becomes_seat, _) = tokio_tungstenite::connect_async(ws(&url, &game, None))
        .await
        .unwrap();
    until(Some(2), || watching(&url, &game)).await;
    let auth = json!({ "type": "auth", "token": tokens[1] }).to_string();
    becomes_seat.send(Message::Text(auth.into())).await.unwrap();
    until(Some(1), || watching(&url, &game)).await;
    drop(becomes_seat);
    drop(spectator);
    until(Some(0), || watching(&url, &game)).await;
    // One of the two people resigns: a bot plays on for them, and it is no game between
    // people any more.
    let mut guest = Browser::new(&url);
    ok(guest
        .post_with(&format!("/api/games/{game}/resign"), &tokens[0], json!({}))
        .await);
    assert_eq!(live(&url).await["games"], json!([]));
    drop(seat);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_on_two_postgres_servers_add_up() {
    let Some(db) = TestDatabase::create("spectators_on_two_postgres_servers_add_up").await else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let one = serve(a, time.clone()).await;
    let two = serve(b, time.clone()).await;
    let (game, _) = game_between(&one.url, json!([{"kind":"human"}, {"kind":"human"}])).await;
    let here = Watcher::connect(&ws(&one.url, &game, None)).await;
    let there = Watcher::connect(&ws(&two.url, &game, None)).await;
    until(Some(2), || watching(&one.url, &game)).await;
    until(Some(2), || watching(&two.url, &game)).await;
    // A minute later only server one has stamped its count again: server two's is stale (it
    // might have died) and no longer counts, until it stamps its own again.
    time.advance(61_000);
    one.app.report_spectators().await;
    assert_eq!(watching(&two.url, &game).await, Some(1));
    two.app.report_spectators().await;
    assert_eq!(watching(&one.url, &game).await, Some(2));
    // Server two stops: its spectators go with it.
    drop(there);
    two.stop().await;
    assert_eq!(watching(&one.url, &game).await, Some(1));
    drop(here);
    until(Some(0), || watching(&one.url, &game)).await;
}
