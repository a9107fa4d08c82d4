//! Play now over HTTP and its socket, with a clock the test moves: two seeks become one game
//! with each seeker seated; rated seeks pair by rating as their window widens; a seeker who
//! goes away is dropped; bots are offered to an unrated seek that waited; on two servers over
//! PostgreSQL a race of 50 seekers pairs each exactly once. Also measures the time from two
//! seeks to a game (printed, not asserted).

mod common;

use common::browser::Browser;
use common::clocked::{clock, ok, sqlite};
use futures_util::{SinkExt, StreamExt};
use sagani_server::clock::ManualClock;
use sagani_server::store::{PostgresStore, SavedSeat, SeekStatus, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{App, Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// How long a test waits for an event before it fails: generous, for a busy machine.
const PATIENCE: Duration = Duration::from_secs(30);

async fn serve(store: Arc<dyn Store>, clock: Arc<ManualClock>) -> (String, Arc<App>) {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            ..Limits::default()
        },
        clock,
        // Sweeps run when the test calls them (`App::sweep_seeks`).
        seek_sweep: Duration::from_secs(3600),
        idle_sweep: Duration::from_secs(3600),
        ..Config::default()
    };
    common::clocked::serve(store, config).await
}

fn five_three() -> Value {
    json!({ "kind": "realtime", "initial_s": 300, "increment_s": 3 })
}

struct Seeker {
    browser: Browser,
    seek: String,
    token: String,
}

async fn seek(mut browser: Browser, body: Value) -> Seeker {
    let made = browser.send("POST", "/api/seeks", Some(body)).await;
    assert_eq!(made.status, 201, "{}", made.body);
    common::assert_documented("post", "/api/seeks", 201, &made.body);
    Seeker {
        seek: made.body["seek"].as_str().unwrap().into(),
        token: made.body["token"].as_str().unwrap().into(),
        browser,
    }
}

impl Seeker {
    async fn state(&mut self) -> Value {
        let path = format!("/api/seeks/{}", self.seek);
        let a = self.browser.get_with(&path, &self.token).await;
        common::assert_documented("get", "/api/seeks/{id}", a.status, &a.body);
        ok(a)
    }
}

/// The seek's socket: every message it gets, as it gets it.
struct SeekSocket {
    rx: mpsc::UnboundedReceiver<Value>,
    close: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

async fn socket(url: &str, s: &Seeker) -> SeekSocket {
    let ws = format!(
        "{}/api/seeks/{}/ws?token={}",
        url.replace("http://", "ws://"),
        s.seek,
        s.token
    );
    let (socket, _) = tokio_tungstenite::connect_async(ws)
        .await
        .expect("ws connects");
    let (tx, rx) = mpsc::unbounded_channel();
    let (close, closing) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let (mut out, mut incoming) = socket.split();
        let mut closing = closing;
        loop {
            tokio::select! {
                _ = &mut closing => {
                    let _ = out.send(Message::Close(None)).await;
                    return;
                }
                m = incoming.next() => match m {
                    Some(Ok(Message::Text(t))) => {
                        let _ = tx.send(serde_json::from_str(&t).expect("seek JSON"));
                    }
                    Some(Ok(_)) => {}
                    _ => return,
                }
            }
        }
    });
    SeekSocket {
        rx,
        close: Some(close),
        task,
    }
}

impl SeekSocket {
    /// The next message, which must come.
    async fn next(&mut self) -> Value {
        tokio::time::timeout(PATIENCE, self.rx.recv())
            .await
            .expect("a seek message in time")
            .expect("the socket is open")
    }

    /// The next message that says the seek no longer waits (paired or cancelled); waiting
    /// ones before it say how many others wait.
    async fn settled(&mut self) -> Value {
        loop {
            let m = self.next().await;
            if m["status"] != "waiting" {
                return m;
            }
        }
    }

    async fn hang_up(mut self) {
        self.close.take().unwrap().send(()).unwrap();
        let _ = self.task.await;
    }
}

