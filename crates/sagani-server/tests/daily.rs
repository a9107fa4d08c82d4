//! The daily challenge over HTTP, with a clock the test moves (a day passes at once): the
//! day's deck the same for everyone and new the next day, dealt from a secret that never
//! leaves the server; one ranked attempt per account, guests unranked on decks of their own
//! (nobody plays the day's deck before their ranked attempt); the leaderboards'
//! order; a daily game's history hidden from others until its day is over; par, the fixed
//! bot's result on the deck, shown once one has finished; streaks. Each case runs on SQLite
//! and on PostgreSQL with two servers (when `SAGANI_TEST_POSTGRES` names one).

mod common;

use common::browser::{Answer, Browser};
use futures_util::{SinkExt, StreamExt};
use sagani_core::{DeckOrder, Game, Setup, Variant};
use sagani_server::clock::ManualClock;
use sagani_server::store::{PostgresStore, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::{App, Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const DAY_MS: i64 = 86_400_000;
/// 2026-12-03, 10:00 UTC.
const MORNING: i64 = 1_796_256_000_000 + 10 * 3_600_000;

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
    // Requests need no socket; a spectator's WebSocket has this one.
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
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("d.db")).unwrap());
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

/// An attempt at today's challenge: the start's answer.
async fn start(b: &mut Browser, variant: &str) -> Value {
    let a = b
        .send(
            "POST",
            &format!("/api/daily/{variant}/start"),
            Some(json!({})),
        )
        .await;
    ok(&a)
}

fn id(v: &Value) -> String {
    v["game"].as_str().unwrap().to_string()
}

fn token(v: &Value) -> String {
    v["token"].as_str().unwrap().to_string()
}

async fn deck(site: &Site, game: &str) -> Vec<u8> {
    site.store.game(game).await.unwrap().deck
}

/// Plays the seat to the end, each move the legal move `pick` chooses among `n`; the state at
/// the end.
async fn play_out(
    b: &mut Browser,
    game: &str,
    token: &str,
    pick: impl Fn(usize) -> usize,
) -> Value {
    loop {
        let s = ok(&b.get_with(&format!("/api/games/{game}"), token).await);
        if s["status"] == "over" {
            return s;
        }
        let legal = s["legal"].as_array().unwrap();
        let body = json!({ "version": s["version"], "move": legal[pick(legal.len())] });
        ok(&b
            .post_with(&format!("/api/games/{game}/moves"), token, body)
            .await);
    }
}

async fn day_card(b: &mut Browser, game: &str, token: &str) -> Value {
    ok(&b.get_with(&format!("/api/games/{game}/daily"), token).await)
}

/// The card of a finished ranked attempt once the par bot, which plays on the servers' bot
/// scheduler, has finished the day's deck.
async fn wait_for_par(b: &mut Browser, game: &str, token: &str) -> Value {
    let mut card = day_card(b, game, token).await;
    for _ in 0..600 {
        if !card["par"].is_null() {
            return card;
        }
        assert_eq!(card["par_pending"], true, "{card}");
        tokio::time::sleep(Duration::from_millis(50)).await;
        card = day_card(b, game, token).await;
    }
    panic!("par never came: {card}");
}

