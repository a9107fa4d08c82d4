//! The Origin check compares the scheme too: a request the session cookie makes count must come
//! from a page of the site as it is reached, https behind `--public-url https://…` or a trusted
//! proxy's `X-Forwarded-Proto`, http otherwise; a client's own `X-Forwarded-Proto` is not
//! believed.

mod common;

use common::browser::Browser;
use reqwest::header::{COOKIE, ORIGIN};
use sagani_server::store::{SqliteStore, Store};
use sagani_server::{Config, HttpLimits, Limits};
use serde_json::json;
use std::sync::Arc;

async fn serve(secure_cookies: bool, trusted: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("o.db")).unwrap());
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            ..Limits::default()
        },
        http: HttpLimits {
            trusted_proxies: trusted.iter().map(|n| n.parse().unwrap()).collect(),
            ..HttpLimits::default()
        },
        secure_cookies,
        ..Config::default()
    };
    (dir, common::serve_local(store, config).await)
}

/// Logged in as Ada, from a page at `origin`.
async fn ada(url: &str, origin: &str) -> Browser {
    let mut b = Browser::new(url);
    b.origin = Some(origin.into());
    let body = json!({ "name": "Ada", "password": "long enough" });
    let a = b.send("POST", "/api/players", Some(body)).await;
    assert_eq!(a.status, 201, "{}", a.body);
    b
}

/// The status of a cookie request ("log out everywhere" is one) from a page at `origin`, with
/// the client's own `X-Forwarded-Proto` if any; the test peer is 127.0.0.1.
async fn from(b: &Browser, origin: &str, proto: Option<&str>) -> (u16, String) {
    let mut r = reqwest::Client::new()
        .delete(format!("{}/api/sessions", b.url))
        .header(COOKIE, b.cookie.clone().unwrap())
        .header(ORIGIN, origin);
    if let Some(p) = proto {
        r = r.header("x-forwarded-proto", p);
    }
    let got = common::local::send(r).await;
    (got.status, got.text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_plain_http_an_https_page_is_another_site() {
    let (_dir, url) = serve(false, &[]).await;
    let https = url.replace("http://", "https://");
    let b = ada(&url, &url).await;
    let (status, body) = from(&b, &https, None).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body.contains("wrong_origin") && body.contains(&url),
        "{body}"
    );
    // A client cannot make itself https by saying so.
    assert_eq!(from(&b, &https, Some("https")).await.0, 403);
    assert_eq!(from(&b, &url, Some("https")).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_an_https_public_address_an_http_page_is_another_site() {
    let (_dir, url) = serve(true, &[]).await;
    let https = url.replace("http://", "https://");
    // Signing up from the http page is refused too (it opens a session).
    let mut eve = Browser::new(&url);
    let body = json!({ "name": "Eve", "password": "long enough" });
    let a = eve.send("POST", "/api/players", Some(body)).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (403, Some("wrong_origin"))
    );
    let b = ada(&url, &https).await;
    assert_eq!(from(&b, &url, None).await.0, 403);
    assert_eq!(from(&b, &https, None).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_says_the_scheme() {
    let (_dir, url) = serve(false, &["127.0.0.1/32"]).await;
    let https = url.replace("http://", "https://");
    let b = ada(&url, &url).await;
    assert_eq!(from(&b, &url, Some("https")).await.0, 403);
    assert_eq!(from(&b, &https, Some("http")).await.0, 403);
    assert_eq!(from(&b, &https, Some("https")).await.0, 200);
}
