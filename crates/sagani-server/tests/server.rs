//! The server against real HTTP and WebSocket clients on 127.0.0.1.

mod common;

use common::intercepted::{Intercepted, LAND_BUT_FAIL, REFUSE, WRITE};
use common::{open_limits, start, start_with, stored_deck, Watcher};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::record::{Record, RecordedGame};
use sagani_server::store::{SqliteStore, Store};
use sagani_server::Config;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

fn version(state: &Value) -> u64 {
    state["version"].as_u64().expect("a version")
}

fn random_legal(state: &Value, rng: &mut SmallRng) -> Value {
    let legal = state["legal"].as_array().expect("legal moves");
    assert!(!legal.is_empty(), "no legal move in {state}");
    legal[rng.random_range(0..legal.len())].clone()
}

/// The status of a GET of `path` sent exactly as written (HTTP clients remove `.` segments).
async fn raw_status(url: &str, path: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    text.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The game once `token`'s seat must act or it is over.
async fn my_turn_or_over(server: &common::TestServer, game: &str, token: &str) -> Value {
    server
        .wait_for(game, Some(token), |s| {
            s["view"]["over"] == true || !s["legal"].as_array().unwrap().is_empty()
        })
        .await
}

/// The version a payload speaks of, if it speaks of one.
fn payload_version(v: &Value) -> Option<u64> {
    v.get("version")
        .or_else(|| v.get("state").and_then(|s| s.get("version")))
        .and_then(Value::as_u64)
}

/// Runs of 3 tiles of the pile still hidden at each version, in draw order, as they would
/// read in JSON. Runs that ascend are left out: the pile's contents are public, sorted.
fn hidden_runs(record: &Record, version: u64) -> Vec<String> {
    let mut prefix = record.clone();
    prefix.moves.truncate(version as usize);
    let game = prefix.replay().expect("a prefix replays");
    let hidden = &record.deck[record.deck.len() - game.draw_pile_len()..];
    hidden
        .windows(3)
        .filter(|w| !(w[0] < w[1] && w[1] < w[2]))
        .map(|w| format!("{},{},{}", w[0], w[1], w[2]))
        .collect()
}

/// Searches payloads for the hidden order of the draw pile. (There is no seed to search for:
/// the server shuffles with the operating system's randomness and stores the deck.)
fn assert_no_secrets(payloads: &[String], record: &Record) {
    let mut runs_at = std::collections::HashMap::new();
    let mut last_version = 0;
    for text in payloads {
        let compact = text.replace(' ', "");
        let v: Value = serde_json::from_str(text).expect("payloads are JSON");
        let version = payload_version(&v).unwrap_or(last_version);
        last_version = version;
        let runs = runs_at
            .entry(version)
            .or_insert_with(|| hidden_runs(record, version));
        for run in runs.iter() {
            // Whole numbers only: the public pile list `…,10,11,12,…` holds `10,11,1` as text.
            for (open, close) in [("[", ","), ("[", "]"), (",", ","), (",", "]")] {
                assert!(
                    !compact.contains(&format!("{open}{run}{close}")),
                    "hidden draw order {run} (version {version}) is in a payload: {text}"
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_human_against_a_bot_reveals_nothing_until_it_is_over() {
    // The test moves at machine speed: without move limits (they have their own test).
    let server = start(open_limits()).await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 1}]))
        .await;
    assert_eq!(invites.len(), 1, "one invite for the one human seat");
    let spectator = Watcher::connect(&server.ws_url(&game, None)).await;
    let token = server.join(&game, &invites[0]).await;
    let seat = Watcher::connect(&server.ws_url(&game, Some(&token))).await;

    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves_by_me = 0;
    let mut reconnected = None;
    loop {
        let s = my_turn_or_over(&server, &game, &token).await;
        if s["view"]["over"] == true {
            break;
        }
        assert_eq!(s["you"], 0);
        assert!(s.get("outcome").is_none(), "no outcome before the end");
        let mv = random_legal(&s, &mut rng);
        let a = server.play(&game, &token, version(&s), &mv).await;
        assert_eq!(a.status, 200, "{:?}", a.body);
        assert_eq!(a.body["applied"], true);
        assert_eq!(version(&a.body["state"]), version(&s) + 1);
        moves_by_me += 1;
        if moves_by_me == 10 {
            // A client that comes back mid-game gets the whole current state at once.
            let w = Watcher::connect(&server.ws_url(&game, Some(&token))).await;
            let first = w.wait_for(|_| true).await;
            assert!(version(&first) > version(&s));
            assert_eq!(first["you"], 0);
            reconnected = Some(w);
        }
    }
    assert!(moves_by_me > 10);
    assert!(reconnected.is_some());
    let end = server.state(&game, Some(&token)).await;
    assert_eq!(end["status"], "over");
    // The engine's outcome comes with the end, and only then.
    assert_eq!(end["outcome"]["kind"], "ranking");
    assert_eq!(end["outcome"]["ranking"], end["view"]["ranking"]);
    let final_version = version(&end);

    // The watchers saw the game to its end, and every move on the way exactly once.
    let last = spectator.wait_for(|s| version(s) == final_version).await;
    assert_eq!(last["view"]["over"], true);
    assert!(last.get("you").is_none(), "a spectator has no seat");
    let versions: Vec<u64> = spectator.states().iter().map(version).collect();
    assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
    let told: Vec<u64> = spectator
        .updates()
        .iter()
        .flat_map(|u| u["moves"].as_array().unwrap().clone())
        .map(|m| m["version"].as_u64().unwrap())
        .collect();
    assert_eq!(told, (versions[0]..final_version).collect::<Vec<_>>());
    seat.wait_for(|s| version(s) == final_version).await;

    // The record is given out now, and replays to the same end.
    let r = server
        .client
        .get(format!("{}/api/games/{game}/record", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let record = Record::from_json(&text).expect("a valid record");
    assert_eq!(record.moves.len() as u64, final_version);
    let replayed = RecordedGame::from_record(record.clone()).unwrap();
    assert!(replayed.game().is_over());
    assert_eq!(
        serde_json::to_value(replayed.game().view(None)).unwrap(),
        last["view"]
    );

    // Nothing before the end held the hidden draw order.
    assert_eq!(stored_deck(&server.db, &game), record.deck);
    let mut payloads: Vec<String> = server.payloads.lock().unwrap().clone();
    payloads.pop(); // the final state is over: everything may be known
    payloads.extend(spectator.messages.lock().unwrap().iter().cloned());
    payloads.extend(seat.messages.lock().unwrap().iter().cloned());
    payloads.extend(
        reconnected
            .unwrap()
            .messages
            .lock()
            .unwrap()
            .iter()
            .cloned(),
    );
    assert!(payloads.len() > 2 * final_version as usize);
    assert_no_secrets(&payloads, &record);
}

/// The secret search itself finds the pile's order when it is there.
#[test]
fn the_secret_search_can_fail() {
    let game = RecordedGame::new(&sagani_core::Setup::seeded(2, 99)).unwrap();
    let record = game.record().clone();
    let leak = serde_json::to_string(&json!({ "version": 0, "pile": record.deck })).unwrap();
    let caught = std::panic::catch_unwind(|| assert_no_secrets(&[leak], &record));
    assert!(caught.is_err());
    let view =
        serde_json::to_string(&json!({"version": 0, "view": game.game().view(Some(0))})).unwrap();
    assert_no_secrets(&[view], &record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_tokens_versions_and_retries() {
    let server = start(open_limits()).await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "human"}]))
        .await;
    let path = format!("/api/games/{game}/moves");

    // Invites: each claims its seat once.
    let bad = server
        .post(
            &format!("/api/games/{game}/join"),
            None,
            json!({"invite": "00"}),
        )
        .await;
    assert_eq!(
        (bad.status, bad.body["error"].as_str()),
        (403, Some("wrong_invite"))
    );
    let first = server.join(&game, &invites[0]).await;
    assert_eq!(server.state(&game, Some(&first)).await["you"], 0);
    // The invite claims the seat again (a lost answer, another device): the old token goes.
    let t0 = server.join(&game, &invites[0]).await;
    assert_ne!(first, t0);
    let old = server
        .get(&format!("/api/games/{game}"), Some(&first))
        .await;
    assert_eq!(
        (old.status, old.body["error"].as_str()),
        (403, Some("wrong_token"))
    );
    assert_eq!(server.state(&game, Some(&t0)).await["you"], 0);
    let private = server
        .post(&format!("/api/games/{game}/join"), None, json!({"seat": 1}))
        .await;
    assert_eq!(
        private.status, 403,
        "a private game's seat needs its invite"
    );
    assert_eq!(server.state(&game, None).await["status"], "waiting");
    let t1 = server.join(&game, &invites[1]).await;
    assert_ne!(t0, t1);
    assert!(t0.len() >= 32, "at least 128 bits");
    assert_eq!(server.state(&game, None).await["status"], "playing");

    let s = server.state(&game, Some(&t0)).await;
    let to_act = s["view"]["next"]["player"].as_u64().unwrap() as usize;
    let (mine, theirs) = if to_act == 0 { (&t0, &t1) } else { (&t1, &t0) };
    let s = server.state(&game, Some(mine)).await;
    let mv = s["legal"][0].clone();
    assert_eq!(server.state(&game, Some(theirs)).await["legal"], json!([]));

    // No token, a wrong token, the other seat's token: refused, nothing changes.
    let a = server
        .post(&path, None, json!({"version": 0, "move": mv}))
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (401, Some("missing_token"))
    );
    let a = server.play(&game, &"ab".repeat(32), 0, &mv).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("wrong_token"))
    );
    let a = server
        .get(&format!("/api/games/{game}"), Some("nonsense"))
        .await;
    assert_eq!(a.status, 403);
    let a = server.play(&game, theirs, 0, &mv).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (409, Some("not_your_turn"))
    );
    // An illegal move: the engine's reason, nothing changes.
    let a = server
        .play(
            &game,
            mine,
            0,
            &json!({"action": "place", "tile": 1, "x": 5, "y": 5, "rot": 0}),
        )
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (422, Some("illegal_move"))
    );
    assert!(!a.body["message"].as_str().unwrap().is_empty());
    let a = server
        .play(&game, mine, 0, &json!({"action": "pass"}))
        .await;
    assert_eq!(a.status, 422);
    assert!(
        a.body["message"].as_str().unwrap().contains("intermezzo"),
        "{:?}",
        a.body
    );
    assert_eq!(version(&server.state(&game, None).await), 0);
    assert_eq!(common::count_moves(&server.db, &game), 0);

    // The move, then the same move again (a retry): applied once.
    let a = server.play(&game, mine, 0, &mv).await;
    assert_eq!((a.status, &a.body["applied"]), (200, &json!(true)));
    let a = server.play(&game, mine, 0, &mv).await;
    assert_eq!(
        (a.status, &a.body["applied"]),
        (200, &json!(false)),
        "{:?}",
        a.body
    );
    assert_eq!(version(&a.body["state"]), 1);
    assert_eq!(common::count_moves(&server.db, &game), 1);
    // A different move against the old version is stale.
    let other = s["legal"][1].clone();
    let a = server.play(&game, mine, 0, &other).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (409, Some("stale_version"))
    );
    assert_eq!(a.body["version"], 1);
    let a = server.play(&game, mine, 7, &other).await;
    assert_eq!(a.status, 409, "a version from the future is refused too");

    // A spectator watches and receives updates, but cannot move.
    let watcher = Watcher::connect(&server.ws_url(&game, None)).await;
    watcher.wait_for(|s| version(s) == 1).await;
    let s = server.state(&game, None).await;
    assert_eq!(s["legal"], json!([]));
    assert!(s.get("you").is_none());
    let next = s["view"]["next"]["player"].as_u64().unwrap() as usize;
    let actor = if next == 0 { &t0 } else { &t1 };
    let s = server.state(&game, Some(actor)).await;
    let mv = s["legal"][0].clone();
    let a = server
        .post(&path, None, json!({"version": 1, "move": mv}))
        .await;
    assert_eq!(a.status, 401, "a spectator has no token to move with");
    let a = server.play(&game, actor, 1, &mv).await;
    assert_eq!(a.status, 200);
    watcher.wait_for(|s| version(s) == 2).await;
    let bad_ws = tokio_tungstenite::connect_async(server.ws_url(&game, Some("nonsense"))).await;
    assert!(bad_ws.is_err(), "a WebSocket with a wrong token is refused");

    // The record waits for the end.
    let a = server.get(&format!("/api/games/{game}/record"), None).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (409, Some("game_in_progress"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn previews_lobby_and_bad_requests() {
    let server = start(open_limits()).await;
    let (game, invites) = server.create(json!([{"kind": "human"}])).await;
    let token = server.join(&game, &invites[0]).await;
    let s = server.state(&game, Some(&token)).await;
    assert_eq!(s["view"]["variant"], "solo");
    let mv = s["legal"][0].clone();
    let a = server
        .post(
            &format!("/api/games/{game}/preview"),
            None,
            json!({"move": mv}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["preview"]["tile"], mv["tile"]);
    let a = server
        .post(
            &format!("/api/games/{game}/preview"),
            None,
            json!({"move": {"action": "pass"}}),
        )
        .await;
    assert_eq!(a.status, 422);
    assert_eq!(
        version(&server.state(&game, None).await),
        0,
        "a preview changes nothing"
    );

    // The lobby lists public games only; their free seats can be claimed without invites.
    let a = server
        .post(
            "/api/games",
            None,
            json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "public": true}),
        )
        .await;
    assert_eq!(a.status, 201);
    let public = a.body["game"].as_str().unwrap().to_string();
    let creators_invite = a.body["invites"][0]["code"].as_str().unwrap().to_string();
    let lobby = server.get("/api/games", None).await;
    let ids: Vec<&str> = lobby.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![public.as_str()]);
    let join = format!("/api/games/{public}/join");
    let a = server.post(&join, None, json!({"seat": 1})).await;
    assert_eq!(a.status, 409, "seat 1 is a bot's");
    let a = server.post(&join, None, json!({"seat": 0})).await;
    assert_eq!(a.status, 200);
    let stranger = a.body["token"].as_str().unwrap().to_string();
    let a = server.post(&join, None, json!({"seat": 0})).await;
    assert_eq!(a.status, 409, "a seat taken by number stays taken");
    // Nor can the creator's invite take it over.
    let a = server
        .post(&join, None, json!({"invite": creators_invite}))
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("wrong_invite"))
    );
    assert_eq!(server.state(&public, Some(&stranger)).await["you"], 0);

    // A seat claimed again by its invite: the old token's WebSocket is closed.
    let w = Watcher::connect(&server.ws_url(&game, Some(&token))).await;
    w.wait_for(|_| true).await;
    let fresh = server.join(&game, &invites[0]).await;
    let s = server.state(&game, Some(&fresh)).await;
    let a = server
        .play(&game, &fresh, version(&s), &s["legal"][0])
        .await;
    assert_eq!(a.status, 200);
    w.wait_closed().await;
    assert_eq!(w.states().len(), 1, "nothing more for a revoked token");

    // Bad requests get clear JSON errors.
    for (body, needle) in [
        (json!({"seats": []}), "1 to 4 seats"),
        (
            json!({"seats": vec![json!({"kind": "human"}); 5]}),
            "1 to 4 seats",
        ),
        (
            json!({"seats": [{"kind": "human"}], "variant": "standard"}),
            "2 to 4 seats",
        ),
        (
            json!({"seats": [{"kind": "human"}, {"kind": "human"}], "variant": "blitz"}),
            "unknown variant",
        ),
        (
            json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "deep-blue"}]}),
            "unknown bot",
        ),
        (
            json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 9}]}),
            "1 to 8",
        ),
        (json!({"seats": [{"kind": "alien"}]}), "kind"),
        (json!({"seat": [{"kind": "human"}]}), "seat"),
        (
            json!({"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]}),
            "human seat",
        ),
    ] {
        let a = server.post("/api/games", None, body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {:?}", a.body);
        assert_eq!(a.body["error"], "bad_request");
        let message = a.body["message"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
    let a = server.post_raw("/api/games", b"{not json".to_vec()).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (400, Some("bad_request"))
    );
    let a = server.post_raw("/api/games", vec![b' '; 100_000]).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (413, Some("body_too_large"))
    );
    let a = server.get("/api/games/0000", None).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (404, Some("not_found"))
    );
    let a = server.get("/no/such/page", None).await;
    assert_eq!(a.status, 404);
    let a = server.get("/healthz", None).await;
    assert_eq!((a.status, a.body["status"].as_str()), (200, Some("ok")));
    let a = server
        .get(&format!("/api/games/{game}/preview"), None)
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (405, Some("method_not_allowed"))
    );
    let r = server
        .client
        .post(format!("{}/api/games", server.url))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "bad_content_type");
    let a = server.get(&format!("/api/games/{game}/ws"), None).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (426, Some("not_a_websocket")),
        "a WebSocket route without an upgrade: {:?}",
        a.body
    );
    // The scheme name of the token is case-insensitive.
    let r = server
        .client
        .get(format!("{}/api/games/{game}", server.url))
        .header("authorization", format!("bearer {fresh}"))
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["you"], 0);
    // The links handed out lead to the page, which keeps invites out of referrers and runs
    // nothing but its own scripts.
    for path in [
        "/".to_string(),
        format!("/games/{game}"),
        format!("/games/{game}/join/{}", invites[0]),
    ] {
        let r = server
            .client
            .get(format!("{}{path}", server.url))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()["referrer-policy"], "no-referrer", "{path}");
        let csp = r.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(
            r.text().await.unwrap().contains("/assets/main.js"),
            "{path}"
        );
    }
    let r = server
        .client
        .get(format!("{}/assets/main.js", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
    let etag = r.headers()["etag"].clone();
    let r = server
        .client
        .get(format!("{}/assets/main.js", server.url))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 304);
    for missing in [
        "/assets/nope.js",
        "/assets/e2e/package.json",
        "/assets/index.html",
    ] {
        let a = server.get(missing, None).await;
        assert_eq!(
            (a.status, a.body["error"].as_str()),
            (404, Some("not_found")),
            "{missing}"
        );
    }
    // Paths as sent, without the client tidying them: no way around the exclusions.
    for sneaky in [
        "/assets/./e2e/package.json",
        "/assets/./index.html",
        "/assets/../Cargo.toml",
    ] {
        assert_eq!(raw_status(&server.url, sneaky).await, 404, "{sneaky}");
    }
    assert_eq!(raw_status(&server.url, "/assets/main.js").await, 200);
    // The tiles as printed, from the engine's table: 18 of each element, 50 arrows of each.
    let a = server.get("/api/tiles", None).await;
    let tiles = a.body["tiles"].as_array().unwrap();
    assert_eq!(tiles.len(), 72);
    for element in ["fire", "water", "earth", "air"] {
        let of = tiles.iter().filter(|t| t["element"] == element).count();
        let arrows: usize = tiles
            .iter()
            .flat_map(|t| t["arrows"].as_array().unwrap())
            .filter(|a| a["element"] == element)
            .count();
        assert_eq!((of, arrows), (18, 50), "{element}");
    }
    assert_eq!(
        tiles[2]["arrows"][0],
        json!({"direction": "N", "element": "air"})
    );
    // Tile 3: an air arrow up and a fire arrow up-left; a quarter turn points them E and NE.
    assert_eq!(tiles[2]["rotations"][0], tiles[2]["arrows"]);
    assert_eq!(
        tiles[2]["rotations"][1],
        json!([{"direction": "E", "element": "air"}, {"direction": "NE", "element": "fire"}])
    );
    // The moves so far, public: one per version.
    let state = server.get(&format!("/api/games/{game}"), None).await;
    let a = server.get(&format!("/api/games/{game}/moves"), None).await;
    assert_eq!(
        a.body["moves"].as_array().unwrap().len() as u64,
        state.body["version"].as_u64().unwrap()
    );
    assert_eq!(a.body["moves"][0]["version"], 0);

    // The OpenAPI document names every route.
    let a = server.get("/api/openapi.json", None).await;
    assert_eq!(a.status, 200);
    let paths = a.body["paths"].as_object().unwrap();
    for p in [
        "/healthz",
        "/api/tiles",
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/join",
        "/api/games/{id}/moves",
        "/api/games/{id}/preview",
        "/api/games/{id}/rematch",
        "/api/games/{id}/record",
        "/api/games/{id}/ws",
    ] {
        assert!(
            paths.contains_key(p),
            "{p} is missing from the OpenAPI document"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_refuse_with_json() {
    let server = start(common::limits(1, 0, 2)).await;
    // Many creations at once: exactly the limit's worth gets through.
    let creations: Vec<_> = (0..10)
        .map(|_| {
            let (client, url) = (server.client.clone(), server.url.clone());
            tokio::spawn(async move {
                let r = client
                    .post(format!("{url}/api/games"))
                    .json(&json!({"seats": [{"kind": "human"}]}))
                    .send()
                    .await
                    .unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap())
            })
        })
        .collect();
    let mut created = Vec::new();
    for c in creations {
        let (status, body) = c.await.unwrap();
        match status {
            201 => created.push(body),
            429 => assert_eq!(body["error"], "too_many_games"),
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(created.len(), 2);
    let a = server
        .post("/api/games", None, json!({"seats": [{"kind": "human"}]}))
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (429, Some("too_many_games"))
    );
    let game = created[0]["game"].as_str().unwrap().to_string();
    let invites = [created[0]["invites"][0]["code"]
        .as_str()
        .unwrap()
        .to_string()];

    let token = server.join(&game, &invites[0]).await;
    let mut limited = 0;
    for _ in 0..6 {
        // Stale moves count too: the limit is on requests, before any work.
        let a = server
            .play(&game, &token, 99, &json!({"action": "pass"}))
            .await;
        if a.status == 429 {
            assert_eq!(a.body["error"], "rate_limited");
            assert!(a.headers.contains_key("retry-after"));
            limited += 1;
        } else {
            assert_eq!(a.status, 409);
        }
    }
    assert!(
        limited >= 3,
        "a burst of 2 then refusals, got {limited} refusals"
    );
    // Claims are limited per address too (5 a second by default, bursts of 10).
    let game = created[0]["game"].as_str().unwrap().to_string();
    let mut claims = Vec::new();
    for _ in 0..15 {
        let a = server
            .post(
                &format!("/api/games/{game}/join"),
                None,
                json!({"invite": "not a code"}),
            )
            .await;
        claims.push((a.status, a.body["error"].as_str().unwrap_or("").to_string()));
    }
    // A burst goes through (and is refused for its wrong invite), then the limit holds.
    let burst = claims.iter().take_while(|(s, _)| *s == 403).count();
    assert!((5..=10).contains(&burst), "{claims:?}");
    assert!(
        claims[burst..]
            .iter()
            .all(|(s, e)| *s == 429 && e == "rate_limited"),
        "{claims:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_address_move_limit_counts_every_seat() {
    let server = start(common::limits(0, 1, 0)).await;
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (game, invites) = server.create(json!([{"kind": "human"}])).await;
        tokens.push((game.clone(), server.join(&game, &invites[0]).await));
    }
    let mut statuses = Vec::new();
    for (game, token) in tokens.iter().cycle().take(6) {
        statuses.push(
            server
                .play(game, token, 99, &json!({"action": "pass"}))
                .await
                .status,
        );
    }
    // A burst of 2 for the address, whatever the seat.
    assert_eq!(&statuses[..2], &[409, 409]);
    assert!(
        statuses[2..].iter().filter(|&&s| s == 429).count() >= 3,
        "{statuses:?}"
    );
}

/// A server whose store fails `seat`'s moves as the returned switch says.
/// Also gives the number of moves refused so far.
async fn flaky_server(
    seat: u8,
) -> (
    common::TestServer,
    Arc<AtomicU8>,
    Arc<std::sync::atomic::AtomicUsize>,
) {
    let mode = Arc::new(AtomicU8::new(WRITE));
    let refused = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (switch, count) = (mode.clone(), refused.clone());
    let server = start_with(open_limits(), move |inner| {
        let mut store = Intercepted::new(inner, seat, mode);
        store.refused = count;
        Arc::new(store)
    })
    .await;
    (server, switch, refused)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_store_changes_nothing_and_bots_carry_on_after_it() {
    let (server, mode, _refused) = flaky_server(1).await;
    // Seat 1 is a human here: its moves fail on demand.
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "human"}]))
        .await;
    let tokens = [
        server.join(&game, &invites[0]).await,
        server.join(&game, &invites[1]).await,
    ];
    let mut s = server.state(&game, None).await;
    while s["view"]["next"]["player"] != 1 {
        let t = &tokens[s["view"]["next"]["player"].as_u64().unwrap() as usize];
        let me = server.state(&game, Some(t)).await;
        assert_eq!(
            server
                .play(&game, t, version(&me), &me["legal"][0])
                .await
                .status,
            200
        );
        s = server.state(&game, None).await;
    }
    let me = server.state(&game, Some(&tokens[1])).await;
    let (v, mv) = (version(&me), me["legal"][0].clone());

    mode.store(REFUSE, Ordering::SeqCst);
    let a = server.play(&game, &tokens[1], v, &mv).await;
    assert_eq!((a.status, a.body["error"].as_str()), (503, Some("storage")));
    assert!(
        !a.body["message"].as_str().unwrap().contains("fire"),
        "store details stay in the log"
    );
    assert_eq!(
        version(&server.state(&game, None).await),
        v,
        "nothing changed"
    );

    // The write lands but its answer is lost: the server reads the store back, and the
    // client's retry is recognised.
    mode.store(LAND_BUT_FAIL, Ordering::SeqCst);
    let a = server.play(&game, &tokens[1], v, &mv).await;
    assert_eq!(a.status, 503);
    assert_eq!(
        version(&server.state(&game, None).await),
        v + 1,
        "the store has it"
    );
    mode.store(WRITE, Ordering::SeqCst);
    let a = server.play(&game, &tokens[1], v, &mv).await;
    assert_eq!((a.status, &a.body["applied"]), (200, &json!(false)));

    // A bot whose move cannot be stored tries again until it can.
    let (server, mode, refused) = flaky_server(1).await;
    // (If the bot starts, its first move must land before its writes are refused.)
    let (game, token, s) = human_to_act_against_a_bot(&server).await;
    mode.store(REFUSE, Ordering::SeqCst);
    let a = server
        .play(&game, &token, version(&s), &s["legal"][0])
        .await;
    assert_eq!(a.status, 200);
    let played = version(&a.body["state"]);
    let stored = || common::count_moves(&server.db, &game);
    // Refused once at least, then let through: the bot's own retry lands.
    wait_until(|| refused.load(Ordering::SeqCst) > 0).await;
    assert_eq!(stored(), played, "the bot's move is refused");
    mode.store(WRITE, Ordering::SeqCst);
    wait_until(|| stored() > played).await;

    // A human's move lands but its answer is lost: the bot after it still gets its turn.
    let (server, mode, _refused) = flaky_server(0).await;
    let (game, token, s) = human_to_act_against_a_bot(&server).await;
    mode.store(LAND_BUT_FAIL, Ordering::SeqCst);
    let a = server
        .play(&game, &token, version(&s), &s["legal"][0])
        .await;
    assert_eq!(a.status, 503);
    let stored = || common::count_moves(&server.db, &game);
    wait_until(|| stored() > version(&s) + 1).await;
}

