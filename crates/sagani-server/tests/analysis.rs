//! The engine's analysis over HTTP (`POST /api/analysis`), on SQLite and on PostgreSQL: it sees
//! only the acting seat's view (two games alike in every public fact, with different hidden
//! draw orders, get the same answer), it is refused for games in progress, it keeps to its
//! budget, and it is rate-limited.

mod common;

use common::local::send as send_by;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::{Game, Setup, TileId, Variant};
use sagani_server::store::{Progress, SavedGame, SavedMove, SavedSeat, SqliteStore, Store};
use sagani_server::testing::TestDatabase;
use sagani_server::time_control::TimeControl;
use sagani_server::{Config, Limits};
use serde_json::{json, Value};
use std::sync::Arc;

/// A server on `store` with these analysis settings and no other limits.
async fn serve(store: Arc<dyn Store>, ms: u64, iterations: Option<u64>, per_minute: u32) -> String {
    let config = Config {
        limits: Limits {
            claims_per_ip: 0,
            moves_per_token: 0,
            moves_per_ip: 0,
            open_games_per_ip: 0,
            analyses_per_minute: per_minute,
            ..Limits::default()
        },
        analysis_ms: ms,
        analysis_iterations: iterations,
        ..Config::default()
    };
    common::serve_local(store, config).await
}

async fn send(url: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let client = reqwest::Client::new();
    let mut r = client.request(method.parse().unwrap(), format!("{url}{path}"));
    if let Some(b) = body {
        r = r.json(&b);
    }
    let got = send_by(r).await;
    let body: Value = serde_json::from_str(&got.text).expect("a JSON body");
    common::assert_documented(method, path, got.status, &body);
    (got.status, body)
}

async fn analyse(url: &str, body: Value) -> (u16, Value) {
    send(url, "POST", "/api/analysis", Some(body)).await
}

fn sqlite() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(&dir.path().join("games.db")).unwrap());
    (dir, store)
}

/// `game` played on to its end with random legal moves; the moves made.
fn play_out(game: &mut Game, rng: &mut SmallRng) -> Vec<SavedMove> {
    let mut moves = Vec::new();
    while !game.is_over() {
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        let seat = game.to_act().unwrap();
        game.play(mv).unwrap();
        moves.push(SavedMove { seat, mv, at_ms: 0 });
    }
    moves
}

fn setup(deck: &[TileId], players: u8) -> Setup {
    Setup {
        players,
        variant: None,
        deck: sagani_core::DeckOrder::Explicit(deck.iter().map(|&t| t as i64).collect()),
        start_player: Some(0),
    }
}

/// A finished game as stored, with `moves` on `deck`.
fn saved(id: &str, deck: &[TileId], players: u8, moves: Vec<SavedMove>) -> SavedGame {
    SavedGame {
        id: id.into(),
        created_at: 1_900_000_000,
        variant: if players == 1 {
            Variant::Solo
        } else {
            Variant::Standard
        },
        deck: deck.to_vec(),
        start_player: 0,
        public: false,
        creator: "test".into(),
        host: None,
        rated: false,
        practice: false,
        seats: (0..players)
            .map(|_| SavedSeat::Bot {
                bot: "random".into(),
                level: 1,
            })
            .collect(),
        moves,
        rev: 1,
        rematch: None,
        clock: TimeControl::None,
        started_ms: None,
        ended: None,
        chats: 0,
        daily: None,
        ratings: Vec::new(),
    }
}

