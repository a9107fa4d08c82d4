//! What the browser page needs from the server (it knows no rules): each move's effect in the
//! move list, the WebSocket and the state; a WebSocket made a seat's by a message instead of a
//! token in its URL; reasons for illegal moves a page can put in its own words; the page's
//! routes and its assets, compressed.

mod common;

use common::{open_limits, start, Watcher};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::record::Record;
use sagani_core::{Game, Move};
use serde_json::{json, Value};
use std::io::Read;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

fn version(state: &Value) -> u64 {
    state["version"].as_u64().unwrap()
}

/// The effect of every move of `record`, as the engine works it out by replaying it.
fn effects(record: &Record) -> Vec<Value> {
    let mut game = Game::new(&record.setup()).unwrap();
    record
        .moves
        .iter()
        .map(|m| {
            let effect = match m.mv {
                Move::Place { .. } => serde_json::to_value(game.preview(m.mv).unwrap()).unwrap(),
                _ => Value::Null,
            };
            game.play(m.mv).unwrap();
            effect
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_move_comes_with_its_effect_in_the_list_the_socket_and_the_state() {
    let server = start(open_limits()).await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "bot", "bot": "random"}]))
        .await;
    let spectator = Watcher::connect(&server.ws_url(&game, None)).await;
    let token = server.join(&game, &invites[0]).await;
    let mut rng = SmallRng::seed_from_u64(3);
    let mut last_moves = Vec::new();
    loop {
        let s = server
            .wait_for(&game, Some(&token), |s| {
                s["view"]["over"] == true || !s["legal"].as_array().unwrap().is_empty()
            })
            .await;
        if s["view"]["over"] == true {
            break;
        }
        // The intermezzo choice and passes whenever they may be made, so both are listed.
        let legal = s["legal"].as_array().unwrap();
        let mv = legal
            .iter()
            .find(|m| m["action"] != "place")
            .unwrap_or_else(|| &legal[rng.random_range(0..legal.len())])
            .clone();
        let a = server.play(&game, &token, version(&s), &mv).await;
        assert_eq!(a.status, 200, "{:?}", a.body);
        let last = a.body["state"]["last_move"].clone();
        assert_eq!(last["move"], mv);
        if mv["action"] == "place" {
            assert_eq!(last["effect"]["tile"], mv["tile"]);
            assert_eq!(last["effect"]["player"], last["seat"]);
        } else {
            assert!(last.get("effect").is_none(), "{last}");
        }
        last_moves.push(last);
    }
    let end = server.state(&game, None).await;
    let record = Record::from_json(
        &server
            .client
            .get(format!("{}/api/games/{game}/record", server.url))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
    )
    .unwrap();
    let expected = effects(&record);
    assert_eq!(expected.len() as u64, version(&end));
    assert!(expected.iter().any(Value::is_null) && expected.iter().any(Value::is_object));

    // The move list: every move with what the engine says it did.
    let a = server.get(&format!("/api/games/{game}/moves"), None).await;
    let listed = a.body["moves"].as_array().unwrap();
    assert_eq!(listed.len(), expected.len());
    for (n, (m, e)) in listed.iter().zip(&expected).enumerate() {
        assert_eq!(m["version"], n as u64);
        assert_eq!(m.get("effect").unwrap_or(&Value::Null), e, "move {n}");
        if let Some(effect) = m.get("effect") {
            for key in [
                "score_change",
                "points",
                "cacophony",
                "completed",
                "covered",
            ] {
                assert!(effect.get(key).is_some(), "{key} in {effect}");
            }
        }
    }
    for last in &last_moves {
        let n = last["version"].as_u64().unwrap() as usize;
        assert_eq!(last, &listed[n], "the state's last move is the list's");
    }
    assert_eq!(end["last_move"], *listed.last().unwrap());

    // The spectator's socket heard every move with the same effect.
    spectator.wait_for(|s| version(s) == version(&end)).await;
    let heard: Vec<Value> = spectator
        .updates()
        .iter()
        .flat_map(|u| u["moves"].as_array().unwrap().clone())
        .collect();
    let first = version(&spectator.states()[0]) as usize;
    assert_eq!(heard.as_slice(), &listed[first..]);
}

/// A WebSocket client of the test: the messages as they come, each within 30 s.
struct Socket {
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Socket {
    async fn open(url: &str) -> Socket {
        let (socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Socket { socket }
    }

    /// The next text message, or `None` once the server closed the socket.
    async fn next(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(30), self.socket.next())
                .await
                .expect("a message within 30 s");
            match m {
                Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).unwrap()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    async fn send(&mut self, v: Value) {
        self.socket
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_becomes_a_seats_by_an_auth_message() {
    let server = start(open_limits()).await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "human"}]))
        .await;
    let t0 = server.join(&game, &invites[0]).await;
    let t1 = server.join(&game, &invites[1]).await;
    let start = server.state(&game, Some(&t0)).await;
    let to_act = start["view"]["next"]["player"].as_u64().unwrap();
    let token = if to_act == 0 { &t0 } else { &t1 };

