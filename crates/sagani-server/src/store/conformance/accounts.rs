//! Accounts: names, sessions, log-in counts, seats held by accounts, look-alike names.

use super::*;

pub(super) fn new_player(id: &str, name: &str) -> NewPlayer {
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
pub(super) fn claim_as(
    game: &str,
    seat: u8,
    token: &str,
    name: &str,
    player: Option<&str>,
) -> ClaimWrite {
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