/// A new game of a human (seat 0) against a random bot, once the human is to act: its id,
/// the human's token and state.
async fn human_to_act_against_a_bot(server: &common::TestServer) -> (String, String, Value) {
    human_to_act_against_a_bot_named(server, "random").await
}

async fn human_to_act_against_a_bot_named(
    server: &common::TestServer,
    bot: &str,
) -> (String, String, Value) {
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "bot", "bot": bot}]))
        .await;
    let token = server.join(&game, &invites[0]).await;
    let s = server
        .wait_for(&game, Some(&token), |s| {
            !s["legal"].as_array().unwrap().is_empty()
        })
        .await;
    (game, token, s)
}

/// Waits up to 30 s for `done`, without asking the server anything.
async fn wait_until(done: impl Fn() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("not done in 30 s");
}

// One worker thread: a bot thinking on it instead of a blocking thread would stall it all.
#[tokio::test(flavor = "current_thread")]
async fn a_thinking_bot_does_not_hold_up_the_server() {
    let (bots, arm, release) = held_mcts();
    let server = start(Config {
        bots,
        bot_threads: 1,
        ..open_limits()
    })
    .await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 8}]))
        .await;
    let token = server.join(&game, &invites[0]).await;
    let s = server
        .wait_for(&game, Some(&token), |s| {
            !s["legal"].as_array().unwrap().is_empty()
        })
        .await;
    arm.store(true, Ordering::SeqCst);
    let a = server
        .play(&game, &token, version(&s), &s["legal"][0])
        .await;
    assert_eq!(a.status, 200);
    let thinking = version(&a.body["state"]);
    // While the bot thinks (held on its blocking thread), the server answers everyone else.
    let (other, other_invites) = server.create(json!([{"kind": "human"}])).await;
    let other_token = server.join(&other, &other_invites[0]).await;
    let o = server.state(&other, Some(&other_token)).await;
    assert_eq!(
        server
            .play(&other, &other_token, 0, &o["legal"][0])
            .await
            .status,
        200
    );
    assert_eq!(server.get("/healthz", None).await.status, 200);
    assert_eq!(
        version(&server.state(&game, None).await),
        thinking,
        "all that was answered while the bot was still thinking"
    );
    release.send(()).unwrap();
    server
        .wait_for(&game, None, |s| version(s) > thinking)
        .await;
}

