//! Accounts over HTTP, on both stores: signing up, logging in and out (everywhere too), wrong
//! passwords and their limit, a new password, deleting an account, and the Origin check that
//! keeps other sites from using a player's cookie. With PostgreSQL, a session opened on one
//! server is known to a second.

mod common;

use common::browser::Browser;

use reqwest::header::SET_COOKIE;
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{Config, Limits};
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
    for (name, password) in [
        ("admin", "long enough"),
        ("mcts-bot", "long enough"),
        ("a b", "long enough"),
        ("Eve", "short"),
    ] {
        let a = eve
            .send(
                "POST",
                "/api/players",
                Some(json!({ "name": name, "password": password })),
            )
            .await;
        assert_eq!(a.status, 400, "{name}: {}", a.body);
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

    // Failed log-ins are limited per name: after ten, even the right password waits. Three
    // failed above (a wrong password, the old one, the deleted account's).
    for _ in 0..7 {
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