/// Two guests seek the same game: one game, each seated with their seek's token, each able to
/// read the game as their seat; the first hears it on its socket, which then closes.
async fn two_seeks_make_a_game(one: &str, two: &str) {
    let first = seek(
        Browser::new(one),
        json!({ "players": 2, "clock": five_three(), "name": "Ann" }),
    )
    .await;
    let mut ws = socket(one, &first).await;
    let waiting = ws.next().await;
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    assert_eq!(waiting["others_waiting"], 0);
    let pools = ok(Browser::new(two).send("GET", "/api/seeks", None).await);
    common::assert_documented("get", "/api/seeks", 200, &pools);
    assert_eq!(pools["pools"][0]["waiting"], 1, "{pools}");
    assert_eq!(pools["pools"][0]["players"], 2);
    let mut second = seek(
        Browser::new(two),
        json!({ "players": 2, "clock": five_three(), "name": "Bob" }),
    )
    .await;
    let heard = ws.settled().await;
    assert_eq!(heard["status"], "paired", "{heard}");
    assert_eq!(heard["seat_token"], first.token.as_str());
    let game = heard["game"].as_str().unwrap().to_string();
    // Paired in the same transaction as the first seek: read once.
    let theirs = second.state().await;
    assert_eq!(theirs["status"], "paired", "{theirs}");
    assert_eq!(theirs["game"], game.as_str());
    assert_ne!(theirs["seat"], heard["seat"]);
    // Each reads the game as their seat; the names are the seekers'.
    for (seeker, name) in [(&first, "Ann"), (&second, "Bob")] {
        let mut b = Browser::new(one);
        let state = ok(b
            .get_with(&format!("/api/games/{game}"), &seeker.token)
            .await);
        assert_eq!(
            state["you"],
            if name == "Ann" {
                heard["seat"].clone()
            } else {
                theirs["seat"].clone()
            }
        );
        let seat = state["you"].as_u64().unwrap() as usize;
        assert_eq!(state["seats"][seat]["name"], name, "{state}");
        assert_eq!(state["clock"]["control"]["kind"], "realtime", "{state}");
    }
    // Nothing waits any more.
    let pools = ok(Browser::new(one).send("GET", "/api/seeks", None).await);
    assert_eq!(pools["pools"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seeks_make_one_game() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock()).await;
    two_seeks_make_a_game(&url, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seeks_on_two_servers_make_one_game_on_postgres() {
    let Some(db) = TestDatabase::create("two_seeks_on_two_servers").await else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, _a) = serve(a, time.clone()).await;
    let (two, _b) = serve(b, time).await;
    two_seeks_make_a_game(&one, &two).await;
}

/// What a seek refuses: no clock, a player count out of bounds, rated without an account, bots
/// for a rated seek; the wrong token reads nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_refuse_what_they_cannot_pair() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock()).await;
    let mut guest = Browser::new(&url);
    for (body, status) in [
        (json!({ "players": 2, "clock": { "kind": "none" } }), 400),
        (json!({ "players": 5, "clock": five_three() }), 400),
        (json!({ "players": 1, "clock": five_three() }), 400),
        (
            json!({ "players": 2, "clock": five_three(), "rated": true }),
            403,
        ),
        (
            json!({ "players": 2, "clock": five_three(), "bots_after_s": 5 }),
            400,
        ),
    ] {
        let a = guest.send("POST", "/api/seeks", Some(body.clone())).await;
        assert_eq!(a.status, status, "{body}: {}", a.body);
        common::assert_documented("post", "/api/seeks", a.status, &a.body);
    }
    let mut ann = Browser::signed_up(&url, "Ann").await;
    let a = ann
        .send(
            "POST",
            "/api/seeks",
            Some(json!({ "players": 2, "clock": five_three(), "rated": true, "bots_after_s": 30 })),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.body);
    let s = seek(
        Browser::new(&url),
        json!({ "players": 3, "clock": five_three() }),
    )
    .await;
    let wrong = guest
        .get_with(&format!("/api/seeks/{}", s.seek), "not-the-token")
        .await;
    assert_eq!(
        (wrong.status, wrong.body["error"].as_str()),
        (403, Some("wrong_token"))
    );
    let none = guest.get_with("/api/seeks/nope", &s.token).await;
    assert_eq!(none.status, 404);
}

/// Rated seeks 300 points apart wait until their windows reach each other, then pair; each
/// account gets a notice of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_seeks_pair_as_their_window_widens() {
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, app) = serve(store.clone(), time.clone()).await;
    let ann = Browser::signed_up(&url, "Ann").await;
    let bob = Browser::signed_up(&url, "Bob").await;
    // Ann's rating is raised by hand: 300 points above Bob's.
    let ann_id = store.player_named("ann").await.unwrap().unwrap().id;
    let mut rating = sagani_server::rating::initial();
    rating.mu += 300.0 / 40.0;
    store
        .put_rows(
            "ratings",
            &[
                "player_id".into(),
                "mu".into(),
                "sigma".into(),
                "games".into(),
            ],
            &[vec![
                ann_id.clone().into(),
                rating.mu.into(),
                rating.sigma.into(),
                1i64.into(),
            ]],
        )
        .await
        .unwrap();
    let body = json!({ "players": 2, "clock": five_three(), "rated": true });
    let mut a = seek(ann, body.clone()).await;
    let mut b = seek(bob, body).await;
    let ratings: Vec<Option<f64>> = futures_util::future::join_all(
        [&a.seek, &b.seek].map(|id| async { store.seek(id).await.unwrap().unwrap().rating }),
    )
    .await;
    assert_eq!(ratings, [Some(1300.0), Some(1000.0)]);
    // A sweep leaves them waiting: 300 apart is beyond both windows.
    app.sweep_seeks().await;
    assert_eq!(a.state().await["status"], "waiting");
    assert_eq!(b.state().await["others_waiting"], 1);
    // Twenty seconds on, the windows are 300 wide: the next sweep pairs them.
    time.advance(20_000);
    app.sweep_seeks().await;
    let paired = a.state().await;
    assert_eq!(paired["status"], "paired", "{paired}");
    assert_eq!(paired["rated"], true);
    assert_eq!(paired["waited_s"], 20);
    let game = paired["game"].as_str().unwrap().to_string();
    assert_eq!(b.state().await["game"], game.as_str());
    let notices = store.notices(&ann_id, 10).await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].game.as_deref(), Some(game.as_str()));
    let saved = store.game(&game).await.unwrap();
    assert!(saved.rated);
    assert!(saved.seats.iter().all(|s| matches!(
        s,
        SavedSeat::Human {
            player: Some(_),
            ..
        }
    )));
}

