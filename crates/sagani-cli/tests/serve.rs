//! `sagani serve` as a process: killed with SIGKILL mid-game and started again on the same
//! database, it continues the game with no acknowledged move lost.

mod common;

use common::Server;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

fn serve(db: &Path) -> Server {
    serve_with(db, &[])
}

fn serve_with(db: &Path, extra: &[&str]) -> Server {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_sagani"));
    serve
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--moves-per-token",
            "0",
            "--db",
        ])
        .arg(db)
        .args(extra)
        // Every log line, at the most detailed level, next to the database: searched for
        // secrets below.
        .env("RUST_LOG", "trace")
        .stderr(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(db.with_extension("log"))
                .expect("log file"),
        );
    common::started(serve)
}

fn call(r: reqwest::blocking::RequestBuilder) -> (u16, Value) {
    let response = r.send().expect("the server answers");
    let status = response.status().as_u16();
    (status, response.json().expect("JSON"))
}

fn state(http: &reqwest::blocking::Client, server: &Server, game: &str, token: &str) -> Value {
    let (status, body) = call(
        http.get(format!("{}/api/games/{game}", server.url))
            .bearer_auth(token),
    );
    assert_eq!(status, 200, "{body}");
    body
}

/// Plays `n` moves (the first legal move of whoever must act); gives the last answer.
fn play(
    http: &reqwest::blocking::Client,
    server: &Server,
    game: &str,
    tokens: &[String],
    n: usize,
) -> Value {
    let mut last = Value::Null;
    for _ in 0..n {
        let s = state(http, server, game, &tokens[0]);
        let actor = s["view"]["next"]["player"].as_u64().unwrap() as usize;
        let s = state(http, server, game, &tokens[actor]);
        let body = json!({"version": s["version"], "move": s["legal"][0]});
        let (status, answer) = call(
            http.post(format!("{}/api/games/{game}/moves", server.url))
                .bearer_auth(&tokens[actor])
                .json(&body),
        );
        assert_eq!(status, 200, "{answer}");
        last = answer;
    }
    last
}

/// Just an address, for a thread that must not own the process.
struct FakeServer {
    url: String,
}

/// One move by whoever must act; `None` once the server is gone (or the game is over).
fn play_one(
    http: &reqwest::blocking::Client,
    server: &FakeServer,
    game: &str,
    tokens: &[String],
) -> Option<u64> {
    let get = |token: &str| -> Option<Value> {
        let r = http
            .get(format!("{}/api/games/{game}", server.url))
            .bearer_auth(token)
            .send()
            .ok()?;
        r.json().ok()
    };
    let s = get(&tokens[0])?;
    let actor = s["view"]["next"]["player"].as_u64()? as usize;
    let s = get(&tokens[actor])?;
    let body = json!({"version": s["version"], "move": s["legal"][0]});
    let r = http
        .post(format!("{}/api/games/{game}/moves", server.url))
        .bearer_auth(&tokens[actor])
        .json(&body)
        .send()
        .ok()?;
    if r.status() != 200 {
        return None;
    }
    let answer: Value = r.json().ok()?;
    answer["state"]["version"].as_u64()
}

