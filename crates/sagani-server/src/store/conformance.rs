//! The `Store` contract as tests: every store runs these same cases (tests/store.rs), each as a
//! test of its own on a new, empty database. `a` and `b` are two handles on that one database, as two servers
//! would hold them, so races between them are races between servers.

use super::{
    BotTurn, Change, ChatRate, ChatText, ChatWrite, ClaimWrite, Conflict, DailyTag, Ended, GameEnd,
    IdleSweep, LeaveWrite, Left, LeftReason, LoginCount, MoveWrite, NewPlayer, Progress, SavedGame,
    SavedMove, SavedSeat, SoloResult, Status, Store, StoreError, Value,
};
use crate::time_control::TimeControl;
use sagani_core::{Move, Variant};
use std::sync::Arc;

pub type Handles = (Arc<dyn Store>, Arc<dyn Store>);

/// Declares one test per case (tests/store.rs does, once per store). `$open` is an async
/// function that takes the test's name and gives two handles on a new, empty database with
/// whatever keeps it alive, or `None` when the store is not at hand (the test is skipped).
#[macro_export]
macro_rules! store_conformance {
    ($open:path) => {
        $crate::store_conformance!(@each $open:
            reads_back_as_written,
            created_once,
            moves_are_conditional,
            moves_need_the_token,
            claims_are_conditional,
            reclaim_revokes_in_rematch,
            lobby,
            open_games_limit,
            leases,
            listing_and_import,
            whole_tables,
            racing_moves,
            racing_claims,
            changes_are_heard,
            names_are_unique,
            sessions,
            deleted_accounts,
            login_failures,
            login_counts_race,
            sessions_end_with_seats,
            seat_holders,
            rated_end,
            rated_too_early,
            rated_pairs_a_day,
            unrated_end,
            clocks_start_once,
            leaving,
            due_clocks,
            idle_games,
            cancelling,
            chat,
            chat_rates,
            look_alike_names,
            repairs,
            server_secrets,
            daily_attempts,
            daily_results,
        );
    };
    (@each $open:path: $($case:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                if let Some((handles, _keep)) = $open(stringify!($case)).await {
                    $crate::store::conformance::$case(handles).await;
                }
            }
        )*
    };
}

fn human(invite: &str) -> SavedSeat {
    SavedSeat::Human {
        invite_hash: invite.into(),
        token_hash: None,
        name: None,
        player: None,
        left: None,
    }
}

fn bot() -> SavedSeat {
    SavedSeat::Bot {
        bot: "greedy".into(),
        level: 1,
    }
}

pub fn game(id: &str, seats: Vec<SavedSeat>) -> SavedGame {
    SavedGame {
        id: id.into(),
        created_at: 1_700_000_000,
        variant: if seats.len() == 1 {
            Variant::Solo
        } else {
            Variant::Standard
        },
        deck: (1..=72).collect(),
        start_player: 0,
        public: false,
        creator: "10.0.0.1".into(),
        host: None,
        rated: false,
        practice: false,
        seats,
        moves: Vec::new(),
        rev: 0,
        rematch: None,
        clock: TimeControl::None,
        started_ms: None,
        ended: None,
        chats: 0,
        daily: None,
    }
}

const PLAYING: Progress = Progress {
    over: false,
    bot_to_act: false,
    deadline_ms: None,
};

fn place(tile: u8) -> Move {
    Move::Place {
        tile,
        x: 0,
        y: 0,
        rot: 0,
    }
}

fn mv(game: &str, n: u64, seat: u8, token: Option<&str>, m: Move) -> MoveWrite {
    MoveWrite {
        game: game.into(),
        n,
        seat,
        mv: m,
        token_hash: token.map(str::to_string),
        at_ms: 1_700_000_000_000 + n as i64,
        start_ms: None,
        after: PLAYING,
        end: None,
    }
}

fn claim(game: &str, seat: u8, seen: Option<&str>, token: &str) -> ClaimWrite {
    ClaimWrite {
        game: game.into(),
        seat,
        seen: seen.map(str::to_string),
        token_hash: token.into(),
        by_number: false,
        name: None,
        player: None,
        at_ms: 1_700_000_000_000,
        deadline_if_started: None,
    }
}

async fn create(s: &dyn Store, g: &SavedGame) {
    s.create(g, PLAYING, None, None).await.expect("created");
}

fn conflict<T: std::fmt::Debug>(r: Result<T, StoreError>) -> Conflict {
    match r {
        Err(StoreError::Conflict(c)) => c,
        other => panic!("expected a conflict, got {other:?}"),
    }
}

/// A game reads back as written.
pub async fn reads_back_as_written((a, b): Handles) {
    let mut g = game("g1", vec![human("i0"), bot()]);
    g.public = true;
    g.deck = (1..=72).rev().collect();
    g.start_player = 1;
    let changed = a.create(&g, PLAYING, None, None).await.unwrap();
    assert_eq!(changed, vec![("g1".to_string(), 0)]);
    assert_eq!(b.game("g1").await.unwrap(), g);
    assert_eq!(a.rev("g1").await.unwrap(), 0);
    assert_eq!(a.game("nope").await, Err(StoreError::NotFound));
    assert_eq!(a.rev("nope").await, Err(StoreError::NotFound));
    assert_eq!(a.ping().await, Ok(()));
}

/// An id is created once.
pub async fn created_once((a, b): Handles) {
    let g = game("g1", vec![human("i0"), human("i1")]);
    create(&*a, &g).await;
    let mut other = game("g1", vec![human("x"), bot()]);
    other.public = true;
    assert_eq!(
        conflict(b.create(&other, PLAYING, None, None).await),
        Conflict::Exists
    );
    assert_eq!(
        a.game("g1").await.unwrap(),
        g,
        "the first game is unchanged"
    );
}

/// A move is stored only as move n.
pub async fn moves_are_conditional((a, b): Handles) {
    create(&*a, &game("g1", vec![bot(), bot()])).await;
    assert_eq!(a.append_move(&mv("g1", 0, 0, None, place(5))).await, Ok(1));
    assert_eq!(
        conflict(b.append_move(&mv("g1", 0, 0, None, place(6))).await),
        Conflict::StaleVersion { current: 1 }
    );
    assert_eq!(
        conflict(b.append_move(&mv("g1", 2, 1, None, place(6))).await),
        Conflict::StaleVersion { current: 1 }
    );
    assert_eq!(
        b.append_move(&mv("g1", 1, 1, None, Move::Pass)).await,
        Ok(2)
    );
    assert_eq!(
        a.append_move(&mv("nope", 0, 0, None, Move::Pass)).await,
        Err(StoreError::NotFound)
    );
    let stored = b.game("g1").await.unwrap();
    assert_eq!(
        stored.moves,
        vec![
            SavedMove {
                seat: 0,
                mv: place(5),
                at_ms: 1_700_000_000_000,
            },
            SavedMove {
                seat: 1,
                mv: Move::Pass,
                at_ms: 1_700_000_000_001,
            }
        ]
    );
    assert_eq!(stored.rev, 2);
    // A copy with one move catches up with the second.
    let news = a.since("g1", 1).await.unwrap();
    assert_eq!(
        (news.rev, news.moves.clone()),
        (2, stored.moves[1..].to_vec())
    );
    assert_eq!(news.seats, stored.seats);
    assert_eq!(a.since("g1", 2).await.unwrap().moves, vec![]);
    assert_eq!(a.since("g1", 0).await.unwrap().moves, stored.moves);
    assert_eq!(a.since("nope", 0).await, Err(StoreError::NotFound));
}