/// `--deck-seed`: the same seed deals the same decks in the same order, game after game;
/// without it every deck is fresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deck_seed_deals_repeatable_games() {
    let seeded = || sagani_server::Config {
        deck_seed: Some(11),
        ..common::open_limits()
    };
    let seats = json!([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]);
    let mut decks = Vec::new();
    for config in [seeded(), seeded(), common::open_limits()] {
        let server = start(config).await;
        let mut dealt = Vec::new();
        for _ in 0..2 {
            let (game, _) = server.create(seats.clone()).await;
            let start = server.state(&game, None).await["view"]["start_player"].as_u64();
            dealt.push((common::stored_deck(&server.db, &game), start));
        }
        assert_ne!(dealt[0].0, dealt[1].0, "each game gets its own deck");
        decks.push(dealt);
    }
    assert_eq!(decks[0], decks[1], "the same seed deals the same decks");
    assert_ne!(decks[0], decks[2], "without a seed the decks are fresh");
    for (k, (deck, start)) in decks[0].iter().enumerate() {
        let (want, want_start) = sagani_core::shuffled_deck(11 + k as u64, 2);
        assert_eq!(
            (deck, *start),
            (&want.to_vec(), Some(u64::from(want_start))),
            "game {k} is dealt from seed S+{k}"
        );
    }
}

