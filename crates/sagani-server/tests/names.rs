//! Names over HTTP, on both stores (PostgreSQL with two servers): account names of any letters
//! and digits (NFKC, one name in any case and normal form), look-alike account names,
//! guests' display names that look like an account's or hold invisible characters, and
//! accounts made before names had skeletons getting theirs when a server starts.

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
            open_games_per_ip: 0,
            ..Limits::default()
        },
        ..Config::default()
    };
    common::serve_local(store, config).await
}

async fn sign_up(b: &mut Browser, name: &str) -> Answer {
    let body = json!({ "name": name, "password": "long enough" });
    b.send("POST", "/api/players", Some(body)).await
}

/// A new two-seat game; its join path and first invite.
async fn game(b: &mut Browser) -> (String, String) {
    let seats = json!([{"kind": "human"}, {"kind": "human"}]);
    let a = b
        .send("POST", "/api/games", Some(json!({ "seats": seats })))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.body["game"].as_str().unwrap();
    let invite = a.body["invites"][0]["code"].as_str().unwrap().to_string();
    (format!("/api/games/{id}/join"), invite)
}

fn refused(a: &Answer, status: u16, why: &str) {
    assert_eq!(a.status, status, "{why}: {}", a.body);
    let message = a.body["message"].as_str().unwrap();
    assert!(message.contains(why), "{why:?} not in {message:?}");
    if status == 400 {
        assert!(
            a.body["detail"]["kind"].is_string(),
            "a name's refusal says what is wrong for a client to word: {}",
            a.body
        );
    }
}

/// Names of any letters and digits sign up; one name in any case and normal form.
async fn any_letters(one: &str, two: &str) {
    let mut jurgen = Browser::new(one);
    let a = sign_up(&mut jurgen, "Jürgen").await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(a.body["name"], "Jürgen");
    let mut other = Browser::new(two);
    // Taken in upper case, decomposed ("u" and a mark), in full-width letters.
    for name in ["JÜRGEN", "Ju\u{0308}rgen", "\u{FF2A}ürgen"] {
        let a = sign_up(&mut other, name).await;
        assert_eq!(
            (a.status, &a.body["error"]),
            (409, &json!("name_taken")),
            "{name}: {}",
            a.body
        );
    }
    // Logged in by any of them, on the other server; the profile answers to any of them too.
    for name in ["jürgen", "JU\u{0308}RGEN"] {
        let a = Browser::new(two).log_in(name, "long enough").await;
        assert_eq!(a.status, 200, "{name}: {}", a.body);
        assert_eq!(a.body["name"], "Jürgen");
    }
    let a = other.send("GET", "/api/players/J%C3%9CRGEN", None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["name"], "Jürgen");
    for name in ["Дмитрий", "李小龍", "محمد_7", "देवनागरी", &"ж".repeat(20)]
    {
        let a = sign_up(&mut Browser::new(two), name).await;
        assert_eq!(a.status, 201, "{name}: {}", a.body);
        assert_eq!(a.body["name"], name);
    }
    // Too long is refused with the rule's numbers, never cut short.
    let a = sign_up(&mut other, &"a".repeat(300)).await;
    refused(&a, 400, "3 to 20 characters, not 300");
    assert_eq!(
        a.body["detail"],
        json!({"kind": "name_length", "min": 3, "max": 20, "len": 300})
    );
    let a = sign_up(&mut other, "Zoë 🎲").await;
    assert_eq!(
        a.body["detail"],
        json!({"kind": "name_character", "code_point": "U+0020"})
    );
    let a = other
        .send(
            "POST",
            "/api/players",
            Some(json!({"name": "Zoë", "password": "short"})),
        )
        .await;
    assert_eq!(
        a.body["detail"],
        json!({"kind": "password_length", "min": 8, "max": 200})
    );
}