/// A move needs the seat's token.
pub async fn moves_need_the_token((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    assert_eq!(
        conflict(b.append_move(&mv("g1", 0, 0, Some("t1"), place(1))).await),
        Conflict::NotYourSeat,
        "a token of no seat"
    );
    assert_eq!(
        conflict(b.append_move(&mv("g1", 0, 1, Some("t0"), place(1))).await),
        Conflict::NotYourSeat,
        "the token of another seat"
    );
    b.append_move(&mv("g1", 0, 0, Some("t0"), place(1)))
        .await
        .unwrap();
    // Claimed again with its invite: the old token stops working at once.
    a.claim(&claim("g1", 0, Some("t0"), "t0b")).await.unwrap();
    assert_eq!(
        conflict(b.append_move(&mv("g1", 1, 0, Some("t0"), place(2))).await),
        Conflict::NotYourSeat
    );
    b.append_move(&mv("g1", 1, 0, Some("t0b"), place(2)))
        .await
        .unwrap();
    assert_eq!(a.game("g1").await.unwrap().moves.len(), 2);
}

/// A seat is claimed only as seen.
pub async fn claims_are_conditional((a, b): Handles) {
    let mut g = game("g1", vec![human("i0"), bot(), human("i2")]);
    g.public = true;
    create(&*a, &g).await;
    let changed = a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    assert_eq!(changed, vec![("g1".to_string(), 1)]);
    assert_eq!(
        conflict(b.claim(&claim("g1", 0, None, "u0")).await),
        Conflict::SeatTaken,
        "claimed since"
    );
    assert_eq!(
        conflict(b.claim(&claim("g1", 0, Some("wrong"), "u0")).await),
        Conflict::SeatTaken,
        "not as seen"
    );
    assert_eq!(
        conflict(b.claim(&claim("g1", 1, None, "u1")).await),
        Conflict::SeatTaken,
        "a bot's seat"
    );
    assert_eq!(
        conflict(b.claim(&claim("g1", 7, None, "u1")).await),
        Conflict::SeatTaken,
        "no such seat"
    );
    assert_eq!(
        b.claim(&claim("nope", 0, None, "u1")).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(a.lobby(10).await.unwrap()[0].status, Status::Waiting);
    // Taken by number: the seat's invite is spent.
    let by_number = ClaimWrite {
        by_number: true,
        ..claim("g1", 2, None, "t2")
    };
    b.claim(&by_number).await.unwrap();
    let stored = a.game("g1").await.unwrap();
    assert_eq!(
        stored.seats,
        vec![
            SavedSeat::Human {
                invite_hash: "i0".into(),
                token_hash: Some("t0".into()),
                name: None,
                player: None,
                left: None,
            },
            bot(),
            SavedSeat::Human {
                invite_hash: String::new(),
                token_hash: Some("t2".into()),
                name: None,
                player: None,
                left: None,
            },
        ]
    );
    assert_eq!(stored.rev, 2);
    assert_eq!(a.lobby(10).await.unwrap()[0].status, Status::Playing);
}

/// A re-claim revokes the token in the rematch.
pub async fn reclaim_revokes_in_rematch((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), bot()])).await;
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    let mut rematch = a.game("g1").await.unwrap();
    rematch.id = "g2".into();
    rematch.moves.clear();
    rematch.rev = 0;
    // Made from the seats as read at rev 1: refused once the game is at another rev.
    assert_eq!(
        conflict(b.create(&rematch, PLAYING, None, Some(("g1", 0))).await),
        Conflict::Changed
    );
    assert_eq!(
        b.game("g2").await,
        Err(StoreError::NotFound),
        "nothing stored"
    );
    let changed = b
        .create(&rematch, PLAYING, None, Some(("g1", 1)))
        .await
        .unwrap();
    assert_eq!(changed, vec![("g2".to_string(), 0), ("g1".to_string(), 2)]);
    assert_eq!(a.game("g1").await.unwrap().rematch.as_deref(), Some("g2"));
    // The invite claims seat 0 of the first game again: its old token is revoked in both.
    let mut changed = a.claim(&claim("g1", 0, Some("t0"), "t1")).await.unwrap();
    changed.sort();
    assert_eq!(changed, vec![("g1".to_string(), 3), ("g2".to_string(), 1)]);
    for id in ["g1", "g2"] {
        assert_eq!(
            b.game(id).await.unwrap().seats[0],
            SavedSeat::Human {
                invite_hash: "i0".into(),
                token_hash: Some("t1".into()),
                name: None,
                player: None,
                left: None,
            },
            "{id}"
        );
    }
    assert_eq!(
        conflict(b.append_move(&mv("g2", 0, 0, Some("t0"), place(1))).await),
        Conflict::NotYourSeat
    );
}

/// The lobby lists public open games, newest first.
pub async fn lobby((a, b): Handles) {
    for (i, public) in [true, false, true, true].into_iter().enumerate() {
        let mut g = game(&format!("g{i}"), vec![human("i"), bot()]);
        g.public = public;
        g.created_at += i as i64;
        create(&*a, &g).await;
    }
    let ids = |l: Vec<super::Summary>| l.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(ids(b.lobby(10).await.unwrap()), ["g3", "g2", "g0"]);
    assert_eq!(ids(b.lobby(2).await.unwrap()), ["g3", "g2"]);
    let over = MoveWrite {
        after: Progress {
            over: true,
            bot_to_act: false,
            deadline_ms: None,
        },
        ..mv("g2", 0, 0, None, Move::Pass)
    };
    a.append_move(&over).await.unwrap();
    let listed = b.lobby(10).await.unwrap();
    assert_eq!(ids(listed.clone()), ["g3", "g0"]);
    assert_eq!(listed[0].seats, vec![human("i"), bot()]);
    assert_eq!(listed[0].version, 0);
    assert_eq!(listed[0].variant, Variant::Standard);
    let counts = a.counts().await.unwrap();
    assert_eq!((counts.games, counts.open), (4, 3));
}

/// Open games are counted per creator.
pub async fn open_games_limit((a, b): Handles) {
    let g = |id: &str| game(id, vec![human("i"), bot()]);
    a.create(&g("g1"), PLAYING, Some(2), None).await.unwrap();
    b.create(&g("g2"), PLAYING, Some(2), None).await.unwrap();
    assert_eq!(
        conflict(a.create(&g("g3"), PLAYING, Some(2), None).await),
        Conflict::TooManyGames { open: 2 }
    );
    let mut elsewhere = g("g4");
    elsewhere.creator = "10.0.0.2".into();
    b.create(&elsewhere, PLAYING, Some(2), None).await.unwrap();
    let over = MoveWrite {
        after: Progress {
            over: true,
            bot_to_act: false,
            deadline_ms: None,
        },
        ..mv("g1", 0, 0, None, Move::Pass)
    };
    a.append_move(&over).await.unwrap();
    b.create(&g("g3"), PLAYING, Some(2), None).await.unwrap();
    assert_eq!(a.game("g3").await.unwrap().id, "g3");
}

/// Bot turns are leased to one holder.
pub async fn leases((a, b): Handles) {
    let bot_turn = Progress {
        over: false,
        bot_to_act: true,
        deadline_ms: None,
    };
    let mut g = game("g1", vec![bot(), human("i")]);
    g.creator = "c".into();
    a.create(&g, bot_turn, None, None).await.unwrap();
    create(&*a, &game("g2", vec![human("i"), bot()])).await;
    let turn = BotTurn {
        game: "g1".into(),
        version: 0,
        creator: "c".into(),
    };
    assert_eq!(b.bot_turns(1000, 10).await.unwrap(), vec![turn.clone()]);
    assert!(a.lease("g1", 0, "A", 1000, 5000).await.unwrap());
    assert!(
        !b.lease("g1", 0, "B", 1000, 5000).await.unwrap(),
        "held by A"
    );
    assert_eq!(b.bot_turns(1000, 10).await.unwrap(), vec![]);
    assert!(a.lease("g1", 0, "A", 2000, 9000).await.unwrap(), "renewed");
    assert!(
        !b.lease("g1", 0, "B", 6000, 12000).await.unwrap(),
        "renewed to 9000"
    );
    assert!(
        !b.lease("g1", 1, "B", 1000, 5000).await.unwrap(),
        "not at version 1"
    );
    assert!(
        !b.lease("g2", 0, "B", 1000, 5000).await.unwrap(),
        "no bot to act"
    );
    assert!(!b.lease("nope", 0, "B", 1000, 5000).await.unwrap());
    // A dies: after its lease runs out, B takes the turn over.
    assert_eq!(b.bot_turns(9000, 10).await.unwrap(), vec![turn.clone()]);
    assert!(b.lease("g1", 0, "B", 9000, 15000).await.unwrap());
    assert!(!a.lease("g1", 0, "A", 9500, 15000).await.unwrap());
    // The move ends the lease; the next bot turn is free to take.
    let moved = MoveWrite {
        after: bot_turn,
        ..mv("g1", 0, 0, None, Move::Pass)
    };
    b.append_move(&moved).await.unwrap();
    assert_eq!(
        a.bot_turns(9500, 10).await.unwrap(),
        vec![BotTurn {
            version: 1,
            ..turn.clone()
        }]
    );
    assert!(a.lease("g1", 1, "A", 9500, 15000).await.unwrap());
    a.release("g1", "B").await.unwrap();
    assert!(
        !b.lease("g1", 1, "B", 9500, 15000).await.unwrap(),
        "B released nothing of A's"
    );
    a.release("g1", "A").await.unwrap();
    assert!(b.lease("g1", 1, "B", 9500, 15000).await.unwrap());
}

