//! Chat over HTTP, with a clock the test moves: the per-seat limit is counted in the database,
//! so two servers on PostgreSQL together allow no more than one; lines are kept as visible
//! text (NFKC), and invisible characters, direction controls and floods of marks are refused.

mod common;

use common::browser::Browser;
use sagani_server::clock::ManualClock;
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{Config, Limits};
use serde_json::json;
use std::sync::Arc;

async fn serve(store: Arc<dyn Store>, clock: Arc<ManualClock>) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            chat_per_minute: 12,
            ..Limits::default()
        },
        clock,
        ..Config::default()
    };
    common::serve_local(store, config).await
}

/// A two-seat game made on `one`: its chat path and the seats' tokens.
async fn table(one: &str) -> (String, String, String) {
    let mut b = Browser::new(one);
    let seats = json!([{"kind": "human"}, {"kind": "human"}]);
    let a = b
        .send("POST", "/api/games", Some(json!({ "seats": seats })))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.body["game"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for i in 0..2 {
        let invite = a.body["invites"][i]["code"].as_str().unwrap();
        let j = b
            .send(
                "POST",
                &format!("/api/games/{id}/join"),
                Some(json!({ "invite": invite })),
            )
            .await;
        assert_eq!(j.status, 200, "{}", j.body);
        tokens.push(j.body["token"].as_str().unwrap().to_string());
    }
    let t1 = tokens.pop().unwrap();
    (format!("/api/games/{id}/chat"), tokens.pop().unwrap(), t1)
}

/// Seat 0 writes `n` lines, alternating between the servers; the statuses, and the last
/// refusal's Retry-After.
async fn write(
    servers: &mut [Browser; 2],
    chat: &str,
    token: &str,
    n: usize,
) -> (Vec<u16>, Option<String>) {
    let mut statuses = Vec::new();
    let mut retry = None;
    for i in 0..n {
        let body = json!({ "text": format!("line {i}") });
        let a = servers[i % 2].post_with(chat, token, body).await;
        if a.status == 429 {
            assert_eq!(a.body["error"], "rate_limited");
            retry = a
                .headers
                .get("retry-after")
                .map(|v| v.to_str().unwrap().to_string());
        }
        statuses.push(a.status);
    }
    (statuses, retry)
}

/// `one` and `two` are servers on one database (or the same one), both on `clock`.
async fn limited(one: &str, two: &str, clock: Arc<ManualClock>) {
    let (chat, t0, t1) = table(one).await;
    let mut servers = [Browser::new(one), Browser::new(two)];
    // Five at once, across both servers; then ten seconds' wait.
    let (statuses, retry) = write(&mut servers, &chat, &t0, 7).await;
    assert_eq!(statuses, [201, 201, 201, 201, 201, 429, 429]);
    assert_eq!(retry.as_deref(), Some("10"));
    // The other seat has a limit of its own.
    let (statuses, _) = write(&mut servers, &chat, &t1, 1).await;
    assert_eq!(statuses, [201]);
    // Twelve a minute: five more ten seconds on, two more after another ten, then the minute
    // is full until the first lines are a minute old.
    clock.advance(10_000);
    assert_eq!(write(&mut servers, &chat, &t0, 5).await.0, [201; 5]);
    clock.advance(10_000);
    let (statuses, retry) = write(&mut servers, &chat, &t0, 3).await;
    assert_eq!(statuses, [201, 201, 429]);
    assert_eq!(retry.as_deref(), Some("40"));
    clock.advance(40_000);
    assert_eq!(write(&mut servers, &chat, &t0, 1).await.0, [201]);
    // Every line stored is one the limit allowed.
    let read = servers[1].send("GET", &chat, None).await;
    let lines = read.body["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 5 + 1 + 5 + 2 + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_limited_per_seat_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("c.db")).unwrap());
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let url = serve(store, clock.clone()).await;
    limited(&url, &url, clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_limited_across_two_servers_on_postgres() {
    let Some(db) = TestDatabase::create("chat_is_limited_across_two_servers_on_postgres").await
    else {
        return;
    };
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let one = serve(a, clock.clone()).await;
    let two = serve(b, clock.clone()).await;
    limited(&one, &two, clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_are_visible_text() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("c.db")).unwrap());
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let url = serve(store, clock.clone()).await;
    let (chat, t0, _) = table(&url).await;
    let mut b = Browser::new(&url);
    for (text, why) in [
        ("evil \u{202E}txt.exe", "writing direction (U+202E)"),
        ("ab\u{2066}c", "writing direction (U+2066)"),
        ("two\u{2028}lines", "line or paragraph separator (U+2028)"),
        ("Gree\u{200B}dy", "invisible character (U+200B)"),
        ("ad\u{00AD}min", "invisible character (U+00AD)"),
        (
            "Z\u{0335}\u{0321}\u{0322}\u{0327}\u{0328}algo",
            "more than 3 marks",
        ),
    ] {
        let a = b.post_with(&chat, &t0, json!({ "text": text })).await;
        assert_eq!(a.status, 400, "{text:?}: {}", a.body);
        let message = a.body["message"].as_str().unwrap();
        assert!(message.contains(why), "{text:?}: {message}");
    }
    // Kept as NFKC; emoji sequences (joiner, variation selector) are text as typed.
    for (text, kept) in [
        ("\u{FF48}\u{FF49} \u{FB01}ne", "hi fine"),
        (
            "\u{1F469}\u{200D}\u{1F4BB} \u{2764}\u{FE0F}",
            "\u{1F469}\u{200D}\u{1F4BB} \u{2764}\u{FE0F}",
        ),
    ] {
        let a = b.post_with(&chat, &t0, json!({ "text": text })).await;
        assert_eq!(a.status, 201, "{}", a.body);
        assert_eq!(a.body["text"], kept);
    }
    let read = b.send("GET", &chat, None).await;
    assert_eq!(
        read.body["lines"].as_array().unwrap().len(),
        2,
        "refused lines are not kept"
    );
}