#[test]
fn a_killed_server_continues_its_games_with_no_acknowledged_move_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let http = reqwest::blocking::Client::new();
    let server = serve(&db);
    let (status, created) = call(
        http.post(format!("{}/api/games", server.url))
            .json(&json!({"seats": [{"kind": "human"}, {"kind": "human"}]})),
    );
    assert_eq!(status, 201, "{created}");
    let game = created["game"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let (status, joined) = call(
                http.post(format!("{}/api/games/{game}/join", server.url))
                    .json(&json!({"invite": i["code"]})),
            );
            assert_eq!(status, 200, "{joined}");
            joined["token"].as_str().unwrap().to_string()
        })
        .collect();
    let last = play(&http, &server, &game, &tokens, 12);
    assert_eq!(last["state"]["version"], 12);
    let before = state(&http, &server, &game, &tokens[0]);

    // SIGKILL: no chance to flush anything that was not already committed.
    drop(server);
    let server = serve(&db);
    let after = state(&http, &server, &game, &tokens[0]);
    assert_eq!(after["version"], 12, "every acknowledged move is back");
    assert_eq!(
        after["view"], before["view"],
        "the same game, rebuilt from its moves"
    );
    assert_eq!(after["status"], "playing", "the seats' tokens still hold");

    // Killed again while a client is sending moves as fast as it can: every move it was told
    // of is kept (and at most the one in flight besides).
    let acknowledged = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(12));
    let player = {
        let (url, game, tokens, acknowledged) = (
            server.url.clone(),
            game.clone(),
            tokens.clone(),
            acknowledged.clone(),
        );
        std::thread::spawn(move || {
            let http = reqwest::blocking::Client::new();
            let server = FakeServer { url };
            while let Some(v) = play_one(&http, &server, &game, &tokens) {
                acknowledged.store(v, std::sync::atomic::Ordering::SeqCst);
            }
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while acknowledged.load(std::sync::atomic::Ordering::SeqCst) < 30 {
        assert!(
            std::time::Instant::now() < deadline && !player.is_finished(),
            "the client stopped before 30 moves"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    drop(server);
    player.join().unwrap();
    let acked = acknowledged.load(std::sync::atomic::Ordering::SeqCst);
    assert!(acked >= 30, "the client played on until the kill ({acked})");
    let server = serve(&db);
    let after = state(&http, &server, &game, &tokens[0]);
    let stored = after["version"].as_u64().unwrap();
    eprintln!("acknowledged {acked}, stored {stored}");
    assert!(
        stored == acked || stored == acked + 1,
        "{acked} moves acknowledged, {stored} after the restart"
    );

    // It plays on, with the same tokens.
    let last = play(&http, &server, &game, &tokens, 5);
    assert_eq!(last["state"]["version"].as_u64(), Some(stored + 5));
    let (status, health) = call(http.get(format!("{}/healthz", server.url)));
    assert_eq!((status, health["games"].as_u64()), (200, Some(1)));
    drop(server);

    // The logs of all three runs hold neither a token nor a run of the deck.
    use sagani_server::store::{SqliteStore, Store};
    let store = SqliteStore::open_with(&db, false).unwrap();
    let deck = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(store.game(&game))
        .unwrap()
        .deck;
    let log = std::fs::read_to_string(db.with_extension("log")).unwrap();
    assert!(log.contains(&game), "the log speaks of the game: {log}");
    for t in &tokens {
        assert!(!log.contains(t.as_str()), "a token is in the log");
    }
    for w in deck.windows(3) {
        for sep in [",", ", "] {
            let run = format!("{}{sep}{}{sep}{}", w[0], w[1], w[2]);
            assert!(!log.contains(&run), "the deck's run {run} is in the log");
        }
    }
}

#[test]
fn serve_refuses_a_bad_database_path_clearly() {
    let out = Command::new(env!("CARGO_BIN_EXE_sagani"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            "/nonexistent-dir/x/games.db",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent-dir/x/games.db"), "{err}");
}

#[test]
fn a_bot_whose_turn_it_was_moves_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let http = reqwest::blocking::Client::new();
    // The bot thinks for 3 s: long enough to kill the server in the middle.
    let server = serve_with(&db, &["--bot-think-ms", "3000"]);
    let (status, created) =
        call(http.post(format!("{}/api/games", server.url)).json(
            &json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "mcts", "level": 5}]}),
        ));
    assert_eq!(status, 201, "{created}");
    let game = created["game"].as_str().unwrap().to_string();
    let (_, joined) = call(
        http.post(format!("{}/api/games/{game}/join", server.url))
            .json(&json!({"invite": created["invites"][0]["code"]})),
    );
    let token = joined["token"].as_str().unwrap().to_string();
    let wait_for = |server: &Server, pred: &dyn Fn(&Value) -> bool| -> Value {
        for _ in 0..300 {
            let s = state(&http, server, &game, &token);
            if pred(&s) {
                return s;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("the game did not get there in 15 s");
    };
    let mine = |s: &Value| !s["legal"].as_array().unwrap().is_empty();
    let s = wait_for(&server, &mine);
    let (status, answer) = call(
        http.post(format!("{}/api/games/{game}/moves", server.url))
            .bearer_auth(&token)
            .json(&json!({"version": s["version"], "move": s["legal"][0]})),
    );
    assert_eq!(status, 200, "{answer}");
    let thinking = answer["state"]["version"].as_u64().unwrap();
    assert_eq!(
        answer["state"]["view"]["next"]["player"], 1,
        "the bot's turn"
    );
    drop(server);

    // Nobody asks (a look would start the bot too): the restart alone must.
    let _server = serve_with(&db, &["--bot-think-ms", "300"]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let stored = || {
        let games = [game.clone()];
        let counts = runtime.block_on(sagani_server::store::move_counts(
            &db.display().to_string(),
            &games,
        ));
        counts.unwrap()[&game]
    };
    for _ in 0..300 {
        if stored() > thinking {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!(
        "the bot did not move after the restart ({} moves stored)",
        stored()
    );
}

#[test]
fn http_flags_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let server = serve_with(
        &db,
        &[
            "--trusted-proxy",
            "127.0.0.1",
            "--open-games-per-ip",
            "1",
            "--header-timeout-ms",
            "200",
        ],
    );
    // Per-address limits count the forwarded address from the trusted proxy.
    let http = reqwest::blocking::Client::new();
    let create = |from: &str| {
        let r = http
            .post(format!("{}/api/games", server.url))
            .header("x-forwarded-for", from)
            .json(&json!({"seats": [{"kind": "human"}, {"kind": "human"}]}));
        call(r).0
    };
    assert_eq!(create("203.0.113.1"), 201);
    assert_eq!(create("203.0.113.1"), 429);
    assert_eq!(create("203.0.113.2"), 201);
    // A half-sent request is closed once the head timeout passes.
    use std::io::{Read, Write};
    let mut raw = std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    raw.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    raw.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let mut buf = [0u8; 64];
    match raw.read(&mut buf) {
        Ok(0) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        other => panic!("the half-sent request was not closed: {other:?}"),
    }
}

#[test]
fn serve_refuses_bad_http_flags_clearly() {
    for (flag, value, says) in [
        ("--trusted-proxy", "10.0.0.0/33", "not a network"),
        ("--max-connections", "many", "invalid digit"),
        ("--drain-ms", "1.5", "invalid digit"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sagani"))
            .args(["serve", "--addr", "127.0.0.1:0", flag, value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag) && err.contains(says), "{flag}: {err}");
    }
}

/// SIGTERM with a half-sent request open: the server stops once the drain deadline passes,
/// not when the client finishes.
#[cfg(unix)]
#[test]
fn sigterm_is_not_held_by_a_half_sent_request() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let server = serve_with(
        &db,
        &["--header-timeout-ms", "3600000", "--drain-ms", "200"],
    );
    let mut raw = std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    raw.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    // A whole request after it: the server has accepted the half-sent one by then.
    let (status, _) = call(reqwest::blocking::Client::new().get(format!("{}/healthz", server.url)));
    assert_eq!(status, 200);
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Wait for the exit itself, on a thread of its own, for 30 s at most.
    let mut child = server;
    let (exited, exit) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = exited.send(child.child.wait().unwrap());
        child
    });
    let status = exit
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("sagani serve still runs 30 s after SIGTERM");
    assert!(status.success(), "{status}");
    drop(waiter.join());
    drop(raw);
}

#[test]
fn a_second_server_on_one_sqlite_file_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let _first = serve(&db);
    let out = Command::new(env!("CARGO_BIN_EXE_sagani"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("already served by another sagani process") && err.contains("PostgreSQL"),
        "{err}"
    );
}

#[test]
fn the_deck_seed_is_never_printed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sagani"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--deck-seed",
            "987654321",
            "--db",
        ])
        .arg(&db)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first line says it listens: the start-up is over.
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert!(line.contains("http://"), "{line}");
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fixed seed"), "it warns: {err}");
    assert!(!err.contains("987654321") && !line.contains("987654321"));
}

/// The first start on a new file says so in its one line, with the address to open; the
/// schema's migrations are logged only at debug level. A second start counts the games.
#[test]
fn a_first_start_says_it_made_a_database_in_one_plain_line() {
    let dir = std::env::temp_dir().join(format!("sagani-first-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("new.db");
    let start = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sagani"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(&db)
            .env_remove("RUST_LOG")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let _ = child.kill();
        let err = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
        (line, err)
    };
    let (line, err) = start();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_string();
    assert!(
        line.starts_with(&format!("sagani server on {url} (database "))
            && line.contains("new.db, new); ")
            && line.contains(&format!("open {url} in a browser to play")),
        "{line:?}"
    );
    assert!(!err.contains("migration"), "{err}");
    let (line, _) = start();
    assert!(line.contains("new.db, 0 games)"), "{line:?}");
    assert!(
        !line.contains("new)") && !line.contains("browser"),
        "{line:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
