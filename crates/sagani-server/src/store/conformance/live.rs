//! The games to watch: only games between people, strongest first, leaving once over; every
//! server's spectators added up while their counts are fresh.

use super::*;
use crate::store::Left;

/// A seat claimed by a person: a guest, or the account `player`.
fn person(token: &str, player: Option<&str>) -> SavedSeat {
    SavedSeat::Human {
        invite_hash: format!("i-{token}"),
        token_hash: Some(token.into()),
        name: Some(format!("N-{token}")),
        player: player.map(str::to_string),
        left: None,
    }
}

fn rating(player: &str, mu: f64, sigma: f64) -> Vec<Value> {
    vec![
        Value::Text(player.into()),
        Value::Real(mu),
        Value::Real(sigma),
        Value::Int(12),
    ]
}

fn ids(games: &[crate::store::LiveGame]) -> Vec<&str> {
    games.iter().map(|g| g.id.as_str()).collect()
}

/// Games between people, public or rated, strongest first; the rest stay out.
pub async fn live_games((a, b): Handles) {
    let columns: Vec<String> = ["player_id", "mu", "sigma", "games"]
        .map(String::from)
        .into();
    // Strengths (mu - 3 sigma): p1 34, p2 24, p3 19; guests 0.
    a.put_rows(
        "ratings",
        &columns,
        &[
            rating("p1", 40.0, 2.0),
            rating("p2", 30.0, 2.0),
            rating("p3", 28.0, 3.0),
        ],
    )
    .await
    .unwrap();
    let make = |id: &str, seats: Vec<SavedSeat>, at: i64| {
        let mut g = game(id, seats);
        g.public = true;
        g.created_at += at;
        g
    };
    let mut strong = make(
        "strong",
        vec![person("t1", Some("p1")), person("t2", Some("p2"))],
        0,
    );
    // Rated but not public: a rated game is listed all the same.
    (strong.public, strong.rated) = (false, true);
    let mid = make(
        "mid",
        vec![person("t3", Some("p3")), person("t4", None), bot()],
        1,
    );
    let guests = make("guests", vec![person("t5", None), person("t6", None)], 2);
    let later = make("later", vec![person("t7", None), person("t8", None)], 3);
    let mut private = make("private", vec![person("t9", None), person("ta", None)], 4);
    private.public = false;
    let with_bot = make("with_bot", vec![person("tb", Some("p1")), bot()], 5);
    let waiting = make("waiting", vec![person("tc", Some("p1")), human("i")], 6);
    let mut practice = make("practice", vec![person("td", None), person("te", None)], 7);
    practice.practice = true;
    let mut left = person("tf", Some("p1"));
    if let SavedSeat::Human { left: l, .. } = &mut left {
        *l = Some(Left {
            reason: crate::store::LeftReason::Resigned,
            version: 3,
            at_ms: 1_700_000_000_000,
            bot: "greedy".into(),
            level: 1,
        });
    }
    let gone = make("gone", vec![left, person("tg", Some("p2"))], 8);
    for g in [
        &strong, &mid, &guests, &later, &private, &with_bot, &waiting, &practice, &gone,
    ] {
        create(&*a, g).await;
    }
    let listed = b.live_games(50, 0).await.unwrap();
    assert_eq!(ids(&listed), ["strong", "mid", "later", "guests"]);
    assert_eq!(listed[0].ratings.len(), 2);
    assert_eq!(listed[0].ratings["p1"].mu, 40.0);
    assert!(listed[0].rated);
    assert_eq!(listed[1].seats, mid.seats);
    assert!(listed[1].ratings.contains_key("p3"));
    assert_eq!(listed[1].spectators, 0);
    assert_eq!(ids(&b.live_games(2, 0).await.unwrap()), ["strong", "mid"]);
    // A game that is over leaves the list.
    let over = MoveWrite {
        after: Progress {
            over: true,
            bot_to_act: false,
            deadline_ms: None,
        },
        ..mv("later", 0, 0, Some("t7"), Move::Pass)
    };
    a.append_move(&over).await.unwrap();
    assert_eq!(
        ids(&b.live_games(50, 0).await.unwrap()),
        ["strong", "mid", "guests"]
    );
}

/// Each server writes its own count; the list adds up the fresh ones.
pub async fn spectator_counts((a, b): Handles) {
    let mid = game("mid", vec![person("t1", None), person("t2", None)]);
    let guests = game("guests", vec![person("t3", None), person("t4", None)]);
    for mut g in [mid, guests] {
        g.public = true;
        create(&*a, &g).await;
    }
    let counts = |s: &[(&str, u64)]| -> Vec<(String, u64)> {
        s.iter().map(|(g, n)| (g.to_string(), *n)).collect()
    };
    let watching = |games: Vec<crate::store::LiveGame>| -> Vec<(String, u64)> {
        let mut w: Vec<(String, u64)> = games.into_iter().map(|g| (g.id, g.spectators)).collect();
        w.sort();
        w
    };
    a.put_spectators("s1", &counts(&[("mid", 2), ("guests", 1)]), 1_000)
        .await
        .unwrap();
    b.put_spectators("s2", &counts(&[("mid", 1)]), 1_000)
        .await
        .unwrap();
    assert_eq!(
        watching(a.live_games(50, 0).await.unwrap()),
        counts(&[("guests", 1), ("mid", 3)])
    );
    // A count of 0 takes the row out; a new count replaces the old.
    a.put_spectators("s1", &counts(&[("guests", 0), ("mid", 5)]), 1_000)
        .await
        .unwrap();
    assert_eq!(
        watching(b.live_games(50, 0).await.unwrap()),
        counts(&[("guests", 0), ("mid", 6)])
    );
    assert_eq!(b.spectators("mid", 0).await, Ok(6));
    // Counts stamped before the freshness bound are not added up.
    assert_eq!(b.spectators("mid", 1_001).await, Ok(0));
    // A refresh stamps the server's whole count anew, and forgets old rows of any server.
    b.refresh_spectators("s2", &counts(&[("guests", 4)]), 5_000, 2_000)
        .await
        .unwrap();
    assert_eq!(
        watching(a.live_games(50, 0).await.unwrap()),
        counts(&[("guests", 4), ("mid", 0)])
    );
    assert_eq!(a.row_count("spectators").await, Ok(1));
    a.drop_spectators("s2").await.unwrap();
    assert_eq!(b.spectators("guests", 0).await, Ok(0));
}