async fn the_days_deck_is_the_same_for_everyone_and_new_the_next_day(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&two, "Bea").await;
    let mut guest = Browser::new(&two);
    let today = ok(&guest.send("GET", "/api/daily", None).await);
    assert_eq!(today["day"], "2026-12-03");
    assert_eq!(today["ends_at_ms"], MORNING - 10 * 3_600_000 + DAY_MS);
    let variants: Vec<&str> = today["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(variants, ["solo", "solo-all"]);
    assert_eq!(today["variants"][0]["start"], "/api/daily/solo/start");
    let a = start(&mut ada, "solo").await;
    let b = start(&mut bea, "solo").await;
    assert_eq!(
        (a["ranked"].as_bool(), b["ranked"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(a["day"], "2026-12-03");
    let todays = deck(&site, &id(&a)).await;
    assert_eq!(
        deck(&site, &id(&b)).await,
        todays,
        "the same deck on both servers"
    );
    let all = start(&mut bea, "solo-all").await;
    assert_ne!(
        deck(&site, &id(&all)).await,
        todays,
        "the other variant's own"
    );
    // The state says it is a daily game, the draw pile stays hidden as ever.
    let s = ok(&bea
        .get_with(&format!("/api/games/{}", id(&b)), &token(&b))
        .await);
    assert_eq!(
        s["daily"],
        json!({"day": "2026-12-03", "variant": "solo", "ranked": true})
    );
    assert_eq!(s["view"]["revealed"], json!(todays[0]));
    // Nobody plays the day's deck unranked before their ranked attempt: a guest's attempts
    // are each on a deck of their own.
    let g1 = start(&mut guest, "solo").await;
    let g2 = start(&mut guest, "solo").await;
    assert_eq!(g1["ranked"], false);
    let (d1, d2) = (deck(&site, &id(&g1)).await, deck(&site, &id(&g2)).await);
    assert!(
        d1 != todays && d2 != todays && d1 != d2,
        "a guest's deck is its own"
    );
    let s = ok(&guest
        .get_with(&format!("/api/games/{}", id(&g1)), &token(&g1))
        .await);
    assert_eq!(
        s["daily"],
        json!({"day": "2026-12-03", "variant": "solo", "ranked": false})
    );
    // A minute before midnight it is still today's; at midnight tomorrow's.
    site.clock.advance(14 * 3_600_000 - 60_000);
    let late = start(&mut Browser::signed_up(&one, "Cyd").await, "solo").await;
    assert_eq!(deck(&site, &id(&late)).await, todays);
    site.clock.advance(60_000);
    let next = start(&mut Browser::signed_up(&two, "Dan").await, "solo").await;
    assert_eq!(next["day"], "2026-12-04");
    let tomorrows = deck(&site, &id(&next)).await;
    assert_ne!(tomorrows, todays);
    let again = start(&mut ada, "solo").await;
    assert_eq!(again["again"], false, "a new day, a new attempt");
    assert_eq!(deck(&site, &id(&again)).await, tomorrows);
}
on_both_stores!(the_days_deck_is_the_same_for_everyone_and_new_the_next_day);

/// Two servers with databases of their own deal different decks on the same day: the deck is
/// not the date's alone. And the secret they come from is in no answer of a whole game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deck_is_not_the_dates_alone_and_its_secret_never_leaves() {
    let (first, second) = (sqlite_site().await, sqlite_site().await);
    let mut bodies = Vec::new();
    let mut a = Browser::signed_up(&first.urls[0], "Ada").await;
    let mine = start(&mut a, "solo").await;
    let theirs = start(
        &mut Browser::signed_up(&second.urls[0], "Bea").await,
        "solo",
    )
    .await;
    assert_ne!(
        deck(&first, &id(&mine)).await,
        deck(&second, &id(&theirs)).await
    );
    let (game, t) = (id(&mine), token(&mine));
    bodies.push(mine.to_string());
    bodies.push(ok(&a.send("GET", "/api/daily", None).await).to_string());
    bodies.push(play_out(&mut a, &game, &t, |_| 0).await.to_string());
    for path in ["moves", "daily", "replay"] {
        let b = ok(&a.get_with(&format!("/api/games/{game}/{path}"), &t).await);
        bodies.push(b.to_string());
    }
    bodies.push(ok(&a.send("GET", "/api/daily/solo/leaderboard", None).await).to_string());
    first.clock.advance(DAY_MS);
    let record = ok(&Browser::new(&first.urls[0])
        .send("GET", &format!("/api/games/{game}/record"), None)
        .await);
    bodies.push(record.to_string());
    let secret = first
        .store
        .server_secret(sagani_server::daily::SECRET, "unused")
        .await
        .unwrap();
    assert_eq!(secret.len(), 64, "a secret of 256 bits");
    assert_ne!(secret, "unused");
    for body in &bodies {
        assert!(!body.contains(&secret), "the secret leaked: {body}");
        assert!(
            !body.contains(&secret[..16]),
            "part of the secret leaked: {body}"
        );
    }
}

async fn one_ranked_attempt_per_account_and_guests_unranked(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let first = start(&mut ada, "solo").await;
    assert_eq!(
        (first["again"].as_bool(), first["invite"].is_string()),
        (Some(false), true)
    );
    // The same account on the other server (another device): the same game, a new token.
    let mut ada2 = Browser::new(&two);
    ada2.cookie = ada.cookie.clone();
    let a = ada2
        .send("POST", "/api/daily/solo/start", Some(json!({})))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(
        (id(&a.body), a.body["again"].as_bool()),
        (id(&first), Some(true))
    );
    let old = ada
        .get_with(&format!("/api/games/{}", id(&first)), &token(&first))
        .await;
    assert_eq!(
        (old.status, &old.body["error"]),
        (403, &json!("wrong_token"))
    );
    // Both servers at once, for an account's first attempt: one game.
    let mut bea = Browser::signed_up(&one, "Bea").await;
    let mut bea2 = Browser::new(&two);
    bea2.cookie = bea.cookie.clone();
    let (x, y) = tokio::join!(
        bea.send("POST", "/api/daily/solo-all/start", Some(json!({}))),
        bea2.send("POST", "/api/daily/solo-all/start", Some(json!({})))
    );
    let (x, y) = (ok(&x), ok(&y));
    assert_eq!(id(&x), id(&y));
    assert_ne!(x["again"], y["again"]);
    // Guests start as often as they like, unranked.
    let mut guest = Browser::new(&two);
    let g1 = start(&mut guest, "solo").await;
    let g2 = start(&mut guest, "solo").await;
    assert_ne!(id(&g1), id(&g2));
    assert_eq!(g1["ranked"], false);
    // Ada's attempt ends, and counts; the guest's does not, but says where it would stand.
    play_out(&mut ada2, &id(&first), &token(&a.body), |n| n - 1).await;
    play_out(&mut guest, &id(&g1), &token(&g1), |n| n - 1).await;
    let board = ok(&guest.send("GET", "/api/daily/solo/leaderboard", None).await);
    let names: Vec<&str> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ada"]);
    assert_eq!(board["players"], 1);
    let mine = day_card(&mut ada2, &id(&first), &token(&a.body)).await;
    // The guest's game is on a deck of its own: no rank, no place, and never par (it would
    // tell how the day's deck goes), not even once par is known.
    wait_for_par(&mut ada2, &id(&first), &token(&a.body)).await;
    let card = day_card(&mut guest, &id(&g1), &token(&g1)).await;
    assert_eq!(
        (card["ranked"].as_bool(), card["rank"].is_null()),
        (Some(false), true)
    );
    assert!(card["result"].is_object(), "{card}");
    assert!(card["place"].is_null() && card["par"].is_null(), "{card}");
    assert_eq!(card["par_pending"], false);
    assert_eq!(
        (mine["ranked"].as_bool(), mine["rank"].as_u64()),
        (Some(true), Some(1))
    );
    // The page's overview knows the attempt and its result.
    let today = ok(&ada2.send("GET", "/api/daily", None).await);
    let solo = &today["variants"][0];
    assert_eq!(solo["attempt"]["game"], json!(id(&first)));
    assert_eq!(solo["attempt"]["rank"], 1);
    assert_eq!(solo["attempt"]["result"], mine["result"]);
    assert_eq!(today["account"], "Ada");
    // Daily games are never public, nor rated.
    let lobby = ok(&guest.send("GET", "/api/games", None).await);
    assert_eq!(lobby["games"], json!([]));
    let s = ok(&ada2
        .get_with(&format!("/api/games/{}", id(&first)), &token(&a.body))
        .await);
    assert!(s["rated"].is_null() || s["rated"] == false);
    // A resigned attempt has no result, and is not shown par.
    let r = guest
        .post_with(
            &format!("/api/games/{}/resign", id(&g2)),
            &token(&g2),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let card = day_card(&mut guest, &id(&g2), &token(&g2)).await;
    assert!(card["result"].is_null() && card["par"].is_null(), "{card}");
    // An attempt finished after its day is over (when that day's records, par's with the deck
    // among them, are everyone's) does not count.
    // The answer that came second (`again`) holds the seat's token now.
    let late = if x["again"] == true { &x } else { &y };
    site.clock.advance(14 * 3_600_000);
    play_out(&mut bea, &id(late), &token(late), |n| n - 1).await;
    let board = ok(&guest
        .send(
            "GET",
            "/api/daily/solo-all/leaderboard?day=2026-12-03",
            None,
        )
        .await);
    assert_eq!(board["entries"], json!([]), "{board}");
    // The day is over: par is everyone's now, but still nothing to compare a guest's deck with.
    let card = day_card(&mut guest, &id(&g1), &token(&g1)).await;
    assert_eq!(card["day_over"], true);
    assert!(card["par"].is_null() && card["place"].is_null(), "{card}");
    let mine = day_card(&mut ada2, &id(&first), &token(&a.body)).await;
    assert!(mine["par"].is_object(), "{mine}");
}
on_both_stores!(one_ranked_attempt_per_account_and_guests_unranked);

/// The leaderboard's own order, worked out here from each game's outcome: in solo reaching 75
/// first, by fewer tiles, then the higher score; in solo-all the final score.
fn merit(variant: &str, outcome: &Value) -> (bool, i64, i64) {
    if variant == "solo" {
        let reached = outcome["reached"].as_bool().unwrap();
        let tiles = if reached {
            outcome["tiles_used"].as_i64().unwrap()
        } else {
            0
        };
        (!reached, tiles, -outcome["score"].as_i64().unwrap())
    } else {
        (false, 0, -outcome["final_score"].as_i64().unwrap())
    }
}

async fn the_leaderboard_orders_tiles_then_score_and_solo_all_by_score(site: Site) {
    let [one, two] = site.urls.clone();
    for variant in ["solo", "solo-all"] {
        let mut outcomes = std::collections::HashMap::new();
        // Five players who choose differently on the same deck.
        let picks: [fn(usize) -> usize; 5] =
            [|_| 0, |n| n - 1, |n| n / 2, |n| n / 3, |n| (n * 2) / 3];
        for (i, pick) in picks.iter().enumerate() {
            let name = format!("P{i}-{variant}");
            let mut b = Browser::signed_up(if i % 2 == 0 { &one } else { &two }, &name).await;
            let s = start(&mut b, variant).await;
            let end = play_out(&mut b, &id(&s), &token(&s), pick).await;
            outcomes.insert(name, end["outcome"].clone());
        }
        let board = ok(&Browser::new(&one)
            .send("GET", &format!("/api/daily/{variant}/leaderboard"), None)
            .await);
        let entries = board["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 5, "{board}");
        assert_eq!(board["players"], 5);
        let merits: Vec<(bool, i64, i64)> = entries
            .iter()
            .map(|e| merit(variant, &outcomes[e["name"].as_str().unwrap()]))
            .collect();
        assert!(
            merits.windows(2).all(|w| w[0] <= w[1]),
            "{variant}: {merits:?}"
        );
        assert_eq!(entries[0]["rank"], 1);
        for (i, w) in entries.windows(2).enumerate() {
            let same = merits[i] == merits[i + 1];
            let (r0, r1) = (
                w[0]["rank"].as_u64().unwrap(),
                w[1]["rank"].as_u64().unwrap(),
            );
            assert_eq!(r0 == r1, same, "equal results share a rank: {board}");
            if !same {
                assert_eq!(r1, i as u64 + 2);
            }
        }
        // Each entry says what its game's outcome says.
        for e in entries {
            let o = &outcomes[e["name"].as_str().unwrap()];
            let score = if variant == "solo" {
                &o["score"]
            } else {
                &o["final_score"]
            };
            assert_eq!(&e["score"], score);
            if variant == "solo" {
                assert_eq!(
                    (&e["tiles"], &e["reached"]),
                    (&o["tiles_used"], &o["reached"])
                );
                assert_eq!(e["symphony"], o["symphony"]);
            }
            assert!(e["url"].is_null(), "no replay before the day is over");
        }
    }
    // A bad day or variant is refused, saying which.
    let mut b = Browser::new(&one);
    let a = b
        .send("GET", "/api/daily/solo/leaderboard?day=2026-02-30", None)
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (404, Some("not_found"))
    );
    assert!(
        a.body["message"].as_str().unwrap().contains("2026-02-30"),
        "{}",
        a.body
    );
    let a = b
        .send("GET", "/api/daily/solo/leaderboard?day=26-12-04", None)
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (400, Some("bad_request"))
    );
    let a = b
        .send("GET", "/api/daily/solo/leaderboard?day=2026-12-04", None)
        .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (404, Some("not_found"))
    );
    assert!(
        a.body["message"].as_str().unwrap().contains("not begun"),
        "{}",
        a.body
    );
    let a = b.send("GET", "/api/daily/standard/leaderboard", None).await;
    assert_eq!(a.status, 400);
    assert!(a.body["message"]
        .as_str()
        .unwrap()
        .contains("solo or solo-all"));
    let a = b
        .send("POST", "/api/daily/duo/start", Some(json!({})))
        .await;
    assert_eq!(a.status, 400);
}
on_both_stores!(the_leaderboard_orders_tiles_then_score_and_solo_all_by_score);

/// Connects a WebSocket to `game` as a spectator.
async fn spectate(
    url: &str,
    game: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    let ws = format!("{}/api/games/{game}/ws", url.replace("http://", "ws://"));
    tokio_tungstenite::connect_async(ws)
        .await
        .expect("ws connects")
        .0
}

/// The next state a socket sends.
async fn next_state(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a message")
            .expect("open")
            .expect("a frame");
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

async fn a_daily_games_history_is_its_players_until_the_day_is_over(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let s = start(&mut ada, "solo").await;
    let (game, t) = (id(&s), token(&s));
    let mut other = Browser::signed_up(&two, "Bea").await;
    let mut nobody = Browser::new(&two);
    // A spectator's socket hears nothing of it, while the game goes on.
    let mut watching = spectate(&two, &game).await;
    let played = ok(&ada.get_with(&format!("/api/games/{game}"), &t).await);
    let body = json!({ "version": 0, "move": played["legal"][0] });
    ok(&ada
        .post_with(&format!("/api/games/{game}/moves"), &t, body)
        .await);
    // Whatever the socket had sent before would come before its answer to `auth`.
    let auth = json!({ "type": "auth", "token": t }).to_string();
    watching.send(Message::Text(auth.into())).await.unwrap();
    let first = next_state(&mut watching).await;
    assert_eq!(
        first["state"]["you"], 0,
        "the first message is the seat's: {first}"
    );
    let end = play_out(&mut ada, &game, &t, |_| 0).await;
    assert_eq!(end["status"], "over");
    let preview = json!({ "move": { "action": "place", "tile": 1, "x": 0, "y": 0, "rot": 0 } });
    for b in [&mut other, &mut nobody] {
        for path in ["record", "moves", "replay", "daily", ""] {
            let p = format!("/api/games/{game}/{path}");
            let a = b.send("GET", p.trim_end_matches('/'), None).await;
            assert_eq!(
                (a.status, &a.body["error"]),
                (403, &json!("history_hidden")),
                "{p}"
            );
        }
        let a = b
            .send(
                "POST",
                "/api/analysis",
                Some(json!({ "game": game, "at": 0 })),
            )
            .await;
        assert_eq!(
            (a.status, &a.body["error"]),
            (403, &json!("history_hidden")),
            "analysis"
        );
        let a = b
            .send(
                "POST",
                &format!("/api/games/{game}/preview"),
                Some(preview.clone()),
            )
            .await;
        assert_eq!(a.status, 403, "{}", a.body);
    }
    // Its player reads it by the seat's token, or by the account's session on any server;
    // but not its record, which holds the day's deck (they could play it again as a guest).
    ok(&ada.get_with(&format!("/api/games/{game}/replay"), &t).await);
    let a = ada.get_with(&format!("/api/games/{game}/record"), &t).await;
    assert_eq!(
        (a.status, &a.body["error"]),
        (403, &json!("history_hidden"))
    );
    let mut ada2 = Browser::new(&two);
    ada2.cookie = ada.cookie.clone();
    ok(&ada2
        .send("GET", &format!("/api/games/{game}/replay"), None)
        .await);
    let moves = ok(&ada2
        .send("GET", &format!("/api/games/{game}/moves"), None)
        .await);
    assert_eq!(
        moves["moves"].as_array().unwrap().len() as u64,
        end["version"].as_u64().unwrap()
    );
    // At midnight (UTC) the day is over: everyone may look.
    site.clock.advance(14 * 3_600_000);
    let record = ok(&ada2
        .send("GET", &format!("/api/games/{game}/record"), None)
        .await);
    assert_eq!(record["daily"], json!({"day": "2026-12-03", "par": false}));
    for b in [&mut other, &mut nobody] {
        ok(&b
            .send("GET", &format!("/api/games/{game}/record"), None)
            .await);
        ok(&b
            .send("GET", &format!("/api/games/{game}/moves"), None)
            .await);
        ok(&b
            .send("GET", &format!("/api/games/{game}/replay"), None)
            .await);
        let card = ok(&b
            .send("GET", &format!("/api/games/{game}/daily"), None)
            .await);
        assert_eq!(card["day_over"], true);
    }
    let mut late = spectate(&one, &game).await;
    assert_eq!(next_state(&mut late).await["state"]["status"], "over");
    let board = ok(&nobody
        .send("GET", "/api/daily/solo/leaderboard?day=2026-12-03", None)
        .await);
    assert_eq!(board["over"], true);
    assert_eq!(board["entries"][0]["url"], json!(format!("/games/{game}")));
}
on_both_stores!(a_daily_games_history_is_its_players_until_the_day_is_over);

/// Par as worked out here: the server's par bot (greedy) with its fixed seeds (the version)
/// playing the deck from its seat's view.
fn par_of(deck: &[u8], variant: Variant) -> Value {
    let setup = Setup {
        players: 1,
        variant: Some(variant),
        deck: DeckOrder::Explicit(deck.iter().map(|&t| t as i64).collect()),
        start_player: Some(0),
    };
    let mut game = Game::new(&setup).unwrap();
    let mut version = 0;
    while !game.is_over() {
        let mut bot = sagani_ai::make_bot("greedy", version).unwrap();
        let mv = bot
            .choose(
                &game.view(Some(0)),
                &game.legal_moves(),
                sagani_ai::Budget::millis(500),
            )
            .mv;
        game.play(mv).unwrap();
        version += 1;
    }
    serde_json::to_value(game.outcome().unwrap()).unwrap()
}

async fn par_is_shown_only_after_finishing(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let mut bea = Browser::signed_up(&two, "Bea").await;
    for variant in ["solo", "solo-all"] {
        let s = start(&mut ada, variant).await;
        let (game, t) = (id(&s), token(&s));
        let card = day_card(&mut ada, &game, &t).await;
        assert!(
            card["par"].is_null() && card["par_pending"] == false,
            "{card}"
        );
        assert_eq!(card["leaderboard"], json!([]));
        let end = play_out(&mut ada, &game, &t, |n| n / 2).await;
        // The bot's game runs on the servers' bot scheduler: wait for it to end.
        let mut card = day_card(&mut ada, &game, &t).await;
        for _ in 0..600 {
            if !card["par"].is_null() {
                break;
            }
            assert_eq!(card["par_pending"], true);
            tokio::time::sleep(Duration::from_millis(50)).await;
            card = day_card(&mut ada, &game, &t).await;
        }
        let v = Variant::parse(variant).unwrap();
        let expected = par_of(&deck(&site, &game).await, v);
        let par = &card["par"];
        assert_eq!(par["bot"], "greedy");
        if variant == "solo" {
            assert_eq!(
                (&par["tiles"], &par["score"], &par["reached"]),
                (
                    &expected["tiles_used"],
                    &expected["score"],
                    &expected["reached"]
                )
            );
        } else {
            assert_eq!(par["score"], expected["final_score"]);
        }
        assert!(
            par["url"].is_null(),
            "the bot's game is hidden until the day is over"
        );
        assert_eq!(card["rank"], 1);
        assert_eq!(
            card["result"]["score"],
            if variant == "solo" {
                end["outcome"]["score"].clone()
            } else {
                end["outcome"]["final_score"].clone()
            }
        );
        assert_eq!(card["leaderboard"][0]["name"], "Ada");
        // On the day's board: par for Ada, who played, not for Bea, who has not.
        let path = format!("/api/daily/{variant}/leaderboard");
        let mine = ok(&ada.send("GET", &path, None).await);
        assert_eq!(&mine["par"], par);
        assert_eq!(mine["you"]["rank"], 1);
        let hers = ok(&bea.send("GET", &path, None).await);
        assert!(hers["par"].is_null() && hers["you"].is_null(), "{hers}");
    }
}
on_both_stores!(par_is_shown_only_after_finishing);

async fn streak(b: &mut Browser) -> u64 {
    ok(&b.send("GET", "/api/daily", None).await)["streak"]
        .as_u64()
        .unwrap()
}

/// The account of `cookie` plays today's `variant` to its end on the server at `url`.
async fn finish(url: &str, cookie: &Option<String>, variant: &str) {
    let mut b = Browser::new(url);
    b.cookie = cookie.clone();
    let s = start(&mut b, variant).await;
    play_out(&mut b, &id(&s), &token(&s), |_| 0).await;
}

async fn a_streak_counts_days_in_a_row(site: Site) {
    let [one, two] = site.urls.clone();
    let mut ada = Browser::signed_up(&one, "Ada").await;
    let cookie = ada.cookie.clone();
    assert_eq!(streak(&mut ada).await, 0);
    finish(&one, &cookie, "solo").await;
    assert_eq!(streak(&mut ada).await, 1);
    // Both variants on one day count that day once.
    finish(&two, &cookie, "solo-all").await;
    assert_eq!(streak(&mut ada).await, 1);
    site.clock.advance(DAY_MS);
    assert_eq!(streak(&mut ada).await, 1, "today is still to come");
    finish(&two, &cookie, "solo").await;
    assert_eq!(streak(&mut ada).await, 2);
    // A day missed: the streak is gone, and starts again.
    site.clock.advance(2 * DAY_MS);
    assert_eq!(streak(&mut ada).await, 0);
    // An attempt begun but not finished is not a day played.
    let mut b = Browser::new(&one);
    b.cookie = cookie.clone();
    let s = start(&mut b, "solo").await;
    assert_eq!(streak(&mut ada).await, 0);
    play_out(&mut b, &id(&s), &token(&s), |_| 0).await;
    assert_eq!(streak(&mut ada).await, 1);
    let card = day_card(&mut b, &id(&s), &token(&s)).await;
    assert_eq!(card["streak"], 1);
}
on_both_stores!(a_streak_counts_days_in_a_row);
