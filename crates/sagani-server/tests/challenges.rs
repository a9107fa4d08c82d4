//! Challenges and follows between accounts over HTTP, with a clock the test moves: a challenge
//! by name raises a notice, is accepted into a game where both accounts hold their seats and
//! play; declined; withdrawn; refused from a player the challenged account does not follow;
//! accepted on two servers at once (one game); expired. Follows, and who is online. Each case
//! runs on SQLite and on PostgreSQL with two servers (when `SAGANI_TEST_POSTGRES` names one).

mod common;

use common::browser::{Answer, Browser};
use sagani_server::clock::ManualClock;
use sagani_server::store::{NoticeKind, PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{App, Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const HOUR_MS: i64 = 3_600_000;
/// 2026-12-03, 10:00 UTC.
const MORNING: i64 = 1_796_256_000_000 + 10 * HOUR_MS;

/// Two servers on one database (on SQLite, one server named twice) sharing one clock.
struct Site {
    urls: [String; 2],
    store: Arc<dyn Store>,
    clock: Arc<ManualClock>,
    _keep: Box<dyn std::any::Any + Send>,
}

async fn serve(store: Arc<dyn Store>, clock: Arc<ManualClock>) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: 0,
            ..Limits::default()
        },
        clock,
        bot_sweep: Duration::from_millis(50),
        ..Config::default()
    };
    let app = App::start(store, config).await.expect("server opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    common::local::answer_at(&url, app.clone());
    tokio::spawn(async move {
        sagani_server::serve(app, listener, std::future::pending())
            .await
            .expect("serve");
    });
    url
}

async fn sqlite_site() -> Site {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("c.db")).unwrap());
    let clock = Arc::new(ManualClock::new(MORNING));
    let url = serve(store.clone(), clock.clone()).await;
    Site {
        urls: [url.clone(), url],
        store,
        clock,
        _keep: Box::new(dir),
    }
}

async fn postgres_site(test: &str) -> Option<Site> {
    let db = TestDatabase::create(test).await?;
    let clock = Arc::new(ManualClock::new(MORNING));
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let urls = [
        serve(a.clone(), clock.clone()).await,
        serve(b, clock.clone()).await,
    ];
    Some(Site {
        urls,
        store: a,
        clock,
        _keep: Box::new(db),
    })
}

/// Runs a case on SQLite, and on PostgreSQL with two servers.
macro_rules! on_both_stores {
    ($case:ident) => {
        mod $case {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$case(super::sqlite_site().await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(site) = super::postgres_site(stringify!($case)).await {
                    super::$case(site).await;
                }
            }
        }
    };
}

fn ok(a: &Answer) -> Value {
    assert!(a.status < 300, "{}: {}", a.status, a.body);
    a.body.clone()
}

fn refused(a: &Answer, status: u16, code: &str) {
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (status, Some(code)),
        "{}",
        a.body
    );
}

fn s(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("a string: {v}"))
        .to_string()
}

async fn challenge(b: &mut Browser, to: &str, body: Value) -> Answer {
    let mut body = body;
    body["to"] = json!(to);
    b.send("POST", "/api/challenges", Some(body)).await
}

async fn list(b: &mut Browser) -> Value {
    ok(&b.send("GET", "/api/challenges", None).await)
}

async fn account_id(site: &Site, name: &str) -> String {
    site.store
        .player_named(&name.to_lowercase())
        .await
        .unwrap()
        .unwrap()
        .id
}

/// Plays one legal move with the seat's token, if it is that seat's turn; whether it did.
async fn move_if_my_turn(b: &mut Browser, game: &str, token: &str) -> bool {
    let st = ok(&b.get_with(&format!("/api/games/{game}"), token).await);
    let legal = st["legal"].as_array().cloned().unwrap_or_default();
    if legal.is_empty() {
        return false;
    }
    let body = json!({ "version": st["version"], "move": legal[0] });
    ok(&b
        .post_with(&format!("/api/games/{game}/moves"), token, body)
        .await);
    true
}

