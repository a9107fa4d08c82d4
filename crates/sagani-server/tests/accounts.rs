//! Accounts over HTTP, on both stores: signing up, logging in and out (everywhere too), wrong
//! passwords and their limit, a new password, deleting an account, and the Origin check that
//! keeps other sites from using a player's cookie. With PostgreSQL, a session opened on one
//! server is known to a second.

mod common;

use common::browser::Browser;

use reqwest::header::SET_COOKIE;
use sagani_server::passwords::Passwords;
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{Config, HttpLimits, Limits};
use serde_json::json;
use std::sync::Arc;

/// A server on `store` (no per-second limits: the failed log-ins' own limit is under test).
async fn serve(store: Arc<dyn Store>) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            ..Limits::default()
        },
        ..Config::default()
    };
    common::serve_local(store, config).await
}

/// Everything an account does, on the server at `url` (and `other`, a second server on the
/// same database, when there is one).
async fn accounts(url: &str, other: Option<&str>) {
    let mut ada = Browser::new(url);
    assert_eq!(ada.me().await, json!({ "kind": "guest" }));

    // Signing up logs in, with a cookie scripts cannot read.
    let a = ada
        .send(
            "POST",
            "/api/players",
            Some(json!({ "name": "Ada", "password": "correct horse" })),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let set = a.headers.get(SET_COOKIE).unwrap().to_str().unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Lax"),
        "{set}"
    );
    assert!(!set.contains("Secure"), "no Secure over plain http: {set}");
    assert_eq!(ada.me().await, json!({ "kind": "account", "name": "Ada" }));

    // Names are unique in any case, and some are refused.
    let mut eve = Browser::new(url);
    let taken = eve
        .send(
            "POST",
            "/api/players",
            Some(json!({ "name": "ADA", "password": "another one" })),
        )
        .await;
    assert_eq!(
        (taken.status, taken.body["error"].as_str()),
        (409, Some("name_taken"))
    );
    // Each refusal says what is wrong, in English and as a detail a client words itself.
    for (name, password, kind) in [
        ("admin", "long enough", "name_reserved"),
        ("mcts-bot", "long enough", "name_reserved"),
        ("a b", "long enough", "name_character"),
        ("ab", "long enough", "name_length"),
        ("Eve", "short", "password_length"),
        ("Eve", "EVE", "password_length"),
        ("Everard1", "EVERARD1", "password_is_name"),
    ] {
        let a = eve
            .send(
                "POST",
                "/api/players",
                Some(json!({ "name": name, "password": password })),
            )
            .await;
        assert_eq!(a.status, 400, "{name}: {}", a.body);
        assert_eq!(a.body["error"], "bad_request");
        assert_eq!(a.body["detail"]["kind"], kind, "{name}: {}", a.body);
        assert!(a.body["message"].as_str().unwrap().len() > 10);
    }
    assert_eq!(eve.me().await["kind"], "guest");

    // A wrong password and a wrong name get the same answer.
    let wrong = eve.log_in("Ada", "incorrect horse").await;
    let nobody = eve.log_in("Nobody", "incorrect horse").await;
    assert_eq!((wrong.status, nobody.status), (401, 401));
    assert_eq!(wrong.body, nobody.body);
    assert_eq!(wrong.body["error"], "wrong_login");

    // Logging in on a second device (on another server, when there is one).
    let mut phone = Browser::new(other.unwrap_or(url));
    let a = phone.log_in("ada", "correct horse").await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["name"], "Ada");
    assert_eq!(ada.me().await["name"], "Ada");
    assert_eq!(phone.me().await["name"], "Ada");

    // Another site's page cannot use the cookie to change anything; without Origin neither.
    phone.origin = Some("https://evil.example".into());
    let a = phone.send("DELETE", "/api/sessions", None).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("wrong_origin"))
    );
    phone.origin = None;
    let a = phone.send("DELETE", "/api/sessions", None).await;
    assert_eq!(a.status, 403);
    assert_eq!(ada.me().await["name"], "Ada", "nothing changed");

    // Logging out everywhere closes every session.
    phone.origin = Some(other.unwrap_or(url).into());
    let a = phone.send("DELETE", "/api/sessions", None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["kind"], "guest");
    assert_eq!(ada.me().await["kind"], "guest");
    assert_eq!(phone.me().await["kind"], "guest");
    let a = phone.send("DELETE", "/api/sessions", None).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (401, Some("not_logged_in"))
    );

    // Logging out here only.
    assert_eq!(ada.log_in("Ada", "correct horse").await.status, 200);
    assert_eq!(phone.log_in("Ada", "correct horse").await.status, 200);
    assert_eq!(phone.send("DELETE", "/api/session", None).await.status, 200);
    assert_eq!(phone.me().await["kind"], "guest");
    assert_eq!(ada.me().await["name"], "Ada");

    // A new password: the old one no longer logs in; the old password confirms the change.
    let change = |old: &str, new: &str| json!({ "password": old, "new_password": new });
    let a = ada
        .send(
            "PUT",
            "/api/me/password",
            Some(change("wrong guess", "battery staple")),
        )
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (401, Some("wrong_login"))
    );
    let a = ada
        .send(
            "PUT",
            "/api/me/password",
            Some(change("correct horse", "battery staple")),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(
        ada.me().await["name"],
        "Ada",
        "this browser stays logged in"
    );
    assert_eq!(phone.log_in("Ada", "correct horse").await.status, 401);
    assert_eq!(phone.log_in("Ada", "battery staple").await.status, 200);

    // Deleting the account (its password confirms it) logs everyone out and frees the name.
    let a = ada
        .send(
            "DELETE",
            "/api/me",
            Some(json!({ "password": "nope nope" })),
        )
        .await;
    assert_eq!(a.status, 401);
    let a = ada
        .send(
            "DELETE",
            "/api/me",
            Some(json!({ "password": "battery staple" })),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(ada.me().await["kind"], "guest");
    assert_eq!(phone.me().await["kind"], "guest");
    assert_eq!(phone.log_in("Ada", "battery staple").await.status, 401);
    let a = eve
        .send(
            "POST",
            "/api/players",
            Some(json!({ "name": "ada", "password": "a new start" })),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);

    // Failed log-ins are limited per name at an address: after ten, even the right password
    // waits there. Five failed above from this one address (a wrong password, two wrong
    // confirmations, the old password, the deleted account's).
    for _ in 0..5 {
        assert_eq!(phone.log_in("ada", "guessing….").await.status, 401);
    }
    let a = phone.log_in("ada", "a new start").await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(a.headers.get("retry-after").is_some());
    // Another name is not held up by it.
    let mut bea = Browser::new(url);
    let a = bea
        .send(
            "POST",
            "/api/players",
            Some(json!({ "name": "Bea", "password": "bea's secret" })),
        )
        .await;
    assert_eq!(a.status, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("a.db")).unwrap());
    let url = serve(store).await;
    accounts(&url, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_on_postgres_with_two_servers() {
    let Some(db) = TestDatabase::create("accounts_on_postgres_with_two_servers").await else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, two) = (serve(a).await, serve(b).await);
    accounts(&one, Some(&two)).await;
}

/// A server on `store` that believes the `X-Forwarded-For` of requests from this machine (so
/// a test speaks from any address), with `passwords` as its pool.
async fn serve_behind_proxy(store: Arc<dyn Store>, passwords: Arc<Passwords>) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            ..Limits::default()
        },
        http: HttpLimits {
            trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()],
            ..HttpLimits::default()
        },
        passwords,
        ..Config::default()
    };
    common::serve_local(store, config).await
}

