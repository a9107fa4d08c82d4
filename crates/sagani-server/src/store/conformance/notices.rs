//! Notices: raised on one handle, read and marked read on another.

use super::accounts::new_player;
use super::*;
use crate::store::{NewNotice, NoticeKind};

fn notice(id: &str, player: &str, kind: NoticeKind, at_ms: i64) -> NewNotice {
    NewNotice {
        id: id.into(),
        player: player.into(),
        kind,
        game: Some("g1".into()),
        about: None,
        at_ms,
    }
}

/// An account reads its own notices, newest first, and marks them read up to a time.
pub async fn notices((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.sign_up(&new_player("p2", "Bea")).await.unwrap();
    a.raise_notice(&notice("n1", "p1", NoticeKind::YourTurn, 1_000))
        .await
        .unwrap();
    // Another game's end (the end of g1 would mark its turn read).
    a.raise_notice(&NewNotice {
        game: Some("g2".into()),
        ..notice("n2", "p1", NoticeKind::GameOver, 2_000)
    })
    .await
    .unwrap();
    b.raise_notice(&notice("n3", "p2", NoticeKind::Challenge, 1_500))
        .await
        .unwrap();
    let listed = b.notices("p1", 10).await.unwrap();
    let ids: Vec<&str> = listed.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["n2", "n1"]);
    assert_eq!(listed[0].kind, NoticeKind::GameOver);
    assert_eq!(listed[0].game.as_deref(), Some("g2"));
    assert_eq!(b.unread_notices("p1").await, Ok(2));
    // Read up to the first one: the later one stays unread, the other account's untouched.
    assert_eq!(a.read_notices("p1", 1_000, 3_000).await, Ok(1));
    assert_eq!(b.unread_notices("p1").await, Ok(1));
    assert!(b.notices("p1", 10).await.unwrap()[1].read);
    assert_eq!(b.unread_notices("p2").await, Ok(1));
    // Marking again marks nothing; the limit limits.
    assert_eq!(a.read_notices("p1", 1_000, 4_000).await, Ok(0));
    assert_eq!(a.notices("p1", 1).await.unwrap().len(), 1);
}

/// An account has at most one unread "your turn" notice per game: another moves it up; once
/// it is read, the next turn raises a new one.
pub async fn your_turn_notices_do_not_pile_up((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.raise_notice(&notice("n1", "p1", NoticeKind::YourTurn, 1_000))
        .await
        .unwrap();
    b.raise_notice(&notice("n2", "p1", NoticeKind::YourTurn, 2_000))
        .await
        .unwrap();
    let listed = a.notices("p1", 10).await.unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!((listed[0].id.as_str(), listed[0].at_ms), ("n1", 2_000));
    assert_eq!(a.unread_notices("p1").await, Ok(1));
    a.read_notices("p1", 2_000, 2_500).await.unwrap();
    b.raise_notice(&notice("n3", "p1", NoticeKind::YourTurn, 3_000))
        .await
        .unwrap();
    let ids: Vec<String> = a
        .notices("p1", 10)
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.id)
        .collect();
    assert_eq!(ids, ["n3", "n1"]);
    assert_eq!(a.unread_notices("p1").await, Ok(1));
    // The game ends: its turn is no longer to take.
    b.raise_notice(&notice("n4", "p1", NoticeKind::GameOver, 4_000))
        .await
        .unwrap();
    let listed = a.notices("p1", 10).await.unwrap();
    let unread: Vec<&str> = listed
        .iter()
        .filter(|n| !n.read)
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(unread, ["n4"]);
}
