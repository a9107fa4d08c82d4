//! The daily challenge: attempts and results.

use super::*;

/// A daily game of `day` in `variant` for the account `player` (none: a guest's).
pub(super) fn daily_game(id: &str, day: &str, variant: Variant, player: Option<&str>) -> SavedGame {
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

pub(super) fn par_game(id: &str, day: &str, variant: Variant) -> SavedGame {
    let mut g = game(id, vec![bot()]);
    g.variant = variant;
    g.daily = Some(DailyTag {
        day: day.into(),
        par: true,
        result: None,
    });
    g
}

pub(super) const DAY: &str = "2026-12-03";

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

pub(super) fn solo_end(game: &str, token: &str, tiles: u8, score: i64, at_ms: i64) -> MoveWrite {
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
