//! Clocks, seats left to bots, due clocks, idle games, cancelling.

use super::*;

pub(super) const MINUTE: TimeControl = TimeControl::Realtime {
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

pub(super) fn leave_write(
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
