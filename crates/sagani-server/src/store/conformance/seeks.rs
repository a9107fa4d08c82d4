//! Seeks: kept while their seeker is there, cancelled once, paired once whichever handle
//! pairs them, their game and notices written with the pairing.

use super::accounts::new_player;
use super::*;
use crate::store::{NewNotice, NoticeKind, Pairing, Pool, Seek, SeekStatus};

fn seek(id: &str, player: Option<&str>, at_ms: i64) -> Seek {
    Seek {
        id: id.into(),
        token_hash: format!("hash-{id}"),
        pool: Pool {
            players: 2,
            clock: TimeControl::Realtime {
                initial_s: 300,
                increment_s: 3,
            },
            rated: false,
        },
        player: player.map(str::to_string),
        name: Some(format!("name-{id}")),
        rating: None,
        bot_after_s: Some(30),
        created_ms: at_ms,
        seen_ms: at_ms,
        status: SeekStatus::Waiting,
        game: None,
        seat: None,
        ended_ms: None,
    }
}

fn pairing(game_id: &str, seeks: &[&Seek], at_ms: i64) -> Pairing {
    let seats = seeks
        .iter()
        .map(|s| SavedSeat::Human {
            invite_hash: String::new(),
            token_hash: Some(s.token_hash.clone()),
            name: s.name.clone(),
            player: s.player.clone(),
            left: None,
        })
        .collect();
    Pairing {
        seats: seeks
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i as u8))
            .collect(),
        game: game(game_id, seats),
        after: PLAYING,
        at_ms,
        notices: seeks
            .iter()
            .filter_map(|s| {
                Some(NewNotice {
                    id: format!("n-{}-{game_id}", s.id),
                    player: s.player.clone()?,
                    kind: NoticeKind::SeekPaired,
                    game: Some(game_id.into()),
                    about: None,
                    at_ms,
                })
            })
            .collect(),
    }
}

/// A seek waits, is kept by its seeker, read back as stored, and cancelled once.
pub async fn seeks_wait_and_cancel((a, b): Handles) {
    let s1 = seek("s1", None, 1_000);
    a.add_seek(&s1).await.unwrap();
    a.add_seek(&seek("s2", None, 2_000)).await.unwrap();
    assert_eq!(b.seek("s1").await.unwrap(), Some(s1.clone()));
    assert_eq!(b.seek("nope").await.unwrap(), None);
    let ids: Vec<String> = b
        .waiting_seeks(10)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids, ["s1", "s2"]);
    assert_eq!(b.waiting_seeks(1).await.unwrap().len(), 1);
    assert_eq!(b.waiting_counts().await.unwrap(), vec![(s1.pool, 2)]);
    assert!(b.touch_seek("s1", 5_000).await.unwrap());
    assert_eq!(a.seek("s1").await.unwrap().unwrap().seen_ms, 5_000);
    // Cancelled once: the second cancel and a touch find it no longer waiting.
    assert!(a.cancel_seek("s2", 6_000).await.unwrap());
    assert!(!b.cancel_seek("s2", 6_500).await.unwrap());
    assert!(!b.touch_seek("s2", 7_000).await.unwrap());
    assert_eq!(a.waiting_counts().await.unwrap(), vec![(s1.pool, 1)]);
    let s2 = a.seek("s2").await.unwrap().unwrap();
    assert_eq!(
        (s2.status, s2.ended_ms),
        (SeekStatus::Cancelled, Some(6_000))
    );
    // Seekers not seen since 5 s ago are dropped: s1 was seen at 5 s and stays.
    a.add_seek(&seek("s3", None, 3_000)).await.unwrap();
    assert_eq!(
        b.drop_unseen_seeks(5_000, 8_000).await.unwrap(),
        vec!["s3".to_string()]
    );
    assert_eq!(
        a.seek("s1").await.unwrap().unwrap().status,
        SeekStatus::Waiting
    );
}

/// Two handles pair the same seeks at once: one game, each seek paired once, with its seat and
/// a notice for the seeker with an account.
pub async fn seeks_pair_once((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    let (s1, s2, s3) = (
        seek("s1", Some("p1"), 1_000),
        seek("s2", None, 2_000),
        seek("s3", None, 3_000),
    );
    for s in [&s1, &s2, &s3] {
        a.add_seek(s).await.unwrap();
    }
    let one = pairing("g1", &[&s1, &s2], 4_000);
    let two = pairing("g2", &[&s2, &s1], 4_000);
    let (x, y) = tokio::join!(a.pair(&one), b.pair(&two));
    let won = match (&x, &y) {
        (Ok(_), Err(StoreError::Conflict(Conflict::Changed))) => "g1",
        (Err(StoreError::Conflict(Conflict::Changed)), Ok(_)) => "g2",
        other => panic!("one pairing wins, the other is refused: {other:?}"),
    };
    let lost = if won == "g1" { "g2" } else { "g1" };
    assert_eq!(a.game(lost).await.map(|_| ()), Err(StoreError::NotFound));
    let g = b.game(won).await.unwrap();
    assert_eq!(g.seats.len(), 2);
    for s in [&s1, &s2] {
        let read = b.seek(&s.id).await.unwrap().unwrap();
        assert_eq!(read.status, SeekStatus::Paired);
        assert_eq!(read.game.as_deref(), Some(won));
        assert_eq!(read.ended_ms, Some(4_000));
        let seat = read.seat.unwrap() as usize;
        assert!(
            matches!(&g.seats[seat], SavedSeat::Human { token_hash: Some(h), .. } if *h == s.token_hash)
        );
    }
    // Notices for the account only, raised with the pairing.
    let notices = a.notices("p1", 10).await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, NoticeKind::SeekPaired);
    assert_eq!(notices[0].game.as_deref(), Some(won));
    // A group with a seek no longer waiting changes nothing: s3 still waits, no game g3.
    let late = pairing("g3", &[&s3, &s1], 5_000);
    assert_eq!(
        a.pair(&late).await,
        Err(StoreError::Conflict(Conflict::Changed))
    );
    assert_eq!(
        b.seek("s3").await.unwrap().unwrap().status,
        SeekStatus::Waiting
    );
    assert_eq!(a.game("g3").await.map(|_| ()), Err(StoreError::NotFound));
}