/// Games are listed, imported and counted.
pub async fn listing_and_import((a, b): Handles) {
    for id in ["c", "a", "d", "b"] {
        create(&*a, &game(id, vec![human("i"), bot()])).await;
    }
    assert_eq!(b.game_ids(None, 3).await.unwrap(), ["a", "b", "c"]);
    assert_eq!(b.game_ids(Some("c"), 3).await.unwrap(), ["d"]);
    let mut whole = game("e", vec![bot(), bot()]);
    whole.moves = vec![
        SavedMove {
            seat: 0,
            mv: place(3),
            at_ms: 0,
        },
        SavedMove {
            seat: 1,
            mv: Move::Pass,
            at_ms: 0,
        },
    ];
    whole.rematch = Some("f".into());
    b.import(&whole, PLAYING).await.unwrap();
    assert_eq!(a.game("e").await.unwrap(), whole);
    assert_eq!(conflict(a.import(&whole, PLAYING).await), Conflict::Exists);
    assert_eq!(
        a.append_move(&mv("e", 2, 0, None, Move::Pass)).await,
        Ok(1),
        "imported at version 2"
    );
    let counts = b
        .move_counts(&["e".to_string(), "a".to_string()])
        .await
        .unwrap();
    assert_eq!(counts.get("e"), Some(&3));
    assert_eq!(counts.get("a"), Some(&0));
}

/// Whole tables, as `db copy` reads and writes them: the schema's tables and columns, rows a
/// page at a time in key order, rows written back as they were read.
pub async fn whole_tables((a, b): Handles) {
    let tables = a.tables().await.unwrap();
    for t in ["games", "seats", "players", "ratings"] {
        assert!(tables.iter().any(|n| n == t), "{t} in {tables:?}");
    }
    let columns = b.columns("seats").await.unwrap();
    assert_eq!(&columns[..3], ["game_id", "seat", "kind"]);
    for id in ["g2", "g1", "g3"] {
        create(&*a, &game(id, vec![human("i"), bot()])).await;
    }
    assert_eq!(b.row_count("seats").await, Ok(6));
    let key = &["game_id", "seat"][..];
    let cols = vec![
        "game_id".to_string(),
        "seat".to_string(),
        "kind".to_string(),
    ];
    let first = b.rows("seats", &cols, key, None, 4).await.unwrap();
    let keys: Vec<(Value, Value)> = first.iter().map(|r| (r[0].clone(), r[1].clone())).collect();
    let at = |g: &str, s: i64| (Value::Text(g.into()), Value::Int(s));
    assert_eq!(keys, [at("g1", 0), at("g1", 1), at("g2", 0), at("g2", 1)]);
    let after = [Value::Text("g2".into()), Value::Int(1)];
    let rest = b.rows("seats", &cols, key, Some(&after), 4).await.unwrap();
    assert_eq!(rest.len(), 2);
    assert_eq!(
        (rest[0][0].clone(), rest[1][2].clone()),
        (Value::Text("g3".into()), Value::Text("bot".into()))
    );
    // Rows written as read: a rating's numbers and an account's missing values come back.
    let rcols: Vec<String> = ["player_id", "mu", "sigma", "games"]
        .map(String::from)
        .into();
    let rating = vec![
        Value::Text("p1".into()),
        Value::Real(27.5),
        Value::Real(7.25),
        Value::Int(3),
    ];
    a.put_rows("ratings", &rcols, std::slice::from_ref(&rating))
        .await
        .unwrap();
    assert_eq!(
        b.rows("ratings", &rcols, &["player_id"], None, 10).await,
        Ok(vec![rating.clone()])
    );
    let rated = b.rating("p1").await.unwrap().unwrap();
    assert_eq!((rated.mu, rated.sigma, rated.games), (27.5, 7.25, 3));
    // All or none: a page with a row already there writes nothing.
    let other = vec![
        Value::Text("p2".into()),
        Value::Real(20.0),
        Value::Real(8.0),
        Value::Int(1),
    ];
    assert!(a
        .put_rows("ratings", &rcols, &[other, rating])
        .await
        .is_err());
    assert_eq!(b.row_count("ratings").await, Ok(1));
    // Only plain names go into a statement.
    assert!(matches!(
        b.row_count("ratings; DROP TABLE games").await,
        Err(StoreError::Unusable { .. })
    ));
    assert!(b.row_count("games").await.is_ok());
}