/// A log-in from `addr`: its status and error code.
async fn log_in_from(url: &str, addr: &str, name: &str, password: &str) -> (u16, String) {
    let r = reqwest::Client::new()
        .post(format!("{url}/api/session"))
        .header("x-forwarded-for", addr)
        .json(&json!({ "name": name, "password": password }));
    let got = common::local::send(r).await;
    let body: serde_json::Value = serde_json::from_str(&got.text).unwrap();
    let code = body["error"].as_str().unwrap_or("").to_string();
    (got.status, code)
}

/// A new password costs one hash; a taken name none (it is refused before any), and an unknown
/// name costs one check, as a wrong password does.
async fn password_work(url: &str, pool: &Passwords) {
    let _ada = Browser::signed_up(url, "Ada").await;
    assert_eq!((pool.hashes(), pool.checks()), (1, 0));
    let mut eve = Browser::new(url);
    for name in ["Ada", "ADA", "ada"] {
        let a = eve
            .send(
                "POST",
                "/api/players",
                Some(json!({ "name": name, "password": "another one" })),
            )
            .await;
        assert_eq!(a.body["error"], "name_taken");
    }
    assert_eq!(pool.hashes(), 1, "a taken name is refused before any hash");

    assert_eq!(eve.log_in("Nobody", "Ada's secret").await.status, 401);
    assert_eq!(pool.checks(), 1, "an unknown name costs one check");
    assert_eq!(eve.log_in("Ada", "not Ada's secret").await.status, 401);
    assert_eq!(pool.checks(), 2, "a wrong password costs one check");
    assert_eq!(eve.log_in("Ada", "Ada's secret").await.status, 200);
    assert_eq!((pool.hashes(), pool.checks()), (1, 3));

    // A full pool refuses at once, with a time to try again, and nothing changes.
    let held = pool.occupy().await;
    let mut cy = Browser::new(url);
    let a = cy
        .send(
            "POST",
            "/api/players",
            Some(json!({ "name": "Cyd", "password": "Cyd's secret" })),
        )
        .await;
    assert_eq!((a.status, a.body["error"].as_str()), (503, Some("busy")));
    assert!(a.headers.get("retry-after").is_some());
    drop(held);
    assert_eq!(cy.me().await["kind"], "guest");
    assert_eq!(pool.hashes(), 1);
    let _cy = Browser::signed_up(url, "Cyd").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_work_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("a.db")).unwrap());
    let pool = Arc::new(Passwords::new(1, 0));
    let url = serve_behind_proxy(store, pool.clone()).await;
    password_work(&url, &pool).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_work_on_postgres() {
    let Some(db) = TestDatabase::create("password_work_on_postgres").await else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let pool = Arc::new(Passwords::new(1, 0));
    let url = serve_behind_proxy(store, pool.clone()).await;
    password_work(&url, &pool).await;
}