/// Two finished games of `players` alike in their first `at` moves and everything seen then,
/// whose draw piles after move `at` hold the same tiles in other orders (the top one, whose
/// back is seen, kept in place): stored as `ids`. Their records.
async fn two_hidden_orders(
    store: &Arc<dyn Store>,
    players: u8,
    at: usize,
    ids: (&str, &str),
) -> (Value, Value) {
    let (deck, _) = sagani_core::shuffled_deck(7, players);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut a = Game::new(&setup(&deck, players)).unwrap();
    let mut first = Vec::new();
    for _ in 0..at {
        let legal = a.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        first.push(SavedMove {
            seat: a.to_act().unwrap(),
            mv,
            at_ms: 0,
        });
        a.play(mv).unwrap();
    }
    // The pile's hidden part, after its top tile: reversed in the other deck.
    let pile = a.draw_pile_len();
    assert!(pile > 10, "a pile left to hide: {pile}");
    let hidden = deck.len() - pile + 1;
    let mut other = deck.to_vec();
    other[hidden..].reverse();
    assert_ne!(other, deck.to_vec());
    let mut b = Game::new(&setup(&other, players)).unwrap();
    for m in &first {
        b.play(m.mv).unwrap();
    }
    let seat = a.to_act().unwrap();
    assert_eq!(
        a.view(Some(seat)),
        b.view(Some(seat)),
        "the seat to act sees the same in both"
    );
    let mut moves_a = first.clone();
    moves_a.extend(play_out(&mut a, &mut SmallRng::seed_from_u64(5)));
    let mut moves_b = first;
    moves_b.extend(play_out(&mut b, &mut SmallRng::seed_from_u64(6)));
    let over = Progress {
        over: true,
        bot_to_act: false,
        deadline_ms: None,
    };
    let record = |deck: &[TileId], moves: &[SavedMove]| {
        json!({
            "format": "sagani-record/1",
            "players": players,
            "start_player": 0,
            "deck": deck,
            "moves": moves.iter().map(|m| {
                let mut v = serde_json::to_value(m.mv).unwrap();
                v["player"] = json!(m.seat);
                v
            }).collect::<Vec<_>>(),
        })
    };
    let records = (record(&deck, &moves_a), record(&other, &moves_b));
    store
        .import(&saved(ids.0, &deck, players, moves_a), over)
        .await
        .unwrap();
    store
        .import(&saved(ids.1, &other, players, moves_b), over)
        .await
        .unwrap();
    records
}

