//! Players over HTTP, on both stores: guests with display names, seats that belong to accounts,
//! a rated game played to its end changing both ratings once (not again on a retry, nor on a
//! second server), an unrated game leaving them alone, a guest refused a rated seat, profiles,
//! the leaderboard, "my games" on another server, names in records, a deleted player.

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
            ..Limits::default()
        },
        ..Config::default()
    };
    common::serve_local(store, config).await
}

fn token(a: &Answer) -> String {
    assert_eq!(a.status, 200, "{}", a.body);
    a.body["token"].as_str().unwrap().to_string()
}

/// Plays the game to its end, each seat's first legal move, by the seats' tokens; returns the
/// last move made (its version and move).
async fn play_out(b: &mut Browser, game: &str, tokens: &[String]) -> (u64, Value, String) {
    let mut last = None;
    loop {
        let mut acted = false;
        for t in tokens {
            let s = b.get_with(&format!("/api/games/{game}"), t).await;
            if s.body["status"] == "over" {
                return last.expect("a move was played");
            }
            let Some(mv) = s.body["legal"].get(0).cloned() else {
                continue;
            };
            let version = s.body["version"].as_u64().unwrap();
            let body = json!({ "version": version, "move": mv });
            let a = b
                .post_with(&format!("/api/games/{game}/moves"), t, body)
                .await;
            assert_eq!(a.status, 200, "{}", a.body);
            last = Some((version, mv, t.clone()));
            acted = true;
        }
        assert!(acted, "somebody can act until the game is over");
    }
}