    // No token in the URL: a spectator's state first, then the seat's once it says whose.
    let mut s = Socket::open(&server.ws_url(&game, None)).await;
    let first = s.next().await.unwrap();
    assert_eq!(first["type"], "state");
    assert!(first["state"].get("you").is_none());
    assert_eq!(first["state"]["legal"], json!([]));
    s.send(json!({"type": "auth", "token": token})).await;
    let mine = s.next().await.unwrap();
    assert_eq!(mine["type"], "state");
    assert_eq!(mine["state"]["you"], to_act);
    assert_eq!(
        mine["state"]["legal"],
        start_legal(&server, &game, token).await
    );
    assert_eq!(mine["moves"], json!([]), "nothing was played meanwhile");

    // Messages that are not an auth message change nothing; moves go over HTTP.
    s.send(json!({"type": "hello"})).await;
    let mv = mine["state"]["legal"][0].clone();
    let a = server.play(&game, token, version(&start), &mv).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let next = s.next().await.unwrap();
    assert_eq!(next["state"]["you"], to_act, "still the seat's socket");
    assert_eq!(next["moves"][0]["move"], mv);
    assert!(next["moves"][0]["effect"].is_object());

    // A token that holds no seat here: an error, and the socket closes.
    let mut s = Socket::open(&server.ws_url(&game, None)).await;
    assert!(s.next().await.unwrap()["state"].get("you").is_none());
    s.send(json!({"type": "auth", "token": "f00d".repeat(16)}))
        .await;
    let refused = s.next().await.unwrap();
    assert_eq!(refused["type"], "error");
    assert_eq!(refused["error"], "wrong_token");
    assert!(refused["message"].as_str().unwrap().contains("no seat"));
    assert!(s.next().await.is_none(), "closed after the error");

    // The token in the URL still works, for other clients.
    let mut s = Socket::open(&server.ws_url(&game, Some(&t1))).await;
    assert_eq!(s.next().await.unwrap()["state"]["you"], 1);

    // A re-claim revokes a token given by message as it does one given in the URL.
    let mut s = Socket::open(&server.ws_url(&game, None)).await;
    s.next().await.unwrap();
    s.send(json!({"type": "auth", "token": t0})).await;
    assert_eq!(s.next().await.unwrap()["state"]["you"], 0);
    server.join(&game, &invites[0]).await;
    assert!(s.next().await.is_none(), "the old token's socket is closed");
}

async fn start_legal(server: &common::TestServer, game: &str, token: &str) -> Value {
    server.state(game, Some(token)).await["legal"].clone()
}

