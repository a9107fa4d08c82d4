//! Challenges and follows: sent with a notice on one handle, answered on another; accepted
//! once when both handles accept at once; follows, the challenges-from setting, last seen.

use super::accounts::new_player;
use super::*;
use crate::store::{ChallengeStatus, Closing, NewChallenge, NewNotice, NoticeKind};

fn new_challenge(id: &str, from: &str, to: &str, at_ms: i64) -> NewChallenge {
    NewChallenge {
        id: id.into(),
        from: from.into(),
        to: to.into(),
        variant: Variant::Standard,
        clock: TimeControl::Turn { days: 2 },
        rated: true,
        at_ms,
        expires_ms: at_ms + 1_000,
    }
}

fn notice(id: &str, player: &str, about: &str, at_ms: i64) -> NewNotice {
    NewNotice {
        id: id.into(),
        player: player.into(),
        kind: NoticeKind::Challenge,
        game: None,
        about: Some(about.into()),
        at_ms,
    }
}

async fn two_players(a: &dyn Store) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.sign_up(&new_player("p2", "Bea")).await.unwrap();
}

/// A challenge is stored with its notice, read back on another handle, listed for both
/// accounts while open; the challenger's open ones are limited; expired ones are not listed.
pub async fn challenges_stored_with_notice((a, b): Handles) {
    two_players(&*a).await;
    a.challenge(
        &new_challenge("c1", "p1", "p2", 10_000),
        &notice("n1", "p2", "c1", 10_000),
        2,
    )
    .await
    .unwrap();
    let c = b.challenge_by_id("c1").await.unwrap();
    assert_eq!(
        (c.from_name.as_str(), c.to_name.as_str(), c.status),
        ("Ada", "Bea", ChallengeStatus::Open)
    );
    assert_eq!(
        (c.clock, c.rated, c.expires_ms),
        (TimeControl::Turn { days: 2 }, true, 11_000)
    );
    let notices = b.notices("p2", 10).await.unwrap();
    assert_eq!(notices[0].about.as_deref(), Some("c1"));
    assert_eq!(
        b.challenges_of("p1", 10_500, 10_500, 10)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        b.challenges_of("p2", 10_500, 10_500, 10)
            .await
            .unwrap()
            .len(),
        1
    );
    // The limit counts open ones; a refused challenge raises no notice.
    b.challenge(
        &new_challenge("c2", "p1", "p2", 10_100),
        &notice("n2", "p2", "c2", 10_100),
        2,
    )
    .await
    .unwrap();
    assert_eq!(
        conflict(
            a.challenge(
                &new_challenge("c3", "p1", "p2", 10_200),
                &notice("n3", "p2", "c3", 10_200),
                2
            )
            .await
        ),
        Conflict::TooManyChallenges { open: 2 }
    );
    assert_eq!(a.notices("p2", 10).await.unwrap().len(), 2);
    // Once c1 has expired, another may be sent; c1 is no longer listed.
    a.challenge(
        &new_challenge("c3", "p1", "p2", 11_050),
        &notice("n3", "p2", "c3", 11_050),
        2,
    )
    .await
    .unwrap();
    let listed: Vec<String> = b
        .challenges_of("p2", 11_060, 11_060, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(listed, ["c3", "c2"]);
    // To or from nobody: not found.
    assert_eq!(
        a.challenge(
            &new_challenge("c4", "p1", "nobody", 1),
            &notice("n4", "p1", "c4", 1),
            9
        )
        .await,
        Err(StoreError::NotFound)
    );
}

/// An account that takes challenges only from those it follows refuses the others'.
pub async fn challenges_from_followed((a, b): Handles) {
    two_players(&*a).await;
    assert_eq!(b.followed_only("p2").await, Ok(false));
    a.set_followed_only("p2", true).await.unwrap();
    assert_eq!(b.followed_only("p2").await, Ok(true));
    assert_eq!(
        conflict(
            b.challenge(
                &new_challenge("c1", "p1", "p2", 1),
                &notice("n1", "p2", "c1", 1),
                9
            )
            .await
        ),
        Conflict::NotFollowed
    );
    assert_eq!(a.notices("p2", 10).await.unwrap(), Vec::new());
    a.follow("p2", "p1", 5).await.unwrap();
    b.challenge(
        &new_challenge("c1", "p1", "p2", 1),
        &notice("n1", "p2", "c1", 1),
        9,
    )
    .await
    .unwrap();
}

/// Accepted by both handles at once: one game is stored, the challenge names it.
pub async fn challenge_accepted_once((a, b): Handles) {
    two_players(&*a).await;
    a.challenge(
        &new_challenge("c1", "p1", "p2", 10_000),
        &notice("n1", "p2", "c1", 10_000),
        9,
    )
    .await
    .unwrap();
    let mut racers = Vec::new();
    for i in 0..6 {
        let s = if i % 2 == 0 { a.clone() } else { b.clone() };
        racers.push(tokio::spawn(async move {
            let g = game(&format!("g{i}"), vec![human("i0"), human("i1")]);
            (i, s.accept_challenge("c1", "p2", &g, PLAYING, 10_100).await)
        }));
    }
    let mut winners = Vec::new();
    for r in racers {
        match r.await.unwrap() {
            (i, Ok(_)) => winners.push(format!("g{i}")),
            (_, Err(StoreError::Conflict(Conflict::Changed))) => {}
            (_, other) => panic!("{other:?}"),
        }
    }
    assert_eq!(winners.len(), 1);
    assert_eq!(a.counts().await.unwrap().games, 1);
    let c = b.challenge_by_id("c1").await.unwrap();
    assert_eq!(
        (c.status, c.game),
        (ChallengeStatus::Accepted, Some(winners[0].clone()))
    );
    // Not the challenger's to accept; not after it expired.
    a.challenge(
        &new_challenge("c2", "p1", "p2", 10_000),
        &notice("n2", "p2", "c2", 10_000),
        9,
    )
    .await
    .unwrap();
    let g = game("g9", vec![human("i0"), human("i1")]);
    assert_eq!(
        a.accept_challenge("c2", "p1", &g, PLAYING, 10_100).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(
        conflict(a.accept_challenge("c2", "p2", &g, PLAYING, 11_000).await),
        Conflict::Changed
    );
    assert_eq!(a.rev("g9").await, Err(StoreError::NotFound));
    // Answered challenges are listed while decided after `since`.
    assert_eq!(
        b.challenges_of("p1", 20_000, 10_000, 9)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        b.challenges_of("p1", 20_000, 10_200, 9)
            .await
            .unwrap()
            .len(),
        0
    );
    // A deleted challenger's challenge is closed.
    a.challenge(
        &new_challenge("c3", "p1", "p2", 10_000),
        &notice("n3", "p2", "c3", 10_000),
        9,
    )
    .await
    .unwrap();
    a.delete_player("p1", 10_050).await.unwrap();
    assert_eq!(
        conflict(b.accept_challenge("c3", "p2", &g, PLAYING, 10_100).await),
        Conflict::Changed
    );
}

/// Declined by the challenged account, withdrawn by the challenger, each once.
pub async fn challenges_closed((a, b): Handles) {
    two_players(&*a).await;
    for id in ["c1", "c2"] {
        a.challenge(
            &new_challenge(id, "p1", "p2", 10_000),
            &notice(id, "p2", id, 10_000),
            9,
        )
        .await
        .unwrap();
    }
    assert_eq!(
        a.close_challenge("c1", "p1", Closing::Decline, 10_100)
            .await,
        Err(StoreError::NotFound)
    );
    b.close_challenge("c1", "p2", Closing::Decline, 10_100)
        .await
        .unwrap();
    assert_eq!(
        conflict(
            a.close_challenge("c1", "p2", Closing::Decline, 10_100)
                .await
        ),
        Conflict::Changed
    );
    assert_eq!(
        a.close_challenge("c2", "p2", Closing::Withdraw, 10_100)
            .await,
        Err(StoreError::NotFound)
    );
    a.close_challenge("c2", "p1", Closing::Withdraw, 10_200)
        .await
        .unwrap();
    let c1 = b.challenge_by_id("c1").await.unwrap();
    let c2 = b.challenge_by_id("c2").await.unwrap();
    assert_eq!(
        (c1.status, c1.decided_ms),
        (ChallengeStatus::Declined, Some(10_100))
    );
    assert_eq!(
        (c2.status, c2.decided_ms),
        (ChallengeStatus::Withdrawn, Some(10_200))
    );
    assert_eq!(
        b.close_challenge("nope", "p1", Closing::Withdraw, 1).await,
        Err(StoreError::NotFound)
    );
}

/// Follows, by name in name order, deleted accounts left out; last seen written at most once
/// in `every_ms`, whichever handle asks.
pub async fn follows_and_seen((a, b): Handles) {
    two_players(&*a).await;
    a.sign_up(&new_player("p3", "Cyd")).await.unwrap();
    a.follow("p1", "p3", 1).await.unwrap();
    b.follow("p1", "p2", 2).await.unwrap();
    b.follow("p1", "p2", 3).await.unwrap();
    assert_eq!(a.is_following("p1", "p2").await, Ok(true));
    assert_eq!(a.is_following("p2", "p1").await, Ok(false));
    let names: Vec<String> = b
        .follows("p1")
        .await
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["Bea", "Cyd"]);
    assert!(a.seen("p2", 100_000, 60_000).await.unwrap());
    assert!(!b.seen("p2", 130_000, 60_000).await.unwrap());
    assert!(b.seen("p2", 160_000, 60_000).await.unwrap());
    assert_eq!(a.follows("p1").await.unwrap()[0].last_seen, Some(160_000));
    assert_eq!(a.unfollow("p1", "p2").await, Ok(true));
    assert_eq!(a.unfollow("p1", "p2").await, Ok(false));
    a.delete_player("p3", 200_000).await.unwrap();
    assert_eq!(b.follows("p1").await, Ok(Vec::new()));
}