async fn challenged_accepted_and_played(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&two, "Bea").await;
    // The name in any case, as a log-in takes it.
    let sent = ok(&challenge(
        &mut ada,
        "BEA",
        json!({ "clock": { "kind": "realtime", "initial_s": 300, "increment_s": 5 }, "rated": true }),
    )
    .await);
    assert_eq!(
        (s(&sent["from"]), s(&sent["to"])),
        ("Ada".into(), "Bea".into())
    );
    assert_eq!(sent["status"], "open");
    assert_eq!(sent["expires_ms"], MORNING + 24 * HOUR_MS);
    let id = s(&sent["challenge"]);
    // Bea's notice names the challenge.
    let bea_id = account_id(&site, "Bea").await;
    let notices = site.store.notices(&bea_id, 10).await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, NoticeKind::Challenge);
    assert_eq!(notices[0].about.as_deref(), Some(id.as_str()));
    // Both see it, on either server.
    let theirs = list(&mut bea).await;
    assert_eq!(theirs["incoming"][0]["challenge"], id.as_str());
    assert_eq!(theirs["outgoing"], json!([]));
    let mine = list(&mut ada).await;
    assert_eq!(mine["outgoing"][0]["status"], "open");
    assert_eq!(mine["incoming"], json!([]));
    // Only Bea accepts it; Ada cannot.
    refused(
        &ada.send("POST", &format!("/api/challenges/{id}/accept"), None)
            .await,
        404,
        "not_found",
    );
    let accepted = ok(&bea
        .send("POST", &format!("/api/challenges/{id}/accept"), None)
        .await);
    let game = s(&accepted["game"]);
    assert_eq!(accepted["seat"], 1);
    let bea_token = s(&accepted["token"]);
    // Ada finds the game in her list and takes her seat with the cookie.
    let mine = list(&mut ada).await;
    let out = &mine["outgoing"][0];
    assert_eq!(
        (out["status"].as_str(), out["game"].as_str()),
        (Some("accepted"), Some(game.as_str()))
    );
    assert_eq!(out["seat"], 0);
    assert_eq!(out["game_url"], format!("/games/{game}"));
    assert_eq!(list(&mut bea).await["incoming"], json!([]));
    // Until Ada sits down the game waits for her: no clock runs.
    let st = ok(&bea
        .get_with(&format!("/api/games/{game}"), &bea_token)
        .await);
    assert_eq!(st["status"], "waiting", "{st}");
    let joined = ok(&ada
        .send(
            "POST",
            &format!("/api/games/{game}/join"),
            Some(json!({ "seat": 0 })),
        )
        .await);
    let ada_token = s(&joined["token"]);
    // The game: rated, with the clock asked for, both seats the accounts'.
    let st = ok(&ada
        .get_with(&format!("/api/games/{game}"), &ada_token)
        .await);
    assert_eq!(st["rated"], true, "{st}");
    assert_eq!(st["status"], "playing", "{st}");
    let names: Vec<String> = st["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| s(&seat["name"]))
        .collect();
    assert_eq!(names, ["Ada", "Bea"]);
    // Each plays a move with their own seat.
    let (mut ada_moved, mut bea_moved) = (false, false);
    for _ in 0..6 {
        ada_moved |= move_if_my_turn(&mut ada, &game, &ada_token).await;
        bea_moved |= move_if_my_turn(&mut bea, &game, &bea_token).await;
        if ada_moved && bea_moved {
            break;
        }
    }
    assert!(ada_moved && bea_moved);
    // An accepted challenge is answered: it cannot be accepted, declined or withdrawn again.
    refused(
        &ada.send("DELETE", &format!("/api/challenges/{id}"), None)
            .await,
        409,
        "challenge_closed",
    );
}
on_both_stores!(challenged_accepted_and_played);