/// A rematch: only a player of a finished game asks for it; everyone gets the same new game,
/// where each person holds the same seat with the same token; the link survives a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_keeps_the_seats_and_is_asked_for_once() {
    let created = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = created.clone();
    let server = common::start_with(common::open_limits(), move |inner| {
        let mut store = Intercepted::new(inner, 9, Arc::new(AtomicU8::new(WRITE)));
        store.created = count;
        Arc::new(store)
    })
    .await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "bot", "bot": "random"}]))
        .await;
    let token = server.join(&game, &invites[0]).await;
    let rematch = format!("/api/games/{game}/rematch");
    let a = server.post(&rematch, Some(&token), json!(null)).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (409, Some("game_in_progress"))
    );
    // The human plays at random until the game is over.
    let mut rng = SmallRng::seed_from_u64(3);
    loop {
        let s = my_turn_or_over(&server, &game, &token).await;
        if s["view"]["over"] == true {
            assert!(s.get("rematch").is_none());
            break;
        }
        let a = server
            .play(&game, &token, version(&s), &random_legal(&s, &mut rng))
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
    }
    let a = server.post(&rematch, Some("nonsense"), json!(null)).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("wrong_token"))
    );
    let a = server.post(&rematch, None, json!(null)).await;
    assert_eq!(a.status, 401);
    // Two at once: the same game, created once.
    let asks: Vec<_> = (0..2)
        .map(|_| {
            let (client, url, token) = (server.client.clone(), server.url.clone(), token.clone());
            let path = rematch.clone();
            tokio::spawn(async move {
                let r = client
                    .post(format!("{url}{path}"))
                    .bearer_auth(token)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), 200);
                r.json::<Value>().await.unwrap()
            })
        })
        .collect();
    let mut ids = Vec::new();
    for ask in asks {
        ids.push(ask.await.unwrap()["game"].as_str().unwrap().to_string());
    }
    assert_eq!(ids[0], ids[1]);
    let next = ids[0].clone();
    assert_ne!(next, game);
    assert_eq!(
        created.load(Ordering::SeqCst),
        2,
        "the game and one rematch"
    );
    // The old game names it for everyone; the same token plays the same seat there, and the
    // bot plays if it starts.
    assert_eq!(server.state(&game, None).await["rematch"], json!(next));
    let s = my_turn_or_over(&server, &next, &token).await;
    assert_eq!(
        (s["you"].as_u64(), s["status"].as_str()),
        (Some(0), Some("playing"))
    );
    assert_eq!(s["seats"][1]["bot"], "random");
    // The invite claims the seat of the old game again: the old token is revoked there and in
    // the rematch it was copied to.
    let again = server.join(&game, &invites[0]).await;
    for id in [&game, &next] {
        let a = server.get(&format!("/api/games/{id}"), Some(&token)).await;
        assert_eq!(
            (a.status, a.body["error"].as_str()),
            (403, Some("wrong_token")),
            "{id}"
        );
        assert_eq!(server.state(id, Some(&again)).await["you"], 0);
    }
    // The seat's invite claims it in the rematch too (a player who lost the token).
    let fresh = server.join(&next, &invites[0]).await;
    assert_eq!(server.state(&next, Some(&fresh)).await["you"], 0);
    assert_eq!(
        server
            .get(&format!("/api/games/{next}"), Some(&again))
            .await
            .status,
        403
    );
    // In the database, the old game names the rematch.
    let store = SqliteStore::open_with(&server.db, false).expect("opens beside the server");
    assert_eq!(store.game(&game).await.unwrap().rematch, Some(next));
}

