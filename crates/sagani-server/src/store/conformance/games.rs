//! Games: stored, read back, moved, claimed, listed, leased, copied, raced, heard; repairs and secrets.

use super::*;

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
    let ids = |l: Vec<crate::store::Summary>| l.into_iter().map(|s| s.id).collect::<Vec<_>>();
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
