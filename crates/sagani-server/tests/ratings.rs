//! Ratings that mean something, over HTTP on both stores (two servers on PostgreSQL): a rated
//! game a player resigns before every seat has moved is aborted for ratings, and says so in
//! its state and on the players' profiles; resigned once everyone has moved, it counts, and
//! its state says each seat's rating before and after.

mod common;

use common::browser::{Answer, Browser};
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn serve(store: Arc<dyn Store>) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: 0,
            ..Limits::default()
        },
        bot_sweep: Duration::from_millis(50),
        ..Config::default()
    };
    common::serve_local(store, config).await
}

fn ok(a: &Answer) -> Value {
    assert!(a.status < 300, "{}: {}", a.status, a.body);
    a.body.clone()
}

/// A public rated game of two seats, Ada in seat 0 and Bea in seat 1: their tokens.
async fn rated_game(ada: &mut Browser, bea: &mut Browser) -> (String, String, String) {
    let made = ok(&ada
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": [{"kind": "human"}, {"kind": "human"}], "rated": true, "public": true })),
        )
        .await);
    let game = made["game"].as_str().unwrap().to_string();
    let join = format!("/api/games/{game}/join");
    let a = ok(&ada.send("POST", &join, Some(json!({ "seat": 0 }))).await);
    let b = ok(&bea.send("POST", &join, Some(json!({ "seat": 1 }))).await);
    let t = |v: &Value| v["token"].as_str().unwrap().to_string();
    (game, t(&a), t(&b))
}

/// Plays `token`'s seat (its first legal move each time) until the game is over, waiting for
/// the bot that plays the other seat; the state at the end.
async fn play_out(b: &mut Browser, game: &str, token: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let s = ok(&b.get_with(&format!("/api/games/{game}"), token).await);
        if s["status"] == "over" {
            return s;
        }
        match s["legal"].get(0) {
            Some(mv) => {
                let body = json!({ "version": s["version"], "move": mv });
                ok(&b
                    .post_with(&format!("/api/games/{game}/moves"), token, body)
                    .await);
            }
            None => {
                assert!(Instant::now() < deadline, "the bot plays its turn: {s}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// Each seat of a two-seat game plays one move, in turn (whoever starts).
async fn each_moves_once(mut seats: [(&mut Browser, &str); 2], game: &str) {
    let mut moved = [false; 2];
    while moved != [true; 2] {
        let mut acted = false;
        for (i, (b, t)) in seats.iter_mut().enumerate() {
            let s = ok(&b.get_with(&format!("/api/games/{game}"), t).await);
            if moved[i] || s["legal"].as_array().is_none_or(|l| l.is_empty()) {
                continue;
            }
            let body = json!({ "version": s["version"], "move": s["legal"][0] });
            ok(&b
                .post_with(&format!("/api/games/{game}/moves"), t, body)
                .await);
            (moved[i], acted) = (true, true);
        }
        assert!(acted, "one of them is to move");
    }
}

async fn profile(b: &mut Browser, name: &str) -> Value {
    let a = b.send("GET", &format!("/api/players/{name}"), None).await;
    common::assert_documented("get", "/api/players/{name}", a.status, &a.body);
    ok(&a)
}

async fn resigned_too_early(one: &str, two: &str) {
    let mut ada = Browser::signed_up(one, "Ada").await;
    let mut bea = Browser::signed_up(two, "Bea").await;
    // Bea resigns before anyone has moved: a bot plays her seat, Ada wins, nothing is rated.
    let (game, ta, tb) = rated_game(&mut ada, &mut bea).await;
    ok(&bea
        .post_with(&format!("/api/games/{game}/resign"), &tb, json!({}))
        .await);
    let end = play_out(&mut ada, &game, &ta).await;
    assert_eq!(end["standings"][0], 0, "Ada wins: {end}");
    assert!(end.get("ratings").is_none(), "no rating changed: {end}");
    assert_eq!(
        (end["rated"].as_bool(), &end["not_rated"]),
        (Some(true), &json!("too_early"))
    );
    for name in ["Ada", "Bea"] {
        let p = profile(&mut bea, name).await;
        assert_eq!(
            (p.get("rating"), &p["rated_games"]),
            (None, &json!(0)),
            "{p}"
        );
        assert_eq!(p["recent"][0]["not_rated"], "too_early", "{p}");
    }
    assert_eq!(
        ok(&ada.send("GET", "/api/leaderboard", None).await)["players"],
        json!([])
    );
    // Both moved, then Bea resigns: it counts, as a loss for her.
    let (game, ta, tb) = rated_game(&mut bea, &mut ada).await;
    each_moves_once([(&mut bea, &ta), (&mut ada, &tb)], &game).await;
    ok(&bea
        .post_with(&format!("/api/games/{game}/resign"), &ta, json!({}))
        .await);
    let end = play_out(&mut ada, &game, &tb).await;
    assert!(end.get("not_rated").is_none(), "{end}");
    let (a, b) = (
        profile(&mut ada, "Ada").await,
        profile(&mut ada, "Bea").await,
    );
    assert_eq!(
        (&a["rated_games"], &b["rated_games"]),
        (&json!(1), &json!(1))
    );
    assert!(a["rating"].as_i64() > b["rating"].as_i64(), "{a} {b}");
    // The game's end says each seat's change, as the profiles show ratings, on either server
    // (Bea holds seat 0, Ada seat 1; both were newcomers).
    let seen_by_bea = ok(&bea.get_with(&format!("/api/games/{game}"), &ta).await);
    for state in [&end, &seen_by_bea] {
        assert_eq!(
            state["ratings"],
            json!([
                { "seat": 0, "before": 1000, "after": b["rating"] },
                { "seat": 1, "before": 1000, "after": a["rating"] },
            ]),
            "{state}"
        );
    }
    // Both games may end within the same moment: find this one among Ada's recent games.
    let counted = a["recent"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == json!(game))
        .unwrap_or_else(|| panic!("{game} among {a}"));
    assert!(counted.get("not_rated").is_none(), "{counted}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigned_too_early_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("r.db")).unwrap());
    let url = serve(store).await;
    resigned_too_early(&url, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigned_too_early_on_postgres_with_two_servers() {
    let Some(db) = TestDatabase::create("resigned_too_early_on_postgres").await else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, two) = (serve(a).await, serve(b).await);
    resigned_too_early(&one, &two).await;
}