/// A bot that panics mid-thought, as a bug in a search might.
struct Panicking;

impl sagani_ai::Bot for Panicking {
    fn name(&self) -> String {
        "panicking".into()
    }
    fn choose(
        &mut self,
        _: &sagani_core::view::View,
        _: &[sagani_core::Move],
        _: sagani_ai::Budget,
    ) -> sagani_ai::Decision {
        panic!("a bug in the bot");
    }
}

/// A bot that panics costs its own decision only: a random legal move is played for it, its
/// game goes on, and so does everyone else's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_bot_takes_down_nothing() {
    let server = start(Config {
        bots: Arc::new(|_: &str, _: u64| Box::new(Panicking) as Box<dyn sagani_ai::Bot>),
        ..open_limits()
    })
    .await;
    let (game, token, s) = human_to_act_against_a_bot(&server).await;
    let a = server
        .play(&game, &token, version(&s), &s["legal"][0])
        .await;
    assert_eq!(a.status, 200);
    let after = version(&a.body["state"]);
    // The bot's turn is played all the same.
    let s = server
        .wait_for(&game, Some(&token), |s| version(s) > after)
        .await;
    assert_eq!(s["last_move"]["seat"], 1);
    let (other, invites) = server.create(json!([{"kind": "human"}])).await;
    let t = server.join(&other, &invites[0]).await;
    let o = server.state(&other, Some(&t)).await;
    assert_eq!(server.play(&other, &t, 0, &o["legal"][0]).await.status, 200);
}

