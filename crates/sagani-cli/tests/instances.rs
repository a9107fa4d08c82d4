//! Several `sagani serve` on one PostgreSQL database, with every request sent to a server
//! chosen at random: games with bots played to the end while one server is killed -9 and
//! started again; races between servers; a revoked token refused everywhere. Needs
//! `SAGANI_TEST_POSTGRES` (skipped without it).

mod common;

use common::Server;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_server::testing::TestDatabase;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn serve(db: &str) -> Server {
    let mut serve = common::sagani();
    serve
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--bot-think-ms", "40", "--bot-lease-grace-ms", "500"])
        .args(["--bot-sweep-ms", "100", "--moves-per-token", "0"])
        .args(["--moves-per-ip", "0", "--claims-per-ip", "0"])
        .args(["--open-games-per-ip", "0"])
        .env("RUST_LOG", "warn");
    common::started(serve)
}

struct Cluster {
    servers: Vec<Server>,
    client: reqwest::Client,
    rng: Mutex<SmallRng>,
}

struct Answer {
    status: u16,
    body: Value,
}

impl Cluster {
    fn any(&self) -> String {
        let i = self.rng.lock().unwrap().random_range(0..self.servers.len());
        self.servers[i].url.clone()
    }

    async fn send(&self, r: reqwest::RequestBuilder) -> Answer {
        let response = r.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let body = response.json().await.unwrap_or(Value::Null);
        Answer { status, body }
    }

    async fn get_at(&self, url: &str, path: &str, token: Option<&str>) -> Answer {
        let mut r = self.client.get(format!("{url}{path}"));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.send(r).await
    }

    async fn post_at(&self, url: &str, path: &str, token: Option<&str>, body: Value) -> Answer {
        let mut r = self.client.post(format!("{url}{path}")).json(&body);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.send(r).await
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let url = self.any();
        self.get_at(&url, path, token).await
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        let url = self.any();
        self.post_at(&url, path, token, body).await
    }

