//! Writes made inside another write's transaction: a notice raised with the event it tells of,
//! its mail put in the outbox; an account's address forgotten with the account. (Kept apart
//! from the stores' methods, which the store's core calls: no circle.)

use super::super::db::{args, Conn, Sql};
use super::super::{NewNotice, NoticeKind, StoreError};

use Sql::Both;

/// Raises a notice, in the caller's transaction, and puts its mail in the outbox if its account
/// wants it mailed. An account has at most one unread "your turn" notice per game: a new one
/// moves the unread one up instead of piling up beside it; "game over" marks it read.
pub(in crate::store) async fn raise(c: &mut dyn Conn, n: &NewNotice) -> Result<(), StoreError> {
    let moved_up = match (n.kind, &n.game) {
        (NoticeKind::YourTurn, Some(game)) => {
            c.execute(
                Both(
                    "UPDATE notices SET at = $3 WHERE player_id = $1 AND game_id = $2
                         AND kind = 'your_turn' AND read_at IS NULL",
                ),
                args![&n.player, game, n.at_ms],
            )
            .await?
                > 0
        }
        (NoticeKind::GameOver, Some(game)) => {
            // Over: no more turns to take in it.
            c.execute(
                Both(
                    "UPDATE notices SET read_at = $3 WHERE player_id = $1 AND game_id = $2
                         AND kind = 'your_turn' AND read_at IS NULL",
                ),
                args![&n.player, game, n.at_ms],
            )
            .await?;
            false
        }
        _ => false,
    };
    if !moved_up {
        c.execute(
            Both(
                "INSERT INTO notices (id, player_id, kind, game_id, about, at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            ),
            args![
                &n.id,
                &n.player,
                n.kind.as_str(),
                &n.game,
                &n.about,
                n.at_ms
            ],
        )
        .await?;
    }
    enqueue(c, n).await
}

/// A day's number (UTC days since the epoch): at most one mail per account, subject and day.
fn day_of(at_ms: i64) -> i64 {
    at_ms.div_euclid(86_400_000)
}

/// Puts the mail for notice `n` in the outbox, in the notice's transaction, if its account has
/// a verified address, wants this kind mailed, and got no mail about the same subject today.
async fn enqueue(c: &mut dyn Conn, n: &NewNotice) -> Result<(), StoreError> {
    let subject = match (n.kind, &n.game, &n.about) {
        (NoticeKind::YourTurn, Some(game), _) => format!("game {game}"),
        (NoticeKind::Challenge, _, Some(about)) => format!("challenge {about}"),
        (NoticeKind::Challenge, Some(game), None) => format!("game {game}"),
        _ => return Ok(()),
    };
    c.execute(
        Both(
            "INSERT INTO mail_outbox (id, player_id, kind, subject, day, game_id, about, at)
             SELECT $1, player_id, $3, $4, $5, $6, $7, $8 FROM mail_addresses
             WHERE player_id = $2 AND verified_at IS NOT NULL
                 AND ((your_turn AND $3 = 'your_turn') OR (challenges AND $3 = 'challenge'))
             ON CONFLICT (player_id, subject, day) DO NOTHING",
        ),
        args![
            &n.id,
            &n.player,
            n.kind.as_str(),
            subject,
            day_of(n.at_ms),
            &n.game,
            &n.about,
            n.at_ms
        ],
    )
    .await?;
    Ok(())
}

/// Forgets the account's address (the account is deleted).
pub(super) async fn forget(c: &mut dyn Conn, player: &str) -> Result<(), StoreError> {
    c.execute(
        Both("DELETE FROM mail_addresses WHERE player_id = $1"),
        args![player],
    )
    .await?;
    Ok(())
}