/// A searching bot that holds its decision until the test lets it go: the test then waits
/// for events, not for a search to be slow enough (a level's search has a fixed number of
/// iterations and may end at once on a fast machine). It holds only once armed, so it may
/// open the game at once.
struct Held {
    armed: Arc<std::sync::atomic::AtomicBool>,
    release: Arc<std::sync::Mutex<std::sync::mpsc::Receiver<()>>>,
}

impl sagani_ai::Bot for Held {
    fn name(&self) -> String {
        "held".into()
    }
    fn choose(
        &mut self,
        _: &sagani_core::view::View,
        legal: &[sagani_core::Move],
        _: sagani_ai::Budget,
    ) -> sagani_ai::Decision {
        if self.armed.load(Ordering::SeqCst) {
            // A dropped sender (the test ended) lets it go too; so does a minute, so that a
            // server that wrongly thinks on its async thread fails the test instead of hanging.
            let wait = std::time::Duration::from_secs(60);
            let _ = self.release.lock().unwrap().recv_timeout(wait);
        }
        legal[0].into()
    }
}

/// The standard bots, but mcts is `Held`: the maker, the switch that arms it, and the sender
/// that releases one held decision.
fn held_mcts() -> (
    sagani_server::BotMaker,
    Arc<std::sync::atomic::AtomicBool>,
    std::sync::mpsc::Sender<()>,
) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let held = Arc::new(std::sync::Mutex::new(held));
    let armed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let arm = armed.clone();
    let standard = open_limits().bots;
    let bots: sagani_server::BotMaker = Arc::new(move |name: &str, seed: u64| {
        if name.starts_with("mcts") {
            Box::new(Held {
                armed: armed.clone(),
                release: held.clone(),
            }) as Box<dyn sagani_ai::Bot>
        } else {
            standard(name, seed)
        }
    });
    (bots, arm, release)
}

