//! Notices and mail over HTTP, with a clock the test moves: "your turn" in a turn-based game for
//! the account to act (one unread per game), none in a real-time game, "game over" for both
//! players, marking read, the count alone; on SQLite and on two PostgreSQL servers. Mail through
//! a mail server the test starts (`common::smtp`): the verification mail and its link, one mail
//! per game and day, the stop link; no mail (and the API saying so) without `--smtp`; each mail
//! sent once by two servers on one PostgreSQL database.

mod common;

use common::browser::{Answer, Browser};
use common::clocked::{clock, ok, sqlite};
use common::smtp::Receiver;
use sagani_server::clock::ManualClock;
use sagani_server::store::{PostgresStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{App, Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const DAY_MS: i64 = 86_400_000;

/// A server on `store` whose time is `clock`, mailing through `smtp` if given.
async fn serve(
    store: Arc<dyn Store>,
    clock: Arc<ManualClock>,
    smtp: Option<&str>,
) -> (String, Arc<App>) {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: 0,
            ..Limits::default()
        },
        clock,
        idle_sweep: Duration::from_secs(3600),
        smtp: smtp.map(str::to_string),
        mail_poll: Duration::from_millis(20),
        ..Config::default()
    };
    common::clocked::serve(store, config).await
}

async fn send(b: &mut Browser, method: &str, path: &str, body: Option<Value>) -> Answer {
    let a = b.send(method, path, body).await;
    let route = path.split('?').next().unwrap();
    common::assert_documented(method, route, a.status, &a.body);
    a
}

