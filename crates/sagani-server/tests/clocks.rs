//! Time at the table, over HTTP, with a clock the test moves (no sleeping for seconds or
//! days): a 10-second real-time clock that runs out once (across two servers on PostgreSQL),
//! a bot that plays on, the timed-out player ranked last in a rated game; resigning in 2-, 3-
//! and solo games; abandoned, unstarted and cancelled games freeing the open-games count; chat
//! with its limits, kept as text.

mod common;

use common::browser::{Answer, Browser};
use common::clocked::{clock, ok, sqlite};
use common::Watcher;
use futures_util::StreamExt;
use sagani_server::clock::ManualClock;
use sagani_server::store::{PostgresStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{App, Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const DAY_MS: i64 = 86_400_000;

/// A server on `store` whose time is `clock`; its sweeps run only when the test calls them
/// (unless `sweeping`). An address may have two games open.
async fn serve(
    store: Arc<dyn Store>,
    clock: Arc<ManualClock>,
    sweeping: bool,
) -> (String, Arc<App>) {
    serve_open(store, clock, sweeping, 2).await
}

/// `serve`, with `open_games` games open per address.
async fn serve_open(
    store: Arc<dyn Store>,
    clock: Arc<ManualClock>,
    sweeping: bool,
    open_games: usize,
) -> (String, Arc<App>) {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: open_games,
            ..Limits::default()
        },
        clock,
        bot_sweep: if sweeping {
            Duration::from_millis(20)
        } else {
            Duration::from_secs(3600)
        },
        idle_sweep: Duration::from_secs(3600),
        ..Config::default()
    };
    common::clocked::serve(store, config).await
}