/// A seeker who neither polls nor holds the socket for a minute is dropped; one who closes the
/// socket is dropped at once; a cancelled seek pairs with nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seekers_who_go_away_are_dropped() {
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, app) = serve(store.clone(), time.clone()).await;
    let body = json!({ "players": 3, "clock": five_three() });
    let mut gone = seek(Browser::new(&url), body.clone()).await;
    let mut there = seek(Browser::new(&url), body.clone()).await;
    time.advance(40_000);
    there.state().await;
    time.advance(30_000);
    app.sweep_seeks().await;
    // Read from the store first: a poll would keep a seek that still waits.
    assert_eq!(
        store.seek(&gone.seek).await.unwrap().unwrap().status,
        SeekStatus::Cancelled
    );
    assert_eq!(gone.state().await["waited_s"], 70);
    assert_eq!(there.state().await["status"], "waiting");
    // The socket keeps a seek; closing it cancels the seek.
    let held = seek(Browser::new(&url), body.clone()).await;
    let mut ws = socket(&url, &held).await;
    assert_eq!(ws.next().await["status"], "waiting");
    // A second socket on the seek hears the cancel the first one's close makes.
    let mut other = socket(&url, &held).await;
    assert_eq!(other.next().await["status"], "waiting");
    ws.hang_up().await;
    let heard = other.settled().await;
    assert_eq!(heard["status"], "cancelled", "{heard}");
    // Withdrawn by DELETE: answered as cancelled, and a third seeker still waits for company.
    let cancelled = ok(there
        .browser
        .with_token(
            "DELETE",
            &format!("/api/seeks/{}", there.seek),
            &there.token,
            None,
        )
        .await);
    assert_eq!(cancelled["status"], "cancelled");
    let mut third = seek(Browser::new(&url), body).await;
    assert_eq!(third.state().await["others_waiting"], 0);
}

/// An unrated seek that waited `bots_after_s` is offered bots, and takes them: a game with the
/// seeker and bots, which the bots play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lonely_seek_may_play_bots() {
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, _app) = serve(store.clone(), time.clone()).await;
    let mut s = seek(
        Browser::new(&url),
        json!({ "players": 3, "clock": five_three(), "bots_after_s": 30 }),
    )
    .await;
    assert_eq!(s.state().await["bots_offered"], false);
    let path = format!("/api/seeks/{}/bots", s.seek);
    let early = s.browser.post_with(&path, &s.token, json!({})).await;
    assert_eq!(early.status, 400, "{}", early.body);
    time.advance(30_000);
    assert_eq!(s.state().await["bots_offered"], true);
    let taken = ok(s
        .browser
        .post_with(&path, &s.token, json!({ "level": 1 }))
        .await);
    common::assert_documented("post", "/api/seeks/{id}/bots", 200, &taken);
    assert_eq!(taken["status"], "paired");
    assert_eq!(taken["seat"], 0);
    let game = taken["game"].as_str().unwrap();
    let saved = store.game(game).await.unwrap();
    assert_eq!(saved.seats.len(), 3);
    assert!(saved.seats[1].is_bot() && saved.seats[2].is_bot());
    assert!(!saved.public);
}

