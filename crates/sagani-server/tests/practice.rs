//! Practice games over HTTP, on SQLite and on PostgreSQL: a solo game made with
//! `"practice": true` (anything else is refused with a clear 400) whose player, and nobody
//! else, has the engine's hints and the replay while it is played; played to its end it is in
//! none of the account's records, profile or games, where an ordinary solo game beside it is.

mod common;

use common::browser::{Answer, Browser};
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;

async fn serve(store: Arc<dyn Store>) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: 0,
            analyses_per_minute: 0,
            ..Limits::default()
        },
        // A small fixed budget: the hints come quickly, and the same every time.
        analysis_iterations: Some(40),
        ..Config::default()
    };
    common::serve_local(store, config).await
}

/// A solo game made by `b` and its seat taken: the game's id and the seat's token.
async fn solo(b: &mut Browser, practice: bool) -> (String, String) {
    let made = b
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": [{"kind": "human"}], "practice": practice })),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let game = made.body["game"].as_str().unwrap().to_string();
    let invite = made.body["invites"][0]["code"].clone();
    let joined = b
        .send(
            "POST",
            &format!("/api/games/{game}/join"),
            Some(json!({ "invite": invite })),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    (game, joined.body["token"].as_str().unwrap().to_string())
}

/// The seat's first legal move, made; false once the game is over.
async fn first_move(b: &mut Browser, game: &str, token: &str) -> bool {
    let s = b.get_with(&format!("/api/games/{game}"), token).await.body;
    if s["status"] == "over" {
        return false;
    }
    let body = json!({ "version": s["version"], "move": s["legal"][0] });
    let a = b
        .post_with(&format!("/api/games/{game}/moves"), token, body)
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    true
}

fn refused(a: &Answer, status: u16, error: &str) {
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (status, Some(error)),
        "{}",
        a.body
    );
}

async fn practice(url: &str) {
    let mut ada = Browser::signed_up(url, "Ada").await;
    let mut bea = Browser::signed_up(url, "Bea").await;
    let mut anyone = Browser::new(url);

    // Only a solo game of one person is a practice game; the refusal says what it is.
    for body in [
        json!({ "seats": [{"kind": "human"}, {"kind": "human"}], "practice": true }),
        json!({ "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "practice": true }),
        json!({ "seats": [{"kind": "human"}], "practice": true, "tutorial": true }),
        json!({ "seats": [{"kind": "human"}], "practice": true, "public": true }),
    ] {
        let a = ada.send("POST", "/api/games", Some(body.clone())).await;
        refused(&a, 400, "bad_request");
        assert!(
            a.body["message"].as_str().unwrap().contains("practice"),
            "{body}: {}",
            a.body
        );
    }

    let (game, token) = solo(&mut ada, true).await;
    let (plain, plain_token) = solo(&mut ada, false).await;
    let state = ada.get_with(&format!("/api/games/{game}"), &token).await;
    assert_eq!(state.body["practice"], true, "{}", state.body);
    common::assert_documented("get", "/api/games/{id}", state.status, &state.body);
    let plain_state = ada
        .get_with(&format!("/api/games/{plain}"), &plain_token)
        .await;
    assert_eq!(plain_state.body.get("practice"), None);
    assert!(first_move(&mut ada, &game, &token).await);

    // Hints while it is played: for the seat's token, or the account holding the seat.
    let ask = json!({ "game": game, "at": 1 });
    let hint = ada.post_with("/api/analysis", &token, ask.clone()).await;
    assert_eq!(hint.status, 200, "{}", hint.body);
    common::assert_documented("post", "/api/analysis", hint.status, &hint.body);
    assert_eq!(
        (&hint.body["at"], &hint.body["seat"]),
        (&json!(1), &json!(0))
    );
    let moves = hint.body["moves"].as_array().unwrap();
    assert!(!moves.is_empty() && moves.len() <= 5, "{}", hint.body);
    let by_token = ada
        .send(
            "POST",
            "/api/analysis",
            Some(json!({ "game": game, "at": 1, "token": token })),
        )
        .await;
    assert_eq!(
        by_token.body, hint.body,
        "the token in the body, the same hint"
    );
    let by_account = ada.send("POST", "/api/analysis", Some(ask.clone())).await;
    assert_eq!(
        by_account.body, hint.body,
        "the account's seat, the same hint"
    );
    // Not for anyone else, and not for an ordinary game's own player.
    refused(
        &anyone
            .send("POST", "/api/analysis", Some(ask.clone()))
            .await,
        403,
        "history_hidden",
    );
    refused(
        &bea.send("POST", "/api/analysis", Some(ask)).await,
        403,
        "history_hidden",
    );
    let plain_hint = ada
        .post_with(
            "/api/analysis",
            &plain_token,
            json!({ "game": plain, "at": 0 }),
        )
        .await;
    refused(&plain_hint, 403, "history_hidden");
    // Its replay so far, for its player only; the record waits for the end, as every game's.
    let replay = ada
        .get_with(&format!("/api/games/{game}/replay"), &token)
        .await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert_eq!(replay.body["positions"].as_array().unwrap().len(), 2);
    refused(
        &anyone
            .send("GET", &format!("/api/games/{game}/replay"), None)
            .await,
        409,
        "game_in_progress",
    );
    refused(
        &ada.get_with(&format!("/api/games/{game}/record"), &token)
            .await,
        409,
        "game_in_progress",
    );

    // Both played to their ends: the ordinary one counts, the practice game nowhere.
    while first_move(&mut ada, &game, &token).await {}
    while first_move(&mut ada, &plain, &plain_token).await {}
    let profile = anyone.send("GET", "/api/players/Ada", None).await.body;
    assert_eq!(
        (&profile["games"], &profile["solo"]["games"]),
        (&json!(1), &json!(1)),
        "{profile}"
    );
    let recent: Vec<&Value> = profile["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["game"])
        .collect();
    assert_eq!(recent, [&json!(plain)], "{profile}");
    let mine = ada.send("GET", "/api/me/games", None).await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    let mine: Vec<&Value> = mine.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["game"])
        .collect();
    assert_eq!(mine, [&json!(plain)]);
    // Over, it is looked back at as any game.
    let over = anyone
        .send(
            "POST",
            "/api/analysis",
            Some(json!({ "game": game, "at": 1 })),
        )
        .await;
    assert_eq!(over.status, 200, "{}", over.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn practice_games_give_hints_to_their_player_and_count_nowhere_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(&dir.path().join("games.db")).unwrap());
    practice(&serve(store).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn practice_games_give_hints_to_their_player_and_count_nowhere_on_postgres() {
    let Some(db) = TestDatabase::create(
        "practice_games_give_hints_to_their_player_and_count_nowhere_on_postgres",
    )
    .await
    else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    practice(&serve(store).await).await;
}