async fn declined_withdrawn_and_refused(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&two, "Bea").await;
    // Not oneself, not nobody, not solo.
    let me = challenge(&mut ada, "ada", json!({})).await;
    refused(&me, 400, "bad_request");
    assert_eq!(me.body["detail"]["kind"], "challenge_yourself");
    refused(
        &challenge(&mut ada, "nobody", json!({})).await,
        404,
        "not_found",
    );
    refused(
        &challenge(&mut ada, "Bea", json!({ "variant": "solo" })).await,
        400,
        "bad_request",
    );
    // Not logged in; not from another site.
    let mut guest = Browser::new(&one);
    refused(
        &challenge(&mut guest, "Bea", json!({})).await,
        401,
        "not_logged_in",
    );
    ada.origin = Some("http://elsewhere.example".into());
    refused(
        &challenge(&mut ada, "Bea", json!({})).await,
        403,
        "wrong_origin",
    );
    ada.origin = Some(one.clone());
    // Declined by Bea: Ada sees it declined; it cannot be accepted then.
    let id = s(&ok(&challenge(&mut ada, "Bea", json!({})).await)["challenge"]);
    refused(
        &ada.send("POST", &format!("/api/challenges/{id}/decline"), None)
            .await,
        404,
        "not_found",
    );
    let declined = ok(&bea
        .send("POST", &format!("/api/challenges/{id}/decline"), None)
        .await);
    assert_eq!(declined["status"], "declined");
    assert_eq!(list(&mut ada).await["outgoing"][0]["status"], "declined");
    refused(
        &bea.send("POST", &format!("/api/challenges/{id}/accept"), None)
            .await,
        409,
        "challenge_closed",
    );
    // Withdrawn by Ada: gone from Bea's list.
    let id = s(&ok(&challenge(&mut ada, "Bea", json!({})).await)["challenge"]);
    refused(
        &bea.send("DELETE", &format!("/api/challenges/{id}"), None)
            .await,
        404,
        "not_found",
    );
    ok(&ada
        .send("DELETE", &format!("/api/challenges/{id}"), None)
        .await);
    assert_eq!(list(&mut bea).await["incoming"], json!([]));
    refused(
        &bea.send("POST", &format!("/api/challenges/{id}/accept"), None)
            .await,
        409,
        "challenge_closed",
    );
    // Bea takes challenges only from players she follows: Ada's is refused until she does.
    let set = ok(&bea
        .send(
            "PUT",
            "/api/me/challenges",
            Some(json!({ "from": "followed" })),
        )
        .await);
    assert_eq!(set["from"], "followed");
    assert_eq!(
        ok(&bea.send("GET", "/api/follows", None).await)["challenges_from"],
        "followed"
    );
    refused(
        &challenge(&mut ada, "Bea", json!({})).await,
        403,
        "challenge_refused",
    );
    ok(&bea.send("PUT", "/api/follows/ADA", None).await);
    ok(&challenge(&mut ada, "Bea", json!({})).await);
    // Too many open challenges.
    for _ in 1..20 {
        ok(&challenge(&mut ada, "Bea", json!({})).await);
    }
    refused(
        &challenge(&mut ada, "Bea", json!({})).await,
        429,
        "too_many_challenges",
    );
}
on_both_stores!(declined_withdrawn_and_refused);