async fn profile(b: &mut Browser, name: &str) -> Value {
    let a = b.send("GET", &format!("/api/players/{name}"), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    common::assert_documented("get", "/api/players/{name}", a.status, &a.body);
    a.body
}

async fn players(one: &str, two: &str) {
    let mut ada = Browser::signed_up(one, "Ada").await;
    let mut bea = Browser::signed_up(two, "Bea").await;
    let mut guest = Browser::new(one);

    // A guest plays at once under a display name, marked as a guest's.
    let made = guest
        .send(
            "POST",
            "/api/games",
            Some(
                json!({ "seats": [{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 3}],
                         "public": true, "name": "Cat" }),
            ),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let game = made.body["game"].as_str().unwrap().to_string();
    let invite = made.body["invites"][0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    for bad in [
        "",
        "   ",
        "mcts bot",
        "Admin",
        "a name of more than 24 chars",
    ] {
        let a = guest
            .send(
                "POST",
                &format!("/api/games/{game}/join"),
                Some(json!({ "invite": invite, "name": bad })),
            )
            .await;
        assert_eq!(
            (a.status, a.body["error"].as_str()),
            (400, Some("bad_request")),
            "{bad:?}"
        );
    }
    let t = token(
        &guest
            .send(
                "POST",
                &format!("/api/games/{game}/join"),
                Some(json!({ "invite": invite, "name": "  Cat " })),
            )
            .await,
    );
    let s = guest.get_with(&format!("/api/games/{game}"), &t).await.body;
    assert_eq!(s["seats"][0]["name"], "Cat");
    assert_eq!(s["seats"][0].get("account"), None, "a guest's name");
    let lobby = guest.send("GET", "/api/games", None).await.body;
    let listed = lobby["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (listed["host"].as_str(), listed["variant"].as_str()),
        (Some("Cat"), Some("standard"))
    );
    assert_eq!(listed["seats"][0]["name"], "Cat");

    // A rated game: people only, and accounts only.
    let refused = ada
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "rated": true })),
        )
        .await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let made = ada
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": [{"kind": "human"}, {"kind": "human"}], "rated": true, "public": true, "name": "ignored" })),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let rated = made.body["game"].as_str().unwrap().to_string();
    let invite0 = made.body["invites"][0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    let join = format!("/api/games/{rated}/join");
    let a = guest
        .send("POST", &join, Some(json!({ "seat": 1, "name": "Cat" })))
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("account_needed"))
    );
    common::assert_documented("post", "/api/games/{id}/join", a.status, &a.body);
    // The cookie counts only from a page of this site.
    ada.origin = None;
    let a = ada
        .send("POST", &join, Some(json!({ "invite": invite0 })))
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("wrong_origin"))
    );
    ada.origin = Some(one.into());
    let ada_token = token(
        &ada.send("POST", &join, Some(json!({ "invite": invite0 })))
            .await,
    );
    let a = ada.send("POST", &join, Some(json!({ "seat": 1 }))).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (409, Some("seat_taken")),
        "one seat per account"
    );
    let bea_join = format!("/api/games/{rated}/join");
    let bea_token = token(
        &bea.send("POST", &bea_join, Some(json!({ "seat": 1 })))
            .await,
    );
    let s = bea
        .get_with(&format!("/api/games/{rated}"), &bea_token)
        .await
        .body;
    assert_eq!(
        (
            s["seats"][0]["name"].as_str(),
            s["seats"][0]["account"].as_bool()
        ),
        (Some("Ada"), Some(true))
    );
    assert_eq!(
        (s["seats"][1]["name"].as_str(), s["rated"].as_bool()),
        (Some("Bea"), Some(true))
    );
    let lobby = guest.send("GET", "/api/games", None).await.body;
    let listed = lobby["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == rated.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (listed["host"].as_str(), listed["rated"].as_bool()),
        (Some("Ada"), Some(true))
    );

    // Before: no ratings.
    assert_eq!(profile(&mut guest, "ada").await.get("rating"), None);
    let tokens = [ada_token.clone(), bea_token.clone()];
    let (version, mv, last_token) = play_out(&mut ada, &rated, &tokens).await;
    let over = ada
        .get_with(&format!("/api/games/{rated}"), &ada_token)
        .await
        .body;
    let winner = over["outcome"]["ranking"][0].as_u64().unwrap() as usize;
    let names = ["Ada", "Bea"];
    let (p_win, p_lose) = (
        profile(&mut guest, names[winner]).await,
        profile(&mut guest, names[1 - winner]).await,
    );
    for p in [&p_win, &p_lose] {
        assert_eq!(
            (p["rated_games"].as_u64(), p["games"].as_u64()),
            (Some(1), Some(1)),
            "{p}"
        );
        assert_eq!(p["provisional"], true);
        assert_eq!(p["history"].as_array().unwrap().len(), 1);
        assert_eq!(p["recent"][0]["game"], rated.as_str());
        assert!(p["recent"][0]["record_url"].is_string());
    }
    assert!(p_win["rating"].as_i64().unwrap() > p_lose["rating"].as_i64().unwrap());
    assert_eq!(
        (p_win["wins"].as_u64(), p_lose["wins"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(p_win["recent"][0]["place"], 1);
    assert_eq!(p_lose["recent"][0]["place"], 2);
    // The last move again, on each server: answered as a retry, rated once.
    for url in [one, two] {
        let mut b = Browser::new(url);
        let a = b
            .post_with(
                &format!("/api/games/{rated}/moves"),
                &last_token,
                json!({ "version": version, "move": mv }),
            )
            .await;
        assert_eq!(
            (a.status, a.body["applied"].as_bool()),
            (200, Some(false)),
            "{}",
            a.body
        );
    }
    let again = profile(&mut Browser::new(two), names[winner]).await;
    assert_eq!(
        (again["rating"].clone(), again["rated_games"].as_u64()),
        (p_win["rating"].clone(), Some(1))
    );
    // The leaderboard, on either server.
    let board = Browser::new(two)
        .send("GET", "/api/leaderboard", None)
        .await;
    assert_eq!(board.status, 200);
    common::assert_documented("get", "/api/leaderboard", board.status, &board.body);
    let listed: Vec<&str> = board.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [names[winner], names[1 - winner]]);
    assert_eq!(board.body["players"][0]["rank"], 1);
    // The record names both players; it still replays.
    let record = ada
        .send("GET", &format!("/api/games/{rated}/record"), None)
        .await
        .body;
    assert_eq!(record["names"], json!(["Ada", "Bea"]));
    let replayed = sagani_core::record::Record::from_json(&record.to_string()).unwrap();
    assert_eq!(replayed.moves.len() as u64, version + 1);

    // An unrated game between the same two: counted as a game, not in the ratings.
    let made = ada
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": [{"kind": "human"}, {"kind": "human"}], "public": true })),
        )
        .await;
    let casual = made.body["game"].as_str().unwrap().to_string();
    let join = format!("/api/games/{casual}/join");
    let t0 = token(&ada.send("POST", &join, Some(json!({ "seat": 0 }))).await);
    let t1 = token(&bea.send("POST", &join, Some(json!({ "seat": 1 }))).await);
    play_out(&mut ada, &casual, &[t0.clone(), t1]).await;
    let after = profile(&mut guest, names[winner]).await;
    assert_eq!(
        (after["rating"].clone(), after["rated_games"].as_u64()),
        (p_win["rating"].clone(), Some(1))
    );
    assert_eq!(after["games"], 2);

    // My games follow Ada to the other server, where she takes her seat again.
    let mut ada_two = Browser::new(two);
    ada_two.cookie = ada.cookie.clone();
    let mine = ada_two.send("GET", "/api/me/games", None).await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    common::assert_documented("get", "/api/me/games", mine.status, &mine.body);
    let mut ids: Vec<&str> = mine.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    // Both were made within a second: their order is the ids'.
    ids.sort();
    let mut both = [casual.as_str(), rated.as_str()];
    both.sort();
    assert_eq!(ids, both);
    let again = token(
        &ada_two
            .send(
                "POST",
                &format!("/api/games/{casual}/join"),
                Some(json!({ "seat": 0 })),
            )
            .await,
    );
    assert_ne!(again, t0);
    let old = ada.get_with(&format!("/api/games/{casual}"), &t0).await;
    assert_eq!(
        old.body["error"], "wrong_token",
        "the old device's token is revoked"
    );
    assert_eq!(
        Browser::new(one)
            .send("GET", "/api/me/games", None)
            .await
            .status,
        401
    );

    // Bea deletes her account: her games show a deleted player, her profile is gone.
    let a = bea
        .send(
            "DELETE",
            "/api/me",
            Some(json!({ "password": "Bea's secret" })),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    for url in [one, two] {
        let s = Browser::new(url)
            .send("GET", &format!("/api/games/{rated}"), None)
            .await
            .body;
        assert_eq!(
            (
                s["seats"][1].get("name"),
                s["seats"][1]["deleted"].as_bool()
            ),
            (None, Some(true)),
            "{url}"
        );
        let record = Browser::new(url)
            .send("GET", &format!("/api/games/{rated}/record"), None)
            .await
            .body;
        assert_eq!(record["names"], json!(["Ada", "a deleted player"]));
    }
    assert_eq!(
        Browser::new(one)
            .send("GET", "/api/players/bea", None)
            .await
            .status,
        404
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("p.db")).unwrap());
    let url = serve(store).await;
    players(&url, &url).await;
}

/// The second server reads the same file as a server restarted on it would: the game, the
/// seats and the ratings as the first left them (and rates nothing twice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_sqlite_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.db");
    let open = || -> Arc<dyn Store> { Arc::new(SqliteStore::open_with(&path, false).unwrap()) };
    let (one, two) = (serve(open()).await, serve(open()).await);
    players(&one, &two).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_postgres_with_two_servers() {
    let Some(db) = TestDatabase::create("players_on_postgres_with_two_servers").await else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, two) = (serve(a).await, serve(b).await);
    players(&one, &two).await;
}
