//! The end of a game, rated or not.

use super::*;
use crate::store::RatingStep;

/// The last move of a game, with its end.
pub(super) fn last(
    game: &str,
    n: u64,
    seat: u8,
    token: &str,
    places: Vec<u8>,
    outcome: &str,
) -> MoveWrite {
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
    // The game reads back each seat's rating before and after it: newcomers' before.
    let first = crate::rating::initial();
    for s in [&a, &b] {
        assert_eq!(
            s.game("g1").await.unwrap().ratings,
            [
                RatingStep {
                    seat: 0,
                    before: (first.mu, first.sigma),
                    after: (ada.mu, ada.sigma),
                },
                RatingStep {
                    seat: 1,
                    before: (first.mu, first.sigma),
                    after: (bea.mu, bea.sigma),
                },
            ]
        );
    }
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
    // Ada's second game starts from where her first left her; Cy's is her first.
    let cy = a.rating("p3").await.unwrap().unwrap();
    assert_eq!(
        b.game("g2").await.unwrap().ratings,
        [
            RatingStep {
                seat: 0,
                before: (ada.mu, ada.sigma),
                after: (ada2.mu, ada2.sigma),
            },
            RatingStep {
                seat: 1,
                before: (first.mu, first.sigma),
                after: (cy.mu, cy.sigma),
            },
        ]
    );
}

/// A rated game with `players` (account ids) in its seats, every seat claimed with token
/// `t<seat>`.
pub(super) async fn rated_game(s: &dyn Store, id: &str, players: &[&str]) {
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
pub(super) fn last_by_bot(id: &str, n: u64, seat: u8, places: Vec<u8>, outcome: &str) -> MoveWrite {
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
    assert_eq!(b.game("g1").await.unwrap().ratings, []);
}