/// A game of Ann's and Bob's (accounts both) with `clock`: its id and their seats' tokens.
async fn game(ann: &mut Browser, bob: &mut Browser, clock: Value) -> (String, [String; 2]) {
    let seats = json!([{"kind":"human"}, {"kind":"human"}]);
    let made = ok(ann
        .send(
            "POST",
            "/api/games",
            Some(json!({ "seats": seats, "clock": clock })),
        )
        .await);
    let game = made["game"].as_str().unwrap().to_string();
    let invite = |i: usize| made["invites"][i]["code"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (b, i) in [(ann, 0), (bob, 1)] {
        let path = format!("/api/games/{game}/join");
        let j = ok(b
            .send("POST", &path, Some(json!({ "invite": invite(i) })))
            .await);
        tokens.push(j["token"].as_str().unwrap().to_string());
    }
    (game, [tokens[0].clone(), tokens[1].clone()])
}

/// The seat to act (none once the game is over).
async fn to_act(b: &mut Browser, game: &str, token: &str) -> Option<usize> {
    let s = ok(b.get_with(&format!("/api/games/{game}"), token).await);
    if s["status"] == "over" {
        return None;
    }
    s["view"]["next"]["player"].as_u64().map(|p| p as usize)
}

/// The seat to act plays its first legal decision: which seat it was.
async fn step(b: &mut Browser, game: &str, tokens: &[String; 2]) -> Option<usize> {
    let seat = to_act(b, game, &tokens[0]).await?;
    let t = &tokens[seat];
    let s = ok(b.get_with(&format!("/api/games/{game}"), t).await);
    let body = json!({ "version": s["version"], "move": s["legal"][0] });
    ok(b.post_with(&format!("/api/games/{game}/moves"), t, body)
        .await);
    Some(seat)
}

/// Plays until seat `seat` has just got the turn from the other (it is to act, the other moved
/// last).
async fn pass_turn_to(b: &mut Browser, game: &str, tokens: &[String; 2], seat: usize) {
    loop {
        let moved = step(b, game, tokens).await.expect("the game goes on");
        if moved != seat && to_act(b, game, &tokens[0]).await == Some(seat) {
            return;
        }
    }
}

async fn notices(b: &mut Browser) -> Value {
    ok(send(b, "GET", "/api/notices", None).await)
}

async fn unread(b: &mut Browser) -> u64 {
    let a = ok(send(b, "GET", "/api/notices?count=1", None).await);
    assert_eq!(a["notices"], json!([]), "the count alone: {a}");
    a["unread"].as_u64().unwrap()
}

fn kinds(list: &Value) -> Vec<(String, String)> {
    list["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["kind"].as_str().unwrap().to_string(),
                n["game"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// `one` and `two` are two servers on one database (or the same).
async fn notices_of_moves(one: &str, two: &str) {
    let mut guest = Browser::new(one);
    let a = send(&mut guest, "GET", "/api/notices", None).await;
    assert_eq!((a.status, &a.body["error"]), (401, &json!("not_logged_in")));
    let mut ann = Browser::signed_up(one, "Ann").await;
    let mut bob = Browser::signed_up(one, "Bob").await;
    // Bob reads on the other server.
    let mut bob_there = Browser::new(two);
    bob_there.cookie = bob.cookie.clone();
    // A real-time game: the players are at the table, no notice.
    let realtime = json!({"kind":"realtime","initial_s":600,"increment_s":0});
    let (rt, rt_tokens) = game(&mut ann, &mut bob, realtime).await;
    step(&mut ann, &rt, &rt_tokens).await;
    step(&mut ann, &rt, &rt_tokens).await;
    assert_eq!(
        (unread(&mut ann).await, unread(&mut bob_there).await),
        (0, 0)
    );
    // A turn-based game: Bob's turn once Ann moved.
    let (g, tokens) = game(&mut ann, &mut bob, json!({"kind":"turn","days":1})).await;
    pass_turn_to(&mut ann, &g, &tokens, 1).await;
    assert_eq!(unread(&mut bob_there).await, 1);
    let list = notices(&mut bob_there).await;
    assert_eq!(kinds(&list), [("your_turn".to_string(), g.clone())]);
    assert_eq!(list["notices"][0]["read"], false);
    assert_eq!(list["notices"][0]["players"], json!(["Ann"]));
    assert_eq!(list["mail"], false);
    // Back and forth: still one unread "your turn" of this game for Bob.
    pass_turn_to(&mut ann, &g, &tokens, 0).await;
    pass_turn_to(&mut ann, &g, &tokens, 1).await;
    let list = notices(&mut bob_there).await;
    assert_eq!(kinds(&list).len(), 1, "{list}");
    assert_eq!(list["unread"], 1);
    // Read: none unread.
    let upto = list["notices"][0]["at"].clone();
    let read = ok(send(
        &mut bob_there,
        "POST",
        "/api/notices/read",
        Some(json!({ "upto": upto })),
    )
    .await);
    assert_eq!(read["unread"], 0);
    assert_eq!(notices(&mut bob).await["notices"][0]["read"], true);
    // Another site's page may not mark them.
    let mut elsewhere = Browser::new(one);
    elsewhere.cookie = bob.cookie.clone();
    elsewhere.origin = Some("https://evil.example".into());
    let a = send(
        &mut elsewhere,
        "POST",
        "/api/notices/read",
        Some(json!({ "upto": upto })),
    )
    .await;
    assert_eq!(a.status, 403);
    // To the end: "game over" for both, and no turn left unread in it.
    while step(&mut ann, &g, &tokens).await.is_some() {}
    for b in [&mut ann, &mut bob_there] {
        let list = notices(b).await;
        let of_g: Vec<(&str, bool)> = list["notices"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["game"] == g.as_str() && n["read"] == false)
            .map(|n| (n["kind"].as_str().unwrap(), n["read"].as_bool().unwrap()))
            .collect();
        assert_eq!(of_g, [("game_over", false)], "{list}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_raise_notices_on_sqlite() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock(), None).await;
    notices_of_moves(&url, &url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_raise_notices_on_two_postgres_servers() {
    let Some(db) = TestDatabase::create("moves_raise_notices_on_two_postgres_servers").await else {
        return;
    };
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, _a) = serve(a, time.clone(), None).await;
    let (two, _b) = serve(b, time, None).await;
    notices_of_moves(&one, &two).await;
}

/// Without `--smtp`: the API says mail is off, and refuses an address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_smtp_mail_is_off() {
    let (_dir, store) = sqlite();
    let (url, _app) = serve(store, clock(), None).await;
    let mut ann = Browser::signed_up(&url, "Ann").await;
    assert_eq!(notices(&mut ann).await["mail"], false);
    let settings = ok(send(&mut ann, "GET", "/api/me/email", None).await);
    assert_eq!(
        settings,
        json!({"mail": false, "verified": false, "your_turn": false, "challenges": false})
    );
    let a = send(
        &mut ann,
        "PUT",
        "/api/me/email",
        Some(json!({"address": "ann@example.org", "your_turn": true})),
    )
    .await;
    assert_eq!(
        (a.status, &a.body["detail"]["kind"]),
        (400, &json!("mail_off")),
        "{}",
        a.body
    );
}

/// Sets `address` for the browser's account (in German) and opens the link mailed to it.
async fn verified(b: &mut Browser, smtp: &Receiver, address: &str) {
    let before = smtp.mails_to(address).len();
    let a = ok(send(
        b,
        "PUT",
        "/api/me/email",
        Some(json!({"address": address, "lang": "de", "your_turn": true})),
    )
    .await);
    assert_eq!(
        (a["mail"].clone(), a["verified"].clone()),
        (json!(true), json!(false)),
        "{a}"
    );
    let mail = smtp.wait_for(address, before + 1).await.pop().unwrap();
    assert_eq!(mail.subject(), "Bestätige deine E-Mail-Adresse für Sagani");
    assert!(mail.header("List-Unsubscribe").is_none());
    let link = mail
        .link(&format!("{}/api/mail/verify?token=", b.url))
        .expect("a link");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let opened = client.get(&link).send().await.unwrap();
    assert_eq!(opened.status(), 303);
    assert_eq!(opened.headers()["location"], "/account?mail=verified");
    // Once only.
    let again = client.get(&link).send().await.unwrap();
    assert_eq!(again.headers()["location"], "/account?mail=expired");
    let a = ok(send(b, "GET", "/api/me/email", None).await);
    assert_eq!(a["verified"], true, "{a}");
}

/// The turn mails of game `g` to `address`.
fn turn_mails(smtp: &Receiver, address: &str, g: &str) -> Vec<common::smtp::Mail> {
    smtp.mails_to(address)
        .into_iter()
        .filter(|m| m.text().contains(&format!("/games/{g}")))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_mails_once_a_day_until_stopped() {
    let smtp = Receiver::start().await;
    let (_dir, store) = sqlite();
    let time = clock();
    let (url, _app) = serve(store, time.clone(), Some(&smtp.url)).await;
    let mut ann = Browser::signed_up(&url, "Ann").await;
    let mut bob = Browser::signed_up(&url, "Bob").await;
    let bad = send(
        &mut ann,
        "PUT",
        "/api/me/email",
        Some(json!({"address": "not an address"})),
    )
    .await;
    assert_eq!(bad.body["detail"]["kind"], "mail_address");
    verified(&mut ann, &smtp, "ann@example.org").await;
    verified(&mut bob, &smtp, "bob@example.org").await;
    let (g, tokens) = game(&mut ann, &mut bob, json!({"kind":"turn","days":3})).await;
    // Bob moves: Ann's turn, a mail.
    pass_turn_to(&mut ann, &g, &tokens, 0).await;
    let got = smtp.wait_for("ann@example.org", 2).await;
    let mail = got.last().unwrap();
    // As received (`--nocapture` shows it).
    eprintln!("a turn mail as received:\n{}", mail.data);
    assert_eq!(mail.subject(), "Du bist am Zug bei Sagani");
    let text = mail.text();
    assert!(text.contains(&format!("{url}/games/{g}")), "{text}");
    let stop = mail
        .link(&format!("{url}/api/mail/stop?token="))
        .expect("a stop link");
    assert_eq!(mail.header("List-Unsubscribe"), Some(format!("<{stop}>")));
    assert_eq!(
        mail.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    // The same day: Ann's turn again, and Bob's twice (his first mail of this game); Ann gets
    // no second mail.
    pass_turn_to(&mut ann, &g, &tokens, 1).await;
    pass_turn_to(&mut ann, &g, &tokens, 0).await;
    pass_turn_to(&mut ann, &g, &tokens, 1).await;
    smtp.wait_for("bob@example.org", 2).await;
    // A day later: a second mail.
    time.advance(DAY_MS);
    pass_turn_to(&mut ann, &g, &tokens, 0).await;
    smtp.wait_for("ann@example.org", 3).await;
    // Bob's second mail comes after anything raised for Ann before it.
    pass_turn_to(&mut ann, &g, &tokens, 1).await;
    smtp.wait_for("bob@example.org", 3).await;
    assert_eq!(turn_mails(&smtp, "ann@example.org", &g).len(), 2);
    // The stop link, without logging in: a page that says so; Ann's next turns mail nothing.
    let page = reqwest::get(&stop).await.unwrap();
    assert_eq!(page.status(), 200);
    let words = page.text().await.unwrap();
    assert!(words.contains("Keine Mails mehr"), "{words}");
    let a = ok(send(&mut ann, "GET", "/api/me/email", None).await);
    assert_eq!(
        (a["your_turn"].clone(), a["challenges"].clone()),
        (json!(false), json!(false))
    );
    time.advance(DAY_MS);
    pass_turn_to(&mut ann, &g, &tokens, 0).await;
    assert_eq!(notices(&mut ann).await["notices"][0]["kind"], "your_turn");
    pass_turn_to(&mut ann, &g, &tokens, 1).await;
    smtp.wait_for("bob@example.org", 4).await;
    assert_eq!(
        turn_mails(&smtp, "ann@example.org", &g).len(),
        2,
        "no mail after the stop"
    );
    // One click (RFC 8058) works the same; a made-up token stops nothing.
    let client = reqwest::Client::new();
    let posted = client.post(&stop).send().await.unwrap();
    assert_eq!(posted.status(), 200);
    let none = reqwest::get(format!("{url}/api/mail/stop?token=made-up"))
        .await
        .unwrap();
    assert!(none.text().await.unwrap().contains("Nothing to stop"));
}

/// Two servers on one PostgreSQL database, both mailing: each mail is sent once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_postgres_servers_send_each_mail_once() {
    let Some(db) = TestDatabase::create("two_postgres_servers_send_each_mail_once").await else {
        return;
    };
    let smtp = Receiver::start().await;
    let time = clock();
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let (one, _a) = serve(a.clone(), time.clone(), Some(&smtp.url)).await;
    let (two, _b) = serve(b, time.clone(), Some(&smtp.url)).await;
    let mut ann = Browser::signed_up(&one, "Ann").await;
    let mut bob = Browser::signed_up(&two, "Bob").await;
    verified(&mut ann, &smtp, "ann@example.org").await;
    let mut games = Vec::new();
    for _ in 0..6 {
        let (g, tokens) = game(&mut ann, &mut bob, json!({"kind":"turn","days":1})).await;
        pass_turn_to(&mut bob, &g, &tokens, 0).await;
        games.push(g);
    }
    smtp.wait_for("ann@example.org", 1 + games.len()).await;
    // Every mail is done: none due even once any lease would have ended.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !a
        .due_mails(time_now(&time) + DAY_MS, 100)
        .await
        .unwrap()
        .is_empty()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox never empties"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for g in &games {
        assert_eq!(turn_mails(&smtp, "ann@example.org", g).len(), 1, "game {g}");
    }
    assert_eq!(smtp.mails_to("ann@example.org").len(), 1 + games.len());
}

fn time_now(time: &ManualClock) -> i64 {
    use sagani_server::clock::Clock;
    time.now_ms()
}

/// What raising a notice costs a move on PostgreSQL: 300 moves stored as one statement (no
/// notice) against 300 stored with a "your turn" notice (a transaction), the median of each.
/// A measurement, not a check: `cargo test -p sagani-server --test notices -- --ignored
/// --nocapture` with SAGANI_TEST_POSTGRES set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn what_a_notice_costs_a_move() {
    use sagani_server::store::conformance::game;
    use sagani_server::store::{MoveWrite, NewNotice, NewPlayer, NoticeKind, Progress, SavedSeat};
    let Some(db) = TestDatabase::create("what_a_notice_costs_a_move").await else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    store
        .sign_up(&NewPlayer {
            id: "p1".into(),
            name: "Ann".into(),
            key: "ann".into(),
            skeleton: "ann".into(),
            password: "x".into(),
            created_at: 1,
        })
        .await
        .unwrap();
    let playing = Progress {
        over: false,
        bot_to_act: false,
        deadline_ms: None,
    };
    let mut medians = Vec::new();
    for (g, with_notice) in [
        ("plain", false),
        ("noticed", true),
        ("plain2", false),
        ("noticed2", true),
    ] {
        let seats = vec![SavedSeat::human("i".into()), SavedSeat::human("j".into())];
        store
            .create(&game(g, seats), playing, None, None)
            .await
            .unwrap();
        let mut times = Vec::new();
        for n in 0..300u64 {
            let w = MoveWrite {
                game: g.into(),
                n,
                seat: (n % 2) as u8,
                mv: sagani_core::Move::Pass,
                token_hash: None,
                at_ms: 1_900_000_000_000 + n as i64,
                start_ms: None,
                after: playing,
                end: None,
                notices: if with_notice {
                    vec![NewNotice {
                        id: format!("{g}-{n}"),
                        player: "p1".into(),
                        kind: NoticeKind::YourTurn,
                        game: Some(g.into()),
                        about: None,
                        at_ms: 1_900_000_000_000 + n as i64,
                    }]
                } else {
                    Vec::new()
                },
            };
            let t = std::time::Instant::now();
            store.append_move(&w).await.unwrap();
            times.push(t.elapsed().as_micros());
        }
        times.sort();
        medians.push((g, times[150], times[285]));
    }
    for (g, median, p95) in medians {
        eprintln!("{g}: median {median} µs, 95th percentile {p95} µs");
    }
}