/// Creates a game; its id and invite codes.
async fn create(b: &mut Browser, body: Value) -> (String, Vec<String>) {
    let a = ok(b.send("POST", "/api/games", Some(body)).await);
    let invites = a["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap().to_string())
        .collect();
    (a["game"].as_str().unwrap().to_string(), invites)
}

async fn join(b: &mut Browser, game: &str, invite: &str) -> String {
    let path = format!("/api/games/{game}/join");
    let a = ok(b
        .send("POST", &path, Some(json!({ "invite": invite })))
        .await);
    a["token"].as_str().unwrap().to_string()
}

async fn state(b: &mut Browser, game: &str, token: &str) -> Value {
    ok(b.get_with(&format!("/api/games/{game}"), token).await)
}

async fn first_move(b: &mut Browser, game: &str, token: &str) -> Answer {
    let s = state(b, game, token).await;
    let body = json!({ "version": s["version"], "move": s["legal"][0] });
    b.post_with(&format!("/api/games/{game}/moves"), token, body)
        .await
}

/// Plays the seat `token` holds to the end of the game, whoever else plays (bots included):
/// while others are to act it waits for the game's next change on its WebSocket.
async fn play_to_the_end(b: &mut Browser, game: &str, token: &str) -> Value {
    let ws = format!("{}/api/games/{game}/ws", b.url.replace("http://", "ws://"));
    let (mut changes, _) = tokio_tungstenite::connect_async(ws)
        .await
        .expect("ws connects");
    loop {
        let s = state(b, game, token).await;
        if s["status"] == "over" {
            return s;
        }
        if s["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            let a = first_move(b, game, token).await;
            // A bot's move may land between the look and the move: look again.
            assert!(
                a.status == 200 || a.body["error"] == "stale_version",
                "{}",
                a.body
            );
        } else {
            // A bot is to act: its move (or any change) comes as a message.
            let next = tokio::time::timeout(Duration::from_secs(30), changes.next()).await;
            assert!(
                matches!(next, Ok(Some(Ok(_)))),
                "the game went quiet: {next:?}"
            );
        }
    }
}

/// How many seats the servers timed out, by their metrics (a server named twice counts once).
fn timed_out(apps: &[&Arc<App>]) -> u64 {
    let mut distinct: Vec<&Arc<App>> = Vec::new();
    for a in apps {
        if !distinct.iter().any(|d| Arc::ptr_eq(d, a)) {
            distinct.push(a);
        }
    }
    distinct
        .iter()
        .map(|a| {
            a.metrics
                .render()
                .lines()
                .find_map(|l| l.strip_prefix("sagani_seats_timed_out_total "))
                .and_then(|n| n.parse::<u64>().ok())
                .expect("the counter is rendered")
        })
        .sum()
}

/// A rated game on a 10-second clock: Bob never moves; his time runs out once (the two
/// servers sweep together), a bot plays his seat on, Ann finishes, and Bob is ranked last.
async fn a_seat_times_out(
    one: (String, Arc<App>),
    two: (String, Arc<App>),
    time: Arc<ManualClock>,
) {
    let ((url1, app1), (url2, app2)) = (one, two);
    let mut ann = Browser::signed_up(&url1, "Ann").await;
    let mut bob = Browser::signed_up(&url2, "Bob").await;
    let clock = json!({ "kind": "realtime", "initial_s": 10, "increment_s": 0 });
    let (game, invites) = create(
        &mut ann,
        json!({ "seats": [{"kind":"human"}, {"kind":"human"}], "rated": true, "clock": clock }),
    )
    .await;
    let ann_t = join(&mut ann, &game, &invites[0]).await;
    let before = state(&mut ann, &game, &ann_t).await;
    assert_eq!(
        before["clock"]["running"],
        Value::Null,
        "not every seat is claimed yet"
    );
    let bob_t = join(&mut bob, &game, &invites[1]).await;
    let s = state(&mut bob, &game, &bob_t).await;
    assert_eq!(s["clock"]["control"], clock);
    assert_eq!(s["clock"]["left_ms"], json!([10_000, 10_000]));
    assert_eq!(s["clock"]["now_ms"], json!(1_900_000_000_000i64));
    let first = s["view"]["next"]["player"].as_u64().unwrap();
    assert_eq!(s["clock"]["running"], json!(first));
    let watcher = Watcher::connect(&format!(
        "{}/api/games/{game}/ws",
        url2.replace("http://", "ws://")
    ))
    .await;
    if first == 0 {
        // Ann moves at once; Bob's clock runs from then.
        time.advance(3_000);
        assert_eq!(first_move(&mut ann, &game, &ann_t).await.status, 200);
    }
    time.advance(4_000);
    let s = state(&mut ann, &game, &ann_t).await;
    assert_eq!(s["clock"]["running"], 1);
    assert_eq!(s["clock"]["left_ms"][1], 6_000);
    let ann_left = if first == 0 { 7_000 } else { 10_000 };
    assert_eq!(
        s["clock"]["left_ms"][0], ann_left,
        "only the seat to act loses time"
    );
    time.advance(6_000);
    // Too late: refused, and the time-out is due.
    let late = first_move(&mut bob, &game, &bob_t).await;
    assert_eq!(
        (late.status, late.body["error"].as_str()),
        (409, Some("time_up")),
        "{}",
        late.body
    );
    let (a, b) = tokio::join!(app1.sweep_clocks(), app2.sweep_clocks());
    assert!(a + b <= 1);
    let seen = watcher
        .wait_for(|s| s["seats"][1]["replaced"]["reason"] == "timeout")
        .await;
    assert_eq!(
        timed_out(&[&app1, &app2]),
        1,
        "exactly one time-out, whoever got there"
    );
    assert_eq!(app1.sweep_clocks().await + app2.sweep_clocks().await, 0);
    assert_eq!(timed_out(&[&app1, &app2]), 1);
    assert_eq!(seen["seats"][1]["replaced"]["bot"], "greedy");
    assert_eq!(
        seen["clock"]["left_ms"][1],
        Value::Null,
        "a bot has no clock"
    );
    let s = state(&mut bob, &game, &bob_t).await;
    let body = json!({ "version": s["version"], "move": {"action": "pass"} });
    let again = bob
        .post_with(&format!("/api/games/{game}/moves"), &bob_t, body)
        .await;
    assert!(
        again.body["error"] == "seat_left" || again.body["error"] == "stale_version",
        "{}",
        again.body
    );
    let resign = bob
        .post_with(&format!("/api/games/{game}/resign"), &bob_t, json!({}))
        .await;
    assert_eq!(resign.body["error"], "seat_left", "{}", resign.body);
    // The bot plays Bob's seat; Ann plays hers to the end (the clock stands still meanwhile).
    let end = play_to_the_end(&mut ann, &game, &ann_t).await;
    assert_eq!(end["seats"][1]["replaced"]["reason"], "timeout");
    // Ranked last whatever the score: Ann wins the rated game.
    let ann_p = ok(ann.send("GET", "/api/players/Ann", None).await);
    let bob_p = ok(bob.send("GET", "/api/players/bob", None).await);
    assert_eq!(
        (ann_p["games"].as_u64(), ann_p["wins"].as_u64()),
        (Some(1), Some(1)),
        "{ann_p}"
    );
    assert_eq!(
        (bob_p["games"].as_u64(), bob_p["wins"].as_u64()),
        (Some(1), Some(0)),
        "{bob_p}"
    );
    // Bob timed out before his first move: the game is aborted for ratings (docs/server-api.md,
    // "A game left too early is not rated").
    assert_eq!(end["not_rated"], "too_early");
    assert!(ann_p.get("rating").is_none() && bob_p.get("rating").is_none());
    // The record says who left, when and why.
    let record = ok(ann
        .send("GET", &format!("/api/games/{game}/record"), None)
        .await);
    assert_eq!(record["left"][0]["seat"], 1);
    assert_eq!(record["left"][0]["reason"], "timeout");
    assert_eq!(record["clock"], clock);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_times_out_once_on_sqlite() {
    let (_dir, store) = sqlite();
    let time = clock();
    let one = serve(store, time.clone(), false).await;
    // One server for a SQLite file: it races itself.
    a_seat_times_out(one.clone(), one, time).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_race_to_time_out_a_seat_on_postgres() {
    let Some(db) = TestDatabase::create("two_servers_race_to_time_out_a_seat_on_postgres").await
    else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let one = serve(a, time.clone(), false).await;
    let two = serve(b, time.clone(), false).await;
    a_seat_times_out(one, two, time).await;
}

/// "My games" on any device, most urgent first: the games where it is Ann's turn, the least
/// time left first, then the one where Bob is to act. `two` is another server (or the same).
async fn my_games_by_urgency(one: &str, two: &str, time: Arc<ManualClock>) {
    let mut ann = Browser::signed_up(one, "Ann").await;
    let mut bob = Browser::new(one);
    let mut made = Vec::new();
    for (initial_s, ann_to_act) in [(600, true), (60, true), (300, false)] {
        let clock = json!({ "kind": "realtime", "initial_s": initial_s, "increment_s": 0 });
        let seats = json!([{"kind":"human"}, {"kind":"human"}]);
        let (game, invites) = create(&mut ann, json!({ "seats": seats, "clock": clock })).await;
        let ann_t = join(&mut ann, &game, &invites[0]).await;
        let bob_t = join(&mut bob, &game, &invites[1]).await;
        // Whoever starts: one move, if need be, leaves the turn where the test wants it.
        let first = state(&mut ann, &game, &ann_t).await["view"]["next"]["player"].as_u64();
        if (first == Some(0)) != ann_to_act {
            let t = if first == Some(0) { &ann_t } else { &bob_t };
            assert_eq!(first_move(&mut ann, &game, t).await.status, 200);
        }
        made.push(game);
    }
    time.advance(5_000);
    let mut elsewhere = Browser::new(two);
    elsewhere.cookie = ann.cookie.clone();
    let mine = ok(elsewhere.send("GET", "/api/me/games", None).await);
    common::assert_documented("get", "/api/me/games", 200, &mine);
    let listed: Vec<(&str, bool, Option<i64>)> = mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game"].as_str().unwrap(),
                g["your_turn"].as_bool().unwrap_or(false),
                g["left_ms"].as_i64(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (made[1].as_str(), true, Some(55_000)),
            (made[0].as_str(), true, Some(595_000)),
            (made[2].as_str(), false, Some(300_000)),
        ],
        "{mine}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_are_sorted_by_urgency() {
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, _app) = serve_open(store, time.clone(), false, 3).await;
    my_games_by_urgency(&url, &url, time).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_are_sorted_by_urgency_on_two_postgres_servers() {
    let Some(db) =
        TestDatabase::create("my_games_are_sorted_by_urgency_on_two_postgres_servers").await
    else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, _a) = serve_open(a, time.clone(), false, 3).await;
    let (two, _b) = serve_open(b, time.clone(), false, 3).await;
    my_games_by_urgency(&one, &two, time).await;
}

async fn resigning(url: &str, time: Arc<ManualClock>) {
    let mut b = Browser::new(url);
    // Two players: seat 1 resigns out of turn or in it; a bot plays on for it.
    let (g2, inv) = create(
        &mut b,
        json!({ "seats": [{"kind":"human"}, {"kind":"human"}] }),
    )
    .await;
    let t0 = join(&mut b, &g2, &inv[0]).await;
    let t1 = join(&mut b, &g2, &inv[1]).await;
    let s = ok(b
        .post_with(&format!("/api/games/{g2}/resign"), &t1, json!({}))
        .await);
    assert_eq!(s["seats"][1]["replaced"]["reason"], "resigned");
    assert_eq!(s["status"], "playing");
    assert_eq!(s["legal"], json!([]), "the seat is the bot's to play");
    let again = b
        .post_with(&format!("/api/games/{g2}/resign"), &t1, json!({}))
        .await;
    assert_eq!(
        (again.status, again.body["error"].as_str()),
        (409, Some("seat_left"))
    );
    let nobody = b
        .post_with(&format!("/api/games/{g2}/resign"), "nope", json!({}))
        .await;
    assert_eq!(nobody.status, 403);
    let none = b
        .send("POST", &format!("/api/games/{g2}/resign"), None)
        .await;
    assert_eq!(none.status, 401);
    let end = play_to_the_end(&mut b, &g2, &t0).await;
    assert!(end["outcome"].is_object());
    // Whatever its bot scored, who resigned is last: the server says so once, for every client.
    assert_eq!(end["standings"], json!([0, 1]), "{}", end["outcome"]);

    // Three players: two resign, the third plays the bots to the end.
    let seats = json!([{"kind":"human"}, {"kind":"human"}, {"kind":"human"}]);
    let (g3, inv) = create(&mut b, json!({ "seats": seats })).await;
    let mut t = Vec::new();
    for code in &inv {
        t.push(join(&mut b, &g3, code).await);
    }
    for leaver in [&t[0], &t[2]] {
        ok(
            b.post_with(&format!("/api/games/{g3}/resign"), leaver, json!({}))
                .await,
        );
    }
    let end = play_to_the_end(&mut b, &g3, &t[1]).await;
    let replaced: Vec<&str> = (0..3)
        .map(|i| {
            end["seats"][i]["replaced"]["reason"]
                .as_str()
                .unwrap_or("-")
        })
        .collect();
    assert_eq!(replaced, ["resigned", "-", "resigned"]);
    // The one who stayed first; the two who left after, in the engine's order between them.
    let ranking: Vec<u64> = serde_json::from_value(end["outcome"]["ranking"].clone()).unwrap();
    let leavers: Vec<u64> = ranking.into_iter().filter(|&s| s != 1).collect();
    assert_eq!(end["standings"], json!([1, leavers[0], leavers[1]]));

    // Solo: resigning ends the game; its record is given out.
    let (solo, inv) = create(&mut b, json!({ "seats": [{"kind":"human"}] })).await;
    let ts = join(&mut b, &solo, &inv[0]).await;
    assert_eq!(first_move(&mut b, &solo, &ts).await.status, 200);
    let s = ok(b
        .post_with(&format!("/api/games/{solo}/resign"), &ts, json!({}))
        .await);
    assert_eq!(
        (s["status"].as_str(), s["ended"].as_str()),
        (Some("over"), Some("resigned"))
    );
    let body = json!({ "version": s["version"], "move": {"action": "pass"} });
    let late = b
        .post_with(&format!("/api/games/{solo}/moves"), &ts, body)
        .await;
    assert_eq!(
        (late.status, late.body["error"].as_str()),
        (409, Some("game_over"))
    );
    let record = ok(b
        .send("GET", &format!("/api/games/{solo}/record"), None)
        .await);
    assert_eq!(record["ended"], "resigned");

    // Its rematch: every seat is taken already, so the clocks start with its first move (nobody's
    // runs before the player is back at the table).
    let clock5 = json!({ "kind": "realtime", "initial_s": 300, "increment_s": 5 });
    let (old, inv) = create(
        &mut b,
        json!({ "seats": [{"kind":"human"}], "clock": clock5 }),
    )
    .await;
    let to = join(&mut b, &old, &inv[0]).await;
    ok(
        b.post_with(&format!("/api/games/{old}/resign"), &to, json!({}))
            .await,
    );
    let again = ok(b
        .post_with(&format!("/api/games/{old}/rematch"), &to, json!({}))
        .await);
    let rematch = again["game"].as_str().unwrap().to_string();
    time.advance(60_000);
    let s = state(&mut b, &rematch, &to).await;
    assert_eq!(
        (s["clock"]["running"].clone(), s["clock"]["left_ms"].clone()),
        (Value::Null, json!([300_000]))
    );
    assert_eq!(first_move(&mut b, &rematch, &to).await.status, 200);
    time.advance(1_000);
    let s = state(&mut b, &rematch, &to).await;
    assert_eq!(
        (s["clock"]["running"].clone(), s["clock"]["left_ms"].clone()),
        (json!(0), json!([304_000]))
    );

    // Solo on a clock: the server's own sweep ends it when the time runs out.
    let clock = json!({ "kind": "realtime", "initial_s": 10, "increment_s": 5 });
    let (timed, inv) = create(
        &mut b,
        json!({ "seats": [{"kind":"human"}], "clock": clock }),
    )
    .await;
    let tt = join(&mut b, &timed, &inv[0]).await;
    time.advance(4_000);
    assert_eq!(first_move(&mut b, &timed, &tt).await.status, 200);
    let s = state(&mut b, &timed, &tt).await;
    assert_eq!(s["clock"]["left_ms"], json!([11_000]), "10 s - 4 s + 5 s");
    time.advance(11_000);
    let watcher = Watcher::connect(&format!(
        "{}/api/games/{timed}/ws",
        url.replace("http://", "ws://")
    ))
    .await;
    let over = watcher.wait_for(|s| s["status"] == "over").await;
    assert_eq!(over["ended"], "timeout");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_in_two_three_and_solo_games() {
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, _app) = serve(store, time.clone(), true).await;
    resigning(&url, time).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_on_postgres() {
    let Some(db) = TestDatabase::create("resigning_on_postgres").await else {
        return;
    };
    let time = clock();
    let store: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (url, _app) = serve(store, time.clone(), true).await;
    resigning(&url, time).await;
}

async fn idle_games(url: &str, app: Arc<App>, time: Arc<ManualClock>) {
    let mut b = Browser::new(url);
    let two = json!({ "seats": [{"kind":"human"}, {"kind":"human"}] });
    // One waits for its second player; one is played alone.
    let (waiting, waiting_inv) = create(&mut b, two.clone()).await;
    join(&mut b, &waiting, &waiting_inv[0]).await;
    let (played, inv) = create(&mut b, json!({ "seats": [{"kind":"human"}] })).await;
    let tp = join(&mut b, &played, &inv[0]).await;
    assert_eq!(first_move(&mut b, &played, &tp).await.status, 200);
    let full = b.send("POST", "/api/games", Some(two.clone())).await;
    assert_eq!(
        (full.status, full.body["error"].as_str()),
        (429, Some("too_many_games"))
    );
    // A week and a day later the unstarted game is closed: a game may be opened again.
    time.advance(8 * DAY_MS);
    assert_eq!(app.sweep_idle().await.unwrap(), 1);
    let s = ok(b.send("GET", &format!("/api/games/{waiting}"), None).await);
    assert_eq!(
        (s["status"].as_str(), s["ended"].as_str()),
        (Some("over"), Some("closed"))
    );
    let late = b
        .send(
            "POST",
            &format!("/api/games/{waiting}/join"),
            Some(json!({ "invite": waiting_inv[1] })),
        )
        .await;
    assert_eq!(
        (late.status, late.body["error"].as_str()),
        (409, Some("game_over")),
        "{}",
        late.body
    );
    // Its creator cancels a game nobody else joined; one that someone joined cannot be.
    let (mine, inv) = create(&mut b, two.clone()).await;
    let tm = join(&mut b, &mine, &inv[0]).await;
    let s = ok(b
        .post_with(&format!("/api/games/{mine}/cancel"), &tm, json!({}))
        .await);
    assert_eq!(s["ended"], "cancelled");
    let (joined, inv) = create(&mut b, two.clone()).await;
    let tj = join(&mut b, &joined, &inv[0]).await;
    join(&mut b, &joined, &inv[1]).await;
    let refused = b
        .post_with(&format!("/api/games/{joined}/cancel"), &tj, json!({}))
        .await;
    assert_eq!(
        (refused.status, refused.body["error"].as_str()),
        (409, Some("game_started"))
    );
    // Nobody moved in the played game for 30 days: abandoned, and the address is free again.
    assert_eq!(
        b.send("POST", "/api/games", Some(two.clone())).await.status,
        429
    );
    time.advance(23 * DAY_MS);
    assert_eq!(
        app.sweep_idle().await.unwrap(),
        1,
        "the played game, 31 days after its move"
    );
    let s = ok(b.send("GET", &format!("/api/games/{played}"), None).await);
    assert_eq!(s["ended"], "abandoned");
    assert_eq!(app.sweep_idle().await.unwrap(), 0, "once");
    assert_eq!(b.send("POST", "/api/games", Some(two)).await.status, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_unstarted_and_cancelled_games_end() {
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, app) = serve(store, time.clone(), false).await;
    idle_games(&url, app, time).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_unstarted_and_cancelled_games_end_on_postgres() {
    let Some(db) = TestDatabase::create("abandoned_games_on_postgres").await else {
        return;
    };
    let time = clock();
    let store: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (url, app) = serve(store, time.clone(), false).await;
    idle_games(&url, app, time).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_kept_as_text_with_limits() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock(), false).await;
    let mut b = Browser::new(&url);
    let (game, inv) = create(
        &mut b,
        json!({ "seats": [{"kind":"human"}, {"kind":"human"}] }),
    )
    .await;
    let t0 = join(&mut b, &game, &inv[0]).await;
    let t1 = join(&mut b, &game, &inv[1]).await;
    let chat = format!("/api/games/{game}/chat");
    let watcher = Watcher::connect(&format!(
        "{}/api/games/{game}/ws",
        url.replace("http://", "ws://")
    ))
    .await;
    let evil = "<script>alert('hi')</script> & <b>bold</b>";
    let line = ok(b
        .post_with(&chat, &t0, json!({ "text": format!("  {evil} ") }))
        .await);
    assert_eq!(
        (line["n"].as_u64(), line["seat"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(line["text"], evil, "stored as written, trimmed");
    ok(b.post_with(&chat, &t1, json!({ "phrase": "good_game" }))
        .await);
    watcher.wait_for(|s| s["chats"] == 2).await;
    // Spectators read it.
    let read = ok(b.send("GET", &chat, None).await);
    assert_eq!(read["lines"][0]["text"], evil);
    assert_eq!(read["lines"][1]["phrase"], "good_game");
    assert_eq!(
        ok(b.send("GET", &format!("{chat}?from=1"), None).await)["lines"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Refusals say what is wrong: in English, and as a detail a client words itself.
    for (body, why, detail) in [
        (
            json!({ "text": "x".repeat(301) }),
            "at most 300",
            json!({"kind": "chat_too_long", "max": 300, "len": 301}),
        ),
        (
            json!({ "text": "   " }),
            "write something",
            json!({"kind": "chat_empty"}),
        ),
        (
            json!({ "text": "two\nlines" }),
            "control character",
            json!({"kind": "unseen", "what": "control", "code_point": "U+000A"}),
        ),
        (json!({ "phrase": "rude" }), "unknown phrase", Value::Null),
        (
            json!({ "text": "a", "phrase": "thanks" }),
            "either",
            Value::Null,
        ),
    ] {
        let a = b.post_with(&chat, &t0, body).await;
        assert_eq!(a.status, 400, "{}", a.body);
        assert!(
            a.body["message"].as_str().unwrap().contains(why),
            "{}",
            a.body
        );
        assert_eq!(a.body["detail"], detail, "{}", a.body);
    }
    assert_eq!(
        b.send("POST", &chat, Some(json!({ "text": "hi" })))
            .await
            .status,
        401
    );
    assert_eq!(
        b.post_with(&chat, "nope", json!({ "text": "hi" }))
            .await
            .status,
        403
    );
    assert_eq!(
        b.send("GET", "/api/games/nope/chat", None).await.status,
        404
    );
    // A burst of five, then the limit (seat 1 wrote once already).
    let mut statuses = Vec::new();
    for i in 0..6 {
        statuses.push(
            b.post_with(&chat, &t1, json!({ "text": format!("line {i}") }))
                .await
                .status,
        );
    }
    assert_eq!(statuses, [201, 201, 201, 201, 429, 429]);
    assert_eq!(state(&mut b, &game, &t0).await["chats"], 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn public_games_have_a_clock() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock(), false).await;
    let mut b = Browser::new(&url);
    let two = json!([{"kind":"human"}, {"kind":"human"}]);
    // Listed without a clock chosen: 10+10.
    let (game, _) = create(&mut b, json!({ "seats": two, "public": true })).await;
    let lobby = ok(b.send("GET", "/api/games", None).await);
    assert_eq!(lobby["games"][0]["game"], game);
    assert_eq!(
        lobby["games"][0]["clock"],
        json!({"kind":"realtime","initial_s":600,"increment_s":10})
    );
    // Listed with none: refused, and so are controls out of bounds.
    for (clock, why, detail) in [
        (
            json!({"kind":"none"}),
            "needs a clock",
            json!({"kind": "public_needs_clock"}),
        ),
        (
            json!({"kind":"realtime","initial_s":5,"increment_s":0}),
            "initial_s",
            json!({"kind": "clock_initial", "min": 10, "max": 10800, "value": 5}),
        ),
        (
            json!({"kind":"realtime","initial_s":60,"increment_s":601}),
            "increment_s",
            json!({"kind": "clock_increment", "max": 600, "value": 601}),
        ),
        (
            json!({"kind":"turn","days":5}),
            "days",
            json!({"kind": "clock_days", "value": 5}),
        ),
        // Not a clock at all: the server's words only (no person picks this on the page).
        (json!({"kind":"hourglass"}), "clock", Value::Null),
    ] {
        let a = b
            .send(
                "POST",
                "/api/games",
                Some(json!({ "seats": two, "public": true, "clock": clock })),
            )
            .await;
        assert_eq!(a.status, 400, "{}", a.body);
        assert!(
            a.body["message"].as_str().unwrap().contains(why),
            "{}",
            a.body
        );
        assert_eq!(a.body["detail"], detail, "{}", a.body);
    }
    // A private game has no clock unless asked; turn-based shows days.
    let (private, inv) = create(
        &mut b,
        json!({ "seats": two, "clock": {"kind":"turn","days":2} }),
    )
    .await;
    let t0 = join(&mut b, &private, &inv[0]).await;
    let s = state(&mut b, &private, &t0).await;
    assert_eq!(s["clock"]["left_ms"], json!([2 * DAY_MS, 2 * DAY_MS]));
    assert_eq!(
        s["clock"]["running"],
        Value::Null,
        "seat 2 is not claimed yet"
    );
}
