//! Mail: an address verified by its link, mails put in the outbox with their notice (at most
//! one per account, game and day), claimed by one server, and stopped by a mail's link.

use super::accounts::new_player;
use super::*;
use crate::store::{NewAddress, NewNotice, NoticeKind};

const DAY: i64 = 86_400_000;
const T0: i64 = 1_700_000_000_000;

fn turn(id: &str, game: &str, at_ms: i64) -> NewNotice {
    NewNotice {
        id: id.into(),
        player: "p1".into(),
        kind: NoticeKind::YourTurn,
        game: Some(game.into()),
        about: None,
        at_ms,
    }
}

fn address(hash: &str) -> NewAddress {
    NewAddress {
        player: "p1".into(),
        address: "ada@example.org".into(),
        lang: "de".into(),
        verify_hash: hash.into(),
        verify_until_ms: T0 + DAY,
        base_url: "http://sagani.test".into(),
        at_ms: T0,
    }
}

/// Nothing is mailed before the address is verified and the kind chosen; then one mail per
/// game and day, claimed by one of two servers, until a mail's stop link stops them.
pub async fn mail_outbox((a, b): Handles) {
    a.sign_up(&new_player("p1", "Ada")).await.unwrap();
    a.set_mail_address(&address("h1")).await.unwrap();
    assert!(a.set_mail_choices("p1", true, false).await.unwrap());
    a.raise_notice(&turn("n1", "g1", T0)).await.unwrap();
    assert_eq!(
        b.due_mails(T0, 10).await.unwrap(),
        Vec::<String>::new(),
        "unverified"
    );
    // An expired link verifies nothing; the right one in time does, once.
    assert_eq!(b.verify_mail("h1", T0 + 2 * DAY).await, Ok(None));
    assert_eq!(b.verify_mail("wrong", T0).await, Ok(None));
    assert_eq!(b.verify_mail("h1", T0 + 1).await, Ok(Some("p1".into())));
    assert_eq!(a.verify_mail("h1", T0 + 2).await, Ok(None));
    let got = a.mail_address("p1").await.unwrap().unwrap();
    assert!(got.verified && got.your_turn && !got.challenges);
    assert_eq!(got.lang, "de");
    a.read_notices("p1", T0, T0).await.unwrap();
    // Two turns of one game on one day: one mail; another game: another mail.
    a.raise_notice(&turn("n2", "g1", T0 + 10)).await.unwrap();
    b.raise_notice(&turn("n3", "g1", T0 + 20)).await.unwrap();
    b.raise_notice(&turn("n4", "g2", T0 + 30)).await.unwrap();
    // Challenges were not chosen.
    b.raise_notice(&NewNotice {
        kind: NoticeKind::Challenge,
        about: Some("c1".into()),
        game: None,
        ..turn("n5", "", T0 + 40)
    })
    .await
    .unwrap();
    let due = a.due_mails(T0 + 50, 10).await.unwrap();
    assert_eq!(due, ["n2", "n4"]);
    // Of two servers claiming it, one gets it.
    let first = a.claim_mail("n2", "server-a", T0 + 50, T0 + 60_000, "s1");
    let second = b.claim_mail("n2", "server-b", T0 + 50, T0 + 60_000, "s2");
    let (first, second) = tokio::join!(first, second);
    let (first, second) = (first.unwrap(), second.unwrap());
    assert!(first.is_some() != second.is_some(), "{first:?} {second:?}");
    let (mail, holder, stop) = match (first, second) {
        (Some(m), None) => (m, "server-a", "s1"),
        (None, Some(m)) => (m, "server-b", "s2"),
        _ => unreachable!(),
    };
    assert_eq!(mail.to.as_ref().unwrap().address, "ada@example.org");
    assert_eq!(mail.game.as_deref(), Some("g1"));
    a.mail_done("n2", holder, T0 + 70).await.unwrap();
    assert_eq!(b.due_mails(T0 + 80, 10).await.unwrap(), ["n4"]);
    // The next day the same game mails again.
    a.raise_notice(&turn("n6", "g1", T0 + DAY)).await.unwrap();
    assert_eq!(b.due_mails(T0 + DAY, 10).await.unwrap(), ["n4", "n6"]);
    // The stop link stops mail to the account: nothing new is put in the outbox.
    assert_eq!(b.stop_mail("nobody's").await, Ok(None));
    assert_eq!(b.stop_mail(stop).await, Ok(Some("de".into())));
    let got = a.mail_address("p1").await.unwrap().unwrap();
    assert!(!got.your_turn && !got.challenges);
    a.raise_notice(&turn("n7", "g1", T0 + 2 * DAY))
        .await
        .unwrap();
    assert_eq!(b.due_mails(T0 + 2 * DAY, 10).await.unwrap(), ["n4", "n6"]);
    // A mail claimed after it stopped is not to be sent.
    let held = a
        .claim_mail("n4", "server-a", T0 + 2 * DAY, T0 + 3 * DAY, "s3")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(held.to, None);
}