/// 50 seekers, half on each of two servers, all at once: 25 games, every seek paired exactly
/// once, no seeker in two games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_seekers_on_two_servers_are_paired_once_on_postgres() {
    let Some(db) = TestDatabase::create("fifty_seekers_on_two_servers").await else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, app_one) = serve(a.clone(), time.clone()).await;
    let (two, app_two) = serve(b, time).await;
    let mut made = futures_util::future::join_all((0..50).map(|i| {
        let url = if i % 2 == 0 { one.clone() } else { two.clone() };
        async move {
            seek(
                Browser::new(&url),
                json!({ "players": 2, "clock": five_three() }),
            )
            .await
        }
    }))
    .await;
    // Each seek made starts a pairing of its own; sweeps on both servers pair what those left
    // (each pass pairs every group it finds, or finds it paired by the other server).
    for _ in 0..50 {
        if a.waiting_seeks(100).await.unwrap().is_empty() {
            break;
        }
        tokio::join!(app_one.sweep_seeks(), app_two.sweep_seeks());
    }
    assert!(a.waiting_seeks(100).await.unwrap().is_empty());
    let mut seekers = Vec::new();
    for s in &mut made {
        let paired = s.state().await;
        assert_eq!(paired["status"], "paired", "{paired}");
        seekers.push((s.token.clone(), paired));
    }
    let mut games: std::collections::HashMap<String, Vec<String>> = Default::default();
    for (token, paired) in &seekers {
        games
            .entry(paired["game"].as_str().unwrap().into())
            .or_default()
            .push(token.clone());
    }
    assert_eq!(games.len(), 25, "{games:?}");
    let mut seated = std::collections::HashSet::new();
    for (game, tokens) in &games {
        assert_eq!(tokens.len(), 2, "{game}: {tokens:?}");
        let saved = a.game(game).await.unwrap();
        for seat in &saved.seats {
            let SavedSeat::Human {
                token_hash: Some(h),
                ..
            } = seat
            else {
                panic!("{game}: a seat without its seeker");
            };
            assert!(seated.insert(h.clone()), "a seeker seated twice");
        }
    }
    assert_eq!(seated.len(), 50);
    assert_eq!(a.counts().await.unwrap().games, 25);
    eprintln!("50 seekers on two servers: 25 games, every seek paired once");
}

/// The time from the second of two seeks to the first seeker hearing of their game, on one
/// server and on two: printed (the figure in docs/server-api.md), not asserted.
async fn time_to_a_game(one: &str, two: &str, rounds: usize) -> Vec<f64> {
    let mut took = Vec::new();
    for _ in 0..rounds {
        let first = seek(
            Browser::new(one),
            json!({ "players": 2, "clock": five_three() }),
        )
        .await;
        let mut ws = socket(one, &first).await;
        assert_eq!(ws.next().await["status"], "waiting");
        let start = Instant::now();
        let _second = seek(
            Browser::new(two),
            json!({ "players": 2, "clock": five_three() }),
        )
        .await;
        assert_eq!(ws.settled().await["status"], "paired");
        took.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    took.sort_by(f64::total_cmp);
    took
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_from_two_seeks_to_a_game() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock()).await;
    let t = time_to_a_game(&url, &url, 21).await;
    eprintln!(
        "one server (SQLite): median {:.1} ms, max {:.1} ms over {} pairs",
        t[t.len() / 2],
        t[t.len() - 1],
        t.len()
    );
    let Some(db) = TestDatabase::create("time_from_two_seeks_to_a_game").await else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, _a) = serve(a, time.clone()).await;
    let (two, _b) = serve(b, time).await;
    let t = time_to_a_game(&one, &two, 21).await;
    eprintln!(
        "two servers (PostgreSQL): median {:.1} ms, max {:.1} ms over {} pairs",
        t[t.len() / 2],
        t[t.len() - 1],
        t.len()
    );
}
