//! The replay over HTTP, on SQLite and on PostgreSQL: every position of a finished game
//! (`GET /api/games/{id}/replay`) and of a record file (`POST /api/replay`), the scores after
//! every move ending in the outcome's, the pile's order in none of it; refused while the game is
//! played, and for a record that does not replay.

mod common;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::{Game, Setup, Variant};
use sagani_server::store::{Progress, SavedGame, SavedMove, SavedSeat, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::time_control::TimeControl;
use serde_json::{json, Value};
use std::sync::Arc;

async fn send(url: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let client = reqwest::Client::new();
    let mut r = client.request(method.parse().unwrap(), format!("{url}{path}"));
    if let Some(b) = body {
        r = r.json(&b);
    }
    let got = common::local::send(r).await;
    let body: Value = serde_json::from_str(&got.text).expect("a JSON body");
    common::assert_documented(method, path, got.status, &body);
    (got.status, body)
}

/// A game of 3 bots played to its end with random moves, stored as `id` (finished, or not
/// when `over` is false: then its last 10 moves are left out).
async fn stored_game(store: &Arc<dyn Store>, id: &str, over: bool) -> Game {
    let (deck, start_player) = sagani_core::shuffled_deck(31, 3);
    let setup = Setup {
        players: 3,
        variant: None,
        deck: sagani_core::DeckOrder::Explicit(deck.iter().map(|&t| t as i64).collect()),
        start_player: Some(start_player),
    };
    let mut game = Game::new(&setup).unwrap();
    let mut rng = SmallRng::seed_from_u64(9);
    let mut moves = Vec::new();
    while !game.is_over() {
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        moves.push(SavedMove {
            seat: game.to_act().unwrap(),
            mv,
            at_ms: 0,
        });
        game.play(mv).unwrap();
    }
    if !over {
        moves.truncate(moves.len() - 10);
    }
    let saved = SavedGame {
        id: id.into(),
        created_at: 1_900_000_000,
        variant: Variant::Standard,
        deck: deck.to_vec(),
        start_player,
        public: false,
        creator: "test".into(),
        host: None,
        rated: false,
        practice: false,
        seats: ["random", "greedy", "random"]
            .iter()
            .map(|b| SavedSeat::Bot {
                bot: b.to_string(),
                level: 1,
            })
            .collect(),
        moves,
        rev: 1,
        rematch: None,
        clock: TimeControl::None,
        started_ms: None,
        ended: None,
        chats: 0,
        daily: None,
        ratings: Vec::new(),
    };
    let progress = Progress {
        over,
        bot_to_act: false,
        deadline_ms: None,
    };
    store.import(&saved, progress).await.unwrap();
    game
}

async fn replays(store: Arc<dyn Store>) {
    let url = common::serve_local(store.clone(), common::open_limits()).await;
    let finished = stored_game(&store, "done", true).await;
    stored_game(&store, "playing", false).await;
    let (s, r) = send(&url, "GET", "/api/games/done/replay", None).await;
    assert_eq!(s, 200, "{r}");
    let positions = r["positions"].as_array().unwrap();
    let moves = r["moves"].as_array().unwrap();
    let scores = r["scores"].as_array().unwrap();
    assert!(moves.len() > 40, "a whole game: {}", moves.len());
    assert_eq!(
        (positions.len(), scores.len()),
        (moves.len() + 1, moves.len() + 1)
    );
    assert_eq!(r["players"], 3);
    assert_eq!(r["names"], json!(["random", "greedy", "random"]));
    let outcome = serde_json::to_value(finished.outcome().unwrap()).unwrap();
    assert_eq!(r["outcome"], outcome);
    assert_eq!(
        scores.last().unwrap(),
        &outcome["scores"],
        "the graph ends in the outcome"
    );
    assert_eq!(scores[0], json!([0, 0, 0]));
    for (k, p) in positions.iter().enumerate() {
        let seat_scores: Vec<Value> = p["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["score"].clone())
            .collect();
        assert_eq!(json!(seat_scores), scores[k], "position {k}");
        assert_eq!(p["seat"], Value::Null, "a spectator's view");
        let pile: Vec<u64> = p["draw_pile"]["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap())
            .collect();
        assert!(pile.windows(2).all(|w| w[0] < w[1]), "the pile sorted");
        assert_eq!(pile.len() as u64, p["draw_pile"]["count"].as_u64().unwrap());
    }
    for (k, m) in moves.iter().enumerate() {
        assert_eq!(m["version"], k);
        if m["move"]["action"] == "place" {
            assert_eq!(
                m["effect"]["score_after"],
                scores[k + 1][m["seat"].as_u64().unwrap() as usize]
            );
        }
    }
    assert!(r.get("deck").is_none() && !r.to_string().contains("\"deck\""));
    assert_eq!(positions.last().unwrap()["over"], true);
    // A record file replays to the same positions.
    let (_, record) = send(&url, "GET", "/api/games/done/record", None).await;
    let (s, from_file) = send(
        &url,
        "POST",
        "/api/replay",
        Some(json!({ "record": record })),
    )
    .await;
    assert_eq!(s, 200, "{from_file}");
    assert_eq!(from_file["positions"], r["positions"]);
    assert_eq!(from_file["moves"], r["moves"]);
    assert_eq!(from_file["names"], r["names"], "the record's names");
    assert!(from_file.get("game").is_none() && from_file.get("seats").is_none());
    // Refusals change nothing and say what is wrong.
    let (s, e) = send(&url, "GET", "/api/games/playing/replay", None).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (409, Some("game_in_progress")),
        "{e}"
    );
    let (s, e) = send(&url, "GET", "/api/games/nosuchgame/replay", None).await;
    assert_eq!((s, e["error"].as_str()), (404, Some("not_found")), "{e}");
    let mut bad = record.clone();
    bad["moves"][7]["x"] = json!(30);
    let (s, e) = send(&url, "POST", "/api/replay", Some(json!({ "record": bad }))).await;
    assert_eq!(s, 400, "{e}");
    assert!(e["message"].as_str().unwrap().starts_with("move 7:"), "{e}");
    assert_eq!(
        e["detail"],
        json!({"kind": "record_move", "index": 7}),
        "{e}"
    );
    let (s, e) = send(
        &url,
        "POST",
        "/api/replay",
        Some(json!({ "record": {"players": 9} })),
    )
    .await;
    assert_eq!(s, 400, "{e}");
    assert!(e["message"].as_str().unwrap().starts_with("record:"), "{e}");
    assert_eq!(e["detail"], json!({"kind": "record_unreadable"}), "{e}");
    let (s, e) = send(&url, "POST", "/api/replay", Some(json!({ "game": "done" }))).await;
    assert_eq!(s, 400, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("games.db")).unwrap());
    replays(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_on_postgres() {
    let Some(db) = TestDatabase::create("replays_on_postgres").await else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(
        sagani_server::store::PostgresStore::open(&db.url)
            .await
            .unwrap(),
    );
    replays(store).await;
}