/// Racing moves: exactly one is stored.
pub async fn racing_moves((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    let mut racers = Vec::new();
    for i in 0..8u8 {
        let s = if i % 2 == 0 { a.clone() } else { b.clone() };
        racers.push(tokio::spawn(async move {
            s.append_move(&mv("g1", 0, 0, Some("t0"), place(i + 1)))
                .await
        }));
    }
    let mut stored = 0;
    for r in racers {
        match r.await.unwrap() {
            Ok(_) => stored += 1,
            Err(StoreError::Conflict(Conflict::StaleVersion { current: 1 })) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(stored, 1);
    assert_eq!(b.game("g1").await.unwrap().moves.len(), 1);
}

/// Racing claims: exactly one holds the seat.
pub async fn racing_claims((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    let mut racers = Vec::new();
    for i in 0..8 {
        let s = if i % 2 == 0 { a.clone() } else { b.clone() };
        racers.push(tokio::spawn(async move {
            s.claim(&claim("g1", 1, None, &format!("t{i}"))).await
        }));
    }
    let mut winners = Vec::new();
    for (i, r) in racers.into_iter().enumerate() {
        match r.await.unwrap() {
            Ok(_) => winners.push(format!("t{i}")),
            Err(StoreError::Conflict(Conflict::SeatTaken)) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(winners.len(), 1);
    assert_eq!(
        a.game("g1").await.unwrap().seats[1],
        SavedSeat::Human {
            invite_hash: "i1".into(),
            token_hash: Some(winners[0].clone()),
            name: None,
            player: None,
            left: None,
        }
    );
}

/// Changes are heard by every handle.
pub async fn changes_are_heard((a, b): Handles) {
    let (Some(mut on_a), Some(mut on_b)) = (a.changes(), b.changes()) else {
        // A store for one server: its own changes are all there are.
        assert!(a.exclusive() || b.changes().is_none());
        return;
    };
    assert!(!a.exclusive() && !b.exclusive());
    create(&*a, &game("g1", vec![human("i0"), bot()])).await;
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    b.append_move(&mv("g1", 0, 0, Some("t0"), place(1)))
        .await
        .unwrap();
    for heard in [&mut on_a, &mut on_b] {
        let mut revs = Vec::new();
        while revs.len() < 3 {
            let change = tokio::time::timeout(std::time::Duration::from_secs(30), heard.recv())
                .await
                .expect("a change is heard")
                .expect("the channel is open");
            match change {
                Change::Game { game, rev } if game == "g1" => revs.push(rev),
                _ => {}
            }
        }
        assert_eq!(revs, [0, 1, 2]);
    }
}

fn new_player(id: &str, name: &str) -> NewPlayer {
    NewPlayer {
        id: id.into(),
        name: name.into(),
        key: name.to_lowercase(),
        skeleton: crate::names::skeleton(name),
        password: format!("hash-of-{name}"),
        created_at: 1_000,
    }
}

/// A name is signed up once, in any case.
pub async fn names_are_unique((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    assert_eq!(
        b.sign_up(&new_player("p2", "ADA")).await,
        Err(StoreError::Conflict(Conflict::Exists))
    );
    let ada = b.player_named("ada").await.unwrap().expect("Ada signed up");
    assert_eq!((ada.id.as_str(), ada.name.as_str()), ("p1", "Ada"));
    assert_eq!(ada.password, "hash-of-Ada");
    assert_eq!(a.player_named("bea").await, Ok(None));
    // The password hash can be replaced; a missing account cannot be changed.
    b.set_password("p1", "new-hash").await.unwrap();
    assert_eq!(
        a.player_named("ada").await.unwrap().unwrap().password,
        "new-hash"
    );
    assert_eq!(
        a.set_password("nobody", "x").await,
        Err(StoreError::NotFound)
    );
}

/// Sessions log in until closed, on every handle.
pub async fn sessions((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.sign_up(&new_player("p2", "Bea")).await.unwrap();
    a.open_session("s1", "p1", 5_000).await.unwrap();
    a.open_session("s2", "p1", 5_000).await.unwrap();
    b.open_session("s3", "p2", 5_000).await.unwrap();
    // Another server sees the session; an old or unknown one logs nobody in.
    assert_eq!(b.session("s1", 0).await.unwrap().unwrap().name, "Ada");
    assert_eq!(b.session("s1", 5_000).await, Ok(None));
    assert_eq!(b.session("nope", 0).await, Ok(None));
    // Logging out closes one; logging out everywhere closes the rest of that player's only.
    b.close_session("s1").await.unwrap();
    assert_eq!(a.session("s1", 0).await, Ok(None));
    assert!(a.session("s2", 0).await.unwrap().is_some());
    a.close_sessions("p1").await.unwrap();
    assert_eq!(b.session("s2", 0).await, Ok(None));
    assert_eq!(b.session("s3", 0).await.unwrap().unwrap().name, "Bea");
}

/// A deleted account logs nobody in and frees its name.
pub async fn deleted_accounts((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.open_session("s1", "p1", 5_000).await.unwrap();
    b.delete_player("p1", 9_000).await.unwrap();
    assert_eq!(a.session("s1", 0).await, Ok(None));
    assert_eq!(a.player_named("ada").await, Ok(None));
    assert_eq!(
        a.delete_player("p1", 9_500).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(a.set_password("p1", "x").await, Err(StoreError::NotFound));
    // The name is free again, for a new account.
    a.sign_up(&new_player("p2", "ada")).await.unwrap();
    assert_eq!(b.player_named("ada").await.unwrap().unwrap().id, "p2");
}

/// Log-in attempts are counted per subject, in windows, by every server together.
pub async fn login_failures((a, b): Handles) {
    let subjects = vec!["ada@10.0.0.1".to_string(), "10.0.0.1".to_string()];
    let count = |attempts, since| LoginCount { attempts, since };
    assert_eq!(
        a.count_login(&subjects, 1_000, 10_000).await,
        Ok(vec![count(1, 1_000), count(1, 1_000)])
    );
    assert_eq!(
        b.count_login(&subjects[..1], 2_000, 10_000).await,
        Ok(vec![count(2, 1_000)])
    );
    // Taken back (a right password): one less, never below none.
    b.uncount_login(&subjects).await.unwrap();
    b.uncount_login(&subjects[1..]).await.unwrap();
    assert_eq!(
        a.count_login(&subjects, 3_000, 10_000).await,
        Ok(vec![count(2, 1_000), count(1, 1_000)])
    );
    // Once its window is over, a subject counts from one again.
    assert_eq!(
        a.count_login(&subjects[1..], 11_000, 10_000).await,
        Ok(vec![count(1, 11_000)])
    );
    assert_eq!(
        b.count_login(&["bea@10.0.0.2".to_string()], 11_000, 10_000)
            .await,
        Ok(vec![count(1, 11_000)])
    );
}

/// Attempts at once on two servers each get a count of their own: none is missed, so a limit
/// on the count holds however many come together.
pub async fn login_counts_race((a, b): Handles) {
    let subject = vec!["ada@10.0.0.1".to_string()];
    let tries = (0..60).map(|i| {
        let (s, subject) = (
            if i % 2 == 0 { a.clone() } else { b.clone() },
            subject.clone(),
        );
        tokio::spawn(async move { s.count_login(&subject, 1_000, 60_000).await })
    });
    let mut counts: Vec<u64> = Vec::new();
    for t in futures_util::future::join_all(tries).await {
        counts.push(t.unwrap().unwrap()[0].attempts);
    }
    counts.sort();
    assert_eq!(counts, (1..=60).collect::<Vec<u64>>());
}

/// Logging out everywhere and deleting the account revoke its seats' tokens too: the seat
/// stays the account's, a new claim (with the stand-in the store keeps) takes it again, and the
/// game's `rev` moves on so other servers notice.
pub async fn sessions_end_with_seats((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    a.claim(&claim_as("g1", 0, "t0", "Ada", Some("p1")))
        .await
        .unwrap();
    a.claim(&claim("g1", 1, None, "t1")).await.unwrap();
    let before = b.rev("g1").await.unwrap();

    let changed = b.close_sessions("p1").await.unwrap();
    let rev = a.rev("g1").await.unwrap();
    assert!(rev > before);
    assert_eq!(changed, vec![("g1".to_string(), rev)]);
    assert_eq!(
        conflict(a.append_move(&mv("g1", 0, 0, Some("t0"), place(1))).await),
        Conflict::NotYourSeat,
        "the old token is refused"
    );
    let seats = a.game("g1").await.unwrap().seats;
    assert_eq!(
        seats[0].player(),
        Some("p1"),
        "the seat stays the account's"
    );
    let SavedSeat::Human {
        token_hash: Some(stand_in),
        ..
    } = &seats[0]
    else {
        panic!("seat 0 keeps a token nobody has: {:?}", seats[0]);
    };
    assert!(matches!(&seats[1], SavedSeat::Human { token_hash: Some(t), .. } if t == "t1"));

    // A new session claims it again.
    let again = ClaimWrite {
        seen: Some(stand_in.clone()),
        ..claim_as("g1", 0, "t0b", "Ada", Some("p1"))
    };
    b.claim(&again).await.unwrap();
    a.append_move(&mv("g1", 0, 0, Some("t0b"), place(1)))
        .await
        .unwrap();

    // Deleting the account revokes them as well.
    let before = a.rev("g1").await.unwrap();
    let changed = a.delete_player("p1", 9_000).await.unwrap();
    assert_eq!(changed, vec![("g1".to_string(), before + 1)]);
    assert_eq!(
        conflict(b.append_move(&mv("g1", 1, 0, Some("t0b"), place(2))).await),
        Conflict::NotYourSeat
    );
    // An account with no seats changes no game.
    a.sign_up(&new_player("p2", "Bea")).await.unwrap();
    assert_eq!(b.close_sessions("p2").await, Ok(vec![]));
}

/// Claims seat `seat` of `game` for account `player` named `name`.
fn claim_as(game: &str, seat: u8, token: &str, name: &str, player: Option<&str>) -> ClaimWrite {
    ClaimWrite {
        name: Some(name.into()),
        player: player.map(str::to_string),
        ..claim(game, seat, None, token)
    }
}

/// A seat keeps its claimer's name and account.
pub async fn seat_holders((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    let g = SavedGame {
        host: Some("Ada".into()),
        public: true,
        ..game("g1", vec![human("i0"), human("i1"), bot()])
    };
    create(&*a, &g).await;
    a.claim(&claim_as("g1", 0, "t0", "Ada", Some("p1")))
        .await
        .unwrap();
    b.claim(&claim_as("g1", 1, "t1", "Guest Bo", None))
        .await
        .unwrap();
    let seats = b.game("g1").await.unwrap().seats;
    assert_eq!(seats[0].player(), Some("p1"));
    assert!(matches!(&seats[0], SavedSeat::Human { name: Some(n), .. } if n == "Ada"));
    assert!(
        matches!(&seats[1], SavedSeat::Human { name: Some(n), player: None, .. } if n == "Guest Bo")
    );
    let listed = &a.lobby(10).await.unwrap()[0];
    assert_eq!((listed.host.as_deref(), listed.rated), (Some("Ada"), false));
    assert_eq!(listed.seats, seats);
    // The account's games, with everyone at the table; nobody else's.
    let mine = b.games_of("p1", 10).await.unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].id.as_str(), mine[0].seat), ("g1", 0));
    assert_eq!(mine[0].status, Status::Playing);
    assert_eq!(mine[0].seats, seats);
    assert_eq!(a.games_of("p2", 10).await, Ok(Vec::new()));
    // A deleted account's seat keeps the account but not its name.
    a.delete_player("p1", 9_000).await.unwrap();
    let seats = b.game("g1").await.unwrap().seats;
    assert!(matches!(&seats[0], SavedSeat::Human { name: None, player: Some(p), .. } if p == "p1"));
}

/// The last move of a game, with its end.
fn last(game: &str, n: u64, seat: u8, token: &str, places: Vec<u8>, outcome: &str) -> MoveWrite {
    MoveWrite {
        after: Progress {
            over: true,
            bot_to_act: false,
            deadline_ms: None,
        },
        end: Some(GameEnd {
            at: 1_700_000_100,
            outcome: outcome.into(),
            places,
            solo: None,
        }),
        ..mv(game, n, seat, Some(token), place(1))
    }
}

/// A rated game's end rates its players once.
pub async fn rated_end((a, b): Handles) {
    for (id, name) in [("p1", "Ada"), ("p2", "Bea"), ("p3", "Cy")] {
        a.sign_up(&new_player(id, name)).await.unwrap();
    }
    let g = SavedGame {
        rated: true,
        ..game("g1", vec![human("i0"), human("i1")])
    };
    create(&*a, &g).await;
    a.claim(&claim_as("g1", 0, "t0", "Ada", Some("p1")))
        .await
        .unwrap();
    a.claim(&claim_as("g1", 1, "t1", "Bea", Some("p2")))
        .await
        .unwrap();
    assert!(a.game("g1").await.unwrap().rated);
    assert_eq!(b.rating("p1").await, Ok(None));
    let outcome = r#"{"kind":"ranking","ranking":[1,0],"scores":[40,75]}"#;
    // Bea (seat 1) wins.
    b.append_move(&last("g1", 0, 0, "t0", vec![2, 1], outcome))
        .await
        .unwrap();
    let ada = a.rating("p1").await.unwrap().expect("rated");
    let bea = a.rating("p2").await.unwrap().expect("rated");
    assert_eq!((ada.games, bea.games), (1, 1));
    assert!(bea.mu > ada.mu, "{bea:?} {ada:?}");
    // Once: the same last move again (a retry, another server) is refused and changes nothing.
    for s in [&a, &b] {
        assert!(matches!(
            conflict(
                s.append_move(&last("g1", 0, 0, "t0", vec![2, 1], outcome))
                    .await
            ),
            Conflict::StaleVersion { current: 1 }
        ));
    }
    assert_eq!(b.rating("p1").await.unwrap(), Some(ada));
    let history = b.rating_history("p2", 10).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].game.as_str(), history[0].at),
        ("g1", 1_700_000_100)
    );
    assert_eq!((history[0].mu, history[0].sigma), (bea.mu, bea.sigma));
    // The leaderboard: rated accounts only, best first.
    let board = a.leaderboard(10, 1).await.unwrap();
    let names: Vec<&str> = board.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Bea", "Ada"]);
    assert_eq!(board[0].rating, bea);
    assert_eq!(a.leaderboard(10, 2).await, Ok(Vec::new()));
    // The results, and the game as it ended.
    let results = b.results_of("p2").await.unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].outcome.as_deref(), Some(outcome));
    assert_eq!(results[0].ended_at, Some(1_700_000_100));
    assert!(results[0].rated && results[0].seats.is_empty());
    assert_eq!(b.results_of("p3").await, Ok(Vec::new()));
    // A second rated game starts from the ratings the first left.
    let g2 = SavedGame {
        rated: true,
        ..game("g2", vec![human("j0"), human("j1")])
    };
    create(&*b, &g2).await;
    b.claim(&claim_as("g2", 0, "u0", "Ada", Some("p1")))
        .await
        .unwrap();
    b.claim(&claim_as("g2", 1, "u1", "Cy", Some("p3")))
        .await
        .unwrap();
    a.append_move(&last("g2", 0, 0, "u0", vec![1, 2], outcome))
        .await
        .unwrap();
    let ada2 = b.rating("p1").await.unwrap().unwrap();
    assert_eq!(ada2.games, 2);
    assert!(ada2.mu > ada.mu && ada2.sigma < ada.sigma);
    assert_eq!(a.rating_history("p1", 10).await.unwrap().len(), 2);
    assert_eq!(a.rating_history("p1", 1).await.unwrap()[0].game, "g2");
}

/// A rated game with `players` (account ids) in its seats, every seat claimed with token
/// `t<seat>`.
async fn rated_game(s: &dyn Store, id: &str, players: &[&str]) {
    let seats = (0..players.len())
        .map(|i| human(&format!("{id}-i{i}")))
        .collect();
    create(
        s,
        &SavedGame {
            rated: true,
            ..game(id, seats)
        },
    )
    .await;
    for (i, p) in players.iter().enumerate() {
        s.claim(&claim_as(id, i as u8, &format!("t{i}"), p, Some(p)))
            .await
            .unwrap();
    }
}

/// The last move of `id`, played by the bot that took over `seat` (no person's token).
fn last_by_bot(id: &str, n: u64, seat: u8, places: Vec<u8>, outcome: &str) -> MoveWrite {
    MoveWrite {
        token_hash: None,
        ..last(id, n, seat, "", places, outcome)
    }
}

/// A rated game a player left (resigned, timed out) before every seat had moved changes no
/// rating; left after everyone moved, it does.
pub async fn rated_too_early((a, b): Handles) {
    for (id, name) in [("p1", "Ada"), ("p2", "Bea")] {
        a.sign_up(&new_player(id, name)).await.unwrap();
    }
    let outcome = r#"{"kind":"ranking","ranking":[0,1],"scores":[75,40]}"#;
    // Bea resigns at once; a bot plays her seat to the end, and Ada wins.
    rated_game(&*a, "g1", &["p1", "p2"]).await;
    b.leave(&leave_write("g1", 0, 1, LeftReason::Resigned, None))
        .await
        .unwrap();
    b.append_move(&last_by_bot("g1", 0, 0, vec![1, 2], outcome))
        .await
        .unwrap();
    for p in ["p1", "p2"] {
        assert_eq!(a.rating(p).await, Ok(None), "{p}");
        assert_eq!(a.rating_history(p, 10).await, Ok(Vec::new()));
    }
    assert_eq!(b.leaderboard(10, 0).await, Ok(Vec::new()));
    assert!(a.game("g1").await.unwrap().rated, "still a rated game");
    // Seat 2 (of 2) times out after its first move: both have moved, so it counts.
    rated_game(&*b, "g2", &["p1", "p2"]).await;
    a.append_move(&mv("g2", 0, 0, Some("t0"), place(1)))
        .await
        .unwrap();
    a.append_move(&mv("g2", 1, 1, Some("t1"), place(2)))
        .await
        .unwrap();
    a.leave(&leave_write("g2", 2, 1, LeftReason::TimedOut, None))
        .await
        .unwrap();
    b.append_move(&last_by_bot("g2", 2, 0, vec![1, 2], outcome))
        .await
        .unwrap();
    let (ada, bea) = (
        b.rating("p1").await.unwrap().expect("rated"),
        b.rating("p2").await.unwrap().expect("rated"),
    );
    assert_eq!((ada.games, bea.games), (1, 1));
    assert!(ada.mu > bea.mu);
}

/// The same two accounts' rated games count `rating::PAIR_GAMES_A_DAY` times in a day; past
/// that a game moves neither against the other, while each still counts against anyone else
/// at the table; the next day they count again.
pub async fn rated_pairs_a_day((a, b): Handles) {
    for (id, name) in [("p1", "Ada"), ("p2", "Bea"), ("p3", "Cy")] {
        a.sign_up(&new_player(id, name)).await.unwrap();
    }
    let two = r#"{"kind":"ranking","ranking":[0,1],"scores":[75,40]}"#;
    let cap = crate::rating::PAIR_GAMES_A_DAY;
    for k in 0..cap + 2 {
        let (s, t) = if k % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let id = format!("g{k}");
        rated_game(&**s, &id, &["p1", "p2"]).await;
        let before = t.rating("p1").await.unwrap();
        t.append_move(&last(&id, 0, 0, "t0", vec![1, 2], two))
            .await
            .unwrap();
        let after = s.rating("p1").await.unwrap();
        if k < cap {
            assert_eq!(after.map(|r| r.games), Some(k as u32 + 1));
        } else {
            assert_eq!(after, before, "game {k} of the day changes nothing");
        }
    }
    assert_eq!(
        a.rating_history("p2", 10).await.unwrap().len(),
        cap as usize
    );
    // Three at the table: Ada and Bea have met too often, Cy is new to both.
    let (ada, bea) = (
        a.rating("p1").await.unwrap().unwrap(),
        a.rating("p2").await.unwrap().unwrap(),
    );
    rated_game(&*b, "h1", &["p1", "p2", "p3"]).await;
    let three = r#"{"kind":"ranking","ranking":[0,1,2],"scores":[75,50,40]}"#;
    a.append_move(&last("h1", 0, 0, "t0", vec![1, 2, 3], three))
        .await
        .unwrap();
    let (ada2, bea2) = (
        b.rating("p1").await.unwrap().unwrap(),
        b.rating("p2").await.unwrap().unwrap(),
    );
    // Each as if the other were not there: Ada beat Cy, Bea beat Cy.
    let first = crate::rating::initial();
    let alone =
        |r: crate::store::Rating, place: u8| crate::rating::update(&[(r, place), (first, 3)])[0];
    assert_eq!((ada2, bea2), (alone(ada, 1), alone(bea, 2)));
    assert_eq!(b.rating("p3").await.unwrap().unwrap().games, 1);
    // A day later they count again.
    rated_game(&*a, "n1", &["p1", "p2"]).await;
    let mut next = last("n1", 0, 0, "t0", vec![1, 2], two);
    if let Some(end) = &mut next.end {
        end.at += crate::rating::PAIR_WINDOW_S;
    }
    b.append_move(&next).await.unwrap();
    assert_eq!(a.rating("p1").await.unwrap().unwrap().games, ada2.games + 1);
}

/// An unrated game's end leaves ratings alone.
pub async fn unrated_end((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    create(&*a, &game("g1", vec![human("i0"), bot()])).await;
    a.claim(&claim_as("g1", 0, "t0", "Ada", Some("p1")))
        .await
        .unwrap();
    let outcome = r#"{"kind":"ranking","ranking":[0,1],"scores":[75,40]}"#;
    b.append_move(&last("g1", 0, 0, "t0", vec![1, 2], outcome))
        .await
        .unwrap();
    assert_eq!(a.rating("p1").await, Ok(None));
    assert_eq!(a.rating_history("p1", 10).await, Ok(Vec::new()));
    assert_eq!(a.leaderboard(10, 0).await, Ok(Vec::new()));
    let results = a.results_of("p1").await.unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].outcome.as_deref(), Some(outcome));
    assert_eq!(b.game("g1").await.unwrap().moves.len(), 1);
}

const MINUTE: TimeControl = TimeControl::Realtime {
    initial_s: 60,
    increment_s: 0,
};

/// The last claim starts the clocks, once.
pub async fn clocks_start_once((a, b): Handles) {
    let mut g = game("g1", vec![human("i0"), human("i1")]);
    g.clock = MINUTE;
    create(&*a, &g).await;
    let mut first = claim("g1", 0, None, "t0");
    first.at_ms = 5_000;
    first.deadline_if_started = Some(1);
    a.claim(&first).await.unwrap();
    assert_eq!(
        b.game("g1").await.unwrap().started_ms,
        None,
        "a seat is free"
    );
    let mut second = claim("g1", 1, None, "t1");
    second.at_ms = 9_000;
    second.deadline_if_started = Some(69_000);
    b.claim(&second).await.unwrap();
    let stored = a.game("g1").await.unwrap();
    assert_eq!((stored.clock, stored.started_ms), (MINUTE, Some(9_000)));
    assert_eq!(
        a.due_clocks(68_999, 10).await.unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        a.due_clocks(69_000, 10).await.unwrap(),
        vec!["g1".to_string()]
    );
    // A re-claim later starts nothing again.
    let mut again = claim("g1", 1, Some("t1"), "t1b");
    again.at_ms = 20_000;
    again.deadline_if_started = Some(80_000);
    a.claim(&again).await.unwrap();
    let news = b.since("g1", 0).await.unwrap();
    assert_eq!(news.started_ms, Some(9_000));
    assert_eq!(
        b.due_clocks(69_000, 10).await.unwrap(),
        vec!["g1".to_string()]
    );
}

fn leave_write(
    game: &str,
    n: u64,
    seat: u8,
    reason: LeftReason,
    ended: Option<Ended>,
) -> LeaveWrite {
    LeaveWrite {
        game: game.into(),
        n,
        seat,
        left: Left {
            reason,
            version: n,
            at_ms: 7_000,
            bot: "greedy".into(),
            level: 1,
        },
        after: Progress {
            over: ended.is_some(),
            bot_to_act: true,
            deadline_ms: None,
        },
        ended,
    }
}

/// A bot takes a seat over once, at its version.
pub async fn leaving((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    a.claim(&claim("g1", 1, None, "t1")).await.unwrap();
    a.append_move(&mv("g1", 0, 0, Some("t0"), place(1)))
        .await
        .unwrap();
    let rev = a.rev("g1").await.unwrap();
    // Made for an older version: refused, nothing changes.
    assert_eq!(
        conflict(
            b.leave(&leave_write("g1", 0, 1, LeftReason::TimedOut, None))
                .await
        ),
        Conflict::StaleVersion { current: 1 }
    );
    // Racing servers: exactly one takes the seat over.
    let mut racers = Vec::new();
    for i in 0..6 {
        let s = if i % 2 == 0 { a.clone() } else { b.clone() };
        racers.push(tokio::spawn(async move {
            s.leave(&leave_write("g1", 1, 1, LeftReason::TimedOut, None))
                .await
        }));
    }
    let mut done = 0;
    for r in racers {
        match r.await.unwrap() {
            Ok(new_rev) => {
                assert_eq!(new_rev, rev + 1);
                done += 1;
            }
            Err(StoreError::Conflict(Conflict::Changed)) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(done, 1);
    let stored = b.game("g1").await.unwrap();
    assert_eq!(
        stored.seats[1].left(),
        Some(&Left {
            reason: LeftReason::TimedOut,
            version: 1,
            at_ms: 7_000,
            bot: "greedy".into(),
            level: 1,
        })
    );
    assert_eq!(stored.seats[1].bot(), Some(("greedy", 1)));
    assert_eq!(stored.ended, None);
    // Its person's token moves for it no more; the bot does.
    assert_eq!(
        conflict(a.append_move(&mv("g1", 1, 1, Some("t1"), place(2))).await),
        Conflict::NotYourSeat
    );
    assert_eq!(
        b.bot_turns(0, 10).await.unwrap(),
        vec![BotTurn {
            game: "g1".into(),
            version: 1,
            creator: "10.0.0.1".into()
        }]
    );
    a.append_move(&mv("g1", 1, 1, None, place(2)))
        .await
        .unwrap();
    // A solo player resigns: the game ends, without an outcome of the rules.
    create(&*a, &game("solo", vec![human("s")])).await;
    a.claim(&claim("solo", 0, None, "ts")).await.unwrap();
    b.leave(&leave_write(
        "solo",
        0,
        0,
        LeftReason::Resigned,
        Some(Ended::Resigned),
    ))
    .await
    .unwrap();
    let solo = a.game("solo").await.unwrap();
    assert_eq!(solo.ended, Some(Ended::Resigned));
    assert_eq!(a.counts().await.unwrap().open, 1, "only g1 is open");
    assert_eq!(
        conflict(a.append_move(&mv("solo", 0, 0, Some("ts"), place(1))).await),
        Conflict::NotYourSeat,
        "an ended game takes no move"
    );
    assert_eq!(
        a.leave(&leave_write("nope", 0, 0, LeftReason::Resigned, None))
            .await,
        Err(StoreError::NotFound)
    );
}

/// Due clocks are found by their deadline.
pub async fn due_clocks((a, b): Handles) {
    for (id, deadline) in [("late", 3_000), ("early", 1_000), ("none", 0)] {
        create(&*a, &game(id, vec![human("i0"), bot()])).await;
        a.claim(&claim(id, 0, None, "t0")).await.unwrap();
        let mut w = mv(id, 0, 0, Some("t0"), place(1));
        w.after.deadline_ms = (deadline > 0).then_some(deadline);
        a.append_move(&w).await.unwrap();
    }
    assert_eq!(b.due_clocks(999, 10).await.unwrap(), Vec::<String>::new());
    assert_eq!(
        b.due_clocks(5_000, 10).await.unwrap(),
        vec!["early", "late"]
    );
    assert_eq!(b.due_clocks(5_000, 1).await.unwrap(), vec!["early"]);
    // The next move clears the deadline (a bot to act has none).
    a.append_move(&mv("early", 1, 1, None, place(2)))
        .await
        .unwrap();
    assert_eq!(b.due_clocks(5_000, 10).await.unwrap(), vec!["late"]);
}

/// Idle games are ended once, and free the creator's count.
pub async fn idle_games((a, b): Handles) {
    // Created at 1_700_000_000 s: one waits for a seat, one is played (its move at +10 s).
    create(&*a, &game("waiting", vec![human("i0"), human("i1")])).await;
    a.claim(&claim("waiting", 0, None, "w0")).await.unwrap();
    create(&*a, &game("played", vec![human("i0"), bot()])).await;
    a.claim(&claim("played", 0, None, "p0")).await.unwrap();
    let mut w = mv("played", 0, 0, Some("p0"), place(1));
    w.at_ms = 1_700_000_010_000;
    a.append_move(&w).await.unwrap();
    assert_eq!(a.counts().await.unwrap().open, 2,);
    let sweep = |active_before_ms, created_before_s| IdleSweep {
        now_ms: 1_800_000_000_000,
        active_before_ms,
        created_before_s,
    };
    // Nothing is old enough yet.
    assert!(a
        .end_idle(sweep(1_700_000_010_000, 1_700_000_000))
        .await
        .unwrap()
        .is_empty());
    // The waiting game is closed (once, though both servers sweep).
    let (one, two) = tokio::join!(
        a.end_idle(sweep(1_700_000_010_000, 1_700_000_001)),
        b.end_idle(sweep(1_700_000_010_000, 1_700_000_001))
    );
    let mut ended: Vec<String> = one
        .unwrap()
        .into_iter()
        .chain(two.unwrap())
        .map(|(g, _)| g)
        .collect();
    ended.sort();
    assert_eq!(ended, vec!["waiting"]);
    assert_eq!(b.game("waiting").await.unwrap().ended, Some(Ended::Closed));
    assert_eq!(a.counts().await.unwrap().open, 1);
    // The played game is abandoned once its last move is old enough.
    let ended = b.end_idle(sweep(1_700_000_010_001, 0)).await.unwrap();
    assert_eq!(
        ended.iter().map(|(g, _)| g.as_str()).collect::<Vec<_>>(),
        vec!["played"]
    );
    assert_eq!(ended[0].1, a.rev("played").await.unwrap());
    assert_eq!(
        a.game("played").await.unwrap().ended,
        Some(Ended::Abandoned)
    );
    assert_eq!(a.counts().await.unwrap().open, 0);
    assert!(a.bot_turns(0, 10).await.unwrap().is_empty());
    // The creator may open new games again.
    let mut g = game("new", vec![human("i0")]);
    g.creator = "10.0.0.1".into();
    a.create(&g, PLAYING, Some(1), None).await.unwrap();
}

/// A game is cancelled only before anyone else joins.
pub async fn cancelling((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    assert_eq!(
        conflict(b.cancel("g1", "stranger", 1_000).await),
        Conflict::NotYourSeat
    );
    assert_eq!(
        b.cancel("nope", "t0", 1_000).await,
        Err(StoreError::NotFound)
    );
    let rev = b.cancel("g1", "t0", 1_000).await.unwrap();
    assert_eq!(rev, a.rev("g1").await.unwrap());
    assert_eq!(a.game("g1").await.unwrap().ended, Some(Ended::Cancelled));
    assert_eq!(
        conflict(b.cancel("g1", "t0", 1_000).await),
        Conflict::Changed
    );
    // Someone else joined: too late to cancel.
    create(&*a, &game("g2", vec![human("i0"), human("i1")])).await;
    a.claim(&claim("g2", 0, None, "t0")).await.unwrap();
    a.claim(&claim("g2", 1, None, "t1")).await.unwrap();
    assert_eq!(
        conflict(b.cancel("g2", "t0", 1_000).await),
        Conflict::Changed
    );
    assert_eq!(a.game("g2").await.unwrap().ended, None);
}

/// Chat lines are numbered, kept and capped.
pub async fn chat((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    let line = |seat: u8, line: ChatText| ChatWrite {
        game: "g1".into(),
        seat,
        at_ms: 1_000 + seat as i64,
        name: Some(format!("seat {seat}")),
        line,
        max_lines: 3,
        rates: Vec::new(),
    };
    let rev = a.rev("g1").await.unwrap();
    let mut racers = Vec::new();
    for seat in 0..2u8 {
        let s = if seat == 0 { a.clone() } else { b.clone() };
        let w = line(seat, ChatText::Text("<b>hi</b> & bye".into()));
        racers.push(tokio::spawn(async move { s.post_chat(&w).await }));
    }
    let mut numbers = Vec::new();
    for r in racers {
        numbers.push(r.await.unwrap().unwrap().0);
    }
    numbers.sort();
    assert_eq!(numbers, [0, 1], "each line its own number");
    assert_eq!(a.rev("g1").await.unwrap(), rev + 2);
    let (n, _) = b
        .post_chat(&line(0, ChatText::Phrase("thanks".into())))
        .await
        .unwrap();
    assert_eq!(n, 2);
    assert_eq!(
        conflict(
            a.post_chat(&line(1, ChatText::Text("one more".into())))
                .await
        ),
        Conflict::Changed,
        "the chat is full"
    );
    let lines = b.chat("g1", 0, 10).await.unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].line, ChatText::Text("<b>hi</b> & bye".into()));
    assert_eq!(lines[2].line, ChatText::Phrase("thanks".into()));
    assert_eq!(lines[2].name.as_deref(), Some("seat 0"));
    assert_eq!(b.chat("g1", 2, 10).await.unwrap().len(), 1);
    assert_eq!(b.chat("g1", 0, 1).await.unwrap().len(), 1);
    assert_eq!(a.game("g1").await.unwrap().chats, 3);
    assert_eq!(a.since("g1", 0).await.unwrap().chats, 3);
    assert_eq!(
        a.post_chat(&ChatWrite {
            game: "nope".into(),
            ..line(0, ChatText::Text("x".into()))
        })
        .await,
        Err(StoreError::NotFound)
    );
}

/// A seat's chat lines are counted in the store: two servers writing for one seat at once get
/// no more lines stored than the rate allows, and a refused line changes nothing.
pub async fn chat_rates((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    let rates = vec![
        ChatRate {
            lines: 3,
            window_ms: 10_000,
        },
        ChatRate {
            lines: 4,
            window_ms: 60_000,
        },
    ];
    let line = |seat: u8, at_ms: i64| ChatWrite {
        game: "g1".into(),
        seat,
        at_ms,
        name: None,
        line: ChatText::Phrase("thanks".into()),
        max_lines: 100,
        rates: rates.clone(),
    };
    let mut racers = Vec::new();
    for i in 0..6 {
        let s = if i % 2 == 0 { a.clone() } else { b.clone() };
        let w = line(0, 1_000);
        racers.push(tokio::spawn(async move { s.post_chat(&w).await }));
    }
    let mut stored = 0;
    for r in racers {
        match r.await.unwrap() {
            Ok(_) => stored += 1,
            Err(e) => assert_eq!(
                e,
                StoreError::Conflict(Conflict::TooFast { wait_ms: 10_000 })
            ),
        }
    }
    assert_eq!(stored, 3, "three lines in ten seconds, across both handles");
    let rev = a.rev("g1").await.unwrap();
    assert_eq!(
        a.game("g1").await.unwrap().chats,
        3,
        "refused lines are not counted"
    );
    // The other seat has its own count.
    b.post_chat(&line(1, 1_000)).await.unwrap();
    // Ten seconds on, one more (the minute's fourth); then the minute is full until the first
    // lines are a minute old.
    assert_eq!(
        a.post_chat(&line(0, 10_999)).await,
        Err(StoreError::Conflict(Conflict::TooFast { wait_ms: 1 }))
    );
    a.post_chat(&line(0, 11_000)).await.unwrap();
    assert_eq!(
        b.post_chat(&line(0, 30_000)).await,
        Err(StoreError::Conflict(Conflict::TooFast { wait_ms: 31_000 }))
    );
    b.post_chat(&line(0, 61_000)).await.unwrap();
    assert_eq!(a.rev("g1").await.unwrap(), rev + 3);
}

/// Accounts whose names look alike (the same skeleton) cannot both exist; a deleted account's
/// look is free again.
pub async fn look_alike_names((a, b): Handles) {
    use crate::names::skeleton;
    a.sign_up(&new_player("p1", "Bob")).await.unwrap();
    assert_eq!(
        b.sign_up(&new_player("p2", "B0b")).await,
        Err(StoreError::Conflict(Conflict::Exists))
    );
    assert_eq!(b.player_named("b0b").await, Ok(None), "nothing stored");
    assert_eq!(b.name_like(&skeleton("BOB")).await, Ok(true));
    assert_eq!(b.name_like(&skeleton("Bea")).await, Ok(false));
    assert_eq!(a.fill_skeletons().await, Ok(Vec::new()), "nothing to fill");
    a.delete_player("p1", 2_000).await.unwrap();
    assert_eq!(b.name_like(&skeleton("bob")).await, Ok(false));
    b.sign_up(&new_player("p2", "B0b")).await.unwrap();
    assert_eq!(a.name_like(&skeleton("bob")).await, Ok(true));
}

/// A running clock without a deadline is found and repaired.
pub async fn repairs((a, b): Handles) {
    let mut g = game("g1", vec![human("i0"), human("i1")]);
    g.clock = MINUTE;
    create(&*a, &g).await;
    // The clocks started, but no deadline was stored (what a race on two servers can leave).
    a.claim(&claim("g1", 0, None, "t0")).await.unwrap();
    b.claim(&claim("g1", 1, None, "t1")).await.unwrap();
    assert_eq!(a.due_clocks(0, 10).await.unwrap(), vec!["g1".to_string()]);
    let fixed = Progress {
        over: false,
        bot_to_act: false,
        deadline_ms: Some(5_000),
    };
    assert!(
        !b.repair("g1", 1, fixed).await.unwrap(),
        "not at that version"
    );
    assert!(b.repair("g1", 0, fixed).await.unwrap());
    assert!(a.due_clocks(4_999, 10).await.unwrap().is_empty());
    assert_eq!(
        a.due_clocks(5_000, 10).await.unwrap(),
        vec!["g1".to_string()]
    );
    // A bot to act has no clock: found by the bots' sweep instead.
    let bots = Progress {
        bot_to_act: true,
        deadline_ms: None,
        ..fixed
    };
    assert!(a.repair("g1", 0, bots).await.unwrap());
    assert!(a.due_clocks(i64::MAX, 10).await.unwrap().is_empty());
    assert_eq!(b.bot_turns(0, 10).await.unwrap().len(), 1);
    assert!(!a.repair("nope", 0, bots).await.unwrap());
}

/// A server secret is made once, whichever handle asks.
pub async fn server_secrets((a, b): Handles) {
    // Two servers starting together: both end up with the one secret stored first.
    let (x, y) = tokio::join!(
        a.server_secret("daily", "from-a"),
        b.server_secret("daily", "from-b")
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x, y);
    assert!(x == "from-a" || x == "from-b", "{x}");
    assert_eq!(a.server_secret("daily", "later").await.unwrap(), x);
    assert_eq!(b.server_secret("other", "o").await.unwrap(), "o");
    assert_eq!(a.server_secret("other", "p").await.unwrap(), "o");
}

/// A daily game of `day` in `variant` for the account `player` (none: a guest's).
fn daily_game(id: &str, day: &str, variant: Variant, player: Option<&str>) -> SavedGame {
    let mut g = game(
        id,
        vec![SavedSeat::Human {
            invite_hash: format!("i-{id}"),
            token_hash: Some(format!("t-{id}")),
            name: player.map(|p| format!("name-{p}")),
            player: player.map(str::to_string),
            left: None,
        }],
    );
    g.variant = variant;
    g.daily = Some(DailyTag {
        day: day.into(),
        par: false,
        result: None,
    });
    g
}

fn par_game(id: &str, day: &str, variant: Variant) -> SavedGame {
    let mut g = game(id, vec![bot()]);
    g.variant = variant;
    g.daily = Some(DailyTag {
        day: day.into(),
        par: true,
        result: None,
    });
    g
}

const DAY: &str = "2026-12-03";

/// One daily attempt per account, day and variant; one par game.
pub async fn daily_attempts((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    let first = daily_game("g1", DAY, Variant::Solo, Some("p1"));
    create(&*a, &first).await;
    assert_eq!(
        b.game("g1").await.unwrap(),
        first,
        "reads back with its day"
    );
    // The same account, day and variant again, from the other server: refused, nothing stored.
    assert_eq!(
        conflict(
            b.create(
                &daily_game("g2", DAY, Variant::Solo, Some("p1")),
                PLAYING,
                None,
                None
            )
            .await
        ),
        Conflict::Played
    );
    assert_eq!(a.game("g2").await, Err(StoreError::NotFound));
    // The other variant, another day, and any number of guests are new attempts.
    create(&*b, &daily_game("g3", DAY, Variant::SoloAll, Some("p1"))).await;
    create(
        &*b,
        &daily_game("g4", "2026-12-04", Variant::Solo, Some("p1")),
    )
    .await;
    create(&*a, &daily_game("guest1", DAY, Variant::Solo, None)).await;
    create(&*b, &daily_game("guest2", DAY, Variant::Solo, None)).await;
    // Racing first attempts of one account: exactly one is stored.
    a.sign_up(&new_player("p2", "Bea")).await.unwrap();
    let (r1, r2) = (
        daily_game("r1", DAY, Variant::Solo, Some("p2")),
        daily_game("r2", DAY, Variant::Solo, Some("p2")),
    );
    let (x, y) = tokio::join!(
        a.create(&r1, PLAYING, None, None),
        b.create(&r2, PLAYING, None, None)
    );
    assert_eq!(
        [&x, &y].iter().filter(|r| r.is_ok()).count(),
        1,
        "{x:?} {y:?}"
    );
    // One par game per day and variant.
    create(&*a, &par_game("par1", DAY, Variant::Solo)).await;
    assert_eq!(
        conflict(
            b.create(&par_game("par2", DAY, Variant::Solo), PLAYING, None, None)
                .await
        ),
        Conflict::Played
    );
    create(&*b, &par_game("par3", DAY, Variant::SoloAll)).await;
    let mine = b.daily_of("p1", DAY).await.unwrap();
    let games: Vec<(&str, Variant)> = mine.iter().map(|e| (e.game.as_str(), e.variant)).collect();
    assert_eq!(games, [("g1", Variant::Solo), ("g3", Variant::SoloAll)]);
    assert_eq!(mine[0].name.as_deref(), Some("Ada"));
    assert!(mine.iter().all(|e| e.result.is_none() && !e.par));
    // The board holds finished ranked attempts, and par: nothing finished yet.
    let board = a.daily_board(DAY, Variant::Solo).await.unwrap();
    let ids: Vec<&str> = board.iter().map(|e| e.game.as_str()).collect();
    assert_eq!(ids, ["par1"]);
    assert!(board[0].par && board[0].player.is_none());
}

fn solo_end(game: &str, token: &str, tiles: u8, score: i64, at_ms: i64) -> MoveWrite {
    let outcome = format!(
        r#"{{"kind":"solo","tiles_used":{tiles},"score":{score},"reached":true,"symphony":false}}"#
    );
    MoveWrite {
        end: Some(GameEnd {
            at: at_ms / 1000,
            outcome,
            places: vec![1],
            solo: Some(SoloResult {
                tiles,
                score,
                reached: true,
                at_ms,
            }),
        }),
        ..last(game, 0, 0, token, vec![1], "{}")
    }
}

/// A daily result is stored with the last move and read by the board.
pub async fn daily_results((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.sign_up(&new_player("p2", "Bea")).await.unwrap();
    create(&*a, &daily_game("g1", DAY, Variant::Solo, Some("p1"))).await;
    create(&*a, &daily_game("g2", DAY, Variant::Solo, Some("p2"))).await;
    create(&*a, &daily_game("guest", DAY, Variant::Solo, None)).await;
    create(
        &*a,
        &daily_game("old", "2026-12-01", Variant::SoloAll, Some("p1")),
    )
    .await;
    create(&*a, &par_game("par", DAY, Variant::Solo)).await;
    b.append_move(&solo_end("g1", "t-g1", 24, 77, 5_000))
        .await
        .unwrap();
    b.append_move(&solo_end("guest", "t-guest", 20, 80, 6_000))
        .await
        .unwrap();
    b.append_move(&solo_end("old", "t-old", 72, 96, 1_000))
        .await
        .unwrap();
    let result = SoloResult {
        tiles: 24,
        score: 77,
        reached: true,
        at_ms: 5_000,
    };
    assert_eq!(
        a.game("g1").await.unwrap().daily.unwrap().result,
        Some(result)
    );
    let board = a.daily_board(DAY, Variant::Solo).await.unwrap();
    let mut seen: Vec<(&str, Option<SoloResult>)> =
        board.iter().map(|e| (e.game.as_str(), e.result)).collect();
    seen.sort_by_key(|(g, _)| g.to_string());
    // Bea has not finished, the guest is unranked: neither is on it.
    assert_eq!(seen, [("g1", Some(result)), ("par", None)]);
    assert_eq!(a.daily_days("p1", 10).await.unwrap(), [DAY, "2026-12-01"]);
    assert_eq!(a.daily_days("p1", 1).await.unwrap(), [DAY]);
    assert_eq!(a.daily_days("p2", 10).await.unwrap(), Vec::<String>::new());
    // A deleted account stays in the table but loses its name.
    b.delete_player("p1", 9_000).await.unwrap();
    let board = a.daily_board(DAY, Variant::Solo).await.unwrap();
    let g1 = board.iter().find(|e| e.game == "g1").unwrap();
    assert_eq!(
        (g1.player.as_deref(), g1.name.as_deref()),
        (Some("p1"), None)
    );
    // `db copy` carries a daily game with its result.
    let mut copied = a.game("g1").await.unwrap();
    copied.id = "copy".into();
    copied.daily.as_mut().unwrap().day = "2026-11-30".into();
    b.import(&copied, PLAYING).await.unwrap();
    let back = a.game("copy").await.unwrap();
    assert_eq!((back.daily, back.moves.len()), (copied.daily, 1));
}