/// Random and greedy have a worker of their own: they move while every mcts worker searches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_bots_never_wait_behind_a_search() {
    let (bots, arm, release) = held_mcts();
    let server = start(Config {
        bots,
        bot_threads: 1,
        ..open_limits()
    })
    .await;
    let (slow, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 8}]))
        .await;
    let token = server.join(&slow, &invites[0]).await;
    let s = server
        .wait_for(&slow, Some(&token), |s| {
            !s["legal"].as_array().unwrap().is_empty()
        })
        .await;
    arm.store(true, Ordering::SeqCst);
    let a = server
        .play(&slow, &token, version(&s), &s["legal"][0])
        .await;
    assert_eq!(a.status, 200);
    let thinking = version(&a.body["state"]);
    // mcts now holds the only slow worker until released; greedy answers meanwhile.
    let (game, token, s) = human_to_act_against_a_bot_named(&server, "greedy").await;
    let a = server
        .play(&game, &token, version(&s), &s["legal"][0])
        .await;
    let after = version(&a.body["state"]);
    server.wait_for(&game, None, |s| version(s) > after).await;
    assert_eq!(
        version(&server.state(&slow, None).await),
        thinking,
        "mcts moved before it was released"
    );
    // Let the search end: its move is played.
    release.send(()).unwrap();
    server
        .wait_for(&slow, None, |s| version(s) > thinking)
        .await;
}

/// `/healthz` answers from memory: however often it is asked, the store counts its games only
/// in the background, and the counts it gives are that count's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_checks_never_count_the_stored_games() {
    let counted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = counted.clone();
    let server = common::start_with(common::open_limits(), move |inner| {
        let mut store = Intercepted::new(inner, 9, Arc::new(AtomicU8::new(WRITE)));
        store.counted = count;
        Arc::new(store)
    })
    .await;
    server
        .create(json!([{"kind": "human"}, {"kind": "human"}]))
        .await;
    let before = counted.load(Ordering::SeqCst);
    for _ in 0..20 {
        let a = server.get("/healthz", None).await;
        assert_eq!((a.status, a.body["status"].as_str()), (200, Some("ok")));
        if let Some(games) = a.body["games"].as_u64() {
            assert!(games <= 1, "{}", a.body);
        }
    }
    // The background count, once a minute, may have run meanwhile: once at most.
    assert!(counted.load(Ordering::SeqCst) <= before + 1);
}