async fn the_seats_view_only(store: Arc<dyn Store>) {
    // A fixed iteration budget (and the server's fixed seed): the search is deterministic.
    let url = serve(store.clone(), 600_000, Some(300), 0).await;
    for (players, at, ids) in [(2u8, 17usize, ("a2", "b2")), (1, 9, ("a1", "b1"))] {
        let (ra, rb) = two_hidden_orders(&store, players, at, ids).await;
        let (sa, a) = analyse(&url, json!({"game": ids.0, "at": at})).await;
        let (sb, b) = analyse(&url, json!({"game": ids.1, "at": at})).await;
        assert_eq!((sa, sb), (200, 200), "{a} {b}");
        assert_eq!(a, b, "{players} players: the same view, the same answer");
        assert_eq!(a["at"], at);
        assert_eq!(a["iterations"], 300);
        let moves = a["moves"].as_array().unwrap();
        assert!(!moves.is_empty() && moves.len() <= 5, "{a}");
        for m in moves {
            assert!(m["value"].is_number() && m["reason"].is_string(), "{m}");
            if m["move"]["action"] == "place" {
                assert_eq!(m["effect"]["tile"], m["move"]["tile"], "{m}");
                assert_eq!(m["effect"]["player"], a["seat"], "{m}");
            }
        }
        let (sra, from_a) = analyse(&url, json!({"record": ra, "at": at})).await;
        let (srb, from_b) = analyse(&url, json!({"record": rb, "at": at})).await;
        assert_eq!((sra, srb), (200, 200), "{from_a} {from_b}");
        assert_eq!(
            from_a, from_b,
            "{players} players, records: the same answer"
        );
        assert_eq!(from_a, a, "a record and its stored game: the same answer");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_sees_only_the_seats_view_on_sqlite() {
    let (_dir, store) = sqlite();
    the_seats_view_only(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_sees_only_the_seats_view_on_postgres() {
    let Some(db) = TestDatabase::create("analysis_sees_only_the_seats_view_on_postgres").await
    else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(
        sagani_server::store::PostgresStore::open(&db.url)
            .await
            .unwrap(),
    );
    the_seats_view_only(store).await;
}

/// A game of two people in progress: its id, after one move.
async fn two_people_in_progress(url: &str) -> String {
    let (s, created) = send(
        url,
        "POST",
        "/api/games",
        Some(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let game = created["game"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for invite in created["invites"].as_array().unwrap() {
        let (s, joined) = send(
            url,
            "POST",
            &format!("/api/games/{game}/join"),
            Some(json!({"invite": invite["code"]})),
        )
        .await;
        assert_eq!(s, 200, "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_string());
    }
    let client = reqwest::Client::new();
    for token in &tokens {
        let state = send_by(
            client
                .get(format!("{url}/api/games/{game}"))
                .bearer_auth(token),
        )
        .await;
        let state: Value = serde_json::from_str(&state.text).unwrap();
        if let Some(mv) = state["legal"].get(0) {
            let played = send_by(
                client
                    .post(format!("{url}/api/games/{game}/moves"))
                    .bearer_auth(token)
                    .json(&json!({"version": 0, "move": mv})),
            )
            .await;
            assert_eq!(played.status, 200, "{}", played.text);
            // Its own token does not open the analysis either.
            let (s, refused) = analyse(url, json!({"game": game, "at": 1, "token": token})).await;
            assert_eq!(
                (s, refused["error"].as_str()),
                (403, Some("history_hidden"))
            );
            break;
        }
    }
    game
}

async fn refused_bounded_and_limited(store: Arc<dyn Store>) {
    let url = serve(store.clone(), 600_000, Some(120), 0).await;
    let game = two_people_in_progress(&url).await;
    for at in [0, 1] {
        let (s, refused) = analyse(&url, json!({"game": game, "at": at})).await;
        assert_eq!(
            (s, refused["error"].as_str()),
            (403, Some("history_hidden")),
            "{refused}"
        );
    }
    // Bad requests say what is wrong.
    let (_, record) = two_hidden_orders(&store, 2, 12, ("r1", "r2")).await;
    let len = record["moves"].as_array().unwrap().len();
    let cases = [
        (json!({"game": "nosuchgame", "at": 0}), 404, "no such game"),
        (json!({"at": 0}), 400, "either"),
        (
            json!({"game": "r1", "record": record, "at": 0}),
            400,
            "either",
        ),
        (json!({"game": "r1", "at": len + 1}), 400, "only"),
        (json!({"game": "r1", "at": len}), 400, "over"),
        (json!({"game": "r1", "at": -1}), 400, "at"),
        (json!({"game": "r1", "at": 0, "depth": 3}), 400, "depth"),
    ];
    for (body, status, words) in cases {
        let (s, answer) = analyse(&url, body.clone()).await;
        assert_eq!(s, status, "{body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(words),
            "{body}: {answer}"
        );
    }
    let mut bad = record.clone();
    bad["moves"][3]["x"] = json!(40);
    let (s, answer) = analyse(&url, json!({"record": bad, "at": 2})).await;
    assert_eq!(s, 400, "{answer}");
    assert!(
        answer["message"].as_str().unwrap().starts_with("move 3:"),
        "{answer}"
    );
    // The iteration cap holds.
    let (s, capped) = analyse(&url, json!({"game": "r1", "at": 5})).await;
    assert_eq!((s, &capped["iterations"]), (200, &json!(120)), "{capped}");
    assert_eq!(capped["budget_ms"], 600_000);
    // Without an iteration cap the time cap ends the search: it answers.
    let timed = serve(store.clone(), 30, None, 0).await;
    let (s, answer) = analyse(&timed, json!({"game": "r1", "at": 5})).await;
    assert_eq!((s, &answer["budget_ms"]), (200, &json!(30)), "{answer}");
    assert!(answer["iterations"].as_u64().unwrap() > 0, "{answer}");
    // One analysis a minute: the second is refused at once, and says when to come back.
    let limited = serve(store, 600_000, Some(50), 1).await;
    let (first, _) = analyse(&limited, json!({"game": "r1", "at": 5})).await;
    let second = send_by(
        reqwest::Client::new()
            .post(format!("{limited}/api/analysis"))
            .json(&json!({"game": "r1", "at": 6})),
    )
    .await;
    assert_eq!((first, second.status), (200, 429));
    assert!(second.headers.get("retry-after").is_some());
    let body: Value = serde_json::from_str(&second.text).unwrap();
    assert_eq!(body["error"], "rate_limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_is_refused_in_progress_bounded_and_limited_on_sqlite() {
    let (_dir, store) = sqlite();
    refused_bounded_and_limited(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_is_refused_in_progress_bounded_and_limited_on_postgres() {
    let Some(db) =
        TestDatabase::create("analysis_is_refused_in_progress_bounded_and_limited_on_postgres")
            .await
    else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(
        sagani_server::store::PostgresStore::open(&db.url)
            .await
            .unwrap(),
    );
    refused_bounded_and_limited(store).await;
}