/// Failures from other addresses never lock the owner out; one address is limited per name and
/// in all; sixty wrong log-ins at once (over both servers) cost exactly ten checks.
async fn log_in_limits(one: &str, two: &str, pools: [&Passwords; 2]) {
    let _ada = Browser::signed_up(one, "Ada").await;
    let checks = || pools[0].checks() + pools[1].checks();
    for i in 0..15 {
        let url = [one, two][i % 2];
        let (status, _) = log_in_from(url, &format!("203.0.113.{i}"), "ada", "guessing").await;
        assert_eq!(status, 401);
    }
    for _ in 0..10 {
        assert_eq!(
            log_in_from(one, "198.51.100.7", "Ada", "guessing").await.0,
            401
        );
    }
    assert_eq!(checks(), 25);
    // The owner, from an address that did not fail, logs in.
    assert_eq!(
        log_in_from(two, "192.0.2.1", "Ada", "Ada's secret").await.0,
        200
    );
    assert_eq!(
        log_in_from(one, "192.0.2.1", "Ada", "Ada's secret").await.0,
        200
    );
    // The address that failed ten times waits, even with the right password (uncounted work).
    let before = checks();
    assert_eq!(
        log_in_from(two, "198.51.100.7", "Ada", "Ada's secret").await,
        (429, "rate_limited".to_string())
    );
    assert_eq!(checks(), before, "a refused attempt costs no check");
    // Other names from it still count, up to the address's own limit of 30.
    for i in 0..19 {
        let name = format!("nobody{i}");
        assert_eq!(
            log_in_from(one, "198.51.100.7", &name, "guessing").await.0,
            401
        );
    }
    assert_eq!(
        log_in_from(one, "198.51.100.7", "Bea", "guessing").await.0,
        429
    );

    // Sixty at once from one address, half on each server: exactly ten are checked.
    let before = checks();
    let tries = (0..60).map(|i| {
        let url = [one, two][i % 2].to_string();
        tokio::spawn(async move { log_in_from(&url, "198.51.100.99", "Ada", "guessing").await })
    });
    let mut answers: Vec<u16> = Vec::new();
    for t in futures_util::future::join_all(tries).await {
        answers.push(t.unwrap().0);
    }
    assert_eq!(checks() - before, 10);
    assert_eq!(answers.iter().filter(|s| **s == 401).count(), 10);
    assert_eq!(answers.iter().filter(|s| **s == 429).count(), 50);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_in_limits_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("a.db")).unwrap());
    // One server on SQLite: both "servers" are the one.
    let pool = Arc::new(Passwords::new(2, 64));
    let url = serve_behind_proxy(store, pool.clone()).await;
    log_in_limits(&url, &url, [&pool, &Passwords::new(1, 0)]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_in_limits_on_postgres_with_two_servers() {
    let Some(db) = TestDatabase::create("log_in_limits_on_postgres_with_two_servers").await else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let pools = [
        Arc::new(Passwords::new(2, 64)),
        Arc::new(Passwords::new(2, 64)),
    ];
    let one = serve_behind_proxy(a, pools[0].clone()).await;
    let two = serve_behind_proxy(b, pools[1].clone()).await;
    log_in_limits(&one, &two, [&pools[0], &pools[1]]).await;
}

fn seat_token(a: &common::browser::Answer) -> String {
    assert_eq!(a.status, 200, "{}", a.body);
    a.body["token"].as_str().unwrap().to_string()
}

/// Logging out everywhere, a new password and deleting the account each revoke the account's
/// seat tokens on every server (`wrong_token`); a new session takes the seat again.
async fn sessions_end_with_seats(one: &str, two: &str) {
    let mut ada = Browser::signed_up(one, "Ada").await;
    let made = ada
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": [{"kind": "human"}, {"kind": "human"}], "public": true })),
        )
        .await;
    let game = made.body["game"].as_str().unwrap().to_string();
    let (join, path) = (
        format!("/api/games/{game}/join"),
        format!("/api/games/{game}"),
    );
    let mut token = seat_token(&ada.send("POST", &join, Some(json!({ "seat": 0 }))).await);
    let mut bea = Browser::signed_up(two, "Bea").await;
    let bea_token = seat_token(&bea.send("POST", &join, Some(json!({ "seat": 1 }))).await);
    // Read on both servers, so each holds the game as it is.
    for url in [one, two] {
        assert_eq!(Browser::new(url).get_with(&path, &token).await.status, 200);
    }

    let mut password = "Ada's secret".to_string();
    for (i, end) in ["everywhere", "new password"].into_iter().enumerate() {
        let a = match end {
            "everywhere" => ada.send("DELETE", "/api/sessions", None).await,
            _ => {
                let new = format!("a new secret {i}");
                let change = json!({ "password": password, "new_password": new });
                password = new;
                ada.send("PUT", "/api/me/password", Some(change)).await
            }
        };
        assert_eq!(a.status, 200, "{end}: {}", a.body);
        for url in [one, two] {
            let old = Browser::new(url).get_with(&path, &token).await;
            assert_eq!(
                old.body["error"], "wrong_token",
                "{end}: the old token on {url}"
            );
            assert_eq!(
                Browser::new(url).get_with(&path, &bea_token).await.status,
                200
            );
        }
        // A new session (on the other server) takes the seat again.
        let mut phone = Browser::new(two);
        assert_eq!(phone.log_in("Ada", &password).await.status, 200);
        token = seat_token(&phone.send("POST", &join, Some(json!({ "seat": 0 }))).await);
        for url in [one, two] {
            assert_eq!(Browser::new(url).get_with(&path, &token).await.status, 200);
        }
        ada = phone;
    }

    let a = ada
        .send("DELETE", "/api/me", Some(json!({ "password": password })))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    for url in [one, two] {
        let old = Browser::new(url).get_with(&path, &token).await;
        assert_eq!(
            old.body["error"], "wrong_token",
            "deleted: the old token on {url}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_end_with_seats_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("a.db")).unwrap());
    let url = serve(store).await;
    sessions_end_with_seats(&url, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_end_with_seats_on_postgres_with_two_servers() {
    let Some(db) = TestDatabase::create("sessions_end_with_seats_on_postgres").await else {
        return;
    };
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, two) = (serve(a).await, serve(b).await);
    sessions_end_with_seats(&one, &two).await;
}