    async fn create(&self, seats: Value, public: bool) -> (String, Vec<String>) {
        let a = self
            .post(
                "/api/games",
                None,
                json!({"seats": seats, "public": public}),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let invites = a.body["invites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["code"].as_str().unwrap().to_string())
            .collect();
        (a.body["game"].as_str().unwrap().to_string(), invites)
    }

    async fn claim(&self, game: &str, body: Value) -> Answer {
        self.post(&format!("/api/games/{game}/join"), None, body)
            .await
    }
}

/// A WebSocket's messages as they came, each with when, and the latest version it heard.
#[derive(Clone)]
struct Heard {
    log: Arc<Mutex<Vec<(Instant, Value)>>>,
    version: tokio::sync::watch::Receiver<u64>,
}

impl Heard {
    async fn watch(url: &str, game: &str) -> Heard {
        Heard::watch_as(url, game, None).await
    }

    /// With a token, the socket says whose it is by an `auth` message, never in its URL.
    async fn watch_as(url: &str, game: &str, token: Option<&str>) -> Heard {
        let ws = format!("{}/api/games/{game}/ws", url.replace("http://", "ws://"));
        let (mut socket, _) = tokio_tungstenite::connect_async(&ws)
            .await
            .expect("the socket opens");
        if let Some(token) = token {
            let auth = json!({"type": "auth", "token": token}).to_string();
            socket
                .send(tokio_tungstenite::tungstenite::Message::Text(auth.into()))
                .await
                .expect("the auth message goes");
        }
        let log = Arc::new(Mutex::new(Vec::new()));
        let (heard, version) = tokio::sync::watch::channel(0);
        let keep = log.clone();
        tokio::spawn(async move {
            let (_, mut rx) = socket.split();
            while let Some(Ok(m)) = rx.next().await {
                if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    let at = v["state"]["version"].as_u64().unwrap();
                    keep.lock().unwrap().push((Instant::now(), v));
                    heard.send_replace(at);
                }
            }
        });
        Heard { log, version }
    }

    /// Waits until this socket has heard of version `at` (120 s at most).
    async fn reach(&self, what: &str, at: u64) {
        let mut version = self.version.clone();
        tokio::time::timeout(Duration::from_secs(120), version.wait_for(|v| *v >= at))
            .await
            .unwrap_or_else(|_| panic!("{what}: not within 120 s"))
            .expect("the socket is open");
    }

    /// The first version seen, and every move heard after it, in order.
    fn moves(&self) -> (u64, Vec<Value>) {
        let heard = self.log.lock().unwrap();
        let first = heard[0].1["state"]["version"].as_u64().unwrap();
        let moves = heard
            .iter()
            .flat_map(|(_, v)| v["moves"].as_array().unwrap().clone())
            .collect();
        (first, moves)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_servers_on_one_database_play_as_one() {
    let Some(db) = TestDatabase::create("three_servers_on_one_database_play_as_one").await else {
        return;
    };
    let mut cluster = Cluster {
        servers: (0..3).map(|_| serve(&db.url)).collect(),
        client: reqwest::Client::new(),
        rng: Mutex::new(SmallRng::seed_from_u64(13)),
    };

    // A 2-player game against mcts, a 4-player game with two people, random and greedy.
    let mut games = Vec::new();
    for seats in [
        json!([{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 1}]),
        json!([{"kind": "human"}, {"kind": "bot", "bot": "random"},
               {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]),
    ] {
        let (game, invites) = cluster.create(seats, false).await;
        let mut tokens = HashMap::new();
        for invite in &invites {
            let a = cluster.claim(&game, json!({"invite": invite})).await;
            assert_eq!(a.status, 200, "{}", a.body);
            tokens.insert(
                a.body["seat"].as_u64().unwrap(),
                a.body["token"].as_str().unwrap().to_string(),
            );
        }
        games.push((game, invites, tokens));
    }
    // A spectator on every server for every game.
    let mut sockets: Vec<(String, usize, Heard)> = Vec::new();
    for (game, _, _) in &games {
        for (i, s) in cluster.servers.iter().enumerate() {
            sockets.push((game.clone(), i, Heard::watch(&s.url, game).await));
        }
    }
    // And seat 0 of the first game on server 2, by an `auth` message.
    let seat0 = Heard::watch_as(&cluster.servers[2].url, &games[0].0, Some(&games[0].2[&0])).await;

    let mut rng = SmallRng::seed_from_u64(7);
    // Every move a server acknowledged: game -> version -> (move, when).
    let mut acked: HashMap<String, HashMap<u64, (Value, Instant)>> = HashMap::new();
    let (mut killed, mut raced_same, mut raced_different) = (false, false, false);
    let mut acks = 0;
    loop {
        let mut all_over = true;
        for (game, _, tokens) in &games {
            let s = cluster.get(&format!("/api/games/{game}"), None).await.body;
            if s["view"]["over"] == true {
                continue;
            }
            all_over = false;
            let version = s["version"].as_u64().unwrap();
            let next = s["view"]["next"]["player"].as_u64().unwrap();
            let Some(token) = tokens.get(&next) else {
                // A bot's turn: some server plays it, and the socket on server 0 (never
                // killed) hears it.
                let (_, _, heard) = sockets
                    .iter()
                    .find(|(g, server, _)| g == game && *server == 0)
                    .expect("a socket on server 0");
                heard.reach("a bot moves", version + 1).await;
                continue;
            };
            let mine = cluster
                .get(&format!("/api/games/{game}"), Some(token))
                .await;
            assert_eq!(mine.status, 200, "{}", mine.body);
            let legal = mine.body["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                continue;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            let path = format!("/api/games/{game}/moves");
            let body = json!({"version": version, "move": mv});
            if !raced_same && killed {
                // The same move by the same seat on two servers at once: stored once, and the
                // other is answered as the retry it is.
                let (a, b) = (
                    cluster.servers[0].url.clone(),
                    cluster.servers[2].url.clone(),
                );
                let (x, y) = tokio::join!(
                    cluster.post_at(&a, &path, Some(token), body.clone()),
                    cluster.post_at(&b, &path, Some(token), body.clone())
                );
                assert_eq!((x.status, y.status), (200, 200), "{} {}", x.body, y.body);
                let applied = [&x, &y]
                    .iter()
                    .filter(|r| r.body["applied"] == true)
                    .count();
                assert_eq!(applied, 1, "one applied, one a retry");
                raced_same = true;
            } else if !raced_different && raced_same && legal.len() > 1 {
                // Two different moves at one version: exactly one is played.
                let other = legal.iter().find(|m| **m != mv).unwrap().clone();
                let (a, b) = (
                    cluster.servers[1].url.clone(),
                    cluster.servers[2].url.clone(),
                );
                let (x, y) = tokio::join!(
                    cluster.post_at(&a, &path, Some(token), body.clone()),
                    cluster.post_at(
                        &b,
                        &path,
                        Some(token),
                        json!({"version": version, "move": other})
                    )
                );
                let mut statuses = [x.status, y.status];
                statuses.sort();
                assert_eq!(statuses, [200, 409], "{} {}", x.body, y.body);
                let lost = if x.status == 409 { &x } else { &y };
                assert_eq!(lost.body["error"], "stale_version");
                let won = if x.status == 200 { &x } else { &y };
                let played = won.body["state"]["last_move"]["move"].clone();
                acked
                    .entry(game.clone())
                    .or_default()
                    .insert(version, (played, Instant::now()));
                raced_different = true;
                acks += 1;
                continue;
            } else {
                let a = cluster.post(&path, Some(token), body.clone()).await;
                assert_eq!(a.status, 200, "{}", a.body);
            }
            acked
                .entry(game.clone())
                .or_default()
                .insert(version, (mv, Instant::now()));
            acks += 1;
            if acks == 8 && !killed {
                // kill -9 mid-game, then start it again: acknowledged moves are in the
                // database, and a bot turn it held is taken over by another server.
                cluster.servers[1] = serve(&db.url);
                killed = true;
                for (game, _, _) in &games {
                    let url = cluster.servers[1].url.clone();
                    sockets.push((game.clone(), 3, Heard::watch(&url, game).await));
                }
            }
        }
        if all_over {
            break;
        }
    }
    assert!(killed && raced_same && raced_different);

    for (game, _, _) in &games {
        let record = cluster
            .get(&format!("/api/games/{game}/record"), None)
            .await;
        assert_eq!(record.status, 200);
        let text = record.body.to_string();
        let (rec, end) = sagani_core::record::replay_json(&text).expect("the record replays");
        assert!(end.is_over());
        let moves: Vec<Value> = rec
            .moves
            .iter()
            .map(|m| serde_json::to_value(m.mv).unwrap())
            .collect();
        // Every acknowledged move is stored, once, at its version.
        for (version, (mv, _)) in &acked[game] {
            assert_eq!(&moves[*version as usize], mv, "game {game} move {version}");
        }
        // What each placement did, as the engine works it out from the record.
        let mut replay = sagani_core::Game::new(&rec.setup()).unwrap();
        let effects: Vec<Value> = rec
            .moves
            .iter()
            .map(|m| {
                let effect = match m.mv {
                    sagani_core::Move::Place { .. } => {
                        serde_json::to_value(replay.preview(m.mv).unwrap()).unwrap()
                    }
                    _ => Value::Null,
                };
                replay.play(m.mv).unwrap();
                effect
            })
            .collect();
        let stored = sagani_server::store::move_counts(&db.url, std::slice::from_ref(game))
            .await
            .unwrap();
        assert_eq!(stored[game], moves.len() as u64, "no move stored twice");

        // Every socket heard every move in order, from where it joined (those on the killed
        // server until it died).
        let mut delays = Vec::new();
        for (g, server, heard) in sockets.iter().filter(|(g, _, _)| g == game) {
            if *server != 1 {
                heard
                    .reach("a socket hears the end", moves.len() as u64)
                    .await;
            }
            let (first, heard_moves) = heard.moves();
            for (i, m) in heard_moves.iter().enumerate() {
                assert_eq!(m["version"].as_u64(), Some(first + i as u64), "game {g}");
                assert_eq!(m["move"], moves[(first as usize) + i], "game {g}");
                assert_eq!(
                    m.get("effect").unwrap_or(&Value::Null),
                    &effects[(first as usize) + i],
                    "game {g}: every server tells what each move did"
                );
            }
            if *server != 1 {
                assert_eq!(first as usize + heard_moves.len(), moves.len());
            }
            for (at, update) in heard.log.lock().unwrap().iter() {
                for m in update["moves"].as_array().unwrap() {
                    if let Some((_, sent)) = acked[game].get(&m["version"].as_u64().unwrap()) {
                        delays.push(at.saturating_duration_since(*sent));
                    }
                }
            }
        }
        delays.sort();
        // A figure for the notes, not a bound: a loaded machine may be slower.
        eprintln!(
            "game {game}: a move reached the sockets on every server in at most {:?} (median {:?}, {} deliveries)",
            delays.last().unwrap(),
            delays[delays.len() / 2],
            delays.len()
        );
    }

    // The socket that said whose it is by message heard the game as seat 0, from its first
    // seat's state on (those before may have gone out as a spectator's), to the end.
    {
        let end = cluster
            .get(&format!("/api/games/{}", games[0].0), None)
            .await;
        seat0
            .reach(
                "seat 0's socket hears the end",
                end.body["version"].as_u64().unwrap(),
            )
            .await;
        let log = seat0.log.lock().unwrap();
        let seats: Vec<&Value> = log.iter().map(|(_, u)| &u["state"]["you"]).collect();
        let first = seats
            .iter()
            .position(|y| **y == 0)
            .expect("a state for seat 0");
        assert!(seats[first..].iter().all(|y| **y == 0), "{seats:?}");
    }

    // A re-claim revokes the old token on every server at once, in the rematch too.
    let (game, invites, tokens) = &games[0];
    let old = tokens[&0].clone();
    let a = cluster
        .post(
            &format!("/api/games/{game}/rematch"),
            Some(&old),
            json!(null),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let rematch = a.body["game"].as_str().unwrap().to_string();
    for s in &cluster.servers {
        let a = cluster
            .get_at(&s.url, &format!("/api/games/{rematch}"), Some(&old))
            .await;
        assert_eq!(a.status, 200, "the rematch knows the token on every server");
    }
    let a = cluster.claim(game, json!({"invite": invites[0]})).await;
    assert_eq!(a.status, 200);
    let new = a.body["token"].as_str().unwrap().to_string();
    for s in &cluster.servers {
        for id in [game, &rematch] {
            let a = cluster
                .get_at(&s.url, &format!("/api/games/{id}"), Some(&old))
                .await;
            assert_eq!(a.status, 403, "the old token on {} for {id}", s.url);
            let a = cluster
                .get_at(&s.url, &format!("/api/games/{id}"), Some(&new))
                .await;
            assert_eq!(a.status, 200);
        }
    }

    // Two people claim one public seat on two servers at once: one gets it.
    let (open, _) = cluster
        .create(json!([{"kind": "human"}, {"kind": "human"}]), true)
        .await;
    let path = format!("/api/games/{open}/join");
    let (a, b) = (
        cluster.servers[0].url.clone(),
        cluster.servers[1].url.clone(),
    );
    let (x, y) = tokio::join!(
        cluster.post_at(&a, &path, None, json!({"seat": 1})),
        cluster.post_at(&b, &path, None, json!({"seat": 1}))
    );
    let mut statuses = [x.status, y.status];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{} {}", x.body, y.body);
    let lost = if x.status == 409 { &x } else { &y };
    assert_eq!(lost.body["error"], "seat_taken");
    drop(cluster.servers.drain(..));
}

/// Refused before anything is written: the database is left without a single table.
#[tokio::test]
async fn a_deck_seed_is_refused_on_postgres() {
    let Some(db) = TestDatabase::create("a_deck_seed_is_refused_on_postgres").await else {
        return;
    };
    let out = common::sagani()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--deck-seed",
            "5",
            "--db",
            &db.url,
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--deck-seed is refused"), "{err}");
    let (client, conn) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(conn);
    let tables: i64 = client
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(tables, 0, "a refused start left tables behind");
    drop(client);
    let _ = driver.await;
}