#[tokio::test]
async fn illegal_moves_and_previews_say_why_in_a_form_a_page_can_word() {
    let server = start(open_limits()).await;
    let (game, invites) = server
        .create(json!([{"kind": "human"}, {"kind": "human"}]))
        .await;
    let t0 = server.join(&game, &invites[0]).await;
    let t1 = server.join(&game, &invites[1]).await;
    let s = server.state(&game, Some(&t0)).await;
    let to_act = s["view"]["next"]["player"].as_u64().unwrap();
    let token = if to_act == 0 { &t0 } else { &t1 };
    let offer = s["view"]["offer"].as_array().unwrap().clone();
    let tile = offer[0].as_u64().unwrap();
    let not_offered = (1..=72u64).find(|t| !offer.contains(&json!(t))).unwrap();
    let preview = format!("/api/games/{game}/preview");
    let cases = [
        (
            json!({"action": "place", "tile": tile, "x": 1, "y": 0, "rot": 0}),
            json!({"kind": "first_tile_not_at_origin", "cell": {"x": 1, "y": 0}, "player": to_act}),
        ),
        (
            json!({"action": "place", "tile": not_offered, "x": 0, "y": 0, "rot": 0}),
            json!({"kind": "not_in_offer", "tile": not_offered}),
        ),
        (
            json!({"action": "place", "tile": 99, "x": 0, "y": 0, "rot": 0}),
            json!({"kind": "unknown_tile", "tile": 99}),
        ),
        (
            json!({"action": "place", "tile": tile, "x": 0, "y": 0, "rot": 4}),
            json!({"kind": "bad_rotation", "rot": 4}),
        ),
        (json!({"action": "pass"}), json!({"kind": "pass_not_now"})),
        (
            json!({"action": "intermezzo", "tile": tile}),
            json!({"kind": "intermezzo_needs_last_offer_tile", "offer_len": 5}),
        ),
    ];
    for (mv, reason) in &cases {
        let a = server.play(&game, token, version(&s), mv).await;
        assert_eq!((a.status, &a.body["error"]), (422, &json!("illegal_move")));
        assert_eq!(&a.body["reason"], reason, "{mv}");
        assert!(!a.body["message"].as_str().unwrap().is_empty());
        if mv["action"] == "place" {
            let a = server.post(&preview, None, json!({ "move": mv })).await;
            assert_eq!((a.status, &a.body["reason"]), (422, reason), "preview {mv}");
        }
    }
    let a = server
        .post(&preview, None, json!({"move": {"action": "pass"}}))
        .await;
    assert_eq!(a.body["reason"], json!({"kind": "not_a_placement"}));

    // Once the first tile lies on (0,0): a taken cell, a cell next to nothing.
    let first = json!({"action": "place", "tile": tile, "x": 0, "y": 0, "rot": 0});
    let a = server.play(&game, token, version(&s), &first).await;
    assert_eq!(a.status, 200);
    let other = if to_act == 0 { &t1 } else { &t0 };
    let s = server.state(&game, Some(other)).await;
    let second = s["view"]["offer"][0].as_u64().unwrap();
    let a = server
        .play(
            &game,
            other,
            version(&s),
            &json!({"action": "place", "tile": second, "x": 0, "y": 0, "rot": 0}),
        )
        .await;
    assert_eq!(a.status, 200);
    let s = server.state(&game, Some(token)).await;
    let third = s["view"]["offer"][0].as_u64().unwrap();
    for (x, y, reason) in [
        (
            0,
            0,
            json!({"kind": "cell_taken", "cell": {"x": 0, "y": 0}, "player": to_act, "tile": tile}),
        ),
        (
            2,
            0,
            json!({"kind": "cell_not_adjacent", "cell": {"x": 2, "y": 0}, "player": to_act}),
        ),
    ] {
        let mv = json!({"action": "place", "tile": third, "x": x, "y": y, "rot": 0});
        let a = server.play(&game, token, version(&s), &mv).await;
        assert_eq!((a.status, &a.body["reason"]), (422, &reason));
    }
    // Refusals that are not the engine's carry no reason.
    let a = server
        .play(&game, other, version(&s), &json!({"action": "pass"}))
        .await;
    assert_eq!(a.body["error"], "not_your_turn");
    assert!(a.body.get("reason").is_none());
}

/// A GET as a browser's address bar sends it.
async fn browse(server: &common::TestServer, path: &str) -> reqwest::Response {
    server
        .client
        .get(format!("{}{path}", server.url))
        .header("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_pages_routes_unknown_pages_and_compressed_assets() {
    let server = start(open_limits()).await;
    for path in ["/rules", "/tutorial", "/about"] {
        let r = browse(&server, path).await;
        assert_eq!(r.status(), 200, "{path}");
        assert!(
            r.text().await.unwrap().contains("/assets/main.js"),
            "{path}"
        );
    }
    // Any other page: the page, with 404, which it shows as "no such page".
    for path in ["/nope", "/games", "/rules/more", "/games/abc/join"] {
        let r = browse(&server, path).await;
        assert_eq!(r.status(), 404, "{path}");
        assert!(r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert!(
            r.text().await.unwrap().contains("/assets/main.js"),
            "{path}"
        );
    }
    // The API, the assets and the operators' routes stay JSON, for browsers too; and so does
    // every other path for a client that does not ask for HTML.
    for path in [
        "/api/nope",
        "/api",
        "/assets/nope.js",
        "/healthz/x",
        "/metrics/x",
    ] {
        let r = browse(&server, path).await;
        assert_eq!(r.status(), 404, "{path}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], "not_found", "{path}");
    }
    let a = server.get("/nope", None).await;
    assert_eq!((a.status, &a.body["error"]), (404, &json!("not_found")));
    let r = server
        .client
        .post(format!("{}/nope", server.url))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    let _: Value = r.json().await.unwrap();

    // The message catalogues are JSON, and every kind of page asset comes compressed.
    let r = server
        .client
        .get(format!("{}/assets/i18n/en.json", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let catalogue: Value = r.json().await.unwrap();
    assert!(catalogue.is_object());
    for (path, kind) in [
        ("/assets/i18n/en.json", "application/json"),
        ("/assets/main.js", "javascript"),
        ("/assets/style.css", "text/css"),
        ("/assets/icon.svg", "image/svg+xml"),
        ("/", "text/html"),
    ] {
        let plain = server
            .client
            .get(format!("{}{path}", server.url))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let r = server
            .client
            .get(format!("{}{path}", server.url))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(
            r.headers()["content-type"].to_str().unwrap().contains(kind),
            "{path}"
        );
        assert_eq!(r.headers()["content-encoding"], "gzip", "{path}");
        let bytes = r.bytes().await.unwrap();
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, plain, "{path}");
    }
}