async fn expiry(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&two, "Bea").await;
    let realtime = s(&ok(&challenge(&mut ada, "Bea", json!({})).await)["challenge"]);
    let turn = ok(&challenge(
        &mut ada,
        "Bea",
        json!({ "clock": { "kind": "turn", "days": 2 } }),
    )
    .await);
    assert_eq!(turn["expires_ms"], MORNING + 7 * 24 * HOUR_MS);
    let turn = s(&turn["challenge"]);
    // A day on: the real-time one expired, the turn-based one is still open.
    site.clock.advance(24 * HOUR_MS);
    let theirs = list(&mut bea).await;
    let open: Vec<String> = theirs["incoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| s(&c["challenge"]))
        .collect();
    assert_eq!(open, std::slice::from_ref(&turn));
    refused(
        &bea.send("POST", &format!("/api/challenges/{realtime}/accept"), None)
            .await,
        409,
        "challenge_closed",
    );
    // An expired one no longer counts among the open ones; the turn-based one is accepted.
    ok(&bea
        .send("POST", &format!("/api/challenges/{turn}/accept"), None)
        .await);
}
on_both_stores!(expiry);

/// Bea accepts on both servers at once (two tabs): one game, and both answers name it.
async fn accepted_on_two_servers_at_once(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&one, "Bea").await;
    let mut bea_two = Browser::new(&two);
    bea_two.cookie = bea.cookie.clone();
    for _ in 0..5 {
        let id = s(&ok(&challenge(&mut ada, "Bea", json!({})).await)["challenge"]);
        let path = format!("/api/challenges/{id}/accept");
        let (a, b) = tokio::join!(
            bea.send("POST", &path, None),
            bea_two.send("POST", &path, None)
        );
        let (a, b) = (ok(&a), ok(&b));
        assert_eq!(a["game"], b["game"]);
    }
    assert_eq!(site.store.counts().await.unwrap().games, 5);
}
on_both_stores!(accepted_on_two_servers_at_once);

async fn follows_and_online(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&two, "Bea").await;
    let _cyd = Browser::signed_up(&two, "Cyd").await;
    // Nobody followed yet; the profile says so to a logged-in viewer, not to a guest.
    let follows = ok(&ada.send("GET", "/api/follows", None).await);
    assert_eq!(
        follows,
        json!({ "follows": [], "challenges_from": "everyone" })
    );
    assert_eq!(
        ok(&ada.send("GET", "/api/players/bea", None).await)["following"],
        false
    );
    assert!(ok(&Browser::new(&one)
        .send("GET", "/api/players/bea", None)
        .await)
    .get("following")
    .is_none());
    assert!(ok(&ada.send("GET", "/api/players/ada", None).await)
        .get("following")
        .is_none());
    refused(
        &ada.send("PUT", "/api/follows/ada", None).await,
        400,
        "bad_request",
    );
    refused(
        &ada.send("PUT", "/api/follows/nobody", None).await,
        404,
        "not_found",
    );
    ok(&ada.send("PUT", "/api/follows/BEA", None).await);
    ok(&ada.send("PUT", "/api/follows/bea", None).await);
    // Bea made a request logged in just now; Cyd only signed up.
    bea.me().await;
    let list = ok(&ada.send("PUT", "/api/follows/cyd", None).await);
    assert_eq!(
        list["follows"],
        json!([{ "name": "Bea", "online": true }, { "name": "Cyd", "online": false }])
    );
    assert_eq!(
        ok(&ada.send("GET", "/api/players/Bea", None).await)["following"],
        true
    );
    // Three minutes on, nobody has been seen; then Bea makes a request, on either server.
    site.clock.advance(180_000);
    let list = ok(&ada.send("GET", "/api/follows", None).await);
    assert_eq!(
        list["follows"],
        json!([{ "name": "Bea", "online": false }, { "name": "Cyd", "online": false }])
    );
    bea.me().await;
    let list = ok(&ada.send("GET", "/api/follows", None).await);
    assert_eq!(list["follows"][0], json!({ "name": "Bea", "online": true }));
    // Unfollowed.
    let list = ok(&ada.send("DELETE", "/api/follows/cyd", None).await);
    assert_eq!(list["follows"].as_array().unwrap().len(), 1);
    assert_eq!(
        ok(&bea.send("GET", "/api/follows", None).await)["follows"],
        json!([])
    );
}
on_both_stores!(follows_and_online);