/// `one` and `two` are servers on one database (or the same server).
async fn look_alikes(one: &str, two: &str) {
    let mut bob = Browser::new(one);
    assert_eq!(sign_up(&mut bob, "Bob").await.status, 201);

    // An account name that looks like one taken is taken, on any server.
    let mut eve = Browser::new(two);
    for name in ["B0b", "BOB"] {
        let a = sign_up(&mut eve, name).await;
        refused(&a, 409, "looks like one that is");
        assert_eq!(a.body["error"], "name_taken");
    }
    // Look-alikes of bots and staff, and anything but letters, digits, `_` and `-`, are
    // refused.
    for (name, why) in [
        ("Rand0m", "would pass for a bot"),
        ("adrnin", "would pass for a bot"),
        ("m\u{0441}ts", "would pass for a bot"),
        ("ad\u{00AD}min", "U+00AD"),
        ("Eve\u{202E}evE", "U+202E"),
        ("Eve\u{200B}ann", "U+200B"),
    ] {
        refused(&sign_up(&mut eve, name).await, 400, why);
    }
    assert_eq!(eve.me().await["kind"], "guest");

    // A guest can't take an account's name, nor hide characters in a display name.
    let (join, invite) = game(&mut eve).await;
    for name in ["B0b", "\u{FF22}ob", " bob "] {
        let body = json!({ "invite": invite, "name": name });
        let a = eve.send("POST", &join, Some(body)).await;
        refused(&a, 409, "looks like the name of an account");
        assert_eq!(a.body["error"], "name_taken");
    }
    for (name, why) in [
        ("Gree\u{200B}dy", "invisible character (U+200B)"),
        ("Eve\u{202E}evE", "writing direction (U+202E)"),
        ("Eve\u{2028}Ann", "line or paragraph separator"),
        (
            "E\u{0334}\u{0335}\u{0336}\u{0337}ve",
            "marks on one character",
        ),
        ("m\u{0441}ts", "would pass for a bot"),
    ] {
        let body = json!({ "invite": invite, "name": name });
        refused(&eve.send("POST", &join, Some(body)).await, 400, why);
    }
    // Refused names claimed nothing; a fine one is shown as folded (NFKC, one space).
    let body = json!({ "invite": invite, "name": "\u{FF2A}\u{00FC}rgen  der  Erste" });
    let a = eve.send("POST", &join, Some(body)).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let token = a.body["token"].as_str().unwrap().to_string();
    let id = join.trim_end_matches("/join");
    let s: Value = eve.get_with(id, &token).await.body;
    assert_eq!(s["seats"][0]["name"], "Jürgen der Erste");
    assert_eq!(s["you"], 0);

    // Bob's name is free again once his account is gone, for guests and accounts alike.
    let a = bob
        .send(
            "DELETE",
            "/api/me",
            Some(json!({ "password": "long enough" })),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let (join, invite) = game(&mut eve).await;
    let body = json!({ "invite": invite, "name": "B0b" });
    assert_eq!(eve.send("POST", &join, Some(body)).await.status, 200);
    assert_eq!(sign_up(&mut eve, "B0b").await.status, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_names_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("n.db")).unwrap());
    let url = serve(store).await;
    look_alikes(&url, &url).await;
    any_letters(&url, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_names_on_postgres_with_two_servers() {
    let Some(db) = TestDatabase::create("look_alike_names_on_postgres_with_two_servers").await
    else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, two) = (serve(a).await, serve(b).await);
    look_alikes(&one, &two).await;
    any_letters(&one, &two).await;
}

/// Bob signed up before names had skeletons (`forget` takes his from the database): once a
/// server starts (`restart`), "B0b" is taken again, for accounts and guests alike.
async fn filled_at_start(
    url: &str,
    forget: impl std::future::Future<Output = ()>,
    restart: impl std::future::Future<Output = String>,
) {
    let mut bob = Browser::new(url);
    assert_eq!(sign_up(&mut bob, "Bob").await.status, 201);
    forget.await;
    let mut eve = Browser::new(&restart.await);
    refused(
        &sign_up(&mut eve, "B0b").await,
        409,
        "looks like one that is",
    );
    let (join, invite) = game(&mut eve).await;
    let body = json!({ "invite": invite, "name": "B0b" });
    refused(
        &eve.send("POST", &join, Some(body)).await,
        409,
        "looks like the name of an account",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn older_accounts_get_skeletons_at_start_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.db");
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).unwrap());
    let url = serve(store.clone()).await;
    let forget = async {
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute("UPDATE players SET name_skeleton = NULL", [])
            .unwrap();
    };
    // A server started again on the same store (one process holds a SQLite file).
    filled_at_start(&url, forget, serve(store.clone())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn older_accounts_get_skeletons_at_start_on_postgres() {
    let Some(db) = TestDatabase::create("older_accounts_get_skeletons_at_start_on_postgres").await
    else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let one = serve(a).await;
    let forget = async {
        let (client, conn) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
            .await
            .unwrap();
        let driver = tokio::spawn(conn);
        client
            .batch_execute("UPDATE players SET name_skeleton = NULL")
            .await
            .unwrap();
        drop(client);
        let _ = driver.await;
    };
    let second = async {
        let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
        serve(b).await
    };
    filled_at_start(&one, forget, second).await;
}
